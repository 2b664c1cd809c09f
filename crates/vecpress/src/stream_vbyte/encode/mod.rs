//! Stream VByte encoding: the portable encoder and the kernels.

pub(crate) mod scalar;

#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse41;

use super::tables::Variant;
use crate::Isa;

pub(crate) use scalar::{data_len, encode_from};

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
