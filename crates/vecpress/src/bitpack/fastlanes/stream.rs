//! Streams of FastLanes blocks of u32: any number of values, the forms the
//! registry's `fastlanes`, `fastlanes-delta` and `fastlanes-for` codecs
//! store (ids 20, 21 and 22).
//!
//! ```text
//! n values: n / 1024 whole blocks, then the last n % 1024 values as VByte
//!           (LEB128; gaps in the delta form), as short a tail as the
//!           bp128 streams keep, which no padding would make shorter
//! plain:    [width: u8 (0..=32)][128 width bytes: `pack`]
//! FoR:      [width: u8][reference: u32 LE, the block's minimum]
//!           [128 width bytes: `for_pack`]
//! delta:    [width: u8][bases: 32 VByte gaps][128 width bytes: `delta_pack`
//!           of the transposed block]
//!           Lane l of the transposed block holds the 32 consecutive values
//!           from p = transposed_index(l) (a multiple of 32) on; its base is
//!           value p - 1 of the block, or value 0 itself for p = 0 (whose
//!           first difference is then 0). The 32 values 0, 31, 63, .., 991
//!           of the block are stored as VByte gaps, the first from `prev`
//!           (the last value of the block before, or the caller's for the
//!           first block), so that a jump into the block (the first
//!           value of a list, or of a block coded from 0) costs one VByte
//!           value and not the width of the whole block
//! ```
//!
//! The count is not stored: the caller knows it, as with every integer
//! codec here. A width above 32 is `Corrupt`, a short block `Truncated`,
//! both at the byte where they start.
//!
//! As in bp128's streams, the default decoders run the blocks at the level
//! the CPU's profile chooses for the form and the VByte tail at the one it
//! chooses for VByte; the `*_with(isa)` decoders run both at `isa`.
//!
//! ```
//! use vecpress::bitpack::fastlanes;
//! let docs: Vec<u32> = (0..3000).map(|i| 40 * i + i % 7).collect();
//! let bytes = fastlanes::encode_delta_to_vec(&docs, 0);
//! assert!(bytes.len() < 3000 * 2);
//! assert_eq!(fastlanes::decode_delta_to_vec(&bytes, docs.len(), 0)?, docs);
//! # Ok::<(), vecpress::Error>(())
//! ```
#![forbid(unsafe_code)]

use super::{BLOCK, packed_len, transposed_index};
use crate::bitpack::stream::Levels;
use crate::{Error, Isa, Unit, vbyte};

/// Values per lane of a u32 block, and so between two stored bases.
const RUN: usize = 32;
/// Bases stored per delta block: one a lane.
const BASES: usize = BLOCK / RUN;

/// The levels the delta form decodes at by default.
pub(super) fn delta_levels() -> Levels {
    Form::Delta.levels()
}

/// Which stream form.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Plain,
    For,
    Delta,
}

impl Form {
    /// The levels this CPU's profile chooses for decoding the form
    /// (`tune`), for every decoder that dispatches by itself: the blocks'
    /// and, for the VByte tail, VByte's, as for bp128's streams.
    fn levels(self) -> Levels {
        use crate::tune::Op;
        match self {
            Form::Plain => Levels::tuned(Op::FastLanes, false),
            Form::For => Levels::tuned(Op::FastLanesFor, false),
            Form::Delta => Levels::tuned(Op::FastLanesDelta, true),
        }
    }
}

/// Worst-case encoded size of `n` values in any of the three forms: 4257
/// bytes a whole block (a width byte, the bases' 160 VByte bytes at most,
/// 4096 packed), and the tail's VByte worst case.
///
/// ```
/// assert_eq!(vecpress::bitpack::fastlanes::max_encoded_len(1024), 4257);
/// ```
pub fn max_encoded_len(n: usize) -> usize {
    n / BLOCK * (1 + vbyte::max_encoded_len(BASES) + packed_len(32))
        + vbyte::max_encoded_len(n % BLOCK)
}

/// Encodes `values` into `out`; returns the bytes written. Panics if `out`
/// holds fewer than [`max_encoded_len`]`(values.len())` bytes.
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let values: Vec<u32> = (0..2000).map(|i| i % 300).collect();
/// let mut bytes = vec![0u8; fastlanes::max_encoded_len(values.len())];
/// let len = fastlanes::encode(&values, &mut bytes);
/// let mut out = vec![0u32; values.len()];
/// assert_eq!(fastlanes::decode(&bytes[..len], &mut out), Ok(len));
/// assert_eq!(out, values);
/// ```
pub fn encode(values: &[u32], out: &mut [u8]) -> usize {
    encode_impl(Form::Plain, values, 0, out)
}

