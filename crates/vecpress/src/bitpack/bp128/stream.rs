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
use crate::bitpack::stream::{self, BLOCK, BlockFormat};
use crate::{Error, Isa, Unit};

/// A whole block of the stream: its width byte, then the 4-lane block
/// packed in that width.
struct Bp128;

impl BlockFormat for Bp128 {
    const MAX_BLOCK_BYTES: usize = 1 + Lanes::X4.packed_len(MAX_WIDTH);

    /// The SSE4.1 and AVX-512 kernels sum a block in the registers they
    /// unpack it in; the others sum every block in one pass after them all.
    fn sum_after(isa: Isa) -> bool {
        !matches!(isa, Isa::Sse41 | Isa::Avx512)
    }

    fn write<const DELTA: bool>(values: &[u32; BLOCK], prev: u32, out: &mut [u8]) -> usize {
        let width = if DELTA {
            super::width_sorted(Lanes::X4, prev, values)
        } else {
            super::width(Lanes::X4, values)
        }
        .expect("a whole block");
        out[0] = width;
        let packed = if DELTA {
            super::pack_sorted(Lanes::X4, prev, values, width, &mut out[1..])
        } else {
            super::pack(Lanes::X4, values, width, &mut out[1..])
        }
        .expect("the block's own width, room for it");
        1 + packed
    }

    fn read<const DELTA: bool>(
        isa: Isa,
        input: &[u8],
        prev: u32,
        out: &mut [u32; BLOCK],
    ) -> Result<usize, Error> {
        let Some(&width) = input.first() else {
            return Err(short_bytes(0, 1));
        };
        if width > MAX_WIDTH {
            return Err(Error::Corrupt {
                offset: 0,
                what: "bit width above 32",
            });
        }
        let data = &input[1..];
        let len = Lanes::X4.packed_len(width);
        if data.len() < len {
            // Reported at the packed part's start, where the block's width
            // byte said it would be.
            return Err(short_bytes(1, len - data.len()));
        }
        // The width and the length are checked, and the stream's caller
        // checked the level: straight to the kernel, which every block of
        // a stream goes through (the public entry's checks again cost as
        // much as unpacking a narrow block).
        if DELTA {
            super::kernels::unpack_sorted(isa, Lanes::X4, data, usize::from(width), out, prev);
        } else {
            super::kernels::unpack(isa, Lanes::X4, data, usize::from(width), out);
        }
        Ok(1 + len)
    }
}

fn short_bytes(offset: usize, needed: usize) -> Error {
    Error::Truncated {
        offset,
        needed,
        unit: Unit::Bytes,
    }
}

/// Worst-case encoded size of `n` values: 513 bytes a whole block, and the
/// tail's VByte worst case.
pub fn max_encoded_len(n: usize) -> usize {
    stream::max_encoded_len::<Bp128>(n)
}

/// Encodes `values` into `out`; returns the bytes written. Panics if `out`
/// holds fewer than [`max_encoded_len`]`(values.len())` bytes.
pub fn encode(values: &[u32], out: &mut [u8]) -> usize {
    stream::encode::<Bp128, false>(values, 0, out)
}

/// Encodes `values` into a new vector.
pub fn encode_to_vec(values: &[u32]) -> Vec<u8> {
    stream::encode_to_vec::<Bp128, false>(values, 0)
}

/// Encodes the gaps of sorted `values`, the first one's to `prev`; returns
/// the bytes written. Panics if `out` is shorter than [`max_encoded_len`].
pub fn encode_delta(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    stream::encode::<Bp128, true>(values, prev, out)
}

/// [`encode_delta`] into a new vector.
pub fn encode_delta_to_vec(values: &[u32], prev: u32) -> Vec<u8> {
    stream::encode_to_vec::<Bp128, true>(values, prev)
}

/// Decodes `out.len()` values from the start of `input`; returns the bytes
/// consumed.
pub fn decode(input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    let levels = stream::Levels::tuned(crate::tune::Op::Bp128, false);
    stream::decode::<Bp128, false>(levels, input, out, 0)
}

/// [`decode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
pub fn decode_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    stream::decode::<Bp128, false>(stream::Levels::one(isa.check()?), input, out, 0)
}

/// Decodes `n` values into a new vector.
pub fn decode_to_vec(input: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    // A block of 128 values takes at least its width byte.
    crate::error::decode_to_vec(input, n, BLOCK, |out| decode(input, out))
}

/// Decodes `out.len()` values of a delta stream, summing the gaps from
/// `prev`; returns the bytes consumed.
pub fn decode_delta(input: &[u8], out: &mut [u32], prev: u32) -> Result<usize, Error> {
    let levels = stream::Levels::tuned(crate::tune::Op::Bp128Delta, true);
    stream::decode::<Bp128, true>(levels, input, out, prev)
}

/// [`decode_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn decode_delta_with(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, Error> {
    stream::decode::<Bp128, true>(stream::Levels::one(isa.check()?), input, out, prev)
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
    stream::search_delta::<Bp128>(input, n, key, prev)
}

stream::delta_cursor!(
    /// A forward cursor over a delta stream of `n` values (as [`encode_delta`]
    /// writes it), for queries on posting lists ([`crate::postings`]). The
    /// blocks keep no index of their values, so the cursor skips by decoding:
    /// four blocks (512 values) at a time while it reads on, one while it
    /// skips.
    ///
    /// ```
    /// use vecpress::bitpack::bp128;
    /// use vecpress::postings::Cursor;
    ///
    /// let docs: Vec<u32> = (0..1000).map(|i| i * 7).collect();
    /// let bytes = bp128::encode_delta_to_vec(&docs, 0);
    /// let mut c = bp128::DeltaCursor::new(&bytes, docs.len(), 0);
    /// assert_eq!(c.advance_to(5000)?, Some(5005));
    /// assert_eq!(c.next()?, Some(5005));
    /// assert_eq!(c.advance_to(7000)?, None);
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    Bp128,
    crate::tune::Op::Bp128Delta
);
