//! Stream VByte for u64 values: byte lengths 1, 2, 4 and 8.
//!
//! The layout is that of 32-bit Stream VByte (Lemire, Kurz, Rupp, *Stream
//! VByte: Faster Byte-Oriented Integer Compression*, 2018, §4) with other
//! lengths behind the 2-bit codes, byte for byte what the `streamvbyte64`
//! crate's `Coder1248` writes (its tag bytes, then its data bytes):
//!
//! ```text
//!   [ control: ceil(n/4) bytes ][ data: each value's low bytes, little-endian ]
//!   control byte k = c0 | c1 << 2 | c2 << 4 | c3 << 6  for values 4k .. 4k+3
//!   code c:  0 -> 1 byte,  1 -> 2 bytes,  2 -> 4 bytes,  3 -> 8 bytes
//! ```
//!
//! A value takes the shortest of those lengths that holds it. The stream does
//! not store `n`: the caller passes it (as the output length). When `n` is
//! not a multiple of 4 the last control byte has unused codes, written as 0
//! and ignored when decoding. The worst case is [`max_encoded_len`]`(n)` =
//! `ceil(n/4) + 8n` bytes.
//!
//! Differential coding ([`encode_delta`], [`decode_delta`]) stores the gaps
//! between successive values from a `prev` the caller chooses, wrapping
//! modulo 2^64; the SIMD decoders add the prefix sum as they write.
//!
//! Decoders take untrusted input and need no padding: a kernel handles whole
//! control bytes while 32 data bytes remain (the most 4 values take), and the
//! checked scalar code does the rest and reports any truncation.
//!
//! # Kernels
//!
//! Each control byte is two nibbles, each describing a pair of values that
//! fits in 16 bytes. SSE4.1 and Neon load 16 bytes at each pair's start and
//! shuffle them into two 64-bit lanes (`pshufb` / `tbl` with one of 16
//! masks); AVX2 does both pairs in one 256-bit `vpshufb` (a lane each);
//! AVX-512 moves all four values with one `vpermb` from 32 bytes.
//!
//! # Example
//!
//! ```
//! use vecpress::stream_vbyte::u64 as sv64;
//!
//! let values = [1u64, 300, 1 << 40, 7, 70_000];
//! let mut bytes = vec![0u8; sv64::max_encoded_len(values.len())];
//! let len = sv64::encode(&values, &mut bytes);
//! // Two control bytes, then 1 + 2 + 8 + 1 + 4 data bytes.
//! assert_eq!(len, 2 + 16);
//! assert_eq!(bytes[0], 0b00_11_01_00);
//!
//! let mut out = [0u64; 5];
//! assert_eq!(sv64::decode(&bytes[..len], &mut out)?, len);
//! assert_eq!(out, values);
//! # Ok::<(), vecpress::Error>(())
//! ```

mod scalar;
mod tables;
mod zigzag;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod generic;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse41;
#[cfg(target_arch = "x86_64")]
mod wide;

pub use zigzag::{
    decode_i64, decode_i64_to_vec, decode_zigzag_delta, decode_zigzag_delta_to_vec, encode_i64,
    encode_i64_to_vec, encode_zigzag_delta, encode_zigzag_delta_to_vec,
};

use crate::{Error, Isa};

/// Worst-case encoded size of `n` values: `ceil(n/4)` control bytes and 8
/// data bytes a value.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::u64::max_encoded_len(5), 2 + 40);
/// ```
pub const fn max_encoded_len(n: usize) -> usize {
    scalar::control_len(n).saturating_add(n.saturating_mul(8))
}

/// Exact encoded size of `values`.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::u64::encoded_len(&[1, 256, u64::MAX]), 1 + 1 + 2 + 8);
/// ```
pub fn encoded_len(values: &[u64]) -> usize {
    scalar::control_len(values.len()) + values.iter().map(|&v| scalar::data_len(v)).sum::<usize>()
}

/// Encodes `values` into `out`; returns the bytes written.
///
/// # Panics
/// If `out` is shorter than [`encoded_len`]`(values)`; a buffer of
/// [`max_encoded_len`]`(values.len())` bytes always suffices.
///
/// ```
/// let mut out = [0u8; 20];
/// let n = vecpress::stream_vbyte::u64::encode(&[5, 1 << 16], &mut out);
/// assert_eq!(&out[..n], &[0b10_00, 5, 0, 0, 1, 0]);
/// ```
pub fn encode(values: &[u64], out: &mut [u8]) -> usize {
    check_room(out.len(), values.len(), || encoded_len(values));
    scalar::encode(values.iter().copied(), values.len(), out)
}

