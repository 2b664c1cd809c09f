//! [`DeltaCursor`]: a forward cursor over a delta-coded VByte list, for
//! queries on posting lists ([`crate::postings`]).
//!
//! VByte keeps no index of where values start, so the cursor skips by
//! decoding: a block of [`BLOCK`] values at a time with the default
//! kernel, into a buffer of its own, where `advance_to` looks for its
//! target.
#![forbid(unsafe_code)]

use crate::postings::Cursor;
use crate::{Error, Unit};

/// Values a cursor decodes at a time.
pub const BLOCK: usize = 128;

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
    /// `buf[..filled]` holds the values from index `start`; the cursor is at
    /// `buf[at]`.
    buf: [u32; BLOCK],
    filled: usize,
    at: usize,
    start: usize,
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
            buf: [0; BLOCK],
            filled: 0,
            at: 0,
            start: 0,
            next: 0,
            pos: 0,
            acc: prev,
        }
    }

    /// Decodes the next block into the buffer; `false` at the end.
    fn refill(&mut self) -> Result<bool, Error> {
        if self.next >= self.n {
            (self.start, self.filled, self.at) = (self.n, 0, 0);
            return Ok(false);
        }
        let m = (self.n - self.next).min(BLOCK);
        let left = self.n - self.next - m;
        let values = &mut self.buf[..m];
        let used = super::decode_delta(&self.input[self.pos..], values, self.acc).map_err(|e| {
            match e.shifted(self.pos) {
                // The values missing count to the end of the list.
                Error::Truncated {
                    offset,
                    needed,
                    unit: Unit::Values,
                } => Error::Truncated {
                    offset,
                    needed: needed + left,
                    unit: Unit::Values,
                },
                other => other,
            }
        })?;
        self.acc = values[m - 1];
        self.pos += used;
        (self.start, self.filled, self.at) = (self.next, m, 0);
        self.next += m;
        Ok(true)
    }
}

impl Cursor for DeltaCursor<'_> {
    fn len(&self) -> usize {
        self.n
    }

    fn position(&self) -> usize {
        self.start + self.at
    }

    fn next(&mut self) -> Result<Option<u32>, Error> {
        if self.at >= self.filled && !self.refill()? {
            return Ok(None);
        }
        let v = self.buf[self.at];
        self.at += 1;
        Ok(Some(v))
    }

    fn advance_to(&mut self, target: u32) -> Result<Option<u32>, Error> {
        loop {
            if let Some(i) = self.buf[self.at..self.filled]
                .iter()
                .position(|&v| v >= target)
            {
                self.at += i;
                return Ok(Some(self.buf[self.at]));
            }
            if !self.refill()? {
                return Ok(None);
            }
        }
    }

    fn decode_block(&mut self, out: &mut [u32]) -> Result<usize, Error> {
        if self.at >= self.filled && !self.refill()? {
            return Ok(0);
        }
        let k = (self.filled - self.at).min(out.len());
        out[..k].copy_from_slice(&self.buf[self.at..self.at + k]);
        self.at += k;
        Ok(k)
    }

    fn buffered(&self) -> &[u32] {
        &self.buf[self.at..self.filled]
    }

    fn consume(&mut self, k: usize) {
        self.at = (self.at + k).min(self.filled);
    }
}
