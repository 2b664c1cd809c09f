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
    /// The qwords that take qword i - 1, i - 2, i - 4.
    pub(super) qword_masks: [__mmask8; 3],
    /// Bits that a gap below 32 leaves clear (the continuation bit among them:
    /// such a byte is a whole value).
    pub(super) small: __m512i,
    /// `vpermq` indices (lanes 0.. zeroed by masks): qword i - 1, i - 2, i - 4.
    pub(super) qword_shifts: [__m512i; 3],
    /// `vpermd` indices: qword 2q's low half into lanes 0..8, 2q + 1's into 8..16.
    pub(super) qword_carries: [__m512i; 4],
    /// `vpermb` indices: byte 16q + k into lane k (its other bytes are zeroed).
    pub(super) low_bytes: [__m512i; 4],
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
    lane14: [u32; 16],
    lane15: [u32; 16],
    qword_shifts: [[u64; 8]; 3],
    qword_carries: [[u32; 16]; 4],
    low_bytes: [[u32; 16]; 4],
    masks: [u16; 3],
    qword_masks: [u8; 3],
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

/// Qword `i` takes qword `i - by` (lanes below `by` are masked off).
const fn qword_shift(by: usize) -> [u64; 8] {
    let mut t = [0u64; 8];
    let mut i = by;
    while i < 8 {
        t[i] = (i - by) as u64;
        i += 1;
    }
    t
}

/// Lanes 0..8 take the low half of qword `2q`, lanes 8..16 that of qword `2q + 1`.
const fn qword_carry(q: u32) -> [u32; 16] {
    let mut t = [0u32; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = 4 * q + if i < 8 { 0 } else { 2 };
        i += 1;
    }
    t
}

/// Lane `k` takes byte `16q + k` (as the low byte of a u32 index).
const fn low_bytes(q: u32) -> [u32; 16] {
    let mut t = [0u32; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = 16 * q + i as u32;
        i += 1;
    }
    t
}

static INDEXES: Indexes = Indexes {
    quads: quads(),
    lane7: lanes(7),
    lane14: lanes(14),
    lane15: lanes(15),
    qword_shifts: [qword_shift(1), qword_shift(2), qword_shift(4)],
    qword_carries: [
        qword_carry(0),
        qword_carry(1),
        qword_carry(2),
        qword_carry(3),
    ],
    low_bytes: [low_bytes(0), low_bytes(1), low_bytes(2), low_bytes(3)],
    // Lanes that get the pair, quad and octet sums in `prefix_sum`.
    masks: [0xcccc, 0xf0f0, 0xff00],
    // Qwords that take qword i - 1, i - 2, i - 4 in `tiny_gaps`.
    qword_masks: [0xfe, 0xfc, 0xf0],
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
        let q = |a: &[u64; 8]| {
            // SAFETY: as above.
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
                lane14: v(&t.lane14),
                masks: t.masks,
                qword_masks: t.qword_masks,
                small: _mm512_set1_epi8(0xe0u8 as i8),
                qword_shifts: [
                    q(&t.qword_shifts[0]),
                    q(&t.qword_shifts[1]),
                    q(&t.qword_shifts[2]),
                ],
                qword_carries: [
                    v(&t.qword_carries[0]),
                    v(&t.qword_carries[1]),
                    v(&t.qword_carries[2]),
                    v(&t.qword_carries[3]),
                ],
                low_bytes: [
                    v(&t.low_bytes[0]),
                    v(&t.low_bytes[1]),
                    v(&t.low_bytes[2]),
                    v(&t.low_bytes[3]),
                ],
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
            for q in 0..4 {
                assert_eq!(INDEXES.low_bytes[q][i], (16 * q + i) as u32);
                assert_eq!(INDEXES.qword_carries[q][i], (2 * (2 * q + i / 8)) as u32);
            }
        }
        for (k, by) in [1, 2, 4].into_iter().enumerate() {
            for i in by..8 {
                assert_eq!(INDEXES.qword_shifts[k][i], (i - by) as u64);
            }
        }
    }
}
