//! Reading frames: the header checked, then each block decompressed split
//! by split into a block-sized buffer that stays in cache and unshuffled
//! from there into the output (splits stored raw are unshuffled from the
//! frame itself).
#![forbid(unsafe_code)]

use super::{
    DOBITSHUFFLE, DONT_SPLIT, DOSHUFFLE, HEADER_LEN, Header, LZ4_VERSION_FORMAT, MAX_BLOCKSIZE,
    MAX_SPLITS, MEMCPYED, MIN_BUFFERSIZE,
};
use crate::lz4::block;
use crate::{Error, Isa, Unit, bit_split, byte_split, scratch};

/// The most bytes a frame of `len` bytes can decode to: `255 len`. A
/// frame stores each block once, each split of a block behind a 4-byte
/// size, and an LZ4 split yields at most 255 bytes per byte
/// ([`block::max_decompressed_len`]), a raw one its own length; so no frame
/// an encoder writes states more. A frame whose blocks share their bytes
/// (offsets pointing at one block) could, and is refused: no encoder writes
/// one, and accepting it would let a few bytes claim gigabytes.
///
/// ```
/// use vecpress::blosc::{self, Params, Shuffle};
/// let frame = blosc::compress(&[0u8; 1 << 20], &Params::lz4(9, Shuffle::None, 1))?;
/// assert!(1 << 20 <= blosc::max_decompressed_len(frame.len()));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub const fn max_decompressed_len(len: usize) -> usize {
    len.saturating_mul(255)
}

/// The uncompressed size `frame` states, once its header is checked as
/// decoding checks it: [`Error::Truncated`] or [`Error::Corrupt`] for
/// fields that do not hold together, [`Error::UnsupportedFormat`] for a
/// compressor this module does not read (naming it), and
/// [`Error::LimitExceeded`] for a size beyond what the frame can hold
/// ([`max_decompressed_len`] of its stated length). Nothing is allocated,
/// so a caller can size its output from the answer.
///
/// ```
/// use vecpress::{blosc, Error};
/// let frame = blosc::compress(&[7u8; 5000], &Default::default())?;
/// assert_eq!(blosc::decompressed_len(&frame)?, 5000);
/// // 20 bytes stating 715 MB: refused before anything is allocated.
/// let n = 715_827_536i32;
/// let mut bomb = vec![2, 1, 0x21, 8];
/// for v in [n, n, 20, 20] {
///     bomb.extend(v.to_le_bytes());
/// }
/// assert!(matches!(blosc::decompressed_len(&bomb), Err(Error::LimitExceeded { .. })));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompressed_len(frame: &[u8]) -> Result<usize, Error> {
    checked(frame).map(|h| h.nbytes)
}

/// The header of `frame`, once every check that needs no output is done:
/// the fields in range, the frame as long as it states, the compressor,
/// room for the block offsets, and a size within what the frame can hold.
pub(super) fn checked(frame: &[u8]) -> Result<Header, Error> {
    let h = Header::parse(frame)?;
    if h.nbytes == 0 {
        return Ok(h);
    }
    // First: a frame of another compressor is not ours to judge (a caller
    // may hand it to c-blosc).
    if h.flags & MEMCPYED == 0 {
        check_compressor(&h)?;
    }
    if h.typesize == 0 {
        return Err(corrupt(3, "type size of zero"));
    }
    if h.blocksize == 0 || h.blocksize > MAX_BLOCKSIZE {
        return Err(corrupt(8, "block size out of range"));
    }
    if h.flags & 0x08 != 0 {
        return Err(corrupt(2, "reserved flag set"));
    }
    if h.cbytes > frame.len() {
        return Err(Error::Truncated {
            offset: 0,
            needed: h.cbytes - frame.len(),
            unit: Unit::Bytes,
        });
    }
    if h.flags & MEMCPYED != 0 {
        if h.cbytes != h.nbytes + HEADER_LEN {
            return Err(corrupt(12, "raw frame size differs from data size"));
        }
        return Ok(h);
    }
    let nblocks = h.nbytes.div_ceil(h.blocksize);
    if nblocks > (h.cbytes.saturating_sub(HEADER_LEN)) / 4 {
        return Err(corrupt(12, "frame too short for its block offsets"));
    }
    let possible = max_decompressed_len(h.cbytes);
    if h.nbytes > possible {
        return Err(Error::LimitExceeded {
            what: "blosc uncompressed size beyond what the frame holds",
            requested: h.nbytes,
            limit: possible,
        });
    }
    Ok(h)
}

