//! [`Vector`] and [`Lanes`] for the x86-64 register `__m128i` (SSSE3 +
//! SSE4.1; VEX-encoded when the kernel enables AVX), [`Lanes`] for `__m256i`
//! (AVX2), and the single AVX2 and AVX-512 instructions that several kernels
//! share ([`expand_bytes`], [`Prefix16`], ...).

use core::arch::x86_64::*;

use super::{Aligned, Lanes, Vector};

impl Vector for __m128i {
    #[inline(always)]
    unsafe fn load(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees the 16 bytes are readable.
        unsafe { _mm_loadu_si128(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn load8(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees the 8 bytes are readable (movq reads
        // no more).
        unsafe { _mm_loadl_epi64(ptr.cast()) }
    }

    #[inline(always)]
    unsafe fn widen_u8(ptr: *const u8) -> Self {
        // SAFETY: the caller guarantees the 4 bytes are readable, and SSE4.1.
        unsafe { _mm_cvtepu8_epi32(_mm_cvtsi32_si128(ptr.cast::<i32>().read_unaligned())) }
    }

    #[inline(always)]
    unsafe fn store(self, ptr: *mut u8) {
        // SAFETY: the caller guarantees the 16 bytes are writable.
        unsafe { _mm_storeu_si128(ptr.cast(), self) }
    }

    #[inline(always)]
    unsafe fn shuffle(self, mask: Self) -> Self {
        // SAFETY: the caller guarantees SSSE3.
        unsafe { _mm_shuffle_epi8(self, mask) }
    }

    #[inline(always)]
    unsafe fn add_sat_u8(self, k: u8) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_adds_epu8(self, _mm_set1_epi8(k as i8)) }
    }

    #[inline(always)]
    unsafe fn prefix_sum_u32(self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe {
            let x = _mm_add_epi32(self, _mm_slli_si128::<4>(self));
            _mm_add_epi32(x, _mm_slli_si128::<8>(x))
        }
    }

    #[inline(always)]
    unsafe fn add_u32(self, other: Self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn from_u128(x: u128) -> Self {
        let (lo, hi) = (x as i64, (x >> 64) as i64);
        // SAFETY: the caller guarantees SSE4.1.
        unsafe { _mm_set_epi64x(hi, lo) }
    }

    #[inline(always)]
    unsafe fn splat_u32(x: u32) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_set1_epi32(x as i32) }
    }

    #[inline(always)]
    unsafe fn splat_last_u32(self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_shuffle_epi32::<0xff>(self) }
    }

    #[inline(always)]
    unsafe fn sum_u8(self) -> u32 {
        // SAFETY: the caller guarantees SSE2.
        unsafe {
            let halves = _mm_sad_epu8(self, _mm_setzero_si128());
            _mm_cvtsi128_si32(_mm_add_epi32(halves, _mm_unpackhi_epi64(halves, halves))) as u32
        }
    }

    #[inline(always)]
    unsafe fn sum_u8_lanes(self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_sad_epu8(self, _mm_setzero_si128()) }
    }

    #[inline(always)]
    unsafe fn ge_mask_u32(self, target: Self) -> u32 {
        // SAFETY: the caller guarantees SSE4.1.
        unsafe {
            let ge = _mm_cmpeq_epi32(_mm_max_epu32(self, target), self);
            _mm_movemask_ps(_mm_castsi128_ps(ge)) as u32
        }
    }

    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_or_si128(self, other) }
    }

    #[inline(always)]
    unsafe fn sum_u32(self) -> u32 {
        // SAFETY: the caller guarantees SSE2.
        unsafe {
            let x = _mm_add_epi32(self, _mm_shuffle_epi32::<0b01_00_11_10>(self));
            let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x));
            _mm_cvtsi128_si32(x) as u32
        }
    }

    #[inline(always)]
    unsafe fn last_u32(self) -> u32 {
        // SAFETY: the caller guarantees SSE4.1.
        unsafe { _mm_extract_epi32::<3>(self) as u32 }
    }

    #[inline(always)]
    unsafe fn splat_u64(x: u64) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_set1_epi64x(x as i64) }
    }

    #[inline(always)]
    unsafe fn add_u64(self, other: Self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_add_epi64(self, other) }
    }

    #[inline(always)]
    unsafe fn shift_up_u64(self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_slli_si128::<8>(self) }
    }

    #[inline(always)]
    unsafe fn splat_high_u64(self) -> Self {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_unpackhi_epi64(self, self) }
    }

    #[inline(always)]
    unsafe fn low_u64(self) -> u64 {
        // SAFETY: the caller guarantees SSE2.
        unsafe { _mm_cvtsi128_si64(self) as u64 }
    }
}

