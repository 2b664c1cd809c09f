//! The pieces of an LZ4 frame after its header: blocks (read, checked and
//! decoded, alone or in pairs), then the end mark and content checksum.
#![forbid(unsafe_code)]

use std::io::Read;

use xxhash_rust::xxh32::xxh32;

use super::{Block, Frame, FrameDecoder, FrameInfo, Piece, Target, UNCOMPRESSED_BIT, WINDOW_SIZE};
use crate::Error;

impl<R: Read> FrameDecoder<R> {
    /// Reads one block of an LZ4 frame and decodes it to `target` (with the
    /// block after it, when both can be decoded as a pair), or reads the end
    /// mark and checksum; returns the bytes decoded, `None` at the end of the
    /// frame.
    pub(super) fn lz4_block(&mut self, target: &mut Target<'_>) -> Result<Option<usize>, Error> {
        let Frame::Lz4 { info, .. } = &self.frame else {
            unreachable!("called inside an LZ4 frame")
        };
        let info = *info;
        let piece = match self.ahead.take() {
            Some(Ok(piece)) => {
                // A block read ahead waits in `cbuf2`.
                std::mem::swap(&mut self.cbuf, &mut self.cbuf2);
                piece
            }
            Some(Err(err)) => return Err(err),
            None => self.read_piece(info)?,
        };
        let (field, start) = match piece {
            Piece::Block { field, start } => (field, start),
            Piece::End { start } => return self.end_frame(start).map(|()| None),
        };
        if self.pairs_with_next(info, field)
            && let Some(n) = self.decode_pair(target, info, start)?
        {
            return Ok(Some(n));
        }
        self.decode_piece(target, info, field, start).map(Some)
    }

    /// Reads the next piece of an LZ4 frame: a block (its data into `cbuf`,
    /// its checksum checked) or the end mark.
    pub(super) fn read_piece(&mut self, info: FrameInfo) -> Result<Piece, Error> {
        let start = self.pos;
        let field = self.read_u32()?;
        if field == 0 {
            return Ok(Piece::End { start });
        }
        let len = (field & !UNCOMPRESSED_BIT) as usize;
        if len > info.get_block_size().bytes() {
            return Err(Error::Corrupt {
                offset: start,
                what: "block size above the frame's maximum",
            });
        }
        self.read_stored(len, start)?;
        if info.get_block_checksums() {
            let at = self.pos;
            if self.read_u32()? != xxh32(&self.cbuf, 0) {
                return Err(Error::ChecksumMismatch {
                    what: "block",
                    offset: at,
                });
            }
        }
        Ok(Piece::Block { field, start })
    }

    /// Decodes the block in `cbuf`, whose size field `field` sits at
    /// `start`, to `target`; returns its length.
    fn decode_piece(
        &mut self,
        target: &mut Target<'_>,
        info: FrameInfo,
        field: u32,
        start: usize,
    ) -> Result<usize, Error> {
        let Frame::Lz4 { produced, .. } = &self.frame else {
            unreachable!("called inside an LZ4 frame")
        };
        // Linked blocks may reach 64 KiB back into the frame's output.
        let history = if info.get_independent_blocks() {
            0
        } else {
            usize::try_from(*produced).map_or(WINDOW_SIZE, |out| out.min(WINDOW_SIZE))
        };
        let block = Block {
            raw: field & UNCOMPRESSED_BIT != 0,
            data_at: start + 4,
            linked: !info.get_independent_blocks(),
            history,
            max: info.get_block_size().bytes(),
        };
        let n = self.emit(target, block)?;
        let at = match target {
            Target::Own => self.out_pos,
            Target::Slice(_, pos) => *pos,
        };
        self.finish_block(target, at, n, start)?;
        Ok(n)
    }

    /// Counts the `n` bytes decoded at `at` of `target` (from the block at
    /// `start`): against the limit, then in the frame, its content checksum
    /// and declared size.
    pub(super) fn finish_block(
        &mut self,
        target: &Target<'_>,
        at: usize,
        n: usize,
        start: usize,
    ) -> Result<(), Error> {
        self.count_output(n)?;
        let Frame::Lz4 {
            info,
            hash,
            produced,
        } = &mut self.frame
        else {
            unreachable!("called inside an LZ4 frame")
        };
        *produced += n as u64;
        if info.get_content_checksum() {
            hash.update(match target {
                Target::Own => &self.buf[at..at + n],
                Target::Slice(dst, _) => &dst[at..at + n],
            });
        }
        if info.get_content_size().is_some_and(|size| *produced > size) {
            return Err(Error::Corrupt {
                offset: start,
                what: "content larger than its declared size",
            });
        }
        Ok(())
    }

    /// After the end mark at `start`: checks the content checksum and size.
    fn end_frame(&mut self, start: usize) -> Result<(), Error> {
        let Frame::Lz4 {
            info,
            hash,
            produced,
        } = std::mem::replace(&mut self.frame, Frame::None)
        else {
            unreachable!("called inside an LZ4 frame")
        };
        if info.get_content_checksum() {
            let at = self.pos;
            if self.read_u32()? != hash.digest() {
                return Err(Error::ChecksumMismatch {
                    what: "content",
                    offset: at,
                });
            }
        }
        if info.get_content_size().is_some_and(|size| size != produced) {
            return Err(Error::Corrupt {
                offset: start,
                what: "content smaller than its declared size",
            });
        }
        self.out_pos = 0;
        self.out_end = 0;
        Ok(())
    }
}
