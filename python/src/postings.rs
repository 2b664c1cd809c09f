//! `vecpress.postings`: the intersection and union of delta-coded posting
//! lists, answered from their encoded bytes by `vecpress::postings`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use vecpress::bitpack::{bp128, fastlanes, pfor};
use vecpress::postings::{self, hybrid, Cursor};
use vecpress::{stream_vbyte, vbyte, Error, Unit};

use crate::buffers::{input_array, readonly, to_array, Bytes};
use crate::errors::to_py;

/// What a query returns.
enum Answer {
    Values(Vec<u32>),
    Count(usize),
}

/// Answers `op` ("and", "or", "count") over `lists` of pairs (encoded
/// bytes, count), encoded by `codec` with delta
/// coding from 0; the GIL released while it runs.
/// `codec` is one of "stream-vbyte", "vbyte", "bp128", "fastlanes", "pfor".
#[pyfunction]
pub fn postings_query(
    py: Python<'_>,
    lists: Vec<(Bound<'_, PyAny>, usize)>,
    codec: &str,
    op: &str,
) -> PyResult<Py<PyAny>> {
    crate::errors::guarded(|| {
        if !matches!(op, "and" | "or" | "count") {
            return Err(PyValueError::new_err(format!(
                "unknown query {op:?} (expected \"and\", \"or\" or \"count\")"
            )));
        }
        let held: Vec<(Bytes, usize)> = lists
            .iter()
            .map(|(data, n)| Ok((Bytes::get(data)?, *n)))
            .collect::<PyResult<_>>()?;
        let inputs: Vec<(&[u8], usize)> = held.iter().map(|(b, n)| (b.as_slice(), *n)).collect();
        let answer = match codec {
            "stream-vbyte" => py.detach(|| {
                let cursors = inputs
                    .iter()
                    .map(|&(bytes, n)| stream_vbyte::DeltaCursor::new(bytes, n, 0))
                    .collect::<Result<Vec<_>, _>>()?;
                run(cursors, op)
            }),
            "vbyte" => py.detach(|| {
                let cursors = inputs
                    .iter()
                    .map(|&(bytes, n)| vbyte::DeltaCursor::new(bytes, n, 0))
                    .collect();
                run(cursors, op)
            }),
            "bp128" => py.detach(|| {
                let cursors = inputs
                    .iter()
                    .map(|&(bytes, n)| bp128::DeltaCursor::new(bytes, n, 0))
                    .collect();
                run(cursors, op)
            }),
            "fastlanes" => py.detach(|| {
                let cursors = inputs
                    .iter()
                    .map(|&(bytes, n)| fastlanes::DeltaCursor::new(bytes, n, 0))
                    .collect();
                run(cursors, op)
            }),
            "pfor" => py.detach(|| {
                let cursors = inputs
                    .iter()
                    .map(|&(bytes, n)| pfor::DeltaCursor::new(bytes, n, 0))
                    .collect();
                run(cursors, op)
            }),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown codec {codec:?} for queries (expected stream-vbyte, vbyte, bp128, fastlanes or pfor)"
                )))
            }
        }
        .map_err(|e| to_py(py, e))?;
        Ok(match answer {
            Answer::Values(v) => to_array(py, v),
            Answer::Count(n) => n.into_pyobject(py)?.into_any().unbind(),
        })
    })
}

fn run<C: Cursor>(mut cursors: Vec<C>, op: &str) -> Result<Answer, Error> {
    let mut out = Vec::new();
    match op {
        "and" => postings::and(&mut cursors, &mut out)?,
        "or" => postings::or(&mut cursors, &mut out)?,
        _ => return Ok(Answer::Count(postings::and_count(&mut cursors)?)),
    }
    Ok(Answer::Values(out))
}

/// Decodes the delta-coded Stream VByte lists of `data`, list `i` holding
/// `counts[i]` values from byte `starts[i]`, one after another, by one
/// call of `stream_vbyte::decode_delta_lists`; the GIL released while it
/// runs. The output is allocated once every list's control bytes are known
/// to be there (a byte per four values, as `stream_vbyte::decode_to_vec`
/// checks), so a count its bytes cannot back allocates nothing.
#[pyfunction]
pub fn postings_decode_lists(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    starts: Vec<usize>,
    counts: Vec<usize>,
) -> PyResult<Py<PyAny>> {
    crate::errors::guarded(|| {
        let held = Bytes::get(data)?;
        let bytes = held.as_slice();
        let lists = spans(starts, counts)?;
        let values = py
            .detach(|| {
                let mut total = 0usize;
                for &(start, n) in &lists {
                    if start > bytes.len() {
                        return Err(Error::OutOfRange {
                            index: start,
                            len: bytes.len(),
                        });
                    }
                    if n.div_ceil(4) > bytes.len() - start {
                        return Err(Error::Truncated {
                            offset: bytes.len(),
                            needed: n,
                            unit: Unit::Values,
                        });
                    }
                    total += n;
                }
                let mut out = vec![0u32; total];
                stream_vbyte::decode_delta_lists(bytes, &lists, &mut out)?;
                Ok(out)
            })
            .map_err(|e| to_py(py, e))?;
        Ok(to_array(py, values))
    })
}

