//! Random access on FastLanes: one value of a packed block read where it
//! lies, with no buffer of the block.
//!
//! ```text
//! value i of a block (type of T bits, LANES = 1024 / T, width W):
//!     a = i / 128, b = i mod 128: lane l = b mod LANES, row
//!     r = 8 FL_ORDER[(b - l) / 16] + a   (FL_ORDER is its own inverse:
//!     it reverses 3 bits), the inverse of index(r, l) =
//!     FL_ORDER[r / 8] 16 + (r mod 8) 128 + l
//!     its bits start at bit r W of the lane, in word q = r W / T at bit
//!     s = r W mod T; the lane's word q is word LANES q + l of the block
//!     v = (word(q) >> s | word(q + 1) << (T - s)) & mask(W), the second
//!     word only when s + W > T
//! delta, natural index i (the block transposed before packing):
//!     lane l holds the T consecutive values from p = i - i mod T, row
//!     r = i mod T of it; l = FL_ORDER[(p mod 64) / 8] 16 + p / 64, the
//!     inverse of transposed_index(l) = (l mod 16) 64 + FL_ORDER[l / 16] 8
//!     v = bases[l] + the lane's rows 0..=r (at most T reads, in place)
//! ```
#![forbid(unsafe_code)]

use super::args::{check_width, lane_bases};
use super::generic::FL_ORDER;
use super::word::Word;
use super::{BLOCK, packed_len};
use crate::{Error, Unit};

/// Value `i` (natural order) of the block of `width`-bit values packed by
/// [`pack`](super::pack) at the start of `input`, read in place: a few
/// shifts, whatever `i`.
///
/// `Err(InvalidArgument)` for a width above the type's bits,
/// `Err(OutOfRange)` for `i` from 1024 on, `Err(Truncated)` (at the end of
/// `input`) when `input` holds less than [`packed_len`]`(width)` bytes.
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let values: Vec<u16> = (0..1024).map(|i| i * 7 % 1000).collect();
/// let mut packed = vec![0u8; fastlanes::packed_len(10)];
/// fastlanes::pack(&values, 10, &mut packed)?;
/// for i in [0, 1, 129, 700, 1023] {
///     assert_eq!(fastlanes::select::<u16>(&packed, 10, i)?, values[i]);
/// }
/// assert!(fastlanes::select::<u16>(&packed, 10, 1024).is_err());
/// assert!(fastlanes::select::<u16>(&packed[..1279], 10, 0).is_err());
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn select<T: Word>(input: &[u8], width: u8, i: usize) -> Result<T, Error> {
    let w = check::<T>(input, width, i)?;
    let (row, lane) = row_lane::<T>(i);
    Ok(field::<T>(input, w, row, lane))
}

/// Value `i` of a frame-of-reference block packed by
/// [`for_pack`](super::for_pack) from `reference`, read in place: the
/// packed difference plus `reference` (wrapping). The errors are those of
/// [`select`].
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let values: Vec<u32> = (0..1024).map(|i| 70_000 + i % 100).collect();
/// let (reference, width) = fastlanes::for_reference(&values)?;
/// let mut packed = vec![0u8; fastlanes::packed_len(width)];
/// fastlanes::for_pack(&values, reference, width, &mut packed)?;
/// assert_eq!(fastlanes::for_select(&packed, reference, width, 555)?, values[555]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn for_select<T: Word>(input: &[u8], reference: T, width: u8, i: usize) -> Result<T, Error> {
    Ok(select::<T>(input, width, i)?.add(reference))
}

/// Value `i`, in natural order, of a block transposed
/// ([`transpose`](super::transpose)) and then packed by
/// [`delta_pack`](super::delta_pack) from `bases`: what
/// [`delta_unpack`](super::delta_unpack) then
/// [`untranspose`](super::untranspose) (or
/// [`delta_unpack_natural`](super::delta_unpack_natural)) give at `i`.
/// Its lane's base plus the differences of the lane's rows up to `i`'s,
/// each read in place: at most `T::BITS` reads, no buffer.
///
/// The errors are those of [`select`], and `Err(InvalidArgument)` when
/// `bases` does not hold one base a lane.
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let sorted: Vec<u32> = (0..1024).map(|i| 100 + 5 * i + i % 4).collect();
/// let mut transposed = [0u32; 1024];
/// fastlanes::transpose(&sorted, &mut transposed)?;
/// let bases = [100u32; 32];
/// let width = fastlanes::delta_width(&transposed, &bases)?;
/// let mut packed = vec![0u8; fastlanes::packed_len(width)];
/// fastlanes::delta_pack(&transposed, &bases, width, &mut packed)?;
/// for i in [0, 31, 32, 500, 1023] {
///     assert_eq!(fastlanes::delta_select(&packed, &bases, width, i)?, sorted[i]);
/// }
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn delta_select<T: Word>(input: &[u8], bases: &[T], width: u8, i: usize) -> Result<T, Error> {
    let bases = lane_bases(bases)?;
    let w = check::<T>(input, width, i)?;
    let (row, lane) = natural_row_lane::<T>(i);
    Ok(lane_sum::<T>(input, w, lane, row, bases[lane]))
}

