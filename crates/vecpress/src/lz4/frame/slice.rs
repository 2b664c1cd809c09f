//! One-shot compression and decompression of whole buffers: slices in,
//! slices (or vectors) out.
#![forbid(unsafe_code)]

use std::io::Write;

use super::header::{FrameInfo, MAGIC, MAX_DESCRIPTOR_LEN, descriptor_len, parse_descriptor};
use super::read::Target;
use super::{BlockSize, FrameDecoder, FrameEncoder};
use crate::Error;

/// Worst-case size of a frame of `n` bytes, whatever its [`FrameInfo`]: the
/// longest header, and for each block of the smallest size (64 KiB) its size
/// field and checksum around the block stored as it is, then the end mark and
/// content checksum.
///
/// ```
/// use vecpress::lz4::frame;
/// assert_eq!(frame::max_compressed_len(0), 4 + 15 + 4 + 4);
/// assert_eq!(frame::max_compressed_len(70_000), 27 + 70_000 + 2 * 8);
/// ```
pub const fn max_compressed_len(n: usize) -> usize {
    let blocks = n.div_ceil(BlockSize::Max64KB.bytes());
    n.saturating_add(blocks.saturating_mul(8))
        .saturating_add(4 + MAX_DESCRIPTOR_LEN + 4 + 4)
}

/// Compresses `src` into `dst` as one frame with the default settings and its
/// content size declared; returns the frame's length.
///
/// # Errors
/// [`Error::OutputTooSmall`] when the frame does not fit `dst`; a `dst` of
/// [`max_compressed_len`]`(src.len())` bytes always suffices.
///
/// ```
/// use vecpress::lz4::frame;
///
/// let text = b"slices in, slices out; slices in, slices out".repeat(10);
/// let mut packed = vec![0u8; frame::max_compressed_len(text.len())];
/// let len = frame::compress_into(&text, &mut packed)?;
/// let mut out = vec![0u8; text.len()];
/// assert_eq!(frame::decompress_into(&packed[..len], &mut out)?, text.len());
/// assert_eq!(out, text);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_into(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    compress_into_with(src, FrameInfo::new().content_size(Some(0)), dst)
}

/// Compresses `src` into `dst` as one frame as `info` describes it (a content
/// size set in `info`, any value, declares the length of `src`); returns the
/// frame's length.
///
/// # Errors
/// [`Error::OutputTooSmall`] when the frame does not fit `dst`; a `dst` of
/// [`max_compressed_len`]`(src.len())` bytes always suffices.
///
/// ```
/// use vecpress::{lz4::frame::{self, FrameInfo}, Error};
///
/// let info = FrameInfo::new().independent_blocks(false).block_checksums(true);
/// let mut small = [0u8; 8];
/// let err = frame::compress_into_with(b"0123456789", info, &mut small).unwrap_err();
/// assert!(matches!(err, Error::OutputTooSmall { actual: 8, .. }));
/// ```
pub fn compress_into_with(src: &[u8], info: FrameInfo, dst: &mut [u8]) -> Result<usize, Error> {
    compress_into_inner(src, info, None, dst)
}

fn compress_into_inner(
    src: &[u8],
    info: FrameInfo,
    dict: Option<&[u8]>,
    dst: &mut [u8],
) -> Result<usize, Error> {
    let info = match info.get_content_size() {
        Some(_) => info.content_size(Some(src.len() as u64)),
        None => info,
    };
    let capacity = dst.len();
    let mut enc = match dict {
        Some(dict) => FrameEncoder::with_dictionary(&mut *dst, info, dict),
        None => FrameEncoder::with_info(&mut *dst, info),
    };
    let too_small = |_| Error::OutputTooSmall {
        needed: max_compressed_len(src.len()),
        actual: capacity,
    };
    enc.write_all(src).map_err(too_small)?;
    let rest = enc.finish().map_err(too_small)?;
    Ok(capacity - rest.len())
}

/// Compresses `src` into one frame with the default settings and its content
/// size declared.
///
/// ```
/// use vecpress::lz4::frame;
///
/// let text = b"to be or not to be, that is the question; to be or not to be".repeat(20);
/// let bytes = frame::compress(&text);
/// assert!(bytes.len() < text.len() / 4);
/// assert_eq!(frame::decompress(&bytes)?, text);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress(src: &[u8]) -> Vec<u8> {
    compress_with(src, FrameInfo::new().content_size(Some(0)))
}

