//! The SSE4.1 and Neon decoder, written once over a 128-bit [`Vector`].
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

/// The operations the decoder needs on a 128-bit register of two u64 lanes.
///
/// # Safety
/// Every method needs the CPU features of the implementing type's ISA
/// level; the kernels that call them enable those features.
pub(super) trait Vector: Copy {
    /// Loads 16 bytes from `ptr` (unaligned).
    ///
    /// # Safety
    /// `ptr..ptr + 16` must be readable; the CPU must have the features.
    unsafe fn load(ptr: *const u8) -> Self;
    /// Stores the two lanes at `ptr` (unaligned).
    ///
    /// # Safety
    /// `ptr..ptr + 2` must be writable; the CPU must have the features.
    unsafe fn store(self, ptr: *mut u64);
    /// Byte `i` of the result is byte `mask[i]` of `self`, or 0 when `mask[i]` is `0xff`.
    ///
    /// # Safety
    /// The CPU must have the features.
    unsafe fn shuffle(self, mask: Self) -> Self;
    /// `v` in both lanes.
    ///
    /// # Safety
    /// The CPU must have the features.
    unsafe fn splat(v: u64) -> Self;
    /// Lane-wise wrapping add.
    ///
    /// # Safety
    /// The CPU must have the features.
    unsafe fn add(self, other: Self) -> Self;
    /// `(0, self[0])`: the low lane moved up.
    ///
    /// # Safety
    /// The CPU must have the features.
    unsafe fn lane_up(self) -> Self;
    /// `(self[1], self[1])`.
    ///
    /// # Safety
    /// The CPU must have the features.
    unsafe fn high_both(self) -> Self;
    /// `self[0]`.
    ///
    /// # Safety
    /// The CPU must have the features.
    unsafe fn low(self) -> u64;
}

/// Decodes whole control bytes of `ctrl` (as many as `out` has room for 4
/// values each) while 32 bytes of `data` remain; returns (data bytes
/// consumed, values produced). With `DELTA`, writes the running sum from
/// `*prev` and leaves the last value written in `*prev`.
///
/// # Safety
/// The CPU must have the features `V` needs.
#[inline(always)]
pub(super) unsafe fn decode<V: Vector, const DELTA: bool>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: &mut u64,
) -> (usize, usize) {
    let groups = ctrl.len().min(out.len() / 4);
    let (mut pos, mut g) = (0, 0);
    // SAFETY: the caller provides the CPU features.
    let mut last = unsafe { V::splat(*prev) };
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
                a = a.add(a.lane_up());
                b = b.add(b.lane_up()).add(a.high_both());
                let total = b.high_both();
                a = a.add(last);
                b = b.add(last);
                last = last.add(total);
            }
            let to = out.as_mut_ptr().add(4 * g);
            a.store(to);
            b.store(to.add(2));
        }
        pos += LENGTHS[c] as usize;
        g += 1;
    }
    if DELTA {
        // SAFETY: the caller provides the CPU features.
        *prev = unsafe { last.low() };
    }
    (pos, 4 * g)
}
