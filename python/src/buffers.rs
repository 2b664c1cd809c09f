//! Borrowing Python buffers and numpy arrays as Rust slices, with the
//! checks (type, dtype, shape, contiguity, writability) that give clear
//! `TypeError`s and `ValueError`s before any codec runs.

use numpy::{
    Element, PyArray1, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1,
    PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// A read-only, C-contiguous buffer (bytes, bytearray, memoryview, numpy
/// array of any dtype) seen as bytes, without a copy.
pub struct Bytes(PyUntypedBuffer);

impl Bytes {
    /// Borrows `obj`'s buffer; `TypeError` if it has none, `ValueError` if it
    /// is not C-contiguous.
    pub fn get(obj: &Bound<'_, PyAny>) -> PyResult<Bytes> {
        let buf = PyUntypedBuffer::get(obj).map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a bytes-like object (bytes, bytearray, memoryview, numpy array), got {}",
                type_name(obj)
            ))
        })?;
        if !buf.is_c_contiguous() {
            return Err(PyValueError::new_err(
                "buffer is not C-contiguous (pass numpy.ascontiguousarray(...) or bytes(...))",
            ));
        }
        Ok(Bytes(buf))
    }

    /// The buffer's bytes.
    pub fn as_slice(&self) -> &[u8] {
        let len = self.0.len_bytes();
        if len == 0 {
            return &[];
        }
        // SAFETY: the exporter keeps `len_bytes()` bytes at `buf_ptr()` alive
        // and unmoved until the buffer is released, which happens when `self`
        // drops, after the returned borrow of `self` ends; the buffer is
        // C-contiguous (checked in `get`), so those bytes are one run, and the
        // pointer is non-null for a non-empty buffer.
        unsafe { std::slice::from_raw_parts(self.0.buf_ptr() as *const u8, len) }
    }
}

/// `obj` as a 1-D, C-contiguous numpy array whose dtype is one of `allowed`
/// (numpy's `dtype.str` spelling, e.g. `"<u4"`); returns it with its dtype.
pub fn input_array<'py>(
    obj: &Bound<'py, PyAny>,
    allowed: &[&str],
) -> PyResult<(Bound<'py, PyUntypedArray>, String)> {
    let arr = obj.cast::<PyUntypedArray>().map_err(|_| {
        PyTypeError::new_err(format!("expected a numpy.ndarray, got {}", type_name(obj)))
    })?;
    let dtype = dtype_str(arr)?;
    if !allowed.contains(&dtype.as_str()) {
        return Err(PyTypeError::new_err(format!(
            "unsupported dtype {} (expected {})",
            dtype_name(arr)?,
            names(allowed)
        )));
    }
    if arr.ndim() != 1 {
        return Err(PyValueError::new_err(format!(
            "expected a 1-D array, got shape {} (pass array.ravel())",
            shape(arr.shape())
        )));
    }
    if !arr.is_c_contiguous() {
        return Err(PyValueError::new_err(
            "array is not contiguous (pass numpy.ascontiguousarray(array))",
        ));
    }
    Ok((arr.clone(), dtype))
}

/// A checked array (see [`input_array`]) borrowed read-only as `T`.
pub fn readonly<'py, T: Element>(
    arr: &Bound<'py, PyUntypedArray>,
) -> PyResult<PyReadonlyArray1<'py, T>> {
    let typed = arr
        .cast::<PyArray1<T>>()
        .map_err(|e| PyTypeError::new_err(e.to_string()))?;
    typed
        .try_readonly()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `out` as a writable, 1-D, C-contiguous array of `T` holding at least
/// `count` values, sharing no memory with any of `reads` (the buffers the
/// codec reads): a decoder writing over its own input would read bytes it
/// had already overwritten and return wrong values, and Rust forbids a
/// slice to be read while another writes the same memory.
pub fn output<'py, T: Element>(
    out: &Bound<'py, PyAny>,
    count: usize,
    reads: &[&[u8]],
) -> PyResult<PyReadwriteArray1<'py, T>> {
    let untyped = out.cast::<PyUntypedArray>().map_err(|_| {
        PyTypeError::new_err(format!(
            "out must be a numpy.ndarray, got {}",
            type_name(out)
        ))
    })?;
    let want = T::get_dtype(out.py());
    if !untyped.dtype().is_equiv_to(&want) {
        return Err(PyTypeError::new_err(format!(
            "out has dtype {}, expected {}",
            dtype_name(untyped)?,
            want.getattr("name")?
        )));
    }
    if untyped.ndim() != 1 || !untyped.is_c_contiguous() {
        return Err(PyValueError::new_err(
            "out must be a 1-D C-contiguous array",
        ));
    }
    if untyped.len() < count {
        return Err(PyValueError::new_err(format!(
            "out holds {} values, {count} needed",
            untyped.len()
        )));
    }
    let typed = untyped
        .cast::<PyArray1<T>>()
        .map_err(|e| PyTypeError::new_err(e.to_string()))?;
    // Addresses only: no slice of `out` exists yet.
    let start = typed.data() as usize;
    let end = start + untyped.len() * std::mem::size_of::<T>();
    for input in reads.iter().filter(|r| !r.is_empty()) {
        let (a, b) = (
            input.as_ptr() as usize,
            input.as_ptr() as usize + input.len(),
        );
        if start < end && a < end && start < b {
            return Err(PyValueError::new_err(
                "out shares memory with the input: decode into an array of its own",
            ));
        }
    }
    typed
        .try_readwrite()
        .map_err(|e| PyValueError::new_err(format!("out is not writable ({e})")))
}

/// A new 1-D array owning `v` (no copy).
pub fn to_array<T: Element>(py: Python<'_>, v: Vec<T>) -> Py<PyAny> {
    PyArray1::from_vec(py, v).into_any().unbind()
}

fn dtype_str(arr: &Bound<'_, PyUntypedArray>) -> PyResult<String> {
    arr.dtype().getattr("str")?.extract()
}

/// The dtype's name, with its byte order when that is not the machine's.
fn dtype_name(arr: &Bound<'_, PyUntypedArray>) -> PyResult<String> {
    let dtype = arr.dtype();
    let name = dtype.getattr("name")?.to_string();
    if dtype.getattr("isnative")?.extract::<bool>()? {
        Ok(name)
    } else {
        Ok(format!(
            "{name} of non-native byte order ({})",
            dtype.getattr("str")?
        ))
    }
}

/// A shape as Python prints it: `(2, 3)`, `(4,)`.
fn shape(dims: &[usize]) -> String {
    match dims {
        [d] => format!("({d},)"),
        _ => format!(
            "({})",
            dims.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `"<u4"` as `"uint32"`, for messages.
pub fn names(dtypes: &[&str]) -> String {
    dtypes
        .iter()
        .map(|d| match *d {
            "|u1" => "uint8",
            "<u2" => "uint16",
            "<u4" => "uint32",
            "<u8" => "uint64",
            "<i4" => "int32",
            "<i8" => "int64",
            "<f4" => "float32",
            "<f8" => "float64",
            other => other,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "an unknown type".into())
}
