//! The Avx512 level with GFNI: the 8 x 8 bit transposition of every 8-byte
//! word by one `gf2p8affineqb` per register (each word becomes the matrix
//! operand, a constant of one-hot bytes the data operand, which picks the
//! transposed bits), and the one-pass kernels that gather rows into words
//! and join values by permutes around it. Without GFNI the level runs the
//! AVX2 kernels (`avx2.rs`).
//!
//! Each entry works on whole registers from the start of its input and
//! returns how much it did; the scalar code does the rest.

use core::arch::x86_64::*;

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

/// Two `vpermt2*` of `a` and `b` at elements of `S` bytes (1, 2 or 4),
/// by the two index registers `t` holds for that size. With [`ZIPS`] they
/// interleave the registers' first halves, then their second halves (the
/// permutes cross the 128-bit lanes, so each result is in order); with
/// [`UNZIPS`] they split `a` then `b` into their even and odd elements, the
/// inverse.
///
/// # Safety
/// The CPU has AVX-512 F, BW and VBMI.
#[inline(always)]
unsafe fn permute2<const S: usize>(t: &Permutes, a: __m512i, b: __m512i) -> (__m512i, __m512i) {
    // SAFETY: registers only; the caller's features.
    unsafe {
        match S {
            1 => (
                _mm512_permutex2var_epi8(a, t.bytes[0], b),
                _mm512_permutex2var_epi8(a, t.bytes[1], b),
            ),
            2 => (
                _mm512_permutex2var_epi16(a, t.pairs[0], b),
                _mm512_permutex2var_epi16(a, t.pairs[1], b),
            ),
            _ => (
                _mm512_permutex2var_epi32(a, t.quads[0], b),
                _mm512_permutex2var_epi32(a, t.quads[1], b),
            ),
        }
    }
}

/// The indices of [`permute2`] at each element size, and of the two
/// `vpermt2b` between eight rows' bytes and their words, in registers.
struct Permutes {
    bytes: [__m512i; 2],
    pairs: [__m512i; 2],
    quads: [__m512i; 2],
    rows: [__m512i; 2],
}

impl Permutes {
    /// # Safety
    /// The CPU has AVX-512 F.
    #[inline(always)]
    unsafe fn load(t: &PermuteTables) -> Permutes {
        // SAFETY: every table is 128 readable, 64-byte aligned bytes; the
        // caller's features.
        unsafe {
            let two = |p: *const u8| {
                [
                    _mm512_load_si512(p.cast()),
                    _mm512_load_si512(p.add(64).cast()),
                ]
            };
            Permutes {
                bytes: two(t.bytes.as_ptr().cast()),
                pairs: two(t.pairs.as_ptr().cast()),
                quads: two(t.quads.as_ptr().cast()),
                rows: two(t.rows.as_ptr().cast()),
            }
        }
    }
}

/// The tables of [`Permutes`], as indices of `vpermt2*` (`64 / s` and up
/// name the second register's elements).
#[repr(C, align(64))]
struct PermuteTables {
    bytes: [[u8; 64]; 2],
    pairs: [[u16; 32]; 2],
    quads: [[u32; 16]; 2],
    rows: [[u8; 64]; 2],
}

/// Decoding's tables: the zips of [`join`], and the bytes that make word
/// `t` of columns `16 h + t` ([`row_words`]).
static ZIPS: PermuteTables = PermuteTables {
    bytes: [zip_bytes(0), zip_bytes(1)],
    pairs: [zip_pairs(0), zip_pairs(1)],
    quads: [zip_quads(0), zip_quads(1)],
    rows: [row_words(0), row_words(1)],
};

/// Encoding's tables, the inverses of [`ZIPS`]: the unzips of [`split`]
/// (at one byte, each word's bytes reversed, the matrix order of
/// `gf2p8affineqb`), and the words' bytes back to their rows
/// ([`word_rows`]).
static UNZIPS: PermuteTables = PermuteTables {
    bytes: [unzip_bytes(0), unzip_bytes(1)],
    pairs: [unzip_pairs(0), unzip_pairs(1)],
    quads: [unzip_quads(0), unzip_quads(1)],
    rows: [word_rows(0), word_rows(1)],
};