/// Decompresses `frame` into a new vector, refusing frames that state more
/// than [`DEFAULT_MAX_OUTPUT`](crate::lz4::DEFAULT_MAX_OUTPUT) bytes or more
/// than they can hold ([`decompressed_len`]).
///
/// ```
/// use vecpress::blosc::{self, Params, Shuffle};
/// let frame = blosc::compress(b"blosc blosc blosc blosc", &Params::lz4(9, Shuffle::None, 1))?;
/// assert_eq!(blosc::decompress(&frame)?, b"blosc blosc blosc blosc");
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress(frame: &[u8]) -> Result<Vec<u8>, Error> {
    decompress_with_limit(frame, crate::lz4::DEFAULT_MAX_OUTPUT)
}

/// [`decompress`] with a limit of the caller's on the uncompressed size
/// (the frame's own bound, [`decompressed_len`], still holds).
///
/// ```
/// use vecpress::{blosc, Error};
/// let frame = blosc::compress(&[0u8; 4096], &Default::default())?;
/// assert!(matches!(blosc::decompress_with_limit(&frame, 1000), Err(Error::LimitExceeded { .. })));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_with_limit(frame: &[u8], limit: usize) -> Result<Vec<u8>, Error> {
    let h = Header::parse(frame)?;
    if h.nbytes > limit {
        return Err(Error::LimitExceeded {
            what: "blosc uncompressed size",
            requested: h.nbytes,
            limit,
        });
    }
    let mut out = vec![0u8; decompressed_len(frame)?];
    decompress_with(crate::tune::isa(crate::tune::Op::Blosc), frame, &mut out)?;
    Ok(out)
}

/// Decompresses `frame` into the start of `out`; returns the uncompressed
/// size.
///
/// # Errors
/// [`Error::OutputTooSmall`] when `out` is shorter than the size the frame
/// states; [`Error::LimitExceeded`] when that size is more than the frame
/// can hold ([`decompressed_len`]); [`Error::UnsupportedFormat`] for a compressor other than LZ4
/// (naming it) or another format version; [`Error::Truncated`] and
/// [`Error::Corrupt`], with the offset, for a frame whose sizes and offsets
/// do not hold together or whose LZ4 data is bad.
///
/// ```
/// use vecpress::blosc::{self, Params, Shuffle};
/// let data: Vec<u8> = (0..1000u16).flat_map(|v| v.to_le_bytes()).collect();
/// let frame = blosc::compress(&data, &Params::lz4(5, Shuffle::Bit, 2))?;
/// let mut out = vec![0u8; 2000];
/// assert_eq!(blosc::decompress_into(&frame, &mut out)?, 2000);
/// assert_eq!(out, data);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_into(frame: &[u8], out: &mut [u8]) -> Result<usize, Error> {
    decompress_with(crate::tune::isa(crate::tune::Op::Blosc), frame, out)
}

/// [`decompress_into`] with the kernels of `isa`; `Err(Unsupported)` if the
/// CPU lacks it.
///
/// ```
/// use vecpress::{blosc, Isa};
/// let frame = blosc::compress(&[9u8; 300], &Default::default())?;
/// for &isa in Isa::available() {
///     let mut out = [0u8; 300];
///     assert_eq!(blosc::decompress_with(isa, &frame, &mut out)?, 300);
///     assert_eq!(out, [9u8; 300]);
/// }
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_with(isa: Isa, frame: &[u8], out: &mut [u8]) -> Result<usize, Error> {
    let isa = isa.check()?;
    // Every check before any scratch is sized from the header: a block is
    // no larger than the size stated, and that no larger than the frame
    // can hold.
    let h = checked(frame)?;
    if h.nbytes == 0 {
        return Ok(0);
    }
    if out.len() < h.nbytes {
        return Err(Error::OutputTooSmall {
            needed: h.nbytes,
            actual: out.len(),
        });
    }
    let out = &mut out[..h.nbytes];
    // Offsets are checked against the size the frame states, as c-blosc
    // does; bytes after it are not read.
    let frame = &frame[..h.cbytes];
    if h.flags & MEMCPYED != 0 {
        out.copy_from_slice(&frame[HEADER_LEN..]);
        return Ok(h.nbytes);
    }
    blocks(isa, &h, frame, out, 0)?;
    Ok(h.nbytes)
}

