//! The Varint-G8IU decoder for x86-64 with AVX2, at the `Avx2` level (and
//! `Avx512`): the algorithm of [`super::generic`] with one 256-bit register per
//! block, so that a block takes one shuffle and one store instead of two.
//!
//! ```text
//! data = vpbroadcastq(input[pos + 1..pos + 9])   // the 8 bytes in every quarter
//! v    = vpshufb(data, SHUFFLE[control])         // both halves of the row at once:
//!                                                // integers 0-3 low, 4-7 high
//! delta: v = in-lane prefix sums (vpslldq, vpaddd twice)
//!        v += (0, 0, 0, 0, v3, v3, v3, v3)       // vpshufd, vperm2i128
//!        out = v + last; last += v7 (in every lane, vpermd)
//! ```
//!
//! `vpshufb` shuffles within each 128-bit half, and each half holds the
//! block's 8 data bytes, so a `SHUFFLE` row (the masks of integers 0-3 and
//! 4-7, contiguous) is the 32-byte mask as it stands.
//!
//! It is written on `__m256i` directly, not over `crate::simd`: its delta
//! step carries the low half's sum into the high half (`vperm2i128`,
//! `vpermd`), which the lane-wise [`Lanes`](crate::simd::Lanes) does not
//! have, and no other kernel needs. Everything else is the loop of
//! `generic.rs` with one register where that has two.

use core::arch::x86_64::*;

use super::scalar::BLOCK;
use super::tables::{COUNT, SHUFFLE};

/// Decodes whole blocks from the start of `input`; returns (bytes consumed,
/// values produced).
///
/// # Safety
/// The CPU must have every feature of the `Avx2` level (SSE2, SSSE3,
/// SSE4.1, AVX, AVX2, BMI1, BMI2, POPCNT).
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn decode_bulk(input: &[u8], out: &mut [u32]) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `decode` needs.
    unsafe { decode::<false>(input, out, &mut 0) }
}

/// [`decode_bulk`] for gaps: writes their running sum from `*prev` and
/// leaves the last value written in `*prev`.
///
/// # Safety
/// As for [`decode_bulk`].
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn decode_delta_bulk(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `decode` needs.
    unsafe { decode::<true>(input, out, prev) }
}

/// The decoding loop, with the prefix sum when `DELTA`; see the module docs.
///
/// # Safety
/// The CPU has AVX2.
#[inline(always)]
unsafe fn decode<const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    let src = input.as_ptr();
    let dst = out.as_mut_ptr();
    let (mut pos, mut done) = (0usize, 0usize);
    // Every unsafe block below relies on the caller's guarantee of AVX2 and
    // names the bounds check behind its loads and stores.
    // SAFETY: registers only.
    let mut last = unsafe { _mm256_set1_epi32(*prev as i32) };
    while input.len() - pos >= BLOCK && out.len() - done >= 8 {
        let control = usize::from(input[pos]);
        let count = usize::from(COUNT[control]);
        if count == 0 {
            break; // an invalid block: the scalar path reports it
        }
        // SAFETY: input[pos + 1..pos + 9] and out[done..done + 8] are in
        // bounds (loop condition); a SHUFFLE row is 32 contiguous bytes.
        unsafe {
            let data = _mm256_broadcastq_epi64(_mm_loadl_epi64(src.add(pos + 1).cast()));
            let mask = _mm256_loadu_si256(SHUFFLE[control].as_ptr().cast());
            let mut v = _mm256_shuffle_epi8(data, mask);
            if DELTA {
                v = _mm256_add_epi32(v, _mm256_slli_si256::<4>(v));
                v = _mm256_add_epi32(v, _mm256_slli_si256::<8>(v));
                let threes = _mm256_shuffle_epi32::<0xff>(v);
                v = _mm256_add_epi32(v, _mm256_permute2x128_si256::<0x08>(threes, threes));
                let total = _mm256_permutevar8x32_epi32(v, _mm256_set1_epi32(7));
                v = _mm256_add_epi32(v, last);
                last = _mm256_add_epi32(last, total);
            }
            _mm256_storeu_si256(dst.add(done).cast(), v);
        }
        pos += BLOCK;
        done += count;
    }
    if DELTA {
        // SAFETY: registers only.
        *prev = unsafe { _mm256_cvtsi256_si32(last) } as u32;
    }
    (pos, done)
}
