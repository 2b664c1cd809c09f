//! Frames of independent blocks written a block at a time by the caller:
//! [`BlockEncoder`] compresses any block on any thread, and the caller joins
//! header, blocks (in order) and end.
#![forbid(unsafe_code)]

use std::sync::Arc;

use xxhash_rust::xxh32::xxh32;

use super::header::{FrameInfo, MAX_DESCRIPTOR_LEN, UNCOMPRESSED_BIT, WINDOW_SIZE};
use crate::Error;
use crate::lz4::{block, hc};

/// Compresses the blocks of a frame of independent blocks one by one,
/// `&self` only, so that several threads can share it; the bytes are those
/// [`FrameEncoder`](super::FrameEncoder) writes for the same input, settings
/// and block cuts.
///
/// A frame is [`header`](BlockEncoder::header), then each block of
/// [`FrameInfo::get_block_size`] bytes of content (the last one shorter)
/// through [`encode`](BlockEncoder::encode), in order, then
/// [`end`](BlockEncoder::end) with the xxh32 (seed 0) of the whole content.
///
/// ```
/// use vecpress::lz4::frame::{self, BlockEncoder, BlockSize, FrameInfo};
///
/// let text = b"independent blocks, one per thread; ".repeat(5000);
/// let info = FrameInfo::new().block_size(BlockSize::Max64KB);
/// let enc = BlockEncoder::new(info);
/// let mut bytes = enc.header();
/// let (mut piece, mut scratch) = (Vec::new(), Vec::new());
/// for chunk in text.chunks(BlockSize::Max64KB.bytes()) {
///     let n = enc.encode(chunk, &mut piece, &mut scratch)?; // on any thread
///     bytes.extend_from_slice(&piece[..n]);
/// }
/// bytes.extend(enc.end(xxhash_rust::xxh32::xxh32(&text, 0)));
/// assert_eq!(bytes, frame::compress_with(&text, info));
/// assert_eq!(frame::decompress(&bytes)?, text);
/// # Ok::<(), vecpress::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct BlockEncoder {
    info: FrameInfo,
    acceleration: u32,
    hc: Option<hc::HcOptions>,
    /// The dictionary's last 64 KiB (empty without one).
    dict: Arc<[u8]>,
}

impl BlockEncoder {
    /// An encoder of frames as `info` describes them, its blocks made
    /// independent whatever `info` says.
    pub fn new(info: FrameInfo) -> BlockEncoder {
        BlockEncoder {
            info: info.independent_blocks(true),
            acceleration: 1,
            hc: None,
            dict: Arc::from(&[][..]),
        }
    }

    /// An encoder whose blocks are compressed with the dictionary `dict`, as
    /// [`FrameEncoder::with_dictionary`](super::FrameEncoder::with_dictionary)
    /// does it; the header names the dictionary's id.
    pub fn with_dictionary(info: FrameInfo, dict: &[u8]) -> BlockEncoder {
        let info = info.dict_id(Some(crate::lz4::dict::dictionary_id(dict)));
        let mut enc = BlockEncoder::new(info);
        enc.dict = Arc::from(&dict[dict.len().saturating_sub(WINDOW_SIZE)..]);
        enc
    }

    /// Compresses at `level`, as
    /// [`FrameEncoder::with_level`](super::FrameEncoder::with_level).
    pub fn with_level(mut self, level: u32) -> BlockEncoder {
        let opts = hc::HcOptions::new().level(level);
        self.hc = (opts.get_level() >= hc::MIN_LEVEL).then_some(opts);
        self
    }

    /// Sets the acceleration of the fast compressor, as
    /// [`FrameEncoder::with_acceleration`](super::FrameEncoder::with_acceleration).
    pub fn with_acceleration(mut self, acceleration: u32) -> BlockEncoder {
        self.acceleration = acceleration.max(1);
        self
    }

    /// The settings the frame's header records.
    pub fn frame_info(&self) -> &FrameInfo {
        &self.info
    }

    /// The magic number and frame descriptor.
    pub fn header(&self) -> Vec<u8> {
        let mut buf = [0u8; 4 + MAX_DESCRIPTOR_LEN];
        let len = self.info.write_header(&mut buf);
        buf[..len].to_vec()
    }

