//! The aarch64 copier: [`Shuffle16`] with Neon's `tbl` for offsets below 16.

use core::arch::aarch64::{vld1q_u8, vqtbl1q_u8, vst1q_u8};

use super::fast::{fast_loop, fast_loop_pair, Copier};
use super::tables::{DISTANCE_16, PATTERN_16};

/// 16-byte copies; a match of offset `n < 16` starts with one `tbl` of the
/// `n` bytes before it.
pub(super) struct Shuffle16;

impl Copier for Shuffle16 {
    const W: usize = 16;

    #[inline(always)]
    unsafe fn chunk(dst: *mut u8, src: *const u8) {
        // SAFETY: the caller's contract: 16 readable, 16 writable, disjoint.
        unsafe { vst1q_u8(dst, vld1q_u8(src)) }
    }

    #[inline(always)]
    unsafe fn overlap(op: *mut u8, n: usize) -> usize {
        // SAFETY: the caller's contract: 1 <= n < 16 and op - n .. op + 16
        // valid; the load may cover bytes at and after `op`, which the
        // table never selects.
        unsafe {
            let v = vld1q_u8(op.sub(n));
            let mask = vld1q_u8(PATTERN_16[n].as_ptr());
            vst1q_u8(op, vqtbl1q_u8(v, mask));
        }
        usize::from(DISTANCE_16[n])
    }
}

/// The [`Shuffle16`] loop.
///
/// # Safety
/// The CPU has Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_shuffle16(
    src: &[u8],
    ip: usize,
    dst: &mut [u8],
    op: usize,
) -> (usize, usize) {
    // SAFETY: Neon is enabled here.
    unsafe { fast_loop::<Shuffle16>(src, ip, dst, op) }
}

/// The [`Shuffle16`] loop over two blocks.
///
/// # Safety
/// The CPU has Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_pair_shuffle16(
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> ((usize, usize), (usize, usize)) {
    // SAFETY: Neon is enabled here.
    unsafe { fast_loop_pair::<Shuffle16>(a, b) }
}
