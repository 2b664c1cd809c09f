//! Stream VByte: byte-oriented u32 compression with control bytes and data
//! bytes in separate streams.
//!
//! Source: Lemire, Kurz, Rupp, *Stream VByte: Faster Byte-Oriented Integer
//! Compression* (2017), §4 for the format and the decoder. Byte-compatible
//! with the reference C library (lemire/streamvbyte, `streamvbyte_encode`,
//! `streamvbyte_delta_encode`, `streamvbyte_encode_0124`).
//!
//! # Format
//!
//! `n` values are stored as `ceil(n / 4)` control bytes, then the data bytes.
//! Each control byte holds four 2-bit codes, lowest bits first, one per value
//! of a group of four; a code gives the byte length of its value, whose low
//! bytes follow in the data stream, little-endian:
//!
//! ```text
//!   values   1024       12   10   1073741824    1
//!   codes    1 (2 B)    0    0    3 (4 B)       0
//!   control  [0b11_00_00_01] [0b00_00_00_00]
//!   data     00 04 | 0c | 0a | 00 00 00 40 | 01
//! ```
//!
//! | code | standard | "0124" variant |
//! |------|----------|----------------|
//! | 0    | 1 byte   | 0 bytes (the value is 0) |
//! | 1    | 2 bytes  | 1 byte         |
//! | 2    | 3 bytes  | 2 bytes        |
//! | 3    | 4 bytes  | 4 bytes        |
//!
//! The stream stores no count: the caller passes it (the length of the
//! output slice). The codes of a last, partial group that stand for no value
//! are written as 0 and ignored when decoding. The worst case is
//! [`max_encoded_len`]`(n)` = `ceil(n / 4) + 4n` bytes.
//!
//! Differential coding ([`encode_delta`], [`decode_delta`]) stores the gaps
//! between successive values, starting from a `prev` the caller chooses
//! (usually 0), wrapping modulo 2^32, as the reference's
//! `streamvbyte_delta_encode` does; the SIMD decoders compute the prefix sum
//! as they write. The "0124" variant ([`encode_0124`], [`decode_0124`])
//! suits data with many zeros.
//!
//! # Kernels
//!
//! One decoding loop (`decode/generic.rs`), written once over a small
//! `Vector` trait (`src/simd/`), runs on every SIMD level: a `pshufb` (Neon: `tbl`)
//! per control byte with the mask `DECODE[control]`, the data pointer
//! advanced by `LENGTH[control]` (paper, Fig. 4), 8 control bytes read as a
//! u64 per block; a zero u64 of control bytes (32 one-byte values, common in
//! posting lists) is zero-extended with no table. AVX2 steps two groups at
//! a time, one in each 128-bit half (`decode/avx2.rs`); AVX-512 decodes 16
//! values a step with one `vpexpandb` and no table (`decode/avx512.rs`);
//! both sum delta-coded runs of one-byte gaps below 32 in bytes. The prefix
//! sum of delta coding is fused in (2 shifts and 2 adds per 4 values), the
//! running total added off the chain from step to step. The SSE4.1
//! encoder (also used at the AVX2 and AVX-512 levels) finds the codes with
//! `pminud`/`pcmpeqd`/`movmskps` and packs the bytes
//! with `ENCODE[control]`; the Neon encoder sums `vcgtq_u32` masks into the
//! codes and packs with `tbl`. Both may write up to 15 bytes of `out` past
//! the encoded length (never past `out`).
//!
//! Decoders take untrusted input and need no padding: the SIMD kernels only
//! load bytes inside the input (near its end, the last groups and the last
//! partial one decode from one load of the data's last 16 bytes, their mask
//! indices moved up), and the checked scalar code reports a data stream
//! that ends too soon, with its offset.
//!
//! Posting lists: [`DeltaCursor`] reads a delta-coded list forward for the
//! queries of [`postings`](crate::postings), and [`decode_delta_lists`]
//! decodes many lists, stored anywhere in one buffer, by one call.
//!
//! The 64-bit variant, with byte lengths 1, 2, 4 and 8, is [`u64`](mod@u64).
//!
//! # Example
//!
//! ```
//! use vecpress::stream_vbyte;
//!
//! let values = [1024u32, 12, 10, 1 << 30, 1];
//! let mut bytes = vec![0u8; stream_vbyte::max_encoded_len(values.len())];
//! let len = stream_vbyte::encode(&values, &mut bytes);
//! assert_eq!(&bytes[..len], &[0b11_00_00_01, 0, 0x00, 0x04, 0x0c, 0x0a, 0, 0, 0, 0x40, 0x01]);
//!
//! let mut out = [0u32; 5];
//! assert_eq!(stream_vbyte::decode(&bytes[..len], &mut out), Ok(len));
//! assert_eq!(out, values);
//! assert!(stream_vbyte::validate(&bytes[..len], 5));
//! # Ok::<(), vecpress::Error>(())
//! ```

