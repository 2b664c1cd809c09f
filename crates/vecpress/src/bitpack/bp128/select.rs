//! Random access on SIMD-BP128: one value of a packed block read where it
//! lies, and the lower bound of a key in a delta stream.
//!
//! ```text
//! value i of a block of L lanes, width W: lane j = i mod L, step k = i / L
//!     its bits start at bit k W of the lane, in word q = k W / 32 at bit
//!     s = k W mod 32; the lane's word q is u32 number L q + j of the block
//!     v = (word(q) >> s | word(q + 1) << (32 - s)) & mask(W), the second
//!     word only when s + W > 32
//! sorted: value i is initial + gaps 0..=i: steps 0..k of every lane
//!     (one sum a lane, a step of all lanes at a time), then lanes 0..=j
//!     of step k, then the lanes' sums added up
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
/// `i + 1` gaps, each read in place, a step of every lane at a time (an
/// accumulator of one sum a lane over the whole steps before `i`'s, then
/// the lanes up to `i`'s in its step; no buffer of the block). The errors
/// are those of [`select`].
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
    let w = check_width(width)? as usize;
    check_block(lanes, input, width, i)?;
    if w == 0 {
        return Ok(initial);
    }
    let block = &input[..lanes.packed_len(width)];
    let gaps = match lanes {
        Lanes::X4 => gap_sum::<4>(block, w, i),
        Lanes::X8 => gap_sum::<8>(block, w, i),
    };
    Ok(initial.wrapping_add(gaps))
}

/// The sum (wrapping) of gaps `0..=i` of the block of `L` lanes of
/// `w`-bit gaps (`1 <= w <= 32`) that `block` holds, whole.
///
/// Step `k` of every lane lies at the same bits of the same word of each
/// lane, and the lanes' words are consecutive: each step is `L` identical
/// shifts of `L` consecutive words and `L` adds into `L` sums, plain array
/// code that LLVM can run as vector operations (no intrinsics, no unsafe).
fn gap_sum<const L: usize>(block: &[u8], w: usize, i: usize) -> u32 {
    let (k, j) = (i / L, i % L);
    let mask = u64::MAX >> (64 - w);
    // The words number `q` of the `L` lanes.
    let words = |q: usize| -> [u64; L] {
        let row = &block[4 * L * q..4 * L * (q + 1)];
        core::array::from_fn(|lane| {
            u64::from(u32::from_le_bytes(
                row[4 * lane..4 * lane + 4].try_into().expect("4 bytes"),
            ))
        })
    };
    // Step `step` of every lane.
    let step = |step: usize| -> [u32; L] {
        let (q, s) = (step * w / 32, step * w % 32);
        let mut v = words(q);
        // A gap crossing its word's end continues in the lane's next word,
        // which the block holds (the lane's last gap ends at bit 32 w).
        if s + w > 32 {
            let next = words(q + 1);
            for (v, next) in v.iter_mut().zip(next) {
                *v |= next << 32;
            }
        }
        v.map(|v| ((v >> s) & mask) as u32)
    };
    let mut acc = [0u32; L];
    for s in 0..k {
        for (a, g) in acc.iter_mut().zip(step(s)) {
            *a = a.wrapping_add(g);
        }
    }
    for (lane, (a, g)) in acc.iter_mut().zip(step(k)).enumerate() {
        if lane <= j {
            *a = a.wrapping_add(g);
        }
    }
    acc.iter().fold(0, |sum, &a| sum.wrapping_add(a))
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
