//! The stream shell that bp128 and PFOR share: any number of u32 as whole
//! blocks of 128 in a block format of each codec's own, then the last
//! n % 128 values as VByte (LEB128), as simdcomp and Lucene store a block's
//! worth too short to pack.
//!
//! ```text
//! n values: n / 128 whole blocks, then the n % 128 left as VByte
//! delta:    every block codes its gaps, the first one's to the value before
//!           it (`prev` for the first block); the VByte tail codes gaps too
//! ```
//!
//! The count is not stored: the caller knows it. The shell writes the
//! framing once, so both codecs report a short block the same way: as
//! `Truncated` in values, the values still missing from that block on, at
//! the byte in the stream where the block's input ran out; any other error
//! of a block at its offset in the stream.
//!
//! The default decoders run the blocks at the level the CPU's profile
//! chooses for the codec and the tail at the one it chooses for VByte
//! ([`Levels::tuned`]); the `*_with(isa)` decoders run both at `isa`.
#![forbid(unsafe_code)]

use super::bp128;
use crate::postings::Decoded;
use crate::tune::{self, Op};
use crate::{Error, Isa, Unit, vbyte};

/// Values in a block of the stream.
pub(super) const BLOCK: usize = 128;

/// The levels a stream is decoded at: its blocks' kernels and its VByte
/// tail's.
#[derive(Debug, Clone, Copy)]
pub(super) struct Levels {
    /// The level of the block format's kernels.
    pub(super) blocks: Isa,
    /// The level of the VByte tail (a whole list shorter than a block).
    pub(super) tail: Isa,
}

impl Levels {
    /// One level for both, as the `*_with(isa)` decoders run (checked by
    /// the caller).
    pub(super) fn one(isa: Isa) -> Self {
        Levels {
            blocks: isa,
            tail: isa,
        }
    }

    /// The default decoders' levels: the blocks at the level this CPU's
    /// profile chooses for `blocks`, and the tail, a VByte stream, at the
    /// level it chooses for VByte (gaps when `delta`). The two can differ:
    /// on Zen 4 FastLanes delta blocks unpack fastest at AVX2 and VByte at
    /// AVX-512 (`perf/amd-25-17.md`, "Default dispatch"), and in a posting
    /// index most lists are all tail.
    pub(super) fn tuned(blocks: Op, delta: bool) -> Self {
        let tail = if delta { Op::VByteDelta } else { Op::VByte };
        Levels {
            blocks: tune::isa(blocks),
            tail: tune::isa(tail),
        }
    }
}

/// A format of 128-value blocks that the shell strings together.
pub(super) trait BlockFormat {
    /// The most bytes [`BlockFormat::write`] puts down for one block.
    const MAX_BLOCK_BYTES: usize;

    /// Whether a delta stream is decoded with the kernels of `isa` by
    /// reading every block's gaps and summing all of them in one pass after
    /// the last whole block (one call where a pass per block would cost a
    /// call and its setup each), rather than by `read::<true>` block by
    /// block (where the kernel sums a block as it unpacks it).
    fn sum_after(isa: Isa) -> bool;

    /// Writes the block of `values` into `out`, which holds at least
    /// [`BlockFormat::MAX_BLOCK_BYTES`]; when `DELTA`, it codes their gaps,
    /// the first one's to `prev`. Returns the bytes written.
    fn write<const DELTA: bool>(values: &[u32; BLOCK], prev: u32, out: &mut [u8]) -> usize;

    /// Reads the block at the start of `input` into `out` with the kernel of
    /// `isa` (checked by the caller), summing its gaps from `prev` when
    /// `DELTA`; returns the block's bytes. An error's offset is from the
    /// block's start; a short block is `Truncated` at the offset where it
    /// says its input ran out.
    fn read<const DELTA: bool>(
        isa: Isa,
        input: &[u8],
        prev: u32,
        out: &mut [u32; BLOCK],
    ) -> Result<usize, Error>;
}

/// Worst-case encoded size of `n` values: each whole block's worst case,
/// and the tail's VByte worst case.
pub(super) fn max_encoded_len<F: BlockFormat>(n: usize) -> usize {
    n / BLOCK * F::MAX_BLOCK_BYTES + vbyte::max_encoded_len(n % BLOCK)
}

