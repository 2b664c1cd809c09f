//! Bit shuffle followed by LZ4, framed as the bitshuffle library's
//! `bshuf_compress_lz4` and its HDF5 filter (id 32008) write it.
//!
//! ```text
//!   total size (u64 BE) | block size in bytes (u32 BE)       12-byte header
//!   lz4 size (u32 BE) | lz4 block of one bit-shuffled block  per block
//!   ...
//!   the last N % 8 values, as they are                       leftover
//! ```
//!
//! The blocks are those of [`encode`](super::encode): whole blocks of the
//! header's block size, then one of the largest multiple of 8 values left;
//! each is bit-shuffled and compressed as one LZ4 block. The width is not
//! stored: the caller keeps it (HDF5 keeps it in the filter's parameters).
#![forbid(unsafe_code)]

use super::{block_values, count, decode_block, encode_block};
use crate::lz4::block;
use crate::{Error, Isa, scratch};

/// Length of the header: the total size and the block size.
pub const HEADER_LEN: usize = 12;

/// The blocks of `n` values in blocks of `bs`: `(count, values)` of the
/// whole blocks, then the values of the last block (0 for none).
fn blocks(n: usize, bs: usize) -> (usize, usize, usize) {
    (n / bs, bs, n % bs / 8 * 8)
}

/// Worst-case compressed size of `len` bytes of values of `width` bytes in
/// blocks of `block_size` values (0 for the default), header included.
///
/// ```
/// use vecpress::bit_split;
/// assert!(bit_split::max_compressed_len_lz4(8192, 4, 0) >= 8192 + 12);
/// ```
pub fn max_compressed_len_lz4(len: usize, width: usize, block_size: usize) -> usize {
    let width = width.max(1);
    let bs = block_values(width, block_size).unwrap_or(8).max(8);
    let (whole, bs, last) = blocks(len / width, bs);
    let bound = |values: usize| 4 + block::max_compressed_len(values * width);
    HEADER_LEN + whole * bound(bs) + if last > 0 { bound(last) } else { 0 } + len % (8 * width)
}

/// Worst-case compressed size of `len` bytes with the default block size,
/// whatever the width: a default block holds at least 7680 bytes (the
/// rounding to 8 values costs at most 8 of 8192 / 8 values), so there are
/// at most `len / 4096 + 1` blocks, each adding its size prefix and LZ4's
/// 16 bytes and one more for its `len / 255` share.
///
/// ```
/// use vecpress::bit_split;
/// for width in 1..=300 {
///     for len in [0, 1000, 8191, 100_000] {
///         let len = len / width * width;
///         assert!(bit_split::max_compressed_len_lz4(len, width, 0) <= bit_split::max_compressed_len_lz4_default(len));
///     }
/// }
/// ```
pub const fn max_compressed_len_lz4_default(len: usize) -> usize {
    HEADER_LEN + len + len / 255 + 21 * (len / 4096 + 1)
}

/// Bit-shuffles `input` (values of `width` bytes) in blocks of `block_size`
/// values (0 for [`default_block_size`](super::default_block_size)) and
/// compresses each block with LZ4 into `out`, framed as the HDF5 filter
/// 32008 does; returns the bytes written.
///
/// # Errors
/// [`Error::InvalidArgument`] for a width of zero, a length that is not a
/// whole number of values, or a block size that is not a multiple of 8;
/// [`Error::OutputTooSmall`] when `out` is shorter than
/// [`max_compressed_len_lz4`] and the frame does not fit.
///
/// ```
/// use vecpress::bit_split;
/// let values: Vec<u8> = (0..4096u32).flat_map(|i| (i / 7).to_le_bytes()).collect();
/// let mut packed = vec![0u8; bit_split::max_compressed_len_lz4(values.len(), 4, 0)];
/// let n = bit_split::compress_lz4(&values, 4, 0, &mut packed)?;
/// assert!(n < values.len() / 4);
/// assert_eq!(packed[..12], [0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0x20, 0]);
/// let mut out = vec![0u8; values.len()];
/// assert_eq!(bit_split::decompress_lz4(&packed[..n], 4, &mut out)?, values.len());
/// assert_eq!(out, values);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_lz4(
    input: &[u8],
    width: usize,
    block_size: usize,
    out: &mut [u8],
) -> Result<usize, Error> {
    let n = count(input.len(), width)?;
    let bs = block_values(width, block_size)?;
    let block_bytes = bs.checked_mul(width).filter(|&b| b <= u32::MAX as usize);
    let block_bytes = block_bytes.ok_or(Error::InvalidArgument {
        what: "block size in bytes above u32",
        value: bs,
    })?;
    let actual = out.len();
    let too_small = |needed: usize| Error::OutputTooSmall { needed, actual };
    if out.len() < HEADER_LEN {
        return Err(too_small(HEADER_LEN));
    }
    let isa = crate::tune::isa(crate::tune::Op::BitSplit);
    out[..8].copy_from_slice(&(input.len() as u64).to_be_bytes());
    out[8..12].copy_from_slice(&(block_bytes as u32).to_be_bytes());
    let (whole, _, last) = blocks(n, bs);
    // A block shuffled and the scratch of its shuffling, in one buffer of
    // this thread's: each is written before it is read.
    let block_len = bs.min(n) * width;
    let (pos, i) = scratch::with(2 * block_len, |buf| -> Result<_, Error> {
        let (shuffled, scratch) = buf.split_at_mut(block_len);
        let (mut pos, mut i) = (HEADER_LEN, 0);
        for m in core::iter::repeat_n(bs, whole).chain((last > 0).then_some(last)) {
            let len = m * width;
            let src = &input[i..i + len];
            encode_block(isa, src, width, &mut shuffled[..len], &mut scratch[..len]);
            if out.len() < pos + 4 {
                return Err(too_small(max_compressed_len_lz4(input.len(), width, bs)));
            }
            let c = block::compress_into(&shuffled[..len], &mut out[pos + 4..])
                .map_err(|_| too_small(max_compressed_len_lz4(input.len(), width, bs)))?;
            out[pos..pos + 4].copy_from_slice(&(c as u32).to_be_bytes());
            pos += 4 + c;
            i += len;
        }
        Ok((pos, i))
    })?;
    let rest = &input[i..];
    let end = pos + rest.len();
    if out.len() < end {
        return Err(too_small(max_compressed_len_lz4(input.len(), width, bs)));
    }
    out[pos..end].copy_from_slice(rest);
    Ok(end)
}

