//! Masked VByte: the SSE4.1 VByte decoder of Plaisance, Kurz and Lemire,
//! *Vectorized VByte Decoding* (2015), §IV.
//!
//! # Algorithm
//!
//! ```text
//! mask = 0                           // bit k: continuation bit of input[pos + k]
//! while 16 values of room remain:
//!     if fewer than 16 bits of mask remain:
//!         append pmovmskb of the next 48 bytes (16 near the end; stop if none)
//!         if mask == 0 (at least 48 one-byte values):
//!             write 48 values with pmovzxbd; pos += 48; continue
//!     data = movdqu input[pos..pos + 16]
//!     [consumed, i] = DECODE[mask & 0xfff]          // tables.rs; stop if consumed == 0
//!     i <  64: 6 values of 1-2 bytes        (16-bit lanes)
//!     i < 145: 4 values of 1-3 bytes        (32-bit lanes)
//!     else:    2 values of 1-5 bytes        (64-bit lanes; stop if one overflows)
//!     pos += consumed; mask >>= consumed
//! ```
//!
//! After `s = pshufb(data, SHUFFLE[i])` each case assembles its values:
//!
//! - **6 x 1-2 bytes**: `(s & 0x007f) | (s & 0x7f00) >> 1` as 16-bit lanes
//!   (`pand`, `psrlw`, `por`), then `pmovzxwd` of each half.
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
//! - The mask lives in a 64-bit register, shifted by the bytes each step
//!   consumes; `pmovmskb` sees each input byte once, 48 at a time, off the
//!   critical path (table load, then shift).
//! - The paper's fast path for an all-zero mask (one-byte values only) is
//!   tested once per 48-byte refill, not once per 12-byte window: on mixed
//!   data a per-window test mispredicts often (with 5% of two-byte gaps a
//!   16-value zero-window path made the kernel about 10% slower), and a zero
//!   window needs no branch anyway: `DECODE[0]` is six one-byte values.
//! - Invalid input is never decoded: `DECODE` gives 0 bytes consumed when the
//!   window starts with no decodable case (a varint longer than 5 bytes), and
//!   the 2-value case checks that a 5th byte is at most `0x0f` (`ptest`). The
//!   kernel then stops before that value; the checked scalar code reports it.
//! - Differential coding is fused in (paper, "Differential Coding"): 4 gaps
//!   get their prefix sum with `pslldq` + `paddd` twice, 2 gaps with one
//!   `pslldq` + `paddd`; the last value, broadcast with `pshufd`, is added to
//!   the next group.
//! - No padding: every load stays inside `input`, every store inside `out`,
//!   and nothing is written past the values produced. The tail (under 32
//!   bytes, or under 16 values of room) is left to the scalar decoder.

use core::arch::x86_64::*;

use super::tables::{DECODE, FOUR_END, SHUFFLE, SIX_END, WINDOW};

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
    while produced + 16 <= out.len() {
        if end - pos < 16 {
            let (more, added) = if end + 48 <= input.len() {
                // SAFETY: input[end..end + 48] exists, as just checked.
                let more = unsafe {
                    movemask16(input, end)
                        | movemask16(input, end + 16) << 16
                        | movemask16(input, end + 32) << 32
                };
                (more, 48)
            } else if end + 16 <= input.len() {
                // SAFETY: input[end..end + 16] exists, as just checked.
                (unsafe { movemask16(input, end) }, 16)
            } else {
                break;
            };
            mask |= more << (end - pos);
            end += added;
            if mask == 0 && end - pos >= 48 && produced + 48 <= out.len() {
                // SAFETY: input[pos..pos + 48] and out[produced..produced + 48]
                // exist, as just checked; the caller provides the CPU features.
                unsafe { ones::<DELTA>(input, pos, out, produced, &mut last) };
                pos += 48;
                produced += 48;
                continue;
            }
        }
        // Now 16 <= end - pos, so input[pos..pos + 16] and 16 bits of mask exist.
        if mask & 0xffff == 0 {
            // SAFETY: input[pos..pos + 16] exists (above) and out has room for
            // 16 values (the loop condition); the caller provides the features.
            unsafe { ones16::<DELTA>(load(input, pos), out, produced, &mut last) };
            pos += 16;
            produced += 16;
            mask >>= 16;
            continue;
        }
        // SAFETY: as just said; `produced + 16 <= out.len()` bounds every store
        // (at most 6 values); the caller provides the CPU features.
        let consumed = unsafe {
            let data = load(input, pos);
            let [consumed, index] = DECODE[(mask & ((1 << WINDOW) - 1)) as usize];
            if consumed == 0 {
                break;
            }
            let shuffle = load(&SHUFFLE[usize::from(index)], 0);
            if index < SIX_END {
                let (a, b) = six(data, shuffle);
                store4(out, produced, sum4::<DELTA>(a, &mut last));
                store2(out, produced + 4, sum2::<DELTA>(b, &mut last));
                produced += 6;
            } else if index < FOUR_END {
                let v = four(data, shuffle);
                store4(out, produced, sum4::<DELTA>(v, &mut last));
                produced += 4;
            } else {
                let Some(v) = two(data, shuffle) else { break };
                store2(out, produced, sum2::<DELTA>(v, &mut last));
                produced += 2;
            }
            consumed
        };
        pos += usize::from(consumed);
        mask >>= consumed;
    }
    // SAFETY: as above.
    *prev = unsafe { _mm_cvtsi128_si32(last) } as u32;
    (pos, produced)
}

