//! Stream VByte encoding: the portable encoder and the kernels.

pub(crate) mod scalar;

#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse41;

use super::tables::Variant;
use crate::Isa;

pub(crate) use scalar::{data_len, encode_from};

/// The one map from ISA level to encoding kernel: encodes a prefix of the
/// whole groups of `values`; returns (control bytes, data bytes) written.
/// `isa` is supported by the CPU. AVX2 runs the SSE4.1 encoder; AVX-512 has
/// its own for the standard format (the 0124 variant runs SSE4.1's), which
/// leaves the last groups to SSE4.1's.
pub(super) fn bulk<V: Variant, const DELTA: bool>(
    isa: Isa,
    values: &[u32],
    control: &mut [u8],
    data: &mut [u8],
    prev: &mut u32,
) -> (usize, usize) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the
        // CPU has the Avx512 level (and SSE4.1); `control` holds a byte per
        // group of four values, and each kernel gets the groups the one
        // before left, with the bytes after those it wrote.
        Isa::Avx512 if V::LENGTH[0] == 4 => unsafe {
            let (k, p) = avx512::encode::<DELTA>(values, control, data, prev);
            let (k2, p2) = sse41::encode::<V, DELTA>(
                &values[4 * k..],
                &mut control[k..],
                &mut data[p..],
                prev,
            );
            (k + k2, p + p2)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the
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
