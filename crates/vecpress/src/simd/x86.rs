//! [`Vector`] for the x86-64 registers: `__m128i` (SSSE3 + SSE4.1) and
//! `__m256i` (AVX2), `__m512i` (AVX-512 F and BW).

use core::arch::x86_64::*;

use super::Vector;

impl Vector for __m128i {
    const LANES: usize = 1;

    #[inline(always)]
    unsafe fn load_lanes(base: *const u8, offsets: [usize; 4]) -> Self {
        // SAFETY: the caller guarantees the 16 bytes are readable.
        unsafe { _mm_loadu_si128(base.add(offsets[0]).cast()) }
    }

    #[inline(always)]
    unsafe fn widen_u8(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees the 4 bytes are readable, and SSE4.1.
        unsafe { _mm_cvtepu8_epi32(_mm_cvtsi32_si128(ptr.cast::<i32>().read_unaligned())) }
    }

    #[inline(always)]
    unsafe fn store(self, ptr: *mut u8) {
        // SAFETY: the caller guarantees the 16 bytes are writable.
        unsafe { _mm_storeu_si128(ptr.cast(), self) }
    }

    #[inline(always)]
    unsafe fn shuffle_lanes(self, mask: Self) -> Self {
        // SAFETY: the caller guarantees SSSE3.
        unsafe { _mm_shuffle_epi8(self, mask) }
    }

    #[inline(always)]
    unsafe fn add_sat_u8(self, k: u8) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_adds_epu8(self, _mm_set1_epi8(k as i8)) }
    }

    #[inline(always)]
    unsafe fn prefix_sum_u32(self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe {
            let x = _mm_add_epi32(self, _mm_slli_si128::<4>(self));
            _mm_add_epi32(x, _mm_slli_si128::<8>(x))
        }
    }

    #[inline(always)]
    unsafe fn add_u32(self, other: Self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn from_u128(x: u128) -> Self {
        let (lo, hi) = (x as i64, (x >> 64) as i64);
        // SAFETY: the caller guarantees SSE4.1.
        unsafe { _mm_set_epi64x(hi, lo) }
    }

    #[inline(always)]
    unsafe fn splat_u32(x: u32) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_set1_epi32(x as i32) }
    }

    #[inline(always)]
    unsafe fn splat_last_u32(self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_shuffle_epi32::<0xff>(self) }
    }

    #[inline(always)]
    unsafe fn last_u32(self) -> u32 {
        // SAFETY: the caller guarantees SSE4.1.
        unsafe { _mm_extract_epi32::<3>(self) as u32 }
    }
}

impl Vector for __m256i {
    const LANES: usize = 2;

    #[inline(always)]
    unsafe fn load_lanes(base: *const u8, offsets: [usize; 4]) -> Self {
        // SAFETY: the caller guarantees both 16-byte ranges are readable, and AVX2.
        unsafe {
            let lo = _mm_loadu_si128(base.add(offsets[0]).cast());
            let hi = _mm_loadu_si128(base.add(offsets[1]).cast());
            _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi)
        }
    }

    #[inline(always)]
    unsafe fn widen_u8(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees the 8 bytes are readable, and AVX2.
        unsafe { _mm256_cvtepu8_epi32(_mm_loadl_epi64(ptr.cast())) }
    }

    #[inline(always)]
    unsafe fn store(self, ptr: *mut u8) {
        // SAFETY: the caller guarantees the 32 bytes are writable, and AVX.
        unsafe { _mm256_storeu_si256(ptr.cast(), self) }
    }

    #[inline(always)]
    unsafe fn shuffle_lanes(self, mask: Self) -> Self {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_shuffle_epi8(self, mask) }
    }

    #[inline(always)]
    unsafe fn add_sat_u8(self, k: u8) -> Self {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_adds_epu8(self, _mm256_set1_epi8(k as i8)) }
    }

    #[inline(always)]
    unsafe fn prefix_sum_u32(self) -> Self {
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            // Within each lane, then the low lane's total into the high lane.
            let x = _mm256_add_epi32(self, _mm256_slli_si256::<4>(self));
            let x = _mm256_add_epi32(x, _mm256_slli_si256::<8>(x));
            let low_total = _mm256_shuffle_epi32::<0xff>(x);
            _mm256_add_epi32(x, _mm256_permute2x128_si256::<0x08>(low_total, low_total))
        }
    }

    #[inline(always)]
    unsafe fn add_u32(self, other: Self) -> Self {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn from_u128(x: u128) -> Self {
        let (lo, hi) = (x as i64, (x >> 64) as i64);
        // SAFETY: the caller guarantees AVX.
        unsafe { _mm256_set_epi64x(0, 0, hi, lo) }
    }

    #[inline(always)]
    unsafe fn splat_u32(x: u32) -> Self {
        // SAFETY: the caller guarantees AVX.
        unsafe { _mm256_set1_epi32(x as i32) }
    }

    #[inline(always)]
    unsafe fn splat_last_u32(self) -> Self {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_permutevar8x32_epi32(self, _mm256_set1_epi32(7)) }
    }

    #[inline(always)]
    unsafe fn last_u32(self) -> u32 {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_extract_epi32::<7>(self) as u32 }
    }
}

