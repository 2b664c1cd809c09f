//! The one-pass kernels of `generic.rs` on SSE4.1 registers.

use core::arch::x86_64::*;

use super::generic;

generic::kernels!(
    level,
    __m128i,
    "sse2,ssse3,sse4.1",
    "The kernels on SSE4.1 registers."
);
