//! The bit rows of one byte of the values and that byte's stream, turned
//! into each other in one pass, written once over the [`Lanes`] registers
//! of `crate::simd` (`__m128i` in `sse41.rs` and `__m256i` in `avx2.rs`, `uint8x16_t` in
//! `neon.rs`).
//!
//! Byte `j` of `8 r` values is 8 rows of `r` bytes (rows `8 j..8 j + 8` of
//! the block): bit `m` of row `b`'s byte `g` is bit `b` of value `8 g + m`.
//! A step takes 16 columns of the 8 rows a lane, one register per row, and
//! does two things in registers:
//!
//! * the 8 x 8 bit transposition of each column, across the 8 registers:
//!   three rounds that swap 1 x 1, 2 x 2 and 4 x 4 bit blocks between
//!   registers `b` and `b + d` (shifts of 16-bit elements, masked so that
//!   no bit crosses a byte), after which register `m` holds value `8 g +
//!   m`'s byte at byte `g`;
//! * the interleaving of those 8 registers, a byte from each in turn (three
//!   rounds of zips, as Byte Split's decoder joins 8 streams), which puts
//!   the 128 bytes of the stream in order.
//!
//! Encoding runs the same backwards: the 128 bytes are split into the 8
//! registers (a byte shuffle, then the 8 x 8 transposition of 2-byte
//! elements), then the bit transposition, which is its own inverse.
//!
//! For values of 2, 4 and 8 bytes, [`rows_to_values`] and
//! [`values_to_rows`] also join (split) the `K` streams in registers, as
//! Byte Split's narrow kernels do, so that the whole block is one pass;
//! other widths write the streams and let byte split join them.
//!
//! Against the three passes of byte split, word transposition and byte
//! split, this keeps the middle data in registers and trades the 8 x 8 bit
//! transposition of each 64-bit word (three rounds a register) for one that
//! runs across 8 registers (three rounds per 8 registers).

use crate::byte_split::{SPLIT, transpose};
use crate::simd::Lanes;

/// `[body(0), ..., body(7)]` with `$i` bound to each index, written out: a
/// closure (`core::array::from_fn`) would be a function of its own,
/// compiled without the kernel's target features unless inlined.
macro_rules! eight {
    ($i:ident => $body:expr) => {
        eight!(@ $i => $body; 0 1 2 3 4 5 6 7)
    };
    (@ $i:ident => $body:expr; $($n:literal)*) => {
        [$({
            let $i: usize = $n;
            $body
        }),*]
    };
}

/// Swaps the `d x d` bit blocks across the diagonal of each byte column of
/// registers `a` (rows `b`) and `c` (rows `b + d`): bit `m + d` of `a` and
/// bit `m` of `c`, for every `m` of the mask.
///
/// # Safety
/// The CPU must have `V`'s features.
#[inline(always)]
unsafe fn swap<V: Lanes, const D: i32>(a: &mut V, c: &mut V, mask: V) {
    // SAFETY: the caller guarantees the CPU features. The mask keeps the
    // bits `m` with `m & D == 0`, which drops every bit that the 16-bit
    // shift moved across a byte; shifted back, they stay in their byte.
    unsafe {
        let t = a.shr_u16::<D>().xor(*c).and(mask);
        *c = c.xor(t);
        *a = a.xor(t.shl_u16::<D>());
    }
}

/// The 8 x 8 bit transposition of every byte column of `x`: afterwards bit
/// `b` of register `m` is what bit `m` of register `b` was.
///
/// # Safety
/// The CPU must have `V`'s features.
#[inline(always)]
unsafe fn transpose_bits<V: Lanes>(x: &mut [V; 8]) {
    // SAFETY: the caller guarantees the CPU features.
    unsafe {
        let m = V::splat(0x55);
        let [x0, x1, x2, x3, x4, x5, x6, x7] = x;
        swap::<V, 1>(x0, x1, m);
        swap::<V, 1>(x2, x3, m);
        swap::<V, 1>(x4, x5, m);
        swap::<V, 1>(x6, x7, m);
        let m = V::splat(0x33);
        swap::<V, 2>(x0, x2, m);
        swap::<V, 2>(x1, x3, m);
        swap::<V, 2>(x4, x6, m);
        swap::<V, 2>(x5, x7, m);
        let m = V::splat(0x0f);
        swap::<V, 4>(x0, x4, m);
        swap::<V, 4>(x1, x5, m);
        swap::<V, 4>(x2, x6, m);
        swap::<V, 4>(x3, x7, m);
    }
}

