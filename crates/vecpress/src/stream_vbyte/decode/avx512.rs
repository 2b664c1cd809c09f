//! The AVX-512 kernel (F, BW, VBMI2). Sixteen values a step by one
//! `vpexpandb` of the next 64 data bytes, no shuffle table, and runs of 64
//! one-byte values zero-extended (see [`expand`]);
//! with delta coding, their prefix sum in the register ([`expand_delta`]),
//! runs of 64 one-byte gaps below 32 by the byte sums of [`TinyGaps`], of
//! larger ones in 32-bit lanes ([`Prefix16`]), shorter runs in 16-bit lanes
//! ([`Sums16`]). The last 64 bytes
//! by the 16-byte steps of [`generic`](super::generic), VEX-encoded.
//!
//! A step takes its sixteen values from one load and one `vpexpandb`, with
//! no table row and no lane insert, where four control bytes as four
//! 16-byte lanes of one register would take four loads inserted and one
//! `vpshufb` with four table rows.

use core::arch::x86_64::*;

use super::generic::{OneByteRuns, decode_groups};
use super::sums16::Sums16;
use crate::simd::tiny_gaps::TinyGaps;
use crate::simd::x86::{Prefix16, expand_bytes};
use crate::stream_vbyte::tables::{Variant, expand_mask};

/// Decodes the whole groups of `control` (4 values a byte into `out`) that
/// the data allows; returns (control bytes, data bytes) consumed.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `control.len() == out.len().div_ceil(4)`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn decode<V: Variant, const DELTA: bool>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: the CPU has AVX-512 F, BW and VBMI2, AVX2 and SSE4.1; the
    // caller sizes `out`; `expand` leaves `key <= out.len() / 4` and
    // `pos <= data.len()`.
    unsafe {
        let runs = TinyRuns(TinyGaps::new(), Prefix16::new());
        let (key, pos) = if DELTA {
            expand_delta::<V>(control, data, out, prev, &runs)
        } else {
            expand::<V>(control, data, out)
        };
        decode_groups::<__m128i, V, DELTA>(control, data, out, key, pos, prev, &runs)
    }
}

/// Sixteen values a step while 64 data bytes remain: the data bytes of four
/// control bytes moved into their values' bytes by one `vpexpandb`, under a
/// mask made from them ([`expand_mask`]); the data consumed is the
/// mask's bit count. Returns the new `(key, pos)`.
///
/// # Safety
/// The CPU has AVX-512 F, BW and VBMI2; `control.len() == out.len().div_ceil(4)`.
#[inline(always)]
unsafe fn expand<V: Variant>(control: &[u8], data: &[u8], out: &mut [u32]) -> (usize, usize) {
    let keys = out.len() / 4;
    let (mut key, mut pos) = (0, 0);
    let out_ptr = out.as_mut_ptr();
    while key + 4 <= keys && data.len() - pos >= 64 {
        let mut word = [0u8; 4];
        word.copy_from_slice(&control[key..key + 4]);
        if word == [0; 4] {
            // 16 zero control bytes: 64 values of the shortest code, four
            // `vpmovzxbd` of 16 bytes for one check and one step of the
            // loop, where 16-value steps take four.
            let mut run = [0u8; 16];
            if key + 16 <= keys {
                run.copy_from_slice(&control[key..key + 16]);
            }
            if u128::from_le_bytes(run) == 0 && key + 16 <= keys {
                for q in 0..4 {
                    // SAFETY: the CPU has AVX-512 F; bytes 16q..16q + 16 of
                    // the 64 that remain at `pos` are read; the store is of
                    // 16 of the 64 values of control bytes key..key + 16,
                    // whole groups of `out` (key + 16 <= keys).
                    unsafe {
                        let values = if V::LENGTH[0] == 0 {
                            _mm512_setzero_si512()
                        } else {
                            _mm512_cvtepu8_epi32(_mm_loadu_si128(
                                data.as_ptr().add(pos + 16 * q).cast(),
                            ))
                        };
                        _mm512_storeu_si512(out_ptr.add(4 * key + 16 * q).cast(), values);
                    }
                }
                pos += 16 * V::LENGTH[0] as usize;
                key += 16;
                continue;
            }
            // 16 values of the shortest code: their bytes zero-extended by
            // one `vpmovzxbd` (or zeros in the 0124 variant), half the
            // work of an expand and its mask.
            // SAFETY: the CPU has AVX-512 F; 16 of the 64 bytes that remain
            // at `pos` are read; the store is of the 16 values of control
            // bytes key..key + 4, whole groups of `out`.
            unsafe {
                let values = if V::LENGTH[0] == 0 {
                    _mm512_setzero_si512()
                } else {
                    _mm512_cvtepu8_epi32(_mm_loadu_si128(data.as_ptr().add(pos).cast()))
                };
                _mm512_storeu_si512(out_ptr.add(4 * key).cast(), values);
            }
            pos += 4 * V::LENGTH[0] as usize;
            key += 4;
            continue;
        }
        // SAFETY: the CPU has the features (the caller's promise).
        let mask = unsafe { expand_mask::<V>(word) };
        // SAFETY: the CPU has the features (the caller's promise); the load
        // is of 64 bytes at `pos` with 64 remaining (the loop condition); the
        // store is of the 16 values of control bytes key..key + 4, whole
        // groups of `out`.
        unsafe {
            let bytes = _mm512_loadu_si512(data.as_ptr().add(pos).cast());
            let values = expand_bytes(mask, bytes);
            _mm512_storeu_si512(out_ptr.add(4 * key).cast(), values);
        }
        pos += mask.count_ones() as usize;
        key += 4;
    }
    (key, pos)
}

