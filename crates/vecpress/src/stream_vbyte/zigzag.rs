//! Signed values in a standard stream: zigzag coding, and zigzag of the
//! differences, as the reference's `streamvbyte_zigzag.h` does.
//!
//! Zigzag maps 0, -1, 1, -2, 2 ... to 0, 1, 2, 3, 4 ..., so that small
//! magnitudes take one byte. Zigzag-delta stores `zigzag(v[i] - v[i-1])`
//! (the difference wrapping modulo 2^32, from a `prev` for `v[-1]`): the
//! zigzag of each signed difference, for series that go up and down. (The
//! reference's `zigzag_delta_encode` computes `in[i] - prev` on `int32_t`;
//! the wrapping here gives the same bits where that does not overflow, and
//! still round-trips where it would.)
#![forbid(unsafe_code)]

use core::ops::ControlFlow;

use super::chunked::{encode_by, encoded_len_by, scan};
use super::control_len;
use crate::Error;
use crate::vbyte::{unzigzag32, zigzag32};

/// Encodes `values` zigzag-coded; returns the bytes written.
///
/// # Panics
/// If `out` cannot hold the encoding; `max_encoded_len(values.len())` bytes suffice.
///
/// ```
/// use vecpress::stream_vbyte;
/// let mut out = [0u8; 32];
/// let n = stream_vbyte::encode_i32(&[0, -1, 1, -200], &mut out);
/// assert_eq!(&out[..n], &[0b01_00_00_00, 0, 1, 2, 143, 1]);
/// ```
pub fn encode_i32(values: &[i32], out: &mut [u8]) -> usize {
    encode_by(values.len(), out, "stream_vbyte::encode_i32", |i| {
        zigzag32(values[i])
    })
}

/// [`encode_i32`] into a new vector of exactly the encoded length.
///
/// ```
/// let bytes = vecpress::stream_vbyte::encode_i32_to_vec(&[i32::MIN, i32::MAX]);
/// assert_eq!(vecpress::stream_vbyte::decode_i32_to_vec(&bytes, 2), Ok(vec![i32::MIN, i32::MAX]));
/// ```
pub fn encode_i32_to_vec(values: &[i32]) -> Vec<u8> {
    let mut out = vec![0u8; encoded_len_by(values.len(), |i| zigzag32(values[i]))];
    encode_i32(values, &mut out);
    out
}

/// Decodes `out.len()` zigzag-coded values; returns the bytes consumed.
///
/// ```
/// let mut out = [0i32; 4];
/// assert_eq!(vecpress::stream_vbyte::decode_i32(&[0b01_00_00_00, 0, 1, 2, 143, 1], &mut out), Ok(6));
/// assert_eq!(out, [0, -1, 1, -200]);
/// ```
pub fn decode_i32(input: &[u8], out: &mut [i32]) -> Result<usize, Error> {
    let (_, used) = scan::<(), false>(input, out.len(), 0, |first, chunk| {
        for (o, &v) in out[first..].iter_mut().zip(chunk) {
            *o = unzigzag32(v);
        }
        ControlFlow::Continue(())
    })?;
    Ok(used)
}

/// Decodes `n` zigzag-coded values into a new vector (`n` is checked against
/// the control stream before allocating).
///
/// ```
/// let bytes = vecpress::stream_vbyte::encode_i32_to_vec(&[-5, 5]);
/// assert_eq!(vecpress::stream_vbyte::decode_i32_to_vec(&bytes, 2), Ok(vec![-5, 5]));
/// ```
pub fn decode_i32_to_vec(input: &[u8], n: usize) -> Result<Vec<i32>, Error> {
    let mut out = checked_vec(input, n)?;
    decode_i32(input, &mut out)?;
    Ok(out)
}

/// Encodes the zigzag of each difference `values[i] - values[i - 1]`
/// (wrapping), from `prev` for the first; returns the bytes written. Panics
/// as [`encode_i32`] does.
///
/// ```
/// use vecpress::stream_vbyte;
/// let mut out = [0u8; 32];
/// let n = stream_vbyte::encode_zigzag_delta(&[100, 98, 99, 99], 100, &mut out);
/// // Differences 0, -2, 1, 0.
/// assert_eq!(&out[..n], &[0, 0, 3, 2, 0]);
/// ```
pub fn encode_zigzag_delta(values: &[i32], prev: i32, out: &mut [u8]) -> usize {
    encode_by(
        values.len(),
        out,
        "stream_vbyte::encode_zigzag_delta",
        |i| zigzag_gap(values, prev, i),
    )
}

