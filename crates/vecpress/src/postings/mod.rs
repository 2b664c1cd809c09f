//! Queries on compressed posting lists: a forward [`Cursor`] over a sorted
//! list in any delta-coded format, and the intersection ([`and`],
//! [`and_count`]) and union ([`or`]) of several lists, read straight from
//! their compressed bytes.
//!
//! A search engine answers a query by walking its terms' posting lists
//! together. An intersection is driven by the shortest list: a block of its
//! values at a time, each other list keeps the ones it holds, moving with
//! [`Cursor::advance_to`] to the first of them (forward only, skipping what
//! it can without decoding it: whole groups of a Stream VByte stream by
//! their gaps' sums), then merging its decoded block with them, eight
//! candidates with eight values at a time with SIMD (AVX2, AVX-512). So a
//! short list against a long one reads a small part of the long one, and
//! lists of like lengths are merged block by block.
//!
//! Cursors exist for every delta-coded format of posting lists:
//! Stream VByte ([`stream_vbyte::DeltaCursor`](crate::stream_vbyte::DeltaCursor),
//! which skips groups by their control bytes), FastLanes
//! ([`bitpack::fastlanes::DeltaCursor`](crate::bitpack::fastlanes::DeltaCursor),
//! which skips blocks of 1024 by their last value, read in place), and VByte,
//! bp128 and PFOR ([`vbyte::DeltaCursor`](crate::vbyte::DeltaCursor),
//! [`bitpack::bp128::DeltaCursor`](crate::bitpack::bp128::DeltaCursor),
//! [`bitpack::pfor::DeltaCursor`](crate::bitpack::pfor::DeltaCursor), which
//! keep no index and skip by decoding).
//!
//! Lists stored in one buffer, as an index file stores them (each found by
//! where its stream starts and how many values it holds), are queried by one
//! call: [`stream_vbyte::and_delta_lists`](crate::stream_vbyte::and_delta_lists)
//! and [`or_delta_lists`](crate::stream_vbyte::or_delta_lists). Those decode
//! lists of like lengths whole and merge them, with no cursor to set up
//! (most of what a query on short lists costs), and read a list far longer
//! than the shortest by cursor.
//!
//! Lists in the [`hybrid`] form (each window of 4096 ids a bitmap, runs or
//! Stream VByte gaps, whichever fits it) are queried by [`hybrid::and`],
//! [`hybrid::and_count`] and [`hybrid::or`]: dense lists intersect a word
//! of 64 ids at a time, in fewer bytes than a delta-coded stream takes.
//!
//! Damaged bytes give the error the decoder gives, from the block where the
//! cursor meets them: a query fails there, and never returns values read
//! from them. An intersection reads only the blocks that can hold its
//! candidates, so it may answer without meeting damage in a block it
//! skipped (which blocks it skips can differ with the instruction-set
//! level); a union reads every list whole.
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

mod decoded;
pub mod hybrid;
mod merge;

use crate::{Error, Isa};
pub(crate) use decoded::{and_decoded, dedup, keep_decoded, or_decoded};

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

    /// The values decoded and not yet moved past, from the one the cursor
    /// stands at; empty when the cursor has none decoded (after
    /// [`advance_to`](Cursor::advance_to) returned a value, it is first).
    fn buffered(&self) -> &[u32];

    /// Moves past the first `k` values of [`buffered`](Cursor::buffered)
    /// (all of them when `k` is larger).
    fn consume(&mut self, k: usize);
}

/// Values a cursor decodes at a time while it reads on, at most where the
/// format's blocks are shorter (a multiple of 4, for Stream VByte's groups,
/// and of 128, for bp128's and PFOR's blocks): merged with candidates of like
/// density. Longer blocks leave fewer ends of blocks to the merge, whose
/// eight-lane steps stop there.
pub(crate) const BLOCK: usize = 512;

/// Values a cursor decodes at a time while it skips: a target found in a
/// block of these costs less to decode than one of [`BLOCK`].
const SPARSE: usize = 128;

