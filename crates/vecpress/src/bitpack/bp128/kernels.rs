//! The compiled kernels and the choice among them: [`generic`] for every lane count, width and form,
//! each its own function (one large function holding every width is more
//! than LLVM optimises in reasonable time).
//!
//! Four lanes are one 128-bit register, which the baseline of x86-64 (SSE2)
//! and of aarch64 (Neon) already has: the code compiled without extra
//! features is the 4-lane kernel below AVX-512 (at AVX2, for gaps a second
//! pass sums), and the 8-lane one below AVX2. AVX2 and AVX-512 run eight
//! lanes in one 256-bit register. Plain 4-lane blocks at AVX2 take
//! `avx2.rs`'s kernel, two lane vectors a 256-bit register with per-lane
//! shifts (only Zen 3's profile runs it by default, the CPU whose record
//! measures it faster: `perf/amd-25-1.md`, "BP128"; the others choose SSE4.1,
//! the baseline kernel). The AVX-512 level has `avx512.rs`'s kernel, sixteen
//! values a register, for four lanes, and for sorted blocks of either lane
//! count (whose running sum it computes in the same registers); plain 4-lane
//! blocks have a second form there, two lane vectors a 256-bit register with
//! immediate and funnel shifts, for CPUs whose profile chooses it
//! ([`crate::tune::bp128_halves`]: Zen 4, which splits 512-bit permutes in
//! two); plain 8-lane blocks stay with the AVX2 code, which unpacks them faster
//! on Intel's Sapphire Rapids than sixteen at a time (`perf/intel-6-207.md`,
//! "BP128"). At SSE4.1, sorted 4-lane blocks sum their gaps in the registers
//! they are unpacked in (`sse41.rs`), which saves a second pass's load and
//! store of every value; AVX2 keeps the second pass, so that `tune.rs` chooses
//! between the two per CPU (the one-pass form is measured faster on Zen 3 only:
//! `perf/amd-25-1.md`, "BP128").

use super::{Lanes, generic};
use crate::Isa;

type PackFn = unsafe fn(&[u32], u32, &mut [u8]);
type UnpackFn = unsafe fn(&[u8], &mut [u32]);
#[cfg(target_arch = "x86_64")]
type UnpackSortedFn = unsafe fn(&[u8], &mut [u32], u32);

#[cfg(target_arch = "x86_64")]
use super::{avx2, avx512, sse41};

