//! Byte codecs: byte stream split (any width) and, where built, LZ4.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use vecpress::byte_split;

use crate::call::{same_len, same_len_into};

/// Splits `data` (values of `width` bytes) into `width` byte streams.
#[pyfunction]
pub fn byte_split_encode(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    width: usize,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        // SAFETY: byte split's encoders (scalar and every kernel) only store
        // into `out`; they load from `input` alone.
        unsafe { same_len(py, data, |input, out| byte_split::encode(input, width, out)) }
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
        same_len_into(py, data, out, |input, out| {
            byte_split::encode(input, width, out)
        })
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
        same_len_into(py, data, out, |input, out| {
            byte_split::decode(input, width, out)
        })
    })
}
