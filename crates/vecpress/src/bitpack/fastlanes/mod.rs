//! FastLanes (Afroozeh and Boncz, "The FastLanes Compression Layout:
//! Decoding >100 Billion Integers per Second with Scalar Code", VLDB 2023):
//! blocks of 1024 values of u8, u16, u32 or u64 bit packed in the unified
//! transposed layout, whose kernels are plain scalar loops that any SIMD
//! width runs (LLVM vectorises them; here they are compiled once per ISA
//! level).
//!
//! The bytes are those of the `fastlanes` crate: [`pack`] and [`unpack`]
//! are its `BitPacking::pack` and `unpack` (the packed words as
//! little-endian bytes), [`for_pack`] and [`for_unpack`] its `FoR`,
//! [`delta_pack`] and [`delta_unpack`] its `Delta::delta` then `pack`, and
//! `Delta::undelta_pack`; [`transpose`] and [`untranspose`] its `Transpose`.
//!
//! # Layout of one block (type of `T` bits, `LANES = 1024 / T`, width `W`)
//!
//! ```text
//! the 1024 values are T rows of LANES lanes: row r, lane l is value
//!     FL_ORDER[r / 8] * 16 + (r % 8) * 128 + l,  FL_ORDER = [0,4,2,6,1,5,3,7]
//! lane l packs its rows 0..T in order at bits r W .. r W + W of W words of
//!     T bits (a value crossing a word's end continues in the next word's
//!     low bits); word k of lane l is word LANES k + l of the block
//! bytes:   the 1024 W / T words of T bits, little-endian: 128 W bytes,
//!          whatever T is
//! FoR:     the values minus a reference (the block's minimum, see
//!          [`for_reference`]), wrapping
//! Delta:   on values in transposed order ([`transpose`]: each lane then
//!          holds T consecutive values), each lane's rows as differences to
//!          the row before, row 0's to the lane's base (`bases[l]`, LANES
//!          of them, which the caller keeps)
//! ```
//!
//! A block is always whole, and its width travels beside it: a packed block
//! has no header. The stream functions ([`encode`], [`decode`] and their
//! FoR and delta forms: the registry's `fastlanes`, `fastlanes-for` and
//! `fastlanes-delta`) store any number of u32 as blocks with their widths.
//!
//! One value of a block is read where it lies, without unpacking the block:
//! [`select`] and [`for_select`] in a few shifts, [`delta_select`] by
//! summing the differences of its lane up to it; [`search_delta`] finds
//! the lower bound of a key in a `fastlanes-delta` stream, skipping each
//! block below it by its last value.
//!
//! ```
//! use vecpress::bitpack::fastlanes;
//! let values: Vec<u16> = (0..1024).map(|i| i * 7 % 1000).collect();
//! let width = fastlanes::width(&values)?;
//! assert_eq!(width, 10);
//! let mut packed = vec![0u8; fastlanes::packed_len(width)];
//! assert_eq!(fastlanes::pack(&values, width, &mut packed)?, 1280);
//! let mut out = [0u16; 1024];
//! fastlanes::unpack(&packed, width, &mut out)?;
//! assert_eq!(out[..], values[..]);
//! # Ok::<(), vecpress::Error>(())
//! ```

mod args;
mod cursor;
mod fused;
mod generic;
mod kernels;
mod select;
mod stream;
mod word;

pub use cursor::DeltaCursor;
pub use select::{delta_select, for_select, select};
pub use stream::{
    decode, decode_delta, decode_delta_to_vec, decode_delta_with, decode_for, decode_for_to_vec,
    decode_for_with, decode_to_vec, decode_with, encode, encode_delta, encode_delta_to_vec,
    encode_for, encode_for_to_vec, encode_to_vec, max_encoded_len, search_delta,
};
pub use word::Word;

use args::{block, check_width, lane_bases, out_block};
use generic::{DELTA, FOR, PLAIN};

use crate::{Error, Isa};

