//! Byte stream split: Parquet's `BYTE_STREAM_SPLIT` encoding, for values of
//! any width.
//!
//! Source: the Parquet format specification, *Encodings*, section
//! ["Byte Stream Split"](https://parquet.apache.org/docs/file-format/data-pages/encodings/#byte-stream-split-byte_stream_split--9).
//! The transform stores nothing of its own; it reorders bytes so that a
//! general-purpose compressor (zstd, LZ4) finds the runs in the sign,
//! exponent and high mantissa bytes of floats.
//!
//! # Format
//!
//! `N` values of `K` bytes each (the width) become `K` streams of `N` bytes,
//! written one after the other: stream `j` holds byte `j` of every value, in
//! order. For `N = 3` values `a, b, c` of `K = 4` bytes:
//!
//! ```text
//!   input   a0 a1 a2 a3 | b0 b1 b2 b3 | c0 c1 c2 c3
//!   output  a0 b0 c0 | a1 b1 c1 | a2 b2 c2 | a3 b3 c3
//!           stream 0   stream 1   stream 2   stream 3
//! ```
//!
//! The output is exactly as long as the input ([`max_encoded_len`] is the
//! identity) and decoding is the inverse transposition. Typed values are
//! split in their little-endian byte order, as Parquet stores them. The
//! width is the caller's to keep; a byte length that is not a whole number
//! of values, a width of zero or an output too small give an [`Error`].
//! There is no corrupt input: every byte string of a whole number of values
//! decodes.
//!
//! # Kernels
//!
//! The transform is a transposition of an `N x K` byte matrix. The scalar
//! code transposes it in tiles that stay in L1; the SIMD kernels transpose
//! it through registers (see `generic.rs`): widths up to 8 padded to 4
//! or 8 bytes by a byte shuffle, then a register of each stream at a time;
//! wider values in 16 x 16 byte tiles. They run while a whole block fits
//! and leave the rest to the scalar code. With AVX-512 VBMI, widths 2, 4,
//! 8 and 16 are transposed 64 values at a time by two-source byte permutes
//! over whole registers (`vpermt2b`), a cache line of each stream per step,
//! the last step masked (`avx512.rs`). On aarch64, widths 2 and 4 use
//! Neon's structure loads and stores (`ld2`/`ld4`, `st2`/`st4`).
//!
//! # Example
//!
//! ```
//! use vecpress::byte_split;
//!
//! let values = [1.5f32, -2.0, 1e-3];
//! let mut bytes = [0u8; 12];
//! assert_eq!(byte_split::encode_f32(&values, &mut bytes)?, 12);
//! // Stream 3 holds the sign and high exponent bits of each value.
//! assert_eq!(&bytes[9..], &[0x3f, 0xc0, 0x3a]);
//!
//! let mut out = [0f32; 3];
//! assert_eq!(byte_split::decode_f32(&bytes, &mut out)?, 3);
//! assert_eq!(out, values);
//! # Ok::<(), vecpress::Error>(())
//! ```

mod lz4;
mod scalar;
mod typed;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod generic;
#[cfg(target_arch = "x86_64")]
mod skew;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod tables;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse41;

// Bit Split's kernels split and join values with them.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use generic::transpose;
pub use lz4::{
    compress_lz4, compress_lz4_to_vec, decompress_lz4, decompress_lz4_with, max_compressed_len_lz4,
};
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use tables::SPLIT;
pub use typed::{
    decode_f32, decode_f64, decode_u16, decode_u32, decode_u64, encode_f32, encode_f64, encode_u16,
    encode_u32, encode_u64,
};

use crate::{Error, Isa};

/// Encoded size of `len` input bytes: the transform only moves bytes.
///
/// ```
/// assert_eq!(vecpress::byte_split::max_encoded_len(12), 12);
/// ```
pub const fn max_encoded_len(len: usize) -> usize {
    len
}

