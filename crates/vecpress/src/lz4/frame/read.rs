//! The frame reader: [`FrameDecoder`] reads frames (LZ4, skippable, legacy)
//! one block at a time and checks every checksum and size they carry.
#![forbid(unsafe_code)]

use std::io::{self, BufRead, Read};

use xxhash_rust::xxh32::Xxh32;

pub(super) use super::decode::Target;
use super::decode::{Block, decode_stored, max_output};
use super::header::{
    FrameInfo, LEGACY_BLOCK_SIZE, LEGACY_MAGIC, MAGIC, MAX_DESCRIPTOR_LEN, UNCOMPRESSED_BIT,
    WINDOW_SIZE, descriptor_len, is_skippable, parse_descriptor,
};
use crate::lz4::block;
use crate::{Error, Unit};

mod blocks;
mod pair;
mod pieces;

pub use blocks::{BlockReader, ContentCheck, FrameBlock};

/// Reads LZ4 frames from `R` and gives their content: an [`io::Read`]
/// adaptor.
///
/// It decodes concatenated frames in order: LZ4 frames with independent or
/// linked blocks, skippable frames (skipped), and legacy frames. It checks
/// the header checksum, block and content checksums when the frame has them,
/// block sizes against the declared maximum, and the declared content size
/// against what the frame holds. Errors come out of `read` as
/// [`io::Error`]s of kind `InvalidData` wrapping a [`vecpress::Error`](Error)
/// (`Error::from(io_error)` unwraps it), whose offsets count bytes from the
/// start of the reader.
///
/// Memory stays bounded whatever the input says: one block of the frame's
/// maximum size (4 MiB at most, 8 MiB for legacy frames), its compressed
/// form, and a 64 KiB window for linked blocks; reading ahead
/// ([`read_ahead`](FrameDecoder::read_ahead)), two compressed blocks and,
/// for blocks of up to 1 MiB, two decoded ones. An error is final: later
/// reads repeat it.
///
/// ```
/// use std::io::Read;
/// use vecpress::lz4::frame::{self, FrameDecoder};
///
/// let bytes = frame::compress(b"a frame read through io::Read");
/// let mut text = String::new();
/// FrameDecoder::new(&bytes[..]).read_to_string(&mut text)?;
/// assert_eq!(text, "a frame read through io::Read");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct FrameDecoder<R: Read> {
    reader: R,
    /// Bytes consumed from `reader`: error offsets count from here.
    pos: usize,
    limit: u64,
    /// Bytes produced over all frames.
    produced: u64,
    frames: u64,
    frame: Frame,
    /// A magic number that ended a legacy frame, with its offset.
    next_magic: Option<(u32, usize)>,
    /// `[history | decoded block | room]`; the reader has yet to take
    /// `buf[out_pos..out_end]`.
    buf: Vec<u8>,
    out_pos: usize,
    out_end: usize,
    /// One block as stored.
    cbuf: Vec<u8>,
    /// Whether blocks of independent frames are decoded two at a time.
    read_ahead: bool,
    /// The piece read after the block being decoded, or the error reading
    /// it: a block waits in `cbuf2`.
    ahead: Option<Result<Piece, Error>>,
    cbuf2: Vec<u8>,
    failed: Option<Error>,
    /// The dictionary's last 64 KiB (empty without one), and its id.
    dict: Vec<u8>,
    dict_id: Option<u32>,
}

/// What comes next in an LZ4 frame, its size field at `start`.
enum Piece {
    /// A block, its data read (and its checksum checked); `field` is its
    /// size field.
    Block { field: u32, start: usize },
    /// The end mark.
    End { start: usize },
}

enum Frame {
    /// Between frames: a magic number comes next.
    None,
    Lz4 {
        info: FrameInfo,
        hash: Xxh32,
        produced: u64,
    },
    Legacy,
}

impl<R: Read + std::fmt::Debug> std::fmt::Debug for FrameDecoder<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameDecoder")
            .field("reader", &self.reader)
            .field("position", &self.pos)
            .field("limit", &self.limit)
            .field("produced", &self.produced)
            .field("frame_info", &self.frame_info())
            .finish_non_exhaustive()
    }
}

