//! The Varint-GB SIMD decoder, written once over [`Vector`] and compiled per
//! ISA by `sse41.rs` and `neon.rs`.
//!
//! ```text
//! while a whole group's bytes (17) are readable and 4 values of room remain:
//!     control = input[pos]
//!     v = shuffle(input[pos + 1..pos + 17], SHUFFLE[control])   // 4 u32 lanes
//!     delta: s = prefix_sum(v); v = s + last; last += s[3] (in every lane)
//!     store v; pos += 5 if control == 0 else 1 + LEN[control]
//! ```
//!
//! Every control byte is valid for a whole group, so the loop has no test
//! but its bounds; the last (possibly partial) group and everything under
//! 17 bytes are left to the checked scalar path. The loop-carried path is
//! the control byte's load, the length lookup and the add: the format's
//! serial dependency, which the Stream VByte paper (§4) names as its limit.
//! The branch on a zero control byte (four one-byte values, common in
//! posting lists) breaks that chain where it predicts well: the next
//! group's address no longer waits for the table lookup.
//!
//! Varint-G8IU's decoder (`g8iu/generic.rs`) has the same shape but stays a
//! loop of its own: its blocks are a fixed 9 bytes holding a varying count
//! of values in two registers, where a group here is four values of varying
//! length in one, so a loop over both would hide each format's bounds and
//! loop-carried chain behind parameters. What the two share, the shuffle by
//! a table row and the prefix sum, is one [`Vector`] method each.

use super::scalar::GROUP_MAX;
use super::tables::{LEN, SHUFFLE};
use crate::simd::Vector;

/// Decodes whole groups from the start of `input` into `out`; returns
/// (bytes consumed, values produced). With `DELTA`, writes the running sum
/// from `*prev` and leaves the last value written in `*prev`.
///
/// # Safety
/// The CPU has the features `V`'s methods need (see [`Vector`]).
#[inline(always)]
pub(super) unsafe fn decode<V: Vector, const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    let src = input.as_ptr();
    let dst = out.as_mut_ptr();
    let (mut pos, mut done) = (0usize, 0usize);
    // SAFETY: registers only; the caller provides the CPU features.
    let mut last = unsafe { V::splat_u32(*prev) };
    while input.len() - pos >= GROUP_MAX && out.len() - done >= 4 {
        let control = usize::from(input[pos]);
        // SAFETY: input[pos + 1..pos + 17] is in bounds and out[done..done + 4]
        // too (loop condition); a SHUFFLE row is 16 bytes; the caller provides
        // the CPU features.
        unsafe {
            let data = V::load(src.add(pos + 1));
            let mut v = data.shuffle(V::load(SHUFFLE[control].as_ptr()));
            if DELTA {
                // Only `last + sum` is on the loop-carried path.
                let sums = v.prefix_sum_u32();
                v = sums.add_u32(last);
                last = last.add_u32(sums.splat_last_u32());
            }
            v.store(dst.add(done).cast());
        }
        // The paper's fast path for four one-byte values: a predicted branch
        // lets the next group's loads start before this control byte arrives.
        pos += if control == 0 {
            5
        } else {
            1 + usize::from(LEN[control])
        };
        done += 4;
    }
    if DELTA {
        // SAFETY: registers only; the caller provides the CPU features.
        *prev = unsafe { last.last_u32() };
    }
    (pos, done)
}