/// Delta decoding, sixteen gaps a step moved into their lanes as [`expand`]
/// moves them, while 64 data bytes remain. Their prefix sum by [`Prefix16`].
/// The running total is off that path: each step adds it to its sums, and then
/// adds the step's own total (value 15 broadcast) to it, one add from step
/// to step. Runs of 16 zero control bytes go to `runs`. Returns the new
/// `(key, pos)`; `*prev` is the last value decoded.
///
/// The running total stays off the chain from step to step, where carried
/// through the last lane's permute it would put two permutes on it; with
/// that, and with `vpexpandb` kept to its register form ([`expand_bytes`]),
/// the chain is one add a step, as in the 16-byte steps, for sixteen
/// values where they take four.
///
/// # Safety
/// The CPU has AVX-512 F, BW, VBMI and VBMI2; `control.len() ==
/// out.len().div_ceil(4)`.
#[inline(always)]
unsafe fn expand_delta<V: Variant>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: &mut u32,
    runs: &TinyRuns,
) -> (usize, usize) {
    let keys = out.len() / 4;
    let (mut key, mut pos) = (0, 0);
    let out_ptr = out.as_mut_ptr();
    // SAFETY: AVX-512 F per the caller.
    let prefix = unsafe { Prefix16::new() };
    // SAFETY: AVX-512 F per the caller.
    let mut acc = unsafe { _mm512_set1_epi32(*prev as i32) };
    while key + 4 <= keys && data.len() - pos >= 64 {
        let mut word = [0u8; 4];
        word.copy_from_slice(&control[key..key + 4]);
        if u32::from_le_bytes(word) == 0 && V::LENGTH[0] == 4 {
            // SAFETY: AVX-512 F per the caller.
            let mut narrow = unsafe { _mm512_castsi512_si128(acc) };
            // SAFETY: key <= keys, pos <= data.len(); `out` holds 4 values
            // per control byte of `control[..keys]`; the CPU has the level.
            let (k, p) = unsafe {
                runs.run(
                    &control[..keys],
                    data,
                    out_ptr.cast(),
                    key,
                    pos,
                    &mut narrow,
                )
            };
            if k != key {
                (key, pos) = (k, p);
                // SAFETY: AVX-512 F; every lane of `narrow` is the last value.
                acc = unsafe { _mm512_broadcast_i32x4(narrow) };
                continue;
            }
        }
        // SAFETY: the CPU has the features (the caller's promise).
        let mask = unsafe { expand_mask::<V>(word) };
        // SAFETY: the CPU has the features (the caller's promise); the load
        // is of 64 bytes at `pos` with 64 remaining (the loop condition); the
        // store is of the 16 values of control bytes key..key + 4, whole
        // groups of `out`.
        unsafe {
            let bytes = _mm512_loadu_si512(data.as_ptr().add(pos).cast());
            let x = prefix.sums(expand_bytes(mask, bytes));
            _mm512_storeu_si512(out_ptr.add(4 * key).cast(), _mm512_add_epi32(x, acc));
            acc = _mm512_add_epi32(acc, prefix.total(x));
        }
        pos += mask.count_ones() as usize;
        key += 4;
    }
    // SAFETY: AVX-512 F per the caller.
    *prev = unsafe { _mm_cvtsi128_si32(_mm512_castsi512_si128(acc)) } as u32;
    (key, pos)
}

