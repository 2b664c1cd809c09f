//! Masked VByte: the SSE4.1 VByte decoder of Plaisance, Kurz and Lemire,
//! *Vectorized VByte Decoding* (2015), §IV.
//!
//! # Algorithm
//!
//! ```text
//! mask = 0                           // bit k: continuation bit of input[pos + k]
//! while 32 values of room and 32 more bytes of input remain:   // main loop
//!     OR in pmovmskb of the next 32 bytes (no branch; see below)
//!     two steps
//! while 16 values of room remain:                              // tail
//!     if fewer than 16 bits of mask remain:
//!         append pmovmskb of the next 16 bytes (stop if none)
//!     one step
//!
//! step:
//!     data = movdqu input[pos..pos + 16]
//!     if mask & 0xffff == 0: write 16 one-byte values (pmovzxbd); consumed = 16
//!     [consumed, i] = STEPS[mask & 0xfff]           // DECODE (tables.rs), see below
//!     i <  64: 6 values of 1-2 bytes        (16-bit lanes)
//!     i < 145: 4 values of 1-3 bytes        (32-bit lanes)
//!     else:    2 values of 1-5 bytes        (64-bit lanes; stop if one overflows)
//!     pos += consumed; mask >>= consumed
//! ```
//!
//! After `s = pshufb(data, SHUFFLE[i])` each case assembles its values:
//!
//! - **6 x 1-2 bytes**: `(s & 0x007f) | (s & 0x7f00) >> 1` as 16-bit lanes
//!   (`pand`, `psrlw`, `por`). [`SHUFFLES_X`] puts values 0-3 in the low and
//!   values 4-5 in the high halves of 32-bit lanes (as the C code does), so
//!   `pand` and `psrld` unpack them, with no shuffle.
//! - **4 x 1-3 bytes**: `(s & 0x7f) | (s & 0x7f00) >> 1 | (s & 0x7f0000) >> 2`
//!   as 32-bit lanes (`pand`, `psrld`, `por`).
//! - **2 x 1-5 bytes**: the input is first masked with `0x7f`, so a value's
//!   bytes `a, b, c, d, e` land as `Y = (b, c, d, e + a 2^8)_16` in a 64-bit
//!   lane. `pmullw` by `(2^7, 2^6, 2^5, 2^4)` gives
//!   `X = (b 2^7, c 2^6, d 2^5, e 2^4 + ...)_16`, whose even bytes, ORed with
//!   `X << 8` and `Y >> 56` (`psllq`, `psrlq`), are the four bytes of the value;
//!   a last `pshufb` gathers them. (The paper writes `e 2^6` for byte 6 of `X`;
//!   it is `e 2^4`.)
//!
//! # Tricks and limits
//!
//! - The loop-carried critical path is mask, `and`, table load, shift by the
//!   bytes consumed. The mask lives in a 64-bit register; `pmovmskb` sees the
//!   input 32 bytes at a time, off that path.
//! - The main loop's refill takes no branch, so nothing mispredicts when the
//!   mask runs low (a loop of steps until fewer than 16 bits remain, as in the
//!   C code, mispredicts its exit about once per refill). With
//!   `shift = end - pos` (16 to 60 bits known), each pass ORs in the bits of
//!   the next 32 bytes at `shift`, dropping those past bit 63, and sets
//!   `end = pos + min(shift + 32, 64)`: at least 48 bits, enough for two
//!   steps of at most 16 bytes, leaving at least 16. The OR is applied after
//!   the first step's lookup, together with its shift, so it is off the
//!   critical path. Bits ORed in twice are the same bits: above `end - pos`
//!   the mask holds either zeros or the true bits of the bytes there.
//! - A window of 16 one-byte values (mask & 0xffff == 0) is written in one
//!   step; a zero 12-bit window needs no branch anyway (`DECODE[0]` is six
//!   one-byte values).
//! - Invalid input is never decoded, at no cost to valid input: [`STEPS`]
//!   sends the windows `DECODE` rejects (a varint longer than 5 bytes among
//!   the first two) to the 2-value case with a shuffle ([`REJECT`]) that makes
//!   its overflow check (`ptest`: a 5th byte at most `0x0f`) fail. The kernel
//!   stops before that value; the checked scalar code reports it.
//! - Differential coding is fused in (paper, "Differential Coding"): 4 gaps
//!   get their prefix sum with `pslldq` + `paddd` twice, 2 gaps with one
//!   `pslldq` + `paddd`; the last value, broadcast with `pshufd`, is added to
//!   the next group.
//! - No padding: every load stays inside `input`, every store inside `out`,
//!   and nothing is written past the values produced. The tail (under 32
//!   bytes, or under 16 values of room) is left to the scalar decoder.
//! - Codegen: the byte consumed is widened at the load, and
//!   `assert_unchecked(consumed <= WINDOW)` lets LLVM drop an `and` before
//!   the shift; without them the critical path gained a `movzx` or an `and`.