/// [`compress_lz4`] into a new vector of the compressed size.
///
/// ```
/// let packed = vecpress::bit_split::compress_lz4_to_vec(&[0u8; 1000], 4, 0)?;
/// assert!(packed.len() < 50);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_lz4_to_vec(
    input: &[u8],
    width: usize,
    block_size: usize,
) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; max_compressed_len_lz4(input.len(), width, block_size)];
    let n = compress_lz4(input, width, block_size, &mut out)?;
    out.truncate(n);
    Ok(out)
}

/// The most bytes a frame of `len` bytes can decode to: `255 len`. Each
/// block costs its 4-byte size and its LZ4 bytes, which yield at most 255
/// bytes a byte plus 16 ([`block::max_decompressed_len`], within 255 times
/// the block's share of the frame); the values after the blocks are stored
/// as they are.
///
/// ```
/// use vecpress::bit_split;
/// let packed = bit_split::compress_lz4_to_vec(&[0u8; 1 << 20], 8, 0)?;
/// assert!(1 << 20 <= bit_split::max_decompressed_len_lz4(packed.len()));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub const fn max_decompressed_len_lz4(len: usize) -> usize {
    len.saturating_mul(255)
}

/// The uncompressed size the header of `input` states, once checked
/// against what the frame can hold ([`max_decompressed_len_lz4`]): a
/// caller can size its output from it before decoding.
///
/// # Errors
/// [`Error::Truncated`] for a frame shorter than its header;
/// [`Error::LimitExceeded`] for a size beyond what the frame can hold.
///
/// ```
/// use vecpress::{bit_split, Error};
/// let packed = bit_split::compress_lz4_to_vec(&[7u8; 100], 4, 0)?;
/// assert_eq!(bit_split::decompressed_len_lz4(&packed), Ok(100));
/// // 14 bytes stating 2 GiB.
/// let bomb = [0, 0, 0, 0, 0x80, 0, 0, 0, 0x80, 0, 0, 0, 0xbc, 0x55];
/// assert!(matches!(bit_split::decompressed_len_lz4(&bomb), Err(Error::LimitExceeded { .. })));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompressed_len_lz4(input: &[u8]) -> Result<u64, Error> {
    let header = input.get(..HEADER_LEN).ok_or_else(|| Error::Truncated {
        offset: 0,
        needed: HEADER_LEN - input.len(),
        unit: crate::Unit::Bytes,
    })?;
    let stated = u64::from_be_bytes(header[..8].try_into().unwrap_or([0; 8]));
    let possible = max_decompressed_len_lz4(input.len());
    if stated > possible as u64 {
        return Err(Error::LimitExceeded {
            what: "bitshuffle-lz4 stated size beyond what the frame holds",
            requested: usize::try_from(stated).unwrap_or(usize::MAX),
            limit: possible,
        });
    }
    Ok(stated)
}

