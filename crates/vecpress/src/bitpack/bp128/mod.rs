//! SIMD-BP128 (Lemire and Boytsov, "Decoding billions of integers per second
//! through vectorization", 2015): blocks of 128 u32 packed in the width of
//! the block's largest value, four lanes interleaved so that one SIMD
//! register unpacks four values at a time; or blocks of 256 in eight lanes
//! for 256-bit registers.
//!
//! The bytes are those of the `bitpacking` crate (a port of simdcomp):
//! [`Lanes::X4`] is its `BitPacker4x`, [`Lanes::X8`] its `BitPacker8x`, both
//! ways, plain ([`pack`], [`unpack`]) and sorted ([`pack_sorted`],
//! [`unpack_sorted`]: each value stored as its gap to the one before it,
//! the first one's to an `initial` value the caller keeps).
//!
//! # Layout of one block (`L` lanes, width `W`)
//!
//! ```text
//! values:  v0 v1 .. v(L-1) | vL .. v(2L-1) | ... | 32 vectors of L values
//! lane j holds v(j), v(L+j), v(2L+j), ..., v(31L+j): value i of the lane
//!     at bits iW .. iW+W of the lane's W words (crossing a word's end
//!     into the next word's low bits)
//! bytes:   word 0 of lanes 0..L | word 1 of lanes 0..L | ... | word W-1
//!          (u32 little-endian): 4 W L bytes, 16 W for X4 and 32 W for X8
//! ```
//!
//! A block is always whole, and its width travels beside it: a packed block
//! has no header. The stream functions ([`encode`], [`decode`],
//! [`encode_delta`], [`decode_delta`]: the registry's `bp128` and
//! `bp128-delta`) store any number of values as width-prefixed blocks and a
//! VByte tail.
//!
//! ```
//! use vecpress::bitpack::bp128::{self, Lanes};
//! let values: Vec<u32> = (0..128).map(|i| i * 7 % 100).collect();
//! let width = bp128::width(Lanes::X4, &values)?;
//! assert_eq!(width, 7);
//! let mut packed = vec![0u8; Lanes::X4.packed_len(width)];
//! assert_eq!(bp128::pack(Lanes::X4, &values, width, &mut packed)?, 16 * 7);
//! let mut out = [0u32; 128];
//! bp128::unpack(Lanes::X4, &packed, width, &mut out)?;
//! assert_eq!(out[..], values[..]);
//! # Ok::<(), vecpress::Error>(())
//! ```

/// `$body` 16 times, with `$g` a constant 0..16 in each, so that every
/// step's words and shifts are constants where they are used (LLVM leaves
/// a loop over sixteen steps rolled, and the tables then go through
/// registers): the steps of the AVX2 and AVX-512 kernels.
#[cfg(target_arch = "x86_64")]
macro_rules! unroll16 {
    ($g:ident => $body:block) => {
        unroll16!(@each $g, $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@each $g:ident, $body:block; $($n:literal)*) => {
        $({
            const $g: usize = $n;
            $body
        })*
    };
}

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod generic;
mod kernels;
#[cfg(target_arch = "aarch64")]
mod neon;
mod select;
#[cfg(target_arch = "x86_64")]
mod sse41;
mod stream;

pub use select::{select, select_sorted};
pub use stream::{
    DeltaCursor, decode, decode_delta, decode_delta_to_vec, decode_delta_with, decode_to_vec,
    decode_with, encode, encode_delta, encode_delta_to_vec, encode_to_vec, max_encoded_len,
    search_delta,
};

use crate::tune::Op;
use crate::{Error, Isa};

/// The widest a value can be: 32 bits.
pub const MAX_WIDTH: u8 = 32;

/// How many lanes a block is interleaved in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lanes {
    /// Four lanes, 128 values a block: `bitpacking::BitPacker4x`, one
    /// 128-bit register.
    X4,
    /// Eight lanes, 256 values a block: `bitpacking::BitPacker8x`, one
    /// 256-bit register.
    X8,
}

impl Lanes {
    /// Lanes in a block.
    pub const fn count(self) -> usize {
        match self {
            Lanes::X4 => 4,
            Lanes::X8 => 8,
        }
    }

    /// Values in a block: 128 or 256.
    pub const fn block_len(self) -> usize {
        generic::PER_LANE * self.count()
    }

    /// Bytes of a block packed at `width` bits: `4 * width * lanes`.
    pub const fn packed_len(self, width: u8) -> usize {
        4 * width as usize * self.count()
    }
}