/// Values a cursor holds in a buffer of its own, without allocating.
const INLINE: usize = 32;

/// The block a cursor decoded last and where the cursor stands in it: what
/// the cursors of every format share. A cursor decodes a block into
/// [`Decoded::room`], then commits it with [`Decoded::filled`], so that a
/// block that fails to decode is never read.
///
/// It also keeps how the cursor is read, so that it decodes blocks of the
/// length that pays: [`BLOCK`] values while its targets fall in the next
/// values (then it searches no index for them, [`Decoded::probing`] is
/// false), [`SPARSE`] once a block decoded for a target held nothing
/// useful (then it searches again).
pub(crate) struct Decoded {
    /// Blocks of up to [`INLINE`] values are decoded here, longer ones in
    /// `long`, grown when first needed: a cursor over a short list (most
    /// of an index) then takes no allocation, and zeroes and moves little
    /// room it never uses.
    short: [u32; INLINE],
    long: Vec<u32>,
    in_long: bool,
    /// The block (in `short` or `long`) holds `len` values from index
    /// `start` of the list; the cursor stands at its value `at`.
    len: usize,
    at: usize,
    start: usize,
    span: usize,
    probing: bool,
}

impl Decoded {
    pub(crate) fn new() -> Decoded {
        Decoded {
            short: [0; INLINE],
            long: Vec::new(),
            in_long: false,
            len: 0,
            at: 0,
            start: 0,
            span: BLOCK,
            probing: true,
        }
    }

    /// Values the next block should hold, at most.
    pub(crate) fn span(&self) -> usize {
        self.span
    }

    /// Whether the format's index is worth searching for the next target.
    pub(crate) fn probing(&self) -> bool {
        self.probing
    }

    /// A search of the index found the target in the next values: read
    /// on, in long blocks, without searching.
    pub(crate) fn near(&mut self) {
        (self.span, self.probing) = (BLOCK, false);
    }

    /// A search of the index skipped values: decode short blocks.
    pub(crate) fn far(&mut self) {
        self.span = SPARSE;
    }

    /// A block decoded for a target held no value at least the target:
    /// search again, and decode short blocks.
    pub(crate) fn missed(&mut self) {
        (self.span, self.probing) = (SPARSE, true);
    }

    /// Room for the next block's `m` values, from index `start` of the
    /// list. Until the block is committed the cursor stands at `start`
    /// with nothing buffered, so that a block that fails to decode leaves
    /// no values to read (the next read decodes it again, and fails
    /// again).
    pub(crate) fn room(&mut self, start: usize, m: usize) -> &mut [u32] {
        (self.start, self.len, self.at) = (start, 0, 0);
        self.in_long = m > INLINE;
        if !self.in_long {
            return &mut self.short[..m];
        }
        if self.long.len() < m {
            self.long.resize(m, 0);
        }
        &mut self.long[..m]
    }

    /// The block's values.
    fn block(&self) -> &[u32] {
        if self.in_long {
            &self.long[..self.len]
        } else {
            &self.short[..self.len]
        }
    }

    /// The block decoded into [`Decoded::room`]: `m` values from index
    /// `start`; the cursor stands at the first.
    pub(crate) fn filled(&mut self, start: usize, m: usize) {
        (self.start, self.len, self.at) = (start, m, 0);
    }

    /// No block left: the cursor stands at the end, `n`.
    pub(crate) fn ended(&mut self, n: usize) {
        (self.start, self.len, self.at) = (n, 0, 0);
    }

    /// Whether every value of the block was moved past.
    pub(crate) fn is_spent(&self) -> bool {
        self.at >= self.len
    }

    pub(crate) fn position(&self) -> usize {
        self.start + self.at
    }

    /// The value the cursor stands at, moving past it; `None` when the
    /// block is spent.
    pub(crate) fn take(&mut self) -> Option<u32> {
        let v = *self.buffered().first()?;
        self.at += 1;
        Some(v)
    }

