//! Prefix sums of decoded gaps (delta coding) in 512-bit registers.
#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::consts::Consts;
use super::{LANES, LOW_BYTES};

/// Prefix sum of the 16 lanes of `x`.
///
/// Pairs first, with a 64-bit shift (port 0, not the shuffle port), then the
/// last lane of each pair, quad and octet is added to the next one (three
/// shuffles where the textbook log-step scan needs four).
///
/// # Safety
/// The CPU must have AVX-512F.
#[inline(always)]
pub(super) unsafe fn prefix_sum(c: &Consts, x: __m512i) -> __m512i {
    // SAFETY: register-only intrinsics; AVX-512F per the caller.
    unsafe {
        let x = _mm512_add_epi32(x, _mm512_slli_epi64::<32>(x));
        let x = _mm512_mask_add_epi32(x, c.masks[0], x, _mm512_shuffle_epi32::<0x55>(x));
        let x = _mm512_mask_add_epi32(x, c.masks[1], x, _mm512_permutexvar_epi32(c.quads, x));
        _mm512_mask_add_epi32(x, c.masks[2], x, _mm512_permutexvar_epi32(c.lane7, x))
    }
}

/// Turns the `n` gaps in lanes 0..n of `x` into values: their prefix sum plus
/// `acc` (the previous value in every lane), and adds the sum of the `n` gaps
/// to `acc`. The loop-carried chain is one add: the sums and broadcasts of
/// successive steps run in parallel.
///
/// # Safety
/// The CPU must have AVX-512F; `1 <= n <= 16`.
#[inline(always)]
pub(super) unsafe fn accumulate(c: &Consts, x: __m512i, acc: &mut __m512i, n: usize) -> __m512i {
    // SAFETY: register-only intrinsics; AVX-512F per the caller.
    unsafe {
        let local = prefix_sum(c, x);
        let last = if n == LANES {
            c.lane15
        } else {
            _mm512_set1_epi32(n as i32 - 1)
        };
        let total = _mm512_permutexvar_epi32(last, local);
        let values = _mm512_add_epi32(local, *acc);
        *acc = _mm512_add_epi32(*acc, total);
        values
    }
}

/// 64 one-byte gaps, each below 32, at `dst` as values: their running sum
/// from `acc` (the previous value in every lane). Returns the new `acc`.
///
/// Within each qword the eight byte-wide prefix sums cannot overflow (8 x 31
/// < 256), so three shift-and-add steps on port 0 compute them for all 64
/// bytes at once; the qword totals get a prefix sum of their own, added to
/// each 16-value block with one `vpermd`. About 12 shuffles for 64 values
/// where the general path needs 20.
///
/// # Safety
/// The CPU must have the Avx512 level's features; `dst` must be valid for
/// writing 64 u32.
#[inline(always)]
pub(super) unsafe fn tiny_gaps(
    c: &Consts,
    window: __m512i,
    acc: __m512i,
    dst: *mut u32,
) -> __m512i {
    // SAFETY: register-only intrinsics and four 64-byte stores inside `dst`'s
    // 64 values; the features are the caller's promise.
    unsafe {
        let x = _mm512_add_epi8(window, _mm512_slli_epi64::<8>(window));
        let x = _mm512_add_epi8(x, _mm512_slli_epi64::<16>(x));
        let x = _mm512_add_epi8(x, _mm512_slli_epi64::<32>(x));
        // Qword totals, then their inclusive prefix sum over the 8 qwords.
        let totals = _mm512_srli_epi64::<56>(x);
        let s = _mm512_add_epi64(
            totals,
            _mm512_maskz_permutexvar_epi64(c.qword_masks[0], c.qword_shifts[0], totals),
        );
        let s = _mm512_add_epi64(
            s,
            _mm512_maskz_permutexvar_epi64(c.qword_masks[1], c.qword_shifts[1], s),
        );
        let s = _mm512_add_epi64(
            s,
            _mm512_maskz_permutexvar_epi64(c.qword_masks[2], c.qword_shifts[2], s),
        );
        // What comes before each qword, plus the value before the window.
        let before = _mm512_add_epi32(_mm512_sub_epi64(s, totals), acc);
        for q in 0..4 {
            let v = _mm512_maskz_permutexvar_epi8(LOW_BYTES, c.low_bytes[q], x);
            let v = _mm512_add_epi32(v, _mm512_permutexvar_epi32(c.qword_carries[q], before));
            _mm512_storeu_si512(dst.add(LANES * q).cast(), v);
        }
        _mm512_add_epi32(acc, _mm512_permutexvar_epi32(c.lane14, s))
    }
}
