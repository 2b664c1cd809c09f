//! Prefix sums of decoded gaps (delta coding) in 512-bit registers.
#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::LANES;
use super::consts::Consts;

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