/// Pairs each lane's byte `m` with its byte `8 + m` as 2-byte element `m`:
/// in a lane of the stream, which holds two columns of 8 values, that is
/// value `m`'s byte in both columns, the element that [`transpose`] then
/// gathers into register `m`.
const PAIRS: [u8; 16] = [0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15];

/// The 16 columns a lane from `c` of the 8 rows at `src` (each `r` bytes)
/// as their stream's bytes: lane `h` of register `k` holds the stream's
/// bytes `8 (c + 16 h) + 16 k..+ 16`.
///
/// # Safety
/// The CPU must have `V`'s features; bytes `b r + c..b r + c + 16 LANES`
/// of `src` are readable for every `b < 8`.
#[inline(always)]
unsafe fn step_stream<V: Lanes>(src: *const u8, r: usize, c: usize) -> [V; 8] {
    // SAFETY: the caller's promises.
    unsafe {
        let mut x: [V; 8] = eight!(b => V::load(src.add(b * r + c)));
        transpose_bits(&mut x);
        // Byte g of register m is the stream's byte 8 g + m: three rounds
        // interleave bytes, pairs and quads.
        // `p[2 a + s]`: registers 2 a and 2 a + 1, columns 8 s..8 s + 8.
        let p: [V; 8] = eight!(i => {
            let (a, b) = (x[i & !1], x[i | 1]);
            if i.is_multiple_of(2) {
                V::zip_lo(a, b, 1)
            } else {
                V::zip_hi(a, b, 1)
            }
        });
        // `q[4 h + t]`: registers 4 h..4 h + 4, columns 4 t..4 t + 4.
        let q: [V; 8] = eight!(i => {
            let (h, lo) = (i / 4 * 4, i % 4);
            let (a, b) = (p[h + lo / 2], p[h + 2 + lo / 2]);
            if lo.is_multiple_of(2) {
                V::zip_lo(a, b, 2)
            } else {
                V::zip_hi(a, b, 2)
            }
        });
        // `y[k]`: every register, columns 2 k and 2 k + 1.
        let y: [V; 8] = eight!(k => {
            let (a, b) = (q[k / 2], q[4 + k / 2]);
            if k.is_multiple_of(2) {
                V::zip_lo(a, b, 4)
            } else {
                V::zip_hi(a, b, 4)
            }
        });
        y
    }
}

/// The inverse of [`step_stream`]: writes the stream's bytes in `y` (lane
/// `h` of register `k` its bytes `8 (c + 16 h) + 16 k..+ 16`) to the 16
/// columns a lane from `c` of the 8 rows at `dst` (each `r` bytes).
///
/// # Safety
/// The CPU must have `V`'s features; bytes `b r + c..b r + c + 16 LANES`
/// of `dst` are writable for every `b < 8`.
#[inline(always)]
unsafe fn step_rows<V: Lanes>(y: [V; 8], dst: *mut u8, r: usize, c: usize) {
    // SAFETY: the caller's promises.
    unsafe {
        let mut x: [V; 8] = eight!(k => y[k].shuffle(&PAIRS));
        // Register k's element m (2 bytes) is value 8 g + m's byte for
        // g = 2 k, 2 k + 1: transposed, register m holds g = 0..16.
        transpose(&mut x, 2);
        transpose_bits(&mut x);
        for (b, v) in x.iter().enumerate() {
            v.store(dst.add(b * r + c));
        }
    }
}

