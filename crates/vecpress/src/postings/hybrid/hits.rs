//! A query's answer kept in the forms the query met its ids in:
//! arrays of ids, bitmap windows and runs, as a Roaring bitmap keeps its
//! containers.

use super::span::{self, extract};
use super::{WINDOW, WORDS};
use crate::tune::{self, Op};

/// The ids a query found ([`and_hits`](super::and_hits),
/// [`or_hits`](super::or_hits)), kept as the query met them: for an AND,
/// where every list is a bitmap, the AND of their words, and where every
/// list holds runs, the runs they share; for an OR, the bitmap it draws
/// where its lists are dense, and where every list holds runs, the runs
/// of any; elsewhere the ids.
///
/// Writing out a dense answer id by id takes more time than finding it:
/// two bitmaps meet 64 ids a word, and writing those ids out takes a store
/// of four bytes each. A Roaring bitmap's AND leaves its answer as bitmaps
/// and runs for that reason, and `Hits` does the same, with its count
/// kept as it grows. Read it by [`iter`](Hits::iter), [`contains`](Hits::contains)
/// or [`extend_into`](Hits::extend_into) (which writes its bitmaps out
/// sixteen ids at a time at the AVX-512 level).
///
/// ```
/// use vecpress::postings::hybrid::{self, Hits};
///
/// let evens: Vec<u32> = (0..100_000).step_by(2).collect();
/// let threes: Vec<u32> = (0..100_000).step_by(3).collect();
/// let (a, b) = (hybrid::encode(&evens)?, hybrid::encode(&threes)?);
/// let mut hits = Hits::new();
/// hybrid::and_hits(&[&a, &b], &mut hits)?;
/// assert_eq!(hits.len(), 16_667);
/// assert!(hits.contains(600) && !hits.contains(601));
/// assert_eq!(hits.iter().take(3).collect::<Vec<_>>(), [0, 6, 12]);
/// let mut ids = Vec::new();
/// hits.extend_into(&mut ids);
/// assert_eq!(ids, (0..100_000).step_by(6).collect::<Vec<u32>>());
/// # Ok::<(), vecpress::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Hits {
    /// The parts in order of their ids, each a range of one of the three
    /// buffers below.
    pub(super) parts: Vec<Part>,
    ids: Vec<u32>,
    /// Whole windows' words, bit `i` of word `j` of a part standing for id
    /// its `first + 64 * j + i`.
    pub(super) words: Vec<u64>,
    /// Each run's first and last id.
    runs: Vec<[u32; 2]>,
    len: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    Ids,
    Words,
    Runs,
}

/// A range of a buffer: `from..to` of `ids`, `words` (the first word's
/// first id `first`) or `runs`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Part {
    pub(super) form: Form,
    first: u32,
    from: usize,
    to: usize,
}

impl Hits {
    /// An empty answer.
    pub const fn new() -> Hits {
        Hits {
            parts: Vec::new(),
            ids: Vec::new(),
            words: Vec::new(),
            runs: Vec::new(),
            len: 0,
        }
    }

    /// How many ids it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no id.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties it, keeping its buffers for the next query.
    pub fn clear(&mut self) {
        self.parts.clear();
        self.ids.clear();
        self.words.clear();
        self.runs.clear();
        self.len = 0;
    }

    /// Whether it holds `id`: a binary search of its parts, then of the
    /// part's ids or runs, or a bit test.
    pub fn contains(&self, id: u32) -> bool {
        let i = self.parts.partition_point(|p| self.first(p) <= id);
        let Some(p) = i.checked_sub(1).map(|i| self.parts[i]) else {
            return false;
        };
        match p.form {
            Form::Ids => self.ids[p.from..p.to].binary_search(&id).is_ok(),
            Form::Words => {
                let at = (id - p.first) as usize;
                self.words[p.from..p.to]
                    .get(at / 64)
                    .is_some_and(|w| w >> (at % 64) & 1 == 1)
            }
            Form::Runs => {
                let runs = &self.runs[p.from..p.to];
                let j = runs.partition_point(|r| r[0] <= id);
                j > 0 && runs[j - 1][1] >= id
            }
        }
    }