/// Decompresses a frame of [`compress_lz4`] (or of the bitshuffle library)
/// of values of `width` bytes into `out`, whose length must be the size the
/// header states; returns it.
///
/// # Errors
/// [`Error::LimitExceeded`] when the header states more than the frame can
/// hold ([`decompressed_len_lz4`]), checked before anything is allocated;
/// [`Error::OutputTooSmall`] when it states more than `out.len()`;
/// [`Error::Truncated`] or [`Error::Corrupt`], with the offset, for a frame
/// that is cut short, states another size, a block size that is not a
/// whole number of 8 values, or holds a bad LZ4 block.
///
/// ```
/// use vecpress::{bit_split, Error};
/// let packed = bit_split::compress_lz4_to_vec(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 2, 0)?;
/// let mut out = [0u8; 10];
/// assert_eq!(bit_split::decompress_lz4(&packed, 2, &mut out)?, 10);
/// assert_eq!(out, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
/// assert!(matches!(bit_split::decompress_lz4(&packed[..15], 2, &mut out), Err(Error::Truncated { .. })));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_lz4(input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    decompress_lz4_with(
        crate::tune::isa(crate::tune::Op::BitSplit),
        input,
        width,
        out,
    )
}

/// [`decompress_lz4`] with the kernels of `isa`; `Err(Unsupported)` if the
/// CPU lacks it.
///
/// ```
/// use vecpress::{bit_split, Isa};
/// let packed = bit_split::compress_lz4_to_vec(&[5u8; 64], 8, 0)?;
/// for &isa in Isa::available() {
///     let mut out = [0u8; 64];
///     assert_eq!(bit_split::decompress_lz4_with(isa, &packed, 8, &mut out)?, 64);
///     assert_eq!(out, [5u8; 64]);
/// }
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_lz4_with(
    isa: Isa,
    input: &[u8],
    width: usize,
    out: &mut [u8],
) -> Result<usize, Error> {
    let isa = isa.check()?;
    count(0, width)?;
    let total = decompressed_len_lz4(input)?;
    if total > out.len() as u64 {
        return Err(Error::OutputTooSmall {
            needed: usize::try_from(total).unwrap_or(usize::MAX),
            actual: out.len(),
        });
    }
    let total = total as usize;
    if total != out.len() {
        return Err(Error::Corrupt {
            offset: 0,
            what: "stated size differs from the output length",
        });
    }
    if !total.is_multiple_of(width) {
        return Err(Error::Corrupt {
            offset: 0,
            what: "stated size not a whole number of values",
        });
    }
    let block_bytes = u32::from_be_bytes(input[8..12].try_into().unwrap_or([0; 4])) as usize;
    let bs = block_bytes / width;
    if bs == 0 || !block_bytes.is_multiple_of(width) || !bs.is_multiple_of(8) {
        return Err(Error::Corrupt {
            offset: 8,
            what: "block size not a whole number of 8 values",
        });
    }
    let n = total / width;
    let (whole, _, last) = blocks(n, bs);
    // Two blocks as LZ4 leaves them and the scratch of their unshuffling,
    // in one buffer of this thread's: each is written before it is read.
    // The blocks are independent LZ4 blocks, decoded two at a time
    // (`decompress_pair`: two chains of tokens for the CPU to follow instead
    // of one); a block waits for the next, and errors come in the order of
    // the blocks, as decoding them one by one gives.
    let block_len = bs.min(n) * width;
    let (pos, o) = scratch::with(3 * block_len, |buf| -> Result<_, Error> {
        let (first, rest) = buf.split_at_mut(block_len);
        let (second, scratch) = rest.split_at_mut(block_len);
        let unshuffle = |b: &Block, shuffled: &[u8], out: &mut [u8], scratch: &mut [u8]| {
            let len = b.len;
            decode_block(
                isa,
                &shuffled[..len],
                width,
                &mut out[b.out..b.out + len],
                &mut scratch[..len],
            );
        };
        let mut pos = HEADER_LEN;
        let mut o = 0;
        let mut waiting: Option<Block> = None;
        for m in core::iter::repeat_n(bs, whole).chain((last > 0).then_some(last)) {
            let b = match Block::read(input, pos, m * width, o) {
                Ok(b) => b,
                Err(e) => {
                    if let Some(w) = waiting {
                        w.decode(isa, input, first)?;
                    }
                    return Err(e);
                }
            };
            (pos, o) = (b.start + b.c, o + b.len);
            match waiting.take() {
                None => waiting = Some(b),
                Some(w) => {
                    let (a, z) = block::decompress_pair_with(
                        isa,
                        (w.src(input), &mut first[..w.len]),
                        (b.src(input), &mut second[..b.len]),
                    );
                    w.check(a)?;
                    b.check(z)?;
                    unshuffle(&w, first, out, scratch);
                    unshuffle(&b, second, out, scratch);
                }
            }
        }
        if let Some(w) = waiting {
            w.decode(isa, input, first)?;
            unshuffle(&w, first, out, scratch);
        }
        Ok((pos, o))
    })?;
    let rest = total - o;
    if input.len() - pos < rest {
        return Err(Error::Truncated {
            offset: pos,
            needed: rest - (input.len() - pos),
            unit: crate::Unit::Bytes,
        });
    }
    if input.len() - pos > rest {
        return Err(Error::Corrupt {
            offset: pos + rest,
            what: "bytes after the last values",
        });
    }
    out[o..].copy_from_slice(&input[pos..]);
    Ok(total)
}

