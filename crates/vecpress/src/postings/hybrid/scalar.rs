//! The portable window kernels: the reference the SIMD ones are tested
//! against.
#![forbid(unsafe_code)]

/// Writes ids `first` plus each 16-bit offset (little-endian) into `out`,
/// as long as `offsets`; whether the offsets fall or start at 0 (then
/// `out` holds what it may).
pub(super) fn widen(first: u32, offsets: &[[u8; 2]], out: &mut [u32]) -> bool {
    // Checked with no branch per offset, so that the loop vectorises.
    let falls = offsets.windows(2).fold(false, |bad, w| {
        bad | (u16::from_le_bytes(w[1]) <= u16::from_le_bytes(w[0]))
    });
    for (id, o) in out.iter_mut().zip(offsets) {
        *id = first.wrapping_add(u32::from(u16::from_le_bytes(*o)));
    }
    falls || offsets.first().is_some_and(|o| *o == [0, 0])
}

/// Appends the ids of the set bits of a window starting at `base`.
pub(super) fn extract(words: &[u64], base: u32, out: &mut Vec<u32>) {
    out.reserve(super::span::count(words));
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
    // Far more runs than ids: each id gallops to its run.
    let far = runs.len() > SKEW * ids.len();
    let (mut kept, mut j) = (0, 0);
    for i in 0..ids.len() {
        let v = ids[i];
        if far {
            j += gallop(&runs[j..], |r| r[1] < v);
        }
        while j < runs.len() && runs[j][1] < v {
            j += 1;
        }
        ids[kept] = v;
        kept += usize::from(j < runs.len() && runs[j][0] <= v);
    }
    kept
}

/// A list this many times longer than the other is searched by galloping
/// (a few compares for each of the other's items, however far apart), not
/// walked.
const SKEW: usize = 16;

/// The intersection of two sorted lists of runs (first and last), cut to
/// ids `lo..=hi`, appended to `out`. A step per run of either list, with no
/// branch on the ids: the two runs' overlap is written, and kept where it
/// is one; the run that ends first moves on. Unsorted runs (a damaged
/// list's) give unspecified runs, never a read out of bounds.
pub(super) fn and_runs(a: &[[u32; 2]], b: &[[u32; 2]], lo: u32, hi: u32, out: &mut Vec<[u32; 2]>) {
    if a.len() > SKEW * b.len() || b.len() > SKEW * a.len() {
        return and_runs_far(a, b, lo, hi, |r| out.push(r));
    }
    let start = out.len();
    // A step keeps at most one run, and the last step is at most the
    // `a.len() + b.len() - 1`th.
    out.resize(start + a.len() + b.len(), [0; 2]);
    let dst = &mut out[start..];
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        let first = x[0].max(y[0]).max(lo);
        let last = x[1].min(y[1]).min(hi);
        dst[k] = [first, last];
        k += usize::from(first <= last);
        let a_ends = x[1] <= y[1];
        i += usize::from(a_ends);
        j += usize::from(!a_ends);
    }
    out.truncate(start + k);
}

/// [`and_runs`] where one list has far more runs: each run of the shorter
/// gallops to the first of the longer's that ends in it or after, and takes
/// the overlaps from there.
fn and_runs_far(a: &[[u32; 2]], b: &[[u32; 2]], lo: u32, hi: u32, mut put: impl FnMut([u32; 2])) {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let mut j = 0;
    for &[c, d] in short {
        j += gallop(&long[j..], |r| r[1] < c);
        for y in long[j..].iter().take_while(|y| y[0] <= d) {
            let (first, last) = (c.max(y[0]).max(lo), d.min(y[1]).min(hi));
            if first <= last {
                put([first, last]);
            }
        }
    }
}

/// The ids in both lists of runs (as [`and_runs`]), counted.
pub(super) fn and_runs_count(a: &[[u32; 2]], b: &[[u32; 2]], lo: u32, hi: u32) -> usize {
    if a.len() > SKEW * b.len() || b.len() > SKEW * a.len() {
        let mut n = 0;
        and_runs_far(a, b, lo, hi, |[x, y]| n += (y - x) as usize + 1);
        return n;
    }
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        let first = x[0].max(y[0]).max(lo);
        let last = x[1].min(y[1]).min(hi);
        n += if first <= last {
            (last - first) as usize + 1
        } else {
            0
        };
        let a_ends = x[1] <= y[1];
        i += usize::from(a_ends);
        j += usize::from(!a_ends);
    }
    n
}

/// The first index of `s` (sorted by `below`) at which `below` is false:
/// steps of 1, 2, 4, ... from the start, then a binary search in the last,
/// so that a target a few places on costs a few compares.
pub(super) fn gallop<T>(s: &[T], below: impl Fn(&T) -> bool) -> usize {
    if s.first().is_none_or(|x| !below(x)) {
        return 0;
    }
    let (mut lo, mut step) = (0, 1);
    while lo + step < s.len() && below(&s[lo + step]) {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step).min(s.len());
    lo + 1 + s[lo + 1..hi].partition_point(below)
}
