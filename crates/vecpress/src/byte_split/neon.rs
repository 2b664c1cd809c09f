//! aarch64 kernels: the transposition of `generic.rs` on Neon registers
//! (`zip1`/`zip2` at each element size, `tbl` for the byte shuffles); widths
//! 2 and 4 use the structure loads and stores instead, which split and join
//! interleaved bytes in one instruction (`ld2`/`ld4`, `st2`/`st4`).

use core::arch::aarch64::*;

use super::generic::{self, Vector};
use super::{Sink, Source};

impl Vector for uint8x16_t {
    const LANES: usize = 1;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: Neon is the caller's promise (trait contract).
        unsafe { vdupq_n_u8(0) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: 16 readable bytes at `p` (trait contract).
        unsafe { vld1q_u8(p) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: 16 writable bytes at `p` (trait contract).
        unsafe { vst1q_u8(p, self) }
    }
    #[inline(always)]
    unsafe fn load_lanes(p: *const u8, _stride: usize) -> Self {
        // SAFETY: as `load`: one lane.
        unsafe { vld1q_u8(p) }
    }
    #[inline(always)]
    unsafe fn store_lane(self, _h: usize, p: *mut u8) {
        // SAFETY: as `store`: one lane.
        unsafe { vst1q_u8(p, self) }
    }
    #[inline(always)]
    unsafe fn zip_lo(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: Neon is the caller's promise; reinterpretations are free.
        unsafe {
            match e {
                1 => vzip1q_u8(a, b),
                2 => vreinterpretq_u8_u16(vzip1q_u16(
                    vreinterpretq_u16_u8(a),
                    vreinterpretq_u16_u8(b),
                )),
                4 => vreinterpretq_u8_u32(vzip1q_u32(
                    vreinterpretq_u32_u8(a),
                    vreinterpretq_u32_u8(b),
                )),
                _ => vreinterpretq_u8_u64(vzip1q_u64(
                    vreinterpretq_u64_u8(a),
                    vreinterpretq_u64_u8(b),
                )),
            }
        }
    }
    #[inline(always)]
    unsafe fn zip_hi(a: Self, b: Self, e: usize) -> Self {
        // SAFETY: Neon is the caller's promise; reinterpretations are free.
        unsafe {
            match e {
                1 => vzip2q_u8(a, b),
                2 => vreinterpretq_u8_u16(vzip2q_u16(
                    vreinterpretq_u16_u8(a),
                    vreinterpretq_u16_u8(b),
                )),
                4 => vreinterpretq_u8_u32(vzip2q_u32(
                    vreinterpretq_u32_u8(a),
                    vreinterpretq_u32_u8(b),
                )),
                _ => vreinterpretq_u8_u64(vzip2q_u64(
                    vreinterpretq_u64_u8(a),
                    vreinterpretq_u64_u8(b),
                )),
            }
        }
    }
    #[inline(always)]
    unsafe fn shuffle(self, table: &[u8; 16]) -> Self {
        // SAFETY: Neon is the caller's promise; `table` is 16 readable bytes.
        unsafe { vqtbl1q_u8(self, vld1q_u8(table.as_ptr())) }
    }
}

generic::kernels!(
    level,
    uint8x16_t,
    "neon",
    "The transposition on Neon registers."
);

/// Splits a prefix of the values of `input` into `out`; returns how many.
///
/// # Safety
/// The CPU must have Neon; `input` holds `out.n()` values of `width` bytes.
#[target_feature(enable = "neon")]
pub(super) unsafe fn encode_neon(input: &[u8], width: usize, out: &mut impl Sink) -> usize {
    let n = out.n();
    let mut i = 0;
    match width {
        2 => {
            while i + 16 <= n {
                // SAFETY: 32 readable bytes (16 values of 2) at value i.
                let v = unsafe { vld2q_u8(input[2 * i..2 * (i + 16)].as_ptr()) };
                // SAFETY: each stream slice is 16 writable bytes.
                unsafe {
                    vst1q_u8(out.stream(0)[i..i + 16].as_mut_ptr(), v.0);
                    vst1q_u8(out.stream(1)[i..i + 16].as_mut_ptr(), v.1);
                }
                i += 16;
            }
            i
        }
        4 => {
            while i + 16 <= n {
                // SAFETY: 64 readable bytes (16 values of 4) at value i.
                let v = unsafe { vld4q_u8(input[4 * i..4 * (i + 16)].as_ptr()) };
                // SAFETY: each stream slice is 16 writable bytes.
                unsafe {
                    vst1q_u8(out.stream(0)[i..i + 16].as_mut_ptr(), v.0);
                    vst1q_u8(out.stream(1)[i..i + 16].as_mut_ptr(), v.1);
                    vst1q_u8(out.stream(2)[i..i + 16].as_mut_ptr(), v.2);
                    vst1q_u8(out.stream(3)[i..i + 16].as_mut_ptr(), v.3);
                }
                i += 16;
            }
            i
        }
        // SAFETY: the caller's promises are those of the generic kernels.
        _ => unsafe { level::encode(input, width, out) },
    }
}

/// Joins a prefix of the values of `out` from `src`; returns how many.
///
/// # Safety
/// The CPU must have Neon; `out` holds a whole number of `width`-byte values
/// and every stream of `src` one byte each.
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_neon(src: &impl Source, width: usize, out: &mut [u8]) -> usize {
    let n = out.len() / width;
    let mut i = 0;
    match width {
        2 => {
            while i + 16 <= n {
                // SAFETY: each stream slice is 16 readable bytes; 32 writable
                // bytes (16 values of 2) at value i.
                unsafe {
                    let v = uint8x16x2_t(
                        vld1q_u8(src.stream(0)[i..i + 16].as_ptr()),
                        vld1q_u8(src.stream(1)[i..i + 16].as_ptr()),
                    );
                    vst2q_u8(out[2 * i..2 * (i + 16)].as_mut_ptr(), v);
                }
                i += 16;
            }
            i
        }
        4 => {
            while i + 16 <= n {
                // SAFETY: each stream slice is 16 readable bytes; 64 writable
                // bytes (16 values of 4) at value i.
                unsafe {
                    let v = uint8x16x4_t(
                        vld1q_u8(src.stream(0)[i..i + 16].as_ptr()),
                        vld1q_u8(src.stream(1)[i..i + 16].as_ptr()),
                        vld1q_u8(src.stream(2)[i..i + 16].as_ptr()),
                        vld1q_u8(src.stream(3)[i..i + 16].as_ptr()),
                    );
                    vst4q_u8(out[4 * i..4 * (i + 16)].as_mut_ptr(), v);
                }
                i += 16;
            }
            i
        }
        // SAFETY: the caller's promises are those of the generic kernels.
        _ => unsafe { level::decode(src, width, out) },
    }
}
