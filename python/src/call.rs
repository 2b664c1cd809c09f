//! The one path every codec function takes: borrow the checked array or
//! buffer, release the GIL around the library call, map its error.

use numpy::{Element, PyUntypedArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::buffers::{output, readonly, to_array, Bytes};
use crate::errors::to_py;

/// A buffer of `len` bytes written by `f`, with the length `f` used.
pub fn worst_case(len: usize, f: impl FnOnce(&mut [u8]) -> usize) -> (Vec<u8>, usize) {
    let mut buf = vec![0u8; len];
    let n = f(&mut buf);
    (buf, n)
}

/// Runs `f` over the array's values with the GIL released.
pub fn encode<T: Element + Sync, R: Send>(
    py: Python<'_>,
    arr: &Bound<'_, PyUntypedArray>,
    f: impl FnOnce(&[T]) -> R + Send,
) -> PyResult<R> {
    let ro = readonly::<T>(arr)?;
    let values = ro
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(py.detach(|| f(values)))
}

/// Decodes `count` values of `data` into `out` (with `into`) or a new array
/// (with `to_vec`), the GIL released; returns the array.
pub fn decode<T: Element + Send>(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    count: usize,
    out: Option<&Bound<'_, PyAny>>,
    into: impl FnOnce(&[u8], &mut [T]) -> Result<usize, vecpress::Error> + Send,
    to_vec: impl FnOnce(&[u8], usize) -> Result<Vec<T>, vecpress::Error> + Send,
) -> PyResult<Py<PyAny>> {
    let bytes = Bytes::get(data)?;
    let input = bytes.as_slice();
    match out {
        Some(out) => {
            let mut rw = output::<T>(out, count)?;
            let slice = rw
                .as_slice_mut()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            let slice = &mut slice[..count];
            py.detach(|| into(input, slice)).map_err(|e| to_py(py, e))?;
            Ok(out.clone().unbind())
        }
        None => {
            let v = py
                .detach(|| to_vec(input, count))
                .map_err(|e| to_py(py, e))?;
            Ok(to_array(py, v))
        }
    }
}
