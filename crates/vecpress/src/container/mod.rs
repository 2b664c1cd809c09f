//! The vecpress file format: a self-describing container of independently
//! compressed blocks, as the `vecpress` command writes it. `docs/FORMAT.md`
//! is its full specification; in short (all integers little-endian):
//!
//! ```text
//! header  28 bytes  magic 89 'V' 'P' 'R' | version u8 (1 or 2) | element u8 | codec id u16
//!                   | block length u32 (elements) | flags u32 (bit 0: dictionary)
//!                   | total count u64 (u64::MAX: unknown) | xxh32 of the 24 bytes before
//! dict     8 bytes  (only with flag bit 0) dictionary id u32 (not 0)
//!                   | xxh32 of the 32 bytes before (header and id)
//! block   12 bytes  count u32 (1..=block length) | length u32 (bit 31: stored raw)
//!  (16 in v2)       | (version 2 only: codec id u16 | level u8 | 0u8)
//!                   | xxh32 of the fields before and the payload
//!         + payload (length & 0x7FFF_FFFF bytes: the codec's encoding of the
//!                   block's elements, or their little-endian bytes when stored raw)
//! end     20 bytes  0u32 | total count u64 | xxh64 of the decompressed content
//! ```
//!
//! A version 1 file names one codec in its header, for every block. A
//! version 2 file ([`PER_BLOCK`] in the header's codec field) names a codec
//! in each block's header instead, so that a writer can choose for each
//! block what suits its data; its blocks' headers are 16 bytes. Readers read
//! both; [`Writer`] writes version 2 exactly when the header's codec is
//! [`PER_BLOCK`], so a file of one codec stays readable by readers of
//! version 1.
//!
//! Blocks are independent (each decodes alone, from its own count), so
//! writers need not know the total in advance and readers go block by block in
//! bounded memory. This module frames blocks and checks them; compressing the
//! elements is up to the caller, through [`crate::codec`] by the id in the
//! header or the block ([`BlockInfo::codec`]; id 0 means no codec: the
//! block is stored raw).
//!
//! Blocks compressed by an LZ4 codec with an external dictionary record it
//! in the header ([`Header::dict_id`], flag [`FLAG_DICTIONARY`]): the
//! dictionary's [`dictionary_id`](crate::lz4::dict::dictionary_id), for the
//! caller to compare with the dictionary it has before decoding. The
//! dictionary itself is not in the file.
//!
//! [`Reader`] checks everything before trusting it: the magic, the version,
//! the header checksum (and the dictionary id's, when there is one), the
//! flags, the block length against [`Limits`] (before
//! allocating), each block's count, length and codec fields, each block's
//! checksum, the end record's total and the content checksum. A violation gives an
//! [`io::Error`](std::io::Error) of kind `InvalidData` wrapping an [`Error`](crate::Error) whose offset is
//! the byte offset in the file of the broken structure
//! ([`Error::ChecksumMismatch`](crate::Error::ChecksumMismatch) for a checksum: the header's at its checksum
//! field, a block's at the block's header, the content's at the end record's
//! checksum field); the end of the input
//! inside a structure gives [`Error::Truncated`](crate::Error::Truncated) whose `needed` counts the
//! missing bytes.
//!
//! ```
//! use vecpress::container::{Element, Header, Reader, Writer};
//!
//! let values = [1u32, 2, 3, 4, 5];
//! let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
//! let header = Header { codec: 0, element: Element::U32, block_len: 4, total: Some(5), dict_id: None };
//! let mut w = Writer::new(Vec::new(), header)?;
//! for block in raw.chunks(16) {
//!     w.write_block((block.len() / 4) as u32, block, true)?;
//!     w.hash_content(block);
//! }
//! let file = w.finish()?;
//!
//! let mut r = Reader::new(&file[..])?;
//! assert_eq!(r.header(), &header);
//! let mut payload = Vec::new();
//! let mut back = Vec::new();
//! while let Some(block) = r.next_block(&mut payload)? {
//!     assert!(block.stored);
//!     r.hash_content(&payload);
//!     back.extend_from_slice(&payload);
//! }
//! r.check_content()?;
//! assert_eq!(back, raw);
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! A file whose blocks name their codecs (version 2):
//!
//! ```
//! use vecpress::container::{Element, Header, Reader, Writer, PER_BLOCK, STORED_CODEC};
//! use vecpress::vbyte;
//!
//! let header = Header { codec: PER_BLOCK, element: Element::U32, block_len: 3, total: None, dict_id: None };
//! let mut w = Writer::new(Vec::new(), header)?;
//! let small = [1u32, 2, 3];
//! w.write_block_with(3, &vbyte::encode_to_vec(&small), 1, 0)?; // codec 1: vbyte
//! w.hash_content(&small.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>());
//! let big = u32::MAX.to_le_bytes();
//! w.write_block_with(1, &big, STORED_CODEC, 0)?;
//! w.hash_content(&big);
//! let file = w.finish()?;
//! assert_eq!(file[4], 2);
//!
//! let mut r = Reader::new(&file[..])?;
//! let mut payload = Vec::new();
//! let first = r.next_block(&mut payload)?.unwrap();
//! assert_eq!((first.codec, first.stored), (1, false));
//! let second = r.next_block(&mut payload)?.unwrap();
//! assert_eq!((second.codec, second.stored), (STORED_CODEC, true));
//! # Ok::<(), std::io::Error>(())
//! ```
#![forbid(unsafe_code)]