/// Splits `input`, a whole number of values of `width` bytes, into `width`
/// streams written one after the other at the start of `out`, with the best
/// kernel this process may use; returns the bytes written (`input.len()`).
///
/// ```
/// let mut out = [0u8; 6];
/// assert_eq!(vecpress::byte_split::encode(&[1, 2, 3, 4, 5, 6], 2, &mut out), Ok(6));
/// assert_eq!(out, [1, 3, 5, 2, 4, 6]);
/// ```
pub fn encode(input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    encode_impl(
        crate::tune::isa(crate::tune::Op::ByteSplitEncode),
        input,
        width,
        out,
    )
}

/// [`encode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{byte_split, Isa};
/// for &isa in Isa::available() {
///     let mut out = [0u8; 6];
///     assert_eq!(byte_split::encode_with(isa, &[1, 2, 3, 4, 5, 6], 3, &mut out), Ok(6));
///     assert_eq!(out, [1, 4, 2, 5, 3, 6]);
/// }
/// ```
pub fn encode_with(isa: Isa, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    encode_impl(isa.check()?, input, width, out)
}

/// Splits `input` into a new vector.
///
/// ```
/// assert_eq!(vecpress::byte_split::encode_to_vec(&[1, 2, 3, 4], 2), Ok(vec![1, 3, 2, 4]));
/// ```
pub fn encode_to_vec(input: &[u8], width: usize) -> Result<Vec<u8>, Error> {
    count(input.len(), width)?;
    let mut out = vec![0u8; input.len()];
    encode(input, width, &mut out)?;
    Ok(out)
}

/// Joins `width` streams, stored one after the other in `input`, back into
/// values of `width` bytes at the start of `out`, with the best kernel this
/// process may use; returns the bytes written (`input.len()`).
///
/// ```
/// let mut out = [0u8; 6];
/// assert_eq!(vecpress::byte_split::decode(&[1, 3, 5, 2, 4, 6], 2, &mut out), Ok(6));
/// assert_eq!(out, [1, 2, 3, 4, 5, 6]);
/// ```
pub fn decode(input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    decode_impl(
        crate::tune::isa(crate::tune::Op::ByteSplit),
        input,
        width,
        out,
    )
}

/// [`decode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{byte_split, Isa};
/// for &isa in Isa::available() {
///     let mut out = [0u8; 6];
///     assert_eq!(byte_split::decode_with(isa, &[1, 4, 2, 5, 3, 6], 3, &mut out), Ok(6));
///     assert_eq!(out, [1, 2, 3, 4, 5, 6]);
/// }
/// ```
pub fn decode_with(isa: Isa, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    decode_impl(isa.check()?, input, width, out)
}

/// Joins the streams in `input` into a new vector.
///
/// ```
/// assert_eq!(vecpress::byte_split::decode_to_vec(&[1, 3, 2, 4], 2), Ok(vec![1, 2, 3, 4]));
/// ```
pub fn decode_to_vec(input: &[u8], width: usize) -> Result<Vec<u8>, Error> {
    count(input.len(), width)?;
    let mut out = vec![0u8; input.len()];
    decode(input, width, &mut out)?;
    Ok(out)
}

/// Splits `input` into `width` separate slices: `streams[j]` receives byte
/// `j` of every value (its first `input.len() / width` bytes are written).
/// Returns the number of values.
///
/// ```
/// let (mut lo, mut hi) = ([0u8; 3], [0u8; 3]);
/// let n = vecpress::byte_split::encode_streams(&[1, 2, 3, 4, 5, 6], 2, &mut [&mut lo, &mut hi])?;
/// assert_eq!((n, lo, hi), (3, [1, 3, 5], [2, 4, 6]));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn encode_streams(
    input: &[u8],
    width: usize,
    streams: &mut [&mut [u8]],
) -> Result<usize, Error> {
    let n = count(input.len(), width)?;
    stream_count(streams.len(), width)?;
    for s in streams.iter() {
        room(n, s.len())?;
    }
    let mut sink = Separate { streams, n };
    encode_into(
        crate::tune::isa(crate::tune::Op::ByteSplitEncode),
        input,
        width,
        &mut sink,
    );
    Ok(n)
}