/// Runs of 64 one-byte gaps (16 zero control bytes): below 32, their prefix
/// sums in bytes within qwords ([`TinyGaps`]), half the shuffles of four
/// 16-value steps; larger, sixteen at a time widened to 32-bit lanes and
/// summed by [`Prefix16`] (six shuffles for sixteen values, where the
/// 128-bit steps of [`Sums16`] take ten). Shorter runs go to [`Sums16`].
struct TinyRuns(TinyGaps, Prefix16);

impl OneByteRuns<__m128i> for TinyRuns {
    #[inline(always)]
    unsafe fn run(
        &self,
        control: &[u8],
        data: &[u8],
        out: *mut u8,
        mut key: usize,
        mut pos: usize,
        acc: &mut __m128i,
    ) -> (usize, usize) {
        let start = key;
        // SAFETY: the CPU has AVX-512 F (the caller's promise).
        let mut wide = unsafe { _mm512_broadcast_i32x4(*acc) };
        while key + 16 <= control.len() && data.len() - pos >= 64 {
            let mut word = [0u8; 16];
            word.copy_from_slice(&control[key..key + 16]);
            if u128::from_le_bytes(word) != 0 {
                break;
            }
            // SAFETY: 64 readable bytes at `pos`; the CPU has the Avx512 level
            // (the caller's promise); 64 values from value 4 key are inside
            // `out` (key + 16 <= control.len()).
            unsafe {
                let window = _mm512_loadu_si512(data.as_ptr().add(pos).cast());
                if self.0.fits(window) {
                    wide = self.0.decode(window, wide, out.add(16 * key).cast());
                } else {
                    for q in 0..4 {
                        let gaps = _mm_loadu_si128(data.as_ptr().add(pos + 16 * q).cast());
                        let sums = self.1.sums(_mm512_cvtepu8_epi32(gaps));
                        let dst = out.add(16 * key + 64 * q);
                        _mm512_storeu_si512(dst.cast(), _mm512_add_epi32(sums, wide));
                        wide = _mm512_add_epi32(wide, self.1.total(sums));
                    }
                }
            }
            key += 16;
            pos += 64;
        }
        if key == start {
            // Runs of 8 to 15 zero control bytes: summed in 16-bit lanes.
            // SAFETY: the caller's promises.
            return unsafe { Sums16.run(control, data, out, key, pos, acc) };
        }
        // SAFETY: as above; every lane of `wide` holds the last value.
        *acc = unsafe { _mm512_castsi512_si128(wide) };
        (key, pos)
    }
}

/// [`short_lists`](super::generic::short_lists) with the AVX-512
/// short-stream kernel ([`short_delta`]).
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(in crate::stream_vbyte) unsafe fn short_lists_delta<V: Variant>(
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut [u32],
) -> (usize, usize) {
    // SAFETY: AVX-512 F per the caller.
    let prefix = unsafe { Prefix16::new() };
    super::generic::short_lists(bytes, lists, out, |control, data, out, n| {
        // SAFETY: the CPU has the features (the caller's promise); `control`
        // holds a byte per four values of the list, `out` `n` values at
        // least (as `short_lists` checks).
        unsafe { short_delta::<V>(control, data, out, n, 0, &prefix) }
    })
}

