//! The SIMD transposition, written once over a small [`Vector`] trait that
//! SSE4.1 and AVX2 (`x86.rs`) and Neon (`neon.rs`) implement.
//!
//! A register is one or more 16-byte lanes; every operation but the loads
//! and stores stays within a lane, so an AVX2 register runs two 16-value
//! problems side by side. A block is `16 * LANES` values; lane `h` of a
//! register covers values `16h..16h + 16` of the block.
//!
//! Both directions are a transposition of `K x K` elements of `E` bytes held
//! in `K` registers, done by the perfect shuffle (Eklundh): `log2(K)` rounds
//! of
//!
//! ```text
//! r'[2i]     = zip_lo_E(r[i], r[i + K/2])      // interleave the low halves
//! r'[2i + 1] = zip_hi_E(r[i], r[i + K/2])      // and the high halves
//! ```
//!
//! (a round rotates the bits of (row, column) by one; `log2(K)` rounds swap
//! them). Each round is one `punpck*` / `zip1`/`zip2` per register.
//!
//! * Widths 2, 4, 8: a block is `K` registers of values. A byte shuffle
//!   within each lane ([`GROUP`]) gathers the bytes of each stream: `K`
//!   elements of `E = 16 / K` bytes; the transposition then leaves stream
//!   `j`'s bytes of the block in register `j`, one store each. Decoding runs
//!   the same steps backwards ([`UNGROUP`] last).
//! * Every other width: 16 x 16 byte tiles. Register `r` holds 16 bytes of
//!   value `r` (columns `c..c + 16`, an unaligned load at the value's start
//!   plus `c`), the transposition (`E = 1`, four rounds) leaves column `j`
//!   of the 16 values in register `j`: 16 bytes of stream `c + j`. Widths
//!   above 16 take their columns 16 at a time, the last tile overlapping
//!   the one before it; widths below 16 load 16 bytes per value (reaching
//!   into the next values, so the loop stops a few values early) and keep
//!   `K` registers. Decoding loads `K` streams (zeros for the rest), and
//!   stores each value's 16 bytes in increasing order, each store covering
//!   the spill of the one before.

use super::tables::{GROUP, UNGROUP};
use super::{Sink, Source};

/// The operations the transposition needs, on a register of `LANES` lanes
/// of 16 bytes.
///
/// # Safety
/// Every method needs the CPU features of its implementation; callers are
/// `#[target_feature]` kernels that have them. Pointers must be valid for
/// the bytes each method says it reads or writes.
pub(super) trait Vector: Copy {
    /// 16-byte lanes per register.
    const LANES: usize;
    /// All zeros.
    unsafe fn zero() -> Self;
    /// Reads `16 * LANES` bytes at `p`.
    unsafe fn load(p: *const u8) -> Self;
    /// Writes `16 * LANES` bytes at `p`.
    unsafe fn store(self, p: *mut u8);
    /// Reads lane `h` from the 16 bytes at `p + h * stride`.
    unsafe fn load_lanes(p: *const u8, stride: usize) -> Self;
    /// Writes lane `h` to the 16 bytes at `p`.
    unsafe fn store_lane(self, h: usize, p: *mut u8);
    /// Interleaves the `e`-byte elements (e = 1, 2, 4, 8) of the low halves
    /// of each lane of `a` and `b`: `a0 b0 a1 b1 ...`.
    unsafe fn zip_lo(a: Self, b: Self, e: usize) -> Self;
    /// Like [`Vector::zip_lo`], for the high halves.
    unsafe fn zip_hi(a: Self, b: Self, e: usize) -> Self;
    /// Byte `p` of each lane becomes byte `table[p]` of that lane.
    unsafe fn shuffle(self, table: &[u8; 16]) -> Self;
}

/// The transposition of `K x K` elements of `e` bytes: `log2(K)` rounds of
/// the perfect shuffle.
///
/// # Safety
/// The CPU must have `V`'s features.
#[inline(always)]
unsafe fn transpose<V: Vector, const K: usize>(r: &mut [V; K], e: usize) {
    for _ in 0..K.trailing_zeros() {
        let prev = *r;
        for i in 0..K / 2 {
            // SAFETY: the caller guarantees the CPU features.
            unsafe {
                r[2 * i] = V::zip_lo(prev[i], prev[i + K / 2], e);
                r[2 * i + 1] = V::zip_hi(prev[i], prev[i + K / 2], e);
            }
        }
    }
}