/// Encodes `values` into a new vector of exactly the encoded length.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::u64::encode_to_vec(&[1, 2, 3]), vec![0, 1, 2, 3]);
/// ```
pub fn encode_to_vec(values: &[u64]) -> Vec<u8> {
    let mut out = vec![0u8; encoded_len(values)];
    encode(values, &mut out);
    out
}

/// Encodes the gaps `values[0] - prev, values[1] - values[0], ...`
/// (wrapping); returns the bytes written. Panics as [`encode`] does.
///
/// ```
/// let mut out = [0u8; 30];
/// let n = vecpress::stream_vbyte::u64::encode_delta(&[10, 11, 300], 0, &mut out);
/// assert_eq!(&out[..n], &[0b01_00_00, 10, 1, 33, 1]);
/// ```
pub fn encode_delta(values: &[u64], prev: u64, out: &mut [u8]) -> usize {
    check_room(out.len(), values.len(), || {
        scalar::control_len(values.len()) + gaps(values, prev).map(scalar::data_len).sum::<usize>()
    });
    scalar::encode(gaps(values, prev), values.len(), out)
}

/// Like [`encode_delta`], into a new vector.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::u64::encode_delta_to_vec(&[5, 6], 0), vec![0, 5, 1]);
/// ```
pub fn encode_delta_to_vec(values: &[u64], prev: u64) -> Vec<u8> {
    let len =
        scalar::control_len(values.len()) + gaps(values, prev).map(scalar::data_len).sum::<usize>();
    let mut out = vec![0u8; len];
    encode_delta(values, prev, &mut out);
    out
}

/// Decodes `out.len()` values from the start of `input` with the best kernel
/// this process may use; returns the bytes consumed (control and data).
///
/// ```
/// let mut out = [0u64; 2];
/// assert_eq!(vecpress::stream_vbyte::u64::decode(&[0b10_00, 5, 0, 0, 1, 0, 99], &mut out), Ok(6));
/// assert_eq!(out, [5, 1 << 16]);
/// ```
pub fn decode(input: &[u8], out: &mut [u64]) -> Result<usize, Error> {
    decode_impl(
        crate::tune::isa(crate::tune::Op::StreamVByte64),
        input,
        out,
        None,
    )
}

/// [`decode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{stream_vbyte::u64 as sv64, Isa};
/// for &isa in Isa::available() {
///     let mut out = [0u64; 1];
///     assert_eq!(sv64::decode_with(isa, &[0, 7], &mut out), Ok(2));
///     assert_eq!(out, [7]);
/// }
/// ```
pub fn decode_with(isa: Isa, input: &[u8], out: &mut [u64]) -> Result<usize, Error> {
    decode_impl(isa.check()?, input, out, None)
}

/// Decodes `n` values into a new vector. A count the input cannot hold (a
/// control byte per 4 values and a data byte per value) is an error before
/// anything is allocated.
///
/// ```
/// use vecpress::stream_vbyte::u64 as sv64;
/// assert_eq!(sv64::decode_to_vec(&[0b11, 0, 0, 0, 0, 0, 0, 0, 1], 1), Ok(vec![1 << 56]));
/// assert!(sv64::decode_to_vec(&[0, 1], 1_000_000_000).is_err());
/// ```
pub fn decode_to_vec(input: &[u8], n: usize) -> Result<Vec<u64>, Error> {
    scalar::check_size(input, n)?;
    let mut out = vec![0u64; n];
    decode(input, &mut out)?;
    Ok(out)
}

/// Decodes `out.len()` gaps and writes their running sum from `prev`
/// (wrapping); returns the bytes consumed. The inverse of [`encode_delta`].
///
/// ```
/// let mut out = [0u64; 2];
/// assert_eq!(vecpress::stream_vbyte::u64::decode_delta(&[0, 5, 1], &mut out, 100), Ok(3));
/// assert_eq!(out, [105, 106]);
/// ```
pub fn decode_delta(input: &[u8], out: &mut [u64], prev: u64) -> Result<usize, Error> {
    decode_impl(
        crate::tune::isa(crate::tune::Op::StreamVByte64),
        input,
        out,
        Some(prev),
    )
}

