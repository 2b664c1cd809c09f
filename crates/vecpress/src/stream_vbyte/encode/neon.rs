//! The Neon encoder: four values a step, as the SSE4.1 one, with the codes
//! summed from compares (Neon has no movemask).
//!
//! ```text
//! v = 4 values (with delta: v - ext(prev, v, 3))
//! code_i = #{t: v_i > LIMITS[t]}     (vcgtq_u32 gives -1: subtract three masks from 0)
//! key = vaddvq(code * [1, 4, 16, 64])
//! store tbl(v, ENCODE[key]) at data[pos..pos + 16]; pos += LENGTH[key]
//! ```

use core::arch::aarch64::*;

use crate::stream_vbyte::tables::Variant;

/// Encodes whole groups of `values` while 16 bytes of `data` remain; returns
/// (control bytes, data bytes) written. With `DELTA`, stores the gaps from
/// `*prev`, updated to the last value encoded.
///
/// # Safety
/// The CPU has Neon; `control.len() >= values.len() / 4`.
#[target_feature(enable = "neon")]
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
    let limits = V::LIMITS.map(|l| vdupq_n_u32(l));
    let weights = {
        let w = [1u32, 4, 16, 64];
        // SAFETY: `w` holds 4 u32; the CPU has Neon.
        unsafe { vld1q_u32(w.as_ptr()) }
    };
    let mut last = vdupq_n_u32(*prev);
    while key < groups && data.len() - pos >= 16 {
        // SAFETY: 4 values at 4 * key are inside `values` (key < groups); 16
        // bytes at `pos` are inside `data` (checked above); the CPU has Neon.
        unsafe {
            let v = vld1q_u32(values.as_ptr().add(4 * key));
            let x = if DELTA {
                let shifted = vextq_u32::<3>(last, v);
                last = v;
                vsubq_u32(v, shifted)
            } else {
                v
            };
            let mut codes = vdupq_n_u32(0);
            for l in limits {
                codes = vsubq_u32(codes, vcgtq_u32(x, l));
            }
            let k = vaddvq_u32(vmulq_u32(codes, weights)) as u8;
            let mask = vld1q_u8(V::ENCODE[k as usize].as_ptr());
            let bytes = vqtbl1q_u8(vreinterpretq_u8_u32(x), mask);
            vst1q_u8(data.as_mut_ptr().add(pos), bytes);
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
