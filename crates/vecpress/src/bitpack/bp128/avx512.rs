//! SIMD-BP128 unpacking at the AVX-512 level: sixteen values a register,
//! whatever the lane count, with the width a constant.
//!
//! ```text
//! block of L lanes, width W: lane vector i (values L i .. L i + L) lies at
//!     bits i W .. i W + W of its lanes, in lane word k = i W / 32 from bit
//!     s = i W mod 32 (and word k + 1 when s + W > 32); lane j's word k is
//!     u32 number L k + j of the block
//! step g (values 16 g .. 16 g + 16, 16 / L lane vectors): its words all lie
//!     in the block's 64-byte chunks z and z + 1, z = first word's chunk
//!     lo = vpermt2d(chunk z, chunk z+1) by the index of each value's word k
//!     hi = vpermt2d(...) by the index of its word k + 1
//!     v  = vpshrdvd(lo, hi, s) & mask(W): (hi:lo) >> s, a funnel shift
//! sorted: the sixteen gaps are summed in the register (Prefix16) and the
//!     running total carried from step to step, in the same pass
//! ```
//!
//! The indexes and shifts of every step are tables computed by `const fn`
//! for each lane count and width ([`Steps`]), so each compiled width
//! loads them as constants. A step none of whose values crosses a word
//! needs no `hi` and shifts with `vpsrlvd`.
//!
//! Plain 4-lane blocks have a second form, [`unpack_halves`], for CPUs that
//! run 512-bit operations as two 256-bit halves (Zen 4):
//!
//! ```text
//! step g (values 8 g .. 8 g + 8: lane vectors i = 2 g and i + 1), each
//! vector i in a 128-bit register, with immediate counts:
//!     v(i) = word k >> s                        (vpsrld), or when it crosses
//!     v(i) = (word k + 1 : word k) >> s         (vpshrdd, a funnel shift)
//!     [v(i) | v(i + 1)] by one vinserti128, & mask(W), one 32-byte store
//! ```
//!
//! No table and no permute: each step is two shifts and a join, against the
//! 512-bit form's two `vpermt2d`, which such a CPU runs in two halves each.

use core::arch::x86_64::*;

use super::generic::PER_LANE;
use crate::simd::x86::Prefix16;

/// How to unpack the sixteen values of one step.
#[derive(Clone, Copy)]
struct Step {
    /// Index of each value's first word in chunks `zmm` and `zmm + 1` of
    /// the block (0..32, as `vpermt2d` takes them).
    lo: [u32; 16],
    /// Index of each value's second word (that of `lo` where it needs none).
    hi: [u32; 16],
    /// The bit each value starts at in its first word.
    shift: [u32; 16],
    /// The block's 64-byte chunk the step's first word lies in.
    zmm: usize,
    /// Whether a value of the step crosses into its second word.
    crosses: bool,
}

const EMPTY: Step = Step {
    lo: [0; 16],
    hi: [0; 16],
    shift: [0; 16],
    zmm: 0,
    crosses: false,
};

/// The steps of a block of `l` lanes (4 or 8) at width `w` (1..=32): `2 l`
/// of them, the rest of the array unused. Panics (when it compiles) if a
/// step's words did not fit in two chunks.
const fn steps(l: usize, w: usize) -> [Step; 16] {
    let mut all = [EMPTY; 16];
    let per = 16 / l;
    let mut g = 0;
    while g < 2 * l {
        let first = g * per * w / 32;
        let zmm = first * l / 16;
        let mut step = EMPTY;
        step.zmm = zmm;
        let mut e = 0;
        while e < 16 {
            let (q, j) = (e / l, e % l);
            let bit = (g * per + q) * w;
            let (k, s) = (bit / 32, bit % 32);
            let lo = l * k + j - 16 * zmm;
            assert!(lo < 32, "a value's first word beyond the step's two chunks");
            step.lo[e] = lo as u32;
            step.shift[e] = s as u32;
            if s + w > 32 {
                assert!(
                    lo + l < 32,
                    "a value's second word beyond the step's two chunks"
                );
                step.hi[e] = (lo + l) as u32;
                step.crosses = true;
            } else {
                step.hi[e] = lo as u32;
            }
            e += 1;
        }
        all[g] = step;
        g += 1;
    }
    all
}

/// The steps of `L` lanes at width `W`, one table per pair.
struct Steps<const L: usize, const W: usize>;

impl<const L: usize, const W: usize> Steps<L, W> {
    const ALL: [Step; 16] = if W == 0 { [EMPTY; 16] } else { steps(L, W) };
}

