//! Tables of the 64-bit Stream VByte format, computed at compile time.
//!
//! A control byte holds four 2-bit codes, lowest bits first; code `c` means
//! a value of [`CODE_LEN`]`[c]` bytes. The kernels treat a control byte as
//! two nibbles, each describing a pair of values that fits in 16 data bytes.
#![forbid(unsafe_code)]

/// Bytes of a value for each 2-bit code.
pub(crate) const CODE_LEN: [usize; 4] = [1, 2, 4, 8];

/// Data bytes of the four values a control byte describes.
pub(crate) static LENGTHS: [u8; 256] = build_lengths();

/// Data bytes of the two values a nibble (two codes) describes.
pub(crate) static PAIR_LENGTHS: [u8; 16] = build_pair_lengths();

/// For each nibble (two codes): the `pshufb`/`tbl` mask that moves the two
/// values' bytes, read from the start of a 16-byte register, into two
/// little-endian 64-bit lanes. `0xff` selects a zero byte.
pub(crate) static PAIR_SHUFFLE: crate::simd::Aligned<[[u8; 16]; 16]> =
    crate::simd::Aligned(build_pair_shuffle());

/// For each control byte: [`PAIR_SHUFFLE`] of its low nibble, then of its
/// high nibble. AVX2's `vpshufb` applies each half to its own 128-bit lane,
/// loaded from the start of that pair.
#[cfg(target_arch = "x86_64")]
pub(crate) static LANE_SHUFFLE: crate::simd::Aligned<[[u8; 32]; 256]> =
    crate::simd::Aligned(build_lane_shuffle());

/// For each control byte: the `vpermb` index of each of the 32 output bytes
/// into 32 data bytes read from the group's start, with [`PERMUTE_KEEP`]
/// telling which output bytes are data (bit `i` for byte `i`; others zero).
#[cfg(target_arch = "x86_64")]
pub(crate) static PERMUTE: crate::simd::Aligned<[[u8; 32]; 256]> =
    crate::simd::Aligned(build_permute());

/// Bit `i` set when byte `i` of [`PERMUTE`]'s output is a data byte.
#[cfg(target_arch = "x86_64")]
pub(crate) static PERMUTE_KEEP: [u32; 256] = build_permute_keep();

/// The code of a value: the shortest of 1, 2, 4, 8 bytes that holds it.
#[inline(always)]
pub(crate) const fn code_of(value: u64) -> u8 {
    if value < 1 << 8 {
        0
    } else if value < 1 << 16 {
        1
    } else if value < 1 << 32 {
        2
    } else {
        3
    }
}

const fn pair_len(nibble: usize) -> usize {
    CODE_LEN[nibble & 3] + CODE_LEN[(nibble >> 2) & 3]
}

const fn build_lengths() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = (pair_len(c & 15) + pair_len(c >> 4)) as u8;
        c += 1;
    }
    t
}

const fn build_pair_lengths() -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut c = 0;
    while c < 16 {
        t[c] = pair_len(c) as u8;
        c += 1;
    }
    t
}

const fn build_pair_shuffle() -> [[u8; 16]; 16] {
    let mut t = [[0xffu8; 16]; 16];
    let mut c = 0;
    while c < 16 {
        let first = CODE_LEN[c & 3];
        let second = CODE_LEN[c >> 2];
        let mut j = 0;
        while j < first {
            t[c][j] = j as u8;
            j += 1;
        }
        j = 0;
        while j < second {
            t[c][8 + j] = (first + j) as u8;
            j += 1;
        }
        c += 1;
    }
    t
}

#[cfg(target_arch = "x86_64")]
const fn build_lane_shuffle() -> [[u8; 32]; 256] {
    let pairs = build_pair_shuffle();
    let mut t = [[0u8; 32]; 256];
    let mut c = 0;
    while c < 256 {
        let mut j = 0;
        while j < 16 {
            t[c][j] = pairs[c & 15][j];
            t[c][16 + j] = pairs[c >> 4][j];
            j += 1;
        }
        c += 1;
    }
    t
}

