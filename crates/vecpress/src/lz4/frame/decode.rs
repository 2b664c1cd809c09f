//! Decoding one stored block of a frame to where it goes.
#![forbid(unsafe_code)]

use crate::Error;
use crate::lz4::block;

/// Where a decoded block goes.
pub(crate) enum Target<'a> {
    /// The decoder's buffer, for its reader.
    Own,
    /// The caller's slice, at this offset.
    Slice(&'a mut [u8], usize),
}

/// How to decode one stored block.
#[derive(Clone, Copy)]
pub(super) struct Block {
    /// Stored as it is (else an LZ4 block).
    pub raw: bool,
    /// Input offset of its first byte.
    pub data_at: usize,
    /// Whether it belongs to a frame of linked blocks.
    pub linked: bool,
    /// Bytes of output before it that its matches may reach.
    pub history: usize,
    /// The most it may decode to.
    pub max: usize,
}

/// The most a stored block of `len` bytes can decode to: itself when stored
/// as it is; else 255 bytes a byte (a match's length bytes each add at most
/// 255, and a sequence spends at least three bytes on at most 19 more).
pub(super) fn max_output(len: usize, raw: bool) -> usize {
    if raw {
        len
    } else {
        len.saturating_mul(255).saturating_add(16)
    }
}

/// Decodes `stored` into `out[block.history..]`, after the history (and
/// before that, logically, the dictionary `dict`, empty when there is none);
/// returns the bytes written.
pub(super) fn decode_stored(
    stored: &[u8],
    out: &mut [u8],
    block: Block,
    dict: &[u8],
) -> Result<usize, Error> {
    let room = out.len() - block.history;
    if block.raw {
        if stored.len() > room {
            return Err(Error::OutputTooSmall {
                needed: stored.len(),
                actual: room,
            });
        }
        out[block.history..block.history + stored.len()].copy_from_slice(stored);
        return Ok(stored.len());
    }
    let res = if !dict.is_empty() {
        block::decompress_with_prefix_and_dict(stored, out, block.history, dict)
    } else if block.history == 0 {
        block::decompress_into(stored, out)
    } else {
        block::decompress_with_prefix(stored, out, block.history)
    };
    res.map_err(|e| block_error(e, block.data_at))
}

/// A block decoder's error, its offsets moved from the block, which starts at
/// `data_at`, to the input.
fn block_error(err: Error, data_at: usize) -> Error {
    match err {
        Error::Corrupt { offset, what } => Error::Corrupt {
            offset: data_at + offset,
            what,
        },
        Error::Truncated {
            offset,
            needed,
            unit,
        } => Error::Truncated {
            offset: data_at + offset,
            needed,
            unit,
        },
        other => other,
    }
}
