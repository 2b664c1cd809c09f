//! The `Avx2` level's copier: [`Copy32`], 32-byte copies.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_or_si128, _mm_shuffle_epi8, _mm256_broadcastsi128_si256,
    _mm256_load_si256, _mm256_loadu_si256, _mm256_set_m128i, _mm256_set1_epi16,
    _mm256_shuffle_epi8, _mm256_storeu_si256,
};

use core::ptr;

use super::fast::{Copier, fast_loop, fast_loop_pair};
use super::shuffle::{copy16, pattern16};
use super::tables::{DISTANCE_16, DISTANCE_32, JOIN_16, PATTERN_32, PATTERN_END_32};

/// 32-byte copies; a match of offset `n < 32` starts with 32 bytes of its
/// pattern, written in one of two forms (`REGISTER`, chosen per CPU by
/// [`tune::lz4_register_patterns`](crate::tune::lz4_register_patterns)):
/// - `true`: made in a register from the bytes before the match, and stored
///   once. The 32-byte load that repeats them over a long match then reads
///   what one store wrote, which the store buffer forwards. A pattern below
///   16 bytes is loaded as the bytes that end at the match (the last 2 for
///   offsets 1 and 2, else 16), where there are 16 (`fast::start_overlap`
///   says why).
/// - `false`: 16 bytes (`pshufb` when `n < 16`), then 16 more copied from
///   `DISTANCE_16[n]` back, reading the first store; the load that repeats
///   the 32 bytes reads two stores, which is not forwarded and waits for
///   them to reach the cache. On the long runs of short period that
///   byte-split data is full of, this form runs behind `Shuffle16` on Zen 4,
///   and the register form ahead of it (`perf/amd-25-17.md`, "LZ4").
pub(super) struct Copy32<const REGISTER: bool>;

impl<const REGISTER: bool> Copier for Copy32<REGISTER> {
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
        // SAFETY: the caller's contract (1 <= n < 32, op - n .. op + 32
        // valid), as each form asks it.
        unsafe {
            if REGISTER {
                pattern32_in_register(op, n);
            } else {
                pattern32_staged(op, n);
            }
        }
        usize::from(DISTANCE_32[n])
    }

    #[inline(always)]
    unsafe fn overlap_end(op: *mut u8, n: usize) -> usize {
        if !REGISTER {
            // SAFETY: the caller's contract, wider than `overlap` asks.
            return unsafe { Self::overlap(op, n) };
        }
        // SAFETY: the caller's contract: 1 <= n < 32, op - max(n, 16) ..
        // op + 32 valid.
        unsafe { pattern32_before(op, n) };
        usize::from(DISTANCE_32[n])
    }
}

/// Writes the first 32 bytes of a match of offset `n` at `op`, made in a
/// register and stored once.
///
/// # Safety
/// `1 <= n < 32`; `op - n .. op + 32` readable and `op .. op + 32` writable,
/// in one allocation; the CPU has AVX2.
#[inline(always)]
unsafe fn pattern32_in_register(op: *mut u8, n: usize) {
    // SAFETY: the caller's contract (so op - n >= the allocation's start).
    // Below 16, the load at op - n covers the n pattern bytes (and bytes
    // from op on, which no index of row n selects: every index is below n).
    // From 16 on, the loads at op - n and op - 16 lie before op. PATTERN_32
    // and JOIN_16 are 32-byte rows (aligned rows of a 64-byte aligned table
    // for the aligned load), and at + 16 <= 32 keeps the JOIN_16 loads in
    // their rows.
    unsafe {
        let pattern = if n < 16 {
            let v = _mm256_broadcastsi128_si256(_mm_loadu_si128(op.sub(n).cast()));
            _mm256_shuffle_epi8(v, _mm256_load_si256(PATTERN_32[n].as_ptr().cast()))
        } else {
            // Bytes 0..16: the 16 from n back. Bytes 16..32: the m = n - 16
            // bytes before op, then the first 16 - m of bytes 0..16.
            let first = _mm_loadu_si128(op.sub(n).cast());
            let before = _mm_loadu_si128(op.sub(16).cast());
            let at = 16 - (n - 16);
            let second = _mm_or_si128(
                _mm_shuffle_epi8(before, _mm_loadu_si128(JOIN_16[0].as_ptr().add(at).cast())),
                _mm_shuffle_epi8(first, _mm_loadu_si128(JOIN_16[1].as_ptr().add(at).cast())),
            );
            _mm256_set_m128i(second, first)
        };
        _mm256_storeu_si256(op.cast(), pattern);
    }
}

