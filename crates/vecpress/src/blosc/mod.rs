//! Blosc version-1 frames (c-blosc 1.x, `blosc_compress`), with the LZ4
//! and LZ4HC compressors.
//!
//! Source: c-blosc's `README_HEADER.rst` (github.com/Blosc/c-blosc), and its
//! `blosc.c` for what the header leaves unsaid (when blocks are split, the
//! automatic block size, how a block that does not shrink is stored).
//!
//! # Format
//!
//! ```text
//!   0        1          2      3         4..8     8..12      12..16
//!   version  versionlz  flags  typesize  nbytes   blocksize  cbytes     16-byte header
//!   (2)      (1)                         (i32 LE: uncompressed, block and frame sizes)
//!   bstarts: one i32 LE per block, the offset of the block in the frame
//!   blocks:  per block, per split: csize (i32 LE), then csize bytes
//! ```
//!
//! Flags: bit 0 byte shuffle, bit 1 "memcpyed" (the frame is the header
//! followed by the raw data, no offsets), bit 2 bit shuffle, bit 3 reserved,
//! bit 4 "don't split", bits 5-7 the compressor (0 blosclz, 1 lz4 or lz4hc,
//! 2 snappy, 3 zlib, 4 zstd).
//!
//! The data is cut into blocks of `blocksize` bytes, the last one shorter
//! (the leftover). Each block is shuffled whole (byte shuffle: a
//! [byte split](crate::byte_split) of its `blocksize / typesize` values,
//! the bytes beyond them copied; bit shuffle: a
//! [bit shuffle](crate::bit_split) of its values when their number is a
//! multiple of 8, else the block is kept as it is), then compressed as
//! `typesize` splits of equal size (byte stream `j` on its own) or as one.
//! A split whose compressed size equals its uncompressed size is stored raw.
//! Blocks are split unless the "don't split" flag is set, the block is the
//! leftover, the typesize is above 16 or the block holds fewer than 128
//! values.
//!
//! Frames of other compressors give [`Error::UnsupportedFormat`] naming
//! the compressor. Decoding takes untrusted input: every size and offset
//! is checked against the frame, and the uncompressed size against a limit
//! ([`crate::lz4::DEFAULT_MAX_OUTPUT`] unless the caller gives one).
//!
//! # Example
//!
//! ```
//! use vecpress::blosc::{self, Params, Shuffle};
//!
//! let values: Vec<u8> = (0..10_000u32).flat_map(|i| (i / 3).to_le_bytes()).collect();
//! let frame = blosc::compress(&values, &Params::lz4(5, Shuffle::Byte, 4))?;
//! assert!(frame.len() < values.len() / 4);
//! assert_eq!(blosc::Header::parse(&frame)?.nbytes, values.len());
//! assert_eq!(blosc::decompress(&frame)?, values);
//! # Ok::<(), vecpress::Error>(())
//! ```

mod decode;
mod encode;
mod threads;

pub use decode::{
    decompress, decompress_into, decompress_with, decompress_with_limit, decompressed_len,
    max_decompressed_len,
};
pub use encode::{compress, compress_into};
pub use threads::{decompress_into_threads, decompress_threads_with};

use crate::Error;

/// Length of the header.
pub const HEADER_LEN: usize = 16;

/// The most a frame adds to its data (`BLOSC_MAX_OVERHEAD`).
pub const MAX_OVERHEAD: usize = 16;

/// The format version this module reads and writes (`BLOSC_VERSION_FORMAT`).
pub const VERSION_FORMAT: u8 = 2;

/// The version of the LZ4 format inside (`BLOSC_LZ4_VERSION_FORMAT`).
pub const LZ4_VERSION_FORMAT: u8 = 1;

/// The largest block c-blosc accepts (`BLOSC_MAX_BLOCKSIZE`).
pub const MAX_BLOCKSIZE: usize = (i32::MAX as usize - 255 * 4) / 3;

/// The largest input c-blosc compresses (`BLOSC_MAX_BUFFERSIZE`).
pub const MAX_BUFFERSIZE: usize = i32::MAX as usize - MAX_OVERHEAD;

/// Below this many bytes the data is stored raw; blocks of fewer values are
/// not split (`MIN_BUFFERSIZE`).
pub const MIN_BUFFERSIZE: usize = 128;

/// Blocks of values wider than this are not split (`MAX_SPLITS`).
pub const MAX_SPLITS: usize = 16;

/// Flag bit 0: byte shuffle.
pub const DOSHUFFLE: u8 = 0x1;
/// Flag bit 1: the data follows the header raw.
pub const MEMCPYED: u8 = 0x2;
/// Flag bit 2: bit shuffle.
pub const DOBITSHUFFLE: u8 = 0x4;
/// Flag bit 4: blocks are not split.
pub const DONT_SPLIT: u8 = 0x10;

/// Worst-case frame size for `len` bytes of input.
///
/// ```
/// assert_eq!(vecpress::blosc::max_compressed_len(1000), 1016);
/// ```
pub const fn max_compressed_len(len: usize) -> usize {
    len + MAX_OVERHEAD
}

/// The shuffle applied to each block before compression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shuffle {
    /// None (`BLOSC_NOSHUFFLE`).
    None,
    /// Byte shuffle (`BLOSC_SHUFFLE`): Blosc's name for byte split.
    Byte,
    /// Bit shuffle (`BLOSC_BITSHUFFLE`).
    Bit,
}

