//! The one-pass kernels of `generic.rs` on Neon registers.

use core::arch::aarch64::*;

use super::generic;

generic::kernels!(neon, uint8x16_t, "neon", "The kernels on Neon registers.");
