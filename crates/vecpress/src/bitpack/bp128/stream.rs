//! Streams of SIMD-BP128 blocks: any number of u32, the form the registry's
//! `bp128` and `bp128-delta` codecs store (ids 11 and 12).
//!
//! ```text
//! n values: n / 128 whole blocks, each [width: u8 (0..=32)][16 width bytes]
//!           (a 4-lane block, as `bitpacking::BitPacker4x` packs it), then
//!           the last n % 128 values as VByte (LEB128), as simdcomp and
//!           Lucene store a block's worth too short to pack
//! delta:    every block packs its gaps, the first one's to the value before
//!           it (`prev` for the first block); the VByte tail codes gaps too
//! ```
//!
//! The count is not stored: the caller knows it, as with every integer
//! codec here. A width above 32 is `Corrupt`, a short block `Truncated`,
//! both at the byte where they start.
//!
//! ```
//! use vecpress::bitpack::bp128;
//! let docs: Vec<u32> = (0..300).map(|i| 40 * i + i % 7).collect();
//! let bytes = bp128::encode_delta_to_vec(&docs, 0);
//! assert!(bytes.len() < 300 * 2);
//! assert_eq!(bp128::decode_delta_to_vec(&bytes, docs.len(), 0)?, docs);
//! # Ok::<(), vecpress::Error>(())
//! ```
#![forbid(unsafe_code)]

use super::{Lanes, MAX_WIDTH};
use crate::{Error, Isa, Unit, vbyte};

/// Values in a block of the stream.
const BLOCK: usize = 128;

/// Worst-case encoded size of `n` values: 513 bytes a whole block, and the
/// tail's VByte worst case.
pub fn max_encoded_len(n: usize) -> usize {
    n / BLOCK * (1 + Lanes::X4.packed_len(MAX_WIDTH)) + vbyte::max_encoded_len(n % BLOCK)
}

/// Encodes `values` into `out`; returns the bytes written. Panics if `out`
/// holds fewer than [`max_encoded_len`]`(values.len())` bytes.
pub fn encode(values: &[u32], out: &mut [u8]) -> usize {
    encode_impl::<false>(values, 0, out)
}

/// Encodes `values` into a new vector.
pub fn encode_to_vec(values: &[u32]) -> Vec<u8> {
    let mut out = vec![0u8; max_encoded_len(values.len())];
    let n = encode(values, &mut out);
    out.truncate(n);
    out
}

/// Encodes the gaps of sorted `values`, the first one's to `prev`; returns
/// the bytes written. Panics if `out` is shorter than [`max_encoded_len`].
pub fn encode_delta(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    encode_impl::<true>(values, prev, out)
}

/// [`encode_delta`] into a new vector.
pub fn encode_delta_to_vec(values: &[u32], prev: u32) -> Vec<u8> {
    let mut out = vec![0u8; max_encoded_len(values.len())];
    let n = encode_delta(values, prev, &mut out);
    out.truncate(n);
    out
}

/// Decodes `out.len()` values from the start of `input`; returns the bytes
/// consumed.
pub fn decode(input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl::<false>(crate::tune::isa(crate::tune::Op::Bp128), input, out, 0)
}

/// [`decode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
pub fn decode_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl::<false>(isa.check()?, input, out, 0)
}

/// Decodes `n` values into a new vector.
pub fn decode_to_vec(input: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    // A block of 128 values takes at least its width byte.
    crate::error::decode_to_vec(input, n, BLOCK, |out| decode(input, out))
}

/// Decodes `out.len()` values of a delta stream, summing the gaps from
/// `prev`; returns the bytes consumed.
pub fn decode_delta(input: &[u8], out: &mut [u32], prev: u32) -> Result<usize, Error> {
    decode_impl::<true>(
        crate::tune::isa(crate::tune::Op::Bp128Delta),
        input,
        out,
        prev,
    )
}

/// [`decode_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn decode_delta_with(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, Error> {
    decode_impl::<true>(isa.check()?, input, out, prev)
}

/// Decodes `n` values of a delta stream into a new vector.
pub fn decode_delta_to_vec(input: &[u8], n: usize, prev: u32) -> Result<Vec<u32>, Error> {
    crate::error::decode_to_vec(input, n, BLOCK, |out| decode_delta(input, out, prev))
}

