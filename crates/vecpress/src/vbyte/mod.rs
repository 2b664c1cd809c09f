//! VByte (LEB128 varints), with the Masked VByte SIMD decoder.
//!
//! Source: Plaisance, Kurz, Lemire, *Vectorized VByte Decoding* (2015), §I
//! for the format, §IV for the Masked VByte decoder. Byte-compatible with
//! protobuf's varints, Lucene's vInt and Go's `binary.Uvarint`.
//!
//! # Format
//!
//! Each value is written from its least significant bits up, seven bits a
//! byte; the high bit of a byte is set when another byte of the same value
//! follows (paper, Table 1):
//!
//! ```text
//!   value 300 = 0b10_0101100
//!   bytes      1_0101100  0_0000010
//!              ^ more     ^ last
//! ```
//!
//! A u32 takes 1 to 5 bytes (the 5th holds the top 4 bits, so it is at most
//! `0x0f`); a u64 takes 1 to 10 bytes (the 10th is at most `0x01`). The
//! stream stores no count: the caller passes it (the length of the output
//! slice), and decoding stops with [`Error::Truncated`] when the bytes run
//! out. The worst case is [`max_encoded_len`]`(n)` = 5n bytes (10n for u64).
//!
//! Differential coding ([`encode_delta`], [`decode_delta`]) stores the gaps
//! between successive values, starting from a `prev` the caller chooses
//! (usually 0); the SIMD decoders compute the prefix sum as they write, not in
//! a second pass. Gaps wrap modulo 2^32, so any sequence round-trips.
//!
//! Decoders take untrusted input and need no padding: the SIMD kernels run
//! while a full register of input remains and hand everything else, and
//! anything odd, to the checked scalar code, which names the broken rule and
//! its byte offset.
//!
//! # Example
//!
//! ```
//! use vecpress::vbyte;
//!
//! let values = [1u32, 128, 300, 16_384, u32::MAX];
//! let mut bytes = vec![0u8; vbyte::max_encoded_len(values.len())];
//! let len = vbyte::encode(&values, &mut bytes);
//! assert_eq!(&bytes[..4], &[0x01, 0x80, 0x01, 0xac]);
//!
//! let mut out = [0u32; 5];
//! let consumed = vbyte::decode(&bytes[..len], &mut out)?;
//! assert_eq!((consumed, out), (len, values));
//! # Ok::<(), vecpress::Error>(())
//! ```

mod cursor;
mod scalar;
mod search;
mod zigzag;

#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod masked;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod tables;

pub use cursor::DeltaCursor;
pub use search::{search_delta, select_delta};
pub use zigzag::{
    decode_i32, decode_i64, encode_i32, encode_i32_to_vec, encode_i64, encode_i64_to_vec,
};
pub(crate) use zigzag::{unzigzag32, unzigzag64, zigzag32, zigzag64};

use crate::{Error, Isa};

/// Worst-case encoded size of `n` u32 values: 5 bytes each.
///
/// ```
/// assert_eq!(vecpress::vbyte::max_encoded_len(3), 15);
/// ```
pub const fn max_encoded_len(n: usize) -> usize {
    n.saturating_mul(5)
}

/// Worst-case encoded size of `n` u64 values: 10 bytes each.
///
/// ```
/// assert_eq!(vecpress::vbyte::max_encoded_len_u64(3), 30);
/// ```
pub const fn max_encoded_len_u64(n: usize) -> usize {
    n.saturating_mul(10)
}

/// Exact encoded size of `values`.
///
/// ```
/// assert_eq!(vecpress::vbyte::encoded_len(&[1, 128, u32::MAX]), 1 + 2 + 5);
/// ```
pub fn encoded_len(values: &[u32]) -> usize {
    values.iter().map(|&v| scalar::len_u32(v)).sum()
}

/// Exact encoded size of `values` as u64 varints.
///
/// ```
/// assert_eq!(vecpress::vbyte::encoded_len_u64(&[1, u64::MAX]), 1 + 10);
/// ```
pub fn encoded_len_u64(values: &[u64]) -> usize {
    values.iter().map(|&v| scalar::len_u64(v)).sum()
}

