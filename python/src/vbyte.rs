//! `vecpress.vbyte`: VByte (LEB128) varints of uint32/uint64, zigzag for
//! int32/int64, delta coding for uint32.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use vecpress::vbyte;

use crate::buffers::input_array;
use crate::call::{decode, encode};

const DTYPES: &[&str] = &["<u4", "<u8", "<i4", "<i8"];

/// Encodes a 1-D array; see `vecpress.vbyte.encode`.
#[pyfunction]
pub fn vbyte_encode(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    delta: bool,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let (arr, dtype) = input_array(array, DTYPES)?;
        if delta && dtype != "<u4" {
            return Err(no_delta(&dtype));
        }
        match dtype.as_str() {
            "<u4" if delta => encode(py, &arr, vbyte::max_encoded_len, |v, o| {
                vbyte::encode_delta(v, 0, o)
            }),
            "<u4" => encode(py, &arr, vbyte::max_encoded_len, vbyte::encode),
            "<u8" => encode(py, &arr, vbyte::max_encoded_len_u64, vbyte::encode_u64),
            "<i4" => encode(py, &arr, vbyte::max_encoded_len, vbyte::encode_i32),
            _ => encode(py, &arr, vbyte::max_encoded_len_u64, vbyte::encode_i64),
        }
    })
}

/// Decodes `count` values; see `vecpress.vbyte.decode`.
#[pyfunction]
#[pyo3(signature = (data, count, dtype, delta, out=None))]
pub fn vbyte_decode(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    count: usize,
    dtype: &str,
    delta: bool,
    out: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    crate::errors::guarded(|| {
        if !DTYPES.contains(&dtype) {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "unsupported dtype {dtype} (expected {})",
                crate::buffers::names(DTYPES)
            )));
        }
        if delta && dtype != "<u4" {
            return Err(no_delta(dtype));
        }
        match dtype {
            "<u4" if delta => decode(
                py,
                data,
                count,
                out,
                |i, o| vbyte::decode_delta(i, o, 0),
                |i, n| vbyte::decode_delta_to_vec(i, n, 0),
            ),
            "<u4" => decode(py, data, count, out, vbyte::decode, vbyte::decode_to_vec),
            "<u8" => decode(
                py,
                data,
                count,
                out,
                vbyte::decode_u64,
                vbyte::decode_u64_to_vec,
            ),
            "<i4" => decode(py, data, count, out, vbyte::decode_i32, |i, n| {
                to_vec(i, n, vbyte::decode_i32)
            }),
            _ => decode(py, data, count, out, vbyte::decode_i64, |i, n| {
                to_vec(i, n, vbyte::decode_i64)
            }),
        }
    })
}

fn no_delta(dtype: &str) -> PyErr {
    PyValueError::new_err(format!(
        "delta coding is for uint32 only in vbyte (got {})",
        crate::buffers::names(&[dtype])
    ))
}

/// A vector for `n` values of a codec that spends at least one byte a value,
/// sized by the input rather than by the caller's count.
fn to_vec<T: Copy + Default>(
    input: &[u8],
    n: usize,
    decode: impl FnOnce(&[u8], &mut [T]) -> Result<usize, vecpress::Error>,
) -> Result<Vec<T>, vecpress::Error> {
    let mut out = vec![T::default(); n.min(input.len())];
    let consumed = decode(input, &mut out)?;
    if n > out.len() {
        return Err(vecpress::Error::Truncated {
            offset: consumed,
            needed: n - out.len(),
            unit: vecpress::Unit::Values,
        });
    }
    Ok(out)
}
