//! The 8 x 8 bit transposition of every 8-byte word with Neon: the three
//! rounds of `scalar::transpose8` on two 64-bit lanes at a time.

use core::arch::aarch64::*;

/// Transposes whole 16-byte registers from the start of `buf`; returns the
/// bytes done.
///
/// # Safety
/// The CPU must have Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn transpose_neon(buf: &mut [u8]) -> usize {
    let done = buf.len() / 16 * 16;
    for i in (0..done).step_by(16) {
        let p = buf[i..].as_mut_ptr();
        // SAFETY: bytes `i..i + 16` lie inside `buf` (`i + 16 <= done`).
        unsafe {
            let x = vreinterpretq_u64_u8(vld1q_u8(p));
            let t = vandq_u64(
                veorq_u64(x, vshrq_n_u64::<7>(x)),
                vdupq_n_u64(0x00aa_00aa_00aa_00aa),
            );
            let x = veorq_u64(veorq_u64(x, t), vshlq_n_u64::<7>(t));
            let t = vandq_u64(
                veorq_u64(x, vshrq_n_u64::<14>(x)),
                vdupq_n_u64(0x0000_cccc_0000_cccc),
            );
            let x = veorq_u64(veorq_u64(x, t), vshlq_n_u64::<14>(t));
            let t = vandq_u64(
                veorq_u64(x, vshrq_n_u64::<28>(x)),
                vdupq_n_u64(0x0000_0000_f0f0_f0f0),
            );
            let x = veorq_u64(veorq_u64(x, t), vshlq_n_u64::<28>(t));
            vst1q_u8(p, vreinterpretq_u8_u64(x));
        }
    }
    done
}
