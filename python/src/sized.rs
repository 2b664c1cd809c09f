//! Chunks of the numcodecs codecs: a 4-byte little-endian size of the
//! decoded bytes, then the encoded payload (the layout of numcodecs' LZ4).
//! Reading the size here lets a short or inconsistent prefix raise the same
//! exceptions, built by `errors::to_py`, as every other bad input.

use pyo3::prelude::*;

use crate::buffers::Bytes;
use crate::errors::{guarded, to_py};

/// Bytes of the size prefix.
pub const PREFIX: usize = 4;

/// The decoded size the prefix of `chunk` declares.
pub fn declared(chunk: &[u8]) -> Result<usize, vecpress::Error> {
    let Some(prefix) = chunk.get(..PREFIX) else {
        return Err(vecpress::Error::Truncated {
            offset: 0,
            needed: PREFIX - chunk.len(),
            unit: vecpress::Unit::Bytes,
        });
    };
    Ok(u32::from_le_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize)
}

/// The decoded size, in bytes, that the prefix of the chunk `data` declares:
/// a whole number of values of `width` bytes.
#[pyfunction]
pub fn sized_len(py: Python<'_>, data: &Bound<'_, PyAny>, width: usize) -> PyResult<usize> {
    guarded(|| {
        let input = Bytes::get(data)?;
        let size = declared(input.as_slice()).map_err(|e| to_py(py, e))?;
        if size % width.max(1) != 0 {
            return Err(to_py(
                py,
                vecpress::Error::Corrupt {
                    offset: 0,
                    what: "size prefix is not a whole number of values",
                },
            ));
        }
        Ok(size)
    })
}
