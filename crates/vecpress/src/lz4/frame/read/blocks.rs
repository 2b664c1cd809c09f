//! Frames split into their blocks, for decoding on several threads:
//! [`BlockReader`] reads blocks as they are stored, in order; each
//! [`FrameBlock`] decodes on any thread; the reader then takes the decoded
//! blocks back in order and does what needs the whole content (limit,
//! content checksum and size, and the decoding of linked blocks, which needs
//! the blocks before them).
#![forbid(unsafe_code)]

use std::io::Read;
use std::sync::Arc;

use xxhash_rust::xxh32::{Xxh32, xxh32};

use super::{
    Block, Frame, FrameDecoder, FrameInfo, LEGACY_BLOCK_SIZE, LEGACY_MAGIC, MAGIC,
    UNCOMPRESSED_BIT, WINDOW_SIZE, decode_stored, is_skippable, max_output, truncated,
};
use crate::Error;
use crate::lz4::block;

mod check;

pub use check::ContentCheck;
use check::end_checks;

/// Reads LZ4 frames (and legacy and skippable ones, as [`FrameDecoder`]
/// does) block by block without decoding them, so that the blocks of a frame
/// of independent blocks can be decoded on several threads.
///
/// The caller takes each block with [`next_block`](BlockReader::next_block),
/// has it decoded with [`FrameBlock::decode`] on any thread, and gives it
/// back, in the order read, to [`finish_block`](BlockReader::finish_block):
/// that checks the limit, the frame's content size and content checksum
/// (over the whole content, in order), and decodes the blocks of linked
/// frames, which need the 64 KiB of content before them. Every error is the
/// one [`FrameDecoder`] gives for the same input, at the same offset, as long
/// as the caller reports the first error in stream order: an error of
/// `next_block` after the errors of the blocks read before it.
///
/// ```
/// use vecpress::lz4::frame::{self, BlockReader, BlockSize, FrameBlock, FrameInfo};
///
/// let text: Vec<u8> = (0..300_000u32).map(|i| (i % 97) as u8).collect();
/// let bytes = frame::compress_with(&text, FrameInfo::new().block_size(BlockSize::Max64KB));
/// let mut reader = BlockReader::new(&bytes[..]);
/// let mut blocks = Vec::new();
/// loop {
///     let mut b = FrameBlock::default();
///     if !reader.next_block(&mut b)? { break; }
///     blocks.push(b);
/// }
/// // Any thread may decode a block; here, in reverse.
/// for b in blocks.iter_mut().rev() {
///     b.decode()?;
/// }
/// let mut out = Vec::new();
/// for b in &mut blocks {
///     reader.finish_block(b)?;
///     out.extend_from_slice(b.content());
/// }
/// assert_eq!(out, text);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub struct BlockReader<R: Read> {
    dec: FrameDecoder<R>,
    /// The dictionary's last 64 KiB, shared with the blocks.
    dict: Arc<[u8]>,
    /// In-order state of the frame being finished.
    hash: Xxh32,
    produced: u64,
    /// The content checksum is left to a [`ContentCheck`] of the caller's.
    deferred: bool,
    /// The last 64 KiB of a linked frame's content.
    window: Vec<u8>,
}

/// What a [`FrameBlock`] holds.
#[derive(Clone, Copy, Debug, Default)]
enum Kind {
    /// Nothing read yet.
    #[default]
    Empty,
    /// A block of content.
    Data {
        /// Stored as it is (else an LZ4 block).
        raw: bool,
        /// Its frame's blocks are linked.
        linked: bool,
        /// Decoded with the dictionary (an LZ4 frame, not a legacy one).
        dict: bool,
        /// Offset of its size field.
        start: usize,
        /// Its frame's block maximum size.
        max: usize,
        /// Its frame's content checksum and declared size apply.
        lz4: bool,
        content_checksum: bool,
        content_size: Option<u64>,
        /// The stored checksum and its offset.
        checksum: Option<(u32, usize)>,
    },
    /// The end of an LZ4 frame.
    End {
        /// Offset of the end mark.
        start: usize,
        /// The stored content checksum and its offset.
        checksum: Option<(u32, usize)>,
        content_size: Option<u64>,
    },
}

/// One block of a frame, as stored and, once decoded, its content. Reused
/// from block to block, it keeps its buffers.
#[derive(Default)]
pub struct FrameBlock {
    kind: Kind,
    stored: Vec<u8>,
    /// `[history | content | room]`, the history only for linked blocks.
    decoded: Vec<u8>,
    content: std::ops::Range<usize>,
    decoded_yet: bool,
    dict: Option<Arc<[u8]>>,
}

