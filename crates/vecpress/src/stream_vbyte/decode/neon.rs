//! The Neon kernel (`tbl`): one control byte, four values, a step; see
//! [`generic`](super::generic).

use core::arch::aarch64::uint8x16_t;

use super::generic::{NoRuns, decode_groups};
use crate::stream_vbyte::tables::Variant;

/// Decodes the whole groups of `control` (4 values a byte into `out`) that
/// the data allows; returns (control bytes, data bytes) consumed.
///
/// # Safety
/// The CPU has Neon; `control.len() == out.len().div_ceil(4)`.
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode<V: Variant, const DELTA: bool>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: the CPU has Neon; the caller sizes `out`.
    unsafe { decode_groups::<uint8x16_t, V, DELTA>(control, data, out, 0, 0, prev, &NoRuns) }
}
