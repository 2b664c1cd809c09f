//! The portable Stream VByte encoder: the reference for the encoding
//! kernels, and the path that finishes what they leave.
#![forbid(unsafe_code)]

use crate::stream_vbyte::tables::Variant;

/// Encodes `values[4 * key..]` of a stream: control byte `key` onwards goes to
/// `control[key..]`, data from `data[pos..]`. With `DELTA`, stores the gaps
/// from `*prev` (left at the last value). Returns the data bytes written in
/// all. `control` must hold `values.len().div_ceil(4)` bytes and `data`
/// the data length (4 bytes a value always suffice).
pub(crate) fn encode_from<V: Variant, const DELTA: bool>(
    values: &[u32],
    control: &mut [u8],
    data: &mut [u8],
    key: usize,
    mut pos: usize,
    prev: &mut u32,
) -> usize {
    let mut last = *prev;
    for (group, slot) in values[4 * key..].chunks(4).zip(&mut control[key..]) {
        let mut keys = 0u8;
        for (i, &value) in group.iter().enumerate() {
            let v = if DELTA {
                let gap = value.wrapping_sub(last);
                last = value;
                gap
            } else {
                value
            };
            let code = V::code(v);
            let len = V::LENS[code as usize];
            data[pos..pos + len].copy_from_slice(&v.to_le_bytes()[..len]);
            pos += len;
            keys |= code << (2 * i);
        }
        *slot = keys;
    }
    *prev = last;
    pos
}

/// The data bytes of `values` (gaps from `prev` with `DELTA`).
pub(crate) fn data_len<V: Variant, const DELTA: bool>(values: &[u32], mut prev: u32) -> usize {
    values
        .iter()
        .map(|&value| {
            let v = if DELTA {
                let gap = value.wrapping_sub(prev);
                prev = value;
                gap
            } else {
                value
            };
            V::LENS[V::code(v) as usize]
        })
        .sum()
}
