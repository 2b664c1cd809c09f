//! The AVX-512 kernel: the loop of [`super::generic`] on 256-bit groups
//! ([`super::wide`]), all four values of a control byte spread by one
//! `vpermb` (AVX-512 VBMI) from 32 data bytes, its zero-masking clearing
//! the bytes above each value's length.
//!
//! ```text
//! x <- vpermb(load32(data + pos), PERMUTE[c]) masked by PERMUTE_KEEP[c]
//! ```

use core::arch::x86_64::*;

use super::generic;
use super::tables::{PERMUTE, PERMUTE_KEEP};
use super::wide::{Spread, Wide};

/// The byte permute of one 32-byte load across the register.
struct Vpermb;

impl Spread for Vpermb {
    /// `PERMUTE` and `PERMUTE_KEEP`.
    type Tables = (&'static [[u8; 32]; 256], &'static [u32; 256]);

    #[inline(always)]
    unsafe fn spread((permute, keep): Self::Tables, data: *const u8, c: usize) -> __m256i {
        // SAFETY: the 32 bytes at `data` are readable and the index is a
        // 32-byte row (c < 256), the caller's promises, as are AVX-512 VL
        // and VBMI.
        unsafe {
            let bytes = _mm256_loadu_si256(data.cast());
            let index = _mm256_loadu_si256(permute[c].as_ptr().cast());
            _mm256_maskz_permutexvar_epi8(keep[c], index, bytes)
        }
    }
}

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
    // SAFETY: this function's contract gives the features `Vpermb` needs.
    unsafe {
        generic::decode_bulk::<Wide<Vpermb>>((&PERMUTE, &PERMUTE_KEEP), ctrl, data, out, prev)
    }
}
