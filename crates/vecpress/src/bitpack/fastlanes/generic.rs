//! The FastLanes kernels, written once for every word type `T` and width
//! `W` (both constants), as plain loops that LLVM vectorises at the level
//! its caller is compiled for: the loop over lanes is the only loop left
//! once the rows are unrolled, and each of its steps reads and writes
//! consecutive words, so a register of lanes runs at once, whatever its
//! width (FastLanes, Afroozeh and Boncz, VLDB 2023, section 3).
//!
//! ```text
//! value index(row, lane) = FL_ORDER[row / 8] * 16 + (row % 8) * 128 + lane
//! lane `lane` packs its rows 0..BITS at bits row W .. row W + W of its W
//!     words; word k of lane l is word LANES k + l of the packed block
//!     pack:   word |= v << (row W mod BITS); a value crossing a word's
//!             end leaves its high bits in the next word
//!     unpack: v = (word >> (row W mod BITS)) (| next word's low bits), masked
//! FoR:   v - reference is packed; unpacking adds it back
//! Delta: each lane's rows are differences to the row before, row 0's to
//!        the lane's base; unpacking sums them down the lane (one add per
//!        value, in SIMD lanes)
//! ```
#![forbid(unsafe_code)]

use super::word::{Word, sealed::Sealed};

/// Plain packing.
pub(super) const PLAIN: u8 = 0;
/// Frame of reference: minus the reference.
pub(super) const FOR: u8 = 1;
/// Differences down each lane from the lane's base.
pub(super) const DELTA: u8 = 2;

/// The order of the 8 groups of rows within a lane's 1024-bit stripe, which
/// lets one layout serve every type width (the paper's unified transposed
/// layout).
pub(super) const FL_ORDER: [usize; 8] = [0, 4, 2, 6, 1, 5, 3, 7];

/// The index in a block of 1024 values of row `row` of lane `lane`.
#[inline(always)]
pub(super) const fn index(row: usize, lane: usize) -> usize {
    FL_ORDER[row / 8] * 16 + (row % 8) * 128 + lane
}

/// `W` low bits set (`W < T::BITS`).
#[inline(always)]
fn mask<T: Word>(w: usize) -> T {
    if w == 0 {
        T::ZERO
    } else {
        T::ONES >> (T::BITS - w)
    }
}

/// The kernels of one word type, with its rows unrolled.
pub trait Kernel: Sized {
    /// Packs the 1024 `values` in `W` bits each into `out` (`128 W` bytes):
    /// their differences to `reference` with [`FOR`], to the row before (row
    /// 0's to `bases[lane]`) with [`DELTA`]. Returns the OR of the values
    /// (differences) packed, computed in the same pass, so that the caller
    /// checks afterwards that each fitted in `W` bits (a value that did not
    /// leaves its high bits in its neighbours' places: the bytes are then
    /// wrong, and the caller discards them). At `W = BITS` every value fits
    /// and the OR is not kept: it returns zero.
    fn pack<const W: usize, const B: usize, const OP: u8>(
        values: &[Self; 1024],
        reference: Self,
        bases: &[Self],
        out: &mut [u8; B],
    ) -> Self;
    /// Unpacks 1024 values of `W` bits each from `input` (`128 W` bytes)
    /// into `out`, adding `reference` with [`FOR`], summing down each lane
    /// from `bases[lane]` with [`DELTA`].
    fn unpack<const W: usize, const B: usize, const OP: u8>(
        input: &[u8; B],
        reference: Self,
        bases: &[Self],
        out: &mut [Self; 1024],
    );
}

