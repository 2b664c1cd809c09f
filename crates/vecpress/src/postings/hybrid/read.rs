//! Reading a list a window at a time: its blocks' headers as it reaches
//! them, a block of gaps decoded whole on the way in, a bitmap block read
//! in place.
#![forbid(unsafe_code)]

use super::{SHIFT, WINDOW_BYTES, WINDOWS};
use crate::{Error, Isa, Unit, stream_vbyte};

/// What a list holds in a window.
pub(super) enum View<'a> {
    /// Its ids there, decoded from gaps.
    Ids(&'a [u32]),
    /// The windows' bitmap, 512 bytes a window.
    Bits(&'a [u8]),
}

/// The block a list stands in.
enum Block<'a> {
    /// Ids decoded from a block of gaps, in `List::ids`.
    Ids,
    /// Windows `first..first + bits.len() / 512`.
    Bits { first: u32, bits: &'a [u8] },
    /// Past the last block.
    End,
}

/// A list being read forward.
pub(super) struct List<'a> {
    isa: Isa,
    bytes: &'a [u8],
    /// Where the next block's header starts.
    pos: usize,
    /// Blocks not yet reached.
    left: u32,
    /// The value the next block of gaps starts from.
    prev: u32,
    /// The first window the next bitmap block can start at.
    next: u32,
    block: Block<'a>,
    ids: Vec<u32>,
    /// The first id of `ids` not yet passed.
    at: usize,
}

impl<'a> List<'a> {
    /// A list from the start of `bytes`, its block count read.
    pub(super) fn new(isa: Isa, bytes: &'a [u8]) -> Result<List<'a>, Error> {
        let mut pos = 0;
        let left = varint(bytes, &mut pos)?;
        Ok(List {
            isa,
            bytes,
            pos,
            left,
            prev: 0,
            next: 0,
            block: Block::End,
            ids: Vec::new(),
            at: 0,
        })
    }

    /// The first window at or after `w` in which the list holds ids (as
    /// gaps, or as a bitmap block's window, which may hold none if the
    /// bytes say so), reading blocks as it goes; `None` past the last.
    pub(super) fn seek(&mut self, w: u32) -> Result<Option<u32>, Error> {
        loop {
            match self.block {
                Block::Ids => {
                    let from = w << SHIFT;
                    self.at += self.ids[self.at..].partition_point(|&v| v < from);
                    if let Some(&v) = self.ids.get(self.at) {
                        return Ok(Some(v >> SHIFT));
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
            if self.left == 0 {
                self.block = Block::End;
                return Ok(None);
            }
            self.read_block()?;
        }
    }

    /// The window after the block the list stands in: the block holds no
    /// ids from there on.
    pub(super) fn end(&self) -> u32 {
        self.next
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
            _ => {
                let rest = self.ids.get(self.at..).unwrap_or(&[]);
                let end = u64::from(e) << SHIFT;
                View::Ids(&rest[..rest.partition_point(|&v| u64::from(v) < end)])
            }
        }
    }

    /// The bytes the list took, once it has been read to its end; else
    /// reads its remaining blocks.
    pub(super) fn finish(&mut self) -> Result<usize, Error> {
        while self.left > 0 {
            self.read_block()?;
        }
        Ok(self.pos)
    }

    /// Reads the next block's header (and decodes it, if it holds gaps).
    fn read_block(&mut self) -> Result<(), Error> {
        self.left -= 1;
        let at = self.pos;
        let head = varint(self.bytes, &mut self.pos)?;
        let n = head >> 1;
        if n == 0 {
            return Err(corrupt(at, "a block of no ids"));
        }
        if head & 1 == 0 {
            let len_at = self.pos;
            let len = varint(self.bytes, &mut self.pos)? as usize;
            let start = self.pos;
            if len > self.bytes.len() - start {
                return Err(truncated(len_at, len - (self.bytes.len() - start)));
            }
            let gaps = &self.bytes[start..start + len];
            // A gap takes a data byte at least, and four share a control
            // byte: a count its bytes cannot hold takes no room.
            let n = n as usize;
            if len < n + n.div_ceil(4) {
                return Err(corrupt(at, "more gaps than the block's bytes can hold"));
            }
            self.ids.clear();
            self.ids.resize(n, 0);
            let used = stream_vbyte::decode_delta_with(self.isa, gaps, &mut self.ids, self.prev)
                .map_err(|e| e.shifted(start))?;
            if used != len {
                return Err(corrupt(start + used, "bytes after a block's gaps"));
            }
            self.pos = start + len;
            self.at = 0;
            self.prev = self.ids[n - 1];
            self.next = (self.prev >> SHIFT).saturating_add(1);
            self.block = Block::Ids;
        } else {
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
        }
        Ok(())
    }
}

/// A LEB128 varint of at most five bytes, whose value fits in 32 bits.
fn varint(bytes: &[u8], pos: &mut usize) -> Result<u32, Error> {
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
