//! Patching a block's exceptions with AVX-512: eight high parts at a time
//! taken out of their bit-packed bytes in registers (one `vpermb` brings
//! each part's bytes into its 64-bit lane, one variable shift and a mask
//! take its bits), then added to the unpacked values by a gather and a
//! scatter at their positions. The scalar loop spends a dozen instructions
//! on each exception, and blocks of small gaps have dozens of them.

use core::arch::x86_64::*;

use crate::Isa;

/// For each part width `e` (1..=32; row 0 unused), the bytes that bring
/// part `j` of eight (whose first bit is bit `j e` of a window) into 64-bit
/// lane `j`: bytes `j e / 8 ..` of the window.
static GATHER: crate::simd::Aligned<[[u8; 64]; 33]> = crate::simd::Aligned(gathers());

/// For each `e`, the shift of lane `j` that puts part `j`'s first bit at
/// bit 0: `j e % 8`.
static SHIFT: crate::simd::Aligned<[[u64; 8]; 33]> = crate::simd::Aligned(shifts());

const fn gathers() -> [[u8; 64]; 33] {
    let mut t = [[0u8; 64]; 33];
    let mut e = 1;
    while e <= 32 {
        let mut j = 0;
        while j < 8 {
            let mut b = 0;
            while b < 8 {
                t[e][8 * j + b] = (j * e / 8 + b) as u8;
                b += 1;
            }
            j += 1;
        }
        e += 1;
    }
    t
}

const fn shifts() -> [[u64; 8]; 33] {
    let mut t = [[0u64; 8]; 33];
    let mut e = 1;
    while e <= 32 {
        let mut j = 0;
        while j < 8 {
            t[e][j] = (j * e % 8) as u64;
            j += 1;
        }
        e += 1;
    }
    t
}

/// The fewest exceptions [`patch`] takes.
const MIN_EXCEPTIONS: usize = 8;

/// Adds the high parts (`e` bits each, from the start of `highs`, which
/// runs on to the input's end) shifted left by `width` to `out` at
/// `positions`, when `isa` is the Avx512 level and there are at least
/// [`MIN_EXCEPTIONS`]; returns whether it did.
/// The positions must be below 128 and increasing (checked by the caller),
/// `1 <= e <= 32`, `width < 32`, and `highs` must hold the parts' bytes.
pub(super) fn patch(
    isa: Isa,
    positions: &[u8],
    highs: &[u8],
    e: usize,
    width: u32,
    out: &mut [u32; 128],
) -> bool {
    // A gather and a scatter take longer than the scalar loop over a few
    // exceptions.
    if isa != Isa::Avx512 || positions.len() < MIN_EXCEPTIONS {
        return false;
    }
    debug_assert!((1..=32).contains(&e) && width < 32 && positions.len() <= 128);
    debug_assert!(highs.len() >= (positions.len() * e).div_ceil(8));
    // SAFETY: the level came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the
    // CPU has AVX-512 F, BW, VL and VBMI.
    unsafe { patch_avx512(positions, highs, e, width, out) };
    true
}

/// # Safety
/// The CPU has AVX-512 F, BW, VL and VBMI; the arguments are as [`patch`]
/// asks.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vbmi")]
unsafe fn patch_avx512(positions: &[u8], highs: &[u8], e: usize, width: u32, out: &mut [u32; 128]) {
    let n = positions.len();
    // SAFETY: the table rows are 64 and 8 * 8 bytes.
    let (gather, shift) = unsafe {
        (
            _mm512_loadu_si512(GATHER[e].as_ptr().cast()),
            _mm512_loadu_si512(SHIFT[e].as_ptr().cast()),
        )
    };
    let low_bits = _mm512_set1_epi64(((1u64 << e) - 1) as i64);
    let by = _mm_cvtsi32_si128(width as i32);
    let base = out.as_mut_ptr().cast::<i32>();
    let mut k = 0;
    while k < n {
        // Parts k..k + 8 start at byte k e / 8 (k is a multiple of 8), and
        // their bytes end by 4 e + 1 <= 33 bytes on.
        let at = k * e / 8;
        let left = highs.len() - at;
        let bytes: u64 = if left >= 64 { !0 } else { (1u64 << left) - 1 };
        let lanes: u8 = if n - k >= 8 {
            0xff
        } else {
            (1u8 << (n - k)) - 1
        };
        // SAFETY: the masked load reads only bytes inside `highs` (the
        // others are zero); the position load reads `positions[k..]`, at
        // most its `n - k` bytes; the gather and the scatter touch only
        // the lanes of `lanes`, at positions below 128 inside `out`, each
        // once (the positions increase).
        unsafe {
            let window = _mm512_maskz_loadu_epi8(bytes, highs.as_ptr().add(at).cast());
            let parts = _mm512_and_si512(
                _mm512_srlv_epi64(_mm512_permutexvar_epi8(gather, window), shift),
                low_bits,
            );
            let high = _mm256_sll_epi32(_mm512_cvtepi64_epi32(parts), by);
            let at8 = _mm_maskz_loadu_epi8(u16::from(lanes), positions.as_ptr().add(k).cast());
            let index = _mm256_cvtepu8_epi32(at8);
            let low = _mm256_mmask_i32gather_epi32::<4>(_mm256_setzero_si256(), lanes, index, base);
            _mm256_mask_i32scatter_epi32::<4>(base, lanes, index, _mm256_or_si256(low, high));
        }
        k += 8;
    }
}
