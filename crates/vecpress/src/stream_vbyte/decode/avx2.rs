//! The AVX2 kernel: two control bytes, eight values, a step ([`pairs`]):
//! each group's 16 data bytes loaded into one 128-bit half of a register,
//! one `vpshufb` with the two groups' table rows; with delta coding, their
//! prefix sum in the register and the running total off the step-to-step
//! chain. Delta-coded runs of one-byte gaps are summed 32 at a time
//! ([`byte_runs`]): in bytes where all 32 are below 32, else in 16-bit
//! lanes ([`wide_sums`]); the last groups go through the 16-byte steps of
//! [`generic`](super::generic), VEX-encoded.
//!
//! Lists dense in gaps below 32 decode faster than with the SSE4.1 kernel,
//! by the byte sums, and so do runs of wider one-byte gaps, by the 256-bit
//! 16-bit sums. Each 32 gaps choose their sums: a run handed whole to
//! [`Sums16`] at its first wide gap runs slower on clustered lists, whose
//! runs of gaps below 32 hold a wider one now and then (`perf/amd-25-1.md`,
//! "Stream VByte delta"). Pairs of groups keep the running total off the
//! chain, as the 16-byte steps do: carried through the pair's last value,
//! it would put a permute on the chain.

use core::arch::x86_64::*;

use super::generic::{block_word, decode_groups};
use super::sums16::Sums16;
use crate::simd::x86::widen_u8x8_from;
use crate::stream_vbyte::tables::Variant;

/// Decodes the whole groups of `control` (4 values a byte into `out`) that
/// the data allows; returns (control bytes, data bytes) consumed.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`; `control.len() == out.len().div_ceil(4)`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn decode<V: Variant, const DELTA: bool>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: the CPU has AVX2 (and SSE4.1); the caller sizes `out`;
    // `pairs` leaves `key <= out.len() / 4` and `pos <= data.len()`.
    unsafe {
        let (key, pos) = pairs::<V, DELTA>(control, data, out, prev);
        decode_groups::<__m128i, V, DELTA>(control, data, out, key, pos, prev, &Sums16)
    }
}

/// `vpermd` indices of [`pairs`]: value 3 (the low half's total) and
/// value 7 (the step's) everywhere. Loaded through an opaque pointer: with
/// constant indices LLVM rewrites each `vpermd` as two shuffles.
#[repr(C, align(32))]
struct Permutes {
    carry: [u32; 8],
    last: [u32; 8],
}

static PERMUTES: Permutes = Permutes {
    carry: [3; 8],
    last: [7; 8],
};

