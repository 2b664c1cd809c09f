//! The AVX2 merge: compares by `vpcmpeqd` with broadcast values, the found
//! lanes compressed by a `vpermd` whose indices come from a table of the
//! 256 masks ([`compress8`]).

use core::arch::x86_64::*;

use super::generic::{self, Eight};
use super::{Merged, scalar};
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

/// [`union_after`](super::union_after) with AVX2: eight at a time while
/// both lists have eight left (as the AVX-512 kernel's sixteen), then the
/// scalar merge of the eight carried over and what is left. Called for
/// lists of sixteen values or more: on shorter ones the scalar merge is
/// as fast.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn union(a: &[u32], b: &[u32], out: &mut Vec<u32>) {
    assert!(a.len() >= 8 && b.len() >= 8);
    let base = out.len();
    let last = out.last().copied();
    // Every store is of eight lanes, at most the values taken so far less
    // the eight carried, after `base`: within this.
    out.reserve(a.len() + b.len() + 8);
    let (mut i, mut j) = (8, 8);
    let mut carry = [0u32; 8];
    // SAFETY: AVX2 is the caller's promise. Loads: eight values from
    // `a[i..]` or `b[j..]` only while `i + 8 <= a.len()` and `j + 8 <=
    // b.len()`, and the first eight of each (the assert). Stores: eight
    // lanes at `base + k`, where `k` is at most the values emitted (`i + j
    // - 8`, eight emitted a step, of which `k` counts those kept), so below
    // `a.len() + b.len()`, in the room reserved; `k` values are written
    // when the length is set to `base + k`.
    unsafe {
        let dst = out.as_mut_ptr().add(base);
        let (pa, pb) = (a.as_ptr(), b.as_ptr());
        let first = _mm256_loadu_si256(pa.cast());
        let (lo, mut hi) = merge8(first, _mm256_loadu_si256(pb.cast()));
        // The value "before" the first: the last in `out`, or its own,
        // changed, so that it is kept.
        let before = match last {
            Some(v) => _mm256_set1_epi32(v as i32),
            None => _mm256_xor_si256(
                _mm256_broadcastd_epi32(_mm256_castsi256_si128(lo)),
                _mm256_set1_epi32(1),
            ),
        };
        let mut k = emit(lo, before, dst);
        let mut prev = lo;
        while i + 8 <= a.len() && j + 8 <= b.len() {
            let take_a = *pa.add(i) < *pb.add(j);
            let src = if take_a { pa.add(i) } else { pb.add(j) };
            i += if take_a { 8 } else { 0 };
            j += if take_a { 0 } else { 8 };
            let lo;
            (lo, hi) = merge8(hi, _mm256_loadu_si256(src.cast()));
            k += emit(lo, prev, dst.add(k));
            prev = lo;
        }
        _mm256_storeu_si256(carry.as_mut_ptr().cast(), hi);
        out.set_len(base + k);
    }
    // The carried eight and what is left of each list, all above what
    // left: the carried with the list that ran short first (both short),
    // then with the other, each value once, none equal to the last out.
    let (ra, rb) = (&a[i..], &b[j..]);
    let (short, long) = if ra.len() < 8 { (ra, rb) } else { (rb, ra) };
    let mut head = [0u32; 16];
    let n = scalar::union_into(&carry, short, None, &mut head);
    scalar::union(&head[..n], long, out);
}

/// The eight least of `x` and `y` (each sorted), sorted, and the eight
/// greatest, sorted: `x` against `y` reversed is a bitonic sequence of
/// sixteen, whose half-cleaner leaves two bitonic halves, each sorted by
/// three more.
#[inline(always)]
unsafe fn merge8(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    // SAFETY: register operations; AVX2 is the caller's promise.
    unsafe {
        let reversed = _mm256_permutevar8x32_epi32(y, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
        let lo = _mm256_min_epu32(x, reversed);
        let hi = _mm256_max_epu32(x, reversed);
        (sort_bitonic(lo), sort_bitonic(hi))
    }
}

/// A bitonic sequence of eight, sorted: half-cleaners at distances 4, 2
/// and 1, each lane taking the minimum or maximum of itself and its
/// partner.
#[inline(always)]
unsafe fn sort_bitonic(v: __m256i) -> __m256i {
    // SAFETY: register operations; AVX2 is the caller's promise.
    unsafe {
        let p = _mm256_permute2x128_si256::<0x01>(v, v);
        let v = _mm256_blend_epi32::<0xF0>(_mm256_min_epu32(v, p), _mm256_max_epu32(v, p));
        let p = _mm256_shuffle_epi32::<0x4E>(v);
        let v = _mm256_blend_epi32::<0xCC>(_mm256_min_epu32(v, p), _mm256_max_epu32(v, p));
        let p = _mm256_shuffle_epi32::<0xB1>(v);
        _mm256_blend_epi32::<0xAA>(_mm256_min_epu32(v, p), _mm256_max_epu32(v, p))
    }
}

/// Stores the lanes of `v` (sorted) that differ from the lane before them
/// (lane 0 from lane 7 of `before`) at `dst`, eight lanes written; returns
/// how many were kept.
#[inline(always)]
unsafe fn emit(v: __m256i, before: __m256i, dst: *mut u32) -> usize {
    // SAFETY: eight u32 at `dst` are writable and the CPU has AVX2: the
    // caller's promise.
    unsafe {
        let up = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
        let shifted = _mm256_blend_epi32::<0x01>(
            _mm256_permutevar8x32_epi32(v, up),
            _mm256_permutevar8x32_epi32(before, up),
        );
        let same = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, shifted)));
        let keep = !same as u32 & 0xff;
        _mm256_storeu_si256(dst.cast(), compress8(v, keep));
        keep.count_ones() as usize
    }
}
