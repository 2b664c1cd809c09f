//! Masked VByte decoding with Neon (aarch64): the paper's §IV algorithm with
//! the SSE4.1 kernel's tables ([`super::tables`]), on 128-bit Neon registers.
//!
//! ```text
//! while 16 input bytes and room for 6 values remain:
//!     bits <- continuation bits of the bytes ahead, 48 at a time, kept in a u64
//!     if the next 16 bits are 0 (and 16 values fit):
//!         16 one-byte values: widen u8 -> u16 -> u32 with vmovl, store, next
//!     (consumed, shape) <- DECODE[next 12 bits]; stop if consumed == 0
//!     x <- SHUFFLE[shape] applied (vqtbl1q_u8) to the next 16 bytes, high bits cleared
//!     shape < 64:  6 values of 1-2 bytes, as u16 lanes  (a | b << 8)
//!     shape < 145: 4 values of 1-3 bytes, as u32 lanes  (a | b << 8 | c << 16)
//!     else:        2 values of 1-5 bytes, as u64 lanes in the paper's order
//!                  (b, 0, c, 0, d, 0, e, a); one more vqtbl1q_u8 makes that
//!                  (a, b, c, d, e, 0, 0, 0); stop if a value exceeds u32
//!                  (a 5th byte above 0x0f)
//!     join the 7-bit groups, store the values, advance by `consumed`
//! ```
//!
//! Neon has no `pmovmskb`: the continuation bits are gathered by keeping the
//! high bit of each byte (`vcltzq_s8`), weighting byte k by `1 << (k % 8)`
//! and adding neighbours with `vpaddq_u8` until each byte holds the mask of
//! eight input bytes (three blocks of 16 bytes give 48 bits in four steps).
//!
//! The 7-bit groups are joined by shift-and-insert (`vsli`), a lane width at
//! a time: `a | b << 8` in a u16 lane becomes `a | b << 7`; in u32 lanes
//! two such halves `p | q << 16` become `p | q << 14`; in u64 lanes
//! `p | q << 32` becomes `p | q << 28`. Neon needs no `pmullw` trick for
//! the 5-byte case (the reason for the paper's order of its bytes): a wider
//! lane does it in two more steps, and keeps the bits above 32 that tell an
//! overflowing 5th byte.
//!
//! Delta decoding fuses the prefix sum: four gaps `c` become
//! `c + (0, c0, c1, c2)`, then that plus `(0, 0, s0, s1)`, plus the previous
//! value broadcast to every lane (two gaps use the same steps on 64 bits).
//!
//! The kernel reads no byte outside `input` (16-byte loads only where 16
//! bytes remain), writes exactly the values it returns, and stops at a value
//! boundary before anything it does not decode (a varint longer than 5
//! bytes, a 5th byte above `0x0f`), leaving that to the checked scalar path.
//!
//! It shares the tables with the SSE4.1 kernel (`masked/`) but not the code,
//! and stays outside `crate::simd::Vector`: the gathering of continuation
//! bits (`pmovmskb` there, the additions above here) and the joining of
//! 7-bit groups (masks and shifts, `pmullw` for five bytes there, `vsli`
//! here) differ at every step, so a shared loop would be one trait method
//! per step with nothing between them.

use core::arch::aarch64::*;

use super::tables::{DECODE, FOUR_END, SHUFFLE, SIX_END};

/// Decodes a prefix of `input` into `out`; returns (bytes consumed, values
/// produced), stopping at a value boundary.
///
/// # Safety
/// The CPU must have Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_bulk(input: &[u8], out: &mut [u32]) -> (usize, usize) {
    // SAFETY: the caller guarantees Neon, the only requirement of `run`.
    unsafe { run::<false>(input, out, &mut 0) }
}

/// Like [`decode_bulk`], writing the running sum of the gaps from `*prev`;
/// leaves the last value written in `*prev`.
///
/// # Safety
/// The CPU must have Neon.
#[target_feature(enable = "neon")]
pub(super) unsafe fn decode_delta_bulk(
    input: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    // SAFETY: the caller guarantees Neon, the only requirement of `run`.
    unsafe { run::<true>(input, out, prev) }
}

