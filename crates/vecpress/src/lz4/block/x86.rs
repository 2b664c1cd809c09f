//! x86-64 copiers: [`Shuffle16`] (SSSE3 `pshufb` for offsets below 16, at the
//! `Sse41` level) and [`Copy32`] (AVX2 32-byte copies, at the `Avx2` level).

use core::arch::x86_64::{
    __m128i, __m256i, _mm256_loadu_si256, _mm256_storeu_si256, _mm_loadu_si128, _mm_shuffle_epi8,
    _mm_storeu_si128,
};

use super::fast::{fast_loop, fast_loop_pair, Copier};
use super::tables::{DISTANCE_16, DISTANCE_32, PATTERN_16};

/// 16-byte copies; a match of offset `n < 16` starts with one `pshufb` of
/// the `n` bytes before it.
pub(super) struct Shuffle16;

/// 32-byte copies; a match of offset `n < 32` starts with 16 bytes of its
/// pattern (`pshufb` when `n < 16`) and 16 more copied from `DISTANCE_16[n]`
/// back.
pub(super) struct Copy32;

/// Copies 16 bytes.
///
/// # Safety
/// `src` readable and `dst` writable for 16 bytes, disjoint; SSE2.
#[inline(always)]
unsafe fn copy16(dst: *mut u8, src: *const u8) {
    // SAFETY: the caller's contract; unaligned loads and stores.
    unsafe {
        _mm_storeu_si128(
            dst.cast::<__m128i>(),
            _mm_loadu_si128(src.cast::<__m128i>()),
        )
    }
}

/// Writes 16 bytes of the pattern of the `n` bytes before `op`.
///
/// # Safety
/// `1 <= n < 16`; `op - n .. op - n + 16` readable and `op .. op + 16`
/// writable, in one allocation; SSSE3.
#[inline(always)]
unsafe fn pattern16(op: *mut u8, n: usize) {
    // SAFETY: the caller's contract; the load may cover bytes at and after
    // `op` (inside the allocation), which the mask never selects.
    unsafe {
        let v = _mm_loadu_si128(op.sub(n).cast::<__m128i>());
        let mask = _mm_loadu_si128(PATTERN_16[n].as_ptr().cast::<__m128i>());
        _mm_storeu_si128(op.cast::<__m128i>(), _mm_shuffle_epi8(v, mask));
    }
}

impl Copier for Shuffle16 {
    const W: usize = 16;

    #[inline(always)]
    unsafe fn chunk(dst: *mut u8, src: *const u8) {
        // SAFETY: the caller's contract (16 bytes each, disjoint; SSE2).
        unsafe { copy16(dst, src) }
    }

    #[inline(always)]
    unsafe fn overlap(op: *mut u8, n: usize) -> usize {
        // SAFETY: the caller's contract: 1 <= n < 16, op - n .. op + 16 valid.
        unsafe { pattern16(op, n) };
        usize::from(DISTANCE_16[n])
    }
}

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
                pattern16(op, n);
            } else {
                copy16(op, op.sub(n));
            }
            copy16(op.add(16), op.add(16).sub(usize::from(DISTANCE_16[n])));
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