impl<R: Read> FrameDecoder<R> {
    /// A decoder with no limit on the output size.
    ///
    /// ```
    /// use std::io::Read;
    /// let bytes = vecpress::lz4::frame::compress(&[1, 2, 3]);
    /// let mut out = Vec::new();
    /// vecpress::lz4::frame::FrameDecoder::new(&bytes[..]).read_to_end(&mut out)?;
    /// assert_eq!(out, [1, 2, 3]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(reader: R) -> FrameDecoder<R> {
        FrameDecoder::with_limit(reader, u64::MAX)
    }

    /// A decoder that produces at most `max_output` bytes over all frames: a
    /// frame declaring a larger content size fails before any block is
    /// decoded, and output beyond the limit fails, with
    /// [`Error::LimitExceeded`].
    ///
    /// ```
    /// use std::io::Read;
    /// use vecpress::{lz4::frame, Error};
    ///
    /// let bytes = frame::compress(&[0u8; 5000]);
    /// let mut out = Vec::new();
    /// let err = frame::FrameDecoder::with_limit(&bytes[..], 4096).read_to_end(&mut out).unwrap_err();
    /// assert!(matches!(Error::from(err), Error::LimitExceeded { requested: 5000, limit: 4096, .. }));
    /// ```
    pub fn with_limit(reader: R, max_output: u64) -> FrameDecoder<R> {
        FrameDecoder {
            reader,
            pos: 0,
            limit: max_output,
            produced: 0,
            frames: 0,
            frame: Frame::None,
            next_magic: None,
            buf: Vec::new(),
            out_pos: 0,
            out_end: 0,
            cbuf: Vec::new(),
            read_ahead: false,
            ahead: None,
            cbuf2: Vec::new(),
            failed: None,
            dict: Vec::new(),
            dict_id: None,
        }
    }

    /// A decoder for frames compressed with the dictionary `dict` (its last
    /// 64 KiB count; see [`dict`](crate::lz4::dict)), as liblz4's
    /// `LZ4F_decompress_usingDict` reads them: the dictionary comes before
    /// every block of a frame of independent blocks, and before the first
    /// block of a frame of linked ones. A frame whose header names a
    /// dictionary id other than [`dictionary_id`]`(dict)` fails with
    /// [`Error::DictionaryMismatch`] before any of its blocks is decoded; a
    /// frame that names none is decoded with `dict`.
    ///
    /// A decoder without a dictionary ([`new`](FrameDecoder::new),
    /// [`with_limit`](FrameDecoder::with_limit)) fails likewise on a frame
    /// that names one.
    ///
    /// [`dictionary_id`]: crate::lz4::dict::dictionary_id
    ///
    /// ```
    /// use std::io::Read;
    /// use vecpress::{lz4::frame::{self, FrameDecoder}, Error};
    ///
    /// let dict = b"{\"user\": \"\", \"action\": \"login\", \"ok\": true}".repeat(3);
    /// let bytes = frame::compress_with_dict(b"{\"user\": \"ann\", \"action\": \"login\", \"ok\": true}", &dict);
    /// let mut text = String::new();
    /// FrameDecoder::with_dictionary(&bytes[..], &dict).read_to_string(&mut text)?;
    /// assert!(text.starts_with("{\"user\": \"ann\""));
    /// let err = FrameDecoder::new(&bytes[..]).read_to_end(&mut Vec::new()).unwrap_err();
    /// assert!(matches!(Error::from(err), Error::DictionaryMismatch { given: None, .. }));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_dictionary(reader: R, dict: &[u8]) -> FrameDecoder<R> {
        let mut dec = FrameDecoder::new(reader);
        dec.dict = dict[dict.len().saturating_sub(WINDOW_SIZE)..].to_vec();
        dec.dict_id = Some(crate::lz4::dict::dictionary_id(dict));
        dec
    }

    /// Sets the most bytes this decoder produces over all frames, as
    /// [`with_limit`](FrameDecoder::with_limit) does: for a decoder made
    /// with [`with_dictionary`](FrameDecoder::with_dictionary).
    ///
    /// ```
    /// use std::io::Read;
    /// use vecpress::{lz4::frame::{self, FrameDecoder}, Error};
    ///
    /// let dict = b"header: value; ".repeat(4);
    /// let bytes = frame::compress_with_dict(&[7u8; 5000], &dict);
    /// let mut dec = FrameDecoder::with_dictionary(&bytes[..], &dict).limit(4096);
    /// let err = dec.read_to_end(&mut Vec::new()).unwrap_err();
    /// assert!(matches!(Error::from(err), Error::LimitExceeded { requested: 5000, limit: 4096, .. }));
    /// ```
    pub fn limit(mut self, max_output: u64) -> FrameDecoder<R> {
        self.limit = max_output;
        self
    }

    /// The header of the LZ4 frame being read, once its header has been
    /// read (`None` between frames and in legacy frames).
    ///
    /// ```
    /// use std::io::Read;
    /// use vecpress::lz4::frame::{self, FrameDecoder};
    ///
    /// let bytes = frame::compress(b"abc");
    /// let mut dec = FrameDecoder::new(&bytes[..]);
    /// assert!(dec.frame_info().is_none());
    /// let mut first = [0u8; 1];
    /// dec.read_exact(&mut first)?;
    /// assert_eq!(dec.frame_info().unwrap().get_content_size(), Some(3));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn frame_info(&self) -> Option<&FrameInfo> {
        match &self.frame {
            Frame::Lz4 { info, .. } => Some(info),
            _ => None,
        }
    }

    /// The decoded bytes the reader has yet to take.
    pub(super) fn pending(&self) -> &[u8] {
        &self.buf[self.out_pos..self.out_end]
    }

    /// Bytes consumed from the reader so far.
    ///
    /// ```
    /// use std::io::Read;
    /// let bytes = vecpress::lz4::frame::compress(b"abc");
    /// let mut dec = vecpress::lz4::frame::FrameDecoder::new(&bytes[..]);
    /// dec.read_to_end(&mut Vec::new())?;
    /// assert_eq!(dec.position(), bytes.len());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The reader underneath.
    ///
    /// ```
    /// let dec = vecpress::lz4::frame::FrameDecoder::new(&[1u8, 2][..]);
    /// assert_eq!(dec.into_inner(), &[1, 2]);
    /// ```
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// Reads until `buf` is full or the reader ends; returns the count.
    fn read_up_to(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        let mut got = 0;
        while got < buf.len() {
            match self.reader.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        self.pos = self.pos.saturating_add(got);
        Ok(got)
    }

    fn read_u32(&mut self) -> Result<u32, Error> {
        let mut b = [0u8; 4];
        let start = self.pos;
        let got = self.read_up_to(&mut b)?;
        if got < 4 {
            return Err(truncated(start, 4 - got));
        }
        Ok(u32::from_le_bytes(b))
    }

    /// Reads `len` bytes into `cbuf`; a short read is reported against the
    /// piece that starts at `start`.
    fn read_stored(&mut self, len: usize, start: usize) -> Result<(), Error> {
        // `len` is at most the block maximum size (checked by the callers).
        self.cbuf.clear();
        self.cbuf.reserve_exact(len);
        let want = len as u64;
        let got = (&mut self.reader).take(want).read_to_end(&mut self.cbuf)?;
        self.pos = self.pos.saturating_add(got);
        if got < len {
            return Err(truncated(start, len - got));
        }
        Ok(())
    }

    /// Decodes the next block into `buf[out_pos..out_end]`; `false` at the
    /// end of the input.
    pub(super) fn next_block(&mut self) -> Result<bool, Error> {
        self.next_block_to(&mut Target::Own).map(|n| n.is_some())
    }

    /// Decodes the next block to `target`; returns its length, `None` at the
    /// end of the input.
    pub(super) fn next_block_to(
        &mut self,
        target: &mut Target<'_>,
    ) -> Result<Option<usize>, Error> {
        loop {
            match &mut self.frame {
                Frame::None => {
                    let (magic, start) = match self.next_magic.take() {
                        Some(m) => m,
                        None => {
                            let start = self.pos;
                            let mut b = [0u8; 4];
                            let got = self.read_up_to(&mut b)?;
                            if got == 0 && self.frames > 0 {
                                return Ok(None);
                            }
                            if got < 4 {
                                return Err(truncated(start, 4 - got));
                            }
                            (u32::from_le_bytes(b), start)
                        }
                    };
                    self.frames += 1;
                    self.start_frame(magic, start)?;
                }
                Frame::Lz4 { .. } => {
                    if let Some(n) = self.lz4_block(target)? {
                        return Ok(Some(n));
                    }
                }
                Frame::Legacy => {
                    if let Some(n) = self.legacy_block(target)? {
                        return Ok(Some(n));
                    }
                }
            }
        }
    }

    fn start_frame(&mut self, magic: u32, start: usize) -> Result<(), Error> {
        if magic == MAGIC {
            let mut desc = [0u8; MAX_DESCRIPTOR_LEN];
            let got = self.read_up_to(&mut desc[..2])?;
            if got < 2 {
                return Err(truncated(start, 2 - got));
            }
            let len = descriptor_len(desc[0]);
            let got = self.read_up_to(&mut desc[2..len])?;
            if got < len - 2 {
                return Err(truncated(start, len - 2 - got));
            }
            let info = parse_descriptor(&desc[..len], start + 4)?;
            if let Some(needed) = info.get_dict_id()
                && self.dict_id != Some(needed)
            {
                return Err(Error::DictionaryMismatch {
                    needed,
                    given: self.dict_id,
                });
            }
            if let Some(size) = info.get_content_size() {
                self.check_limit(size)?;
            }
            self.out_pos = 0;
            self.out_end = 0;
            self.frame = Frame::Lz4 {
                info,
                hash: Xxh32::new(0),
                produced: 0,
            };
        } else if magic == LEGACY_MAGIC {
            self.out_pos = 0;
            self.out_end = 0;
            self.frame = Frame::Legacy;
        } else if is_skippable(magic) {
            let size = self.read_u32()? as usize;
            let mut sink = io::sink();
            let got = io::copy(&mut (&mut self.reader).take(size as u64), &mut sink)? as usize;
            self.pos = self.pos.saturating_add(got);
            if got < size {
                return Err(truncated(start, size - got));
            }
        } else {
            return Err(Error::Corrupt {
                offset: start,
                what: "unknown magic number",
            });
        }
        Ok(())
    }

    /// Fails if `more` bytes of output would pass the limit.
    fn check_limit(&self, more: u64) -> Result<(), Error> {
        let total = self.produced.saturating_add(more);
        if total > self.limit {
            return Err(Error::LimitExceeded {
                what: "decompressed size",
                requested: usize::try_from(total).unwrap_or(usize::MAX),
                limit: usize::try_from(self.limit).unwrap_or(usize::MAX),
            });
        }
        Ok(())
    }

    /// Counts `n` bytes of output, failing if they pass the limit.
    fn count_output(&mut self, n: usize) -> Result<(), Error> {
        self.check_limit(n as u64)?;
        self.produced += n as u64;
        Ok(())
    }

    /// Decodes the block in `cbuf` to `target`; returns its length (the
    /// caller counts it).
    fn emit(&mut self, target: &mut Target<'_>, block: Block) -> Result<usize, Error> {
        let history = block.history;
        // Legacy frames take no dictionary.
        let dict: &[u8] = match self.frame {
            Frame::Lz4 { .. } => &self.dict,
            _ => &[],
        };
        let n = match target {
            Target::Own => {
                let cap = block.max.min(max_output(self.cbuf.len(), block.raw));
                let linked_room = if block.linked { WINDOW_SIZE } else { 0 };
                if self.buf.len() < linked_room + cap {
                    // Sized for the first block (short frames stay small),
                    // then for the largest block at once.
                    let grow = if self.buf.is_empty() { cap } else { block.max };
                    self.buf.resize(linked_room + grow, 0);
                }
                // The window is the end of what the last block left.
                self.buf
                    .copy_within(self.out_end - history..self.out_end, 0);
                let out = &mut self.buf[..history + cap];
                let n = decode_stored(&self.cbuf, out, block, dict)?;
                self.out_pos = history;
                self.out_end = history + n;
                n
            }
            Target::Slice(dst, pos) => {
                let end = dst.len().min(*pos + block.max);
                match decode_stored(&self.cbuf, &mut dst[*pos - history..end], block, dict) {
                    Ok(n) => n,
                    Err(err) if end == *pos + block.max => return Err(err),
                    Err(_) => {
                        // The slice was shorter than a block: see whether
                        // the block is sound, and how long, in our buffer.
                        if self.buf.len() < history + block.max {
                            self.buf.resize(history + block.max, 0);
                        }
                        self.buf[..history].copy_from_slice(&dst[*pos - history..*pos]);
                        let out = &mut self.buf[..history + block.max];
                        let n = decode_stored(&self.cbuf, out, block, dict)?;
                        return Err(Error::OutputTooSmall {
                            needed: *pos + n,
                            actual: dst.len(),
                        });
                    }
                }
            }
        };
        Ok(n)
    }

    /// Reads one block of a legacy frame; `false` when the frame has ended
    /// (at the end of the input or at the magic number of the next frame).
    fn legacy_block(&mut self, target: &mut Target<'_>) -> Result<Option<usize>, Error> {
        let start = self.pos;
        let mut b = [0u8; 4];
        let got = self.read_up_to(&mut b)?;
        if got == 0 {
            self.frame = Frame::None;
            return Ok(None);
        }
        if got < 4 {
            return Err(truncated(start, 4 - got));
        }
        let field = u32::from_le_bytes(b);
        if field == MAGIC || field == LEGACY_MAGIC || is_skippable(field) {
            self.next_magic = Some((field, start));
            self.frame = Frame::None;
            return Ok(None);
        }
        let len = field as usize;
        if len > block::max_compressed_len(LEGACY_BLOCK_SIZE) {
            return Err(Error::Corrupt {
                offset: start,
                what: "legacy block size out of range",
            });
        }
        self.read_stored(len, start)?;
        let block = Block {
            raw: false,
            data_at: start + 4,
            linked: false,
            history: 0,
            max: LEGACY_BLOCK_SIZE,
        };
        let n = self.emit(target, block)?;
        self.count_output(n)?;
        Ok(Some(n))
    }
}

