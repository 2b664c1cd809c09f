//! Writing frames as c-blosc 1.x does: the same automatic block size,
//! split decision, flags, and fallback to a raw frame, so that c-blosc
//! reads them and their headers match its own.
#![forbid(unsafe_code)]

use super::{
    Compressor, DOBITSHUFFLE, DONT_SPLIT, DOSHUFFLE, HEADER_LEN, LZ4_VERSION_FORMAT, MAX_BLOCKSIZE,
    MAX_BUFFERSIZE, MAX_OVERHEAD, MAX_SPLITS, MEMCPYED, MIN_BUFFERSIZE, Params, Shuffle, SplitMode,
    VERSION_FORMAT,
};
use crate::lz4::{block, hc};
use crate::{Error, bit_split, byte_split, scratch};

/// c-blosc's L1 guess, the base of its automatic block sizes.
const L1: usize = 32 * 1024;

/// Compresses `input` into a new frame.
///
/// ```
/// use vecpress::blosc::{self, Params, Shuffle};
/// let frame = blosc::compress(&[0u8; 100_000], &Params::lz4(1, Shuffle::None, 1))?;
/// assert!(frame.len() < 1000);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress(input: &[u8], params: &Params) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; super::max_compressed_len(input.len())];
    let n = compress_into(input, params, &mut out)?;
    out.truncate(n);
    Ok(out)
}

/// Compresses `input` into `out` as `blosc_compress_ctx` does with the same
/// parameters; returns the frame's size.
///
/// # Errors
/// [`Error::InvalidArgument`] for a clevel above 9 or a typesize of zero;
/// [`Error::LimitExceeded`] for inputs above
/// [`MAX_BUFFERSIZE`](super::MAX_BUFFERSIZE); [`Error::OutputTooSmall`] when
/// `out` is shorter than [`max_compressed_len`](super::max_compressed_len).
///
/// ```
/// use vecpress::blosc::{self, Params, Shuffle};
/// let mut out = [0u8; 16 + 40];
/// let n = blosc::compress_into(&[1u8; 40], &Params::lz4(5, Shuffle::Byte, 4), &mut out)?;
/// // Under 128 bytes the data is stored raw (the memcpyed flag, 0x02).
/// assert_eq!((n, out[2] & 0x02), (56, 0x02));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_into(input: &[u8], params: &Params, out: &mut [u8]) -> Result<usize, Error> {
    if params.clevel > 9 {
        return Err(Error::InvalidArgument {
            what: "clevel above 9",
            value: usize::from(params.clevel),
        });
    }
    if params.typesize == 0 {
        return Err(Error::InvalidArgument {
            what: "type size of zero",
            value: 0,
        });
    }
    let nbytes = input.len();
    if nbytes > MAX_BUFFERSIZE {
        return Err(Error::LimitExceeded {
            what: "blosc input size",
            requested: nbytes,
            limit: MAX_BUFFERSIZE,
        });
    }
    let destsize = nbytes + MAX_OVERHEAD;
    if out.len() < destsize {
        return Err(Error::OutputTooSmall {
            needed: destsize,
            actual: out.len(),
        });
    }
    let out = &mut out[..destsize];
    let ts = if params.typesize > 255 {
        1
    } else {
        params.typesize
    };
    let blocksize = compute_blocksize(params, ts, nbytes);
    let nblocks = nbytes.div_ceil(blocksize);

    let mut flags = 1 << 5; // LZ4's format
    let mut raw = params.clevel == 0 || nbytes < MIN_BUFFERSIZE;
    match params.shuffle {
        Shuffle::None => {}
        Shuffle::Byte => flags |= DOSHUFFLE,
        Shuffle::Bit => flags |= DOBITSHUFFLE,
    }
    if !split_block(params.split, ts, blocksize) {
        flags |= DONT_SPLIT;
    }
    out[0] = VERSION_FORMAT;
    out[1] = LZ4_VERSION_FORMAT;
    out[3] = ts as u8;
    out[4..8].copy_from_slice(&(nbytes as i32).to_le_bytes());
    out[8..12].copy_from_slice(&(blocksize as i32).to_le_bytes());

    let mut ntbytes = HEADER_LEN + 4 * nblocks;
    if !raw {
        // One thread-kept buffer for the shuffled block (and the bit
        // shuffle's middle pass): nothing allocated or zeroed per call.
        let first = blocksize.min(nbytes);
        let need = if params.shuffle == Shuffle::Bit {
            2 * first
        } else {
            first
        };
        raw = scratch::with(need, |buf| {
            let (shuffled, middle) = buf.split_at_mut(first);
            for (j, src) in input.chunks(blocksize).enumerate() {
                out[HEADER_LEN + 4 * j..][..4].copy_from_slice(&(ntbytes as i32).to_le_bytes());
                // Split as c-blosc's decoder will read the block: its rule
                // on the typesize and the number of values holds whatever
                // the flag says, so a block split against it could not be
                // read.
                let split = flags & DONT_SPLIT == 0
                    && src.len() == blocksize
                    && ts <= MAX_SPLITS
                    && blocksize / ts >= MIN_BUFFERSIZE;
                let mid = src.len().min(middle.len());
                let block = Block {
                    src,
                    shuffled: &mut shuffled[..src.len()],
                    middle: &mut middle[..mid],
                };
                match block_c(params, ts, flags, !split, block, out, ntbytes) {
                    Some(n) => ntbytes = n,
                    None => return true,
                }
            }
            false
        });
    }
    if raw {
        flags |= MEMCPYED;
        out[HEADER_LEN..destsize].copy_from_slice(input);
        ntbytes = destsize;
    }
    out[2] = flags;
    out[12..16].copy_from_slice(&(ntbytes as i32).to_le_bytes());
    Ok(ntbytes)
}

