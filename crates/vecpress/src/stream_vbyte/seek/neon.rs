//! The sum of the values of whole groups with Neon: `tbl` each group's data
//! bytes into four u32 lanes, as decoding does, and add them to an
//! accumulator instead of storing them.

use core::arch::aarch64::*;

use crate::stream_vbyte::tables::{Codes1234, Variant};

/// Sums the values of the groups of `control` (wrapping), from the start of
/// `data`, while 16 data bytes remain; returns (groups summed, data bytes
/// consumed, sum).
///
/// # Safety
/// The CPU must have Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn sum_groups(control: &[u8], data: &[u8]) -> (usize, usize, u32) {
    let (mut g, mut pos) = (0, 0);
    let mut acc = vdupq_n_u32(0);
    while g < control.len() && pos + 16 <= data.len() {
        let c = control[g] as usize;
        // SAFETY: data[pos..pos + 16] exists (the loop condition); the mask
        // is a 16-byte table row; the caller provides Neon.
        unsafe {
            let bytes = vld1q_u8(data.as_ptr().add(pos));
            let mask = vld1q_u8(Codes1234::DECODE[c].as_ptr());
            acc = vaddq_u32(acc, vreinterpretq_u32_u8(vqtbl1q_u8(bytes, mask)));
        }
        pos += Codes1234::LENGTH[c] as usize;
        g += 1;
    }
    (g, pos, vaddvq_u32(acc))
}

/// The search of [`find_groups_with`](super::find_groups_with) on Neon.
///
/// # Safety
/// The CPU must have Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn find_groups(
    control: &[u8],
    data: &[u8],
    acc: u32,
    target: u32,
) -> super::Found {
    // SAFETY: the CPU has Neon (the caller's promise).
    unsafe { super::find_groups_with::<uint8x16_t>(control, data, acc, target) }
}
