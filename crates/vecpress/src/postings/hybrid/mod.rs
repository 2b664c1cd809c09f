//! A posting format with bitmap blocks for dense ranges: each window of
//! [`WINDOW`] document ids is stored as a bitmap where its list is dense,
//! as runs where it holds stretches of consecutive ids, and as Stream VByte
//! gaps where it is sparse; queries ([`and`], [`and_count`], [`or`]) read
//! all three straight from the bytes.
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
//! five bytes). A list is *varint* the number of blocks, then each block:
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
//!     word `j` standing for id `w * 4096 + 64 * j + i`.
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
//! the bitmap, a bitmap where it takes less than twice the gaps. Adjacent
//! bitmap windows make one block; windows of gaps (or of runs) make blocks
//! of about 1024 ids (128 runs), so that a query skips what it does not
//! need by the blocks' headers.
//!
//! # Queries
//!
//! A query walks its lists a span of windows at a time: from a window that
//! every list holds ids in (for [`and`]; any list, for [`or`]) to the
//! first end of a list's block there. A block of gaps or runs is decoded
//! when the query first needs its ids (one SIMD Stream VByte decode), and
//! skipped by its header's last id otherwise. In a span where every list
//! is a bitmap, the intersection is the AND of their words, written out
//! sixteen ids at a time (at the AVX-512 level, `vpcompressd` of the set
//! bits' positions) or counted by popcount alone ([`and_count`]). Where a
//! list holds gaps, the shortest array of ids gives the candidates, kept
//! by a bit test against each bitmap, by a walk of each list of runs, and
//! by the SIMD merge against other gaps. Where every list holds runs, the
//! runs are intersected. A union draws a span into a bitmap where its
//! lists are dense there (a bitmap, or runs and ids of eight or more ids a
//! word), and merges the lists' ids elsewhere. Lists that are each a single
//! block of gaps (short lists, up to a thousand ids or so) skip the walk:
//! each is decoded whole, and the shortest's ids kept by a SIMD merge with
//! each other (or merged into the union). A thread keeps its queries'
//! buffers, so that a query on short lists allocates little.
//!
//! Damaged bytes give an error naming the offset in that list's bytes,
//! never a panic. A count is trusted for no more room than its bytes can
//! hold (a data byte and a quarter per gap), and runs are checked to rise
//! and to fit a window, so a list of `b` bytes decodes to at most
//! [`max_decoded_len`]`(b)` ids.
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
mod avx512;
mod read;
mod scalar;

use std::cell::RefCell;

use crate::tune::{self, Op};
use crate::{Error, Isa, stream_vbyte};
use read::{BITMAP, GAPS, List, RUNS, Single, View};

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
    if let Some(i) = values.windows(2).position(|w| w[0] >= w[1]) {
        return Err(Error::InvalidArgument {
            what: "an id not above the one before",
            value: i + 1,
        });
    }
    let mut body = Vec::new();
    let mut count = 0u32;
    let (mut prev, mut next) = (0u32, 0u32);
    for b in plan(values) {
        let ids = &values[b.from..b.to];
        match b.kind {
            BITMAP => {
                let (first, last) = (ids[0] >> SHIFT, ids[ids.len() - 1] >> SHIFT);
                let n = last - first + 1;
                put_varint(&mut body, BITMAP | n << 2);
                put_varint(&mut body, first - next);
                let at = body.len();
                body.resize(at + n as usize * WINDOW_BYTES, 0);
                let base = first << SHIFT;
                for &v in ids {
                    let bit = (v - base) as usize;
                    body[at + bit / 8] |= 1 << (bit % 8);
                }
                count += 1;
                next = first + n;
                prev = ((u64::from(next) << SHIFT) - 1) as u32;
            }
            RUNS => {
                let runs = runs_of(ids);
                for part in whole_windows(&runs, |r| r[0] >> SHIFT, RUNS_PER_BLOCK) {
                    prev = put_block(&mut body, RUNS, part.len(), part.as_flattened(), prev);
                    count += 1;
                }
                next = (prev >> SHIFT) + 1;
            }
            _ => {
                for part in whole_windows(ids, |&v| v >> SHIFT, GAPS_PER_BLOCK) {
                    prev = put_block(&mut body, GAPS, part.len(), part, prev);
                    count += 1;
                }
                next = (prev >> SHIFT) + 1;
            }
        }
    }
    let start = out.len();
    put_varint(out, count);
    out.extend_from_slice(&body);
    Ok(out.len() - start)
}

