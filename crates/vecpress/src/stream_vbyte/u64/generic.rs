//! The decoder, written once over a [`Group`]: how one ISA level turns a
//! control byte and its data into four u64 values. Every level runs this
//! loop; the 128-bit levels (SSE4.1, Neon) instantiate it with [`Pairs`]
//! over the [`Vector`] of `crate::simd`, the 256-bit ones (AVX2, AVX-512)
//! with their steps in `wide.rs`.
//!
//! ```text
//! while a whole control byte c remains and 32 data bytes remain at pos:
//!     x <- the 4 values of c from data + pos                // Group::group
//!     delta: x <- prefix sum of x, + last;  last <- x[3]
//!     store x;  pos += LENGTHS[c]
//! ```
//!
//! The data position advances by one table load and one add per control
//! byte (`LENGTHS[c]`); whatever else a group needs is off that chain. A
//! group reads only the 32 bytes at its start and writes its 4 values.
//!
//! [`Pairs`] builds a group from two 16-byte loads, one at each pair's
//! start, shuffled into two registers of two u64 lanes:
//!
//! ```text
//! a <- shuffle(load16(data + pos),               PAIR_SHUFFLE[c & 15])   // values 0, 1
//! b <- shuffle(load16(data + pos + len(c & 15)), PAIR_SHUFFLE[c >> 4])   // values 2, 3
//! delta: a += a << 64 lanes;  b += b << 64 lanes, + a's high lane;
//!        a += last;  b += last;  last += b's high lane (before the add)
//! ```

use core::marker::PhantomData;

use super::tables::LENGTHS;
use crate::simd::Vector;

/// How one level decodes the four values of a control byte.
pub(super) trait Group {
    /// The running sum in a register: the last value written, in every
    /// lane.
    type Last: Copy;

    /// The tables a group reads. The level's entry point names them and
    /// passes them down: a static named in a trait method is exported from
    /// the crate (rustc counts every trait method as reachable), and an
    /// exported table is addressed through the GOT, one load more per call.
    type Tables: Copy;

    /// `prev` in every lane.
    ///
    /// # Safety
    /// The CPU has the features of the implementing level.
    unsafe fn splat(prev: u64) -> Self::Last;

    /// The value of the running sum.
    ///
    /// # Safety
    /// The CPU has the features of the implementing level.
    unsafe fn value(last: Self::Last) -> u64;

    /// Writes the four values of control byte `c`, whose data starts at
    /// `data`, to `out`; with `DELTA`, their running sum from `*last`, and
    /// leaves its end in `*last`. The sum within the group does not wait
    /// for `*last`, so the loop-carried chain is one add.
    ///
    /// # Safety
    /// The 32 bytes at `data` are readable and the 4 values at `out`
    /// writable; `c < 256`; the CPU has the features of the implementing
    /// level.
    unsafe fn group<const DELTA: bool>(
        tables: Self::Tables,
        data: *const u8,
        c: usize,
        out: *mut u64,
        last: &mut Self::Last,
    );
}

/// Decodes whole control bytes while 32 data bytes remain; returns (data
/// bytes consumed, values produced). With `prev`, writes the running sum
/// from `*prev` and leaves the last value in it.
///
/// # Safety
/// The CPU has the features `G` needs.
#[inline(always)]
pub(super) unsafe fn decode_bulk<G: Group>(
    tables: G::Tables,
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: Option<&mut u64>,
) -> (usize, usize) {
    // SAFETY: the caller provides the features `G` needs.
    unsafe {
        match prev {
            Some(prev) => decode::<G, true>(tables, ctrl, data, out, prev),
            None => decode::<G, false>(tables, ctrl, data, out, &mut 0),
        }
    }
}

/// Decodes whole control bytes of `ctrl` (as many as `out` has room for 4
/// values each) while 32 bytes of `data` remain; returns (data bytes
/// consumed, values produced). With `DELTA`, writes the running sum from
/// `*prev` and leaves the last value written in `*prev`.
///
/// # Safety
/// The CPU has the features `G` needs.
#[inline(always)]
unsafe fn decode<G: Group, const DELTA: bool>(
    tables: G::Tables,
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: &mut u64,
) -> (usize, usize) {
    let groups = ctrl.len().min(out.len() / 4);
    let (mut pos, mut g) = (0, 0);
    // SAFETY: the caller provides the CPU features.
    let mut last = unsafe { G::splat(*prev) };
    while g < groups && pos + 32 <= data.len() {
        let c = ctrl[g] as usize;
        // SAFETY: data[pos..pos + 32] lies inside data (the loop
        // condition); c is a byte; out[4g..4g + 4] exists (g < out.len() /
        // 4); the caller provides the CPU features.
        unsafe {
            G::group::<DELTA>(
                tables,
                data.as_ptr().add(pos),
                c,
                out.as_mut_ptr().add(4 * g),
                &mut last,
            );
        }
        pos += LENGTHS[c] as usize;
        g += 1;
    }
    if DELTA {
        // SAFETY: the caller provides the CPU features.
        *prev = unsafe { G::value(last) };
    }
    (pos, 4 * g)
}

/// A group as two pairs of values, each shuffled into a 16-byte register.
pub(super) struct Pairs<V>(PhantomData<V>);

/// `PAIR_LENGTHS` and `PAIR_SHUFFLE`.
pub(super) type PairTables = (&'static [u8; 16], &'static [[u8; 16]; 16]);

impl<V: Vector> Group for Pairs<V> {
    type Last = V;
    type Tables = PairTables;

    #[inline(always)]
    unsafe fn splat(prev: u64) -> V {
        // SAFETY: the caller provides the CPU features.
        unsafe { V::splat_u64(prev) }
    }

    #[inline(always)]
    unsafe fn value(last: V) -> u64 {
        // SAFETY: the caller provides the CPU features.
        unsafe { last.low_u64() }
    }

    #[inline(always)]
    unsafe fn group<const DELTA: bool>(
        (pair_lengths, pair_shuffle): PairTables,
        data: *const u8,
        c: usize,
        out: *mut u64,
        last: &mut V,
    ) {
        let (lo, hi) = (c & 15, c >> 4);
        let mid = pair_lengths[lo] as usize;
        // SAFETY: both 16-byte loads end within the 32 readable bytes at
        // `data` (mid <= 16); each mask is a 16-byte table row; the 4
        // values at `out` are writable; the caller provides the features.
        unsafe {
            let mut a = V::load(data).shuffle(V::load(pair_shuffle[lo].as_ptr()));
            let mut b = V::load(data.add(mid)).shuffle(V::load(pair_shuffle[hi].as_ptr()));
            if DELTA {
                a = a.add_u64(a.shift_up_u64());
                b = b.add_u64(b.shift_up_u64()).add_u64(a.splat_high_u64());
                let total = b.splat_high_u64();
                a = a.add_u64(*last);
                b = b.add_u64(*last);
                *last = last.add_u64(total);
            }
            a.store(out.cast());
            b.store(out.add(2).cast());
        }
    }
}
