//! The Masked VByte tables (paper §IV), computed at compile time.
//!
//! A kernel gathers the continuation bits of 12 input bytes into a 12-bit
//! mask (bit k = high bit of byte k) and looks it up in [`DECODE`]: how many
//! bytes the next step consumes, and which of the 170 [`SHUFFLE`] masks moves
//! those bytes into place. The step decodes, in the paper's order of
//! preference:
//!
//! | shuffle index | values | bytes each | lane of a value  | cases     |
//! |---------------|--------|------------|------------------|-----------|
//! | `0..64`       | 6      | 1-2        | 16 bits          | 2^6 = 64  |
//! | `64..145`     | 4      | 1-3        | 32 bits          | 3^4 = 81  |
//! | `145..170`    | 2      | 1-5        | 64 bits          | 5^2 = 25  |
//!
//! Within its case, the index counts the byte lengths of the values as the
//! digits of a number: `first + (len_0 - 1) + (len_1 - 1) * max + ...`, with
//! `max` the longest length of the case (2, 3 or 5).
//!
//! A shuffle mask puts byte `j` of value `i` at byte `lane * i + place[j]` of
//! the register; every other byte is `0xff`, which `pshufb` (and Neon's `tbl`)
//! turns into a zero byte. The 6- and 4-value cases keep a value's bytes in
//! order (`place = 0, 1, 2`); the 2-value case uses the paper's layout
//! `Y = (b, c, d, e + a * 2^8)_16` for the bytes `a, b, c, d, e` of a value,
//! which its `pmullw` trick needs.
#![forbid(unsafe_code)]

/// The bytes a step looks at, and the bits of the mask that describes them.
pub(crate) const WINDOW: usize = 12;

/// Shuffle indices below this decode 6 values of 1-2 bytes.
pub(crate) const SIX_END: u8 = 64;
/// Shuffle indices in `SIX_END..FOUR_END` decode 4 values of 1-3 bytes; the
/// rest, up to [`SHUFFLES`], decode 2 values of 1-5 bytes.
pub(crate) const FOUR_END: u8 = 145;
/// The number of shuffle masks.
pub(crate) const SHUFFLES: usize = 170;

/// For each 12-bit mask of continuation bits (bit k = high bit of input byte k):
/// [bytes consumed (0 when the 12 bytes start with no decodable case, e.g. a varint longer than 5 bytes), shuffle index in 0..170].
pub(crate) static DECODE: crate::simd::Aligned<[[u8; 2]; 4096]> =
    crate::simd::Aligned(build_decode());

/// The 170 pshufb masks: 0..64 six values of 1-2 bytes, 64..145 four values of 1-3 bytes, 145..170 two values of 1-5 bytes. 0xff (-1 / high bit set) selects a zero byte.
pub(crate) static SHUFFLE: crate::simd::Aligned<[[u8; 16]; 170]> =
    crate::simd::Aligned(build_shuffle());

/// One of the three ways a step decodes.
struct Case {
    /// Values decoded.
    count: usize,
    /// Most bytes a value may take.
    max: usize,
    /// First shuffle index of the case.
    first: usize,
    /// Bytes of the register per value.
    lane: usize,
    /// Where byte `j` of a value goes within its lane.
    place: [usize; 5],
}

/// The cases, in the paper's order of preference.
const CASES: [Case; 3] = [
    Case {
        count: 6,
        max: 2,
        first: 0,
        lane: 2,
        place: [0, 1, 0, 0, 0],
    },
    Case {
        count: 4,
        max: 3,
        first: SIX_END as usize,
        lane: 4,
        place: [0, 1, 2, 0, 0],
    },
    // Y = (b, c, d, e + a * 2^8)_16: bytes b, 0, c, 0, d, 0, e, a.
    Case {
        count: 2,
        max: 5,
        first: FOUR_END as usize,
        lane: 8,
        place: [7, 0, 2, 4, 6],
    },
];

/// Byte length of the varint starting at byte `start` of the window: one more
/// than its run of continuation bits. A varint that runs past the window gets
/// `WINDOW + 1`, longer than any case allows.
const fn varint_len(mask: usize, start: usize) -> usize {
    let mut end = start;
    while end < WINDOW && (mask >> end) & 1 == 1 {
        end += 1;
    }
    if end >= WINDOW {
        WINDOW + 1
    } else {
        end - start + 1
    }
}

/// `[consumed, index]` if the first `case.count` varints of the window each
/// take at most `case.max` bytes, else `[0, 0]`.
const fn try_case(mask: usize, case: &Case) -> [u8; 2] {
    let mut start = 0;
    let mut index = case.first;
    let mut weight = 1;
    let mut i = 0;
    while i < case.count {
        let len = varint_len(mask, start);
        if len > case.max {
            return [0, 0];
        }
        index += (len - 1) * weight;
        weight *= case.max;
        start += len;
        i += 1;
    }
    [start as u8, index as u8]
}