/// Checks the width, the index and the input's length for a select;
/// returns the width.
fn check<T: Word>(input: &[u8], width: u8, i: usize) -> Result<usize, Error> {
    let w = check_width::<T>(width)?;
    if i >= BLOCK {
        return Err(Error::OutOfRange {
            index: i,
            len: BLOCK,
        });
    }
    let len = packed_len(width);
    if input.len() < len {
        return Err(Error::Truncated {
            offset: input.len(),
            needed: len - input.len(),
            unit: Unit::Bytes,
        });
    }
    Ok(w)
}

/// The row and lane of value `i` (below 1024) of a packed block: the
/// inverse of `generic::index`.
fn row_lane<T: Word>(i: usize) -> (usize, usize) {
    let (a, b) = (i / 128, i % 128);
    let lane = b % T::LANES;
    (8 * FL_ORDER[(b - lane) / 16] + a, lane)
}

/// The row and lane of value `i` (below 1024, natural order) of a block
/// transposed before packing: lane `l` holds the `T::BITS` values from
/// `transposed_index(l)` on.
pub(super) fn natural_row_lane<T: Word>(i: usize) -> (usize, usize) {
    let row = i % T::BITS;
    let p = i - row;
    (row, FL_ORDER[(p % 64) / 8] * 16 + p / 64)
}

/// The `w`-bit field of row `row` of lane `lane` of the block in `input`,
/// which holds [`packed_len`]`(w)` bytes at least (checked by the caller).
#[inline(always)]
fn field<T: Word>(input: &[u8], w: usize, row: usize, lane: usize) -> T {
    if w == 0 {
        return T::ZERO;
    }
    let (q, s) = (row * w / T::BITS, row * w % T::BITS);
    let word = |q: usize| T::load(input, (T::LANES * q + lane) * T::SIZE);
    let mut v = word(q) >> s;
    // A field crossing its word's end (so `s > 0`) continues in the lane's
    // next word, which the block holds: the field ends at bit
    // `row w + w <= T::BITS w`.
    if s + w > T::BITS {
        v = v | word(q + 1) << (T::BITS - s);
    }
    if w == T::BITS {
        v
    } else {
        v & (T::ONES >> (T::BITS - w))
    }
}

/// `base` plus rows `0..=row` of lane `lane` of the packed block in
/// `input` (checked by the caller), wrapping as the delta kernels sum.
pub(super) fn lane_sum<T: Word>(input: &[u8], w: usize, lane: usize, row: usize, base: T) -> T {
    if w == 0 {
        return base;
    }
    (0..=row).fold(base, |sum, r| sum.add(field::<T>(input, w, r, lane)))
}

#[cfg(test)]
mod tests {
    use super::super::{generic::index, transposed_index};
    use super::*;

    fn inverts<T: Word>() {
        for i in 0..BLOCK {
            let (row, lane) = row_lane::<T>(i);
            assert!(row < T::BITS && lane < T::LANES, "{} {i}", T::BITS);
            assert_eq!(index(row, lane), i, "plain, {} bits, {i}", T::BITS);
            let (row, lane) = natural_row_lane::<T>(i);
            assert!(row < T::BITS && lane < T::LANES, "{} {i}", T::BITS);
            assert_eq!(
                transposed_index(index(row, lane)),
                i,
                "natural, {} bits, {i}",
                T::BITS
            );
        }
    }

    #[test]
    fn rows_and_lanes_invert_the_layout() {
        inverts::<u8>();
        inverts::<u16>();
        inverts::<u32>();
        inverts::<u64>();
    }
}