/// The index and value of the first value `>= key` of a sorted delta
/// stream of `n` values (encoded from `prev`), or `None` if every value is
/// smaller.
///
/// The stream stores no skip list, so each block before the answer is
/// unpacked, but not summed value by value: its last value is the value
/// before it plus the sum of its gaps (a vectorised reduction). Only the
/// block holding the answer gets its running sum and a binary search; the
/// VByte tail is decoded only when every block is below `key`. Time
/// O(n / 128) block unpacks before the answer, and O(log 128) in it. On a
/// stream that is not sorted the answer is some index, never a panic.
///
/// ```
/// use vecpress::bitpack::bp128;
/// let docs: Vec<u32> = (0..1000).map(|i| 3 * i).collect();
/// let bytes = bp128::encode_delta_to_vec(&docs, 0);
/// assert_eq!(bp128::search_delta(&bytes, 1000, 301, 0), Ok(Some((101, 303))));
/// assert_eq!(bp128::search_delta(&bytes, 1000, 3000, 0), Ok(None));
/// ```
pub fn search_delta(
    input: &[u8],
    n: usize,
    key: u32,
    prev: u32,
) -> Result<Option<(usize, u32)>, Error> {
    let isa = crate::tune::isa(crate::tune::Op::Bp128Delta);
    let mut pos = 0;
    let mut prev = prev;
    let mut buf = [0u32; BLOCK];
    for b in 0..n / BLOCK {
        let Some(&width) = input.get(pos) else {
            return Err(short(pos, n - b * BLOCK));
        };
        if width > MAX_WIDTH {
            return Err(Error::Corrupt {
                offset: pos,
                what: "bit width above 32",
            });
        }
        let data = &input[pos + 1..];
        if data.len() < Lanes::X4.packed_len(width) {
            return Err(short(pos + 1, n - b * BLOCK));
        }
        pos += 1 + super::unpack_with(isa, Lanes::X4, data, width, &mut buf)?;
        let last = buf.iter().fold(prev, |a, &g| a.wrapping_add(g));
        if last >= key {
            super::running_sum_with(isa, &mut buf, prev);
            let j = buf.partition_point(|&v| v < key);
            return Ok(Some((b * BLOCK + j, buf[j])));
        }
        prev = last;
    }
    let done = n / BLOCK * BLOCK;
    let tail = &mut buf[..n - done];
    vbyte::decode_delta_with(isa, &input[pos..], tail, prev).map_err(|e| e.shifted(pos))?;
    Ok(tail
        .iter()
        .position(|&v| v >= key)
        .map(|j| (done + j, tail[j])))
}

fn short(offset: usize, needed: usize) -> Error {
    Error::Truncated {
        offset,
        needed,
        unit: Unit::Values,
    }
}

fn encode_impl<const DELTA: bool>(values: &[u32], mut prev: u32, out: &mut [u8]) -> usize {
    let mut pos = 0;
    let mut blocks = values.chunks_exact(BLOCK);
    for block in &mut blocks {
        let width = if DELTA {
            super::width_sorted(Lanes::X4, prev, block)
        } else {
            super::width(Lanes::X4, block)
        }
        .expect("a whole block");
        out[pos] = width;
        let packed = if DELTA {
            super::pack_sorted(Lanes::X4, prev, block, width, &mut out[pos + 1..])
        } else {
            super::pack(Lanes::X4, block, width, &mut out[pos + 1..])
        }
        .expect("the block's own width, room for it");
        pos += 1 + packed;
        prev = block[BLOCK - 1];
    }
    let tail = blocks.remainder();
    pos + if DELTA {
        vbyte::encode_delta(tail, prev, &mut out[pos..])
    } else {
        vbyte::encode(tail, &mut out[pos..])
    }
}

fn decode_impl<const DELTA: bool>(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    mut prev: u32,
) -> Result<usize, Error> {
    let n = out.len();
    let mut pos = 0;
    let mut blocks = out.chunks_exact_mut(BLOCK);
    for (b, block) in (&mut blocks).enumerate() {
        let Some(&width) = input.get(pos) else {
            return Err(short(pos, n - b * BLOCK));
        };
        if width > MAX_WIDTH {
            return Err(Error::Corrupt {
                offset: pos,
                what: "bit width above 32",
            });
        }
        let data = &input[pos + 1..];
        if data.len() < Lanes::X4.packed_len(width) {
            return Err(short(pos + 1, n - b * BLOCK));
        }
        // A sorted block's gaps run on from the block before, so the gaps
        // of every block are summed in one pass after the loop: one call
        // where a pass per block would cost a call and its setup each.
        pos += 1 + super::unpack_with(isa, Lanes::X4, data, width, block)?;
    }
    let tail = blocks.into_remainder();
    let whole = n - tail.len();
    if DELTA && whole > 0 {
        super::kernels::running_sum(isa, &mut out[..whole], prev);
        prev = out[whole - 1];
    }
    let tail = &mut out[whole..];
    let read = if DELTA {
        vbyte::decode_delta_with(isa, &input[pos..], tail, prev)
    } else {
        vbyte::decode_with(isa, &input[pos..], tail)
    }
    .map_err(|e| e.shifted(pos))?;
    Ok(pos + read)
}
