//! Random access on SIMD-BP128: one value of a packed block read where it
//! lies, and the lower bound of a key in a delta stream.
//!
//! ```text
//! value i of a block of L lanes, width W: lane j = i mod L, step k = i / L
//!     its bits start at bit k W of the lane, in word q = k W / 32 at bit
//!     s = k W mod 32; the lane's word q is u32 number L q + j of the block
//!     v = (word(q) >> s | word(q + 1) << (32 - s)) & mask(W), the second
//!     word only when s + W > 32
//! sorted: value i is initial + gaps 0..=i, which the level's sorted
//!     kernel gives, unpacking the block into a buffer on the stack
//! ```
#![forbid(unsafe_code)]

use super::{Lanes, check_width};
use crate::{Error, Unit};

/// Value `i` of the block of `width`-bit values packed at the start of
/// `input`, read in place: a few shifts, whatever `i`.
///
/// ```
/// use vecpress::bitpack::bp128::{self, Lanes};
/// let values: Vec<u32> = (0..128).map(|i| i * 5 % 97).collect();
/// let mut packed = vec![0u8; Lanes::X4.packed_len(7)];
/// bp128::pack(Lanes::X4, &values, 7, &mut packed)?;
/// for i in [0, 1, 77, 127] {
///     assert_eq!(bp128::select(Lanes::X4, &packed, 7, i)?, values[i]);
/// }
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn select(lanes: Lanes, input: &[u8], width: u8, i: usize) -> Result<u32, Error> {
    let w = check_width(width)? as usize;
    check_block(lanes, input, width, i)?;
    if w == 0 {
        return Ok(0);
    }
    let l = lanes.count();
    let (k, j) = (i / l, i % l);
    let (q, s) = (k * w / 32, k * w % 32);
    let word = |q: usize| {
        let at = 4 * (l * q + j);
        u64::from(u32::from_le_bytes(input[at..at + 4].try_into().unwrap()))
    };
    let mut v = word(q) >> s;
    if s + w > 32 {
        v |= word(q + 1) << (32 - s);
    }
    Ok((v & ((1u64 << w) - 1)) as u32)
}

/// Value `i` of a sorted block packed by
/// [`pack_sorted`](super::pack_sorted) from `initial`: the sum of its first
/// `i + 1` gaps. The block is unpacked and summed by the sorted kernel
/// that [`unpack_sorted`](super::unpack_sorted) runs, into a buffer on the
/// stack (512 bytes, 1 KiB for 8 lanes): at 128 or 256 values the SIMD
/// kernel outruns summing the gaps read in place, which takes a load,
/// shifts and a mask for each gap, even a step of every lane at a time.
/// The errors are those of [`select`].
///
/// ```
/// use vecpress::bitpack::bp128::{self, Lanes};
/// let docs: Vec<u32> = (0..128).map(|i| 100 + 3 * i).collect();
/// let mut packed = vec![0u8; Lanes::X4.packed_len(2)];
/// bp128::pack_sorted(Lanes::X4, 97, &docs, 2, &mut packed)?;
/// assert_eq!(bp128::select_sorted(Lanes::X4, 97, &packed, 2, 50)?, docs[50]);
/// assert!(bp128::select_sorted(Lanes::X4, 97, &packed, 2, 128).is_err());
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn select_sorted(
    lanes: Lanes,
    initial: u32,
    input: &[u8],
    width: u8,
    i: usize,
) -> Result<u32, Error> {
    check_width(width)?;
    check_block(lanes, input, width, i)?;
    match lanes {
        Lanes::X4 => sorted_value::<128>(lanes, initial, input, width, i),
        Lanes::X8 => sorted_value::<256>(lanes, initial, input, width, i),
    }
}

/// Value `i` of the sorted block of `N` values in `input`, unpacked into a
/// buffer of `N` on the stack.
fn sorted_value<const N: usize>(
    lanes: Lanes,
    initial: u32,
    input: &[u8],
    width: u8,
    i: usize,
) -> Result<u32, Error> {
    let mut values = [0u32; N];
    super::unpack_sorted(lanes, initial, input, width, &mut values)?;
    Ok(values[i])
}

/// `Ok` when `input` holds a block of `width` and `i` is in it.
fn check_block(lanes: Lanes, input: &[u8], width: u8, i: usize) -> Result<(), Error> {
    if i >= lanes.block_len() {
        return Err(Error::OutOfRange {
            index: i,
            len: lanes.block_len(),
        });
    }
    let len = lanes.packed_len(width);
    if input.len() < len {
        return Err(Error::Truncated {
            offset: input.len(),
            needed: len - input.len(),
            unit: Unit::Bytes,
        });
    }
    Ok(())
}