/// [`DECODE`]: for each mask, the first case that fits.
const fn build_decode() -> [[u8; 2]; 4096] {
    let mut table = [[0u8; 2]; 4096];
    let mut mask = 0;
    while mask < 1 << WINDOW {
        let mut c = 0;
        while c < CASES.len() {
            let entry = try_case(mask, &CASES[c]);
            if entry[0] != 0 {
                table[mask] = entry;
                break;
            }
            c += 1;
        }
        mask += 1;
    }
    table
}

/// [`SHUFFLE`]: for each case, every combination of byte lengths.
const fn build_shuffle() -> [[u8; 16]; 170] {
    let mut table = [[0xffu8; 16]; SHUFFLES];
    let mut c = 0;
    while c < CASES.len() {
        let case = &CASES[c];
        // Every combination of lengths, as the digits of `index - first`.
        let mut digits = 0;
        while digits < case.max.pow(case.count as u32) {
            let (mut rest, mut start, mut i) = (digits, 0, 0);
            while i < case.count {
                let len = rest % case.max + 1;
                rest /= case.max;
                let mut j = 0;
                while j < len {
                    table[case.first + digits][case.lane * i + case.place[j]] = (start + j) as u8;
                    j += 1;
                }
                start += len;
                i += 1;
            }
            digits += 1;
        }
        c += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Every tuple of `count` lengths in `1..=max`, in index order (the
    /// first length varies fastest).
    fn tuples(count: usize, max: usize) -> Vec<Vec<usize>> {
        let mut all: Vec<Vec<usize>> = vec![vec![]];
        for _ in 0..count {
            all = (1..=max)
                .flat_map(|len| all.iter().map(move |t| [t.clone(), vec![len]].concat()))
                .collect();
        }
        all
    }

    /// The continuation bits of varints of these lengths, and how many there are.
    fn pattern(lens: &[usize]) -> (usize, usize) {
        let mut bits = 0;
        let mut at = 0;
        for &len in lens {
            bits |= ((1 << (len - 1)) - 1) << at; // set on every byte but the last
            at += len;
        }
        (bits, at)
    }

    #[test]
    fn decode_matches_brute_force() {
        let cases = [(6, 2, 0), (4, 3, 64), (2, 5, 145)];
        for (mask, &entry) in DECODE.iter().enumerate() {
            let mut expected = [0u8, 0];
            'cases: for &(count, max, first) in &cases {
                for (k, lens) in tuples(count, max).iter().enumerate() {
                    let (bits, n) = pattern(lens);
                    if n <= WINDOW && mask & ((1 << n) - 1) == bits {
                        expected = [n as u8, (first + k) as u8];
                        break 'cases;
                    }
                }
            }
            assert_eq!(entry, expected, "mask {mask:012b}");
        }
    }

    #[test]
    fn shuffle_matches_paper_layouts() {
        let mut expected = Vec::new();
        // Byte `j` of the varint at `start` with length `len`, or a zero byte.
        let byte = |start: usize, len: usize, j: usize| {
            if j < len { (start + j) as u8 } else { 0xff }
        };
        for (count, max) in [(6, 2), (4, 3), (2, 5)] {
            for lens in tuples(count, max) {
                let mut row = Vec::new();
                let mut start = 0;
                for &len in &lens {
                    let b = |j| byte(start, len, j);
                    match count {
                        6 => row.extend([b(0), b(1)]),
                        4 => row.extend([b(0), b(1), b(2), 0xff]),
                        // (b, c, d, e + a * 2^8)_16
                        _ => row.extend([b(1), 0xff, b(2), 0xff, b(3), 0xff, b(4), b(0)]),
                    }
                    start += len;
                }
                row.resize(16, 0xff);
                expected.push(row);
            }
        }
        assert_eq!(expected.len(), SHUFFLES);
        for (i, row) in expected.iter().enumerate() {
            assert_eq!(&SHUFFLE[i][..], &row[..], "shuffle {i}");
        }
    }

    #[test]
    fn exactly_170_distinct_masks_all_used() {
        let distinct: HashSet<[u8; 16]> = SHUFFLE.iter().copied().collect();
        assert_eq!(distinct.len(), 170);
        let used: HashSet<u8> = DECODE.iter().filter(|e| e[0] != 0).map(|e| e[1]).collect();
        assert_eq!(used.len(), 170);
        assert!(used.iter().all(|&i| usize::from(i) < SHUFFLES));
        // Invalid windows: a first varint of more than 5 bytes.
        assert_eq!(DECODE[0b11111], [0, 0]);
        assert_eq!(DECODE[0b01111], [5 + 1, FOUR_END + 4]);
    }
}