/// The bits the largest of the block's `values` needs (0 when all are 0).
///
/// ```
/// use vecpress::bitpack::bp128::{self, Lanes};
/// assert_eq!(bp128::width(Lanes::X4, &[5; 128]), Ok(3));
/// ```
pub fn width(lanes: Lanes, values: &[u32]) -> Result<u8, Error> {
    block(lanes, values)?;
    Ok(widest::<false>(lanes, values, 0))
}

/// The bits the largest gap of the sorted block `values` needs, the first
/// gap being to `initial` (gaps are wrapping differences, so a block that
/// is not sorted still packs and unpacks exactly, only wider).
///
/// ```
/// use vecpress::bitpack::bp128::{self, Lanes};
/// let values: Vec<u32> = (0..128).map(|i| 1000 + 3 * i).collect();
/// assert_eq!(bp128::width_sorted(Lanes::X4, 1000, &values), Ok(2));
/// ```
pub fn width_sorted(lanes: Lanes, initial: u32, values: &[u32]) -> Result<u8, Error> {
    block(lanes, values)?;
    Ok(widest::<true>(lanes, values, initial))
}

/// Packs the block `values` (128 or 256 of them, as `lanes` says) in
/// `width` bits each into `out`; returns the bytes written,
/// [`Lanes::packed_len`]. `Err(InvalidArgument)` when a value needs more
/// bits than `width` (see [`width`]), or the block or width is not one.
pub fn pack(lanes: Lanes, values: &[u32], width: u8, out: &mut [u8]) -> Result<usize, Error> {
    pack_impl::<false>(
        crate::tune::isa(crate::tune::Op::Bp128Encode),
        lanes,
        0,
        values,
        width,
        out,
    )
}

/// [`pack`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
pub fn pack_with(
    isa: Isa,
    lanes: Lanes,
    values: &[u32],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    pack_impl::<false>(isa.check()?, lanes, 0, values, width, out)
}

/// Packs the gaps of the sorted block `values`, the first one's to
/// `initial`, in `width` bits each ([`width_sorted`]); returns the bytes
/// written.
///
/// ```
/// use vecpress::bitpack::bp128::{self, Lanes};
/// let docs: Vec<u32> = (0..128).map(|i| 5000 + 9 * i + i % 3).collect();
/// let width = bp128::width_sorted(Lanes::X4, 4990, &docs)?;
/// let mut packed = vec![0u8; Lanes::X4.packed_len(width)];
/// bp128::pack_sorted(Lanes::X4, 4990, &docs, width, &mut packed)?;
/// let mut out = [0u32; 128];
/// bp128::unpack_sorted(Lanes::X4, 4990, &packed, width, &mut out)?;
/// assert_eq!(out[..], docs[..]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn pack_sorted(
    lanes: Lanes,
    initial: u32,
    values: &[u32],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    pack_impl::<true>(
        crate::tune::isa(crate::tune::Op::Bp128Encode),
        lanes,
        initial,
        values,
        width,
        out,
    )
}

/// [`pack_sorted`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn pack_sorted_with(
    isa: Isa,
    lanes: Lanes,
    initial: u32,
    values: &[u32],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    pack_impl::<true>(isa.check()?, lanes, initial, values, width, out)
}

/// Unpacks one block of `width`-bit values from the start of `input` into
/// the first 128 or 256 values of `out`; returns the bytes read,
/// [`Lanes::packed_len`]. Every bit pattern is a valid block: only a short
/// `input` (`Truncated`), a short `out` or a width above 32 is an error.
/// Four lanes unpack at the level this CPU's profile (`tune`) chooses for
/// `bp128` streams, and sorted ones at `bp128-delta`'s.
pub fn unpack(lanes: Lanes, input: &[u8], width: u8, out: &mut [u32]) -> Result<usize, Error> {
    unpack_impl::<false>(default_level(lanes, Op::Bp128), lanes, 0, input, width, out)
}

/// [`unpack`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::bitpack::bp128::{self, Lanes};
/// use vecpress::Isa;
/// let packed = [0xffu8; 16]; // width 1: 128 ones
/// for &isa in Isa::available() {
///     let mut out = [0u32; 128];
///     assert_eq!(bp128::unpack_with(isa, Lanes::X4, &packed, 1, &mut out), Ok(16));
///     assert!(out.iter().all(|&v| v == 1));
/// }
/// ```
pub fn unpack_with(
    isa: Isa,
    lanes: Lanes,
    input: &[u8],
    width: u8,
    out: &mut [u32],
) -> Result<usize, Error> {
    unpack_impl::<false>(isa.check()?, lanes, 0, input, width, out)
}

