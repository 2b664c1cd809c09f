//! Bit packing: integers stored in exactly as many bits as the largest of a
//! block needs, the family that integer columns and posting lists use
//! (Lucene, tantivy, Parquet, FastLanes).
//!
//! - [`bp128`]: SIMD-BP128 (Lemire and Boytsov 2015), blocks of 128 (or 256)
//!   u32 in the lane-interleaved layout of simdcomp, byte-compatible with the
//!   `bitpacking` crate's `BitPacker4x` (and `BitPacker8x`), plain and sorted
//!   (delta) forms.
//! - [`fastlanes`]: FastLanes (Afroozeh and Boncz 2023), blocks of 1024 u8,
//!   u16, u32 or u64 in the unified transposed layout, byte-compatible with
//!   the `fastlanes` crate: plain, frame of reference and delta.
//! - [`pfor`]: PFOR for posting lists, blocks of 128 u32 packed in the width
//!   that makes each smallest, the larger values patched in as exceptions;
//!   the packed part is a bp128 block.
//!
//! A packed block carries no header: its width comes with it out of band (as
//! in `bitpacking`), and a stream format built on blocks stores the widths.

pub mod bp128;
pub mod fastlanes;
pub mod pfor;
mod stream;
