//! The sum of the values of whole groups with SSSE3: `pshufb` each group's
//! data bytes into four u32 lanes, as decoding does, and add them to an
//! accumulator instead of storing them.

use core::arch::x86_64::*;

use crate::stream_vbyte::tables::{Codes1234, Variant};

/// Sums the values of the groups of `control` (wrapping), from the start of
/// `data`, while 16 data bytes remain; returns (groups summed, data bytes
/// consumed, sum).
///
/// # Safety
/// The CPU must have SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn sum_groups(control: &[u8], data: &[u8]) -> (usize, usize, u32) {
    let (mut g, mut pos) = (0, 0);
    let mut acc = _mm_setzero_si128();
    while g < control.len() && pos + 16 <= data.len() {
        let c = control[g] as usize;
        // SAFETY: data[pos..pos + 16] exists (the loop condition); the mask
        // is a 16-byte table row; the caller provides the CPU features.
        unsafe {
            let bytes = _mm_loadu_si128(data.as_ptr().add(pos).cast());
            let mask = _mm_loadu_si128(Codes1234::DECODE[c].as_ptr().cast());
            acc = _mm_add_epi32(acc, _mm_shuffle_epi8(bytes, mask));
        }
        pos += Codes1234::LENGTH[c] as usize;
        g += 1;
    }
    let acc = _mm_add_epi32(acc, _mm_shuffle_epi32::<0b01_00_11_10>(acc));
    let acc = _mm_add_epi32(acc, _mm_shuffle_epi32::<0b10_11_00_01>(acc));
    (g, pos, _mm_cvtsi128_si32(acc) as u32)
}