/// Encodes `values` (their gaps from `prev` when `DELTA`) into `out`;
/// returns the bytes written. Panics if `out` holds fewer than
/// [`max_encoded_len`]`(values.len())` bytes.
pub(super) fn encode<F: BlockFormat, const DELTA: bool>(
    values: &[u32],
    mut prev: u32,
    out: &mut [u8],
) -> usize {
    let mut pos = 0;
    let mut blocks = values.chunks_exact(BLOCK);
    for block in &mut blocks {
        let block: &[u32; BLOCK] = block.try_into().expect("a whole block");
        pos += F::write::<DELTA>(block, prev, &mut out[pos..]);
        prev = block[BLOCK - 1];
    }
    let tail = blocks.remainder();
    pos + if DELTA {
        vbyte::encode_delta(tail, prev, &mut out[pos..])
    } else {
        vbyte::encode(tail, &mut out[pos..])
    }
}

/// [`encode`] into a new vector.
pub(super) fn encode_to_vec<F: BlockFormat, const DELTA: bool>(
    values: &[u32],
    prev: u32,
) -> Vec<u8> {
    let mut out = vec![0u8; max_encoded_len::<F>(values.len())];
    let n = encode::<F, DELTA>(values, prev, &mut out);
    out.truncate(n);
    out
}

/// Decodes `out.len()` values from the start of `input` at `levels`
/// (checked by the caller), summing the gaps from `prev` when `DELTA`;
/// returns the bytes consumed.
pub(super) fn decode<F: BlockFormat, const DELTA: bool>(
    levels: Levels,
    input: &[u8],
    out: &mut [u32],
    mut prev: u32,
) -> Result<usize, Error> {
    let n = out.len();
    if n < BLOCK {
        // All tail: a list shorter than a block (in a posting index, most
        // lists) skips the blocks' setup.
        return vbyte::decode_tail(levels.tail, input, out, DELTA.then_some(prev));
    }
    let isa = levels.blocks;
    let sum_after = DELTA && F::sum_after(isa);
    let sum_each = DELTA && !sum_after;
    let mut pos = 0;
    let mut blocks = out.chunks_exact_mut(BLOCK);
    for (b, block) in (&mut blocks).enumerate() {
        let block: &mut [u32; BLOCK] = block.try_into().expect("a whole block");
        let read = if sum_each {
            F::read::<true>(isa, &input[pos..], prev, block)
        } else {
            F::read::<false>(isa, &input[pos..], 0, block)
        };
        pos += read.map_err(|e| in_stream(e, pos, n - b * BLOCK))?;
        if sum_each {
            prev = block[BLOCK - 1];
        }
    }
    let whole = n - blocks.into_remainder().len();
    if sum_after && whole > 0 {
        bp128::running_sum_with(isa, &mut out[..whole], prev);
        prev = out[whole - 1];
    }
    let tail = &mut out[whole..];
    let read = vbyte::decode_tail(levels.tail, &input[pos..], tail, DELTA.then_some(prev))
        .map_err(|e| e.shifted(pos))?;
    Ok(pos + read)
}

/// The index and value of the first value `>= key` of a sorted delta
/// stream of `n` values (encoded from `prev`), or `None` if every value is
/// smaller: each block before the answer is read as gaps and only reduced
/// to its last value; the block holding the answer gets its running sum
/// and a binary search; the tail is decoded only when every block is below
/// `key`.
pub(super) fn search_delta<F: BlockFormat>(
    input: &[u8],
    n: usize,
    key: u32,
    prev: u32,
) -> Result<Option<(usize, u32)>, Error> {
    let Levels {
        blocks: isa,
        tail: tail_isa,
    } = Levels::tuned(Op::Bp128Delta, true);
    let mut pos = 0;
    let mut prev = prev;
    let mut buf = [0u32; BLOCK];
    for b in 0..n / BLOCK {
        pos += F::read::<false>(isa, &input[pos..], 0, &mut buf)
            .map_err(|e| in_stream(e, pos, n - b * BLOCK))?;
        let last = buf.iter().fold(prev, |a, &g| a.wrapping_add(g));
        if last >= key {
            bp128::running_sum_with(isa, &mut buf, prev);
            let j = buf.partition_point(|&v| v < key);
            return Ok(Some((b * BLOCK + j, buf[j])));
        }
        prev = last;
    }
    let done = n / BLOCK * BLOCK;
    let tail = &mut buf[..n - done];
    vbyte::decode_tail(tail_isa, &input[pos..], tail, Some(prev)).map_err(|e| e.shifted(pos))?;
    Ok(tail
        .iter()
        .position(|&v| v >= key)
        .map(|j| (done + j, tail[j])))
}

/// Where a cursor over a delta stream of `F`'s blocks stands: the first
/// value not decoded yet, its index, its byte and the value before it.
/// The cursor decodes as many whole blocks at a time as its span asks (at
/// least one), or the tail.
pub(super) struct Reading<'a> {
    input: &'a [u8],
    n: usize,
    levels: Levels,
    next: usize,
    pos: usize,
    acc: u32,
}