/// [`encode`] into a new vector.
pub fn encode_to_vec(values: &[u32]) -> Vec<u8> {
    to_vec(Form::Plain, values, 0)
}

/// Encodes `values` block by block minus each block's minimum; returns the
/// bytes written. Panics if `out` is shorter than [`max_encoded_len`].
pub fn encode_for(values: &[u32], out: &mut [u8]) -> usize {
    encode_impl(Form::For, values, 0, out)
}

/// [`encode_for`] into a new vector.
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let values: Vec<u32> = (0..1500).map(|i| 1_000_000 + i % 16).collect();
/// let bytes = fastlanes::encode_for_to_vec(&values);
/// assert!(bytes.len() < 1024 / 2 + 600 * 3 + 10);
/// assert_eq!(fastlanes::decode_for_to_vec(&bytes, values.len())?, values);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn encode_for_to_vec(values: &[u32]) -> Vec<u8> {
    to_vec(Form::For, values, 0)
}

/// Encodes the gaps of sorted `values`, the first one's to `prev`; returns
/// the bytes written. Panics if `out` is shorter than [`max_encoded_len`].
pub fn encode_delta(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    encode_impl(Form::Delta, values, prev, out)
}

/// [`encode_delta`] into a new vector.
pub fn encode_delta_to_vec(values: &[u32], prev: u32) -> Vec<u8> {
    to_vec(Form::Delta, values, prev)
}

/// Decodes `out.len()` values from the start of `input`; returns the bytes
/// consumed.
pub fn decode(input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl(Form::Plain, Form::Plain.levels(), input, out, 0)
}

/// [`decode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
pub fn decode_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl(Form::Plain, Levels::one(isa.check()?), input, out, 0)
}

/// Decodes `n` values into a new vector.
pub fn decode_to_vec(input: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    from_vec(Form::Plain, input, n, 0)
}

/// Decodes `out.len()` values of a FoR stream; returns the bytes consumed.
pub fn decode_for(input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl(Form::For, Form::For.levels(), input, out, 0)
}

/// [`decode_for`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn decode_for_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    decode_impl(Form::For, Levels::one(isa.check()?), input, out, 0)
}

/// Decodes `n` values of a FoR stream into a new vector.
pub fn decode_for_to_vec(input: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    from_vec(Form::For, input, n, 0)
}

/// Decodes `out.len()` values of a delta stream, summing the gaps from
/// `prev`; returns the bytes consumed.
pub fn decode_delta(input: &[u8], out: &mut [u32], prev: u32) -> Result<usize, Error> {
    decode_impl(Form::Delta, Form::Delta.levels(), input, out, prev)
}

/// [`decode_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn decode_delta_with(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, Error> {
    decode_impl(Form::Delta, Levels::one(isa.check()?), input, out, prev)
}

/// Decodes `n` values of a delta stream into a new vector.
pub fn decode_delta_to_vec(input: &[u8], n: usize, prev: u32) -> Result<Vec<u32>, Error> {
    from_vec(Form::Delta, input, n, prev)
}

