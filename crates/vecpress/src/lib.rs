//! SIMD-accelerated codecs for the columns that databases, search engines
//! and scientific pipelines store: integers, posting lists, floats and bytes.
//!
//! vecpress implements each codec with one kernel per instruction set,
//! chosen once at run time (per CPU: [`tune`]):
//!
//! - [`vbyte`]: VByte (LEB128 varints, as in protobuf, Lucene and Go), with
//!   the Masked VByte SIMD decoder, an AVX-512 decoder, and delta coding
//!   whose prefix sum is fused into the decoders.
//! - [`group_varint`]: the group varints Varint-GB (Google) and Varint-G8IU
//!   (feature `g8iu`, on by default), decoded with one shuffle per group.
//! - [`stream_vbyte`]: Stream VByte (control and data bytes in separate
//!   streams), byte-compatible with the reference C library, with its "0124"
//!   variant, u64 values, fused delta decoding, seeking, and many lists
//!   decoded by one call.
//! - [`bitpack`]: bit packing: SIMD-BP128, FastLanes and PFOR, plain,
//!   frame-of-reference and delta forms.
//! - [`postings`]: queries on compressed posting lists: forward cursors over
//!   every delta-coded format, and the intersection and union of lists.
//! - [`byte_split`]: byte stream split (Parquet's `BYTE_STREAM_SPLIT`), the
//!   transposition of values of any width into byte streams and back.
//! - [`bit_split`]: bit shuffle, the bit-level transposition of the
//!   bitshuffle library and Blosc's `BITSHUFFLE`.
//! - [`lz4`]: the LZ4 block format, with safe decoders that copy in wide
//!   chunks (`pshufb` patterns for close matches) and an adaptive choice
//!   among them (Thompson sampling); [`lz4::hc`]: its high-compression
//!   levels (hash chains, optimal parsing).
//! - [`lz4::frame`]: the LZ4 frame format (`.lz4` files, liblz4's LZ4F), as
//!   `io::Read`/`io::Write` adaptors with checksums, linked blocks, legacy
//!   and skippable frames, and output limits against decompression bombs.
//! - [`blosc`]: Blosc version-1 frames (c-blosc 1.x) with the LZ4 and LZ4HC
//!   compressors and byte or bit shuffle, decoded on one or several cores.
//! - [`container`]: the self-describing file format of the `vecpress`
//!   command: checksummed, independently compressed blocks.
//! - [`codec`]: every codec under a stable id, behind one trait per kind of
//!   data; [`delta`]: plain differential coding.
//!
//! Every decoder takes untrusted input: truncated, corrupt or hostile bytes
//! give an [`Error`] naming what is wrong and where, never a panic and never a
//! read outside the slices passed in. No padding is asked of the caller.
//!
//! [`Isa`] tells which kernels this CPU can run; `VECPRESS_ISA` caps the level
//! for a process, and every codec has `*_with(isa, ...)` entries to run a
//! chosen kernel.
//!
//! ```
//! use vecpress::vbyte;
//!
//! let doc_ids = [3u32, 7, 8, 150, 151, 100_000];
//! let bytes = vbyte::encode_delta_to_vec(&doc_ids, 0);
//! assert_eq!(bytes.len(), 1 + 1 + 1 + 2 + 1 + 3);
//! assert_eq!(vbyte::decode_delta_to_vec(&bytes, doc_ids.len(), 0)?, doc_ids);
//! assert_eq!(vbyte::select_delta(&bytes, doc_ids.len(), 3, 0)?, 150);
//! assert_eq!(vbyte::search_delta(&bytes, doc_ids.len(), 100, 0)?, Some((3, 150)));
//! # Ok::<(), vecpress::Error>(())
//! ```
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod bit_split;
pub mod bitpack;
pub mod blosc;
pub mod byte_split;
pub mod codec;
pub mod container;
pub mod delta;
mod error;
pub mod group_varint;
mod isa;
pub mod lz4;
pub mod postings;
mod scratch;
mod simd;
pub mod stream_vbyte;
pub mod tune;
pub mod vbyte;

pub use error::{Error, Unit};
pub use isa::{Isa, ParseIsaError};

#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
