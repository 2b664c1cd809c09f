//! The portable Varint-G8IU codec, checked at every block: the reference
//! every kernel is tested against, and the path that finishes what a kernel
//! leaves (the tail, the last block, and any block it declines). It is the
//! only place that builds decoding errors.
#![forbid(unsafe_code)]

use super::super::{byte_len, next};
use crate::{Error, Unit};

/// Bytes of a block: the control byte and 8 data bytes.
pub(super) const BLOCK: usize = 9;

/// Encodes `values` greedily (each block takes as many whole values as fit
/// in its 8 data bytes) into `out`; returns the bytes written. Padding bytes
/// are zero. Panics if `out` is too small (the caller checks first).
pub(super) fn encode(mut values: impl Iterator<Item = u32>, out: &mut [u8]) -> usize {
    let mut pos = 0;
    let mut pending = values.next();
    while let Some(first) = pending {
        let block = &mut out[pos..pos + BLOCK];
        let mut control = 0xffu8;
        let mut used = 0;
        let mut value = Some(first);
        while let Some(v) = value {
            let len = byte_len(v);
            if used + len > 8 {
                break;
            }
            block[1 + used..1 + used + len].copy_from_slice(&v.to_le_bytes()[..len]);
            used += len;
            control &= !(1 << (used - 1)); // 0: this byte ends an integer
            value = values.next();
        }
        block[1 + used..].fill(0);
        block[0] = control;
        pos += BLOCK;
        pending = value;
    }
    pos
}

/// Exact encoded size of `values`: 9 bytes a block, filled greedily.
pub(super) fn encoded_len(values: impl Iterator<Item = u32>) -> usize {
    let (mut blocks, mut used) = (0, 8);
    for len in values.map(byte_len) {
        if used + len > 8 {
            blocks += 1;
            used = 0;
        }
        used += len;
    }
    blocks * BLOCK
}

/// The integers of a block (control byte `block[0]`, data bytes
/// `block[1..9]`), and how many there are; or the rule the control byte
/// breaks.
#[inline(always)]
fn block_integers(block: &[u8; BLOCK]) -> Result<([u32; 8], usize), &'static str> {
    let data = u64::from_le_bytes([
        block[1], block[2], block[3], block[4], block[5], block[6], block[7], block[8],
    ]);
    let mut ints = [0u32; 8];
    // Bit j set: data byte j ends an integer.
    let mut ends = !block[0];
    let (mut count, mut start) = (0, 0);
    while ends != 0 {
        let end = ends.trailing_zeros() as usize;
        let len = end + 1 - start;
        if len > 4 {
            return Err("integer longer than 4 bytes");
        }
        ints[count] = (data >> (8 * start)) as u32 & (u32::MAX >> (32 - 8 * len));
        count += 1;
        start = end + 1;
        ends &= ends - 1;
    }
    if count == 0 {
        return Err("block holds no integer");
    }
    Ok((ints, count))
}

/// Decodes `out.len()` values; with `DELTA`, writes the running sum of them
/// from `*prev` and leaves the last value in `*prev` (also on error, for the
/// values decoded). Returns the bytes consumed (whole blocks); `base` is the
/// offset of `input` in the caller's buffer, for error offsets.
///
/// The last block must hold exactly the values still missing, as the encoder
/// writes it: a block holding more is `Corrupt`.
pub(super) fn decode<const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
    base: usize,
) -> Result<usize, Error> {
    let n = out.len();
    let (mut pos, mut done) = (0, 0);
    let mut acc = *prev;
    while done < n {
        let left = n - done;
        let Some((block, _)) = input[pos..].split_first_chunk::<BLOCK>() else {
            *prev = acc;
            return Err(Error::Truncated {
                offset: base + pos,
                needed: left,
                unit: Unit::Values,
            });
        };
        if block[0] == 0 && left >= 8 {
            // Eight one-byte integers (dense posting lists): no bit walk.
            for (slot, &b) in out[done..done + 8].iter_mut().zip(&block[1..]) {
                *slot = next::<DELTA>(&mut acc, u32::from(b));
            }
            pos += BLOCK;
            done += 8;
            continue;
        }
        let what = match block_integers(block) {
            Ok((ints, count)) if count <= left => {
                for (slot, &v) in out[done..done + count].iter_mut().zip(&ints) {
                    *slot = next::<DELTA>(&mut acc, v);
                }
                pos += BLOCK;
                done += count;
                continue;
            }
            Ok(_) => "block holds more integers than the count",
            Err(what) => what,
        };
        *prev = acc;
        return Err(Error::Corrupt {
            offset: base + pos,
            what,
        });
    }
    *prev = acc;
    Ok(pos)
}
