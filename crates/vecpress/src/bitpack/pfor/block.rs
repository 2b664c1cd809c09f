//! One PFOR block: choosing its width, writing it, reading its header,
//! unpacking and patching it, and reading one value of it in place.
//!
//! The packed part is a 4-lane SIMD-BP128 block, so unpacking runs the
//! bp128 kernels; exceptions are patched after it (and before the running
//! sum, for gaps), as Lucene's `PForUtil` and FastPFor's NewPFD do. A block
//! of gaps with no exceptions goes through bp128-delta's own path, which at
//! the AVX-512 level sums the gaps in the registers it unpacks them in.
#![forbid(unsafe_code)]

use super::{BLOCK_LEN, EXCEPTIONS_FLAG, RESERVED_BIT};
use crate::bitpack::bp128::{self, Lanes};
use crate::{Error, Isa, Unit};

/// Where the parts of a block sit, from its start, as its header says.
#[derive(Debug, Clone, Copy)]
pub(super) struct Header {
    /// Bits of each value's packed low part (0..=32).
    pub width: u8,
    /// Exceptions (0..=128).
    pub exceptions: usize,
    /// Bits of an exception's high part (1..=32 - width; 0 without exceptions).
    pub high_width: u8,
    /// Offset of the packed part.
    pub packed_at: usize,
    /// Offset of the exceptions' positions.
    pub positions_at: usize,
    /// Offset of the exceptions' high parts.
    pub highs_at: usize,
    /// Bytes of the whole block.
    pub len: usize,
}

/// Bytes of `n` high parts of `e` bits each.
fn highs_len(n: usize, e: u8) -> usize {
    (n * usize::from(e)).div_ceil(8)
}

/// Bits `v` needs (0 for 0).
fn bits(v: u32) -> u8 {
    (32 - v.leading_zeros()) as u8
}

/// A block too short for its part that starts at `offset` and ends at `end`.
fn truncated(input: &[u8], end: usize) -> Error {
    Error::Truncated {
        offset: input.len(),
        needed: end - input.len(),
        unit: Unit::Bytes,
    }
}

/// Reads and checks the header of the block at the start of `input`, and
/// that `input` holds the whole block.
pub(super) fn header(input: &[u8]) -> Result<Header, Error> {
    let Some(&first) = input.first() else {
        return Err(truncated(input, 1));
    };
    if first & RESERVED_BIT != 0 {
        return Err(Error::Corrupt {
            offset: 0,
            what: "reserved bit 6 of the width byte set",
        });
    }
    let width = first & !EXCEPTIONS_FLAG;
    if width > bp128::MAX_WIDTH {
        return Err(Error::Corrupt {
            offset: 0,
            what: "bit width above 32",
        });
    }
    if first & EXCEPTIONS_FLAG == 0 {
        let len = 1 + Lanes::X4.packed_len(width);
        if input.len() < len {
            return Err(truncated(input, len));
        }
        return Ok(Header {
            width,
            exceptions: 0,
            high_width: 0,
            packed_at: 1,
            positions_at: len,
            highs_at: len,
            len,
        });
    }
    if input.len() < 3 {
        return Err(truncated(input, 3));
    }
    let exceptions = usize::from(input[1]) + 1;
    if exceptions > BLOCK_LEN {
        return Err(Error::Corrupt {
            offset: 1,
            what: "more exceptions than values",
        });
    }
    let high_width = input[2];
    if high_width == 0 || high_width > bp128::MAX_WIDTH - width {
        return Err(Error::Corrupt {
            offset: 2,
            what: "exception bits zero or beyond 32",
        });
    }
    let positions_at = 3 + Lanes::X4.packed_len(width);
    let highs_at = positions_at + exceptions;
    let len = highs_at + highs_len(exceptions, high_width);
    if input.len() < len {
        return Err(truncated(input, len));
    }
    Ok(Header {
        width,
        exceptions,
        high_width,
        packed_at: 3,
        positions_at,
        highs_at,
        len,
    })
}

/// What choosing a width charges for each exception beyond its bytes: one
/// byte. An exception costs a decoder far more than its bytes (a
/// read-modify-write after unpacking, and a block with any takes a second
/// pass for its running sum), so a block is packed wider when that saves
/// more exceptions than bytes: a little size traded for decoding speed,
/// both of which the per-CPU records (perf/) give.
const EXCEPTION_CHARGE: usize = 1;

