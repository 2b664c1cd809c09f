//! x86-64 entries: the one-pass kernels of `generic.rs` on SSE4.1 and AVX2
//! registers, and, where the CPU has GFNI with AVX-512, the 8 x 8 bit
//! transposition of every 8-byte word by one `gf2p8affineqb` per register
//! (each word becomes the matrix operand, a constant of one-hot bytes the
//! data operand, which picks the transposed bits).
//!
//! Each entry works on whole registers from the start of its input and
//! returns how much it did; the scalar code does the rest.

use core::arch::x86_64::*;

use super::generic;

generic::kernels!(
    sse41,
    __m128i,
    "sse2,ssse3,sse4.1",
    "The kernels on SSE4.1 registers."
);
generic::kernels!(
    avx2,
    __m256i,
    "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt",
    "The kernels on AVX2 registers."
);

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
