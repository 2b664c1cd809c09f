//! The AVX2 entry points of the search and summing kernels of
//! [`seek`](super): the SSE4.1 code, VEX-encoded (as `sse41.rs`, a
//! trampoline each).

use core::arch::x86_64::*;

/// The summing of [`sum_values_with`](super::sum_values_with), VEX-encoded.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`; `control.len() >= n.div_ceil(4)`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn sum_values(control: &[u8], n: usize, data: &[u8]) -> (usize, usize, u32) {
    // SAFETY: the caller's promises.
    unsafe { super::sum_values_with::<__m128i>(control, n, data, (0, 0)) }
}

/// The search of [`find_groups_with`](super::find_groups_with), VEX-encoded.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn find_groups(
    control: &[u8],
    data: &[u8],
    acc: u32,
    target: u32,
) -> super::Found {
    // SAFETY: the CPU has AVX2 (the caller's promise).
    unsafe { super::find_groups_with::<__m128i>(control, data, acc, target) }
}
