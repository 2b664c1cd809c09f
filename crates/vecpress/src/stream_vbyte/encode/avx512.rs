//! The AVX-512 encoder (standard format): sixteen values, four control
//! bytes, a step, with no tables.
//!
//! ```text
//! v = 16 values (with delta: v - [prev, v0, ..., v14], valignd)
//! y = v | v >> 8; y |= y >> 16         byte j of a lane: any of bytes j..3 of v set
//! keep = (y != 0 bytewise) | byte 0 of each lane     the bytes each value takes
//! data: vpcompressb(keep, v) stored whole at data[pos..]; pos += popcount(keep)
//! control: code_i = bits 1 + 2 + 3 of lane i's keep nibble (1111 -> 3):
//!     low bits = b1 ^ b2 ^ b3, high bits = b2 (pext), interleaved by pdep
//! ```
//!
//! The loop-carried chain is one add (`pos += popcount`). The step stores 64
//! bytes, so it runs while 64 bytes of output remain; the SSE4.1 encoder,
//! then the scalar one, finish.

use core::arch::x86_64::*;

/// Byte 0 of each 32-bit lane: every value takes at least one byte.
const FIRST_BYTES: u64 = 0x1111_1111_1111_1111;

/// Encodes whole steps of 16 `values` while 64 bytes of `data` remain;
/// returns (control bytes, data bytes) written. With `DELTA`, stores the
/// gaps from `*prev`, updated to the last value encoded.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `control.len() >= values.len() / 4`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(crate) unsafe fn encode<const DELTA: bool>(
    values: &[u32],
    control: &mut [u8],
    data: &mut [u8],
    prev: &mut u32,
) -> (usize, usize) {
    let steps = values.len() / 16;
    assert!(control.len() >= 4 * steps);
    let (mut pos, mut step) = (0, 0);
    let mut last = _mm512_set1_epi32(*prev as i32);
    while step < steps && data.len() - pos >= 64 {
        // SAFETY: 16 values at 16 * step are inside `values` (step < steps);
        // 64 bytes at `pos` are inside `data` (checked above); the CPU has the
        // Avx512 level's features, BMI2 and POPCNT.
        let (len, codes) = unsafe {
            let v = _mm512_loadu_si512(values.as_ptr().add(16 * step).cast());
            let x = if DELTA {
                let before = _mm512_alignr_epi32::<15>(v, last);
                last = v;
                _mm512_sub_epi32(v, before)
            } else {
                v
            };
            let y = _mm512_or_si512(x, _mm512_srli_epi32::<8>(x));
            let y = _mm512_or_si512(y, _mm512_srli_epi32::<16>(y));
            let keep = _mm512_test_epi8_mask(y, y) | FIRST_BYTES;
            let packed = _mm512_maskz_compress_epi8(keep, x);
            _mm512_storeu_si512(data.as_mut_ptr().add(pos).cast(), packed);
            let b1 = _pext_u64(keep, 0x2222_2222_2222_2222);
            let b2 = _pext_u64(keep, 0x4444_4444_4444_4444);
            let b3 = _pext_u64(keep, 0x8888_8888_8888_8888);
            let codes = _pdep_u64(b1 ^ b2 ^ b3, 0x5555_5555) | _pdep_u64(b2, 0xaaaa_aaaa);
            (keep.count_ones() as usize, codes as u32)
        };
        control[4 * step..4 * step + 4].copy_from_slice(&codes.to_le_bytes());
        pos += len;
        step += 1;
    }
    if DELTA && step > 0 {
        *prev = values[16 * step - 1];
    }
    (4 * step, pos)
}
