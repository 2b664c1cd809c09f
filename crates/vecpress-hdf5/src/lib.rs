//! HDF5 filter plugins over vecpress's codecs: Blosc (filter 32001), LZ4
//! (32004) and bitshuffle (32008), byte-compatible both ways with the
//! filters hdf5plugin ships (hdf5-blosc with c-blosc 1.x, HDF5's LZ4
//! filter, and the bitshuffle library's filter).
//!
//! HDF5 loads one filter from each plugin library (`H5PLget_plugin_info`
//! returns one `H5Z_class2_t`), so each filter has its own `cdylib` under
//! `crates/vecpress-hdf5/plugins/`: `libvecpress_h5blosc.so`,
//! `libvecpress_h5lz4.so` and `libvecpress_h5bshuf.so`. Each is one line,
//! [`plugin!`], over this crate. Put the three in a folder named by
//! `HDF5_PLUGIN_PATH` and any HDF5 program (h5py's `ds[:]`, `h5dump`)
//! reads and writes these filters with vecpress:
//!
//! ```text
//! cargo build --release -p vecpress-h5blosc -p vecpress-h5lz4 -p vecpress-h5bshuf
//! mkdir -p plugins && cp target/release/libvecpress_h5*.so plugins/
//! HDF5_PLUGIN_PATH=$PWD/plugins h5dump data.h5
//! ```
//!
//! The filter logic is safe Rust ([`decode`], [`encode`]), generic over
//! the [`Buffer`] it fills, so that tests use `Vec<u8>` and HDF5 gets a
//! `malloc`ed buffer it can free. The C side ([`ffi`]) catches panics,
//! maps errors to HDF5's failure return (0) and frees what HDF5 hands over;
//! `set_local` ([`ffi`] through [`hdf5`]) fills in the parameters the
//! reference filters derive from the dataset (type size, chunk size).
//!
//! The parameters (`cd_values`) are those of the reference filters:
//!
//! | filter | `cd_values` |
//! |---|---|
//! | Blosc | filter revision (2), Blosc format (2), type size, chunk bytes, clevel, shuffle (0 none, 1 byte, 2 bit), compressor (0 blosclz, 1 lz4, 2 lz4hc, 3 snappy, 4 zlib, 5 zstd) |
//! | LZ4 | block size in bytes (absent or 0: 1 GiB) |
//! | bitshuffle | version (2 values), element size, block size in elements (0: default), compression (0 none, 2 lz4, 3 zstd) |
//!
//! A Blosc chunk of 4 MiB or more decodes on [`threads`] threads
//! (`VECPRESS_NTHREADS`, else the cores up to 8); smaller ones on one.
//!
//! vecpress reads and writes LZ4 and LZ4HC inside Blosc and LZ4 inside
//! bitshuffle; chunks of the other compressors fail with
//! [`Error::Unsupported`] (HDF5 reports a read error).
//!
//! # Example
//!
//! ```
//! use vecpress_hdf5::{Filter, decode_to_vec, encode_to_vec};
//!
//! let data: Vec<u8> = (0..4000u32).flat_map(|i| (i / 3).to_le_bytes()).collect();
//! // Blosc, lz4 at clevel 5 with byte shuffle, on 4-byte values.
//! let cd = [2, 2, 4, data.len() as u32, 5, 1, 1];
//! let chunk = encode_to_vec(Filter::Blosc, &cd, &data)?;
//! assert!(chunk.len() < data.len() / 4);
//! assert_eq!(decode_to_vec(Filter::Blosc, &cd, &chunk)?, data);
//! # Ok::<(), vecpress_hdf5::Error>(())
//! ```
#![deny(
    missing_docs,
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks
)]

mod bitshuffle;
mod blosc;
mod error;
pub mod ffi;
pub mod hdf5;
mod lz4;

pub use error::Error;

use core::ops::DerefMut;

/// The three filters, by their registered HDF5 ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Filter {
    /// Blosc (hdf5-blosc), id 32001.
    Blosc,
    /// LZ4 (HDF5's LZ4 filter), id 32004.
    Lz4,
    /// Bitshuffle, with or without LZ4, id 32008.
    Bitshuffle,
}

impl Filter {
    /// The filter's registered id.
    ///
    /// ```
    /// assert_eq!(vecpress_hdf5::Filter::Bitshuffle.id(), 32008);
    /// ```
    pub const fn id(self) -> u32 {
        match self {
            Filter::Blosc => 32001,
            Filter::Lz4 => 32004,
            Filter::Bitshuffle => 32008,
        }
    }

    /// The filter with registered id `id`, if it is one of these.
    ///
    /// ```
    /// use vecpress_hdf5::Filter;
    /// assert_eq!(Filter::from_id(32004), Some(Filter::Lz4));
    /// assert_eq!(Filter::from_id(32015), None);
    /// ```
    pub const fn from_id(id: u32) -> Option<Filter> {
        match id {
            32001 => Some(Filter::Blosc),
            32004 => Some(Filter::Lz4),
            32008 => Some(Filter::Bitshuffle),
            _ => None,
        }
    }

    /// The name HDF5 shows for the filter (its `H5Z_class2_t` name).
    ///
    /// ```
    /// assert_eq!(vecpress_hdf5::Filter::Blosc.name(), "blosc (vecpress)");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Filter::Blosc => "blosc (vecpress)",
            Filter::Lz4 => "lz4 (vecpress)",
            Filter::Bitshuffle => "bitshuffle (vecpress)",
        }
    }
}

