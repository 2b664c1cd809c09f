//! The compiled kernels: [`generic`] for every word type, width and form
//! (plain, FoR, Delta), each its own function, compiled once per ISA level
//! with that level's `#[target_feature]` list, so that LLVM vectorises the
//! lane loop for the level's registers (the baseline's 128-bit SSE2 or Neon
//! at the scalar level, then SSE4.1, AVX2's 256 bits and AVX-512's 512).

use super::generic::{self, Kernel};
use crate::Isa;

/// A packing kernel: `(values, reference, bases, out)`; `out` holds at
/// least `128 W` bytes. Returns the OR of the values packed (see
/// [`Kernel::pack`]).
pub(super) type PackFn<T> = unsafe fn(&[T; 1024], T, &[T], &mut [u8]) -> T;
/// An unpacking kernel: `(input, reference, bases, out)`; `input` holds at
/// least `128 W` bytes.
pub(super) type UnpackFn<T> = unsafe fn(&[u8], T, &[T], &mut [T; 1024]);

/// Entry points of one level: the generic code under its features.
macro_rules! level {
    ($name:ident $(, $features:literal)?) => {
        mod $name {
            use super::Kernel;

            /// # Safety
            /// The CPU has the level's features.
            $(#[target_feature(enable = $features)])?
            pub(super) unsafe fn pack<T: Kernel, const W: usize, const B: usize, const OP: u8>(
                values: &[T; 1024],
                reference: T,
                bases: &[T],
                out: &mut [u8],
            ) -> T {
                let out: &mut [u8; B] = (&mut out[..B]).try_into().unwrap();
                T::pack::<W, B, OP>(values, reference, bases, out)
            }

            /// # Safety
            /// The CPU has the level's features.
            $(#[target_feature(enable = $features)])?
            pub(super) unsafe fn unpack<T: Kernel, const W: usize, const B: usize, const OP: u8>(
                input: &[u8],
                reference: T,
                bases: &[T],
                out: &mut [T; 1024],
            ) {
                let input: &[u8; B] = input[..B].try_into().unwrap();
                T::unpack::<W, B, OP>(input, reference, bases, out)
            }
        }
    };
}

level!(baseline);
#[cfg(target_arch = "x86_64")]
level!(sse41, "sse2,ssse3,sse4.1");
#[cfg(target_arch = "x86_64")]
level!(avx2, "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt");
#[cfg(target_arch = "x86_64")]
level!(
    avx512,
    "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
);

/// The kernel `$level::$f` of type `$t` and form `$op` for the width `$w`
/// (checked by the caller against the widths listed).
macro_rules! pick {
    ($level:ident::$f:ident as $fty:ident<$t:ty>, $op:ident, $w:expr; $($n:literal)*) => {
        match $w {
            $($n => $level::$f::<$t, $n, { 128 * $n }, { generic::$op }> as $fty<$t>,)*
            _ => unreachable!("the width is checked before a kernel runs"),
        }
    };
}

/// The kernel of form `$op` at level `$isa`.
macro_rules! by_level {
    ($f:ident as $fty:ident<$t:ty>, $isa:expr, $op:ident, $w:expr; $($n:literal)*) => {
        match $isa {
            #[cfg(target_arch = "x86_64")]
            Isa::Sse41 => pick!(sse41::$f as $fty<$t>, $op, $w; $($n)*),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => pick!(avx2::$f as $fty<$t>, $op, $w; $($n)*),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => pick!(avx512::$f as $fty<$t>, $op, $w; $($n)*),
            _ => pick!(baseline::$f as $fty<$t>, $op, $w; $($n)*),
        }
    };
}

/// The kernels of a word type, by level, form and width.
pub trait Tables: Sized {
    /// The packing kernel of `isa` (checked: the CPU has it), form `op`
    /// and width `w` (at most the type's bits).
    fn pack_fn(isa: Isa, op: u8, w: usize) -> PackFn<Self>;
    /// The unpacking kernel, likewise.
    fn unpack_fn(isa: Isa, op: u8, w: usize) -> UnpackFn<Self>;
}

/// Plain packing at every level; FoR and Delta at every level for u32
/// (the streams' type), at the baseline for the others, whose compiled
/// size would otherwise triple for forms that add one operation a value.
macro_rules! tables {
    ($t:ty, all; $($n:literal)*) => {
        impl Tables for $t {
            fn pack_fn(isa: Isa, op: u8, w: usize) -> PackFn<$t> {
                match op {
                    generic::PLAIN => by_level!(pack as PackFn<$t>, isa, PLAIN, w; $($n)*),
                    generic::FOR => by_level!(pack as PackFn<$t>, isa, FOR, w; $($n)*),
                    _ => by_level!(pack as PackFn<$t>, isa, DELTA, w; $($n)*),
                }
            }
            fn unpack_fn(isa: Isa, op: u8, w: usize) -> UnpackFn<$t> {
                match op {
                    generic::PLAIN => by_level!(unpack as UnpackFn<$t>, isa, PLAIN, w; $($n)*),
                    generic::FOR => by_level!(unpack as UnpackFn<$t>, isa, FOR, w; $($n)*),
                    _ => by_level!(unpack as UnpackFn<$t>, isa, DELTA, w; $($n)*),
                }
            }
        }
    };
    ($t:ty, plain; $($n:literal)*) => {
        impl Tables for $t {
            fn pack_fn(isa: Isa, op: u8, w: usize) -> PackFn<$t> {
                match op {
                    generic::PLAIN => by_level!(pack as PackFn<$t>, isa, PLAIN, w; $($n)*),
                    generic::FOR => pick!(baseline::pack as PackFn<$t>, FOR, w; $($n)*),
                    _ => pick!(baseline::pack as PackFn<$t>, DELTA, w; $($n)*),
                }
            }
            fn unpack_fn(isa: Isa, op: u8, w: usize) -> UnpackFn<$t> {
                match op {
                    generic::PLAIN => by_level!(unpack as UnpackFn<$t>, isa, PLAIN, w; $($n)*),
                    generic::FOR => pick!(baseline::unpack as UnpackFn<$t>, FOR, w; $($n)*),
                    _ => pick!(baseline::unpack as UnpackFn<$t>, DELTA, w; $($n)*),
                }
            }
        }
    };
}

tables!(u8, plain; 0 1 2 3 4 5 6 7 8);
tables!(u16, plain; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
tables!(u32, all; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
    31 32);
tables!(u64, plain; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
    31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61
    62 63 64);
