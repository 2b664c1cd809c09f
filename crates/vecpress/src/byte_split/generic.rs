//! The SIMD transposition, written once over the [`Lanes`] registers of
//! `crate::simd` (`__m128i` in `sse41.rs` and `__m256i` in `avx2.rs`, `uint8x16_t` in
//! `neon.rs`).
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
//! * Widths `k` of 2 to 8: padded to `P` = 4 or 8 (the next power of two),
//!   a lane holds `16 / P` values. A block is `P` registers, each loaded at
//!   a value's start (reaching into the next values for `k < P`, so the
//!   loop stops a few values early); a byte shuffle within each lane
//!   ([`SPLIT`]) gathers the bytes of each stream, `P` elements of `E =
//!   16 / P` bytes (zeros for the padding streams), and the transposition
//!   leaves stream `j`'s bytes of the block in register `j`, one store
//!   each. Decoding runs the same steps backwards ([`JOIN`] last), storing
//!   16 bytes per `16 / P` values in increasing order, each store covering
//!   the spill of the one before.
//! * Every other width: 16 x 16 byte tiles. Register `r` holds 16 bytes of
//!   value `r` (columns `c..c + 16`, an unaligned load at the value's start
//!   plus `c`), the transposition (`E = 1`, four rounds) leaves column `j`
//!   of the 16 values in register `j`: 16 bytes of stream `c + j`. Widths
//!   above 16 take their columns 16 at a time, the last tile overlapping
//!   the one before it; widths 9 to 15 load 16 bytes per value and keep
//!   `k` registers. Decoding loads `k` streams (zeros for the rest) and
//!   stores 16 bytes per value in increasing order.
//!
//! The encoders write each stream a cache line at a time through a small
//! buffer (see [`LINE`]). Each ISA file instantiates everything with
//! [`kernels`], which gives every shape of kernel a `#[target_feature]`
//! function of its own.

#[cfg(target_arch = "x86_64")]
use super::skew;
use super::tables::{JOIN, SPLIT};
use super::{Sink, Source};
use crate::simd::Lanes;

// The kernels' loops over registers are written out by these macros, not
// left to closures and loops: a closure is a function of its own, compiled
// without the kernel's target features unless inlined, and a loop over an
// array of registers may keep the array on the stack.

/// `[body(0), ..., body(K - 1)]` with `$q` bound to each index, for `K` =
/// 2, 4, 8 or 16, written out.
macro_rules! build {
    ($k:expr, $q:ident => $body:expr) => {
        match $k {
            2 => build!(@ $q => $body; 0 1),
            4 => build!(@ $q => $body; 0 1 2 3),
            8 => build!(@ $q => $body; 0 1 2 3 4 5 6 7),
            _ => build!(@ $q => $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15),
        }
    };
    (@ $q:ident => $body:expr; $($i:literal)*) => {
        array(&[$({
            let $q: usize = $i;
            $body
        }),*])
    };
}

