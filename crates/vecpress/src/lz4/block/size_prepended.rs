//! Blocks with their decompressed size in front: a 4-byte little-endian
//! length, then the block (numcodecs' `LZ4` codec, python-lz4's
//! `store_size=True`).
#![forbid(unsafe_code)]

use super::{MAX_INPUT_SIZE, compress_into, decompress_into, max_compressed_len};
use crate::{Error, Unit};

/// Bytes of output one byte of block can produce at most: a length extension
/// byte of 255 adds 255 bytes.
const MAX_EXPANSION: usize = 255;

/// Compresses `src` into a new vector: its length as a little-endian u32,
/// then the block.
///
/// # Panics
/// For inputs above [`MAX_INPUT_SIZE`](super::MAX_INPUT_SIZE).
///
/// ```
/// use vecpress::lz4::block;
/// let packed = block::compress_size_prepended(b"hello hello hello hello");
/// assert_eq!(&packed[..4], &23u32.to_le_bytes());
/// assert_eq!(block::decompress_size_prepended(&packed)?, b"hello hello hello hello");
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_size_prepended(src: &[u8]) -> Vec<u8> {
    assert!(src.len() <= MAX_INPUT_SIZE, "lz4 block input too large");
    let mut out = vec![0u8; 4 + max_compressed_len(src.len())];
    out[..4].copy_from_slice(&(src.len() as u32).to_le_bytes());
    let n = compress_into(src, &mut out[4..]).expect("the bound always fits");
    out.truncate(4 + n);
    out
}

/// Decompresses what [`compress_size_prepended`] wrote. The declared size is
/// checked against [`DEFAULT_MAX_OUTPUT`](crate::lz4::DEFAULT_MAX_OUTPUT)
/// (1 GiB; [`decompress_size_prepended_with_limit`] takes another limit) and
/// against what the block could possibly produce (255 bytes per byte) before
/// allocating, and must equal the size decoded.
///
/// ```
/// use vecpress::{lz4::block, Error};
/// let mut hostile = u32::MAX.to_le_bytes().to_vec();
/// hostile.push(0);
/// assert!(matches!(block::decompress_size_prepended(&hostile), Err(Error::LimitExceeded { .. })));
/// ```
pub fn decompress_size_prepended(src: &[u8]) -> Result<Vec<u8>, Error> {
    decompress_size_prepended_with_limit(src, crate::lz4::DEFAULT_MAX_OUTPUT)
}

/// Like [`decompress_size_prepended`], refusing with
/// [`Error::LimitExceeded`] a declared size above `max` before allocating.
///
/// ```
/// use vecpress::{lz4::block, Error};
/// let packed = block::compress_size_prepended(&[0u8; 4096]);
/// assert_eq!(block::decompress_size_prepended_with_limit(&packed, 4096)?.len(), 4096);
/// assert_eq!(
///     block::decompress_size_prepended_with_limit(&packed, 4095),
///     Err(Error::LimitExceeded { what: "declared lz4 size", requested: 4096, limit: 4095 })
/// );
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_size_prepended_with_limit(src: &[u8], max: usize) -> Result<Vec<u8>, Error> {
    decode(src, max, None)
}

/// Like [`decompress_size_prepended`], for a block compressed with the
/// dictionary `dict` ([`compress_with_dict`](super::compress_with_dict)).
///
/// ```
/// use vecpress::lz4::block;
/// let dict = b"status=ok user=".repeat(3);
/// let src = b"status=ok user=ann".to_vec();
/// let mut packed = vec![0u8; 4 + block::max_compressed_len(src.len())];
/// let n = block::compress_with_dict(&src, &dict, &mut packed[4..])?;
/// packed[..4].copy_from_slice(&(src.len() as u32).to_le_bytes());
/// packed.truncate(4 + n);
/// assert_eq!(block::decompress_size_prepended_with_dict(&packed, &dict)?, src);
/// assert!(block::decompress_size_prepended(&packed).is_err());
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_size_prepended_with_dict(src: &[u8], dict: &[u8]) -> Result<Vec<u8>, Error> {
    decode(src, crate::lz4::DEFAULT_MAX_OUTPUT, Some(dict))
}

/// The block after the size prefix of `src`, decoded with `dict` before it
/// when given; a declared size above `max` is refused before allocating.
fn decode(src: &[u8], max: usize, dict: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    let Some(prefix) = src.get(..4) else {
        return Err(Error::Truncated {
            offset: 0,
            needed: 4 - src.len(),
            unit: Unit::Bytes,
        });
    };
    let size = u32::from_le_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
    if size > max {
        return Err(Error::LimitExceeded {
            what: "declared lz4 size",
            requested: size,
            limit: max,
        });
    }
    let block = &src[4..];
    let possible = block.len().saturating_mul(MAX_EXPANSION);
    if size > possible {
        return Err(Error::LimitExceeded {
            what: "declared lz4 size",
            requested: size,
            limit: possible,
        });
    }
    let mut out = vec![0u8; size];
    let n = match dict {
        Some(dict) => super::decompress_with_dict(block, dict, &mut out),
        None => decompress_into(block, &mut out),
    }
    .map_err(|e| e.shifted(4))?;
    if n != size {
        return Err(Error::Corrupt {
            offset: 0,
            what: "size prefix disagrees with the block",
        });
    }
    Ok(out)
}