use core::arch::x86_64::*;

use super::tables::{DECODE, FOUR_END, SHUFFLE, SHUFFLES, SIX_END, WINDOW};

/// The shuffle index that [`STEPS`] gives the windows `DECODE` rejects. It is
/// at least `FOUR_END`, so these windows take the 2-value path, and its
/// shuffle makes that path's overflow check fail whatever the data.
const REJECT: u8 = SHUFFLES as u8;
const _: () = assert!(SHUFFLES < 256 && REJECT >= FOUR_END);

/// `DECODE`, `[bytes consumed, shuffle index]`, but with [`REJECT`] for the
/// windows it rejects (0 bytes consumed): the kernel then needs no test of
/// its own for them.
static STEPS: crate::simd::Aligned<[[u8; 2]; 1 << WINDOW]> = crate::simd::Aligned({
    let mut table = DECODE.0;
    let mut mask = 0;
    while mask < 1 << WINDOW {
        if table[mask][0] == 0 {
            table[mask] = [0, REJECT];
        }
        mask += 1;
    }
    table
});

/// `SHUFFLE`, padded to 256 entries so that a `u8` index needs no bounds
/// check, plus [`REJECT`].
///
/// [`REJECT`] moves input bytes 4 and 5 to bytes 6 and 14, where the 2-value
/// path requires a 5th byte at most `0x0f`. A rejected window has a varint
/// of more than 5 bytes (5 continuation bits in a row) starting at byte 0 or
/// at the end of a first varint of 1-5 bytes, so byte 4 or byte 5 has its
/// continuation bit set and the check fails.
static SHUFFLES_X: crate::simd::Aligned<[[u8; 16]; 256]> = crate::simd::Aligned({
    let mut table = [[0xffu8; 16]; 256];
    let mut i = 0;
    while i < SHUFFLES {
        table[i] = SHUFFLE.0[i];
        i += 1;
    }
    // The 6-value case: value k at 16-bit lane 2k for k < 4, values 4 and 5
    // at lanes 1 and 3, so that 32-bit `and` and shift unpack them.
    i = 0;
    while i < SIX_END as usize {
        let mut row = [0xffu8; 16];
        let mut k = 0;
        while k < 6 {
            let lane = if k < 4 { 2 * k } else { 2 * (k - 4) + 1 };
            row[2 * lane] = SHUFFLE.0[i][2 * k];
            row[2 * lane + 1] = SHUFFLE.0[i][2 * k + 1];
            k += 1;
        }
        table[i] = row;
        i += 1;
    }
    table[REJECT as usize][6] = 4;
    table[REJECT as usize][14] = 5;
    table
});

/// Decodes a prefix of `input` into `out`; returns (bytes consumed, values produced).
///
/// # Safety
/// The CPU must have SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn decode_bulk(input: &[u8], out: &mut [u32]) -> (usize, usize) {
    let mut prev = 0;
    // SAFETY: this function's own contract gives the CPU features `decode` needs.
    unsafe { decode::<false>(input, out, &mut prev) }
}