/// Byte `8 t + 7 - k` takes byte `2 (8 t + k) + odd` of the two registers.
const fn unzip_bytes(odd: usize) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i / 8 * 8 + 7 - i % 8] = (2 * i + odd) as u8;
        i += 1;
    }
    t
}

const fn unzip_pairs(odd: usize) -> [u16; 32] {
    let mut t = [0u16; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = (2 * i + odd) as u16;
        i += 1;
    }
    t
}

const fn unzip_quads(odd: usize) -> [u32; 16] {
    let mut t = [0u32; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = (2 * i + odd) as u32;
        i += 1;
    }
    t
}

/// The inverse of [`row_words`]: lane `i` of the first register (rows
/// `4 half + i`) takes byte `4 half + i` of each word (the transposed
/// word's byte `m` is row `m`), columns `0..16` from the words of both
/// registers.
const fn word_rows(half: usize) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut lane = 0;
    while lane < 4 {
        let row = 4 * half + lane;
        let mut col = 0;
        while col < 16 {
            t[16 * lane + col] = (8 * col + row) as u8;
            col += 1;
        }
        lane += 1;
    }
    t
}

const fn zip_bytes(half: usize) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 32 {
        t[2 * i] = (32 * half + i) as u8;
        t[2 * i + 1] = (64 + 32 * half + i) as u8;
        i += 1;
    }
    t
}

const fn zip_pairs(half: usize) -> [u16; 32] {
    let mut t = [0u16; 32];
    let mut i = 0;
    while i < 16 {
        t[2 * i] = (16 * half + i) as u16;
        t[2 * i + 1] = (32 + 16 * half + i) as u16;
        i += 1;
    }
    t
}

const fn zip_quads(half: usize) -> [u32; 16] {
    let mut t = [0u32; 16];
    let mut i = 0;
    while i < 8 {
        t[2 * i] = (8 * half + i) as u32;
        t[2 * i + 1] = (16 + 8 * half + i) as u32;
        i += 1;
    }
    t
}

/// Word `t` of half `h` gathers column `8 h + t` of the eight rows, row `i`
/// at byte `7 - i` (the matrix order of `gf2p8affineqb`, as in
/// [`transpose_gfni`]). Row `i` is the 128-bit lane `i` of the first
/// register (`i < 4`) or lane `i - 4` of the second.
const fn row_words(half: usize) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut w = 0;
    while w < 8 {
        let col = 8 * half + w;
        let mut i = 0;
        while i < 8 {
            t[8 * w + 7 - i] = (16 * i + col) as u8;
            i += 1;
        }
        w += 1;
    }
    t
}

/// Decodes bit rows straight into values of `K` (1, 2, 4 or 8) bytes in
/// one pass, sixteen columns (128 values) a step: for each byte `j`, the
/// sixteen columns of its eight rows are loaded into two registers (four
/// rows a register, a row a 128-bit lane, by broadcast loads and masked
/// merges: no shuffle), two `vpermt2b` make the words of one column's
/// eight row bytes, two `gf2p8affineqb` transpose them into byte `j` of the
/// 128 values, and `log2 K` rounds of zips ([`join`]) join the `K` bytes of
/// each value. `rows` holds `8 K` rows of `rows.len() / (8 K)` bytes; returns
/// the columns done.
///
/// # Safety
/// The CPU must have every feature of the Avx512 level and GFNI; `out` is
/// at least as long as `rows`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,gfni"
)]
pub(super) unsafe fn rows_to_values_gfni<const K: usize>(rows: &[u8], out: &mut [u8]) -> usize {
    let r = rows.len() / (8 * K);
    assert!(out.len() >= 8 * K * r);
    let onehot = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
    // SAFETY: the caller's features.
    let z = unsafe { Permutes::load(&ZIPS) };
    let src = rows.as_ptr();
    let dst = out.as_mut_ptr();
    let mut c = 0;
    while c + 16 <= r {
        // Byte `j` of values `8 c..8 c + 64` and of the next 64.
        let mut lo = [_mm512_setzero_si512(); K];
        let mut hi = [_mm512_setzero_si512(); K];
        for j in 0..K {
            // SAFETY: row `8 j + i` starts at `(8 j + i) r`, and columns
            // `c..c + 16` lie in it (`c + 16 <= r`); registers otherwise.
            unsafe {
                let row = |i: usize| _mm_loadu_si128(src.add((8 * j + i) * r + c).cast());
                let four = |i: usize| {
                    let x = _mm512_castsi128_si512(row(i));
                    let x = _mm512_mask_broadcast_i32x4(x, 0x00f0, row(i + 1));
                    let x = _mm512_mask_broadcast_i32x4(x, 0x0f00, row(i + 2));
                    _mm512_mask_broadcast_i32x4(x, 0xf000, row(i + 3))
                };
                let (a, b) = (four(0), four(4));
                let w0 = _mm512_permutex2var_epi8(a, z.rows[0], b);
                let w1 = _mm512_permutex2var_epi8(a, z.rows[1], b);
                lo[j] = _mm512_gf2p8affine_epi64_epi8::<0>(onehot, w0);
                hi[j] = _mm512_gf2p8affine_epi64_epi8::<0>(onehot, w1);
            }
        }
        for (h, s) in [lo, hi].iter().enumerate() {
            // SAFETY: the caller's features; the joined registers are the
            // `64 K` bytes of values `8 c + 64 h..+ 64`, inside `out`.
            unsafe {
                let joined = join::<K>(&z, s);
                let at = dst.add((8 * c + 64 * h) * K);
                for (q, v) in joined.iter().enumerate() {
                    _mm512_storeu_si512(at.add(64 * q).cast(), *v);
                }
            }
        }
        c += 16;
    }
    c
}

