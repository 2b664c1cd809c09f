//! Queries on compressed posting lists: a forward [`Cursor`] over a sorted
//! list in any delta-coded format, and the intersection ([`and`],
//! [`and_count`]) and union ([`or`]) of several lists, read straight from
//! their compressed bytes.
//!
//! A search engine answers a query by walking its terms' posting lists
//! together. An intersection is driven by the shortest list: each of its
//! values is looked up in the others with [`Cursor::advance_to`], which
//! moves forward only, and skips what it can without decoding it (whole
//! groups of a Stream VByte stream by their gaps' sums), so a short list
//! against a long one reads a small part of the long one. When a list
//! answers with a larger value than the one looked up, the shortest list
//! jumps to it in turn (the "leapfrog" of Lucene's conjunctions).
//!
//! Cursors exist for delta-coded Stream VByte
//! ([`stream_vbyte::DeltaCursor`](crate::stream_vbyte::DeltaCursor)) and
//! VByte ([`vbyte::DeltaCursor`](crate::vbyte::DeltaCursor)).
//!
//! Damaged bytes give the error the decoder gives, from the block where the
//! cursor meets them: a query fails there, and never returns values read
//! from them.
//!
//! ```
//! use vecpress::postings::{self, Cursor};
//! use vecpress::stream_vbyte::{self, DeltaCursor};
//!
//! let rare: Vec<u32> = vec![3, 70, 500, 9001];
//! let common: Vec<u32> = (0..10_000).filter(|d| d % 5 != 0).collect();
//! let a = stream_vbyte::encode_delta_to_vec(&rare, 0);
//! let b = stream_vbyte::encode_delta_to_vec(&common, 0);
//! let mut lists = [
//!     DeltaCursor::new(&a, rare.len(), 0)?,
//!     DeltaCursor::new(&b, common.len(), 0)?,
//! ];
//! let mut hits = Vec::new();
//! postings::and(&mut lists, &mut hits)?;
//! assert_eq!(hits, [3, 9001]);
//! # Ok::<(), vecpress::Error>(())
//! ```
#![forbid(unsafe_code)]

use crate::Error;

/// A forward cursor over a sorted list of u32, decoded as it goes.
///
/// The cursor stands at a value (the first, to begin with); [`next`]
/// returns it and moves past it, [`advance_to`] moves to the first value at
/// least a target and returns it without moving past it. A list that is not
/// sorted (a damaged or hostile stream can decode to one) gives unspecified
/// results, but never a panic, and every call still moves forward or
/// stays.
///
/// [`next`]: Cursor::next
/// [`advance_to`]: Cursor::advance_to
pub trait Cursor {
    /// Values in the list.
    fn len(&self) -> usize;

    /// Whether the list is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of the value the cursor stands at (`len()` at the end).
    fn position(&self) -> usize;

    /// The value the cursor stands at, moving past it; `None` at the end.
    fn next(&mut self) -> Result<Option<u32>, Error>;

    /// Moves to the first value `>= target` at or after the cursor and
    /// returns it (the cursor stays at it: the next call of `next` returns
    /// it again); `None`, at the end, when there is none. Never moves back.
    fn advance_to(&mut self, target: u32) -> Result<Option<u32>, Error>;

    /// Decodes values from the cursor on into `out` (as many as one block
    /// of the format gives, at most `out.len()`), moving past them; returns
    /// how many, 0 at the end.
    fn decode_block(&mut self, out: &mut [u32]) -> Result<usize, Error>;
}

/// Forwards every call to the cursor behind a reference or a box.
macro_rules! forward {
    () => {
        fn len(&self) -> usize {
            (**self).len()
        }
        fn position(&self) -> usize {
            (**self).position()
        }
        fn next(&mut self) -> Result<Option<u32>, Error> {
            (**self).next()
        }
        fn advance_to(&mut self, target: u32) -> Result<Option<u32>, Error> {
            (**self).advance_to(target)
        }
        fn decode_block(&mut self, out: &mut [u32]) -> Result<usize, Error> {
            (**self).decode_block(out)
        }
    };
}