/// Compresses `src` into one frame as `info` describes it. A content size
/// set in `info` (any value) declares the length of `src`.
///
/// ```
/// use vecpress::lz4::frame::{self, BlockSize, FrameInfo};
///
/// let data: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
/// let info = FrameInfo::new().block_size(BlockSize::Max64KB).independent_blocks(false);
/// let bytes = frame::compress_with(&data, info);
/// assert_eq!(frame::decompress(&bytes)?, data);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_with(src: &[u8], info: FrameInfo) -> Vec<u8> {
    let mut out = vec![0u8; max_compressed_len(src.len())];
    let len = compress_into_with(src, info, &mut out)
        .unwrap_or_else(|e| unreachable!("a frame fits its worst case: {e}"));
    out.truncate(len);
    out
}

/// Compresses `src` into one frame with the default settings, its content
/// size declared, and the dictionary `dict`, whose id the header records
/// (see [`FrameEncoder::with_dictionary`]).
///
/// ```
/// use vecpress::lz4::{dict, frame};
///
/// let d = b"<item><name></name><price currency=\"EUR\"></price></item>".repeat(4);
/// let rec = b"<item><name>pen</name><price currency=\"EUR\">2.50</price></item>";
/// let bytes = frame::compress_with_dict(rec, &d);
/// assert!(bytes.len() < frame::compress(rec).len());
/// assert_eq!(frame::decompress_with_dict(&bytes, &d)?, rec);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_with_dict(src: &[u8], dict: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; max_compressed_len(src.len())];
    let info = FrameInfo::new().content_size(Some(0));
    let len = compress_into_inner(src, info, Some(dict), &mut out)
        .unwrap_or_else(|e| unreachable!("a frame fits its worst case: {e}"));
    out.truncate(len);
    out
}

/// Decompresses every frame in `src` with the dictionary `dict` (see
/// [`FrameDecoder::with_dictionary`]).
///
/// # Errors
/// [`Error::DictionaryMismatch`] when a frame names a dictionary other than
/// `dict`; else as [`FrameDecoder`] reports bad input.
///
/// ```
/// use vecpress::{lz4::frame, Error};
///
/// let bytes = frame::compress_with_dict(b"abcdefgh abcdefgh", b"abcdefgh ");
/// assert_eq!(frame::decompress_with_dict(&bytes, b"abcdefgh ")?, b"abcdefgh abcdefgh");
/// let err = frame::decompress_with_dict(&bytes, b"another").unwrap_err();
/// assert!(matches!(err, Error::DictionaryMismatch { given: Some(_), .. }));
/// assert!(matches!(frame::decompress(&bytes), Err(Error::DictionaryMismatch { given: None, .. })));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_with_dict(src: &[u8], dict: &[u8]) -> Result<Vec<u8>, Error> {
    decompress_with_dict_and_limit(src, dict, usize::MAX)
}

/// [`decompress_with_dict`], refusing to produce more than `max_output`
/// bytes as [`decompress_with_limit`] does.
///
/// ```
/// use vecpress::{lz4::frame, Error};
///
/// let bytes = frame::compress_with_dict(&[1u8; 3000], b"dictionary");
/// let err = frame::decompress_with_dict_and_limit(&bytes, b"dictionary", 2999).unwrap_err();
/// assert!(matches!(err, Error::LimitExceeded { requested: 3000, limit: 2999, .. }));
/// assert_eq!(frame::decompress_with_dict_and_limit(&bytes, b"dictionary", 3000)?.len(), 3000);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_with_dict_and_limit(
    src: &[u8],
    dict: &[u8],
    max_output: usize,
) -> Result<Vec<u8>, Error> {
    let make = || FrameDecoder::with_dictionary(src, dict).limit(max_output as u64);
    read_all(src, make, max_output)
}

