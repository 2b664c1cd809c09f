//! SIMD-BP128's four-lane layout at AVX2: two lane vectors a 256-bit
//! register, with per-lane shifts, where the baseline kernel unpacks one
//! lane vector a 128-bit register with immediate shifts.
//!
//! ```text
//! step g (values 8 g .. 8 g + 8: lane vectors i = 2 g and i + 1):
//!     vector i lies in lane word k(i) = i W / 32 from bit s(i) = i W mod 32,
//!     and in word k(i) + 1 as well when it crosses (s(i) + W > 32);
//!     k(i + 1) is k(i) or k(i) + 1, so one load fills both halves:
//!     lo = [word k(i) | word k(i + 1)]    (vbroadcasti128, or one 32-byte load)
//!     v  = lo >> [s(i) x4 | s(i + 1) x4]  (vpsrlvd)
//!     hi = [word k(i) + 1 | word k(i + 1) + 1], if either half crosses
//!     v |= hi << [32 - s x4 | ...]        (vpsllvd: a count of 32 gives 0,
//!                                           so a half that does not cross
//!                                           takes nothing from `hi`)
//!     v &= mask(W); one 32-byte store of eight values in order
//! ```
//!
//! Every word index, shift and crossing is a constant of the width and the
//! step, so each compiled width is straight-line code, as simdcomp's.
//!
//! Plain blocks only: a sorted block's eight running sums a register cost
//! more shuffles than the 128-bit kernel's four (Zen 3 issues shuffles and
//! shifts on two of its four vector pipes), and run slower there than
//! SSE4.1's one-pass sorted kernel (`perf/amd-25-1.md`, "BP128").

use core::arch::x86_64::*;

use super::generic::{self, PER_LANE};

/// Values in a four-lane block.
const BLOCK: usize = 4 * PER_LANE;

/// Where the two lane vectors of one step lie.
#[derive(Clone, Copy)]
struct Step {
    /// The lane word of each half (`lo[1]` is `lo[0]` or `lo[0] + 1`).
    lo: [usize; 2],
    /// The bit each half starts at in its word.
    shift: [u32; 2],
    /// Whether each half crosses into the next word.
    crosses: [bool; 2],
}

/// The step of vectors `2 g` and `2 g + 1` at width `w` (1..=32).
const fn step(g: usize, w: usize) -> Step {
    let (b0, b1) = (2 * g * w, (2 * g + 1) * w);
    Step {
        lo: [b0 / 32, b1 / 32],
        shift: [(b0 % 32) as u32, (b1 % 32) as u32],
        crosses: [b0 % 32 + w > 32, b1 % 32 + w > 32],
    }
}

/// Lane words `a` and `b` (`b` is `a` or `a + 1`) of a block as the low
/// and high halves of a register.
///
/// # Safety
/// AVX2; words `a` and `b` lie in `input` (16 bytes each).
#[inline(always)]
unsafe fn pair(input: &[u8], a: usize, b: usize) -> __m256i {
    debug_assert!(b == a || b == a + 1);
    debug_assert!(16 * (b + 1) <= input.len());
    let ptr = input.as_ptr().wrapping_add(16 * a);
    // SAFETY: per the caller, the 16 bytes of word `a` (and, when `b` is
    // `a + 1`, the 16 of `b` right after them) lie in `input`.
    unsafe {
        if a == b {
            _mm256_broadcastsi128_si256(_mm_loadu_si128(ptr.cast()))
        } else {
            _mm256_loadu_si256(ptr.cast())
        }
    }
}

/// Unpacks the 128 values of `W` bits each from the first `16 W` bytes of
/// `input` into `out`.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`. Panics if `input` or `out` is shorter than the block.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn unpack<const L: usize, const W: usize>(input: &[u8], out: &mut [u32]) {
    const { assert!(L == 4, "four lanes, two lane vectors a register") };
    // SAFETY: the caller's features.
    unsafe { run::<W>(input, out) }
}

