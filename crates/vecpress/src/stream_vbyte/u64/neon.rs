//! The Neon kernel: [`super::generic`] on `uint8x16_t` (`tbl`, `add`).

use core::arch::aarch64::*;

use super::generic::{self, Pairs};
use super::tables::{PAIR_LENGTHS, PAIR_SHUFFLE};

/// Decodes whole control bytes while 32 data bytes remain; returns (data
/// bytes consumed, values produced). With `prev`, writes the running sum
/// from `*prev` and leaves the last value in it.
///
/// # Safety
/// The CPU must have Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_bulk(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: Option<&mut u64>,
) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `uint8x16_t` needs.
    unsafe {
        generic::decode_bulk::<Pairs<uint8x16_t>>(
            (&PAIR_LENGTHS, &PAIR_SHUFFLE),
            ctrl,
            data,
            out,
            prev,
        )
    }
}