/// Writes the 48 one-byte values `input[at..at + 48]` to `out[to..to + 48]`.
///
/// # Safety
/// `at + 48 <= input.len()`, `to + 48 <= out.len()`; the CPU must have SSE4.1.
#[inline(always)]
unsafe fn ones<const DELTA: bool>(
    input: &[u8],
    at: usize,
    out: &mut [u32],
    to: usize,
    last: &mut __m128i,
) {
    for k in 0..3 {
        // SAFETY: the caller's contract covers these 16 bytes and 16 values.
        unsafe {
            let data = load(input, at + 16 * k);
            let (at, data4) = (to + 16 * k, _mm_srli_si128(data, 4));
            let (data8, data12) = (_mm_srli_si128(data, 8), _mm_srli_si128(data, 12));
            store4(out, at, sum4::<DELTA>(_mm_cvtepu8_epi32(data), last));
            store4(out, at + 4, sum4::<DELTA>(_mm_cvtepu8_epi32(data4), last));
            store4(out, at + 8, sum4::<DELTA>(_mm_cvtepu8_epi32(data8), last));
            store4(out, at + 12, sum4::<DELTA>(_mm_cvtepu8_epi32(data12), last));
        }
    }
}

/// Writes the 16 one-byte values in `data` to `out[to..to + 16]`.
///
/// # Safety
/// `to + 16 <= out.len()`; the CPU must have SSE4.1.
#[inline(always)]
unsafe fn ones16<const DELTA: bool>(data: __m128i, out: &mut [u32], to: usize, last: &mut __m128i) {
    // SAFETY: the caller's contract covers these 16 values.
    unsafe {
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
            _mm_cvtepu16_epi32(v),
            _mm_cvtepu16_epi32(_mm_srli_si128(v, 8)),
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
        // Y = (b, c, d, e + a 2^8)_16 in each 64-bit half, high bits cleared.
        let y = _mm_shuffle_epi8(_mm_and_si128(data, _mm_set1_epi8(0x7f)), shuffle);
        // e sits at bytes 6 and 14; it must fit in 4 bits.
        let e_high = _mm_set_epi64x(0x70 << 48, 0x70 << 48);
        if _mm_testz_si128(y, e_high) == 0 {
            return None;
        }
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
mod tests {
    use super::{decode_bulk, decode_delta_bulk};
    use crate::vbyte::{decode_delta_with, decode_with, encode_to_vec};
    use crate::Isa;

    /// xorshift64: a tiny deterministic generator.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// `n` values whose byte lengths are drawn from the set bits of `mix` (bit L-1 = L bytes).
    fn values(rng: &mut Rng, n: usize, mix: u32) -> Vec<u32> {
        let lens: Vec<u32> = (1..=5).filter(|l| mix >> (l - 1) & 1 == 1).collect();
        (0..n)
            .map(|_| {
                let len = lens[rng.below(lens.len() as u64) as usize];
                let low = if len == 1 { 0 } else { 1u64 << (7 * (len - 1)) };
                let high = (1u64 << (7 * len)).min(1 << 32);
                (low + rng.below(high - low)) as u32
            })
            .collect()
    }

    /// Sse41 and Scalar give the same result and output for `n` values, plain and delta.
    fn check(input: &[u8], n: usize, what: &str) {
        let run = |isa, delta| {
            let mut out = vec![0u32; n];
            let result = match delta {
                true => decode_delta_with(isa, input, &mut out, 7),
                false => decode_with(isa, input, &mut out),
            };
            (result, out)
        };
        for delta in [false, true] {
            let (want, got) = (run(Isa::Scalar, delta), run(Isa::Sse41, delta));
            assert_eq!(got, want, "{what}, n {n}, delta {delta}");
        }
    }

    /// Calls the kernels directly: bounds, progress on valid input, and `prev`.
    fn check_kernel(input: &[u8], n: usize, what: &str) {
        let mut out = vec![0u32; n];
        // SAFETY: the callers test `Isa::Sse41.is_supported()` first.
        let (consumed, produced) = unsafe { decode_bulk(input, &mut out) };
        assert!(consumed <= input.len() && produced <= n, "{what}");
        assert!(
            produced + 32 >= n.min(input.len()),
            "{what}: only {produced} of {n}"
        );
        let mut prev = 7;
        // SAFETY: as above.
        let (c, p) = unsafe { decode_delta_bulk(input, &mut out, &mut prev) };
        assert_eq!((c, p), (consumed, produced), "{what}");
        assert_eq!(prev, if p == 0 { 7 } else { out[p - 1] }, "{what}");
    }

    #[test]
    fn random_streams_match_scalar() {
        if !Isa::Sse41.is_supported() {
            return;
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut buf = vec![0u8; 5 * 2000 + 64];
        for mix in 1..32 {
            let mut sizes = vec![0, 1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 49, 64, 100, 1999];
            sizes.extend((0..4).map(|_| rng.below(2000) as usize));
            for n in sizes {
                let bytes = encode_to_vec(&values(&mut rng, n, mix));
                let offset = 1 + 2 * rng.below(32) as usize;
                buf[offset..offset + bytes.len()].copy_from_slice(&bytes);
                let input = &buf[offset..offset + bytes.len()];
                let what = format!("mix {mix:05b}, offset {offset}");
                check(input, n, &what);
                check(input, n / 2, &what); // room for only part of the stream
                check_kernel(input, n, &what);
            }
        }
    }

    #[test]
    fn invalid_varint_at_every_position() {
        if !Isa::Sse41.is_supported() {
            return;
        }
        let mut rng = Rng(12345);
        let mut bad: Vec<Vec<u8>> = vec![vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x01]];
        bad.extend((0x10..=0x7f).map(|e| vec![0xff, 0xff, 0xff, 0xff, e]));
        for mix in [0b00001, 0b00011, 0b00111, 0b11111, 0b10001] {
            let vals = values(&mut rng, 80, mix);
            for k in 0..vals.len() {
                for (b, bytes) in bad.iter().enumerate() {
                    if b > 1 && rng.below(8) != 0 {
                        continue; // a sample of the 5th-byte values at each position
                    }
                    let mut input = encode_to_vec(&vals[..k]);
                    input.extend_from_slice(bytes);
                    input.extend(encode_to_vec(&vals[k + 1..]));
                    let what = format!("mix {mix:05b}, bad value {k}: {bytes:02x?}");
                    check(&input, vals.len(), &what);
                }
            }
        }
    }

    #[test]
    fn largest_values_and_truncated_streams() {
        if !Isa::Sse41.is_supported() {
            return;
        }
        let mut rng = Rng(777);
        let top = [u32::MAX, u32::MAX - 1, 1 << 31, 1 << 28, (1 << 28) - 1, 0];
        let vals: Vec<u32> = (0..70).map(|i| top[i % top.len()]).collect();
        let bytes = encode_to_vec(&vals);
        check(&bytes, vals.len(), "largest values");
        check_kernel(&bytes, vals.len(), "largest values");
        for mix in [0b00001, 0b00011, 0b11111] {
            let vals = values(&mut rng, 90, mix);
            let bytes = encode_to_vec(&vals);
            for cut in 0..bytes.len() {
                check(
                    &bytes[..cut],
                    vals.len(),
                    &format!("mix {mix:05b}, cut at {cut}"),
                );
            }
        }
    }

    /// Decoding speed on 4096-value blocks of gaps, Scalar against Sse41:
    /// `cargo test --release -p vecpress --lib -- --ignored --nocapture masked`
    #[test]
    #[ignore]
    fn speed_against_scalar() {
        use std::time::Instant;
        if !Isa::Sse41.is_supported() {
            return;
        }
        let mut rng = Rng(42);
        // (percent of 2-byte gaps, the rest 1-byte) or (0, mean of geometric gaps)
        for (two, mean) in [(0, 0), (5, 0), (10, 0), (25, 0), (50, 0), (100, 0), (0, 40)] {
            let mut gap = || match mean {
                0 if rng.below(100) < two => 128 + rng.below(16384 - 128) as u32,
                0 => rng.below(128) as u32,
                _ => {
                    (-((1 + rng.below(1 << 30)) as f64 / (1 << 30) as f64).ln() * mean as f64)
                        as u32
                }
            };
            let blocks: Vec<Vec<u8>> = (0..64)
                .map(|_| encode_to_vec(&(0..4096).map(|_| gap()).collect::<Vec<_>>()))
                .collect();
            let mut out = vec![0u32; 4096];
            let mut speed = |isa, delta| {
                let mut best = f64::MAX;
                for _ in 0..20 {
                    let start = Instant::now();
                    for block in &blocks {
                        match delta {
                            true => decode_delta_with(isa, block, &mut out, 0).unwrap(),
                            false => decode_with(isa, block, &mut out).unwrap(),
                        };
                    }
                    best = best.min(start.elapsed().as_secs_f64());
                }
                (blocks.len() * 4096) as f64 / best / 1e6
            };
            for delta in [true, false] {
                let (scalar, sse41) = (speed(Isa::Scalar, delta), speed(Isa::Sse41, delta));
                let ratio = sse41 / scalar;
                println!(
                    "2-byte {two:3}%, geometric mean {mean:3}, delta {delta:5}: \
                     scalar {scalar:5.0} Mi/s, sse41 {sse41:5.0} Mi/s, ratio {ratio:.2}"
                );
            }
        }
    }
}
