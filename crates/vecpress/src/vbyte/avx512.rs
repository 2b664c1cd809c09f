//! VByte decoding with AVX-512 VBMI/VBMI2: sixteen values per step, no tables.
//!
//! Masked VByte (see `masked.rs`) looks up each 12-bit window of continuation
//! bits in a 4096-entry table. With AVX-512 the positions of the values can be
//! computed instead, for a whole 64-byte window at once:
//!
//! ```text
//! window  = load 64 bytes
//! more    = movepi8_mask(window)          // bit k: byte k has a successor
//! ends    = compress_epi8(!more, 0..64)   // vpcompressb: byte index of each value's last byte
//! starts  = (ends + 1) shifted up one byte, 0 first
//! len     = ends - starts + 1             // 1..5 is valid; stop before the first > 5
//! idx     = starts[k] + j for byte j of lane k (vpermb broadcast + add)
//! bytes   = permutexvar_epi8(idx, window), zeroed where idx > ends[k]
//! value   = madd(maddubs(bytes & 0x7f, [1, 128]), [1, 1 << 14])   // 4 x 7 bits -> 28 bits
//!         | (last byte << 28) where len == 5
//! store 16 values, advance by ends[15] + 1
//! ```
//!
//! Tricks layered on it:
//! - A window with no continuation bit at all is 64 one-byte values: zero-extend
//!   and store 64 values with four `vpmovzxbd`, the common case of posting lists.
//! - A window whose first 16 bytes are one-byte values stores 16 at once.
//! - Validity is checked in the same registers: a value longer than 5 bytes, or
//!   a 5th byte above `0x0f`, ends the step before that value, and the kernel
//!   returns so that the checked scalar code reports the error.
//! - Delta coding: the prefix sum of 16 lanes is four shift-and-add steps
//!   (`valignd` against zero), plus the previous value broadcast to every lane.
#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

/// Bytes read per step.
const WINDOW: usize = 64;
/// Values written per general step.
const LANES: usize = 16;
/// The low byte of each 32-bit lane.
const LOW_BYTES: u64 = 0x1111_1111_1111_1111;

/// Byte `4k + j` of each 32-bit lane `k` is `k`: broadcasts byte `k` of a
/// vector to the four bytes of lane `k` through `vpermb`.
const fn lane_broadcast() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i / 4) as u8;
        i += 1;
    }
    t
}

/// Byte `4k + j` is `j`: the offset of byte `j` within its value.
const fn lane_offsets() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i % 4) as u8;
        i += 1;
    }
    t
}

/// Byte `k` is `k`.
const fn iota() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = i as u8;
        i += 1;
    }
    t
}

static LANE_BROADCAST: [u8; 64] = lane_broadcast();
static LANE_OFFSETS: [u8; 64] = lane_offsets();
static IOTA: [u8; 64] = iota();

/// The loop-invariant registers.
struct Consts {
    broadcast: [__m512i; 4],
    offsets: __m512i,
    iota: __m512i,
    low7: __m512i,
    stops: __m512i,
    w7: __m512i,
    w14: __m512i,
    /// `vpermd` indices: lane 3 into lanes 4..8, lane 11 into lanes 12..16.
    quads: __m512i,
    /// `vpermd` indices: lane 7 everywhere.
    lane7: __m512i,
    /// `vpermd` indices: lane 15 everywhere.
    lane15: __m512i,
    /// `vpermd` indices: lane 14 (the low half of qword 7) everywhere.
    lane14: __m512i,
    /// The lanes that get the pair, quad and octet sums.
    masks: [__mmask16; 3],
    /// Bits that a gap below 32 leaves clear.
    small: __m512i,
    /// `vpermq` indices (lanes 0.. zeroed by masks): qword i - 1, i - 2, i - 4.
    qword_shifts: [__m512i; 3],
    /// `vpermd` indices: qword 2q's low half into lanes 0..8, 2q + 1's into 8..16.
    qword_carries: [__m512i; 4],
    /// `vpermb` indices: byte 16q + k into lane k (its other bytes are zeroed).
    low_bytes: [__m512i; 4],
}

