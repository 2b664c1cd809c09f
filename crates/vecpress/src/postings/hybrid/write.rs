//! The encoder: each window's form chosen, and its blocks written.

use super::read::{ARRAY, BITMAP, GAPS, INDEXED, RUNS};
use super::{Room, SHIFT, WINDOW_BYTES};
use crate::{Error, stream_vbyte};

/// A window is runs where they take fewer bytes than its gaps and less
/// than this fraction of its bitmap, so that a query decodes them faster
/// than it reads the bitmap; and a bitmap where it takes fewer bytes than
/// this many times its gaps, so that a query reads it in place where its
/// gaps would be decoded (dense lists of census data: a word of their
/// bitmap read at a time, for a tenth more bytes than their gaps).
const RUNS_UNDER: usize = 8;
const BITMAP_UNDER: usize = 2;
/// A short list of several blocks becomes one block of gaps where that
/// takes up to this many times its bytes: see [`single`].
const SINGLE_OVER: f64 = 1.125;

/// Ids a block of gaps holds, and runs a block of runs, before it ends
/// with the window it is in: a query decodes little more than this of a
/// list to reach an id, skipping the blocks before by their headers. A
/// block holds whole windows, so that in a window a list is in one block.
/// Blocks of runs hold more ids than blocks of gaps for their bytes, and a
/// query on lists of runs passes more blocks by their headers than it
/// decodes.
const GAPS_PER_BLOCK: usize = 1024;
const RUNS_PER_BLOCK: usize = 256;
/// Ids of a list in 65,536 (an array block's reach), at least, for arrays
/// there: see [`with_arrays`].
const ARRAY_MIN: usize = 64;

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

/// A window of the list: its ids `from..to`, its form, and the quarters of
/// a byte its ids take as gaps and as runs.
struct Window {
    from: usize,
    to: usize,
    kind: u32,
    gaps: usize,
    runs: usize,
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
/// Arrays are chosen after, by [`with_arrays`].
fn plan(values: &[u32]) -> Vec<Window> {
    let mut windows = Vec::new();
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
        windows.push(Window {
            from: i,
            to: end,
            kind,
            gaps,
            runs,
        });
        i = end;
    }
    join(&mut windows);
    windows
}

/// Quarters of a byte a block's header takes, about: its kind and count,
/// its last id's distance from the block before, its byte length.
const HEADER: usize = 16;

/// Windows of runs turned to gaps, and of gaps to runs, where they cut a
/// stretch of the other form for fewer bytes than the headers of the
/// blocks that the cut makes: a few short runs in a sparse list (a block
/// of runs, and the gaps after it a block of their own) would cost bytes,
/// and make a list that a query reads whole, as a single block, one that
/// it walks; a few lone ids amid runs, more blocks of runs to walk.
fn join(windows: &mut [Window]) {
    let mut i = 0;
    while i < windows.len() {
        let kind = windows[i].kind;
        let end = i + windows[i..].iter().take_while(|w| w.kind == kind).count();
        let other = match kind {
            RUNS => GAPS,
            GAPS => RUNS,
            _ => {
                i = end;
                continue;
            }
        };
        // Blocks of the other form beside them, which they would join.
        let beside = |k: Option<&Window>| usize::from(k.is_some_and(|w| w.kind == other));
        let cuts = beside(i.checked_sub(1).map(|k| &windows[k])) + beside(windows.get(end));
        // Quarters of a byte their own form saves over the other.
        let saved: i64 = windows[i..end]
            .iter()
            .map(|w| match kind {
                RUNS => w.gaps as i64 - w.runs as i64,
                _ => w.runs as i64 - w.gaps as i64,
            })
            .sum();
        if saved < (cuts * HEADER) as i64 {
            windows[i..end].iter_mut().for_each(|w| w.kind = other);
        }
        i = end;
    }
}

/// The bytes of `values` as a Roaring bitmap with run containers where
/// smaller, in its portable serialized form, at least: a cookie, and for
/// each 65,536 ids a container's key and count, and the least of its ids
/// as 16-bit values, its bitmap, and its runs (a count, then a start and a
/// length each).
pub(super) fn roaring_len(values: &[u32]) -> usize {
    let mut len = 4;
    for chunk in values.chunk_by(|a, b| a >> 16 == b >> 16) {
        let runs = 1 + chunk.windows(2).filter(|w| w[1] != w[0] + 1).count();
        len += 4 + (2 * chunk.len()).min(8192).min(2 + 4 * runs);
    }
    len
}

