//! A posting format with bitmap blocks for dense ranges: each window of
//! [`WINDOW`] document ids is stored as a bitmap where its list is dense
//! and as Stream VByte gaps where it is sparse, and queries ([`and`],
//! [`and_count`], [`or`]) read both straight from the bytes.
//!
//! A list of ids from 0 to n that holds one id in three costs 4096 / 8 =
//! 512 bytes a window as a bitmap, a third of a byte per id, where gaps
//! take at least a byte and a quarter each; and two bitmaps intersect a
//! word (64 ids) at a time, where two arrays of ids take a compare per id.
//! Roaring bitmaps made this choice per range of 65,536 ids; here the
//! windows are smaller (so a dense stretch in a sparse list becomes a
//! bitmap of its own) and the sparse ranges keep the gaps' compression,
//! so a list costs no more bytes than its Stream VByte stream, and less
//! where it is dense.
//!
//! # Format
//!
//! Integers marked *varint* are LEB128 (7 bits a byte, low first, at most
//! five bytes). A list is
//!
//! - *varint* the number of blocks, then each block:
//! - *varint* `kind | n << 1`, `kind` 0 for a block of gaps and 1 for a
//!   bitmap block, `n` at least 1:
//!   - gaps: *varint* the block's byte length, then the Stream VByte
//!     stream (control bytes, then data bytes) of `n` gaps, the first from
//!     the list's value before the block (0 before the first block);
//!   - bitmap: *varint* `w - next`, where the block covers windows `w` to
//!     `w + n - 1` (ids `w * 4096` to `(w + n) * 4096 - 1`) and `next` is
//!     the first window after the block before (0 before the first), then
//!     `n * 512` bytes: each window's 64 words, little-endian, bit `i` of
//!     word `j` standing for id `w * 4096 + 64 * j + i`.
//!
//! After a bitmap block the value before the next block is its last id
//! (`(w + n) * 4096 - 1`); after a block of gaps, the next window is the
//! one after its last value's. Ids rise from block to block, and a list is
//! self-delimiting, so that an index can store lists one after another and
//! find each by where it starts.
//!
//! The encoder ([`encode_into`]) makes a window a bitmap where that takes
//! fewer bytes than its gaps, joins adjacent bitmap windows into one block
//! and the sparse windows between bitmap blocks into one block of gaps.
//!
//! # Queries
//!
//! A query walks its lists a window at a time, leapfrogging to the next
//! window that every list holds ids in (for [`and`]) or any list does (for
//! [`or`]). In a window where every list is a bitmap, the intersection is
//! the AND of their words, and its ids are written out sixteen at a time
//! (at the AVX-512 level, `vpcompressd` of the set bits' positions), or
//! counted by popcount alone ([`and_count`]). Where some list holds gaps,
//! its ids (decoded once per block) are the candidates, kept by a bit test
//! against each bitmap and by the SIMD merge against other gaps.
//!
//! Damaged bytes give an error naming the offset in that list's bytes,
//! never a panic; a block of gaps is decoded whole before any of its ids
//! are used, and a count is trusted for no more room than its bytes can
//! hold (a data byte and a quarter per gap).
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

use crate::tune::{self, Op};
use crate::{Error, Isa, stream_vbyte};
use read::{List, View};

/// Ids a window spans: a bitmap block holds 4096 bits (512 bytes) a window.
pub const WINDOW: u32 = 1 << SHIFT;
const SHIFT: u32 = 12;
/// Words of 64 bits in a window's bitmap.
const WORDS: usize = WINDOW as usize / 64;
/// Bytes of a window's bitmap.
const WINDOW_BYTES: usize = WORDS * 8;
/// Windows in the range of u32.
const WINDOWS: u32 = 1 << (32 - SHIFT);

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
    let blocks = plan(values);
    let start = out.len();
    put_varint(out, blocks.len() as u32);
    let (mut prev, mut next) = (0u32, 0u32);
    for b in &blocks {
        let ids = &values[b.from..b.to];
        if b.bitmap {
            let (first, last) = (ids[0] >> SHIFT, ids[ids.len() - 1] >> SHIFT);
            let n = last - first + 1;
            put_varint(out, 1 | n << 1);
            put_varint(out, first - next);
            let at = out.len();
            out.resize(at + n as usize * WINDOW_BYTES, 0);
            let base = first << SHIFT;
            for &v in ids {
                let bit = (v - base) as usize;
                out[at + bit / 8] |= 1 << (bit % 8);
            }
            next = first + n;
            prev = ((u64::from(next) << SHIFT) - 1) as u32;
        } else {
            let gaps = stream_vbyte::encode_delta_to_vec(ids, prev);
            put_varint(out, (ids.len() as u32) << 1);
            put_varint(out, gaps.len() as u32);
            out.extend_from_slice(&gaps);
            prev = ids[ids.len() - 1];
            next = (prev >> SHIFT) + 1;
        }
    }
    Ok(out.len() - start)
}

