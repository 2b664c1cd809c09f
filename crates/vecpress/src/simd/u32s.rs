//! Registers of u32 lanes for code written once over the x86 levels'
//! widths (4 lanes with SSE4.1, 8 with AVX2, 16 with AVX-512): the
//! FastLanes fused delta decoder's rows and tiles.
//!
//! A tile is transposed by rounds of interleaving: 32-bit elements of row
//! pairs, then 64-bit pairs, then (AVX-512) 128-bit chunks, as a register
//! transpose is done everywhere. AVX2 stores its two 128-bit halves where
//! they go instead of a third round (storing a high half takes no shuffle),
//! while AVX-512 keeps its two rounds of `vshufi32x4`, so that a register
//! leaves in one store rather than four. The shifts take their counts from
//! a register, which LLVM folds to immediates since the counts are
//! constants after inlining.

use core::arch::x86_64::*;

/// A register of [`U32s::N`] u32 with the operations code written once
/// over the levels' widths needs (the FastLanes fused delta decoder).
///
/// # Safety
/// Every method needs the CPU features of its implementation; callers are
/// `#[target_feature]` kernels that have them. Pointers must be valid for
/// the elements each method says it reads or writes.
pub(crate) trait U32s: Copy {
    /// u32 elements.
    const N: usize;
    /// `N` registers: a tile of `N` rows.
    type Tile: Copy + core::ops::IndexMut<usize, Output = Self>;
    /// A tile of zeros.
    unsafe fn tile() -> Self::Tile;
    /// All zeros.
    unsafe fn zero() -> Self;
    /// Reads `N` u32 (little-endian, unaligned) at `p`.
    unsafe fn load(p: *const u8) -> Self;
    /// Each element shifted right by `s` (< 32).
    unsafe fn shr(self, s: u32) -> Self;
    /// Each element shifted left by `s` (< 32).
    unsafe fn shl(self, s: u32) -> Self;
    /// Each element and `m`.
    unsafe fn and(self, m: u32) -> Self;
    /// Bitwise or.
    unsafe fn or(self, other: Self) -> Self;
    /// Element-wise wrapping addition.
    unsafe fn add(self, other: Self) -> Self;
    /// Writes element `j` of `tile[r]` to `out[j stride + r]`, for `r` and
    /// `j` below `N`.
    unsafe fn store_transposed(tile: &Self::Tile, out: *mut u32, stride: usize);
}

