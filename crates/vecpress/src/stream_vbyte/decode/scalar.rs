//! The portable Stream VByte decoder, checked at every value.
//!
//! This is the reference every kernel is tested against, and the path that
//! finishes what a kernel leaves: the last control byte when the count is
//! not a multiple of four, and anything a kernel declines near the end of
//! the data. It is the only place that builds decoding errors.
#![forbid(unsafe_code)]

use crate::stream_vbyte::tables::Variant;
use crate::{Error, Unit};

/// Control bytes for `n` values: one per four, rounded up.
#[inline(always)]
pub(crate) const fn control_len(n: usize) -> usize {
    n.div_ceil(4)
}

/// The data bytes that the first `n` codes of `control` announce (the codes
/// after the `n`th, in the last control byte, are ignored). `control` must
/// hold at least [`control_len`]`(n)` bytes.
pub(crate) fn data_len<V: Variant>(control: &[u8], n: usize) -> usize {
    let full = n / 4;
    let (words, rest) = control[..full].as_chunks::<8>();
    let mut len: usize = words.iter().map(|w| V::len8(u64::from_le_bytes(*w))).sum();
    len += rest
        .iter()
        .map(|&k| V::LENGTH[k as usize] as usize)
        .sum::<usize>();
    if !n.is_multiple_of(4) {
        let key = control[full] as usize;
        len += (0..n % 4)
            .map(|i| V::LENS[key >> (2 * i) & 3])
            .sum::<usize>();
    }
    len
}

/// The error for a control stream shorter than `n` values need.
#[cold]
pub(crate) fn control_truncated(input_len: usize, n: usize) -> Error {
    Error::Truncated {
        offset: input_len,
        needed: n,
        unit: Unit::Values,
    }
}

/// Reads a value of `len` bytes (0 to 4) at `data[pos..]`, if they are there.
///
/// One 4-byte load while 4 bytes remain; in the last 3 bytes (where short
/// streams spend most of their values) three byte loads clamped to the end
/// and a mask, with no loop and no branch on the length.
#[inline(always)]
pub(crate) fn read(data: &[u8], pos: usize, len: usize) -> Option<u32> {
    debug_assert!(len <= 4);
    let mask = (u64::from(u32::MAX) >> (32 - 8 * len)) as u32;
    if let Some(word) = data.get(pos..pos + 4) {
        return Some(u32::from_le_bytes([word[0], word[1], word[2], word[3]]) & mask);
    }
    if pos + len > data.len() {
        return None;
    }
    if len == 0 {
        return Some(0);
    }
    // pos < data.len() <= pos + 3; len <= data.len() - pos.
    let last = data.len() - 1;
    let byte = |k: usize| u32::from(data[(pos + k).min(last)]) << (8 * k);
    Some((byte(0) | byte(1) | byte(2)) & mask)
}

/// Decodes the values `out[4 * key..]` of a stream of `out.len()` values:
/// `control` is its control stream, `data` its data bytes (everything after
/// the control stream), of which the first `pos` are already decoded. With
/// `DELTA`, values are the running sum from `*prev`, left in `*prev`.
/// Returns the data bytes consumed in all; error offsets count from the
/// start of the caller's input, where `data` starts at `base`.
pub(crate) fn decode_from<V: Variant, const DELTA: bool>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    mut key: usize,
    mut pos: usize,
    prev: &mut u32,
    base: usize,
) -> Result<usize, Error> {
    let n = out.len();
    let mut acc = *prev;
    let mut i = 4 * key;
    while i < n {
        let keys = control[key];
        for code in 0..4 {
            if i == n {
                break;
            }
            let len = V::LENS[(keys >> (2 * code) & 3) as usize];
            let Some(v) = read(data, pos, len) else {
                *prev = acc;
                return Err(Error::Truncated {
                    offset: base + pos,
                    needed: n - i,
                    unit: Unit::Values,
                });
            };
            out[i] = if DELTA {
                acc = acc.wrapping_add(v);
                acc
            } else {
                v
            };
            pos += len;
            i += 1;
        }
        key += 1;
    }
    *prev = acc;
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream_vbyte::tables::{Codes0124, Codes1234};

    #[test]
    fn data_len_counts_only_the_values_asked_for() {
        // Codes 3, 0, 1, 2 then 3, 3, 3, 3.
        let control = [0b10_01_00_11u8, 0xff];
        assert_eq!(data_len::<Codes1234>(&control, 4), 4 + 1 + 2 + 3);
        assert_eq!(data_len::<Codes1234>(&control, 5), 10 + 4);
        assert_eq!(data_len::<Codes1234>(&control, 2), 5);
        assert_eq!(data_len::<Codes0124>(&control, 4), 4 + 1 + 2);
        assert_eq!(data_len::<Codes0124>(&control, 8), 7 + 16);
        let many = [0x1bu8; 40];
        for n in 0..=160 {
            let slow: usize = (0..n).map(|i| [4, 3, 2, 1][i % 4]).sum();
            assert_eq!(data_len::<Codes1234>(&many, n), slow, "{n}");
        }
    }

    #[test]
    fn read_takes_short_and_long_paths() {
        let data = [1u8, 2, 3, 4, 5];
        assert_eq!(read(&data, 0, 3), Some(0x030201));
        assert_eq!(read(&data, 1, 4), Some(0x05040302));
        assert_eq!(read(&data, 3, 2), Some(0x0504));
        assert_eq!(read(&data, 4, 1), Some(5));
        assert_eq!(read(&data, 5, 0), Some(0));
        assert_eq!(read(&data, 4, 2), None);
        assert_eq!(read(&data, 6, 0), None);
        assert_eq!(read(&data, 2, 2), Some(0x0403));
        assert_eq!(read(&data[..3], 1, 2), Some(0x0302));
        assert_eq!(read(&data[..3], 0, 3), Some(0x030201));
        assert_eq!(read(&data[..3], 3, 0), Some(0));
        // Every position and length near the end, against bytes one by one.
        let data: Vec<u8> = (1..=9).map(|b| b * 17).collect();
        for size in 0..=data.len() {
            for pos in 0..=size + 1 {
                for len in 0..=4 {
                    let slow = data[..size]
                        .get(pos..pos + len)
                        .map(|b| b.iter().rev().fold(0u32, |v, &b| v << 8 | u32::from(b)));
                    assert_eq!(read(&data[..size], pos, len), slow, "{size} {pos} {len}");
                }
            }
        }
    }
}
