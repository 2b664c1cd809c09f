//! LZ4: the block format, fast safe decoders, and an adaptive choice among
//! them.
//!
//! Source: the LZ4 block format description (`doc/lz4_Block_format.md` in the
//! reference implementation, lz4/lz4), and A. Milovidov's talk *How to speed
//! up LZ4 decompression in ClickHouse* (2018) for the decoding variants and
//! their selection by a multi-armed bandit.
//!
//! # Format
//!
//! A block is a series of sequences. Each sequence is a run of literals
//! (bytes copied as they are) followed by a match (bytes copied from the
//! output already produced, `offset` bytes back):
//!
//! ```text
//!   token          [literal length ext]  literals   offset (u16 LE)  [match length ext]
//!   LLLL MMMM      255, 255, ..., < 255  lit bytes  1..=65535        255, ..., < 255
//! ```
//!
//! The token's high nibble is the literal length, its low nibble the match
//! length minus [`MINMATCH`](block::MINMATCH) (4); a nibble of 15 means that
//! bytes follow whose values are added to it, each 255 announcing another.
//! The last sequence holds literals only: the block ends right after them.
//! A block stores neither its compressed nor its decompressed size; the
//! caller (a frame, a column page, or the size prefix of
//! [`block::compress_size_prepended`]) knows both.
//!
//! The compressor keeps two rules of the end of a block, so that decoders can
//! copy in wide chunks: the last [`LASTLITERALS`](block::LASTLITERALS) (5)
//! bytes are literals, and the last match starts at least
//! [`MFLIMIT`](block::MFLIMIT) (12) bytes before the end. The decoders here do
//! not rely on them: they accept any block whose sequences stay inside the
//! input and the output.
//!
//! # Compressors
//!
//! [`block::compress_into`] is LZ4's fast greedy parse
//! (`LZ4_compress_fast`); [`hc`] holds the high-compression levels 2 to 12
//! (`LZ4_compress_HC`: a hash-chain parser, and an optimal parser from
//! level 10), which write the same format, smaller and slower.
//!
//! # Decoders
//!
//! [`block::decompress_into`] runs the fastest loop for this CPU; every loop
//! ([`block::Variant`]) copies in wide "wild" chunks only while both slices
//! have room for them, and hands the tail and anything suspicious to one
//! checked path, which names the broken rule and its input offset.
//! [`adaptive::AdaptiveDecompressor`] picks among the variants at run time by
//! Thompson sampling, as ClickHouse does.
//!
//! ```
//! use vecpress::lz4::block;
//!
//! let text = b"Hello world Hello world Hello world Hello world!".repeat(10);
//! let packed = block::compress(&text);
//! assert!(packed.len() < text.len() / 4);
//! let mut out = vec![0u8; text.len()];
//! assert_eq!(block::decompress_into(&packed, &mut out)?, text.len());
//! assert_eq!(out, text);
//! # Ok::<(), vecpress::Error>(())
//! ```

pub mod adaptive;
pub mod block;
pub mod dict;
pub mod frame;
pub mod hc;

/// The most output, in bytes, that the decoders which return a new vector
/// without being told a limit ([`frame::decompress`],
/// [`block::decompress_size_prepended`]) produce: 1 GiB. Above it they fail
/// with [`Error::LimitExceeded`](crate::Error::LimitExceeded); the
/// `_with_limit` forms take any other limit.
///
/// ```
/// assert_eq!(vecpress::lz4::DEFAULT_MAX_OUTPUT, 1 << 30);
/// ```
pub const DEFAULT_MAX_OUTPUT: usize = 1 << 30;
