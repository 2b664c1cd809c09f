//! The integer types a FastLanes block holds: u8, u16, u32 and u64, each
//! with the constants of its layout and its compiled kernels.
#![forbid(unsafe_code)]

use core::ops::{BitAnd, BitOr, Shl, Shr};

/// An unsigned integer type that FastLanes packs: `u8`, `u16`, `u32` or
/// `u64` (sealed: the layout is defined for these four).
///
/// A block of 1024 values is `Self::LANES` lanes of `Self::BITS` rows: the
/// 1024-bit virtual register holds one row.
///
/// ```
/// use vecpress::bitpack::fastlanes::Word;
/// assert_eq!(<u32 as Word>::LANES, 32);
/// assert_eq!(<u8 as Word>::LANES, 128);
/// assert_eq!(<u64 as Word>::BITS, 64);
/// ```
pub trait Word:
    sealed::Sealed
    + Copy
    + Default
    + Eq
    + Ord
    + core::fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
{
    /// Bits of the type: rows of a lane.
    const BITS: usize;
    /// Lanes of a block: `1024 / BITS`.
    const LANES: usize = 1024 / Self::BITS;
    /// Bytes of the type.
    const SIZE: usize = Self::BITS / 8;
    /// Zero.
    const ZERO: Self;
    /// Every bit set.
    const ONES: Self;
}

pub(super) mod sealed {
    use super::super::generic::Kernel;
    use super::super::kernels::Tables;

    /// The operations the kernels need, kept out of the public API.
    pub trait Sealed: Sized + Tables + Kernel {
        /// The little-endian word at bytes `at .. at + SIZE` of `bytes`.
        fn load(bytes: &[u8], at: usize) -> Self;
        /// Stores `self` little-endian at bytes `at .. at + SIZE` of `bytes`.
        fn store(self, bytes: &mut [u8], at: usize);
        /// `self + other`, wrapping.
        fn add(self, other: Self) -> Self;
        /// `self - other`, wrapping.
        fn sub(self, other: Self) -> Self;
        /// The significant bits of `self` (0 for 0).
        fn bit_len(self) -> u8;
    }
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const BITS: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;
            const ONES: Self = <$t>::MAX;
        }

        impl sealed::Sealed for $t {
            #[inline(always)]
            fn load(bytes: &[u8], at: usize) -> Self {
                <$t>::from_le_bytes(bytes[at..at + Self::SIZE].try_into().unwrap())
            }
            #[inline(always)]
            fn store(self, bytes: &mut [u8], at: usize) {
                bytes[at..at + Self::SIZE].copy_from_slice(&self.to_le_bytes());
            }
            #[inline(always)]
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            #[inline(always)]
            fn sub(self, other: Self) -> Self {
                self.wrapping_sub(other)
            }
            #[inline(always)]
            fn bit_len(self) -> u8 {
                (<$t>::BITS - self.leading_zeros()) as u8
            }
        }
    };
}

word!(u8);
word!(u16);
word!(u32);
word!(u64);