/// Splits a prefix of the values of `input` into `out`; returns how many
/// (a multiple of the block). The scalar code does the rest.
///
/// # Safety
/// The CPU must have `V`'s features; `input` holds `out.n()` values of
/// `width` bytes.
#[inline(always)]
pub(super) unsafe fn encode<V: Vector>(input: &[u8], width: usize, out: &mut impl Sink) -> usize {
    debug_assert_eq!(input.len(), out.n() * width);
    // SAFETY: each arm only adds a constant width; the caller's promises carry over.
    unsafe {
        match width {
            2 => encode_pow2::<V, 2>(input, out),
            4 => encode_pow2::<V, 4>(input, out),
            8 => encode_pow2::<V, 8>(input, out),
            3 => encode_tiles::<V>(input, 3, out),
            5 => encode_tiles::<V>(input, 5, out),
            6 => encode_tiles::<V>(input, 6, out),
            7 => encode_tiles::<V>(input, 7, out),
            9 => encode_tiles::<V>(input, 9, out),
            10 => encode_tiles::<V>(input, 10, out),
            11 => encode_tiles::<V>(input, 11, out),
            12 => encode_tiles::<V>(input, 12, out),
            13 => encode_tiles::<V>(input, 13, out),
            14 => encode_tiles::<V>(input, 14, out),
            15 => encode_tiles::<V>(input, 15, out),
            16 => encode_tiles::<V>(input, 16, out),
            _ => encode_tiles::<V>(input, width, out),
        }
    }
}

/// Joins a prefix of the values of `out` from the streams of `src`; returns
/// how many (a multiple of the block).
///
/// # Safety
/// The CPU must have `V`'s features; `out` holds a whole number of values of
/// `width` bytes and every stream of `src` one byte per value.
#[inline(always)]
pub(super) unsafe fn decode<V: Vector>(src: &impl Source, width: usize, out: &mut [u8]) -> usize {
    // SAFETY: each arm only adds a constant width; the caller's promises carry over.
    unsafe {
        match width {
            2 => decode_pow2::<V, 2>(src, out),
            4 => decode_pow2::<V, 4>(src, out),
            8 => decode_pow2::<V, 8>(src, out),
            3 => decode_tiles::<V>(src, 3, out),
            5 => decode_tiles::<V>(src, 5, out),
            6 => decode_tiles::<V>(src, 6, out),
            7 => decode_tiles::<V>(src, 7, out),
            9 => decode_tiles::<V>(src, 9, out),
            10 => decode_tiles::<V>(src, 10, out),
            11 => decode_tiles::<V>(src, 11, out),
            12 => decode_tiles::<V>(src, 12, out),
            13 => decode_tiles::<V>(src, 13, out),
            14 => decode_tiles::<V>(src, 14, out),
            15 => decode_tiles::<V>(src, 15, out),
            16 => decode_tiles::<V>(src, 16, out),
            _ => decode_tiles::<V>(src, width, out),
        }
    }
}

/// Widths 2, 4, 8: a block is `K` registers of values.
///
/// # Safety
/// As [`encode`], with `width == K`.
#[inline(always)]
unsafe fn encode_pow2<V: Vector, const K: usize>(input: &[u8], out: &mut impl Sink) -> usize {
    let block = 16 * V::LANES;
    let group = &GROUP[K.trailing_zeros() as usize - 1];
    let n = out.n();
    let mut i = 0;
    while i + block <= n {
        let src = input[i * K..(i + block) * K].as_ptr();
        // SAFETY: lane h of register q reads bytes 16 * (K * h + q) .. +16 of
        // the block's `block * K` bytes in `src`; the CPU has V's features.
        let mut r: [V; K] = core::array::from_fn(|q| unsafe {
            V::load_lanes(src.add(16 * q), 16 * K).shuffle(group)
        });
        // SAFETY: the CPU has V's features.
        unsafe { transpose(&mut r, 16 / K) };
        for (j, v) in r.into_iter().enumerate() {
            let dst = out.stream(j)[i..i + block].as_mut_ptr();
            // SAFETY: `dst` points at `block` writable bytes.
            unsafe { v.store(dst) };
        }
        i += block;
    }
    i
}

