//! The scalar merge: the reference the SIMD kernels are tested against,
//! and their tail.
#![forbid(unsafe_code)]

use super::Merged;

/// [`keep_common`](super::keep_common) a value at a time, from `b[j..]`.
pub(super) fn keep_common(
    a: &mut [u32],
    mut i: usize,
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
            a[kept] = x;
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
pub(super) fn leaping(
    a: &mut [u32],
    mut i: usize,
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
            a[kept] = x;
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
pub(super) fn finish(
    a: &mut [u32],
    i: usize,
    mut kept: usize,
    b: &[u32],
    mut j: usize,
    found: u32,
) -> Merged {
    let m = b.len();
    // Copied first: the values kept move down over the eight.
    let eight: [u32; 8] = core::array::from_fn(|t| a[i + t]);
    for (t, &x) in eight.iter().enumerate() {
        let hit = if found & (1 << t) != 0 {
            true
        } else {
            while j < m && b[j] < x {
                j += 1;
            }
            if j == m {
                // Among the values passed and not found there: not in
                // `b`; above them all: the merge stops at it (`a[i + t..]`
                // is intact, every value kept went below it).
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
            a[kept] = x;
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
    leaping(a, i + 8, kept, b, j)
}
