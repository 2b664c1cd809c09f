//! Bit shuffle (Masui's bitshuffle): the raw transposition and its LZ4
//! framing of the HDF5 filter 32008 (`hdf5plugin.Bitshuffle(cname="lz4")`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use vecpress::bit_split;

use crate::buffers::Bytes;
use crate::call::{into, same_len, same_len_into, variable};
use crate::errors::to_py;

/// Bit-shuffles `data` (values of `width` bytes).
#[pyfunction]
pub fn bit_split_encode(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    width: usize,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        // SAFETY: bit shuffle's encoders (scalar and every kernel) only
        // store into `out`; they load from `input` alone.
        unsafe { same_len(py, data, |input, out| bit_split::encode(input, width, out)) }
    })
}

/// Undoes the bit shuffle of `data` into `out` (a writable buffer of at
/// least `len(data)` bytes); returns the bytes written.
#[pyfunction]
pub fn bit_split_decode(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    width: usize,
    out: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    crate::errors::guarded(|| {
        same_len_into(py, data, out, |input, out| {
            bit_split::decode(input, width, &mut out[..input.len()])
        })
    })
}

/// Bit-shuffles `data` in blocks of `block_size` values (0: bitshuffle's
/// default) and compresses each with LZ4, framed as HDF5 filter 32008.
#[pyfunction]
pub fn bit_split_compress_lz4(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    width: usize,
    block_size: usize,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let src = input.as_slice();
        let max = bit_split::max_compressed_len_lz4(src.len(), width.max(1), block_size);
        variable(py, max, |out| {
            bit_split::compress_lz4(src, width, block_size, out)
        })
    })
}

/// The uncompressed size the header of a filter-32008 frame states,
/// checked against `limit`.
#[pyfunction]
pub fn bit_split_lz4_len(py: Python<'_>, data: &Bound<'_, PyAny>, limit: usize) -> PyResult<usize> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let n = bit_split::decompressed_len_lz4(input.as_slice()).map_err(|e| to_py(py, e))?;
        match usize::try_from(n) {
            Ok(n) if n <= limit => Ok(n),
            _ => Err(to_py(
                py,
                vecpress::Error::LimitExceeded {
                    what: "bitshuffle-lz4 uncompressed size",
                    requested: usize::try_from(n).unwrap_or(usize::MAX),
                    limit,
                },
            )),
        }
    })
}

/// Decompresses a filter-32008 frame of values of `width` bytes into the
/// first bytes of `out` (at least [`bit_split_lz4_len`] long); returns the
/// size.
#[pyfunction]
pub fn bit_split_decompress_lz4_into(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    width: usize,
    out: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let src = input.as_slice();
        let n = bit_split::decompressed_len_lz4(src).map_err(|e| to_py(py, e))?;
        let n = usize::try_from(n).map_err(|_| PyValueError::new_err("size beyond memory"))?;
        into(py, out, n, &[src], |dst| {
            bit_split::decompress_lz4(src, width, &mut dst[..n])
        })
    })
}