/// Values in a block.
pub const BLOCK: usize = 1024;

/// Bytes of a block packed at `width` bits: `128 width`, for every type.
///
/// ```
/// assert_eq!(vecpress::bitpack::fastlanes::packed_len(3), 384);
/// ```
pub const fn packed_len(width: u8) -> usize {
    128 * width as usize
}

/// The bits the largest of the block `values` needs (0 when all are 0).
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// assert_eq!(fastlanes::width(&[5u64; 1024]), Ok(3));
/// ```
pub fn width<T: Word>(values: &[T]) -> Result<u8, Error> {
    let values = block(values)?;
    Ok(needed::<T, PLAIN>(values, T::ZERO, &[]))
}

/// The reference of a frame-of-reference block (its minimum) and the bits
/// the largest of `values` minus it needs.
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let values: Vec<u32> = (0..1024).map(|i| 70_000 + i % 100).collect();
/// assert_eq!(fastlanes::for_reference(&values), Ok((70_000, 7)));
/// ```
pub fn for_reference<T: Word>(values: &[T]) -> Result<(T, u8), Error> {
    let values = block(values)?;
    let min = values.iter().copied().min().unwrap_or(T::ZERO);
    Ok((min, needed::<T, FOR>(values, min, &[])))
}

/// The bits the largest difference of the transposed block `values` needs,
/// each lane's first value's difference being to its base in `bases`.
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let sorted: Vec<u32> = (0..1024).map(|i| 3 * i).collect();
/// let mut transposed = [0u32; 1024];
/// fastlanes::transpose(&sorted, &mut transposed)?;
/// let bases: Vec<u32> = transposed[..32].to_vec();
/// assert_eq!(fastlanes::delta_width(&transposed, &bases), Ok(2));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn delta_width<T: Word>(values: &[T], bases: &[T]) -> Result<u8, Error> {
    let values = block(values)?;
    let bases = lane_bases(bases)?;
    Ok(needed::<T, DELTA>(values, T::ZERO, bases))
}

/// Packs the block `values` (1024 of them) in `width` bits each into `out`;
/// returns the bytes written, [`packed_len`]. `Err(InvalidArgument)` when a
/// value needs more bits than `width` (see [`width`]), or the block or
/// width is not one.
///
/// Whether the values fit is checked in the packing pass itself, so after
/// the `Err` of a value too wide the first [`packed_len`] bytes of `out`
/// have been written and are unspecified (the other errors write nothing).
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let mut values = [1u8; 1024];
/// let mut out = [0u8; 128];
/// assert_eq!(fastlanes::pack(&values, 1, &mut out), Ok(128));
/// values[700] = 2;
/// assert!(fastlanes::pack(&values, 1, &mut out).is_err());
/// ```
pub fn pack<T: Word>(values: &[T], width: u8, out: &mut [u8]) -> Result<usize, Error> {
    pack_impl::<T, PLAIN>(
        crate::tune::isa(crate::tune::Op::FastLanesEncode),
        values,
        T::ZERO,
        &[],
        width,
        out,
    )
}

/// [`pack`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
pub fn pack_with<T: Word>(
    isa: Isa,
    values: &[T],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    pack_impl::<T, PLAIN>(isa.check()?, values, T::ZERO, &[], width, out)
}

/// Unpacks one block of `width`-bit values from the start of `input` into
/// the first 1024 values of `out`; returns the bytes read, [`packed_len`].
/// Every bit pattern is a valid block: only a short `input` (`Truncated`),
/// a short `out` or a width above the type's bits is an error.
pub fn unpack<T: Word>(input: &[u8], width: u8, out: &mut [T]) -> Result<usize, Error> {
    unpack_impl::<T, PLAIN>(
        crate::tune::isa(crate::tune::Op::FastLanes),
        input,
        T::ZERO,
        &[],
        width,
        out,
    )
}

