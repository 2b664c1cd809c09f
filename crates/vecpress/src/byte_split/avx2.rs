//! The Avx2 level's kernels: the transposition of `generic.rs` on two
//! 16-byte lanes per register (the same in-lane instructions run two blocks
//! of 16 values at once; loads and stores move a lane at a time where the
//! two are apart). The Avx512 level runs these for the widths its own
//! kernels (`avx512.rs`: permutes across whole registers, for 2, 4, 8 and
//! 16 bytes) do not take. The same transposition on 512-bit registers (four
//! lanes) would still load and store each 16-byte lane apart, so it would
//! save in-lane shuffles only, not the memory work (Arrow found its own
//! AVX-512 path no faster than AVX2).

use core::arch::x86_64::*;

use super::generic;

generic::kernels!(
    level,
    __m256i,
    "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt",
    "The transposition on two 16-byte lanes per register."
);
