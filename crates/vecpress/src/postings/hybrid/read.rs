//! Reading a list forward, a span of windows at a time or by the blocks
//! that may hold an intersection's candidates: its blocks' headers as it
//! reaches them, a block of gaps decoded whole on the way in (an array's
//! 16-bit offsets widened), a bitmap block read in place, a block of runs
//! read into intervals.
#![forbid(unsafe_code)]

use super::Levels;
use super::pool::VIEWS;
use super::scalar::{self, gallop};
use super::span;
use super::{SHIFT, WINDOW, WINDOW_BYTES, WINDOWS};
use crate::{Error, Isa, Unit, stream_vbyte};

/// Block kinds, the low two bits of a block's header.
pub(super) const GAPS: u32 = 0;
pub(super) const BITMAP: u32 = 1;
pub(super) const RUNS: u32 = 2;
pub(super) const ARRAY: u32 = 3;

/// What a list holds in a span of windows.
#[derive(Clone, Copy)]
pub(super) enum View<'a> {
    /// Its ids there, decoded from gaps or widened from an array.
    Ids(&'a [u32]),
    /// The span's bitmap, 512 bytes a window.
    Bits(&'a [u8]),
    /// Runs of ids, first and last, from the first not passed to the last
    /// that starts in the span (the first may start before it, the last
    /// end after it).
    Runs(&'a [[u32; 2]]),
}

impl<'a> View<'a> {
    /// Its runs; none if it holds ids or a bitmap.
    pub(super) fn runs(&self) -> &'a [[u32; 2]] {
        match *self {
            View::Runs(runs) => runs,
            _ => &[],
        }
    }
}

/// The block a list stands in.
enum Block<'a> {
    /// A block of gaps, runs or an array whose header has been read, to be
    /// decoded when a seek reaches its ids: its kind and count, its bytes
    /// after the header (from `start` in the list), the id before it (an
    /// array's first id), its last, and the first window its ids may start
    /// in (the one after the block before's last).
    Unread {
        kind: u32,
        n: usize,
        start: usize,
        body: &'a [u8],
        before: u32,
        last: u32,
        floor: u32,
    },
    /// Ids decoded from a block of gaps or an array, in `List::ids`.
    Ids,
    /// Windows `first..first + bits.len() / 512`.
    Bits { first: u32, bits: &'a [u8] },
    /// Runs of ids, first and last, in `List::runs`.
    Runs,
    /// Past the last block.
    End,
}

/// A list being read forward.
pub(super) struct List<'a> {
    levels: Levels,
    bytes: &'a [u8],
    /// Where the next block's header starts.
    pos: usize,
    /// Blocks not yet reached.
    left: u32,
    /// The id before the next block of gaps, runs or an array.
    prev: u32,
    /// The first window the next bitmap block can start at, and the end of
    /// the block the list stands in.
    next: u32,
    block: Block<'a>,
    /// Buffers the block's ids, or its runs' first and last ids one after
    /// the other, are decoded into: their first `len`. They are not cut to
    /// `len`, so that a longer block after a shorter one (or a buffer's
    /// next list) does not fill them with zeros again.
    ids: Vec<u32>,
    runs: Vec<u32>,
    len: usize,
    /// The first id of `ids`, or run of `runs`, not yet passed.
    at: usize,
    /// The list's index (none below [`INDEXED`] blocks): each block's last
    /// id, and where it ends (from `base`, where the first block starts).
    lasts: &'a [[u8; 4]],
    ends: &'a [[u8; 4]],
    base: usize,
    /// Whether a seek passes blocks by the index (a query's does), or
    /// reads each header (a decode's, which checks every block).
    by_index: bool,
}

/// Lists of this many blocks or more start with an index of their blocks,
/// which a query searches for the block that may hold an id where it
/// would else read the headers of the blocks before, one cache line after
/// another.
pub(super) const INDEXED: u32 = 4;

/// Where a list's blocks start, as [`List::count`] reads it: their count,
/// where the first starts, and the index before it (empty if none).
#[derive(Clone, Copy)]
pub(super) struct Head<'a> {
    left: u32,
    pos: usize,
    index: &'a [u8],
}

