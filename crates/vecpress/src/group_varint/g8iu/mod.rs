//! Varint-G8IU: blocks of 8 data bytes holding as many whole integers as fit.
//!
//! Source: A. A. Stepanov, A. R. Gangolli, D. E. Rose, R. J. Ernst,
//! P. S. Oberoi, *SIMD-Based Decoding of Posting Lists*, CIKM 2011; described
//! in Lemire, Kurz, Rupp, *Stream VByte* (2018), §3 and Fig. 2. Blocks are
//! byte-compatible with FastPFor's `VarIntG8IU` (whose stream is padded to a
//! multiple of 4 bytes; this one is not).
//!
//! **Patent notice.** The format is the subject of a patent application by
//! its authors' employer, A9.com (published as US 2012/0221539). vecpress
//! compiles this module only with its cargo feature `g8iu` (on by default),
//! so that users can decide whether to build it: `default-features = false`
//! leaves it out.
//!
//! # Format
//!
//! The stream is a run of 9-byte blocks: a control byte, then 8 data bytes
//! holding whole integers, each in as few low bytes as hold it (1 to 4,
//! little-endian; 0 takes one byte). An integer never straddles two blocks;
//! the encoder fills a block greedily and pads the bytes left over with
//! zeros. Bit `j` of the control byte (bit 0 for data byte 0) is 0 when data
//! byte `j` ends an integer, 1 when it is inside one or unused padding, so
//! the padding is a run of trailing ones (the convention of the paper and of
//! FastPFor):
//!
//! ```text
//!   values   1024, 12, 10, 1 073 741 824          (paper, Fig. 2a)
//!   ends     bytes 1, 2, 3, 7 -> control 0b0111_0001 = 0x71
//!   block    71 | 00 04 | 0c | 0a | 00 00 00 40
//!
//!   values   1, 2, 3, 1024, 1024                  (paper, Fig. 2b)
//!   ends     bytes 0, 1, 2, 4, 6; byte 7 unused -> control 0b1010_1000 = 0xa8
//!   block    a8 | 01 | 02 | 03 | 00 04 | 00 04 | 00
//! ```
//!
//! A block holds 2 to 8 integers (only the stream's last block may hold
//! one). The stream stores no count: the caller passes it, and the last
//! block holds exactly the integers still missing. The decoder is strict:
//! a control byte that marks an integer of more than 4 bytes or no integer
//! at all, or a last block that holds more integers than the count leaves,
//! is [`Error::Corrupt`]; a stream that ends inside a block is
//! [`Error::Truncated`]. Padding bytes are not checked. The worst case is
//! [`max_encoded_len`]`(n)` = 9⌈n/2⌉ bytes (two 4-byte integers a block).
//!
//! Differential coding ([`encode_delta`], [`decode_delta`]) stores the gaps
//! between successive values, from a `prev` the caller chooses, wrapping
//! modulo 2^32; the SIMD decoders compute the prefix sum in registers.
//!
//! # Decoding
//!
//! The SIMD decoders (SSSE3 `pshufb` at the `Sse41` level, Neon `tbl`) load
//! a block's 8 data bytes and shuffle them into two registers of four u32
//! with two masks from a 256-entry table indexed by the control byte, which
//! also gives the block's count of integers (paper, §4). The AVX2 decoder
//! (`Avx2` and `Avx512` levels) does the same in one 256-bit register. They
//! run while a whole block and 8 values of room remain; the checked scalar
//! code does the rest and builds every error. No padding is asked of the
//! caller.
//!
//! # Example
//!
//! ```
//! use vecpress::group_varint::g8iu;
//!
//! let values = [1024u32, 12, 10, 1 << 30, 7];
//! let mut bytes = vec![0u8; g8iu::max_encoded_len(values.len())];
//! let len = g8iu::encode(&values, &mut bytes);
//! assert_eq!(&bytes[..9], &[0x71, 0x00, 0x04, 12, 10, 0, 0, 0, 0x40]);
//! assert_eq!(&bytes[9..len], &[0xfe, 7, 0, 0, 0, 0, 0, 0, 0]);
//!
//! let mut out = [0u32; 5];
//! assert_eq!(g8iu::decode(&bytes[..len], &mut out)?, len);
//! assert_eq!(out, values);
//! # Ok::<(), vecpress::Error>(())
//! ```

