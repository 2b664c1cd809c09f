//! [`Vector`] and [`Lanes`] for the aarch64 register `uint8x16_t` (Neon).

use core::arch::aarch64::*;

use super::{Lanes, Vector};

impl Vector for uint8x16_t {
    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees the 16 bytes are readable.
        unsafe { vld1q_u8(ptr) }
    }

    #[inline(always)]
    unsafe fn load8(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees the 8 bytes are readable, and Neon.
        unsafe { vcombine_u8(vld1_u8(ptr), vdup_n_u8(0)) }
    }

    #[inline(always)]
    unsafe fn widen_u8(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees the 4 bytes are readable, and Neon.
        unsafe {
            let bytes = vreinterpret_u8_u32(vdup_n_u32(ptr.cast::<u32>().read_unaligned()));
            vreinterpretq_u8_u32(vmovl_u16(vget_low_u16(vmovl_u8(bytes))))
        }
    }

    #[inline(always)]
    unsafe fn store(self, ptr: *mut u8) {
        // SAFETY: the caller guarantees the 16 bytes are writable.
        unsafe { vst1q_u8(ptr, self) }
    }

    #[inline(always)]
    unsafe fn shuffle(self, mask: Self) -> Self {
        // SAFETY: the caller guarantees Neon; indices of 16 and up give 0.
        unsafe { vqtbl1q_u8(self, mask) }
    }

    #[inline(always)]
    unsafe fn add_sat_u8(self, k: u8) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe { vqaddq_u8(self, vdupq_n_u8(k)) }
    }

    #[inline(always)]
    unsafe fn prefix_sum_u32(self) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe {
            let x = vreinterpretq_u32_u8(self);
            let zero = vdupq_n_u32(0);
            let x = vaddq_u32(x, vextq_u32::<3>(zero, x));
            let x = vaddq_u32(x, vextq_u32::<2>(zero, x));
            vreinterpretq_u8_u32(x)
        }
    }

    #[inline(always)]
    unsafe fn add_u32(self, other: Self) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe {
            vreinterpretq_u8_u32(vaddq_u32(
                vreinterpretq_u32_u8(self),
                vreinterpretq_u32_u8(other),
            ))
        }
    }

    #[inline(always)]
    unsafe fn from_u128(x: u128) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe {
            vreinterpretq_u8_u64(vcombine_u64(
                vcreate_u64(x as u64),
                vcreate_u64((x >> 64) as u64),
            ))
        }
    }

    #[inline(always)]
    unsafe fn splat_u32(x: u32) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe { vreinterpretq_u8_u32(vdupq_n_u32(x)) }
    }

    #[inline(always)]
    unsafe fn splat_last_u32(self) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe { vreinterpretq_u8_u32(vdupq_laneq_u32::<3>(vreinterpretq_u32_u8(self))) }
    }

    #[inline(always)]
    unsafe fn sum_u8(self) -> u32 {
        // SAFETY: the caller guarantees Neon.
        unsafe { u32::from(vaddlvq_u8(self)) }
    }

    #[inline(always)]
    unsafe fn sum_u8_lanes(self) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe { vreinterpretq_u8_u32(vpaddlq_u16(vpaddlq_u8(self))) }
    }

    #[inline(always)]
    unsafe fn ge_mask_u32(self, target: Self) -> u32 {
        // SAFETY: the caller guarantees Neon.
        unsafe {
            let ge = vcgeq_u32(vreinterpretq_u32_u8(self), vreinterpretq_u32_u8(target));
            let bits = vandq_u32(ge, vld1q_u32([1u32, 2, 4, 8].as_ptr()));
            vaddvq_u32(bits)
        }
    }

    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe { vorrq_u8(self, other) }
    }

    #[inline(always)]
    unsafe fn sum_u32(self) -> u32 {
        // SAFETY: the caller guarantees Neon.
        unsafe { vaddvq_u32(vreinterpretq_u32_u8(self)) }
    }

    #[inline(always)]
    unsafe fn last_u32(self) -> u32 {
        // SAFETY: the caller guarantees Neon.
        unsafe { vgetq_lane_u32::<3>(vreinterpretq_u32_u8(self)) }
    }

    #[inline(always)]
    unsafe fn splat_u64(x: u64) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe { vreinterpretq_u8_u64(vdupq_n_u64(x)) }
    }

    #[inline(always)]
    unsafe fn add_u64(self, other: Self) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe {
            vreinterpretq_u8_u64(vaddq_u64(
                vreinterpretq_u64_u8(self),
                vreinterpretq_u64_u8(other),
            ))
        }
    }

    #[inline(always)]
    unsafe fn shift_up_u64(self) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe { vextq_u8::<8>(vdupq_n_u8(0), self) }
    }

    #[inline(always)]
    unsafe fn splat_high_u64(self) -> Self {
        // SAFETY: the caller guarantees Neon.
        unsafe { vreinterpretq_u8_u64(vdupq_laneq_u64::<1>(vreinterpretq_u64_u8(self))) }
    }

    #[inline(always)]
    unsafe fn low_u64(self) -> u64 {
        // SAFETY: the caller guarantees Neon.
        unsafe { vgetq_lane_u64::<0>(vreinterpretq_u64_u8(self)) }
    }
}