impl<'a> List<'a> {
    /// A list from the start of `bytes`, whose count of blocks and index
    /// [`List::count`] read, decoding into buffers `ids` and `runs`
    /// (cleared as they are used).
    #[inline(always)]
    pub(super) fn at(
        levels: Levels,
        bytes: &'a [u8],
        head: Head<'a>,
        (ids, runs): (Vec<u32>, Vec<u32>),
    ) -> List<'a> {
        let (lasts, ends) = head.index.as_chunks::<4>().0.split_at(head.index.len() / 8);
        List {
            levels,
            bytes,
            pos: head.pos,
            left: head.left,
            prev: 0,
            next: 0,
            block: Block::End,
            ids,
            runs,
            len: 0,
            at: 0,
            lasts,
            ends,
            base: head.pos,
            by_index: true,
        }
    }

    /// The list read block by block, every header read and checked (with
    /// its index's entry), none passed by the index.
    pub(super) fn every_block(&mut self) {
        self.by_index = false;
    }

    /// The ids of the block decoded last (a block of gaps, an array).
    fn decoded(&self) -> &[u32] {
        &self.ids[..self.len]
    }

    /// The runs of the block decoded last (a block of runs).
    fn decoded_runs(&self) -> &[[u32; 2]] {
        self.runs[..self.len].as_chunks::<2>().0
    }

    /// The count of blocks at the start of a list's `bytes`, and its
    /// index, if it has one: the index's bytes present.
    pub(super) fn count(bytes: &[u8]) -> Result<Head<'_>, Error> {
        let mut pos = 0;
        let left = varint(bytes, &mut pos)?;
        if left < INDEXED {
            return Ok(Head {
                left,
                pos,
                index: &[],
            });
        }
        // 8 bytes a block, counted in 64 bits (a 32-bit `usize` may not hold
        // what a hostile count claims).
        let len = 8 * u64::from(left);
        let index = usize::try_from(len)
            .ok()
            .and_then(|len| bytes.get(pos..pos.checked_add(len)?));
        let Some(index) = index else {
            let needed = pos as u64 + len - bytes.len() as u64;
            return Err(truncated(
                pos,
                usize::try_from(needed).unwrap_or(usize::MAX),
            ));
        };
        Ok(Head {
            left,
            pos: pos + index.len(),
            index,
        })
    }

    /// The list's buffers, for another list.
    pub(super) fn into_buffers(self) -> (Vec<u32>, Vec<u32>) {
        (self.ids, self.runs)
    }

    /// The first window at or after `w` in which the list holds ids (a
    /// bitmap block's window may hold none, if its bytes say so), reading
    /// blocks as it goes (and decoding those of gaps or runs whose last id
    /// it reaches); `None` past the last.
    pub(super) fn seek(&mut self, w: u32) -> Result<Option<u32>, Error> {
        let from = w << SHIFT;
        loop {
            match self.block {
                Block::Unread { last, .. } if last >= from => {
                    self.decode()?;
                    continue;
                }
                Block::Unread { .. } => {}
                Block::Ids => {
                    self.at += gallop(&self.decoded()[self.at..], |&v| v < from);
                    if let Some(&v) = self.decoded().get(self.at) {
                        return Ok(Some(v >> SHIFT));
                    }
                }
                Block::Runs => {
                    self.at += gallop(&self.decoded_runs()[self.at..], |r| r[1] < from);
                    if let Some(&[first, _]) = self.decoded_runs().get(self.at) {
                        return Ok(Some(w.max(first >> SHIFT)));
                    }
                }
                Block::Bits { first, bits } => {
                    let end = first + (bits.len() / WINDOW_BYTES) as u32;
                    if w < end {
                        return Ok(Some(w.max(first)));
                    }
                }
                Block::End => {}
            }
            self.pass_below(from)?;
            if self.left == 0 {
                self.block = Block::End;
                return Ok(None);
            }
            self.read_block()?;
        }
    }

    /// Passes by the index, if the list has one, the blocks not yet read
    /// whose last id is below `id`: the next block read is the first that
    /// may hold `id`. The blocks passed are not checked, as a query does
    /// not check the blocks it passes by their headers; an index that
    /// does not rise, or points back or past the bytes, is damaged.
    #[inline(always)]
    fn pass_below(&mut self, id: u32) -> Result<(), Error> {
        if !self.by_index || self.lasts.is_empty() {
            return Ok(());
        }
        let next = self.lasts.len() - self.left as usize;
        let skip = gallop(&self.lasts[next..], |l| u32::from_le_bytes(*l) < id);
        if skip == 0 {
            return Ok(());
        }
        let k = next + skip - 1;
        let last = u32::from_le_bytes(self.lasts[k]);
        let pos = self
            .base
            .saturating_add(u32::from_le_bytes(self.ends[k]) as usize);
        if last < self.prev || pos < self.pos || pos > self.bytes.len() {
            let entry = self.base - 8 * self.lasts.len() + 4 * k;
            return Err(corrupt(entry, INDEX_WRONG));
        }
        self.left -= skip as u32;
        self.pos = pos;
        self.prev = last;
        self.next = (last >> SHIFT) + 1;
        Ok(())
    }

    /// The window after the block the list stands in: the block holds no
    /// ids from there on.
    pub(super) fn end(&self) -> u32 {
        self.next
    }

    /// Whether the list stands in a bitmap block: a span of it is as long
    /// as its bitmap.
    pub(super) fn has_bits(&self) -> bool {
        matches!(self.block, Block::Bits { .. })
    }

    /// Whether the list stands in a decoded block of gaps.
    pub(super) fn has_ids(&self) -> bool {
        matches!(self.block, Block::Ids)
    }

    /// What the list holds in windows `w..e`, where [`seek`](List::seek)
    /// found it at `w` and its block goes on to `e` at least: its ids there
    /// (from the first not passed), or its bitmap's bytes.
    pub(super) fn span(&self, w: u32, e: u32) -> View<'_> {
        match self.block {
            Block::Bits { first, bits } => {
                let from = w.wrapping_sub(first) as usize * WINDOW_BYTES;
                let to = e.wrapping_sub(first) as usize * WINDOW_BYTES;
                View::Bits(bits.get(from..to).unwrap_or(&[]))
            }
            Block::Runs => {
                let rest = self.decoded_runs().get(self.at..).unwrap_or(&[]);
                let end = u64::from(e) << SHIFT;
                View::Runs(&rest[..rest.partition_point(|r| u64::from(r[0]) < end)])
            }
            _ => {
                let rest = self.decoded().get(self.at..).unwrap_or(&[]);
                let end = u64::from(e) << SHIFT;
                View::Ids(&rest[..rest.partition_point(|&v| u64::from(v) < end)])
            }
        }
    }

    /// A guess at how many ids the list holds, once its first block's
    /// header is read: that block's ids (a bitmap window counted as half
    /// full, a run as 64 ids), or if it has more blocks, as many times as
    /// it has blocks, each of 1024 ids at least (as the encoder makes a
    /// block of gaps; a first block of a few ids, cut from the next by a
    /// change of form, says little of the others).
    pub(super) fn guess(&self) -> u64 {
        let first = match self.block {
            Block::Unread { kind: RUNS, n, .. } => 64 * n as u64,
            Block::Unread { n, .. } => n as u64,
            Block::Bits { bits, .. } => (bits.len() / WINDOW_BYTES * WINDOW as usize / 2) as u64,
            _ => 0,
        };
        match self.left {
            0 => first,
            left => first.max(1024) * (u64::from(left) + 1),
        }
    }

    /// Reads the next block's header; `false` past the last block.
    // Inlined, as `read_block` is, into the loops that pass blocks by
    // their headers.
    #[inline(always)]
    pub(super) fn next_block(&mut self) -> Result<bool, Error> {
        if self.left == 0 {
            self.block = Block::End;
            return Ok(false);
        }
        self.read_block()?;
        Ok(true)
    }

    /// Whether the block just read gives ids (gaps or an array), not yet
    /// decoded.
    pub(super) fn gives_ids(&self) -> bool {
        matches!(self.block, Block::Unread { kind, .. } if kind == GAPS || kind == ARRAY)
    }

    /// The lowest and the highest id the list may hold in the block it
    /// stands in, from the first not passed; `None` past its last block.
    pub(super) fn bounds(&self) -> Option<(u32, u32)> {
        let low = match self.block {
            // The first id as the first gap says (read in place, so that a
            // query passes the block by it where its candidates fall below
            // it), or `before` (an array's first id).
            Block::Unread {
                kind,
                n,
                body,
                before,
                last,
                floor,
                ..
            } => match kind {
                GAPS => first_id(body, n, before, last, floor),
                RUNS => first_id(body, 2 * n, before, last, floor),
                _ => before,
            },
            Block::Ids => *self.decoded().get(self.at)?,
            Block::Runs => self.decoded_runs().get(self.at)?[0],
            Block::Bits { first, .. } => first << SHIFT,
            Block::End => return None,
        };
        Some((low, self.last()?))
    }

    /// The highest id the list may hold in the block it stands in; `None`
    /// past its last block.
    fn last(&self) -> Option<u32> {
        match self.block {
            Block::Unread { last, .. } => Some(last),
            Block::Ids => self.decoded().last().copied(),
            Block::Runs => Some(self.decoded_runs().last()?[1]),
            Block::Bits { first, bits } => {
                let end = u64::from(first) + (bits.len() / WINDOW_BYTES) as u64;
                Some(((end << SHIFT) - 1) as u32)
            }
            Block::End => None,
        }
    }

    /// Reads blocks, their headers alone, up to the first that may hold
    /// `id` or later ids; the lowest and the highest id the list may hold
    /// in it ([`bounds`](List::bounds)), `None` past its last block.
    pub(super) fn reach(&mut self, id: u32) -> Result<Option<(u32, u32)>, Error> {
        loop {
            // The block's last id alone first: the first, which a block of
            // gaps or runs reads from its stream, for the block reached.
            if self.last().is_some_and(|last| last >= id)
                && let Some(bounds) = self.bounds()
            {
                return Ok(Some(bounds));
            }
            self.pass_below(id)?;
            if !self.next_block()? {
                return Ok(None);
            }
        }
    }

    /// Writes to the front of `kept` those of `candidates` (rising, none
    /// below an id this list was asked of before) that it holds, and
    /// returns how many: each block that may hold some is decoded,
    /// and its ids merged with them (or tested by bit, or walked as runs);
    /// the others are passed by their headers. `kept` is grown to the room
    /// a block's candidates take but never cut or cleared, so that a query
    /// fills none of it with zeros a block at a time.
    pub(super) fn keep(&mut self, candidates: &[u32], kept: &mut Vec<u32>) -> Result<usize, Error> {
        let isa = self.levels.kernels;
        let (mut i, mut n) = (0, 0);
        while let Some(&v) = candidates.get(i) {
            let Some((low, last)) = self.reach(v)? else {
                return Ok(n);
            };
            if v < low {
                // Candidates between blocks, or before the first id not
                // passed: none is held.
                i += candidates[i..].partition_point(|&c| c < low);
                continue;
            }
            let seg = &candidates[i..];
            let seg = &seg[..seg.partition_point(|&c| c <= last)];
            i += seg.len();
            let room = &mut first_n(kept, n + seg.len())[n..];
            // A block that a few candidates reach is searched in place, not
            // decoded whole (nor checked, as a query does not check the
            // blocks it passes): an array by its offsets, runs in their
            // stream.
            if let Block::Unread {
                kind,
                n: count,
                body,
                before,
                ..
            } = self.block
            {
                if kind == ARRAY && seg.len() * scalar::SKEW < count {
                    n += span::keep_few16(isa, seg, before, body.as_chunks::<2>().0, room);
                    continue;
                }
                if kind == RUNS && seg.len() * scalar::SKEW < 2 * count {
                    room.copy_from_slice(seg);
                    n += keep_in_stream_runs(self.levels.gaps, body, count, before, room);
                    continue;
                }
            }
            self.decode()?;
            n += match self.block {
                Block::Ids => {
                    self.at += gallop(&self.decoded()[self.at..], |&x| x < v);
                    let ids = &self.decoded()[self.at..];
                    // Those up to the last candidate.
                    let top = seg[seg.len() - 1];
                    let ids = &ids[..ids.partition_point(|&x| x <= top)];
                    if seg.len() * scalar::SKEW < ids.len() {
                        span::keep_few(isa, seg, ids, room)
                    } else {
                        crate::postings::keep_decoded(isa, seg, room, ids)
                    }
                }
                Block::Runs => {
                    self.at += gallop(&self.decoded_runs()[self.at..], |r| r[1] < v);
                    room.copy_from_slice(seg);
                    scalar::keep_in_runs(&self.decoded_runs()[self.at..], room)
                }
                Block::Bits { first, bits } => {
                    room.copy_from_slice(seg);
                    span::keep_set(isa, bits, first << SHIFT, room)
                }
                Block::Unread { .. } | Block::End => unreachable!("a block reached and decoded"),
            };
        }
        Ok(n)
    }

    /// Whether the block the list stands in holds runs, decoded, or unread
    /// and many times `few` of them: an intersection with `few` runs there
    /// reads them with [`and_runs`](List::and_runs).
    pub(super) fn holds_runs_for(&self, few: usize) -> bool {
        match self.block {
            Block::Unread { kind: RUNS, n, .. } => few * scalar::SKEW < n,
            Block::Runs => true,
            _ => false,
        }
    }

    /// Intersects `runs` (rising, apart, within the block the list stands
    /// in, which [`holds_runs_for`](List::holds_runs_for) them) with its
    /// runs, into `out`: in the block's stream, if unread.
    pub(super) fn and_runs(&self, levels: Levels, runs: &[[u32; 2]], out: &mut Vec<[u32; 2]>) {
        match self.block {
            Block::Unread {
                kind: RUNS,
                n,
                body,
                before,
                ..
            } => and_stream_runs(levels.gaps, body, n, before, runs, out),
            Block::Runs => {
                let (Some(&[a, _]), Some(&[_, b])) = (runs.first(), runs.last()) else {
                    return;
                };
                // Those that may meet `runs`.
                let mine = &self.decoded_runs()[self.at..];
                let mine = &mine[gallop(mine, |r| r[1] < a)..];
                let mine = &mine[..mine.partition_point(|r| r[0] <= b)];
                span::and_runs(levels.kernels, runs, mine, 0, u32::MAX, out);
            }
            _ => {}
        }
    }

    /// A block of runs with its count of runs, unread: the driver of an
    /// intersection that may search the others' runs in place.
    pub(super) fn unread_runs(&self) -> Option<usize> {
        match self.block {
            Block::Unread { kind: RUNS, n, .. } => Some(n),
            _ => None,
        }
    }

    /// Decodes the block of runs the list stands in; its runs.
    pub(super) fn runs(&mut self) -> Result<&[[u32; 2]], Error> {
        self.decode()?;
        Ok(self.decoded_runs().get(self.at..).unwrap_or(&[]))
    }

    /// Decodes the block of gaps or an array the list stands in into its
    /// ids; the ids.
    pub(super) fn ids(&mut self) -> Result<&[u32], Error> {
        self.decode()?;
        Ok(self.decoded().get(self.at..).unwrap_or(&[]))
    }

    /// The bytes the list took, once it has been read to its end; else
    /// reads its remaining blocks.
    pub(super) fn finish(&mut self) -> Result<usize, Error> {
        while self.left > 0 {
            self.read_block()?;
        }
        Ok(self.pos)
    }

    /// Reads the next block's header (a bitmap block's bytes are its
    /// body, read in place).
    // Inlined into each loop that reads headers: a call a header costs a
    // query that passes many blocks by them a tenth of its time.
    #[inline(always)]
    fn read_block(&mut self) -> Result<(), Error> {
        let at = self.pos;
        self.read_header()?;
        if let Some(k) = self.lasts.len().checked_sub(self.left as usize + 1) {
            let (last, end) = (self.lasts[k], self.ends[k]);
            if u32::from_le_bytes(last) != self.prev
                || self.base as u64 + u64::from(u32::from_le_bytes(end)) != self.pos as u64
            {
                return Err(corrupt(at, INDEX_WRONG));
            }
        }
        Ok(())
    }

    /// Reads the next block's header, as [`read_block`](List::read_block)
    /// does, bar the index.
    #[inline(always)]
    fn read_header(&mut self) -> Result<(), Error> {
        self.left -= 1;
        let at = self.pos;
        let head = varint(self.bytes, &mut self.pos)?;
        let n = head >> 2;
        if n == 0 {
            return Err(corrupt(at, "a block of no ids"));
        }
        self.at = 0;
        let kind = head & 3;
        match kind {
            BITMAP => return self.read_bitmap(at, n),
            ARRAY => return self.read_array_head(n as usize),
            _ => {}
        }
        let last_at = self.pos;
        let last = u64::from(self.prev) + u64::from(varint(self.bytes, &mut self.pos)?);
        let Ok(last) = u32::try_from(last) else {
            return Err(corrupt(last_at, "a block past the largest id"));
        };
        if last >> SHIFT < self.next {
            return Err(corrupt(last_at, WINDOW_SHARED));
        }
        let len_at = self.pos;
        let len = varint(self.bytes, &mut self.pos)? as usize;
        let start = self.pos;
        if len > self.bytes.len() - start {
            return Err(truncated(len_at, len - (self.bytes.len() - start)));
        }
        self.block = Block::Unread {
            kind,
            n: n as usize,
            start,
            body: &self.bytes[start..start + len],
            before: self.prev,
            last,
            floor: self.next,
        };
        self.pos = start + len;
        self.prev = last;
        self.next = (last >> SHIFT) + 1;
        Ok(())
    }

    /// Decodes the block of gaps or runs whose header was read last.
    fn decode(&mut self) -> Result<(), Error> {
        let Block::Unread {
            kind,
            n,
            start,
            body,
            before,
            last,
            floor,
        } = self.block
        else {
            return Ok(());
        };
        let got = match kind {
            GAPS => self.read_gaps(n, start, body, before)?,
            RUNS => self.read_runs(n, start, body, before)?,
            _ => {
                widen(self.levels.kernels, n, start, body, before, &mut self.ids)?;
                self.len = n;
                self.block = Block::Ids;
                return Ok(());
            }
        };
        if got != last {
            return Err(corrupt(start, "a block's last id is not its header's"));
        }
        // Blocks hold whole windows: a walk by windows, which passes the
        // window of a block's last id, and a walk by blocks would else
        // read different ids.
        let first = if kind == RUNS {
            self.runs[0]
        } else {
            self.ids[0]
        };
        if first >> SHIFT < floor {
            return Err(corrupt(start, WINDOW_SHARED));
        }
        Ok(())
    }

    /// Decodes `n` gaps from the id before the block; its last id.
    fn read_gaps(
        &mut self,
        n: usize,
        start: usize,
        gaps: &[u8],
        before: u32,
    ) -> Result<u32, Error> {
        let last = self.decode_stream(n, start, gaps, before, false)?;
        self.block = Block::Ids;
        Ok(last)
    }

    /// Decodes the Stream VByte stream of a block into `values` ids (or
    /// runs' first and last ids), in `ids` (or `runs`); the last.
    fn decode_stream(
        &mut self,
        values: usize,
        start: usize,
        stream: &[u8],
        before: u32,
        runs: bool,
    ) -> Result<u32, Error> {
        let out = if runs { &mut self.runs } else { &mut self.ids };
        let last = decode_stream(self.levels, values, start, stream, before, out)?;
        self.len = values;
        Ok(last)
    }

    /// Reads an array block's first id, and its last from its last offset
    /// (read in place, so that a query skips the block by it).
    fn read_array_head(&mut self, n: usize) -> Result<(), Error> {
        let first_at = self.pos;
        let first = u64::from(self.prev) + u64::from(varint(self.bytes, &mut self.pos)?);
        let start = self.pos;
        let len = 2 * (n - 1);
        if len > self.bytes.len() - start {
            return Err(truncated(first_at, len - (self.bytes.len() - start)));
        }
        let body = &self.bytes[start..start + len];
        let last = first + u64::from(last_offset(body));
        let Ok(last) = u32::try_from(last) else {
            return Err(corrupt(first_at, "a block past the largest id"));
        };
        // At most `last`.
        let first = first as u32;
        if first >> SHIFT < self.next {
            return Err(corrupt(first_at, WINDOW_SHARED));
        }
        self.block = Block::Unread {
            kind: ARRAY,
            n,
            start,
            body,
            before: first,
            last,
            floor: self.next,
        };
        self.pos = start + len;
        self.prev = last;
        self.next = (last >> SHIFT) + 1;
        Ok(())
    }

    fn read_bitmap(&mut self, at: usize, n: u32) -> Result<(), Error> {
        let first_at = self.pos;
        let first = u64::from(self.next) + u64::from(varint(self.bytes, &mut self.pos)?);
        let end = first + u64::from(n);
        if end > u64::from(WINDOWS) {
            return Err(corrupt(first_at, "a bitmap block past the largest id"));
        }
        let start = self.pos;
        let len = n as usize * WINDOW_BYTES;
        if len > self.bytes.len() - start {
            return Err(truncated(at, len - (self.bytes.len() - start)));
        }
        let bits = &self.bytes[start..start + len];
        self.pos = start + len;
        self.next = end as u32;
        self.prev = ((end << SHIFT) - 1) as u32;
        self.block = Block::Bits {
            first: first as u32,
            bits,
        };
        Ok(())
    }

    /// Decodes `n` runs from the id before the block; the last id. Their
    /// first and last ids, one after the other, are a Stream VByte stream
    /// of gaps, so that one SIMD decode gives them.
    fn read_runs(
        &mut self,
        n: usize,
        start: usize,
        body: &[u8],
        before: u32,
    ) -> Result<u32, Error> {
        self.decode_stream(2 * n, start, body, before, true)?;
        let last = check_runs(self.levels.kernels, self.decoded_runs(), start, before)?;
        self.block = Block::Runs;
        Ok(last)
    }
}

