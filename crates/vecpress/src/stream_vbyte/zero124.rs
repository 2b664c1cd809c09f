//! The "0124" variant's public API: codes for 0, 1, 2 and 4 data bytes,
//! as the reference's `streamvbyte_encode_0124` writes them.

use super::tables::Codes0124;
use super::{control_len, decode_impl, encode_impl, to_vec_decoded, to_vec_encoded, validate_impl};
use crate::{Error, Isa};

/// Exact encoded size of `values` in the "0124" variant.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::encoded_len_0124(&[0, 0, 300, 70_000]), 1 + 2 + 4);
/// ```
pub fn encoded_len_0124(values: &[u32]) -> usize {
    control_len(values.len()) + super::encode::data_len::<Codes0124, false>(values, 0)
}

/// Encodes `values` in the "0124" variant; returns the bytes written.
///
/// # Panics
/// If `out` is shorter than [`encoded_len_0124`]`(values)`; a buffer of
/// [`max_encoded_len`](super::max_encoded_len)`(values.len())` bytes always suffices.
///
/// ```
/// let mut out = [0u8; 10];
/// let n = vecpress::stream_vbyte::encode_0124(&[0, 5, 300], &mut out);
/// assert_eq!(&out[..n], &[0b10_01_00, 0x05, 0x2c, 0x01]);
/// ```
pub fn encode_0124(values: &[u32], out: &mut [u8]) -> usize {
    encode_impl::<Codes0124, false>(
        crate::tune::isa(crate::tune::Op::StreamVByteEncode),
        values,
        0,
        out,
    )
}

/// Like [`encode_0124`], into a new vector.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::encode_0124_to_vec(&[0, 0, 0, 0, 7]), vec![0, 1, 7]);
/// ```
pub fn encode_0124_to_vec(values: &[u32]) -> Vec<u8> {
    to_vec_encoded(values, |out| encode_0124(values, out))
}

/// Encodes the gaps from `prev` (wrapping) in the "0124" variant: a repeated
/// value costs no data byte. Panics as [`encode_0124`] does.
///
/// ```
/// let mut out = [0u8; 16];
/// let n = vecpress::stream_vbyte::encode_delta_0124(&[7, 7, 8], 7, &mut out);
/// assert_eq!(&out[..n], &[0b01_00_00, 1]);
/// ```
pub fn encode_delta_0124(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    encode_impl::<Codes0124, true>(
        crate::tune::isa(crate::tune::Op::StreamVByteEncode),
        values,
        prev,
        out,
    )
}

/// Like [`encode_delta_0124`], into a new vector.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::encode_delta_0124_to_vec(&[1, 1], 0), vec![0b01, 1]);
/// ```
pub fn encode_delta_0124_to_vec(values: &[u32], prev: u32) -> Vec<u8> {
    to_vec_encoded(values, |out| encode_delta_0124(values, prev, out))
}

/// Decodes `out.len()` values of the "0124" variant; returns the bytes consumed.
///
/// ```
/// let mut out = [0u32; 3];
/// assert_eq!(vecpress::stream_vbyte::decode_0124(&[0b10_01_00, 0x05, 0x2c, 0x01], &mut out), Ok(4));
/// assert_eq!(out, [0, 5, 300]);
/// ```
pub fn decode_0124(input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl::<Codes0124, false>(
        crate::tune::isa(crate::tune::Op::StreamVByte0124),
        input,
        out,
        0,
    )
}

/// [`decode_0124`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{stream_vbyte, Isa};
/// let mut out = [9u32; 2];
/// assert_eq!(stream_vbyte::decode_0124_with(Isa::Scalar, &[0], &mut out), Ok(1));
/// assert_eq!(out, [0, 0]);
/// ```
pub fn decode_0124_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl::<Codes0124, false>(isa.check()?, input, out, 0)
}

/// Decodes `n` values of the "0124" variant into a new vector (allocating at
/// most `4 * input.len()` values, as the control stream must be there).
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::decode_0124_to_vec(&[0b11, 1, 0, 0, 0], 1), Ok(vec![1]));
/// ```
pub fn decode_0124_to_vec(input: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    to_vec_decoded(input, n, |out| decode_0124(input, out))
}

/// Decodes `out.len()` gaps of the "0124" variant and writes their running
/// sum from `prev`; returns the bytes consumed.
///
/// ```
/// let mut out = [0u32; 3];
/// assert_eq!(vecpress::stream_vbyte::decode_delta_0124(&[0b01_00_00, 1], &mut out, 7), Ok(2));
/// assert_eq!(out, [7, 7, 8]);
/// ```
pub fn decode_delta_0124(input: &[u8], out: &mut [u32], prev: u32) -> Result<usize, Error> {
    decode_impl::<Codes0124, true>(
        crate::tune::isa(crate::tune::Op::StreamVByte0124Delta),
        input,
        out,
        prev,
    )
}

/// [`decode_delta_0124`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{stream_vbyte, Isa};
/// let mut out = [0u32; 2];
/// assert_eq!(stream_vbyte::decode_delta_0124_with(Isa::Scalar, &[0b0100, 3], &mut out, 1), Ok(2));
/// assert_eq!(out, [1, 4]);
/// ```
pub fn decode_delta_0124_with(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, Error> {
    decode_impl::<Codes0124, true>(isa.check()?, input, out, prev)
}

/// Like [`decode_0124_to_vec`], for a delta-coded stream.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::decode_delta_0124_to_vec(&[0b0100, 3], 2, 1), Ok(vec![1, 4]));
/// ```
pub fn decode_delta_0124_to_vec(input: &[u8], n: usize, prev: u32) -> Result<Vec<u32>, Error> {
    to_vec_decoded(input, n, |out| decode_delta_0124(input, out, prev))
}

/// Whether `input` holds exactly `n` values of the "0124" variant.
///
/// ```
/// use vecpress::stream_vbyte;
/// let bytes = stream_vbyte::encode_0124_to_vec(&[0, 0, 9]);
/// assert_eq!(bytes, [0b01_00_00, 9]);
/// assert!(stream_vbyte::validate_0124(&bytes, 3));
/// assert!(!stream_vbyte::validate_0124(&bytes, 2));
/// // The fourth code of the group is 0: a zero, no data byte.
/// assert!(stream_vbyte::validate_0124(&bytes, 4));
/// ```
pub fn validate_0124(input: &[u8], n: usize) -> bool {
    validate_impl::<Codes0124>(input, n)
}