impl std::fmt::Debug for FrameBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameBlock")
            .field("kind", &self.kind)
            .field("stored", &self.stored.len())
            .field("content", &self.content.len())
            .finish_non_exhaustive()
    }
}

impl FrameBlock {
    /// Checks the block's checksum and decodes it, unless it belongs to a
    /// frame of linked blocks (which [`BlockReader::finish_block`] decodes,
    /// in order). Runs on any thread.
    ///
    /// # Errors
    /// As [`FrameDecoder`] reports the block: a failed block checksum, or a
    /// corrupt block, with offsets in the input.
    pub fn decode(&mut self) -> Result<(), Error> {
        let Kind::Data {
            raw,
            linked,
            start,
            max,
            checksum,
            ..
        } = self.kind
        else {
            return Ok(());
        };
        if let Some((sum, at)) = checksum
            && xxh32(&self.stored, 0) != sum
        {
            return Err(Error::ChecksumMismatch {
                what: "block",
                offset: at,
            });
        }
        if linked || self.decoded_yet {
            return Ok(());
        }
        let cap = max.min(max_output(self.stored.len(), raw));
        if self.decoded.len() < cap {
            self.decoded.resize(cap, 0);
        }
        let block = Block {
            raw,
            data_at: start + 4,
            linked: false,
            history: 0,
            max,
        };
        let dict = self.dict.as_deref().unwrap_or(&[]);
        let n = decode_stored(&self.stored, &mut self.decoded[..cap], block, dict)?;
        self.content = 0..n;
        self.decoded_yet = true;
        Ok(())
    }

    /// The decoded content (empty for the end of a frame), once
    /// [`BlockReader::finish_block`] has taken the block.
    pub fn content(&self) -> &[u8] {
        &self.decoded[self.content.clone()]
    }

    /// Whether the block belongs to a frame of linked blocks, which are
    /// decoded in order by [`BlockReader::finish_block`], on its thread.
    pub fn is_linked(&self) -> bool {
        matches!(self.kind, Kind::Data { linked: true, .. })
    }

    /// Whether this is the end of an LZ4 frame rather than a block.
    pub fn is_frame_end(&self) -> bool {
        matches!(self.kind, Kind::End { .. })
    }
}

impl<R: Read> BlockReader<R> {
    /// A reader with no limit on the output size.
    pub fn new(reader: R) -> BlockReader<R> {
        BlockReader::from_decoder(FrameDecoder::new(reader))
    }

    /// A reader for frames compressed with the dictionary `dict`, as
    /// [`FrameDecoder::with_dictionary`] takes it.
    ///
    /// ```
    /// use vecpress::lz4::frame::{self, BlockReader, FrameBlock};
    ///
    /// let d = b"a dictionary of words that come back: words, words".to_vec();
    /// let bytes = frame::compress_with_dict(b"words that come back", &d);
    /// let mut reader = BlockReader::with_dictionary(&bytes[..], &d);
    /// let mut b = FrameBlock::default();
    /// let mut out = Vec::new();
    /// while reader.next_block(&mut b)? {
    ///     b.decode()?;
    ///     reader.finish_block(&mut b)?;
    ///     out.extend_from_slice(b.content());
    /// }
    /// assert_eq!(out, b"words that come back");
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    pub fn with_dictionary(reader: R, dict: &[u8]) -> BlockReader<R> {
        BlockReader::from_decoder(FrameDecoder::with_dictionary(reader, dict))
    }

    fn from_decoder(dec: FrameDecoder<R>) -> BlockReader<R> {
        BlockReader {
            dict: Arc::from(&dec.dict[..]),
            dec,
            hash: Xxh32::new(0),
            produced: 0,
            deferred: false,
            window: Vec::new(),
        }
    }

    /// Leaves the content checksum, and the checks at the end of each frame
    /// (its checksum, then its declared size), to a [`ContentCheck`] that
    /// the caller feeds every block after [`finish_block`](BlockReader::finish_block),
    /// in order. The content can then be hashed on another thread than the
    /// one reading: with this, `finish_block` costs next to nothing for
    /// independent blocks. The errors are the same, at the same offsets.
    ///
    /// ```
    /// use vecpress::lz4::frame::{self, BlockReader, ContentCheck, FrameBlock, FrameInfo};
    ///
    /// let text = b"one frame, then another frame".repeat(100);
    /// let mut bytes = frame::compress_with(&text, FrameInfo::new().content_checksum(true));
    /// bytes.extend(frame::compress_with(b"the second", FrameInfo::new().content_checksum(true)));
    /// let mut reader = BlockReader::new(&bytes[..]).defer_content_checks();
    /// let (mut b, mut check, mut out) = (FrameBlock::default(), ContentCheck::new(), Vec::new());
    /// while reader.next_block(&mut b)? {
    ///     b.decode()?;
    ///     reader.finish_block(&mut b)?;
    ///     check.check(&b)?; // possibly on another thread, in order
    ///     out.extend_from_slice(b.content());
    /// }
    /// assert_eq!(out.len(), text.len() + 10);
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    pub fn defer_content_checks(mut self) -> BlockReader<R> {
        self.deferred = true;
        self
    }

