//! How the fast loop copies: the [`Copier`] trait (the width of a variant's
//! wild copies and how it starts a match that overlaps its own output), the
//! portable copiers [`Copy8`] and [`Copy16`], and the copies of literals and
//! matches the loop's steps make with them.

use core::ptr;

use super::MINMATCH;
use super::tables::{DISTANCE_4, DISTANCE_8, DISTANCE_16, steps_of};

/// How a variant copies.
///
/// # Safety
/// Every method is `unsafe`: callers pass pointers valid for the bytes each
/// method names, and call them only where the CPU has the features the
/// implementation's intrinsics need (the kernel entry that instantiates
/// [`fast_loop`](super::fast::fast_loop) enables them).
pub(super) trait Copier {
    /// Bytes of one wild copy.
    const W: usize;

    /// Copies `W` bytes from `src` to `dst`.
    ///
    /// # Safety
    /// `src` is readable and `dst` writable for `W` bytes, and the two ranges
    /// do not overlap.
    unsafe fn chunk(dst: *mut u8, src: *const u8);

    /// Writes the first `W` bytes of a match of offset `n` at `op`; returns
    /// the distance, a multiple of `n` and at least `W`, from which the rest
    /// is copied in chunks.
    ///
    /// # Safety
    /// `1 <= n < W`; `op - n .. op + W` is readable and `op .. op + W`
    /// writable, in one allocation.
    unsafe fn overlap(op: *mut u8, n: usize) -> usize;

    /// [`overlap`](Copier::overlap) where the 16 bytes before `op` are
    /// readable too: a copier that loads the pattern may load the bytes
    /// that end at `op` (see [`start_overlap`]). By default, the same.
    ///
    /// # Safety
    /// As [`overlap`](Copier::overlap), and `op - 16 .. op` readable.
    #[inline(always)]
    unsafe fn overlap_end(op: *mut u8, n: usize) -> usize {
        // SAFETY: the caller's contract, a wider one than `overlap` asks.
        unsafe { Self::overlap(op, n) }
    }
}

/// Writes the first `C::W` bytes of a match of offset `n` at `dst`
/// ([`Copier::overlap`]); returns the copier's distance for the rest.
///
/// The bytes just before a match were written a moment ago, often by more
/// than one store (the literals' 16-byte copy, the end of the match or the
/// literals before), and a load across two stores is not forwarded from
/// the store buffer: it waits for both to reach the cache. A load of the
/// pattern from `op - n` that is wider than `n` reaches past `op` into the
/// literals' copy, this sequence's own store, whenever the pattern is
/// loaded; one that ends at `op` reads only stores before it, which have
/// had longer to leave. Long runs of short period (the byte planes of float
/// columns) start such a load every few sequences, so a copier is told,
/// where it is so (`back16`), that the 16 bytes before the match may be read.
///
/// # Safety
/// `1 <= n < C::W`; `dst - n .. dst + C::W` readable and `dst .. dst + C::W`
/// writable, in one allocation, and `dst - 16 .. dst` readable too if
/// `back16`; the CPU features of `C`.
#[inline(always)]
pub(super) unsafe fn start_overlap<C: Copier>(dst: *mut u8, back16: bool, n: usize) -> usize {
    // SAFETY: the caller's contract; `overlap_end` only with `back16`.
    unsafe {
        if back16 {
            C::overlap_end(dst, n)
        } else {
            C::overlap(dst, n)
        }
    }
}

/// Wild copies of `N` bytes (8 or 16), plain copies the compiler turns into
/// one load and one store; overlapping matches start 4 + 4 (+ 8) bytes.
pub(super) struct Wild<const N: usize>;

/// Wild copies of 8 bytes.
pub(super) type Copy8 = Wild<8>;

/// Wild copies of 16 bytes.
pub(super) type Copy16 = Wild<16>;

impl<const N: usize> Copier for Wild<N> {
    const W: usize = N;

    #[inline(always)]
    unsafe fn chunk(dst: *mut u8, src: *const u8) {
        // SAFETY: the caller's contract: N readable, N writable, disjoint.
        unsafe { ptr::copy_nonoverlapping(src, dst, N) }
    }

    #[inline(always)]
    unsafe fn overlap(op: *mut u8, n: usize) -> usize {
        // SAFETY: the caller's contract, as `overlap_staged` asks it for N bytes.
        unsafe { overlap_staged::<N>(op, n) }
    }
}

/// Writes the first `N` bytes (8 or 16) of a match of offset `n`: 4 bytes
/// (one at a time when `n < 4`), then 4 and, for 16, 8 bytes from the
/// distances of [`tables`](super::tables). Returns the distance for the
/// chunks after.
///
/// # Safety
/// `N` is 8 or 16; `1 <= n < N`; `op - n .. op + N` is readable and
/// `op .. op + N` writable, in one allocation.
#[inline(always)]
pub(super) unsafe fn overlap_staged<const N: usize>(op: *mut u8, n: usize) -> usize {
    // SAFETY: every read is at or after `op - n` and before the byte being
    // written, which is before `op + N`: inside the caller's range.
    // Each distance d satisfies d >= the chunk size (no overlap within a
    // copy) and d < k + n (the read starts after `op - n`).
    unsafe {
        if n < 4 {
            for i in 0..4 {
                *op.add(i) = *op.add(i).sub(n);
            }
        } else {
            ptr::copy_nonoverlapping(op.sub(n), op, 4);
        }
        let d4 = usize::from(DISTANCE_4[n]);
        ptr::copy_nonoverlapping(op.add(4).sub(d4), op.add(4), 4);
        let d8 = usize::from(DISTANCE_8[n]);
        if N == 8 {
            return d8;
        }
        ptr::copy_nonoverlapping(op.add(8).sub(d8), op.add(8), 8);
        usize::from(DISTANCE_16[n])
    }
}

