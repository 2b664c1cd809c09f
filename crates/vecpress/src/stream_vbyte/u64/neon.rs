//! The Neon kernel: [`super::generic`] on `uint8x16_t` (`tbl`, `add`).

use core::arch::aarch64::*;

use super::generic::{self, Vector};

impl Vector for uint8x16_t {
    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes and Neon.
        unsafe { vld1q_u8(ptr) }
    }
    #[inline(always)]
    unsafe fn store(self, ptr: *mut u64) {
        // SAFETY: the caller guarantees 16 writable bytes and Neon.
        unsafe { vst1q_u64(ptr, vreinterpretq_u64_u8(self)) }
    }
    #[inline(always)]
    unsafe fn shuffle(self, mask: Self) -> Self {
        // SAFETY: the caller guarantees Neon; indices >= 16 give 0.
        unsafe { vqtbl1q_u8(self, mask) }
    }
    #[inline(always)]
    unsafe fn splat(v: u64) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe { vreinterpretq_u8_u64(vdupq_n_u64(v)) }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe {
            vreinterpretq_u8_u64(vaddq_u64(
                vreinterpretq_u64_u8(self),
                vreinterpretq_u64_u8(other),
            ))
        }
    }
    #[inline(always)]
    unsafe fn lane_up(self) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe { vextq_u8::<8>(vdupq_n_u8(0), self) }
    }
    #[inline(always)]
    unsafe fn high_both(self) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe { vreinterpretq_u8_u64(vdupq_laneq_u64::<1>(vreinterpretq_u64_u8(self))) }
    }
    #[inline(always)]
    unsafe fn low(self) -> u64 {
        // SAFETY: the caller guarantees Neon.
        unsafe { vgetq_lane_u64::<0>(vreinterpretq_u64_u8(self)) }
    }
}

/// Decodes whole control bytes while 32 data bytes remain; returns (data
/// bytes consumed, values produced). With `prev`, writes the running sum
/// from `*prev` and leaves the last value in it.
///
/// # Safety
/// The CPU must have Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_bulk(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: Option<&mut u64>,
) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `uint8x16_t` needs.
    unsafe {
        match prev {
            Some(prev) => generic::decode::<uint8x16_t, true>(ctrl, data, out, prev),
            None => generic::decode::<uint8x16_t, false>(ctrl, data, out, &mut 0),
        }
    }
}