/// The `K` registers of byte `j` of 64 values each (`s[j]`) joined into
/// the values' `64 K` bytes, in order.
///
/// # Safety
/// The CPU has AVX-512 F, BW and VBMI.
#[inline(always)]
unsafe fn join<const K: usize>(z: &Permutes, s: &[__m512i; K]) -> [__m512i; K] {
    let mut o = *s;
    // SAFETY: registers only; the caller's features.
    unsafe {
        match K {
            2 => (o[0], o[1]) = permute2::<1>(z, s[0], s[1]),
            4 => {
                let (a0, a1) = permute2::<1>(z, s[0], s[1]);
                let (b0, b1) = permute2::<1>(z, s[2], s[3]);
                (o[0], o[1]) = permute2::<2>(z, a0, b0);
                (o[2], o[3]) = permute2::<2>(z, a1, b1);
            }
            8 => {
                let (a0, a1) = permute2::<1>(z, s[0], s[1]);
                let (b0, b1) = permute2::<1>(z, s[2], s[3]);
                let (c0, c1) = permute2::<1>(z, s[4], s[5]);
                let (d0, d1) = permute2::<1>(z, s[6], s[7]);
                // Values 0..16, 16..32, 32..48, 48..64 in pairs of bytes.
                let (ab0, ab1) = permute2::<2>(z, a0, b0);
                let (ab2, ab3) = permute2::<2>(z, a1, b1);
                let (cd0, cd1) = permute2::<2>(z, c0, d0);
                let (cd2, cd3) = permute2::<2>(z, c1, d1);
                (o[0], o[1]) = permute2::<4>(z, ab0, cd0);
                (o[2], o[3]) = permute2::<4>(z, ab1, cd1);
                (o[4], o[5]) = permute2::<4>(z, ab2, cd2);
                (o[6], o[7]) = permute2::<4>(z, ab3, cd3);
            }
            _ => {}
        }
    }
    o
}

