//! The AVX-512 kernel (F, BW, VBMI2). Plain decoding: sixteen values a
//! step by one `vpexpandb` of the next 64 data bytes, no shuffle table (see
//! [`expand`]), the last 64 bytes by the 16-byte steps of
//! [`generic`](super::generic), VEX-encoded. Delta decoding: those 16-byte
//! steps throughout, runs of 64 one-byte gaps below 32 by the byte sums of
//! [`TinyGaps`], runs of larger one-byte gaps in 16-bit lanes ([`Sums16`]).
//!
//! Steps of four control bytes as four 16-byte lanes of one register (four
//! loads inserted, one `vpshufb` with four table rows) measured slower than
//! 16-byte steps on every posting list (on Zen 4, up to 20%).

use core::arch::x86_64::*;

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
    // SAFETY: the CPU has AVX-512 F, BW and VBMI2, AVX2 and SSE4.1; the
    // caller sizes `out`; `expand` leaves `key <= out.len() / 4` and
    // `pos <= data.len()`.
    unsafe {
        let (key, pos) = if DELTA {
            (0, 0)
        } else {
            expand::<V>(control, data, out)
        };
        let runs = TinyRuns(TinyGaps::new());
        decode_groups::<__m128i, V, DELTA>(control, data, out, key, pos, prev, &runs)
    }
}

/// Sixteen values a step while 64 data bytes remain: the data bytes of four
/// control bytes moved into their values' bytes by one `vpexpandb`, under a
/// mask of four table rows ([`Variant::EXPAND`]); the data consumed is the
/// mask's bit count. Returns the new `(key, pos)`.
///
/// Plain decoding only: with delta coding, the 16-lane prefix sum (two
/// cross-lane permutes, and one on the chain from step to step) made it
/// 0.55-0.85x the 16-byte steps on the long lists (AMD Zen 4).
///
/// # Safety
/// The CPU has AVX-512 F, BW and VBMI2; `control.len() == out.len().div_ceil(4)`.
#[inline(always)]
unsafe fn expand<V: Variant>(control: &[u8], data: &[u8], out: &mut [u32]) -> (usize, usize) {
    let keys = out.len() / 4;
    let (mut key, mut pos) = (0, 0);
    let out_ptr = out.as_mut_ptr();
    while key + 4 <= keys && data.len() - pos >= 64 {
        let mask = control[key..key + 4]
            .iter()
            .rev()
            .fold(0u64, |m, &c| m << 16 | u64::from(V::EXPAND[usize::from(c)]));
        // SAFETY: the CPU has the features (the caller's promise); the load
        // is of 64 bytes at `pos` with 64 remaining (the loop condition); the
        // store is of the 16 values of control bytes key..key + 4, whole
        // groups of `out`.
        unsafe {
            let bytes = _mm512_loadu_si512(data.as_ptr().add(pos).cast());
            let values = _mm512_maskz_expand_epi8(mask, bytes);
            _mm512_storeu_si512(out_ptr.add(4 * key).cast(), values);
        }
        pos += mask.count_ones() as usize;
        key += 4;
    }
    (key, pos)
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
