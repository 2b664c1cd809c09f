//! The AVX-512 kernel (F, BW, VBMI): four control bytes, sixteen values, a
//! step, with one 64-byte load and one `vpermb`.
//!
//! # Algorithm
//!
//! ```text
//! c = 4 control bytes (u32); codes of values 0-7, 8-15 as bytes: pdep(c, 0x0303..03)
//! lens (bytes) = V::lens_bytes(codes)
//! offsets (bytes): (lens * 0x0101..01) << 8     // byte k = sum of lens below k
//!     (values 8-15 add the total of 0-7)
//! idx = vpermb(offsets, [0,0,0,0, 1,1,1,1, ...]) + [0,1,2,3, 0,1,2,3, ...]
//! keep = KEEP[c0] | KEEP[c1] << 16 | KEEP[c2] << 32 | KEEP[c3] << 48
//! values = vpermb(idx, load64(data + pos)) zeroed where keep is 0
//! delta: 4 x (valignd by 1, 2, 4, 8 elements + vpaddd), + splat(prev);
//!     prev = vpermd(values, splat(15))
//! pos += sum of lens (one more multiply; the chain from step to step is this add)
//! ```
//!
//! Offsets come from one scalar multiply per 8 values instead of a prefix sum
//! in the register. The step runs while 64 bytes of data remain (the most a
//! step reads); the AVX2 and then the 16-byte steps of
//! [`generic`](super::generic) do the rest.

use core::arch::x86_64::*;

use super::generic::decode_groups;
use crate::stream_vbyte::tables::Variant;

const BYTE_ONES: u64 = 0x0101_0101_0101_0101;
/// Two bits of each byte, for `pdep` of 8 codes.
const CODE_BITS: u64 = 0x0303_0303_0303_0303;

/// Decodes the whole groups of `control` (4 values a byte into `out`) that
/// the data allows; returns (control bytes, data bytes) consumed.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`; `out.len() >= 4 * control.len()`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn decode<V: Variant, const DELTA: bool>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    let keys = control.len();
    let end = data.len();
    let out_ptr = out.as_mut_ptr();
    let mut key = 0;
    let mut pos = 0;
    let zero = _mm512_setzero_si512();
    // Byte b of the index: byte b / 4 of the offsets; plus b % 4.
    let spread = _mm512_set_epi32(
        0x0f0f_0f0f,
        0x0e0e_0e0e,
        0x0d0d_0d0d,
        0x0c0c_0c0c,
        0x0b0b_0b0b,
        0x0a0a_0a0a,
        0x0909_0909,
        0x0808_0808,
        0x0707_0707,
        0x0606_0606,
        0x0505_0505,
        0x0404_0404,
        0x0303_0303,
        0x0202_0202,
        0x0101_0101,
        0,
    );
    let within = _mm512_set1_epi32(0x0302_0100);
    let last = _mm512_set1_epi32(15);
    let mut acc = _mm512_set1_epi32(*prev as i32);
    while key + 4 <= keys && end - pos >= 64 {
        let mut word = [0u8; 4];
        word.copy_from_slice(&control[key..key + 4]);
        let c = u32::from_le_bytes(word);
        let lens_lo = V::lens_bytes(_pdep_u64(u64::from(c & 0xffff), CODE_BITS));
        let lens_hi = V::lens_bytes(_pdep_u64(u64::from(c >> 16), CODE_BITS));
        let incl_lo = lens_lo.wrapping_mul(BYTE_ONES);
        // Each offset is at most 60: no byte carries into the next.
        let offs_lo = incl_lo << 8;
        let offs_hi = (lens_hi.wrapping_mul(BYTE_ONES) << 8) + (incl_lo >> 56) * BYTE_ONES;
        // The sum of the 16 lengths (at most 64), in the top byte.
        let total = ((lens_lo + lens_hi).wrapping_mul(BYTE_ONES) >> 56) as usize;
        let keep = word.iter().enumerate().fold(0u64, |k, (i, &b)| {
            k | u64::from(V::KEEP[b as usize]) << (16 * i)
        });
        // SAFETY: 64 bytes at `pos` are inside `data` (checked above); 16
        // values at `4 key` are inside `out` (key + 4 <= keys); the CPU has
        // AVX-512 F, BW and VBMI.
        unsafe {
            let offs = _mm512_castsi128_si512(_mm_set_epi64x(offs_hi as i64, offs_lo as i64));
            let idx = _mm512_add_epi8(_mm512_permutexvar_epi8(spread, offs), within);
            let window = _mm512_loadu_si512(data.as_ptr().add(pos).cast());
            let mut values = _mm512_maskz_permutexvar_epi8(keep, idx, window);
            if DELTA {
                values = _mm512_add_epi32(values, _mm512_alignr_epi32::<15>(values, zero));
                values = _mm512_add_epi32(values, _mm512_alignr_epi32::<14>(values, zero));
                values = _mm512_add_epi32(values, _mm512_alignr_epi32::<12>(values, zero));
                values = _mm512_add_epi32(values, _mm512_alignr_epi32::<8>(values, zero));
                values = _mm512_add_epi32(values, acc);
                acc = _mm512_permutexvar_epi32(last, values);
            }
            _mm512_storeu_si512(out_ptr.add(4 * key).cast(), values);
        }
        pos += total;
        key += 4;
    }
    if DELTA {
        *prev = _mm_cvtsi128_si32(_mm512_castsi512_si128(acc)) as u32;
    }
    // SAFETY: the CPU has AVX2 and SSE4.1; key <= keys, pos <= end; `out`
    // is sized by the caller.
    unsafe {
        let (key, pos) = decode_groups::<__m256i, V, DELTA>(control, data, out, key, pos, prev);
        decode_groups::<__m128i, V, DELTA>(control, data, out, key, pos, prev)
    }
}
