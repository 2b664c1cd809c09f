//! The 8 x 8 bit transposition of every 8-byte word, a register at a time:
//! the three rounds of `scalar::transpose8` on 64-bit lanes (SSE2, AVX2,
//! AVX-512), or one `gf2p8affineqb` per register where the CPU has GFNI
//! (each word becomes the matrix operand, a constant of one-hot bytes the
//! data operand, which picks the transposed bits).
//!
//! Each entry transposes whole registers from the start of `buf` and
//! returns the bytes done; the scalar code transposes the rest.

use core::arch::x86_64::*;

macro_rules! rounds {
    ($x:expr, $t:ty, $and:ident, $xor:ident, $srl:ident, $sll:ident, $set:ident) => {{
        let x: $t = $x;
        let t = $and($xor(x, $srl::<7>(x)), $set(0x00aa_00aa_00aa_00aa));
        let x = $xor($xor(x, t), $sll::<7>(t));
        let t = $and($xor(x, $srl::<14>(x)), $set(0x0000_cccc_0000_cccc));
        let x = $xor($xor(x, t), $sll::<14>(t));
        let t = $and($xor(x, $srl::<28>(x)), $set(0x0000_0000_f0f0_f0f0));
        $xor($xor(x, t), $sll::<28>(t))
    }};
}

/// # Safety
/// The CPU must have every feature of the Sse41 level.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn transpose_sse41(buf: &mut [u8]) -> usize {
    let done = buf.len() / 16 * 16;
    for i in (0..done).step_by(16) {
        let p = buf[i..].as_mut_ptr().cast::<__m128i>();
        // SAFETY: bytes `i..i + 16` lie inside `buf` (`i + 16 <= done`);
        // unaligned loads and stores.
        unsafe {
            let x = _mm_loadu_si128(p);
            let y = rounds!(
                x,
                __m128i,
                _mm_and_si128,
                _mm_xor_si128,
                _mm_srli_epi64,
                _mm_slli_epi64,
                _mm_set1_epi64x
            );
            _mm_storeu_si128(p, y);
        }
    }
    done
}

/// # Safety
/// The CPU must have every feature of the Avx2 level.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn transpose_avx2(buf: &mut [u8]) -> usize {
    let done = buf.len() / 32 * 32;
    for i in (0..done).step_by(32) {
        let p = buf[i..].as_mut_ptr().cast::<__m256i>();
        // SAFETY: bytes `i..i + 32` lie inside `buf`; unaligned loads and stores.
        unsafe {
            let x = _mm256_loadu_si256(p);
            let y = rounds!(
                x,
                __m256i,
                _mm256_and_si256,
                _mm256_xor_si256,
                _mm256_srli_epi64,
                _mm256_slli_epi64,
                _mm256_set1_epi64x
            );
            _mm256_storeu_si256(p, y);
        }
    }
    done
}

/// Whether the CPU has GFNI for 512-bit registers (with the Avx512 level).
pub(super) fn has_gfni() -> bool {
    is_x86_feature_detected!("gfni") && is_x86_feature_detected!("avx512f")
}

/// # Safety
/// The CPU must have every feature of the Avx512 level and GFNI.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,gfni"
)]
pub(super) unsafe fn transpose_gfni(buf: &mut [u8]) -> usize {
    // Byte `k` of each word is `1 << k`: result byte `k`, bit `i` is the
    // parity of (matrix byte `7 - i` AND `1 << k`), that is bit `k` of
    // matrix byte `7 - i`. With the word's bytes reversed as the matrix,
    // that is bit `k` of byte `i`: the transposition.
    let onehot = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
    // Word `q` (the last argument is word 0) gathers bytes `8q + 7` down to `8q`.
    let reverse = _mm512_set_epi64(
        0x3839_3a3b_3c3d_3e3f,
        0x3031_3233_3435_3637,
        0x2829_2a2b_2c2d_2e2f,
        0x2021_2223_2425_2627,
        0x1819_1a1b_1c1d_1e1f,
        0x1011_1213_1415_1617,
        0x0809_0a0b_0c0d_0e0f,
        0x0001_0203_0405_0607,
    );
    let done = buf.len() / 64 * 64;
    for i in (0..done).step_by(64) {
        let p = buf[i..].as_mut_ptr().cast::<__m512i>();
        // SAFETY: bytes `i..i + 64` lie inside `buf`; unaligned loads and stores.
        unsafe {
            let x = _mm512_loadu_si512(p);
            let m = _mm512_permutexvar_epi8(reverse, x);
            _mm512_storeu_si512(p, _mm512_gf2p8affine_epi64_epi8::<0>(onehot, m));
        }
    }
    done
}
