//! Differential coding: gaps between successive values, and their prefix sum.
//!
//! The codecs fuse the prefix sum into their SIMD decoders; these plain
//! functions serve callers that decode with something else (and the
//! benchmarks' peers, which have no fused delta decoder).
//!
//! ```
//! let mut v = [3u32, 5, 9];
//! vecpress::delta::encode_in_place(&mut v, 0);
//! assert_eq!(v, [3, 2, 4]);
//! vecpress::delta::prefix_sum_in_place(&mut v, 0);
//! assert_eq!(v, [3, 5, 9]);
//! ```
#![forbid(unsafe_code)]

/// Replaces each value by its gap from the one before (`prev` before the
/// first), wrapping modulo 2^32.
pub fn encode_in_place(values: &mut [u32], mut prev: u32) {
    for v in values {
        let cur = *v;
        *v = cur.wrapping_sub(prev);
        prev = cur;
    }
}

/// Replaces each gap by the running sum from `prev`, wrapping; returns the
/// last value (or `prev` when empty).
pub fn prefix_sum_in_place(values: &mut [u32], mut prev: u32) -> u32 {
    for v in values {
        prev = prev.wrapping_add(*v);
        *v = prev;
    }
    prev
}