/// The list written with windows of gaps turned into arrays, a chunk of
/// 65,536 ids (an array block's reach) at a time, those whose gaps take
/// the most bytes an id first (an array takes two an id, and is read
/// without a decode), as many as keep the list within the bytes `room`
/// gives it. A chunk's windows of gaps change together: chosen a window at
/// a time, arrays and gaps would take turns in a chunk, each turn a block,
/// its header to read and a step of a query's walk.
fn with_arrays(values: &[u32], mut windows: Vec<Window>, room: Room) -> Blocks {
    let plain = write(values, &windows);
    let budget = match room {
        Room::Gaps => plain.len(),
        Room::Roaring => roaring_len(values).max(plain.len()),
    };
    // Each chunk's windows of gaps, with their ids and the quarters of a
    // byte their gaps take; only chunks that hold enough of the list's ids
    // for their arrays to hold about as many as the block of gaps they
    // are cut from: where a chunk holds a few, arrays would cut a block of
    // gaps into many.
    let mut chunks: Vec<(Vec<usize>, usize, usize)> = Vec::new();
    let mut i = 0;
    while i < windows.len() {
        let c = values[windows[i].from] >> 16;
        let end = i + windows[i..].partition_point(|w| values[w.from] >> 16 == c);
        let ids = windows[end - 1].to - windows[i].from;
        let gaps: Vec<usize> = (i..end).filter(|&k| windows[k].kind == GAPS).collect();
        if ids >= ARRAY_MIN.min(values.len()) && !gaps.is_empty() {
            let n = gaps.iter().map(|&k| windows[k].to - windows[k].from).sum();
            let quarters = gaps.iter().map(|&k| windows[k].gaps).sum();
            chunks.push((gaps, n, quarters));
        }
        i = end;
    }
    // Most quarters of a byte an id first: `a` before `b` where a's gaps
    // over its ids exceed b's.
    chunks.sort_by(|(_, na, ga), (_, nb, gb)| (gb * na).cmp(&(ga * nb)));
    // What each costs, in quarters of a byte, against the room left.
    let mut left = 4 * (budget - plain.len()) as i64;
    let mut take = 0;
    for (_, n, quarters) in &chunks {
        let extra = 8 * *n as i64 - *quarters as i64;
        if extra > left {
            break;
        }
        left -= extra;
        take += 1;
    }
    if take == 0 {
        return plain;
    }
    // Block headers are not in the estimate: fewer chunks, until the list
    // fits.
    loop {
        for (k, (gaps, _, _)) in chunks.iter().enumerate() {
            for &i in gaps {
                windows[i].kind = if k < take { ARRAY } else { GAPS };
            }
        }
        let got = write(values, &windows);
        if take == 0 || got.len() <= budget {
            return got;
        }
        take = take * 3 / 4;
    }
}

/// A short list written as one block of gaps, where its blocks take no more
/// than [`SINGLE_OVER`] times its bytes: a query reads a list of one block
/// whole, by a decode and a merge, where it walks a list of several from
/// block to block, at several times the cost on a list of a few dozen ids.
fn single(values: &[u32], blocks: Blocks) -> Blocks {
    if blocks.count() < 2 || values.len() > GAPS_PER_BLOCK {
        return blocks;
    }
    let mut one = Blocks::default();
    let last = put_block(&mut one.body, GAPS, values.len(), values, 0);
    one.mark(last);
    if one.len() as f64 <= blocks.len() as f64 * SINGLE_OVER {
        return one;
    }
    blocks
}

/// A list's blocks as written: their bytes, and each one's last id and
/// where it ends (from where the first starts), for its index.
#[derive(Default)]
struct Blocks {
    body: Vec<u8>,
    marks: Vec<[u32; 2]>,
}

impl Blocks {
    /// Marks a block just written, whose last id is `last`.
    fn mark(&mut self, last: u32) {
        self.marks.push([last, self.body.len() as u32]);
    }

    fn count(&self) -> u32 {
        self.marks.len() as u32
    }

    /// The bytes of the list: its count of blocks, its index (of
    /// [`INDEXED`] blocks or more), its blocks.
    fn len(&self) -> usize {
        crate::vbyte::encoded_len(&[self.count()]) + self.index_len() + self.body.len()
    }

    fn index_len(&self) -> usize {
        if self.count() >= INDEXED {
            8 * self.marks.len()
        } else {
            0
        }
    }

    /// Appends the list to `out`: its count, its index (each block's last
    /// id, then each one's end, as 32-bit little-endian values), its
    /// blocks.
    fn put(&self, out: &mut Vec<u8>) {
        put_varint(out, self.count());
        if self.index_len() > 0 {
            out.extend(self.marks.iter().flat_map(|m| m[0].to_le_bytes()));
            out.extend(self.marks.iter().flat_map(|m| m[1].to_le_bytes()));
        }
        out.extend_from_slice(&self.body);
    }
}