/// [`decode_bulk`] for gaps: writes their running sum from `*prev` and leaves
/// the last value written in `*prev`.
///
/// # Safety
/// The CPU must have SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn decode_delta_bulk(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: this function's own contract gives the CPU features `decode` needs.
    unsafe { decode::<true>(input, out, prev) }
}

/// The decoding loop, with the prefix sum when `DELTA`.
///
/// # Safety
/// The CPU must have SSE2, SSSE3 and SSE4.1.
#[inline(always)]
unsafe fn decode<const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // Continuation bits of input[pos..end], bit 0 for input[pos]; zero above.
    let mut mask = 0u64;
    let (mut pos, mut end, mut produced) = (0, 0, 0);
    // SAFETY: the caller provides the CPU features (SSE2 here).
    let mut last = unsafe { _mm_set1_epi32(*prev as i32) }; // in every lane
    'decode: {
        // Main loop: two steps per pass. The bits of input[end..end + 32]
        // are ORed in, as far as they fit, while the first step looks up its
        // low bits, so the refill takes no branch and is off the critical
        // path (mask, lookup, shift). Invariant: mask holds the bits of
        // input[pos..end], then those of the next bytes or zeros, and
        // 16 <= end - pos < 64.
        if input.len() >= 16 {
            // SAFETY: input[0..16] exists, as just checked.
            mask = unsafe { movemask16(input, 0) };
            end = 16;
        }
        'main: while end + 32 <= input.len() && produced + 32 <= out.len() {
            if DELTA && mask & 0xffff == 0 {
                // SAFETY: input[pos..pos + 16] exists (16 <= end - pos).
                let data = unsafe { load(input, pos) };
                // SAFETY: the caller provides the CPU features.
                if unsafe { tiny(data) } {
                    // A run of 16-byte chunks of gaps below 32 (dense posting
                    // lists): a tight loop without the mask, rebuilt after.
                    while pos + 16 <= input.len() && produced + 16 <= out.len() {
                        // SAFETY: input[pos..pos + 16] exists, as just checked.
                        let data = unsafe { load(input, pos) };
                        // SAFETY: the caller provides the CPU features.
                        if !unsafe { tiny(data) } {
                            break;
                        }
                        // SAFETY: out has room for 16 values, as just checked.
                        unsafe { ones16::<DELTA>(data, out, produced, &mut last) };
                        pos += 16;
                        produced += 16;
                    }
                    if pos + 16 > input.len() {
                        (mask, end) = (0, pos);
                        break 'main;
                    }
                    // SAFETY: input[pos..pos + 16] exists, as just checked.
                    (mask, end) = (unsafe { movemask16(input, pos) }, pos + 16);
                    continue 'main;
                }
            }
            let shift = end - pos;
            // SAFETY: input[end..end + 32] exists, as just checked.
            let more = unsafe { movemask16(input, end) | movemask16(input, end + 16) << 16 };
            let more = more << shift;
            // Now the bits of input[pos..pos + min(shift + 32, 64)] are known:
            // at least 48, enough for two steps of at most 16 bytes.
            end = pos + (shift + 32).min(64);
            for first in [true, false] {
                let consumed = if mask & 0xffff == 0 {
                    // SAFETY: input[pos..pos + 16] exists and out has room
                    // (the loop condition); the caller provides the features.
                    unsafe { ones16::<DELTA>(load(input, pos), out, produced, &mut last) };
                    produced += 16;
                    16
                } else {
                    // SAFETY: as just said.
                    let step = unsafe { step::<DELTA>(input, pos, mask, out, produced, &mut last) };
                    let Some((consumed, values)) = step else {
                        break 'decode;
                    };
                    produced += values;
                    consumed
                };
                if first {
                    mask |= more;
                }
                pos += consumed as usize;
                mask >>= consumed;
            }
        }
        // Tail: 16 bytes of mask at a time, room tested at every step.
        while produced + 16 <= out.len() {
            if end - pos < 16 {
                if end + 16 > input.len() {
                    break;
                }
                // SAFETY: input[end..end + 16] exists, as just checked.
                mask |= unsafe { movemask16(input, end) } << (end - pos);
                end += 16;
            }
            if mask & 0xffff == 0 {
                // SAFETY: input[pos..pos + 16] exists (16 <= end - pos) and
                // out has room for 16 values; the caller provides the features.
                unsafe { ones16::<DELTA>(load(input, pos), out, produced, &mut last) };
                pos += 16;
                produced += 16;
                mask >>= 16;
                continue;
            }
            // SAFETY: input[pos..pos + 16] exists and mask holds its bits
            // (16 <= end - pos), out has room for 16 values (the loop
            // condition); the caller provides the CPU features.
            let step = unsafe { step::<DELTA>(input, pos, mask, out, produced, &mut last) };
            let Some((consumed, values)) = step else {
                break;
            };
            pos += consumed as usize;
            produced += values;
            mask >>= consumed;
        }
    }
    // SAFETY: as above.
    *prev = unsafe { _mm_cvtsi128_si32(last) } as u32;
    (pos, produced)
}

