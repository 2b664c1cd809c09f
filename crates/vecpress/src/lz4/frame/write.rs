//! The frame writer: [`FrameEncoder`] cuts its input into blocks, compresses
//! each (or stores it when compression does not shrink it) and frames them.
#![forbid(unsafe_code)]

use std::io::{self, Write};

use xxhash_rust::xxh32::{Xxh32, xxh32};

use super::header::{FrameInfo, MAX_DESCRIPTOR_LEN, UNCOMPRESSED_BIT, WINDOW_SIZE};
use crate::lz4::{block, hc};

/// Writes an LZ4 frame to `W`: an [`io::Write`] adaptor.
///
/// Input is gathered into blocks of the frame's block maximum size; each full
/// block is compressed and written as soon as it is complete. [`flush`]
/// writes the pending partial block too. The frame is complete only after
/// [`finish`], which writes the end mark and content checksum and returns the
/// writer: dropping the encoder without it leaves a truncated frame.
///
/// [`flush`]: Write::flush
/// [`finish`]: FrameEncoder::finish
///
/// ```
/// use std::io::Write;
/// use vecpress::lz4::frame::{self, BlockSize, FrameEncoder, FrameInfo};
///
/// let info = FrameInfo::new()
///     .block_size(BlockSize::Max256KB)
///     .independent_blocks(false)
///     .block_checksums(true);
/// let mut enc = FrameEncoder::with_info(Vec::new(), info);
/// for line in 0..1000 {
///     writeln!(enc, "line {line} of a log file")?;
/// }
/// let bytes = enc.finish()?;
/// let text = frame::decompress(&bytes)?;
/// assert!(text.starts_with(b"line 0 of a log file\nline 1 "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct FrameEncoder<W: Write> {
    writer: W,
    info: FrameInfo,
    acceleration: u32,
    /// High-compression options, for levels from [`hc::MIN_LEVEL`] up.
    hc: Option<hc::HcOptions>,
    /// `[history | pending input]`: the history (linked blocks only) is the
    /// last 64 KiB of the content before the pending block.
    src: Vec<u8>,
    /// Where the pending input starts in `src`.
    start: usize,
    /// A compressed block.
    dst: Vec<u8>,
    content_hash: Xxh32,
    content_len: u64,
    header_written: bool,
    /// Bytes of dictionary at the start of `src` before the first block
    /// (0 without one); independent blocks start from it again.
    dict_len: usize,
}

impl<W: Write + std::fmt::Debug> std::fmt::Debug for FrameEncoder<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameEncoder")
            .field("writer", &self.writer)
            .field("info", &self.info)
            .field("acceleration", &self.acceleration)
            .field("hc", &self.hc)
            .field("content_len", &self.content_len)
            .finish_non_exhaustive()
    }
}