/// The index and value of the first value `>= key` of a sorted delta
/// stream of `n` values (encoded from `prev`), or `None` if every value is
/// smaller.
///
/// The stream stores no skip list, but a block's bases come first (32
/// VByte gaps, value 0 and every 32nd value's predecessor), so a block is
/// skipped by its last value without unpacking it: the base of the lane
/// that holds values 992..1024 plus that lane's 32 differences, each read
/// in place ([`delta_select`](super::delta_select)). Only the block
/// holding the answer is decoded (none when its first value, read in
/// place, is the answer) and binary searched; the VByte tail is decoded only when
/// every block is below `key`, a piece of 128 values at a time up to the
/// piece that holds the answer. The errors are those [`decode_delta`]
/// gives on the blocks read. On a stream that is not sorted the answer is
/// some index, never a panic.
///
/// ```
/// use vecpress::bitpack::fastlanes;
/// let docs: Vec<u32> = (0..3000).map(|i| 3 * i).collect();
/// let bytes = fastlanes::encode_delta_to_vec(&docs, 0);
/// assert_eq!(fastlanes::search_delta(&bytes, 3000, 3001, 0), Ok(Some((1001, 3003))));
/// assert_eq!(fastlanes::search_delta(&bytes, 3000, 8997, 0), Ok(Some((2999, 8997))));
/// assert_eq!(fastlanes::search_delta(&bytes, 3000, 9000, 0), Ok(None));
/// assert!(fastlanes::search_delta(&bytes[..100], 3000, 9000, 0).is_err());
/// ```
pub fn search_delta(
    input: &[u8],
    n: usize,
    key: u32,
    mut prev: u32,
) -> Result<Option<(usize, u32)>, Error> {
    let levels = Form::Delta.levels();
    let isa = levels.blocks;
    // The lane holding the block's last value, and its row there.
    let (last_row, last_lane) = super::select::natural_row_lane::<u32>(BLOCK - 1);
    let mut pos = 0;
    for b in 0..n / BLOCK {
        let left = n - b * BLOCK;
        let width = block_width(input, pos, left)?;
        pos += 1;
        let bases;
        (bases, pos) = delta_bases(isa, input, pos, prev, width, left)?;
        let data = &input[pos..];
        let len = packed_len(width);
        let w = usize::from(width);
        let last = super::select::lane_sum(data, w, last_lane, last_row, bases[last_lane]);
        if last >= key {
            // Value 0 is its lane's base (`ends[0]`) plus a difference of 0
            // when the stream is sound; read as decoding reads it, so that
            // a broken stream's answer is still the value decoded there.
            let first = super::select::lane_sum(data, w, 0, 0, bases[0]);
            if first >= key {
                return Ok(Some((b * BLOCK, first)));
            }
            let mut block = [0u32; BLOCK];
            super::delta_unpack_natural_with(isa, data, &bases, width, &mut block)?;
            // At most the last index even where the block is not sorted.
            let j = block.partition_point(|&v| v < key).min(BLOCK - 1);
            return Ok(Some((b * BLOCK + j, block[j])));
        }
        pos += len;
        prev = last;
    }
    // The tail (up to 1023 values) a piece at a time, each binary searched
    // when its last value reaches `key`: a short list, all tail, is neither
    // decoded past its answer nor given a buffer of a whole block to clear.
    let mut done = n / BLOCK * BLOCK;
    let mut buf = [0u32; TAIL_PIECE];
    while done < n {
        let piece = &mut buf[..(n - done).min(TAIL_PIECE)];
        let after = n - done - piece.len();
        pos += vbyte::decode_tail(levels.tail, &input[pos..], piece, Some(prev))
            .map_err(|e| in_tail(e, pos, after))?;
        let last = piece[piece.len() - 1];
        if last >= key {
            // At most the last index even where the piece is not sorted.
            let j = piece.partition_point(|&v| v < key).min(piece.len() - 1);
            return Ok(Some((done + j, piece[j])));
        }
        prev = last;
        done += piece.len();
    }
    Ok(None)
}

/// Values of the tail that [`search_delta`] decodes at a time.
const TAIL_PIECE: usize = 128;

/// The error of a tail piece at `pos`, `after` values before the stream's
/// end: a piece cut short counts the values after it as missing too, as
/// decoding the whole tail at once does.
pub(super) fn in_tail(e: Error, pos: usize, after: usize) -> Error {
    match e {
        Error::Truncated {
            offset,
            needed,
            unit: Unit::Values,
        } => short(pos + offset, needed + after),
        other => other.shifted(pos),
    }
}

fn to_vec(form: Form, values: &[u32], prev: u32) -> Vec<u8> {
    let mut out = vec![0u8; max_encoded_len(values.len())];
    let n = encode_impl(form, values, prev, &mut out);
    out.truncate(n);
    out
}

fn from_vec(form: Form, input: &[u8], n: usize, prev: u32) -> Result<Vec<u32>, Error> {
    // A block of 1024 values takes at least its width byte, a tail value
    // a byte: no more values than that are allocated before decoding.
    let mut out = vec![0u32; n.min(input.len().saturating_mul(BLOCK))];
    if out.len() < n {
        return Err(short(input.len(), n - out.len()));
    }
    decode_impl(form, form.levels(), input, &mut out, prev)?;
    Ok(out)
}

fn short(offset: usize, needed: usize) -> Error {
    Error::Truncated {
        offset,
        needed,
        unit: Unit::Values,
    }
}

/// The values of a block stored as the bases of its lanes: value 0, then
/// the last value of every run of 32 but the last.
fn ends(block: &[u32]) -> [u32; BASES] {
    core::array::from_fn(|k| if k == 0 { block[0] } else { block[RUN * k - 1] })
}

/// The width byte of the block at `pos`, `left` values before the end.
pub(super) fn block_width(input: &[u8], pos: usize, left: usize) -> Result<u8, Error> {
    let Some(&width) = input.get(pos) else {
        return Err(short(pos, left));
    };
    if width > 32 {
        return Err(Error::Corrupt {
            offset: pos,
            what: "bit width above 32",
        });
    }
    Ok(width)
}

/// The lanes' bases of the delta block whose VByte ends start at `pos`
/// (from `prev`), and where its packed bytes start, checked to hold the
/// block of `width`.
pub(super) fn delta_bases(
    isa: Isa,
    input: &[u8],
    mut pos: usize,
    prev: u32,
    width: u8,
    left: usize,
) -> Result<([u32; RUN], usize), Error> {
    let mut ends = [0u32; BASES];
    pos += vbyte::decode_delta_impl(isa, &input[pos..], &mut ends, prev)
        .map_err(|e| e.shifted(pos))?;
    if input.len() - pos < packed_len(width) {
        return Err(short(pos, left));
    }
    Ok((bases(&ends), pos))
}

