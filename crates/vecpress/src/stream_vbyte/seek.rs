//! Random access: the value at an index, and the first value at least a
//! target in a delta-coded sorted stream.
//!
//! The control stream tells where each value's data starts without reading
//! the data: the data bytes before value `i` are the sum of the lengths of
//! codes `0..i`, which [`data_len`] sums 8 control bytes (32 codes) at a
//! time from bit counts of a u64. So [`select`] reads one value and never
//! decodes the others. With delta coding the value is the sum of every gap
//! up to it: [`select_delta`] sums the gaps with the decoding kernels, a
//! chunk at a time, without the prefix sum. [`seek_delta`] decodes the gaps
//! in chunks of 64 values, sums each chunk, and stops at the first chunk
//! whose last value reaches the target, where a running sum finds the index.
#![forbid(unsafe_code)]

use core::ops::ControlFlow;

use super::chunked::{scan_part, CHUNK};
use super::decode::scalar::{control_truncated, read};
use super::tables::{Codes1234, Variant};
use super::{control_len, data_len};
use crate::Error;

/// Values per chunk when seeking: small, so that a search stops soon after
/// the answer, and a multiple of 4.
const SEEK_CHUNK: usize = 64;

/// The value at index `i` of a stream of `n` values; reads the control
/// bytes before it and its own data bytes only.
///
/// ```
/// use vecpress::{stream_vbyte, Error};
/// let bytes = stream_vbyte::encode_to_vec(&[5, 70_000, 300, 1 << 30, 9]);
/// assert_eq!(stream_vbyte::select(&bytes, 5, 3), Ok(1 << 30));
/// assert_eq!(stream_vbyte::select(&bytes, 5, 5), Err(Error::OutOfRange { index: 5, len: 5 }));
/// ```
pub fn select(input: &[u8], n: usize, i: usize) -> Result<u32, Error> {
    if i >= n {
        return Err(Error::OutOfRange { index: i, len: n });
    }
    let clen = control_len(n);
    if input.len() < clen {
        return Err(control_truncated(input.len(), i + 1));
    }
    let (control, data) = input.split_at(clen);
    let pos = data_len::<Codes1234>(control, i);
    let len = Codes1234::LENS[(control[i / 4] >> (2 * (i % 4)) & 3) as usize];
    read(data, pos, len).ok_or_else(|| truncated(control, data.len(), clen, i))
}

/// The value at index `i` of a delta-coded stream of `n` values encoded from
/// `prev`: `prev` plus the sum of the gaps `0..=i` (wrapping). Reads no
/// data past value `i`.
///
/// ```
/// use vecpress::stream_vbyte;
/// let bytes = stream_vbyte::encode_delta_to_vec(&[10, 20, 25, 1000], 3);
/// assert_eq!(stream_vbyte::select_delta(&bytes, 4, 2, 3), Ok(25));
/// assert!(stream_vbyte::select_delta(&bytes, 4, 4, 3).is_err());
/// ```
pub fn select_delta(input: &[u8], n: usize, i: usize, prev: u32) -> Result<u32, Error> {
    if i >= n {
        return Err(Error::OutOfRange { index: i, len: n });
    }
    let mut sum = prev;
    scan_part::<(), false>(input, n, i + 1, CHUNK, 0, |_, gaps| {
        sum = gaps.iter().fold(sum, |s, &g| s.wrapping_add(g));
        ControlFlow::Continue(())
    })?;
    Ok(sum)
}

/// The index and value of the first value `>= target` in a delta-coded
/// sorted stream of `n` values encoded from `prev`, or `None` if every
/// value is smaller. Decodes only as far as the chunk of 64 values that
/// holds the answer.
///
/// ```
/// use vecpress::stream_vbyte;
/// let bytes = stream_vbyte::encode_delta_to_vec(&[2, 4, 8, 1000], 0);
/// assert_eq!(stream_vbyte::seek_delta(&bytes, 4, 5, 0), Ok(Some((2, 8))));
/// assert_eq!(stream_vbyte::seek_delta(&bytes, 4, 8, 0), Ok(Some((2, 8))));
/// assert_eq!(stream_vbyte::seek_delta(&bytes, 4, 1001, 0), Ok(None));
/// ```
pub fn seek_delta(
    input: &[u8],
    n: usize,
    target: u32,
    prev: u32,
) -> Result<Option<(usize, u32)>, Error> {
    // Plain decoding, then the sum of each chunk's gaps (vectorised by the
    // compiler); only the chunk that reaches the target gets a prefix sum.
    let mut acc = prev;
    let (found, _) = scan_part::<_, false>(input, n, n, SEEK_CHUNK, 0, |first, gaps| {
        let last = gaps.iter().fold(acc, |s, &g| s.wrapping_add(g));
        if last < target {
            acc = last;
            return ControlFlow::Continue(());
        }
        for (j, &g) in gaps.iter().enumerate() {
            acc = acc.wrapping_add(g);
            if acc >= target {
                return ControlFlow::Break((first + j, acc));
            }
        }
        ControlFlow::Break((first + gaps.len() - 1, last))
    })?;
    Ok(found)
}

/// The error when value `i` does not fit in `data`: the first value up to
/// `i` that is cut, as decoding the first `i + 1` values reports it.
#[cold]
pub(crate) fn truncated(control: &[u8], data_len: usize, clen: usize, i: usize) -> Error {
    let mut pos = 0;
    for k in 0..=i {
        let len = Codes1234::LENS[(control[k / 4] >> (2 * (k % 4)) & 3) as usize];
        if pos + len > data_len {
            return Error::Truncated {
                offset: clen + pos,
                needed: i + 1 - k,
            };
        }
        pos += len;
    }
    // Not reached: the caller found value `i` cut.
    Error::Truncated {
        offset: clen + pos,
        needed: 1,
    }
}