/// Checks runs decoded from a block at `start` (after the id `before`):
/// they rise (a gap's sum that wrapped past the largest id falls) and none
/// is longer than a window, checked with no branch per run, then, in a
/// damaged block, run by run for the error. Their last id.
fn check_runs(isa: Isa, runs: &[[u32; 2]], start: usize, before: u32) -> Result<u32, Error> {
    if span::runs_fit(isa, runs, before) {
        return Ok(runs.last().map_or(before, |r| r[1]));
    }
    let mut prev = before;
    for (k, r) in runs.iter().enumerate() {
        if r[0] < prev || r[1] < r[0] || (k > 0 && r[0] == prev) {
            return Err(corrupt(start, "runs that do not rise"));
        }
        if r[1] - r[0] >= WINDOW {
            return Err(corrupt(start, "a run longer than a window"));
        }
        prev = r[1];
    }
    Ok(prev)
}

/// Decodes the Stream VByte stream of a block (at `start` in its list)
/// into `values` sums of its gaps from `before`, the first `values` of
/// `out` (as [`first_n`] gives them): the short-list
/// kernel for a few values (most blocks of short lists), else the level's
/// decoder, which also names any error. The stream must end with the
/// block. The last sum, `values` at least 1.
fn decode_stream(
    levels: Levels,
    values: usize,
    start: usize,
    stream: &[u8],
    before: u32,
    out: &mut Vec<u32>,
) -> Result<u32, Error> {
    // A gap takes a data byte at least, and four share a control byte: a
    // count its bytes cannot hold takes no room.
    if stream.len() < values + values.div_ceil(4) {
        return Err(corrupt(start, "more ids than the block's bytes can hold"));
    }
    // Room to a multiple of 16, for the short kernel's whole stores.
    let out = first_n(out, values.next_multiple_of(16));
    let short = stream_vbyte::decode_short_delta(levels.short, stream, out, values, before);
    let (used, last) = match short {
        Some(got) => got,
        None => {
            let out = &mut out[..values];
            let used = stream_vbyte::decode_delta_with(levels.gaps, stream, out, before)
                .map_err(|e| e.shifted(start))?;
            (used, out[values - 1])
        }
    };
    if used != stream.len() {
        return Err(corrupt(start + used, "bytes after a block's stream"));
    }
    Ok(last)
}