/// [`unpack`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// use vecpress::Isa;
/// let packed = [0xffu8; 128]; // width 1: 1024 ones
/// for &isa in Isa::available() {
///     let mut out = [0u8; 1024];
///     assert_eq!(fastlanes::unpack_with(isa, &packed, 1, &mut out), Ok(128));
///     assert!(out.iter().all(|&v| v == 1));
/// }
/// ```
pub fn unpack_with<T: Word>(
    isa: Isa,
    input: &[u8],
    width: u8,
    out: &mut [T],
) -> Result<usize, Error> {
    unpack_impl::<T, PLAIN>(isa.check()?, input, T::ZERO, &[], width, out)
}

/// Packs `values` minus `reference` (wrapping) in `width` bits each, as
/// the `fastlanes` crate's `FoR::for_pack`; returns the bytes written.
/// The errors are those of [`pack`], for the differences: after the `Err`
/// of a difference too wide, the bytes of `out` are unspecified.
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let values: Vec<u64> = (0..1024).map(|i| (1 << 40) + i * i).collect();
/// let (reference, width) = fastlanes::for_reference(&values)?;
/// let mut packed = vec![0u8; fastlanes::packed_len(width)];
/// fastlanes::for_pack(&values, reference, width, &mut packed)?;
/// let mut out = [0u64; 1024];
/// fastlanes::for_unpack(&packed, reference, width, &mut out)?;
/// assert_eq!(out[..], values[..]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn for_pack<T: Word>(
    values: &[T],
    reference: T,
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    pack_impl::<T, FOR>(
        crate::tune::isa(crate::tune::Op::FastLanesEncode),
        values,
        reference,
        &[],
        width,
        out,
    )
}

/// [`for_pack`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn for_pack_with<T: Word>(
    isa: Isa,
    values: &[T],
    reference: T,
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    pack_impl::<T, FOR>(isa.check()?, values, reference, &[], width, out)
}

/// Unpacks one block and adds `reference` (wrapping), as the `fastlanes`
/// crate's `FoR::unfor_pack`; returns the bytes read.
pub fn for_unpack<T: Word>(
    input: &[u8],
    reference: T,
    width: u8,
    out: &mut [T],
) -> Result<usize, Error> {
    unpack_impl::<T, FOR>(
        crate::tune::isa(crate::tune::Op::FastLanesFor),
        input,
        reference,
        &[],
        width,
        out,
    )
}

/// [`for_unpack`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn for_unpack_with<T: Word>(
    isa: Isa,
    input: &[u8],
    reference: T,
    width: u8,
    out: &mut [T],
) -> Result<usize, Error> {
    unpack_impl::<T, FOR>(isa.check()?, input, reference, &[], width, out)
}

/// Packs the differences down each lane of the transposed block `values`
/// (row 0's to `bases[lane]`, `T::LANES` bases) in `width` bits each, as
/// the `fastlanes` crate's `Delta::delta` then `BitPacking::pack`; returns
/// the bytes written. The errors are those of [`pack`], for the
/// differences: after the `Err` of a difference too wide, the bytes of
/// `out` are unspecified.
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
/// let (mut lanes, mut out) = ([0u32; 1024], [0u32; 1024]);
/// fastlanes::delta_unpack(&packed, &bases, width, &mut lanes)?;
/// fastlanes::untranspose(&lanes, &mut out)?;
/// assert_eq!(out[..], sorted[..]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn delta_pack<T: Word>(
    values: &[T],
    bases: &[T],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    pack_impl::<T, DELTA>(
        crate::tune::isa(crate::tune::Op::FastLanesEncode),
        values,
        T::ZERO,
        bases,
        width,
        out,
    )
}

/// [`delta_pack`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn delta_pack_with<T: Word>(
    isa: Isa,
    values: &[T],
    bases: &[T],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    pack_impl::<T, DELTA>(isa.check()?, values, T::ZERO, bases, width, out)
}

