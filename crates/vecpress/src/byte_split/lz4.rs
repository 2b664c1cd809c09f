//! Byte stream split followed by LZ4: floats compressed in one call.
//!
//! The values are split into their byte streams (see the module docs), and
//! the streams compressed as one LZ4 block. The stream stores neither the
//! width nor the length: the caller keeps both, as with every vecpress codec
//! (the container records them).
#![forbid(unsafe_code)]

use crate::lz4::block;
use crate::{Error, Isa, scratch};

/// Worst-case compressed size of `len` input bytes: LZ4's bound.
///
/// ```
/// use vecpress::{byte_split, lz4};
/// assert_eq!(byte_split::max_compressed_len_lz4(4096), lz4::block::max_compressed_len(4096));
/// ```
pub const fn max_compressed_len_lz4(len: usize) -> usize {
    block::max_compressed_len(len)
}

/// Splits `input` (values of `width` bytes) into byte streams and compresses
/// them as one LZ4 block into `out`; returns the bytes written.
///
/// # Errors
/// As [`encode`](super::encode) for the width and length;
/// [`Error::OutputTooSmall`] when `out` holds less than
/// [`max_compressed_len_lz4`]`(input.len())` and the block does not fit.
///
/// ```
/// use vecpress::byte_split;
///
/// // A slow random walk: the high bytes of each double repeat.
/// let readings: Vec<f64> = (0..4096).map(|i| 20.0 + (i % 97) as f64 * 0.01).collect();
/// let bytes: Vec<u8> = readings.iter().flat_map(|v| v.to_le_bytes()).collect();
/// let mut packed = vec![0u8; byte_split::max_compressed_len_lz4(bytes.len())];
/// let n = byte_split::compress_lz4(&bytes, 8, &mut packed)?;
/// assert!(n < bytes.len() / 2);
///
/// let mut out = vec![0u8; bytes.len()];
/// assert_eq!(byte_split::decompress_lz4(&packed[..n], 8, &mut out)?, bytes.len());
/// assert_eq!(out, bytes);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_lz4(input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    // The streams go through this thread's scratch buffer: a new zeroed
    // one per call would cost a pass of its own over the data.
    scratch::with(input.len(), |streams| {
        super::encode(input, width, streams)?;
        block::compress_into(streams, out)
    })
}

/// Decompresses an LZ4 block of byte streams and joins them back into
/// values of `width` bytes, filling `out` exactly; returns `out.len()`.
///
/// # Errors
/// [`Error::InvalidArgument`] for a width of zero or an `out` that is not a
/// whole number of values; the LZ4 decoder's errors for a corrupt block,
/// and [`Error::Corrupt`] when the block decodes to another length than
/// `out.len()`.
///
/// ```
/// use vecpress::{byte_split, Error};
/// let packed = byte_split::compress_lz4_to_vec(&[1, 0, 2, 0], 2)?;
/// let mut out = [0u8; 4];
/// assert_eq!(byte_split::decompress_lz4(&packed, 2, &mut out)?, 4);
/// assert_eq!(out, [1, 0, 2, 0]);
/// assert!(matches!(byte_split::decompress_lz4(&packed, 2, &mut [0u8; 6]), Err(Error::Corrupt { .. })));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_lz4(input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    decompress_lz4_with(
        crate::tune::isa(crate::tune::Op::ByteSplitLz4),
        input,
        width,
        out,
    )
}

/// Like [`decompress_lz4`], with the LZ4 loop and the transposition kernel
/// of the level `isa`.
///
/// # Errors
/// [`Error::Unsupported`] when the CPU lacks `isa`; else as
/// [`decompress_lz4`].
///
/// ```
/// use vecpress::{byte_split, Isa};
/// let packed = byte_split::compress_lz4_to_vec(&[7u8; 64], 4)?;
/// let mut out = [0u8; 64];
/// for &isa in Isa::available() {
///     assert_eq!(byte_split::decompress_lz4_with(isa, &packed, 4, &mut out)?, 64);
/// }
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_lz4_with(
    isa: Isa,
    input: &[u8],
    width: usize,
    out: &mut [u8],
) -> Result<usize, Error> {
    isa.check()?;
    if width == 0 || !out.len().is_multiple_of(width) {
        // The transposition names the rule that is broken.
        return super::decode_with(isa, &[], width, out);
    }
    // The LZ4 decoder writes every byte of `streams` that is read after it.
    scratch::with(out.len(), |streams| {
        let n = block::decompress_with(isa, input, streams)?;
        if n != out.len() {
            return Err(Error::Corrupt {
                offset: input.len(),
                what: "lz4 block shorter than the values expected",
            });
        }
        super::decode_with(isa, streams, width, out)
    })
}

/// [`compress_lz4`] into a new vector of the compressed size.
///
/// ```
/// let packed = vecpress::byte_split::compress_lz4_to_vec(&[0u8; 1000], 4)?;
/// assert!(packed.len() < 50);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_lz4_to_vec(input: &[u8], width: usize) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; max_compressed_len_lz4(input.len())];
    let n = compress_lz4(input, width, &mut out)?;
    out.truncate(n);
    Ok(out)
}
