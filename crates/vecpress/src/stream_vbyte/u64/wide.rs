//! The AVX2 and AVX-512 decoder, written once over a [`Spread`]: the step
//! that puts the four values of a control byte into the four u64 lanes of
//! one 256-bit register. The levels differ in that step alone (`avx2.rs`
//! shuffles two 16-byte loads within their lanes, `avx512.rs` permutes the
//! bytes of one 32-byte load across the register).
//!
//! ```text
//! while a whole control byte c remains and 32 data bytes remain at pos:
//!     x <- spread(data + pos, c)                                   // 4 u64 lanes
//!     delta: x <- prefix sum of x, + last;  last <- x[3] in every lane
//!     store x;  pos += LENGTHS[c]
//! ```
//!
//! The 128-bit decoder (`generic.rs`, SSE4.1 and Neon) walks the control
//! bytes the same way but builds a group from two shuffles into two
//! registers, with a delta step of its own; only the loop's counters would
//! be left to share, so the two loops stay apart.

use core::arch::x86_64::*;

use super::tables::LENGTHS;

/// How one level puts a control byte's four values into a register.
pub(super) trait Spread {
    /// The four values of control byte `c`, whose data starts at `data`,
    /// zero-extended to u64 lanes.
    ///
    /// # Safety
    /// The 32 bytes at `data` are readable; `c < 256`; the CPU has the
    /// features of the implementing level.
    unsafe fn spread(data: *const u8, c: usize) -> __m256i;
}

/// Decodes whole control bytes while 32 data bytes remain; returns (data
/// bytes consumed, values produced). With `prev`, writes the running sum
/// from `*prev` and leaves the last value in it.
///
/// # Safety
/// The CPU has AVX2 and the features `S` needs.
#[inline(always)]
pub(super) unsafe fn decode_bulk<S: Spread>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: Option<&mut u64>,
) -> (usize, usize) {
    // SAFETY: the caller's promise gives the features `decode` needs.
    unsafe {
        match prev {
            Some(prev) => decode::<S, true>(ctrl, data, out, prev),
            None => decode::<S, false>(ctrl, data, out, &mut 0),
        }
    }
}

/// The loop, with the prefix sum when `DELTA`.
///
/// # Safety
/// The CPU has AVX2 and the features `S` needs.
#[inline(always)]
unsafe fn decode<S: Spread, const DELTA: bool>(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: &mut u64,
) -> (usize, usize) {
    let groups = ctrl.len().min(out.len() / 4);
    let (mut pos, mut g) = (0, 0);
    // SAFETY: the caller provides AVX2.
    let mut last = unsafe { _mm256_set1_epi64x(*prev as i64) };
    while g < groups && pos + 32 <= data.len() {
        let c = ctrl[g] as usize;
        // SAFETY: data[pos..pos + 32] lies inside data (the loop
        // condition); c is a byte; out[4g..4g + 4] exists (g < out.len() /
        // 4); the caller provides the features.
        unsafe {
            let mut x = S::spread(data.as_ptr().add(pos), c);
            if DELTA {
                (x, last) = prefix_sum(x, last);
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(4 * g).cast(), x);
        }
        pos += LENGTHS[c] as usize;
        g += 1;
    }
    if DELTA {
        // SAFETY: the caller provides AVX2.
        *prev = unsafe { _mm256_extract_epi64::<0>(last) } as u64;
    }
    (pos, 4 * g)
}

/// The running sum of the four u64 gaps of `x` from `last` (the previous
/// value in every lane); returns it and its last lane in every lane. The
/// sum within the group does not wait for `last`, so the loop-carried chain
/// is one add.
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn prefix_sum(x: __m256i, last: __m256i) -> (__m256i, __m256i) {
    // SAFETY: the caller provides AVX2.
    unsafe {
        // (x0, x0 + x1, x2, x2 + x3)
        let x = _mm256_add_epi64(x, _mm256_slli_si256::<8>(x));
        // + (0, 0, s1, s1) with s1 = x0 + x1
        let s1 = _mm256_permute4x64_epi64::<0b01_01_00_00>(x);
        let x = _mm256_add_epi64(
            x,
            _mm256_blend_epi32::<0b1111_0000>(_mm256_setzero_si256(), s1),
        );
        let total = _mm256_permute4x64_epi64::<0b11_11_11_11>(x);
        (_mm256_add_epi64(x, last), _mm256_add_epi64(last, total))
    }
}
