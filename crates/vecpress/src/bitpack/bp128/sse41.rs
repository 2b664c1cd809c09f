//! SIMD-BP128 at the SSE4.1 level: the 4-lane sorted kernel, each vector of
//! gaps summed in the register it was unpacked in (two shifted adds, then
//! the last sum of the vector before it added to every lane), one store a
//! vector, as the `bitpacking` crate's sorted decoder does; and the running
//! sum of a block of gaps, four values a vector. Plain blocks take the
//! baseline kernel, which four lanes in one 128-bit register already are.

use core::arch::x86_64::__m128i;

use super::generic;
use crate::simd::Vector;

/// Unpacks a sorted 4-lane block of width `W`, its gaps summed from
/// `initial` in the same pass.
///
/// # Safety
/// The CPU has SSSE3 and SSE4.1.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn unpack_sorted<const L: usize, const W: usize>(
    input: &[u8],
    out: &mut [u32],
    initial: u32,
) {
    const { assert!(L == 4, "four lanes, one 128-bit register") };
    // SAFETY: registers only; this function's features.
    let mut acc = unsafe { __m128i::splat_u32(initial) };
    generic::unpack_map::<4, W>(input, out, |v| {
        let mut sums = [0u32; 4];
        // SAFETY: `v` and `sums` are 16 bytes each; this
        // function's features.
        unsafe {
            let x = __m128i::load(v.as_ptr().cast())
                .prefix_sum_u32()
                .add_u32(acc);
            acc = x.splat_last_u32();
            x.store(sums.as_mut_ptr().cast());
        }
        sums
    });
}

/// The running sum of `out` in place from `initial`, four values a vector.
///
/// # Safety
/// The CPU has SSSE3 and SSE4.1; `out.len()` is a multiple of 4.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(super) unsafe fn running_sum(out: &mut [u32], initial: u32) {
    // SAFETY: the features `__m128i`'s `Vector` methods need.
    unsafe { super::kernels::running_sum_in::<__m128i>(out, initial) }
}
