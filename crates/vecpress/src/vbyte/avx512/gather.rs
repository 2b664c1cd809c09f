//! Gathering values of 1-5 bytes into 32-bit lanes with vpcompressb and vpermb.
#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::consts::Consts;

/// The index of each value's first byte, in order, from the set bits of
/// `starts` (bit k: byte k of the window starts a value): one vpcompressb for
/// up to 64 values.
///
/// # Safety
/// The CPU must have the Avx512 level's features.
#[inline(always)]
pub(super) unsafe fn first_bytes(c: &Consts, starts: u64) -> __m512i {
    // SAFETY: register-only intrinsics; the features are the caller's promise.
    unsafe { _mm512_maskz_compress_epi8(starts, c.iota) }
}

/// Gathers the first four bytes of values 16q..16q + 16 (their first bytes'
/// indices are bytes 16q.. of `first`) into lanes 0..16 and joins their 7-bit
/// groups: each lane holds its value's low 28 bits.
///
/// # Safety
/// The CPU must have the Avx512 level's features; `q < 4`.
#[inline(always)]
pub(super) unsafe fn gather4(c: &Consts, window: __m512i, first: __m512i, q: usize) -> __m512i {
    // SAFETY: register-only intrinsics; the features are the caller's promise.
    unsafe {
        // Bytes first..first + 4 of each value into its lane (vpermb twice).
        let idx = _mm512_add_epi8(_mm512_permutexvar_epi8(c.broadcast[q], first), c.offsets);
        let raw = _mm512_permutexvar_epi8(idx, window);
        // Clear the bytes after the value's last byte: with y the terminator
        // flags (clear high bits) of bytes 0..2, y ^ (y - 1) covers the bits up
        // to and including the first terminator (all 32 when there is none).
        let y = _mm512_andnot_si512(raw, c.stops);
        let y1 = _mm512_add_epi32(y, _mm512_set1_epi32(-1));
        let through = _mm512_ternarylogic_epi32::<0x60>(raw, y, y1); // raw & (y ^ y1)
        let bytes = _mm512_and_si512(through, c.low7);
        // 4 x 7 bits -> 28 bits: b0 + b1 << 7 per 16 bits, then h0 + h1 << 14.
        _mm512_madd_epi16(_mm512_maddubs_epi16(c.w7, bytes), c.w14)
    }
}

/// The rare step where some of the `n` values may take five bytes (or more,
/// which is invalid): adds the 5th byte's four bits to the lanes of
/// five-byte values and returns how many leading values are valid.
///
/// # Safety
/// The CPU must have the Avx512 level's features.
#[inline(never)]
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn fifth_bytes(
    c: &Consts,
    window: __m512i,
    last_bytes: u64,
    n: usize,
    values: __m512i,
) -> (__m512i, usize) {
    // Register-only intrinsics, safe in a function with these features enabled.
    // Index of the last byte of each value, in order.
    let ends = _mm512_castsi512_si128(_mm512_maskz_compress_epi8(last_bytes, c.iota));
    let after = _mm_add_epi8(ends, _mm_set1_epi8(1));
    let lens = _mm_sub_epi8(after, _mm_bslli_si128::<1>(after));
    let last = _mm512_castsi512_si128(_mm512_permutexvar_epi8(
        _mm512_castsi128_si512(ends),
        window,
    ));
    let five = _mm_cmpeq_epi8_mask(lens, _mm_set1_epi8(5));
    let too_long = _mm_cmpgt_epu8_mask(lens, _mm_set1_epi8(5));
    let overflow = five & _mm_cmpgt_epu8_mask(last, _mm_set1_epi8(0x0f));
    let valid = ((too_long | overflow) as u32 | (1u32 << n)).trailing_zeros() as usize;
    let top = _mm512_maskz_slli_epi32::<28>(five, _mm512_cvtepu8_epi32(last));
    (_mm512_or_si512(values, top), valid)
}