/// Decodes the blocks that fill `out`, the first of them block `first` of
/// the frame (`out` starts at that block's place and ends at a block's end
/// or at the end of the data).
pub(super) fn blocks(
    isa: Isa,
    h: &Header,
    frame: &[u8],
    out: &mut [u8],
    first: usize,
) -> Result<(), Error> {
    // A block's split parts and its bit-shuffle scratch, in one buffer of
    // this thread's: `block_d` writes every byte before it reads it.
    let block_len = h.blocksize.min(h.nbytes);
    scratch::with(2 * block_len, |buf| {
        let (tmp, scratch) = buf.split_at_mut(block_len);
        for (j, dst) in out.chunks_mut(h.blocksize).enumerate() {
            let at = HEADER_LEN + 4 * (first + j);
            let start = read_i32(frame, at).ok_or(corrupt(at, "block offset outside the frame"))?;
            let leftover = dst.len() < h.blocksize;
            block_d(isa, h, frame, start, leftover, dst, tmp, scratch)?;
        }
        Ok(())
    })
}

pub(super) fn corrupt(offset: usize, what: &'static str) -> Error {
    Error::Corrupt { offset, what }
}

/// A non-negative i32 LE at `at` of `frame`, if it is there.
pub(super) fn read_i32(frame: &[u8], at: usize) -> Option<usize> {
    let b = frame.get(at..at.checked_add(4)?)?;
    usize::try_from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok()
}

fn check_compressor(h: &Header) -> Result<(), Error> {
    let what = match h.flags >> 5 {
        1 if h.versionlz == LZ4_VERSION_FORMAT => return Ok(()),
        1 => "lz4 format version other than 1",
        0 => "blosc compressor blosclz",
        2 => "blosc compressor snappy",
        3 => "blosc compressor zlib",
        4 => "blosc compressor zstd",
        _ => return Err(corrupt(2, "unknown compressor")),
    };
    Err(Error::UnsupportedFormat { offset: 2, what })
}

