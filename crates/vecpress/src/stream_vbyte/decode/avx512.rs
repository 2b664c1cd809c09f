//! The AVX-512 kernel: the 16-byte steps of [`generic`](super::generic),
//! VEX-encoded, and, with delta coding, runs of 64 one-byte gaps below 32
//! decoded a whole 64-byte register at a time ([`TinyGaps`]), larger
//! one-byte gaps in 16-bit lanes ([`Sums16`]).
//!
//! Steps of four control bytes in one 64-byte register (four 16-byte loads
//! inserted, one `vpshufb`, a prefix sum across the register) measured
//! slower than 16-byte steps on every posting list (on Zen 4, where 512-bit
//! shuffles take two 256-bit halves, up to 20%); the dense runs are where
//! the wide register pays.

use core::arch::x86_64::{
    __m128i, _mm512_broadcast_i32x4, _mm512_castsi512_si128, _mm512_loadu_si512,
};

use super::generic::{decode_groups, OneByteRuns};
use super::sums16::Sums16;
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
    // sizes `out`.
    unsafe {
        let runs = TinyRuns(TinyGaps::new());
        decode_groups::<__m128i, V, DELTA>(control, data, out, 0, 0, prev, &runs)
    }
}

/// Runs of 64 one-byte gaps below 32 (16 zero control bytes): their prefix
/// sums in bytes within qwords ([`TinyGaps`]), half the shuffles of four
/// 16-value steps; runs of larger one-byte gaps go to [`Sums16`].
struct TinyRuns(TinyGaps);

impl OneByteRuns<__m128i> for TinyRuns {
    #[inline(always)]
    unsafe fn run(
        &self,
        control: &[u8],
        data: &[u8],
        out: *mut u8,
        mut key: usize,
        mut pos: usize,
        acc: &mut __m128i,
    ) -> (usize, usize) {
        let start = key;
        // SAFETY: the CPU has AVX-512 F (the caller's promise).
        let mut wide = unsafe { _mm512_broadcast_i32x4(*acc) };
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
                wide = self.0.decode(window, wide, out.add(16 * key).cast());
            }
            key += 16;
            pos += 64;
        }
        if key == start {
            // Gaps of 32 and more: summed in 16-bit lanes.
            // SAFETY: the caller's promises.
            return unsafe { Sums16.run(control, data, out, key, pos, acc) };
        }
        // SAFETY: as above; every lane of `wide` holds the last value.
        *acc = unsafe { _mm512_castsi512_si128(wide) };
        (key, pos)
    }
}