impl U32s for __m128i {
    const N: usize = 4;
    type Tile = [Self; 4];
    #[inline(always)]
    unsafe fn tile() -> Self::Tile {
        // SAFETY: SSE2, part of the x86-64 baseline.
        [unsafe { _mm_setzero_si128() }; 4]
    }
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: as above.
        unsafe { _mm_setzero_si128() }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller's range; an unaligned load.
        unsafe { _mm_loadu_si128(p.cast()) }
    }
    #[inline(always)]
    unsafe fn shr(self, s: u32) -> Self {
        // SAFETY: SSE2.
        unsafe { _mm_srl_epi32(self, _mm_cvtsi32_si128(s as i32)) }
    }
    #[inline(always)]
    unsafe fn shl(self, s: u32) -> Self {
        // SAFETY: SSE2.
        unsafe { _mm_sll_epi32(self, _mm_cvtsi32_si128(s as i32)) }
    }
    #[inline(always)]
    unsafe fn and(self, m: u32) -> Self {
        // SAFETY: SSE2.
        unsafe { _mm_and_si128(self, _mm_set1_epi32(m as i32)) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: SSE2.
        unsafe { _mm_or_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: SSE2.
        unsafe { _mm_add_epi32(self, other) }
    }
    #[inline(always)]
    unsafe fn store_transposed(t: &Self::Tile, out: *mut u32, stride: usize) {
        // SAFETY: SSE2; the caller's range covers `out[j stride + r]` for
        // `j, r < 4`, each store's 4 values.
        unsafe {
            let (a, b) = (
                _mm_unpacklo_epi32(t[0], t[1]),
                _mm_unpackhi_epi32(t[0], t[1]),
            );
            let (c, d) = (
                _mm_unpacklo_epi32(t[2], t[3]),
                _mm_unpackhi_epi32(t[2], t[3]),
            );
            _mm_storeu_si128(out.cast(), _mm_unpacklo_epi64(a, c));
            _mm_storeu_si128(out.add(stride).cast(), _mm_unpackhi_epi64(a, c));
            _mm_storeu_si128(out.add(2 * stride).cast(), _mm_unpacklo_epi64(b, d));
            _mm_storeu_si128(out.add(3 * stride).cast(), _mm_unpackhi_epi64(b, d));
        }
    }
}

impl U32s for __m256i {
    const N: usize = 8;
    type Tile = [Self; 8];
    #[inline(always)]
    unsafe fn tile() -> Self::Tile {
        // SAFETY: AVX, which the caller has.
        [unsafe { _mm256_setzero_si256() }; 8]
    }
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: AVX.
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller's range; an unaligned load.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline(always)]
    unsafe fn shr(self, s: u32) -> Self {
        // SAFETY: AVX2.
        unsafe { _mm256_srl_epi32(self, _mm_cvtsi32_si128(s as i32)) }
    }
    #[inline(always)]
    unsafe fn shl(self, s: u32) -> Self {
        // SAFETY: AVX2.
        unsafe { _mm256_sll_epi32(self, _mm_cvtsi32_si128(s as i32)) }
    }
    #[inline(always)]
    unsafe fn and(self, m: u32) -> Self {
        // SAFETY: AVX2.
        unsafe { _mm256_and_si256(self, _mm256_set1_epi32(m as i32)) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: AVX2.
        unsafe { _mm256_or_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX2.
        unsafe { _mm256_add_epi32(self, other) }
    }
    #[inline(always)]
    unsafe fn store_transposed(t: &Self::Tile, out: *mut u32, stride: usize) {
        // SAFETY: AVX2; the caller's range covers `out[j stride + r]` for
        // `j, r < 8`, each store's 8 values.
        unsafe {
            // Within each 128-bit half: rows 0..4 and 4..8 of lanes j, j + 4.
            let mut q = [[_mm256_setzero_si256(); 4]; 2];
            for (h, q) in q.iter_mut().enumerate() {
                let t = &t[4 * h..];
                let (a, b) = (
                    _mm256_unpacklo_epi32(t[0], t[1]),
                    _mm256_unpackhi_epi32(t[0], t[1]),
                );
                let (c, d) = (
                    _mm256_unpacklo_epi32(t[2], t[3]),
                    _mm256_unpackhi_epi32(t[2], t[3]),
                );
                *q = [
                    _mm256_unpacklo_epi64(a, c),
                    _mm256_unpackhi_epi64(a, c),
                    _mm256_unpacklo_epi64(b, d),
                    _mm256_unpackhi_epi64(b, d),
                ];
            }
            // Each half is 4 rows of one lane: stored where they go, with
            // no lane-crossing shuffle.
            for (h, q) in q.iter().enumerate() {
                for (j, &v) in q.iter().enumerate() {
                    let at = out.add(j * stride + 4 * h);
                    _mm_storeu_si128(at.cast(), _mm256_castsi256_si128(v));
                    _mm_storeu_si128(at.add(4 * stride).cast(), _mm256_extracti128_si256::<1>(v));
                }
            }
        }
    }
}

impl U32s for __m512i {
    const N: usize = 16;
    type Tile = [Self; 16];
    #[inline(always)]
    unsafe fn tile() -> Self::Tile {
        // SAFETY: AVX-512F, which the caller has.
        [unsafe { _mm512_setzero_si512() }; 16]
    }
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: AVX-512F.
        unsafe { _mm512_setzero_si512() }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller's range; an unaligned load.
        unsafe { _mm512_loadu_si512(p.cast()) }
    }
    #[inline(always)]
    unsafe fn shr(self, s: u32) -> Self {
        // SAFETY: AVX-512F.
        unsafe { _mm512_srl_epi32(self, _mm_cvtsi32_si128(s as i32)) }
    }
    #[inline(always)]
    unsafe fn shl(self, s: u32) -> Self {
        // SAFETY: AVX-512F.
        unsafe { _mm512_sll_epi32(self, _mm_cvtsi32_si128(s as i32)) }
    }
    #[inline(always)]
    unsafe fn and(self, m: u32) -> Self {
        // SAFETY: AVX-512F.
        unsafe { _mm512_and_si512(self, _mm512_set1_epi32(m as i32)) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: AVX-512F.
        unsafe { _mm512_or_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX-512F.
        unsafe { _mm512_add_epi32(self, other) }
    }
    #[inline(always)]
    unsafe fn store_transposed(t: &Self::Tile, out: *mut u32, stride: usize) {
        // SAFETY: AVX-512F; the caller's range covers `out[j stride + r]`
        // for `j, r < 16`, each store's 16 values.
        unsafe {
            // q[g][k], 128-bit chunk c: rows 4g .. 4g + 4 of lane 4c + k.
            let mut q = [[_mm512_setzero_si512(); 4]; 4];
            for (g, q) in q.iter_mut().enumerate() {
                let t = &t[4 * g..];
                let (a, b) = (
                    _mm512_unpacklo_epi32(t[0], t[1]),
                    _mm512_unpackhi_epi32(t[0], t[1]),
                );
                let (c, d) = (
                    _mm512_unpacklo_epi32(t[2], t[3]),
                    _mm512_unpackhi_epi32(t[2], t[3]),
                );
                *q = [
                    _mm512_unpacklo_epi64(a, c),
                    _mm512_unpackhi_epi64(a, c),
                    _mm512_unpacklo_epi64(b, d),
                    _mm512_unpackhi_epi64(b, d),
                ];
            }
            // For each k, the 4 x 4 transpose of 128-bit chunks of q[0..4][k].
            #[allow(clippy::needless_range_loop)] // k indexes four rows of q
            for k in 0..4 {
                let s0 = _mm512_shuffle_i32x4::<0b01_00_01_00>(q[0][k], q[1][k]);
                let s1 = _mm512_shuffle_i32x4::<0b11_10_11_10>(q[0][k], q[1][k]);
                let s2 = _mm512_shuffle_i32x4::<0b01_00_01_00>(q[2][k], q[3][k]);
                let s3 = _mm512_shuffle_i32x4::<0b11_10_11_10>(q[2][k], q[3][k]);
                let lanes = [
                    _mm512_shuffle_i32x4::<0b10_00_10_00>(s0, s2),
                    _mm512_shuffle_i32x4::<0b11_01_11_01>(s0, s2),
                    _mm512_shuffle_i32x4::<0b10_00_10_00>(s1, s3),
                    _mm512_shuffle_i32x4::<0b11_01_11_01>(s1, s3),
                ];
                for (c, &v) in lanes.iter().enumerate() {
                    _mm512_storeu_si512(out.add((4 * c + k) * stride).cast(), v);
                }
            }
        }
    }
}