/// The inverse of [`join`]: the `64 K` bytes of 64 values into the `K`
/// registers of byte `j` of each, each word's bytes reversed.
///
/// # Safety
/// The CPU has AVX-512 F, BW and VBMI.
#[inline(always)]
unsafe fn split<const K: usize>(u: &Permutes, o: &[__m512i; K]) -> [__m512i; K] {
    let mut s = *o;
    // SAFETY: registers only; the caller's features.
    unsafe {
        match K {
            1 => {
                // Each word's bytes reversed, inside its 128-bit lane.
                let reverse = _mm512_set_epi64(
                    0x0809_0a0b_0c0d_0e0f,
                    0x0001_0203_0405_0607,
                    0x0809_0a0b_0c0d_0e0f,
                    0x0001_0203_0405_0607,
                    0x0809_0a0b_0c0d_0e0f,
                    0x0001_0203_0405_0607,
                    0x0809_0a0b_0c0d_0e0f,
                    0x0001_0203_0405_0607,
                );
                s[0] = _mm512_shuffle_epi8(o[0], reverse);
            }
            2 => (s[0], s[1]) = permute2::<1>(u, o[0], o[1]),
            4 => {
                let (a0, b0) = permute2::<2>(u, o[0], o[1]);
                let (a1, b1) = permute2::<2>(u, o[2], o[3]);
                (s[0], s[1]) = permute2::<1>(u, a0, a1);
                (s[2], s[3]) = permute2::<1>(u, b0, b1);
            }
            8 => {
                let (ab0, cd0) = permute2::<4>(u, o[0], o[1]);
                let (ab1, cd1) = permute2::<4>(u, o[2], o[3]);
                let (ab2, cd2) = permute2::<4>(u, o[4], o[5]);
                let (ab3, cd3) = permute2::<4>(u, o[6], o[7]);
                let (a0, b0) = permute2::<2>(u, ab0, ab1);
                let (a1, b1) = permute2::<2>(u, ab2, ab3);
                let (c0, d0) = permute2::<2>(u, cd0, cd1);
                let (c1, d1) = permute2::<2>(u, cd2, cd3);
                (s[0], s[1]) = permute2::<1>(u, a0, a1);
                (s[2], s[3]) = permute2::<1>(u, b0, b1);
                (s[4], s[5]) = permute2::<1>(u, c0, c1);
                (s[6], s[7]) = permute2::<1>(u, d0, d1);
            }
            _ => {}
        }
    }
    s
}

/// The inverse of [`rows_to_values_gfni`]: values of `K` (1, 2, 4 or 8)
/// bytes into their `8 K` bit rows in one pass, 128 values a step (the
/// values split into byte `j`'s registers by [`split`], transposed by
/// `gf2p8affineqb`, and each column's word scattered to its eight rows by
/// two `vpermt2b` and 16-byte stores). `values` holds `8 r` values; `rows`
/// takes `8 K` rows of `r` bytes; returns the columns done.
///
/// # Safety
/// The CPU must have every feature of the Avx512 level and GFNI; `rows` is
/// at least as long as `values`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,gfni"
)]
pub(super) unsafe fn values_to_rows_gfni<const K: usize>(values: &[u8], rows: &mut [u8]) -> usize {
    let r = values.len() / (8 * K);
    assert!(rows.len() >= 8 * K * r);
    let onehot = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
    // SAFETY: the caller's features.
    let u = unsafe { Permutes::load(&UNZIPS) };
    let src = values.as_ptr();
    let dst = rows.as_mut_ptr();
    let mut c = 0;
    while c + 16 <= r {
        let mut words = [[_mm512_setzero_si512(); K]; 2];
        for (h, w) in words.iter_mut().enumerate() {
            // SAFETY: values `8 c + 64 h..+ 64`, `64 K` bytes, lie inside
            // `values` (`c + 16 <= r`); the caller's features.
            unsafe {
                let at = src.add((8 * c + 64 * h) * K);
                let mut o = [_mm512_setzero_si512(); K];
                for (q, v) in o.iter_mut().enumerate() {
                    *v = _mm512_loadu_si512(at.add(64 * q).cast());
                }
                let s = split::<K>(&u, &o);
                for j in 0..K {
                    w[j] = _mm512_gf2p8affine_epi64_epi8::<0>(onehot, s[j]);
                }
            }
        }
        for (j, (&w0, &w1)) in words[0].iter().zip(&words[1]).enumerate() {
            // SAFETY: row `8 j + i` starts at `(8 j + i) r` in `rows`, and
            // columns `c..c + 16` lie in it; the caller's features.
            unsafe {
                for (half, idx) in u.rows.iter().enumerate() {
                    let x = _mm512_permutex2var_epi8(w0, *idx, w1);
                    let row = |i: usize| dst.add((8 * j + 4 * half + i) * r + c).cast::<__m128i>();
                    _mm_storeu_si128(row(0), _mm512_castsi512_si128(x));
                    _mm_storeu_si128(row(1), _mm512_extracti32x4_epi32::<1>(x));
                    _mm_storeu_si128(row(2), _mm512_extracti32x4_epi32::<2>(x));
                    _mm_storeu_si128(row(3), _mm512_extracti32x4_epi32::<3>(x));
                }
            }
        }
        c += 16;
    }
    c
}
