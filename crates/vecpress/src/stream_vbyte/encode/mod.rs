//! Stream VByte encoding: the portable encoder (the reference for the
//! kernels, and the path that finishes what they leave) and the dispatch.

#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse41;

use super::tables::Variant;
use crate::Isa;

/// The one map from ISA level to encoding kernel: encodes a prefix of the
/// whole groups of `values`; returns (control bytes, data bytes) written.
/// `isa` is supported by the CPU. AVX2 and AVX-512 run the SSE4.1 encoder.
pub(super) fn bulk<V: Variant, const DELTA: bool>(
    isa: Isa,
    values: &[u32],
    control: &mut [u8],
    data: &mut [u8],
    prev: &mut u32,
) -> (usize, usize) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()` or `Isa::check()`, so the
        // CPU has SSE4.1 (the higher levels imply it); `control` holds a
        // byte per group of four values.
        Isa::Sse41 | Isa::Avx2 | Isa::Avx512 => unsafe {
            sse41::encode::<V, DELTA>(values, control, data, prev)
        },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has Neon.
        Isa::Neon => unsafe { neon::encode::<V, DELTA>(values, control, data, prev) },
        _ => {
            let _ = (values, control, data, prev);
            (0, 0)
        }
    }
}

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