/// Unpacks one block of differences and sums them down each lane from
/// `bases`, as the `fastlanes` crate's `Delta::undelta_pack` (the result
/// is in transposed order); returns the bytes read.
pub fn delta_unpack<T: Word>(
    input: &[u8],
    bases: &[T],
    width: u8,
    out: &mut [T],
) -> Result<usize, Error> {
    unpack_impl::<T, DELTA>(
        crate::tune::isa(crate::tune::Op::FastLanesDelta),
        input,
        T::ZERO,
        bases,
        width,
        out,
    )
}

/// [`delta_unpack`] with the kernel of `isa`; `Err(Unsupported)` if the
/// CPU lacks it.
pub fn delta_unpack_with<T: Word>(
    isa: Isa,
    input: &[u8],
    bases: &[T],
    width: u8,
    out: &mut [T],
) -> Result<usize, Error> {
    unpack_impl::<T, DELTA>(isa.check()?, input, T::ZERO, bases, width, out)
}

/// Decodes a delta block of u32 into natural order: [`delta_unpack`] then
/// [`untranspose`] in one pass, as the `fastlanes-delta` stream decodes
/// (at the SIMD levels the lanes' running sums are transposed in registers
/// and stored as runs of consecutive values, with no buffer between);
/// returns the bytes read. It runs the kernel the stream does, the level
/// [`tune`](crate::tune) chooses for this CPU (the other block functions
/// run the highest level).
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let sorted: Vec<u32> = (0..1024).map(|i| 7 + 3 * i + i % 5).collect();
/// let mut transposed = [0u32; 1024];
/// fastlanes::transpose(&sorted, &mut transposed)?;
/// let bases = [7u32; 32];
/// let width = fastlanes::delta_width(&transposed, &bases)?;
/// let mut packed = vec![0u8; fastlanes::packed_len(width)];
/// fastlanes::delta_pack(&transposed, &bases, width, &mut packed)?;
/// let mut out = [0u32; 1024];
/// fastlanes::delta_unpack_natural(&packed, &bases, width, &mut out)?;
/// assert_eq!(out[..], sorted[..]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn delta_unpack_natural(
    input: &[u8],
    bases: &[u32],
    width: u8,
    out: &mut [u32],
) -> Result<usize, Error> {
    let isa = crate::tune::isa(crate::tune::Op::FastLanesDelta);
    delta_unpack_natural_impl(isa, input, bases, width, out)
}

/// [`delta_unpack_natural`] with the kernel of `isa`; `Err(Unsupported)`
/// if the CPU lacks it.
pub fn delta_unpack_natural_with(
    isa: Isa,
    input: &[u8],
    bases: &[u32],
    width: u8,
    out: &mut [u32],
) -> Result<usize, Error> {
    delta_unpack_natural_impl(isa.check()?, input, bases, width, out)
}

fn delta_unpack_natural_impl(
    isa: Isa,
    input: &[u8],
    bases: &[u32],
    width: u8,
    out: &mut [u32],
) -> Result<usize, Error> {
    let bases: &[u32; 32] = lane_bases(bases)?.try_into().expect("32 bases");
    let w = check_width::<u32>(width)?;
    let len = packed_len(width);
    if input.len() < len {
        return Err(Error::Truncated {
            offset: input.len(),
            needed: len - input.len(),
            unit: crate::Unit::Bytes,
        });
    }
    fused::delta_unpack_natural(isa, input, bases, w, out_block(out)?);
    Ok(len)
}

/// The natural index of transposed index `i`: a transposed block holds
/// `values[transposed_index(i)]` at `i`, which puts 64 consecutive values
/// in each lane of u64 (and `T` of them in each lane of a `T`-bit type).
///
/// ```
/// use vecpress::bitpack::fastlanes::transposed_index;
/// assert_eq!(transposed_index(0), 0);
/// assert_eq!(transposed_index(1), 64);
/// assert_eq!(transposed_index(128), 1);
/// ```
pub const fn transposed_index(i: usize) -> usize {
    (i % 16) * 64 + generic::FL_ORDER[(i / 16) % 8] * 8 + i / 128
}

