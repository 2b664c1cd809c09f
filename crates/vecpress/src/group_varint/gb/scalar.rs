//! The portable Varint-GB codec, checked at every byte: the reference every
//! kernel is tested against, and the path that finishes what a kernel leaves
//! (the tail, and the last group). It is the only place that builds
//! decoding errors.
#![forbid(unsafe_code)]

use super::super::{byte_len, next};
use crate::{Error, Unit};

/// Bytes a group may take: a control byte and four 4-byte values.
pub(super) const GROUP_MAX: usize = 1 + 16;

/// The low `len` bytes of a little-endian u32, for lengths 1..=4.
const MASK: [u32; 4] = [0xff, 0xffff, 0xff_ffff, 0xffff_ffff];

/// Encodes the `n` values of `values` into `out`; returns the bytes written.
/// Panics if `out` is too small (the caller checks first).
pub(super) fn encode(mut values: impl Iterator<Item = u32>, n: usize, out: &mut [u8]) -> usize {
    let mut pos = 0;
    let mut left = n;
    while left > 0 {
        let k = left.min(4);
        let control_at = pos;
        pos += 1;
        let mut control = 0u8;
        for (i, v) in values.by_ref().take(k).enumerate() {
            let len = byte_len(v);
            out[pos..pos + len].copy_from_slice(&v.to_le_bytes()[..len]);
            control |= ((len - 1) as u8) << (2 * i);
            pos += len;
        }
        out[control_at] = control;
        left -= k;
    }
    pos
}

/// Exact encoded size of the `n` values of `values`.
pub(super) fn encoded_len(values: impl Iterator<Item = u32>, n: usize) -> usize {
    n.div_ceil(4) + values.map(byte_len).sum::<usize>()
}

/// The u32 at `bytes[at..at + 4]`, little-endian.
#[inline(always)]
fn read4(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Decodes `out.len()` values; with `DELTA`, writes the running sum of them
/// from `*prev` and leaves the last value in `*prev` (also on error, for the
/// values decoded). Returns the bytes consumed; `base` is the offset of
/// `input` in the caller's buffer, for error offsets.
pub(super) fn decode<const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
    base: usize,
) -> Result<usize, Error> {
    let n = out.len();
    let (mut pos, mut done) = (0, 0);
    let mut acc = *prev;

    // Whole groups with a whole group's worth of bytes visible: no checks
    // but the slice's own.
    while n - done >= 4 && input.len() - pos >= GROUP_MAX {
        let control = input[pos];
        let data = &input[pos + 1..pos + GROUP_MAX];
        let group = &mut out[done..done + 4];
        if control == 0 {
            // The paper's fast path: four one-byte values.
            for (slot, &b) in group.iter_mut().zip(data) {
                *slot = next::<DELTA>(&mut acc, u32::from(b));
            }
            pos += 5;
        } else {
            let mut at = 0;
            for (i, slot) in group.iter_mut().enumerate() {
                let code = usize::from(control >> (2 * i) & 3);
                *slot = next::<DELTA>(&mut acc, read4(data, at) & MASK[code]);
                at += code + 1;
            }
            pos += 1 + at;
        }
        done += 4;
    }

    // The rest, one value at a time, checked.
    while done < n {
        let left = n - done;
        let Some(&control) = input.get(pos) else {
            *prev = acc;
            return Err(Error::Truncated {
                offset: base + pos,
                needed: left,
                unit: Unit::Values,
            });
        };
        let k = left.min(4);
        if k < 4 && control >> (2 * k) != 0 {
            *prev = acc;
            return Err(Error::Corrupt {
                offset: base + pos,
                what: "length code set for a value past the count",
            });
        }
        pos += 1;
        for i in 0..k {
            let len = usize::from(control >> (2 * i) & 3) + 1;
            let Some(bytes) = input.get(pos..pos + len) else {
                *prev = acc;
                return Err(Error::Truncated {
                    offset: base + pos,
                    needed: left - i,
                    unit: Unit::Values,
                });
            };
            let v = bytes.iter().rev().fold(0u32, |v, &b| v << 8 | u32::from(b));
            out[done + i] = next::<DELTA>(&mut acc, v);
            pos += len;
        }
        done += k;
    }
    *prev = acc;
    Ok(pos)
}
