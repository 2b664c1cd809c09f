//! SIMD-BP128 at the Neon level: the running sum of a block of gaps, four
//! values a vector. Blocks unpack with the baseline kernel, which four
//! lanes in one 128-bit register already are on aarch64.

use core::arch::aarch64::uint8x16_t;

/// The running sum of `out` in place from `initial`, four values a vector.
///
/// # Safety
/// The CPU has Neon; `out.len()` is a multiple of 4.
#[target_feature(enable = "neon")]
pub(super) unsafe fn running_sum(out: &mut [u32], initial: u32) {
    // SAFETY: the features `uint8x16_t`'s `Vector` methods need.
    unsafe { super::kernels::running_sum_in::<uint8x16_t>(out, initial) }
}