/// Unpacks one block of gaps and sums them from `initial` into `out`;
/// returns the bytes read.
pub fn unpack_sorted(
    lanes: Lanes,
    initial: u32,
    input: &[u8],
    width: u8,
    out: &mut [u32],
) -> Result<usize, Error> {
    unpack_impl::<true>(
        default_level(lanes, Op::Bp128Delta),
        lanes,
        initial,
        input,
        width,
        out,
    )
}

/// The level [`unpack`] and [`unpack_sorted`] run: for four lanes, the one
/// this CPU's profile chooses for the streams of `op` (`tune`), which are
/// 4-lane blocks; for eight lanes, which no stream stores, the highest
/// (every level from AVX2 up runs the same 8-lane AVX2 code for plain
/// blocks, the code each record's `bp128-8x` row measures).
fn default_level(lanes: Lanes, op: Op) -> Isa {
    match lanes {
        Lanes::X4 => crate::tune::isa(op),
        Lanes::X8 => crate::tune::isa(crate::tune::Op::Bp128Lanes8),
    }
}

/// [`unpack_sorted`] with the kernel of `isa`; `Err(Unsupported)` if the
/// CPU lacks it.
pub fn unpack_sorted_with(
    isa: Isa,
    lanes: Lanes,
    initial: u32,
    input: &[u8],
    width: u8,
    out: &mut [u32],
) -> Result<usize, Error> {
    unpack_impl::<true>(isa.check()?, lanes, initial, input, width, out)
}

/// Replaces the gaps of `out`, whole 4-lane blocks (a multiple of 128
/// values), by their running sum from `initial`, with the kernel of `isa`
/// (checked by the caller): the second pass of [`unpack_sorted`], for
/// formats that change the gaps between unpacking and summing (PFOR
/// patches its exceptions) and for streams that sum every block in one go.
pub(crate) fn running_sum_with(isa: Isa, out: &mut [u32], initial: u32) {
    debug_assert!(out.len().is_multiple_of(Lanes::X4.block_len()));
    kernels::running_sum(isa, out, initial);
}

/// Unpacks one 4-lane block of `width` bits (0..=32) from `input`, which
/// holds at least [`Lanes::packed_len`] bytes of it, with the kernel of
/// `isa` (checked by the caller): for formats that check the width and the
/// length as they read their blocks (PFOR), and would pay for the public
/// entry's checks again on every block.
pub(crate) fn unpack_block_with(isa: Isa, input: &[u8], width: u8, out: &mut [u32; 128]) {
    debug_assert!(width <= MAX_WIDTH && input.len() >= Lanes::X4.packed_len(width));
    kernels::unpack(isa, Lanes::X4, input, usize::from(width), out);
}

/// [`unpack_block_with`] for a block of gaps that the caller patches and
/// then sums ([`running_sum_with`]): PFOR's delta form, on the kernels
/// bp128-delta's second pass unpacks with.
pub(crate) fn unpack_gaps_block_with(isa: Isa, input: &[u8], width: u8, out: &mut [u32; 128]) {
    debug_assert!(width <= MAX_WIDTH && input.len() >= Lanes::X4.packed_len(width));
    kernels::unpack_gaps(isa, Lanes::X4, input, usize::from(width), out);
}

/// Unpacks one 4-lane block of gaps as [`unpack_block_with`] does, and
/// sums them from `initial`: bp128-delta's own path (one pass at the
/// AVX-512 level), for PFOR blocks that have no exceptions.
pub(crate) fn unpack_sorted_block_with(
    isa: Isa,
    input: &[u8],
    width: u8,
    out: &mut [u32; 128],
    initial: u32,
) {
    debug_assert!(width <= MAX_WIDTH && input.len() >= Lanes::X4.packed_len(width));
    kernels::unpack_sorted(isa, Lanes::X4, input, usize::from(width), out, initial);
}

/// The levels with a kernel of their own on this CPU, scalar first.
pub fn kernels() -> Vec<Isa> {
    Isa::available().to_vec()
}

/// `Ok` when `values` is one whole block.
fn block(lanes: Lanes, values: &[u32]) -> Result<(), Error> {
    if values.len() == lanes.block_len() {
        Ok(())
    } else {
        Err(Error::InvalidArgument {
            what: "values in a block (128 with Lanes::X4, 256 with Lanes::X8)",
            value: values.len(),
        })
    }
}