/// The decoding loop, shared by the plain and the delta kernel.
///
/// # Safety
/// The CPU must have Neon.
#[inline(always)]
unsafe fn run<const DELTA: bool>(input: &[u8], out: &mut [u32], prev: &mut u32) -> (usize, usize) {
    let (src, len) = (input.as_ptr(), input.len());
    let dst = out.as_mut_ptr();
    let (mut pos, mut done) = (0usize, 0usize);
    // Continuation bits of input[pos..pos + have], bit k for byte pos + k;
    // the bits above `have` are 0.
    let (mut bits, mut have) = (0u64, 0usize);
    // Every unsafe block below relies on the caller's guarantee of Neon, and
    // names the bounds check behind its loads and stores.
    // SAFETY: registers only.
    let mut last = unsafe { vdupq_n_u32(*prev) };

    while pos + 16 <= len && out.len() - done >= 6 {
        if have < 16 {
            if pos + have + 48 <= len {
                // SAFETY: input[pos + have..][..48] is in bounds (just checked).
                bits |= unsafe { mask48(src.add(pos + have)) } << have;
                have += 48;
            } else {
                // SAFETY: the loop condition leaves 16 bytes at `pos`.
                bits = unsafe { mask16(src.add(pos)) };
                have = 16;
            }
        }
        // SAFETY: the loop condition leaves 16 bytes at `pos`.
        let bytes = unsafe { vld1q_u8(src.add(pos)) };

        if bits & 0xffff == 0 && out.len() - done >= 16 {
            // SAFETY: sixteen one-byte values; out[done..][..16] is in bounds (just checked).
            unsafe { store16::<DELTA>(dst.add(done), bytes, &mut last) };
            (pos, done, bits, have) = (pos + 16, done + 16, bits >> 16, have - 16);
            continue;
        }

        let [consumed, shape] = DECODE[(bits & 0xfff) as usize];
        if consumed == 0 {
            break; // a varint longer than 5 bytes: the scalar path reports it
        }
        let row = &SHUFFLE[usize::from(shape)];
        // SAFETY: a row of SHUFFLE is 16 readable bytes.
        let x = unsafe { vqtbl1q_u8(vandq_u8(bytes, vdupq_n_u8(0x7f)), vld1q_u8(row.as_ptr())) };
        if shape < SIX_END {
            // SAFETY: six values; out[done..][..6] is in bounds (loop condition).
            unsafe {
                let v = join_u16(x);
                store4::<DELTA>(dst.add(done), vmovl_u16(vget_low_u16(v)), &mut last);
                store2::<DELTA>(
                    dst.add(done + 4),
                    vget_low_u32(vmovl_high_u16(v)),
                    &mut last,
                );
            }
            done += 6;
        } else if shape < FOUR_END {
            // SAFETY: four values; out[done..][..4] is in bounds (loop condition).
            unsafe { store4::<DELTA>(dst.add(done), join_u32(x), &mut last) };
            done += 4;
        } else {
            // SAFETY: two values; out[done..][..2] is in bounds (loop condition).
            let fits = unsafe {
                let v = join_u64(vqtbl1q_u8(x, paper_to_natural()));
                let fits = vget_lane_u64(vreinterpret_u64_u32(vshrn_n_u64(v, 32)), 0) == 0;
                if fits {
                    store2::<DELTA>(dst.add(done), vmovn_u64(v), &mut last);
                }
                fits
            };
            if !fits {
                break; // a 5th byte above 0x0f: the scalar path reports it
            }
            done += 2;
        }
        pos += usize::from(consumed);
        bits >>= consumed;
        have -= usize::from(consumed);
    }
    if DELTA {
        // SAFETY: registers only.
        *prev = unsafe { vgetq_lane_u32(last, 0) };
    }
    (pos, done)
}

/// Continuation bits of the 16 bytes at `p`: bit k is the high bit of byte k.
///
/// # Safety
/// The CPU must have Neon; `p` must be readable for 16 bytes.
#[inline(always)]
unsafe fn mask16(p: *const u8) -> u64 {
    // SAFETY: Neon and 16 readable bytes at `p`, as the caller guarantees.
    unsafe {
        let x = weighted_high_bits(vld1q_u8(p));
        let x = vpaddq_u8(x, x); // 8 sums of 2 bytes
        let x = vpaddq_u8(x, x); // 4 sums of 4 bytes
        let x = vpaddq_u8(x, x); // 2 sums of 8 bytes: the two mask bytes
        u64::from(vgetq_lane_u16(vreinterpretq_u16_u8(x), 0))
    }
}