/// A window is runs where they take fewer bytes than its gaps and less
/// than this fraction of its bitmap, so that a query decodes them faster
/// than it reads the bitmap; and a bitmap where it takes fewer bytes than
/// this many times its gaps, so that a query reads it in place where its
/// gaps would be decoded (dense lists of census data: a word of their
/// bitmap read at a time, for a tenth more bytes than their gaps).
const RUNS_UNDER: usize = 8;
const BITMAP_UNDER: usize = 2;

/// Ids a block of gaps holds, and runs a block of runs, before it ends
/// with the window it is in: a query decodes little more than this of a
/// list to reach an id, skipping the blocks before by their headers. A
/// block holds whole windows, so that in a window a list is in one block.
const GAPS_PER_BLOCK: usize = 1024;
const RUNS_PER_BLOCK: usize = 128;

/// `items` (sorted by `window`) cut into pieces of at least `min` items
/// (but the last), each ending where a window does.
fn whole_windows<T>(
    items: &[T],
    window: impl Fn(&T) -> u32,
    min: usize,
) -> impl Iterator<Item = &[T]> {
    let mut rest = items;
    core::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = min.min(rest.len());
        let w = window(&rest[end - 1]);
        end += rest[end..].partition_point(|x| window(x) == w);
        let (piece, after) = rest.split_at(end);
        rest = after;
        Some(piece)
    })
}

/// Writes a block of gaps or runs: its header (its kind and count `n`,
/// its last id's distance from `prev`, the id before it, and its byte
/// length), then the Stream VByte stream of `values` (ids, or runs' first
/// and last ids) as gaps from `prev`. Returns its last id.
fn put_block(out: &mut Vec<u8>, kind: u32, n: usize, values: &[u32], prev: u32) -> u32 {
    let data = stream_vbyte::encode_delta_to_vec(values, prev);
    let last = values[values.len() - 1];
    put_varint(out, kind | (n as u32) << 2);
    put_varint(out, last - prev);
    put_varint(out, data.len() as u32);
    out.extend_from_slice(&data);
    last
}

/// A block the encoder writes: ids `from..to`, of a kind.
struct Block {
    from: usize,
    to: usize,
    kind: u32,
}

/// Runs of consecutive ids, first and last, each in one window.
fn runs_of(ids: &[u32]) -> Vec<[u32; 2]> {
    let mut runs: Vec<[u32; 2]> = Vec::new();
    for &v in ids {
        match runs.last_mut() {
            Some(r) if r[1].wrapping_add(1) == v && v >> SHIFT == r[0] >> SHIFT => r[1] = v,
            _ => runs.push([v, v]),
        }
    }
    runs
}

