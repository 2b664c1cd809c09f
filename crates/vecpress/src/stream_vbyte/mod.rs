//! Stream VByte (Lemire, Kurz, Rupp, *Stream VByte: Faster Byte-Oriented
//! Integer Compression*, 2018): control bytes and data bytes in two streams.
//!
//! - [`u64`]: the 64-bit variant with byte lengths 1, 2, 4 and 8, as the
//!   `streamvbyte64` crate's `Coder1248` writes it.

pub mod u64;