/// Continuation bits of the 48 bytes at `p`: bit k is the high bit of byte k.
///
/// # Safety
/// The CPU must have Neon; `p` must be readable for 48 bytes.
#[inline(always)]
unsafe fn mask48(p: *const u8) -> u64 {
    // SAFETY: Neon and 48 readable bytes at `p`, as the caller guarantees.
    unsafe {
        let a = weighted_high_bits(vld1q_u8(p));
        let b = weighted_high_bits(vld1q_u8(p.add(16)));
        let c = weighted_high_bits(vld1q_u8(p.add(32)));
        let x = vpaddq_u8(vpaddq_u8(a, b), vpaddq_u8(c, vdupq_n_u8(0)));
        let x = vpaddq_u8(x, x); // mask bytes of a, b, c, then two zeros
        vgetq_lane_u64(vreinterpretq_u64_u8(x), 0)
    }
}

/// The `vqtbl1q_u8` control that turns each u64 lane from the paper's order
/// of a 1-5 byte value, `(b, 0, c, 0, d, 0, e, a)` (see [`super::tables`]),
/// into `(a, b, c, d, e, 0, 0, 0)`.
///
/// # Safety
/// The CPU must have Neon.
#[inline(always)]
unsafe fn paper_to_natural() -> uint8x16_t {
    // SAFETY: Neon, as the caller guarantees; registers only.
    unsafe {
        // Little-endian: the low byte is the first index; 0xff gives a zero byte.
        let lo = vcreate_u8(0xffff_ff06_0402_0007);
        let hi = vcreate_u8(0xffff_ff0e_0c0a_080f);
        vcombine_u8(lo, hi)
    }
}

/// Byte k of `v` becomes `1 << (k % 8)` if its high bit is set, else 0.
///
/// # Safety
/// The CPU must have Neon.
#[inline(always)]
unsafe fn weighted_high_bits(v: uint8x16_t) -> uint8x16_t {
    // SAFETY: Neon, as the caller guarantees; registers only.
    unsafe {
        let w = vcreate_u8(0x8040_2010_0804_0201);
        vandq_u8(vcltzq_s8(vreinterpretq_s8_u8(v)), vcombine_u8(w, w))
    }
}

/// u16 lanes `a | b << 8` of 7-bit groups -> `a | b << 7`.
///
/// # Safety
/// The CPU must have Neon.
#[inline(always)]
unsafe fn join_u16(x: uint8x16_t) -> uint16x8_t {
    // SAFETY: Neon, as the caller guarantees; registers only.
    unsafe {
        let x = vreinterpretq_u16_u8(x);
        vsliq_n_u16(x, vshrq_n_u16(x, 8), 7)
    }
}

/// u32 lanes `a | b << 8 | c << 16` of 7-bit groups -> `a | b << 7 | c << 14`.
///
/// # Safety
/// The CPU must have Neon.
#[inline(always)]
unsafe fn join_u32(x: uint8x16_t) -> uint32x4_t {
    // SAFETY: Neon, as the caller guarantees; registers only.
    unsafe {
        let x = vreinterpretq_u32_u16(join_u16(x));
        vsliq_n_u32(x, vshrq_n_u32(x, 16), 14)
    }
}

/// u64 lanes `a | b << 8 | c << 16 | d << 24 | e << 32` of 7-bit groups ->
/// `a | b << 7 | c << 14 | d << 21 | e << 28` (above u32 when `e > 0x0f`).
///
/// # Safety
/// The CPU must have Neon.
#[inline(always)]
unsafe fn join_u64(x: uint8x16_t) -> uint64x2_t {
    // SAFETY: Neon, as the caller guarantees; registers only.
    unsafe {
        let x = vreinterpretq_u64_u32(join_u32(x));
        vsliq_n_u64(x, vshrq_n_u64(x, 32), 28)
    }
}

/// Stores 16 one-byte values (the bytes of `v`, all below 0x80) at `p`, as
/// [`store4`] does.
///
/// # Safety
/// The CPU must have Neon; `p` must be writable for 16 u32.
#[inline(always)]
unsafe fn store16<const DELTA: bool>(p: *mut u32, v: uint8x16_t, last: &mut uint32x4_t) {
    // SAFETY: Neon and 16 writable u32 at `p`, as the caller guarantees.
    unsafe {
        let (lo, hi) = (vmovl_u8(vget_low_u8(v)), vmovl_high_u8(v));
        store4::<DELTA>(p, vmovl_u16(vget_low_u16(lo)), last);
        store4::<DELTA>(p.add(4), vmovl_high_u16(lo), last);
        store4::<DELTA>(p.add(8), vmovl_u16(vget_low_u16(hi)), last);
        store4::<DELTA>(p.add(12), vmovl_high_u16(hi), last);
    }
}

