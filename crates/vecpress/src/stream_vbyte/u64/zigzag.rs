//! Signed values in a 64-bit stream: zigzag coding, and zigzag of the
//! differences, as the 32-bit `stream_vbyte::encode_zigzag_delta` does.
#![forbid(unsafe_code)]

use super::scalar::{self, check_size, control_len};
use super::{check_room, decode_part, max_encoded_len};
use crate::Error;
use crate::vbyte::{unzigzag64, zigzag64};

/// Values per decoded chunk.
const CHUNK: usize = 256;

/// Encodes `values` zigzag-coded; returns the bytes written.
///
/// # Panics
/// If `out` cannot hold the encoding; [`max_encoded_len`]`(values.len())` bytes suffice.
///
/// ```
/// use vecpress::stream_vbyte::u64 as sv64;
/// let mut out = [0u8; 32];
/// let n = sv64::encode_i64(&[0, -1, 1, i64::MIN], &mut out);
/// assert_eq!(&out[..n], &[0b11_00_00_00, 0, 1, 2, 255, 255, 255, 255, 255, 255, 255, 255]);
/// ```
pub fn encode_i64(values: &[i64], out: &mut [u8]) -> usize {
    let zz = |i: usize| zigzag64(values[i]);
    encode_by(values.len(), out, zz)
}

/// [`encode_i64`] into a new vector of exactly the encoded length.
///
/// ```
/// use vecpress::stream_vbyte::u64 as sv64;
/// let bytes = sv64::encode_i64_to_vec(&[-3, i64::MAX]);
/// assert_eq!(sv64::decode_i64_to_vec(&bytes, 2), Ok(vec![-3, i64::MAX]));
/// ```
pub fn encode_i64_to_vec(values: &[i64]) -> Vec<u8> {
    let zz = |i: usize| zigzag64(values[i]);
    let mut out = vec![0u8; encoded_len_by(values.len(), zz)];
    encode_by(values.len(), &mut out, zz);
    out
}

/// Decodes `out.len()` zigzag-coded values; returns the bytes consumed.
///
/// ```
/// let mut out = [0i64; 2];
/// assert_eq!(vecpress::stream_vbyte::u64::decode_i64(&[0, 3, 4], &mut out), Ok(3));
/// assert_eq!(out, [-2, 2]);
/// ```
pub fn decode_i64(input: &[u8], out: &mut [i64]) -> Result<usize, Error> {
    decode_by(input, out, unzigzag64)
}

/// Decodes `n` zigzag-coded values into a new vector (`n` is checked against
/// the input before allocating).
///
/// ```
/// let bytes = vecpress::stream_vbyte::u64::encode_i64_to_vec(&[-1 << 40]);
/// assert_eq!(vecpress::stream_vbyte::u64::decode_i64_to_vec(&bytes, 1), Ok(vec![-1 << 40]));
/// ```
pub fn decode_i64_to_vec(input: &[u8], n: usize) -> Result<Vec<i64>, Error> {
    check_size(input, n)?;
    let mut out = vec![0i64; n];
    decode_i64(input, &mut out)?;
    Ok(out)
}

/// Encodes the zigzag of each difference `values[i] - values[i - 1]`
/// (wrapping), from `prev` for the first; returns the bytes written. Panics
/// as [`encode_i64`] does.
///
/// ```
/// use vecpress::stream_vbyte::u64 as sv64;
/// let mut out = [0u8; 40];
/// let n = sv64::encode_zigzag_delta(&[10, 8, 9], 10, &mut out);
/// assert_eq!(&out[..n], &[0, 0, 3, 2]);
/// ```
pub fn encode_zigzag_delta(values: &[i64], prev: i64, out: &mut [u8]) -> usize {
    encode_by(values.len(), out, |i| zigzag_gap(values, prev, i))
}

/// [`encode_zigzag_delta`] into a new vector of exactly the encoded length.
///
/// ```
/// use vecpress::stream_vbyte::u64 as sv64;
/// let bytes = sv64::encode_zigzag_delta_to_vec(&[i64::MIN, i64::MAX], 0);
/// assert_eq!(sv64::decode_zigzag_delta_to_vec(&bytes, 2, 0), Ok(vec![i64::MIN, i64::MAX]));
/// ```
pub fn encode_zigzag_delta_to_vec(values: &[i64], prev: i64) -> Vec<u8> {
    let gap = |i: usize| zigzag_gap(values, prev, i);
    let mut out = vec![0u8; encoded_len_by(values.len(), gap)];
    encode_by(values.len(), &mut out, gap);
    out
}