/// Every block the decoders `make` gives decode from `src`.
///
/// When the first frame declares its content size (at most `max_output`,
/// and at most what LZ4 can expand `src` to, 255 bytes a byte), the blocks
/// decode straight into a vector of that size, with no copy; content beyond
/// it (more frames after the first) starts the decoding over through the
/// decoder's buffer.
fn read_all<'a>(
    src: &'a [u8],
    make: impl Fn() -> FrameDecoder<&'a [u8]>,
    max_output: usize,
) -> Result<Vec<u8>, Error> {
    if let Some(size) = first_content_size(src) {
        let bound = src.len().saturating_mul(255).min(max_output);
        if let Some(size) = usize::try_from(size).ok().filter(|&s| s <= bound) {
            // Zeroed pages from the allocator cost nothing until written.
            let mut out = vec![0u8; size];
            let mut dec = make().read_ahead(true);
            let mut pos = 0;
            loop {
                match dec.next_block_to(&mut Target::Slice(&mut out, pos)) {
                    Ok(Some(n)) => pos += n,
                    Ok(None) => {
                        out.truncate(pos);
                        return Ok(out);
                    }
                    Err(Error::OutputTooSmall { .. }) => break,
                    Err(e) => return Err(e),
                }
            }
        }
    }
    // The whole input is there: reading a block ahead costs no waiting.
    let mut dec = make().read_ahead(true);
    let mut out = Vec::new();
    // Whole blocks straight from the decoder's buffer (`read_to_end` would
    // ask for small reads and zero the vector's spare room first).
    while dec.next_block()? {
        out.extend_from_slice(dec.pending());
    }
    Ok(out)
}

/// Decompresses every frame in `src` into `dst`; returns the bytes written.
///
/// # Errors
/// [`Error::OutputTooSmall`] when the content does not fit `dst` (`needed`
/// counts up to the end of the block that did not fit); else as
/// [`FrameDecoder`] reports bad input.
///
/// ```
/// use vecpress::{lz4::frame, Error};
///
/// let packed = frame::compress(&[5u8; 100]);
/// let mut out = [0u8; 100];
/// assert_eq!(frame::decompress_into(&packed, &mut out)?, 100);
/// let err = frame::decompress_into(&packed, &mut out[..99]).unwrap_err();
/// assert_eq!(err, Error::OutputTooSmall { needed: 100, actual: 99 });
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_into(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    let mut dec = FrameDecoder::with_limit(src, dst.len() as u64).read_ahead(true);
    let mut pos = 0;
    loop {
        // Blocks are decoded straight into `dst`, linked ones with the
        // output before them as their history.
        match dec.next_block_to(&mut Target::Slice(&mut *dst, pos)) {
            Ok(Some(n)) => pos += n,
            Ok(None) => return Ok(pos),
            Err(Error::LimitExceeded { requested, .. }) => {
                return Err(Error::OutputTooSmall {
                    needed: requested,
                    actual: dst.len(),
                });
            }
            Err(e) => return Err(e),
        }
    }
}

/// Decompresses every frame in `src`, producing at most
/// [`DEFAULT_MAX_OUTPUT`](crate::lz4::DEFAULT_MAX_OUTPUT) bytes (see
/// [`decompress_with_limit`] for another limit).
///
/// # Errors
/// [`Error::LimitExceeded`] for more output than that (before allocating,
/// when a frame declares its content size); else as [`FrameDecoder`]
/// reports bad input.
///
/// ```
/// use vecpress::lz4::frame;
///
/// let mut two = frame::compress(b"one frame, ");
/// two.extend(frame::compress(b"then another"));
/// assert_eq!(frame::decompress(&two)?, b"one frame, then another");
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress(src: &[u8]) -> Result<Vec<u8>, Error> {
    decompress_with_limit(src, crate::lz4::DEFAULT_MAX_OUTPUT)
}

/// Decompresses every frame in `src`, refusing with
/// [`Error::LimitExceeded`] to produce more than `max_output` bytes (before
/// allocating, when a frame declares its content size).
///
/// ```
/// use vecpress::{lz4::frame, Error};
///
/// let bomb = frame::compress(&vec![0u8; 1 << 20]);
/// assert!(bomb.len() < 5000);
/// assert!(matches!(frame::decompress_with_limit(&bomb, 1 << 16), Err(Error::LimitExceeded { .. })));
/// assert_eq!(frame::decompress_with_limit(&bomb, 1 << 20)?.len(), 1 << 20);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_with_limit(src: &[u8], max_output: usize) -> Result<Vec<u8>, Error> {
    let make = || FrameDecoder::with_limit(src, max_output as u64);
    read_all(src, make, max_output)
}

/// The content size the first frame of `src` declares, if its header says
/// one and is sound.
fn first_content_size(src: &[u8]) -> Option<u64> {
    let magic = u32::from_le_bytes(src.get(..4)?.try_into().ok()?);
    if magic != MAGIC {
        return None;
    }
    let desc = src.get(4..4 + descriptor_len(*src.get(4)?))?;
    parse_descriptor(desc, 4).ok()?.get_content_size()
}
