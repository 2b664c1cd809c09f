//! AVX-512 kernels for the widths 2, 4, 8 and 16: 64 values a step, one
//! 64-byte register of each stream, transposed by two-source permutes
//! across whole registers (`vpermt2b`, AVX-512 VBMI).
//!
//! The 16-byte-lane kernels of `generic.rs` pay for AVX-512 with a load
//! or store per lane (their shuffles stay within lanes), which is why they
//! stop at AVX2. A permute over two whole registers needs no lanes: `K`
//! registers of values (`64 / K` values each) become `K` registers of
//! streams in `log2(K)` stages of one permute per register (see
//! `tables::MERGE` for the layouts between stages). Stage 1 moves bytes
//! (`vpermt2b`); the later stages move runs of 8 bytes or more
//! (`vpermt2q`), and the last one 32-byte halves (`vshufi64x2`):
//!
//! ```text
//!   K = 4, registers of 16 values:  r0 = v0 v1 .. v15 (4 bytes each), r1 = v16 .., r2, r3
//!   stage 1, (r0, r1) and (r2, r3): s0 = stream 0 of v0..v31 | stream 1 of v0..v31
//!                                   s1 = streams 2 and 3 of v0..v31; s2, s3: of v32..v63
//!   last stage, (s0, s2), (s1, s3): stream 0 of v0..v63, stream 1, stream 2, stream 3
//! ```
//!
//! Every load and store is a whole register: a cache line of each stream per
//! step. The last step, under 64 values, runs the same code with masked
//! loads and stores, so no value is left to the scalar code and nothing
//! outside the slices is touched.
//!
//! Both directions slow down when the streams lie a multiple of 4 KiB apart
//! (a count of values that is a multiple of 4096) and there are 8 or more
//! of them: every step's lines then fall in one set of the L1 cache. The
//! decoder then reads streams 8 to 15 eight steps ahead through a ring on
//! the stack ([`decode_skewed`]), so that a step loads at most 8 lines of
//! one set. The encoder has no such ring: one for its stores would only
//! defer them, each byte still reaching its stream's crowded set after one
//! more copy. Nor does either direction prefetch: a prefetch brings its
//! line into the same crowded set.

use core::arch::x86_64::*;

use super::tables::{MERGE, QMERGE, QUNMERGE, UNMERGE, log2};
// The register arrays are written out by `generic.rs`'s macro: a loop
// over an array of registers may keep the array on the stack.
use super::generic::{array, build};
use super::skew::{SKEW, crowded};
use super::{Sink, Source};

/// Values per step: a register of each stream.
const BLOCK: usize = 64;

/// Splits every value of `input` into the streams of `out` for the widths
/// 2, 4, 8 and 16; returns the values done (all of them; 0 for any other
/// width).
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `input` holds `out.n()`
/// values of `width` bytes.
pub(super) unsafe fn encode(input: &[u8], width: usize, out: &mut impl Sink) -> usize {
    // SAFETY: the caller's promises; each arm passes the width it matched.
    unsafe {
        match width {
            2 => encode_k::<2>(input, out),
            4 => encode_k::<4>(input, out),
            8 => encode_k::<8>(input, out),
            16 => encode_k::<16>(input, out),
            _ => 0,
        }
    }
}

/// Joins every value of `out` from the streams of `src` for the widths 2,
/// 4, 8 and 16; returns the values done (all of them; 0 for any other
/// width).
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `out` holds a whole number
/// of values of `width` bytes and every stream of `src` one byte per value.
pub(super) unsafe fn decode(src: &impl Source, width: usize, out: &mut [u8]) -> usize {
    // SAFETY: the caller's promises; each arm passes the width it matched.
    unsafe {
        match width {
            2 => decode_k::<2>(src, out),
            4 => decode_k::<4>(src, out),
            8 => decode_k::<8>(src, out),
            16 => decode_k::<16>(src, out),
            _ => 0,
        }
    }
}