/// Decodes the `n` gaps of a stream, `control` its control bytes and `data`
/// what follows them, into their running sum from `prev`, the first `n` of
/// `out`; returns the data bytes consumed and the last value, or `None`
/// when the data ends before the values do (the checked scalar code then
/// names where; `out` may hold some of the values).
///
/// Sixteen gaps a step with no table and no tail: the control bytes and the
/// data read by loads masked to the bytes the stream has, the gaps moved
/// into their lanes by one `vpexpandb` (as [`expand_delta`]), the prefix
/// sum in the register, and the values stored under the mask of the count,
/// or sixteen whole where `out` has room for them (the lanes past `n` then
/// hold values of no use): a masked store does not forward to loads (on
/// Zen 4), and a merge reads the values next. Its branches depend on the
/// count alone, so a stream of a few values costs a few dozen instructions,
/// where the kernels' loops, their last groups and the scalar tail take as
/// many branches.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `n <= out.len()`;
/// `control.len() >= n.div_ceil(4)`.
#[inline(always)]
pub(in crate::stream_vbyte) unsafe fn short_delta<V: Variant>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    n: usize,
    prev: u32,
    prefix: &Prefix16,
) -> Option<(usize, u32)> {
    debug_assert!(n <= out.len() && control.len() >= n.div_ceil(4));
    let (mut key, mut pos, mut done) = (0, 0, 0);
    // SAFETY: AVX-512 F per the caller.
    let mut acc = unsafe { _mm512_set1_epi32(prev as i32) };
    while done < n {
        let m = (n - done).min(16);
        let keys = m.div_ceil(4);
        let avail = data.len() - pos;
        // SAFETY: the loads read only the bytes their masks select: `keys`
        // control bytes at `key` (key + keys <= n.div_ceil(4) <=
        // control.len()) and at most `avail` data bytes at `pos`; the store
        // writes sixteen values from `done` where `out` has them, else only
        // the `m` values from `done` (done + m <= n <= out.len()); the CPU
        // has the features (the caller's promise).
        unsafe {
            let word = _mm_maskz_loadu_epi8(
                _bzhi_u32(!0, keys as u32) as u16,
                control.as_ptr().add(key).cast(),
            );
            let word = (_mm_cvtsi128_si32(word) as u32).to_le_bytes();
            // The codes after the `m`th stand for no value: their bits go.
            let mask = _bzhi_u64(expand_mask::<V>(word), 4 * m as u32);
            let len = mask.count_ones() as usize;
            if len > avail {
                return None;
            }
            let window = _bzhi_u64(!0, avail.min(64) as u32);
            let bytes = _mm512_maskz_loadu_epi8(window, data.as_ptr().add(pos).cast());
            let x = prefix.sums(expand_bytes(mask, bytes));
            let sums = _mm512_add_epi32(x, acc);
            let to = out.as_mut_ptr().add(done);
            if out.len() - done >= 16 {
                _mm512_storeu_si512(to.cast(), sums);
            } else {
                _mm512_mask_storeu_epi32(to.cast(), _bzhi_u32(!0, m as u32) as u16, sums);
            }
            acc = _mm512_add_epi32(acc, prefix.total(x));
            pos += len;
        }
        key += keys;
        done += m;
    }
    // SAFETY: AVX-512 F per the caller.
    let last = unsafe { _mm_cvtsi128_si32(_mm512_castsi512_si128(acc)) } as u32;
    Some((pos, last))
}

/// [`short_delta`] as a function of its own, for a caller without the
/// AVX-512 features (a cursor's block).
///
/// # Safety
/// As [`short_delta`].
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(in crate::stream_vbyte) unsafe fn short_block_delta<V: Variant>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    n: usize,
    prev: u32,
) -> Option<(usize, u32)> {
    // SAFETY: the caller's promises; AVX-512 F.
    unsafe { short_delta::<V>(control, data, out, n, prev, &Prefix16::new()) }
}
