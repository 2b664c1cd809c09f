//! The portable VByte codec: the paper's Algorithm 1, checked at every byte.
//!
//! This is the reference every kernel is tested against, and the path that
//! finishes what a kernel leaves (the tail, and anything a kernel declines).
//! It is also the only place that builds decoding errors.
#![forbid(unsafe_code)]

use crate::{Error, Unit};

/// Continuation flag: set on every byte of a value but its last.
const MORE: u8 = 0x80;
/// Payload bits of a byte.
const LOW7: u8 = 0x7f;

/// Writes `value` at `out[pos..]`, returns the position after it.
#[inline(always)]
pub(crate) fn put_u32(out: &mut [u8], pos: usize, value: u32) -> usize {
    put_u64(out, pos, u64::from(value))
}

/// Writes `value` at `out[pos..]`, returns the position after it.
#[inline(always)]
pub(crate) fn put_u64(out: &mut [u8], mut pos: usize, mut value: u64) -> usize {
    while value >= 0x80 {
        out[pos] = value as u8 | MORE;
        value >>= 7;
        pos += 1;
    }
    out[pos] = value as u8;
    pos + 1
}

/// Bytes that VByte takes for `value`.
#[inline(always)]
pub(crate) const fn len_u32(value: u32) -> usize {
    // 1 + floor(log2(v)) / 7, with 0 taking one byte.
    let bits = 32 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Bytes that VByte takes for `value`.
#[inline(always)]
pub(crate) const fn len_u64(value: u64) -> usize {
    let bits = 64 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Reads one u32 starting at `input[pos]`; returns it and the position after
/// it, or `None` when the input ends inside it or it breaks the format
/// ([`u32_error`] then says which).
#[inline(always)]
pub(crate) fn try_u32(input: &[u8], mut pos: usize) -> Option<(u32, usize)> {
    // Algorithm 1: a byte at a time, low 7 bits first.
    let mut v = 0u32;
    for shift in [0, 7, 14, 21] {
        let b = *input.get(pos)?;
        pos += 1;
        v |= ((b & LOW7) as u32) << shift;
        if b < MORE {
            return Some((v, pos));
        }
    }
    // The 5th byte holds the top 4 bits and ends the value.
    let b = *input.get(pos)?;
    (b <= 0x0f).then_some((v | (b as u32) << 28, pos + 1))
}

/// Why [`try_u32`] gave `None` at `input[pos]`: the input ended inside the
/// value, or its 5th byte continues or overflows. `base` is added to offsets
/// (the caller's view of where `input` starts); `needed` is how many values
/// remain, counting this one.
#[cold]
#[inline(never)]
pub(crate) fn u32_error(input: &[u8], pos: usize, base: usize, needed: usize) -> Error {
    match input.get(pos..pos + 5) {
        Some(w) if w[..4].iter().all(|&b| b >= MORE) => {
            let what = if w[4] & MORE != 0 {
                "varint longer than 5 bytes for u32"
            } else {
                "varint overflows 32 bits"
            };
            Error::Corrupt {
                offset: base + pos + 4,
                what,
            }
        }
        _ => Error::Truncated {
            offset: base + pos,
            needed,
            unit: Unit::Values,
        },
    }
}

/// Reads one u64 starting at `input[pos]` (at most 10 bytes, the 10th at most 1).
#[inline(always)]
pub(crate) fn get_u64(
    input: &[u8],
    pos: usize,
    base: usize,
    needed: usize,
) -> Result<(u64, usize), Error> {
    let mut v = 0u64;
    for i in 0..10 {
        let Some(&b) = input.get(pos + i) else {
            return Err(Error::Truncated {
                offset: base + pos,
                needed,
                unit: Unit::Values,
            });
        };
        if i == 9 {
            if b > 1 {
                let what = if b & MORE != 0 {
                    "varint longer than 10 bytes for u64"
                } else {
                    "varint overflows 64 bits"
                };
                return Err(Error::Corrupt {
                    offset: base + pos + 9,
                    what,
                });
            }
            return Ok((v | (b as u64) << 63, pos + 10));
        }
        v |= ((b & LOW7) as u64) << (7 * i);
        if b < MORE {
            return Ok((v, pos + i + 1));
        }
    }
    unreachable!("the loop returns at i == 9")
}

/// Decodes `out.len()` values; returns the bytes consumed. `base` is the
/// offset of `input` in the caller's buffer, for error offsets.
pub(crate) fn decode(input: &[u8], out: &mut [u32], base: usize) -> Result<usize, Error> {
    let n = out.len();
    let mut pos = 0;
    for (k, slot) in out.iter_mut().enumerate() {
        let Some((v, next)) = try_u32(input, pos) else {
            return Err(u32_error(input, pos, base, n - k));
        };
        *slot = v;
        pos = next;
    }
    Ok(pos)
}

/// Decodes `out.len()` gaps and their running sum from `*prev`; leaves the last
/// value in `*prev` (also on error, for the values decoded).
pub(crate) fn decode_delta(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
    base: usize,
) -> Result<usize, Error> {
    let n = out.len();
    let mut pos = 0;
    let mut acc = *prev;
    for (k, slot) in out.iter_mut().enumerate() {
        let Some((v, next)) = try_u32(input, pos) else {
            *prev = acc;
            return Err(u32_error(input, pos, base, n - k));
        };
        acc = acc.wrapping_add(v);
        *slot = acc;
        pos = next;
    }
    *prev = acc;
    Ok(pos)
}

/// Decodes `out.len()` u64 values; returns the bytes consumed.
pub(crate) fn decode_u64(input: &[u8], out: &mut [u64], base: usize) -> Result<usize, Error> {
    let n = out.len();
    let mut pos = 0;
    for (k, slot) in out.iter_mut().enumerate() {
        let (v, next) = get_u64(input, pos, base, n - k)?;
        *slot = v;
        pos = next;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_match_encoding() {
        let mut buf = [0u8; 10];
        for shift in 0..64 {
            for v in [1u64 << shift, (1u64 << shift) - 1, (1u64 << shift) + 1] {
                assert_eq!(put_u64(&mut buf, 0, v), len_u64(v), "{v}");
                if let Ok(v32) = u32::try_from(v) {
                    assert_eq!(put_u32(&mut buf, 0, v32), len_u32(v32), "{v32}");
                }
            }
        }
    }

    #[test]
    fn slow_and_fast_paths_agree() {
        let mut buf = [0u8; 5];
        for v in [0u32, 127, 128, 16383, 16384, 1 << 21, 1 << 28, u32::MAX] {
            let len = put_u32(&mut buf, 0, v);
            // Fast path (5 bytes visible) and slow path (exactly len bytes).
            assert_eq!(try_u32(&buf, 0), Some((v, len)));
            assert_eq!(try_u32(&buf[..len], 0), Some((v, len)));
            assert_eq!(try_u32(&buf[..len - 1], 0), None);
            assert_eq!(
                u32_error(&buf[..len - 1], 0, 7, 3),
                Error::Truncated {
                    offset: 7,
                    needed: 3,
                    unit: Unit::Values,
                }
            );
        }
    }
}