/// The width of the packed part that makes the block of `values` cheapest,
/// its size plus [`EXCEPTION_CHARGE`] for each exception, and the block's
/// size then. Ties go to the wider part (fewer exceptions to patch). A
/// block without exceptions is charged nothing, so none is larger than
/// bp128's block of the same values.
pub(super) fn choose(values: &[u32; BLOCK_LEN]) -> (u8, usize) {
    let mut count = [0usize; 33];
    for &v in values {
        count[usize::from(bits(v))] += 1;
    }
    let widest = (0..=32u8)
        .rev()
        .find(|&b| count[usize::from(b)] > 0)
        .unwrap_or(0);
    let mut best = (widest, 1 + Lanes::X4.packed_len(widest));
    let mut best_cost = best.1;
    let mut above = 0;
    for b in (0..widest).rev() {
        above += count[usize::from(b) + 1];
        let size = 3 + Lanes::X4.packed_len(b) + above + highs_len(above, widest - b);
        let cost = size + EXCEPTION_CHARGE * above;
        if cost < best_cost {
            best = (b, size);
            best_cost = cost;
        }
    }
    best
}

/// Writes the block of `values` (already gaps, for the delta form) into
/// `out`, which holds at least the size [`choose`] gives; returns it.
pub(super) fn write(values: &[u32; BLOCK_LEN], out: &mut [u8]) -> usize {
    let (width, size) = choose(values);
    let low_mask = if width == 32 {
        u32::MAX
    } else {
        (1u32 << width) - 1
    };
    let mut low = [0u32; BLOCK_LEN];
    let mut exceptions = 0usize;
    let mut widest = 0u8;
    for (slot, &v) in low.iter_mut().zip(values) {
        *slot = v & low_mask;
        if v > low_mask {
            exceptions += 1;
            widest = widest.max(bits(v));
        }
    }
    let packed_at = if exceptions == 0 { 1 } else { 3 };
    out[0] = width;
    let mut pos = packed_at
        + bp128::pack(Lanes::X4, &low, width, &mut out[packed_at..])
            .expect("low parts fit the width; room for the block");
    if exceptions == 0 {
        debug_assert_eq!(pos, size);
        return pos;
    }
    let high_width = widest - width;
    out[0] |= EXCEPTIONS_FLAG;
    out[1] = (exceptions - 1) as u8;
    out[2] = high_width;
    let highs_at = pos + exceptions;
    let highs_end = highs_at + highs_len(exceptions, high_width);
    out[highs_at..highs_end].fill(0);
    let mut bit = 0usize;
    for (i, &v) in values.iter().enumerate() {
        if v <= low_mask {
            continue;
        }
        out[pos] = i as u8;
        pos += 1;
        // The high part spans at most five bytes from its first bit's.
        let high = u64::from(v >> width) << (bit % 8);
        for (k, byte) in high.to_le_bytes().iter().take(5).enumerate() {
            if let Some(slot) = out[highs_at..highs_end].get_mut(bit / 8 + k) {
                *slot |= byte;
            }
        }
        bit += usize::from(high_width);
    }
    debug_assert_eq!(highs_end, size);
    highs_end
}

/// The high part number `k` (of `e` bits) of `highs`, which holds at
/// least `k + 1` of them (checked by [`header`]).
fn high_part(highs: &[u8], k: usize, e: u8) -> u32 {
    let bit = k * usize::from(e);
    let mut word = [0u8; 8];
    let from = bit / 8;
    let to = highs.len().min(from + 5);
    word[..to - from].copy_from_slice(&highs[from..to]);
    let v = u64::from_le_bytes(word) >> (bit % 8);
    (v & ((1u64 << e) - 1)) as u32
}

/// Unpacks the block at the start of `input` into `out` (128 values) with
/// the kernel of `isa` (checked by the caller), summing its gaps from
/// `initial` when `DELTA`; returns the block's bytes. An error's offset is
/// from the block's start.
pub(super) fn read<const DELTA: bool>(
    isa: Isa,
    input: &[u8],
    initial: u32,
    out: &mut [u32; BLOCK_LEN],
) -> Result<usize, Error> {
    let h = header(input)?;
    // `header` checked the width and that the block is all there: straight
    // to the kernel (the public entry's checks again cost as much as a
    // narrow block).
    let packed = &input[h.packed_at..h.positions_at];
    if DELTA && h.exceptions == 0 {
        bp128::unpack_sorted_block_with(isa, packed, h.width, out, initial);
        return Ok(h.len);
    }
    if DELTA {
        bp128::unpack_gaps_block_with(isa, packed, h.width, out);
    } else {
        bp128::unpack_block_with(isa, packed, h.width, out);
    }
    if h.exceptions != 0 {
        patch(isa, &h, input, out)?;
    }
    if DELTA {
        bp128::running_sum_with(isa, out, initial);
    }
    Ok(h.len)
}

