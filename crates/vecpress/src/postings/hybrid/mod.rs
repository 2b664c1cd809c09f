//! A posting format with bitmap blocks for dense ranges: each window of
//! [`WINDOW`] document ids is stored as a bitmap where its list is dense,
//! as runs where it holds stretches of consecutive ids, and as Stream VByte
//! gaps where it is sparse; queries ([`and`], [`and_count`], [`and_hits`],
//! [`or`], [`or_hits`]) read all three straight from the bytes.
//!
//! A list that holds one id in three costs 4096 / 8 = 512 bytes a window
//! as a bitmap, a third of a byte per id, where gaps take at least a byte
//! and a quarter each; and two bitmaps intersect a word (64 ids) at a
//! time, where two arrays of ids take a compare per id. Roaring bitmaps
//! made this choice per range of 65,536 ids, with arrays of 16-bit ids
//! for the sparse ones. Here the windows are smaller (so a dense stretch
//! of a sparse list becomes a bitmap of its own), and sparse windows keep
//! the gaps' compression: on the posting files of the benchmarks a list
//! takes fewer bytes than as Roaring bitmaps with run containers.
//!
//! # Format
//!
//! Integers marked *varint* are LEB128 (7 bits a byte, low first, at most
//! five bytes). A list is *varint* the number of blocks; then, in a list of
//! four blocks or more, its index: each block's last id, then each
//! block's end (where the block after it starts, counted from where the
//! first starts), all 32-bit little-endian values; then each block:
//!
//! - *varint* `kind | n << 2`, `n` at least 1, `kind`:
//!   - 0, gaps: *varint* `last - before`, *varint* the byte length of
//!     what follows, then the Stream VByte stream (control bytes, then
//!     data bytes) of the `n` ids' gaps, the first from `before`;
//!   - 2, runs: the same, the stream holding the gaps of `2n` values: each
//!     run's first and last ids, from `before` (a run holds every id from
//!     its first to its last; no run is longer than a window);
//!   - 1, bitmap: *varint* `w - next`, where the block covers windows `w`
//!     to `w + n - 1` (ids `w * 4096` to `(w + n) * 4096 - 1`), then
//!     `n * 512` bytes: each window's 64 words, little-endian, bit `i` of
//!     word `j` standing for id `w * 4096 + 64 * j + i`;
//!   - 3, array: *varint* `first - before`, its first id, then the `n - 1`
//!     later ids' offsets from it, rising, as 16-bit little-endian values
//!     (so its ids lie within 65,536 of the first; its last id is the first
//!     plus the last offset).
//!
//! `before` is the last id of the block before (0 before the first block),
//! a bitmap block's last id counting as `(w + n) * 4096 - 1`; `last` is the
//! block's last id; `next` is the window after the block before's last id
//! (0 before the first block). Each block holds the ids of whole windows,
//! and ids rise from block to block. A list is self-delimiting, so that an
//! index can store lists one after another and find each by where it
//! starts.
//!
//! The encoder ([`encode_into`]) gives each window the form of fewest
//! bytes, weighed for speed: runs where they take less than an eighth of
//! the bitmap, a bitmap where it takes less than twice the gaps; and runs
//! or gaps that cut a stretch of the other form take that form, unless
//! they save more than the headers of the blocks the cut makes. Windows
//! left to gaps become arrays, which a query reads without a decode, the
//! windows of a chunk of 65,536 ids together (so that arrays and gaps do
//! not take turns, a block each), as far as the list's [`Room`] allows: by default where they take no more
//! bytes than the gaps, with [`Room::Roaring`] up to the bytes of the
//! list's Roaring bitmap; and only where a list holds dozens of ids in
//! 65,536, so that arrays do not cut its blocks small. Adjacent bitmap
//! windows make one block; windows of gaps (or of runs, or arrays) make
//! blocks of about 1024 ids (256 runs), so that a query skips what it does
//! not need by the blocks' headers, or by the index. A list of up to 1024
//! ids is one block of gaps where that takes at most an eighth more bytes
//! than its blocks would: a query reads a list of one block whole, and
//! walks one of several.
//!
//! # Queries
//!
//! An intersection is driven by the list of fewest ids (as its first
//! block's header and its count of blocks suggest), a block at a time: a
//! block of gaps or an array gives candidates, which each other list keeps
//! by those of its blocks that may hold them (passing the others by their
//! headers, or by its index where it has one, which a query searches for
//! the first block whose last id reaches an id, where it would else read
//! the headers before that block one after another); a block of runs or a
//! bitmap is walked with the others a span of windows at a time, bar a
//! block of a few dozen runs: where the other lists' blocks there hold
//! runs, many times as many, the driver's runs are intersected with those
//! in their streams, as candidates are (below). A walk goes from a window
//! that every list holds ids in (for [`and`]; any list, for [`or`]) to the
//! first end of a list's block there. A block of gaps or runs is decoded when the query first
//! needs its ids (one SIMD Stream VByte decode; an array's offsets are
//! widened, 32 a step at the AVX-512 level), and skipped by its header's
//! last id otherwise, or by its first id (which its stream's first gap
//! gives in place) where an intersection's candidates fall before it. A
//! block reached by candidates 16 or more times fewer than its ids finds
//! each candidate's place by compares of sixteen ids a step from the last
//! one's place (at the AVX-512 level; a gallop where they are hundreds of
//! ids apart), and an array there is searched in place, 32 offsets a step,
//! not widened, and runs in their stream, the groups of values below each
//! candidate passed by the Stream VByte search kernel (by their gaps' sums)
//! with no decode; a bitmap tests candidates sixteen a step, their words
//! gathered where they are far apart. In a span where every list is a
//! bitmap, the intersection is the AND of their words, written out sixteen
//! ids at a time (at the AVX-512 level, `vpcompressd` of the set bits'
//! positions), counted by popcount alone ([`and_count`]), or kept as the
//! AND's words ([`and_hits`], which keeps runs as runs too). Where a list
//! holds gaps, the shortest array of ids gives the candidates, kept by a
//! bit test against each bitmap, by a walk of each list of runs, and by the
//! SIMD merge against other gaps. Where every list holds runs, the runs are
//! intersected (at the AVX-512 level eight runs of each list a step, every
//! run of one against every run of the other: for an answer written out,
//! each run's first and last against the other's eight in two compares, a
//! run that meets none costing those alone). A union draws a span into a
//! bitmap where its lists are dense there (a bitmap, or runs and ids of
//! eight or more ids a word; [`or_hits`] keeps that bitmap), unites runs as
//! runs where every list holds runs (kept so by [`or_hits`]), and merges
//! the lists' ids elsewhere. Lists that are each a single block of gaps or
//! an array (short lists, up to a thousand ids or so) skip the walk: each
//! is decoded whole, and the shortest's ids kept by a SIMD merge with each
//! other (or merged into the union). An intersection also takes lists of a
//! single block of runs or a bitmap that way, beside one of gaps or an
//! array at least: they keep its ids by a walk of their runs, or a bit test
//! in place; lists of a single block of runs each are intersected run by
//! run. It decodes none of these lists where their ranges of ids, from
//! their headers and first gaps, do not meet. Two or more such lists
//! beside longer ones are intersected first the same way: where they meet
//! on nothing the longer lists are not read, and the ids they give are the
//! candidates the longer lists keep (a query pairing rare terms with a
//! common one). A thread keeps its queries'
//! buffers, so that a query on short lists allocates little.
//!
//! Damaged bytes give an error naming the offset in that list's bytes,
//! never a panic. A count is trusted for no more room than its bytes can
//! hold (a data byte and a quarter per gap), and runs are checked to rise
//! and to fit a window, and arrays to rise, so a list of `b` bytes decodes
//! to at most
//! [`max_decoded_len`]`(b)` ids. A decode checks each block against the
//! list's index. A query checks what it decodes; blocks it passes by their
//! headers or the index, and arrays and runs it searches in place, it does
//! not (an index that points back or past the list's bytes it names).
//!
//! ```
//! use vecpress::postings::hybrid;
//!
//! let dense: Vec<u32> = (0..20_000).filter(|d| d % 3 == 0).collect();
//! let sparse: Vec<u32> = vec![3, 7, 300, 9_000, 50_000];
//! let a = hybrid::encode(&dense)?;
//! let b = hybrid::encode(&sparse)?;
//! assert!(a.len() < stream_vbyte_len(&dense));
//!
//! let mut hits = Vec::new();
//! hybrid::and(&[&a, &b], &mut hits)?;
//! assert_eq!(hits, [3, 300, 9_000]);
//! assert_eq!(hybrid::and_count(&[&a, &b])?, 3);
//! assert_eq!(hybrid::decode_to_vec(&b)?, sparse);
//! # fn stream_vbyte_len(v: &[u32]) -> usize { vecpress::stream_vbyte::encode_delta_to_vec(v, 0).len() }
//! # Ok::<(), vecpress::Error>(())
//! ```

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod hits;
mod intersect;
mod pool;
mod read;
mod scalar;
mod span;
mod unite;
mod write;

