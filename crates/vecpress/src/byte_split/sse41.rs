//! The Sse41 level's kernels: the transposition of `generic.rs` on one
//! 16-byte lane per register (`punpck*` and `pshufb`).

use core::arch::x86_64::*;

use super::generic;

generic::kernels!(
    level,
    __m128i,
    "sse2,ssse3,sse4.1",
    "The transposition on one 16-byte lane per register."
);