/// The compressors this module writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compressor {
    /// LZ4's fast compressor, accelerated by `10 - clevel`.
    Lz4,
    /// LZ4's high-compression parser at level `clevel`; the same format.
    Lz4hc,
}

impl Compressor {
    /// The name c-blosc and numcodecs give it (`cname`).
    ///
    /// ```
    /// assert_eq!(vecpress::blosc::Compressor::Lz4hc.name(), "lz4hc");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Compressor::Lz4 => "lz4",
            Compressor::Lz4hc => "lz4hc",
        }
    }
}

/// When blocks are split into byte streams compressed one by one
/// (c-blosc's `blosc_set_splitmode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SplitMode {
    /// c-blosc's default (`BLOSC_FORWARD_COMPAT_SPLIT`): split when the
    /// typesize is at most 16 and a block holds at least 128 values.
    ForwardCompat,
    /// `BLOSC_AUTO_SPLIT`: never for LZ4.
    Auto,
    /// `BLOSC_ALWAYS_SPLIT`.
    Always,
    /// `BLOSC_NEVER_SPLIT`.
    Never,
}

/// How to compress: the parameters of `blosc_compress_ctx`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Params {
    /// The compressor (`cname`).
    pub compressor: Compressor,
    /// 0 (store raw) to 9.
    pub clevel: u8,
    /// The shuffle of each block.
    pub shuffle: Shuffle,
    /// The width of the values in bytes; above 255 the data is taken as
    /// bytes (typesize 1), as c-blosc does.
    pub typesize: usize,
    /// The block size in bytes, or 0 for c-blosc's automatic choice.
    pub blocksize: usize,
    /// When to split blocks.
    pub split: SplitMode,
}

impl Params {
    /// LZ4 at `clevel` with `shuffle` on values of `typesize` bytes, the
    /// automatic block size and c-blosc's default split mode.
    ///
    /// ```
    /// use vecpress::blosc::{Params, Shuffle};
    /// let p = Params::lz4(5, Shuffle::Byte, 8);
    /// assert_eq!((p.compressor.name(), p.blocksize), ("lz4", 0));
    /// ```
    pub const fn lz4(clevel: u8, shuffle: Shuffle, typesize: usize) -> Params {
        Params {
            compressor: Compressor::Lz4,
            clevel,
            shuffle,
            typesize,
            blocksize: 0,
            split: SplitMode::ForwardCompat,
        }
    }
}

impl Default for Params {
    /// numcodecs' default: `Blosc(cname="lz4", clevel=5, shuffle=SHUFFLE)`,
    /// here on bytes.
    fn default() -> Params {
        Params::lz4(5, Shuffle::Byte, 1)
    }
}

/// The fields of a frame's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Header {
    /// The format version (2).
    pub version: u8,
    /// The version of the compressor's format.
    pub versionlz: u8,
    /// The flag bits ([`DOSHUFFLE`], [`MEMCPYED`], ...) and the compressor.
    pub flags: u8,
    /// The width of the values in bytes.
    pub typesize: usize,
    /// The uncompressed size.
    pub nbytes: usize,
    /// The block size.
    pub blocksize: usize,
    /// The frame's size.
    pub cbytes: usize,
}

impl Header {
    /// Reads the header at the start of `frame`, checking the fields each
    /// frame must satisfy (sizes not negative, a known version).
    ///
    /// ```
    /// use vecpress::blosc::{self, Header, Params, Shuffle};
    /// let frame = blosc::compress(&[0u8; 1000], &Params::lz4(5, Shuffle::Bit, 4))?;
    /// let h = Header::parse(&frame)?;
    /// assert_eq!((h.nbytes, h.typesize, h.cbytes), (1000, 4, frame.len()));
    /// assert_eq!(h.compressor_name(), "lz4");
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    pub fn parse(frame: &[u8]) -> Result<Header, Error> {
        let h = frame.get(..HEADER_LEN).ok_or_else(|| Error::Truncated {
            offset: 0,
            needed: HEADER_LEN - frame.len(),
            unit: crate::Unit::Bytes,
        })?;
        if h[0] != VERSION_FORMAT {
            return Err(Error::UnsupportedFormat {
                offset: 0,
                what: "blosc format version other than 2",
            });
        }
        let size = |at: usize, what: &'static str| {
            let v = i32::from_le_bytes([h[at], h[at + 1], h[at + 2], h[at + 3]]);
            usize::try_from(v).map_err(|_| Error::Corrupt { offset: at, what })
        };
        Ok(Header {
            version: h[0],
            versionlz: h[1],
            flags: h[2],
            typesize: usize::from(h[3]),
            nbytes: size(4, "negative uncompressed size")?,
            blocksize: size(8, "negative block size")?,
            cbytes: size(12, "negative frame size")?,
        })
    }

    /// The compressor's name from the flags: `"lz4"` covers lz4hc, which
    /// writes the same format.
    pub const fn compressor_name(&self) -> &'static str {
        match self.flags >> 5 {
            0 => "blosclz",
            1 => "lz4",
            2 => "snappy",
            3 => "zlib",
            4 => "zstd",
            _ => "unknown",
        }
    }
}
