//! Varint-GB: Google's group varint, four values per control byte.
//!
//! Source: J. Dean, *Challenges in building large-scale information
//! retrieval systems*, WSDM 2009 (invited talk); described in Lemire, Kurz,
//! Rupp, *Stream VByte* (2018), §3 and Fig. 1. The group layout is
//! byte-compatible with FastPFor's `VarIntGB` (whose stream adds a 4-byte
//! count in front and zero padding to a multiple of 4 bytes at the end;
//! this one stores neither).
//!
//! # Format
//!
//! Values go in groups of four. A group is one control byte followed by the
//! data bytes of its four values. Bits `2i..2i + 2` of the control byte (the
//! lowest bits for the first value) hold `len - 1` for value `i`, whose `len`
//! (1 to 4) low bytes follow, little-endian, with no gap:
//!
//! ```text
//!   values   1, 1024, 12, 1 073 741 824
//!   control  0b11_00_01_00 = 0xc4      (lengths 1, 2, 1, 4, first in the low bits)
//!   bytes    c4 | 01 | 00 04 | 0c | 00 00 00 40
//! ```
//!
//! A value takes as few bytes as hold it (0 takes one). The stream stores
//! no count: the caller passes it (the length of the output slice). When it
//! is not a multiple of four, the last group holds only the values present:
//! its control byte describes them in its low bits, the codes of the absent
//! values are zero, and no data bytes follow for them (`[5, 300]` is
//! `04 05 2c 01`). The decoder requires those unused codes to be zero. The
//! worst case is [`max_encoded_len`]`(n)` = 4n + ⌈n/4⌉ bytes.
//!
//! Differential coding ([`encode_delta`], [`decode_delta`]) stores the gaps
//! between successive values, from a `prev` the caller chooses (usually 0),
//! wrapping modulo 2^32; the SIMD decoders compute the prefix sum in the
//! register they decode into.
//!
//! # Decoding
//!
//! The scalar decoder reads each value as an unaligned 4-byte load masked to
//! its length, with the paper's fast path for a zero control byte (four
//! one-byte values). The SIMD decoders (SSSE3 `pshufb` at the `Sse41` level,
//! Neon `tbl`) decode a group with one shuffle: a 256-entry table gives the
//! mask and the group's length for each control byte. They run while a
//! whole group's 17 bytes remain; the checked scalar code does the rest,
//! and builds every error. No padding is asked of the caller.
//!
//! # Example
//!
//! ```
//! use vecpress::group_varint::gb;
//!
//! let values = [1u32, 1024, 12, 1 << 30, 5, 300];
//! let mut bytes = vec![0u8; gb::max_encoded_len(values.len())];
//! let len = gb::encode(&values, &mut bytes);
//! assert_eq!(&bytes[..len], &[0xc4, 1, 0x00, 0x04, 12, 0, 0, 0, 0x40, 0x04, 5, 0x2c, 0x01]);
//!
//! let mut out = [0u32; 6];
//! assert_eq!(gb::decode(&bytes[..len], &mut out)?, len);
//! assert_eq!(out, values);
//! # Ok::<(), vecpress::Error>(())
//! ```

mod scalar;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod generic;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse41;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod tables;

use super::{check_room, gaps};
use crate::{Error, Isa};

/// Worst-case encoded size of `n` values: 4 bytes each and a control byte
/// per group of four.
///
/// ```
/// assert_eq!(vecpress::group_varint::gb::max_encoded_len(5), 20 + 2);
/// ```
pub const fn max_encoded_len(n: usize) -> usize {
    n.saturating_mul(4).saturating_add(n.div_ceil(4))
}

/// Exact encoded size of `values`.
///
/// ```
/// assert_eq!(vecpress::group_varint::gb::encoded_len(&[1, 300, u32::MAX]), 1 + 1 + 2 + 4);
/// ```
pub fn encoded_len(values: &[u32]) -> usize {
    scalar::encoded_len(values.iter().copied(), values.len())
}

/// Encodes `values` into `out`; returns the bytes written.
///
/// # Panics
/// If `out` is shorter than [`encoded_len`]`(values)`; a buffer of
/// [`max_encoded_len`]`(values.len())` bytes always suffices.
///
/// ```
/// let mut out = [0u8; 10];
/// let n = vecpress::group_varint::gb::encode(&[300, 5], &mut out);
/// assert_eq!(&out[..n], &[0x01, 0x2c, 0x01, 0x05]);
/// ```
pub fn encode(values: &[u32], out: &mut [u8]) -> usize {
    check_room("gb", out.len(), max_encoded_len(values.len()), || {
        encoded_len(values)
    });
    scalar::encode(values.iter().copied(), values.len(), out)
}

/// Encodes `values` into a new vector of exactly the encoded length.
///
/// ```
/// assert_eq!(vecpress::group_varint::gb::encode_to_vec(&[1, 2, 3]), vec![0, 1, 2, 3]);
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
/// let mut out = [0u8; 20];
/// let n = vecpress::group_varint::gb::encode_delta(&[10, 11, 13], 0, &mut out);
/// assert_eq!(&out[..n], &[0, 10, 1, 2]);
/// ```
pub fn encode_delta(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    check_room("gb", out.len(), max_encoded_len(values.len()), || {
        scalar::encoded_len(gaps(values, prev), values.len())
    });
    scalar::encode(gaps(values, prev), values.len(), out)
}