pub(super) fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The work of [`super::encode_into`].
pub(super) fn encode_into(values: &[u32], out: &mut Vec<u8>, room: Room) -> Result<usize, Error> {
    if let Some(i) = values.windows(2).position(|w| w[0] >= w[1]) {
        return Err(Error::InvalidArgument {
            what: "an id not above the one before",
            value: i + 1,
        });
    }
    let blocks = single(values, with_arrays(values, plan(values), room));
    let start = out.len();
    blocks.put(out);
    Ok(out.len() - start)
}

/// The list as [`encode_into`] writes it, but with gaps where it has
/// arrays, and a short list in its planned blocks where it would be one
/// block of gaps: the other forms, for tests of both (and of the walk
/// from block to block on short lists).
#[cfg(test)]
pub(super) fn encode_gaps(values: &[u32]) -> Vec<u8> {
    let mut out = Vec::new();
    write(values, &plan(values)).put(&mut out);
    out
}

/// The list's blocks, each window in its planned form: adjacent bitmap
/// windows make one block; windows of gaps, runs or arrays, blocks of
/// about [`GAPS_PER_BLOCK`] ids (or [`RUNS_PER_BLOCK`] runs) until a window
/// of another form.
fn write(values: &[u32], windows: &[Window]) -> Blocks {
    let mut blocks = Blocks::default();
    let (mut prev, mut next) = (0u32, 0u32);
    let mut rest = windows;
    while let Some(w) = rest.first() {
        // Windows of the same form, adjacent ones for a bitmap.
        let same = 1 + rest[1..]
            .iter()
            .zip(rest)
            .take_while(|(b, a)| {
                b.kind == w.kind
                    && (w.kind != BITMAP
                        || values[b.from] >> SHIFT == (values[a.to - 1] >> SHIFT) + 1)
            })
            .count();
        let (group, after) = rest.split_at(same);
        rest = after;
        let ids = &values[w.from..group[same - 1].to];
        match w.kind {
            BITMAP => {
                let (first, last) = (ids[0] >> SHIFT, ids[ids.len() - 1] >> SHIFT);
                let n = last - first + 1;
                put_varint(&mut blocks.body, BITMAP | n << 2);
                put_varint(&mut blocks.body, first - next);
                let at = blocks.body.len();
                blocks.body.resize(at + n as usize * WINDOW_BYTES, 0);
                let base = first << SHIFT;
                for &v in ids {
                    let bit = (v - base) as usize;
                    blocks.body[at + bit / 8] |= 1 << (bit % 8);
                }
                next = first + n;
                prev = ((u64::from(next) << SHIFT) - 1) as u32;
                blocks.mark(prev);
                continue;
            }
            RUNS => {
                let runs = runs_of(ids);
                for part in whole_windows(&runs, |r| r[0] >> SHIFT, RUNS_PER_BLOCK) {
                    prev = put_block(
                        &mut blocks.body,
                        RUNS,
                        part.len(),
                        part.as_flattened(),
                        prev,
                    );
                    blocks.mark(prev);
                }
            }
            ARRAY => {
                for part in array_blocks(ids) {
                    prev = put_array(&mut blocks.body, part, prev);
                    blocks.mark(prev);
                }
            }
            _ => {
                for part in whole_windows(ids, |&v| v >> SHIFT, GAPS_PER_BLOCK) {
                    prev = put_block(&mut blocks.body, GAPS, part.len(), part, prev);
                    blocks.mark(prev);
                }
            }
        }
        next = (prev >> SHIFT) + 1;
    }
    blocks
}

/// `ids` (of whole windows) cut into arrays of whole windows, each of
/// about [`GAPS_PER_BLOCK`] ids at most and within 65,536 of its first.
fn array_blocks(ids: &[u32]) -> impl Iterator<Item = &[u32]> {
    let mut rest = ids;
    core::iter::from_fn(move || {
        let first = *rest.first()?;
        let mut end = 0;
        while end < rest.len() {
            let w = rest[end] >> SHIFT;
            let to = end + rest[end..].partition_point(|&v| v >> SHIFT == w);
            if end > 0 && (end >= GAPS_PER_BLOCK || rest[to - 1] - first > 0xffff) {
                break;
            }
            end = to;
        }
        let (piece, after) = rest.split_at(end);
        rest = after;
        Some(piece)
    })
}

/// Writes an array block of `ids` (within 65,536 of the first, or one
/// window of them): its header (its kind and count, its first id's
/// distance from `prev`), then the later ids' 16-bit offsets from the
/// first. Returns its last id.
fn put_array(out: &mut Vec<u8>, ids: &[u32], prev: u32) -> u32 {
    put_varint(out, ARRAY | (ids.len() as u32) << 2);
    put_varint(out, ids[0] - prev);
    for &v in &ids[1..] {
        out.extend_from_slice(&((v - ids[0]) as u16).to_le_bytes());
    }
    ids[ids.len() - 1]
}
