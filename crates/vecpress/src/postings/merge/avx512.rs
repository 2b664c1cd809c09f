//! The AVX-512 merges. The intersection: eight lanes still (256-bit
//! registers, with VL), the compares into a mask register and the found
//! lanes compressed by `vpcompressd` in a register, then stored whole (Zen 4
//! runs its memory form as microcode, far slower than the two). A CPU whose
//! profile says [`merge_in_vectors`](crate::tune::merge_in_vectors) runs
//! the AVX2 kernel at this level instead. The union: sixteen lanes, a
//! bitonic network.

use core::arch::x86_64::*;

use super::generic::{self, Eight};
use super::{Merged, scalar};

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
/// The CPU has every feature of `Isa::Avx512`; `kept <= i <= a.len() <=
/// out.len()`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn keep_common(
    a: &[u32],
    i: usize,
    out: &mut [u32],
    kept: usize,
    b: &[u32],
) -> Merged {
    // SAFETY: the caller's promises, passed on.
    unsafe { generic::keep_common::<Vl>(a, i, out, kept, b) }
}

/// [`union_after`](super::union_after) with AVX-512, for lists of 16
/// values or more: sixteen at a time while both lists have sixteen left,
/// then the scalar merge of the sixteen carried over and what is left.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn union(a: &[u32], b: &[u32], out: &mut Vec<u32>) {
    assert!(a.len() >= 16 && b.len() >= 16);
    let base = out.len();
    let last = out.last().copied();
    // Every store is of sixteen lanes, at most the values taken so far
    // less the sixteen carried, after `base`: within this.
    out.reserve(a.len() + b.len() + 16);
    let (mut i, mut j) = (16, 16);
    let mut carry = [0u32; 16];
    // SAFETY: AVX-512 is the caller's promise. Loads: sixteen values from
    // `a[i..]` or `b[j..]` only while `i + 16 <= a.len()` and
    // `j + 16 <= b.len()`, and the first sixteen of each (the assert).
    // Stores: sixteen lanes at `base + k`, where `k` is at most the values
    // emitted (`i + j - 16`, sixteen emitted a step, of which `k` counts
    // those kept), so below `a.len() + b.len()`, in the room reserved; `k`
    // values are written when the length is set to `base + k`.
    unsafe {
        let dst = out.as_mut_ptr().add(base);
        let (pa, pb) = (a.as_ptr(), b.as_ptr());
        let first = _mm512_loadu_si512(pa.cast());
        let (lo, mut hi) = merge16(first, _mm512_loadu_si512(pb.cast()));
        // The value "before" the first: the last in `out`, or its own,
        // changed, so that it is kept.
        let before = match last {
            Some(v) => _mm512_set1_epi32(v as i32),
            None => _mm512_xor_si512(
                _mm512_broadcastd_epi32(_mm512_castsi512_si128(lo)),
                _mm512_set1_epi32(1),
            ),
        };
        let mut k = emit(lo, before, dst);
        let mut prev = lo;
        while i + 16 <= a.len() && j + 16 <= b.len() {
            let take_a = *pa.add(i) < *pb.add(j);
            let src = if take_a { pa.add(i) } else { pb.add(j) };
            i += if take_a { 16 } else { 0 };
            j += if take_a { 0 } else { 16 };
            let lo;
            (lo, hi) = merge16(hi, _mm512_loadu_si512(src.cast()));
            k += emit(lo, prev, dst.add(k));
            prev = lo;
        }
        _mm512_storeu_si512(carry.as_mut_ptr().cast(), hi);
        out.set_len(base + k);
    }
    // The carried sixteen and what is left of each list, all above what
    // left: the carried with the list that ran short first (both short),
    // then with the other, each value once, none equal to the last out.
    let (ra, rb) = (&a[i..], &b[j..]);
    let (short, long) = if ra.len() < 16 { (ra, rb) } else { (rb, ra) };
    let mut head = [0u32; 32];
    let n = scalar::union_into(&carry, short, None, &mut head);
    scalar::union(&head[..n], long, out);
}

/// The sixteen least of `x` and `y` (each sorted), sorted, and the sixteen
/// greatest, sorted: `x` against `y` reversed is a bitonic sequence of 32,
/// whose half-cleaner leaves two bitonic halves, each sorted by four more.
#[inline(always)]
unsafe fn merge16(x: __m512i, y: __m512i) -> (__m512i, __m512i) {
    // SAFETY: register operations; AVX-512 F is the caller's promise.
    unsafe {
        let reversed = _mm512_permutexvar_epi32(
            _mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
            y,
        );
        let lo = _mm512_min_epu32(x, reversed);
        let hi = _mm512_max_epu32(x, reversed);
        (sort_bitonic(lo), sort_bitonic(hi))
    }
}

/// A bitonic sequence of sixteen, sorted: half-cleaners at distances 8, 4,
/// 2 and 1, each lane taking the minimum or maximum of itself and its
/// partner.
#[inline(always)]
unsafe fn sort_bitonic(v: __m512i) -> __m512i {
    // SAFETY: register operations; AVX-512 F is the caller's promise.
    unsafe {
        #[inline(always)]
        unsafe fn step(v: __m512i, partner: __m512i, upper: u16) -> __m512i {
            // SAFETY: as above.
            unsafe {
                _mm512_mask_blend_epi32(
                    upper,
                    _mm512_min_epu32(v, partner),
                    _mm512_max_epu32(v, partner),
                )
            }
        }
        let v = step(v, _mm512_shuffle_i32x4::<0x4E>(v, v), 0xFF00);
        let v = step(v, _mm512_shuffle_i32x4::<0xB1>(v, v), 0xF0F0);
        let v = step(v, _mm512_shuffle_epi32::<0x4E>(v), 0xCCCC);
        step(v, _mm512_shuffle_epi32::<0xB1>(v), 0xAAAA)
    }
}

/// Stores the lanes of `v` (sorted) that differ from the lane before them
/// (lane 0 from lane 15 of `before`) at `dst`, sixteen lanes written;
/// returns how many were kept.
#[inline(always)]
unsafe fn emit(v: __m512i, before: __m512i, dst: *mut u32) -> usize {
    // SAFETY: sixteen u32 at `dst` are writable and the CPU has AVX-512 F:
    // the caller's promise.
    unsafe {
        let shifted = _mm512_alignr_epi32::<15>(v, before);
        let keep = _mm512_cmpneq_epi32_mask(v, shifted);
        _mm512_storeu_si512(dst.cast(), _mm512_maskz_compress_epi32(keep, v));
        keep.count_ones() as usize
    }
}