impl Lanes for __m128i {
    const LANES: usize = 1;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: SSE2 is the caller's promise (trait contract).
        unsafe { _mm_setzero_si128() }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 readable bytes at `p` (trait contract); unaligned load.
        unsafe { _mm_loadu_si128(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 16 writable bytes at `p` (trait contract); unaligned store.
        unsafe { _mm_storeu_si128(p.cast(), self) }
    }
    #[inline(always)]
    unsafe fn load_lanes(p: *const u8, _stride: usize) -> Self {
        // SAFETY: 16 readable bytes at `p` (trait contract): one lane.
        unsafe { _mm_loadu_si128(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store_lane(self, _h: usize, p: *mut u8) {
        // SAFETY: 16 writable bytes at `p` (trait contract): one lane.
        unsafe { _mm_storeu_si128(p.cast(), self) }
    }
    #[inline(always)]
    unsafe fn zip_lo(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: SSE2 is the caller's promise.
        unsafe {
            match e {
                1 => _mm_unpacklo_epi8(a, b),
                2 => _mm_unpacklo_epi16(a, b),
                4 => _mm_unpacklo_epi32(a, b),
                _ => _mm_unpacklo_epi64(a, b),
            }
        }
    }
    #[inline(always)]
    unsafe fn zip_hi(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: SSE2 is the caller's promise.
        unsafe {
            match e {
                1 => _mm_unpackhi_epi8(a, b),
                2 => _mm_unpackhi_epi16(a, b),
                4 => _mm_unpackhi_epi32(a, b),
                _ => _mm_unpackhi_epi64(a, b),
            }
        }
    }
    #[inline(always)]
    unsafe fn shuffle(self, table: &[u8; 16]) -> Self {
        // SAFETY: SSSE3 is the caller's promise; `table` is 16 readable bytes.
        unsafe { _mm_shuffle_epi8(self, _mm_loadu_si128(table.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn splat(x: u8) -> Self {
        // SAFETY: SSE2 is the caller's promise.
        unsafe { _mm_set1_epi8(x as i8) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: SSE2 is the caller's promise.
        unsafe { _mm_and_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2 is the caller's promise.
        unsafe { _mm_xor_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn shr_u16<const N: i32>(self) -> Self {
        // SAFETY: SSE2 is the caller's promise.
        unsafe { _mm_srli_epi16::<N>(self) }
    }
    #[inline(always)]
    unsafe fn shl_u16<const N: i32>(self) -> Self {
        // SAFETY: SSE2 is the caller's promise.
        unsafe { _mm_slli_epi16::<N>(self) }
    }
}

impl Lanes for __m256i {
    const LANES: usize = 2;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: AVX is the caller's promise (trait contract).
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 32 readable bytes at `p` (trait contract); unaligned load.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 32 writable bytes at `p` (trait contract); unaligned store.
        unsafe { _mm256_storeu_si256(p.cast(), self) }
    }
    #[inline(always)]
    unsafe fn load_lanes(p: *const u8, stride: usize) -> Self {
        // SAFETY: 16 readable bytes at `p` and at `p + stride` (trait contract).
        unsafe {
            let lo = _mm256_castsi128_si256(_mm_loadu_si128(p.cast()));
            _mm256_inserti128_si256::<1>(lo, _mm_loadu_si128(p.add(stride).cast()))
        }
    }
    #[inline(always)]
    unsafe fn store_lane(self, h: usize, p: *mut u8) {
        // SAFETY: 16 writable bytes at `p` (trait contract); AVX2 is promised.
        unsafe {
            let lane = if h == 0 {
                _mm256_castsi256_si128(self)
            } else {
                _mm256_extracti128_si256::<1>(self)
            };
            _mm_storeu_si128(p.cast(), lane)
        }
    }
    #[inline(always)]
    unsafe fn zip_lo(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: AVX2 is the caller's promise.
        unsafe {
            match e {
                1 => _mm256_unpacklo_epi8(a, b),
                2 => _mm256_unpacklo_epi16(a, b),
                4 => _mm256_unpacklo_epi32(a, b),
                _ => _mm256_unpacklo_epi64(a, b),
            }
        }
    }
    #[inline(always)]
    unsafe fn zip_hi(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: AVX2 is the caller's promise.
        unsafe {
            match e {
                1 => _mm256_unpackhi_epi8(a, b),
                2 => _mm256_unpackhi_epi16(a, b),
                4 => _mm256_unpackhi_epi32(a, b),
                _ => _mm256_unpackhi_epi64(a, b),
            }
        }
    }
    #[inline(always)]
    unsafe fn shuffle(self, table: &[u8; 16]) -> Self {
        // SAFETY: AVX2 is the caller's promise; `table` is 16 readable bytes.
        unsafe {
            let t = _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast()));
            _mm256_shuffle_epi8(self, t)
        }
    }
    #[inline(always)]
    unsafe fn splat(x: u8) -> Self {
        // SAFETY: AVX2 is the caller's promise.
        unsafe { _mm256_set1_epi8(x as i8) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: AVX2 is the caller's promise.
        unsafe { _mm256_and_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2 is the caller's promise.
        unsafe { _mm256_xor_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn shr_u16<const N: i32>(self) -> Self {
        // SAFETY: AVX2 is the caller's promise.
        unsafe { _mm256_srli_epi16::<N>(self) }
    }
    #[inline(always)]
    unsafe fn shl_u16<const N: i32>(self) -> Self {
        // SAFETY: AVX2 is the caller's promise.
        unsafe { _mm256_slli_epi16::<N>(self) }
    }
}

/// `vpexpandb` of a register: byte `i` of the result is the next byte of
/// `bytes` (from byte 0) where bit `i` of `mask` is set, zero elsewhere.
///
/// Written in `asm!` so that it stays the register form. From the
/// intrinsic, LLVM folds the load of `bytes` into the instruction; the
/// memory form reads only as many bytes as `mask` has set bits, so its
/// load waits for the mask, where a separate 64-byte load issues ahead of
/// it. Both Stream VByte's plain decoding at the AVX-512 level and the
/// delta decoder that expands sixteen gaps a step rely on that.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[inline]
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(crate) unsafe fn expand_bytes(mask: u64, bytes: __m512i) -> __m512i {
    let out: __m512i;
    // SAFETY: register operands only, no memory or stack touched; the
    // instruction is the caller's promise (AVX-512 VBMI2, masks of BW).
    unsafe {
        core::arch::asm!(
            "vpexpandb {out} {{{k}}}{{z}}, {bytes}",
            k = in(kreg) mask,
            out = lateout(zmm_reg) out,
            bytes = in(zmm_reg) bytes,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    out
}

/// `vpmovzxbd` from memory: the 8 bytes at `ptr` zero-extended to eight
/// u32 lanes, the load folded into the instruction.
///
/// Written in `asm!` so that the load stays folded into the one instruction
/// whatever the code around it: LLVM sees through an intrinsic load and may
/// rewrite it (from bytes just stored it takes each 8 from the register
/// with a shuffle or lane extract), where this form needs none.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`; the 8 bytes at `ptr` are readable.
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(crate) unsafe fn widen_u8x8_from(ptr: *const u8) -> __m256i {
    let out: __m256i;
    // SAFETY: the instruction reads the 8 bytes at `ptr` (readable, the
    // caller's promise) and nothing else; AVX2 per the caller.
    unsafe {
        core::arch::asm!(
            "vpmovzxbd {out}, qword ptr [{ptr}]",
            ptr = in(reg) ptr,
            out = lateout(ymm_reg) out,
            options(pure, readonly, nostack, preserves_flags),
        );
    }
    out
}

/// For each byte, the positions of its set bits, in order, then zeros: a
/// bitmap's ids a byte at a time, and (widened) [`compress8`]'s indices.
pub(crate) static SET_BITS8: Aligned<[[u8; 8]; 256]> = Aligned(set_bits8_table());

const fn set_bits8_table() -> [[u8; 8]; 256] {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
}

/// [`SET_BITS8`] in u32 lanes: for each mask of eight lanes, the `vpermd`
/// indices of [`compress8`] (a load, where the bytes would take a widening
/// on the chain of each compress).
static COMPRESS8: Aligned<[[u32; 8]; 256]> = Aligned(compress8_table());

const fn compress8_table() -> [[u32; 8]; 256] {
    let bytes = set_bits8_table();
    let mut table = [[0u32; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut k = 0;
        while k < 8 {
            table[mask][k] = bytes[mask][k] as u32;
            k += 1;
        }
        mask += 1;
    }
    table
}

/// The lanes of `v` whose bit of `mask` is set, moved to the front in
/// order (the lanes after them unspecified): AVX2's stand-in for AVX-512's
/// `vpcompressd`, a `vpermd` by indices from a table of the 256 masks.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(crate) unsafe fn compress8(v: __m256i, mask: u32) -> __m256i {
    // SAFETY: `mask & 0xff` indexes the table's 256 rows of 32 bytes,
    // each aligned to 64.
    let idx = unsafe { _mm256_load_si256(COMPRESS8[mask as usize & 0xff].as_ptr().cast()) };
    _mm256_permutevar8x32_epi32(v, idx)
}

/// Running sums of sixteen u32 in a 512-bit register: two byte shifts and
/// adds within each 128-bit lane, then each lane's total carried into the
/// lanes after it by two masked `vpermd` and adds; five shuffles for
/// sixteen values, where 128-bit steps take twelve.
///
/// The permute indices are loaded through an opaque pointer: with constant
/// masks LLVM rewrites each masked add as an add and a lane insert or
/// shuffle.
pub(crate) struct Prefix16 {
    carry1: __m512i,
    carry2: __m512i,
    last: __m512i,
    mask1: u16,
    mask2: u16,
}

/// The tables of [`Prefix16`]: each 128-bit lane takes the last value of the
/// lane before it (`carry1`, lanes 1..4) or of the lane two before
/// (`carry2`, lanes 2..4), under `masks`; `last` is value 15 everywhere.
#[repr(C, align(64))]
struct Carries {
    carry1: [u32; 16],
    carry2: [u32; 16],
    last: [u32; 16],
    masks: [u16; 2],
}

static CARRIES: Carries = Carries {
    carry1: lane_carry(1),
    carry2: lane_carry(2),
    last: [15; 16],
    masks: [0xfff0, 0xff00],
};

/// Value `i` takes value 3 of the 128-bit lane `by` lanes before its own
/// (0 where there is none: those lanes are masked off).
const fn lane_carry(by: usize) -> [u32; 16] {
    let mut t = [0u32; 16];
    let mut i = 4 * by;
    while i < 16 {
        t[i] = (4 * (i / 4 - by) + 3) as u32;
        i += 1;
    }
    t
}

impl Prefix16 {
    /// The tables, in registers.
    ///
    /// # Safety
    /// The CPU has AVX-512 F.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Prefix16 {
        let t: &Carries = core::hint::black_box(&CARRIES);
        let [mask1, mask2] = t.masks;
        // SAFETY: each table is 64 readable bytes; AVX-512 F per the caller.
        unsafe {
            let v = |p: &[u32; 16]| _mm512_loadu_si512(p.as_ptr().cast());
            Prefix16 {
                carry1: v(&t.carry1),
                carry2: v(&t.carry2),
                last: v(&t.last),
                mask1,
                mask2,
            }
        }
    }

    /// The running sums of the sixteen values of `x` (from 0).
    ///
    /// # Safety
    /// The CPU has AVX-512 F and BW.
    #[inline(always)]
    pub(crate) unsafe fn sums(&self, x: __m512i) -> __m512i {
        // SAFETY: registers only; the features are the caller's promise.
        unsafe {
            let x = _mm512_add_epi32(x, _mm512_bslli_epi128::<4>(x));
            let x = _mm512_add_epi32(x, _mm512_bslli_epi128::<8>(x));
            let x =
                _mm512_mask_add_epi32(x, self.mask1, x, _mm512_permutexvar_epi32(self.carry1, x));
            _mm512_mask_add_epi32(x, self.mask2, x, _mm512_permutexvar_epi32(self.carry2, x))
        }
    }

    /// The last of the sixteen sums of `sums` in every lane.
    ///
    /// # Safety
    /// The CPU has AVX-512 F.
    #[inline(always)]
    pub(crate) unsafe fn total(&self, sums: __m512i) -> __m512i {
        // SAFETY: registers only; AVX-512 F per the caller.
        unsafe { _mm512_permutexvar_epi32(self.last, sums) }
    }
}
