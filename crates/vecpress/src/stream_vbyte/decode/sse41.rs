//! The SSSE3 kernel (`pshufb`), as the paper's Fig. 4, at the `Sse41` level:
//! one control byte, four values, a step; see [`generic`](super::generic).
//! Delta-coded runs of one-byte gaps are summed in 16-bit lanes
//! ([`sums16`](super::sums16)).

use core::arch::x86_64::__m128i;

use super::generic::decode_groups;
use super::sums16::Sums16;
use crate::stream_vbyte::tables::Variant;

/// Decodes the whole groups of `control` (4 values a byte into `out`) that
/// the data allows; returns (control bytes, data bytes) consumed.
///
/// # Safety
/// The CPU has every feature of `Isa::Sse41`; `control.len() == out.len().div_ceil(4)`.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn decode<V: Variant, const DELTA: bool>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: the CPU has SSSE3 and SSE4.1; the caller sizes `out`.
    unsafe { decode_groups::<__m128i, V, DELTA>(control, data, out, 0, 0, prev, &Sums16) }
}

/// The short-stream kernel ([`generic::short_delta`](super::generic::short_delta))
/// at the SSE4.1 level, which the AVX2 level runs too: a short stream
/// takes a few 16-byte steps, where the AVX2 kernel's pairs of groups and
/// their set-up would cost more than they save.
///
/// # Safety
/// The CPU has every feature of `Isa::Sse41`; `n <= out.len()`;
/// `control.len() >= n.div_ceil(4)`.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn short_delta<V: Variant>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    n: usize,
    prev: u32,
) -> Option<(usize, u32)> {
    // SAFETY: the CPU has SSSE3 and SSE4.1; the caller's promises.
    unsafe { super::generic::short_delta::<__m128i, V>(control, data, out, n, prev) }
}

/// [`short_lists`](super::generic::short_lists) with the 16-byte
/// short-stream kernel, at the SSE4.1 and AVX2 levels.
///
/// # Safety
/// The CPU has every feature of `Isa::Sse41`.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn short_lists_delta<V: Variant>(
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut [u32],
) -> (usize, usize) {
    super::generic::short_lists(bytes, lists, out, |control, data, out, n| {
        // SAFETY: the CPU has SSSE3 and SSE4.1 (the caller's promise);
        // `control` holds a byte per four values of the list, `out` `n`
        // values at least (as `short_lists` checks).
        unsafe { super::generic::short_delta::<__m128i, V>(control, data, out, n, 0) }
    })
}
