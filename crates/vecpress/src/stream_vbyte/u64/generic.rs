//! The SSE4.1 and Neon decoder, written once over the 128-bit [`Vector`]
//! of `crate::simd`.
//!
//! ```text
//! while a whole control byte c remains and 32 data bytes remain at pos:
//!     a <- shuffle(load16(data + pos),               PAIR_SHUFFLE[c & 15])   // values 0, 1
//!     b <- shuffle(load16(data + pos + len(c & 15)), PAIR_SHUFFLE[c >> 4])   // values 2, 3
//!     delta: a += a << 64 lanes;  b += b << 64 lanes, + a's high lane;
//!            a += last;  b += last;  last += b's high lane (before the add)
//!     store a, b;  pos += LENGTHS[c]
//! ```
//!
//! The data position advances by one table load and one add per control
//! byte (`LENGTHS[c]`); the second pair's start is off that chain. Loads
//! stay inside `data` (both end within `pos + 32`), stores inside `out`.

use super::tables::{LENGTHS, PAIR_LENGTHS, PAIR_SHUFFLE};
use crate::simd::Vector;

/// Decodes whole control bytes while 32 data bytes remain; returns (data
/// bytes consumed, values produced). With `prev`, writes the running sum
/// from `*prev` and leaves the last value in it.
///
/// # Safety
/// The CPU must have the features `V` needs.
#[inline(always)]
pub(super) unsafe fn decode_bulk<V: Vector>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: Option<&mut u64>,
) -> (usize, usize) {
    // SAFETY: the caller provides the features `V` needs.
    unsafe {
        match prev {
            Some(prev) => decode::<V, true>(ctrl, data, out, prev),
            None => decode::<V, false>(ctrl, data, out, &mut 0),
        }
    }
}

/// Decodes whole control bytes of `ctrl` (as many as `out` has room for 4
/// values each) while 32 bytes of `data` remain; returns (data bytes
/// consumed, values produced). With `DELTA`, writes the running sum from
/// `*prev` and leaves the last value written in `*prev`.
///
/// # Safety
/// The CPU must have the features `V` needs.
#[inline(always)]
unsafe fn decode<V: Vector, const DELTA: bool>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: &mut u64,
) -> (usize, usize) {
    let groups = ctrl.len().min(out.len() / 4);
    let (mut pos, mut g) = (0, 0);
    // SAFETY: the caller provides the CPU features.
    let mut last = unsafe { V::splat_u64(*prev) };
    while g < groups && pos + 32 <= data.len() {
        let c = ctrl[g] as usize;
        let (lo, hi) = (c & 15, c >> 4);
        let mid = pos + PAIR_LENGTHS[lo] as usize;
        // SAFETY: data[pos..pos + 16] and data[mid..mid + 16] are inside
        // data (mid <= pos + 16 and pos + 32 <= data.len()); each mask is
        // a 16-byte table row; out[4g..4g + 4] exists (g < out.len() / 4);
        // the caller provides the CPU features.
        unsafe {
            let mut a = V::load(data.as_ptr().add(pos)).shuffle(V::load(PAIR_SHUFFLE[lo].as_ptr()));
            let mut b = V::load(data.as_ptr().add(mid)).shuffle(V::load(PAIR_SHUFFLE[hi].as_ptr()));
            if DELTA {
                // Sums within the group first, so that the loop-carried
                // chain through `last` is one add.
                a = a.add_u64(a.shift_up_u64());
                b = b.add_u64(b.shift_up_u64()).add_u64(a.splat_high_u64());
                let total = b.splat_high_u64();
                a = a.add_u64(last);
                b = b.add_u64(last);
                last = last.add_u64(total);
            }
            let to = out.as_mut_ptr().add(4 * g);
            a.store(to.cast());
            b.store(to.add(2).cast());
        }
        pos += LENGTHS[c] as usize;
        g += 1;
    }
    if DELTA {
        // SAFETY: the caller provides the CPU features.
        *prev = unsafe { last.low_u64() };
    }
    (pos, 4 * g)
}
