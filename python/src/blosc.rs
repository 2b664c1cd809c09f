//! Blosc version-1 frames with the LZ4 compressors (numcodecs' `Blosc`
//! default), byte-compatible with c-blosc both ways.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use vecpress::blosc::{self, Compressor, Params, Shuffle, SplitMode};

use crate::buffers::Bytes;
use crate::call::{into, variable};
use crate::errors::to_py;

/// Compresses `data` into a Blosc frame: `cname` "lz4" or "lz4hc", `clevel`
/// 0 to 9, `shuffle` 0 (none), 1 (byte) or 2 (bit), elements of `typesize`
/// bytes, `blocksize` bytes a block (0: chosen as c-blosc chooses).
#[pyfunction]
pub fn blosc_compress(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    cname: &str,
    clevel: u8,
    shuffle: u8,
    typesize: usize,
    blocksize: usize,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let params = params(cname, clevel, shuffle, typesize, blocksize)?;
        let input = Bytes::get(data)?;
        let src = input.as_slice();
        variable(py, blosc::max_compressed_len(src.len()), |out| {
            blosc::compress_into(src, &params, out)
        })
    })
}

/// The parameters of [`blosc_compress`], checked.
pub fn params(
    cname: &str,
    clevel: u8,
    shuffle: u8,
    typesize: usize,
    blocksize: usize,
) -> PyResult<Params> {
    let compressor = match cname {
        "lz4" => Compressor::Lz4,
        "lz4hc" => Compressor::Lz4hc,
        other => {
            return Err(PyValueError::new_err(format!(
                "vecpress's Blosc compresses with lz4 and lz4hc, not {other:?}"
            )))
        }
    };
    let shuffle = match shuffle {
        0 => Shuffle::None,
        1 => Shuffle::Byte,
        2 => Shuffle::Bit,
        other => {
            return Err(PyValueError::new_err(format!(
                "shuffle must be 0 (none), 1 (byte) or 2 (bit), not {other}"
            )))
        }
    };
    Ok(Params {
        compressor,
        clevel,
        shuffle,
        typesize,
        blocksize,
        split: SplitMode::ForwardCompat,
    })
}

/// The uncompressed size a Blosc frame states, checked against `limit` and
/// against what the frame can hold; a compressor vecpress does not read
/// raises `UnsupportedFormatError` here, before the caller allocates.
#[pyfunction]
pub fn blosc_nbytes(py: Python<'_>, data: &Bound<'_, PyAny>, limit: usize) -> PyResult<usize> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let nbytes = blosc::decompressed_len(input.as_slice()).map_err(|e| to_py(py, e))?;
        if nbytes > limit {
            return Err(to_py(
                py,
                vecpress::Error::LimitExceeded {
                    what: "blosc uncompressed size",
                    requested: nbytes,
                    limit,
                },
            ));
        }
        Ok(nbytes)
    })
}

/// Decompresses a Blosc frame into the first bytes of `out` (a writable
/// uint8 array at least [`blosc_nbytes`] long) on up to `threads` threads
/// (its blocks, or the splits of its one block); returns the size.
#[pyfunction]
#[pyo3(signature = (data, out, threads = 1))]
pub fn blosc_decompress_into(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    threads: usize,
) -> PyResult<usize> {
    crate::errors::guarded(|| {
        let input = Bytes::get(data)?;
        let src = input.as_slice();
        let header = blosc::Header::parse(src).map_err(|e| to_py(py, e))?;
        into(py, out, header.nbytes, &[src], |dst| {
            blosc::decompress_into_threads(src, dst, threads)
        })
    })
}
