//! x86-64 copiers: [`Shuffle16`] (SSSE3 `pshufb` for offsets below 16, at the
//! `Sse41` level) and [`Copy32`] (AVX2 32-byte copies, at the `Avx2` level).

use core::arch::x86_64::{__m128i, __m256i, _mm256_loadu_si256, _mm256_storeu_si256};

use super::fast::{Copier, fast_loop, fast_loop_pair};
use super::shuffle::{copy16, pattern16};
use super::tables::{DISTANCE_16, DISTANCE_32};

/// [`super::shuffle::Shuffle16`] with `pshufb` (SSSE3).
type Shuffle16 = super::shuffle::Shuffle16<__m128i>;

/// 32-byte copies; a match of offset `n < 32` starts with 16 bytes of its
/// pattern (`pshufb` when `n < 16`) and 16 more copied from `DISTANCE_16[n]`
/// back.
pub(super) struct Copy32;

impl Copier for Copy32 {
    const W: usize = 32;

    #[inline(always)]
    unsafe fn chunk(dst: *mut u8, src: *const u8) {
        // SAFETY: the caller's contract (32 bytes each, disjoint; AVX).
        unsafe {
            _mm256_storeu_si256(
                dst.cast::<__m256i>(),
                _mm256_loadu_si256(src.cast::<__m256i>()),
            )
        }
    }

    #[inline(always)]
    unsafe fn overlap(op: *mut u8, n: usize) -> usize {
        // SAFETY: the caller's contract: 1 <= n < 32, op - n .. op + 32
        // valid. The first 16 bytes read from n back (a pattern when n < 16);
        // the next 16 from DISTANCE_16[n] >= 16 back, after op - n.
        unsafe {
            if n < 16 {
                pattern16::<__m128i>(op, n);
            } else {
                copy16::<__m128i>(op, op.sub(n));
            }
            copy16::<__m128i>(op.add(16), op.add(16).sub(usize::from(DISTANCE_16[n])));
        }
        usize::from(DISTANCE_32[n])
    }
}

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

/// The [`Copy32`] loop.
///
/// # Safety
/// The CPU has every feature of the `Avx2` level.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn decode_copy32(
    src: &[u8],
    ip: usize,
    dst: &mut [u8],
    op: usize,
) -> (usize, usize) {
    // SAFETY: the features `Copy32` uses are enabled here.
    unsafe { fast_loop::<Copy32>(src, ip, dst, op) }
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

/// The [`Copy32`] loop over two blocks.
///
/// # Safety
/// The CPU has every feature of the `Avx2` level.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn decode_pair_copy32(
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> ((usize, usize), (usize, usize)) {
    // SAFETY: the features `Copy32` uses are enabled here.
    unsafe { fast_loop_pair::<Copy32>(a, b) }
}
