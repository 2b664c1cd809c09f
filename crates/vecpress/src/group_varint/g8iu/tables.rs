//! The Varint-G8IU decoding tables, computed at compile time from the
//! control byte: for each of the 256 control bytes, how many integers the
//! block holds and the two `pshufb`/`tbl` masks that move them into two
//! registers of four u32 lanes.
//!
//! Bit `j` of the control byte is 0 when data byte `j` ends an integer. An
//! integer runs from the byte after the previous end (or byte 0) to its own
//! end; integer `i`'s byte `k` goes to byte `4 (i mod 4) + k` of register
//! `i / 4`. Bytes no integer uses get `0xff` (a zero byte), so the lanes past
//! the last integer are zero. A control byte with no integer, or with an
//! integer of more than 4 bytes, gets a count of 0 (and no mask): the
//! decoders stop there and the checked scalar path reports it.
#![forbid(unsafe_code)]

/// Integers in the block (1 to 8), or 0 for a control byte the format forbids.
pub(super) static COUNT: [u8; 256] = build_count();

/// The two shuffle masks of each control byte (integers 0-3, integers 4-7),
/// over the block's 8 data bytes.
pub(super) static SHUFFLE: crate::simd::Aligned<[[[u8; 16]; 2]; 256]> =
    crate::simd::Aligned(build_shuffle());

/// The integers of a block as (first byte, length) pairs, and their count;
/// a count of 0 when the control byte is invalid.
const fn integers(control: usize) -> ([(usize, usize); 8], usize) {
    let mut ints = [(0, 0); 8];
    let (mut count, mut start, mut j) = (0, 0, 0);
    while j < 8 {
        if (control >> j) & 1 == 0 {
            let len = j + 1 - start;
            if len > 4 {
                return ([(0, 0); 8], 0);
            }
            ints[count] = (start, len);
            count += 1;
            start = j + 1;
        }
        j += 1;
    }
    (ints, count)
}

const fn build_count() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut control = 0;
    while control < 256 {
        table[control] = integers(control).1 as u8;
        control += 1;
    }
    table
}

const fn build_shuffle() -> [[[u8; 16]; 2]; 256] {
    let mut table = [[[0xffu8; 16]; 2]; 256];
    let mut control = 0;
    while control < 256 {
        let (ints, count) = integers(control);
        let mut i = 0;
        while i < count {
            let (start, len) = ints[i];
            let mut k = 0;
            while k < len {
                table[control][i / 4][4 * (i % 4) + k] = (start + k) as u8;
                k += 1;
            }
            i += 1;
        }
        control += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_the_definition() {
        for control in 0..256usize {
            // The lengths: split the 8 bits after each 0 bit.
            let bits: Vec<bool> = (0..8).map(|j| control >> j & 1 == 1).collect();
            let mut lens = Vec::new();
            let mut run = 0;
            for &more in &bits {
                run += 1;
                if !more {
                    lens.push(run);
                    run = 0;
                }
            }
            let valid = !lens.is_empty() && lens.iter().all(|&l| l <= 4);
            let mut regs = vec![0xffu8; 32];
            if valid {
                let mut start = 0;
                for (i, &len) in lens.iter().enumerate() {
                    for k in 0..len {
                        regs[16 * (i / 4) + 4 * (i % 4) + k] = (start + k) as u8;
                    }
                    start += len;
                }
            }
            let count = if valid { lens.len() } else { 0 };
            assert_eq!(usize::from(COUNT[control]), count, "control {control:08b}");
            assert_eq!(SHUFFLE[control].concat(), regs, "control {control:08b}");
        }
        // Eight one-byte integers; two four-byte ones; the paper's Fig. 2b.
        assert_eq!(COUNT[0], 8);
        assert_eq!(COUNT[0b0111_0111], 2);
        assert_eq!(COUNT[0b1010_1000], 5);
        // Five bytes in one integer, and no integer at all.
        assert_eq!(COUNT[0b1110_1111], 0);
        assert_eq!(COUNT[0xff], 0);
    }
}
