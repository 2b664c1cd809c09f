//! The SSE4.1 kernel: [`super::generic`] on `__m128i` (`pshufb`, `paddq`).

use core::arch::x86_64::*;

use super::generic::{self, Pairs};
use super::tables::{PAIR_LENGTHS, PAIR_SHUFFLE};

/// Decodes whole control bytes while 32 data bytes remain; returns (data
/// bytes consumed, values produced). With `prev`, writes the running sum
/// from `*prev` and leaves the last value in it.
///
/// # Safety
/// The CPU must have SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn decode_bulk(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: Option<&mut u64>,
) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `__m128i` needs.
    unsafe {
        generic::decode_bulk::<Pairs<__m128i>>(
            (&PAIR_LENGTHS, &PAIR_SHUFFLE),
            ctrl,
            data,
            out,
            prev,
        )
    }
}