/// Each window in the form that takes the fewest bytes, as
/// [`RUNS_UNDER`] and [`BITMAP_UNDER`] weigh them: 512 as a bitmap; as
/// gaps, a quarter byte of control and one to four data bytes each; as
/// runs, two such gaps each (to its first id, and from there to its last).
/// Adjacent bitmap windows make one block; windows of gaps, or of runs,
/// one block until a window of another form.
fn plan(values: &[u32]) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut i = 0;
    let mut prev = 0u32;
    while i < values.len() {
        let w = values[i] >> SHIFT;
        let end = i + values[i..].partition_point(|&v| v >> SHIFT == w);
        // Costs in quarters of a byte.
        let mut gaps = end - i;
        let (mut runs, mut start) = (0, 0u32);
        for (k, &v) in values[i..end].iter().enumerate() {
            gaps += 4 * stream_vbyte::value_len(v.wrapping_sub(prev));
            if k == 0 || v != prev.wrapping_add(1) {
                // Two gaps: to its first id, and to its last.
                runs += 2 + 4 * (stream_vbyte::value_len(v.wrapping_sub(prev)) + 1);
                start = v;
            } else if v - start == 256 {
                // The gap to its last id takes a second byte.
                runs += 4;
            }
            prev = v;
        }
        let bitmap = 4 * WINDOW_BYTES;
        // A bitmap is read in place, runs and gaps are decoded: bytes
        // are traded for that where a query feels it.
        let kind = if runs < gaps && runs * RUNS_UNDER < bitmap {
            RUNS
        } else if bitmap < gaps * BITMAP_UNDER {
            BITMAP
        } else {
            GAPS
        };
        match blocks.last_mut() {
            Some(b)
                if b.kind == kind
                    && (kind != BITMAP || values[b.to - 1] >> SHIFT == w.wrapping_sub(1)) =>
            {
                b.to = end
            }
            _ => blocks.push(Block {
                from: i,
                to: end,
                kind,
            }),
        }
        i = end;
    }
    blocks
}

fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
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
                    for [a, b] in clipped(runs, u64::from(at) << SHIFT, u64::from(e) << SHIFT) {
                        out.extend(a..=b);
                    }
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
    cleared(out, |out| intersect(levels, lists, &mut Found::Ids(out)))
}

