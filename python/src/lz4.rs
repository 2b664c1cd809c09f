//! `vecpress.lz4`: LZ4 blocks (raw or with numcodecs' 4-byte size prefix)
//! and LZ4 frames, at the fast or the high-compression levels, with or
//! without a dictionary.

use std::io::Write;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use vecpress::lz4::{block, dict as lz4_dict, frame, hc};

use crate::buffers::Bytes;
use crate::call::{into, variable};
use crate::errors::to_py;
use crate::sized;

/// The dictionary's bytes, borrowed (`None`: no dictionary).
fn dictionary(dict: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Bytes>> {
    dict.map(Bytes::get).transpose()
}

/// Compresses `data` into one block, after a 4-byte little-endian size when
/// `store_size`: with the fast compressor at `level` 0 or 1 (at
/// `acceleration`), with the high-compression parsers at 2 to 12; with
/// `dict` before it when given.
#[pyfunction]
#[pyo3(signature = (data, acceleration, level, store_size, dict=None))]
pub fn lz4_compress(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    acceleration: u32,
    level: u32,
    store_size: bool,
    dict: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let dict = dictionary(dict)?;
        let src = input.as_slice();
        let dict = dict.as_ref().map(Bytes::as_slice);
        let prefix = if store_size { 4 } else { 0 };
        variable(py, prefix + block::max_compressed_len(src.len()), |buf| {
            let dst = &mut buf[prefix..];
            // With a dictionary the fast level searches hash chains (see
            // block::compress_with_dict): acceleration does not apply (the
            // Python wrapper refuses it).
            let n = match (level >= hc::MIN_LEVEL, dict) {
                (false, None) => block::compress_into_with(src, dst, acceleration)?,
                (false, Some(d)) => block::compress_with_dict(src, d, dst)?,
                (true, None) => hc::compress_into(src, dst, level)?,
                (true, Some(d)) => {
                    hc::compress_with_dict(src, d, dst, &hc::HcOptions::new().level(level))?
                }
            };
            if store_size {
                // The compressors refuse inputs above block::MAX_INPUT_SIZE (< 2^31).
                buf[..4].copy_from_slice(&(src.len() as u32).to_le_bytes());
            }
            Ok(prefix + n)
        })
    })
}

/// Decompresses one block into `dst`, with `dict` before it when given.
fn decompress_block(
    src: &[u8],
    dict: Option<&[u8]>,
    dst: &mut [u8],
) -> Result<usize, vecpress::Error> {
    match dict {
        Some(d) => block::decompress_with_dict(src, d, dst),
        None => block::decompress_into(src, dst),
    }
}

/// Refuses a claim that a block of `block_len` bytes decodes to `size`
/// bytes when no LZ4 block holds that much or this one cannot produce it,
/// so that nothing of that size is allocated on the word of hostile input.
fn check_claim(size: usize, block_len: usize) -> Result<(), vecpress::Error> {
    if size > block::MAX_INPUT_SIZE {
        return Err(vecpress::Error::LimitExceeded {
            what: "lz4 block size",
            requested: size,
            limit: block::MAX_INPUT_SIZE,
        });
    }
    let bound = block::max_decompressed_len(block_len);
    if size > bound {
        return Err(vecpress::Error::LimitExceeded {
            what: "lz4 block size (more than the block can decode to)",
            requested: size,
            limit: bound,
        });
    }
    Ok(())
}

/// The size a numcodecs LZ4 chunk (size prefix, then one block) declares,
/// and its block; the size checked with [`check_claim`].
fn sized_block(chunk: &[u8]) -> Result<(usize, &[u8]), vecpress::Error> {
    let size = sized::declared(chunk)?;
    let block = &chunk[sized::PREFIX..];
    check_claim(size, block.len())?;
    Ok((size, block))
}

/// The decoded size of a numcodecs LZ4 chunk, for the caller to allocate:
/// refused when the block cannot hold it.
#[pyfunction]
pub fn lz4_sized_len(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<usize> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let (size, _) = sized_block(input.as_slice()).map_err(|e| to_py(py, e))?;
        Ok(size)
    })
}

/// Decompresses a numcodecs LZ4 chunk into the first bytes of `out` (a
/// writable uint8 array at least [`lz4_sized_len`] long); returns the size.
#[pyfunction]
pub fn lz4_decompress_sized_into(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let src = input.as_slice();
        let (size, src) = sized_block(src).map_err(|e| to_py(py, e))?;
        let n = into(py, out, size, &[input.as_slice()], |dst| {
            block::decompress_into(src, &mut dst[..size])
        })?;
        if n != size {
            return Err(to_py(
                py,
                vecpress::Error::Corrupt {
                    offset: 0,
                    what: "size prefix disagrees with the block",
                },
            ));
        }
        Ok(size)
    })
}

