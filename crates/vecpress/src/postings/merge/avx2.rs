//! The AVX2 merge: compares by `vpcmpeqd` with broadcast values, the found
//! lanes compressed by a `vpermd` whose indices come from a table of the
//! 256 masks ([`compress8`]).

use core::arch::x86_64::*;

use super::Merged;
use super::generic::{self, Eight};
use crate::simd::x86::compress8;

impl Eight for __m256i {
    #[inline(always)]
    unsafe fn load(ptr: *const u32) -> Self {
        // SAFETY: the 32 bytes are readable and the CPU has AVX: the
        // caller's promise.
        unsafe { _mm256_loadu_si256(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn found(self, b: *const u32) -> u32 {
        // SAFETY: `b[..8]` is readable and the CPU has AVX2: the caller's
        // promise.
        unsafe {
            let eq = |k: usize| _mm256_cmpeq_epi32(self, _mm256_set1_epi32(*b.add(k) as i32));
            let any = _mm256_or_si256(
                _mm256_or_si256(_mm256_or_si256(eq(0), eq(1)), _mm256_or_si256(eq(2), eq(3))),
                _mm256_or_si256(_mm256_or_si256(eq(4), eq(5)), _mm256_or_si256(eq(6), eq(7))),
            );
            _mm256_movemask_ps(_mm256_castsi256_ps(any)) as u32
        }
    }

    #[inline(always)]
    unsafe fn store_found(self, found: u32, ptr: *mut u32) {
        // SAFETY: the 32 bytes at `ptr` are writable and the CPU has AVX2:
        // the caller's promise.
        unsafe { _mm256_storeu_si256(ptr.cast(), compress8(self, found)) }
    }
}

/// [`keep_common`](super::keep_common) with AVX2.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`; `kept <= i <= a.len() <=
/// out.len()`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn keep_common(
    a: &[u32],
    i: usize,
    out: &mut [u32],
    kept: usize,
    b: &[u32],
) -> Merged {
    // SAFETY: the caller's promises, passed on.
    unsafe { generic::keep_common::<__m256i>(a, i, out, kept, b) }
}
