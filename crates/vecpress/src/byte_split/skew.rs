//! Streams that crowd the L1 cache: when more than 8 streams start in one
//! of its sets (streams a multiple of 4 KiB apart, as a count of values
//! that is a multiple of 4096 makes them), a step that loads a register of
//! each needs more lines of that set than it has ways. The decoders then
//! read the streams past the eighth [`SKEW`] steps ahead, through a ring
//! of registers on the stack (`decode_skewed` here for the 16-byte tiles,
//! `avx512::decode_skewed` for AVX-512). x86 only: the sets counted are
//! those of its L1.

use super::Source;
use super::generic::{array, build, each, tile_fits, transpose};
use crate::simd::Lanes;

/// Steps by which the streams past the eighth are read ahead of the others
/// when the streams crowd the L1 cache (see [`crowded`]): far enough that
/// the steps the CPU has in flight at once never need both groups' lines in
/// one set. No deeper: the ring holds `SKEW` steps of 8 registers in L1
/// (4 KiB of 512-bit ones), so a deeper skew takes more of the cache it
/// relieves.
pub(super) const SKEW: usize = 8;

/// Whether more than 8 of the first `width` streams start in one set of an
/// L1 cache of 64 sets of 64-byte lines (32 KiB, 8 ways): streams a
/// multiple of 4 KiB apart, as a count of values that is a multiple of 4096
/// makes them. A step that reads a register of each then needs more lines
/// of one set than it has ways, and each line is fetched again and again.
pub(super) fn crowded(src: &impl Source, width: usize) -> bool {
    let mut sets = [0u8; 64];
    (0..width).any(|j| {
        let set = &mut sets[(src.stream(j).as_ptr() as usize >> 6) & 63];
        *set += 1;
        *set > 8
    })
}

/// [`decode_tiles`](super::generic::decode_tiles) for crowded streams: the whole blocks, streams 8.. read
/// [`SKEW`] steps ahead into a ring of registers on the stack (in L1, in
/// sets of their own), so that the lines a step loads straight from the
/// streams are at most 8 of one set. Returns the values done (0 when the
/// blocks are too few to skew).
///
/// It runs for widths 12 to 16 on x86 (the sets [`crowded`] counts are
/// those of its L1): the wider, the more lines of one set a step would
/// otherwise need. At narrower widths the streams through the ring cost
/// more than the few extra lines of a set they spare (at 10, two streams
/// for two lines).
///
/// # Safety
/// As [`decode_tiles`](super::generic::decode_tiles); `9 <= width <= 16`.
#[inline(always)]
pub(super) unsafe fn decode_skewed<V: Lanes>(
    src: &impl Source,
    width: usize,
    out: &mut [u8],
) -> usize {
    let block = 16 * V::LANES;
    let n = out.len() / width;
    let mut steps = n / block;
    while steps > 0 && !tile_fits((steps - 1) * block, block, n, width) {
        steps -= 1;
    }
    if steps <= SKEW {
        return 0;
    }
    let upper = width - 8;
    // SAFETY: every load is of `block` bytes of a stream slice of that
    // length; the stores as in `decode_tiles`; the CPU has V's features.
    unsafe {
        let mut ring = [[V::zero(); 8]; SKEW];
        for (k, slot) in ring.iter_mut().enumerate() {
            for (j, reg) in slot.iter_mut().take(upper).enumerate() {
                *reg = V::load(src.stream(8 + j)[k * block..][..block].as_ptr());
            }
        }
        for k in 0..steps {
            let i = k * block;
            let slot = &mut ring[k % SKEW];
            let mut r: [V; 16] = build!(16, j => if j < 8 {
                V::load(src.stream(j)[i..i + block].as_ptr())
            } else {
                slot[j - 8]
            });
            if k + SKEW < steps {
                let ahead = i + SKEW * block;
                for (j, reg) in slot.iter_mut().take(upper).enumerate() {
                    *reg = V::load(src.stream(8 + j)[ahead..ahead + block].as_ptr());
                }
            }
            transpose(&mut r, 1);
            let end = ((i + block - 1) * width + 16).max((i + block) * width);
            let dst = out[i * width..end].as_mut_ptr();
            for h in 0..V::LANES {
                each!(r, (v, x) => x.store_lane(h, dst.add((16 * h + v) * width)));
            }
        }
    }
    steps * block
}
