//! Delta decoding of one-byte runs at the x86 levels (at the AVX-512 level
//! for the gaps its byte sums cannot take), as the
//! reference C decoder sums them: a zero control word is 32 values of one
//! byte each; eight at a time are widened to 16-bit lanes, where two
//! shift-and-adds give the prefix sums of the first four and the sum of
//! each four-value window (no carry: 4 x 255 < 2^16); the last four are the
//! first four plus their windows.
//!
//! ```text
//! v = widen16(x0..x7); v += v << 1 lane; v += v << 2 lanes
//!   = [x0, x0..1, x0..2, x0..3, x1..4, x2..5, x3..6, x4..7]   (sums over ranges)
//! lo = widen32(v[0..4])                sums 0..3
//! hi = lo + widen32(v[4..8])           sums 4..7: sum i plus x(i+1)..x(i+4)
//! store lo + acc, hi + acc; acc += splat(hi[3])
//! ```
//!
//! Five shuffles per 8 values, where widening to 32-bit lanes and summing
//! there takes four per 4, and the chain from one step to the next is one
//! add (the total broadcast off it), where running the sums from `acc` and
//! broadcasting the last of them would put two adds and a shuffle on it.

use core::arch::x86_64::*;

use super::generic::OneByteRuns;

/// The runs of the SSE4.1 and AVX2 kernels.
pub(super) struct Sums16;

/// `pshufb` indices: the 16-bit lanes 4..8 into 32-bit lanes (zero-extended).
const HIGH16_TO_32: [u8; 16] = [
    8, 9, 0x80, 0x80, 10, 11, 0x80, 0x80, 12, 13, 0x80, 0x80, 14, 15, 0x80, 0x80,
];

/// Decodes zero control words (32 one-byte gaps each) from control byte
/// `key` and data byte `pos`, running from `acc` (the previous value in
/// every lane); returns the new `(key, pos)`.
///
/// # Safety
/// The CPU has SSE4.1; `key <= control.len()`, `pos <= data.len()`; `out`
/// is writable for 4 u32 values per control byte.
#[inline(always)]
unsafe fn runs(
    control: &[u8],
    data: &[u8],
    out: *mut u8,
    mut key: usize,
    mut pos: usize,
    acc: &mut __m128i,
) -> (usize, usize) {
    // SAFETY: 16 readable bytes; SSE2 (the caller's promise).
    let high = unsafe { _mm_loadu_si128(HIGH16_TO_32.as_ptr().cast()) };
    while key + 8 <= control.len() && data.len() - pos >= 32 {
        let mut word = [0u8; 8];
        word.copy_from_slice(&control[key..key + 8]);
        if u64::from_le_bytes(word) != 0 {
            break;
        }
        for g in 0..4 {
            // SAFETY: 8 bytes at pos + 8g are inside `data` (32 remain); the
            // 8 values at value 4 key + 8g are inside `out` (key + 8 <=
            // control.len()); the CPU has SSE4.1.
            unsafe {
                let x = _mm_loadl_epi64(data.as_ptr().add(pos + 8 * g).cast());
                let v = _mm_cvtepu8_epi16(x);
                let v = _mm_add_epi16(v, _mm_slli_si128::<2>(v));
                let v = _mm_add_epi16(v, _mm_slli_si128::<4>(v));
                let lo = _mm_cvtepu16_epi32(v);
                let hi = _mm_add_epi32(lo, _mm_shuffle_epi8(v, high));
                let dst = out.add(16 * key + 32 * g);
                _mm_storeu_si128(dst.cast(), _mm_add_epi32(lo, *acc));
                _mm_storeu_si128(dst.add(16).cast(), _mm_add_epi32(hi, *acc));
                *acc = _mm_add_epi32(*acc, _mm_shuffle_epi32::<0xff>(hi));
            }
        }
        key += 8;
        pos += 32;
    }
    (key, pos)
}

impl OneByteRuns<__m128i> for Sums16 {
    #[inline(always)]
    unsafe fn run(
        &self,
        control: &[u8],
        data: &[u8],
        out: *mut u8,
        key: usize,
        pos: usize,
        acc: &mut __m128i,
    ) -> (usize, usize) {
        // SAFETY: the caller's promises (the `__m128i` kernel has SSE4.1).
        unsafe { runs(control, data, out, key, pos, acc) }
    }
}