fn truncated(offset: usize, needed: usize) -> Error {
    Error::Truncated {
        offset,
        needed,
        unit: Unit::Bytes,
    }
}

impl<R: Read> Read for FrameDecoder<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        let avail = self.fill_buf()?;
        let n = out.len().min(avail.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

/// The decoded block is the buffer: `fill_buf` hands out the rest of the
/// current block (empty at the end of the input) without copying.
///
/// ```
/// use std::io::BufRead;
/// let bytes = vecpress::lz4::frame::compress(b"line one\nline two\n");
/// let dec = vecpress::lz4::frame::FrameDecoder::new(&bytes[..]);
/// let lines: Vec<String> = dec.lines().collect::<Result<_, _>>()?;
/// assert_eq!(lines, ["line one", "line two"]);
/// # Ok::<(), std::io::Error>(())
/// ```
impl<R: Read> BufRead for FrameDecoder<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if let Some(err) = &self.failed {
            return Err(err.clone().into());
        }
        while self.out_pos == self.out_end {
            match self.next_block() {
                Ok(true) => {}
                Ok(false) => break,
                Err(err) => {
                    self.failed = Some(err.clone());
                    return Err(err.into());
                }
            }
        }
        Ok(&self.buf[self.out_pos..self.out_end])
    }

    fn consume(&mut self, amt: usize) {
        self.out_pos = (self.out_pos + amt).min(self.out_end);
    }
}
