//! The Stream VByte tables, computed at compile time from the two code sets.
//!
//! A control byte holds four 2-bit codes, lowest bits first; code `c` of a
//! value says how many data bytes it takes: [`Codes1234::LENS`]`[c]` =
//! `c + 1` in the standard format, [`Codes0124::LENS`]`[c]` = 0, 1, 2 or 4
//! in the "0124" variant. Per control byte (256 of each, per code set):
//!
//! - `LENGTH[c]`: the data bytes of its four values (4..=16, or 0..=16);
//! - `DECODE[c]`: the `pshufb`/`tbl` mask that moves the packed data bytes of
//!   the four values into four u32 lanes: lane byte `4i + j` takes data byte
//!   `offset_i + j` for `j < len_i`, else `0xff` (a zero byte);
//! - `ENCODE[c]`: the inverse mask, packing the low `len_i` bytes of lane `i`
//!   one after the other, `0xff` after the last.
#![forbid(unsafe_code)]
// The shuffle masks serve the SIMD kernels only.
#![cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]

/// One of the two code sets: the lengths its four codes stand for, its
/// tables, and the code of a value.
pub(crate) trait Variant: Copy + 'static {
    /// Data bytes for codes 0..=3.
    const LENS: [usize; 4];
    /// Data bytes per control byte.
    const LENGTH: &'static [u8; 256];
    /// Decoding shuffle masks per control byte.
    const DECODE: &'static [[u8; 16]; 256];
    /// Encoding shuffle masks per control byte.
    const ENCODE: &'static [[u8; 16]; 256];
    /// Which bytes of four u32 values hold data, per control byte: bit
    /// `4i + j` is set for `j < ` the length of value `i` (a `vpexpandb`
    /// mask, as [`expand_mask`] makes them; the tests' reference).
    #[cfg(test)]
    const EXPAND: &'static [u16; 256];
    /// The largest value codes 0, 1 and 2 hold (code 3 holds any).
    const LIMITS: [u32; 3];
    /// The shortest code that holds `value`.
    fn code(value: u32) -> u8;
    /// The data bytes of the 32 codes in the 8 control bytes of `keys`
    /// (little-endian), from bit counts.
    fn len8(keys: u64) -> usize;
    /// [`expand_mask`]'s nibbles, from the low and the high bit of each
    /// nibble's code (bit 0 of the nibble, in `lo` and `hi`).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn nibbles(lo: u64, hi: u64) -> u64;
}

/// The standard format: codes 0..=3 stand for 1..=4 data bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Codes1234;

/// The "0124" variant: codes 0..=3 stand for 0, 1, 2 and 4 data bytes (a
/// zero takes no data byte).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Codes0124;

/// Low bit of each 2-bit code.
const LO: u64 = 0x5555_5555_5555_5555;

impl Variant for Codes1234 {
    const LENS: [usize; 4] = LENS_1234;
    const LENGTH: &'static [u8; 256] = &LENGTH;
    const DECODE: &'static [[u8; 16]; 256] = &DECODE.0;
    const ENCODE: &'static [[u8; 16]; 256] = &ENCODE.0;
    #[cfg(test)]
    const EXPAND: &'static [u16; 256] = &EXPAND;
    const LIMITS: [u32; 3] = [0xff, 0xffff, 0xff_ffff];

    #[inline(always)]
    fn code(value: u32) -> u8 {
        u8::from(value > 0xff) + u8::from(value > 0xffff) + u8::from(value > 0xff_ffff)
    }

    #[inline(always)]
    fn len8(keys: u64) -> usize {
        // Each code c takes c + 1 bytes: 32 + sum of codes.
        32 + (keys & LO).count_ones() as usize + 2 * (keys >> 1 & LO).count_ones() as usize
    }

    #[inline(always)]
    fn nibbles(lo: u64, hi: u64) -> u64 {
        // A byte always; a second from code 1, a third from 2, a fourth at 3.
        NIBBLE | (lo | hi) << 1 | hi << 2 | (lo & hi) << 3
    }
}

impl Variant for Codes0124 {
    const LENS: [usize; 4] = LENS_0124;
    const LENGTH: &'static [u8; 256] = &LENGTH_0124;
    const DECODE: &'static [[u8; 16]; 256] = &DECODE_0124.0;
    const ENCODE: &'static [[u8; 16]; 256] = &ENCODE_0124.0;
    #[cfg(test)]
    const EXPAND: &'static [u16; 256] = &EXPAND_0124;
    const LIMITS: [u32; 3] = [0, 0xff, 0xffff];

    #[inline(always)]
    fn code(value: u32) -> u8 {
        u8::from(value > 0) + u8::from(value > 0xff) + u8::from(value > 0xffff)
    }