/// An output buffer the filters allocate and fill: `Vec<u8>` here, a
/// `malloc`ed buffer for HDF5 ([`ffi::MallocBuf`]).
pub trait Buffer: DerefMut<Target = [u8]> + Sized {
    /// A buffer of `len` zero bytes, or `None` when memory is short.
    fn zeroed(len: usize) -> Option<Self>;
}

impl Buffer for Vec<u8> {
    fn zeroed(len: usize) -> Option<Vec<u8>> {
        let mut v = Vec::new();
        v.try_reserve_exact(len).ok()?;
        v.resize(len, 0);
        Some(v)
    }
}

/// A buffer `len` bytes long or [`Error::OutOfMemory`].
/// The threads a Blosc chunk decodes on (its blocks, or the splits of its
/// one block): `VECPRESS_NTHREADS` when set to a number, else the cores
/// this process may use, up to 8, as c-blosc counts them. HDF5 runs filters
/// one chunk at a time, so the spare cores would idle otherwise.
pub fn threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| {
        std::env::var("VECPRESS_NTHREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(8)))
            .max(1)
    })
}

pub(crate) fn alloc<B: Buffer>(len: usize) -> Result<B, Error> {
    B::zeroed(len).ok_or(Error::OutOfMemory { size: len })
}

/// What a filter made: the buffer and how many of its bytes are valid (the
/// buffer may be longer, as the worst-case size of a compressed chunk).
#[derive(Debug)]
pub struct Filtered<B> {
    /// The buffer.
    pub buf: B,
    /// The valid bytes at its start.
    pub len: usize,
}

/// Decodes (HDF5's reverse direction) one stored chunk `input` of
/// `filter` with its parameters `cd`.
///
/// The input is untrusted: every size it states is checked against what
/// it can hold before the output is allocated.
///
/// # Errors
/// [`Error::Codec`] for bytes that do not decode, [`Error::Params`] for
/// parameters the filter cannot work with, [`Error::Unsupported`] for a
/// compressor vecpress does not read, [`Error::OutOfMemory`].
///
/// ```
/// use vecpress_hdf5::{Filter, Filtered, decode};
/// let frame = vecpress::blosc::compress(&[7u8; 1000], &Default::default())?;
/// let out: Filtered<Vec<u8>> = decode(Filter::Blosc, &[2, 2, 1, 1000], &frame)?;
/// assert_eq!(&out.buf[..out.len], &[7u8; 1000][..]);
/// assert!(decode::<Vec<u8>>(Filter::Blosc, &[2, 2, 1, 1000], &frame[..20]).is_err());
/// # Ok::<(), vecpress_hdf5::Error>(())
/// ```
pub fn decode<B: Buffer>(filter: Filter, cd: &[u32], input: &[u8]) -> Result<Filtered<B>, Error> {
    match filter {
        Filter::Blosc => blosc::decode(cd, input),
        Filter::Lz4 => lz4::decode(input),
        Filter::Bitshuffle => bitshuffle::decode(cd, input),
    }
}

/// Encodes (HDF5's forward direction) one chunk `input` with `filter` and
/// its parameters `cd` (as `set_local` completed them), as the reference
/// filter writes it.
///
/// # Errors
/// [`Error::Params`] for parameters the filter cannot work with,
/// [`Error::Unsupported`] for a compressor vecpress does not write,
/// [`Error::NotSmaller`] for a Blosc frame that would not fit in the
/// chunk's size (c-blosc fails there too, and HDF5 stores the chunk
/// unfiltered), [`Error::OutOfMemory`].
///
/// ```
/// use vecpress_hdf5::{Filter, encode};
/// let out = encode::<Vec<u8>>(Filter::Lz4, &[], &[0u8; 5000])?;
/// assert!(out.len < 100);
/// # Ok::<(), vecpress_hdf5::Error>(())
/// ```
pub fn encode<B: Buffer>(filter: Filter, cd: &[u32], input: &[u8]) -> Result<Filtered<B>, Error> {
    match filter {
        Filter::Blosc => blosc::encode(cd, input),
        Filter::Lz4 => lz4::encode(cd, input),
        Filter::Bitshuffle => bitshuffle::encode(cd, input),
    }
}

/// [`decode`] into a vector of exactly the decoded bytes.
///
/// ```
/// use vecpress_hdf5::{Filter, decode_to_vec, encode_to_vec};
/// let chunk = encode_to_vec(Filter::Lz4, &[1024], &[3u8; 5000])?;
/// assert_eq!(decode_to_vec(Filter::Lz4, &[1024], &chunk)?, [3u8; 5000]);
/// # Ok::<(), vecpress_hdf5::Error>(())
/// ```
pub fn decode_to_vec(filter: Filter, cd: &[u32], input: &[u8]) -> Result<Vec<u8>, Error> {
    let Filtered { mut buf, len } = decode::<Vec<u8>>(filter, cd, input)?;
    buf.truncate(len);
    Ok(buf)
}

/// [`encode`] into a vector of exactly the encoded bytes.
///
/// ```
/// use vecpress_hdf5::{Filter, encode_to_vec};
/// // Bitshuffle without compression keeps the size.
/// assert_eq!(encode_to_vec(Filter::Bitshuffle, &[0, 4, 2, 0, 0], &[1u8; 64])?.len(), 64);
/// # Ok::<(), vecpress_hdf5::Error>(())
/// ```
pub fn encode_to_vec(filter: Filter, cd: &[u32], input: &[u8]) -> Result<Vec<u8>, Error> {
    let Filtered { mut buf, len } = encode::<Vec<u8>>(filter, cd, input)?;
    buf.truncate(len);
    Ok(buf)
}
