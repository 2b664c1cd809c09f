//! The one path every codec function takes: borrow the checked array or
//! buffer, release the GIL around the library call, map its error.

use numpy::{Element, PyUntypedArray};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::ffi;
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
/// (the codec's worst case), the GIL released; returns the bytes `f` wrote
/// (see [`variable`]).
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
    variable(py, max_len(values.len()), |out| Ok(f(values, out)))
}

/// New `bytes` of what `f` writes into a buffer of `max` bytes (the codec's
/// worst case) with the GIL released; `f` returns how many it wrote.
///
/// Up to [`SCRATCH_MAX`] the buffer is the thread's reused scratch and the
/// result is copied out. Writing straight into a worst-case `bytes` object
/// and shrinking it measured slower: glibc then maps that object afresh on
/// every call (its mmap threshold follows the size freed, the shrunk one),
/// and the page faults cost more than the copy. Larger outputs get a buffer
/// of their own.
pub fn variable(
    py: Python<'_>,
    max: usize,
    f: impl FnOnce(&mut [u8]) -> Result<usize, vecpress::Error> + Send,
) -> PyResult<Py<PyBytes>> {
    if max > SCRATCH_MAX {
        let mut buf = zeroed(max)?;
        let n = py.detach(|| f(&mut buf)).map_err(|e| to_py(py, e))?;
        return Ok(PyBytes::new(py, &buf[..n]).unbind());
    }
    SCRATCH.with_borrow_mut(|buf| {
        if buf.len() < max {
            buf.try_reserve_exact(max - buf.len())
                .map_err(|_| no_memory(max))?;
            buf.resize(max, 0);
        }
        let out = &mut buf[..max];
        // No Python code runs on this thread while the GIL is released, so
        // nothing else borrows the scratch buffer meanwhile.
        let n = py.detach(|| f(out)).map_err(|e| to_py(py, e))?;
        Ok(PyBytes::new(py, &buf[..n]).unbind())
    })
}

/// A new `bytes` object of `len` bytes (an output size known in advance, as
/// byte split's) written by `f` with the GIL released; `f` returns how many
/// it wrote (at most `len`), to which the object is cut.
///
/// The codec writes straight into the object: no copy, and no zeroing first
/// as `PyBytes::new_with` does (on 1M float32 that memset took 30% of byte
/// split's call). Through CPython's `PyBytesWriter` (pyo3's compat version
/// below Python 3.15).
///
/// # Safety
/// The buffer handed to `f` is not initialised: `f` must only store into it,
/// never load a byte it has not written.
pub unsafe fn exact(
    py: Python<'_>,
    len: usize,
    f: impl FnOnce(&mut [u8]) -> Result<usize, vecpress::Error> + Send,
) -> PyResult<Py<PyBytes>> {
    let writer = Writer::new(py, len)?;
    // SAFETY: the writer was created with `len` bytes, and `f` only stores
    // into them (this function's contract).
    let out = unsafe { writer.data(len) };
    let n = py.detach(|| f(out)).map_err(|e| to_py(py, e))?;
    assert!(n <= len, "codec reports {n} bytes written into {len}");
    writer.finish(py, n)
}

/// New `bytes` of `len(data)` bytes, what `f` writes from the bytes of
/// `data` with the GIL released (see [`exact`]): the shape of the codecs
/// whose output is as long as their input.
///
/// # Safety
/// As for [`exact`]: `f` must only store into its output, never load a byte
/// it has not written.
pub unsafe fn same_len(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    f: impl FnOnce(&[u8], &mut [u8]) -> Result<usize, vecpress::Error> + Send,
) -> PyResult<Py<PyBytes>> {
    let input = Bytes::get(data)?;
    let input = input.as_slice();
    // SAFETY: `f` only stores into its output (this function's contract).
    unsafe { exact(py, input.len(), |out| f(input, out)) }
}

/// What `f` writes from the bytes of `data` into `out`, a writable uint8
/// array of at least `len(data)` bytes (see [`into`]); returns the bytes
/// written.
pub fn same_len_into(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    f: impl FnOnce(&[u8], &mut [u8]) -> Result<usize, vecpress::Error> + Send,
) -> PyResult<usize> {
    let input = Bytes::get(data)?;
    let input = input.as_slice();
    into(py, out, input.len(), &[input], |dst| f(input, dst))
}