    /// Sets the most bytes produced over all frames, as
    /// [`FrameDecoder::with_limit`] does.
    ///
    /// ```
    /// use vecpress::{lz4::frame::{self, BlockReader, FrameBlock}, Error};
    ///
    /// let bytes = frame::compress(&[0u8; 5000]);
    /// let mut reader = BlockReader::new(&bytes[..]).limit(4096);
    /// let err = reader.next_block(&mut FrameBlock::default()).unwrap_err();
    /// assert!(matches!(err, Error::LimitExceeded { requested: 5000, limit: 4096, .. }));
    /// ```
    pub fn limit(mut self, max_output: u64) -> BlockReader<R> {
        self.dec.limit = max_output;
        self
    }

    /// The header of the LZ4 frame being read (`None` between frames and in
    /// legacy frames).
    pub fn frame_info(&self) -> Option<&FrameInfo> {
        self.dec.frame_info()
    }

    /// Bytes consumed from the reader so far.
    pub fn position(&self) -> usize {
        self.dec.pos
    }

    /// Reads the next block, or the end of an LZ4 frame, into `block`
    /// (decoded by [`FrameBlock::decode`], then given to
    /// [`finish_block`](BlockReader::finish_block)); `false` at the end of
    /// the input.
    ///
    /// # Errors
    /// What [`FrameDecoder`] reports on the frame's structure: a bad magic
    /// number or header, a missing dictionary, a block larger than the
    /// frame's maximum, truncation.
    pub fn next_block(&mut self, block: &mut FrameBlock) -> Result<bool, Error> {
        block.kind = Kind::Empty;
        block.content = 0..0;
        block.decoded_yet = false;
        block.dict = None;
        loop {
            match &self.dec.frame {
                Frame::None => {
                    let (magic, start) = match self.dec.next_magic.take() {
                        Some(m) => m,
                        None => {
                            let start = self.dec.pos;
                            let mut b = [0u8; 4];
                            let got = self.dec.read_up_to(&mut b)?;
                            if got == 0 && self.dec.frames > 0 {
                                return Ok(false);
                            }
                            if got < 4 {
                                return Err(truncated(start, 4 - got));
                            }
                            (u32::from_le_bytes(b), start)
                        }
                    };
                    self.dec.frames += 1;
                    self.dec.start_frame(magic, start)?;
                }
                Frame::Lz4 { info, .. } => {
                    let info = *info;
                    return self.lz4_piece(block, info).map(|()| true);
                }
                Frame::Legacy => {
                    if self.legacy_piece(block)? {
                        return Ok(true);
                    }
                }
            }
        }
    }

    /// Reads a block or the end of an LZ4 frame.
    fn lz4_piece(&mut self, block: &mut FrameBlock, info: FrameInfo) -> Result<(), Error> {
        let start = self.dec.pos;
        let field = self.dec.read_u32()?;
        if field == 0 {
            let checksum = if info.get_content_checksum() {
                let at = self.dec.pos;
                Some((self.dec.read_u32()?, at))
            } else {
                None
            };
            self.dec.frame = Frame::None;
            block.kind = Kind::End {
                start,
                checksum,
                content_size: info.get_content_size(),
            };
            return Ok(());
        }
        let len = (field & !UNCOMPRESSED_BIT) as usize;
        if len > info.get_block_size().bytes() {
            return Err(Error::Corrupt {
                offset: start,
                what: "block size above the frame's maximum",
            });
        }
        self.read_stored(block, len, start)?;
        let checksum = if info.get_block_checksums() {
            let at = self.dec.pos;
            Some((self.dec.read_u32()?, at))
        } else {
            None
        };
        block.dict = (!self.dict.is_empty()).then(|| Arc::clone(&self.dict));
        block.kind = Kind::Data {
            raw: field & UNCOMPRESSED_BIT != 0,
            linked: !info.get_independent_blocks(),
            dict: true,
            start,
            max: info.get_block_size().bytes(),
            lz4: true,
            content_checksum: info.get_content_checksum(),
            content_size: info.get_content_size(),
            checksum,
        };
        Ok(())
    }