mod chunked;
mod cursor;
mod decode;
mod encode;
mod lists;
mod query;
mod seek;
pub(crate) mod tables;
mod widen;
mod writer;
mod zero124;
mod zigzag;

pub mod u64;

pub use zero124::{
    decode_0124, decode_0124_to_vec, decode_0124_with, decode_delta_0124, decode_delta_0124_to_vec,
    decode_delta_0124_with, encode_0124, encode_0124_to_vec, encode_delta_0124,
    encode_delta_0124_to_vec, encoded_len_0124, validate_0124,
};

pub use cursor::DeltaCursor;
pub use lists::{decode_delta_lists, decode_delta_lists_with};
pub use query::{and_delta_lists, and_delta_lists_with, or_delta_lists, or_delta_lists_with};
pub(crate) use seek::Forward;
pub use seek::{seek_delta, seek_delta_with, select, select_delta, select_delta_with};
pub use widen::{decode_u16, decode_u16_to_vec, encode_u16, encode_u16_to_vec};
pub use writer::{DeltaWriter, Writer};
pub use zigzag::{
    decode_i32, decode_i32_to_vec, decode_zigzag_delta, decode_zigzag_delta_to_vec, encode_i32,
    encode_i32_to_vec, encode_zigzag_delta, encode_zigzag_delta_to_vec,
};

pub(crate) use decode::scalar::{control_len, data_len};

use crate::{Error, Isa};
use tables::{Codes1234, Variant};

/// Worst-case encoded size of `n` values: `ceil(n / 4)` control bytes and 4
/// data bytes a value (both formats).
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::max_encoded_len(5), 2 + 20);
/// ```
pub const fn max_encoded_len(n: usize) -> usize {
    n.div_ceil(4).saturating_add(n.saturating_mul(4))
}

/// Exact encoded size of `values`.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::encoded_len(&[1, 300, 70_000]), 1 + 1 + 2 + 3);
/// ```
pub fn encoded_len(values: &[u32]) -> usize {
    control_len(values.len()) + encode::data_len::<Codes1234, false>(values, 0)
}

/// Encodes `values` into `out` with the best kernel; returns the bytes written.
///
/// Bytes of `out` after the returned length may be overwritten.
///
/// # Panics
/// If `out` is shorter than [`encoded_len`]`(values)`; a buffer of
/// [`max_encoded_len`]`(values.len())` bytes always suffices.
///
/// ```
/// let mut out = [0u8; 10];
/// let n = vecpress::stream_vbyte::encode(&[300, 5], &mut out);
/// assert_eq!(&out[..n], &[0b00_01, 0x2c, 0x01, 0x05]);
/// ```
pub fn encode(values: &[u32], out: &mut [u8]) -> usize {
    encode_impl::<Codes1234, false>(
        crate::tune::isa(crate::tune::Op::StreamVByteEncode),
        values,
        0,
        out,
    )
}

/// [`encode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
/// Panics as [`encode`] does.
///
/// ```
/// use vecpress::{stream_vbyte, Isa};
/// for &isa in Isa::available() {
///     let mut out = [0u8; 10];
///     assert_eq!(stream_vbyte::encode_with(isa, &[300, 5], &mut out), Ok(4));
/// }
/// ```
pub fn encode_with(isa: Isa, values: &[u32], out: &mut [u8]) -> Result<usize, Error> {
    Ok(encode_impl::<Codes1234, false>(
        isa.check()?,
        values,
        0,
        out,
    ))
}

/// Encodes `values` into a new vector of exactly the encoded length.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::encode_to_vec(&[1, 2, 3]), vec![0, 1, 2, 3]);
/// ```
pub fn encode_to_vec(values: &[u32]) -> Vec<u8> {
    to_vec_encoded(values, |out| encode(values, out))
}

/// Encodes the gaps `values[0] - prev, values[1] - values[0], ...` (wrapping);
/// returns the bytes written. Panics as [`encode`] does.
///
/// ```
/// let mut out = [0u8; 16];
/// let n = vecpress::stream_vbyte::encode_delta(&[10, 11, 300], 0, &mut out);
/// assert_eq!(&out[..n], &[0b01_00_00, 10, 1, 0x21, 0x01]);
/// ```
pub fn encode_delta(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    encode_impl::<Codes1234, true>(
        crate::tune::isa(crate::tune::Op::StreamVByteEncode),
        values,
        prev,
        out,
    )
}