/// One step: decodes the values at the start of `input[pos..pos + 16]`, whose
/// continuation bits are the low 12 bits of `mask`, into `out[to..]`. Returns
/// (bytes consumed, values written), or `None` before an invalid value.
///
/// # Safety
/// `pos + 16 <= input.len()`, `to + 16 <= out.len()`; the CPU must have SSE4.1.
#[inline(always)]
unsafe fn step<const DELTA: bool>(
    input: &[u8],
    pos: usize,
    mask: u64,
    out: &mut [u32],
    to: usize,
    last: &mut __m128i,
) -> Option<(u32, usize)> {
    // SAFETY: the caller's contract covers the 16 bytes read and the (at
    // most 16) values written; SHUFFLES_X has an entry for every u8.
    unsafe {
        let data = load(input, pos);
        let [consumed, index] = STEPS[(mask & ((1 << WINDOW) - 1)) as usize];
        let consumed = u32::from(consumed);
        // At most WINDOW bytes (tables.rs); said so, the mask shift needs no `and`.
        core::hint::assert_unchecked(consumed <= WINDOW as u32);
        let shuffle = load(&SHUFFLES_X[usize::from(index)], 0);
        if index < SIX_END {
            let (a, b) = six(data, shuffle);
            store4(out, to, sum4::<DELTA>(a, last));
            store2(out, to + 4, sum2::<DELTA>(b, last));
            Some((consumed, 6))
        } else if index < FOUR_END {
            let v = four(data, shuffle);
            store4(out, to, sum4::<DELTA>(v, last));
            Some((consumed, 4))
        } else {
            let v = two(data, shuffle)?;
            store2(out, to, sum2::<DELTA>(v, last));
            Some((consumed, 2))
        }
    }
}

/// Whether the 16 bytes of `data` are all below 32: one-byte values whose
/// prefix sums within a qword fit its bytes (see [`ones16`]).
///
/// # Safety
/// The CPU must have SSE4.1.
#[inline(always)]
unsafe fn tiny(data: __m128i) -> bool {
    // SAFETY: the caller provides the CPU features.
    unsafe { _mm_testz_si128(data, _mm_set1_epi8(0xe0u8 as i8)) != 0 }
}

