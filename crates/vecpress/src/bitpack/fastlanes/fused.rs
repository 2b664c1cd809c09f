//! Delta decoding of a u32 block straight into natural order: unpacking,
//! the running sum down each lane and the un-transposition in one pass, with
//! no block-sized buffer between them.
//!
//! Lane `l` of a transposed u32 block holds the 32 consecutive values from
//! `64 (l % 16) + 32 (l / 16)` on, one a row; the lane-wise decode makes
//! rows, each a register of `N` lanes (one value of `N` different runs),
//! so the natural order is the transpose of the rows. A register of `N`
//! lanes is therefore kept through `N` rows as an `N x N` tile in
//! registers, transposed there (`log2 N` rounds of interleaving) and stored
//! as `N` runs of `N` consecutive values:
//!
//! ```text
//! lanes l0 .. l0 + N (l0 a multiple of N, N <= 16), rows r0 .. r0 + N:
//!     tile[r - r0][j] = value of lane l0 + j, row r
//!     stored: out[64 (l0 % 16 + j) + 32 (l0 / 16) + r] = tile[r - r0][j]
//! ```
//!
//! The arithmetic of a row (which word, which shift, whether a value
//! crosses a word's end) is the one of `generic.rs`, written over
//! `simd::u32s::U32s` so that each level's register width (SSE4.1's 4
//! lanes, AVX2's 8, AVX-512's 16) runs it; widths and rows are constants
//! when it compiles, so every shift is an immediate. Without a kernel (the scalar level,
//! Neon), [`delta_unpack_natural`] runs the plain kernel and the
//! un-transposition one after the other.

use super::BLOCK;
use crate::Isa;
#[cfg(target_arch = "x86_64")]
use crate::simd::u32s::U32s;

/// Lanes (and rows) of a u32 block.
const LANES: usize = 32;

/// The natural index of row 0 of lane `lane`: lanes 0..16 start the even
/// runs of 32 values, lanes 16..32 the odd ones.
#[cfg(target_arch = "x86_64")]
const fn run_start(lane: usize) -> usize {
    64 * (lane % 16) + 32 * (lane / 16)
}

/// Decodes a delta block of `width` bits (at most 32) from `input` (at
/// least `128 width` bytes), summing down each lane from `bases`, into
/// `out` in natural order: [`super::delta_unpack`] then
/// [`super::untranspose`].
pub(super) fn delta_unpack_natural(
    isa: Isa,
    input: &[u8],
    bases: &[u32; LANES],
    width: usize,
    out: &mut [u32; BLOCK],
) {
    assert!(width <= 32 && input.len() >= 128 * width);
    #[cfg(target_arch = "x86_64")]
    if let Some(f) = kernels::kernel(isa, width) {
        // SAFETY: `isa` is one the CPU has (callers take it from
        // `Isa::best()`, `Isa::check()` or `tune::isa()`); `input` holds the `128 width`
        // bytes the kernel reads (asserted above) and `out` the 1024 values
        // it writes.
        unsafe { f(input.as_ptr(), bases, out) };
        return;
    }
    let mut lanes = [0u32; BLOCK];
    super::delta_unpack_with(isa, input, bases, width as u8, &mut lanes)
        .expect("a checked width, input and level");
    super::untranspose(&lanes, out).expect("whole blocks");
}

/// Rows `$r` of the block, each a constant.
#[cfg(target_arch = "x86_64")]
macro_rules! rows {
    ($f:ident $args:tt; $($r:literal)*) => {
        $($f::<R, W, $r> $args;)*
    };
}

/// `w` low bits set.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
const fn mask(w: usize) -> u32 {
    if w >= 32 { u32::MAX } else { (1 << w) - 1 }
}

/// The decode of lanes `l0 .. l0 + N`, row `ROW`: unpacks the row's
/// differences (reading the lanes' next words into `src` where a value
/// crosses into them), adds them to `prev`, keeps the sums in the tile and
/// stores the tile, transposed, after its last row.
///
/// # Safety
/// As [`fused`]'s, for the lanes `l0 .. l0 + N`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn row<R: U32s, const W: usize, const ROW: usize>(
    input: *const u8,
    l0: usize,
    src: &mut R,
    prev: &mut R,
    tile: &mut R::Tile,
    out: *mut u32,
) {
    // SAFETY: word `k` of lanes `l0 .. l0 + N` is the `4 N` bytes at
    // `4 (32 k + l0)`, inside the `128 W` bytes of `input` for `k < W`
    // (only words below `W` are read); the tile's store is inside `out`
    // (see `fused`); the features are the caller's.
    unsafe {
        let v = if W == 0 {
            R::zero()
        } else if W == 32 {
            R::load(input.add(4 * (LANES * ROW + l0)))
        } else {
            let (word, next) = (ROW * W / 32, (ROW + 1) * W / 32);
            let shift = (ROW * W % 32) as u32;
            if next > word {
                let spill = (ROW + 1) * W % 32;
                let here = W - spill;
                let mut v = src.shr(shift);
                if next < W {
                    *src = R::load(input.add(4 * (LANES * next + l0)));
                    if spill != 0 {
                        v = v.or(src.and(mask(spill)).shl(here as u32));
                    }
                }
                v
            } else if shift == 0 {
                src.and(mask(W))
            } else {
                src.shr(shift).and(mask(W))
            }
        };
        *prev = prev.add(v);
        tile[ROW % R::N] = *prev;
        if (ROW + 1).is_multiple_of(R::N) {
            let first = ROW + 1 - R::N;
            R::store_transposed(tile, out.add(run_start(l0) + first), 64);
        }
    }
}

/// The fused decode of a block at width `W`, a register of lanes at a time.
///
/// # Safety
/// The CPU has `R`'s features; `input` is readable for `128 W` bytes,
/// `bases` holds 32 values and `out` is writable for 1024.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn fused<R: U32s, const W: usize>(input: *const u8, bases: &[u32; LANES], out: *mut u32) {
    for l0 in (0..LANES).step_by(R::N) {
        // SAFETY: `l0 + N <= 32` bases; word 0 of the lanes is inside
        // `input` when `W > 0`.
        let mut prev = unsafe { R::load(bases.as_ptr().add(l0).cast()) };
        let mut src = if W == 0 || W == 32 {
            // SAFETY: the features are the caller's.
            unsafe { R::zero() }
        } else {
            // SAFETY: as above.
            unsafe { R::load(input.add(4 * l0)) }
        };
        // SAFETY: the features are the caller's.
        let mut tile = unsafe { R::tile() };
        // SAFETY: the caller's ranges; `l0` is a multiple of `N` below 32.
        unsafe {
            rows!(row(input, l0, &mut src, &mut prev, &mut tile, out);
                0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod kernels;