/// Keeps, in order at the front of `ids` (rising), those inside one of the
/// `runs` of a block's stream (their first and last ids, sums of gaps from
/// `before`), read in place; returns how many. For each candidate past the
/// run at hand, the groups of values below it are passed by the Stream
/// VByte search kernel (by their gaps' sums, with no decode) and the run
/// that ends at or after it is read: a few candidates' runs cost a few
/// groups, not the block's decode. Not checked, as a query does not check
/// the blocks it passes: damaged runs give unspecified ids, never a read
/// out of bounds.
pub(super) fn keep_in_stream_runs(
    isa: Isa,
    stream: &[u8],
    runs: usize,
    before: u32,
    ids: &mut [u32],
) -> usize {
    let Some(mut values) = stream_vbyte::Forward::new(isa, stream, 2 * runs, before) else {
        return 0;
    };
    let (mut kept, mut run) = (0, None::<[u32; 2]>);
    for i in 0..ids.len() {
        let v = ids[i];
        if run.is_none_or(|[_, last]| last < v) {
            let Some(reaching) = run_reaching(&mut values, v) else {
                return kept;
            };
            run = Some(reaching);
        }
        ids[kept] = v;
        kept += usize::from(run.is_some_and(|[first, _]| first <= v));
    }
    kept
}

