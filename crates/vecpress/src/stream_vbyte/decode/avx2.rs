//! The AVX2 kernel: the 16-byte steps of [`generic`](super::generic),
//! VEX-encoded (three-operand forms, no register copies); delta-coded runs
//! of one-byte gaps are summed in 16-bit lanes ([`sums16`](super::sums16)).
//!
//! Steps of two control bytes in 32-byte registers (two 16-byte loads, an
//! insert, a prefix sum across the halves) measured slower than these on
//! the posting lists (AMD Zen 4: about 0.9x as fast on census): decoding is
//! bound by shuffles and loads, which the wider register does not save. So
//! this kernel runs the SSE4.1 algorithm, and gains only what the VEX
//! encoding gives (1.0-1.12x the SSE4.1 kernel).

use core::arch::x86_64::__m128i;

use super::generic::decode_groups;
use super::sums16::Sums16;
use crate::stream_vbyte::tables::Variant;

/// Decodes the whole groups of `control` (4 values a byte into `out`) that
/// the data allows; returns (control bytes, data bytes) consumed.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`; `control.len() == out.len().div_ceil(4)`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn decode<V: Variant, const DELTA: bool>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: the CPU has AVX2 (and SSE4.1); the caller sizes `out`, and
    // each call leaves `key <= control.len()`, `pos <= data.len()`.
    unsafe { decode_groups::<__m128i, V, DELTA>(control, data, out, 0, 0, prev, &Sums16) }
}
