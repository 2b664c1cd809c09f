//! Random access: the value at an index, and the first value at least a
//! target in a delta-coded sorted stream.
//!
//! The control stream tells where each value's data starts without reading
//! the data: the data bytes before value `i` are the sum of the lengths of
//! codes `0..i`, which [`data_len`] sums 8 control bytes (32 codes) at a
//! time from bit counts of a u64. So [`select`] reads one value and never
//! decodes the others. With delta coding the value is the sum of every gap
//! up to it: [`select_delta`] sums whole groups with a kernel that shuffles
//! each group's bytes into u32 lanes, as decoding does, and adds them to an
//! accumulator instead of storing them (no prefix sum, no store).
//! [`seek_delta`] sums chunks of 32 gaps that way, and decodes only the
//! chunk whose last value reaches the target, where a running sum finds
//! the index.

#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod ssse3;

use super::decode::scalar::{control_truncated, decode_from, read};
use super::decode::{self};
use super::tables::{Codes1234, Variant};
use super::{control_len, data_len};
use crate::{Error, Isa};

/// Values per chunk when seeking: each chunk is summed with a kernel, and
/// only the one that reaches the target is decoded. A multiple of 4.
const SEEK_CHUNK: usize = 32;

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
    let len = Codes1234::LENS[code(control, i)];
    read(data, pos, len).ok_or_else(|| truncated(control, data.len(), clen, i))
}

/// The value at index `i` of a delta-coded stream of `n` values encoded from
/// `prev`: `prev` plus the sum of the gaps `0..=i` (wrapping), summed by the
/// best kernel without decoding them to memory. Reads no data past value `i`.
///
/// ```
/// use vecpress::stream_vbyte;
/// let bytes = stream_vbyte::encode_delta_to_vec(&[10, 20, 25, 1000], 3);
/// assert_eq!(stream_vbyte::select_delta(&bytes, 4, 2, 3), Ok(25));
/// assert!(stream_vbyte::select_delta(&bytes, 4, 4, 3).is_err());
/// ```
pub fn select_delta(input: &[u8], n: usize, i: usize, prev: u32) -> Result<u32, Error> {
    select_delta_impl(Isa::best(), input, n, i, prev)
}

/// [`select_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{stream_vbyte, Isa};
/// let bytes = stream_vbyte::encode_delta_to_vec(&[1, 2, 3, 4, 5, 6], 0);
/// for &isa in Isa::available() {
///     assert_eq!(stream_vbyte::select_delta_with(isa, &bytes, 6, 5, 0), Ok(6));
/// }
/// ```
pub fn select_delta_with(
    isa: Isa,
    input: &[u8],
    n: usize,
    i: usize,
    prev: u32,
) -> Result<u32, Error> {
    select_delta_impl(isa.check()?, input, n, i, prev)
}

fn select_delta_impl(isa: Isa, input: &[u8], n: usize, i: usize, prev: u32) -> Result<u32, Error> {
    if i >= n {
        return Err(Error::OutOfRange { index: i, len: n });
    }
    let clen = control_len(n);
    if input.len() < clen {
        return Err(control_truncated(input.len(), i + 1));
    }
    let (control, data) = input.split_at(clen);
    // Whole groups up to value i with the kernel, the rest value by value.
    let (groups, mut pos, sum) = sum_groups(isa, &control[..(i + 1) / 4], data);
    let mut sum = prev.wrapping_add(sum);
    for k in 4 * groups..=i {
        let len = Codes1234::LENS[code(control, k)];
        let Some(v) = read(data, pos, len) else {
            return Err(truncated(control, data.len(), clen, i));
        };
        sum = sum.wrapping_add(v);
        pos += len;
    }
    Ok(sum)
}

/// The index and value of the first value `>= target` in a delta-coded
/// sorted stream of `n` values encoded from `prev`, or `None` if every
/// value is smaller. Sums the gaps 32 at a time with the best kernel, and
/// decodes only the 32 values that reach the target.
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
    seek_delta_impl(Isa::best(), input, n, target, prev)
}

/// [`seek_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{stream_vbyte, Isa};
/// let bytes = stream_vbyte::encode_delta_to_vec(&[3, 30, 300], 0);
/// for &isa in Isa::available() {
///     assert_eq!(stream_vbyte::seek_delta_with(isa, &bytes, 3, 31, 0), Ok(Some((2, 300))));
/// }
/// ```
pub fn seek_delta_with(
    isa: Isa,
    input: &[u8],
    n: usize,
    target: u32,
    prev: u32,
) -> Result<Option<(usize, u32)>, Error> {
    seek_delta_impl(isa.check()?, input, n, target, prev)
}

fn seek_delta_impl(
    isa: Isa,
    input: &[u8],
    n: usize,
    target: u32,
    prev: u32,
) -> Result<Option<(usize, u32)>, Error> {
    let clen = control_len(n);
    if input.len() < clen {
        return Err(control_truncated(input.len(), n));
    }
    let (control, data) = input.split_at(clen);
    let mut buf = [0u32; SEEK_CHUNK];
    let (mut acc, mut pos) = (prev, 0);
    for start in (0..n).step_by(SEEK_CHUNK) {
        let m = (n - start).min(SEEK_CHUNK);
        let ctrl = &control[start / 4..(start + m).div_ceil(4)];
        let rest = &data[pos..];
        if m == SEEK_CHUNK {
            let (groups, used, sum) = sum_groups(isa, ctrl, rest);
            let last = acc.wrapping_add(sum);
            if groups == ctrl.len() && last < target {
                (acc, pos) = (last, pos + used);
                continue;
            }
        }
        let values = &mut buf[..m];
        let (keys, p) = decode::bulk::<Codes1234, false>(isa, ctrl, rest, values, &mut 0);
        let used = decode_from::<Codes1234, false>(ctrl, rest, values, keys, p, &mut 0, clen + pos)
            .map_err(|e| match e {
                Error::Truncated { offset, needed } => Error::Truncated {
                    offset,
                    needed: needed + (n - start - m),
                },
                other => other,
            })?;
        for (j, &gap) in values.iter().enumerate() {
            acc = acc.wrapping_add(gap);
            if acc >= target {
                return Ok(Some((start + j, acc)));
            }
        }
        pos += used;
    }
    Ok(None)
}

/// The one map from ISA level to summing kernel: the sum (wrapping) of the
/// values of a prefix of the groups of `control`, from the start of `data`;
/// returns (groups summed, data bytes consumed, sum). The kernels stop
/// where less than 16 data bytes remain.
fn sum_groups(isa: Isa, control: &[u8], data: &[u8]) -> (usize, usize, u32) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()` or `Isa::check()`, so the
        // CPU has SSE4.1 (every x86 level above Scalar implies it).
        Isa::Sse41 | Isa::Avx2 | Isa::Avx512 => unsafe { ssse3::sum_groups(control, data) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has Neon.
        Isa::Neon => unsafe { neon::sum_groups(control, data) },
        _ => (0, 0, 0),
    }
}

/// The code of value `i`.
#[inline(always)]
fn code(control: &[u8], i: usize) -> usize {
    (control[i / 4] >> (2 * (i % 4)) & 3) as usize
}

/// The error when value `i` does not fit in `data`: the first value up to
/// `i` that is cut, as decoding the first `i + 1` values reports it.
#[cold]
pub(crate) fn truncated(control: &[u8], data_len: usize, clen: usize, i: usize) -> Error {
    let mut pos = 0;
    for k in 0..=i {
        let len = Codes1234::LENS[code(control, k)];
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
