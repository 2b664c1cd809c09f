//! PFOR for posting lists: blocks of 128 u32 whose values are packed in a
//! width `b` that most of them fit, the few larger ones (the exceptions)
//! patched in after unpacking, in the manner of FastPFor's NewPFD/OptPFD
//! (Yan, Ding and Suel 2009; Lemire and Boytsov 2015) and Lucene's
//! `PForUtil`. A format of vecpress's own (docs/FORMAT.md).
//!
//! The low `b` bits of every value form a 4-lane SIMD-BP128 block (the
//! bytes [`bp128::pack`](super::bp128::pack) writes with `Lanes::X4`), so
//! unpacking runs the bp128 kernels; the exceptions' high bits follow it.
//! The encoder tries every `b` from 0 to the widest value's bits and keeps
//! the cheapest: the block's size plus one byte for each exception (ties
//! to the wider `b`). An exception costs the decoder far more than its
//! bytes, so a block is packed wider when that saves more exceptions than
//! bytes; a block without exceptions is charged nothing, so none is larger
//! than the same block in bp128's streams.
//!
//! # Layout of one block (128 values; in the delta form, their gaps)
//!
//! ```text
//! byte 0        b | x << 7: b = bits of the packed part (0..=32), x = 1 when
//!               the block has exceptions; bit 6 is 0
//! if x = 1:
//!   byte 1      n - 1: n = exceptions (1..=128), the values above b bits
//!   byte 2      e: bits of the exceptions' high parts (1..=32 - b)
//! 16 b bytes    the low b bits of the 128 values, a 4-lane SIMD-BP128 block
//! if x = 1:
//!   n bytes     the exceptions' positions in the block (0..=127), increasing
//!   ceil(n e/8) their high parts (value >> b), e bits each, least significant
//!               bit first, the first at bit 0; padding bits zero
//! ```
//!
//! A block is `1 + 16 b` bytes without exceptions, `3 + 16 b + n +
//! ceil(n e / 8)` with them, at most 513 ([`MAX_BLOCK_BYTES`]) as written.
//! The stream functions ([`encode`], [`decode`], [`encode_delta`],
//! [`decode_delta`]: the registry's `pfor` and `pfor-delta`) store any
//! number of values as whole blocks and a VByte tail.
//!
//! # Golden vectors
//!
//! 128 ones, but 301 at position 3 and 5 at position 70: `b` = 1 (23
//! bytes; `b` = 9 with no exception would take 145):
//!
//! ```text
//! 81 01 08 | ff x 16 | 03 46 | 96 02
//! ```
//!
//! The gaps of 1002, 1004, .., 1254, 1512 from 1000 (all 2 but the last,
//! 258): `b` = 2, one exception at 127 with high part 258 >> 2 = 64:
//!
//! ```text
//! 82 00 07 | aa x 32 | 7f | 40
//! ```
//!
//! ```
//! use vecpress::bitpack::pfor;
//! let mut values = [1u32; 128];
//! values[3] = 301;
//! values[70] = 5;
//! let mut block = [0u8; pfor::MAX_BLOCK_BYTES];
//! let len = pfor::encode_block(&values, &mut block)?;
//! assert_eq!(block[..3], [0x81, 0x01, 0x08]);
//! assert_eq!(block[19..len], [0x03, 0x46, 0x96, 0x02]);
//! let mut out = [0u32; 128];
//! assert_eq!(pfor::decode_block(&block[..len], &mut out), Ok(23));
//! assert_eq!(out, values);
//! assert_eq!(pfor::select_block(&block, 70), Ok(5));
//! # Ok::<(), vecpress::Error>(())
//! ```

#[cfg(target_arch = "x86_64")]
mod avx512;
mod block;
mod stream;

pub use stream::{
    DeltaCursor, decode, decode_delta, decode_delta_to_vec, decode_delta_with, decode_to_vec,
    decode_with, encode, encode_delta, encode_delta_to_vec, encode_to_vec, max_encoded_len,
    search_delta,
};

