//! Patching a block's exceptions with AVX-512: the positions checked by
//! two masked loads and one compare per 64, the high parts taken out of
//! their bit-packed bytes eight at a time in registers (one `vpermb` brings
//! each part's bytes into its 64-bit lane, one variable shift and a mask
//! take its bits), then added to the unpacked values in one of two forms
//! (chosen per CPU by [`tune::pfor_scalar_patch`](crate::tune::pfor_scalar_patch)):
//! - by one scalar read-modify-write each, from a buffer of the parts: on
//!   Zen 4 a gather and a scatter of eight values each wait tens of cycles
//!   (their lanes are loaded and stored one at a time), on the chain from
//!   one group of eight to the next (`perf/amd-25-17.md`, "PFOR delta");
//! - by a gather and a scatter of eight at a time, for eight exceptions or
//!   more (the scalar loop of `block.rs`, a dozen instructions a part,
//!   below that).

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

/// The fewest exceptions the gather and scatter form takes.
const MIN_SCATTERED: usize = 8;

/// Adds the high parts (`e` bits each, from the start of `highs`, which
/// runs on to the input's end) shifted left by `width` to `out` at
/// `positions`, in the form `scalar` says (the CPU's profile:
/// [`tune::pfor_scalar_patch`](crate::tune::pfor_scalar_patch)), when
/// `isa` is the Avx512 level (and, in the gather and scatter form, there
/// are at least [`MIN_SCATTERED`]); returns `None` when it does not (the
/// caller checks and patches), else whether the positions were valid
/// (below 128 and increasing; if not, `out` is left as it was).
/// `1 <= positions.len() <= 128`, `1 <= e <= 32`, `width < 32`, and `highs`
/// must hold the parts' bytes.
pub(super) fn patch(
    scalar: bool,
    isa: Isa,
    positions: &[u8],
    highs: &[u8],
    e: usize,
    width: u32,
    out: &mut [u32; 128],
) -> Option<bool> {
    if isa != Isa::Avx512 || (!scalar && positions.len() < MIN_SCATTERED) {
        return None;
    }
    debug_assert!((1..=32).contains(&e) && width < 32 && (1..=128).contains(&positions.len()));
    debug_assert!(highs.len() >= (positions.len() * e).div_ceil(8));
    // SAFETY: the level came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the
    // CPU has AVX-512 F, BW, VL and VBMI; the positions are checked before
    // the patch.
    unsafe {
        if !increasing_avx512(positions) {
            return Some(false);
        }
        if scalar {
            patch_avx512::<false>(positions, highs, e, width, out);
        } else {
            patch_avx512::<true>(positions, highs, e, width, out);
        }
    }
    Some(true)
}

/// Whether `positions` (1 to 128 of them) increase and the last is below
/// 128: each byte against the next, 64 pairs a compare (one or two), where
/// a byte loop's exit would come at a count that changes from block to
/// block.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
unsafe fn increasing_avx512(positions: &[u8]) -> bool {
    let n = positions.len();
    let p = positions.as_ptr();
    let mut bad = 0u64;
    let mut k = 0;
    while k + 1 < n {
        let pairs = (n - 1 - k).min(64);
        let mask = if pairs == 64 { !0 } else { (1u64 << pairs) - 1 };
        // SAFETY: the masked loads read bytes `k..k + pairs + 1`, inside
        // `positions` (k + pairs <= n - 1).
        unsafe {
            let a = _mm512_maskz_loadu_epi8(mask, p.add(k).cast());
            let b = _mm512_maskz_loadu_epi8(mask, p.add(k + 1).cast());
            bad |= _mm512_mask_cmpge_epu8_mask(mask, a, b);
        }
        k += 64;
    }
    bad == 0 && usize::from(positions[n - 1]) < 128
}