    /// Moves to the first value `>= target` in the block, if any.
    pub(crate) fn find(&mut self, target: u32) -> Option<u32> {
        let i = self.buffered().iter().position(|&v| v >= target)?;
        self.at += i;
        Some(self.block()[self.at])
    }

    /// Copies the values left into `out` (as many as fit), moving past them.
    pub(crate) fn take_into(&mut self, out: &mut [u32]) -> usize {
        let k = self.buffered().len().min(out.len());
        out[..k].copy_from_slice(&self.buffered()[..k]);
        self.at += k;
        k
    }

    pub(crate) fn buffered(&self) -> &[u32] {
        &self.block()[self.at..]
    }

    pub(crate) fn consume(&mut self, k: usize) {
        self.at = self.at.saturating_add(k).min(self.len);
    }
}

/// The [`Cursor`] of a list decoded a block at a time: the type has fields
/// `n` (values in the list) and `block` (a [`Decoded`]), and methods
/// `refill(&mut self) -> Result<bool, Error>`, which decodes the next block
/// (of at most [`Decoded::span`] values) into `block` (`false` at the end),
/// and `skip_to(&mut self, target)`, which moves past what cannot hold
/// `target` without decoding it, when the format can tell and
/// [`Decoded::probing`] asks it to, then says [`Decoded::near`] or
/// [`Decoded::far`].
macro_rules! block_cursor {
    ($ty:ty) => {
        impl $crate::postings::Cursor for $ty {
            fn len(&self) -> usize {
                self.n
            }

            fn position(&self) -> usize {
                self.block.position()
            }

            fn next(&mut self) -> Result<Option<u32>, $crate::Error> {
                if self.block.is_spent() && !self.refill()? {
                    return Ok(None);
                }
                Ok(self.block.take())
            }

            fn advance_to(&mut self, target: u32) -> Result<Option<u32>, $crate::Error> {
                let mut fresh = false;
                loop {
                    if let Some(v) = self.block.find(target) {
                        return Ok(Some(v));
                    }
                    if fresh {
                        self.block.missed();
                    }
                    self.skip_to(target);
                    if !self.refill()? {
                        return Ok(None);
                    }
                    fresh = true;
                }
            }

            fn decode_block(&mut self, out: &mut [u32]) -> Result<usize, $crate::Error> {
                if self.block.is_spent() && !self.refill()? {
                    return Ok(0);
                }
                Ok(self.block.take_into(out))
            }

            fn buffered(&self) -> &[u32] {
                self.block.buffered()
            }

            fn consume(&mut self, k: usize) {
                self.block.consume(k);
            }
        }
    };
}
pub(crate) use block_cursor;

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
        fn buffered(&self) -> &[u32] {
            (**self).buffered()
        }
        fn consume(&mut self, k: usize) {
            (**self).consume(k)
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

/// Candidates an intersection takes from the shortest list at a time: a
/// cursor's block, what one `decode_block` gives.
const CANDIDATES: usize = BLOCK;

/// The values in every list (their intersection), in order, into `out`
/// (cleared first). No list: nothing.
///
/// The shortest list gives candidates a block at a time (up to 512); each
/// other list, shortest first, keeps those it holds: it skips to the first
/// candidate with [`Cursor::advance_to`], then merges its decoded block
/// with the candidates eight by eight, and skips again past the block.
pub fn and<C: Cursor>(lists: &mut [C], out: &mut Vec<u32>) -> Result<(), Error> {
    out.clear();
    intersect(lists, |found| out.extend_from_slice(found))
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
    intersect(lists, |found| n += found.len())?;
    Ok(n)
}

/// The intersection, each block of values found given to `found`.
fn intersect<C: Cursor>(lists: &mut [C], found: impl FnMut(&[u32])) -> Result<(), Error> {
    lists.sort_unstable_by_key(|c| c.len());
    let Some((driver, others)) = lists.split_first_mut() else {
        return Ok(());
    };
    // A short driver gets a short array of candidates: zeroing the long
    // one would cost a query on short lists as much as its merge.
    if driver.len() <= SHORT {
        drive::<C, SHORT>(driver, others, found)
    } else {
        drive::<C, CANDIDATES>(driver, others, found)
    }
}

/// Candidates of a driver of at most this many values, taken at once.
const SHORT: usize = 64;

/// [`intersect`] with `N` candidates at a time.
fn drive<C: Cursor, const N: usize>(
    driver: &mut C,
    others: &mut [C],
    mut found: impl FnMut(&[u32]),
) -> Result<(), Error> {
    let isa = crate::tune::isa(crate::tune::Op::Intersect);
    // Each list keeps candidates from one array into the other.
    let (mut a, mut b) = ([0u32; N], [0u32; N]);
    let (mut candidates, mut kept) = (&mut a, &mut b);
    loop {
        let mut n = 0;
        while n < N {
            match driver.decode_block(&mut candidates[n..])? {
                0 => break,
                k => n += k,
            }
        }
        if n == 0 {
            return Ok(());
        }
        // A list that ends holds no later candidate: this block is the last,
        // once the lists after it have filtered it too.
        let mut last = false;
        for other in others.iter_mut() {
            let ended;
            (n, ended) = keep_held(isa, &candidates[..n], kept, other)?;
            last |= ended;
            std::mem::swap(&mut candidates, &mut kept);
        }
        found(&candidates[..n]);
        if last {
            return Ok(());
        }
    }
}

/// Writes to the front of `kept` the `candidates` (sorted) that `list`
/// holds, moving its cursor past them; returns how many, and whether the
/// list ended (then no later candidate can be held).
pub(crate) fn keep_held<C: Cursor>(
    isa: Isa,
    candidates: &[u32],
    kept: &mut [u32],
    list: &mut C,
) -> Result<(usize, bool), Error> {
    let (mut i, mut k) = (0, 0);
    while i < candidates.len() {
        if list.advance_to(candidates[i])?.is_none() {
            return Ok((k, true));
        }
        let m = merge::keep_common(isa, candidates, i, kept, k, list.buffered());
        (i, k) = (m.i, m.kept);
        list.consume(m.j);
    }
    Ok((k, false))
}

/// The values in any list (their union), in order and each once, into
/// `out` (cleared first). Every list is read whole, then merged into the
/// union of those before it (sixteen values at a time at the AVX-512
/// level).
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
    // The longest list is read straight into `out`, and each other merged
    // in: the longest is written twice, not once per list after it.
    lists.sort_unstable_by_key(|c| core::cmp::Reverse(c.len()));
    let Some((longest, others)) = lists.split_first_mut() else {
        return Ok(());
    };
    read_all(longest, out)?;
    if others.is_empty() {
        // Values repeated inside a list (a damaged one) go too; the
        // merges below drop them as they go.
        dedup(out, 0);
    }
    let isa = crate::tune::isa(crate::tune::Op::Intersect);
    let (mut list, mut merged) = (Vec::new(), Vec::new());
    for cursor in others {
        // Room for the values decoded so far at most: a list's length is
        // a claim, not bytes read.
        list.reserve(cursor.len().min(out.len()));
        read_all(cursor, &mut list)?;
        merge::union(isa, out, &list, &mut merged);
        std::mem::swap(out, &mut merged);
    }
    Ok(())
}

/// Every value from the cursor on into `list` (cleared first), a decoded
/// block at a time: no room is taken before the values that fill it are
/// decoded.
fn read_all<C: Cursor>(cursor: &mut C, list: &mut Vec<u32>) -> Result<(), Error> {
    list.clear();
    while let Some(v) = cursor.next()? {
        list.push(v);
        let block = cursor.buffered();
        list.extend_from_slice(block);
        let k = block.len();
        cursor.consume(k);
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests;
