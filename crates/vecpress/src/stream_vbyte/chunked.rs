//! Encoding and decoding a standard stream through a stack buffer of 256
//! values, for the entries whose values are not u32 (zigzag, u16) and for
//! random access: the kernels run on each chunk, and each chunk's control
//! bytes are a slice of the stream's (chunks start at multiples of 4).
#![forbid(unsafe_code)]

use core::ops::ControlFlow;

use super::decode::{self, scalar::decode_from};
use super::encode::encode_from;
use super::tables::{Codes1234, Variant};
use super::{control_len, max_encoded_len};
use crate::Error;

/// Values per chunk: a multiple of 4, small enough for the stack.
pub(crate) const CHUNK: usize = 256;

/// Encodes the `n` values `value(0), value(1), ...` as a standard stream into
/// `out`; returns the bytes written.
///
/// # Panics
/// If `out` cannot hold the encoding (`what` names the caller).
pub(crate) fn encode_by(
    n: usize,
    out: &mut [u8],
    what: &str,
    value: impl Fn(usize) -> u32,
) -> usize {
    let clen = control_len(n);
    if out.len() < max_encoded_len(n) {
        let need = clen + encoded_data_len(n, &value);
        assert!(
            out.len() >= need,
            "{what}: output buffer of {} bytes is too small, {need} needed",
            out.len()
        );
    }
    let (control, data) = out.split_at_mut(clen);
    let mut buf = [0u32; CHUNK];
    let mut pos = 0;
    for start in (0..n).step_by(CHUNK) {
        let chunk = &mut buf[..(n - start).min(CHUNK)];
        for (j, slot) in chunk.iter_mut().enumerate() {
            *slot = value(start + j);
        }
        pos =
            encode_from::<Codes1234, false>(chunk, &mut control[start / 4..], data, 0, pos, &mut 0);
    }
    clen + pos
}

/// The exact encoded size of `value(0..n)`.
pub(crate) fn encoded_len_by(n: usize, value: impl Fn(usize) -> u32) -> usize {
    control_len(n) + encoded_data_len(n, &value)
}

fn encoded_data_len(n: usize, value: &impl Fn(usize) -> u32) -> usize {
    (0..n)
        .map(|i| Codes1234::LENS[Codes1234::code(value(i)) as usize])
        .sum()
}

/// Decodes the first `n` values of a standard stream (their running sum
/// from `prev` with `DELTA`) with the best kernel, a chunk at a time, and
/// hands each to `visit(first_index, values)` until it breaks. Returns what
/// it broke with (`None` if it never did) and the bytes consumed (up to the
/// end of the last chunk decoded). Error offsets and counts are those of
/// the whole stream of `n` values.
pub(crate) fn scan<T, const DELTA: bool>(
    input: &[u8],
    n: usize,
    prev: u32,
    visit: impl FnMut(usize, &[u32]) -> ControlFlow<T>,
) -> Result<(Option<T>, usize), Error> {
    scan_part::<T, DELTA>(input, n, n, CHUNK, prev, visit)
}

/// [`scan`] over the first `count` values of a stream of `n` (`count <= n`),
/// `chunk` values at a time (a multiple of 4, at most [`CHUNK`]). A
/// `Truncated` error counts the values missing up to `count`.
pub(crate) fn scan_part<T, const DELTA: bool>(
    input: &[u8],
    n: usize,
    count: usize,
    chunk: usize,
    mut prev: u32,
    mut visit: impl FnMut(usize, &[u32]) -> ControlFlow<T>,
) -> Result<(Option<T>, usize), Error> {
    debug_assert!(count <= n && chunk <= CHUNK && chunk.is_multiple_of(4) && chunk > 0);
    let clen = control_len(n);
    if input.len() < clen {
        return Err(decode::scalar::control_truncated(input.len(), count));
    }
    let (control, data) = input.split_at(clen);
    let isa = crate::tune::isa(crate::tune::Op::StreamVByteSeek);
    let mut buf = [0u32; CHUNK];
    let mut pos = 0;
    for start in (0..count).step_by(chunk) {
        let m = (count - start).min(chunk);
        let values = &mut buf[..m];
        let ctrl = &control[start / 4..(start + m).div_ceil(4)];
        let rest = &data[pos..];
        let (keys, p) = decode::bulk::<Codes1234, DELTA>(isa, ctrl, rest, values, &mut prev);
        pos += decode_from::<Codes1234, DELTA>(ctrl, rest, values, keys, p, &mut prev, clen + pos)
            .map_err(|e| e.missing_more(count - start - m))?;
        if let ControlFlow::Break(found) = visit(start, values) {
            return Ok((Some(found), clen + pos));
        }
    }
    Ok((None, clen + pos))
}
