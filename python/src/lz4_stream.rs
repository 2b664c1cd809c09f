//! LZ4 frames streamed through Python file objects: `_FrameReader` reads
//! frames from a binary file with `FrameDecoder`, `_FrameWriter` writes one
//! frame to a binary file with `FrameEncoder`; `vecpress.lz4.open` wraps
//! them as Python file objects. Only a block (and its compressed form) is
//! held at a time, whatever the stream's length.

use std::cell::RefCell;
use std::io::{self, BufRead, Read, Write};
use std::rc::Rc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use vecpress::lz4::{frame, hc};

use crate::buffers::Bytes;
use crate::errors::to_py;
use crate::lz4::block_size_of;

/// The exception a method of the Python file raised, kept to be raised
/// again as it was: the Rust codec between sees only an `io::Error`.
type Raised = Rc<RefCell<Option<PyErr>>>;

/// A Python binary file as `Read` and `Write`.
struct PyFile {
    file: Py<PyAny>,
    raised: Raised,
}

impl PyFile {
    /// Runs `f` on the file; a Python exception is kept and reported to the
    /// codec as an I/O error.
    fn call<T>(
        &self,
        f: impl FnOnce(Python<'_>, &Bound<'_, PyAny>) -> PyResult<T>,
    ) -> io::Result<T> {
        Python::attach(|py| {
            f(py, self.file.bind(py)).map_err(|err| {
                let msg = err.to_string();
                *self.raised.borrow_mut() = Some(err);
                io::Error::other(msg)
            })
        })
    }
}

impl Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.call(|_, file| {
            let chunk = file.call_method1("read", (buf.len(),))?;
            if chunk.is_none() {
                return Err(PyValueError::new_err(
                    "the file's read() returned None (a non-blocking file with no data ready)",
                ));
            }
            let bytes = Bytes::get(&chunk)?;
            let got = bytes.as_slice();
            if got.len() > buf.len() {
                return Err(PyValueError::new_err(format!(
                    "the file's read({}) returned {} bytes",
                    buf.len(),
                    got.len()
                )));
            }
            buf[..got.len()].copy_from_slice(got);
            Ok(got.len())
        })
    }
}

impl Write for PyFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.call(|py, file| {
            let written = file.call_method1("write", (PyBytes::new(py, buf),))?;
            // A raw file may write less (and says how much); None means
            // a non-blocking file that took nothing.
            if written.is_none() {
                return Err(PyValueError::new_err(
                    "the file's write() returned None (a non-blocking file that is full)",
                ));
            }
            // More than it was given (or a negative count) would send
            // the writer past the end of its buffer.
            let n = written
                .extract::<i128>()
                .ok()
                .filter(|&n| n >= 0 && n as u128 <= buf.len() as u128);
            n.map(|n| n as usize).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "the file's write() of {} bytes returned {written}",
                    buf.len()
                ))
            })
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.call(|_, file| file.call_method0("flush").map(drop))
    }
}

/// The error to raise for `err`: the file's own exception when it raised
/// one, else the codec's.
fn raise(py: Python<'_>, raised: &Raised, err: io::Error) -> PyErr {
    match raised.borrow_mut().take() {
        Some(own) => own,
        None => to_py(py, vecpress::Error::from(err)),
    }
}

/// Reads LZ4 frames (concatenated, skippable and legacy frames too) from a
/// binary file, block by block, checking every checksum; at most
/// `max_size` bytes of output; frames made with a dictionary need `dict`.
#[pyclass(unsendable, name = "_FrameReader", module = "vecpress._native")]
pub struct FrameReader {
    dec: frame::FrameDecoder<PyFile>,
    raised: Raised,
}

#[pymethods]
impl FrameReader {
    /// `ahead`: decode two blocks at a time (`FrameDecoder::read_ahead`),
    /// for a file whose data is all there (not a pipe or socket).
    #[new]
    #[pyo3(signature = (file, max_size, ahead, dict=None))]
    fn new(
        file: Py<PyAny>,
        max_size: u64,
        ahead: bool,
        dict: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        crate::errors::guarded(|| {
            let raised = Raised::default();
            let src = PyFile {
                file,
                raised: Rc::clone(&raised),
            };
            let dec = match dict {
                Some(d) => frame::FrameDecoder::with_dictionary(src, Bytes::get(d)?.as_slice()),
                None => frame::FrameDecoder::new(src),
            }
            .limit(max_size)
            .read_ahead(ahead);
            Ok(FrameReader { dec, raised })
        })
    }