/// Runs `query` on `out` cleared first, and leaves it empty after an error.
fn cleared(
    out: &mut Vec<u32>,
    query: impl FnOnce(&mut Vec<u32>) -> Result<(), Error>,
) -> Result<(), Error> {
    out.clear();
    let got = query(out);
    if got.is_err() {
        out.clear();
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
    cleared(out, |out| unite(levels, lists, out))
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

/// Where a query's ids go.
enum Found<'o> {
    Ids(&'o mut Vec<u32>),
    Count(&'o mut usize),
}

/// Scratch a query reuses from span to span.
struct Scratch {
    /// Bitmaps of a span, ANDed or ORed, and runs drawn.
    words: Vec<u64>,
    mask: Vec<u64>,
    /// Candidates, those kept of them, and a list decoded.
    a: Vec<u32>,
    b: Vec<u32>,
    d: Vec<u32>,
    runs: Vec<[u32; 2]>,
    other: Vec<[u32; 2]>,
    /// A union's lists: the window each stands at, and its runs' ids.
    at: Vec<Option<u32>>,
    expanded: Vec<Vec<u32>>,
}

impl Scratch {
    const fn new() -> Scratch {
        Scratch {
            words: Vec::new(),
            mask: Vec::new(),
            a: Vec::new(),
            b: Vec::new(),
            d: Vec::new(),
            runs: Vec::new(),
            other: Vec::new(),
            at: Vec::new(),
            expanded: Vec::new(),
        }
    }

    /// Frees buffers too long to keep for the next query.
    fn trim(&mut self) {
        fn trim<T>(v: &mut Vec<T>) {
            if v.capacity() > KEEP {
                *v = Vec::new();
            }
        }
        trim(&mut self.words);
        trim(&mut self.mask);
        trim(&mut self.a);
        trim(&mut self.b);
        trim(&mut self.d);
        trim(&mut self.runs);
        trim(&mut self.other);
        trim(&mut self.at);
        self.expanded.iter_mut().for_each(trim);
    }
}

/// Buffers a thread's queries keep from one to the next: a query on short
/// lists would otherwise spend much of its time allocating them.
struct Pool {
    buffers: Vec<(Vec<u32>, Vec<u32>)>,
    scratch: Scratch,
}

impl Pool {
    const fn new() -> Pool {
        Pool {
            buffers: Vec::new(),
            scratch: Scratch::new(),
        }
    }
}

thread_local! {
    // Made at compile time, so that a query's access is a load, not a
    // check that the pool is made.
    static POOL: RefCell<Pool> = const { RefCell::new(Pool::new()) };
}

/// Runs `f` with this thread's pool, borrowed in place (a move of the pool
/// costs a short query more than its buffers' reuse saves); a query within
/// a query, which none makes, would take a pool of its own.
fn with_pool<R>(f: impl FnOnce(&mut Pool) -> R) -> R {
    POOL.with(|pool| match pool.try_borrow_mut() {
        Ok(mut pool) => f(&mut pool),
        Err(_) => f(&mut Pool::new()),
    })
}

/// Buffers longer than this (in values) are freed after their query.
const KEEP: usize = 1 << 20;

/// Runs `f` with the lists of a query read from `lists` and this thread's
/// scratch, then keeps their buffers for the next query.
fn with_lists<R>(
    levels: Levels,
    lists: &[&[u8]],
    f: impl FnOnce(&mut [List], &mut Scratch) -> Result<R, Error>,
) -> Result<R, Error> {
    with_pool(|pool| query_with(levels, lists, pool, f))
}

fn query_with<R>(
    levels: Levels,
    lists: &[&[u8]],
    pool: &mut Pool,
    f: impl FnOnce(&mut [List], &mut Scratch) -> Result<R, Error>,
) -> Result<R, Error> {
    let mut read = Vec::with_capacity(lists.len());
    let mut got = Ok(());
    for bytes in lists {
        match List::new(levels, bytes, pool.buffers.pop().unwrap_or_default()) {
            Ok(l) => read.push(l),
            Err(e) => {
                got = Err(e);
                break;
            }
        }
    }
    let got = got.and_then(|()| f(&mut read, &mut pool.scratch));
    for l in read {
        let (ids, runs) = l.into_buffers();
        if ids.capacity() <= KEEP && runs.capacity() <= KEEP {
            pool.buffers.push((ids, runs));
        }
    }
    pool.scratch.trim();
    got
}

/// Lists a query takes its views of without allocating.
const VIEWS: usize = 8;

/// Runs `f` on the views of `lists` over windows `w..e`.
fn with_views<'l, R>(
    lists: impl ExactSizeIterator<Item = &'l List<'l>>,
    w: u32,
    e: u32,
    f: impl FnOnce(&[View<'l>]) -> R,
) -> R {
    let k = lists.len();
    if k <= VIEWS {
        let mut views = [View::Ids(&[]); VIEWS];
        for (v, l) in views.iter_mut().zip(lists) {
            *v = l.span(w, e);
        }
        f(&views[..k])
    } else {
        f(&lists.map(|l| l.span(w, e)).collect::<Vec<_>>())
    }
}

/// The intersection, a span of windows at a time: from a window that every
/// list holds ids in (leapfrogging to it) to the first end of a list's
/// block, so that in the span each list is one bitmap or one array of ids.
fn intersect(levels: Levels, lists: &[&[u8]], found: &mut Found) -> Result<(), Error> {
    if lists.is_empty() {
        return Ok(());
    }
    let mut one = [Single::EMPTY; VIEWS];
    if let Some(singles) = singles(lists, &mut one) {
        return with_pool(|pool| {
            let got = and_singles(levels, singles, &mut pool.scratch, found);
            pool.scratch.trim();
            got
        });
    }
    let isa = levels.kernels;
    with_lists(levels, lists, |lists, s| {
        intersect_lists(isa, lists, s, found)
    })
}

/// `lists` read into `room` as [`Single`]s, shortest first, if each is one
/// and they are at most [`VIEWS`] (read in place: a query on short lists
/// would feel their move).
fn singles<'r, 'a>(
    lists: &[&'a [u8]],
    room: &'r mut [Single<'a>; VIEWS],
) -> Option<&'r [Single<'a>]> {
    let room = room.get_mut(..lists.len())?;
    for (s, bytes) in room.iter_mut().zip(lists) {
        *s = Single::new(bytes)?;
    }
    room.sort_unstable_by_key(|s| s.n);
    Some(room)
}

/// The intersection of lists of a single block each (short lists, mostly):
/// the shortest decoded, its ids kept by a SIMD merge with each other list
/// decoded whole, until none is left.
fn and_singles(
    levels: Levels,
    lists: &[Single],
    s: &mut Scratch,
    found: &mut Found,
) -> Result<(), Error> {
    let (first, rest) = lists.split_first().expect("a query has lists");
    first.decode(levels, &mut s.a)?;
    let mut c = first.n;
    for l in rest {
        if c == 0 {
            break;
        }
        l.decode(levels, &mut s.d)?;
        if s.b.len() < c {
            s.b.resize(c, 0);
        }
        c = super::keep_decoded(levels.kernels, &s.a[..c], &mut s.b[..c], &s.d[..l.n]);
        core::mem::swap(&mut s.a, &mut s.b);
    }
    match found {
        Found::Ids(out) => out.extend_from_slice(&s.a[..c]),
        Found::Count(n) => **n += c,
    }
    Ok(())
}

fn intersect_lists(
    isa: Isa,
    lists: &mut [List],
    s: &mut Scratch,
    found: &mut Found,
) -> Result<(), Error> {
    let k = lists.len();
    let mut w = 0u32;
    'spans: while w < WINDOWS {
        // Lists that all stand in blocks of gaps merge their ids there
        // whole, from the last of their next ids: no leapfrog from id to id.
        let mut first = w;
        for l in lists.iter_mut() {
            match l.seek(w)? {
                None => break 'spans,
                Some(at) => first = first.max(at),
            }
        }
        if lists.iter().all(List::has_ids) {
            let e = lists.iter().map(List::end).min().unwrap_or(first);
            if first < e {
                with_views(lists.iter(), first, e, |views| {
                    span_and(isa, views, first, e, s, found)
                });
                w = e;
                continue;
            }
        }
        w = first;
        let (mut agreed, mut i) = (0, 0);
        while agreed < k {
            match lists[i].seek(w)? {
                None => break 'spans,
                Some(at) if at == w => agreed += 1,
                Some(at) => (w, agreed) = (at, 1),
            }
            i = (i + 1) % k;
        }
        let e = span_end(lists, w, lists.iter().map(List::end));
        with_views(lists.iter(), w, e, |views| {
            span_and(isa, views, w, e, s, found)
        });
        w = e;
    }
    Ok(())
}

/// Ids a span's lists hold, per word of its bitmap, at least, for a union
/// to draw them into the bitmap rather than merge them: a word drawn and
/// read back costs a union about what this many ids merged do (sorted
/// census lists, whose runs hold thousands of ids, unite four times as
/// fast drawn; lists of short runs lose a few percent drawn at half this).
const DRAWN: usize = 8;

/// Windows a span takes at most where a list is a bitmap, so that the
/// bitmaps ANDed for it stay in the first level of cache, and runs drawn
/// over it draw no more than this.
const CHUNK: u32 = 32;

/// Where a span from `w` ends: at the first of `ends`, and within
/// [`CHUNK`] windows where a list there is a bitmap.
fn span_end(lists: &[List], w: u32, ends: impl Iterator<Item = u32>) -> u32 {
    let e = ends.min().unwrap_or(w + 1).max(w + 1);
    if lists.iter().any(List::has_bits) {
        e.min(w.saturating_add(CHUNK))
    } else {
        e
    }
}

/// The intersection of every list's ids in windows `w..e`, in each of which
/// every list is in one block.
fn span_and(isa: Isa, views: &[View], w: u32, e: u32, s: &mut Scratch, found: &mut Found) {
    let (lo, hi) = (u64::from(w) << SHIFT, u64::from(e) << SHIFT);
    // The shortest array of ids, if any list holds ids as gaps here, is
    // where the candidates start; else the bitmaps are ANDed; else the runs
    // are intersected.
    let shortest = views
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v {
            View::Ids(ids) => Some((ids.len(), i)),
            _ => None,
        })
        .min();
    if let Some((_, first)) = shortest {
        let View::Ids(ids) = views[first] else {
            unreachable!("the shortest is an array of ids")
        };
        s.a.clear();
        s.a.extend_from_slice(ids);
        let mut c = s.a.len();
        for (i, v) in views.iter().enumerate() {
            if i == first || c == 0 {
                continue;
            }
            match *v {
                View::Bits(bits) => c = scalar::keep_set(bits, lo as u32, &mut s.a[..c]),
                View::Runs(runs) => c = scalar::keep_in_runs(runs, &mut s.a[..c]),
                View::Ids(other) => {
                    s.b.resize(c.max(s.b.len()), 0);
                    c = super::keep_decoded(isa, &s.a[..c], &mut s.b[..c], other);
                    core::mem::swap(&mut s.a, &mut s.b);
                }
            }
        }
        match found {
            Found::Ids(out) => out.extend_from_slice(&s.a[..c]),
            Found::Count(n) => **n += c,
        }
        return;
    }
    if views.iter().any(|v| matches!(v, View::Bits(_))) {
        if let (Found::Count(n), [View::Bits(a), View::Bits(b)]) = (&mut *found, views) {
            **n += and_count2(isa, a, b);
            return;
        }
        let words = (e - w) as usize * WORDS;
        s.words.clear();
        s.words.resize(words, !0);
        for v in views {
            match *v {
                View::Bits(bits) => and_words(&mut s.words, bits),
                View::Runs(runs) => {
                    s.mask.clear();
                    s.mask.resize(words, 0);
                    draw_runs(&mut s.mask, runs, lo, hi);
                    for (a, m) in s.words.iter_mut().zip(&s.mask) {
                        *a &= m;
                    }
                }
                View::Ids(_) => {}
            }
        }
        match found {
            Found::Ids(out) => extract(isa, &s.words, lo as u32, out),
            Found::Count(n) => **n += count(&s.words),
        }
        return;
    }
    // Every list holds runs here: their intersection, run by run.
    let (lo, last) = (lo as u32, (hi - 1) as u32);
    let first = runs_of_view(&views[0]);
    match (views, &mut *found) {
        ([_], _) => {
            s.runs.clear();
            s.runs.extend(clipped(first, u64::from(lo), hi));
        }
        ([_, b], Found::Count(n)) => {
            **n += scalar::and_runs_count(first, runs_of_view(b), lo, last);
            return;
        }
        _ => {
            s.runs.clear();
            scalar::and_runs(first, runs_of_view(&views[1]), lo, last, &mut s.runs);
            for v in &views[2..] {
                s.other.clear();
                scalar::and_runs(&s.runs, runs_of_view(v), lo, last, &mut s.other);
                core::mem::swap(&mut s.runs, &mut s.other);
            }
        }
    }
    match found {
        Found::Ids(out) => {
            for &[a, b] in &s.runs {
                out.extend(a..=b);
            }
        }
        Found::Count(n) => {
            **n += s
                .runs
                .iter()
                .map(|&[a, b]| (b - a) as usize + 1)
                .sum::<usize>()
        }
    }
}

fn runs_of_view<'v>(v: &View<'v>) -> &'v [[u32; 2]] {
    match *v {
        View::Runs(r) => r,
        _ => &[],
    }
}

