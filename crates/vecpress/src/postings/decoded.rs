//! Intersections and unions of lists decoded whole, by the merge kernels.

use super::merge;
use crate::Isa;

/// The intersection of lists decoded whole, one after another, into `buf`
/// after room for the shortest (`counts[0]` values, the lengths ascending):
/// leaves the values in every list at the front of `buf`, in order, and
/// returns how many. Each list keeps the candidates of the one before with
/// one merge (eight by eight at the AVX2 and AVX-512 levels), from one end
/// of the room to the other; a list decoded whole pays no cursor, no skip
/// and no block's end.
pub(crate) fn and_decoded(isa: Isa, buf: &mut [u32], counts: &[usize]) -> usize {
    let Some((&n0, rest)) = counts.split_first() else {
        return 0;
    };
    let (front, tail) = buf.split_at_mut(n0);
    let (first, mut lists) = tail.split_at_mut(n0);
    // The candidates are in `first` while `in_front` is false.
    let (mut c, mut in_front) = (n0, false);
    for &n in rest {
        if c == 0 {
            break;
        }
        let (list, after) = core::mem::take(&mut lists).split_at_mut(n);
        lists = after;
        let (candidates, kept) = if in_front {
            (&front[..c], &mut first[..])
        } else {
            (&first[..c], &mut front[..])
        };
        c = keep_decoded(isa, candidates, kept, list);
        in_front = !in_front;
    }
    if !in_front {
        front[..c].copy_from_slice(&first[..c]);
    }
    c
}

/// Writes to the front of `kept` the `candidates` (sorted) that the
/// decoded `list` (sorted) holds; returns how many. `kept` is as long as
/// the candidates at least.
pub(crate) fn keep_decoded(isa: Isa, candidates: &[u32], kept: &mut [u32], list: &[u32]) -> usize {
    merge::keep_common(isa, candidates, 0, kept, 0, list).kept
}

/// The union of `lists` (each sorted), each value once, into `out`
/// (cleared first): the shortest two merged first, then each longer one
/// into their union.
pub(crate) fn or_decoded<'a>(
    isa: Isa,
    mut lists: impl Iterator<Item = &'a [u32]>,
    out: &mut Vec<u32>,
) {
    out.clear();
    let Some(first) = lists.next() else {
        return;
    };
    let Some(second) = lists.next() else {
        out.extend_from_slice(first);
        dedup(out, 0);
        return;
    };
    merge::union(isa, first, second, out);
    let mut merged = Vec::new();
    for list in lists {
        merge::union(isa, out, list, &mut merged);
        std::mem::swap(out, &mut merged);
    }
}

/// Drops the values of `v[from..]` equal to the one before them, after a
/// check that finds none in sorted lists at little cost.
pub(crate) fn dedup(v: &mut Vec<u32>, from: usize) {
    let from = from.min(v.len()).saturating_sub(1);
    let repeats = v[from..]
        .windows(2)
        .fold(false, |any, w| any | (w[0] == w[1]));
    if !repeats {
        return;
    }
    let mut kept = from + 1;
    for r in from + 1..v.len() {
        if v[r] != v[kept - 1] {
            v[kept] = v[r];
            kept += 1;
        }
    }
    v.truncate(kept.min(v.len()));
}
