//! Delta decoding of 64 one-byte gaps, each below 32, in one 512-bit
//! register (AVX-512 F, BW, VBMI): the common case of dense posting lists,
//! shared by the VByte and Stream VByte AVX-512 decoders.
//!
//! Within each qword the eight byte-wide prefix sums cannot overflow (8 x 31
//! < 256), so three shift-and-add steps (shifts, not shuffles) compute them
//! for all 64 bytes at once; the qword totals get a prefix sum of their own
//! (three `vpermq`), added to each 16-value block with one `vpermd`. About
//! 12 shuffles for 64 values where a prefix sum per 16 values needs 20 or
//! more.
#![deny(unsafe_op_in_unsafe_fn)]

use core::arch::x86_64::*;

/// The low byte of each 32-bit lane.
const LOW_BYTES: u64 = 0x1111_1111_1111_1111;

/// The loop-invariant registers of [`TinyGaps::decode`].
#[derive(Clone, Copy)]
pub(crate) struct TinyGaps {
    /// Bits that a gap below 32 leaves clear.
    small: __m512i,
    /// `vpermd` indices: lane 14 (the low half of qword 7) everywhere.
    lane14: __m512i,
    /// `vpermq` indices (lanes 0.. zeroed by masks): qword i - 1, i - 2, i - 4.
    qword_shifts: [__m512i; 3],
    /// The qwords that take qword i - 1, i - 2, i - 4.
    qword_masks: [__mmask8; 3],
    /// `vpermd` indices: qword 2q's low half into lanes 0..8, 2q + 1's into 8..16.
    qword_carries: [__m512i; 4],
    /// `vpermb` indices: byte 16q + k into lane k (its other bytes are zeroed).
    low_bytes: [__m512i; 4],
}

/// Index vectors that must reach the kernels as opaque values: with
/// constant `vpermd`/`vpermq` indices or constant masks, LLVM turns a
/// one-uop permute or masked add into two shuffles on the same port. They
/// are loaded through a pointer the optimiser cannot see through
/// ([`TinyGaps::new`]).
#[repr(C, align(64))]
struct Indexes {
    lane14: [u32; 16],
    qword_shifts: [[u64; 8]; 3],
    qword_carries: [[u32; 16]; 4],
    low_bytes: [[u32; 16]; 4],
    qword_masks: [u8; 3],
}

static INDEXES: Indexes = Indexes {
    lane14: [14; 16],
    qword_shifts: [qword_shift(1), qword_shift(2), qword_shift(4)],
    qword_carries: [
        qword_carry(0),
        qword_carry(1),
        qword_carry(2),
        qword_carry(3),
    ],
    low_bytes: [low_bytes(0), low_bytes(1), low_bytes(2), low_bytes(3)],
    qword_masks: [0xfe, 0xfc, 0xf0],
};

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

impl TinyGaps {
    /// # Safety
    /// The CPU must have AVX-512 F.
    #[inline(always)]
    pub(crate) unsafe fn new() -> TinyGaps {
        // One opaque pointer, so each index vector is one load (not a
        // constant the optimiser may rewrite, nor a store and reload).
        let t: &Indexes = core::hint::black_box(&INDEXES);
        // SAFETY: each table is 64 readable bytes; unaligned loads; AVX-512 F
        // per the caller.
        unsafe {
            let v = |p: *const u8| _mm512_loadu_si512(p.cast());
            TinyGaps {
                small: _mm512_set1_epi8(0xe0u8 as i8),
                lane14: v(t.lane14.as_ptr().cast()),
                qword_shifts: [0, 1, 2].map(|k| v(t.qword_shifts[k].as_ptr().cast())),
                qword_masks: t.qword_masks,
                qword_carries: [0, 1, 2, 3].map(|q| v(t.qword_carries[q].as_ptr().cast())),
                low_bytes: [0, 1, 2, 3].map(|q| v(t.low_bytes[q].as_ptr().cast())),
            }
        }
    }

    /// Whether every byte of `window` is below 32.
    ///
    /// # Safety
    /// The CPU must have AVX-512 F and BW.
    #[inline(always)]
    pub(crate) unsafe fn fits(&self, window: __m512i) -> bool {
        // SAFETY: register-only; AVX-512 BW per the caller.
        unsafe { _mm512_test_epi8_mask(window, self.small) == 0 }
    }

    /// Writes the 64 gaps of `window` (each below 32: [`TinyGaps::fits`]) to
    /// `dst` as values: their running sum from `acc` (the previous value in
    /// every lane). Returns the new `acc`.
    ///
    /// # Safety
    /// The CPU must have AVX-512 F, BW and VBMI; `dst` must be valid for
    /// writing 64 u32.
    #[inline(always)]
    pub(crate) unsafe fn decode(&self, window: __m512i, acc: __m512i, dst: *mut u32) -> __m512i {
        // SAFETY: register-only intrinsics and four 64-byte stores inside
        // `dst`'s 64 values; the features are the caller's promise.
        unsafe {
            let x = _mm512_add_epi8(window, _mm512_slli_epi64::<8>(window));
            let x = _mm512_add_epi8(x, _mm512_slli_epi64::<16>(x));
            let x = _mm512_add_epi8(x, _mm512_slli_epi64::<32>(x));
            // Qword totals, then their inclusive prefix sum over the 8 qwords.
            let totals = _mm512_srli_epi64::<56>(x);
            let mut s = totals;
            for k in 0..3 {
                let shifted =
                    _mm512_maskz_permutexvar_epi64(self.qword_masks[k], self.qword_shifts[k], s);
                s = _mm512_add_epi64(s, shifted);
            }
            // What comes before each qword, plus the value before the window.
            let before = _mm512_add_epi32(_mm512_sub_epi64(s, totals), acc);
            for q in 0..4 {
                let v = _mm512_maskz_permutexvar_epi8(LOW_BYTES, self.low_bytes[q], x);
                let v =
                    _mm512_add_epi32(v, _mm512_permutexvar_epi32(self.qword_carries[q], before));
                _mm512_storeu_si512(dst.add(16 * q).cast(), v);
            }
            _mm512_add_epi32(acc, _mm512_permutexvar_epi32(self.lane14, s))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_tables_read_as_their_definitions() {
        // Recomputed the slow, obvious way.
        assert_eq!(INDEXES.lane14, [14; 16]);
        for i in 0..16 {
            for q in 0..4 {
                assert_eq!(INDEXES.low_bytes[q][i], (16 * q + i) as u32);
                assert_eq!(INDEXES.qword_carries[q][i], (2 * (2 * q + i / 8)) as u32);
            }
        }
        for (k, by) in [1, 2, 4].into_iter().enumerate() {
            for i in by..8 {
                assert_eq!(INDEXES.qword_shifts[k][i], (i - by) as u64);
            }
            // The qwords below `by` take nothing.
            assert_eq!(INDEXES.qword_masks[k], 0xffu8 << by);
        }
    }
}