impl Consts {
    /// # Safety
    /// The CPU must have AVX-512F.
    #[inline(always)]
    unsafe fn new() -> Consts {
        // SAFETY: each table is 64 readable bytes; unaligned loads; AVX-512F per the caller.
        unsafe {
            Consts {
                broadcast: {
                    let b = _mm512_loadu_si512(LANE_BROADCAST.as_ptr().cast());
                    let step = _mm512_set1_epi8(LANES as i8);
                    let b1 = _mm512_add_epi8(b, step);
                    let b2 = _mm512_add_epi8(b1, step);
                    [b, b1, b2, _mm512_add_epi8(b2, step)]
                },
                offsets: _mm512_loadu_si512(LANE_OFFSETS.as_ptr().cast()),
                iota: _mm512_loadu_si512(IOTA.as_ptr().cast()),
                low7: _mm512_set1_epi8(0x7f),
                // The high bit of bytes 0..2 of a lane (byte 3 always ends
                // what a lane holds).
                stops: _mm512_set1_epi32(0x0080_8080),
                // maddubs: unsigned weights times signed 7-bit bytes: b0 + 128 * b1.
                w7: _mm512_set1_epi16(0x8001u16 as i16),
                // madd: pairs of 14-bit halves: h0 + 2^14 * h1.
                w14: _mm512_set1_epi32(0x4000_0001),
                // Hidden from the optimiser: with constant indices LLVM turns
                // each one-uop vpermd into two shuffles on the same port.
                quads: core::hint::black_box(_mm512_set_epi32(
                    11, 11, 11, 11, 0, 0, 0, 0, 3, 3, 3, 3, 0, 0, 0, 0,
                )),
                lane7: core::hint::black_box(_mm512_set1_epi32(7)),
                lane15: core::hint::black_box(_mm512_set1_epi32(15)),
                lane14: core::hint::black_box(_mm512_set1_epi32(14)),
                // Hidden too, or the masked adds become adds and blends.
                masks: core::hint::black_box([0xcccc, 0xf0f0, 0xff00]),
                small: _mm512_set1_epi8(0xe0u8 as i8),
                qword_shifts: core::hint::black_box([
                    _mm512_set_epi64(6, 5, 4, 3, 2, 1, 0, 0),
                    _mm512_set_epi64(5, 4, 3, 2, 1, 0, 0, 0),
                    _mm512_set_epi64(3, 2, 1, 0, 0, 0, 0, 0),
                ]),
                qword_carries: core::hint::black_box([
                    _mm512_set_epi32(2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0),
                    _mm512_set_epi32(6, 6, 6, 6, 6, 6, 6, 6, 4, 4, 4, 4, 4, 4, 4, 4),
                    _mm512_set_epi32(10, 10, 10, 10, 10, 10, 10, 10, 8, 8, 8, 8, 8, 8, 8, 8),
                    _mm512_set_epi32(
                        14, 14, 14, 14, 14, 14, 14, 14, 12, 12, 12, 12, 12, 12, 12, 12,
                    ),
                ]),
                low_bytes: core::hint::black_box([
                    _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                    _mm512_set_epi32(
                        31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                    ),
                    _mm512_set_epi32(
                        47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
                    ),
                    _mm512_set_epi32(
                        63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
                    ),
                ]),
            }
        }
    }
}

