//! The SSE4.1 encoder: four values a step, as the reference's x64 encoder.
//!
//! ```text
//! v = 4 values (with delta: v - [prev, v0, v1, v2], palignr)
//! le_t = movmskps(pcmpeqd(pminud(v, LIMITS[t]), v))   t = 0, 1, 2: v_i <= limit
//! code_i = #{t: v_i > LIMITS[t]}: low bit = odd count (le_0 ^ le_1 ^ le_2 ^ 0xf),
//!     high bit = v_i > LIMITS[1] (le_1 ^ 0xf)
//! key = SPREAD[low bits] | SPREAD[high bits] << 1
//! store pshufb(v, ENCODE[key]) at data[pos..pos + 16]; pos += LENGTH[key]
//! ```
//!
//! The step stores 16 bytes, so it runs while 16 bytes of output remain;
//! the scalar encoder finishes.

use core::arch::x86_64::*;

use crate::stream_vbyte::tables::{SPREAD, Variant};

/// Encodes whole groups of `values` while 16 bytes of `data` remain; returns
/// (control bytes, data bytes) written. With `DELTA`, stores the gaps from
/// `*prev`, updated to the last value encoded.
///
/// # Safety
/// The CPU has every feature of `Isa::Sse41`; `control.len() >= values.len() / 4`.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
pub(crate) unsafe fn encode<V: Variant, const DELTA: bool>(
    values: &[u32],
    control: &mut [u8],
    data: &mut [u8],
    prev: &mut u32,
) -> (usize, usize) {
    let groups = values.len() / 4;
    assert!(control.len() >= groups);
    let mut pos = 0;
    let mut key = 0;
    let limits = V::LIMITS.map(|l| _mm_set1_epi32(l as i32));
    let mut last = _mm_set1_epi32(*prev as i32);
    while key < groups && data.len() - pos >= 16 {
        // SAFETY: 4 values at 4 * key are inside `values` (key < groups); 16
        // bytes at `pos` are inside `data` (checked above); the CPU has SSE4.1.
        unsafe {
            let v = _mm_loadu_si128(values.as_ptr().add(4 * key).cast());
            let x = if DELTA {
                let shifted = _mm_alignr_epi8::<12>(v, last);
                last = v;
                _mm_sub_epi32(v, shifted)
            } else {
                v
            };
            let le = limits.map(|l| {
                _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_min_epu32(x, l), x))) as usize
            });
            let low = le[0] ^ le[1] ^ le[2] ^ 0xf;
            let high = le[1] ^ 0xf;
            let k = SPREAD[low] | SPREAD[high] << 1;
            let mask = _mm_loadu_si128(V::ENCODE[k as usize].as_ptr().cast());
            _mm_storeu_si128(data.as_mut_ptr().add(pos).cast(), _mm_shuffle_epi8(x, mask));
            control[key] = k;
            pos += V::LENGTH[k as usize] as usize;
        }
        key += 1;
    }
    if DELTA && key > 0 {
        *prev = values[4 * key - 1];
    }
    (key, pos)
}
