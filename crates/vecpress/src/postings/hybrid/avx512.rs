//! The AVX-512 window kernel: a bitmap's ids written sixteen at a time,
//! `vpcompressd` keeping the positions of a 16-bit piece's set bits (in a
//! register: its memory form is slow on Zen 4).

use core::arch::x86_64::*;

/// Appends the ids of the set bits of a window starting at `base`.
///
/// # Safety
/// The CPU has AVX-512 F and the AVX2 level's POPCNT.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(super) unsafe fn extract(words: &[u64], base: u32, out: &mut Vec<u32>) {
    let total = super::count(words);
    // Sixteen lanes are stored from the last id written: room for them
    // past the ids.
    out.reserve(total + 16);
    let mut n = out.len();
    let ptr = out.as_mut_ptr();
    let lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (j, &w) in words.iter().enumerate() {
        let mut at = base.wrapping_add(64 * j as u32);
        if w.count_ones() <= 4 {
            let mut w = w;
            while w != 0 {
                // SAFETY: `n` counts the ids written, at most `len + total`
                // before the capacity reserved.
                unsafe { ptr.add(n).write(at + w.trailing_zeros()) };
                n += 1;
                w &= w - 1;
            }
            continue;
        }
        for q in 0..4 {
            let m = (w >> (16 * q)) as u16;
            let ids = _mm512_add_epi32(lanes, _mm512_set1_epi32(at as i32));
            let kept = _mm512_maskz_compress_epi32(m, ids);
            // SAFETY: `n <= len + total` before this store, and the room
            // reserved runs to `len + total + 16`.
            unsafe { _mm512_storeu_si512(ptr.add(n).cast(), kept) };
            n += m.count_ones() as usize;
            at = at.wrapping_add(16);
        }
    }
    // SAFETY: the first `n` are initialised: the old ones, then exactly the
    // ids of the `total` set bits.
    unsafe { out.set_len(n) };
}

/// Ids set in both bitmaps (of like lengths): the scalar loop, compiled
/// with POPCNT.
///
/// # Safety
/// The CPU has the AVX2 level's POPCNT and AVX-512 F.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(super) unsafe fn and_count2(a: &[u8], b: &[u8]) -> usize {
    super::scalar::and_count2(a, b)
}
