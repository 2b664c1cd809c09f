//! The SIMD merge, written once over [`Eight`] and instantiated per level.
//!
//! ```text
//! while eight candidates (a) and eight values (b) remain:
//!     b's last < a's first: b moves on
//!     found |= lanes of a equal to any of b's eight (eight broadcasts),
//!         unless a's last < b's first
//!     a's last <= b's last: a's found leave (compressed to kept), a moves on
//!     b's last <= a's last: b moves on
//! then value by value, from the candidates in hand
//! ```

use super::Merged;
use super::scalar;

/// Eight u32 lanes, with what the merge needs of them.
pub(super) trait Eight: Copy {
    /// The eight values at `ptr`.
    ///
    /// # Safety
    /// They are readable; the CPU has the level's features.
    unsafe fn load(ptr: *const u32) -> Self;

    /// A bit per lane (lane 0 lowest): set where the lane equals one of
    /// the eight values at `b`.
    ///
    /// # Safety
    /// They are readable; the CPU has the level's features.
    unsafe fn found(self, b: *const u32) -> u32;

    /// Writes the lanes whose bit of `found` is set, in order, to `ptr`
    /// (and unspecified values after them, eight in all).
    ///
    /// # Safety
    /// Eight u32 at `ptr` are writable; the CPU has the level's features.
    unsafe fn store_found(self, found: u32, ptr: *mut u32);
}

/// [`keep_common`](super::keep_common) eight by eight.
///
/// # Safety
/// The CPU has the features of `E`'s level; `kept <= i <= a.len() <=
/// out.len()`.
#[inline(always)]
pub(super) unsafe fn keep_common<E: Eight>(
    a: &[u32],
    mut i: usize,
    out: &mut [u32],
    mut kept: usize,
    b: &[u32],
) -> Merged {
    let (n, m) = (a.len(), b.len());
    let (pa, pb, po) = (a.as_ptr(), b.as_ptr(), out.as_mut_ptr());
    let mut j = 0;
    // Candidates of `a[i..i + 8]` found in `b` before `j`.
    let mut found = 0u32;
    // The last candidate passed.
    let mut passed = None;
    while i + 8 <= n && j + 8 <= m {
        // SAFETY: `i + 8 <= n` and `j + 8 <= m` bound every read; the
        // eight written from `kept` end at `kept + 8 <= i + 8 <= n <=
        // out.len()` (`kept <= i` holds: `kept` grows by at most 8 as `i`
        // grows by 8); the CPU is the caller's promise.
        unsafe {
            let (a0, a7) = (*pa.add(i), *pa.add(i + 7));
            let (b0, b7) = (*pb.add(j), *pb.add(j + 7));
            if b7 < a0 {
                j += 8;
                continue;
            }
            let va = E::load(pa.add(i));
            if a7 >= b0 {
                found |= va.found(pb.add(j));
            }
            if a7 <= b7 {
                va.store_found(found, po.add(kept));
                kept += found.count_ones() as usize;
                found = 0;
                i += 8;
                passed = Some(a7);
            }
            if b7 <= a7 {
                j += 8;
            }
        }
    }
    if i + 8 <= n {
        // `b` ran short with eight candidates in hand.
        return scalar::finish(a, i, out, kept, b, j, found);
    }
    if i == n
        && let Some(last) = passed
    {
        // Where the merge value by value would stop: past the values not
        // above the last candidate.
        j += b[j..].partition_point(|&v| v <= last);
    }
    scalar::leaping(a, i, out, kept, b, j)
}