/// Adds the parts by a gather and a scatter of eight (`SCATTER`) or by one
/// read-modify-write each.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`; the arguments are as [`patch`]
/// asks, and the positions are below 128 and increasing.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
unsafe fn patch_avx512<const SCATTER: bool>(
    positions: &[u8],
    highs: &[u8],
    e: usize,
    width: u32,
    out: &mut [u32; 128],
) {
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
    let mut parts_of = core::mem::MaybeUninit::<[u32; 128]>::uninit();
    let parts_at = parts_of.as_mut_ptr().cast::<u32>();
    let mut k = 0;
    while k < n {
        // Parts k..k + 8 start at byte k e / 8 (k is a multiple of 8), and
        // their bytes end by 4 e + 1 <= 33 bytes on.
        let at = k * e / 8;
        let left = highs.len() - at;
        let bytes: u64 = if left >= 64 { !0 } else { (1u64 << left) - 1 };
        // SAFETY: the masked load reads only bytes inside `highs` (the
        // others are zero).
        let high = unsafe {
            let window = _mm512_maskz_loadu_epi8(bytes, highs.as_ptr().add(at).cast());
            let parts = _mm512_and_si512(
                _mm512_srlv_epi64(_mm512_permutexvar_epi8(gather, window), shift),
                low_bits,
            );
            _mm256_sll_epi32(_mm512_cvtepi64_epi32(parts), by)
        };
        if SCATTER {
            let lanes: u8 = if n - k >= 8 {
                0xff
            } else {
                (1u8 << (n - k)) - 1
            };
            // SAFETY: the position load reads `positions[k..]`, at most its
            // `n - k` bytes; the gather and the scatter touch only the lanes
            // of `lanes`, at positions below 128 inside `out`, each once
            // (the positions increase).
            unsafe {
                let at8 = _mm_maskz_loadu_epi8(u16::from(lanes), positions.as_ptr().add(k).cast());
                let index = _mm256_cvtepu8_epi32(at8);
                let low =
                    _mm256_mmask_i32gather_epi32::<4>(_mm256_setzero_si256(), lanes, index, base);
                _mm256_mask_i32scatter_epi32::<4>(base, lanes, index, _mm256_or_si256(low, high));
            }
        } else {
            // SAFETY: the store writes parts `k..k + 8` of the buffer,
            // inside it (k < n <= 128 and k is a multiple of 8).
            unsafe { _mm256_storeu_si256(parts_at.add(k).cast(), high) };
        }
        k += 8;
    }
    if !SCATTER {
        for (k, &p) in positions.iter().enumerate() {
            // SAFETY: the loop above wrote parts 0..n rounded up to eight.
            out[usize::from(p) % 128] |= unsafe { parts_at.add(k).read() };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both forms add the same parts as the scalar code, for every count
    /// of exceptions and part width, where the CPU has the level.
    #[test]
    fn both_forms_patch_as_the_scalar_code() {
        if !Isa::available().contains(&Isa::Avx512) {
            eprintln!("skipped: no AVX-512 here");
            return;
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in [1usize, 2, 7, 8, 9, 16, 17, 33, 64, 65, 100, 127, 128] {
            for e in [1usize, 3, 8, 13, 24, 31, 32] {
                let width = if e == 32 {
                    0
                } else {
                    (next() % (33 - e as u64)) as u32 % 32
                };
                let mut set = [false; 128];
                while set.iter().filter(|&&x| x).count() < n {
                    set[(next() % 128) as usize] = true;
                }
                let positions: Vec<u8> = (0..128u8).filter(|&p| set[usize::from(p)]).collect();
                let parts: Vec<u64> = (0..n).map(|_| next() & ((1u64 << e) - 1)).collect();
                let mut highs = vec![0u8; (n * e).div_ceil(8)];
                for (k, &h) in parts.iter().enumerate() {
                    for bit in 0..e {
                        let at = k * e + bit;
                        highs[at / 8] |= ((h >> bit & 1) as u8) << (at % 8);
                    }
                }
                let low: [u32; 128] =
                    core::array::from_fn(|_| next() as u32 & ((1u64 << width) - 1) as u32);
                let mut want = low;
                for (&p, &h) in positions.iter().zip(&parts) {
                    want[usize::from(p)] |= (h as u32) << width;
                }
                for scalar in [false, true] {
                    let mut out = low;
                    let done = patch(scalar, Isa::Avx512, &positions, &highs, e, width, &mut out);
                    if !scalar && n < MIN_SCATTERED {
                        assert_eq!(done, None);
                        continue;
                    }
                    assert_eq!(done, Some(true), "n={n} e={e}");
                    assert_eq!(out, want, "scalar={scalar} n={n} e={e} width={width}");
                }
            }
        }
    }
}
