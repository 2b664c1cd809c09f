//! x86-64 kernels: the transposition of `generic.rs` on SSE4.1 registers
//! (one 16-byte lane, `punpck*` and `pshufb`) and on AVX2 registers (two
//! lanes: the same in-lane instructions run two blocks of 16 values at once;
//! loads and stores move a lane at a time where the two are apart).
//!
//! The same transposition on 512-bit registers (four lanes, each load and
//! store of a lane apart) was measured no faster than AVX2 for widths 3, 4,
//! 8 and 16, as Arrow found for its AVX-512 path. The Avx512 level has
//! kernels of another shape for the widths 2, 4, 8 and 16 (`avx512.rs`:
//! permutes across whole registers, no lanes) and runs these for the rest.

use core::arch::x86_64::*;

use super::generic::{self, Vector};

impl Vector for __m128i {
    const LANES: usize = 1;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: SSE2 is the caller's promise (trait contract).
        unsafe { _mm_setzero_si128() }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 readable bytes at `p` (trait contract); unaligned load.
        unsafe { _mm_loadu_si128(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 16 writable bytes at `p` (trait contract); unaligned store.
        unsafe { _mm_storeu_si128(p.cast(), self) }
    }
    #[inline(always)]
    unsafe fn load_lanes(p: *const u8, _stride: usize) -> Self {
        // SAFETY: as `load`: one lane.
        unsafe { Self::load(p) }
    }
    #[inline(always)]
    unsafe fn store_lane(self, _h: usize, p: *mut u8) {
        // SAFETY: as `store`: one lane.
        unsafe { self.store(p) }
    }
    #[inline(always)]
    unsafe fn zip_lo(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: SSE2 is the caller's promise.
        unsafe {
            match e {
                1 => _mm_unpacklo_epi8(a, b),
                2 => _mm_unpacklo_epi16(a, b),
                4 => _mm_unpacklo_epi32(a, b),
                _ => _mm_unpacklo_epi64(a, b),
            }
        }
    }
    #[inline(always)]
    unsafe fn zip_hi(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: SSE2 is the caller's promise.
        unsafe {
            match e {
                1 => _mm_unpackhi_epi8(a, b),
                2 => _mm_unpackhi_epi16(a, b),
                4 => _mm_unpackhi_epi32(a, b),
                _ => _mm_unpackhi_epi64(a, b),
            }
        }
    }
    #[inline(always)]
    unsafe fn shuffle(self, table: &[u8; 16]) -> Self {
        // SAFETY: SSSE3 is the caller's promise; `table` is 16 readable bytes.
        unsafe { _mm_shuffle_epi8(self, _mm_loadu_si128(table.as_ptr().cast())) }
    }
}

impl Vector for __m256i {
    const LANES: usize = 2;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: AVX is the caller's promise (trait contract).
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 32 readable bytes at `p` (trait contract); unaligned load.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 32 writable bytes at `p` (trait contract); unaligned store.
        unsafe { _mm256_storeu_si256(p.cast(), self) }
    }
    #[inline(always)]
    unsafe fn load_lanes(p: *const u8, stride: usize) -> Self {
        // SAFETY: 16 readable bytes at `p` and at `p + stride` (trait contract).
        unsafe {
            let lo = _mm256_castsi128_si256(_mm_loadu_si128(p.cast()));
            _mm256_inserti128_si256::<1>(lo, _mm_loadu_si128(p.add(stride).cast()))
        }
    }
    #[inline(always)]
    unsafe fn store_lane(self, h: usize, p: *mut u8) {
        // SAFETY: 16 writable bytes at `p` (trait contract); AVX2 is promised.
        unsafe {
            let lane = if h == 0 {
                _mm256_castsi256_si128(self)
            } else {
                _mm256_extracti128_si256::<1>(self)
            };
            _mm_storeu_si128(p.cast(), lane)
        }
    }
    #[inline(always)]
    unsafe fn zip_lo(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: AVX2 is the caller's promise.
        unsafe {
            match e {
                1 => _mm256_unpacklo_epi8(a, b),
                2 => _mm256_unpacklo_epi16(a, b),
                4 => _mm256_unpacklo_epi32(a, b),
                _ => _mm256_unpacklo_epi64(a, b),
            }
        }
    }
    #[inline(always)]
    unsafe fn zip_hi(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: AVX2 is the caller's promise.
        unsafe {
            match e {
                1 => _mm256_unpackhi_epi8(a, b),
                2 => _mm256_unpackhi_epi16(a, b),
                4 => _mm256_unpackhi_epi32(a, b),
                _ => _mm256_unpackhi_epi64(a, b),
            }
        }
    }
    #[inline(always)]
    unsafe fn shuffle(self, table: &[u8; 16]) -> Self {
        // SAFETY: AVX2 is the caller's promise; `table` is 16 readable bytes.
        unsafe {
            let t = _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast()));
            _mm256_shuffle_epi8(self, t)
        }
    }
}

generic::kernels!(
    sse41,
    __m128i,
    "sse2,ssse3,sse4.1",
    "The Sse41 level's kernels: one 16-byte lane per register."
);
generic::kernels!(
    avx2,
    __m256i,
    "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt",
    "The Avx2 level's kernels: two 16-byte lanes per register."
);