/// The next run of a block's stream (its first and last ids, value by
/// value) that ends at or after `id`, the groups of values below `id`
/// passed by the search kernel; `None` past the stream's last run.
fn run_reaching(values: &mut stream_vbyte::Forward, id: u32) -> Option<[u32; 2]> {
    loop {
        values.pass_below(id);
        let (first, last) = (values.next()?, values.next()?);
        if last >= id {
            return Some([first, last]);
        }
    }
}

/// Intersects `runs` (rising, apart) with the `count` runs of a block's
/// stream (their first and last ids, sums of gaps from `before`), read in
/// place as [`keep_in_stream_runs`] reads them, into `out`: a few runs
/// against a block of many cost a few groups each, not the block's decode.
/// Not checked, as a query does not check the blocks it passes: damaged
/// runs give unspecified runs, each within one of `runs` and above the one
/// before, never a read out of bounds.
pub(super) fn and_stream_runs(
    isa: Isa,
    stream: &[u8],
    count: usize,
    before: u32,
    runs: &[[u32; 2]],
    out: &mut Vec<[u32; 2]>,
) {
    let Some(mut values) = stream_vbyte::Forward::new(isa, stream, 2 * count, before) else {
        return;
    };
    // The stream's run at hand, and the first id not yet written.
    let (mut run, mut floor) = (None::<[u32; 2]>, 0u64);
    for &[a, b] in runs {
        loop {
            let [first, last] = match run {
                Some(r) if r[1] >= a => r,
                _ => {
                    let Some(reaching) = run_reaching(&mut values, a) else {
                        return;
                    };
                    run = Some(reaching);
                    reaching
                }
            };
            if first > b {
                break;
            }
            let (lo, hi) = (u64::from(a.max(first)).max(floor), b.min(last));
            if lo <= u64::from(hi) {
                out.push([lo as u32, hi]);
                floor = u64::from(hi) + 1;
            }
            if last > b {
                break;
            }
            run = None;
        }
    }
}

