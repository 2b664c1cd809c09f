//! The AVX-512 kernel (F, BW): four control bytes, sixteen values, a step,
//! their data loaded as four 16-byte lanes of one register for one
//! `vpshufb`; the rest goes through the AVX2 and 16-byte steps. See
//! [`generic`](super::generic).

use core::arch::x86_64::{__m128i, __m256i, __m512i, _mm512_loadu_si512};

use super::generic::{decode_groups, NoRuns, OneByteRuns};
use crate::simd::tiny_gaps::TinyGaps;
use crate::stream_vbyte::tables::Variant;

/// Decodes the whole groups of `control` (4 values a byte into `out`) that
/// the data allows; returns (control bytes, data bytes) consumed.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `control.len() == out.len().div_ceil(4)`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn decode<V: Variant, const DELTA: bool>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: the CPU has AVX-512 F and BW, AVX2 and SSE4.1; the caller
    // sizes `out`, and each call leaves `key <= control.len()`, `pos <= data.len()`.
    unsafe {
        let runs = TinyRuns(TinyGaps::new());
        let (key, pos) = decode_groups::<__m512i, V, DELTA>(control, data, out, 0, 0, prev, &runs);
        let (key, pos) =
            decode_groups::<__m256i, V, DELTA>(control, data, out, key, pos, prev, &NoRuns);
        decode_groups::<__m128i, V, DELTA>(control, data, out, key, pos, prev, &NoRuns)
    }
}

/// Runs of 64 one-byte gaps below 32 (16 zero control bytes): their prefix
/// sums in bytes within qwords ([`TinyGaps`]), half the shuffles of four
/// 16-value steps.
struct TinyRuns(TinyGaps);

impl OneByteRuns<__m512i> for TinyRuns {
    #[inline(always)]
    unsafe fn run(
        &self,
        control: &[u8],
        data: &[u8],
        out: *mut u8,
        mut key: usize,
        mut pos: usize,
        acc: &mut __m512i,
    ) -> (usize, usize) {
        while key + 16 <= control.len() && data.len() - pos >= 64 {
            let mut word = [0u8; 16];
            word.copy_from_slice(&control[key..key + 16]);
            if u128::from_le_bytes(word) != 0 {
                break;
            }
            // SAFETY: 64 readable bytes at `pos`; the CPU has the Avx512 level
            // (the caller's promise); 64 values from value 4 key are inside
            // `out` (key + 16 <= control.len()).
            unsafe {
                let window = _mm512_loadu_si512(data.as_ptr().add(pos).cast());
                if !self.0.fits(window) {
                    break;
                }
                *acc = self.0.decode(window, *acc, out.add(16 * key).cast());
            }
            key += 16;
            pos += 64;
        }
        (key, pos)
    }
}