/// A cursor borrowed is a cursor: lists of different formats go together
/// as `&mut dyn Cursor`.
impl<C: Cursor + ?Sized> Cursor for &mut C {
    forward!();
}

/// A boxed cursor is a cursor: lists of different formats go together as
/// `Box<dyn Cursor>`.
impl<C: Cursor + ?Sized> Cursor for Box<C> {
    forward!();
}

/// The values in every list (their intersection), in order, into `out`
/// (cleared first). The shortest list drives; the others are advanced to
/// its values. No list: nothing.
pub fn and<C: Cursor>(lists: &mut [C], out: &mut Vec<u32>) -> Result<(), Error> {
    out.clear();
    intersect(lists, |v| out.push(v))
}

/// How many values are in every list, without writing them.
///
/// ```
/// use vecpress::postings;
/// use vecpress::vbyte::{self, DeltaCursor};
///
/// let evens: Vec<u32> = (0..100).map(|i| 2 * i).collect();
/// let threes: Vec<u32> = (0..100).map(|i| 3 * i).collect();
/// let (a, b) = (vbyte::encode_delta_to_vec(&evens, 0), vbyte::encode_delta_to_vec(&threes, 0));
/// let mut lists = [DeltaCursor::new(&a, 100, 0), DeltaCursor::new(&b, 100, 0)];
/// assert_eq!(postings::and_count(&mut lists)?, 34); // 0, 6, ..., 198
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn and_count<C: Cursor>(lists: &mut [C]) -> Result<usize, Error> {
    let mut n = 0;
    intersect(lists, |_| n += 1)?;
    Ok(n)
}

/// The leapfrog intersection, each value found given to `found`.
fn intersect<C: Cursor>(lists: &mut [C], mut found: impl FnMut(u32)) -> Result<(), Error> {
    let Some(shortest) = (0..lists.len()).min_by_key(|&i| lists[i].len()) else {
        return Ok(());
    };
    lists.swap(0, shortest);
    let (driver, others) = lists.split_first_mut().expect("a list, found above");
    let mut target = 0u32;
    'candidates: while let Some(candidate) = driver.advance_to(target)? {
        for other in others.iter_mut() {
            match other.advance_to(candidate)? {
                None => return Ok(()),
                Some(v) if v > candidate => {
                    target = v;
                    continue 'candidates;
                }
                Some(_) => {}
            }
        }
        found(candidate);
        match candidate.checked_add(1) {
            Some(t) => target = t,
            None => return Ok(()),
        }
    }
    Ok(())
}

/// The values in any list (their union), in order and each once, into
/// `out` (cleared first).
///
/// ```
/// use vecpress::postings;
/// use vecpress::stream_vbyte::{self, DeltaCursor};
///
/// let (a, b) = ([1u32, 4, 9], [2u32, 4, 10]);
/// let (x, y) = (stream_vbyte::encode_delta_to_vec(&a, 0), stream_vbyte::encode_delta_to_vec(&b, 0));
/// let mut lists = [DeltaCursor::new(&x, 3, 0)?, DeltaCursor::new(&y, 3, 0)?];
/// let mut all = Vec::new();
/// postings::or(&mut lists, &mut all)?;
/// assert_eq!(all, [1, 2, 4, 9, 10]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn or<C: Cursor>(lists: &mut [C], out: &mut Vec<u32>) -> Result<(), Error> {
    out.clear();
    // The head of each list still open, taken in turn by the smallest.
    let mut heads: Vec<Option<u32>> = Vec::with_capacity(lists.len());
    for list in lists.iter_mut() {
        heads.push(list.next()?);
    }
    let mut last = None;
    loop {
        let Some((i, v)) = heads
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.map(|v| (i, v)))
            .min_by_key(|&(_, v)| v)
        else {
            return Ok(());
        };
        if last != Some(v) {
            out.push(v);
            last = Some(v);
        }
        heads[i] = lists[i].next()?;
    }
}

#[cfg(test)]
mod tests;