/// Blocks of 8 control bytes, four steps of two groups each, while the
/// data the block reads remains (as in [`generic`](super::generic): each
/// group's load is of the 16 bytes where its data starts). A step:
///
/// ```text
/// x = vpshufb([16 bytes at pos | 16 bytes at pos + LENGTH[c0]],
///             [DECODE[c0] | DECODE[c1]])
/// delta: x += x << 4 bytes; x += x << 8 bytes         (within each half)
///        x += [0 | splat(x[3])]                       (vpermd, blend)
///        store x + acc; acc += splat(x[7])            (vpermd)
/// ```
///
/// so one add links a step to the next. Zero control words with delta
/// coding go to [`byte_runs`]. Returns the new `(key, pos)`; with `DELTA`,
/// `*prev` is the last value decoded.
///
/// # Safety
/// The CPU has AVX2; `control.len() == out.len().div_ceil(4)`.
#[inline(always)]
unsafe fn pairs<V: Variant, const DELTA: bool>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    let keys = out.len() / 4;
    let (mut key, mut pos) = (0, 0);
    let end = data.len();
    let out_ptr = out.as_mut_ptr().cast::<u8>();
    let t: &Permutes = core::hint::black_box(&PERMUTES);
    // SAFETY: AVX2 per the caller; each table is 32 readable bytes.
    let (mut acc, carry, last) = unsafe {
        (
            _mm256_set1_epi32(*prev as i32),
            _mm256_loadu_si256(t.carry.as_ptr().cast()),
            _mm256_loadu_si256(t.last.as_ptr().cast()),
        )
    };
    // SAFETY: AVX2 per the caller.
    let sums = unsafe { WideSums::new(last) };
    while key + 8 <= keys {
        let Some(c) = block_word::<V>(control, key, end - pos) else {
            break;
        };
        if !DELTA && c == 0 {
            // SAFETY: the block's 32 data bytes (none in the 0124 variant)
            // are inside the data (`block_word`); the 32 values of control
            // bytes key..key + 8 are whole groups of `out`; the CPU has AVX2.
            unsafe { zero_word::<V>(data.as_ptr().add(pos), out_ptr.add(16 * key)) };
            pos += 8 * V::LENGTH[0] as usize;
            key += 8;
            continue;
        }
        if DELTA && c == 0 && V::LENGTH[0] == 4 {
            // SAFETY: key <= keys, pos <= end; `out` holds 4 values per
            // control byte of `control[..keys]`; the CPU has AVX2.
            let (k, p) =
                unsafe { byte_runs(&control[..keys], data, out_ptr, key, pos, &mut acc, &sums) };
            if k != key {
                (key, pos) = (k, p);
                continue;
            }
        }
        for s in 0..4 {
            let k0 = usize::from((c >> (16 * s)) as u8);
            let k1 = usize::from((c >> (16 * s + 8)) as u8);
            let next = pos + V::LENGTH[k0] as usize;
            // SAFETY: AVX2 per the caller; both loads are of 16 bytes where
            // a group's data starts, inside the block's reads, which
            // `block_word` found within the data; the
            // rows are 16 bytes each; the store is of the 8 values of
            // control bytes key..key + 2, whole groups of `out`.
            unsafe {
                let src = data.as_ptr();
                let bytes = _mm256_loadu2_m128i(src.add(next).cast(), src.add(pos).cast());
                let rows = _mm256_loadu2_m128i(
                    V::DECODE[k1].as_ptr().cast(),
                    V::DECODE[k0].as_ptr().cast(),
                );
                let x = _mm256_shuffle_epi8(bytes, rows);
                let dst = out_ptr.add(16 * key).cast();
                if DELTA {
                    let x = _mm256_add_epi32(x, _mm256_slli_si256::<4>(x));
                    let x = _mm256_add_epi32(x, _mm256_slli_si256::<8>(x));
                    let low = _mm256_permutevar8x32_epi32(x, carry);
                    let x = _mm256_add_epi32(
                        x,
                        _mm256_blend_epi32::<0xf0>(_mm256_setzero_si256(), low),
                    );
                    _mm256_storeu_si256(dst, _mm256_add_epi32(x, acc));
                    acc = _mm256_add_epi32(acc, _mm256_permutevar8x32_epi32(x, last));
                } else {
                    _mm256_storeu_si256(dst, x);
                }
            }
            pos = next + V::LENGTH[k1] as usize;
            key += 2;
        }
    }
    if DELTA {
        // SAFETY: AVX2 per the caller.
        *prev = unsafe { _mm256_cvtsi256_si32(acc) } as u32;
    }
    (key, pos)
}

/// A zero control word without delta coding: 32 values of the shortest
/// code, common in posting lists and small counts. Each is its data byte
/// zero-extended (four `vpmovzxbd` of 8 bytes, no table), or 0 in the 0124
/// variant (no data). The pair steps would spend a shuffle and two table
/// loads on every 8 of them, and run at half the 16-byte steps' speed,
/// which take this shortcut too.
///
/// # Safety
/// The CPU has AVX2; `src` has 32 readable bytes (none when `V::LENGTH[0]`
/// is 0), `dst` 128 writable bytes.
#[inline(always)]
unsafe fn zero_word<V: Variant>(src: *const u8, dst: *mut u8) {
    for q in 0..4 {
        // SAFETY: as the caller promises: the reads are of bytes 8q..8q + 8
        // of `src`, the writes of bytes 32q..32q + 32 of `dst`.
        unsafe {
            let v = if V::LENGTH[0] == 0 {
                _mm256_setzero_si256()
            } else {
                widen_u8x8_from(src.add(8 * q))
            };
            _mm256_storeu_si256(dst.add(32 * q).cast(), v);
        }
    }
}