impl Lanes for uint8x16_t {
    const LANES: usize = 1;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: Neon is the caller's promise (trait contract).
        unsafe { vdupq_n_u8(0) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 readable bytes at `p` (trait contract).
        unsafe { vld1q_u8(p) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 16 writable bytes at `p` (trait contract).
        unsafe { vst1q_u8(p, self) }
    }
    #[inline(always)]
    unsafe fn load_lanes(p: *const u8, _stride: usize) -> Self {
        // SAFETY: as `load`: one lane.
        unsafe { vld1q_u8(p) }
    }
    #[inline(always)]
    unsafe fn store_lane(self, _h: usize, p: *mut u8) {
        // SAFETY: as `store`: one lane.
        unsafe { vst1q_u8(p, self) }
    }
    #[inline(always)]
    unsafe fn zip_lo(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: Neon is the caller's promise; reinterpretations are free.
        unsafe {
            match e {
                1 => vzip1q_u8(a, b),
                2 => vreinterpretq_u8_u16(vzip1q_u16(
                    vreinterpretq_u16_u8(a),
                    vreinterpretq_u16_u8(b),
                )),
                4 => vreinterpretq_u8_u32(vzip1q_u32(
                    vreinterpretq_u32_u8(a),
                    vreinterpretq_u32_u8(b),
                )),
                _ => vreinterpretq_u8_u64(vzip1q_u64(
                    vreinterpretq_u64_u8(a),
                    vreinterpretq_u64_u8(b),
                )),
            }
        }
    }
    #[inline(always)]
    unsafe fn zip_hi(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: Neon is the caller's promise; reinterpretations are free.
        unsafe {
            match e {
                1 => vzip2q_u8(a, b),
                2 => vreinterpretq_u8_u16(vzip2q_u16(
                    vreinterpretq_u16_u8(a),
                    vreinterpretq_u16_u8(b),
                )),
                4 => vreinterpretq_u8_u32(vzip2q_u32(
                    vreinterpretq_u32_u8(a),
                    vreinterpretq_u32_u8(b),
                )),
                _ => vreinterpretq_u8_u64(vzip2q_u64(
                    vreinterpretq_u64_u8(a),
                    vreinterpretq_u64_u8(b),
                )),
            }
        }
    }
    #[inline(always)]
    unsafe fn shuffle(self, table: &[u8; 16]) -> Self {
        // SAFETY: Neon is the caller's promise; `table` is 16 readable bytes.
        unsafe { vqtbl1q_u8(self, vld1q_u8(table.as_ptr())) }
    }
    #[inline(always)]
    unsafe fn splat(x: u8) -> Self {
        // SAFETY: Neon is the caller's promise.
        unsafe { vdupq_n_u8(x) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: Neon is the caller's promise.
        unsafe { vandq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: Neon is the caller's promise.
        unsafe { veorq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn shr_u16<const N: i32>(self) -> Self {
        // SAFETY: Neon is the caller's promise; reinterpretations are free.
        unsafe { vreinterpretq_u8_u16(vshrq_n_u16::<N>(vreinterpretq_u16_u8(self))) }
    }
    #[inline(always)]
    unsafe fn shl_u16<const N: i32>(self) -> Self {
        // SAFETY: Neon is the caller's promise; reinterpretations are free.
        unsafe { vreinterpretq_u8_u16(vshlq_n_u16::<N>(vreinterpretq_u16_u8(self))) }
    }
}
