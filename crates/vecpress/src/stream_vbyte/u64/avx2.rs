//! The AVX2 kernel: both pairs of a control byte in one 256-bit `vpshufb`.
//!
//! ```text
//! while a whole control byte c remains and 32 data bytes remain at pos:
//!     x <- (load16(data + pos), load16(data + pos + len(c & 15)))   // a lane each
//!     x <- vpshufb(x, LANE_SHUFFLE[c])                             // 4 u64 lanes
//!     delta: x <- prefix sum of x, + last;  last <- x[3] in every lane
//!     store x;  pos += LENGTHS[c]
//! ```

use core::arch::x86_64::*;

use super::tables::{LANE_SHUFFLE, LENGTHS, PAIR_LENGTHS};

/// Decodes whole control bytes while 32 data bytes remain; returns (data
/// bytes consumed, values produced). With `prev`, writes the running sum
/// from `*prev` and leaves the last value in it.
///
/// # Safety
/// The CPU must have every feature of the Avx2 level (see `isa.rs`).
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn decode_bulk(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: Option<&mut u64>,
) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `decode` needs.
    unsafe {
        match prev {
            Some(prev) => decode::<true>(ctrl, data, out, prev),
            None => decode::<false>(ctrl, data, out, &mut 0),
        }
    }
}

/// The loop, with the prefix sum when `DELTA`.
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn decode<const DELTA: bool>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: &mut u64,
) -> (usize, usize) {
    let groups = ctrl.len().min(out.len() / 4);
    let (mut pos, mut g) = (0, 0);
    // SAFETY: the caller provides AVX2.
    let mut last = unsafe { _mm256_set1_epi64x(*prev as i64) };
    while g < groups && pos + 32 <= data.len() {
        let c = ctrl[g] as usize;
        let mid = pos + PAIR_LENGTHS[c & 15] as usize;
        // SAFETY: data[pos..pos + 16] and data[mid..mid + 16] lie inside
        // data (mid <= pos + 16, pos + 32 <= data.len()); the mask is a
        // 32-byte row; out[4g..4g + 4] exists (g < out.len() / 4); the
        // caller provides AVX2.
        unsafe {
            let x =
                _mm256_loadu2_m128i(data.as_ptr().add(mid).cast(), data.as_ptr().add(pos).cast());
            let mut x = _mm256_shuffle_epi8(x, _mm256_loadu_si256(LANE_SHUFFLE[c].as_ptr().cast()));
            if DELTA {
                (x, last) = prefix_sum(x, last);
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(4 * g).cast(), x);
        }
        pos += LENGTHS[c] as usize;
        g += 1;
    }
    if DELTA {
        // SAFETY: the caller provides AVX2.
        *prev = unsafe { _mm256_extract_epi64::<0>(last) } as u64;
    }
    (pos, 4 * g)
}

/// The running sum of the four u64 gaps of `x` from `last` (the previous
/// value in every lane); returns it and its last lane in every lane. The
/// sum within the group does not wait for `last`, so the loop-carried chain
/// is one add.
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
pub(super) unsafe fn prefix_sum(x: __m256i, last: __m256i) -> (__m256i, __m256i) {
    // SAFETY: the caller provides AVX2.
    unsafe {
        // (x0, x0 + x1, x2, x2 + x3)
        let x = _mm256_add_epi64(x, _mm256_slli_si256::<8>(x));
        // + (0, 0, s1, s1) with s1 = x0 + x1
        let s1 = _mm256_permute4x64_epi64::<0b01_01_00_00>(x);
        let x = _mm256_add_epi64(
            x,
            _mm256_blend_epi32::<0b1111_0000>(_mm256_setzero_si256(), s1),
        );
        let total = _mm256_permute4x64_epi64::<0b11_11_11_11>(x);
        (_mm256_add_epi64(x, last), _mm256_add_epi64(last, total))
    }
}