use crate::{Error, Isa};

/// Values in a block.
pub const BLOCK_LEN: usize = 128;

/// The most bytes the encoder writes for a block: 128 values of 32 bits
/// and the width byte.
pub const MAX_BLOCK_BYTES: usize = 1 + 16 * 32;

/// Bit 7 of a block's first byte: the block has exceptions.
const EXCEPTIONS_FLAG: u8 = 0x80;

/// Bit 6 of a block's first byte: reserved, zero.
const RESERVED_BIT: u8 = 0x40;

/// Encodes the block `values` (128 of them) into `out`; returns the bytes
/// written. `Err(InvalidArgument)` when `values` is not one block,
/// `Err(OutputTooSmall)` when `out` cannot hold it (a
/// [`MAX_BLOCK_BYTES`] buffer always can).
///
/// ```
/// use vecpress::bitpack::pfor;
/// let mut block = [0u8; pfor::MAX_BLOCK_BYTES];
/// assert_eq!(pfor::encode_block(&[0; 128], &mut block), Ok(1));
/// ```
pub fn encode_block(values: &[u32], out: &mut [u8]) -> Result<usize, Error> {
    encode_block_impl(values, None, out)
}

/// Encodes the gaps of the sorted block `values`, the first one's to
/// `initial`; returns the bytes written.
///
/// ```
/// use vecpress::bitpack::pfor;
/// let docs: Vec<u32> = (1..=128).map(|i| 1000 + 2 * i + if i == 128 { 256 } else { 0 }).collect();
/// let mut block = [0u8; pfor::MAX_BLOCK_BYTES];
/// assert_eq!(pfor::encode_block_delta(1000, &docs, &mut block), Ok(37));
/// let mut out = [0u32; 128];
/// pfor::decode_block_delta(1000, &block[..37], &mut out)?;
/// assert_eq!(out[..], docs[..]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn encode_block_delta(initial: u32, values: &[u32], out: &mut [u8]) -> Result<usize, Error> {
    encode_block_impl(values, Some(initial), out)
}

/// Decodes the block at the start of `input` into the first 128 values of
/// `out`; returns the block's bytes. Errors name the offset from the
/// block's start: `Truncated`, or `Corrupt` for a width above 32, exception
/// bits beyond 32, positions out of order or past the block, or padding
/// bits set.
///
/// ```
/// let mut out = [0u32; 128];
/// assert_eq!(vecpress::bitpack::pfor::decode_block(&[0], &mut out), Ok(1));
/// assert!(vecpress::bitpack::pfor::decode_block(&[33], &mut out).is_err());
/// ```
pub fn decode_block(input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_block_impl::<false>(crate::tune::isa(crate::tune::Op::Bp128), input, 0, out)
}

/// [`decode_block`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
///
/// ```
/// let mut out = [0u32; 128];
/// for &isa in vecpress::Isa::available() {
///     assert_eq!(vecpress::bitpack::pfor::decode_block_with(isa, &[0], &mut out), Ok(1));
/// }
/// ```
pub fn decode_block_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_block_impl::<false>(isa.check()?, input, 0, out)
}

/// Decodes the block of gaps at the start of `input`, summed from
/// `initial`, into the first 128 values of `out`; returns its bytes.
///
/// ```
/// let mut out = [0u32; 128];
/// assert_eq!(vecpress::bitpack::pfor::decode_block_delta(7, &[0], &mut out), Ok(1));
/// assert_eq!(out, [7; 128]);
/// ```
pub fn decode_block_delta(initial: u32, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    let isa = crate::tune::isa(crate::tune::Op::Bp128Delta);
    decode_block_impl::<true>(isa, input, initial, out)
}