mod header;
mod reader;
mod writer;

pub use header::{Element, Header};
pub use reader::{BlockInfo, ContentHash, Limits, Reader, UnverifiedBlock};
pub use writer::Writer;

use xxhash_rust::xxh32::Xxh32;

/// The first four bytes of every vecpress file (a high byte first, so that a
/// 7-bit channel or a text-mode transfer is caught at once).
pub const MAGIC: [u8; 4] = [0x89, b'V', b'P', b'R'];
/// The newest format version this module writes and reads: 2, whose
/// blocks name their own codecs. Files of one codec are written as version
/// 1 ([`VERSION_1`]), which every reader knows.
pub const VERSION: u8 = 2;
/// The format version whose header names the codec of every block.
pub const VERSION_1: u8 = 1;
/// Header codec id of a version 2 file: each block names its own codec
/// ([`BlockInfo::codec`]). Never a codec's id.
pub const PER_BLOCK: u16 = u16::MAX;
/// Bytes in the header without a dictionary id (the fixed part).
pub const HEADER_LEN: usize = 28;
/// Bytes of the header's dictionary extension (id and checksum), present
/// when [`FLAG_DICTIONARY`] is set.
pub const DICT_EXT_LEN: usize = 8;
/// Header flag (bit 0 of `flags`): the blocks were compressed with an
/// external dictionary, whose id follows the fixed header (see
/// [`Header::dict_id`]).
pub const FLAG_DICTIONARY: u32 = 1;
/// Every flag this module knows; a reader rejects the others.
const KNOWN_FLAGS: u32 = FLAG_DICTIONARY;
/// Bytes in a block's header (before its payload) in a version 1 file.
pub const BLOCK_HEADER_LEN: usize = 12;
/// Bytes in a block's header in a version 2 file: [`BLOCK_HEADER_LEN`] and
/// the block's codec id, level and a reserved byte.
pub const BLOCK_HEADER_LEN_V2: usize = 16;
/// Bytes in the end record.
pub const END_LEN: usize = 20;
/// Bit of a block's length word that marks a payload stored raw.
pub const STORED_BIT: u32 = 1 << 31;
/// Codec id meaning no codec: every block is stored raw.
pub const STORED_CODEC: u16 = 0;
/// Header total meaning the writer did not know the count in advance.
pub const UNKNOWN_TOTAL: u64 = u64::MAX;
/// Seed of every checksum in the format.
const SEED: u32 = 0;

/// The default [`Limits::max_block_bytes`], 64 MiB, which also bounds what
/// [`Writer::new`] accepts.
pub const MAX_BLOCK_BYTES: u64 = 64 << 20;

/// Turns ds2i posting lists `[n][n values]...` into `[n][n gaps]...` in place,
/// the first gap of a list from 0; `state` carries a list across calls (start
/// with `PostingsState::default()`). Any u32 sequence is accepted and
/// [`gaps_to_postings`] undoes it exactly (gaps wrap).
///
/// ```
/// use vecpress::container::{gaps_to_postings, postings_to_gaps, PostingsState};
///
/// let lists = [2u32, 5, 9, 0, 1, 7];
/// let mut v = lists;
/// postings_to_gaps(&mut v, &mut PostingsState::default());
/// assert_eq!(v, [2, 5, 4, 0, 1, 7]);
/// gaps_to_postings(&mut v, &mut PostingsState::default());
/// assert_eq!(v, lists);
/// ```
pub fn postings_to_gaps(values: &mut [u32], state: &mut PostingsState) {
    for v in values {
        if state.left == 0 {
            state.left = *v;
            state.prev = 0;
        } else {
            let x = *v;
            *v = x.wrapping_sub(state.prev);
            state.prev = x;
            state.left -= 1;
        }
    }
}

/// Undoes [`postings_to_gaps`].
pub fn gaps_to_postings(values: &mut [u32], state: &mut PostingsState) {
    for v in values {
        if state.left == 0 {
            state.left = *v;
            state.prev = 0;
        } else {
            state.prev = state.prev.wrapping_add(*v);
            *v = state.prev;
            state.left -= 1;
        }
    }
}

/// Where a posting-list transform stands between calls: values left in the
/// current list and the last value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PostingsState {
    left: u32,
    prev: u32,
}

/// The little-endian u32 at the start of `b`.
fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// A block's checksum: over its count and length words, then its payload.
fn block_checksum(head: &[u8], payload: &[u8]) -> u32 {
    let mut h = Xxh32::new(SEED);
    h.update(head);
    h.update(payload);
    h.digest()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postings_transform_round_trips_across_calls() {
        let lists: Vec<u32> = vec![3, 1, 4, 9, 0, 2, 7, 7, 1, u32::MAX, 5];
        let mut v = lists.clone();
        let mut s = PostingsState::default();
        for chunk in v.chunks_mut(2) {
            postings_to_gaps(chunk, &mut s);
        }
        assert_eq!(v, [3, 1, 3, 5, 0, 2, 7, 0, 1, u32::MAX, 5]);
        let mut s = PostingsState::default();
        for chunk in v.chunks_mut(3) {
            gaps_to_postings(chunk, &mut s);
        }
        assert_eq!(v, lists);
    }
}