/// Like [`encode_delta`], into a new vector.
///
/// ```
/// assert_eq!(vecpress::group_varint::gb::encode_delta_to_vec(&[5, 6, 300], 0), vec![0x10, 5, 1, 0x26, 0x01]);
/// ```
pub fn encode_delta_to_vec(values: &[u32], prev: u32) -> Vec<u8> {
    let mut out = vec![0u8; scalar::encoded_len(gaps(values, prev), values.len())];
    encode_delta(values, prev, &mut out);
    out
}

/// Decodes `out.len()` values from the start of `input` with the best kernel
/// this process may use; returns the bytes consumed. Bytes after the last
/// group are left alone.
///
/// ```
/// let mut out = [0u32; 2];
/// assert_eq!(vecpress::group_varint::gb::decode(&[0x01, 0x2c, 0x01, 0x05, 0xff], &mut out), Ok(4));
/// assert_eq!(out, [300, 5]);
/// ```
pub fn decode(input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl::<false>(
        crate::tune::isa(crate::tune::Op::VarintGb),
        input,
        out,
        &mut 0,
    )
}

/// [`decode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks
/// it. Levels without a kernel of their own use the next lower one (`Avx2`
/// and `Avx512` run the SSSE3 kernel).
///
/// ```
/// use vecpress::{group_varint::gb, Isa};
/// for &isa in Isa::available() {
///     let mut out = [0u32; 1];
///     assert_eq!(gb::decode_with(isa, &[0x00, 0x7f], &mut out), Ok(2));
///     assert_eq!(out, [127]);
/// }
/// ```
pub fn decode_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl::<false>(isa.check()?, input, out, &mut 0)
}

/// Decodes `n` values into a new vector.
///
/// `n` is checked against the input before allocating: each value takes at
/// least one byte, so no more than `input.len()` values are allocated.
///
/// ```
/// use vecpress::group_varint::gb;
/// assert_eq!(gb::decode_to_vec(&[0x04, 1, 0x80, 0x00], 2), Ok(vec![1, 128]));
/// assert!(gb::decode_to_vec(&[0x00, 1], 1_000_000_000).is_err());
/// ```
pub fn decode_to_vec(input: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    crate::error::decode_to_vec(input, n, 1, |out| decode(input, out))
}

/// Decodes `out.len()` gaps and writes their running sum from `prev`;
/// returns the bytes consumed. The inverse of [`encode_delta`].
///
/// ```
/// let mut out = [0u32; 3];
/// assert_eq!(vecpress::group_varint::gb::decode_delta(&[0, 10, 1, 2], &mut out, 0), Ok(4));
/// assert_eq!(out, [10, 11, 13]);
/// ```
pub fn decode_delta(input: &[u8], out: &mut [u32], prev: u32) -> Result<usize, Error> {
    decode_impl::<true>(
        crate::tune::isa(crate::tune::Op::VarintGbDelta),
        input,
        out,
        &mut { prev },
    )
}

/// [`decode_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
///
/// ```
/// use vecpress::{group_varint::gb, Isa};
/// let mut out = [0u32; 2];
/// assert_eq!(gb::decode_delta_with(Isa::Scalar, &[0, 1, 1], &mut out, 100), Ok(3));
/// assert_eq!(out, [101, 102]);
/// ```
pub fn decode_delta_with(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, Error> {
    decode_impl::<true>(isa.check()?, input, out, &mut { prev })
}

/// Like [`decode_to_vec`], for a delta-coded stream.
///
/// ```
/// use vecpress::group_varint::gb;
/// assert_eq!(gb::decode_delta_to_vec(&[0x10, 5, 1, 0x26, 0x01], 3, 0), Ok(vec![5, 6, 300]));
/// ```
pub fn decode_delta_to_vec(input: &[u8], n: usize, prev: u32) -> Result<Vec<u32>, Error> {
    crate::error::decode_to_vec(input, n, 1, |out| decode_delta(input, out, prev))
}

/// The levels that have a decoding kernel of their own, among those available.
///
/// ```
/// assert_eq!(vecpress::group_varint::gb::kernels()[0], vecpress::Isa::Scalar);
/// ```
pub fn kernels() -> Vec<Isa> {
    Isa::available()
        .iter()
        .copied()
        .filter(|isa| matches!(isa, Isa::Scalar | Isa::Sse41 | Isa::Neon))
        .collect()
}

/// The one map from ISA level to kernel. The kernel decodes whole groups and
/// the checked scalar path does the rest.
fn decode_impl<const DELTA: bool>(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> Result<usize, Error> {
    // The kernels decode whole groups only: where not one fits (lists of a
    // value or two, common among posting lists), calling them costs more
    // than the scalar decoder's work.
    let isa = if out.len() < 4 || input.len() < scalar::GROUP_MAX {
        Isa::Scalar
    } else {
        isa
    };
    let (consumed, produced) = match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the CPU
        // has SSE4.1 and SSSE3 (every higher x86 level implies them).
        Isa::Sse41 | Isa::Avx2 | Isa::Avx512 => unsafe {
            if DELTA {
                sse41::decode_delta_bulk(input, out, prev)
            } else {
                sse41::decode_bulk(input, out)
            }
        },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has Neon.
        Isa::Neon => unsafe {
            if DELTA {
                neon::decode_delta_bulk(input, out, prev)
            } else {
                neon::decode_bulk(input, out)
            }
        },
        _ => (0, 0),
    };
    let rest = scalar::decode::<DELTA>(&input[consumed..], &mut out[produced..], prev, consumed)?;
    Ok(consumed + rest)
}
