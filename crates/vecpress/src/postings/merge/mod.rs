//! The kernel under [`and`](super::and): keeping, of a block of sorted
//! candidates, those a sorted block of another list holds, in place.
//!
//! Two blocks of like lengths, merged value by value, take a branch per
//! value that goes either way at random: about one misprediction every two
//! values. The SIMD kernels ([`generic`]) compare eight candidates with
//! eight values of the other block at a time (each value broadcast from
//! memory, a load and no shuffle, compared with the eight candidates), so
//! that one branch decides eight values: the block whose last value is
//! smaller moves on, the candidates that met their equal leave together
//! (compressed to the front). A block entirely below the other's first
//! value is passed without a compare, so a block of sparse candidates
//! crosses a denser one eight values at a time.
//!
//! The Sse41 level, which would compare four by four, and Neon use the
//! scalar merge.

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
/// runs out, moving those `b` holds to `a[kept..]`, after the ones kept
/// before (`kept <= i`). The candidates not yet passed, `a[merged.i..]`,
/// stay as they were. Lists that are not sorted give unspecified values,
/// never a write outside `a`.
pub(crate) fn keep_common(isa: Isa, a: &mut [u32], i: usize, kept: usize, b: &[u32]) -> Merged {
    assert!(
        kept <= i && i <= a.len(),
        "keep_common: kept {kept}, i {i}, {} candidates",
        a.len()
    );
    match isa {
        // SAFETY: `Isa::best` or a checked level: the CPU has AVX-512
        // (F, BW, VL among them); `kept <= i <= a.len()` was asserted.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::keep_common(a, i, kept, b) },
        // SAFETY: as above, with AVX2.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::keep_common(a, i, kept, b) },
        _ => scalar::keep_common(a, i, kept, b, 0),
    }
}

#[cfg(test)]
mod tests;