/// Joins `width` separate streams of equal length into values at the start
/// of `out`; returns the number of values.
///
/// ```
/// let mut out = [0u8; 6];
/// let n = vecpress::byte_split::decode_streams(&[&[1, 3, 5], &[2, 4, 6]], 2, &mut out)?;
/// assert_eq!((n, out), (3, [1, 2, 3, 4, 5, 6]));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decode_streams(streams: &[&[u8]], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    stream_count(streams.len(), width)?;
    let n = streams.first().map_or(0, |s| s.len());
    if let Some(j) = streams.iter().position(|s| s.len() != n) {
        return Err(Error::InvalidArgument {
            what: "streams of unequal lengths",
            value: j,
        });
    }
    let len = n.checked_mul(width).ok_or(Error::InvalidArgument {
        what: "stream length overflows",
        value: n,
    })?;
    room(len, out.len())?;
    join_streams(
        crate::tune::isa(crate::tune::Op::ByteSplit),
        streams,
        &mut out[..len],
    );
    Ok(n)
}

/// Joins `streams` (one per byte of a value, each at least
/// `out.len() / streams.len()` bytes long) into `out` with the kernels of
/// `isa`, which the caller has checked; `out` holds a whole number of
/// values. For callers whose streams are not one buffer, as Blosc's split
/// blocks, whose parts that did not compress stay in the frame.
pub(crate) fn join_streams(isa: Isa, streams: &[&[u8]], out: &mut [u8]) {
    let width = streams.len();
    debug_assert!(width > 0 && out.len().is_multiple_of(width));
    let n = out.len() / width;
    decode_from(isa, &SeparateIn { streams, n }, width, out);
}

/// Decodes values `start..start + count` of a page (all `width` streams of
/// the whole page, one after the other, as [`encode`] writes them) straight
/// into `out`, reading only their bytes of each stream; returns the bytes
/// written (`count * width`). This is Arrow's `stride` argument: a reader
/// can decode a page in batches without joining it whole.
///
/// ```
/// use vecpress::byte_split;
/// let page = byte_split::encode_to_vec(&[1, 2, 3, 4, 5, 6, 7, 8], 2)?;
/// let mut out = [0u8; 4];
/// assert_eq!(byte_split::decode_range(&page, 2, 1, 2, &mut out), Ok(4));
/// assert_eq!(out, [3, 4, 5, 6]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decode_range(
    page: &[u8],
    width: usize,
    start: usize,
    count: usize,
    out: &mut [u8],
) -> Result<usize, Error> {
    decode_range_with(
        crate::tune::isa(crate::tune::Op::ByteSplit),
        page,
        width,
        start,
        count,
        out,
    )
}

/// [`decode_range`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
///
/// ```
/// use vecpress::{byte_split, Isa};
/// let page = byte_split::encode_to_vec(&[1, 2, 3, 4, 5, 6], 3)?;
/// let mut out = [0u8; 3];
/// assert_eq!(byte_split::decode_range_with(Isa::Scalar, &page, 3, 1, 1, &mut out), Ok(3));
/// assert_eq!(out, [4, 5, 6]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decode_range_with(
    isa: Isa,
    page: &[u8],
    width: usize,
    start: usize,
    count: usize,
    out: &mut [u8],
) -> Result<usize, Error> {
    let isa = isa.check()?;
    let rows = self::count(page.len(), width)?;
    if start > rows || count > rows - start {
        return Err(Error::OutOfRange {
            index: if count == 0 { start } else { start + count - 1 },
            len: rows,
        });
    }
    let len = count * width;
    room(len, out.len())?;
    let src = Strided {
        page,
        rows,
        start,
        count,
    };
    decode_from(isa, &src, width, &mut out[..len]);
    Ok(len)
}

