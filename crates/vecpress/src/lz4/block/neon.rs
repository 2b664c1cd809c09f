//! The aarch64 copier: [`Shuffle16`] with Neon's `tbl` for offsets below 16.

use core::arch::aarch64::uint8x16_t;

use super::fast::{fast_loop, fast_loop_pair};

/// [`super::shuffle::Shuffle16`] with `tbl`.
type Shuffle16 = super::shuffle::Shuffle16<uint8x16_t>;

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