/// Decodes `out.len()` zigzag-coded differences and writes their running
/// sum from `prev` (wrapping); returns the bytes consumed.
///
/// ```
/// let mut out = [0i64; 3];
/// assert_eq!(vecpress::stream_vbyte::u64::decode_zigzag_delta(&[0, 0, 3, 2], &mut out, 10), Ok(4));
/// assert_eq!(out, [10, 8, 9]);
/// ```
pub fn decode_zigzag_delta(input: &[u8], out: &mut [i64], prev: i64) -> Result<usize, Error> {
    let mut acc = prev;
    decode_by(input, out, |v| {
        acc = acc.wrapping_add(unzigzag64(v));
        acc
    })
}

/// [`decode_zigzag_delta`] into a new vector (`n` checked before allocating).
///
/// ```
/// use vecpress::stream_vbyte::u64 as sv64;
/// let bytes = sv64::encode_zigzag_delta_to_vec(&[5, 4, 3], 0);
/// assert_eq!(sv64::decode_zigzag_delta_to_vec(&bytes, 3, 0), Ok(vec![5, 4, 3]));
/// ```
pub fn decode_zigzag_delta_to_vec(input: &[u8], n: usize, prev: i64) -> Result<Vec<i64>, Error> {
    check_size(input, n)?;
    let mut out = vec![0i64; n];
    decode_zigzag_delta(input, &mut out, prev)?;
    Ok(out)
}

/// The zigzag of `values[i] - values[i - 1]`, with `prev` before the first.
#[inline(always)]
fn zigzag_gap(values: &[i64], prev: i64, i: usize) -> u64 {
    let before = if i == 0 { prev } else { values[i - 1] };
    zigzag64(values[i].wrapping_sub(before))
}

fn encoded_len_by(n: usize, value: impl Fn(usize) -> u64) -> usize {
    control_len(n) + (0..n).map(|i| scalar::data_len(value(i))).sum::<usize>()
}

/// Encodes `value(0..n)`; panics when `out` is too small.
fn encode_by(n: usize, out: &mut [u8], value: impl Fn(usize) -> u64) -> usize {
    if out.len() < max_encoded_len(n) {
        check_room(out.len(), n, || encoded_len_by(n, &value));
    }
    scalar::encode((0..n).map(value), n, out)
}

/// Decodes `out.len()` values with the best kernel, 256 at a time through a
/// stack buffer, mapping each with `map`; returns the bytes consumed.
fn decode_by<T>(
    input: &[u8],
    out: &mut [T],
    mut map: impl FnMut(u64) -> T,
) -> Result<usize, Error> {
    let n = out.len();
    let clen = check_size(input, n)?;
    let (control, data) = input.split_at(clen);
    let isa = crate::tune::isa(crate::tune::Op::StreamVByte64);
    let mut buf = [0u64; CHUNK];
    let mut pos = 0;
    for (c, chunk) in out.chunks_mut(CHUNK).enumerate() {
        let start = c * CHUNK;
        let tmp = &mut buf[..chunk.len()];
        let ctrl = &control[start / 4..];
        pos +=
            decode_part(isa, ctrl, &data[pos..], clen + pos, tmp, None).map_err(|e| match e {
                Error::Truncated {
                    offset,
                    needed,
                    unit,
                } => Error::Truncated {
                    offset,
                    needed: needed + (n - start - chunk.len()),
                    unit,
                },
                other => other,
            })?;
        for (o, &v) in chunk.iter_mut().zip(tmp.iter()) {
            *o = map(v);
        }
    }
    Ok(clen + pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_maps_small_magnitudes_to_small_codes() {
        for (s, u) in [
            (0i64, 0u64),
            (-1, 1),
            (1, 2),
            (-2, 3),
            (i64::MAX, u64::MAX - 1),
            (i64::MIN, u64::MAX),
        ] {
            assert_eq!(zigzag64(s), u);
            assert_eq!(unzigzag64(u), s);
        }
    }
}