impl Vector for __m512i {
    const LANES: usize = 4;

    #[inline(always)]
    unsafe fn load_lanes(base: *const u8, offsets: [usize; 4]) -> Self {
        // SAFETY: the caller guarantees the four 16-byte ranges are readable,
        // and AVX-512 F.
        unsafe {
            let lane = |i: usize| _mm_loadu_si128(base.add(offsets[i]).cast());
            let x = _mm512_castsi128_si512(lane(0));
            let x = _mm512_inserti32x4::<1>(x, lane(1));
            let x = _mm512_inserti32x4::<2>(x, lane(2));
            _mm512_inserti32x4::<3>(x, lane(3))
        }
    }

    #[inline(always)]
    unsafe fn widen_u8(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees the 16 bytes are readable, and AVX-512 F.
        unsafe { _mm512_cvtepu8_epi32(_mm_loadu_si128(ptr.cast())) }
    }

    #[inline(always)]
    unsafe fn store(self, ptr: *mut u8) {
        // SAFETY: the caller guarantees the 64 bytes are writable, and AVX-512 F.
        unsafe { _mm512_storeu_si512(ptr.cast(), self) }
    }

    #[inline(always)]
    unsafe fn shuffle_lanes(self, mask: Self) -> Self {
        // SAFETY: the caller guarantees AVX-512 BW.
        unsafe { _mm512_shuffle_epi8(self, mask) }
    }

    #[inline(always)]
    unsafe fn add_sat_u8(self, k: u8) -> Self {
        // SAFETY: the caller guarantees AVX-512 BW.
        unsafe { _mm512_adds_epu8(self, _mm512_set1_epi8(k as i8)) }
    }

    #[inline(always)]
    unsafe fn prefix_sum_u32(self) -> Self {
        // SAFETY: the caller guarantees AVX-512 F.
        unsafe {
            // Shifted up by 1, 2, 4 and 8 elements, zeros shifted in.
            let zero = _mm512_setzero_si512();
            let x = _mm512_add_epi32(self, _mm512_alignr_epi32::<15>(self, zero));
            let x = _mm512_add_epi32(x, _mm512_alignr_epi32::<14>(x, zero));
            let x = _mm512_add_epi32(x, _mm512_alignr_epi32::<12>(x, zero));
            _mm512_add_epi32(x, _mm512_alignr_epi32::<8>(x, zero))
        }
    }

    #[inline(always)]
    unsafe fn add_u32(self, other: Self) -> Self {
        // SAFETY: the caller guarantees AVX-512 F.
        unsafe { _mm512_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn from_u128(x: u128) -> Self {
        let (lo, hi) = (x as i64, (x >> 64) as i64);
        // SAFETY: the caller guarantees AVX-512 F.
        unsafe { _mm512_set_epi64(0, 0, 0, 0, 0, 0, hi, lo) }
    }

    #[inline(always)]
    unsafe fn splat_u32(x: u32) -> Self {
        // SAFETY: the caller guarantees AVX-512 F.
        unsafe { _mm512_set1_epi32(x as i32) }
    }

    #[inline(always)]
    unsafe fn splat_last_u32(self) -> Self {
        // SAFETY: the caller guarantees AVX-512 F.
        unsafe { _mm512_permutexvar_epi32(_mm512_set1_epi32(15), self) }
    }

    #[inline(always)]
    unsafe fn last_u32(self) -> u32 {
        // SAFETY: the caller guarantees AVX-512 F.
        unsafe { _mm_extract_epi32::<3>(_mm512_extracti32x4_epi32::<3>(self)) as u32 }
    }
}