mod scalar;

#[cfg(target_arch = "x86_64")]
mod avx2;
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

/// Worst-case encoded size of `n` values: a 9-byte block for every two
/// (any two integers fit in 8 bytes).
///
/// ```
/// assert_eq!(vecpress::group_varint::g8iu::max_encoded_len(5), 27);
/// ```
pub const fn max_encoded_len(n: usize) -> usize {
    n.div_ceil(2).saturating_mul(9)
}

/// Exact encoded size of `values`.
///
/// ```
/// use vecpress::group_varint::g8iu;
/// assert_eq!(g8iu::encoded_len(&[1; 8]), 9);
/// assert_eq!(g8iu::encoded_len(&[1; 9]), 18);
/// ```
pub fn encoded_len(values: &[u32]) -> usize {
    scalar::encoded_len(values.iter().copied())
}

/// Encodes `values` into `out`; returns the bytes written.
///
/// # Panics
/// If `out` is shorter than [`encoded_len`]`(values)`; a buffer of
/// [`max_encoded_len`]`(values.len())` bytes always suffices.
///
/// ```
/// let mut out = [0u8; 18];
/// let n = vecpress::group_varint::g8iu::encode(&[300, 5], &mut out);
/// assert_eq!(&out[..n], &[0b1111_1001, 0x2c, 0x01, 0x05, 0, 0, 0, 0, 0]);
/// ```
pub fn encode(values: &[u32], out: &mut [u8]) -> usize {
    check_room("g8iu", out.len(), max_encoded_len(values.len()), || {
        encoded_len(values)
    });
    scalar::encode(values.iter().copied(), out)
}

/// Encodes `values` into a new vector of exactly the encoded length.
///
/// ```
/// assert_eq!(vecpress::group_varint::g8iu::encode_to_vec(&[1, 2]), vec![0xfc, 1, 2, 0, 0, 0, 0, 0, 0]);
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
/// let mut out = [0u8; 18];
/// let n = vecpress::group_varint::g8iu::encode_delta(&[10, 11, 13], 0, &mut out);
/// assert_eq!(&out[..n], &[0xf8, 10, 1, 2, 0, 0, 0, 0, 0]);
/// ```
pub fn encode_delta(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    check_room("g8iu", out.len(), max_encoded_len(values.len()), || {
        scalar::encoded_len(gaps(values, prev))
    });
    scalar::encode(gaps(values, prev), out)
}

/// Like [`encode_delta`], into a new vector.
///
/// ```
/// assert_eq!(vecpress::group_varint::g8iu::encode_delta_to_vec(&[5, 6], 0), vec![0xfc, 5, 1, 0, 0, 0, 0, 0, 0]);
/// ```
pub fn encode_delta_to_vec(values: &[u32], prev: u32) -> Vec<u8> {
    let mut out = vec![0u8; scalar::encoded_len(gaps(values, prev))];
    encode_delta(values, prev, &mut out);
    out
}

/// Decodes `out.len()` values from the start of `input` with the best kernel
/// this process may use; returns the bytes consumed (whole blocks). Bytes
/// after the last block are left alone.
///
/// ```
/// let block = [0b1111_1001, 0x2c, 0x01, 0x05, 0, 0, 0, 0, 0];
/// let mut out = [0u32; 2];
/// assert_eq!(vecpress::group_varint::g8iu::decode(&block, &mut out), Ok(9));
/// assert_eq!(out, [300, 5]);
/// ```
pub fn decode(input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl::<false>(
        crate::tune::isa(crate::tune::Op::VarintG8iu),
        input,
        out,
        &mut 0,
    )
}