/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `input` holds `out.n()`
/// values of `K` bytes.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
unsafe fn encode_k<const K: usize>(input: &[u8], out: &mut impl Sink) -> usize {
    let n = out.n();
    let mut i = 0;
    // Two steps at a time where the registers allow: each stream then gets
    // two whole cache lines in a row.
    while K <= 8 && i + 2 * BLOCK <= n {
        // SAFETY: the slices hold 64 values each; the CPU has AVX-512 VBMI.
        let (r, s) = unsafe {
            (
                streams::<K>(&input[i * K..(i + BLOCK) * K]),
                streams::<K>(&input[(i + BLOCK) * K..(i + 2 * BLOCK) * K]),
            )
        };
        for j in 0..K {
            let d = &mut out.stream(j)[i..i + 2 * BLOCK];
            // SAFETY: `store` writes within `d`; AVX-512 BW.
            unsafe {
                store(&mut d[..BLOCK], r[j]);
                store(&mut d[BLOCK..], s[j]);
            }
        }
        i += 2 * BLOCK;
    }
    while i < n {
        let rem = (n - i).min(BLOCK);
        // SAFETY: the slice holds `rem` values; the CPU has AVX-512 VBMI.
        let r = unsafe { streams::<K>(&input[i * K..(i + rem) * K]) };
        for (j, &reg) in r.iter().enumerate() {
            // SAFETY: `store` writes within the stream's `rem` bytes; AVX-512 BW.
            unsafe { store(&mut out.stream(j)[i..i + rem], reg) };
        }
        i += rem;
    }
    n
}

/// Register `j`: stream `j` of the values in `src` (at most 64 of `K`
/// bytes; zeros after them).
///
/// # Safety
/// The CPU has AVX-512 F, BW and VBMI.
#[inline(always)]
unsafe fn streams<const K: usize>(src: &[u8]) -> [__m512i; K] {
    // SAFETY: `load` reads within `src`; the caller's promise.
    unsafe {
        let mut r: [__m512i; K] = build!(K, q => load(src, 64 * q));
        split(&mut r);
        if K >= 4 {
            halves(&mut r);
        }
        r
    }
}

/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `out` holds a whole number
/// of values of `K` bytes and every stream of `src` one byte per value.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
unsafe fn decode_k<const K: usize>(src: &impl Source, out: &mut [u8]) -> usize {
    let n = out.len() / K;
    let mut i = 0;
    if K == 16 && crowded(src, K) {
        // SAFETY: the caller's promises.
        i = unsafe { decode_skewed(src, out) };
    }
    while i < n {
        let rem = (n - i).min(BLOCK);
        // SAFETY: `load` reads within the stream's `rem` bytes; AVX-512 F and BW.
        let mut r: [__m512i; K] = build!(K, j => unsafe { load(&src.stream(j)[i..i + rem], 0) });
        // SAFETY: the CPU has AVX-512 VBMI.
        unsafe { join(&mut r) };
        let dst = &mut out[i * K..(i + rem) * K];
        for (q, &reg) in r.iter().enumerate() {
            if 64 * q < dst.len() {
                // SAFETY: `store` writes within `dst`; AVX-512 BW.
                unsafe { store(&mut dst[64 * q..], reg) };
            }
        }
        i += rem;
    }
    n
}