/// Encodes `values` into `out`; returns the bytes written.
///
/// # Panics
/// If `out` is shorter than [`encoded_len`]`(values)`; a buffer of
/// [`max_encoded_len`]`(values.len())` bytes always suffices.
///
/// ```
/// let mut out = [0u8; 10];
/// let n = vecpress::vbyte::encode(&[300, 5], &mut out);
/// assert_eq!(&out[..n], &[0xac, 0x02, 0x05]);
/// ```
pub fn encode(values: &[u32], out: &mut [u8]) -> usize {
    check_room(out.len(), values.len(), 5, || encoded_len(values));
    let mut pos = 0;
    for &v in values {
        pos = scalar::put_u32(out, pos, v);
    }
    pos
}

/// Like [`encode`], but returns `Err(OutputTooSmall)` instead of panicking
/// when `out` cannot hold the encoding (and then leaves `out` unchanged).
///
/// ```
/// use vecpress::{vbyte, Error};
/// let mut small = [0u8; 2];
/// assert_eq!(vbyte::try_encode(&[300, 5], &mut small), Err(Error::OutputTooSmall { needed: 3, actual: 2 }));
/// let mut out = [0u8; 3];
/// assert_eq!(vbyte::try_encode(&[300, 5], &mut out), Ok(3));
/// ```
pub fn try_encode(values: &[u32], out: &mut [u8]) -> Result<usize, Error> {
    if out.len() < max_encoded_len(values.len()) {
        let needed = encoded_len(values);
        if out.len() < needed {
            return Err(Error::OutputTooSmall {
                needed,
                actual: out.len(),
            });
        }
    }
    Ok(encode(values, out))
}

/// Encodes `values` into a new vector of exactly the encoded length.
///
/// ```
/// assert_eq!(vecpress::vbyte::encode_to_vec(&[1, 2, 3]), vec![1, 2, 3]);
/// ```
pub fn encode_to_vec(values: &[u32]) -> Vec<u8> {
    let mut out = vec![0u8; encoded_len(values)];
    encode(values, &mut out);
    out
}

/// Encodes the gaps `values[0] - prev, values[1] - values[0], ...` (wrapping);
/// returns the bytes written. Panics as [`encode`] does.
///
/// ```
/// let mut out = [0u8; 15];
/// let n = vecpress::vbyte::encode_delta(&[10, 11, 13], 0, &mut out);
/// assert_eq!(&out[..n], &[10, 1, 2]);
/// ```
pub fn encode_delta(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    check_room(out.len(), values.len(), 5, || {
        gaps(values, prev).map(scalar::len_u32).sum()
    });
    let mut pos = 0;
    for gap in gaps(values, prev) {
        pos = scalar::put_u32(out, pos, gap);
    }
    pos
}

/// Like [`encode_delta`], into a new vector.
///
/// ```
/// assert_eq!(vecpress::vbyte::encode_delta_to_vec(&[5, 6, 200], 0), vec![5, 1, 194, 1]);
/// ```
pub fn encode_delta_to_vec(values: &[u32], prev: u32) -> Vec<u8> {
    let len = gaps(values, prev).map(scalar::len_u32).sum();
    let mut out = vec![0u8; len];
    encode_delta(values, prev, &mut out);
    out
}

/// Encodes u64 values (up to 10 bytes each); returns the bytes written.
/// Panics if `out` is shorter than [`encoded_len_u64`]`(values)`.
///
/// ```
/// let mut out = [0u8; 20];
/// let n = vecpress::vbyte::encode_u64(&[u64::MAX], &mut out);
/// assert_eq!(&out[..n], &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
/// ```
pub fn encode_u64(values: &[u64], out: &mut [u8]) -> usize {
    check_room(out.len(), values.len(), 10, || encoded_len_u64(values));
    let mut pos = 0;
    for &v in values {
        pos = scalar::put_u64(out, pos, v);
    }
    pos
}

/// Encodes u64 values into a new vector.
///
/// ```
/// assert_eq!(vecpress::vbyte::encode_u64_to_vec(&[1 << 35]), vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
/// ```
pub fn encode_u64_to_vec(values: &[u64]) -> Vec<u8> {
    let mut out = vec![0u8; encoded_len_u64(values)];
    encode_u64(values, &mut out);
    out
}

