//! VByte decoding with AVX-512 VBMI/VBMI2: up to 64 values a step, no tables.
//!
//! Masked VByte (`masked/`) looks up each 12-bit window of continuation bits
//! in a 4096-entry table, six values at most a lookup. With VBMI2 the
//! positions of the values are computed instead, for a 64-byte window at once:
//!
//! ```text
//! stops  = last-byte flags of the 64 bytes from pos        (!vpmovb2m, kept in GPRs)
//! first  = vpcompressb(stops << 1 | 1, 0..64)              // first byte of each value
//! for each 16 values q:
//!     idx   = first[16q + k] + j for byte j of lane k       (vpermb + add)
//!     raw   = vpermb(idx, window)                           // 4 bytes from each start
//!     keep  = bytes up to the first one without its high bit (y ^ (y - 1) trick)
//!     value = madd(maddubs(raw & keep & 0x7f, [1, 2^7]), [1, 2^14])   // 4 x 7 -> 28 bits
//! pos += one past the last byte of the last value decoded
//! ```
//!
//! The steps, by what the window holds (`gather.rs`, `prefix.rs`):
//! - **64 one-byte values**: one vpermb per 16 values widens them; with delta
//!   coding and every gap below 32, the prefix sums are computed in bytes
//!   within qwords by three shifts and adds (`simd::tiny_gaps`), the common case of
//!   dense posting lists.
//! - **More than 32 values of 1-4 bytes**: every value that ends in the window
//!   is decoded with one vpcompressb and a vpermb gather per 16 values.
//! - **Otherwise** (long values): 16 values; where four continuation bytes run
//!   in a row, `fifth_bytes` adds the 5th bytes and checks validity: a value
//!   longer than 5 bytes, or a 5th byte above `0x0f`, ends the kernel before
//!   that value, so that the checked scalar code reports the error.
//!
//! The loop-carried chain never waits for vector work: the last-byte flags of
//! 128 bytes sit in two u64 registers, shifted to the current position, and
//! the next position comes from `pdep`/`tzcnt` on them. Delta coding adds one
//! `vpaddd` to the chain: each step's prefix sum is computed apart and the
//! running value is a broadcast added to it (`accumulate`). Windows near the
//! end of the input are read with masked loads, so the kernel decodes to the
//! last byte without reading past the slice and without padding.
#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

mod consts;
mod gather;
mod prefix;

use consts::Consts;
use gather::{fifth_bytes, first_bytes, gather4};
use prefix::accumulate;

/// Bytes read per step.
const WINDOW: usize = 64;
/// Values written per general step.
const LANES: usize = 16;
/// The fewest values a window must hold for the wide step. With fewer, its
/// last gather is mostly empty and 16-value steps do better (3-byte values:
/// about 21 a window); 2-byte values (about 32) must stay well above it, or
/// the choice flips from window to window and mispredicts.
const WIDE_MIN: usize = 24;
/// The low byte of each 32-bit lane.
const LOW_BYTES: u64 = 0x1111_1111_1111_1111;

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
                if DELTA && c.tiny.fits(window) {
                    // ... each below 32: their prefix sums fit bytes within a qword.
                    acc = c.tiny.decode(window, acc, dst.add(done));
                    pos += WINDOW;
                    done += WINDOW;
                    // Dense lists hold long runs of such windows: a tight loop
                    // for them, without the masks ahead, which are rebuilt after.
                    while pos + WINDOW <= len && out.len() - done >= WINDOW {
                        let window = _mm512_loadu_si512(input.as_ptr().add(pos).cast());
                        if !c.tiny.fits(window) {
                            break;
                        }
                        acc = c.tiny.decode(window, acc, dst.add(done));
                        pos += WINDOW;
                        done += WINDOW;
                    }
                    base = pos;
                    lo = last_byte_mask(load_window(input, pos), len - pos);
                    let next = pos + WINDOW;
                    hi = if next < len {
                        last_byte_mask(load_window(input, next), len - next)
                    } else {
                        0
                    };
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
            if runs4 == 0 && m >= WIDE_MIN && room >= WINDOW {
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
