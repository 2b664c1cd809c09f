//! The one-pass kernels of `generic.rs` on Neon registers.

use core::arch::aarch64::*;

use super::generic;

/// # Safety
/// The CPU must have Neon; `out` holds at least `rows.len()` bytes.
#[target_feature(enable = "neon")]
pub(super) unsafe fn rows_to_stream_neon(rows: &[u8], out: &mut [u8]) -> usize {
    // SAFETY: the caller's promises.
    unsafe { generic::rows_to_stream::<uint8x16_t>(rows, out) }
}

/// # Safety
/// As [`rows_to_stream_neon`].
#[target_feature(enable = "neon")]
pub(super) unsafe fn stream_to_rows_neon(stream: &[u8], rows: &mut [u8]) -> usize {
    // SAFETY: the caller's promises.
    unsafe { generic::stream_to_rows::<uint8x16_t>(stream, rows) }
}

/// # Safety
/// As [`rows_to_stream_neon`]; `K` is 2, 4 or 8.
#[target_feature(enable = "neon")]
pub(super) unsafe fn rows_to_values_neon<const K: usize>(rows: &[u8], out: &mut [u8]) -> usize {
    // SAFETY: the caller's promises.
    unsafe { generic::rows_to_values::<uint8x16_t, K>(rows, out) }
}

/// # Safety
/// As [`stream_to_rows_neon`]; `K` is 2, 4 or 8.
#[target_feature(enable = "neon")]
pub(super) unsafe fn values_to_rows_neon<const K: usize>(values: &[u8], rows: &mut [u8]) -> usize {
    // SAFETY: the caller's promises.
    unsafe { generic::values_to_rows::<uint8x16_t, K>(values, rows) }
}