/// Decodes the block starting at `start` of `frame` into `dst`.
#[allow(clippy::too_many_arguments)]
fn block_d(
    isa: Isa,
    h: &Header,
    frame: &[u8],
    start: usize,
    leftover: bool,
    dst: &mut [u8],
    tmp: &mut [u8],
    scratch: &mut [u8],
) -> Result<(), Error> {
    let bsize = dst.len();
    let ts = h.typesize;
    let byte = h.flags & DOSHUFFLE != 0 && ts > 1;
    let bit = !byte && h.flags & DOBITSHUFFLE != 0 && bsize >= ts;
    let split = h.flags & DONT_SPLIT == 0 && ts <= MAX_SPLITS && bsize / ts >= MIN_BUFFERSIZE;
    let nsplits = if split && !leftover { ts } else { 1 };
    let neblock = bsize / nsplits;
    if neblock * nsplits != bsize {
        return Err(corrupt(
            8,
            "split block size not a multiple of the type size",
        ));
    }
    let unpacked: &mut [u8] = if byte || bit {
        &mut tmp[..bsize]
    } else {
        &mut *dst
    };
    // Parts stored raw (LZ4 did not shrink them, as the low bytes of most
    // floats) are unshuffled straight from the frame rather than copied
    // into `tmp` first, where the unshuffle reads every part: `raw_at`
    // holds their offsets in the frame. Bit shuffle reads the block whole,
    // so it takes a raw part from the frame only when it is the block.
    let direct = byte || (bit && nsplits == 1);
    let mut raw_at = [None; MAX_SPLITS];
    // The splits are independent LZ4 blocks: they are decoded two at a
    // time (`decompress_pair`), which gives the CPU two chains of tokens to
    // follow instead of one. An LZ4 split waits for the next one; errors
    // come in the order of the splits, as decoding them one by one gives.
    let mut pos = start;
    let mut waiting: Option<Split<'_>> = None;
    for (k, part) in unpacked.chunks_exact_mut(neblock).enumerate() {
        let header = read_i32(frame, pos)
            .ok_or(corrupt(pos, "split size outside the frame"))
            .and_then(|cbytes| {
                if cbytes > frame.len() - (pos + 4) {
                    Err(corrupt(pos, "split longer than the frame"))
                } else {
                    Ok(cbytes)
                }
            });
        let cbytes = match header {
            Ok(cbytes) => cbytes,
            Err(e) => {
                if let Some(w) = waiting.take() {
                    w.decode(isa)?;
                }
                return Err(e);
            }
        };
        let data = pos + 4;
        let src = &frame[data..data + cbytes];
        pos = data + cbytes;
        if cbytes == neblock {
            if direct {
                raw_at[k] = Some(data);
            } else {
                part.copy_from_slice(src);
            }
            continue;
        }
        let split = Split {
            src,
            at: data,
            dst: part,
        };
        match waiting.take() {
            None => waiting = Some(split),
            Some(w) => {
                let (first, second) =
                    block::decompress_pair_with(isa, (w.src, w.dst), (split.src, split.dst));
                Split::check(first, w.at, w.src.len(), neblock)?;
                Split::check(second, split.at, split.src.len(), neblock)?;
            }
        }
    }
    if let Some(w) = waiting {
        w.decode(isa)?;
    }
    // Part `k` of the block as the splits left it, and the block whole when
    // its parts are all in `tmp` or it is one part.
    let part = |k: usize| match raw_at[k] {
        Some(at) => &frame[at..at + neblock],
        None => &tmp[k * neblock..(k + 1) * neblock],
    };
    let src = if nsplits == 1 { part(0) } else { &tmp[..bsize] };
    if byte && raw_at.iter().any(Option::is_some) && nsplits > 1 {
        // Split parts are whole streams (`nsplits == ts`), some in the
        // frame. Blocks with none there keep the one-buffer form below,
        // whose kernels find each stream by its offset rather than in a
        // list of slices, which is faster (perf/amd-25-17.md, Blosc).
        let mut streams = [&[][..]; MAX_SPLITS];
        for (k, s) in streams[..nsplits].iter_mut().enumerate() {
            *s = part(k);
        }
        byte_split::join_streams(isa, &streams[..nsplits], dst);
    } else if byte {
        let whole = bsize / ts * ts;
        byte_split::decode_with(isa, &src[..whole], ts, &mut dst[..whole])?;
        dst[whole..].copy_from_slice(&src[whole..]);
    } else if bit {
        let n = bsize / ts;
        if n.is_multiple_of(8) {
            let whole = n * ts;
            let scratch = &mut scratch[..whole];
            bit_split::decode_block(isa, &src[..whole], ts, &mut dst[..whole], scratch);
            dst[whole..].copy_from_slice(&src[whole..]);
        } else {
            dst.copy_from_slice(src);
        }
    }
    Ok(())
}

/// An LZ4 split of a block: its compressed bytes, their offset in the
/// frame, and its part of the block.
struct Split<'a> {
    src: &'a [u8],
    at: usize,
    dst: &'a mut [u8],
}

