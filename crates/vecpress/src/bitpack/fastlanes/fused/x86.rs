//! The fused delta decoder's registers on x86-64 (4 lanes with SSE4.1, 8
//! with AVX2, 16 with AVX-512) and its entry points, one a level and width.
//!
//! A tile is transposed by rounds of interleaving: 32-bit elements of row
//! pairs, then 64-bit pairs, then (AVX-512) 128-bit chunks, as a register
//! transpose is done everywhere. AVX2 stores its two 128-bit halves where
//! they go instead of a third round (storing a high half takes no shuffle),
//! while AVX-512 keeps its two rounds of `vshufi32x4`, so that a register
//! leaves in one store rather than four. The shifts take
//! their counts from a register, which LLVM folds to immediates since the
//! counts are constants after inlining.

use core::arch::x86_64::*;

use super::{LANES, Reg, fused};
use crate::Isa;

/// A fused kernel: `(input, bases, out)`, `input` readable for `128 W`
/// bytes.
pub(super) type Kernel = unsafe fn(*const u8, &[u32; LANES], &mut [u32; 1024]);

impl Reg for __m128i {
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

impl Reg for __m256i {
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

impl Reg for __m512i {
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

/// Entry points of one level: the generic decoder under its features.
macro_rules! level {
    ($name:ident, $reg:ty, $features:literal) => {
        /// # Safety
        /// The CPU has the level's features; `input` is readable for
        /// `128 W` bytes.
        #[target_feature(enable = $features)]
        unsafe fn $name<const W: usize>(
            input: *const u8,
            bases: &[u32; LANES],
            out: &mut [u32; 1024],
        ) {
            // SAFETY: the caller's features and input; `out` holds 1024.
            unsafe { fused::<$reg, W>(input, bases, out.as_mut_ptr()) }
        }
    };
}

level!(sse41, __m128i, "sse2,ssse3,sse4.1");
level!(avx2, __m256i, "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt");
level!(
    avx512,
    __m512i,
    "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
);

/// `$level::<w>` for the width `$w` (at most 32).
macro_rules! pick {
    ($level:ident, $w:expr; $($n:literal)*) => {
        match $w {
            $($n => $level::<$n> as Kernel,)*
            _ => unreachable!("the width is checked before a kernel runs"),
        }
    };
}

/// The fused kernel of `isa` at width `w` (at most 32), if the level has
/// one.
pub(super) fn kernel(isa: Isa, w: usize) -> Option<Kernel> {
    macro_rules! widths {
        ($level:ident) => {
            pick!($level, w; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
                25 26 27 28 29 30 31 32)
        };
    }
    match isa {
        Isa::Sse41 => Some(widths!(sse41)),
        Isa::Avx2 => Some(widths!(avx2)),
        Isa::Avx512 => Some(widths!(avx512)),
        _ => None,
    }
}
