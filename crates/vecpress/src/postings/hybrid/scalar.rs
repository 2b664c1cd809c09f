//! The portable window kernels: the reference the SIMD ones are tested
//! against.
#![forbid(unsafe_code)]

/// Writes ids `first` plus each 16-bit offset (little-endian) into `out`,
/// as long as `offsets`; whether the offsets fall or start at 0 (then
/// `out` holds what it may).
#[inline(always)]
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

/// Appends the ids of `runs` cut to ids `lo..hi`, each run's as a range
/// of its first to its last, and its last (a range that ends past its last
/// takes a test more a step).
pub(super) fn expand(runs: &[[u32; 2]], lo: u64, hi: u64, out: &mut Vec<u32>) {
    for [a, b] in super::span::clipped(runs, lo, hi) {
        out.extend(a..b);
        out.push(b);
    }
}

/// Appends the ids of the set bits of a window starting at `base`.
pub(super) fn extract(words: &[u64], base: u32, out: &mut Vec<u32>) {
    out.reserve(count(words));
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
#[inline(always)]
pub(super) fn keep_set(bits: &[u8], base: u32, ids: &mut [u32]) -> usize {
    keep_set_at(bits, base, ids, 0, ids.len(), 0)
}

/// [`keep_set`] of `ids[from..to]`, those kept written from `ids[kept]`
/// on (`kept <= from`); returns where the kept ones end.
#[inline(always)]
pub(super) fn keep_set_at(
    bits: &[u8],
    base: u32,
    ids: &mut [u32],
    from: usize,
    to: usize,
    kept: usize,
) -> usize {
    let mut k = kept;
    for i in from..to {
        let v = ids[i];
        let bit = v.wrapping_sub(base) as usize;
        let byte = bits.get(bit / 8).copied().unwrap_or(0);
        ids[k] = v;
        k += usize::from(byte >> (bit % 8) & 1);
    }
    k
}

/// Whether runs (first and last) rise from `before` with no two touching,
/// and none is longer than a window: checked with no branch per run (a
/// loop the compiler vectorises).
#[inline(always)]
pub(super) fn runs_fit(runs: &[[u32; 2]], before: u32) -> bool {
    let falls = runs
        .windows(2)
        .fold(false, |bad, w| bad | (w[1][0] <= w[0][1]));
    let misfit = runs.iter().fold(false, |bad, r| {
        bad | (r[1] < r[0]) | (r[1].wrapping_sub(r[0]) >= super::WINDOW)
    });
    !(falls | misfit | runs.first().is_some_and(|r| r[0] < before))
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

/// Writes the AND of two bitmaps (of `out`'s length) to `out`; returns
/// the ids set in it.
#[inline(always)]
pub(super) fn and2_into(a: &[u8], b: &[u8], out: &mut [u64]) -> usize {
    let mut n = 0;
    for ((o, x), y) in out.iter_mut().zip(a.chunks_exact(8)).zip(b.chunks_exact(8)) {
        let x = u64::from_le_bytes(x.try_into().expect("eight bytes"));
        let y = u64::from_le_bytes(y.try_into().expect("eight bytes"));
        *o = x & y;
        n += o.count_ones() as usize;
    }
    n
}

/// Ids set in a bitmap.
#[inline(always)]
pub(super) fn count(words: &[u64]) -> usize {
    words.iter().map(|w| w.count_ones() as usize).sum()
}

/// Appends the union of two sorted lists of runs (first and last) to
/// `out` as runs, those that overlap or touch joined into one. Unsorted
/// runs (a damaged list's) give unspecified runs.
pub(super) fn or_runs(a: &[[u32; 2]], b: &[[u32; 2]], out: &mut Vec<[u32; 2]>) {
    let (mut i, mut j) = (0, 0);
    let mut open: Option<[u32; 2]> = None;
    loop {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x[0] <= y[0] => {
                i += 1;
                x
            }
            (_, Some(&y)) => {
                j += 1;
                y
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, None) => break,
        };
        match &mut open {
            Some(run) if next[0] <= run[1].saturating_add(1) => run[1] = run[1].max(next[1]),
            _ => out.extend(open.replace(next)),
        }
    }
    out.extend(open);
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
pub(super) const SKEW: usize = 16;

/// The intersection of two sorted lists of runs (first and last), cut to
/// ids `lo..=hi`, appended to `out`.
pub(super) fn and_runs(a: &[[u32; 2]], b: &[[u32; 2]], lo: u32, hi: u32, out: &mut Vec<[u32; 2]>) {
    overlaps(a, b, lo, hi, |r| out.push(r));
}

/// The ids in both lists of runs (as [`and_runs`]), counted.
pub(super) fn and_runs_count(a: &[[u32; 2]], b: &[[u32; 2]], lo: u32, hi: u32) -> usize {
    let mut n = 0;
    overlaps(a, b, lo, hi, |[x, y]| n += (y - x) as usize + 1);
    n
}

/// The overlaps of two sorted lists of runs, cut to ids `lo..=hi`, in
/// order, each given to `put`. A step per run of either list: a run that
/// ends before the other's begins moves on, else their overlap is given
/// and the run that ends first moves on. Branches, not arithmetic: a step
/// whose moves are computed waits on the step before's loads, and most
/// steps on posting lists' runs pass a run that misses the other list,
/// which the branches learn. Unsorted runs (a damaged list's) give
/// unspecified runs, never a read out of bounds.
fn overlaps(a: &[[u32; 2]], b: &[[u32; 2]], lo: u32, hi: u32, mut put: impl FnMut([u32; 2])) {
    if a.len() > SKEW * b.len() || b.len() > SKEW * a.len() {
        return overlaps_far(a, b, lo, hi, put);
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        if x[1] < y[0] {
            i += 1;
            continue;
        }
        if y[1] < x[0] {
            j += 1;
            continue;
        }
        let (first, last) = (x[0].max(y[0]).max(lo), x[1].min(y[1]).min(hi));
        if first <= last {
            put([first, last]);
        }
        if x[1] <= y[1] {
            i += 1;
        } else {
            j += 1;
        }
    }
}

/// [`overlaps`] where one list has far more runs: each run of the shorter
/// gallops to the first of the longer's that ends in it or after, and takes
/// the overlaps from there.
fn overlaps_far(a: &[[u32; 2]], b: &[[u32; 2]], lo: u32, hi: u32, mut put: impl FnMut([u32; 2])) {
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

/// Writes to the front of `room` the candidates (sorted, far fewer) that
/// `ids` (sorted) holds; returns how many. Each candidate gallops from
/// where the one before stopped.
pub(super) fn keep_few(candidates: &[u32], ids: &[u32], room: &mut [u32]) -> usize {
    keep_few_by(candidates, ids, room, |j, c| {
        j + gallop(&ids[j..], |&x| x < c)
    })
}

/// [`keep_few`], each candidate's place in `ids` (the first not below it)
/// found by `place` from where the one before stopped.
#[inline(always)]
pub(super) fn keep_few_by(
    candidates: &[u32],
    ids: &[u32],
    room: &mut [u32],
    mut place: impl FnMut(usize, u32) -> usize,
) -> usize {
    let (mut j, mut k) = (0, 0);
    for &c in candidates {
        j = place(j, c);
        room[k] = c;
        k += usize::from(ids.get(j) == Some(&c));
    }
    k
}

/// [`keep_few`] on an array read in place: ids `first` and `first` plus
/// each 16-bit offset (rising).
pub(super) fn keep_few16(
    candidates: &[u32],
    first: u32,
    offsets: &[[u8; 2]],
    room: &mut [u32],
) -> usize {
    keep_few16_by(candidates, first, offsets, room, |j, off| {
        j + gallop(&offsets[j..], |o| u16::from_le_bytes(*o) < off)
    })
}

/// [`keep_few16`], each candidate's place in `offsets` found by `place`,
/// as in [`keep_few_by`].
#[inline(always)]
pub(super) fn keep_few16_by(
    candidates: &[u32],
    first: u32,
    offsets: &[[u8; 2]],
    room: &mut [u32],
    mut place: impl FnMut(usize, u16) -> usize,
) -> usize {
    let (mut j, mut k) = (0, 0);
    for &c in candidates {
        let held = match u16::try_from(c.wrapping_sub(first)) {
            Ok(0) => true,
            Ok(off) => {
                j = place(j, off);
                offsets
                    .get(j)
                    .is_some_and(|o| u16::from_le_bytes(*o) == off)
            }
            Err(_) => false,
        };
        room[k] = c;
        k += usize::from(held);
    }
    k
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
