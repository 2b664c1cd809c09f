//! Stream VByte decoding: the checked scalar reference and the SIMD kernels.

pub(crate) mod scalar;

use super::tables::Variant;
use crate::Isa;

/// Whether `isa` has a decoding kernel of its own.
pub(super) fn has_kernel(isa: Isa) -> bool {
    matches!(isa, Isa::Scalar)
}

/// The one map from ISA level to decoding kernel: decodes a prefix of the
/// whole groups (`control` is the full control stream of `out.len()`
/// values), returns (control bytes, data bytes) consumed. `isa` is supported.
pub(super) fn bulk<V: Variant, const DELTA: bool>(
    isa: Isa,
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    let _ = (isa, control, data, out, prev);
    (0, 0)
}