/// One block of a stream: its LZ4 bytes at `start..start + c` of the input,
/// its `len` bytes of values at `out` of the output.
struct Block {
    start: usize,
    c: usize,
    len: usize,
    out: usize,
}

impl Block {
    /// The block whose size field is at `pos` of `input`, `len` bytes of
    /// values to go at `out`; an error if the input ends before it does.
    fn read(input: &[u8], pos: usize, len: usize, out: usize) -> Result<Block, Error> {
        let size = input.get(pos..pos + 4).ok_or_else(|| Error::Truncated {
            offset: pos,
            needed: pos + 4 - input.len(),
            unit: crate::Unit::Bytes,
        })?;
        let c = u32::from_be_bytes(size.try_into().unwrap_or([0; 4])) as usize;
        let start = pos + 4;
        if c > input.len() - start {
            return Err(Error::Truncated {
                offset: pos,
                needed: c - (input.len() - start),
                unit: crate::Unit::Bytes,
            });
        }
        Ok(Block { start, c, len, out })
    }

    /// The block's LZ4 bytes.
    fn src<'a>(&self, input: &'a [u8]) -> &'a [u8] {
        &input[self.start..self.start + self.c]
    }

    /// Decodes the block on its own into the start of `buf`.
    fn decode(&self, isa: Isa, input: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        self.check(block::decompress_with(
            isa,
            self.src(input),
            &mut buf[..self.len],
        ))
    }

    /// The result of decoding the block, as the stream's: offsets in the
    /// stream, and every byte of the block written.
    fn check(&self, got: Result<usize, Error>) -> Result<(), Error> {
        if got.map_err(|e| e.shifted(self.start))? != self.len {
            return Err(Error::Corrupt {
                offset: self.start + self.c,
                what: "lz4 block shorter than its bit-shuffle block",
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What decoding the blocks of `input` one after another gives: the
    /// first block's error, or `Ok`. The header must be sound.
    fn one_by_one(isa: Isa, input: &[u8], width: usize, total: usize) -> Result<(), Error> {
        let bs = u32::from_be_bytes(input[8..12].try_into().unwrap()) as usize / width;
        let (whole, _, last) = blocks(total / width, bs);
        let mut buf = vec![0u8; bs * width];
        let mut pos = HEADER_LEN;
        for m in core::iter::repeat_n(bs, whole).chain((last > 0).then_some(last)) {
            let b = Block::read(input, pos, m * width, 0)?;
            b.check(block::decompress_with(isa, b.src(input), &mut buf[..b.len]))?;
            pos = b.start + b.c;
        }
        Ok(())
    }

    #[test]
    fn blocks_decoded_in_pairs_fail_as_one_by_one() {
        let width = 4;
        let values: Vec<u8> = (0..9_001u32)
            .flat_map(|i| (i / 5 + i.wrapping_mul(2_654_435_761) % 3).to_le_bytes())
            .collect();
        let packed = compress_lz4_to_vec(&values, width, 256).unwrap();
        let mut out = vec![0u8; values.len()];
        let mut errors = 0;
        for &isa in Isa::available() {
            assert_eq!(
                decompress_lz4_with(isa, &packed, width, &mut out),
                Ok(values.len())
            );
            assert_eq!(out, values);
            for at in (HEADER_LEN..packed.len()).step_by(5) {
                // One flip, or two in blocks that may be decoded side by side.
                for (flip, also) in [(0x01u8, 0), (0x10, 0), (0xf0, 0), (0x10, 211), (0xf0, 547)] {
                    let mut bad = packed.clone();
                    bad[at] ^= flip;
                    if also != 0 {
                        let region = packed.len() - HEADER_LEN;
                        bad[HEADER_LEN + (at - HEADER_LEN + also) % region] ^= 0x40;
                    }
                    let got = decompress_lz4_with(isa, &bad, width, &mut out);
                    // The last values are stored as they are: a flip there
                    // decodes to other values.
                    match one_by_one(isa, &bad, width, values.len()) {
                        Err(e) => {
                            assert_eq!(got, Err(e), "{isa:?} byte {at} ^ {flip:#x}");
                            errors += 1;
                        }
                        Ok(()) => assert!(
                            got.is_ok() || at >= packed.len() - values.len() % 32,
                            "{isa:?} byte {at} ^ {flip:#x}: {got:?}"
                        ),
                    }
                }
            }
        }
        assert!(errors > 1000, "only {errors} corruptions failed");
    }
}