impl<W: Write> FrameEncoder<W> {
    /// An encoder writing a frame with the default [`FrameInfo`].
    ///
    /// ```
    /// use std::io::Write;
    /// let mut enc = vecpress::lz4::frame::FrameEncoder::new(Vec::new());
    /// enc.write_all(b"hello")?;
    /// assert_eq!(&enc.finish()?[..4], &[0x04, 0x22, 0x4d, 0x18]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(writer: W) -> FrameEncoder<W> {
        FrameEncoder::with_info(writer, FrameInfo::new())
    }

    /// An encoder writing a frame as `info` describes it. With a content
    /// size set, [`finish`](FrameEncoder::finish) fails unless exactly that
    /// many bytes were written.
    ///
    /// ```
    /// use std::io::Write;
    /// use vecpress::lz4::frame::{FrameEncoder, FrameInfo};
    ///
    /// let mut enc = FrameEncoder::with_info(Vec::new(), FrameInfo::new().content_size(Some(3)));
    /// enc.write_all(b"abc")?;
    /// let bytes = enc.finish()?;
    /// assert_eq!(vecpress::lz4::frame::decompress(&bytes)?, b"abc");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_info(writer: W, info: FrameInfo) -> FrameEncoder<W> {
        FrameEncoder {
            writer,
            info,
            acceleration: 1,
            hc: None,
            src: Vec::new(),
            start: 0,
            dst: Vec::new(),
            content_hash: Xxh32::new(0),
            content_len: 0,
            header_written: false,
            dict_len: 0,
        }
    }

    /// An encoder writing a frame as `info` describes it, compressed with
    /// the dictionary `dict` (its last 64 KiB count; see
    /// [`dict`](crate::lz4::dict)), as liblz4's
    /// `LZ4F_compressFrame_usingCDict` does: the dictionary comes before
    /// every block when blocks are independent, before the first when they
    /// are linked. The header names the dictionary by its
    /// [`dictionary_id`](crate::lz4::dict::dictionary_id) (whatever `info`
    /// says), which [`FrameDecoder::with_dictionary`] checks. Blocks are
    /// compressed with the search of
    /// [`block::compress_with_dict`](crate::lz4::block::compress_with_dict);
    /// the acceleration does not apply.
    ///
    /// [`FrameDecoder::with_dictionary`]: super::FrameDecoder::with_dictionary
    ///
    /// ```
    /// use std::io::{Read, Write};
    /// use vecpress::lz4::{dict, frame::{FrameDecoder, FrameEncoder, FrameInfo}};
    ///
    /// let d = b"INFO request served in ms; WARN slow request; ERROR timeout; ".repeat(20);
    /// let mut enc = FrameEncoder::with_dictionary(Vec::new(), FrameInfo::new(), &d);
    /// enc.write_all(b"WARN slow request: served in 950 ms")?;
    /// let bytes = enc.finish()?;
    /// let mut back = Vec::new();
    /// let mut dec = FrameDecoder::with_dictionary(&bytes[..], &d);
    /// dec.read_to_end(&mut back)?;
    /// assert_eq!(back, b"WARN slow request: served in 950 ms");
    /// assert_eq!(dec.frame_info(), None); // the frame has ended
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn with_dictionary(writer: W, info: FrameInfo, dict: &[u8]) -> FrameEncoder<W> {
        let info = info.dict_id(Some(crate::lz4::dict::dictionary_id(dict)));
        let mut enc = FrameEncoder::with_info(writer, info);
        let tail = &dict[dict.len().saturating_sub(WINDOW_SIZE)..];
        enc.src.extend_from_slice(tail);
        enc.start = tail.len();
        enc.dict_len = tail.len();
        enc
    }

    /// Sets the compression acceleration (1, the default, compresses best;
    /// larger values compress faster and less), as `LZ4_compress_fast`
    /// takes it. It is not stored in the frame. Linked blocks after the
    /// first are compressed at acceleration 1.
    ///
    /// ```
    /// use std::io::Write;
    /// use vecpress::lz4::frame::FrameEncoder;
    ///
    /// let mut enc = FrameEncoder::new(Vec::new()).with_acceleration(8);
    /// enc.write_all(&[7u8; 1000])?;
    /// let bytes = enc.finish()?;
    /// assert_eq!(vecpress::lz4::frame::decompress(&bytes)?, vec![7u8; 1000]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_acceleration(mut self, acceleration: u32) -> FrameEncoder<W> {
        self.acceleration = acceleration.max(1);
        self
    }

    /// Compresses blocks at a level of [`hc`], as `lz4 -9` or liblz4's
    /// `LZ4F_preferences_t.compressionLevel`: levels from 2 up use the
    /// high-compression parsers (12 is the highest), levels 0 and 1 the fast
    /// compressor (at the [acceleration](FrameEncoder::with_acceleration)
    /// set). Linked blocks reach back into the 64 KiB before them at every
    /// level. The level is not stored in the frame.
    ///
    /// ```
    /// use std::io::Write;
    /// use vecpress::lz4::frame::FrameEncoder;
    ///
    /// let text = b"a line of text, repeated with small changes: 1\n".repeat(500);
    /// let mut fast = FrameEncoder::new(Vec::new());
    /// fast.write_all(&text)?;
    /// let mut best = FrameEncoder::new(Vec::new()).with_level(12);
    /// best.write_all(&text)?;
    /// let (fast, best) = (fast.finish()?, best.finish()?);
    /// assert!(best.len() <= fast.len());
    /// assert_eq!(vecpress::lz4::frame::decompress(&best)?, text);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_level(self, level: u32) -> FrameEncoder<W> {
        self.with_hc_options(hc::HcOptions::new().level(level))
    }

    /// Like [`with_level`](FrameEncoder::with_level), with all the options
    /// of the high-compression parsers.
    ///
    /// ```
    /// use std::io::Write;
    /// use vecpress::lz4::{frame::FrameEncoder, hc::HcOptions};
    ///
    /// let opts = HcOptions::new().level(11).favor_decompression_speed(true);
    /// let mut enc = FrameEncoder::new(Vec::new()).with_hc_options(opts);
    /// enc.write_all(&[3u8; 5000])?;
    /// assert_eq!(vecpress::lz4::frame::decompress(&enc.finish()?)?, vec![3u8; 5000]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_hc_options(mut self, opts: hc::HcOptions) -> FrameEncoder<W> {
        self.hc = (opts.get_level() >= hc::MIN_LEVEL).then_some(opts);
        self
    }

    /// The settings this encoder writes.
    ///
    /// ```
    /// let enc = vecpress::lz4::frame::FrameEncoder::new(Vec::new());
    /// assert!(enc.frame_info().get_content_checksum());
    /// ```
    pub fn frame_info(&self) -> &FrameInfo {
        &self.info
    }

    /// The writer underneath.
    ///
    /// ```
    /// let enc = vecpress::lz4::frame::FrameEncoder::new(Vec::<u8>::new());
    /// assert!(enc.get_ref().is_empty()); // nothing is written before the first block
    /// ```
    pub fn get_ref(&self) -> &W {
        &self.writer
    }

    /// Writes the pending block, the end mark and the content checksum, and
    /// returns the writer. Fails if a declared content size was not met.
    ///
    /// ```
    /// let bytes = vecpress::lz4::frame::FrameEncoder::new(Vec::new()).finish()?;
    /// // magic, descriptor (3 bytes), end mark, content checksum
    /// assert_eq!(bytes.len(), 4 + 3 + 4 + 4);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn finish(mut self) -> io::Result<W> {
        self.write_block()?;
        if let Some(size) = self.info.get_content_size()
            && size != self.content_len
        {
            return Err(content_size_error(size, self.content_len));
        }
        self.write_header()?;
        self.writer.write_all(&0u32.to_le_bytes())?;
        if self.info.get_content_checksum() {
            let sum = self.content_hash.digest();
            self.writer.write_all(&sum.to_le_bytes())?;
        }
        self.writer.flush()?;
        Ok(self.writer)
    }

    fn write_header(&mut self) -> io::Result<()> {
        if !self.header_written {
            let mut buf = [0u8; 4 + MAX_DESCRIPTOR_LEN];
            let len = self.info.write_header(&mut buf);
            self.writer.write_all(&buf[..len])?;
            self.header_written = true;
        }
        Ok(())
    }

    /// Compresses and writes the pending input as one block, if there is any.
    fn write_block(&mut self) -> io::Result<()> {
        if self.src.len() == self.start {
            return Ok(());
        }
        self.write_header()?;
        let data = &self.src[self.start..];
        if self.info.get_content_checksum() {
            self.content_hash.update(data);
        }
        let bound = block::max_compressed_len(data.len());
        if self.dst.len() < bound {
            self.dst.resize(bound, 0);
        }
        let compressed = match (&self.hc, self.start) {
            (Some(opts), _) => hc::compress_with_prefix(&self.src, self.start, &mut self.dst, opts),
            (None, 0) => block::compress_into_with(data, &mut self.dst, self.acceleration),
            (None, _) if self.dict_len > 0 => {
                block::compress_with_prefix_searching(&self.src, self.start, &mut self.dst)
            }
            (None, _) => block::compress_with_prefix(&self.src, self.start, &mut self.dst),
        }
        .map_err(io::Error::from)?;
        // A block that does not shrink is stored as it is.
        let (stored, size_field) = if compressed < data.len() {
            (&self.dst[..compressed], compressed as u32)
        } else {
            (data, data.len() as u32 | UNCOMPRESSED_BIT)
        };
        self.writer.write_all(&size_field.to_le_bytes())?;
        self.writer.write_all(stored)?;
        if self.info.get_block_checksums() {
            self.writer.write_all(&xxh32(stored, 0).to_le_bytes())?;
        }
        if self.info.get_independent_blocks() {
            self.src.truncate(self.dict_len);
            self.start = self.dict_len;
        } else {
            let keep = self.src.len().min(WINDOW_SIZE);
            let from = self.src.len() - keep;
            self.src.copy_within(from.., 0);
            self.src.truncate(keep);
            self.start = keep;
        }
        Ok(())
    }
}

fn content_size_error(declared: u64, written: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("lz4 frame declares a content size of {declared} bytes, {written} were written"),
    )
}

impl<W: Write> Write for FrameEncoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(size) = self.info.get_content_size()
            && self.content_len.saturating_add(buf.len() as u64) > size
        {
            let written = self.content_len.saturating_add(buf.len() as u64);
            return Err(content_size_error(size, written));
        }
        let block_size = self.info.get_block_size().bytes();
        if self.src.capacity() == 0 {
            let history = if self.info.get_independent_blocks() {
                0
            } else {
                WINDOW_SIZE
            };
            self.src
                .reserve_exact(history + block_size.min(buf.len().max(1 << 12)));
        }
        let room = self.start + block_size - self.src.len();
        let take = room.min(buf.len());
        self.src.extend_from_slice(&buf[..take]);
        self.content_len += take as u64;
        if self.src.len() == self.start + block_size {
            self.write_block()?;
        }
        Ok(take)
    }

    /// Writes the pending input as a (partial) block, then flushes the writer.
    fn flush(&mut self) -> io::Result<()> {
        self.write_block()?;
        self.writer.flush()
    }
}
