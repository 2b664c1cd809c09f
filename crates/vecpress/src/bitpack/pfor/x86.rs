//! Patching a block's exceptions with AVX-512: eight high parts at a time
//! taken out of their bit-packed bytes in registers (one `vpermb` brings
//! each part's bytes into its 64-bit lane, one variable shift and a mask
//! take its bits), then added to the unpacked values by a gather and a
//! scatter at their positions. The scalar loop spends a dozen instructions
//! on each exception, and blocks of small gaps have dozens of them.

use core::arch::x86_64::*;

use super::block::Header;
use crate::Isa;
use crate::bitpack::bp128;

/// For each part width `e` (1..=32; row 0 unused), the bytes that bring
/// part `j` of eight (whose first bit is bit `j e` of a window) into 64-bit
/// lane `j`: bytes `j e / 8 ..` of the window.
static GATHER: [[u8; 64]; 33] = gathers();

/// For each `e`, the shift of lane `j` that puts part `j`'s first bit at
/// bit 0: `j e % 8`.
static SHIFT: [[u64; 8]; 33] = shifts();

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
    // SAFETY: the level came from `Isa::best()` or `Isa::check()`, so the
    // CPU has AVX-512 F, BW, VL and VBMI.
    unsafe { patch_avx512(positions, highs, e, width, out) };
    true
}

/// The values of the block at the start of `input` (header `h`, which has
/// exceptions) in the delta form, at the AVX-512 level: its packed part
/// unpacked, the high parts shifted left by the packed width added at
/// `positions`, and all summed from `initial`, in one pass over `out`
/// (bp128's fused kernel, given the patches as a mask for each register
/// and the parts in order for an expanding load). Returns `false`, having
/// done nothing, at any other level. The positions must be those of the
/// block, checked (below 128 and increasing); the padding is left to the
/// caller.
pub(super) fn unpack_patched_sum(
    isa: Isa,
    h: &Header,
    input: &[u8],
    positions: &[u8],
    out: &mut [u32; 128],
    initial: u32,
) -> bool {
    if isa != Isa::Avx512 {
        return false;
    }
    let packed = &input[h.packed_at..h.positions_at];
    let highs = &input[h.highs_at..];
    let (e, width) = (usize::from(h.high_width), h.width);
    debug_assert!((1..=32).contains(&e) && width < 32 && positions.len() <= 128);
    debug_assert!(highs.len() >= (positions.len() * e).div_ceil(8));
    let mut parts = [0u32; 128];
    // SAFETY: the level came from `Isa::best()` or `Isa::check()`, so the
    // CPU has AVX-512 F, BW, VL and VBMI.
    unsafe { highs_avx512(positions.len(), highs, e, u32::from(width), &mut parts) };
    // SAFETY: as above; the positions are at most 128.
    let bits = unsafe { bitmap_avx512(positions) };
    let patch = bp128::Patch {
        masks: core::array::from_fn(|g| (bits[g / 4] >> (16 * (g % 4))) as u16),
        values: &parts,
    };
    bp128::unpack_sorted_patched_with(isa, packed, width, out, initial, &patch)
}

/// The 128-bit set of `positions` (each below 128), as two u64: eight
/// positions a step, each widened to a 64-bit lane and turned into its bit
/// of either half by a variable shift (which gives zero for a shift of 64
/// or more, so a position falls in one half only), all or-ed together. A
/// scalar loop that sets one bit of memory per position waits on the
/// store before it for each one.
///
/// # Safety
/// The CPU has AVX-512 F, BW, VL and VBMI; `positions.len() <= 128`.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vbmi")]
unsafe fn bitmap_avx512(positions: &[u8]) -> [u64; 2] {
    let n = positions.len();
    let one = _mm512_set1_epi64(1);
    let sixty_four = _mm512_set1_epi64(64);
    let mut low = _mm512_setzero_si512();
    let mut high = _mm512_setzero_si512();
    let mut k = 0;
    while k < n {
        let lanes: u16 = if n - k >= 8 {
            0xff
        } else {
            (1u16 << (n - k)) - 1
        };
        // SAFETY: the masked load reads `positions[k..]`, at most its
        // `n - k` bytes (the other lanes are zero and give bit 0 of
        // `low`, or-ed in only through `lanes`); the caller's features.
        unsafe {
            let at = _mm512_cvtepu8_epi64(_mm_maskz_loadu_epi8(
                lanes,
                positions.as_ptr().add(k).cast(),
            ));
            let lanes = lanes as u8;
            low = _mm512_mask_or_epi64(low, lanes, low, _mm512_sllv_epi64(one, at));
            let above = _mm512_sub_epi64(at, sixty_four);
            high = _mm512_mask_or_epi64(high, lanes, high, _mm512_sllv_epi64(one, above));
        }
        k += 8;
    }
    [
        _mm512_reduce_or_epi64(low) as u64,
        _mm512_reduce_or_epi64(high) as u64,
    ]
}