/// The block's sixteen steps.
///
/// # Safety
/// As [`unpack`].
#[inline(always)]
unsafe fn run<const W: usize>(input: &[u8], out: &mut [u32]) {
    let input = &input[..16 * W];
    let out = &mut out[..BLOCK];
    let mask = if W == 32 { u32::MAX } else { (1u32 << W) - 1 };
    // SAFETY: registers only; the caller's features.
    let mask = unsafe { _mm256_set1_epi32(mask as i32) };
    unroll16!(G => {
        // SAFETY: `pair` reads words below `W`, which `input` holds (a
        // crossing half's next word exists, and a half that does not
        // cross reads its partner's word instead); the store writes values
        // `8 G .. 8 G + 8` of `out`, which holds 128; the caller's features.
        unsafe {
            let v = if W == 0 {
                _mm256_setzero_si256()
            } else {
                let s = const { step(G, W) };
                let lo = pair(input, s.lo[0], s.lo[1]);
                let right = _mm256_setr_epi32(
                    s.shift[0] as i32, s.shift[0] as i32, s.shift[0] as i32, s.shift[0] as i32,
                    s.shift[1] as i32, s.shift[1] as i32, s.shift[1] as i32, s.shift[1] as i32,
                );
                let v = _mm256_srlv_epi32(lo, right);
                let v = if s.crosses[0] || s.crosses[1] {
                    // A half that does not cross reads its partner's next
                    // word (in the block) and shifts it out entirely.
                    let h0 = if s.crosses[0] { s.lo[0] + 1 } else { s.lo[1] + 1 };
                    let h1 = if s.crosses[1] { s.lo[1] + 1 } else { h0 };
                    let hi = pair(input, h0, h1);
                    let l0 = if s.crosses[0] { 32 - s.shift[0] } else { 32 } as i32;
                    let l1 = if s.crosses[1] { 32 - s.shift[1] } else { 32 } as i32;
                    let left = _mm256_setr_epi32(l0, l0, l0, l0, l1, l1, l1, l1);
                    _mm256_or_si256(v, _mm256_sllv_epi32(hi, left))
                } else {
                    v
                };
                if W == 32 { v } else { _mm256_and_si256(v, mask) }
            };
            let eight = &mut out[8 * G..8 * G + 8];
            _mm256_storeu_si256(eight.as_mut_ptr().cast(), v);
        }
    });
}

/// [`generic::pack`] under the AVX2 level's features: eight lanes are one
/// 256-bit register (the compiler's code from the portable kernel).
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn pack_generic<const L: usize, const W: usize, const S: bool>(
    values: &[u32],
    initial: u32,
    out: &mut [u8],
) {
    generic::pack::<L, W, S>(values, initial, out)
}

/// [`generic::unpack`] under the AVX2 level's features, as [`pack_generic`].
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn unpack_generic<const L: usize, const W: usize>(input: &[u8], out: &mut [u32]) {
    generic::unpack::<L, W>(input, out);
}

#[cfg(test)]
mod tests {
    use super::step;

    /// Every step's words and shifts, recomputed value by value: the
    /// words a step's loads touch lie in the block, and a crossing half's
    /// next word is the one its high bits are in.
    #[test]
    fn steps_point_at_each_vectors_words() {
        for w in 1..=32usize {
            for g in 0..16 {
                let s = step(g, w);
                assert!(s.lo[1] == s.lo[0] || s.lo[1] == s.lo[0] + 1, "{w} {g}");
                for h in 0..2 {
                    let i = 2 * g + h;
                    assert_eq!(s.lo[h], i * w / 32, "{w} {g}");
                    assert_eq!(s.shift[h] as usize, i * w % 32, "{w} {g}");
                    assert_eq!(s.crosses[h], i * w % 32 + w > 32, "{w} {g}");
                    if s.crosses[h] {
                        assert!(s.lo[h] + 1 < w, "{w} {g}: next word in the block");
                    }
                }
            }
        }
    }
}