/// The base of each lane of a transposed block: `ends[k]` for the lane
/// whose run starts at value `32 k` of the block.
fn bases(ends: &[u32; BASES]) -> [u32; RUN] {
    core::array::from_fn(|lane| ends[RUN_OF_LANE[lane]])
}

/// The run of 32 values lane `l` holds: `transposed_index(l) / 32`.
const RUN_OF_LANE: [usize; RUN] = {
    let mut runs = [0; RUN];
    let mut lane = 0;
    while lane < RUN {
        runs[lane] = transposed_index(lane) / RUN;
        lane += 1;
    }
    runs
};

fn encode_impl(form: Form, values: &[u32], mut prev: u32, out: &mut [u8]) -> usize {
    let mut pos = 0;
    let mut blocks = values.chunks_exact(BLOCK);
    let mut lanes = [0u32; BLOCK];
    for block in &mut blocks {
        let packed = match form {
            Form::Plain => {
                let width = super::width(block).expect("a whole block");
                out[pos] = width;
                pos += 1;
                super::pack(block, width, &mut out[pos..])
            }
            Form::For => {
                let (reference, width) = super::for_reference(block).expect("a whole block");
                out[pos] = width;
                out[pos + 1..pos + 5].copy_from_slice(&reference.to_le_bytes());
                pos += 5;
                super::for_pack(block, reference, width, &mut out[pos..])
            }
            Form::Delta => {
                let ends = ends(block);
                let bases = bases(&ends);
                super::transpose(block, &mut lanes).expect("a whole block");
                let width = super::delta_width(&lanes, &bases).expect("a whole block");
                out[pos] = width;
                pos += 1;
                pos += vbyte::encode_delta(&ends, prev, &mut out[pos..]);
                super::delta_pack(&lanes, &bases, width, &mut out[pos..])
            }
        }
        .expect("the block's own width, room for it");
        pos += packed;
        prev = block[BLOCK - 1];
    }
    let tail = blocks.remainder();
    pos + if form == Form::Delta {
        vbyte::encode_delta(tail, prev, &mut out[pos..])
    } else {
        vbyte::encode(tail, &mut out[pos..])
    }
}

#[inline]
fn decode_impl(
    form: Form,
    levels: Levels,
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, Error> {
    // A list shorter than a block is all tail, as most of a posting index
    // is: straight to VByte, without entering the block loop, whose frame
    // and setup cost as much as a short list's decoding.
    if out.len() < BLOCK {
        let prev = (form == Form::Delta).then_some(prev);
        return vbyte::decode_tail(levels.tail, input, out, prev);
    }
    decode_blocks(form, levels, input, out, prev)
}

/// [`decode_impl`] for a list of at least one whole block.
#[inline(never)]
fn decode_blocks(
    form: Form,
    levels: Levels,
    input: &[u8],
    out: &mut [u32],
    mut prev: u32,
) -> Result<usize, Error> {
    let isa = levels.blocks;
    let n = out.len();
    let mut pos = 0;
    let mut blocks = out.chunks_exact_mut(BLOCK);
    for (b, block) in (&mut blocks).enumerate() {
        let left = n - b * BLOCK;
        let width = block_width(input, pos, left)?;
        pos += 1;
        let read = match form {
            Form::Plain => {
                let data = &input[pos..];
                if data.len() < packed_len(width) {
                    return Err(short(pos, left));
                }
                super::unpack_with(isa, data, width, block)?
            }
            Form::For => {
                let Some(reference) = input.get(pos..pos + 4) else {
                    return Err(short(pos, left));
                };
                let reference = u32::from_le_bytes(reference.try_into().expect("4 bytes"));
                pos += 4;
                let data = &input[pos..];
                if data.len() < packed_len(width) {
                    return Err(short(pos, left));
                }
                super::for_unpack_with(isa, data, reference, width, block)?
            }
            Form::Delta => {
                let bases;
                (bases, pos) = delta_bases(isa, input, pos, prev, width, left)?;
                super::delta_unpack_natural_with(isa, &input[pos..], &bases, width, block)?
            }
        };
        pos += read;
        prev = block[BLOCK - 1];
    }
    let tail = blocks.into_remainder();
    let prev = (form == Form::Delta).then_some(prev);
    let read =
        vbyte::decode_tail(levels.tail, &input[pos..], tail, prev).map_err(|e| e.shifted(pos))?;
    Ok(pos + read)
}
