//! The `Sse41` level's copier: [`Shuffle16`] with SSSE3's `pshufb` for
//! offsets below 16.

use core::arch::x86_64::__m128i;

use super::fast::{fast_loop, fast_loop_pair};

/// [`super::shuffle::Shuffle16`] with `pshufb` (SSSE3).
type Shuffle16 = super::shuffle::Shuffle16<__m128i>;

/// The [`Shuffle16`] loop.
///
/// # Safety
/// The CPU has every feature of the `Sse41` level; `ip <= src.len()`.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn decode_shuffle16(
    src: &[u8],
    ip: usize,
    dst: &mut [u8],
    op: usize,
) -> (usize, usize) {
    // SAFETY: the features `Shuffle16` uses are enabled here.
    unsafe { fast_loop::<Shuffle16>(src, ip, dst, op) }
}

/// The [`Shuffle16`] loop over two blocks.
///
/// # Safety
/// The CPU has every feature of the `Sse41` level.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn decode_pair_shuffle16(
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> ((usize, usize), (usize, usize)) {
    // SAFETY: the features `Shuffle16` uses are enabled here.
    unsafe { fast_loop_pair::<Shuffle16>(a, b) }
}
