//! aarch64 kernels: the transposition of `generic.rs` on Neon registers
//! (`zip1`/`zip2` at each element size, `tbl` for the byte shuffles); widths
//! 2 and 4 use the structure loads and stores instead, which split and join
//! interleaved bytes in one instruction (`ld2`/`ld4`, `st2`/`st4`).

use core::arch::aarch64::*;

use super::generic;
use super::{Sink, Source};

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