/// Decodes `out.len()` values from the start of `input` with the best kernel
/// this process may use; returns the bytes consumed. Bytes after the last
/// value are left alone.
///
/// ```
/// let mut out = [0u32; 2];
/// assert_eq!(vecpress::vbyte::decode(&[0xac, 0x02, 0x05, 0xff], &mut out), Ok(3));
/// assert_eq!(out, [300, 5]);
/// ```
pub fn decode(input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl(crate::tune::isa(crate::tune::Op::VByte), input, out)
}

/// [`decode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
/// Levels without a kernel of their own use the next lower one (AVX2 runs
/// the SSE4.1 Masked VByte kernel).
///
/// ```
/// use vecpress::{vbyte, Isa};
/// for &isa in Isa::available() {
///     let mut out = [0u32; 1];
///     assert_eq!(vbyte::decode_with(isa, &[0x7f], &mut out), Ok(1));
///     assert_eq!(out, [127]);
/// }
/// ```
pub fn decode_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl(isa.check()?, input, out)
}

/// Decodes `n` values into a new vector.
///
/// `n` is checked against the input before allocating: each value takes at
/// least one byte, so no more than `input.len()` values are allocated.
///
/// ```
/// assert_eq!(vecpress::vbyte::decode_to_vec(&[1, 0x80, 0x01], 2), Ok(vec![1, 128]));
/// assert!(vecpress::vbyte::decode_to_vec(&[1], 1_000_000_000).is_err());
/// ```
pub fn decode_to_vec(input: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    crate::error::decode_to_vec(input, n, 1, |out| decode(input, out))
}

/// Decodes `out.len()` gaps and writes their running sum from `prev`; returns
/// the bytes consumed. The inverse of [`encode_delta`].
///
/// ```
/// let mut out = [0u32; 3];
/// assert_eq!(vecpress::vbyte::decode_delta(&[10, 1, 2], &mut out, 0), Ok(3));
/// assert_eq!(out, [10, 11, 13]);
/// ```
pub fn decode_delta(input: &[u8], out: &mut [u32], prev: u32) -> Result<usize, Error> {
    decode_delta_impl(
        crate::tune::isa(crate::tune::Op::VByteDelta),
        input,
        out,
        prev,
    )
}