/// Writes the 16 one-byte values in `data` to `out[to..to + 16]`.
///
/// # Safety
/// `to + 16 <= out.len()`; the CPU must have SSE4.1.
#[inline(always)]
unsafe fn ones16<const DELTA: bool>(data: __m128i, out: &mut [u32], to: usize, last: &mut __m128i) {
    // SAFETY: the caller's contract covers these 16 values.
    unsafe {
        if DELTA && tiny(data) {
            // Gaps below 32: eight of them sum to at most 248, so the prefix
            // sums within each qword fit its bytes, in three shifts and adds
            // off the shuffle ports; the low qword's total (lane 3 of the
            // second group) is then carried into the high one. 9 shuffles
            // for 16 values where four `sum4` need 19.
            let x = _mm_add_epi8(data, _mm_slli_epi64(data, 8));
            let x = _mm_add_epi8(x, _mm_slli_epi64(x, 16));
            let x = _mm_add_epi8(x, _mm_slli_epi64(x, 32));
            let g1 = _mm_cvtepu8_epi32(_mm_srli_si128(x, 4));
            let high = _mm_add_epi32(*last, _mm_shuffle_epi32(g1, 0b11_11_11_11));
            let v3 = _mm_add_epi32(_mm_cvtepu8_epi32(_mm_srli_si128(x, 12)), high);
            store4(out, to, _mm_add_epi32(_mm_cvtepu8_epi32(x), *last));
            store4(out, to + 4, _mm_add_epi32(g1, *last));
            store4(
                out,
                to + 8,
                _mm_add_epi32(_mm_cvtepu8_epi32(_mm_srli_si128(x, 8)), high),
            );
            store4(out, to + 12, v3);
            *last = _mm_shuffle_epi32(v3, 0b11_11_11_11);
            return;
        }
        let (data4, data8, data12) = (
            _mm_srli_si128(data, 4),
            _mm_srli_si128(data, 8),
            _mm_srli_si128(data, 12),
        );
        store4(out, to, sum4::<DELTA>(_mm_cvtepu8_epi32(data), last));
        store4(out, to + 4, sum4::<DELTA>(_mm_cvtepu8_epi32(data4), last));
        store4(out, to + 8, sum4::<DELTA>(_mm_cvtepu8_epi32(data8), last));
        store4(out, to + 12, sum4::<DELTA>(_mm_cvtepu8_epi32(data12), last));
    }
}

/// 6 values of 1-2 bytes: `(s & 0x007f) | (s & 0x7f00) >> 1` as 16-bit lanes;
/// returns values 0-3 and 4-5 as 32-bit lanes.
///
/// # Safety
/// The CPU must have SSSE3 and SSE4.1.
#[inline(always)]
unsafe fn six(data: __m128i, shuffle: __m128i) -> (__m128i, __m128i) {
    // SAFETY: the caller provides the CPU features.
    unsafe {
        let s = _mm_shuffle_epi8(data, shuffle);
        let low = _mm_and_si128(s, _mm_set1_epi16(0x007f));
        let high = _mm_and_si128(s, _mm_set1_epi16(0x7f00));
        let v = _mm_or_si128(low, _mm_srli_epi16(high, 1));
        (
            _mm_and_si128(v, _mm_set1_epi32(0xffff)),
            _mm_srli_epi32(v, 16),
        )
    }
}

/// 4 values of 1-3 bytes: `(s & 0x7f) | (s & 0x7f00) >> 1 | (s & 0x7f0000) >> 2`.
///
/// # Safety
/// The CPU must have SSSE3.
#[inline(always)]
unsafe fn four(data: __m128i, shuffle: __m128i) -> __m128i {
    // SAFETY: the caller provides the CPU features.
    unsafe {
        let s = _mm_shuffle_epi8(data, shuffle);
        let low = _mm_and_si128(s, _mm_set1_epi32(0x7f));
        let middle = _mm_and_si128(s, _mm_set1_epi32(0x7f00));
        let high = _mm_and_si128(s, _mm_set1_epi32(0x7f_0000));
        let v = _mm_or_si128(low, _mm_srli_epi32(middle, 1));
        _mm_or_si128(v, _mm_srli_epi32(high, 2))
    }
}

/// 2 values of 1-5 bytes, in lanes 0 and 1, with the paper's `pmullw` trick;
/// `None` if a 5th byte exceeds `0x0f` (the value overflows 32 bits).
///
/// # Safety
/// The CPU must have SSSE3 and SSE4.1.
#[inline(always)]
unsafe fn two(data: __m128i, shuffle: __m128i) -> Option<__m128i> {
    // SAFETY: the caller provides the CPU features.
    unsafe {
        let s = _mm_shuffle_epi8(data, shuffle);
        // e sits at bytes 6 and 14, its high bit clear (a last byte): the
        // value overflows unless it fits in 4 bits. (REJECT fails here.)
        let e_high = _mm_set_epi64x(0xf0 << 48, 0xf0 << 48);
        if _mm_testz_si128(s, e_high) == 0 {
            return None;
        }
        // Y = (b, c, d, e + a 2^8)_16 in each 64-bit half, high bits cleared.
        let y = _mm_and_si128(s, _mm_set1_epi8(0x7f));
        let a = _mm_srli_epi64(y, 56);
        let x = _mm_mullo_epi16(y, _mm_set_epi16(16, 32, 64, 128, 16, 32, 64, 128));
        let bytes = _mm_or_si128(_mm_or_si128(a, x), _mm_slli_epi64(x, 8));
        // The even bytes of each half hold the value.
        let gather = _mm_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 14, 12, 10, 8, 6, 4, 2, 0);
        Some(_mm_shuffle_epi8(bytes, gather))
    }
}