/// [`decode_k`] for width 16 with crowded streams, as
/// `skew::decode_skewed` does it: the whole steps, streams 8 to 15
/// read [`SKEW`] steps ahead into a ring of registers. Returns the values
/// done (0 when the steps are too few to skew).
///
/// # Safety
/// As [`decode_k`], with `K = 16`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
unsafe fn decode_skewed(src: &impl Source, out: &mut [u8]) -> usize {
    const K: usize = 16;
    let steps = out.len() / K / BLOCK;
    if steps <= SKEW {
        return 0;
    }
    // Streams 8 to 15 at step k: 64 bytes from slices of 64 (AVX-512 F).
    macro_rules! upper {
        ($k:expr) => {{
            let at = $k * BLOCK;
            // SAFETY: a full load of 64 bytes from a slice of 64; AVX-512 F.
            build!(8, j => unsafe { load(&src.stream(8 + j)[at..at + BLOCK], 0) })
        }};
    }
    let mut ring = [[_mm512_setzero_si512(); 8]; SKEW];
    for (k, slot) in ring.iter_mut().enumerate() {
        *slot = upper!(k);
    }
    for k in 0..steps {
        let i = k * BLOCK;
        let slot = &mut ring[k % SKEW];
        let mut r: [__m512i; K] = build!(K, j => if j < 8 {
            // SAFETY: as in `upper!`.
            unsafe { load(&src.stream(j)[i..i + BLOCK], 0) }
        } else {
            slot[j - 8]
        });
        if k + SKEW < steps {
            *slot = upper!(k + SKEW);
        }
        // SAFETY: the CPU has AVX-512 VBMI.
        unsafe { join(&mut r) };
        let dst = &mut out[i * K..(i + BLOCK) * K];
        for (q, &reg) in r.iter().enumerate() {
            // SAFETY: `store` writes within `dst`; AVX-512 BW.
            unsafe { store(&mut dst[64 * q..], reg) };
        }
    }
    steps * BLOCK
}

/// The 64 bytes of `s` from `at`, or as many as there are (zeros after
/// them, none read past `s`).
///
/// # Safety
/// The CPU has AVX-512 F and BW.
#[inline(always)]
unsafe fn load(s: &[u8], at: usize) -> __m512i {
    let len = s.len().saturating_sub(at);
    // SAFETY: a full load reads 64 bytes of `s` from `at`; a masked one only
    // the `len` bytes there (masked-off bytes are not accessed).
    unsafe {
        if len >= 64 {
            _mm512_loadu_si512(s.as_ptr().add(at).cast())
        } else if len == 0 {
            _mm512_setzero_si512()
        } else {
            _mm512_maskz_loadu_epi8(mask(len), s.as_ptr().add(at).cast())
        }
    }
}

/// Writes the first `min(64, d.len())` bytes of `v` to `d`.
///
/// # Safety
/// The CPU has AVX-512 F and BW.
#[inline(always)]
unsafe fn store(d: &mut [u8], v: __m512i) {
    // SAFETY: a full store writes 64 bytes of `d`; a masked one only its
    // `d.len()` bytes (masked-off bytes are not accessed).
    unsafe {
        if d.len() >= 64 {
            _mm512_storeu_si512(d.as_mut_ptr().cast(), v)
        } else {
            _mm512_mask_storeu_epi8(d.as_mut_ptr().cast(), mask(d.len()), v)
        }
    }
}

/// The mask of the first `len` (below 64) bytes.
#[inline(always)]
fn mask(len: usize) -> __mmask64 {
    (1u64 << len) - 1
}