/// Adds the exceptions' high parts to the unpacked low parts in `out`,
/// checking their positions and padding.
///
/// Where the CPU has AVX-512, [`super::avx512::patch`] does it all. Here the
/// positions are checked first, in a loop with no early exit (which the
/// compiler vectorizes); the patching loop then has no branch but its own.
/// Each high part is one unaligned eight-byte load from where it starts,
/// when the input holds eight bytes there (bytes past the block fall under
/// the mask); a block at the input's very end takes the byte-by-byte path
/// for its last parts.
fn patch(isa: Isa, h: &Header, input: &[u8], out: &mut [u32; BLOCK_LEN]) -> Result<(), Error> {
    let positions = &input[h.positions_at..h.highs_at];
    let e = usize::from(h.high_width);
    let from_highs = &input[h.highs_at..];
    #[cfg(target_arch = "x86_64")]
    if let Some(valid) = super::avx512::patch(
        crate::tune::pfor_scalar_patch(),
        isa,
        positions,
        from_highs,
        e,
        u32::from(h.width),
        out,
    ) {
        if !valid {
            return Err(disorder(h, positions));
        }
        return padding(h, input);
    }
    let _ = isa;
    if !positions_valid(positions) {
        return Err(disorder(h, positions));
    }
    let mask = (1u64 << e) - 1;
    // The parts whose eight bytes from their first lie in the input.
    let fast = if from_highs.len() >= h.len - h.highs_at + 7 {
        positions.len()
    } else {
        positions
            .len()
            .min(from_highs.len().saturating_sub(7) * 8 / e)
    };
    for (k, &p) in positions[..fast].iter().enumerate() {
        let bit = k * e;
        let at = bit / 8;
        let word = u64::from_le_bytes(from_highs[at..at + 8].try_into().expect("eight bytes"));
        out[usize::from(p) % BLOCK_LEN] |= ((word >> (bit % 8) & mask) as u32) << h.width;
    }
    let highs = &input[h.highs_at..h.len];
    for (k, &p) in positions.iter().enumerate().skip(fast) {
        out[usize::from(p)] |= high_part(highs, k, h.high_width) << h.width;
    }
    padding(h, input)
}

/// Whether the exceptions' `positions` increase and stay in the block, in
/// a loop with no early exit (which the compiler vectorizes).
fn positions_valid(positions: &[u8]) -> bool {
    let mut bad = positions
        .last()
        .is_some_and(|&p| usize::from(p) >= BLOCK_LEN);
    for (a, b) in positions.iter().zip(positions.get(1..).unwrap_or(&[])) {
        bad |= a >= b;
    }
    !bad
}

/// Checks what [`read`] checks of the exceptions beyond [`header`]: their
/// positions (increasing, in the block) and the padding after their high
/// parts, with the same errors.
fn check_exceptions(h: &Header, input: &[u8]) -> Result<(), Error> {
    let positions = &input[h.positions_at..h.highs_at];
    if !positions_valid(positions) {
        return Err(disorder(h, positions));
    }
    padding(h, input)
}

/// The error for positions out of order or past the block, at the first
/// such.
fn disorder(h: &Header, positions: &[u8]) -> Error {
    let k = (0..positions.len())
        .find(|&k| {
            (k > 0 && positions[k] <= positions[k - 1]) || usize::from(positions[k]) >= BLOCK_LEN
        })
        .unwrap_or(0);
    Error::Corrupt {
        offset: h.positions_at + k,
        what: "exception position out of order or past the block",
    }
}

/// Checks that the bits after the last high part are zero.
fn padding(h: &Header, input: &[u8]) -> Result<(), Error> {
    let used = h.exceptions * usize::from(h.high_width) % 8;
    if used != 0 && input[h.len - 1] >> used != 0 {
        return Err(Error::Corrupt {
            offset: h.len - 1,
            what: "padding bits of the exceptions set",
        });
    }
    Ok(())
}

/// Value `i` (below 128) of the block at the start of `input`, or the sum
/// of its values `0..=i` from `initial` when `DELTA`, read in place. The
/// block is checked as [`read`] checks it (its header, the exceptions'
/// positions and padding), so that a block that does not decode has no
/// value to select either: the same error, at the same offset.
pub(super) fn select<const DELTA: bool>(
    input: &[u8],
    initial: u32,
    i: usize,
) -> Result<u32, Error> {
    if i >= BLOCK_LEN {
        return Err(Error::OutOfRange {
            index: i,
            len: BLOCK_LEN,
        });
    }
    let h = header(input)?;
    if h.exceptions != 0 {
        check_exceptions(&h, input)?;
    }
    let packed = &input[h.packed_at..h.positions_at];
    let positions = &input[h.positions_at..h.highs_at];
    let highs = &input[h.highs_at..h.len];
    let high = |k: usize| high_part(highs, k, h.high_width) << h.width;
    if !DELTA {
        let low = bp128::select(Lanes::X4, packed, h.width, i)?;
        return Ok(match positions.binary_search(&(i as u8)) {
            Ok(k) => low | high(k),
            Err(_) => low,
        });
    }
    let mut sum = bp128::select_sorted(Lanes::X4, initial, packed, h.width, i)?;
    for (k, &p) in positions.iter().enumerate() {
        if usize::from(p) <= i {
            sum = sum.wrapping_add(high(k));
        }
    }
    Ok(sum)
}