/// Like [`encode_delta`], into a new vector.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::encode_delta_to_vec(&[5, 6], 0), vec![0, 5, 1]);
/// ```
pub fn encode_delta_to_vec(values: &[u32], prev: u32) -> Vec<u8> {
    to_vec_encoded(values, |out| encode_delta(values, prev, out))
}

/// Decodes `out.len()` values from the start of `input` with the best kernel
/// this process may use; returns the bytes consumed. Bytes after the last
/// value are left alone.
///
/// ```
/// let mut out = [0u32; 2];
/// assert_eq!(vecpress::stream_vbyte::decode(&[0b00_01, 0x2c, 0x01, 0x05, 0xff], &mut out), Ok(4));
/// assert_eq!(out, [300, 5]);
/// ```
pub fn decode(input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl::<Codes1234, false>(
        crate::tune::isa(crate::tune::Op::StreamVByte),
        input,
        out,
        0,
    )
}

/// [`decode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{stream_vbyte, Isa};
/// for &isa in Isa::available() {
///     let mut out = [0u32; 1];
///     assert_eq!(stream_vbyte::decode_with(isa, &[0, 0x7f], &mut out), Ok(2));
///     assert_eq!(out, [127]);
/// }
/// ```
pub fn decode_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl::<Codes1234, false>(isa.check()?, input, out, 0)
}

/// Decodes `n` values into a new vector.
///
/// `n` is checked against the input before allocating: the control stream
/// must hold `ceil(n / 4)` bytes, so at most `4 * input.len()` values are
/// allocated.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::decode_to_vec(&[0b01_00, 1, 0x80, 0x01], 2), Ok(vec![1, 384]));
/// assert!(vecpress::stream_vbyte::decode_to_vec(&[0], 1_000_000_000).is_err());
/// ```
pub fn decode_to_vec(input: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    to_vec_decoded(input, n, |out| decode(input, out))
}

/// Decodes `out.len()` gaps and writes their running sum from `prev`; returns
/// the bytes consumed. The inverse of [`encode_delta`].
///
/// ```
/// let mut out = [0u32; 3];
/// assert_eq!(vecpress::stream_vbyte::decode_delta(&[0, 10, 1, 2], &mut out, 0), Ok(4));
/// assert_eq!(out, [10, 11, 13]);
/// ```
pub fn decode_delta(input: &[u8], out: &mut [u32], prev: u32) -> Result<usize, Error> {
    decode_impl::<Codes1234, true>(
        crate::tune::isa(crate::tune::Op::StreamVByteDelta),
        input,
        out,
        prev,
    )
}

/// [`decode_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{stream_vbyte, Isa};
/// let mut out = [0u32; 2];
/// assert_eq!(stream_vbyte::decode_delta_with(Isa::Scalar, &[0, 1, 1], &mut out, 100), Ok(3));
/// assert_eq!(out, [101, 102]);
/// ```
pub fn decode_delta_with(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, Error> {
    decode_impl::<Codes1234, true>(isa.check()?, input, out, prev)
}

/// Like [`decode_to_vec`], for a delta-coded stream.
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::decode_delta_to_vec(&[0, 5, 1], 2, 0), Ok(vec![5, 6]));
/// ```
pub fn decode_delta_to_vec(input: &[u8], n: usize, prev: u32) -> Result<Vec<u32>, Error> {
    to_vec_decoded(input, n, |out| decode_delta(input, out, prev))
}

/// Whether `input` holds exactly `n` values: its control stream is complete
/// and the data bytes it announces end exactly where `input` ends. (A
/// decoder accepts longer input and ignores what follows.)
///
/// ```
/// use vecpress::stream_vbyte;
/// let bytes = stream_vbyte::encode_to_vec(&[1, 300, 70_000]);
/// assert!(stream_vbyte::validate(&bytes, 3));
/// assert!(!stream_vbyte::validate(&bytes[..6], 3));
/// assert!(!stream_vbyte::validate(&bytes, 2));
/// ```
pub fn validate(input: &[u8], n: usize) -> bool {
    validate_impl::<Codes1234>(input, n)
}

/// The levels that have a decoding kernel of their own, among those
/// available (every level on its architecture: SSE4.1, AVX2, AVX-512 on
/// x86-64, Neon on aarch64, and scalar).
///
/// ```
/// assert_eq!(vecpress::stream_vbyte::kernels()[0], vecpress::Isa::Scalar);
/// ```
pub fn kernels() -> Vec<Isa> {
    Isa::available()
        .iter()
        .copied()
        .filter(|isa| decode::has_kernel(*isa))
        .collect()
}