    /// Its ids in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            hits: self,
            part: 0,
            at: self.parts.first().map_or(0, |p| p.from),
            word: 0,
            step: 0,
            left: self.len,
        }
    }

    /// Appends its ids to `out`, in order, bitmaps and runs written out by
    /// the kernels of the CPU's level.
    pub fn extend_into(&self, out: &mut Vec<u32>) {
        let isa = tune::isa(Op::Intersect);
        out.reserve(self.len);
        for p in &self.parts {
            match p.form {
                Form::Ids => out.extend_from_slice(&self.ids[p.from..p.to]),
                Form::Words => extract(isa, &self.words[p.from..p.to], p.first, out),
                Form::Runs => span::expand(isa, &self.runs[p.from..p.to], 0, 1 << 32, out),
            }
        }
    }

    /// Its ids in a new vector.
    pub fn to_vec(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.extend_into(&mut out);
        out
    }

    /// A part's first id, or the first its bitmap could hold.
    fn first(&self, p: &Part) -> u32 {
        match p.form {
            Form::Ids => self.ids[p.from],
            Form::Words => p.first,
            Form::Runs => self.runs[p.from][0],
        }
    }

    /// The part of `form` at the end, grown by `to` or begun (from where
    /// the buffer ended before), starting at `first`.
    fn grow(&mut self, form: Form, first: u32, from: usize, to: usize) {
        if let Some(last) = self.parts.last_mut() {
            let joins = match form {
                Form::Words => {
                    last.first as u64 + (last.to - last.from) as u64 * 64 == first as u64
                }
                _ => true,
            };
            if last.form == form && last.to == from && joins {
                last.to = to;
                return;
            }
        }
        self.parts.push(Part {
            form,
            first,
            from,
            to,
        });
    }

    /// Adds ids, each above those it holds.
    pub(super) fn push_ids(&mut self, ids: &[u32]) {
        if ids.is_empty() {
            return;
        }
        let from = self.ids.len();
        self.ids.extend_from_slice(ids);
        self.len += ids.len();
        self.grow(Form::Ids, ids[0], from, self.ids.len());
    }

    /// Room for a bitmap of `n` words, each `fill` (all set, to be ANDed
    /// in place; none, to be ORed), at the end of its words, kept by
    /// [`close_words`](Hits::close_words).
    pub(super) fn open_words(&mut self, n: usize, fill: u64) -> &mut [u64] {
        let from = self.words.len();
        self.words.resize(from + n, fill);
        &mut self.words[from..]
    }

    /// Ids set in the last `n` words.
    pub(super) fn count_open(&self, isa: crate::Isa, n: usize) -> usize {
        span::count(isa, &self.words[self.words.len() - n..])
    }

    /// Its vector of ids, to append ids to (each above those it holds),
    /// and where they start, for [`close_ids`](Hits::close_ids).
    pub(super) fn open_ids(&mut self) -> (&mut Vec<u32>, usize) {
        let from = self.ids.len();
        (&mut self.ids, from)
    }

    /// Keeps the ids appended from `from`.
    pub(super) fn close_ids(&mut self, from: usize) {
        let to = self.ids.len();
        if to > from {
            self.len += to - from;
            self.grow(Form::Ids, self.ids[from], from, to);
        }
    }

    /// Keeps the bitmap of `words` words [`open_words`](Hits::open_words)
    /// gave, of whole windows from id `first` (above the ids it holds) with
    /// `n` ids set; nothing where none is.
    pub(super) fn close_words(&mut self, first: u32, words: usize, n: usize) {
        let to = self.words.len();
        let from = to - words;
        debug_assert!(words.is_multiple_of(WORDS) && first.is_multiple_of(WINDOW));
        if n == 0 {
            self.words.truncate(from);
            return;
        }
        self.len += n;
        self.grow(Form::Words, first, from, to);
    }

    /// Adds runs (first and last ids), rising, above the ids it holds.
    pub(super) fn push_runs(&mut self, runs: &[[u32; 2]]) {
        if runs.is_empty() {
            return;
        }
        let from = self.runs.len();
        self.runs.extend_from_slice(runs);
        self.len += runs
            .iter()
            .map(|&[a, b]| (b - a) as usize + 1)
            .sum::<usize>();
        self.grow(Form::Runs, runs[0][0], from, self.runs.len());
    }
}

impl<'h> IntoIterator for &'h Hits {
    type Item = u32;
    type IntoIter = Iter<'h>;

    fn into_iter(self) -> Iter<'h> {
        self.iter()
    }
}

/// The ids of [`Hits`] in order ([`Hits::iter`]).
#[derive(Clone, Debug)]
pub struct Iter<'h> {
    hits: &'h Hits,
    /// The part it stands in, and its place in that part's buffer (the
    /// next id, word or run).
    part: usize,
    at: usize,
    /// In a bitmap, the bits of the word before `at` not yet given.
    word: u64,
    /// In runs, the next id's distance from the first of the run at `at`.
    step: u32,
    left: usize,
}

impl Iterator for Iter<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let h = self.hits;
        loop {
            let p = h.parts.get(self.part)?;
            match p.form {
                Form::Ids if self.at < p.to => {
                    self.at += 1;
                    self.left = self.left.saturating_sub(1);
                    return Some(h.ids[self.at - 1]);
                }
                Form::Words => {
                    while self.word == 0 && self.at < p.to {
                        self.word = h.words[self.at];
                        self.at += 1;
                    }
                    if self.word != 0 {
                        let bit = self.word.trailing_zeros();
                        self.word &= self.word - 1;
                        self.left = self.left.saturating_sub(1);
                        return Some(p.first + 64 * (self.at - 1 - p.from) as u32 + bit);
                    }
                }
                Form::Runs if self.at < p.to => {
                    let [a, b] = h.runs[self.at];
                    let id = a + self.step;
                    if id == b {
                        (self.at, self.step) = (self.at + 1, 0);
                    } else {
                        self.step += 1;
                    }
                    self.left = self.left.saturating_sub(1);
                    return Some(id);
                }
                _ => {}
            }
            self.part += 1;
            self.at = h.parts.get(self.part).map_or(0, |p| p.from);
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Iter<'_> {}