/// Prefix sum of 4 gaps plus the last value, when `DELTA`; updates `last`.
///
/// # Safety
/// The CPU must have SSE2.
#[inline(always)]
unsafe fn sum4<const DELTA: bool>(v: __m128i, last: &mut __m128i) -> __m128i {
    if !DELTA {
        return v;
    }
    // SAFETY: the caller provides the CPU features.
    unsafe {
        let v = _mm_add_epi32(v, _mm_slli_si128(v, 4));
        let v = _mm_add_epi32(v, _mm_slli_si128(v, 8));
        let v = _mm_add_epi32(v, *last);
        *last = _mm_shuffle_epi32(v, 0b11_11_11_11);
        v
    }
}

/// Prefix sum of 2 gaps (lanes 0 and 1) plus the last value, when `DELTA`.
///
/// # Safety
/// The CPU must have SSE2.
#[inline(always)]
unsafe fn sum2<const DELTA: bool>(v: __m128i, last: &mut __m128i) -> __m128i {
    if !DELTA {
        return v;
    }
    // SAFETY: the caller provides the CPU features.
    unsafe {
        let v = _mm_add_epi32(v, _mm_slli_si128(v, 4));
        let v = _mm_add_epi32(v, *last);
        *last = _mm_shuffle_epi32(v, 0b01_01_01_01);
        v
    }
}

/// The high bits of `bytes[at..at + 16]` (`pmovmskb`).
///
/// # Safety
/// `at + 16 <= bytes.len()`; the CPU must have SSE2.
#[inline(always)]
unsafe fn movemask16(bytes: &[u8], at: usize) -> u64 {
    // SAFETY: the caller's contract is load's, plus the CPU features.
    u64::from(unsafe { _mm_movemask_epi8(load(bytes, at)) } as u16)
}

/// `movdqu` of `bytes[at..at + 16]`.
///
/// # Safety
/// `at + 16 <= bytes.len()`; the CPU must have SSE2.
#[inline(always)]
unsafe fn load(bytes: &[u8], at: usize) -> __m128i {
    debug_assert!(at + 16 <= bytes.len());
    // SAFETY: the caller guarantees the 16 bytes are inside `bytes`; loadu needs no alignment.
    unsafe { _mm_loadu_si128(bytes.as_ptr().add(at).cast()) }
}

/// Stores the 4 lanes of `v` at `out[at..at + 4]`.
///
/// # Safety
/// `at + 4 <= out.len()`; the CPU must have SSE2.
#[inline(always)]
unsafe fn store4(out: &mut [u32], at: usize, v: __m128i) {
    debug_assert!(at + 4 <= out.len());
    // SAFETY: the caller guarantees the 16 bytes are inside `out`; storeu needs no alignment.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().add(at).cast(), v) }
}

/// Stores lanes 0 and 1 of `v` at `out[at..at + 2]`.
///
/// # Safety
/// `at + 2 <= out.len()`; the CPU must have SSE2.
#[inline(always)]
unsafe fn store2(out: &mut [u32], at: usize, v: __m128i) {
    debug_assert!(at + 2 <= out.len());
    // SAFETY: the caller guarantees the 8 bytes are inside `out`; movq needs no alignment.
    unsafe { _mm_storel_epi64(out.as_mut_ptr().add(at).cast(), v) }
}

#[cfg(test)]
mod tests;
