//! The LZ4 frame format: LZ4 blocks with a header, checksums and an end, as
//! the `lz4` command and liblz4's LZ4F API read and write them.
//!
//! Source: [LZ4 Frame Format Description](https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md)
//! (version 1.6.1). The blocks inside are [LZ4 blocks](super::block).
//!
//! # Format
//!
//! ```text
//!   frame      | magic 0x184D2204 | descriptor | block ... | end mark 0 | (content checksum) |
//!                4 bytes LE         3-15 bytes                4 bytes      4 bytes
//!
//!   descriptor | FLG | BD | (content size) | (dictionary id) | HC |
//!                      1    8 bytes LE       4 bytes LE        header checksum
//!   FLG        bits 7-6 version = 01, 5 independent blocks, 4 block checksums,
//!              3 content size, 2 content checksum, 1 reserved, 0 dictionary id
//!   BD         bits 6-4 block maximum size: 4 = 64 KiB, 5 = 256 KiB, 6 = 1 MiB, 7 = 4 MiB
//!   HC         second byte of xxh32(FLG .. last optional field, seed 0)
//!
//!   block      | size | data | (block checksum) |
//!                4 bytes LE: bit 31 set = data stored uncompressed, bits 30-0 the
//!                length of data, at most the block maximum size; checksum = xxh32(data)
//! ```
//!
//! A content checksum is the xxh32 (seed 0) of the whole decoded content.
//! With linked blocks (FLG bit 5 clear), a block's matches may reach up to
//! 64 KiB back into the content of the blocks before it.
//!
//! Frames may be concatenated. Between them may sit *skippable frames*
//! (magic `0x184D2A50..=0x184D2A5F`, a 4-byte length, that many bytes of user
//! data) and *legacy frames* (magic `0x184C2102`, then blocks of up to 8 MiB
//! of content, each a 4-byte compressed length and an LZ4 block, with no
//! checksums; the frame ends at the end of the input or at the next magic
//! number). [`FrameDecoder`] reads all three; [`FrameEncoder`] writes LZ4
//! frames.
//!
//! Frames may be compressed with a dictionary ([`super::dict`]), as liblz4's
//! LZ4F does it: the dictionary is the history before every block of a frame
//! of independent blocks, and before the first block of a frame of linked
//! blocks. [`FrameEncoder::with_dictionary`] and [`compress_with_dict`]
//! record the dictionary's id in the header; [`FrameDecoder::with_dictionary`]
//! and [`decompress_with_dict`] check it, and a decoder given no dictionary,
//! or another, fails on such a frame with
//! [`Error::DictionaryMismatch`](crate::Error::DictionaryMismatch) naming
//! the id, before decoding any block. (A frame whose header names no
//! dictionary but whose blocks used one, as the `lz4 -D` command writes
//! them, decodes with the dictionary; without it, a match that reaches
//! before the output fails with [`Error::Corrupt`](crate::Error::Corrupt).)
//!
//! The decoder takes untrusted input: a bad magic number, reserved bits, a
//! failed checksum, a block larger than the declared maximum, truncation, or
//! a content size that does not match give an [`Error`](crate::Error) with the
//! offset in the input, never a panic; its memory is bounded by the block
//! size, and a caller-set limit ([`FrameDecoder::with_limit`],
//! [`decompress_with_limit`]) refuses decompression bombs.
//!
//! Offsets in errors count bytes from the start of the input (the reader's
//! first byte); in [`Error::Truncated`](crate::Error::Truncated) the offset
//! is where the unfinished piece (header, block, checksum) starts and
//! `needed` the number of bytes missing. A failed header, block or content
//! checksum gives [`Error::ChecksumMismatch`](crate::Error::ChecksumMismatch)
//! at the offset of the stored checksum.
//!
//! # Example
//!
//! ```
//! use vecpress::lz4::frame::{self, BlockSize, FrameInfo};
//!
//! let text = b"It was the best of times, it was the worst of times. ".repeat(100);
//! let info = FrameInfo::new().block_size(BlockSize::Max64KB).block_checksums(true);
//! let bytes = frame::compress_with(&text, info);
//! assert_eq!(&bytes[..4], &[0x04, 0x22, 0x4d, 0x18]);
//! assert!(bytes.len() < text.len() / 10);
//! assert_eq!(frame::decompress(&bytes)?, text);
//! # Ok::<(), vecpress::Error>(())
//! ```

mod decode;
mod encode;
mod header;
mod read;
mod slice;
mod write;

pub use encode::BlockEncoder;
pub use header::{BlockSize, FrameInfo};
pub use read::{BlockReader, ContentCheck, FrameBlock, FrameDecoder};
pub use slice::{
    compress, compress_into, compress_into_with, compress_with, compress_with_dict, decompress,
    decompress_into, decompress_with_dict, decompress_with_dict_and_limit, decompress_with_limit,
    max_compressed_len,
};
pub use write::FrameEncoder;