/// Unpacks the `32 L` values of `W` bits each from the first `4 W L` bytes
/// of `input` into `out`.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
/// Panics if `input` or `out` is shorter than the block.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn unpack<const L: usize, const W: usize>(input: &[u8], out: &mut [u32]) {
    // SAFETY: the caller's features.
    unsafe { run::<L, W, false>(input, out, 0) }
}

/// Unpacks the 128 values of a 4-lane block of `W` bits each from the
/// first `16 W` bytes of `input` into `out`, two lane vectors a 256-bit
/// register (the module's second form).
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
/// Panics if `input` or `out` is shorter than the block.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn unpack_halves<const L: usize, const W: usize>(input: &[u8], out: &mut [u32]) {
    const { assert!(L == 4, "two 4-lane vectors a 256-bit register") };
    let input = &input[..16 * W];
    let out = &mut out[..4 * PER_LANE];
    let mask = if W == 32 { u32::MAX } else { (1u32 << W) - 1 };
    let mask = _mm256_set1_epi32(mask as i32);
    unroll16!(G => {
        // SAFETY: `lane_vector` reads words below `W`, which `input`
        // holds; the store writes values `8 G .. 8 G + 8` of `out`, which
        // holds 128; the caller's features.
        unsafe {
            let v = if W == 0 {
                _mm256_setzero_si256()
            } else {
                let a = lane_vector::<W>(input, 2 * G);
                let b = lane_vector::<W>(input, 2 * G + 1);
                let v = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(a), b);
                if W == 32 { v } else { _mm256_and_si256(v, mask) }
            };
            let eight = &mut out[8 * G..8 * G + 8];
            _mm256_storeu_si256(eight.as_mut_ptr().cast(), v);
        }
    });
}

/// Lane vector `i` of a 4-lane block of width `W` (1..=32), unmasked: its
/// word shifted right, joined with the next word's low bits when it
/// crosses. The counts are constants of `i` and `W`, so LLVM emits the
/// immediate forms (`vpsrld`, `vpshrdd`).
///
/// # Safety
/// AVX-512 F, VL and VBMI2; `input` holds the block's `16 W` bytes.
#[inline(always)]
unsafe fn lane_vector<const W: usize>(input: &[u8], i: usize) -> __m128i {
    let bit = i * W;
    let (k, s) = (bit / 32, bit % 32);
    debug_assert!(16 * (k + 1) <= input.len());
    let ptr = input.as_ptr().wrapping_add(16 * k);
    // SAFETY: word `k` (and `k + 1` when the vector crosses, which a
    // vector of the block's last word never does) lies in the block's
    // `16 W` bytes; the caller's features.
    unsafe {
        let word = _mm_loadu_si128(ptr.cast());
        if s + W > 32 {
            debug_assert!(16 * (k + 2) <= input.len());
            let next = _mm_loadu_si128(ptr.add(16).cast());
            _mm_shrdv_epi32(word, next, _mm_set1_epi32(s as i32))
        } else {
            _mm_srl_epi32(word, _mm_cvtsi32_si128(s as i32))
        }
    }
}

/// [`unpack`] of a sorted block: the gaps summed from `initial`.
///
/// # Safety
/// As [`unpack`].
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn unpack_sorted<const L: usize, const W: usize>(
    input: &[u8],
    out: &mut [u32],
    initial: u32,
) {
    // SAFETY: the caller's features.
    unsafe { run::<L, W, true>(input, out, initial) }
}

/// Chunk `z` (sixteen u32) of the `words` u32 of `input`: zeros past them.
///
/// # Safety
/// AVX-512 F; `input` holds at least `4 words` bytes.
#[inline(always)]
unsafe fn chunk(input: &[u8], z: usize, words: usize) -> __m512i {
    let ptr = input.as_ptr().wrapping_add(64 * z);
    if 16 * (z + 1) <= words {
        // SAFETY: the chunk's 64 bytes lie within the block's `4 words`.
        unsafe { _mm512_loadu_si512(ptr.cast()) }
    } else if 16 * z >= words {
        // SAFETY: registers only.
        unsafe { _mm512_setzero_si512() }
    } else {
        let k = (1u32 << (words - 16 * z)) - 1;
        // SAFETY: the mask reads only the u32 of the chunk below `words`,
        // within the block; the masked-off ones are not accessed.
        unsafe { _mm512_maskz_loadu_epi32(k as u16, ptr.cast()) }
    }
}