/// Delta decoding of zero control words (32 one-byte gaps each) from
/// control byte `key` and data byte `pos`, running from `acc` (the previous
/// value in every lane); returns the new `(key, pos)`, unchanged when the
/// first word is not zero or its 32 data bytes are not there.
///
/// A word whose gaps are all below 32 is summed in bytes. Within each
/// qword the byte-wide prefix sums cannot overflow (8 x 31 < 256), so three
/// shift-and-add steps on the 32 bytes give them all (no shuffle). Each
/// qword is then taken from the register (a lane extract and two
/// `vpunpckhqdq`), widened to eight values by one `vpmovzxbd`, and its
/// total (lane 7) spread by one `vpermd`: eleven shuffles for 32 values,
/// where [`Sums16`] takes twenty-four; one add links a qword to the next.
/// The sums stay in registers: stored to the stack and reloaded as qwords,
/// each reload would wait on the store (narrower loads of a wider store
/// are not forwarded at once).
/// A word with a larger gap goes through [`wide_sums`], 16 gaps at a time.
///
/// # Safety
/// The CPU has AVX2; `key <= control.len()`, `pos <= data.len()`; `out` is
/// writable for 4 u32 values per control byte.
#[inline(always)]
unsafe fn byte_runs(
    control: &[u8],
    data: &[u8],
    out: *mut u8,
    mut key: usize,
    mut pos: usize,
    acc: &mut __m256i,
    sums: &WideSums,
) -> (usize, usize) {
    // SAFETY: AVX2 per the caller.
    let large = unsafe { _mm256_set1_epi8(0xe0u8 as i8) };
    while key + 8 <= control.len() && data.len() - pos >= 32 {
        let mut word = [0u8; 8];
        word.copy_from_slice(&control[key..key + 8]);
        if u64::from_le_bytes(word) != 0 {
            break;
        }
        // SAFETY: 32 bytes at `pos` are inside `data`; the 32 values at
        // value 4 key are inside `out` (key + 8 <= control.len()); the CPU
        // has AVX2.
        unsafe {
            let x = _mm256_loadu_si256(data.as_ptr().add(pos).cast());
            if _mm256_testz_si256(x, large) == 0 {
                for h in 0..2 {
                    let src = data.as_ptr().add(pos + 16 * h);
                    wide_sums(src, out.add(16 * key + 64 * h), acc, sums);
                }
                key += 8;
                pos += 32;
                continue;
            }
            let x = _mm256_add_epi8(x, _mm256_slli_epi64::<8>(x));
            let x = _mm256_add_epi8(x, _mm256_slli_epi64::<16>(x));
            let x = _mm256_add_epi8(x, _mm256_slli_epi64::<32>(x));
            let lo = _mm256_castsi256_si128(x);
            let hi = _mm256_extracti128_si256::<1>(x);
            let qwords = [
                lo,
                _mm_unpackhi_epi64(lo, lo),
                hi,
                _mm_unpackhi_epi64(hi, hi),
            ];
            for (q, w) in qwords.into_iter().enumerate() {
                let v = _mm256_cvtepu8_epi32(w);
                let total = _mm256_permutevar8x32_epi32(v, sums.last);
                _mm256_storeu_si256(out.add(16 * key + 32 * q).cast(), _mm256_add_epi32(v, *acc));
                *acc = _mm256_add_epi32(*acc, total);
            }
        }
        key += 8;
        pos += 32;
    }
    (key, pos)
}

