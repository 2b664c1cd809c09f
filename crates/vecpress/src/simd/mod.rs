//! Thin vector types shared by kernels, in the manner of memchr's `Vector`:
//! small traits holding only the operations the generic algorithms need,
//! implemented once per register type, so that a codec's algorithm is
//! written once (its `generic.rs`) and instantiated per ISA level by that
//! level's `#[target_feature]` entry points.
//!
//! * [`Vector`]: a 16-byte register (`__m128i`, `uint8x16_t`) seen as u8,
//!   u32 or u64 elements: the Stream VByte (u32 and u64), Varint-GB and
//!   G8IU decoders, the Stream VByte seek, LZ4's `Shuffle16` copier.
//! * [`Lanes`]: a register of one or more 16-byte lanes (`__m128i`,
//!   `__m256i`, `uint8x16_t`) with operations that stay within a lane, so
//!   that the wider register runs two 16-byte problems side by side: the
//!   Byte Split transposition.
//! * [`u32s::U32s`] (x86-64): a register of 4, 8 or 16 u32 (`__m128i`,
//!   `__m256i`, `__m512i`) with shifts, masks, adds and a tile's
//!   transposed store: the FastLanes fused delta decoder, one generic
//!   decode for the three widths.
//!
//! Kernels built on whole-register operations that only one level has
//! (AVX-512 byte permutes and expands, AVX2 lane-crossing permutes) call
//! them directly, through the helpers in `x86.rs` where several kernels
//! share one: a trait method that a single type implements would add a name
//! and save no code.
//!
//! Every method is `unsafe` and `#[inline(always)]`, never
//! `#[target_feature]`: they inline into the kernel entry point that enables
//! the features, which is where they get compiled for the ISA.
//!
//! # Safety
//!
//! Calling any method requires the CPU to support the instruction set of the
//! implementing type (SSSE3 + SSE4.1 for `__m128i`, AVX2 for `__m256i`,
//! AVX-512 for `__m512i`, Neon for `uint8x16_t`); methods that take pointers state their ranges.

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
#[cfg(target_arch = "x86_64")]
pub(crate) mod tiny_gaps;
#[cfg(target_arch = "x86_64")]
pub(crate) mod u32s;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

/// A table laid out from the start of a 64-byte cache line, so that no
/// row of 16, 32 or 64 bytes that a kernel loads straddles two lines: a
/// byte array's own alignment is 1, and where the linker put a shuffle
/// table, one row in four of it was split (a split load takes a second
/// cache access, on the chain of a decoder's steps).
#[repr(C, align(64))]
pub(crate) struct Aligned<T>(pub(crate) T);

impl<T> core::ops::Deref for Aligned<T> {
    type Target = T;

    #[inline(always)]
    fn deref(&self) -> &T {
        &self.0
    }
}

/// A 16-byte register.
///
/// The code written once over it (the Stream VByte decoder's 16-byte
/// steps among it) runs at every x86 level with `__m128i`, VEX-encoded
/// where the level enables AVX; wider steps are each level's own code (the
/// AVX2 Stream VByte kernel's pairs of groups, the AVX-512 kernel's
/// `vpexpandb`).
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

    /// `x` in both u64 elements.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn splat_u64(x: u64) -> Self;

    /// Element-wise wrapping u64 addition.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn add_u64(self, other: Self) -> Self;

    /// `(0, self[0])` in u64 elements: the low element moved up, zero below.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn shift_up_u64(self) -> Self;

    /// The high u64 element in both elements.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn splat_high_u64(self) -> Self;

    /// The low u64 element.
    ///
    /// # Safety
    /// The CPU supports the type's instruction set.
    unsafe fn low_u64(self) -> u64;
}

/// A register of `LANES` lanes of 16 bytes, with operations that stay within
/// each lane (loads and stores aside): `__m128i` and `uint8x16_t` (one lane)
/// and `__m256i` (two, AVX2), so that one algorithm runs one or two 16-byte
/// problems side by side: Byte Split's transposition and Bit Split's.
///
/// # Safety
/// Every method needs the CPU features of its implementation (`__m256i`:
/// AVX2); callers are `#[target_feature]` kernels that have them. Pointers
/// must be valid for the bytes each method says it reads or writes.
pub(crate) trait Lanes: Copy {
    /// 16-byte lanes per register.
    const LANES: usize;
    /// All zeros.
    unsafe fn zero() -> Self;
    /// Reads `16 * LANES` bytes at `p`.
    unsafe fn load(p: *const u8) -> Self;
    /// Writes `16 * LANES` bytes at `p`.
    unsafe fn store(self, p: *mut u8);
    /// Reads lane `h` from the 16 bytes at `p + h * stride`.
    unsafe fn load_lanes(p: *const u8, stride: usize) -> Self;
    /// Writes lane `h` to the 16 bytes at `p`.
    unsafe fn store_lane(self, h: usize, p: *mut u8);
    /// Interleaves the `e`-byte elements (e = 1, 2, 4, 8) of the low halves
    /// of each lane of `a` and `b`: `a0 b0 a1 b1 ...`.
    unsafe fn zip_lo(a: Self, b: Self, e: usize) -> Self;
    /// Like [`Lanes::zip_lo`], for the high halves.
    unsafe fn zip_hi(a: Self, b: Self, e: usize) -> Self;
    /// Byte `p` of each lane becomes byte `table[p]` of that lane.
    unsafe fn shuffle(self, table: &[u8; 16]) -> Self;
    /// `x` in every byte.
    unsafe fn splat(x: u8) -> Self;
    /// Bitwise and.
    unsafe fn and(self, other: Self) -> Self;
    /// Bitwise exclusive or.
    unsafe fn xor(self, other: Self) -> Self;
    /// Each 16-bit element shifted right by `N` bits (1 to 15), zeros in.
    unsafe fn shr_u16<const N: i32>(self) -> Self;
    /// Each 16-bit element shifted left by `N` bits (1 to 15), zeros in.
    unsafe fn shl_u16<const N: i32>(self) -> Self;
}

#[cfg(test)]
mod tests {
    use super::Aligned;
    use crate::stream_vbyte::tables::{DECODE, DECODE_0124, ENCODE, ENCODE_0124};

    /// The shuffle tables start a cache line wherever the linker puts
    /// them: a row load never straddles two lines.
    #[test]
    fn shuffle_tables_start_a_cache_line() {
        assert_eq!(core::mem::align_of::<Aligned<[u8; 1]>>(), 64);
        for table in [&DECODE, &DECODE_0124, &ENCODE, &ENCODE_0124] {
            assert_eq!(table.as_ptr() as usize % 64, 0);
        }
    }
}