/// [`pattern32_in_register`] from loads that end by `op`: for offsets 1
/// and 2, the 2 bytes before `op`; from 3 to 15, the 16 bytes before `op`
/// (see `fast::start_overlap`); from 16 on, as there.
///
/// Offsets 1 and 2 are most of the overlapping matches in the byte planes
/// of float columns (a byte repeated, two bytes alternating), and there the
/// match before is often one too: its 32-byte store holds the 2 bytes, and
/// the store buffer forwards them to a load that narrow, where the 16-byte
/// load spans that store and the ones before it and waits for them all.
///
/// # Safety
/// `1 <= n < 32`; `op - max(n, 16) .. op` readable and `op .. op + 32`
/// writable, in one allocation; the CPU has AVX2.
#[inline(always)]
unsafe fn pattern32_before(op: *mut u8, n: usize) {
    // SAFETY: the caller's contract. PATTERN_END_32's rows are aligned
    // 32-byte rows of a 64-byte aligned table.
    unsafe {
        if n <= 2 {
            // The last byte twice for offset 1 (little-endian: the high one).
            let w = ptr::read_unaligned(op.sub(2).cast::<u16>());
            let w = if n == 1 { (w >> 8) * 0x0101 } else { w };
            _mm256_storeu_si256(op.cast(), _mm256_set1_epi16(w as i16));
        } else if n < 16 {
            let v = _mm256_broadcastsi128_si256(_mm_loadu_si128(op.sub(16).cast()));
            let pattern =
                _mm256_shuffle_epi8(v, _mm256_load_si256(PATTERN_END_32[n].as_ptr().cast()));
            _mm256_storeu_si256(op.cast(), pattern);
        } else {
            pattern32_in_register(op, n);
        }
    }
}

/// Writes the first 32 bytes of a match of offset `n` at `op` as 16 bytes
/// from `n` back (their pattern when `n < 16`), then 16 from
/// `DISTANCE_16[n] >= 16` back, after `op - n`.
///
/// # Safety
/// As [`pattern32_in_register`].
#[inline(always)]
unsafe fn pattern32_staged(op: *mut u8, n: usize) {
    // SAFETY: the caller's contract; every read is at or after op - n, and
    // the second reads only bytes before op + 16, written by the first.
    unsafe {
        if n < 16 {
            pattern16::<__m128i>(op, n);
        } else {
            copy16::<__m128i>(op, op.sub(n));
        }
        copy16::<__m128i>(op.add(16), op.add(16).sub(usize::from(DISTANCE_16[n])));
    }
}

/// The [`Copy32`] loop.
///
/// # Safety
/// The CPU has every feature of the `Avx2` level.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn decode_copy32<const REGISTER: bool>(
    src: &[u8],
    ip: usize,
    dst: &mut [u8],
    op: usize,
) -> (usize, usize) {
    // SAFETY: the features `Copy32` uses are enabled here.
    unsafe { fast_loop::<Copy32<REGISTER>>(src, ip, dst, op) }
}

/// The [`Copy32`] loop over two blocks.
///
/// # Safety
/// The CPU has every feature of the `Avx2` level.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn decode_pair_copy32<const REGISTER: bool>(
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> ((usize, usize), (usize, usize)) {
    // SAFETY: the features `Copy32` uses are enabled here.
    unsafe { fast_loop_pair::<Copy32<REGISTER>>(a, b) }
}