/// [`decode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks
/// it. Levels without a kernel of their own use the next lower one (`Avx512`
/// runs the AVX2 kernel).
///
/// ```
/// use vecpress::{group_varint::g8iu, Isa};
/// for &isa in Isa::available() {
///     let mut out = [0u32; 1];
///     assert_eq!(g8iu::decode_with(isa, &[0xfe, 0x7f, 0, 0, 0, 0, 0, 0, 0], &mut out), Ok(9));
///     assert_eq!(out, [127]);
/// }
/// ```
pub fn decode_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl::<false>(isa.check()?, input, out, &mut 0)
}

/// Decodes `n` values into a new vector.
///
/// `n` is checked against the input before allocating: a block holds at most
/// 8 values in 9 bytes, so no more than `input.len()` values are allocated.
///
/// ```
/// use vecpress::group_varint::g8iu;
/// assert_eq!(g8iu::decode_to_vec(&[0xfc, 1, 2, 0, 0, 0, 0, 0, 0], 2), Ok(vec![1, 2]));
/// assert!(g8iu::decode_to_vec(&[0xfc, 1, 2, 0, 0, 0, 0, 0, 0], 1_000_000_000).is_err());
/// ```
pub fn decode_to_vec(input: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    crate::error::decode_to_vec(input, n, 1, |out| decode(input, out))
}

/// Decodes `out.len()` gaps and writes their running sum from `prev`;
/// returns the bytes consumed. The inverse of [`encode_delta`].
///
/// ```
/// let mut out = [0u32; 3];
/// let block = [0xf8, 10, 1, 2, 0, 0, 0, 0, 0];
/// assert_eq!(vecpress::group_varint::g8iu::decode_delta(&block, &mut out, 0), Ok(9));
/// assert_eq!(out, [10, 11, 13]);
/// ```
pub fn decode_delta(input: &[u8], out: &mut [u32], prev: u32) -> Result<usize, Error> {
    decode_impl::<true>(
        crate::tune::isa(crate::tune::Op::VarintG8iuDelta),
        input,
        out,
        &mut { prev },
    )
}

/// [`decode_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
///
/// ```
/// use vecpress::{group_varint::g8iu, Isa};
/// let mut out = [0u32; 2];
/// let block = [0xfc, 1, 1, 0, 0, 0, 0, 0, 0];
/// assert_eq!(g8iu::decode_delta_with(Isa::Scalar, &block, &mut out, 100), Ok(9));
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
/// use vecpress::group_varint::g8iu;
/// assert_eq!(g8iu::decode_delta_to_vec(&[0xfc, 5, 1, 0, 0, 0, 0, 0, 0], 2, 0), Ok(vec![5, 6]));
/// ```
pub fn decode_delta_to_vec(input: &[u8], n: usize, prev: u32) -> Result<Vec<u32>, Error> {
    crate::error::decode_to_vec(input, n, 1, |out| decode_delta(input, out, prev))
}

/// The levels that have a decoding kernel of their own, among those available.
///
/// ```
/// assert_eq!(vecpress::group_varint::g8iu::kernels()[0], vecpress::Isa::Scalar);
/// ```
pub fn kernels() -> Vec<Isa> {
    Isa::available()
        .iter()
        .copied()
        .filter(|isa| matches!(isa, Isa::Scalar | Isa::Sse41 | Isa::Avx2 | Isa::Neon))
        .collect()
}

/// The one map from ISA level to kernel. The kernel decodes whole blocks and
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
    let isa = if out.len() < 8 || input.len() < scalar::BLOCK {
        Isa::Scalar
    } else {
        isa
    };
    let (consumed, produced) = match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the CPU
        // has SSE2, SSSE3 and SSE4.1.
        Isa::Sse41 => unsafe {
            if DELTA {
                sse41::decode_delta_bulk(input, out, prev)
            } else {
                sse41::decode_bulk(input, out)
            }
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has every feature of the Avx2 level
        // (Avx512 implies them).
        Isa::Avx2 | Isa::Avx512 => unsafe {
            if DELTA {
                avx2::decode_delta_bulk(input, out, prev)
            } else {
                avx2::decode_bulk(input, out)
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
