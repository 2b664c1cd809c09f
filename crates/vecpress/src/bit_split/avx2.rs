//! The one-pass kernels of `generic.rs` on AVX2 registers.

use core::arch::x86_64::*;

use super::generic;

generic::kernels!(
    level,
    __m256i,
    "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt",
    "The kernels on AVX2 registers."
);
