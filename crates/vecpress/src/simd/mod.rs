//! Thin vector types shared by kernels, in the manner of memchr's `Vector`:
//! one small trait holding only the operations the generic algorithms need,
//! implemented once per register type (`__m128i`, `uint8x16_t`).
//!
//! Every method is `unsafe` and `#[inline(always)]`, never
//! `#[target_feature]`: they inline into the kernel entry point that enables
//! the features, which is where they get compiled for the ISA.
//!
//! # Safety
//!
//! Calling any method requires the CPU to support the instruction set of the
//! implementing type (SSSE3 + SSE4.1 for `__m128i`, Neon
//! for `uint8x16_t`); methods that take pointers state their ranges.

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
#[cfg(target_arch = "x86_64")]
pub(crate) mod tiny_gaps;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

/// A 16-byte register.
///
/// 32- and 64-byte registers (two and four 16-byte loads inserted into one)
/// measured slower than 16-byte steps in the Stream VByte decoder, so the
/// kernels of every x86 level use `__m128i`, VEX-encoded where they enable
/// AVX.
pub(crate) trait Vector: Copy {
    /// The 16 bytes at `ptr`.
    ///
    /// # Safety
    /// Those bytes are readable.
    unsafe fn load(ptr: *const u8) -> Self;

    /// The 8 bytes at `ptr` in the low half, zeros in the high half.
    ///
    /// # Safety
    /// Those bytes are readable.
    #[cfg_attr(not(feature = "g8iu"), allow(dead_code))] // read by G8IU only
    unsafe fn load8(ptr: *const u8) -> Self;

    /// The 4 bytes at `ptr`, zero-extended to u32 elements.
    ///
    /// # Safety
    /// Those bytes are readable.
    unsafe fn widen_u8(ptr: *const u8) -> Self;

    /// Stores the register to the 16 bytes at `ptr`.
    ///
    /// # Safety
    /// Those bytes are writable.
    unsafe fn store(self, ptr: *mut u8);

    /// Byte `k` of the result is byte `mask[k] & 15` of `self`, or zero where
    /// `mask[k]` has its high bit set (`pshufb`, `tbl`).
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn shuffle(self, mask: Self) -> Self;

    /// Each byte plus `k`, saturating at 255: shifts a [`Vector::shuffle`]
    /// mask's indices by `k` while its zeroing bytes (255) stay zeroing.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn add_sat_u8(self, k: u8) -> Self;

    /// The inclusive prefix sum of the u32 elements, wrapping.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn prefix_sum_u32(self) -> Self;

    /// Element-wise wrapping u32 addition.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn add_u32(self, other: Self) -> Self;

    /// `x` in the first 16 bytes (little-endian), zeros after them: built in
    /// registers, not through memory.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn from_u128(x: u128) -> Self;

    /// `x` in every u32 element.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn splat_u32(x: u32) -> Self;

    /// The last u32 element in every element.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn splat_last_u32(self) -> Self;

    /// The sum of the 16 bytes.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn sum_u8(self) -> u32;

    /// u32 elements whose sum is the sum of the 16 bytes (`psadbw`: two
    /// sums of 8 bytes, in elements 0 and 2; Neon: four sums of 4).
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn sum_u8_lanes(self) -> Self;

    /// The bits, lowest for element 0, of the u32 elements at least the
    /// matching ones of `target` (unsigned); 4 bits, one per element.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn ge_mask_u32(self, target: Self) -> u32;

    /// Bitwise or.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn or(self, other: Self) -> Self;

    /// The sum of the u32 elements, wrapping.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn sum_u32(self) -> u32;

    /// The last u32 element.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn last_u32(self) -> u32;
}
