//! [`DeltaCursor`]: a forward cursor over a delta-coded VByte list, for
//! queries on posting lists ([`crate::postings`]).
//!
//! VByte keeps no index of where values start, so the cursor skips by
//! decoding: a block of values at a time (512, or 128 once a block
//! decoded for a target was passed whole) with the default
//! kernel, into a buffer of its own, where `advance_to` looks for its
//! target.
#![forbid(unsafe_code)]

use crate::Error;
use crate::postings::{Decoded, block_cursor};

/// A forward cursor over `n` delta-coded VByte values (as
/// [`encode_delta`](super::encode_delta) writes them).
///
/// ```
/// use vecpress::postings::Cursor;
/// use vecpress::vbyte::{self, DeltaCursor};
///
/// let bytes = vbyte::encode_delta_to_vec(&[5, 9, 300, 70_000], 0);
/// let mut c = DeltaCursor::new(&bytes, 4, 0);
/// assert_eq!(c.advance_to(10)?, Some(300));
/// assert_eq!(c.next()?, Some(300));
/// assert_eq!(c.next()?, Some(70_000));
/// assert_eq!(c.next()?, None);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub struct DeltaCursor<'a> {
    input: &'a [u8],
    n: usize,
    block: Decoded,
    /// The first value not decoded yet: its index, its byte, the value
    /// before it.
    next: usize,
    pos: usize,
    acc: u32,
}

impl<'a> DeltaCursor<'a> {
    /// A cursor at the first of the `n` values of `input`, encoded from
    /// `prev`. Damaged bytes are found as the cursor reaches them.
    pub fn new(input: &'a [u8], n: usize, prev: u32) -> DeltaCursor<'a> {
        DeltaCursor {
            input,
            n,
            block: Decoded::new(),
            next: 0,
            pos: 0,
            acc: prev,
        }
    }

    /// Decodes the next block; `false` at the end.
    fn refill(&mut self) -> Result<bool, Error> {
        if self.next >= self.n {
            self.block.ended(self.n);
            return Ok(false);
        }
        let m = (self.n - self.next).min(self.block.span());
        let values = self.block.room(self.next, m);
        let used = super::decode_delta(&self.input[self.pos..], values, self.acc)
            .map_err(|e| e.shifted(self.pos).missing_more(self.n - self.next - m))?;
        self.acc = values[m - 1];
        self.pos += used;
        self.block.filled(self.next, m);
        self.next += m;
        Ok(true)
    }

    /// VByte tells nothing of a value before decoding it: nothing to skip.
    fn skip_to(&mut self, _target: u32) {}
}

block_cursor!(DeltaCursor<'_>);
