//! The scalar merge: the reference the SIMD kernels are tested against,
//! and their tail.
#![forbid(unsafe_code)]

use super::Merged;

/// [`keep_common`](super::keep_common) a value at a time, from `b[j..]`.
pub(super) fn keep_common(
    a: &[u32],
    mut i: usize,
    out: &mut [u32],
    mut kept: usize,
    b: &[u32],
    mut j: usize,
) -> Merged {
    // Branches, not branch-free steps: the compares then run ahead of the
    // loads instead of waiting on them.
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        if x < y {
            i += 1;
        } else if y < x {
            j += 1;
        } else {
            out[kept] = x;
            kept += 1;
            i += 1;
            j += 1;
        }
    }
    Merged { kept, i, j }
}

/// [`keep_common`] leaping over eight values of `b` at a time while their
/// last is below the candidate: the same merge, for a few candidates
/// against many values (the SIMD kernels' tail).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // the x86 kernels' tail
pub(super) fn leaping(
    a: &[u32],
    mut i: usize,
    out: &mut [u32],
    mut kept: usize,
    b: &[u32],
    mut j: usize,
) -> Merged {
    while i < a.len() && j < b.len() {
        let x = a[i];
        while j + 8 <= b.len() && b[j + 7] < x {
            j += 8;
        }
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j == b.len() {
            break;
        }
        if b[j] == x {
            out[kept] = x;
            kept += 1;
            j += 1;
        }
        i += 1;
    }
    Merged { kept, i, j }
}

/// Finishes a SIMD merge that ran out of eight values of `b` with the
/// eight candidates `a[i..i + 8]` in hand, those where bits of `found` are
/// set met their equal in `b[..j]`: decides the eight where the merge value
/// by value would have, then goes on.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // the x86 kernels' tail
pub(super) fn finish(
    a: &[u32],
    i: usize,
    out: &mut [u32],
    mut kept: usize,
    b: &[u32],
    mut j: usize,
    found: u32,
) -> Merged {
    let m = b.len();
    for (t, &x) in a[i..i + 8].iter().enumerate() {
        let hit = if found & (1 << t) != 0 {
            true
        } else {
            while j < m && b[j] < x {
                j += 1;
            }
            if j == m {
                // Among the values passed and not found there: not in
                // `b`; above them all: the merge stops at it.
                if m == 0 || b[m - 1] < x {
                    return Merged { kept, i: i + t, j };
                }
                false
            } else if b[j] == x {
                j += 1;
                true
            } else {
                false
            }
        };
        if hit {
            out[kept] = x;
            kept += 1;
            // The merge stops once it met `b`'s last value.
            if j == m && m > 0 && b[m - 1] == x {
                return Merged {
                    kept,
                    i: i + t + 1,
                    j,
                };
            }
        }
    }
    leaping(a, i + 8, out, kept, b, j)
}

/// Appends the union of `x` and `y` (sorted) to `out`, each value once,
/// none equal to the value `out` ends with: the reference the SIMD union
/// is tested against, and its tail.
pub(super) fn union(x: &[u32], y: &[u32], out: &mut Vec<u32>) {
    let (short, long) = if x.len() <= y.len() { (x, y) } else { (y, x) };
    if skewed(x, y) {
        return union_skewed(short, long, out);
    }
    let start = out.len();
    let last = out.last().copied();
    // Written in place, then cut to what was kept.
    out.resize(start + x.len() + y.len(), 0);
    let k = union_into(x, y, last, &mut out[start..]);
    out.truncate(start + k);
}

/// The union of `x` and `y` (sorted) at the front of `dst` (room for both),
/// each value once, none equal to `last`; how many. The SIMD unions' tail
/// takes its carried values with the shorter list's last into an array on
/// the stack this way, where a vector would be an allocation a call.
#[inline(always)]
pub(super) fn union_into(x: &[u32], y: &[u32], mut last: Option<u32>, dst: &mut [u32]) -> usize {
    let (mut i, mut j, mut k) = (0, 0, 0);
    // A value equal to the one before it is written over by the next.
    let mut put = |v: u32, k: &mut usize| {
        dst[*k] = v;
        *k += usize::from(last != Some(v));
        last = Some(v);
    };
    while i < x.len() && j < y.len() {
        let (p, q) = (x[i], y[j]);
        put(p.min(q), &mut k);
        i += usize::from(p <= q);
        j += usize::from(q <= p);
    }
    for &v in x[i..].iter().chain(&y[j..]) {
        put(v, &mut k);
    }
    k
}

/// Whether one list is over [`SKEW`] times longer than the other.
#[inline(always)]
pub(super) fn skewed(x: &[u32], y: &[u32]) -> bool {
    x.len().min(y.len()) * SKEW < x.len().max(y.len())
}

/// A list this many times longer than the other is copied in runs between
/// the other's values, each found by binary search, rather than merged
/// value by value.
const SKEW: usize = 32;

/// [`union`] of a short list and a long one: the long list's runs between
/// the short one's values copied whole, then repeats removed from what was
/// added (only a damaged list has any).
fn union_skewed(short: &[u32], long: &[u32], out: &mut Vec<u32>) {
    let start = out.len();
    out.reserve(short.len() + long.len());
    let mut at = 0;
    for &v in short {
        let run = long[at..].partition_point(|&u| u < v);
        out.extend_from_slice(&long[at..at + run]);
        out.push(v);
        at += run;
        at += usize::from(long.get(at) == Some(&v));
    }
    out.extend_from_slice(&long[at..]);
    // The first value added may repeat the one `out` ended with.
    crate::postings::dedup(out, start);
}