/// The levels that have a kernel of their own, among those available.
///
/// ```
/// assert_eq!(vecpress::byte_split::kernels()[0], vecpress::Isa::Scalar);
/// ```
pub fn kernels() -> Vec<Isa> {
    Isa::available()
        .iter()
        .copied()
        .filter(|isa| {
            matches!(
                isa,
                Isa::Scalar | Isa::Sse41 | Isa::Avx2 | Isa::Avx512 | Isa::Neon
            )
        })
        .collect()
}

/// The number of values in `len` bytes of `width`-byte values: the check
/// byte split and bit shuffle make of their width and length.
pub(crate) fn count(len: usize, width: usize) -> Result<usize, Error> {
    if width == 0 {
        return Err(Error::InvalidArgument {
            what: "width of zero",
            value: 0,
        });
    }
    if !len.is_multiple_of(width) {
        return Err(Error::InvalidArgument {
            what: "byte length not a multiple of the width",
            value: len,
        });
    }
    Ok(len / width)
}

fn room(needed: usize, actual: usize) -> Result<(), Error> {
    if actual < needed {
        return Err(Error::OutputTooSmall { needed, actual });
    }
    Ok(())
}

fn stream_count(streams: usize, width: usize) -> Result<(), Error> {
    count(0, width)?;
    if streams != width {
        return Err(Error::InvalidArgument {
            what: "number of streams differs from the width",
            value: streams,
        });
    }
    Ok(())
}

fn encode_impl(isa: Isa, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    let n = count(input.len(), width)?;
    room(input.len(), out.len())?;
    let mut sink = Packed {
        out: &mut out[..input.len()],
        n,
    };
    encode_into(isa, input, width, &mut sink);
    Ok(input.len())
}

fn decode_impl(isa: Isa, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    let n = count(input.len(), width)?;
    room(input.len(), out.len())?;
    let src = Strided {
        page: input,
        rows: n,
        start: 0,
        count: n,
    };
    decode_from(isa, &src, width, &mut out[..input.len()]);
    Ok(input.len())
}

/// Widths where the Avx2 level runs the 16-byte kernels rather than the
/// 32-byte ones: at widths 2 to 4 a 32-byte register holds two 16-value
/// problems loaded and stored a lane at a time, which costs more than it
/// saves; at width 16 the encoder's tile of 16 ymm registers spills.
#[cfg(target_arch = "x86_64")]
const SSE_AT_AVX2: NarrowWidths = NarrowWidths {
    encode: &[2, 3, 4, 16],
    decode: &[2, 4],
};

/// Widths, per direction, with kernels of their own at the Avx512 level
/// (`avx512.rs`); the others run the Avx2 level's. Width 2 encodes with the
/// 16-byte kernel, as at the Avx2 level (`SSE_AT_AVX2`).
#[cfg(target_arch = "x86_64")]
const AVX512_WIDTHS: NarrowWidths = NarrowWidths {
    encode: &[4, 8, 16],
    decode: &[2, 4, 8, 16],
};

/// Widths, per direction, where a level runs a narrower level's kernel.
#[cfg(target_arch = "x86_64")]
struct NarrowWidths {
    encode: &'static [usize],
    decode: &'static [usize],
}

#[cfg(target_arch = "x86_64")]
impl NarrowWidths {
    fn encode(&self, width: usize) -> bool {
        self.encode.contains(&width)
    }
    fn decode(&self, width: usize) -> bool {
        self.decode.contains(&width)
    }
}