/// Runs cut to ids `lo..hi`.
fn clipped(runs: &[[u32; 2]], lo: u64, hi: u64) -> impl Iterator<Item = [u32; 2]> + '_ {
    runs.iter().filter_map(move |&[a, b]| {
        let (a, b) = (u64::from(a).max(lo), u64::from(b).min(hi - 1));
        (a <= b).then_some([a as u32, b as u32])
    })
}

/// Sets the bits of ids in `runs` (cut to `lo..hi`) in a bitmap of ids
/// from `lo`.
fn draw_runs(words: &mut [u64], runs: &[[u32; 2]], lo: u64, hi: u64) {
    for [a, b] in clipped(runs, lo, hi) {
        let (a, b) = (
            (u64::from(a) - lo) as usize,
            (u64::from(b) - lo) as usize + 1,
        );
        if b > words.len() * 64 {
            continue;
        }
        let (aw, bw) = (a / 64, (b - 1) / 64);
        let first = !0u64 << (a % 64);
        let last = !0u64 >> (63 - (b - 1) % 64);
        if aw == bw {
            words[aw] |= first & last;
        } else {
            words[aw] |= first;
            words[aw + 1..bw].fill(!0);
            words[bw] |= last;
        }
    }
}

/// The union, a span of windows at a time: from the first window any list
/// holds ids in to the first end of those lists' blocks or start of
/// another's, so that in the span each list there is in one block.
fn unite(levels: Levels, lists: &[&[u8]], out: &mut Vec<u32>) -> Result<(), Error> {
    let mut one = [Single::EMPTY; VIEWS];
    if let Some(singles) = singles(lists, &mut one) {
        return with_pool(|pool| {
            let got = or_singles(levels, singles, &mut pool.scratch, out);
            pool.scratch.trim();
            got
        });
    }
    let isa = levels.kernels;
    with_lists(levels, lists, |lists, s| unite_lists(isa, lists, s, out))
}

