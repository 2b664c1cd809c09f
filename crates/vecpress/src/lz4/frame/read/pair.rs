//! Two blocks of a frame decoded at once. Decoding one LZ4 block, the CPU
//! waits on a chain of loads (each token's place depends on the lengths
//! before it); [`block::decompress_pair`] runs two such chains side by
//! side. The blocks of a frame of independent blocks are such pairs, once
//! the decoder reads one block ahead.
#![forbid(unsafe_code)]

use std::io::Read;

use super::{Frame, FrameDecoder, Piece, Target, UNCOMPRESSED_BIT, max_output};
use crate::Error;
use crate::lz4::block;
use crate::lz4::frame::FrameInfo;

/// The largest blocks decoded in pairs into the decoder's own buffer.
const OWN_PAIR_MAX: usize = 1 << 20;

impl<R: Read> FrameDecoder<R> {
    /// Decodes the blocks of frames of independent blocks two at a time
    /// (`true`), or one at a time (`false`, the default for a decoder made
    /// from a reader; [`decompress`](crate::lz4::frame::decompress) and the
    /// other functions over slices read ahead).
    ///
    /// Reading ahead, the decoder reads the block after the one it decodes
    /// and decodes both in one loop ([`block::decompress_pair`], which runs
    /// the two blocks' chains of loads side by side: it helps most where
    /// sequences are short, as in text, least on long matches, and a whole
    /// frame less, its content checksum taking time of its own), and holds two blocks (decoded and
    /// stored) instead of one.
    /// What it gives is the same either way: the same bytes in the same
    /// order, the same errors at the same offsets, each after all the output
    /// before it. The one difference is when a block's bytes come out: only
    /// once the next block has arrived, which matters for a reader that
    /// waits for its data (a socket, a pipe from a live process). Frames of
    /// linked blocks, frames with a dictionary, legacy frames and blocks
    /// stored uncompressed are decoded one block at a time whatever this
    /// says.
    ///
    /// ```
    /// use std::io::Read;
    /// use vecpress::lz4::frame::{self, BlockSize, FrameDecoder, FrameInfo};
    ///
    /// let text = b"read ahead, decode two; ".repeat(20_000);
    /// let bytes = frame::compress_with(&text, FrameInfo::new().block_size(BlockSize::Max64KB));
    /// let mut out = Vec::new();
    /// FrameDecoder::new(&bytes[..]).read_ahead(true).read_to_end(&mut out)?;
    /// assert_eq!(out, text);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn read_ahead(mut self, on: bool) -> FrameDecoder<R> {
        self.read_ahead = on;
        self
    }

    /// Whether the block in `cbuf`, of size field `field`, is to be decoded
    /// with the block after it.
    pub(super) fn pairs_with_next(&self, info: FrameInfo, field: u32) -> bool {
        self.read_ahead
            && info.get_independent_blocks()
            && self.dict.is_empty()
            && field & UNCOMPRESSED_BIT == 0
    }

    /// Reads the piece after the block in `cbuf` (whose size field is at
    /// `start`) and, when it is a block of LZ4 sequences, decodes both to
    /// `target`; returns the bytes decoded (both blocks', or the first's
    /// when the second fails or passes a limit).
    ///
    /// `None` when the first block was not decoded: it is then decoded
    /// alone, as if nothing had been read ahead, and gives the same bytes or
    /// error. Whatever was read ahead and not decoded (a block, the end
    /// mark, or the error reading it) waits in `ahead` for the next call,
    /// which decodes or reports it as it would have without the pair.
    pub(super) fn decode_pair(
        &mut self,
        target: &mut Target<'_>,
        info: FrameInfo,
        start: usize,
    ) -> Result<Option<usize>, Error> {
        let max = info.get_block_size().bytes();
        // The second block goes a whole block after the first, so that both
        // decode at once; it moves down when the first turns out shorter.
        let room = match target {
            Target::Slice(dst, pos) => *pos + max < dst.len(),
            // In the decoder's own buffer, blocks above `OWN_PAIR_MAX`
            // decode one at a time: two decoded blocks of 4 MiB would hold
            // twice the memory of one.
            Target::Own => max <= OWN_PAIR_MAX,
        };
        if !room {
            return Ok(None);
        }
        std::mem::swap(&mut self.cbuf, &mut self.cbuf2);
        let next = self.read_piece(info);
        std::mem::swap(&mut self.cbuf, &mut self.cbuf2);
        let next_start = match next {
            Ok(Piece::Block { field, start }) if field & UNCOMPRESSED_BIT == 0 => Some(start),
            _ => None,
        };
        self.ahead = Some(next);
        let Some(next_start) = next_start else {
            return Ok(None);
        };
        let cap_a = max.min(max_output(self.cbuf.len(), false));
        let cap_b = max.min(max_output(self.cbuf2.len(), false));
        let (ra, rb) = match target {
            Target::Own => {
                if self.buf.len() < max + cap_b {
                    self.buf.resize(max + cap_b, 0);
                }
                let (a, b) = self.buf.split_at_mut(max);
                block::decompress_pair(
                    (&self.cbuf, &mut a[..cap_a]),
                    (&self.cbuf2, &mut b[..cap_b]),
                )
            }
            Target::Slice(dst, pos) => {
                let (a, b) = dst[*pos..].split_at_mut(max);
                let b_len = b.len().min(cap_b);
                block::decompress_pair(
                    (&self.cbuf, &mut a[..cap_a]),
                    (&self.cbuf2, &mut b[..b_len]),
                )
            }
        };
        let Ok(na) = ra else {
            return Ok(None);
        };
        let at = match target {
            Target::Own => {
                self.out_pos = 0;
                self.out_end = na;
                0
            }
            Target::Slice(_, pos) => *pos,
        };
        self.finish_block(target, at, na, start)?;
        // The second block joins the first when it decoded and passes the
        // limits; else it is decoded alone by the next call, which reports
        // its error after the first block's output.
        let Ok(nb) = rb else {
            return Ok(Some(na));
        };
        if !self.fits(nb) {
            return Ok(Some(na));
        }
        if na < max {
            match target {
                Target::Own => self.buf.copy_within(max..max + nb, na),
                Target::Slice(dst, pos) => dst.copy_within(*pos + max..*pos + max + nb, *pos + na),
            }
        }
        self.ahead = None;
        if let Target::Own = target {
            self.out_end = na + nb;
        }
        self.finish_block(target, at + na, nb, next_start)?;
        Ok(Some(na + nb))
    }

    /// Whether `n` more bytes of output pass neither the limit nor the
    /// frame's declared content size.
    fn fits(&self, n: usize) -> bool {
        let Frame::Lz4 { info, produced, .. } = &self.frame else {
            unreachable!("called inside an LZ4 frame")
        };
        let within_size = info
            .get_content_size()
            .is_none_or(|size| produced.saturating_add(n as u64) <= size);
        within_size && self.check_limit(n as u64).is_ok()
    }
}
