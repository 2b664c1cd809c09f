//! The portable transposition, in tiles that stay in L1.
//!
//! This is the reference every kernel is tested against, and the path that
//! finishes what a kernel leaves. A byte-at-a-time loop over the whole input
//! per stream would read the input `width` times from memory; here a tile of
//! [`TILE`] bytes of values is read once from memory, then `width` times
//! from L1, each pass writing one stream sequentially.
#![forbid(unsafe_code)]

use super::{Sink, Source};

/// Bytes of values per tile: the tile and its streams fit in a 32 KiB L1.
const TILE: usize = 8 * 1024;

/// Values per tile for a width.
fn tile_values(width: usize) -> usize {
    (TILE / width).max(16)
}

/// Splits values `from..` of `input` (a whole number of `width`-byte values)
/// into the streams of `out`.
pub(super) fn encode(input: &[u8], width: usize, out: &mut impl Sink, from: usize) {
    let n = out.n();
    let step = tile_values(width);
    let mut i = from;
    while i < n {
        let m = step.min(n - i);
        let tile = &input[i * width..(i + m) * width];
        for j in 0..width {
            let dst = &mut out.stream(j)[i..i + m];
            for (d, value) in dst.iter_mut().zip(tile.chunks_exact(width)) {
                *d = value[j];
            }
        }
        i += m;
    }
}

/// Joins values `from..` into `out` (a whole number of `width`-byte values)
/// from the streams of `src`.
pub(super) fn decode(src: &impl Source, width: usize, out: &mut [u8], from: usize) {
    let n = out.len() / width;
    let step = tile_values(width);
    let mut i = from;
    while i < n {
        let m = step.min(n - i);
        let tile = &mut out[i * width..(i + m) * width];
        for j in 0..width {
            let s = &src.stream(j)[i..i + m];
            for (value, &b) in tile.chunks_exact_mut(width).zip(s) {
                value[j] = b;
            }
        }
        i += m;
    }
}