/// Answers `op` ("and" or "or") over the delta-coded Stream VByte lists of
/// `data`, list `i` holding `counts[i]` values from byte `starts[i]`, by one
/// call of `stream_vbyte::and_delta_lists` or `or_delta_lists`; the GIL
/// released while it runs. Those take room for the lists only once their
/// control bytes are known to be there.
#[pyfunction]
pub fn postings_query_lists(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    starts: Vec<usize>,
    counts: Vec<usize>,
    op: &str,
) -> PyResult<Py<PyAny>> {
    crate::errors::guarded(|| {
        let query = match op {
            "and" => stream_vbyte::and_delta_lists,
            "or" => stream_vbyte::or_delta_lists,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown query {op:?} (expected \"and\" or \"or\")"
                )))
            }
        };
        let held = Bytes::get(data)?;
        let bytes = held.as_slice();
        let lists = spans(starts, counts)?;
        let mut out = Vec::new();
        py.detach(|| query(bytes, &lists, &mut out))
            .map_err(|e| to_py(py, e))?;
        Ok(to_array(py, out))
    })
}

/// The `(start, count)` of each list, from two sequences of one length.
fn spans(starts: Vec<usize>, counts: Vec<usize>) -> PyResult<Vec<(usize, usize)>> {
    if starts.len() != counts.len() {
        return Err(PyValueError::new_err(format!(
            "starts and counts differ in length ({} and {})",
            starts.len(),
            counts.len()
        )));
    }
    Ok(starts.into_iter().zip(counts).collect())
}

/// Encodes a 1-D uint32 array of strictly increasing ids as a hybrid list
/// (`vecpress::postings::hybrid`), with arrays within `room` ("gaps" or
/// "roaring", `hybrid::Room`); the GIL released while it runs.
#[pyfunction]
#[pyo3(signature = (ids, room = "gaps"))]
pub fn postings_hybrid_encode(
    py: Python<'_>,
    ids: &Bound<'_, PyAny>,
    room: &str,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let room = match room {
            "gaps" => hybrid::Room::Gaps,
            "roaring" => hybrid::Room::Roaring,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "room {room:?}: expected \"gaps\" or \"roaring\""
                )));
            }
        };
        let (arr, _) = input_array(ids, &["<u4"])?;
        let ro = readonly::<u32>(&arr)?;
        let values = ro
            .as_slice()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let bytes = py
            .detach(|| {
                let mut out = Vec::new();
                hybrid::encode_within(values, room, &mut out).map(|_| out)
            })
            .map_err(|e| to_py(py, e))?;
        Ok(PyBytes::new(py, &bytes).unbind())
    })
}

/// Answers `op` ("and", "or", "count", or "decode" of one list) over
/// hybrid lists, each a bytes-like object that starts with its list; the
/// GIL released while it runs.
#[pyfunction]
pub fn postings_hybrid_query(
    py: Python<'_>,
    lists: Vec<Bound<'_, PyAny>>,
    op: &str,
) -> PyResult<Py<PyAny>> {
    crate::errors::guarded(|| {
        let held: Vec<Bytes> = lists.iter().map(Bytes::get).collect::<PyResult<_>>()?;
        let inputs: Vec<&[u8]> = held.iter().map(|b| b.as_slice()).collect();
        let mut out = Vec::new();
        let answer = match op {
            "and" => py.detach(|| hybrid::and(&inputs, &mut out).map(|()| None)),
            "or" => py.detach(|| hybrid::or(&inputs, &mut out).map(|()| None)),
            "count" => py.detach(|| hybrid::and_count(&inputs).map(Some)),
            "decode" if inputs.len() == 1 => {
                py.detach(|| hybrid::decode_into(inputs[0], &mut out).map(|_| None))
            }
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown query {op:?} (expected \"and\", \"or\", \"count\" or \"decode\" of one list)"
                )))
            }
        }
        .map_err(|e| to_py(py, e))?;
        Ok(match answer {
            Some(n) => n.into_pyobject(py)?.into_any().unbind(),
            None => to_array(py, out),
        })
    })
}