/// Entry points of one level: the generic code under its features.
macro_rules! level {
    ($name:ident $(, $features:literal)?) => {
        mod $name {
            use super::generic;

            $(#[target_feature(enable = $features)])?
            pub(super) unsafe fn pack<const L: usize, const W: usize, const S: bool>(
                values: &[u32],
                initial: u32,
                out: &mut [u8],
            ) {
                generic::pack::<L, W, S>(values, initial, out)
            }

            $(#[target_feature(enable = $features)])?
            pub(super) unsafe fn unpack<const L: usize, const W: usize>(
                input: &[u8],
                out: &mut [u32],
            ) {
                generic::unpack::<L, W>(input, out);
            }
        }
    };
}

level!(baseline);

/// The function of `$level::$op` for lanes `$l` (and form `$s`) at the
/// width `$w` (0..=32, checked by the caller), as a `$ty` pointer.
macro_rules! pick {
    ($level:ident::$op:ident::<$l:literal $(, $s:ident)?>($w:expr) as $ty:ty) => {
        pick!(@arms ($w, $ty) [$level::$op, $l, $($s)?]; 0 1 2 3 4 5 6 7 8 9 10 11 12
            13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
    };
    (@arms ($w:expr, $ty:ty) $f:tt; $($n:literal)*) => {
        match $w {
            $($n => pick!(@one $f, $n) as $ty,)*
            _ => unreachable!("the width is checked before a kernel runs"),
        }
    };
    (@one [$level:ident::$op:ident, $l:literal, $($s:ident)?], $n:literal) => {
        $level::$op::<$l, $n $(, $s)?>
    };
}

/// Whether `isa` runs eight lanes at AVX2.
#[cfg(target_arch = "x86_64")]
fn wide(isa: Isa, lanes: Lanes) -> bool {
    lanes == Lanes::X8 && matches!(isa, Isa::Avx2 | Isa::Avx512)
}

/// Packs with the kernel of `isa` (checked by the caller).
pub(super) fn pack<const S: bool>(
    isa: Isa,
    lanes: Lanes,
    values: &[u32],
    initial: u32,
    width: usize,
    out: &mut [u8],
) {
    let _ = isa; // one 4-lane kernel serves every level; so do 8 lanes off x86
    let f = match lanes {
        #[cfg(target_arch = "x86_64")]
        Lanes::X8 if wide(isa, lanes) => pick!(avx2::pack_generic::<8, S>(width) as PackFn),
        Lanes::X8 => pick!(baseline::pack::<8, S>(width) as PackFn),
        Lanes::X4 => pick!(baseline::pack::<4, S>(width) as PackFn),
    };
    // SAFETY: the AVX2 function is picked only for a level that
    // `Isa::best()`, `Isa::check()` or `tune::isa()` gave, so the CPU has AVX2; the
    // others need no more than the target's baseline. Each checks its
    // slices' bounds.
    unsafe { f(values, initial, out) }
}

/// Unpacks with the kernel of `isa` (checked by the caller), in the
/// form this CPU's profile chooses for plain 4-lane blocks at AVX-512
/// ([`crate::tune::bp128_halves`], read only there: this runs per block).
pub(super) fn unpack(isa: Isa, lanes: Lanes, input: &[u8], width: usize, out: &mut [u32]) {
    let halves = if isa == Isa::Avx512 && lanes == Lanes::X4 {
        match crate::tune::bp128_halves_known() {
            Some(halves) => halves,
            None => return unpack_reading_profile(isa, lanes, input, width, out),
        }
    } else {
        false
    };
    unpack_form(isa, halves, lanes, input, width, out);
}

/// [`unpack`] on the first call that reads the profile.
#[cold]
#[inline(never)]
fn unpack_reading_profile(isa: Isa, lanes: Lanes, input: &[u8], width: usize, out: &mut [u32]) {
    unpack_form(isa, crate::tune::bp128_halves(), lanes, input, width, out);
}

/// [`unpack`] in a given form: with `halves`, plain 4-lane blocks at
/// AVX-512 unpack two lane vectors a 256-bit register
/// (`avx512::unpack_halves`), else sixteen values a 512-bit one. Plain
/// 8-lane blocks take the AVX2 code in either form: a funnel shift
/// for each 8-lane vector that crosses a word runs slower on Zen 4 than its
/// shift, shift and or (`perf/amd-25-17.md`, "BP128").
pub(super) fn unpack_form(
    isa: Isa,
    halves: bool,
    lanes: Lanes,
    input: &[u8],
    width: usize,
    out: &mut [u32],
) {
    let _ = (isa, halves); // as in `pack`
    let f = match lanes {
        #[cfg(target_arch = "x86_64")]
        Lanes::X4 if isa == Isa::Avx512 && halves => {
            pick!(avx512::unpack_halves::<4>(width) as UnpackFn)
        }
        #[cfg(target_arch = "x86_64")]
        Lanes::X4 if isa == Isa::Avx512 => pick!(avx512::unpack::<4>(width) as UnpackFn),
        #[cfg(target_arch = "x86_64")]
        Lanes::X4 if isa == Isa::Avx2 => pick!(avx2::unpack::<4>(width) as UnpackFn),
        #[cfg(target_arch = "x86_64")]
        Lanes::X8 if wide(isa, lanes) => pick!(avx2::unpack_generic::<8>(width) as UnpackFn),
        Lanes::X8 => pick!(baseline::unpack::<8>(width) as UnpackFn),
        Lanes::X4 => pick!(baseline::unpack::<4>(width) as UnpackFn),
    };
    // SAFETY: as in `pack`; the AVX-512 function is picked only for
    // the `Avx512` level, which has every feature it enables.
    unsafe { f(input, out) }
}

/// [`unpack`] for gaps that a second pass sums: at AVX2, four lanes
/// keep the 128-bit baseline kernel here, the path the records of the
/// CPUs that sum at AVX2 measured (the 256-bit kernel is measured on
/// plain blocks alone).
pub(super) fn unpack_gaps(isa: Isa, lanes: Lanes, input: &[u8], width: usize, out: &mut [u32]) {
    #[cfg(target_arch = "x86_64")]
    if lanes == Lanes::X4 && isa == Isa::Avx2 {
        return unpack(Isa::Sse41, lanes, input, width, out);
    }
    unpack(isa, lanes, input, width, out);
}

/// Unpacks a sorted block with the kernel of `isa` (checked by the
/// caller), summing its gaps from `initial`: in the same pass at the
/// AVX-512 level and, for four lanes, at SSE4.1; in a second pass over
/// the block otherwise.
pub(super) fn unpack_sorted(
    isa: Isa,
    lanes: Lanes,
    input: &[u8],
    width: usize,
    out: &mut [u32],
    initial: u32,
) {
    #[cfg(target_arch = "x86_64")]
    if isa == Isa::Avx512 {
        let f = match lanes {
            Lanes::X4 => pick!(avx512::unpack_sorted::<4>(width) as UnpackSortedFn),
            Lanes::X8 => pick!(avx512::unpack_sorted::<8>(width) as UnpackSortedFn),
        };
        // SAFETY: the level came from `Isa::best()`, `Isa::check()` or `tune::isa()`:
        // the CPU has every feature the function enables. It checks its
        // slices' bounds.
        return unsafe { f(input, out, initial) };
    }
    #[cfg(target_arch = "x86_64")]
    if lanes == Lanes::X4 && isa == Isa::Sse41 {
        let f = pick!(sse41::unpack_sorted::<4>(width) as UnpackSortedFn);
        // SAFETY: the level came from `Isa::best()`, `Isa::check()` or `tune::isa()`:
        // the CPU has SSE4.1. The function checks its slices' bounds.
        return unsafe { f(input, out, initial) };
    }
    unpack_gaps(isa, lanes, input, width, out);
    running_sum(isa, &mut out[..lanes.block_len()], initial);
}

/// Replaces the gaps of `out` (a whole block) by their running sum from
/// `initial`: sixteen at a time at the AVX-512 level, four at a time in
/// a vector at the SSE4.1, AVX2 and Neon levels (one add on the chain
/// from one vector to the next), one at a time below them. The sums are
/// bound by shuffles (three for four values in 128-bit steps, five for
/// sixteen in 512-bit ones), not by the adds.
pub(super) fn running_sum(isa: Isa, out: &mut [u32], initial: u32) {
    debug_assert!(out.len().is_multiple_of(16));
    #[cfg(target_arch = "x86_64")]
    if isa == Isa::Avx512 {
        // SAFETY: the level came from `Isa::best()`, `Isa::check()` or `tune::isa()`:
        // the CPU has AVX-512 F and BW.
        return unsafe { avx512::running_sum(out, initial) };
    }
    #[cfg(target_arch = "x86_64")]
    if isa != Isa::Scalar {
        // SAFETY: every level above scalar that `Isa::best()`,
        // `Isa::check()` or `tune::isa()` gives has SSSE3 and SSE4.1.
        return unsafe { sse41::running_sum(out, initial) };
    }
    #[cfg(target_arch = "aarch64")]
    if isa == Isa::Neon {
        // SAFETY: the level was checked: the CPU has Neon.
        return unsafe { super::neon::running_sum(out, initial) };
    }
    let _ = isa;
    generic::running_sum(out, initial);
}

/// The running sum of `out` in place from `initial`, four values a vector
/// (one add on the chain from one vector to the next): the SSE4.1 and Neon
/// levels' `running_sum`.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `out.len()` is a multiple of 4.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
pub(super) unsafe fn running_sum_in<V: crate::simd::Vector>(out: &mut [u32], initial: u32) {
    // SAFETY: registers only; the caller's features.
    let mut acc = unsafe { V::splat_u32(initial) };
    for four in out.chunks_exact_mut(4) {
        // SAFETY: `four` is 16 bytes, read and written in place; the
        // caller's features.
        unsafe {
            let sums = V::load(four.as_ptr().cast()).prefix_sum_u32();
            sums.add_u32(acc).store(four.as_mut_ptr().cast());
            acc = acc.add_u32(sums.splat_last_u32());
        }
    }
}
