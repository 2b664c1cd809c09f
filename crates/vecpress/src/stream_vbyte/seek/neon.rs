//! The Neon entry points of the search and summing kernels of
//! [`seek`](super), written once over `Vector`.

use core::arch::aarch64::*;

/// The summing of [`sum_values_with`](super::sum_values_with) on Neon.
///
/// # Safety
/// The CPU must have Neon; `control.len() >= n.div_ceil(4)`.
#[target_feature(enable = "neon")]
pub(super) unsafe fn sum_values(control: &[u8], n: usize, data: &[u8]) -> (usize, usize, u32) {
    // SAFETY: the caller's promises.
    unsafe { super::sum_values_with::<uint8x16_t>(control, n, data, (0, 0)) }
}

/// The search of [`find_groups_with`](super::find_groups_with) on Neon.
///
/// # Safety
/// The CPU must have Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn find_groups(
    control: &[u8],
    data: &[u8],
    acc: u32,
    target: u32,
) -> super::Found {
    // SAFETY: the CPU has Neon (the caller's promise).
    unsafe { super::find_groups_with::<uint8x16_t>(control, data, acc, target) }
}
