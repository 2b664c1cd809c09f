//! u16 values in a standard stream.
//!
//! Design: a u16 is widened to u32 and written in the standard format, so a
//! u16 stream is a u32 stream (any u32 decoder reads it) whose values use
//! codes 0 and 1 only (1 or 2 data bytes). No other layout is needed: the
//! 2-bit codes already cost what a u16-specific code set would, and the
//! kernels, random access and append work unchanged. Decoding narrows back
//! and rejects a value above `u16::MAX` as corrupt.
#![forbid(unsafe_code)]

use core::ops::ControlFlow;

use super::chunked::{encode_by, encoded_len_by, scan};
use super::zigzag::checked_vec;
use super::{control_len, data_len};
use crate::Error;
use crate::stream_vbyte::tables::Codes1234;

/// Encodes u16 values (widened to u32); returns the bytes written.
///
/// # Panics
/// If `out` cannot hold the encoding; `max_encoded_len(values.len())` bytes suffice.
///
/// ```
/// use vecpress::stream_vbyte;
/// let mut out = [0u8; 16];
/// let n = stream_vbyte::encode_u16(&[1, 300, u16::MAX], &mut out);
/// assert_eq!(&out[..n], &[0b01_01_00, 1, 44, 1, 0xff, 0xff]);
/// // The same bytes as the u32 encoding.
/// assert_eq!(&out[..n], &stream_vbyte::encode_to_vec(&[1, 300, 65535])[..]);
/// ```
pub fn encode_u16(values: &[u16], out: &mut [u8]) -> usize {
    encode_by(values.len(), out, "stream_vbyte::encode_u16", |i| {
        u32::from(values[i])
    })
}

/// [`encode_u16`] into a new vector of exactly the encoded length.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::encode_u16_to_vec(&[7]), vec![0, 7]);
/// ```
pub fn encode_u16_to_vec(values: &[u16]) -> Vec<u8> {
    let mut out = vec![0u8; encoded_len_by(values.len(), |i| u32::from(values[i]))];
    encode_u16(values, &mut out);
    out
}

/// Decodes `out.len()` values into u16; returns the bytes consumed. A value
/// above `u16::MAX` is `Err(Corrupt)` at the offset of its data bytes.
///
/// ```
/// use vecpress::{stream_vbyte, Error};
/// let mut out = [0u16; 2];
/// assert_eq!(stream_vbyte::decode_u16(&[0b01_00, 9, 0x34, 0x12], &mut out), Ok(4));
/// assert_eq!(out, [9, 0x1234]);
/// let wide = stream_vbyte::encode_to_vec(&[1, 70_000]);
/// assert!(matches!(stream_vbyte::decode_u16(&wide, &mut out), Err(Error::Corrupt { offset: 2, .. })));
/// ```
pub fn decode_u16(input: &[u8], out: &mut [u16]) -> Result<usize, Error> {
    let n = out.len();
    let (wide, used) = scan::<usize, false>(input, n, 0, |first, chunk| {
        for (j, (o, &v)) in out[first..].iter_mut().zip(chunk).enumerate() {
            match u16::try_from(v) {
                Ok(v) => *o = v,
                Err(_) => return ControlFlow::Break(first + j),
            }
        }
        ControlFlow::Continue(())
    })?;
    match wide {
        None => Ok(used),
        Some(i) => Err(Error::Corrupt {
            offset: control_len(n) + data_len::<Codes1234>(input, i),
            what: "value exceeds u16",
        }),
    }
}

/// Decodes `n` u16 values into a new vector (`n` checked before allocating).
///
/// ```
/// let bytes = vecpress::stream_vbyte::encode_u16_to_vec(&[1, 2, 60_000]);
/// assert_eq!(vecpress::stream_vbyte::decode_u16_to_vec(&bytes, 3), Ok(vec![1, 2, 60_000]));
/// ```
pub fn decode_u16_to_vec(input: &[u8], n: usize) -> Result<Vec<u16>, Error> {
    let mut out = checked_vec(input, n)?;
    decode_u16(input, &mut out)?;
    Ok(out)
}