#[cfg(target_arch = "x86_64")]
const fn build_permute() -> [[u8; 32]; 256] {
    let lanes = build_lane_shuffle();
    let mut t = [[0u8; 32]; 256];
    let mut c = 0;
    while c < 256 {
        let second = pair_len(c & 15) as u8;
        let mut j = 0;
        while j < 32 {
            let m = lanes[c][j];
            t[c][j] = if m == 0xff {
                0
            } else if j < 16 {
                m
            } else {
                m + second
            };
            j += 1;
        }
        c += 1;
    }
    t
}

#[cfg(target_arch = "x86_64")]
const fn build_permute_keep() -> [u32; 256] {
    let lanes = build_lane_shuffle();
    let mut t = [0u32; 256];
    let mut c = 0;
    while c < 256 {
        let mut j = 0;
        while j < 32 {
            if lanes[c][j] != 0xff {
                t[c] |= 1 << j;
            }
            j += 1;
        }
        c += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_sum_the_codes() {
        for c in 0..256usize {
            let want: usize = (0..4).map(|i| CODE_LEN[(c >> (2 * i)) & 3]).sum();
            assert_eq!(LENGTHS[c] as usize, want, "{c:08b}");
            if c < 16 {
                let pair: usize = (0..2).map(|i| CODE_LEN[(c >> (2 * i)) & 3]).sum();
                assert_eq!(PAIR_LENGTHS[c] as usize, pair, "{c:04b}");
            }
        }
    }

    #[test]
    fn pair_shuffle_places_each_byte() {
        for c in 0..16usize {
            let (l0, l1) = (CODE_LEN[c & 3], CODE_LEN[c >> 2]);
            // Apply the mask to input bytes 100, 101, ... and read two lanes.
            let input: Vec<u8> = (100..116).collect();
            let out: Vec<u8> = PAIR_SHUFFLE[c]
                .iter()
                .map(|&m| if m >= 16 { 0 } else { input[m as usize] })
                .collect();
            let lane = |i: usize| u64::from_le_bytes(out[8 * i..8 * i + 8].try_into().unwrap());
            let value = |from: usize, len: usize| {
                let mut b = [0u8; 8];
                b[..len].copy_from_slice(&input[from..from + len]);
                u64::from_le_bytes(b)
            };
            assert_eq!(lane(0), value(0, l0), "{c:04b}");
            assert_eq!(lane(1), value(l0, l1), "{c:04b}");
        }
    }

    /// Every x86 table, applied to data bytes 100, 101, ..., gives each
    /// value's bytes in its 64-bit lane.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn x86_tables_place_each_value() {
        let input: Vec<u8> = (100..132).collect();
        for c in 0..256usize {
            let lens: Vec<usize> = (0..4).map(|i| CODE_LEN[(c >> (2 * i)) & 3]).collect();
            let starts = [0, lens[0], lens[0] + lens[1], lens[0] + lens[1] + lens[2]];
            let mut want = [0u8; 32];
            for i in 0..4 {
                want[8 * i..8 * i + lens[i]]
                    .copy_from_slice(&input[starts[i]..starts[i] + lens[i]]);
            }
            // vpshufb: each lane reads 16 bytes from its pair's start.
            let lanes: Vec<u8> = (0..32)
                .map(|j| match LANE_SHUFFLE[c][j] {
                    0xff => 0,
                    m => input[if j < 16 { 0 } else { starts[2] } + m as usize],
                })
                .collect();
            assert_eq!(lanes, want, "lanes {c:08b}");
            // vpermb with a zero mask: reads 32 bytes from the group's start.
            let perm: Vec<u8> = (0..32)
                .map(|j| {
                    if PERMUTE_KEEP[c] >> j & 1 == 1 {
                        input[PERMUTE[c][j] as usize]
                    } else {
                        0
                    }
                })
                .collect();
            assert_eq!(perm, want, "permute {c:08b}");
        }
    }

    #[test]
    fn code_of_is_the_shortest_length() {
        for v in [
            0u64,
            1,
            255,
            256,
            65535,
            65536,
            u32::MAX as u64,
            1 << 32,
            u64::MAX,
        ] {
            let len = CODE_LEN[code_of(v) as usize];
            assert!(len == 8 || v >> (8 * len) == 0, "{v} fits");
            if code_of(v) > 0 {
                let shorter = CODE_LEN[code_of(v) as usize - 1];
                assert!(v >> (8 * shorter) != 0, "{v} needs more than {shorter}");
            }
        }
    }
}