/// [`decode_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{stream_vbyte::u64 as sv64, Isa};
/// let mut out = [0u64; 2];
/// assert_eq!(sv64::decode_delta_with(Isa::Scalar, &[0, 1, 1], &mut out, 0), Ok(3));
/// assert_eq!(out, [1, 2]);
/// ```
pub fn decode_delta_with(
    isa: Isa,
    input: &[u8],
    out: &mut [u64],
    prev: u64,
) -> Result<usize, Error> {
    decode_impl(isa.check()?, input, out, Some(prev))
}

/// Like [`decode_to_vec`], for a delta-coded stream.
///
/// ```
/// use vecpress::stream_vbyte::u64 as sv64;
/// let bytes = sv64::encode_delta_to_vec(&[1 << 40, (1 << 40) + 3], 0);
/// assert_eq!(sv64::decode_delta_to_vec(&bytes, 2, 0), Ok(vec![1 << 40, (1 << 40) + 3]));
/// ```
pub fn decode_delta_to_vec(input: &[u8], n: usize, prev: u64) -> Result<Vec<u64>, Error> {
    scalar::check_size(input, n)?;
    let mut out = vec![0u64; n];
    decode_delta(input, &mut out, prev)?;
    Ok(out)
}

/// The levels that have a decoding kernel of their own, among those available.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::u64::kernels()[0], vecpress::Isa::Scalar);
/// ```
pub fn kernels() -> Vec<Isa> {
    Isa::available()
        .iter()
        .copied()
        .filter(|isa| {
            matches!(
                isa,
                Isa::Scalar | Isa::Sse41 | Isa::Avx2 | Isa::Avx512 | Isa::Neon
            )
        })
        .collect()
}

/// Decodes a whole stream: checks its size, then [`decode_part`].
fn decode_impl(isa: Isa, input: &[u8], out: &mut [u64], prev: Option<u64>) -> Result<usize, Error> {
    let control = scalar::check_size(input, out.len())?;
    let (ctrl, data) = input.split_at(control);
    let mut last = prev.unwrap_or(0);
    let used = decode_part(isa, ctrl, data, control, out, prev.map(|_| &mut last))?;
    Ok(control + used)
}

/// The one map from ISA level to kernel: decodes `out.len()` values whose
/// codes start at `ctrl[0]` and data at `data[0]` (`data` starts at byte
/// `base` of the caller's input); returns the data bytes consumed. The
/// kernel decodes whole control bytes while it can, the checked scalar code
/// the rest. With `prev`, writes the running sum from it and leaves the
/// last value in it.
pub(crate) fn decode_part(
    isa: Isa,
    ctrl: &[u8],
    data: &[u8],
    base: usize,
    out: &mut [u64],
    mut prev: Option<&mut u64>,
) -> Result<usize, Error> {
    let last = prev.as_deref_mut();
    let (consumed, produced) = match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the CPU has
        // SSE4.1.
        Isa::Sse41 => unsafe { sse41::decode_bulk(ctrl, data, out, last) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has every feature of the Avx2 level.
        Isa::Avx2 => unsafe { avx2::decode_bulk(ctrl, data, out, last) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has every feature of the Avx512 level.
        Isa::Avx512 => unsafe { avx512::decode_bulk(ctrl, data, out, last) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has Neon.
        Isa::Neon => unsafe { neon::decode_bulk(ctrl, data, out, last) },
        _ => {
            let _ = last;
            (0, 0)
        }
    };
    match prev {
        Some(last) => scalar::decode_rest(ctrl, data, out, produced, consumed, base, |g| {
            *last = last.wrapping_add(g);
            *last
        }),
        None => scalar::decode_rest(ctrl, data, out, produced, consumed, base, |v| v),
    }
}

/// The gaps of `values` from `prev`, wrapping.
fn gaps(values: &[u64], prev: u64) -> impl Iterator<Item = u64> + '_ {
    values.iter().scan(prev, |p, &v| {
        let gap = v.wrapping_sub(*p);
        *p = v;
        Some(gap)
    })
}

/// Panics with a clear message when `have` bytes cannot hold the encoding.
#[inline]
fn check_room(have: usize, n: usize, exact: impl FnOnce() -> usize) {
    if have < max_encoded_len(n) {
        let need = exact();
        assert!(
            have >= need,
            "stream_vbyte::u64: output buffer of {have} bytes is too small, {need} needed"
        );
    }
}