/// Copies `len` bytes (rounded up to chunks) from `src` to `dst`.
///
/// # Safety
/// `src` readable and `dst` writable for `len` rounded up to a multiple of
/// `C::W` (at least one chunk), the two disjoint; the CPU features of `C`.
#[inline(always)]
pub(super) unsafe fn wild<C: Copier>(dst: *mut u8, src: *const u8, len: usize) {
    let mut k = 0;
    loop {
        // SAFETY: k < len rounded up, so the chunk lies in the caller's ranges.
        unsafe { C::chunk(dst.add(k), src.add(k)) };
        k += C::W;
        if k >= len {
            break;
        }
    }
}

/// Copies a match of `len` bytes at offset `offset` to `out + op`.
///
/// # Safety
/// `1 <= offset <= op`; `out .. out + op + len + C::W` is writable (and
/// readable) in one allocation; the CPU features of `C`.
#[inline(always)]
pub(super) unsafe fn copy_match<C: Copier>(out: *mut u8, op: usize, offset: usize, len: usize) {
    // SAFETY: all writes end before `op + len + W`; reads start at or after
    // `op - offset >= 0`, and each chunk reads from at least `W` bytes back
    // (offset >= W) or from a copy off the output, so source and
    // destination never overlap within a chunk.
    unsafe {
        let dst = out.add(op);
        if offset >= C::W {
            wild::<C>(dst, dst.sub(offset), len);
        } else {
            start_overlap::<C>(dst, op >= 16, offset);
            if len > C::W {
                // The match repeats every `offset` bytes, so its first W
                // bytes, stored every `step` bytes (a multiple of the offset,
                // at most W), write the rest. Stored from a copy of them,
                // each chunk waits for no store before it, where a copy from
                // the output just written would wait for the last one: long
                // runs (zeros, repeated values) go at the speed of stores.
                let step = usize::from(steps_of(C::W)[offset]);
                let mut first = [0u8; 32];
                ptr::copy_nonoverlapping(dst, first.as_mut_ptr(), C::W);
                let mut k = step;
                while k < len {
                    C::chunk(dst.add(k), first.as_ptr());
                    k += step;
                }
            }
        }
    }
}

/// The longest run of literals or match that [`copy_medium`] copies.
pub(super) const MEDIUM: usize = 128;

/// Copies [`MEDIUM`] bytes from `src` to `dst` in chunks, without a loop
/// at run time: for a long run of literals or a long match (most are
/// shorter than this), whose chunk loop would end after one or two chunks
/// of 32, a branch that goes either way.
///
/// # Safety
/// `src .. src + MEDIUM` readable and `dst .. dst + MEDIUM` writable; the
/// source starts at least `C::W` bytes before the destination, or in
/// another allocation; the CPU features of `C`.
#[inline(always)]
pub(super) unsafe fn copy_medium<C: Copier>(dst: *mut u8, src: *const u8) {
    let mut k = 0;
    while k < MEDIUM {
        // SAFETY: each chunk lies in the caller's ranges; a chunk of a
        // match reads from at least W back, so it does not overlap itself.
        unsafe { C::chunk(dst.add(k), src.add(k)) };
        k += C::W;
    }
}

/// Copies a match of at most [`SHORT_MATCH`] bytes at offset `offset` to
/// `out + op`, writing at most [`SHORT_WRITE`] bytes: copies of 8, 8 and 2
/// bytes when the offset is at least 8 (as liblz4 does: the last copy of 2
/// bytes reads less of the stores just made than a third copy of 8 would),
/// else the copier's start of an overlapping match.
///
/// # Safety
/// `1 <= offset <= op`, `len <= SHORT_MATCH`; `out .. out + op +
/// SHORT_WRITE` is writable (and readable) in one allocation; the CPU
/// features of `C`.
#[inline(always)]
pub(super) unsafe fn copy_short_match<C: Copier>(
    out: *mut u8,
    op: usize,
    offset: usize,
    len: usize,
) {
    debug_assert!(len <= SHORT_MATCH);
    // SAFETY: as in `copy_match`; writes end by op + 32 (8 + 8 + 2, or
    // an overlap start of W <= 32 bytes then chunks while k < len <= 18,
    // which for W = 8 ends at 24 and for W = 16 at 32).
    unsafe {
        let dst = out.add(op);
        if offset >= 8 {
            let src = dst.sub(offset);
            ptr::copy_nonoverlapping(src, dst, 8);
            ptr::copy_nonoverlapping(src.add(8), dst.add(8), 8);
            ptr::copy_nonoverlapping(src.add(16), dst.add(16), 2);
        } else {
            // Out of line: the copies above then fall through to the next
            // sequence, where this path in line made them jump over it.
            cold();
            let d = start_overlap::<C>(dst, op >= 16, offset);
            let mut k = C::W;
            while k < len {
                C::chunk(dst.add(k), dst.add(k).sub(d));
                k += C::W;
            }
        }
    }
}

/// The longest match a token codes without extension: 14 + MINMATCH.
pub(super) const SHORT_MATCH: usize = 14 + MINMATCH;
/// Bytes copied for a run of at most 14 literals.
pub(super) const SHORT_LITERALS: usize = 16;
/// The most bytes [`copy_short_match`] writes.
pub(super) const SHORT_WRITE: usize = 32;

/// Marks the branch that calls it as rarely taken, so that the compiler
/// lays it out of the way of the common path (`core::hint::cold_path`, which
/// needs Rust 1.95).
#[cold]
#[inline]
pub(super) fn cold() {}