/// `vpshufb` indices of [`wide_sums`].
#[repr(C, align(32))]
struct WideTables {
    low: [u8; 32],
    high: [u8; 32],
}

const Z: u8 = 0x80;

static WIDE_TABLES: WideTables = WideTables {
    low: [
        0, 1, Z, Z, 2, 3, Z, Z, 4, 5, Z, Z, 6, 7, Z, Z, 0, 1, Z, Z, 2, 3, Z, Z, 4, 5, Z, Z, 6, 7,
        Z, Z,
    ],
    high: [
        8, 9, Z, Z, 10, 11, Z, Z, 12, 13, Z, Z, 14, 15, Z, Z, 8, 9, Z, Z, 10, 11, Z, Z, 12, 13, Z,
        Z, 14, 15, Z, Z,
    ],
};

/// The registers of [`wide_sums`] (and `last`, of [`byte_runs`] too),
/// loaded once a call of the kernel.
struct WideSums {
    low: __m256i,
    high: __m256i,
    last: __m256i,
}

impl WideSums {
    /// `last` is [`PERMUTES`]' `last` (value 7 everywhere), as [`pairs`]
    /// loaded it.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[inline(always)]
    unsafe fn new(last: __m256i) -> Self {
        // SAFETY: each table is 32 readable bytes; AVX per the caller.
        unsafe {
            WideSums {
                low: _mm256_loadu_si256(WIDE_TABLES.low.as_ptr().cast()),
                high: _mm256_loadu_si256(WIDE_TABLES.high.as_ptr().cast()),
                last,
            }
        }
    }
}

/// Sixteen one-byte gaps at `src` summed from `acc` (the previous value in
/// every lane, updated) to the 16 values at `dst`, in 16-bit lanes as
/// [`Sums16`] sums eight in a 128-bit register, the two halves of eight at
/// once:
///
/// ```text
/// v = widen16(x0..x15)                     [x0..x7 | x8..x15]
/// v += v << 1 lane; v += v << 2 lanes      (within each half)
/// lo = v's lanes 0..4 to 32 bits           [s0..s3 | s8..s11 from x8]
/// hi = lo + v's lanes 4..8 to 32 bits      [s4..s7 | s12..s15 from x8]
/// a = [lo | hi] low halves; b = their high halves + splat(a[7])
/// store a + acc, b + acc; acc += splat(b[7])
/// ```
///
/// # Safety
/// The CPU has AVX2; `src` has 16 readable bytes, `dst` 64 writable ones.
#[inline(always)]
unsafe fn wide_sums(src: *const u8, dst: *mut u8, acc: &mut __m256i, t: &WideSums) {
    // SAFETY: the reads are of the 16 bytes at `src`, the writes of the 64
    // at `dst` (the caller's promise); the CPU has AVX2.
    unsafe {
        let v = _mm256_cvtepu8_epi16(_mm_loadu_si128(src.cast()));
        let v = _mm256_add_epi16(v, _mm256_slli_si256::<2>(v));
        let v = _mm256_add_epi16(v, _mm256_slli_si256::<4>(v));
        let lo = _mm256_shuffle_epi8(v, t.low);
        let hi = _mm256_add_epi32(lo, _mm256_shuffle_epi8(v, t.high));
        let a = _mm256_permute2x128_si256::<0x20>(lo, hi);
        let b = _mm256_permute2x128_si256::<0x31>(lo, hi);
        let b = _mm256_add_epi32(b, _mm256_permutevar8x32_epi32(a, t.last));
        _mm256_storeu_si256(dst.cast(), _mm256_add_epi32(a, *acc));
        _mm256_storeu_si256(dst.add(32).cast(), _mm256_add_epi32(b, *acc));
        *acc = _mm256_add_epi32(*acc, _mm256_permutevar8x32_epi32(b, t.last));
    }
}
