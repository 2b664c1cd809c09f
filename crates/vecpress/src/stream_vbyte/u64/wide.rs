//! The 256-bit groups of the AVX2 and AVX-512 levels: a [`Spread`] puts the
//! four values of a control byte into the four u64 lanes of one register
//! (the levels differ in that step alone: `avx2.rs` shuffles two 16-byte
//! loads within their lanes, `avx512.rs` permutes the bytes of one 32-byte
//! load across the register), and [`Wide`] adds the delta step and the
//! store, for the loop of `generic.rs`.
//!
//! ```text
//! x <- spread(data + pos, c)                                   // 4 u64 lanes
//! delta: x <- prefix sum of x, + last;  last <- x[3] in every lane
//! store x
//! ```

use core::arch::x86_64::*;
use core::marker::PhantomData;

use super::generic::Group;

/// How one level puts a control byte's four values into a register.
pub(super) trait Spread {
    /// The tables the step reads (see [`Group::Tables`]).
    type Tables: Copy;

    /// The four values of control byte `c`, whose data starts at `data`,
    /// zero-extended to u64 lanes.
    ///
    /// # Safety
    /// The 32 bytes at `data` are readable; `c < 256`; the CPU has the
    /// features of the implementing level.
    unsafe fn spread(tables: Self::Tables, data: *const u8, c: usize) -> __m256i;
}

/// A group in one 256-bit register, spread by `S`.
pub(super) struct Wide<S>(PhantomData<S>);

impl<S: Spread> Group for Wide<S> {
    type Last = __m256i;
    type Tables = S::Tables;

    #[inline(always)]
    unsafe fn splat(prev: u64) -> __m256i {
        // SAFETY: the caller provides AVX.
        unsafe { _mm256_set1_epi64x(prev as i64) }
    }

    #[inline(always)]
    unsafe fn value(last: __m256i) -> u64 {
        // SAFETY: the caller provides AVX2.
        unsafe { _mm256_extract_epi64::<0>(last) as u64 }
    }

    #[inline(always)]
    unsafe fn group<const DELTA: bool>(
        tables: S::Tables,
        data: *const u8,
        c: usize,
        out: *mut u64,
        last: &mut __m256i,
    ) {
        // SAFETY: the 32 bytes at `data` are readable, c < 256 and the 4
        // values at `out` writable, the caller's promises, as are AVX2 and
        // the features `S` needs.
        unsafe {
            let mut x = S::spread(tables, data, c);
            if DELTA {
                (x, *last) = prefix_sum(x, *last);
            }
            _mm256_storeu_si256(out.cast(), x);
        }
    }
}

/// The running sum of the four u64 gaps of `x` from `last` (the previous
/// value in every lane); returns it and its last lane in every lane. The
/// sum within the group does not wait for `last`, so the loop-carried chain
/// is one add.
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn prefix_sum(x: __m256i, last: __m256i) -> (__m256i, __m256i) {
    // SAFETY: the caller provides AVX2.
    unsafe {
        // (x0, x0 + x1, x2, x2 + x3)
        let x = _mm256_add_epi64(x, _mm256_slli_si256::<8>(x));
        // + (0, 0, s1, s1) with s1 = x0 + x1
        let s1 = _mm256_permute4x64_epi64::<0b01_01_00_00>(x);
        let x = _mm256_add_epi64(
            x,
            _mm256_blend_epi32::<0b1111_0000>(_mm256_setzero_si256(), s1),
        );
        let total = _mm256_permute4x64_epi64::<0b11_11_11_11>(x);
        (_mm256_add_epi64(x, last), _mm256_add_epi64(last, total))
    }
}