use crate::tune::{self, Op};
use crate::{Error, Isa};
pub use hits::{Hits, Iter};
use intersect::intersect;
use pool::{Found, with_lists};
use read::View;
use span::{extract, load, span_end};
use unite::{United, unite};

/// Ids a window spans: a bitmap block holds 4096 bits (512 bytes) a window.
pub const WINDOW: u32 = 1 << SHIFT;
const SHIFT: u32 = 12;
/// Words of 64 bits in a window's bitmap.
const WORDS: usize = WINDOW as usize / 64;
/// Bytes of a window's bitmap.
const WINDOW_BYTES: usize = WORDS * 8;
/// Windows in the range of u32.
const WINDOWS: u32 = 1 << (32 - SHIFT);

/// The most ids a list of `bytes` bytes can decode to: a window a run
/// (4096 ids) for every 3 bytes of runs (a gap of one byte and of two,
/// their control bits shared by two runs), and a header per block.
///
/// ```
/// use vecpress::postings::hybrid;
/// let all: Vec<u32> = (0..1_000_000).collect();
/// let bytes = hybrid::encode(&all)?;
/// assert!(all.len() <= hybrid::max_decoded_len(bytes.len()));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn max_decoded_len(bytes: usize) -> usize {
    bytes.saturating_mul(WINDOW as usize / 3 + 1)
}

