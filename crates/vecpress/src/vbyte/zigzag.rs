//! Signed values as protobuf's `sint32`/`sint64`: zigzag, then VByte.
#![forbid(unsafe_code)]

use super::scalar;
use crate::Error;

/// Maps signed to unsigned so that small magnitudes stay small: 0, -1, 1, -2 ... -> 0, 1, 2, 3 ...
#[inline(always)]
pub(crate) const fn zigzag32(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

/// The inverse of [`zigzag32`].
#[inline(always)]
pub(crate) const fn unzigzag32(v: u32) -> i32 {
    (v >> 1) as i32 ^ -((v & 1) as i32)
}

/// [`zigzag32`] for 64 bits.
#[inline(always)]
pub(crate) const fn zigzag64(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// The inverse of [`zigzag64`].
#[inline(always)]
pub(crate) const fn unzigzag64(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// Encodes i32 values as zigzag varints (protobuf `sint32`); returns the bytes written.
/// Panics if `out` is shorter than needed; `max_encoded_len(values.len())` suffices.
///
/// ```
/// let mut out = [0u8; 15];
/// let n = vecpress::vbyte::encode_i32(&[0, -1, 1, -2, 2147483647], &mut out);
/// assert_eq!(&out[..4], &[0, 1, 2, 3]);
/// let mut back = [0i32; 5];
/// assert_eq!(vecpress::vbyte::decode_i32(&out[..n], &mut back), Ok(n));
/// assert_eq!(back, [0, -1, 1, -2, 2147483647]);
/// ```
pub fn encode_i32(values: &[i32], out: &mut [u8]) -> usize {
    encode_signed(values, out)
}

/// Encodes i32 values as zigzag varints into a new vector.
///
/// ```
/// assert_eq!(vecpress::vbyte::encode_i32_to_vec(&[-64, 64]), vec![127, 128, 1]);
/// ```
pub fn encode_i32_to_vec(values: &[i32]) -> Vec<u8> {
    encode_signed_to_vec(values)
}

/// Decodes `out.len()` zigzag varints into i32; returns the bytes consumed.
/// Uses the fastest u32 kernel, then undoes the zigzag in place.
///
/// ```
/// let mut out = [0i32; 2];
/// assert_eq!(vecpress::vbyte::decode_i32(&[3, 4], &mut out), Ok(2));
/// assert_eq!(out, [-2, 2]);
/// ```
pub fn decode_i32(input: &[u8], out: &mut [i32]) -> Result<usize, Error> {
    chunked(input, out, super::decode, unzigzag32)
}

/// Encodes i64 values as zigzag varints (protobuf `sint64`); returns the bytes written.
/// Panics if `out` is shorter than needed; `max_encoded_len_u64(values.len())` suffices.
///
/// ```
/// let mut out = [0u8; 20];
/// let n = vecpress::vbyte::encode_i64(&[i64::MIN, -3], &mut out);
/// let mut back = [0i64; 2];
/// assert_eq!(vecpress::vbyte::decode_i64(&out[..n], &mut back), Ok(n));
/// assert_eq!(back, [i64::MIN, -3]);
/// ```
pub fn encode_i64(values: &[i64], out: &mut [u8]) -> usize {
    encode_signed(values, out)
}

/// Encodes i64 values as zigzag varints into a new vector.
///
/// ```
/// assert_eq!(vecpress::vbyte::encode_i64_to_vec(&[-1]), vec![1]);
/// ```
pub fn encode_i64_to_vec(values: &[i64]) -> Vec<u8> {
    encode_signed_to_vec(values)
}

/// Decodes `out.len()` zigzag varints into i64; returns the bytes consumed.
///
/// ```
/// let mut out = [0i64; 1];
/// assert_eq!(vecpress::vbyte::decode_i64(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], &mut out), Ok(10));
/// assert_eq!(out, [i64::MIN]);
/// ```
pub fn decode_i64(input: &[u8], out: &mut [i64]) -> Result<usize, Error> {
    chunked(input, out, super::decode_u64, unzigzag64)
}

/// A signed value as its zigzag varint.
trait Signed: Copy {
    /// Bytes of its varint.
    fn varint_len(self) -> usize;
    /// Writes its varint at `out[pos..]`; returns the position after it.
    fn put(self, out: &mut [u8], pos: usize) -> usize;
}

impl Signed for i32 {
    #[inline(always)]
    fn varint_len(self) -> usize {
        scalar::len_u32(zigzag32(self))
    }

    #[inline(always)]
    fn put(self, out: &mut [u8], pos: usize) -> usize {
        scalar::put_u32(out, pos, zigzag32(self))
    }
}

impl Signed for i64 {
    #[inline(always)]
    fn varint_len(self) -> usize {
        scalar::len_u64(zigzag64(self))
    }

    #[inline(always)]
    fn put(self, out: &mut [u8], pos: usize) -> usize {
        scalar::put_u64(out, pos, zigzag64(self))
    }
}

/// Bytes of the zigzag varints of `values`.
fn encoded_len<T: Signed>(values: &[T]) -> usize {
    values.iter().map(|&v| v.varint_len()).sum()
}

/// Encodes `values` as zigzag varints into `out`; returns the bytes
/// written. Panics if `out` is shorter than needed.
fn encode_signed<T: Signed>(values: &[T], out: &mut [u8]) -> usize {
    let need = encoded_len(values);
    assert!(
        out.len() >= need,
        "vbyte: output buffer of {} bytes is too small, {need} needed",
        out.len()
    );
    values.iter().fold(0, |pos, &v| v.put(out, pos))
}

/// [`encode_signed`] into a new vector of the exact size.
fn encode_signed_to_vec<T: Signed>(values: &[T]) -> Vec<u8> {
    let mut out = vec![0u8; encoded_len(values)];
    encode_signed(values, &mut out);
    out
}

/// Decodes `out.len()` values with `decode` into a stack buffer, 256 at a
/// time, and maps each into `out`; returns the bytes consumed. Error offsets
/// and counts are those of the whole call.
fn chunked<T: Copy + Default, U>(
    input: &[u8],
    out: &mut [U],
    decode: fn(&[u8], &mut [T]) -> Result<usize, Error>,
    map: fn(T) -> U,
) -> Result<usize, Error> {
    let mut buf = [T::default(); 256];
    let n = out.len();
    let mut pos = 0;
    for (c, chunk) in out.chunks_mut(buf.len()).enumerate() {
        let tmp = &mut buf[..chunk.len()];
        let after = n - (c * 256 + chunk.len());
        pos += decode(&input[pos..], tmp).map_err(|e| in_whole(e, pos, after))?;
        for (o, &v) in chunk.iter_mut().zip(tmp.iter()) {
            *o = map(v);
        }
    }
    Ok(pos)
}

/// An error from decoding a chunk that starts `by` bytes into the caller's
/// input and is followed by `after` more values: offsets move by `by`, and a
/// `Truncated` error also counts the values after the chunk as missing.
pub(crate) fn in_whole(e: Error, by: usize, after: usize) -> Error {
    match e {
        Error::Truncated {
            offset,
            needed,
            unit,
        } => Error::Truncated {
            offset: offset + by,
            needed: needed + after,
            unit,
        },
        Error::Corrupt { offset, what } => Error::Corrupt {
            offset: offset + by,
            what,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_matches_protobuf_table() {
        // protobuf encoding guide: 0->0, -1->1, 1->2, -2->3, 2147483647->4294967294, -2147483648->4294967295
        for (s, u) in [
            (0, 0),
            (-1, 1),
            (1, 2),
            (-2, 3),
            (i32::MAX, u32::MAX - 1),
            (i32::MIN, u32::MAX),
        ] {
            assert_eq!(zigzag32(s), u);
            assert_eq!(unzigzag32(u), s);
            assert_eq!(zigzag64(s as i64), u as u64);
            assert_eq!(unzigzag64(u as u64), s as i64);
        }
        assert_eq!(zigzag64(i64::MIN), u64::MAX);
    }
}