/// Turns rows `0..8` of `rows` (8 rows of `r` bytes, `r = rows.len() / 8`)
/// into the `8 r` bytes of their stream at the start of `out`, 16 columns a
/// lane at a time; returns the columns done (the scalar code does the rest).
///
/// # Safety
/// The CPU must have `V`'s features; `out` holds at least `rows.len()` bytes.
#[inline(always)]
pub(super) unsafe fn rows_to_stream<V: Lanes>(rows: &[u8], out: &mut [u8]) -> usize {
    let r = rows.len() / 8;
    let step = 16 * V::LANES;
    assert!(out.len() >= 8 * r);
    let src = rows.as_ptr();
    let dst = out.as_mut_ptr();
    let mut c = 0;
    while c + step <= r {
        // SAFETY: register `b` reads bytes `b r + c..b r + c + step` of
        // `rows` (`c + step <= r`); lane `h` of register `k` goes to bytes
        // `8 (c + 16 h) + 16 k..+ 16` of `out`, below `8 (c + step) <= 8 r`.
        // The CPU has V's features (the caller's promise).
        unsafe {
            let y: [V; 8] = step_stream(src, r, c);
            for (k, v) in y.iter().enumerate() {
                for h in 0..V::LANES {
                    v.store_lane(h, dst.add(8 * (c + 16 * h) + 16 * k));
                }
            }
        }
        c += step;
    }
    c
}

/// The inverse of [`rows_to_stream`]: turns the `8 r` bytes of `stream`
/// into 8 rows of `r` bytes at the start of `rows` (which holds at least
/// `stream.len()` bytes); returns the columns done.
///
/// # Safety
/// The CPU must have `V`'s features; `stream.len()` is a multiple of 8.
#[inline(always)]
pub(super) unsafe fn stream_to_rows<V: Lanes>(stream: &[u8], rows: &mut [u8]) -> usize {
    let r = stream.len() / 8;
    let step = 16 * V::LANES;
    assert!(rows.len() >= 8 * r);
    let src = stream.as_ptr();
    let dst = rows.as_mut_ptr();
    let mut c = 0;
    while c + step <= r {
        // SAFETY: lane `h` of register `k` reads bytes `8 (c + 16 h) + 16
        // k..+ 16` of `stream`, below `8 (c + step) <= 8 r`; register `b`
        // goes to bytes `b r + c..b r + c + step` of `rows`. The CPU has V's
        // features (the caller's promise).
        unsafe {
            let y: [V; 8] = eight!(k => V::load_lanes(src.add(8 * c + 16 * k), 128));
            step_rows(y, dst, r, c);
        }
        c += step;
    }
    c
}

/// Turns the `8 K` bit rows of `rows` (each `rows.len() / (8 K)` bytes)
/// into values of `K` bytes at the start of `out`, in one pass; returns
/// the columns done.
///
/// # Safety
/// The CPU must have `V`'s features; `out` holds at least `rows.len()`
/// bytes; `K` is 2, 4 or 8.
#[inline(always)]
pub(super) unsafe fn rows_to_values<V: Lanes, const K: usize>(
    rows: &[u8],
    out: &mut [u8],
) -> usize {
    let r = rows.len() / (8 * K);
    let step = 16 * V::LANES;
    assert!(out.len() >= 8 * K * r);
    let src = rows.as_ptr();
    let dst = out.as_mut_ptr();
    let mut c = 0;
    while c + step <= r {
        // SAFETY: stream `j` reads rows `8 j..8 j + 8` of `rows` from
        // column `c` (`c + step <= r`); lane `h` of the registers of
        // column pair `k` goes to the values `8 (c + 16 h) + 16 k..+ 16`,
        // below `8 (c + step) <= 8 r`. The CPU has V's features.
        unsafe {
            let mut ys = [[V::zero(); 8]; K];
            for (j, y) in ys.iter_mut().enumerate() {
                *y = step_stream(src.add(8 * j * r), r, c);
            }
            for k in 0..8 {
                let mut o = [V::zero(); K];
                for (v, y) in o.iter_mut().zip(&ys) {
                    *v = y[k];
                }
                transpose(&mut o, 1);
                for (q, v) in o.iter().enumerate() {
                    for h in 0..V::LANES {
                        v.store_lane(h, dst.add(K * (8 * (c + 16 * h) + 16 * k) + 16 * q));
                    }
                }
            }
        }
        c += step;
    }
    c
}

