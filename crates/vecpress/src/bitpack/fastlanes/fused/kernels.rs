//! The fused delta decoder compiled per x86-64 level, one entry point a
//! level and width, over the registers of `simd::u32s` (4 lanes with
//! SSE4.1, 8 with AVX2, 16 with AVX-512).

use core::arch::x86_64::*;

use super::{LANES, fused};
use crate::Isa;

/// A fused kernel: `(input, bases, out)`, `input` readable for `128 W`
/// bytes.
pub(super) type Kernel = unsafe fn(*const u8, &[u32; LANES], &mut [u32; 1024]);

/// Entry points of one level: the generic decoder under its features.
macro_rules! level {
    ($name:ident, $reg:ty, $features:literal) => {
        /// # Safety
        /// The CPU has the level's features; `input` is readable for
        /// `128 W` bytes.
        #[target_feature(enable = $features)]
        unsafe fn $name<const W: usize>(
            input: *const u8,
            bases: &[u32; LANES],
            out: &mut [u32; 1024],
        ) {
            // SAFETY: the caller's features and input; `out` holds 1024.
            unsafe { fused::<$reg, W>(input, bases, out.as_mut_ptr()) }
        }
    };
}

level!(sse41, __m128i, "sse2,ssse3,sse4.1");
level!(avx2, __m256i, "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt");
level!(
    avx512,
    __m512i,
    "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
);

/// `$level::<w>` for the width `$w` (at most 32).
macro_rules! pick {
    ($level:ident, $w:expr; $($n:literal)*) => {
        match $w {
            $($n => $level::<$n> as Kernel,)*
            _ => unreachable!("the width is checked before a kernel runs"),
        }
    };
}

/// The fused kernel of `isa` at width `w` (at most 32), if the level has
/// one.
pub(super) fn kernel(isa: Isa, w: usize) -> Option<Kernel> {
    macro_rules! widths {
        ($level:ident) => {
            pick!($level, w; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
                25 26 27 28 29 30 31 32)
        };
    }
    match isa {
        Isa::Sse41 => Some(widths!(sse41)),
        Isa::Avx2 => Some(widths!(avx2)),
        Isa::Avx512 => Some(widths!(avx512)),
        _ => None,
    }
}