/// [`Kernel`] for `$t`, whose rows are `$r`: each step's shifts and word
/// indices are constants when it compiles.
macro_rules! kernel {
    ($t:ty; $($r:literal)*) => {
        impl Kernel for $t {
        #[inline(always)]
        #[allow(unused_assignments)] // the carry of the last row and the lane sum of the last row go unread
        fn pack<const W: usize, const B: usize, const OP: u8>(
            values: &[$t; 1024],
            reference: $t,
            bases: &[$t],
            out: &mut [u8; B],
        ) -> $t {
            let bases = &bases[..if OP == DELTA { <$t as Word>::LANES } else { 0 }];
            let mut fit = <$t as Word>::ZERO;
            for lane in 0..<$t as Word>::LANES {
                let mut prev = if OP == DELTA { bases[lane] } else { <$t as Word>::ZERO };
                let mut acc = <$t as Word>::ZERO;
                $({
                    const R: usize = $r;
                    let v = values[index(R, lane)];
                    let v = match OP {
                        FOR => v.sub(reference),
                        DELTA => {
                            let d = v.sub(prev);
                            prev = v;
                            d
                        }
                        _ => v,
                    };
                    if W == 0 {
                        fit |= v;
                    } else if W == <$t as Word>::BITS {
                        v.store(out, (<$t as Word>::LANES * R + lane) * <$t as Word>::SIZE);
                    } else {
                        fit |= v;
                        let shift = R * W % <$t as Word>::BITS;
                        acc = if shift == 0 { v } else { acc | v << shift };
                        let (word, next) = (R * W / <$t as Word>::BITS, (R + 1) * W / <$t as Word>::BITS);
                        if next > word {
                            acc.store(out, (<$t as Word>::LANES * word + lane) * <$t as Word>::SIZE);
                            let spill = (R + 1) * W % <$t as Word>::BITS;
                            acc = if spill == 0 { <$t as Word>::ZERO } else { v >> (W - spill) };
                        }
                    }
                })*
            }
            fit
        }

        #[inline(always)]
        #[allow(unused_assignments)] // the last row's running sum goes unread
        fn unpack<const W: usize, const B: usize, const OP: u8>(
            input: &[u8; B],
            reference: $t,
            bases: &[$t],
            out: &mut [$t; 1024],
        ) {
            if W == <$t as Word>::BITS && OP != DELTA {
                // Words are values: each row is a run of LANES consecutive
                // words to copy to a run of LANES consecutive values. Row
                // by row, that is a plain copy; lane by lane (below), LLVM
                // turns the strided rows into gathers.
                $({
                    const R: usize = $r;
                    let at = index(R, 0);
                    for lane in 0..<$t as Word>::LANES {
                        let v = <$t as Sealed>::load(input, (<$t as Word>::LANES * R + lane) * <$t as Word>::SIZE);
                        out[at + lane] = if OP == FOR { v.add(reference) } else { v };
                    }
                })*
                return;
            }
            let bases = &bases[..if OP == DELTA { <$t as Word>::LANES } else { 0 }];
            for lane in 0..<$t as Word>::LANES {
                let mut prev = if OP == DELTA { bases[lane] } else { <$t as Word>::ZERO };
                let mut src = if W == 0 || W == <$t as Word>::BITS {
                    <$t as Word>::ZERO
                } else {
                    <$t as Sealed>::load(input, lane * <$t as Word>::SIZE)
                };
                $({
                    const R: usize = $r;
                    let v = if W == 0 {
                        <$t as Word>::ZERO
                    } else if W == <$t as Word>::BITS {
                        <$t as Sealed>::load(input, (<$t as Word>::LANES * R + lane) * <$t as Word>::SIZE)
                    } else {
                        let (word, next) = (R * W / <$t as Word>::BITS, (R + 1) * W / <$t as Word>::BITS);
                        let shift = R * W % <$t as Word>::BITS;
                        if next > word {
                            let spill = (R + 1) * W % <$t as Word>::BITS;
                            let here = W - spill;
                            let mut v = (src >> shift) & mask::<$t>(here);
                            if next < W {
                                src = <$t as Sealed>::load(input, (<$t as Word>::LANES * next + lane) * <$t as Word>::SIZE);
                                if spill != 0 {
                                    v |= (src & mask::<$t>(spill)) << here;
                                }
                            }
                            v
                        } else {
                            (src >> shift) & mask::<$t>(W)
                        }
                    };
                    let v = match OP {
                        FOR => v.add(reference),
                        DELTA => {
                            prev = prev.add(v);
                            prev
                        }
                        _ => v,
                    };
                    out[index(R, lane)] = v;
                })*
            }
        }
        }
    };
}

kernel!(u8; 0 1 2 3 4 5 6 7);
kernel!(u16; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
kernel!(u32; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
kernel!(u64; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
    32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