/// The one map from ISA level to encoding kernel. `input` holds a whole
/// number of values and every stream of `out` room for them. The kernel
/// splits a prefix of the values; the scalar code does the rest.
fn encode_into(isa: Isa, input: &[u8], width: usize, out: &mut impl Sink) {
    if width == 1 {
        out.stream(0).copy_from_slice(input);
        return;
    }
    let done = match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the CPU has
        // SSE4.1; the callers checked the lengths the kernel relies on.
        Isa::Sse41 => unsafe { sse41::level::encode(input, width, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has every feature of the Avx512 level.
        Isa::Avx512 if AVX512_WIDTHS.encode(width) => unsafe { avx512::encode(input, width, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has SSE4.1 (the Avx2 level implies it). See
        // `SSE_AT_AVX2`.
        Isa::Avx2 | Isa::Avx512 if SSE_AT_AVX2.encode(width) => unsafe {
            sse41::level::encode(input, width, out)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has every feature of the Avx2 level (Avx512
        // implies them; `avx2.rs` says why not 512-bit registers).
        Isa::Avx2 | Isa::Avx512 => unsafe { avx2::level::encode(input, width, out) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has Neon.
        Isa::Neon => unsafe { neon::encode_neon(input, width, out) },
        _ => 0,
    };
    scalar::encode(input, width, out, done);
}

/// The one map from ISA level to decoding kernel: fills `out` (a whole
/// number of values) from the streams of `src`.
fn decode_from(isa: Isa, src: &impl Source, width: usize, out: &mut [u8]) {
    if width == 1 {
        out.copy_from_slice(src.stream(0));
        return;
    }
    let done = match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the CPU has
        // SSE4.1; every stream of `src` holds `out.len() / width` bytes.
        Isa::Sse41 => unsafe { sse41::level::decode(src, width, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has every feature of the Avx512 level.
        Isa::Avx512 if AVX512_WIDTHS.decode(width) => unsafe { avx512::decode(src, width, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has SSE4.1 (the Avx2 level implies it). See
        // `SSE_AT_AVX2`.
        Isa::Avx2 | Isa::Avx512 if SSE_AT_AVX2.decode(width) => unsafe {
            sse41::level::decode(src, width, out)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has every feature of the Avx2 level (Avx512 implies them).
        Isa::Avx2 | Isa::Avx512 => unsafe { avx2::level::decode(src, width, out) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has Neon.
        Isa::Neon => unsafe { neon::decode_neon(src, width, out) },
        _ => 0,
    };
    scalar::decode(src, width, out, done);
}

/// The streams an encoder writes: `stream(j)` is exactly `n` bytes long.
pub(crate) trait Sink {
    /// The number of values (the length of every stream).
    fn n(&self) -> usize;
    /// Stream `j`, for `j` below the width.
    fn stream(&mut self, j: usize) -> &mut [u8];
}

/// The streams a decoder reads: `stream(j)` is exactly `n` bytes long.
pub(crate) trait Source {
    /// Stream `j`, for `j` below the width.
    fn stream(&self, j: usize) -> &[u8];
}

/// Streams stored one after the other in one buffer of `width * n` bytes.
struct Packed<'a> {
    out: &'a mut [u8],
    n: usize,
}

impl Sink for Packed<'_> {
    #[inline(always)]
    fn n(&self) -> usize {
        self.n
    }
    #[inline(always)]
    fn stream(&mut self, j: usize) -> &mut [u8] {
        &mut self.out[j * self.n..][..self.n]
    }
}

/// Streams in separate slices, each at least `n` bytes long.
struct Separate<'a, 'b> {
    streams: &'a mut [&'b mut [u8]],
    n: usize,
}

impl Sink for Separate<'_, '_> {
    #[inline(always)]
    fn n(&self) -> usize {
        self.n
    }
    #[inline(always)]
    fn stream(&mut self, j: usize) -> &mut [u8] {
        &mut self.streams[j][..self.n]
    }
}

/// Rows `start..start + count` of the streams of a page of `rows` values.
struct Strided<'a> {
    page: &'a [u8],
    rows: usize,
    start: usize,
    count: usize,
}

impl Source for Strided<'_> {
    #[inline(always)]
    fn stream(&self, j: usize) -> &[u8] {
        &self.page[j * self.rows + self.start..][..self.count]
    }
}

/// Streams in separate slices of `n` bytes each.
struct SeparateIn<'a, 'b> {
    streams: &'a [&'b [u8]],
    n: usize,
}

impl Source for SeparateIn<'_, '_> {
    #[inline(always)]
    fn stream(&self, j: usize) -> &[u8] {
        &self.streams[j][..self.n]
    }
}