/// A block the encoder writes: ids `from..to`, as a bitmap or as gaps.
struct Block {
    from: usize,
    to: usize,
    bitmap: bool,
}

/// Each window a bitmap where 512 bytes are fewer than its gaps take
/// (a quarter byte of control and one to four data bytes each), adjacent
/// bitmap windows one block, the windows of gaps between them one block.
fn plan(values: &[u32]) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut i = 0;
    let mut prev = 0u32;
    while i < values.len() {
        let w = values[i] >> SHIFT;
        let end = i + values[i..].partition_point(|&v| v >> SHIFT == w);
        let mut cost = (end - i).div_ceil(4);
        for &v in &values[i..end] {
            cost += gap_bytes(v.wrapping_sub(prev));
            prev = v;
        }
        let bitmap = cost > WINDOW_BYTES;
        match blocks.last_mut() {
            Some(b)
                if b.bitmap == bitmap
                    && (!bitmap || values[b.to - 1] >> SHIFT == w.wrapping_sub(1)) =>
            {
                b.to = end
            }
            _ => blocks.push(Block {
                from: i,
                to: end,
                bitmap,
            }),
        }
        i = end;
    }
    blocks
}

/// Data bytes Stream VByte takes for a gap.
fn gap_bytes(gap: u32) -> usize {
    1 + usize::from(gap > 0xff) + usize::from(gap > 0xffff) + usize::from(gap > 0xff_ffff)
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
    decode_into_with(tune::isa(Op::Intersect), bytes, out)
}

/// [`decode_into`] with the kernels of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn decode_into_with(isa: Isa, bytes: &[u8], out: &mut Vec<u32>) -> Result<usize, Error> {
    let isa = isa.check()?;
    let start = out.len();
    let got = List::new(isa, bytes).and_then(|mut list| {
        let mut words = Vec::new();
        let mut w = 0;
        while let Some(at) = list.seek(w)? {
            let e = list.end().max(at + 1);
            match list.span(at, e) {
                View::Ids(ids) => out.extend_from_slice(ids),
                View::Bits(bits) => {
                    words.clear();
                    words.resize(bits.len() / 8, 0);
                    load(&mut words, bits);
                    extract(isa, &words, at << SHIFT, out);
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
    and_with(tune::isa(Op::Intersect), lists, out)
}

/// [`and`] with the kernels of `isa`; `Err(Unsupported)` if the CPU lacks it.
pub fn and_with(isa: Isa, lists: &[&[u8]], out: &mut Vec<u32>) -> Result<(), Error> {
    out.clear();
    let got = intersect(isa.check()?, lists, &mut Found::Ids(out));
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
    and_count_with(tune::isa(Op::Intersect), lists)
}

/// [`and_count`] with the kernels of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn and_count_with(isa: Isa, lists: &[&[u8]]) -> Result<usize, Error> {
    let mut n = 0;
    intersect(isa.check()?, lists, &mut Found::Count(&mut n))?;
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
    or_with(tune::isa(Op::Intersect), lists, out)
}

/// [`or`] with the kernels of `isa`; `Err(Unsupported)` if the CPU lacks it.
pub fn or_with(isa: Isa, lists: &[&[u8]], out: &mut Vec<u32>) -> Result<(), Error> {
    out.clear();
    let got = unite(isa.check()?, lists, out);
    if got.is_err() {
        out.clear();
    }
    got
}

/// Where a query's ids go.
enum Found<'o> {
    Ids(&'o mut Vec<u32>),
    Count(&'o mut usize),
}

/// Scratch a query reuses from span to span.
#[derive(Default)]
struct Scratch {
    words: Vec<u64>,
    a: Vec<u32>,
    b: Vec<u32>,
}

fn lists_of<'a>(isa: Isa, lists: &[&'a [u8]]) -> Result<Vec<List<'a>>, Error> {
    lists.iter().map(|bytes| List::new(isa, bytes)).collect()
}

/// The intersection, a span of windows at a time: from a window that every
/// list holds ids in (leapfrogging to it) to the first end of a list's
/// block, so that in the span each list is one bitmap or one array of ids.
fn intersect(isa: Isa, lists: &[&[u8]], found: &mut Found) -> Result<(), Error> {
    if lists.is_empty() {
        return Ok(());
    }
    let mut lists = lists_of(isa, lists)?;
    let mut s = Scratch::default();
    let k = lists.len();
    let mut w = 0u32;
    'spans: while w < WINDOWS {
        let (mut agreed, mut i) = (0, 0);
        while agreed < k {
            match lists[i].seek(w)? {
                None => break 'spans,
                Some(at) if at == w => agreed += 1,
                Some(at) => (w, agreed) = (at, 1),
            }
            i = (i + 1) % k;
        }
        let e = lists
            .iter()
            .map(List::end)
            .min()
            .unwrap_or(w + 1)
            .max(w + 1);
        span_and(isa, &lists, w, e, &mut s, found);
        w = e;
    }
    Ok(())
}