/// [`decode_block_delta`] with the kernel of `isa`; `Err(Unsupported)` if
/// the CPU lacks it.
///
/// ```
/// let mut out = [0u32; 128];
/// for &isa in vecpress::Isa::available() {
///     let r = vecpress::bitpack::pfor::decode_block_delta_with(isa, 1, &[0], &mut out);
///     assert_eq!(r, Ok(1));
/// }
/// ```
pub fn decode_block_delta_with(
    isa: Isa,
    initial: u32,
    input: &[u8],
    out: &mut [u32],
) -> Result<usize, Error> {
    decode_block_impl::<true>(isa.check()?, input, initial, out)
}

/// Value `i` of the block at the start of `input`, read in place: the
/// packed low bits (a few shifts) and, when `i` is an exception, its high
/// part (a binary search of the positions). `OutOfRange` when `i` is 128
/// or more. The block is checked as [`decode_block`] checks it (header,
/// length, the exceptions' positions and padding): a block that does not
/// decode gives the same error here, at any `i`.
///
/// ```
/// use vecpress::bitpack::pfor;
/// let values: Vec<u32> = (0..128).map(|i| if i == 9 { 1 << 30 } else { i }).collect();
/// let mut block = [0u8; pfor::MAX_BLOCK_BYTES];
/// pfor::encode_block(&values, &mut block)?;
/// assert_eq!(pfor::select_block(&block, 9), Ok(1 << 30));
/// assert_eq!(pfor::select_block(&block, 127), Ok(127));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn select_block(input: &[u8], i: usize) -> Result<u32, Error> {
    block::select::<false>(input, 0, i)
}

/// Value `i` of a block of gaps from `initial`: the sum of the first
/// `i + 1` low parts, as [`bp128::select_sorted`](super::bp128::select_sorted)
/// gives it, and of the high parts at positions up to `i`, read in place.
/// Checked as [`select_block`] is.
///
/// ```
/// use vecpress::bitpack::pfor;
/// let docs: Vec<u32> = (0..128).map(|i| 10 * i + if i > 60 { 100_000 } else { 0 }).collect();
/// let mut block = [0u8; pfor::MAX_BLOCK_BYTES];
/// pfor::encode_block_delta(0, &docs, &mut block)?;
/// assert_eq!(pfor::select_block_delta(0, &block, 61), Ok(docs[61]));
/// assert_eq!(pfor::select_block_delta(0, &block, 127), Ok(docs[127]));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn select_block_delta(initial: u32, input: &[u8], i: usize) -> Result<u32, Error> {
    block::select::<true>(input, initial, i)
}

/// The levels with a kernel of their own on this CPU (those of bp128,
/// whose kernels unpack the packed part).
pub fn kernels() -> Vec<Isa> {
    crate::bitpack::bp128::kernels()
}

fn encode_block_impl(values: &[u32], initial: Option<u32>, out: &mut [u8]) -> Result<usize, Error> {
    let Ok(values) = <&[u32; BLOCK_LEN]>::try_from(values) else {
        return Err(Error::InvalidArgument {
            what: "values in a block (128)",
            value: values.len(),
        });
    };
    let mut gaps = *values;
    if let Some(mut prev) = initial {
        for g in gaps.iter_mut() {
            let v = *g;
            *g = v.wrapping_sub(prev);
            prev = v;
        }
    }
    let (_, size) = block::choose(&gaps);
    if out.len() < size {
        return Err(Error::OutputTooSmall {
            needed: size,
            actual: out.len(),
        });
    }
    Ok(block::write(&gaps, out))
}

fn decode_block_impl<const DELTA: bool>(
    isa: Isa,
    input: &[u8],
    initial: u32,
    out: &mut [u32],
) -> Result<usize, Error> {
    let Some(out) = out.first_chunk_mut::<BLOCK_LEN>() else {
        return Err(Error::OutputTooSmall {
            needed: BLOCK_LEN,
            actual: out.len(),
        });
    };
    block::read::<DELTA>(isa, input, initial, out)
}