/// The union of lists of a single block each: each decoded whole, and
/// merged into the union of those before.
fn or_singles(
    levels: Levels,
    lists: &[Single],
    s: &mut Scratch,
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    let Some((first, rest)) = lists.split_first() else {
        return Ok(());
    };
    first.decode(levels, &mut s.a)?;
    if rest.is_empty() {
        out.extend_from_slice(&s.a[..first.n]);
        super::dedup(out, 0);
        return Ok(());
    }
    s.a.truncate(first.n);
    for (i, l) in rest.iter().enumerate() {
        l.decode(levels, &mut s.d)?;
        // The last union is the answer.
        let to = if i + 1 == rest.len() {
            &mut *out
        } else {
            &mut s.b
        };
        super::merge::union(levels.kernels, &s.a, &s.d[..l.n], to);
        core::mem::swap(&mut s.a, &mut s.b);
    }
    Ok(())
}

fn unite_lists(
    isa: Isa,
    lists: &mut [List],
    s: &mut Scratch,
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    // Kept in the scratch, for the next query.
    let mut at = core::mem::take(&mut s.at);
    let mut expanded = core::mem::take(&mut s.expanded);
    at.clear();
    at.resize(lists.len(), None);
    if expanded.len() < lists.len() {
        expanded.resize_with(lists.len(), Vec::new);
    }
    let got = unite_spans(isa, lists, s, &mut at, &mut expanded, out);
    s.at = at;
    s.expanded = expanded;
    got
}