/// Widens an array block's offsets (`body`, at `start` in its list) into
/// its `n` ids from `first`, the first `n` of `out` (as [`first_n`] gives
/// them). Its last id, `first` plus its last
/// offset, is known to fit; offsets that rise keep the others below it.
fn widen(
    isa: Isa,
    n: usize,
    start: usize,
    body: &[u8],
    first: u32,
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    let (head, rest) = first_n(out, n).split_first_mut().expect("a block has ids");
    *head = first;
    if span::widen(isa, first, body.as_chunks::<2>().0, rest) {
        return Err(corrupt(start, "an array whose ids do not rise"));
    }
    Ok(())
}

/// The first `n` of `out`, which is grown to `n` but not cleared: a
/// zero-fill of room a decode writes would cost a short list as much as
/// its decode.
fn first_n(out: &mut Vec<u32>, n: usize) -> &mut [u32] {
    if out.len() < n {
        out.resize(n, 0);
    }
    &mut out[..n]
}

/// The first id of a block of gaps or runs (`values` in its `stream`) as
/// its first gap from `before` says, where that is an id the block can
/// start with: at or after window `floor` and at most its `last`; else
/// `before`, which bounds it from below whatever its bytes say.
fn first_id(stream: &[u8], values: usize, before: u32, last: u32, floor: u32) -> u32 {
    stream_vbyte::first_value(stream, values)
        .and_then(|gap| before.checked_add(gap))
        .filter(|&id| id <= last && id >> SHIFT >= floor)
        .unwrap_or(before)
}

