//! The SSE4.1 entry points of the search and summing kernels of
//! [`seek`](super), written once over `Vector`.
//!
//! The entry points here, in `avx2.rs` and in `neon.rs` are one-line
//! trampolines that differ only in their `#[target_feature]` list, which is
//! what compiles the generic code for each level, as memchr writes them; a
//! macro making them would hide that list and save no logic.

use core::arch::x86_64::*;

/// The summing of [`sum_values_with`](super::sum_values_with) on SSE4.1.
///
/// # Safety
/// The CPU must have SSE2, SSSE3 and SSE4.1; `control.len() >= n.div_ceil(4)`.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn sum_values(control: &[u8], n: usize, data: &[u8]) -> (usize, usize, u32) {
    // SAFETY: the caller's promises.
    unsafe { super::sum_values_with::<__m128i>(control, n, data, (0, 0)) }
}

/// The search of [`find_groups_with`](super::find_groups_with) on SSE4.1.
///
/// # Safety
/// The CPU must have SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn find_groups(
    control: &[u8],
    data: &[u8],
    acc: u32,
    target: u32,
) -> super::Found {
    // SAFETY: the CPU has SSE4.1 (the caller's promise).
    unsafe { super::find_groups_with::<__m128i>(control, data, acc, target) }
}
