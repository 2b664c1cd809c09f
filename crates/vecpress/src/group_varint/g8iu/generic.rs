//! The Varint-G8IU SIMD decoder of Stepanov et al. (CIKM 2011), written once
//! over [`Vector`] and compiled per ISA by `sse41.rs` and `neon.rs`.
//!
//! ```text
//! while a whole block (9 bytes) is readable and 8 values of room remain:
//!     control = input[pos]; count = COUNT[control]; stop if count == 0
//!     data = input[pos + 1..pos + 9]                 // an 8-byte load
//!     lo = shuffle(data, SHUFFLE[control][0])        // integers 0-3
//!     hi = shuffle(data, SHUFFLE[control][1])        // integers 4-7
//!     delta: s = prefix_sum(lo); t = prefix_sum(hi) + s[3];
//!            lo = s + last; hi = t + last; last += t[3]   (in every lane)
//!     store lo, hi (8 lanes); pos += 9; produced += count
//! ```
//!
//! Blocks sit 9 bytes apart, so the next control byte's address never waits
//! on this one (the format's advantage over Varint-GB, Stream VByte paper
//! §4); the only loop-carried values are `pos`, `produced` and, for delta,
//! `last`, whose update is one addition. Both registers are always stored: the lanes past `count` are
//! scratch that the next block overwrites (they stay inside `out`, in the 8
//! lanes of room the loop asks for). For delta, those lanes hold zero gaps,
//! so lane 3 of `t` is the sum of the block's gaps whatever `count` is. The last
//! block (which may hold fewer values than it could), and anything under 9
//! bytes or 8 values of room, is left to the checked scalar path.

use super::scalar::BLOCK;
use super::tables::{COUNT, SHUFFLE};
use crate::simd::Vector;

/// Decodes whole blocks from the start of `input` into `out`; returns
/// (bytes consumed, values produced). With `DELTA`, writes the running sum
/// from `*prev` and leaves the last value produced in `*prev`.
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
    while input.len() - pos >= BLOCK && out.len() - done >= 8 {
        let control = usize::from(input[pos]);
        let count = usize::from(COUNT[control]);
        if count == 0 {
            break; // an invalid block: the scalar path reports it
        }
        let masks = &SHUFFLE[control];
        // SAFETY: input[pos + 1..pos + 9] is in bounds and out[done..done + 8]
        // too (loop condition); a SHUFFLE row is 16 bytes; the caller
        // provides the CPU features.
        unsafe {
            let data = V::load8(src.add(pos + 1));
            let mut lo = data.shuffle(V::load(masks[0].as_ptr()));
            let mut hi = data.shuffle(V::load(masks[1].as_ptr()));
            if DELTA {
                // Only `last + sum` is on the loop-carried path.
                let lo_sums = lo.prefix_sum_u32();
                let hi_sums = hi.prefix_sum_u32().add_u32(lo_sums.splat_last_u32());
                lo = lo_sums.add_u32(last);
                hi = hi_sums.add_u32(last);
                last = last.add_u32(hi_sums.splat_last_u32());
            }
            lo.store(dst.add(done).cast());
            hi.store(dst.add(done + 4).cast());
        }
        pos += BLOCK;
        done += count;
    }
    if DELTA {
        // SAFETY: registers only; the caller provides the CPU features.
        *prev = unsafe { last.last_u32() };
    }
    (pos, done)
}