/// [`encode_zigzag_delta`] into a new vector of exactly the encoded length.
///
/// ```
/// let bytes = vecpress::stream_vbyte::encode_zigzag_delta_to_vec(&[-3, -4, 10], 0);
/// assert_eq!(vecpress::stream_vbyte::decode_zigzag_delta_to_vec(&bytes, 3, 0), Ok(vec![-3, -4, 10]));
/// ```
pub fn encode_zigzag_delta_to_vec(values: &[i32], prev: i32) -> Vec<u8> {
    let mut out = vec![0u8; encoded_len_by(values.len(), |i| zigzag_gap(values, prev, i))];
    encode_zigzag_delta(values, prev, &mut out);
    out
}

/// Decodes `out.len()` zigzag-coded differences and writes their running
/// sum from `prev` (wrapping); returns the bytes consumed.
///
/// ```
/// let mut out = [0i32; 4];
/// assert_eq!(vecpress::stream_vbyte::decode_zigzag_delta(&[0, 0, 3, 2, 0], &mut out, 100), Ok(5));
/// assert_eq!(out, [100, 98, 99, 99]);
/// ```
pub fn decode_zigzag_delta(input: &[u8], out: &mut [i32], prev: i32) -> Result<usize, Error> {
    let mut acc = prev;
    let (_, used) = scan::<(), false>(input, out.len(), 0, |first, chunk| {
        for (o, &v) in out[first..].iter_mut().zip(chunk) {
            acc = acc.wrapping_add(unzigzag32(v));
            *o = acc;
        }
        ControlFlow::Continue(())
    })?;
    Ok(used)
}

/// [`decode_zigzag_delta`] into a new vector (`n` checked before allocating).
///
/// ```
/// let bytes = vecpress::stream_vbyte::encode_zigzag_delta_to_vec(&[7, 7, 6], 0);
/// assert_eq!(vecpress::stream_vbyte::decode_zigzag_delta_to_vec(&bytes, 3, 0), Ok(vec![7, 7, 6]));
/// ```
pub fn decode_zigzag_delta_to_vec(input: &[u8], n: usize, prev: i32) -> Result<Vec<i32>, Error> {
    let mut out = checked_vec(input, n)?;
    decode_zigzag_delta(input, &mut out, prev)?;
    Ok(out)
}

/// The zigzag of `values[i] - values[i - 1]`, with `prev` before the first.
#[inline(always)]
fn zigzag_gap(values: &[i32], prev: i32, i: usize) -> u32 {
    let before = if i == 0 { prev } else { values[i - 1] };
    zigzag32(values[i].wrapping_sub(before))
}

/// A vector of `n` defaults, once `input` is known to hold the control
/// stream of `n` values (so at most `4 * input.len()` are allocated).
pub(crate) fn checked_vec<T: Copy + Default>(input: &[u8], n: usize) -> Result<Vec<T>, Error> {
    if input.len() < control_len(n) {
        return Err(super::decode::scalar::control_truncated(input.len(), n));
    }
    Ok(vec![T::default(); n])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_matches_the_reference_definition() {
        // The reference: (v + v) ^ (v >> 31) and (v >> 1) ^ -(v & 1).
        for v in [0i32, 1, -1, 2, -2, 1000, -1000, i32::MAX, i32::MIN] {
            let u = v as u32;
            let want = u.wrapping_add(u) ^ (v >> 31) as u32;
            assert_eq!(zigzag32(v), want, "{v}");
            assert_eq!(unzigzag32(want), v, "{v}");
            assert_eq!(((want >> 1) ^ 0u32.wrapping_sub(want & 1)) as i32, v);
        }
        assert_eq!(zigzag32(i32::MIN), u32::MAX);
        assert_eq!(zigzag32(i32::MAX), u32::MAX - 1);
    }
}