/// An array block's last offset from its first id (0 for an array of one).
fn last_offset(body: &[u8]) -> u16 {
    match body.as_chunks::<2>().0.last() {
        Some(o) => u16::from_le_bytes(*o),
        None => 0,
    }
}

/// A list of a single block, as short lists are: a query reads it by one
/// decode, without a [`List`] and its walk from span to span. Those of
/// gaps or an array give ids; those of a bitmap or runs (with
/// [`Filters::Kept`]) only keep ids another gives.
#[derive(Clone, Copy)]
pub(super) struct Single<'a> {
    /// Its ids (gaps, an array), runs, or windows (a bitmap).
    pub(super) n: usize,
    /// [`GAPS`], [`ARRAY`], [`RUNS`] or [`BITMAP`].
    kind: u32,
    /// Its stream, offsets or bitmap, at `start` in the list.
    body: &'a [u8],
    start: usize,
    /// The last id its header gives (gaps, runs), its first (an array), or
    /// its first window (a bitmap).
    id: u32,
}

/// Whether [`singles`] takes lists of a bitmap or runs, which only keep
/// the ids of others (an intersection's), or leaves them to a [`List`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Filters {
    Kept,
    Refused,
}

impl<'a> Single<'a> {
    pub(super) const EMPTY: Single<'static> = Single {
        n: 0,
        kind: GAPS,
        body: &[],
        start: 0,
        id: 0,
    };

    /// The list at the start of `bytes`, if it is a single block (of gaps
    /// or an array; of a bitmap or runs too with [`Filters::Kept`]) whose
    /// header and body are whole; `None` otherwise (a [`List`] then reads
    /// it, and names any damage). Inlined where a query reads its lists:
    /// from a call, the `Option<Single>` comes back through memory, read by
    /// wide loads that wait for the narrower stores that wrote it.
    #[inline(always)]
    pub(super) fn new(bytes: &'a [u8], filters: Filters) -> Option<Single<'a>> {
        let mut pos = 0;
        if varint(bytes, &mut pos).ok()? != 1 {
            return None;
        }
        let head = varint(bytes, &mut pos).ok()?;
        let (kind, n) = (head & 3, (head >> 2) as usize);
        if n == 0 || (filters == Filters::Refused && (kind == BITMAP || kind == RUNS)) {
            return None;
        }
        let id = varint(bytes, &mut pos).ok()?;
        let len = match kind {
            GAPS | RUNS => varint(bytes, &mut pos).ok()? as usize,
            ARRAY => 2 * (n - 1),
            // Its windows within the range of ids, as a [`List`] checks.
            _ if u64::from(id) + n as u64 > u64::from(WINDOWS) => return None,
            _ => n * WINDOW_BYTES,
        };
        let body = bytes.get(pos..pos.checked_add(len)?)?;
        // An array's last id must fit, as a [`List`] checks.
        if kind == ARRAY && id.checked_add(u32::from(last_offset(body))).is_none() {
            return None;
        }
        Some(Single {
            n,
            kind,
            body,
            start: pos,
            id,
        })
    }

    /// The lowest and the highest id it may hold, from its header and its
    /// first gap or offset (read in place): for a query to see that lists
    /// hold no id in common before decoding any.
    pub(super) fn range(&self) -> (u32, u32) {
        match self.kind {
            GAPS => (first_id(self.body, self.n, 0, self.id, 0), self.id),
            RUNS => (first_id(self.body, 2 * self.n, 0, self.id, 0), self.id),
            // Its last id fits, as `new` checks.
            ARRAY => (self.id, self.id + u32::from(last_offset(self.body))),
            // Its windows are within the ids' range, as `new` checks.
            _ => (
                self.id << SHIFT,
                (((u64::from(self.id) + self.n as u64) << SHIFT) - 1) as u32,
            ),
        }
    }

    /// Whether it gives ids (gaps, an array), not only keeps them.
    pub(super) fn gives_ids(&self) -> bool {
        self.kind == GAPS || self.kind == ARRAY
    }

    /// Decodes its ids into the first [`n`](Single::n) of `out` (grown to
    /// that), with the checks of a [`List`]'s block. Gaps or an array.
    /// Inlined into a query's loop, as [`new`](Single::new) is.
    #[inline(always)]
    pub(super) fn decode(&self, levels: Levels, out: &mut Vec<u32>) -> Result<(), Error> {
        if self.kind == ARRAY {
            return widen(levels.kernels, self.n, self.start, self.body, self.id, out);
        }
        if decode_stream(levels, self.n, self.start, self.body, 0, out)? != self.id {
            return Err(corrupt(self.start, "a block's last id is not its header's"));
        }
        Ok(())
    }

    /// Keeps, at the front of `ids`, those it holds; how many. Runs are
    /// decoded into `d` and checked as a [`List`]'s block, or searched in
    /// their stream where the ids are few, as a list's block is; a bitmap
    /// is read in place. Runs or a bitmap.
    pub(super) fn keep(
        &self,
        levels: Levels,
        ids: &mut [u32],
        d: &mut Vec<u32>,
    ) -> Result<usize, Error> {
        if self.kind == BITMAP {
            return Ok(span::keep_set(
                levels.kernels,
                self.body,
                self.id << SHIFT,
                ids,
            ));
        }
        if ids.len() * scalar::SKEW < 2 * self.n {
            // As a list's block that a few candidates reach.
            return Ok(keep_in_stream_runs(levels.gaps, self.body, self.n, 0, ids));
        }
        Ok(scalar::keep_in_runs(self.runs(levels, d)?, ids))
    }

    /// Decodes its runs into `d` (grown to hold them), checked as a
    /// [`List`]'s block. Runs.
    pub(super) fn runs<'d>(
        &self,
        levels: Levels,
        d: &'d mut Vec<u32>,
    ) -> Result<&'d [[u32; 2]], Error> {
        decode_stream(levels, 2 * self.n, self.start, self.body, 0, d)?;
        let runs = &d.as_chunks::<2>().0[..self.n];
        if check_runs(levels.kernels, runs, self.start, 0)? != self.id {
            return Err(corrupt(self.start, "a block's last id is not its header's"));
        }
        Ok(runs)
    }

    /// Intersects `runs` (rising, apart) with its runs, into `out`: in its
    /// stream where they are many times as many (as a list's block that
    /// a few candidates reach), else decoded into `d` and checked. Runs.
    pub(super) fn and_runs(
        &self,
        levels: Levels,
        runs: &[[u32; 2]],
        d: &mut Vec<u32>,
        out: &mut Vec<[u32; 2]>,
    ) -> Result<(), Error> {
        if runs.len() * scalar::SKEW < self.n {
            and_stream_runs(levels.gaps, self.body, self.n, 0, runs, out);
            return Ok(());
        }
        let mine = self.runs(levels, d)?;
        span::and_runs(levels.kernels, runs, mine, 0, u32::MAX, out);
        Ok(())
    }

    /// Whether it is a block of runs.
    pub(super) fn is_runs(&self) -> bool {
        self.kind == RUNS
    }
}