/// [`decode_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{vbyte, Isa};
/// let mut out = [0u32; 2];
/// assert_eq!(vbyte::decode_delta_with(Isa::Scalar, &[1, 1], &mut out, 100), Ok(2));
/// assert_eq!(out, [101, 102]);
/// ```
pub fn decode_delta_with(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, Error> {
    decode_delta_impl(isa.check()?, input, out, prev)
}

/// Like [`decode_to_vec`], for a delta-coded stream.
///
/// ```
/// assert_eq!(vecpress::vbyte::decode_delta_to_vec(&[5, 1, 194, 1], 3, 0), Ok(vec![5, 6, 200]));
/// ```
pub fn decode_delta_to_vec(input: &[u8], n: usize, prev: u32) -> Result<Vec<u32>, Error> {
    crate::error::decode_to_vec(input, n, 1, |out| decode_delta(input, out, prev))
}

/// Decodes `out.len()` u64 values; returns the bytes consumed.
///
/// ```
/// let mut out = [0u64; 1];
/// assert_eq!(vecpress::vbyte::decode_u64(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01], &mut out), Ok(6));
/// assert_eq!(out, [1 << 35]);
/// ```
pub fn decode_u64(input: &[u8], out: &mut [u64]) -> Result<usize, Error> {
    scalar::decode_u64(input, out, 0)
}

/// Decodes `n` u64 values into a new vector (allocating at most `input.len()`).
///
/// ```
/// assert_eq!(vecpress::vbyte::decode_u64_to_vec(&[1, 2], 2), Ok(vec![1, 2]));
/// ```
pub fn decode_u64_to_vec(input: &[u8], n: usize) -> Result<Vec<u64>, Error> {
    crate::error::decode_to_vec(input, n, 1, |out| decode_u64(input, out))
}

/// The levels that have a decoding kernel of their own, among those available.
///
/// ```
/// assert_eq!(vecpress::vbyte::kernels()[0], vecpress::Isa::Scalar);
/// ```
pub fn kernels() -> Vec<Isa> {
    Isa::available()
        .iter()
        .copied()
        .filter(|isa| matches!(isa, Isa::Scalar | Isa::Sse41 | Isa::Avx512 | Isa::Neon))
        .collect()
}

/// Below this many values a kernel's set-up costs more than it saves (lists
/// of a few values are common: positions, short posting lists). The SSE4.1
/// kernel needs room for 16 values to start at all.
const fn min_kernel(isa: Isa) -> usize {
    match isa {
        Isa::Sse41 | Isa::Avx2 => 16,
        _ => 8,
    }
}

/// [`decode_with`] for a level the caller has checked (`Isa::best()`, the
/// tuned choice, or `Isa::check()`): what the streams of other codecs call
/// for their VByte tails.
///
/// Lists too short for a kernel return from the scalar loop before the
/// kernels' setup: in a posting index most lists hold a value or two, and
/// there a call's fixed cost is most of its time.
#[inline]
pub(crate) fn decode_impl(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    if out.len() < min_kernel(isa) {
        return scalar::decode(input, out, 0);
    }
    decode_bulk(isa, input, out)
}

/// The one map from ISA level to kernel. The kernel decodes a prefix and the
/// checked scalar path does the rest (the tail, or anything it declined).
/// Not inlined, so that [`decode_impl`]'s short path does not save and
/// restore the registers the kernels use.
#[inline(never)]
fn decode_bulk(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    let (consumed, produced) = match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the CPU has
        // SSE4.1 (Avx2 implies it).
        Isa::Sse41 | Isa::Avx2 => unsafe { masked::decode_bulk(input, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has every feature of the Avx512 level.
        Isa::Avx512 => unsafe { avx512::decode_bulk(input, out) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has Neon.
        Isa::Neon => unsafe { neon::decode_bulk(input, out) },
        _ => (0, 0),
    };
    let rest = scalar::decode(&input[consumed..], &mut out[produced..], consumed)?;
    Ok(consumed + rest)
}

/// [`decode_delta_with`] for a level the caller has checked, short lists
/// first, as [`decode_impl`].
#[inline]
pub(crate) fn decode_delta_impl(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    mut prev: u32,
) -> Result<usize, Error> {
    if out.len() < min_kernel(isa) {
        return scalar::decode_delta(input, out, &mut prev, 0);
    }
    decode_delta_bulk(isa, input, out, prev)
}

/// The VByte tail of another codec's block stream: `out.len()` values
/// from the start of `input`, read as gaps summed from `prev` when there is
/// one (a delta stream), else as the values themselves; the bytes
/// consumed. The one place the block streams choose between the two
/// decoders. Errors are at offsets in `input`: a caller whose tail starts
/// further into its stream shifts them.
#[inline]
pub(crate) fn decode_tail(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    prev: Option<u32>,
) -> Result<usize, Error> {
    match prev {
        Some(prev) => decode_delta_impl(isa, input, out, prev),
        None => decode_impl(isa, input, out),
    }
}

/// [`decode_bulk`] with the running sum from `prev`.
#[inline(never)]
fn decode_delta_bulk(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    mut prev: u32,
) -> Result<usize, Error> {
    let (consumed, produced) = match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the CPU has
        // SSE4.1 (Avx2 implies it).
        Isa::Sse41 | Isa::Avx2 => unsafe { masked::decode_delta_bulk(input, out, &mut prev) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has every feature of the Avx512 level.
        Isa::Avx512 => unsafe { avx512::decode_delta_bulk(input, out, &mut prev) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has Neon.
        Isa::Neon => unsafe { neon::decode_delta_bulk(input, out, &mut prev) },
        _ => (0, 0),
    };
    let rest = scalar::decode_delta(
        &input[consumed..],
        &mut out[produced..],
        &mut prev,
        consumed,
    )?;
    Ok(consumed + rest)
}

/// The gaps of `values` from `prev`, wrapping.
fn gaps(values: &[u32], prev: u32) -> impl Iterator<Item = u32> + '_ {
    values.iter().scan(prev, |p, &v| {
        let gap = v.wrapping_sub(*p);
        *p = v;
        Some(gap)
    })
}

/// Panics with a clear message when `have` bytes cannot hold the encoding.
#[inline]
fn check_room(have: usize, n: usize, widest: usize, exact: impl FnOnce() -> usize) {
    if have < n.saturating_mul(widest) {
        let need = exact();
        assert!(
            have >= need,
            "vbyte: output buffer of {have} bytes is too small, {need} needed"
        );
    }
}