impl<'a> Reading<'a> {
    pub(super) fn new(levels: Levels, input: &'a [u8], n: usize, prev: u32) -> Self {
        Reading {
            input,
            n,
            levels,
            next: 0,
            pos: 0,
            acc: prev,
        }
    }

    /// Decodes the next blocks, or the tail, into `block`; `false` at the
    /// end. Errors are [`decode`]'s, at their offsets in the stream.
    pub(super) fn refill<F: BlockFormat>(&mut self, block: &mut Decoded) -> Result<bool, Error> {
        let (n, start) = (self.n, self.next);
        if start >= n {
            block.ended(n);
            return Ok(false);
        }
        let whole = n / BLOCK * BLOCK;
        let (mut pos, mut acc) = (self.pos, self.acc);
        let m = if start < whole {
            let k = (block.span() / BLOCK).clamp(1, (whole - start) / BLOCK);
            let values = block.room(start, k * BLOCK);
            for (b, chunk) in values.chunks_exact_mut(BLOCK).enumerate() {
                let chunk: &mut [u32; BLOCK] = chunk.try_into().expect("a whole block");
                pos += F::read::<true>(self.levels.blocks, &self.input[pos..], acc, chunk)
                    .map_err(|e| in_stream(e, pos, n - start - b * BLOCK))?;
                acc = chunk[BLOCK - 1];
            }
            k * BLOCK
        } else {
            let values = block.room(start, n - start);
            pos += vbyte::decode_tail(self.levels.tail, &self.input[pos..], values, Some(acc))
                .map_err(|e| e.shifted(pos))?;
            acc = values[values.len() - 1];
            n - start
        };
        (self.pos, self.acc, self.next) = (pos, acc, start + m);
        block.filled(start, m);
        Ok(true)
    }
}

/// The `DeltaCursor` of a stream of `$format`'s blocks (bp128's, PFOR's),
/// its default levels those `tune` gives `$op`, the doc and example given
/// before the format: a cursor over [`Reading`], which keeps no index and
/// skips by decoding.
macro_rules! delta_cursor {
    ($(#[$doc:meta])* $format:ty, $op:expr) => {
        $(#[$doc])*
        pub struct DeltaCursor<'a> {
            n: usize,
            block: $crate::postings::Decoded,
            reading: $crate::bitpack::stream::Reading<'a>,
        }

        impl<'a> DeltaCursor<'a> {
            /// A cursor at the first of the `n` values of `input`, encoded
            /// from `prev`, decoding at the levels [`decode_delta`] uses.
            /// Damaged bytes are found as the cursor reaches them.
            pub fn new(input: &'a [u8], n: usize, prev: u32) -> DeltaCursor<'a> {
                let levels = $crate::bitpack::stream::Levels::tuned($op, true);
                DeltaCursor::at(levels, input, n, prev)
            }

            /// [`DeltaCursor::new`] decoding with the kernels of `isa`;
            /// `Err(Unsupported)` if the CPU lacks it.
            pub fn new_with(
                isa: $crate::Isa,
                input: &'a [u8],
                n: usize,
                prev: u32,
            ) -> Result<DeltaCursor<'a>, $crate::Error> {
                let levels = $crate::bitpack::stream::Levels::one(isa.check()?);
                Ok(DeltaCursor::at(levels, input, n, prev))
            }

            fn at(
                levels: $crate::bitpack::stream::Levels,
                input: &'a [u8],
                n: usize,
                prev: u32,
            ) -> DeltaCursor<'a> {
                DeltaCursor {
                    n,
                    block: $crate::postings::Decoded::new(),
                    reading: $crate::bitpack::stream::Reading::new(levels, input, n, prev),
                }
            }

            fn refill(&mut self) -> Result<bool, $crate::Error> {
                self.reading.refill::<$format>(&mut self.block)
            }

            /// Nothing tells a block's values before it is decoded.
            fn skip_to(&mut self, _target: u32) {}
        }

        $crate::postings::block_cursor!(DeltaCursor<'_>);
    };
}
pub(super) use delta_cursor;

/// `needed` values missing at `offset`.
pub(super) fn short(offset: usize, needed: usize) -> Error {
    Error::Truncated {
        offset,
        needed,
        unit: Unit::Values,
    }
}

/// A block's error at `pos` in the stream, `left` values from the end: a
/// short block counts the values still missing.
fn in_stream(e: Error, pos: usize, left: usize) -> Error {
    match e {
        Error::Truncated { offset, .. } => short(pos + offset, left),
        other => other.shifted(pos),
    }
}