/// Stores four values at `p`; for delta, their running sum from `last` (the
/// previous value in every lane), which then becomes the last value stored.
///
/// # Safety
/// The CPU must have Neon; `p` must be writable for 4 u32.
#[inline(always)]
unsafe fn store4<const DELTA: bool>(p: *mut u32, v: uint32x4_t, last: &mut uint32x4_t) {
    // SAFETY: Neon and 4 writable u32 at `p`, as the caller guarantees.
    unsafe {
        let v = if DELTA {
            let zero = vdupq_n_u32(0);
            let v = vaddq_u32(v, vextq_u32(zero, v, 3)); // (c0, c0+c1, c1+c2, c2+c3)
            let v = vaddq_u32(v, vextq_u32(zero, v, 2)); // prefix sums
            let v = vaddq_u32(v, *last);
            *last = vdupq_laneq_u32(v, 3);
            v
        } else {
            v
        };
        vst1q_u32(p, v);
    }
}

/// [`store4`] for two values.
///
/// # Safety
/// The CPU must have Neon; `p` must be writable for 2 u32.
#[inline(always)]
unsafe fn store2<const DELTA: bool>(p: *mut u32, v: uint32x2_t, last: &mut uint32x4_t) {
    // SAFETY: Neon and 2 writable u32 at `p`, as the caller guarantees.
    unsafe {
        let v = if DELTA {
            let v = vadd_u32(v, vext_u32(vdup_n_u32(0), v, 1)); // (c0, c0+c1)
            let v = vadd_u32(v, vget_low_u32(*last));
            *last = vdupq_lane_u32(v, 1);
            v
        } else {
            v
        };
        vst1_u32(p, v);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{decode_delta_with, decode_with, encode};
    use crate::Isa;

    /// xorshift64*: a tiny deterministic generator, enough for test data.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// A value that takes `len` bytes (1..=5).
    fn value_of_len(rng: &mut Rng, len: usize) -> u32 {
        let lo = if len == 1 { 0 } else { 1u64 << (7 * (len - 1)) };
        let hi = (1u64 << (7 * len)).min(1 << 32);
        (lo + rng.next() % (hi - lo)) as u32
    }

    /// `n` values whose byte lengths are drawn from the set `mix` (bit k: k + 1 bytes).
    fn values(rng: &mut Rng, mix: u32, n: usize) -> Vec<u32> {
        let lens: Vec<usize> = (1..=5).filter(|l| mix >> (l - 1) & 1 == 1).collect();
        (0..n)
            .map(|_| {
                let len = lens[rng.below(lens.len())];
                value_of_len(rng, len)
            })
            .collect()
    }

    /// Decodes `bytes` (placed at `offset` of a larger buffer) into `n` values
    /// with Neon and with scalar, plain and delta, and requires identical results.
    fn check(bytes: &[u8], n: usize, offset: usize, what: &str) {
        let mut buf = vec![0xa5u8; offset + bytes.len() + 7];
        buf[offset..offset + bytes.len()].copy_from_slice(bytes);
        let input = &buf[offset..offset + bytes.len()];
        let mut want = vec![0u32; n];
        let mut got = vec![0u32; n];
        let r_want = decode_with(Isa::Scalar, input, &mut want);
        let r_got = decode_with(Isa::Neon, input, &mut got);
        assert_eq!(r_got, r_want, "neon decode: {what}, n {n}, offset {offset}");
        assert_eq!(got, want, "neon decode: {what}, n {n}, offset {offset}");
        let prev = (bytes.len() as u32).wrapping_mul(0x9e37_79b9);
        let (mut want, mut got) = (vec![0u32; n], vec![0u32; n]);
        let r_want = decode_delta_with(Isa::Scalar, input, &mut want, prev);
        let r_got = decode_delta_with(Isa::Neon, input, &mut got, prev);
        assert_eq!(r_got, r_want, "neon delta: {what}, n {n}, offset {offset}");
        assert_eq!(got, want, "neon delta: {what}, n {n}, offset {offset}");
    }

    fn encoded(vals: &[u32]) -> Vec<u8> {
        let mut bytes = vec![0u8; vals.len() * 5];
        let len = encode(vals, &mut bytes);
        bytes.truncate(len);
        bytes
    }

    fn lengths(rng: &mut Rng) -> Vec<usize> {
        let mut lens: Vec<usize> = (0..=70).collect();
        lens.extend((0..12).map(|_| rng.below(2000)));
        lens.push(1999);
        lens
    }

    #[test]
    fn neon_matches_scalar_on_every_length_mix() {
        assert!(
            Isa::Neon.is_supported(),
            "the neon tests need a CPU with Neon"
        );
        for mix in 1..32u32 {
            let seed = 0x1234_5678 + u64::from(mix);
            let mut rng = Rng(seed);
            for n in lengths(&mut rng) {
                let vals = values(&mut rng, mix, n);
                let bytes = encoded(&vals);
                let what = format!("mix {mix:#07b}, seed {seed}");
                check(&bytes, n, 1 + 2 * rng.below(32), &what);
                // Fewer values asked than stored, and more (truncated).
                check(&bytes, n / 2, 3, &what);
                check(&bytes, n + 1, 5, &what);
            }
        }
    }

    #[test]
    fn neon_kernel_does_the_bulk() {
        assert!(
            Isa::Neon.is_supported(),
            "the neon tests need a CPU with Neon"
        );
        let mut rng = Rng(5);
        for mix in 1..32u32 {
            let vals = values(&mut rng, mix, 1000);
            let bytes = encoded(&vals);
            let mut out = vec![0u32; vals.len()];
            let mut prev = 0;
            // SAFETY: the CPU has Neon (asserted above).
            let (consumed, produced) = unsafe { super::decode_bulk(&bytes, &mut out) };
            // Only a tail of fewer than 16 bytes is left to the scalar path.
            assert!(
                produced > vals.len() - 16,
                "mix {mix:#07b}: {produced} values"
            );
            assert_eq!(consumed, encoded(&vals[..produced]).len(), "mix {mix:#07b}");
            assert_eq!(out[..produced], vals[..produced], "mix {mix:#07b}");
            // SAFETY: as above.
            let (_, produced) = unsafe { super::decode_delta_bulk(&bytes, &mut out, &mut prev) };
            assert_eq!(
                prev,
                vals[..produced]
                    .iter()
                    .fold(0u32, |a, &v| a.wrapping_add(v))
            );
        }
    }

    #[test]
    fn neon_edge_values() {
        for v in [
            0,
            1,
            127,
            128,
            16_383,
            16_384,
            (1 << 21) - 1,
            1 << 21,
            (1 << 28) - 1,
            1 << 28,
            u32::MAX,
        ] {
            for n in [1, 15, 16, 17, 47, 48, 49, 100] {
                let vals = vec![v; n];
                check(&encoded(&vals), n, 1, &format!("value {v}"));
            }
        }
    }

    #[test]
    fn neon_stops_before_invalid_varints() {
        let mut rng = Rng(42);
        for mix in [0b00001, 0b00011, 0b11111, 0b10000, 0b10101] {
            for n in [1usize, 5, 16, 17, 40, 100] {
                let vals = values(&mut rng, mix, n);
                for at in 0..n {
                    for bad in [
                        &[0x80, 0x80, 0x80, 0x80, 0x80, 0x01][..], // 6 bytes
                        &[0xff, 0xff, 0xff, 0xff, 0x10],           // 5th byte too big
                        &[0x80, 0x80, 0x80, 0x80, 0x7f],
                        &[0x81, 0x82, 0x83, 0x84, 0x80 | rng.below(128) as u8],
                    ] {
                        let mut bytes = encoded(&vals[..at]);
                        bytes.extend_from_slice(bad);
                        bytes.extend_from_slice(&encoded(&vals[at..]));
                        let what = format!("mix {mix:#07b}, bad {bad:02x?} at value {at}");
                        check(&bytes, n + 1, 1, &what);
                    }
                }
            }
        }
    }

    #[test]
    fn neon_truncated_streams() {
        let mut rng = Rng(7);
        for mix in [0b00001, 0b00110, 0b11111, 0b11000] {
            let vals = values(&mut rng, mix, 60);
            let bytes = encoded(&vals);
            for cut in 0..bytes.len() {
                check(
                    &bytes[..cut],
                    vals.len(),
                    3,
                    &format!("mix {mix:#07b}, cut at {cut}"),
                );
            }
        }
    }

    #[test]
    fn neon_random_bytes() {
        let mut rng = Rng(99);
        for round in 0..300 {
            let len = rng.below(200);
            // Mostly continuation bytes, so long and invalid varints are common.
            let bytes: Vec<u8> = (0..len)
                .map(|_| (rng.next() as u8) | if rng.below(3) > 0 { 0x80 } else { 0 })
                .collect();
            check(
                &bytes,
                rng.below(len + 2),
                1,
                &format!("random round {round}"),
            );
        }
    }
}