/// Parts `k .. k + 8` (`k` a multiple of 8) of the `e`-bit parts at the
/// start of `highs`, in the eight u32 of a register: those past the end of
/// `highs` are zero, those past the `n` parts of the block hold its
/// padding or the bytes after it.
///
/// # Safety
/// The CPU has AVX-512 F, BW, VL and VBMI; `1 <= e <= 32`; `k * e / 8`
/// is at most `highs.len()`; `gather` and `shift` are the rows of `e` in
/// [`GATHER`] and [`SHIFT`], `low_bits` the low `e` bits of each u64.
#[inline(always)]
unsafe fn eight_parts(
    highs: &[u8],
    k: usize,
    e: usize,
    gather: __m512i,
    shift: __m512i,
    low_bits: __m512i,
) -> __m256i {
    // Parts k..k + 8 start at byte k e / 8, and their bytes end by
    // 4 e + 1 <= 33 bytes on.
    let at = k * e / 8;
    let left = highs.len() - at;
    let bytes: u64 = if left >= 64 { !0 } else { (1u64 << left) - 1 };
    // SAFETY: the masked load reads only bytes inside `highs` (the others
    // are zero); registers otherwise; the caller's features.
    unsafe {
        let window = _mm512_maskz_loadu_epi8(bytes, highs.as_ptr().add(at).cast());
        let parts = _mm512_and_si512(
            _mm512_srlv_epi64(_mm512_permutexvar_epi8(gather, window), shift),
            low_bits,
        );
        _mm512_cvtepi64_epi32(parts)
    }
}

/// The tables of `e` for [`eight_parts`]: gather, shift, low bits.
///
/// # Safety
/// The CPU has AVX-512 F; `1 <= e <= 32`.
#[inline(always)]
unsafe fn tables(e: usize) -> (__m512i, __m512i, __m512i) {
    // SAFETY: the table rows are 64 and 8 * 8 bytes; the caller's features.
    unsafe {
        (
            _mm512_loadu_si512(GATHER[e].as_ptr().cast()),
            _mm512_loadu_si512(SHIFT[e].as_ptr().cast()),
            _mm512_set1_epi64(((1u64 << e) - 1) as i64),
        )
    }
}

/// The `n` high parts of `e` bits at the start of `highs`, shifted left
/// by `width`, into `parts[..n]`.
///
/// # Safety
/// The CPU has AVX-512 F, BW, VL and VBMI; `n <= 128`, `1 <= e <= 32`,
/// `width < 32`, and `highs` holds the parts' `ceil(n e / 8)` bytes.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vbmi")]
unsafe fn highs_avx512(n: usize, highs: &[u8], e: usize, width: u32, parts: &mut [u32; 128]) {
    // SAFETY: the caller's features and `e`.
    let (gather, shift, low_bits) = unsafe { tables(e) };
    let by = _mm_cvtsi32_si128(width as i32);
    let mut k = 0;
    while k < n {
        let lanes: u8 = if n - k >= 8 {
            0xff
        } else {
            (1u8 << (n - k)) - 1
        };
        // SAFETY: `k < n`, so byte `k e / 8` lies within the parts' bytes;
        // the masked store writes `parts[k..k + 8]` at most, below
        // `n <= 128`, and only the lanes below `n`; the caller's features.
        unsafe {
            let high = _mm256_sll_epi32(eight_parts(highs, k, e, gather, shift, low_bits), by);
            _mm256_mask_storeu_epi32(parts.as_mut_ptr().add(k).cast(), lanes, high);
        }
        k += 8;
    }
}

/// # Safety
/// The CPU has AVX-512 F, BW, VL and VBMI; the arguments are as [`patch`]
/// asks.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vbmi")]
unsafe fn patch_avx512(positions: &[u8], highs: &[u8], e: usize, width: u32, out: &mut [u32; 128]) {
    let n = positions.len();
    // SAFETY: the caller's features and `e`.
    let (gather, shift, low_bits) = unsafe { tables(e) };
    let by = _mm_cvtsi32_si128(width as i32);
    let base = out.as_mut_ptr().cast::<i32>();
    let mut k = 0;
    while k < n {
        let lanes: u8 = if n - k >= 8 {
            0xff
        } else {
            (1u8 << (n - k)) - 1
        };
        // SAFETY: `k < n`, so byte `k e / 8` lies within the parts' bytes;
        // the position load reads `positions[k..]`, at most its `n - k`
        // bytes; the gather and the scatter touch only the lanes of
        // `lanes`, at positions below 128 inside `out`, each once (the
        // positions increase); the caller's features.
        unsafe {
            let high = _mm256_sll_epi32(eight_parts(highs, k, e, gather, shift, low_bits), by);
            let at8 = _mm_maskz_loadu_epi8(u16::from(lanes), positions.as_ptr().add(k).cast());
            let index = _mm256_cvtepu8_epi32(at8);
            let low = _mm256_mmask_i32gather_epi32::<4>(_mm256_setzero_si256(), lanes, index, base);
            _mm256_mask_i32scatter_epi32::<4>(base, lanes, index, _mm256_or_si256(low, high));
        }
        k += 8;
    }
}