/// Encodes a sorted list of distinct ids (strictly increasing) into a new
/// vector. `Err(InvalidArgument)` if they are not.
///
/// ```
/// let bytes = vecpress::postings::hybrid::encode(&[1, 5, 9])?;
/// assert_eq!(vecpress::postings::hybrid::decode_to_vec(&bytes)?, [1, 5, 9]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn encode(values: &[u32]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    encode_into(values, &mut out)?;
    Ok(out)
}

/// Appends the list's encoding to `out` (lists one after another, as an
/// index stores them); returns the bytes appended. `Err(InvalidArgument)`,
/// with `out` unchanged, if the ids are not strictly increasing.
///
/// ```
/// use vecpress::postings::hybrid;
/// let mut index = Vec::new();
/// let a = hybrid::encode_into(&[1, 2, 3], &mut index)?;
/// hybrid::encode_into(&[2, 3, 4], &mut index)?;
/// let mut hits = Vec::new();
/// hybrid::and(&[&index[..a], &index[a..]], &mut hits)?;
/// assert_eq!(hits, [2, 3]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn encode_into(values: &[u32], out: &mut Vec<u8>) -> Result<usize, Error> {
    write::encode_into(values, out, Room::Gaps)
}

/// The bytes a list may spend on arrays, which a query reads without a
/// decode: two bytes an id, against a byte and a quarter or so for gaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Room {
    /// No more than its gaps would take: arrays only where ids are so far
    /// apart that their gaps take two bytes or more ([`encode`]'s choice).
    #[default]
    Gaps,
    /// Up to the bytes of the list as a Roaring bitmap (arrays of 16-bit
    /// ids, bitmaps and runs in each 65,536 ids), or its gaps' if more:
    /// short lists become arrays, read with no decode on the query's path,
    /// for up to 2 bytes an id where gaps take about 1.25. A file whose
    /// long lists take more than their Roaring bytes as gaps can then take
    /// more than Roaring's in sum: docs/BENCHMARKS.md gives both forms'
    /// queries and bytes on the posting files.
    Roaring,
}

/// [`encode_into`], with arrays wherever `room` leaves bytes for them.
///
/// ```
/// use vecpress::postings::hybrid::{self, Room};
/// let ids: Vec<u32> = (0..60).map(|i| 1_000 + 37 * i).collect();
/// let (mut small, mut fast) = (Vec::new(), Vec::new());
/// hybrid::encode_within(&ids, Room::Gaps, &mut small)?;
/// hybrid::encode_within(&ids, Room::Roaring, &mut fast)?;
/// assert!(small.len() < fast.len());
/// assert_eq!(hybrid::decode_to_vec(&fast)?, ids);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn encode_within(values: &[u32], room: Room, out: &mut Vec<u8>) -> Result<usize, Error> {
    write::encode_into(values, out, room)
}

/// Decodes a list into a new vector.
///
/// ```
/// use vecpress::postings::hybrid;
/// let bytes = hybrid::encode(&[4, 4096, 4097])?;
/// assert_eq!(hybrid::decode_to_vec(&bytes)?, [4, 4096, 4097]);
/// assert!(hybrid::decode_to_vec(&bytes[..bytes.len() - 1]).is_err());
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decode_to_vec(bytes: &[u8]) -> Result<Vec<u32>, Error> {
    let mut out = Vec::new();
    decode_into(bytes, &mut out)?;
    Ok(out)
}

