//! The u32 codecs that share one shape (plain and delta encoders and
//! decoders): Stream VByte (standard and 0124), the group varints (GB and
//! G8IU) and the bit packers, chosen by name so one checked path serves them
//! all. FastLanes' frame-of-reference form (`fastlanes-for`) has no delta
//! form, so its delta entries are absent and asking for them is an error.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use vecpress::{bitpack, group_varint, stream_vbyte, Error};

use crate::buffers::input_array;
use crate::call::{decode, encode};

type Decode = fn(&[u8], &mut [u32]) -> Result<usize, Error>;
type DecodeDelta = fn(&[u8], &mut [u32], u32) -> Result<usize, Error>;
type ToVec = fn(&[u8], usize) -> Result<Vec<u32>, Error>;
type DeltaToVec = fn(&[u8], usize, u32) -> Result<Vec<u32>, Error>;

/// One u32 codec's delta entry points.
struct Delta {
    encode: fn(&[u32], u32, &mut [u8]) -> usize,
    decode: DecodeDelta,
    to_vec: DeltaToVec,
}

/// One u32 codec's entry points (`delta` is `None` for a codec without a
/// delta form).
struct U32Codec {
    max_len: fn(usize) -> usize,
    encode: fn(&[u32], &mut [u8]) -> usize,
    decode: Decode,
    to_vec: ToVec,
    delta: Option<Delta>,
}

impl U32Codec {
    /// The delta entry points, or a `ValueError` naming the codec `name`.
    fn delta(&self, name: &str) -> PyResult<&Delta> {
        self.delta
            .as_ref()
            .ok_or_else(|| PyValueError::new_err(format!("codec {name:?} has no delta form")))
    }
}

macro_rules! u32_codec {
    ($m:path, $enc:ident, $encd:ident, $dec:ident, $decd:ident, $tv:ident, $tvd:ident) => {{
        use $m as m;
        U32Codec {
            max_len: m::max_encoded_len,
            encode: m::$enc,
            decode: m::$dec,
            to_vec: m::$tv,
            delta: Some(Delta {
                encode: m::$encd,
                decode: m::$decd,
                to_vec: m::$tvd,
            }),
        }
    }};
}

fn codec(name: &str) -> PyResult<U32Codec> {
    Ok(match name {
        "stream_vbyte" => u32_codec!(
            stream_vbyte,
            encode,
            encode_delta,
            decode,
            decode_delta,
            decode_to_vec,
            decode_delta_to_vec
        ),
        "stream_vbyte_0124" => u32_codec!(
            stream_vbyte,
            encode_0124,
            encode_delta_0124,
            decode_0124,
            decode_delta_0124,
            decode_0124_to_vec,
            decode_delta_0124_to_vec
        ),
        "group_varint_gb" => u32_codec!(
            group_varint::gb,
            encode,
            encode_delta,
            decode,
            decode_delta,
            decode_to_vec,
            decode_delta_to_vec
        ),
        "group_varint_g8iu" => u32_codec!(
            group_varint::g8iu,
            encode,
            encode_delta,
            decode,
            decode_delta,
            decode_to_vec,
            decode_delta_to_vec
        ),
        "bp128" => u32_codec!(
            bitpack::bp128,
            encode,
            encode_delta,
            decode,
            decode_delta,
            decode_to_vec,
            decode_delta_to_vec
        ),
        "pfor" => u32_codec!(
            bitpack::pfor,
            encode,
            encode_delta,
            decode,
            decode_delta,
            decode_to_vec,
            decode_delta_to_vec
        ),
        "fastlanes" => u32_codec!(
            bitpack::fastlanes,
            encode,
            encode_delta,
            decode,
            decode_delta,
            decode_to_vec,
            decode_delta_to_vec
        ),
        "fastlanes-for" => {
            use bitpack::fastlanes as m;
            U32Codec {
                max_len: m::max_encoded_len,
                encode: m::encode_for,
                decode: m::decode_for,
                to_vec: m::decode_for_to_vec,
                delta: None,
            }
        }
        _ => return Err(PyValueError::new_err(format!("unknown u32 codec {name}"))),
    })
}

/// Encodes a 1-D uint32 array with the codec `name`.
#[pyfunction]
pub fn u32_encode(
    py: Python<'_>,
    name: &str,
    array: &Bound<'_, PyAny>,
    delta: bool,
) -> PyResult<Py<PyBytes>> {
    crate::errors::guarded(|| {
        let c = codec(name)?;
        let enc_delta = if delta {
            Some(c.delta(name)?.encode)
        } else {
            None
        };
        let (arr, _) = input_array(array, &["<u4"])?;
        let enc = c.encode;
        encode(
            py,
            &arr,
            c.max_len,
            move |v: &[u32], o: &mut [u8]| match enc_delta {
                Some(enc_delta) => enc_delta(v, 0, o),
                None => enc(v, o),
            },
        )
    })
}

/// Decodes `count` uint32 values with the codec `name`.
#[pyfunction]
#[pyo3(signature = (name, data, count, delta, out=None))]
pub fn u32_decode(
    py: Python<'_>,
    name: &str,
    data: &Bound<'_, PyAny>,
    count: usize,
    delta: bool,
    out: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    crate::errors::guarded(|| {
        let c = codec(name)?;
        if delta {
            let d = c.delta(name)?;
            let (into, to_vec) = (d.decode, d.to_vec);
            decode(
                py,
                data,
                count,
                out,
                move |i, o| into(i, o, 0),
                move |i, n| to_vec(i, n, 0),
            )
        } else {
            decode(py, data, count, out, c.decode, c.to_vec)
        }
    })
}