/// The intersection of every list's ids in windows `w..e`, in each of which
/// every list is in one block.
fn span_and(isa: Isa, lists: &[List], w: u32, e: u32, s: &mut Scratch, found: &mut Found) {
    let base = w << SHIFT;
    // The shortest array of ids, if any list holds ids as gaps here, is
    // where the candidates start; else the bitmaps are ANDed.
    let shortest = lists
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match l.span(w, e) {
            View::Ids(ids) => Some((ids.len(), i)),
            View::Bits(_) => None,
        })
        .min();
    let Some((_, first)) = shortest else {
        let bits = |l| bits_of(l, w, e);
        if let (Found::Count(n), [a, b]) = (&mut *found, lists) {
            **n += and_count2(isa, bits(a), bits(b));
            return;
        }
        let words = (e - w) as usize * WORDS;
        s.words.clear();
        s.words.resize(words, 0);
        load(&mut s.words, bits(&lists[0]));
        for l in &lists[1..] {
            and_words(&mut s.words, bits(l));
        }
        match found {
            Found::Ids(out) => extract(isa, &s.words, base, out),
            Found::Count(n) => **n += count(&s.words),
        }
        return;
    };
    let View::Ids(ids) = lists[first].span(w, e) else {
        unreachable!("the shortest is an array of ids")
    };
    s.a.clear();
    s.a.extend_from_slice(ids);
    let mut c = s.a.len();
    for (i, l) in lists.iter().enumerate() {
        if i == first || c == 0 {
            continue;
        }
        match l.span(w, e) {
            View::Bits(bits) => c = scalar::keep_set(bits, base, &mut s.a[..c]),
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
}

/// A list's bitmap over windows `w..e` (none if it holds ids as gaps).
fn bits_of<'l>(l: &'l List, w: u32, e: u32) -> &'l [u8] {
    match l.span(w, e) {
        View::Bits(b) => b,
        View::Ids(_) => &[],
    }
}

/// The union, a span of windows at a time: from the first window any list
/// holds ids in to the first end of those lists' blocks or start of
/// another's, so that in the span each list there is one bitmap or one
/// array of ids.
fn unite(isa: Isa, lists: &[&[u8]], out: &mut Vec<u32>) -> Result<(), Error> {
    let mut lists = lists_of(isa, lists)?;
    let mut s = Scratch::default();
    let mut at: Vec<Option<u32>> = vec![None; lists.len()];
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
        let e = lists
            .iter()
            .zip(&at)
            .filter_map(|(l, a)| match a {
                Some(a) if *a == start => Some(l.end()),
                Some(a) => Some(*a),
                None => None,
            })
            .min()
            .unwrap_or(start + 1)
            .max(start + 1);
        let here = || lists.iter().zip(&at).filter(|(_, a)| **a == Some(start));
        let base = start << SHIFT;
        if here().all(|(l, _)| matches!(l.span(start, e), View::Ids(_))) {
            let ids = here().map(|(l, _)| match l.span(start, e) {
                View::Ids(ids) => ids,
                View::Bits(_) => &[],
            });
            let from = out.len();
            s.a.clear();
            super::or_decoded(isa, ids, &mut s.a);
            out.extend_from_slice(&s.a);
            debug_assert!(out.len() >= from);
        } else {
            s.words.clear();
            s.words.resize((e - start) as usize * WORDS, 0);
            for (l, _) in here() {
                match l.span(start, e) {
                    View::Bits(bits) => or_words(&mut s.words, bits),
                    View::Ids(ids) => {
                        let span = s.words.len() * 64;
                        for &v in ids {
                            let bit = v.wrapping_sub(base) as usize;
                            if bit < span {
                                s.words[bit / 64] |= 1 << (bit % 64);
                            }
                        }
                    }
                }
            }
            extract(isa, &s.words, base, out);
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