/// `lists` read into `room` as [`Single`]s, those that give ids first and
/// shortest first, if each is one, the first gives ids (or, with
/// [`Filters::Kept`], every one is runs), and they are at most [`VIEWS`]
/// (read in place: a query on short lists would feel their move).
pub(super) fn singles<'r, 'a>(
    lists: &[&'a [u8]],
    room: &'r mut [Single<'a>; VIEWS],
    filters: Filters,
) -> Option<&'r [Single<'a>]> {
    let room = room.get_mut(..lists.len())?;
    for (s, bytes) in room.iter_mut().zip(lists) {
        *s = Single::new(bytes, filters)?;
    }
    sort_singles(room);
    let all_runs = filters == Filters::Kept && room.iter().all(Single::is_runs);
    (room.first()?.gives_ids() || all_runs).then_some(&*room)
}

/// Those of `lists` (at most [`VIEWS`]) that are of a single block (as
/// [`singles`] reads them, bitmaps and runs kept), in `room`, sorted as
/// [`singles`] sorts them, and a bit for each list taken (list `i`, bit
/// `i`); `None` where fewer than two are, or where they could not be
/// intersected as [`singles`] requires.
pub(super) fn singles_among<'r, 'a>(
    lists: &[&'a [u8]],
    room: &'r mut [Single<'a>; VIEWS],
) -> Option<(&'r [Single<'a>], u32)> {
    if lists.len() > VIEWS {
        return None;
    }
    let (mut k, mut taken) = (0, 0);
    for (i, bytes) in lists.iter().enumerate() {
        if let Some(s) = Single::new(bytes, Filters::Kept) {
            room[k] = s;
            k += 1;
            taken |= 1 << i;
        }
    }
    let room = &mut room[..k];
    sort_singles(room);
    (k >= 2 && (room[0].gives_ids() || room.iter().all(Single::is_runs))).then_some((&*room, taken))
}

/// Sorts lists of a single block as a query on them takes them: those that
/// give ids first, shortest first. Two or three (most queries) by compares
/// in place, where the slice sort is a call.
fn sort_singles(room: &mut [Single]) {
    let key = |s: &Single| (!s.gives_ids(), s.n);
    let order = |room: &mut [Single], i: usize, j: usize| {
        if key(&room[j]) < key(&room[i]) {
            room.swap(i, j);
        }
    };
    match room.len() {
        0 | 1 => {}
        2 => order(room, 0, 1),
        3 => {
            order(room, 0, 1);
            order(room, 1, 2);
            order(room, 0, 1);
        }
        _ => room.sort_unstable_by_key(key),
    }
}

/// A LEB128 varint of at most five bytes, whose value fits in 32 bits.
pub(super) fn varint(bytes: &[u8], pos: &mut usize) -> Result<u32, Error> {
    let start = *pos;
    let mut v = 0u64;
    for k in 0..5 {
        let Some(&b) = bytes.get(start + k) else {
            return Err(truncated(start, 1));
        };
        v |= u64::from(b & 0x7f) << (7 * k);
        if b < 0x80 {
            *pos = start + k + 1;
            return u32::try_from(v).map_err(|_| corrupt(start, "a varint past 32 bits"));
        }
    }
    Err(corrupt(start, "a varint longer than five bytes"))
}

/// A list's index that does not match its blocks.
const INDEX_WRONG: &str = "a block that its list's index does not match";

/// A block whose first id is in a window the block before holds ids in.
const WINDOW_SHARED: &str = "a block that starts in a window the block before holds";

fn corrupt(offset: usize, what: &'static str) -> Error {
    Error::Corrupt { offset, what }
}

fn truncated(offset: usize, needed: usize) -> Error {
    Error::Truncated {
        offset,
        needed,
        unit: Unit::Bytes,
    }
}