/// The inverse of [`rows_to_values`]: values of `K` bytes into `8 K` bit
/// rows, in one pass; returns the columns done.
///
/// # Safety
/// The CPU must have `V`'s features; `rows` holds at least `values.len()`
/// bytes; `values.len()` is a multiple of `8 K`; `K` is 2, 4 or 8.
#[inline(always)]
pub(super) unsafe fn values_to_rows<V: Lanes, const K: usize>(
    values: &[u8],
    rows: &mut [u8],
) -> usize {
    let r = values.len() / (8 * K);
    let step = 16 * V::LANES;
    assert!(rows.len() >= 8 * K * r);
    let src = values.as_ptr();
    let dst = rows.as_mut_ptr();
    let per = 16 / K;
    let mut c = 0;
    while c + step <= r {
        // SAFETY: lane `h` of register `q` for column pair `k` reads the
        // `K` bytes of values `8 (c + 16 h) + 16 k + per q..+ per`, below
        // `8 (c + step) <= 8 r` values; stream `j` goes to rows `8 j..8 j +
        // 8` from column `c`. The CPU has V's features.
        unsafe {
            let mut ys = [[V::zero(); 8]; K];
            for k in 0..8 {
                let mut o = [V::zero(); K];
                for (q, v) in o.iter_mut().enumerate() {
                    *v = V::load_lanes(src.add(K * (8 * c + 16 * k) + 16 * q), 128 * K)
                        .shuffle(&SPLIT[K]);
                }
                transpose(&mut o, per);
                for (j, y) in ys.iter_mut().enumerate() {
                    y[k] = o[j];
                }
            }
            for (j, y) in ys.iter().enumerate() {
                step_rows(*y, dst.add(8 * j * r), r, c);
            }
        }
        c += step;
    }
    c
}

/// Instantiates the kernels above for one ISA level: a module `$name`
/// whose `KERNELS` holds them compiled with `$features` (for registers
/// `$V`), the entries of `mod.rs`'s dispatch.
macro_rules! kernels {
    ($name:ident, $V:ty, $features:literal, $doc:literal) => {
        #[doc = $doc]
        pub(super) mod $name {
            use super::*;
            use $crate::bit_split::Kernels;
            use $crate::bit_split::generic as g;

            /// The level's kernels, for `Kernels::of`.
            pub(in $crate::bit_split) static KERNELS: Kernels = Kernels {
                step: 16 * <$V as $crate::simd::Lanes>::LANES,
                rows_to_stream,
                stream_to_rows,
                rows_to_values,
                values_to_rows,
            };

            /// # Safety
            /// As `g::rows_to_stream`, with the level's features.
            #[target_feature(enable = $features)]
            unsafe fn rows_to_stream(rows: &[u8], out: &mut [u8]) -> usize {
                // SAFETY: the caller's promises.
                unsafe { g::rows_to_stream::<$V>(rows, out) }
            }

            /// # Safety
            /// As `g::stream_to_rows`, with the level's features.
            #[target_feature(enable = $features)]
            unsafe fn stream_to_rows(stream: &[u8], rows: &mut [u8]) -> usize {
                // SAFETY: the caller's promises.
                unsafe { g::stream_to_rows::<$V>(stream, rows) }
            }

            /// # Safety
            /// As `g::rows_to_values`, with the level's features; other
            /// widths than 2, 4 and 8 do nothing.
            #[target_feature(enable = $features)]
            unsafe fn rows_to_values(rows: &[u8], width: usize, out: &mut [u8]) -> usize {
                // SAFETY: the caller's promises; each arm passes the width it matched.
                unsafe {
                    match width {
                        2 => g::rows_to_values::<$V, 2>(rows, out),
                        4 => g::rows_to_values::<$V, 4>(rows, out),
                        8 => g::rows_to_values::<$V, 8>(rows, out),
                        _ => 0,
                    }
                }
            }

            /// # Safety
            /// As `g::values_to_rows`, with the level's features; other
            /// widths than 2, 4 and 8 do nothing.
            #[target_feature(enable = $features)]
            unsafe fn values_to_rows(values: &[u8], width: usize, rows: &mut [u8]) -> usize {
                // SAFETY: the caller's promises; each arm passes the width it matched.
                unsafe {
                    match width {
                        2 => g::values_to_rows::<$V, 2>(values, rows),
                        4 => g::values_to_rows::<$V, 4>(values, rows),
                        8 => g::values_to_rows::<$V, 8>(values, rows),
                        _ => 0,
                    }
                }
            }
        }
    };
}
pub(super) use kernels;
