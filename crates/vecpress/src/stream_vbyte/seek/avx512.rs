//! The AVX-512 summing of [`seek`](super): sixteen values a step by one
//! `vpexpandb`, as plain decoding takes them. It stays outside the `Vector`
//! trait because its step is a 64-byte `vpexpandb` under a mask of four
//! control bytes, which no other level has.

use core::arch::x86_64::*;

use crate::simd::x86::expand_bytes;
use crate::stream_vbyte::tables::{Codes1234, expand_mask};

/// The summing of [`sum_values`](super::sum_values) at the AVX-512 level:
/// four groups of one-byte values by their byte sums (`psadbw`), as
/// [`sum_values_with`](super::sum_values_with) does; other runs of four
/// groups while 64 data bytes remain by their bytes moved into
/// their sixteen values by one `vpexpandb` under a mask of four `EXPAND`
/// rows (as plain decoding does, `decode/avx512.rs`) and added into one
/// accumulator; the data consumed is the mask's bit count, which depends on
/// the control bytes alone, so no step waits on the one before. The rest
/// as [`sum_values_with`](super::sum_values_with), VEX-encoded.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `control.len() >= n.div_ceil(4)`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn sum_values(control: &[u8], n: usize, data: &[u8]) -> (usize, usize, u32) {
    let whole = n / 4;
    let (mut g, mut pos) = (0, 0);
    let mut acc = _mm512_setzero_si512();
    // Byte sums (u64 lanes) of four groups of one-byte values at a time.
    let mut ones = _mm_setzero_si128();
    let mut expanded = false;
    while g + 4 <= whole {
        let k: [u8; 4] = control[g..g + 4].try_into().expect("4 bytes");
        if k == [0; 4] && data.len() - pos >= 16 {
            // SAFETY: 16 bytes remain at `pos`; the CPU has SSE2.
            ones = unsafe {
                let bytes = _mm_loadu_si128(data.as_ptr().add(pos).cast());
                _mm_add_epi64(ones, _mm_sad_epu8(bytes, _mm_setzero_si128()))
            };
            pos += 16;
            g += 4;
            continue;
        }
        if data.len() - pos < 64 {
            break;
        }
        let mask = expand_mask::<Codes1234>(k);
        // SAFETY: the CPU has AVX-512 F and VBMI2 (the caller's promise);
        // 64 bytes remain at `pos`.
        acc = unsafe {
            let bytes = _mm512_loadu_si512(data.as_ptr().add(pos).cast());
            _mm512_add_epi32(acc, expand_bytes(mask, bytes))
        };
        pos += mask.count_ones() as usize;
        g += 4;
        expanded = true;
    }
    let ones = _mm_add_epi64(ones, _mm_unpackhi_epi64(ones, ones));
    let mut head = _mm_cvtsi128_si32(ones) as u32;
    if expanded {
        // The sixteen lanes' sum, a dozen cycles: only when they were used.
        head = head.wrapping_add(_mm512_reduce_add_epi32(acc) as u32);
    }
    // SAFETY: the caller's promises; `pos` is where group `g` starts.
    let (done, pos, rest) =
        unsafe { super::sum_values_with::<__m128i>(control, n, data, (g, pos)) };
    (done, pos, head.wrapping_add(rest))
}