/// [`unite_lists`] with where each list stands (`at`) and its runs' ids
/// listed (`expanded`).
fn unite_spans(
    isa: Isa,
    lists: &mut [List],
    s: &mut Scratch,
    at: &mut [Option<u32>],
    expanded: &mut [Vec<u32>],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    let mut w = 0u32;
    while w < WINDOWS {
        for (l, a) in lists.iter_mut().zip(at.iter_mut()) {
            *a = l.seek(w)?;
        }
        let Some(start) = at.iter().flatten().copied().min() else {
            break;
        };
        // The span ends where a list here ends its block, or where another
        // starts.
        let ends = lists.iter().zip(at.iter()).filter_map(|(l, a)| match a {
            Some(a) if *a == start => Some(l.end()),
            Some(a) => Some(*a),
            None => None,
        });
        let mut e = span_end(lists, start, ends);
        let span = |e: u32| -> Vec<View> {
            lists
                .iter()
                .zip(at.iter())
                .filter(|(_, a)| **a == Some(start))
                .map(|(l, _)| l.span(start, e))
                .collect()
        };
        let mut views = span(e);
        // A bitmap is read in place; runs and ids, where they hold
        // [`DRAWN`] ids a word or more, are drawn and set in a bitmap (a
        // run of many ids costs its words), not listed and merged. Runs
        // count whole, a little more than the span may hold of them.
        let words = |e: u32| (e - start) as usize * WORDS;
        let held: usize = views
            .iter()
            .map(|v| match *v {
                View::Bits(_) => 0,
                View::Ids(ids) => ids.len(),
                View::Runs(runs) => runs
                    .iter()
                    .map(|&[a, b]| b.wrapping_sub(a) as usize + 1)
                    .sum(),
            })
            .sum();
        let drawn = views.iter().any(|v| matches!(v, View::Bits(_))) || held >= words(e) * DRAWN;
        // Over as many windows as a bitmap block's span.
        if drawn && e - start > CHUNK {
            e = start + CHUNK;
            views = span(e);
        }
        let (lo, hi) = (u64::from(start) << SHIFT, u64::from(e) << SHIFT);
        let words = words(e);
        if drawn {
            s.words.clear();
            s.words.resize(words, 0);
            for v in &views {
                match *v {
                    View::Bits(bits) => or_words(&mut s.words, bits),
                    View::Runs(runs) => draw_runs(&mut s.words, runs, lo, hi),
                    View::Ids(ids) => {
                        let span = s.words.len() * 64;
                        for &v in ids {
                            let bit = u64::from(v).wrapping_sub(lo) as usize;
                            if bit < span {
                                s.words[bit / 64] |= 1 << (bit % 64);
                            }
                        }
                    }
                }
            }
            extract(isa, &s.words, lo as u32, out);
        } else {
            // Arrays of ids and runs: the runs' ids are the output's, so
            // listing them costs what writing them does.
            for (v, x) in views.iter().zip(expanded.iter_mut()) {
                if let View::Runs(runs) = *v {
                    x.clear();
                    for [a, b] in clipped(runs, lo, hi) {
                        x.extend(a..=b);
                    }
                }
            }
            let ids = views.iter().zip(expanded.iter()).map(|(v, x)| match *v {
                View::Ids(ids) => ids,
                _ => &x[..],
            });
            super::or_decoded(isa, ids, &mut s.a);
            out.extend_from_slice(&s.a);
        }
        w = e;
    }
    Ok(())
}