impl Split<'_> {
    /// Decodes the split on its own.
    fn decode(self, isa: Isa) -> Result<(), Error> {
        let len = self.dst.len();
        let got = block::decompress_with(isa, self.src, self.dst);
        Split::check(got, self.at, self.src.len(), len)
    }

    /// A split's decoding result (at frame offset `at`, `cbytes` long) as
    /// the frame's: offsets in the frame, and the whole part written.
    fn check(
        got: Result<usize, Error>,
        at: usize,
        cbytes: usize,
        neblock: usize,
    ) -> Result<(), Error> {
        if got.map_err(|e| e.shifted(at))? != neblock {
            return Err(corrupt(at + cbytes, "lz4 split shorter than its block"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blosc::{Params, Shuffle, compress};

    /// What decoding the splits of `frame` one after another gives: the
    /// first split's error, in frame offsets, or `Ok`. The frame's header and
    /// block offsets must be sound.
    fn one_by_one(isa: Isa, frame: &[u8]) -> Result<(), Error> {
        let h = Header::parse(frame).unwrap();
        let frame = &frame[..h.cbytes];
        let mut buf = vec![0u8; h.blocksize];
        for j in 0..h.nbytes.div_ceil(h.blocksize) {
            let bsize = h.blocksize.min(h.nbytes - j * h.blocksize);
            let split = h.flags & DONT_SPLIT == 0
                && h.typesize <= MAX_SPLITS
                && bsize / h.typesize >= MIN_BUFFERSIZE
                && bsize == h.blocksize;
            let neblock = bsize / if split { h.typesize } else { 1 };
            let mut pos = read_i32(frame, HEADER_LEN + 4 * j).unwrap();
            for _ in 0..bsize / neblock {
                let cbytes =
                    read_i32(frame, pos).ok_or(corrupt(pos, "split size outside the frame"))?;
                if cbytes > frame.len() - (pos + 4) {
                    return Err(corrupt(pos, "split longer than the frame"));
                }
                let src = &frame[pos + 4..pos + 4 + cbytes];
                if cbytes != neblock {
                    let n = block::decompress_with(isa, src, &mut buf[..neblock])
                        .map_err(|e| e.shifted(pos + 4))?;
                    if n != neblock {
                        return Err(corrupt(
                            pos + 4 + cbytes,
                            "lz4 split shorter than its block",
                        ));
                    }
                }
                pos += 4 + cbytes;
            }
        }
        Ok(())
    }

    #[test]
    fn splits_decoded_in_pairs_fail_as_one_by_one() {
        let values: Vec<u8> = (0..12_000u32)
            .flat_map(|i| (i / 7 + i.wrapping_mul(2_654_435_761) % 5).to_le_bytes())
            .collect();
        let frames = [
            compress(
                &values,
                &Params {
                    blocksize: 16_384,
                    ..Params::lz4(5, Shuffle::Byte, 4)
                },
            )
            .unwrap(),
            compress(
                &values,
                &Params {
                    blocksize: 8_192,
                    ..Params::lz4(9, Shuffle::Bit, 8)
                },
            )
            .unwrap(),
            compress(&values, &Params::lz4(1, Shuffle::None, 2)).unwrap(),
        ];
        let mut out = vec![0u8; values.len()];
        let mut errors = 0;
        for frame in &frames {
            let h = Header::parse(frame).unwrap();
            let table_end = HEADER_LEN + 4 * h.nbytes.div_ceil(h.blocksize);
            for &isa in Isa::available() {
                assert_eq!(decompress_with(isa, frame, &mut out), Ok(values.len()));
                assert_eq!(out, values);
                for at in (table_end..frame.len()).step_by(13) {
                    // One flip, or two in splits that may be decoded side by side.
                    for (flip, also) in [
                        (0x01u8, 0),
                        (0x10, 0),
                        (0xf0, 0),
                        (0x10, 997),
                        (0xf0, 2_053),
                    ] {
                        let mut bad = frame.clone();
                        bad[at] ^= flip;
                        if also != 0 {
                            let region = frame.len() - table_end;
                            bad[table_end + (at - table_end + also) % region] ^= 0x40;
                        }
                        let want = one_by_one(isa, &bad).map(|()| values.len());
                        let got = decompress_with(isa, &bad, &mut out);
                        // A flip in a literal decodes to other bytes.
                        assert_eq!(got.is_err(), want.is_err(), "{isa:?} byte {at} ^ {flip:#x}");
                        if let Err(e) = want {
                            assert_eq!(got, Err(e), "{isa:?} byte {at} ^ {flip:#x}");
                            errors += 1;
                        }
                    }
                }
            }
        }
        assert!(errors > 1000, "only {errors} corruptions failed");
    }
}