/// Appends a list's ids to `out`; returns the bytes the list takes (from
/// the start of `bytes`, which may go on with other lists). After an
/// error, `out` holds what it held before.
pub fn decode_into(bytes: &[u8], out: &mut Vec<u32>) -> Result<usize, Error> {
    decode_at(Levels::chosen(), bytes, out)
}

/// [`decode_into`] with the kernels of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn decode_into_with(isa: Isa, bytes: &[u8], out: &mut Vec<u32>) -> Result<usize, Error> {
    decode_at(Levels::at(isa)?, bytes, out)
}

fn decode_at(levels: Levels, bytes: &[u8], out: &mut Vec<u32>) -> Result<usize, Error> {
    let isa = levels.kernels;
    let start = out.len();
    let got = with_lists(levels, &[bytes], |lists, s| {
        let list = &mut lists[0];
        list.every_block();
        let words = &mut s.words;
        let mut w = 0;
        while let Some(at) = list.seek(w)? {
            let e = span_end(core::slice::from_ref(list), at, [list.end()].into_iter());
            match list.span(at, e) {
                View::Ids(ids) => out.extend_from_slice(ids),
                View::Bits(bits) => {
                    words.clear();
                    words.resize(bits.len() / 8, 0);
                    load(words, bits);
                    extract(isa, words, at << SHIFT, out);
                }
                View::Runs(runs) => {
                    let (lo, hi) = (u64::from(at) << SHIFT, u64::from(e) << SHIFT);
                    span::expand(isa, runs, lo, hi, out);
                }
            }
            if e >= WINDOWS {
                break;
            }
            w = e;
        }
        list.finish()
    });
    if got.is_err() {
        out.truncate(start);
    }
    got
}

/// The ids every list holds, in order, into `out` (cleared first). Each
/// list is a slice that starts at its encoding (and may go on with other
/// lists). After an error, `out` is empty.
pub fn and(lists: &[&[u8]], out: &mut Vec<u32>) -> Result<(), Error> {
    and_at(Levels::chosen(), lists, out)
}

/// [`and`] with the kernels of `isa`; `Err(Unsupported)` if the CPU lacks it.
pub fn and_with(isa: Isa, lists: &[&[u8]], out: &mut Vec<u32>) -> Result<(), Error> {
    and_at(Levels::at(isa)?, lists, out)
}

fn and_at(levels: Levels, lists: &[&[u8]], out: &mut Vec<u32>) -> Result<(), Error> {
    cleared(out, Vec::clear, |out| {
        intersect(levels, lists, &mut Found::Ids(out))
    })
}

/// Runs `query` on `out` (ids or hits) cleared first by `clear`, and
/// leaves it empty after an error.
fn cleared<T>(
    out: &mut T,
    clear: fn(&mut T),
    query: impl FnOnce(&mut T) -> Result<(), Error>,
) -> Result<(), Error> {
    clear(out);
    let got = query(out);
    if got.is_err() {
        clear(out);
    }
    got
}

/// How many ids every list holds.
///
/// ```
/// use vecpress::postings::hybrid;
/// let evens: Vec<u32> = (0..100_000).step_by(2).collect();
/// let threes: Vec<u32> = (0..100_000).step_by(3).collect();
/// let (a, b) = (hybrid::encode(&evens)?, hybrid::encode(&threes)?);
/// assert_eq!(hybrid::and_count(&[&a, &b])?, 16_667);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn and_count(lists: &[&[u8]]) -> Result<usize, Error> {
    count_at(Levels::chosen(), lists)
}

/// [`and_count`] with the kernels of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn and_count_with(isa: Isa, lists: &[&[u8]]) -> Result<usize, Error> {
    count_at(Levels::at(isa)?, lists)
}

fn count_at(levels: Levels, lists: &[&[u8]]) -> Result<usize, Error> {
    let mut n = 0;
    intersect(levels, lists, &mut Found::Count(&mut n))?;
    Ok(n)
}

