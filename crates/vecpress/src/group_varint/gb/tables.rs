//! The Varint-GB decoding tables, computed at compile time from the control
//! byte: for each of the 256 control bytes, how many data bytes the group
//! takes and the `pshufb`/`tbl` mask that moves them into four u32 lanes.
//!
//! Value `i` of a group takes `((control >> 2i) & 3) + 1` bytes and starts
//! after the bytes of values `0..i`; its byte `j` goes to byte `4i + j` of the
//! register. The bytes a value does not use get `0xff` (a zero byte).
#![forbid(unsafe_code)]

/// Data bytes of the group (4 to 16), for each control byte.
pub(super) static LEN: [u8; 256] = build_len();

/// The shuffle mask of each control byte, over the 16 bytes that follow it.
pub(super) static SHUFFLE: crate::simd::Aligned<[[u8; 16]; 256]> =
    crate::simd::Aligned(build_shuffle());

/// Bytes that value `i` (0..4) of a group with this control byte takes.
const fn value_len(control: usize, i: usize) -> usize {
    ((control >> (2 * i)) & 3) + 1
}

const fn build_len() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut control = 0;
    while control < 256 {
        let mut i = 0;
        while i < 4 {
            table[control] += value_len(control, i) as u8;
            i += 1;
        }
        control += 1;
    }
    table
}

const fn build_shuffle() -> [[u8; 16]; 256] {
    let mut table = [[0xffu8; 16]; 256];
    let mut control = 0;
    while control < 256 {
        let mut start = 0;
        let mut i = 0;
        while i < 4 {
            let len = value_len(control, i);
            let mut j = 0;
            while j < len {
                table[control][4 * i + j] = (start + j) as u8;
                j += 1;
            }
            start += len;
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
            let lens: Vec<usize> = (0..4).map(|i| (control >> (2 * i) & 3) + 1).collect();
            assert_eq!(usize::from(LEN[control]), lens.iter().sum::<usize>());
            let mut row = Vec::new();
            let mut start = 0;
            for &len in &lens {
                for j in 0..4 {
                    row.push(if j < len { (start + j) as u8 } else { 0xff });
                }
                start += len;
            }
            assert_eq!(&SHUFFLE[control][..], &row[..], "control {control:08b}");
        }
        // All one-byte values: the four bytes, one per lane.
        assert_eq!(LEN[0], 4);
        assert_eq!(SHUFFLE[0][..8], [0, 0xff, 0xff, 0xff, 1, 0xff, 0xff, 0xff]);
        assert_eq!(LEN[0xff], 16);
        assert_eq!(SHUFFLE[0xff], core::array::from_fn(|i| i as u8));
    }
}
