//! Byte codecs: byte stream split (any width) and, where built, LZ4.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use vecpress::byte_split;

use crate::buffers::Bytes;
use crate::call::exact;
use crate::errors::to_py;

/// Splits `data` (values of `width` bytes) into `width` byte streams.
#[pyfunction]
pub fn byte_split_encode(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    width: usize,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let input = input.as_slice();
        // SAFETY: byte split's encoders (scalar and every kernel) only store
        // into `out`; they load from `input` alone.
        unsafe { exact(py, input.len(), |out| byte_split::encode(input, width, out)) }
    })
}

/// Splits `data` (values of `width` bytes) into `width` byte streams written
/// to `out` (a writable buffer of at least `len(data)` bytes); returns the
/// bytes written.
#[pyfunction]
pub fn byte_split_encode_into(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    width: usize,
    out: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let input = input.as_slice();
        let mut rw = crate::buffers::output::<u8>(out, input.len(), &[input])?;
        let out = rw
            .as_slice_mut()
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        py.detach(|| byte_split::encode(input, width, out))
            .map_err(|e| to_py(py, e))
    })
}

/// Joins the `width` byte streams of `data` into `out` (a writable buffer of
/// at least `len(data)` bytes); returns the bytes written.
#[pyfunction]
pub fn byte_split_decode(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    width: usize,
    out: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let input = input.as_slice();
        let mut rw = crate::buffers::output::<u8>(out, input.len(), &[input])?;
        let out = rw
            .as_slice_mut()
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        py.detach(|| byte_split::decode(input, width, out))
            .map_err(|e| to_py(py, e))
    })
}
