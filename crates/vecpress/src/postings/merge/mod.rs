//! The kernel under [`and`](super::and): keeping, of a block of sorted
//! candidates, those a sorted block of another list holds, into an array
//! of their own.
//!
//! Two blocks of like lengths, merged value by value, take a branch per
//! value that goes either way at random: about one misprediction every two
//! values. The SIMD kernels ([`generic`]) compare eight candidates with
//! eight values of the other block at a time (each value broadcast from
//! memory, a load and no shuffle, compared with the eight candidates), so
//! that one branch decides eight values: the block whose last value is
//! smaller moves on, the candidates that met their equal leave together
//! (compressed, and stored after those kept before). A block entirely below the other's first
//! value is passed without a compare, so a block of sparse candidates
//! crosses a denser one eight values at a time.
//!
//! The union under [`or`](super::or) merges two sorted lists sixteen
//! values at a time at the AVX-512 level: a bitonic network of minimums and
//! maximums merges the sixteen carried over with the next sixteen of the
//! list whose next value is smaller, the lower sixteen leave, less those
//! equal to the value before them. A merge value by value waits on each
//! step's loads to choose the next; the network's chain is its own shuffles.
//!
//! The Sse41 and AVX2 levels (whose eight-lane networks would carry twice
//! the steps per value) and Neon use the scalar merge for the union; the
//! Sse41 level and Neon also for the intersection.

mod scalar;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod generic;

use crate::Isa;

/// Where a merge stopped: candidates kept, candidates passed, and values
/// of the other block passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Merged {
    pub(crate) kept: usize,
    pub(crate) i: usize,
    pub(crate) j: usize,
}

/// Merges the candidates `a[i..]` with `b` (both sorted) until either
/// runs out, writing those `b` holds to `out[kept..]`, after the ones kept
/// before (`kept <= i`, and `out` as long as `a` at least: the kernels
/// write eight lanes at a time there). Apart from `a`, so that no load of
/// candidates meets a store of kept ones still in flight: a load that
/// overlaps a store in part waits for it to retire. Lists that are not
/// sorted give unspecified values, never a write outside `out`.
pub(crate) fn keep_common(
    isa: Isa,
    a: &[u32],
    i: usize,
    out: &mut [u32],
    kept: usize,
    b: &[u32],
) -> Merged {
    keep_common_as(isa, crate::tune::merge_in_vectors(), a, i, out, kept, b)
}

/// [`keep_common`] with the AVX-512 level's form given: `vectors`, the
/// AVX2 kernel's compares ([`tune::merge_in_vectors`](crate::tune::merge_in_vectors)).
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn keep_common_as(
    isa: Isa,
    vectors: bool,
    a: &[u32],
    i: usize,
    out: &mut [u32],
    kept: usize,
    b: &[u32],
) -> Merged {
    assert!(
        kept <= i && i <= a.len() && a.len() <= out.len(),
        "keep_common: kept {kept}, i {i}, {} candidates, room for {}",
        a.len(),
        out.len()
    );
    match isa {
        // SAFETY: the level's features include AVX2's; the bounds were
        // asserted.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if vectors => unsafe { avx2::keep_common(a, i, out, kept, b) },
        // SAFETY: `tune::isa`, `Isa::best` or a checked level: the CPU has AVX-512
        // (F, BW, VL among them); the bounds were asserted.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::keep_common(a, i, out, kept, b) },
        // SAFETY: as above, with AVX2.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::keep_common(a, i, out, kept, b) },
        _ => scalar::keep_common(a, i, out, kept, b, 0),
    }
}

/// The union of `a` and `b` (sorted) into `out` (cleared first), each
/// value once. Lists that are not sorted give unspecified values in an
/// unspecified order, never a read or write out of bounds.
pub(crate) fn union(isa: Isa, a: &[u32], b: &[u32], out: &mut Vec<u32>) {
    out.clear();
    union_after(isa, a, b, out);
}

/// [`union`] appended to `out`, none of its values equal to the last there
/// (a union of pieces in order writes each where it goes, with no copy).
pub(crate) fn union_after(isa: Isa, a: &[u32], b: &[u32], out: &mut Vec<u32>) {
    match isa {
        // SAFETY: `tune::isa`, `Isa::best` or a checked level: the CPU has AVX-512.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if a.len() >= 16 && b.len() >= 16 => unsafe { avx512::union(a, b, out) },
        // SAFETY: as above, with AVX2. A list far longer than the other is
        // copied in runs (the scalar union's), not merged.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 if a.len().min(b.len()) >= 16 && !scalar::skewed(a, b) => unsafe {
            avx2::union(a, b, out)
        },
        _ => scalar::union(a, b, out),
    }
}

#[cfg(test)]
mod tests;