fn load(words: &mut [u64], bits: &[u8]) {
    for (w, b) in words.iter_mut().zip(bits.chunks_exact(8)) {
        *w = u64::from_le_bytes(b.try_into().expect("eight bytes"));
    }
}

fn and_words(words: &mut [u64], bits: &[u8]) {
    for (w, b) in words.iter_mut().zip(bits.chunks_exact(8)) {
        *w &= u64::from_le_bytes(b.try_into().expect("eight bytes"));
    }
}

fn or_words(words: &mut [u64], bits: &[u8]) {
    for (w, b) in words.iter_mut().zip(bits.chunks_exact(8)) {
        *w |= u64::from_le_bytes(b.try_into().expect("eight bytes"));
    }
}

fn count(words: &[u64]) -> usize {
    words.iter().map(|w| w.count_ones() as usize).sum()
}

/// Ids set in both bitmaps (of like lengths).
fn and_count2(isa: Isa, a: &[u8], b: &[u8]) -> usize {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has AVX-512.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::and_count2(a, b) },
        _ => scalar::and_count2(a, b),
    }
}

/// Appends the ids of the set bits of a window starting at `base`.
fn extract(isa: Isa, words: &[u64], base: u32, out: &mut Vec<u32>) {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has AVX-512 (F,
        // VBMI2 among its features) and the AVX2 level's POPCNT and BMI.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::extract(words, base, out) },
        _ => scalar::extract(words, base, out),
    }
}

#[cfg(test)]
mod tests;
