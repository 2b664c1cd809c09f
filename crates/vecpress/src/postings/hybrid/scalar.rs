//! The portable window kernels: the reference the SIMD ones are tested
//! against.
#![forbid(unsafe_code)]

/// Appends the ids of the set bits of a window starting at `base`.
pub(super) fn extract(words: &[u64], base: u32, out: &mut Vec<u32>) {
    out.reserve(super::count(words));
    for (j, &w) in words.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            out.push(base + 64 * j as u32 + w.trailing_zeros());
            w &= w - 1;
        }
    }
}

/// Keeps, in order at the front of `ids`, those whose bit is set in the
/// bitmap of windows starting at `base`; returns how many. Ids outside
/// them (a damaged list's) are dropped.
pub(super) fn keep_set(bits: &[u8], base: u32, ids: &mut [u32]) -> usize {
    let mut kept = 0;
    for i in 0..ids.len() {
        let v = ids[i];
        let bit = v.wrapping_sub(base) as usize;
        let byte = bits.get(bit / 8).copied().unwrap_or(0);
        ids[kept] = v;
        kept += usize::from(byte >> (bit % 8) & 1);
    }
    kept
}

/// Ids set in both bitmaps (of like lengths).
#[inline(always)]
pub(super) fn and_count2(a: &[u8], b: &[u8]) -> usize {
    a.chunks_exact(8)
        .zip(b.chunks_exact(8))
        .map(|(x, y)| {
            let x = u64::from_le_bytes(x.try_into().expect("eight bytes"));
            let y = u64::from_le_bytes(y.try_into().expect("eight bytes"));
            (x & y).count_ones() as usize
        })
        .sum()
}