/// A permute index from the tables.
///
/// # Safety
/// The CPU has AVX-512 F.
#[inline(always)]
unsafe fn index(t: &[u8; 64]) -> __m512i {
    // SAFETY: `t` is 64 readable bytes.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// One stage of [`split`] (`INVERSE = false`) or [`join`]: `s` is the stage.
///
/// # Safety
/// The CPU has AVX-512 VBMI.
#[inline(always)]
unsafe fn stage<const K: usize, const INVERSE: bool>(r: &mut [__m512i; K], s: usize) {
    let l = log2(K);
    let half = 1 << (s - 1);
    // SAFETY: the CPU has AVX-512 VBMI (the caller's promise).
    unsafe {
        let idx = if s == 1 {
            let tables = if INVERSE { &UNMERGE } else { &MERGE };
            [index(&tables[l][0][0]), index(&tables[l][0][1])]
        } else {
            let tables = if INVERSE { &QUNMERGE } else { &QMERGE };
            [qindex(&tables[l][s - 1][0]), qindex(&tables[l][s - 1][1])]
        };
        let p = *r;
        *r = build!(K, q => {
            // Register q of a group of 2 * half registers starting at `base`.
            let (base, at) = (q / (2 * half) * (2 * half), q % (2 * half));
            if INVERSE {
                // Half at / half of the group from its registers 2t and 2t + 1.
                let t = base + 2 * (at % half);
                permute(s, p[t], idx[at / half], p[t + 1])
            } else {
                // Register 2t + h of the group from register t of each half.
                let t = base + at / 2;
                permute(s, p[t], idx[at % 2], p[t + half])
            }
        });
    }
}

/// The two-source permute of stage `s`: bytes at stage 1, 8-byte elements
/// after.
///
/// # Safety
/// The CPU has AVX-512 F and VBMI.
#[inline(always)]
unsafe fn permute(s: usize, a: __m512i, idx: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the caller's promise.
    unsafe {
        if s == 1 {
            _mm512_permutex2var_epi8(a, idx, b)
        } else {
            _mm512_permutex2var_epi64(a, idx, b)
        }
    }
}

/// A permute index of 8-byte elements from the tables.
///
/// # Safety
/// The CPU has AVX-512 F.
#[inline(always)]
unsafe fn qindex(t: &[u64; 8]) -> __m512i {
    // SAFETY: `t` is 64 readable bytes.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// Registers of values (register `q`: values `q * 64 / K..`) to registers
/// of streams, but for the last stage when `K >= 4`: register `t` of each
/// half (values 0..32, 32..64) holds streams `2t` and `2t + 1` of its 32
/// values, one after the other ([`halves`] finishes).
///
/// # Safety
/// The CPU has AVX-512 VBMI.
#[inline(always)]
unsafe fn split<const K: usize>(r: &mut [__m512i; K]) {
    // SAFETY: the caller's promise.
    unsafe {
        stage::<K, false>(r, 1);
        if K >= 8 {
            stage::<K, false>(r, 2);
        }
        if K >= 16 {
            stage::<K, false>(r, 3);
        }
    }
}

/// The last stage for `K >= 4`, its own inverse: 32-byte halves of
/// registers `t` and `K / 2 + t` trade places (`vshufi64x2`, cheaper than
/// a permute by table).
///
/// # Safety
/// The CPU has AVX-512 F.
#[inline(always)]
unsafe fn halves<const K: usize>(r: &mut [__m512i; K]) {
    let p = *r;
    // SAFETY: the caller's promise.
    *r = build!(K, q => unsafe {
        // Register 2t + h (of streams) from registers t and K / 2 + t, or back.
        let (t, h) = (q / 2, q % 2);
        let (a, b) = (p[t], p[K / 2 + t]);
        if h == 0 {
            _mm512_shuffle_i64x2::<0b0100_0100>(a, b)
        } else {
            _mm512_shuffle_i64x2::<0b1110_1110>(a, b)
        }
    });
}

/// The inverse of [`split`] followed by [`halves`].
///
/// # Safety
/// The CPU has AVX-512 VBMI.
#[inline(always)]
unsafe fn join<const K: usize>(r: &mut [__m512i; K]) {
    // SAFETY: the caller's promise.
    unsafe {
        if K >= 4 {
            let p = *r;
            *r = build!(K, q => {
                // Register t of half w from streams 2t and 2t + 1.
                let (w, t) = (q / (K / 2), q % (K / 2));
                let (a, b) = (p[2 * t], p[2 * t + 1]);
                if w == 0 {
                    _mm512_shuffle_i64x2::<0b0100_0100>(a, b)
                } else {
                    _mm512_shuffle_i64x2::<0b1110_1110>(a, b)
                }
            });
        }
        if K >= 16 {
            stage::<K, true>(r, 3);
        }
        if K >= 8 {
            stage::<K, true>(r, 2);
        }
        stage::<K, true>(r, 1);
    }
}
