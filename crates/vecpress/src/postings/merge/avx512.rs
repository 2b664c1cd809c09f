//! The AVX-512 merge: eight lanes still (256-bit registers, with VL), the
//! compares into a mask register and the found lanes compressed by
//! `vpcompressd` in a register, then stored (its memory form is slow on
//! Zen 4).

use core::arch::x86_64::*;

use super::Merged;
use super::generic::{self, Eight};

/// A 256-bit register under AVX-512 VL: the same lanes as AVX2's, other
/// instructions.
#[derive(Clone, Copy)]
struct Vl(__m256i);

impl Eight for Vl {
    #[inline(always)]
    unsafe fn load(ptr: *const u32) -> Self {
        // SAFETY: the 32 bytes are readable and the CPU has AVX: the
        // caller's promise.
        Vl(unsafe { _mm256_loadu_si256(ptr.cast()) })
    }

    #[inline(always)]
    unsafe fn found(self, b: *const u32) -> u32 {
        // SAFETY: `b[..8]` is readable and the CPU has AVX-512 F and VL:
        // the caller's promise.
        unsafe {
            let eq =
                |k: usize| _mm256_cmpeq_epi32_mask(self.0, _mm256_set1_epi32(*b.add(k) as i32));
            u32::from((eq(0) | eq(1)) | (eq(2) | eq(3)) | ((eq(4) | eq(5)) | (eq(6) | eq(7))))
        }
    }

    #[inline(always)]
    unsafe fn store_found(self, found: u32, ptr: *mut u32) {
        // SAFETY: the 32 bytes at `ptr` are writable and the CPU has
        // AVX-512 F and VL: the caller's promise.
        unsafe {
            let packed = _mm256_maskz_compress_epi32(found as u8, self.0);
            _mm256_storeu_si256(ptr.cast(), packed);
        }
    }
}

/// [`keep_common`](super::keep_common) with AVX-512.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `kept <= i <= a.len()`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn keep_common(a: &mut [u32], i: usize, kept: usize, b: &[u32]) -> Merged {
    // SAFETY: the caller's promises, passed on.
    unsafe { generic::keep_common::<Vl>(a, i, kept, b) }
}
