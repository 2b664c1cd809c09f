//! The few 128-bit register operations the group varint decoders need,
//! implemented once per architecture (`pshufb` on x86-64, `tbl` on aarch64),
//! so that each decoder is written once, over this trait (`gb/simd.rs`,
//! `g8iu/simd.rs`), and compiled per ISA by the one-line `#[target_feature]`
//! entries in `ssse3.rs` and `neon.rs`.
//!
//! The register holds four u32 lanes. Every method is `unsafe` and
//! `#[inline(always)]`, never `#[target_feature]`: it is sound only when
//! inlined into a function that enables the features of its level (SSE2,
//! SSSE3 and SSE4.1 for `__m128i`, Neon for `uint32x4_t`), and pointer
//! arguments must be valid as each method states.

/// A 128-bit register of four u32 lanes.
pub(super) trait Vector: Copy {
    /// Loads 16 bytes from `src` (any alignment).
    ///
    /// # Safety
    /// The CPU has the level's features; `src..src + 16` is readable.
    unsafe fn load16(src: *const u8) -> Self;

    /// Loads 8 bytes from `src` (any alignment) into the low half; the high
    /// half is zero.
    ///
    /// # Safety
    /// The CPU has the level's features; `src..src + 8` is readable.
    #[cfg_attr(not(feature = "g8iu"), allow(dead_code))] // used by G8IU only
    unsafe fn load8(src: *const u8) -> Self;

    /// Stores the four lanes at `dst` (any alignment).
    ///
    /// # Safety
    /// The CPU has the level's features; `dst..dst + 4` is writable.
    unsafe fn store(self, dst: *mut u32);

    /// `x` in every lane.
    ///
    /// # Safety
    /// The CPU has the level's features.
    unsafe fn splat(x: u32) -> Self;

    /// Byte `i` of the result is byte `idx[i]` of `self` for `idx[i] < 16`,
    /// and zero for `idx[i] == 0xff` (the tables use no other values).
    ///
    /// # Safety
    /// The CPU has the level's features.
    unsafe fn shuffle(self, idx: Self) -> Self;

    /// Lane-wise wrapping addition.
    ///
    /// # Safety
    /// The CPU has the level's features.
    unsafe fn add(self, other: Self) -> Self;

    /// The running sum of the lanes: `(a, a + b, a + b + c, a + b + c + d)`.
    ///
    /// # Safety
    /// The CPU has the level's features.
    unsafe fn prefix_sum(self) -> Self;

    /// Lane 3 in every lane.
    ///
    /// # Safety
    /// The CPU has the level's features.
    unsafe fn last_lane(self) -> Self;

    /// Lane 0.
    ///
    /// # Safety
    /// The CPU has the level's features.
    unsafe fn lane0(self) -> u32;
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Vector;
    use core::arch::x86_64::*;

    // Each method's caller guarantees SSE2, SSSE3 and SSE4.1 (the trait's
    // contract) and the pointer ranges its `# Safety` section names.
    impl Vector for __m128i {
        #[inline(always)]
        unsafe fn load16(src: *const u8) -> Self {
            // SAFETY: 16 readable bytes at `src`, SSE2 (the caller's contract).
            unsafe { _mm_loadu_si128(src.cast()) }
        }

        #[inline(always)]
        unsafe fn load8(src: *const u8) -> Self {
            // SAFETY: 8 readable bytes at `src` (movq reads no more), SSE2.
            unsafe { _mm_loadl_epi64(src.cast()) }
        }

        #[inline(always)]
        unsafe fn store(self, dst: *mut u32) {
            // SAFETY: 16 writable bytes at `dst`, SSE2 (the caller's contract).
            unsafe { _mm_storeu_si128(dst.cast(), self) }
        }

        #[inline(always)]
        unsafe fn splat(x: u32) -> Self {
            // SAFETY: registers only; SSE2.
            unsafe { _mm_set1_epi32(x as i32) }
        }

        #[inline(always)]
        unsafe fn shuffle(self, idx: Self) -> Self {
            // SAFETY: registers only; SSSE3. pshufb zeroes a byte whose index has its high bit set.
            unsafe { _mm_shuffle_epi8(self, idx) }
        }

        #[inline(always)]
        unsafe fn add(self, other: Self) -> Self {
            // SAFETY: registers only; SSE2.
            unsafe { _mm_add_epi32(self, other) }
        }

        #[inline(always)]
        unsafe fn prefix_sum(self) -> Self {
            // SAFETY: registers only; SSE2.
            unsafe {
                let v = _mm_add_epi32(self, _mm_slli_si128::<4>(self));
                _mm_add_epi32(v, _mm_slli_si128::<8>(v))
            }
        }

        #[inline(always)]
        unsafe fn last_lane(self) -> Self {
            // SAFETY: registers only; SSE2.
            unsafe { _mm_shuffle_epi32::<0xff>(self) }
        }

        #[inline(always)]
        unsafe fn lane0(self) -> u32 {
            // SAFETY: registers only; SSE2.
            unsafe { _mm_cvtsi128_si32(self) as u32 }
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod aarch64 {
    use super::Vector;
    use core::arch::aarch64::*;

    // Each method's caller guarantees Neon (the trait's contract) and the
    // pointer ranges its `# Safety` section names.
    impl Vector for uint32x4_t {
        #[inline(always)]
        unsafe fn load16(src: *const u8) -> Self {
            // SAFETY: 16 readable bytes at `src`; Neon.
            unsafe { vreinterpretq_u32_u8(vld1q_u8(src)) }
        }

        #[inline(always)]
        unsafe fn load8(src: *const u8) -> Self {
            // SAFETY: 8 readable bytes at `src` (a 64-bit load); Neon.
            unsafe { vreinterpretq_u32_u8(vcombine_u8(vld1_u8(src), vdup_n_u8(0))) }
        }

        #[inline(always)]
        unsafe fn store(self, dst: *mut u32) {
            // SAFETY: 16 writable bytes at `dst`; Neon.
            unsafe { vst1q_u32(dst, self) }
        }

        #[inline(always)]
        unsafe fn splat(x: u32) -> Self {
            // SAFETY: registers only; Neon.
            unsafe { vdupq_n_u32(x) }
        }

        #[inline(always)]
        unsafe fn shuffle(self, idx: Self) -> Self {
            // SAFETY: registers only; Neon. tbl gives zero for an index of 16 or more.
            unsafe {
                vreinterpretq_u32_u8(vqtbl1q_u8(
                    vreinterpretq_u8_u32(self),
                    vreinterpretq_u8_u32(idx),
                ))
            }
        }

        #[inline(always)]
        unsafe fn add(self, other: Self) -> Self {
            // SAFETY: registers only; Neon.
            unsafe { vaddq_u32(self, other) }
        }

        #[inline(always)]
        unsafe fn prefix_sum(self) -> Self {
            // SAFETY: registers only; Neon. vextq(0, v, 3) is (0, v0, v1, v2).
            unsafe {
                let zero = vdupq_n_u32(0);
                let v = vaddq_u32(self, vextq_u32::<3>(zero, self));
                vaddq_u32(v, vextq_u32::<2>(zero, v))
            }
        }

        #[inline(always)]
        unsafe fn last_lane(self) -> Self {
            // SAFETY: registers only; Neon.
            unsafe { vdupq_laneq_u32::<3>(self) }
        }

        #[inline(always)]
        unsafe fn lane0(self) -> u32 {
            // SAFETY: registers only; Neon.
            unsafe { vgetq_lane_u32::<0>(self) }
        }
    }
}