fn validate_impl<V: Variant>(input: &[u8], n: usize) -> bool {
    let clen = control_len(n);
    input.len() >= clen && input.len() - clen == data_len::<V>(input, n)
}

/// Encodes with the kernel of `isa` (already checked), the scalar code
/// finishing; panics when `out` is too small.
fn encode_impl<V: Variant, const DELTA: bool>(
    isa: Isa,
    values: &[u32],
    prev: u32,
    out: &mut [u8],
) -> usize {
    let n = values.len();
    let clen = control_len(n);
    if out.len() < max_encoded_len(n) {
        let need = clen + encode::data_len::<V, DELTA>(values, prev);
        assert!(
            out.len() >= need,
            "stream_vbyte: output buffer of {} bytes is too small, {need} needed",
            out.len()
        );
    }
    let (control, data) = out.split_at_mut(clen);
    let mut prev = prev;
    let (keys, pos) = encode::bulk::<V, DELTA>(isa, values, control, data, &mut prev);
    let used = encode::encode_from::<V, DELTA>(values, control, data, keys, pos, &mut prev);
    clen + used
}

/// Decodes `n` gaps (at most [`SHORT`]) from `prev` into the first `n` of
/// `out` with the kernel made for short streams, where `isa` (checked) has
/// one; it may write the rest of `out` too, so that a caller who gives it
/// room (to a multiple of 16) has its values stored whole. The bytes
/// consumed and the last value (from the kernel's register: a load of the
/// last would wait for its store), or `None` where it has no such kernel
/// or the input ends too soon (then [`decode_delta_with`] decodes, and
/// names the error).
pub(crate) fn decode_short_delta(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    n: usize,
    prev: u32,
) -> Option<(usize, u32)> {
    let clen = control_len(n);
    if n > SHORT || n > out.len() || input.len() < clen {
        return None;
    }
    let (control, data) = input.split_at(clen);
    decode::short_delta::<Codes1234>(isa, control, data, out, n, prev)
        .map(|(used, last)| (clen + used, last))
}

/// Data bytes the standard format takes for `value` (a gap, in the delta
/// forms).
pub(crate) fn value_len(value: u32) -> usize {
    usize::from(Codes1234::code(value)) + 1
}

/// The first value of a standard stream of `n` values (at least one): its
/// code and its bytes read in place, `None` where the stream is too short
/// to hold them.
pub(crate) fn first_value(stream: &[u8], n: usize) -> Option<u32> {
    let len = usize::from(*stream.first()? & 3) + 1;
    let at = n.div_ceil(4);
    let bytes = stream.get(at..at + len)?;
    Some(bytes.iter().rev().fold(0, |v, &b| v << 8 | u32::from(b)))
}

/// The most values [`decode_short_delta`] takes: the short-list kernel's.
pub(crate) const SHORT: usize = 64;

/// Decodes with the kernel of `isa` (already checked) over the whole groups,
/// the checked scalar code finishing.
fn decode_impl<V: Variant, const DELTA: bool>(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, Error> {
    let n = out.len();
    let clen = control_len(n);
    if input.len() < clen {
        return Err(decode::scalar::control_truncated(input.len(), n));
    }
    let (control, data) = input.split_at(clen);
    let mut prev = prev;
    let (keys, pos) = decode::bulk::<V, DELTA>(isa, control, data, out, &mut prev);
    let used =
        decode::scalar::decode_from::<V, DELTA>(control, data, out, keys, pos, &mut prev, clen)?;
    Ok(clen + used)
}

/// A new vector of exactly the encoded length, filled by `encode` from a
/// worst-case buffer.
fn to_vec_encoded(values: &[u32], encode: impl FnOnce(&mut [u8]) -> usize) -> Vec<u8> {
    let mut out = vec![0u8; max_encoded_len(values.len())];
    let len = encode(&mut out);
    out.truncate(len);
    out
}

/// Decodes `n` values into a new vector with `decode`, after checking that
/// `input` holds their control stream (so at most `4 * input.len()` values
/// are allocated).
fn to_vec_decoded(
    input: &[u8],
    n: usize,
    decode: impl FnOnce(&mut [u32]) -> Result<usize, Error>,
) -> Result<Vec<u32>, Error> {
    if input.len() < control_len(n) {
        return Err(decode::scalar::control_truncated(input.len(), n));
    }
    let mut out = vec![0u32; n];
    decode(&mut out)?;
    Ok(out)
}