/// c-blosc's `split_block`.
fn split_block(mode: SplitMode, typesize: usize, blocksize: usize) -> bool {
    match mode {
        SplitMode::Always => true,
        SplitMode::Never | SplitMode::Auto => false,
        SplitMode::ForwardCompat => {
            typesize <= MAX_SPLITS && blocksize / typesize >= MIN_BUFFERSIZE
        }
    }
}

/// c-blosc's `compute_blocksize`: a forced size kept within bounds, or a
/// multiple of L1 that grows with clevel (twice as large for LZ4HC); larger
/// for blocks that are split; at most the input; a multiple of the typesize.
fn compute_blocksize(params: &Params, typesize: usize, nbytes: usize) -> usize {
    if nbytes < typesize {
        return 1;
    }
    let hcr = params.compressor == Compressor::Lz4hc;
    let mut blocksize = nbytes;
    if params.blocksize != 0 {
        blocksize = params.blocksize.clamp(MIN_BUFFERSIZE, MAX_BLOCKSIZE);
    } else if nbytes >= L1 {
        blocksize = if hcr { 2 * L1 } else { L1 };
        blocksize = match params.clevel {
            0 => blocksize / 4,
            1 => blocksize / 2,
            2 => blocksize,
            3 => blocksize * 2,
            4 | 5 => blocksize * 4,
            6..=8 => blocksize * 8,
            _ => blocksize * if hcr { 16 } else { 8 },
        };
    }
    if params.clevel > 0 && split_block(params.split, typesize, blocksize) {
        blocksize = blocksize.min(1 << 18) * typesize;
        blocksize = blocksize.clamp(1 << 16, 1 << 20);
    }
    blocksize = blocksize.min(nbytes);
    if blocksize > typesize {
        blocksize = blocksize / typesize * typesize;
    }
    blocksize
}

/// One block's input and the buffers it is shuffled through.
struct Block<'a> {
    src: &'a [u8],
    /// As long as `src`: the shuffled block.
    shuffled: &'a mut [u8],
    /// As long as `src` for a bit shuffle, else empty: its middle pass.
    middle: &'a mut [u8],
}

/// Shuffles and compresses one block to `out[ntbytes..]`, as c-blosc's
/// `blosc_c`; returns the new end, or `None` when the frame would not be
/// smaller than the data (then the whole frame is stored raw).
///
/// Each split is compressed straight into the frame, into a window of at
/// most its own size (c-blosc's `maxout`): a split that does not fit there
/// does not shrink, and is stored raw instead.
fn block_c(
    params: &Params,
    ts: usize,
    flags: u8,
    one_split: bool,
    block: Block<'_>,
    out: &mut [u8],
    mut ntbytes: usize,
) -> Option<usize> {
    let isa = crate::tune::isa(crate::tune::Op::Blosc);
    let Block {
        src,
        shuffled,
        middle,
    } = block;
    let bsize = src.len();
    let maxbytes = out.len();
    let data: &[u8] = if flags & DOSHUFFLE != 0 && ts > 1 {
        let whole = bsize / ts * ts;
        byte_split::encode_with(isa, &src[..whole], ts, &mut shuffled[..whole]).ok()?;
        shuffled[whole..].copy_from_slice(&src[whole..]);
        shuffled
    } else if flags & DOBITSHUFFLE != 0 && bsize >= ts {
        let n = bsize / ts;
        if n.is_multiple_of(8) {
            let whole = n * ts;
            bit_split::encode_block(
                isa,
                &src[..whole],
                ts,
                &mut shuffled[..whole],
                &mut middle[..whole],
            );
            shuffled[whole..].copy_from_slice(&src[whole..]);
        } else {
            shuffled.copy_from_slice(src);
        }
        shuffled
    } else {
        src
    };
    let nsplits = if one_split { 1 } else { ts };
    let neblock = bsize / nsplits;
    for part in data.chunks_exact(neblock).take(nsplits) {
        let size_at = ntbytes;
        ntbytes += 4;
        let mut maxout = neblock;
        if ntbytes + maxout > maxbytes {
            maxout = maxbytes.checked_sub(ntbytes).filter(|&m| m > 0)?;
        }
        let window = &mut out[ntbytes..ntbytes + maxout];
        let c = match params.compressor {
            Compressor::Lz4 => {
                block::compress_into_with(part, window, 10 - u32::from(params.clevel))
            }
            // c-blosc calls `LZ4_compress_HC` itself, whose level 1 runs
            // level 2's parser ("mid"); `hc`'s level 1 is the LZ4 frame
            // API's, the fast compressor.
            Compressor::Lz4hc => {
                let level = u32::from(params.clevel).max(hc::MIN_LEVEL);
                hc::compress_into(part, window, level)
            }
        };
        let cbytes = match c {
            Ok(c) if c < neblock => c,
            // Does not shrink: stored raw, if it fits.
            Ok(_) | Err(Error::OutputTooSmall { .. }) => {
                if ntbytes + neblock > maxbytes {
                    return None;
                }
                out[ntbytes..ntbytes + neblock].copy_from_slice(part);
                neblock
            }
            Err(_) => return None,
        };
        out[size_at..size_at + 4].copy_from_slice(&(cbytes as i32).to_le_bytes());
        ntbytes += cbytes;
    }
    Some(ntbytes)
}