/// The inverse of [`encode_pow2`].
///
/// # Safety
/// As [`decode`], with `width == K`.
#[inline(always)]
unsafe fn decode_pow2<V: Vector, const K: usize>(src: &impl Source, out: &mut [u8]) -> usize {
    let block = 16 * V::LANES;
    let ungroup = &UNGROUP[K.trailing_zeros() as usize - 1];
    let n = out.len() / K;
    let mut i = 0;
    while i + block <= n {
        // SAFETY: each stream slice is `block` readable bytes; the CPU has V's features.
        let mut r: [V; K] =
            core::array::from_fn(|j| unsafe { V::load(src.stream(j)[i..i + block].as_ptr()) });
        // SAFETY: the CPU has V's features.
        unsafe { transpose(&mut r, 16 / K) };
        let dst = out[i * K..(i + block) * K].as_mut_ptr();
        for (q, v) in r.into_iter().enumerate() {
            // SAFETY: lane h of register q goes to bytes 16 * (K * h + q) .. +16
            // of the block's `block * K` writable bytes at `dst`.
            unsafe {
                let v = v.shuffle(ungroup);
                for h in 0..V::LANES {
                    v.store_lane(h, dst.add(16 * (K * h + q)));
                }
            }
        }
        i += block;
    }
    i
}

/// Whether a block of values from `i` can be run: whole in the values, and
/// for widths below 16, the 16-byte access at the start of its last value
/// inside the `n * width` bytes.
#[inline(always)]
fn tile_fits(i: usize, block: usize, n: usize, width: usize) -> bool {
    i + block <= n && (i + block - 1) * width + 16 <= n * width
}

/// Column offsets of the tiles of a value: 0, 16, ... and, for widths above
/// 16 that are no multiple of it, `width - 16` last.
#[inline(always)]
fn columns(width: usize) -> impl Iterator<Item = usize> {
    let last = width.saturating_sub(16);
    (0..width.div_ceil(16)).map(move |t| (16 * t).min(last))
}

/// Any width, in 16 x 16 byte tiles.
///
/// # Safety
/// As [`encode`].
#[inline(always)]
unsafe fn encode_tiles<V: Vector>(input: &[u8], width: usize, out: &mut impl Sink) -> usize {
    let block = 16 * V::LANES;
    let n = out.n();
    let keep = width.min(16);
    let mut i = 0;
    while tile_fits(i, block, n, width) {
        let end = ((i + block - 1) * width + 16).max((i + block) * width);
        let src = input[i * width..end].as_ptr();
        for c in columns(width) {
            // SAFETY: lane h of register r reads 16 bytes at (16h + r) * width + c
            // of the block, which end by `end` (`tile_fits`, `columns`).
            let mut r: [V; 16] = core::array::from_fn(|r| unsafe {
                V::load_lanes(src.add(r * width + c), 16 * width)
            });
            // SAFETY: the CPU has V's features.
            unsafe { transpose(&mut r, 1) };
            for (j, v) in r.into_iter().take(keep).enumerate() {
                let dst = out.stream(c + j)[i..i + block].as_mut_ptr();
                // SAFETY: `dst` points at `block` writable bytes.
                unsafe { v.store(dst) };
            }
        }
        i += block;
    }
    i
}

/// The inverse of [`encode_tiles`].
///
/// # Safety
/// As [`decode`].
#[inline(always)]
unsafe fn decode_tiles<V: Vector>(src: &impl Source, width: usize, out: &mut [u8]) -> usize {
    let block = 16 * V::LANES;
    let n = out.len() / width;
    let keep = width.min(16);
    let mut i = 0;
    while tile_fits(i, block, n, width) {
        let end = ((i + block - 1) * width + 16).max((i + block) * width);
        let dst = out[i * width..end].as_mut_ptr();
        for c in columns(width) {
            // SAFETY: each stream slice is `block` readable bytes; the CPU has V's features.
            let mut r: [V; 16] = core::array::from_fn(|j| unsafe {
                if j < keep {
                    V::load(src.stream(c + j)[i..i + block].as_ptr())
                } else {
                    V::zero()
                }
            });
            // SAFETY: the CPU has V's features.
            unsafe { transpose(&mut r, 1) };
            // In increasing order of value, so that each store covers the
            // bytes the one before wrote past its value (widths below 16).
            for h in 0..V::LANES {
                for (v, x) in r.iter().enumerate() {
                    // SAFETY: 16 bytes at (16h + v) * width + c of the block,
                    // which end by `end` (`tile_fits`, `columns`).
                    unsafe { x.store_lane(h, dst.add((16 * h + v) * width + c)) };
                }
            }
        }
        i += block;
    }
    i
}