/// The sixteen u32 of `t` in a register.
///
/// # Safety
/// AVX-512 F.
#[inline(always)]
unsafe fn table(t: &[u32; 16]) -> __m512i {
    // SAFETY: `t` is 64 readable bytes.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// The block's `2 L` steps, summed from `initial` when `SORTED`.
///
/// # Safety
/// As [`unpack`].
#[inline(always)]
unsafe fn run<const L: usize, const W: usize, const SORTED: bool>(
    input: &[u8],
    out: &mut [u32],
    initial: u32,
) {
    let words = W * L;
    let input = &input[..4 * words];
    let out = &mut out[..PER_LANE * L];
    let mask = if W == 32 { u32::MAX } else { (1u32 << W) - 1 };
    // SAFETY: registers only (and the tables of `Prefix16`, for a sorted
    // block alone); the caller's features.
    let (mask, prefix, mut acc) = unsafe {
        (
            _mm512_set1_epi32(mask as i32),
            SORTED.then(|| Prefix16::new()),
            _mm512_set1_epi32(initial as i32),
        )
    };
    unroll16!(G => {
        if G < 2 * L {
            let step = const { Steps::<L, W>::ALL[G] };
            // SAFETY: `chunk` reads within `input`, which holds the block's
            // `4 words` bytes; the store writes values `16 G .. 16 G + 16`
            // of `out`, which holds `32 L >= 16 G + 16`; the caller's
            // features.
            unsafe {
                let v = if W == 0 {
                    _mm512_setzero_si512()
                } else {
                    let a = chunk(input, step.zmm, words);
                    let b = chunk(input, step.zmm + 1, words);
                    let lo = _mm512_permutex2var_epi32(a, table(&step.lo), b);
                    let shift = table(&step.shift);
                    let v = if step.crosses {
                        let hi = _mm512_permutex2var_epi32(a, table(&step.hi), b);
                        _mm512_shrdv_epi32(lo, hi, shift)
                    } else {
                        _mm512_srlv_epi32(lo, shift)
                    };
                    if W == 32 {
                        v
                    } else {
                        _mm512_and_si512(v, mask)
                    }
                };
                let v = match &prefix {
                    Some(prefix) => {
                        let sums = _mm512_add_epi32(prefix.sums(v), acc);
                        acc = prefix.total(sums);
                        sums
                    }
                    None => v,
                };
                let sixteen = &mut out[16 * G..16 * G + 16];
                _mm512_storeu_si512(sixteen.as_mut_ptr().cast(), v);
            }
        }
    });
    // The total after the last step is the caller's `out[32 L - 1]`.
    let _ = acc;
}

/// The running sum of `out` in place, sixteen values a register.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `out.len()` is a multiple of 16.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn running_sum(out: &mut [u32], initial: u32) {
    // SAFETY: AVX-512 F per the caller.
    let (prefix, mut acc) = unsafe {
        (
            crate::simd::x86::Prefix16::new(),
            _mm512_set1_epi32(initial as i32),
        )
    };
    for sixteen in out.chunks_exact_mut(16) {
        // SAFETY: `sixteen` is 64 bytes, read and written in place; the
        // caller's features.
        unsafe {
            let sums = prefix.sums(_mm512_loadu_si512(sixteen.as_ptr().cast()));
            _mm512_storeu_si512(sixteen.as_mut_ptr().cast(), _mm512_add_epi32(sums, acc));
            acc = _mm512_add_epi32(acc, prefix.total(sums));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::steps;

    /// Every step's indexes and shifts, recomputed value by value from the
    /// layout: value `n` of the block is lane `n mod L`'s value `n / L`.
    #[test]
    fn steps_point_at_each_values_words() {
        for l in [4, 8] {
            for w in 1..=32 {
                let all = steps(l, w);
                for (g, step) in all[..2 * l].iter().enumerate() {
                    let mut crosses = false;
                    for e in 0..16 {
                        let n = 16 * g + e;
                        let (i, j) = (n / l, n % l);
                        let bit = i * w;
                        let first = l * (bit / 32) + j;
                        assert_eq!(16 * step.zmm + step.lo[e] as usize, first, "{l} {w} {n}");
                        assert_eq!(step.shift[e] as usize, bit % 32, "{l} {w} {n}");
                        if bit % 32 + w > 32 {
                            crosses = true;
                            assert_eq!(step.hi[e] as usize, step.lo[e] as usize + l);
                        }
                    }
                    assert_eq!(step.crosses, crosses, "{l} {w} step {g}");
                }
            }
        }
    }
}