    /// Compresses `src`, one block of content (at most the frame's block
    /// size; empty gives nothing), into the start of `out` as the frame
    /// stores it: size field, data (stored as it is when compression does
    /// not shrink it) and block checksum if the frame has them; returns its
    /// length. `out` is grown to the worst case and kept so (no zeroing from
    /// block to block); `scratch` is a buffer reused from call to call.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `src` is larger than the frame's block
    /// size.
    pub fn encode(
        &self,
        src: &[u8],
        out: &mut Vec<u8>,
        scratch: &mut Vec<u8>,
    ) -> Result<usize, Error> {
        if src.is_empty() {
            return Ok(0);
        }
        if src.len() > self.info.get_block_size().bytes() {
            return Err(Error::InvalidArgument {
                what: "block larger than the frame's block size",
                value: src.len(),
            });
        }
        let bound = block::max_compressed_len(src.len());
        if out.len() < 4 + bound + 4 {
            out.resize(4 + bound + 4, 0);
        }
        let dst = &mut out[4..4 + bound];
        let compressed = if self.dict.is_empty() {
            match &self.hc {
                Some(opts) => hc::compress_with_prefix(src, 0, dst, opts),
                None => block::compress_into_with(src, dst, self.acceleration),
            }
        } else {
            scratch.clear();
            scratch.extend_from_slice(&self.dict);
            scratch.extend_from_slice(src);
            let start = self.dict.len();
            match &self.hc {
                Some(opts) => hc::compress_with_prefix(scratch, start, dst, opts),
                None => block::compress_with_prefix_searching(scratch, start, dst),
            }
        };
        // The bound fits every block of at most the frame's block size.
        let compressed = compressed.unwrap_or(src.len());
        let (len, field) = if compressed < src.len() {
            (compressed, compressed as u32)
        } else {
            // The bound is at least the block's length.
            out[4..4 + src.len()].copy_from_slice(src);
            (src.len(), src.len() as u32 | UNCOMPRESSED_BIT)
        };
        out[..4].copy_from_slice(&field.to_le_bytes());
        let mut end = 4 + len;
        if self.info.get_block_checksums() {
            let sum = xxh32(&out[4..end], 0);
            out[end..end + 4].copy_from_slice(&sum.to_le_bytes());
            end += 4;
        }
        Ok(end)
    }

    /// The end mark and, if the frame has one, the content checksum:
    /// `content_checksum` is the xxh32 (seed 0) of the whole content.
    pub fn end(&self, content_checksum: u32) -> Vec<u8> {
        let mut out = 0u32.to_le_bytes().to_vec();
        if self.info.get_content_checksum() {
            out.extend_from_slice(&content_checksum.to_le_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lz4::frame::{self, BlockSize, FrameEncoder};
    use std::io::Write;

    fn by_blocks(enc: &BlockEncoder, data: &[u8]) -> Vec<u8> {
        let mut bytes = enc.header();
        let (mut piece, mut scratch) = (Vec::new(), Vec::new());
        for chunk in data.chunks(enc.frame_info().get_block_size().bytes()) {
            let n = enc.encode(chunk, &mut piece, &mut scratch).unwrap();
            bytes.extend_from_slice(&piece[..n]);
        }
        bytes.extend(enc.end(xxh32(data, 0)));
        bytes
    }

    #[test]
    fn the_same_bytes_as_the_frame_encoder() {
        let mut data: Vec<u8> = (0..300_000u32)
            .map(|i| (i / 5).wrapping_mul(2_654_435_761) as u8 % 11)
            .collect();
        // A stretch that does not compress: stored as it is.
        let mut x = 1u32;
        for b in &mut data[70_000..140_000] {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *b = x as u8;
        }
        let d = data[1000..90_000].to_vec();
        for bits in 0..16u32 {
            let info = FrameInfo::new()
                .block_size(BlockSize::Max64KB)
                .block_checksums(bits & 1 != 0)
                .content_checksum(bits & 2 != 0)
                .content_size((bits & 4 != 0).then_some(data.len() as u64));
            for len in [0, 1, 65_536, 65_537, data.len()] {
                let data = &data[..len];
                let info = match info.get_content_size() {
                    Some(_) => info.content_size(Some(len as u64)),
                    None => info,
                };
                let with_dict = bits & 8 != 0;
                for level in [1, 3, 9] {
                    let (enc, w) = if with_dict {
                        (
                            BlockEncoder::with_dictionary(info, &d),
                            FrameEncoder::with_dictionary(Vec::new(), info, &d),
                        )
                    } else {
                        (
                            BlockEncoder::new(info),
                            FrameEncoder::with_info(Vec::new(), info),
                        )
                    };
                    let (enc, mut w) = (enc.with_level(level), w.with_level(level));
                    w.write_all(data).unwrap();
                    let want = w.finish().unwrap();
                    let got = by_blocks(&enc, data);
                    assert_eq!(got, want, "bits {bits} len {len} level {level}");
                    let back = if with_dict {
                        frame::decompress_with_dict(&got, &d).unwrap()
                    } else {
                        frame::decompress(&got).unwrap()
                    };
                    assert_eq!(back, data);
                }
            }
        }
    }

    #[test]
    fn linked_settings_give_independent_blocks() {
        let enc = BlockEncoder::new(FrameInfo::new().independent_blocks(false));
        assert!(enc.frame_info().get_independent_blocks());
    }

    #[test]
    fn a_block_too_large_is_an_error() {
        let enc = BlockEncoder::new(FrameInfo::new().block_size(BlockSize::Max64KB));
        let (mut out, mut scratch) = (Vec::new(), Vec::new());
        let err = enc
            .encode(&[0u8; 65_537], &mut out, &mut scratch)
            .unwrap_err();
        assert!(matches!(err, Error::InvalidArgument { value: 65_537, .. }));
        let n = enc.encode(&[0u8; 65_536], &mut out, &mut scratch).unwrap();
        assert!(n < 1000);
        assert_eq!(enc.encode(&[], &mut out, &mut scratch), Ok(0));
    }
}
