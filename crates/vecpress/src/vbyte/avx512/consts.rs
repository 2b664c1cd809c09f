//! The loop-invariant registers of the AVX-512 VByte decoder, and the
//! index tables they load, computed by `const fn`.
#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::LANES;
use crate::simd::tiny_gaps::TinyGaps;

/// Byte `4k + j` of each 32-bit lane `k` is `k`: broadcasts byte `k` of a
/// vector to the four bytes of lane `k` through `vpermb`.
pub(super) const fn lane_broadcast() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i / 4) as u8;
        i += 1;
    }
    t
}

/// Byte `4k + j` is `j`: the offset of byte `j` within its value.
pub(super) const fn lane_offsets() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i % 4) as u8;
        i += 1;
    }
    t
}

/// Byte `k` is `k`.
pub(super) const fn iota() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = i as u8;
        i += 1;
    }
    t
}

pub(super) static LANE_BROADCAST: [u8; 64] = lane_broadcast();

pub(super) static LANE_OFFSETS: [u8; 64] = lane_offsets();

pub(super) static IOTA: [u8; 64] = iota();

/// The loop-invariant registers.
pub(super) struct Consts {
    pub(super) broadcast: [__m512i; 4],
    pub(super) offsets: __m512i,
    pub(super) iota: __m512i,
    pub(super) low7: __m512i,
    pub(super) stops: __m512i,
    pub(super) w7: __m512i,
    pub(super) w14: __m512i,
    /// `vpermd` indices: lane 3 into lanes 4..8, lane 11 into lanes 12..16.
    pub(super) quads: __m512i,
    /// `vpermd` indices: lane 7 everywhere.
    pub(super) lane7: __m512i,
    /// `vpermd` indices: lane 15 everywhere.
    pub(super) lane15: __m512i,
    /// The lanes that get the pair, quad and octet sums.
    pub(super) masks: [__mmask16; 3],
    /// Delta decoding of 64 one-byte gaps below 32.
    pub(super) tiny: TinyGaps,
}

/// Index vectors and masks that must reach the kernel as opaque values:
/// with constant `vpermd` indices or constant masks, LLVM turns each one-uop
/// permute or masked add into two shuffles on the same port, which made the
/// delta path shuffle-bound. They are loaded through a pointer the optimiser
/// cannot see through ([`Consts::new`]).
#[repr(C, align(64))]
struct Indexes {
    quads: [u32; 16],
    lane7: [u32; 16],
    lane15: [u32; 16],
    masks: [u16; 3],
}

/// Every lane `k`.
const fn lanes(k: u32) -> [u32; 16] {
    [k; 16]
}

/// Lane `i` takes the last lane of the quad before its own (lanes 4..8 take
/// lane 3, lanes 12..16 lane 11); the others are masked off.
const fn quads() -> [u32; 16] {
    let mut t = [0u32; 16];
    let mut i = 0;
    while i < 16 {
        if i % 8 >= 4 {
            t[i] = (i - i % 4 - 1) as u32;
        }
        i += 1;
    }
    t
}

static INDEXES: Indexes = Indexes {
    quads: quads(),
    lane7: lanes(7),
    lane15: lanes(15),
    // Lanes that get the pair, quad and octet sums in `prefix_sum`.
    masks: [0xcccc, 0xf0f0, 0xff00],
};

impl Consts {
    /// # Safety
    /// The CPU must have AVX-512F.
    #[inline(always)]
    pub(super) unsafe fn new() -> Consts {
        // One opaque pointer, so each index vector is one load (not a
        // constant the optimiser may rewrite, nor a store and reload).
        let t: &Indexes = core::hint::black_box(&INDEXES);
        let v = |a: &[u32; 16]| {
            // SAFETY: 64 readable bytes; unaligned load; AVX-512F per the caller.
            unsafe { _mm512_loadu_si512(a.as_ptr().cast()) }
        };
        // SAFETY: each table is 64 readable bytes; unaligned loads; AVX-512F per the caller.
        unsafe {
            Consts {
                broadcast: {
                    let b = _mm512_loadu_si512(LANE_BROADCAST.as_ptr().cast());
                    let step = _mm512_set1_epi8(LANES as i8);
                    let b1 = _mm512_add_epi8(b, step);
                    let b2 = _mm512_add_epi8(b1, step);
                    [b, b1, b2, _mm512_add_epi8(b2, step)]
                },
                offsets: _mm512_loadu_si512(LANE_OFFSETS.as_ptr().cast()),
                iota: _mm512_loadu_si512(IOTA.as_ptr().cast()),
                low7: _mm512_set1_epi8(0x7f),
                // The high bit of bytes 0..2 of a lane (byte 3 always ends
                // what a lane holds).
                stops: _mm512_set1_epi32(0x0080_8080),
                // maddubs: unsigned weights times signed 7-bit bytes: b0 + 128 * b1.
                w7: _mm512_set1_epi16(0x8001u16 as i16),
                // madd: pairs of 14-bit halves: h0 + 2^14 * h1.
                w14: _mm512_set1_epi32(0x4000_0001),
                quads: v(&t.quads),
                lane7: v(&t.lane7),
                lane15: v(&t.lane15),
                masks: t.masks,
                tiny: TinyGaps::new(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_tables_read_as_their_definitions() {
        // Recomputed the slow, obvious way.
        for i in 0..16 {
            let want = match i {
                4..=7 => 3,
                12..=15 => 11,
                _ => 0,
            };
            assert_eq!(INDEXES.quads[i], want);
        }
    }
}
