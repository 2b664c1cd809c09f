//! `vecpress.lz4`: LZ4 blocks (raw or with numcodecs' 4-byte size prefix)
//! and LZ4 frames.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use vecpress::lz4::{block, frame};

use crate::buffers::{output, Bytes};
use crate::call::variable;
use crate::errors::to_py;

/// Compresses `data` into one block, after a 4-byte little-endian size when
/// `store_size`.
#[pyfunction]
pub fn lz4_compress(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    acceleration: u32,
    store_size: bool,
) -> PyResult<Py<PyBytes>> {
    let input = Bytes::get(data)?;
    let src = input.as_slice();
    let prefix = if store_size { 4 } else { 0 };
    variable(py, prefix + block::max_compressed_len(src.len()), |buf| {
        let n = block::compress_into_with(src, &mut buf[prefix..], acceleration)?;
        if store_size {
            // compress_into_with refuses inputs above block::MAX_INPUT_SIZE (< 2^31).
            buf[..4].copy_from_slice(&(src.len() as u32).to_le_bytes());
        }
        Ok(prefix + n)
    })
}

/// Decompresses one block of exactly `size` bytes into new bytes.
#[pyfunction]
pub fn lz4_decompress(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    size: usize,
) -> PyResult<Py<PyBytes>> {
    let input = Bytes::get(data)?;
    let src = input.as_slice();
    if size > block::MAX_INPUT_SIZE {
        return Err(to_py(
            py,
            vecpress::Error::LimitExceeded {
                what: "lz4 block size",
                requested: size,
                limit: block::MAX_INPUT_SIZE,
            },
        ));
    }
    PyBytes::new_with(py, size, |out| {
        let n = py
            .detach(|| block::decompress_into(src, out))
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
}

/// Decompresses one block into `out` (a writable uint8 array); returns the
/// bytes written.
#[pyfunction]
pub fn lz4_decompress_into(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    let input = Bytes::get(data)?;
    let src = input.as_slice();
    let mut rw = output::<u8>(out, 0)?;
    let dst = rw
        .as_slice_mut()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.detach(|| block::decompress_into(src, dst))
        .map_err(|e| to_py(py, e))
}

/// Decompresses a block behind a 4-byte little-endian size (numcodecs' LZ4,
/// python-lz4's `store_size=True`).
#[pyfunction]
pub fn lz4_decompress_size_prepended(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
) -> PyResult<Py<PyBytes>> {
    let input = Bytes::get(data)?;
    let src = input.as_slice();
    let v = py
        .detach(|| block::decompress_size_prepended(src))
        .map_err(|e| to_py(py, e))?;
    Ok(PyBytes::new(py, &v).unbind())
}

/// Compresses `data` into one LZ4 frame.
#[pyfunction]
#[pyo3(signature = (data, block_size, block_checksums, content_checksum, content_size))]
pub fn lz4_compress_frame(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    block_size: usize,
    block_checksums: bool,
    content_checksum: bool,
    content_size: bool,
) -> PyResult<Py<PyBytes>> {
    let input = Bytes::get(data)?;
    let src = input.as_slice();
    let size = match block_size {
        65_536 => frame::BlockSize::Max64KB,
        262_144 => frame::BlockSize::Max256KB,
        1_048_576 => frame::BlockSize::Max1MB,
        4_194_304 => frame::BlockSize::Max4MB,
        _ => {
            return Err(PyValueError::new_err(format!(
                "block_size must be 65536, 262144, 1048576 or 4194304, got {block_size}"
            )))
        }
    };
    let info = frame::FrameInfo::new()
        .block_size(size)
        .block_checksums(block_checksums)
        .content_checksum(content_checksum)
        .content_size(content_size.then_some(src.len() as u64));
    let v = py.detach(|| frame::compress_with(src, info));
    Ok(PyBytes::new(py, &v).unbind())
}

/// Decompresses LZ4 frames (concatenated, skippable and legacy frames too),
/// refusing more than `max_size` bytes of output.
#[pyfunction]
pub fn lz4_decompress_frame(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    max_size: usize,
) -> PyResult<Py<PyBytes>> {
    let input = Bytes::get(data)?;
    let src = input.as_slice();
    let v = py
        .detach(|| frame::decompress_with_limit(src, max_size))
        .map_err(|e| to_py(py, e))?;
    Ok(PyBytes::new(py, &v).unbind())
}
