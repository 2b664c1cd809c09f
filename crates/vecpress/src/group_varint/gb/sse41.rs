//! The Varint-GB decoder for x86-64 with SSSE3 (`pshufb`), at the `Sse41`
//! level: [`super::generic`] compiled for `__m128i`.

use core::arch::x86_64::__m128i;

use super::generic::decode;

/// Decodes whole groups from the start of `input`; returns (bytes consumed,
/// values produced).
///
/// # Safety
/// The CPU must have SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn decode_bulk(input: &[u8], out: &mut [u32]) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `__m128i`'s methods need.
    unsafe { decode::<__m128i, false>(input, out, &mut 0) }
}

/// [`decode_bulk`] for gaps: writes their running sum from `*prev` and
/// leaves the last value written in `*prev`.
///
/// # Safety
/// The CPU must have SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn decode_delta_bulk(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `__m128i`'s methods need.
    unsafe { decode::<__m128i, true>(input, out, prev) }
}