/// The index of each value's first byte, in order, from the set bits of
/// `starts` (bit k: byte k of the window starts a value): one vpcompressb for
/// up to 64 values.
///
/// # Safety
/// The CPU must have the Avx512 level's features.
#[inline(always)]
unsafe fn first_bytes(c: &Consts, starts: u64) -> __m512i {
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
unsafe fn gather4(c: &Consts, window: __m512i, first: __m512i, q: usize) -> __m512i {
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
unsafe fn fifth_bytes(
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

/// Loads the window of up to 64 bytes at `input[at..]`, zeros past the end.
///
/// # Safety
/// The CPU must have AVX-512F and BW; `at <= input.len()`.
#[inline(always)]
unsafe fn load_window(input: &[u8], at: usize) -> __m512i {
    let left = input.len() - at;
    // SAFETY: `at <= input.len()`, so the pointer is in bounds or one past the
    // end; the plain load reads 64 bytes only when 64 remain, and the masked
    // load reads only the `left` bytes its mask enables (masked-off lanes are
    // not accessed and cannot fault).
    unsafe {
        let src = input.as_ptr().add(at);
        if left >= WINDOW {
            _mm512_loadu_si512(src.cast())
        } else {
            _mm512_maskz_loadu_epi8(_bzhi_u64(!0, left as u32), src.cast())
        }
    }
}

/// Bit k set when byte k of the window ends a value and lies before the end
/// of the input (`left` bytes remain from the window's start).
///
/// # Safety
/// The CPU must have AVX-512BW and BMI2.
#[inline(always)]
unsafe fn last_byte_mask(window: __m512i, left: usize) -> u64 {
    // SAFETY: register-only intrinsics; the features are the caller's promise.
    unsafe { !_mm512_movepi8_mask(window) & _bzhi_u64(!0, left.min(WINDOW) as u32) }
}

/// Prefix sum of the 16 lanes of `x`.
///
/// Pairs first, with a 64-bit shift (port 0, not the shuffle port), then the
/// last lane of each pair, quad and octet is added to the next one (three
/// shuffles where the textbook log-step scan needs four).
///
/// # Safety
/// The CPU must have AVX-512F.
#[inline(always)]
unsafe fn prefix_sum(c: &Consts, x: __m512i) -> __m512i {
    // SAFETY: register-only intrinsics; AVX-512F per the caller.
    unsafe {
        let x = _mm512_add_epi32(x, _mm512_slli_epi64::<32>(x));
        let x = _mm512_mask_add_epi32(x, c.masks[0], x, _mm512_shuffle_epi32::<0x55>(x));
        let x = _mm512_mask_add_epi32(x, c.masks[1], x, _mm512_permutexvar_epi32(c.quads, x));
        _mm512_mask_add_epi32(x, c.masks[2], x, _mm512_permutexvar_epi32(c.lane7, x))
    }
}

/// Turns the `n` gaps in lanes 0..n of `x` into values: their prefix sum plus
/// `acc` (the previous value in every lane), and adds the sum of the `n` gaps
/// to `acc`. The loop-carried chain is one add: the sums and broadcasts of
/// successive steps run in parallel.
///
/// # Safety
/// The CPU must have AVX-512F; `1 <= n <= 16`.
#[inline(always)]
unsafe fn accumulate(c: &Consts, x: __m512i, acc: &mut __m512i, n: usize) -> __m512i {
    // SAFETY: register-only intrinsics; AVX-512F per the caller.
    unsafe {
        let local = prefix_sum(c, x);
        let last = if n == LANES {
            c.lane15
        } else {
            _mm512_set1_epi32(n as i32 - 1)
        };
        let total = _mm512_permutexvar_epi32(last, local);
        let values = _mm512_add_epi32(local, *acc);
        *acc = _mm512_add_epi32(*acc, total);
        values
    }
}

/// 64 one-byte gaps, each below 32, at `dst` as values: their running sum
/// from `acc` (the previous value in every lane). Returns the new `acc`.
///
/// Within each qword the eight byte-wide prefix sums cannot overflow (8 x 31
/// < 256), so three shift-and-add steps on port 0 compute them for all 64
/// bytes at once; the qword totals get a prefix sum of their own, added to
/// each 16-value block with one `vpermd`. About 12 shuffles for 64 values
/// where the general path needs 20.
///
/// # Safety
/// The CPU must have the Avx512 level's features; `dst` must be valid for
/// writing 64 u32.
#[inline(always)]
unsafe fn tiny_gaps(c: &Consts, window: __m512i, acc: __m512i, dst: *mut u32) -> __m512i {
    // SAFETY: register-only intrinsics and four 64-byte stores inside `dst`'s
    // 64 values; the features are the caller's promise.
    unsafe {
        let x = _mm512_add_epi8(window, _mm512_slli_epi64::<8>(window));
        let x = _mm512_add_epi8(x, _mm512_slli_epi64::<16>(x));
        let x = _mm512_add_epi8(x, _mm512_slli_epi64::<32>(x));
        // Qword totals, then their inclusive prefix sum over the 8 qwords.
        let totals = _mm512_srli_epi64::<56>(x);
        let s = _mm512_add_epi64(
            totals,
            _mm512_maskz_permutexvar_epi64(0xfe, c.qword_shifts[0], totals),
        );
        let s = _mm512_add_epi64(
            s,
            _mm512_maskz_permutexvar_epi64(0xfc, c.qword_shifts[1], s),
        );
        let s = _mm512_add_epi64(
            s,
            _mm512_maskz_permutexvar_epi64(0xf0, c.qword_shifts[2], s),
        );
        // What comes before each qword, plus the value before the window.
        let before = _mm512_add_epi32(_mm512_sub_epi64(s, totals), acc);
        for q in 0..4 {
            let v = _mm512_maskz_permutexvar_epi8(LOW_BYTES, c.low_bytes[q], x);
            let v = _mm512_add_epi32(v, _mm512_permutexvar_epi32(c.qword_carries[q], before));
            _mm512_storeu_si512(dst.add(LANES * q).cast(), v);
        }
        _mm512_add_epi32(acc, _mm512_permutexvar_epi32(c.lane14, s))
    }
}

/// Moves the two masks forward until they cover `pos`: `lo` holds the
/// last-byte bits of the 64 bytes from `base`, `hi` of the 64 after.
///
/// # Safety
/// The CPU must have the Avx512 level's features; `base <= pos <= input.len()`.
#[inline(always)]
unsafe fn advance(base: &mut usize, pos: usize, lo: &mut u64, hi: &mut u64, input: &[u8]) {
    while pos - *base >= WINDOW {
        *base += WINDOW;
        *lo = *hi;
        let next = *base + WINDOW;
        *hi = if next < input.len() {
            // SAFETY: next < input.len(); the features are the caller's promise.
            unsafe { last_byte_mask(load_window(input, next), input.len() - next) }
        } else {
            0
        };
    }
}

/// The shared loop; `DELTA` selects the fused prefix sum.
///
/// The positions of value ends come from two 64-bit masks covering 128 bytes
/// from `base`, shifted to the current position in general-purpose registers,
/// so the loop-carried chain (position -> mask -> next position) never waits
/// for a vector load or `vpmovb2m`.
///
/// # Safety
/// The CPU must have the Avx512 level's features.
#[inline(always)]
unsafe fn decode<const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    let len = input.len();
    let mut pos = 0;
    let mut done = 0;
    // SAFETY: windows are loaded only at offsets <= len (load_window reads no
    // byte past the end); stores write lanes done..done + k with
    // k <= out.len() - done (full stores only when room allows; masked stores
    // touch only the lanes they enable).
    unsafe {
        let c = Consts::new();
        let mut acc = _mm512_set1_epi32(*prev as i32);
        let dst = out.as_mut_ptr();
        let mut base = 0;
        let mut lo = last_byte_mask(load_window(input, 0), len);
        let mut hi = if len > WINDOW {
            last_byte_mask(load_window(input, WINDOW), len - WINDOW)
        } else {
            0
        };
        while done < out.len() {
            let room = out.len() - done;
            let rel = pos - base;
            // Last-byte bits of the 64 bytes from `pos` (zero past the input).
            let t = if rel == 0 {
                lo
            } else {
                (lo >> rel) | (hi << (WINDOW - rel))
            };
            if t == 0 {
                // No value ends in 64 bytes: the input ended, or a value is too long.
                break;
            }
            let window = load_window(input, pos);
            if t == !0 && room >= WINDOW {
                // 64 one-byte values.
                if DELTA && _mm512_test_epi8_mask(window, c.small) == 0 {
                    // ... each below 32: their prefix sums fit bytes within a qword.
                    acc = tiny_gaps(&c, window, acc, dst.add(done));
                    pos += WINDOW;
                    done += WINDOW;
                    advance(&mut base, pos, &mut lo, &mut hi, input);
                    continue;
                }
                for q in 0..4 {
                    // Byte 16q + k to the low byte of lane k: one vpermb.
                    let idx = _mm512_add_epi8(c.broadcast[0], _mm512_set1_epi8(16 * q as i8));
                    let mut v = _mm512_maskz_permutexvar_epi8(LOW_BYTES, idx, window);
                    if DELTA {
                        v = accumulate(&c, v, &mut acc, LANES);
                    }
                    _mm512_storeu_si512(dst.add(done + LANES * q).cast(), v);
                }
                pos += WINDOW;
                done += WINDOW;
                advance(&mut base, pos, &mut lo, &mut hi, input);
                continue;
            }
            // Bytes of the values that end in the window, and their continuation bits.
            let span = _bzhi_u64(!0, 64 - t.leading_zeros());
            let more = !t & span;
            // A value of five or more bytes has four continuation bytes in a row.
            let runs4 = more & (more >> 1) & (more >> 2) & (more >> 3);
            let m = t.count_ones() as usize;
            if runs4 == 0 && m > 2 * LANES && room >= WINDOW {
                // Every value that ends in the window, up to 64 of 1..4 bytes:
                // one vpcompressb of their first bytes, 16 values a gather.
                let first = first_bytes(&c, ((t << 1) | 1) & span);
                for q in 0..m.div_ceil(LANES) {
                    let mut v = gather4(&c, window, first, q);
                    if DELTA {
                        v = accumulate(&c, v, &mut acc, (m - LANES * q).min(LANES));
                    }
                    _mm512_storeu_si512(dst.add(done + LANES * q).cast(), v);
                }
                pos += span.count_ones() as usize;
                done += m;
            } else {
                // The end of the 16th value, found from the mask alone so that
                // the next position does not wait for the vector work.
                let sixteenth = _pdep_u64(1 << (LANES - 1), t);
                let (n, end) = if sixteenth != 0 && room >= LANES {
                    (LANES, sixteenth.trailing_zeros() as usize)
                } else {
                    let n = (t.count_ones() as usize).min(LANES).min(room);
                    (n, _pdep_u64(1 << (n - 1), t).trailing_zeros() as usize)
                };
                let mut v = gather4(&c, window, first_bytes(&c, (t << 1) | 1), 0);
                // Only with four continuation bytes in a row are the 5th bytes
                // (and validity) looked at.
                let mut valid = n;
                if runs4 & _bzhi_u64(!0, end as u32) != 0 {
                    (v, valid) = fifth_bytes(&c, window, t, n, v);
                }
                if valid < n {
                    // Stop before an invalid value: the scalar code reports it.
                    if valid > 0 {
                        if DELTA {
                            v = accumulate(&c, v, &mut acc, valid);
                        }
                        _mm512_mask_storeu_epi32(
                            dst.add(done).cast(),
                            _bzhi_u32(!0, valid as u32) as u16,
                            v,
                        );
                        pos += _pdep_u64(1 << (valid - 1), t).trailing_zeros() as usize + 1;
                        done += valid;
                    }
                    break;
                }
                if DELTA {
                    v = accumulate(&c, v, &mut acc, n);
                }
                _mm512_mask_storeu_epi32(dst.add(done).cast(), _bzhi_u32(!0, n as u32) as u16, v);
                pos += end + 1;
                done += n;
            }
            advance(&mut base, pos, &mut lo, &mut hi, input);
        }
        if DELTA {
            *prev = _mm_cvtsi128_si32(_mm512_castsi512_si128(acc)) as u32;
        }
    }
    (pos, done)
}

/// Decodes a prefix of `input` into `out`; returns (bytes consumed, values
/// produced). Stops before any invalid value and wherever less than a window
/// of input or a step of output remains; the scalar code does the rest.
///
/// # Safety
/// The CPU must have every feature of the Avx512 level (see `isa.rs`).
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn decode_bulk(input: &[u8], out: &mut [u32]) -> (usize, usize) {
    let mut unused = 0;
    // SAFETY: the features are the caller's promise; `decode` bounds its own accesses.
    unsafe { decode::<false>(input, out, &mut unused) }
}

/// [`decode_bulk`] for gaps: writes their running sum from `*prev` and leaves
/// the last value written in `*prev`.
///
/// # Safety
/// The CPU must have every feature of the Avx512 level (see `isa.rs`).
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn decode_delta_bulk(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: the features are the caller's promise; `decode` bounds its own accesses.
    unsafe { decode::<true>(input, out, prev) }
}
