//! The one path every codec function takes: borrow the checked array or
//! buffer, release the GIL around the library call, map its error.

use numpy::{Element, PyUntypedArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffers::{output, readonly, to_array, Bytes};
use crate::errors::to_py;

/// Output buffers up to this size are reused per thread (an encoder's
/// worst case for about 3M values); larger ones are allocated per call.
const SCRATCH_MAX: usize = 16 << 20;

thread_local! {
    /// The reused worst-case output buffer: fresh pages on every call cost
    /// more than the encoding of small and medium arrays.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Encodes the array's values with `f` into a buffer of `max_len(n)` bytes
/// (the codec's worst case), the GIL released; returns the bytes `f` wrote.
pub fn encode<T: Element + Sync>(
    py: Python<'_>,
    arr: &Bound<'_, PyUntypedArray>,
    max_len: impl FnOnce(usize) -> usize,
    f: impl FnOnce(&[T], &mut [u8]) -> usize + Send,
) -> PyResult<Py<PyBytes>> {
    let ro = readonly::<T>(arr)?;
    let values = ro
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let len = max_len(values.len());
    if len > SCRATCH_MAX {
        let mut buf = vec![0u8; len];
        let n = py.detach(|| f(values, &mut buf));
        return Ok(PyBytes::new(py, &buf[..n]).unbind());
    }
    SCRATCH.with_borrow_mut(|buf| {
        if buf.len() < len {
            buf.resize(len, 0);
        }
        let out = &mut buf[..len];
        // No Python code runs on this thread while the GIL is released, so
        // nothing else borrows the scratch buffer meanwhile.
        let n = py.detach(|| f(values, out));
        Ok(PyBytes::new(py, &buf[..n]).unbind())
    })
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
