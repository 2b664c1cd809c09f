//! `vecpress.stream_vbyte` for the dtypes beyond uint32: uint64 (the
//! 1/2/4/8-byte codes of `stream_vbyte::u64`), int32 (zigzag; with delta,
//! zigzag of the gaps) and uint16. uint32 goes through `ints`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use vecpress::stream_vbyte as sv;

use crate::buffers::{input_array, names};
use crate::call::{decode, encode};

const DTYPES: &[&str] = &["<u8", "<i4", "<u2"];

/// Encodes a 1-D uint64, int32 or uint16 array.
#[pyfunction]
pub fn stream_vbyte_encode_wide(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    delta: bool,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let (arr, dtype) = input_array(array, DTYPES)?;
        match dtype.as_str() {
            "<u8" => encode(py, &arr, sv::u64::max_encoded_len, |v: &[u64], o| {
                if delta {
                    sv::u64::encode_delta(v, 0, o)
                } else {
                    sv::u64::encode(v, o)
                }
            }),
            "<i4" => encode(py, &arr, sv::max_encoded_len, |v: &[i32], o| {
                if delta {
                    sv::encode_zigzag_delta(v, 0, o)
                } else {
                    sv::encode_i32(v, o)
                }
            }),
            _ if delta => Err(no_delta()),
            _ => encode(py, &arr, sv::max_encoded_len, sv::encode_u16),
        }
    })
}

/// Decodes `count` uint64, int32 or uint16 values.
#[pyfunction]
#[pyo3(signature = (data, count, dtype, delta, out=None))]
pub fn stream_vbyte_decode_wide(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    count: usize,
    dtype: &str,
    delta: bool,
    out: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    crate::errors::guarded(|| match (dtype, delta) {
        ("<u8", true) => decode(
            py,
            data,
            count,
            out,
            |i, o| sv::u64::decode_delta(i, o, 0),
            |i, n| sv::u64::decode_delta_to_vec(i, n, 0),
        ),
        ("<u8", false) => decode(
            py,
            data,
            count,
            out,
            sv::u64::decode,
            sv::u64::decode_to_vec,
        ),
        ("<i4", true) => decode(
            py,
            data,
            count,
            out,
            |i, o| sv::decode_zigzag_delta(i, o, 0),
            |i, n| sv::decode_zigzag_delta_to_vec(i, n, 0),
        ),
        ("<i4", false) => decode(py, data, count, out, sv::decode_i32, sv::decode_i32_to_vec),
        ("<u2", true) => Err(no_delta()),
        ("<u2", false) => decode(py, data, count, out, sv::decode_u16, sv::decode_u16_to_vec),
        _ => Err(PyTypeError::new_err(format!(
            "unsupported dtype {} (expected uint32, {})",
            names(&[dtype]),
            names(DTYPES)
        ))),
    })
}

fn no_delta() -> PyErr {
    PyValueError::new_err("delta coding takes uint32, uint64 or int32 in stream_vbyte")
}
