//! x86-64 kernels: the transposition of `generic.rs` on SSE4.1 registers
//! (one 16-byte lane, `punpck*` and `pshufb`) and on AVX2 registers (two
//! lanes: the same in-lane instructions run two blocks of 16 values at once;
//! loads and stores move a lane at a time where the two are apart).
//!
//! The same transposition on 512-bit registers (four lanes, each load and
//! store of a lane apart) was measured no faster than AVX2 for widths 3, 4,
//! 8 and 16, as Arrow found for its AVX-512 path. The Avx512 level has
//! kernels of another shape for the widths 2, 4, 8 and 16 (`avx512.rs`:
//! permutes across whole registers, no lanes) and runs these for the rest.

use core::arch::x86_64::*;

use super::generic;

generic::kernels!(
    sse41,
    __m128i,
    "sse2,ssse3,sse4.1",
    "The Sse41 level's kernels: one 16-byte lane per register."
);
generic::kernels!(
    avx2,
    __m256i,
    "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt",
    "The Avx2 level's kernels: two 16-byte lanes per register."
);