    /// Reads a block of a legacy frame; `false` when the frame has ended.
    fn legacy_piece(&mut self, block: &mut FrameBlock) -> Result<bool, Error> {
        let start = self.dec.pos;
        let mut b = [0u8; 4];
        let got = self.dec.read_up_to(&mut b)?;
        if got == 0 {
            self.dec.frame = Frame::None;
            return Ok(false);
        }
        if got < 4 {
            return Err(truncated(start, 4 - got));
        }
        let field = u32::from_le_bytes(b);
        if field == MAGIC || field == LEGACY_MAGIC || is_skippable(field) {
            self.dec.next_magic = Some((field, start));
            self.dec.frame = Frame::None;
            return Ok(false);
        }
        let len = field as usize;
        if len > block::max_compressed_len(LEGACY_BLOCK_SIZE) {
            return Err(Error::Corrupt {
                offset: start,
                what: "legacy block size out of range",
            });
        }
        self.read_stored(block, len, start)?;
        block.kind = Kind::Data {
            raw: false,
            linked: false,
            dict: false,
            start,
            max: LEGACY_BLOCK_SIZE,
            lz4: false,
            content_checksum: false,
            content_size: None,
            checksum: None,
        };
        Ok(true)
    }

    /// Reads `len` stored bytes into the block, through the decoder's
    /// buffer (swapped, not copied).
    fn read_stored(
        &mut self,
        block: &mut FrameBlock,
        len: usize,
        start: usize,
    ) -> Result<(), Error> {
        std::mem::swap(&mut self.dec.cbuf, &mut block.stored);
        let r = self.dec.read_stored(len, start);
        std::mem::swap(&mut self.dec.cbuf, &mut block.stored);
        r
    }

    /// Takes back a block read by [`next_block`](BlockReader::next_block)
    /// and decoded by [`FrameBlock::decode`], in the order read: decodes it
    /// if its blocks are linked, counts its content against the limit and
    /// the frame's declared size and feeds it to the content checksum; at
    /// the end of a frame, checks them.
    ///
    /// # Errors
    /// As [`FrameDecoder`] reports them: a corrupt linked block, the limit
    /// passed, a content size or content checksum that does not match.
    pub fn finish_block(&mut self, block: &mut FrameBlock) -> Result<(), Error> {
        match block.kind {
            Kind::Empty => Ok(()),
            Kind::End {
                start,
                checksum,
                content_size,
            } => {
                let hash = std::mem::replace(&mut self.hash, Xxh32::new(0));
                let produced = std::mem::take(&mut self.produced);
                self.window.clear();
                if self.deferred {
                    return Ok(());
                }
                end_checks(&hash, produced, start, checksum, content_size)
            }
            Kind::Data {
                raw,
                linked,
                dict,
                start,
                max,
                lz4,
                content_checksum,
                content_size,
                ..
            } => {
                if linked {
                    self.decode_linked(block, raw, dict, start, max)?;
                } else if !block.decoded_yet {
                    block.decode()?;
                }
                let n = block.content.len();
                self.dec.count_output(n)?;
                if !lz4 {
                    return Ok(());
                }
                self.produced += n as u64;
                if content_checksum && !self.deferred {
                    self.hash.update(block.content());
                }
                if content_size.is_some_and(|size| self.produced > size) {
                    return Err(Error::Corrupt {
                        offset: start,
                        what: "content larger than its declared size",
                    });
                }
                Ok(())
            }
        }
    }

    /// Decodes a block of a linked frame after the window of content before
    /// it, then moves the window on.
    fn decode_linked(
        &mut self,
        block: &mut FrameBlock,
        raw: bool,
        dict: bool,
        start: usize,
        max: usize,
    ) -> Result<(), Error> {
        let history = self.window.len();
        let cap = max.min(max_output(block.stored.len(), raw));
        if block.decoded.len() < history + cap {
            block.decoded.resize(history + cap, 0);
        }
        block.decoded[..history].copy_from_slice(&self.window);
        let b = Block {
            raw,
            data_at: start + 4,
            linked: true,
            history,
            max,
        };
        let d: &[u8] = if dict { &self.dict } else { &[] };
        let n = decode_stored(&block.stored, &mut block.decoded[..history + cap], b, d)?;
        block.content = history..history + n;
        block.decoded_yet = true;
        let end = history + n;
        let from = end.saturating_sub(WINDOW_SIZE);
        self.window.clear();
        self.window.extend_from_slice(&block.decoded[from..end]);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