/// The ids every list holds into `hits` (cleared first), kept as bitmaps
/// where every list is a bitmap and as runs where every list holds runs,
/// as ids elsewhere: [`and`] without writing a dense answer out id by id.
/// After an error, `hits` is empty.
///
/// ```
/// use vecpress::postings::hybrid::{self, Hits};
/// let a = hybrid::encode(&(0..50_000).collect::<Vec<u32>>())?;
/// let b = hybrid::encode(&(20_000..90_000).step_by(5).collect::<Vec<u32>>())?;
/// let mut hits = Hits::new();
/// hybrid::and_hits(&[&a, &b], &mut hits)?;
/// assert_eq!(hits.len(), 6_000);
/// assert_eq!(hits.iter().next(), Some(20_000));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn and_hits(lists: &[&[u8]], hits: &mut Hits) -> Result<(), Error> {
    hits_at(Levels::chosen(), lists, hits)
}

/// [`and_hits`] with the kernels of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn and_hits_with(isa: Isa, lists: &[&[u8]], hits: &mut Hits) -> Result<(), Error> {
    hits_at(Levels::at(isa)?, lists, hits)
}

fn hits_at(levels: Levels, lists: &[&[u8]], hits: &mut Hits) -> Result<(), Error> {
    cleared(hits, Hits::clear, |hits| {
        intersect(levels, lists, &mut Found::Hits(hits))
    })
}

/// The ids any list holds, each once, in order, into `out` (cleared
/// first). After an error, `out` is empty.
///
/// ```
/// use vecpress::postings::hybrid;
/// let (a, b) = (hybrid::encode(&[1, 3, 5])?, hybrid::encode(&[3, 4])?);
/// let mut all = Vec::new();
/// hybrid::or(&[&a, &b], &mut all)?;
/// assert_eq!(all, [1, 3, 4, 5]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn or(lists: &[&[u8]], out: &mut Vec<u32>) -> Result<(), Error> {
    or_at(Levels::chosen(), lists, out)
}

/// [`or`] with the kernels of `isa`; `Err(Unsupported)` if the CPU lacks it.
pub fn or_with(isa: Isa, lists: &[&[u8]], out: &mut Vec<u32>) -> Result<(), Error> {
    or_at(Levels::at(isa)?, lists, out)
}

fn or_at(levels: Levels, lists: &[&[u8]], out: &mut Vec<u32>) -> Result<(), Error> {
    cleared(out, Vec::clear, |out| {
        unite(levels, lists, &mut United::Ids(out))
    })
}

/// The ids any list holds into `hits` (cleared first), kept as bitmaps
/// where the union draws a bitmap (where its lists are dense), as runs
/// where every list holds runs, as ids elsewhere: [`or`] without writing a
/// dense answer out id by id. After an error, `hits` is empty.
///
/// ```
/// use vecpress::postings::hybrid::{self, Hits};
/// let a = hybrid::encode(&(0..50_000).step_by(2).collect::<Vec<u32>>())?;
/// let b = hybrid::encode(&[1, 3, 70_000])?;
/// let mut hits = Hits::new();
/// hybrid::or_hits(&[&a, &b], &mut hits)?;
/// assert_eq!(hits.len(), 25_003);
/// assert!(hits.contains(3) && hits.contains(70_000) && !hits.contains(5));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn or_hits(lists: &[&[u8]], hits: &mut Hits) -> Result<(), Error> {
    or_hits_at(Levels::chosen(), lists, hits)
}

/// [`or_hits`] with the kernels of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn or_hits_with(isa: Isa, lists: &[&[u8]], hits: &mut Hits) -> Result<(), Error> {
    or_hits_at(Levels::at(isa)?, lists, hits)
}

fn or_hits_at(levels: Levels, lists: &[&[u8]], hits: &mut Hits) -> Result<(), Error> {
    cleared(hits, Hits::clear, |hits| {
        unite(levels, lists, &mut United::Hits(hits))
    })
}

/// The levels a query runs at: its window and merge kernels', and the
/// Stream VByte decoders' of its blocks of gaps and runs (the short-list
/// kernel's for blocks of up to 64 values), each from the tune table by
/// default, all one level in the `_with` forms.
#[derive(Clone, Copy)]
pub(super) struct Levels {
    kernels: Isa,
    pub(super) gaps: Isa,
    pub(super) short: Isa,
}

impl Levels {
    fn chosen() -> Levels {
        Levels {
            kernels: tune::isa(Op::Intersect),
            gaps: tune::isa(Op::StreamVByteDelta),
            short: tune::isa(Op::StreamVByteShortLists),
        }
    }

    fn at(isa: Isa) -> Result<Levels, Error> {
        let isa = isa.check()?;
        Ok(Levels {
            kernels: isa,
            gaps: isa,
            short: isa,
        })
    }
}

#[cfg(test)]
mod tests;
