//! The SSE4.1 kernel: [`super::generic`] on `__m128i` (`pshufb`, `paddq`).

use core::arch::x86_64::*;

use super::generic::{self, Vector};

impl Vector for __m128i {
    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes and SSE2.
        unsafe { _mm_loadu_si128(ptr.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, ptr: *mut u64) {
        // SAFETY: the caller guarantees 16 writable bytes and SSE2.
        unsafe { _mm_storeu_si128(ptr.cast(), self) }
    }
    #[inline(always)]
    unsafe fn shuffle(self, mask: Self) -> Self {
        // SAFETY: the caller guarantees SSSE3.
        unsafe { _mm_shuffle_epi8(self, mask) }
    }
    #[inline(always)]
    unsafe fn splat(v: u64) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_set1_epi64x(v as i64) }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_add_epi64(self, other) }
    }
    #[inline(always)]
    unsafe fn lane_up(self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_slli_si128::<8>(self) }
    }
    #[inline(always)]
    unsafe fn high_both(self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_unpackhi_epi64(self, self) }
    }
    #[inline(always)]
    unsafe fn low(self) -> u64 {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_cvtsi128_si64(self) as u64 }
    }
}

/// Decodes whole control bytes while 32 data bytes remain; returns (data
/// bytes consumed, values produced). With `prev`, writes the running sum
/// from `*prev` and leaves the last value in it.
///
/// # Safety
/// The CPU must have SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn decode_bulk(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: Option<&mut u64>,
) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `__m128i` needs.
    unsafe {
        match prev {
            Some(prev) => generic::decode::<__m128i, true>(ctrl, data, out, prev),
            None => generic::decode::<__m128i, false>(ctrl, data, out, &mut 0),
        }
    }
}
