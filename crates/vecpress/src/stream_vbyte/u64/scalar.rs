//! The portable 64-bit Stream VByte codec: the reference every kernel is
//! tested against, and the checked path that finishes what a kernel leaves.
//! It is the only place that builds decoding errors.
#![forbid(unsafe_code)]

use super::tables::{CODE_LEN, code_of};
use crate::{Error, Unit};

/// Control bytes of a stream of `n` values.
#[inline(always)]
pub(crate) const fn control_len(n: usize) -> usize {
    n.div_ceil(4)
}

/// Bytes a value takes in the data area.
#[inline(always)]
pub(crate) const fn data_len(value: u64) -> usize {
    CODE_LEN[code_of(value) as usize]
}

/// The code of value `i` in the control area `control`.
#[inline(always)]
pub(crate) fn code_at(control: &[u8], i: usize) -> usize {
    (control[i / 4] >> (2 * (i % 4))) as usize & 3
}

/// Writes the `n` values of `values` as a stream into `out` (which the caller
/// has sized); returns the bytes written.
pub(crate) fn encode(values: impl Iterator<Item = u64>, n: usize, out: &mut [u8]) -> usize {
    let (control, data) = out.split_at_mut(control_len(n));
    control.fill(0);
    let mut pos = 0;
    for (i, v) in values.enumerate() {
        let code = code_of(v);
        control[i / 4] |= code << (2 * (i % 4));
        let len = CODE_LEN[code as usize];
        data[pos..pos + len].copy_from_slice(&v.to_le_bytes()[..len]);
        pos += len;
    }
    control.len() + pos
}

/// Checks that `input` can hold a stream of `n` values (its control area and
/// at least a byte per value); returns the length of the control area.
pub(crate) fn check_size(input: &[u8], n: usize) -> Result<usize, Error> {
    let control = control_len(n);
    if input.len() < control {
        return Err(Error::Truncated {
            offset: input.len(),
            needed: n,
            unit: Unit::Values,
        });
    }
    if input.len() - control < n {
        // Each value takes a byte at least: find the first that is cut.
        let mut pos = control;
        for i in 0..n {
            let len = CODE_LEN[code_at(input, i)];
            if pos + len > input.len() {
                return Err(Error::Truncated {
                    offset: pos,
                    needed: n - i,
                    unit: Unit::Values,
                });
            }
            pos += len;
        }
    }
    Ok(control)
}

/// Decodes values `done..out.len()` of a stream whose control bytes start
/// at `control[0]` (the caller checked they exist) and whose value `done`
/// starts at `data[pos]`. Each value goes through `put` (the identity, or a
/// running sum). Returns the data position after the last value; error
/// offsets count from the caller's input, where `data` starts at `base`.
pub(crate) fn decode_rest(
    control: &[u8],
    data: &[u8],
    out: &mut [u64],
    done: usize,
    mut pos: usize,
    base: usize,
    mut put: impl FnMut(u64) -> u64,
) -> Result<usize, Error> {
    let n = out.len();
    for (i, slot) in out.iter_mut().enumerate().skip(done) {
        let len = CODE_LEN[code_at(control, i)];
        let Some(bytes) = data.get(pos..pos + len) else {
            return Err(Error::Truncated {
                offset: base + pos,
                needed: n - i,
                unit: Unit::Values,
            });
        };
        let mut le = [0u8; 8];
        le[..len].copy_from_slice(bytes);
        *slot = put(u64::from_le_bytes(le));
        pos += len;
    }
    Ok(pos)
}
