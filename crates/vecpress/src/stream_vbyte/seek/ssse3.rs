//! The sum of the values of whole groups with SSSE3: `pshufb` each group's
//! data bytes into four u32 lanes, as decoding does, and add them to an
//! accumulator instead of storing them; four groups of one-byte values
//! (a zero control u32) are summed by one `psadbw`.

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
    let mut acc2 = _mm_setzero_si128();
    // Four groups a pass (at most 64 data bytes), two accumulators.
    while g + 4 <= control.len() {
        let mut word = [0u8; 4];
        word.copy_from_slice(&control[g..g + 4]);
        if u32::from_le_bytes(word) == 0 && pos + 16 <= data.len() {
            // 16 values of one byte each: their sum by `psadbw` (two sums
            // of 8 bytes, in lanes 0 and 2).
            // SAFETY: pos + 16 <= data.len() (just checked); the caller
            // provides the CPU features.
            let bytes = unsafe { _mm_loadu_si128(data.as_ptr().add(pos).cast()) };
            acc = _mm_add_epi32(acc, _mm_sad_epu8(bytes, _mm_setzero_si128()));
            pos += 16;
            g += 4;
            continue;
        }
        if pos + 64 > data.len() {
            break;
        }
        let (c0, c1) = (control[g] as usize, control[g + 1] as usize);
        let (c2, c3) = (control[g + 2] as usize, control[g + 3] as usize);
        let p1 = pos + Codes1234::LENGTH[c0] as usize;
        let p2 = p1 + Codes1234::LENGTH[c1] as usize;
        let p3 = p2 + Codes1234::LENGTH[c2] as usize;
        // SAFETY: each group's 16 bytes start at most 48 bytes after `pos`,
        // so they lie inside data (pos + 64 <= data.len()); the masks are
        // 16-byte table rows; the caller provides the CPU features.
        unsafe {
            acc = _mm_add_epi32(acc, group(data, pos, c0));
            acc2 = _mm_add_epi32(acc2, group(data, p1, c1));
            acc = _mm_add_epi32(acc, group(data, p2, c2));
            acc2 = _mm_add_epi32(acc2, group(data, p3, c3));
        }
        pos = p3 + Codes1234::LENGTH[c3] as usize;
        g += 4;
    }
    while g < control.len() && pos + 16 <= data.len() {
        let c = control[g] as usize;
        // SAFETY: data[pos..pos + 16] exists (the loop condition); the
        // caller provides the CPU features.
        acc = _mm_add_epi32(acc, unsafe { group(data, pos, c) });
        pos += Codes1234::LENGTH[c] as usize;
        g += 1;
    }
    let acc = _mm_add_epi32(acc, acc2);
    let acc = _mm_add_epi32(acc, _mm_shuffle_epi32::<0b01_00_11_10>(acc));
    let acc = _mm_add_epi32(acc, _mm_shuffle_epi32::<0b10_11_00_01>(acc));
    (g, pos, _mm_cvtsi128_si32(acc) as u32)
}

/// The four values of a group with control byte `c` whose data starts at
/// `data[pos]`, in u32 lanes.
///
/// # Safety
/// `data[pos..pos + 16]` must exist; the CPU must have SSSE3.
#[inline(always)]
unsafe fn group(data: &[u8], pos: usize, c: usize) -> __m128i {
    // SAFETY: the caller's contract covers the 16 bytes read and SSSE3.
    unsafe {
        let bytes = _mm_loadu_si128(data.as_ptr().add(pos).cast());
        let mask = _mm_loadu_si128(Codes1234::DECODE[c].as_ptr().cast());
        _mm_shuffle_epi8(bytes, mask)
    }
}

/// The search of [`find_groups_with`](super::find_groups_with) on SSE4.1.
///
/// # Safety
/// The CPU must have SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn find_groups(
    control: &[u8],
    data: &[u8],
    acc: u32,
    target: u32,
) -> super::Found {
    // SAFETY: the CPU has SSE4.1 (the caller's promise).
    unsafe { super::find_groups_with::<__m128i>(control, data, acc, target) }
}