/// Runs `f` on the whole of `out`, a writable, 1-D, C-contiguous uint8
/// array of at least `len` bytes that shares no memory with any of `reads`
/// (the buffers `f` reads), with the GIL released; returns what `f` returns, its
/// error mapped.
pub fn into(
    py: Python<'_>,
    out: &Bound<'_, PyAny>,
    len: usize,
    reads: &[&[u8]],
    f: impl FnOnce(&mut [u8]) -> Result<usize, vecpress::Error> + Send,
) -> PyResult<usize> {
    let mut rw = output::<u8>(out, len, reads)?;
    let dst = rw
        .as_slice_mut()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.detach(|| f(dst)).map_err(|e| to_py(py, e))
}

/// A `PyBytesWriter` of a fixed size, discarded on drop unless finished.
struct Writer(*mut ffi::compat::PyBytesWriter);

impl Writer {
    fn new(py: Python<'_>, size: usize) -> PyResult<Writer> {
        let size = ffi::Py_ssize_t::try_from(size)
            .map_err(|_| PyMemoryError::new_err(format!("{size} bytes")))?;
        // SAFETY: the GIL is held (`py`) and `size >= 0`.
        let w = unsafe { ffi::compat::PyBytesWriter_Create(size) };
        if w.is_null() {
            return Err(PyErr::fetch(py));
        }
        Ok(Writer(w))
    }

    /// The writer's `len` bytes (its size), to be written before `finish`.
    ///
    /// # Safety
    /// `len` is the size the writer was created with; the bytes are not
    /// initialised, so the caller must only store into them.
    #[allow(clippy::mut_from_ref)]
    unsafe fn data(&self, len: usize) -> &mut [u8] {
        if len == 0 {
            return &mut [];
        }
        // SAFETY: a live writer created with size `len` (the caller's
        // contract) owns `len` bytes at `GetData` (in its bytes object, or
        // its inline buffer for sizes up to 256) until `finish` or drop,
        // which take `self` after this borrow ends; nothing else points at
        // them, as the object is not yet visible to Python. The caller only
        // stores into them, and only the bytes it reports written become the
        // object's content.
        unsafe {
            let data = ffi::compat::PyBytesWriter_GetData(self.0).cast::<u8>();
            std::slice::from_raw_parts_mut(data, len)
        }
    }

    /// The bytes object, cut to its first `n` bytes.
    fn finish(self, py: Python<'_>, n: usize) -> PyResult<Py<PyBytes>> {
        let w = self.0;
        std::mem::forget(self);
        // SAFETY: `w` is a live writer (not yet finished or discarded: `self`
        // was consumed without its drop), the GIL is held, and `n` is at most
        // its size, so `n as Py_ssize_t` is in range. FinishWithSize frees the
        // writer and returns a new reference or NULL with an exception set.
        let obj = unsafe {
            let obj = ffi::compat::PyBytesWriter_FinishWithSize(w, n as ffi::Py_ssize_t);
            Bound::from_owned_ptr_or_err(py, obj)?
        };
        Ok(obj.cast_into::<PyBytes>()?.unbind())
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // SAFETY: the writer is live (finish forgets `self`); it is dropped
        // with the GIL held (created under it, and `Writer` is not `Send`).
        unsafe { ffi::compat::PyBytesWriter_Discard(self.0) }
    }
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
            let mut rw = output::<T>(out, count, &[input])?;
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

/// `n` zero bytes, or `MemoryError` when they cannot be had (a failed
/// allocation would otherwise abort the interpreter).
fn zeroed(n: usize) -> PyResult<Vec<u8>> {
    let mut buf = Vec::new();
    buf.try_reserve_exact(n).map_err(|_| no_memory(n))?;
    buf.resize(n, 0);
    Ok(buf)
}

fn no_memory(n: usize) -> PyErr {
    PyMemoryError::new_err(format!("cannot allocate {n} bytes for the output"))
}
