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

/// Keeps, in order at the front of `ids`, those inside one of `runs`
/// (first and last, sorted); returns how many. Unsorted ids or runs (a
/// damaged list's) give unspecified ids, never a read out of bounds.
pub(super) fn keep_in_runs(runs: &[[u32; 2]], ids: &mut [u32]) -> usize {
    let (mut kept, mut j) = (0, 0);
    for i in 0..ids.len() {
        let v = ids[i];
        while j < runs.len() && runs[j][1] < v {
            j += 1;
        }
        ids[kept] = v;
        kept += usize::from(j < runs.len() && runs[j][0] <= v);
    }
    kept
}

/// The intersection of two sorted lists of runs (first and last), appended
/// to `out`.
pub(super) fn and_runs(
    a: &[(u32, u32)],
    b: impl Iterator<Item = (u32, u32)>,
    out: &mut Vec<(u32, u32)>,
) {
    let mut i = 0;
    for (c, d) in b {
        while i < a.len() && a[i].1 < c {
            i += 1;
        }
        let mut k = i;
        while k < a.len() && a[k].0 <= d {
            let (x, y) = (a[k].0.max(c), a[k].1.min(d));
            if x <= y {
                out.push((x, y));
            }
            k += 1;
        }
    }
}