    #[inline(always)]
    fn len8(keys: u64) -> usize {
        // Code (hi, lo) takes lo + 2 hi + (hi and lo) bytes: 0, 1, 2, 4.
        let lo = keys & LO;
        let hi = keys >> 1 & LO;
        (lo.count_ones() + 2 * hi.count_ones() + (lo & hi).count_ones()) as usize
    }

    #[inline(always)]
    fn nibbles(lo: u64, hi: u64) -> u64 {
        // A byte from code 1, a second from 2, four at 3.
        (lo | hi) | hi << 1 | (lo & hi) << 2 | (lo & hi) << 3
    }
}

/// Data bytes per code, standard format.
pub(crate) const LENS_1234: [usize; 4] = [1, 2, 3, 4];
/// Data bytes per code, "0124" variant.
pub(crate) const LENS_0124: [usize; 4] = [0, 1, 2, 4];

/// Data bytes per control byte, standard format.
pub(crate) static LENGTH: [u8; 256] = build_length(LENS_1234);
/// Data bytes per control byte, "0124" variant.
pub(crate) static LENGTH_0124: [u8; 256] = build_length(LENS_0124);
/// Decoding masks, standard format.
pub(crate) static DECODE: crate::simd::Aligned<[[u8; 16]; 256]> =
    crate::simd::Aligned(build_decode(LENS_1234));
/// Decoding masks, "0124" variant.
pub(crate) static DECODE_0124: crate::simd::Aligned<[[u8; 16]; 256]> =
    crate::simd::Aligned(build_decode(LENS_0124));
/// Encoding masks, standard format.
pub(crate) static ENCODE: crate::simd::Aligned<[[u8; 16]; 256]> =
    crate::simd::Aligned(build_encode(LENS_1234));
/// Encoding masks, "0124" variant.
pub(crate) static ENCODE_0124: crate::simd::Aligned<[[u8; 16]; 256]> =
    crate::simd::Aligned(build_encode(LENS_0124));

#[cfg(test)]
pub(crate) static EXPAND: [u16; 256] = build_expand(LENS_1234);
#[cfg(test)]
pub(crate) static EXPAND_0124: [u16; 256] = build_expand(LENS_0124);

/// The `vpexpandb` mask of four control bytes: for each of their 16
/// values, a nibble whose low bits, one a data byte, mark its bytes in its
/// four. One `pdep` spreads the 16 codes to the low bits of 16
/// nibbles, and a few logic steps make each nibble its value's bytes
/// ([`Variant::nibbles`]): a lookup of four rows waits on four extracts of
/// the control bytes, then four loads, before the shifts that join them.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(crate) fn expand_mask<V: Variant>(control: [u8; 4]) -> u64 {
    let control = u64::from(u32::from_le_bytes(control));
    let codes = core::arch::x86_64::_pdep_u64(control, 0x3333_3333_3333_3333);
    V::nibbles(codes & NIBBLE, codes >> 1 & NIBBLE)
}

/// The low bit of each nibble.
const NIBBLE: u64 = 0x1111_1111_1111_1111;

#[cfg(test)]
const fn build_expand(lens: [usize; 4]) -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut key = 0;
    while key < 256 {
        let mut i = 0;
        while i < 4 {
            let nibble = (1u16 << len_of(lens, key, i)) - 1;
            table[key] |= nibble << (4 * i);
            i += 1;
        }
        key += 1;
    }
    table
}

/// `SPREAD[x]` has bit `2i` set for each bit `i` of the 4-bit `x`: it
/// interleaves the low and high bits of four codes into a control byte.
/// (The SSE4.1 encoder's; Neon sums its codes instead.)
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) static SPREAD: crate::simd::Aligned<[u8; 16]> = crate::simd::Aligned(build_spread());

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const fn build_spread() -> [u8; 16] {
    let mut table = [0u8; 16];
    let mut x = 0;
    while x < 16 {
        let mut i = 0;
        while i < 4 {
            table[x] |= ((x >> i) as u8 & 1) << (2 * i);
            i += 1;
        }
        x += 1;
    }
    table
}

/// The length of value `i` (0..4) of control byte `key`.
const fn len_of(lens: [usize; 4], key: usize, i: usize) -> usize {
    lens[(key >> (2 * i)) & 3]
}

const fn build_length(lens: [usize; 4]) -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut key = 0;
    while key < 256 {
        let mut i = 0;
        while i < 4 {
            table[key] += len_of(lens, key, i) as u8;
            i += 1;
        }
        key += 1;
    }
    table
}

const fn build_decode(lens: [usize; 4]) -> [[u8; 16]; 256] {
    let mut table = [[0xffu8; 16]; 256];
    let mut key = 0;
    while key < 256 {
        let mut offset = 0;
        let mut i = 0;
        while i < 4 {
            let len = len_of(lens, key, i);
            let mut j = 0;
            while j < len {
                table[key][4 * i + j] = (offset + j) as u8;
                j += 1;
            }
            offset += len;
            i += 1;
        }
        key += 1;
    }
    table
}