/// Decompresses one block of exactly `size` bytes into new bytes.
#[pyfunction]
#[pyo3(signature = (data, size, dict=None))]
pub fn lz4_decompress(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    size: usize,
    dict: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let dict = dictionary(dict)?;
        let src = input.as_slice();
        let dict = dict.as_ref().map(Bytes::as_slice);
        check_claim(size, src.len()).map_err(|e| to_py(py, e))?;
        PyBytes::new_with(py, size, |out| {
            let n = py
                .detach(|| decompress_block(src, dict, out))
                .map_err(|e| to_py(py, e))?;
            if n != size {
                return Err(to_py(
                    py,
                    vecpress::Error::Corrupt {
                        offset: src.len(),
                        what: "block ends before the size given",
                    },
                ));
            }
            Ok(())
        })
        .map(Bound::unbind)
    })
}

/// Decompresses one block into `out` (a writable uint8 array); returns the
/// bytes written.
#[pyfunction]
#[pyo3(signature = (data, out, dict=None))]
pub fn lz4_decompress_into(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    dict: Option<&Bound<'_, PyAny>>,
) -> PyResult<usize> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let dict = dictionary(dict)?;
        let src = input.as_slice();
        let dict = dict.as_ref().map(Bytes::as_slice);
        into(py, out, 0, &[src, dict.unwrap_or_default()], |dst| {
            decompress_block(src, dict, dst)
        })
    })
}

/// Decompresses a block behind a 4-byte little-endian size (numcodecs' LZ4,
/// python-lz4's `store_size=True`).
#[pyfunction]
#[pyo3(signature = (data, dict=None))]
pub fn lz4_decompress_size_prepended(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    dict: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let dict = dictionary(dict)?;
        let src = input.as_slice();
        let v = match dict.as_ref().map(Bytes::as_slice) {
            None => py.detach(|| block::decompress_size_prepended(src)),
            Some(d) => py.detach(|| block::decompress_size_prepended_with_dict(src, d)),
        }
        .map_err(|e| to_py(py, e))?;
        Ok(PyBytes::new(py, &v).unbind())
    })
}

/// The frame block size of `bytes`, one of the four the format has.
pub fn block_size_of(bytes: usize) -> PyResult<frame::BlockSize> {
    frame::BlockSize::ALL
        .into_iter()
        .find(|size| size.bytes() == bytes)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "block_size must be 65536, 262144, 1048576 or 4194304, got {bytes}"
            ))
        })
}

/// Compresses `data` into one LZ4 frame at `level` (as [`lz4_compress`]),
/// with `dict` when given (its id in the header).
#[pyfunction]
#[pyo3(signature = (data, level, block_size, block_checksums, content_checksum, content_size, dict=None))]
#[allow(clippy::too_many_arguments)]
pub fn lz4_compress_frame(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    level: u32,
    block_size: usize,
    block_checksums: bool,
    content_checksum: bool,
    content_size: bool,
    dict: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let dict = dictionary(dict)?;
        let src = input.as_slice();
        let dict = dict.as_ref().map(Bytes::as_slice);
        let size = block_size_of(block_size)?;
        let info = frame::FrameInfo::new()
            .block_size(size)
            .block_checksums(block_checksums)
            .content_checksum(content_checksum)
            .content_size(content_size.then_some(src.len() as u64));
        if level < hc::MIN_LEVEL && dict.is_none() {
            let v = py.detach(|| frame::compress_with(src, info));
            return Ok(PyBytes::new(py, &v).unbind());
        }
        let v = py.detach(|| {
            let out = Vec::with_capacity(frame::max_compressed_len(src.len()));
            let enc = match dict {
                Some(d) => frame::FrameEncoder::with_dictionary(out, info, d),
                None => frame::FrameEncoder::with_info(out, info),
            };
            let mut enc = if level >= hc::MIN_LEVEL {
                enc.with_level(level)
            } else {
                enc
            };
            // Writing to a Vec fails only where the encoder does: never.
            enc.write_all(src)?;
            enc.finish()
        });
        let v = v.map_err(|e| to_py(py, vecpress::Error::from(e)))?;
        Ok(PyBytes::new(py, &v).unbind())
    })
}

/// Decompresses LZ4 frames (concatenated, skippable and legacy frames too),
/// refusing more than `max_size` bytes of output; frames made with a
/// dictionary need `dict`.
#[pyfunction]
#[pyo3(signature = (data, max_size, dict=None))]
pub fn lz4_decompress_frame(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    max_size: usize,
    dict: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let dict = dictionary(dict)?;
        let src = input.as_slice();
        let v = match dict.as_ref().map(Bytes::as_slice) {
            None => py.detach(|| frame::decompress_with_limit(src, max_size)),
            Some(d) => py.detach(|| frame::decompress_with_dict_and_limit(src, d, max_size)),
        }
        .map_err(|e| to_py(py, e))?;
        Ok(PyBytes::new(py, &v).unbind())
    })
}

/// A dictionary of at most `size` bytes trained on `samples` (a sequence of
/// bytes-like objects).
#[pyfunction]
pub fn lz4_train_dictionary(
    py: Python<'_>,
    samples: Vec<Bound<'_, PyAny>>,
    size: usize,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let held = samples
            .iter()
            .map(Bytes::get)
            .collect::<PyResult<Vec<Bytes>>>()?;
        let slices: Vec<&[u8]> = held.iter().map(Bytes::as_slice).collect();
        let d = py.detach(|| lz4_dict::train_dictionary(&slices, size));
        Ok(PyBytes::new(py, &d).unbind())
    })
}