/// `body` for each register `$v` of the array `$r` and its index `$j`, in
/// order, written out.
macro_rules! each {
    ($r:expr, ($j:ident, $v:ident) => $body:expr) => {
        each!(@ $r, $j, $v, $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@ $r:expr, $j:ident, $v:ident, $body:expr; $($i:literal)*) => {
        $(
            if let Some(&$v) = $r.get($i) {
                let $j: usize = $i;
                $body;
            }
        )*
    };
}

/// The first `K` registers of `s` (which holds exactly `K`) as an array.
#[inline(always)]
pub(super) fn array<V: Copy, const K: usize>(s: &[V]) -> [V; K] {
    s.try_into().expect("K registers")
}

/// The transposition of `K x K` elements of `e` bytes: `log2(K)` rounds of
/// the perfect shuffle.
///
/// # Safety
/// The CPU must have `V`'s features.
#[inline(always)]
pub(crate) unsafe fn transpose<V: Lanes, const K: usize>(r: &mut [V; K], e: usize) {
    #[inline(always)]
    unsafe fn round<V: Lanes, const K: usize>(r: &mut [V; K], e: usize) {
        let p = *r;
        // SAFETY: the caller guarantees the CPU features.
        *r = build!(K, q => unsafe {
            let (a, b) = (p[q / 2], p[q / 2 + K / 2]);
            if q.is_multiple_of(2) {
                V::zip_lo(a, b, e)
            } else {
                V::zip_hi(a, b, e)
            }
        });
    }
    // SAFETY: the caller guarantees the CPU features.
    unsafe {
        round(r, e);
        if K >= 4 {
            round(r, e);
        }
        if K >= 8 {
            round(r, e);
        }
        if K >= 16 {
            round(r, e);
        }
    }
}

/// Defines `pub(super) mod $name` with the kernels of one ISA level: one
/// `#[target_feature]` function per shape (narrow widths, 16-byte tiles of
/// each width 9 to 16, wider values), so that each is compiled with the
/// level's features and its registers in a frame of its own, and the
/// `encode`/`decode` entries that pick one by width.
macro_rules! kernels {
    ($name:ident, $V:ty, $features:literal, $doc:literal) => {
        #[doc = $doc]
        pub(super) mod $name {
            use super::*;
            use $crate::byte_split::generic as t;
            use $crate::byte_split::{Sink, Source};

            /// # Safety
            /// The CPU has the level's features; `input` holds `out.n()` values of `K` bytes.
            #[target_feature(enable = $features)]
            unsafe fn encode_narrow<const P: usize, const K: usize>(
                input: &[u8],
                out: &mut impl Sink,
            ) -> usize {
                // SAFETY: the caller's promises, with K <= P <= 2K (the dispatch).
                unsafe { t::encode_narrow::<$V, P>(input, K, out) }
            }

            /// # Safety
            /// The CPU has the level's features; `out` holds whole values of `K` bytes
            /// and every stream of `src` one byte per value.
            #[target_feature(enable = $features)]
            unsafe fn decode_narrow<const P: usize, const K: usize>(
                src: &impl Source,
                out: &mut [u8],
            ) -> usize {
                // SAFETY: the caller's promises, with K <= P <= 2K (the dispatch).
                unsafe { t::decode_narrow::<$V, P>(src, K, out) }
            }

            /// # Safety
            /// As `encode_narrow`, for values of `width` bytes.
            #[target_feature(enable = $features)]
            unsafe fn encode_tiles<const W: usize>(
                input: &[u8],
                width: usize,
                out: &mut impl Sink,
            ) -> usize {
                // SAFETY: the caller's promises; W is the width or 0 (any).
                unsafe { t::encode_tiles::<$V>(input, if W == 0 { width } else { W }, out) }
            }

            /// # Safety
            /// As `decode_narrow`, for values of `width` bytes.
            #[target_feature(enable = $features)]
            unsafe fn decode_tiles<const W: usize>(
                src: &impl Source,
                width: usize,
                out: &mut [u8],
            ) -> usize {
                // SAFETY: the caller's promises; W is the width or 0 (any).
                unsafe { t::decode_tiles::<$V>(src, if W == 0 { width } else { W }, out) }
            }

            /// Splits a prefix of the values of `input` (at least 2 bytes
            /// wide) into `out`; returns how many. The scalar code does the rest.
            ///
            /// # Safety
            /// The CPU has the level's features (see `isa.rs`); `input` holds
            /// `out.n()` values of `width` bytes.
            pub(in $crate::byte_split) unsafe fn encode(
                input: &[u8],
                width: usize,
                out: &mut impl Sink,
            ) -> usize {
                // SAFETY: the caller's promises; each arm passes the width it matched.
                unsafe {
                    match width {
                        2 => encode_narrow::<2, 2>(input, out),
                        3 => encode_narrow::<4, 3>(input, out),
                        4 => encode_narrow::<4, 4>(input, out),
                        5 => encode_narrow::<8, 5>(input, out),
                        6 => encode_narrow::<8, 6>(input, out),
                        7 => encode_narrow::<8, 7>(input, out),
                        8 => encode_narrow::<8, 8>(input, out),
                        9 => encode_tiles::<9>(input, width, out),
                        10 => encode_tiles::<10>(input, width, out),
                        11 => encode_tiles::<11>(input, width, out),
                        12 => encode_tiles::<12>(input, width, out),
                        13 => encode_tiles::<13>(input, width, out),
                        14 => encode_tiles::<14>(input, width, out),
                        15 => encode_tiles::<15>(input, width, out),
                        16 => encode_tiles::<16>(input, width, out),
                        _ => encode_tiles::<0>(input, width, out),
                    }
                }
            }

            /// Joins a prefix of the values of `out` (at least 2 bytes wide)
            /// from the streams of `src`; returns how many.
            ///
            /// # Safety
            /// The CPU has the level's features; `out` holds a whole number of
            /// values of `width` bytes and every stream of `src` one byte each.
            pub(in $crate::byte_split) unsafe fn decode(
                src: &impl Source,
                width: usize,
                out: &mut [u8],
            ) -> usize {
                // SAFETY: the caller's promises; each arm passes the width it matched.
                unsafe {
                    match width {
                        2 => decode_narrow::<2, 2>(src, out),
                        3 => decode_narrow::<4, 3>(src, out),
                        4 => decode_narrow::<4, 4>(src, out),
                        5 => decode_narrow::<8, 5>(src, out),
                        6 => decode_narrow::<8, 6>(src, out),
                        7 => decode_narrow::<8, 7>(src, out),
                        8 => decode_narrow::<8, 8>(src, out),
                        9 => decode_tiles::<9>(src, width, out),
                        10 => decode_tiles::<10>(src, width, out),
                        11 => decode_tiles::<11>(src, width, out),
                        12 => decode_tiles::<12>(src, width, out),
                        13 => decode_tiles::<13>(src, width, out),
                        14 => decode_tiles::<14>(src, width, out),
                        15 => decode_tiles::<15>(src, width, out),
                        16 => decode_tiles::<16>(src, width, out),
                        _ => decode_tiles::<0>(src, width, out),
                    }
                }
            }
        }
    };
}
#[cfg(target_arch = "x86_64")]
pub(super) use build; // also by the AVX-512 kernels and `skew.rs` (x86 only)
#[cfg(target_arch = "x86_64")]
pub(super) use each; // also by `skew.rs`
pub(super) use kernels;

/// Bytes of each stream the encoders write at once: a cache line. Written
/// a register at a time, a line of each of many streams would be fetched
/// twice or more when the streams map to the same L1 set (a stream length
/// that is a multiple of 4 KiB), so the registers of a line's blocks go to
/// a buffer first.
const LINE: usize = 64;

/// Whether a block of values from `i` can be run by the narrow kernels:
/// whole in the values, and the 16-byte access at its last lane's start
/// inside the `n * k` bytes.
#[inline(always)]
fn narrow_fits(i: usize, block: usize, per: usize, n: usize, k: usize) -> bool {
    i + block <= n && (i + block - per) * k + 16 <= n * k
}

/// Widths `k` of 2 to 8, padded to `P` (the next power of two): a block is
/// `P` registers of `16 / P` values a lane.
///
/// # Safety
/// The CPU must have `V`'s features; `input` holds `out.n()` values of
/// `k` bytes, and `k <= P <= 2 * k`.
#[inline(always)]
pub(super) unsafe fn encode_narrow<V: Lanes, const P: usize>(
    input: &[u8],
    k: usize,
    out: &mut impl Sink,
) -> usize {
    let block = 16 * V::LANES;
    let per = 16 / P;
    let split = &SPLIT[k];
    let n = out.n();
    // Stream j's bytes of the block of values i.., in register j.
    macro_rules! split {
        ($i:expr) => {{
            let i = $i;
            let src = input[i * k..(i + block - per) * k + 16].as_ptr();
            // SAFETY: lane h of register q reads the 16 bytes at value
            // 16h + per * q of the block, which end by the slice's end
            // (`narrow_fits`); the CPU has V's features.
            unsafe {
                let mut r: [V; P] =
                    build!(P, q => V::load_lanes(src.add(per * q * k), 16 * k).shuffle(split));
                transpose(&mut r, per);
                r
            }
        }};
    }
    let mut i = 0;
    let mut line = [[0u8; LINE]; P];
    while narrow_fits(i, LINE, per, n, k) {
        for g in 0..LINE / block {
            let r = split!(i + g * block);
            each!(r, (j, v) => if j < k {
                let dst = line[j][g * block..][..block].as_mut_ptr();
                // SAFETY: `dst` points at `block` writable bytes.
                unsafe { v.store(dst) }
            });
        }
        for (j, bytes) in line.iter().take(k).enumerate() {
            out.stream(j)[i..i + LINE].copy_from_slice(bytes);
        }
        i += LINE;
    }
    while narrow_fits(i, block, per, n, k) {
        let r = split!(i);
        each!(r, (j, v) => if j < k {
            let dst = out.stream(j)[i..i + block].as_mut_ptr();
            // SAFETY: `dst` points at `block` writable bytes.
            unsafe { v.store(dst) }
        });
        i += block;
    }
    i
}

/// The inverse of [`encode_narrow`].
///
/// # Safety
/// The CPU must have `V`'s features; `out` holds a whole number of values
/// of `k` bytes, every stream of `src` one byte per value; `k <= P <= 2 * k`.
#[inline(always)]
pub(super) unsafe fn decode_narrow<V: Lanes, const P: usize>(
    src: &impl Source,
    k: usize,
    out: &mut [u8],
) -> usize {
    let block = 16 * V::LANES;
    let per = 16 / P;
    let join = &JOIN[k];
    let n = out.len() / k;
    let mut i = 0;
    while narrow_fits(i, block, per, n, k) {
        // SAFETY: each stream slice is `block` readable bytes; the CPU has V's features.
        let mut r: [V; P] = build!(P, j => unsafe {
            if j < k {
                V::load(src.stream(j)[i..i + block].as_ptr())
            } else {
                V::zero()
            }
        });
        // SAFETY: the CPU has V's features.
        unsafe { transpose(&mut r, per) };
        let dst = out[i * k..(i + block - per) * k + 16].as_mut_ptr();
        // In increasing order of value, so that each store covers the bytes
        // the one before wrote past its values (widths below P).
        for h in 0..V::LANES {
            each!(r, (q, v) => {
                // SAFETY: 16 bytes at value 16h + per * q of the block, which
                // end by the slice's end (`narrow_fits`); the CPU has V's features.
                unsafe { v.shuffle(join).store_lane(h, dst.add((16 * h + per * q) * k)) }
            });
        }
        i += block;
    }
    i
}

/// Whether a block of values from `i` can be run: whole in the values, and
/// for widths below 16, the 16-byte access at the start of its last value
/// inside the `n * width` bytes.
#[inline(always)]
pub(super) fn tile_fits(i: usize, block: usize, n: usize, width: usize) -> bool {
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
/// The CPU must have `V`'s features; `input` holds `out.n()` values of
/// `width` bytes.
#[inline(always)]
pub(super) unsafe fn encode_tiles<V: Lanes>(
    input: &[u8],
    width: usize,
    out: &mut impl Sink,
) -> usize {
    let block = 16 * V::LANES;
    let n = out.n();
    let keep = width.min(16);
    // Streams c.. of the block of values i.., in registers 0..keep.
    macro_rules! split {
        ($i:expr, $c:expr) => {{
            let (i, c) = ($i, $c);
            let end = ((i + block - 1) * width + 16).max((i + block) * width);
            let src = input[i * width..end].as_ptr();
            // SAFETY: lane h of register r reads 16 bytes at (16h + r) * width + c
            // of the block, which end by `end` (`tile_fits`, `columns`); the CPU
            // has V's features.
            unsafe {
                let mut r: [V; 16] =
                    build!(16, r => V::load_lanes(src.add(r * width + c), 16 * width));
                transpose(&mut r, 1);
                r
            }
        }};
    }
    let mut i = 0;
    let mut line = [[0u8; LINE]; 16];
    while tile_fits(i, LINE, n, width) {
        for c in columns(width) {
            for g in 0..LINE / block {
                let r = split!(i + g * block, c);
                each!(r, (j, v) => {
                    let dst = line[j][g * block..][..block].as_mut_ptr();
                    // SAFETY: `dst` points at `block` writable bytes.
                    unsafe { v.store(dst) }
                });
            }
            for (j, bytes) in line.iter().take(keep).enumerate() {
                out.stream(c + j)[i..i + LINE].copy_from_slice(bytes);
            }
        }
        i += LINE;
    }
    while tile_fits(i, block, n, width) {
        for c in columns(width) {
            let r = split!(i, c);
            each!(r, (j, v) => {
                if j < keep {
                    let dst = out.stream(c + j)[i..i + block].as_mut_ptr();
                    // SAFETY: `dst` points at `block` writable bytes.
                    unsafe { v.store(dst) }
                }
            });
        }
        i += block;
    }
    i
}

/// The inverse of [`encode_tiles`].
///
/// # Safety
/// The CPU must have `V`'s features; `out` holds a whole number of values
/// of `width` bytes, every stream of `src` one byte per value.
#[inline(always)]
pub(super) unsafe fn decode_tiles<V: Lanes>(
    src: &impl Source,
    width: usize,
    out: &mut [u8],
) -> usize {
    let block = 16 * V::LANES;
    let n = out.len() / width;
    let keep = width.min(16);
    let mut i = 0;
    #[cfg(target_arch = "x86_64")]
    if (12..=16).contains(&width) && skew::crowded(src, width) {
        // SAFETY: the caller's promises, and 12 <= width <= 16.
        i = unsafe { skew::decode_skewed::<V>(src, width, out) };
    }
    while tile_fits(i, block, n, width) {
        let end = ((i + block - 1) * width + 16).max((i + block) * width);
        let dst = out[i * width..end].as_mut_ptr();
        for c in columns(width) {
            // SAFETY: each stream slice is `block` readable bytes; the CPU has V's features.
            let mut r: [V; 16] = build!(16, j => unsafe {
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
                each!(r, (v, x) => {
                    // SAFETY: 16 bytes at (16h + v) * width + c of the block,
                    // which end by `end` (`tile_fits`, `columns`).
                    unsafe { x.store_lane(h, dst.add((16 * h + v) * width + c)) }
                });
            }
        }
        i += block;
    }
    i
}