const fn build_encode(lens: [usize; 4]) -> [[u8; 16]; 256] {
    let mut table = [[0xffu8; 16]; 256];
    let mut key = 0;
    while key < 256 {
        let mut pos = 0;
        let mut i = 0;
        while i < 4 {
            let len = len_of(lens, key, i);
            let mut j = 0;
            while j < len {
                table[key][pos] = (4 * i + j) as u8;
                pos += 1;
                j += 1;
            }
            i += 1;
        }
        key += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_marks_each_values_bytes<V: Variant>() {
        for key in 0..256 {
            let mask = V::EXPAND[key];
            assert_eq!(mask.count_ones(), u32::from(V::LENGTH[key]), "{key}");
            for i in 0..4 {
                let len = V::LENS[key >> (2 * i) & 3];
                assert_eq!(
                    usize::from(mask >> (4 * i) & 15),
                    (1 << len) - 1,
                    "{key} {i}"
                );
            }
        }
    }

    #[test]
    fn expand_masks() {
        expand_marks_each_values_bytes::<Codes1234>();
        expand_marks_each_values_bytes::<Codes0124>();
    }

    /// Packs `values` with the given lengths, the obvious way.
    fn pack(values: [u32; 4], lens: [usize; 4]) -> Vec<u8> {
        let mut out = Vec::new();
        for (v, len) in values.iter().zip(lens) {
            out.extend_from_slice(&v.to_le_bytes()[..len]);
        }
        out
    }

    /// `pshufb` as the manual defines it.
    fn shuffle(data: &[u8; 16], mask: &[u8; 16]) -> [u8; 16] {
        mask.map(|m| {
            if m & 0x80 != 0 {
                0
            } else {
                data[m as usize & 15]
            }
        })
    }

    fn check<V: Variant>(lens: [usize; 4]) {
        for key in 0..256usize {
            let l: [usize; 4] = core::array::from_fn(|i| lens[(key >> (2 * i)) & 3]);
            assert_eq!(
                V::LENGTH[key] as usize,
                l.iter().sum::<usize>(),
                "length {key}"
            );
            // Values with every byte set that their lengths allow.
            let values: [u32; 4] = core::array::from_fn(|i| {
                ((0x0403_0201u64 * (i as u64 + 1)) & ((1u64 << (8 * l[i])) - 1)) as u32
            });
            let packed = pack(values, l);
            let mut data = [0xeeu8; 16];
            data[..packed.len()].copy_from_slice(&packed);
            let decoded = shuffle(&data, &V::DECODE[key]);
            let want: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            assert_eq!(decoded.as_slice(), want.as_slice(), "decode {key}");
            let lanes: [u8; 16] =
                core::array::from_fn(|b| want[b] | if b % 4 >= l[b / 4] { 0x77 } else { 0 });
            let encoded = shuffle(&lanes, &V::ENCODE[key]);
            assert_eq!(&encoded[..packed.len()], packed.as_slice(), "encode {key}");
            assert!(
                encoded[packed.len()..].iter().all(|&b| b == 0),
                "encode {key} pads"
            );
            // The code of each value matches its length class.
            for (i, &v) in values.iter().enumerate() {
                let c = V::code(v) as usize;
                assert!(lens[c] <= l[i], "code of {v:#x}");
            }
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let want: usize = x
                .to_le_bytes()
                .iter()
                .map(|&k| V::LENGTH[k as usize] as usize)
                .sum();
            assert_eq!(V::len8(x), want);
        }
    }

    #[test]
    fn tables_match_their_definition() {
        check::<Codes1234>(LENS_1234);
        check::<Codes0124>(LENS_0124);
    }

    #[test]
    fn spread_interleaves() {
        for (x, &spread) in SPREAD.iter().enumerate() {
            let want: u8 = (0..4).map(|i| (((x >> i) & 1) as u8) << (2 * i)).sum();
            assert_eq!(spread, want);
        }
    }

    #[test]
    fn limits_bound_the_codes() {
        fn check<V: Variant>() {
            for (c, &limit) in V::LIMITS.iter().enumerate() {
                assert_eq!(V::code(limit) as usize, c);
                assert_eq!(V::code(limit + 1) as usize, c + 1);
            }
        }
        check::<Codes1234>();
        check::<Codes0124>();
    }

    #[test]
    fn codes_are_the_shortest() {
        for v in [
            0u32,
            1,
            0xff,
            0x100,
            0xffff,
            0x1_0000,
            0xff_ffff,
            0x100_0000,
            u32::MAX,
        ] {
            let bytes = 4 - v.leading_zeros() as usize / 8;
            assert_eq!(
                LENS_1234[Codes1234::code(v) as usize],
                bytes.max(1),
                "{v:#x}"
            );
            let want = match bytes {
                3 => 4,
                b => b,
            };
            assert_eq!(LENS_0124[Codes0124::code(v) as usize], want, "{v:#x}");
        }
    }
}
