//! The checks at the end of a frame, made as its last block is taken back
//! or later, by a [`ContentCheck`] the caller keeps.

use xxhash_rust::xxh32::Xxh32;

use super::{FrameBlock, Kind};
use crate::Error;

/// The checks at the end of an LZ4 frame: its content checksum, then its
/// declared size.
pub(super) fn end_checks(
    hash: &Xxh32,
    produced: u64,
    start: usize,
    checksum: Option<(u32, usize)>,
    content_size: Option<u64>,
) -> Result<(), Error> {
    if let Some((sum, at)) = checksum
        && sum != hash.digest()
    {
        return Err(Error::ChecksumMismatch {
            what: "content",
            offset: at,
        });
    }
    if content_size.is_some_and(|size| size != produced) {
        return Err(Error::Corrupt {
            offset: start,
            what: "content smaller than its declared size",
        });
    }
    Ok(())
}

/// The content checksum of LZ4 frames and the checks at the end of each,
/// for a [`BlockReader`](super::BlockReader) that
/// [defers them](super::BlockReader::defer_content_checks): given every
/// block after [`BlockReader::finish_block`](super::BlockReader::finish_block),
/// in order.
#[derive(Clone)]
pub struct ContentCheck {
    hash: Xxh32,
    produced: u64,
}

impl ContentCheck {
    /// Checks of no content yet.
    pub fn new() -> ContentCheck {
        ContentCheck {
            hash: Xxh32::new(0),
            produced: 0,
        }
    }

    /// Takes the next block: its content into the checksum of its frame
    /// (when the frame has one); at the end of a frame, checks the frame's
    /// content checksum and declared size and starts again.
    ///
    /// # Errors
    /// At the end of a frame, as
    /// [`BlockReader::finish_block`](super::BlockReader::finish_block) reports them
    /// without deferral: a content checksum that does not match, or content
    /// smaller than the frame declared.
    pub fn check(&mut self, block: &FrameBlock) -> Result<(), Error> {
        match block.kind {
            Kind::Data {
                lz4: true,
                content_checksum,
                ..
            } => {
                let content = block.content();
                self.produced += content.len() as u64;
                if content_checksum {
                    self.hash.update(content);
                }
                Ok(())
            }
            Kind::End {
                start,
                checksum,
                content_size,
            } => {
                let done = std::mem::take(self);
                end_checks(&done.hash, done.produced, start, checksum, content_size)
            }
            _ => Ok(()),
        }
    }
}

impl Default for ContentCheck {
    fn default() -> ContentCheck {
        ContentCheck::new()
    }
}