/// `Ok` when `width` is one.
fn check_width(width: u8) -> Result<u32, Error> {
    if width <= MAX_WIDTH {
        Ok(u32::from(width))
    } else {
        Err(Error::InvalidArgument {
            what: "bit width (at most 32)",
            value: usize::from(width),
        })
    }
}

fn widest<const SORTED: bool>(lanes: Lanes, values: &[u32], initial: u32) -> u8 {
    let w = match lanes {
        Lanes::X4 => generic::width::<4, SORTED>(values, initial),
        Lanes::X8 => generic::width::<8, SORTED>(values, initial),
    };
    w as u8
}

fn pack_impl<const SORTED: bool>(
    isa: Isa,
    lanes: Lanes,
    initial: u32,
    values: &[u32],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    block(lanes, values)?;
    let w = check_width(width)?;
    let len = lanes.packed_len(width);
    if out.len() < len {
        return Err(Error::OutputTooSmall {
            needed: len,
            actual: out.len(),
        });
    }
    let needed = widest::<SORTED>(lanes, values, initial);
    if needed > width {
        return Err(Error::InvalidArgument {
            what: "bits a value of the block needs, above the width given",
            value: usize::from(needed),
        });
    }
    kernels::pack::<SORTED>(isa, lanes, values, initial, w as usize, out);
    Ok(len)
}

fn unpack_impl<const SORTED: bool>(
    isa: Isa,
    lanes: Lanes,
    initial: u32,
    input: &[u8],
    width: u8,
    out: &mut [u32],
) -> Result<usize, Error> {
    let w = check_width(width)?;
    let len = lanes.packed_len(width);
    if input.len() < len {
        return Err(Error::Truncated {
            offset: input.len(),
            needed: len - input.len(),
            unit: crate::Unit::Bytes,
        });
    }
    if out.len() < lanes.block_len() {
        return Err(Error::OutputTooSmall {
            needed: lanes.block_len(),
            actual: out.len(),
        });
    }
    if SORTED {
        kernels::unpack_sorted(isa, lanes, input, w as usize, out, initial);
    } else {
        kernels::unpack(isa, lanes, input, w as usize, out);
    }
    Ok(len)
}

#[cfg(test)]
mod tests {
    use super::{Lanes, kernels};
    use crate::Isa;

    /// Both forms of plain unpacking at every level this CPU has (the form
    /// the profile does not choose runs nowhere else here), for both lane
    /// counts at every width, on random words and on the extremes (all ones, all
    /// zeros, alternating bits), against a bit-by-bit reference. Eight lanes
    /// run the same code in both forms.
    #[test]
    fn both_forms_unpack_every_width_as_the_reference() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        };
        for (lanes, width) in [Lanes::X4, Lanes::X8]
            .into_iter()
            .flat_map(|l| (0..=32usize).map(move |w| (l, w)))
        {
            let len = lanes.packed_len(width as u8);
            let fills: [Vec<u8>; 4] = [
                (0..len).map(|_| next()).collect(),
                vec![0xff; len],
                vec![0; len],
                (0..len)
                    .map(|i| if i % 2 == 0 { 0xaa } else { 0x55 })
                    .collect(),
            ];
            for input in &fills {
                let mut want = vec![0u32; lanes.block_len()];
                reference(lanes, input, width, &mut want);
                for &isa in Isa::available() {
                    for halves in [false, true] {
                        let mut out = vec![!0u32; lanes.block_len()];
                        kernels::unpack_form(isa, halves, lanes, input, width, &mut out);
                        assert_eq!(out, want, "{isa} {lanes:?} width {width} halves {halves}");
                    }
                }
            }
        }
    }

    /// Every value of a block, bit by bit from the layout.
    fn reference(lanes: Lanes, input: &[u8], width: usize, out: &mut [u32]) {
        let l = lanes.block_len() / 32;
        for (n, slot) in out.iter_mut().enumerate() {
            let (i, lane) = (n / l, n % l);
            let mut v = 0u32;
            for b in 0..width {
                let bit = i * width + b;
                let word = l * (bit / 32) + lane;
                let byte = input[4 * word + (bit % 32) / 8];
                v |= u32::from(byte >> (bit % 8) & 1) << b;
            }
            *slot = v;
        }
    }
}