    /// Up to `size` decoded bytes (all that is left of the current block
    /// when `size` is negative); `b""` at the end of the input.
    fn read1(&mut self, py: Python<'_>, size: isize) -> PyResult<Py<PyBytes>> {
        crate::errors::guarded(|| {
            let taken = match self.dec.fill_buf() {
                Ok(avail) => {
                    let n = usize::try_from(size).map_or(avail.len(), |s| s.min(avail.len()));
                    Ok((PyBytes::new(py, &avail[..n]).unbind(), n))
                }
                Err(err) => Err(err),
            };
            match taken {
                Ok((bytes, n)) => {
                    self.dec.consume(n);
                    Ok(bytes)
                }
                Err(err) => Err(raise(py, &self.raised, err)),
            }
        })
    }

    /// Bytes read from the file so far.
    fn position(&self) -> usize {
        self.dec.position()
    }
}

/// Writes one LZ4 frame to a binary file: independent blocks of
/// `block_size` bytes at `level` (1: the fast compressor; 2 to 12 the
/// high-compression ones), a content checksum when `content_checksum`,
/// block checksums when `block_checksums`, the dictionary `dict` when
/// given (its id in the header).
#[pyclass(unsendable, name = "_FrameWriter", module = "vecpress._native")]
pub struct FrameWriter {
    enc: Option<frame::FrameEncoder<PyFile>>,
    raised: Raised,
}

#[pymethods]
impl FrameWriter {
    #[new]
    #[pyo3(signature = (file, level, block_size, block_checksums, content_checksum, dict=None))]
    fn new(
        file: Py<PyAny>,
        level: u32,
        block_size: usize,
        block_checksums: bool,
        content_checksum: bool,
        dict: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        crate::errors::guarded(|| {
            let raised = Raised::default();
            let dst = PyFile {
                file,
                raised: Rc::clone(&raised),
            };
            let info = frame::FrameInfo::new()
                .block_size(block_size_of(block_size)?)
                .block_checksums(block_checksums)
                .content_checksum(content_checksum);
            let enc = match dict {
                Some(d) => {
                    frame::FrameEncoder::with_dictionary(dst, info, Bytes::get(d)?.as_slice())
                }
                None => frame::FrameEncoder::with_info(dst, info),
            };
            let enc = if level >= hc::MIN_LEVEL {
                enc.with_level(level)
            } else {
                enc
            };
            Ok(FrameWriter {
                enc: Some(enc),
                raised,
            })
        })
    }

    /// Compresses `data` (any bytes-like object) into the frame; returns
    /// its length. Full blocks go to the file as they fill.
    fn write(&mut self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<usize> {
        crate::errors::guarded(|| {
            let input = Bytes::get(data)?;
            let enc = self.open()?;
            enc.write_all(input.as_slice())
                .map_err(|err| raise(py, &self.raised, err))?;
            Ok(input.as_slice().len())
        })
    }

    /// Ends the current block (shorter than the others) and flushes the
    /// file: what was written so far can be decoded from the file.
    fn flush(&mut self, py: Python<'_>) -> PyResult<()> {
        crate::errors::guarded(|| {
            let enc = self.open()?;
            enc.flush().map_err(|err| raise(py, &self.raised, err))
        })
    }

    /// Ends the frame: the last block, the end mark, the content checksum.
    /// Later calls do nothing.
    fn finish(&mut self, py: Python<'_>) -> PyResult<()> {
        crate::errors::guarded(|| {
            if let Some(enc) = self.enc.take() {
                let mut file = enc.finish().map_err(|err| raise(py, &self.raised, err))?;
                file.flush().map_err(|err| raise(py, &self.raised, err))?;
            }
            Ok(())
        })
    }
}

impl FrameWriter {
    fn open(&mut self) -> PyResult<&mut frame::FrameEncoder<PyFile>> {
        self.enc
            .as_mut()
            .ok_or_else(|| PyValueError::new_err("the frame is finished"))
    }
}
