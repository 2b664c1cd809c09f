//! The AVX-512 kernel: all four values of a control byte with one `vpermb`
//! (AVX-512 VBMI) from 32 data bytes, its zero-masking clearing the bytes
//! above each value's length.
//!
//! ```text
//! while a whole control byte c remains and 32 data bytes remain at pos:
//!     x <- vpermb(load32(data + pos), PERMUTE[c]) masked by PERMUTE_KEEP[c]
//!     delta: as the AVX2 kernel
//!     store x;  pos += LENGTHS[c]
//! ```

use core::arch::x86_64::*;

use super::avx2::prefix_sum;
use super::tables::{LENGTHS, PERMUTE, PERMUTE_KEEP};

/// Decodes whole control bytes while 32 data bytes remain; returns (data
/// bytes consumed, values produced). With `prev`, writes the running sum
/// from `*prev` and leaves the last value in it.
///
/// # Safety
/// The CPU must have every feature of the Avx512 level (see `isa.rs`).
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
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
/// The CPU must have AVX2, AVX-512 VL and VBMI.
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
        // SAFETY: data[pos..pos + 32] lies inside data (the loop
        // condition); the index is a 32-byte row; out[4g..4g + 4] exists
        // (g < out.len() / 4); the caller provides the features.
        unsafe {
            let bytes = _mm256_loadu_si256(data.as_ptr().add(pos).cast());
            let index = _mm256_loadu_si256(PERMUTE[c].as_ptr().cast());
            let mut x = _mm256_maskz_permutexvar_epi8(PERMUTE_KEEP[c], index, bytes);
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
