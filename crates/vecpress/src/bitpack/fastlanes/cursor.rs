//! [`DeltaCursor`]: a forward cursor over a FastLanes delta stream, for
//! queries on posting lists ([`crate::postings`]).
//!
//! A delta block's bases come first, so the cursor skips a whole block by
//! its last value, read in place (the base of the lane holding values
//! 992..1024 plus that lane's 32 differences, as
//! [`search_delta`](super::search_delta) reads it), without unpacking it;
//! it decodes the block that holds its target whole, and the VByte tail in
//! pieces of 128 or 512 values.
#![forbid(unsafe_code)]

use super::stream::{block_width, delta_bases, delta_levels, in_tail};
use super::{BLOCK, packed_len, select};
use crate::bitpack::stream::Levels;
use crate::postings::{Decoded, block_cursor};
use crate::{Error, Isa, vbyte};

/// A forward cursor over a delta stream of `n` values (as
/// [`encode_delta`](super::encode_delta) writes it): sorted values, read in
/// order, skipped by target a block of 1024 at a time.
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// use vecpress::postings::Cursor;
///
/// let docs: Vec<u32> = (0..5000).map(|i| i * 3).collect();
/// let bytes = fastlanes::encode_delta_to_vec(&docs, 0);
/// let mut c = fastlanes::DeltaCursor::new(&bytes, docs.len(), 0);
/// assert_eq!(c.next()?, Some(0));
/// assert_eq!(c.advance_to(10_000)?, Some(10_002));
/// assert_eq!(c.advance_to(14_997)?, Some(14_997));
/// assert_eq!(c.advance_to(15_000)?, None);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub struct DeltaCursor<'a> {
    input: &'a [u8],
    n: usize,
    levels: Levels,
    block: Decoded,
    /// The first value not decoded yet: its index (a multiple of 1024
    /// before the tail), where its block starts, and the value before it.
    next: usize,
    pos: usize,
    acc: u32,
}

impl<'a> DeltaCursor<'a> {
    /// A cursor at the first of the `n` values of `input`, encoded from
    /// `prev`, decoding at the levels
    /// [`decode_delta`](super::decode_delta) uses. Damaged bytes are found
    /// as the cursor reaches them.
    pub fn new(input: &'a [u8], n: usize, prev: u32) -> DeltaCursor<'a> {
        DeltaCursor::at(delta_levels(), input, n, prev)
    }

    /// [`DeltaCursor::new`] decoding with the kernels of `isa`;
    /// `Err(Unsupported)` if the CPU lacks it.
    pub fn new_with(
        isa: Isa,
        input: &'a [u8],
        n: usize,
        prev: u32,
    ) -> Result<DeltaCursor<'a>, Error> {
        Ok(DeltaCursor::at(Levels::one(isa.check()?), input, n, prev))
    }

    fn at(levels: Levels, input: &'a [u8], n: usize, prev: u32) -> DeltaCursor<'a> {
        DeltaCursor {
            input,
            n,
            levels,
            block: Decoded::new(),
            next: 0,
            pos: 0,
            acc: prev,
        }
    }

    /// Decodes the next block, or a piece of the tail; `false` at the end.
    /// Errors are [`decode_delta`](super::decode_delta)'s.
    fn refill(&mut self) -> Result<bool, Error> {
        let (n, start, input) = (self.n, self.next, self.input);
        if start >= n {
            self.block.ended(n);
            return Ok(false);
        }
        let mut pos = self.pos;
        let m = if start < n / BLOCK * BLOCK {
            let left = n - start;
            let isa = self.levels.blocks;
            let width = block_width(input, pos, left)?;
            let bases;
            (bases, pos) = delta_bases(isa, input, pos + 1, self.acc, width, left)?;
            let values = self.block.room(start, BLOCK);
            pos += super::delta_unpack_natural_with(isa, &input[pos..], &bases, width, values)
                .map_err(|e| e.shifted(pos))?;
            self.acc = values[BLOCK - 1];
            BLOCK
        } else {
            let m = (n - start).min(self.block.span());
            let values = self.block.room(start, m);
            pos += vbyte::decode_tail(self.levels.tail, &input[pos..], values, Some(self.acc))
                .map_err(|e| in_tail(e, pos, n - start - m))?;
            self.acc = values[m - 1];
            m
        };
        self.pos = pos;
        self.next = start + m;
        self.block.filled(start, m);
        Ok(true)
    }

    /// Skips whole blocks whose last value is below `target`, read in
    /// place. A block that does not read soundly ends the skipping: the
    /// next decode meets it and reports it.
    fn skip_to(&mut self, target: u32) {
        if !self.block.probing() {
            return;
        }
        let whole = self.n / BLOCK * BLOCK;
        let (last_row, last_lane) = select::natural_row_lane::<u32>(BLOCK - 1);
        let mut skipped = false;
        while self.next < whole {
            let left = self.n - self.next;
            let Ok(width) = block_width(self.input, self.pos, left) else {
                break;
            };
            let read = delta_bases(
                self.levels.blocks,
                self.input,
                self.pos + 1,
                self.acc,
                width,
                left,
            );
            let Ok((bases, data)) = read else {
                break;
            };
            let w = usize::from(width);
            let last = select::lane_sum(
                &self.input[data..],
                w,
                last_lane,
                last_row,
                bases[last_lane],
            );
            if last >= target {
                break;
            }
            self.pos = data + packed_len(width);
            self.acc = last;
            self.next += BLOCK;
            skipped = true;
        }
        if skipped {
            self.block.far();
        } else {
            self.block.near();
        }
    }
}

block_cursor!(DeltaCursor<'_>);
