//! The [`Shuffle16`] copier, written once over the 16-byte [`Vector`] of
//! `crate::simd` (`pshufb` on x86-64, `tbl` on aarch64), and the 16-byte
//! steps that one form of the AVX2 copier (`avx2.rs`) builds on.

use core::marker::PhantomData;

use super::fast::Copier;
use super::tables::{DISTANCE_16, PATTERN_16};
use crate::simd::Vector;

/// 16-byte copies; a match of offset `n < 16` starts with one byte shuffle
/// of the `n` bytes before it.
pub(super) struct Shuffle16<V>(PhantomData<V>);

/// Copies 16 bytes.
///
/// # Safety
/// `src` readable and `dst` writable for 16 bytes, disjoint; the CPU has
/// the features `V` needs.
#[inline(always)]
pub(super) unsafe fn copy16<V: Vector>(dst: *mut u8, src: *const u8) {
    // SAFETY: the caller's contract; unaligned loads and stores.
    unsafe { V::load(src).store(dst) }
}

/// Writes 16 bytes of the pattern of the `n` bytes before `op`.
///
/// # Safety
/// `1 <= n < 16`; `op - n .. op - n + 16` readable and `op .. op + 16`
/// writable, in one allocation; the CPU has the features `V` needs.
#[inline(always)]
pub(super) unsafe fn pattern16<V: Vector>(op: *mut u8, n: usize) {
    // SAFETY: the caller's contract; the load may cover bytes at and after
    // `op` (inside the allocation), which the mask never selects.
    unsafe {
        let v = V::load(op.sub(n));
        let mask = V::load(PATTERN_16[n].as_ptr());
        v.shuffle(mask).store(op);
    }
}

impl<V: Vector> Copier for Shuffle16<V> {
    const W: usize = 16;

    #[inline(always)]
    unsafe fn chunk(dst: *mut u8, src: *const u8) {
        // SAFETY: the caller's contract (16 bytes each, disjoint; the
        // features of `V`).
        unsafe { copy16::<V>(dst, src) }
    }

    #[inline(always)]
    unsafe fn overlap(op: *mut u8, n: usize) -> usize {
        // SAFETY: the caller's contract: 1 <= n < 16, op - n .. op + 16 valid.
        unsafe { pattern16::<V>(op, n) };
        usize::from(DISTANCE_16[n])
    }
}