/// Transposes a block: `out[i] = values[transposed_index(i)]`, as the
/// `fastlanes` crate's `Transpose::transpose`.
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let values: Vec<u32> = (0..1024).collect();
/// let (mut t, mut back) = ([0u32; 1024], [0u32; 1024]);
/// fastlanes::transpose(&values, &mut t)?;
/// fastlanes::untranspose(&t, &mut back)?;
/// assert_eq!(back[..], values[..]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn transpose<T: Word>(values: &[T], out: &mut [T]) -> Result<(), Error> {
    let values = block(values)?;
    let out = out_block(out)?;
    for (i, o) in out.iter_mut().enumerate() {
        *o = values[transposed_index(i)];
    }
    Ok(())
}

/// The inverse of [`transpose`]: `out[transposed_index(i)] = values[i]`.
pub fn untranspose<T: Word>(values: &[T], out: &mut [T]) -> Result<(), Error> {
    let values = block(values)?;
    let out = out_block(out)?;
    for (i, &v) in values.iter().enumerate() {
        out[transposed_index(i)] = v;
    }
    Ok(())
}

/// The levels with a kernel of their own on this CPU, scalar first.
pub fn kernels() -> Vec<Isa> {
    Isa::available().to_vec()
}

/// The bits the widest value of form `OP` needs.
fn needed<T: Word, const OP: u8>(values: &[T; BLOCK], reference: T, bases: &[T]) -> u8 {
    let mut acc = T::ZERO;
    match OP {
        FOR => values.iter().for_each(|&v| acc = acc | v.sub(reference)),
        DELTA => {
            for (lane, &base) in bases.iter().enumerate() {
                let mut prev = base;
                for row in 0..T::BITS {
                    let v = values[generic::index(row, lane)];
                    acc = acc | v.sub(prev);
                    prev = v;
                }
            }
        }
        _ => values.iter().for_each(|&v| acc = acc | v),
    }
    acc.bit_len()
}

fn pack_impl<T: Word, const OP: u8>(
    isa: Isa,
    values: &[T],
    reference: T,
    bases: &[T],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    let values = block(values)?;
    if OP == DELTA {
        lane_bases(bases)?;
    }
    let w = check_width::<T>(width)?;
    let len = packed_len(width);
    if out.len() < len {
        return Err(Error::OutputTooSmall {
            needed: len,
            actual: out.len(),
        });
    }
    let f = T::pack_fn(isa, OP, w);
    // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the CPU
    // has its features; the kernel checks its slices' bounds (`out` holds
    // `len` bytes, `bases` a base a lane for Delta, as checked above).
    let fit = unsafe { f(values, reference, bases, out) };
    // The kernel packs and ORs the values in one pass; whether they fitted
    // is known only after it has written `out`.
    let need = fit.bit_len();
    if need > width {
        return Err(Error::InvalidArgument {
            what: "bits a value of the block needs, above the width given",
            value: usize::from(need),
        });
    }
    Ok(len)
}

fn unpack_impl<T: Word, const OP: u8>(
    isa: Isa,
    input: &[u8],
    reference: T,
    bases: &[T],
    width: u8,
    out: &mut [T],
) -> Result<usize, Error> {
    if OP == DELTA {
        lane_bases(bases)?;
    }
    let w = check_width::<T>(width)?;
    let len = packed_len(width);
    if input.len() < len {
        return Err(Error::Truncated {
            offset: input.len(),
            needed: len - input.len(),
            unit: crate::Unit::Bytes,
        });
    }
    let out = out_block(out)?;
    let f = T::unpack_fn(isa, OP, w);
    // SAFETY: as in `pack_impl`: a checked level, and `input` holds `len`
    // bytes.
    unsafe { f(input, reference, bases, out) };
    Ok(len)
}
