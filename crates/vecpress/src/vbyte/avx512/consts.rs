//! The loop-invariant registers of the AVX-512 VByte decoder, and the
//! index tables they load, computed by `const fn`.
#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

use super::LANES;

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
    /// `vpermd` indices: lane 14 (the low half of qword 7) everywhere.
    pub(super) lane14: __m512i,
    /// The lanes that get the pair, quad and octet sums.
    pub(super) masks: [__mmask16; 3],
    /// Bits that a gap below 32 leaves clear.
    pub(super) small: __m512i,
    /// `vpermq` indices (lanes 0.. zeroed by masks): qword i - 1, i - 2, i - 4.
    pub(super) qword_shifts: [__m512i; 3],
    /// `vpermd` indices: qword 2q's low half into lanes 0..8, 2q + 1's into 8..16.
    pub(super) qword_carries: [__m512i; 4],
    /// `vpermb` indices: byte 16q + k into lane k (its other bytes are zeroed).
    pub(super) low_bytes: [__m512i; 4],
}

impl Consts {
    /// # Safety
    /// The CPU must have AVX-512F.
    #[inline(always)]
    pub(super) unsafe fn new() -> Consts {
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
                // Hidden from the optimiser: with constant indices LLVM turns
                // each one-uop vpermd into two shuffles on the same port.
                quads: core::hint::black_box(_mm512_set_epi32(
                    11, 11, 11, 11, 0, 0, 0, 0, 3, 3, 3, 3, 0, 0, 0, 0,
                )),
                lane7: core::hint::black_box(_mm512_set1_epi32(7)),
                lane15: core::hint::black_box(_mm512_set1_epi32(15)),
                lane14: core::hint::black_box(_mm512_set1_epi32(14)),
                // Hidden too, or the masked adds become adds and blends.
                masks: core::hint::black_box([0xcccc, 0xf0f0, 0xff00]),
                small: _mm512_set1_epi8(0xe0u8 as i8),
                qword_shifts: core::hint::black_box([
                    _mm512_set_epi64(6, 5, 4, 3, 2, 1, 0, 0),
                    _mm512_set_epi64(5, 4, 3, 2, 1, 0, 0, 0),
                    _mm512_set_epi64(3, 2, 1, 0, 0, 0, 0, 0),
                ]),
                qword_carries: core::hint::black_box([
                    _mm512_set_epi32(2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0),
                    _mm512_set_epi32(6, 6, 6, 6, 6, 6, 6, 6, 4, 4, 4, 4, 4, 4, 4, 4),
                    _mm512_set_epi32(10, 10, 10, 10, 10, 10, 10, 10, 8, 8, 8, 8, 8, 8, 8, 8),
                    _mm512_set_epi32(
                        14, 14, 14, 14, 14, 14, 14, 14, 12, 12, 12, 12, 12, 12, 12, 12,
                    ),
                ]),
                low_bytes: core::hint::black_box([
                    _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                    _mm512_set_epi32(
                        31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                    ),
                    _mm512_set_epi32(
                        47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
                    ),
                    _mm512_set_epi32(
                        63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
                    ),
                ]),
            }
        }
    }
}
