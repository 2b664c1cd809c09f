//! The Varint-G8IU decoder for aarch64 with Neon (`tbl`, `vqtbl1q_u8`), at the `Neon`
//! level: [`super::generic`] compiled for `uint8x16_t`.

use core::arch::aarch64::uint8x16_t;

use super::generic::decode;

/// Decodes whole blocks from the start of `input`; returns (bytes consumed,
/// values produced).
///
/// # Safety
/// The CPU must have Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_bulk(input: &[u8], out: &mut [u32]) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `uint8x16_t`'s methods need.
    unsafe { decode::<uint8x16_t, false>(input, out, &mut 0) }
}

/// [`decode_bulk`] for gaps: writes their running sum from `*prev` and
/// leaves the last value written in `*prev`.
///
/// # Safety
/// The CPU must have Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_delta_bulk(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `uint8x16_t`'s methods need.
    unsafe { decode::<uint8x16_t, true>(input, out, prev) }
}
