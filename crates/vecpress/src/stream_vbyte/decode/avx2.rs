//! The AVX2 kernel: two control bytes, eight values, a step, their data
//! loaded as two 16-byte lanes of one register for one `vpshufb`; the last
//! odd control byte goes through the 16-byte step. See
//! [`generic`](super::generic); delta-coded runs of one-byte gaps are
//! summed in 16-bit lanes ([`sums16`](super::sums16)).

use core::arch::x86_64::{__m128i, __m256i};

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
    unsafe {
        let (key, pos) =
            decode_groups::<__m256i, V, DELTA>(control, data, out, 0, 0, prev, &Sums16);
        decode_groups::<__m128i, V, DELTA>(control, data, out, key, pos, prev, &Sums16)
    }
}
