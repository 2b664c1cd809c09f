//! Bitshuffle, filter 32008: the bitshuffle library's `bshuf_h5filter.c`.
//!
//! `cd_values`: `[0]`, `[1]` the library's version (set by `set_local`;
//! vecpress writes 0.4, as hdf5plugin's build does), `[2]` the element
//! size, `[3]` the block size in elements (absent or 0: the default,
//! [`vecpress::bit_split::default_block_size`]), `[4]` the compression:
//! 2 LZ4, 3 zstd, anything else none.
//!
//! With LZ4 a chunk is the frame of [`vecpress::bit_split::compress_lz4`]
//! (12-byte header: total size, block size in bytes; then LZ4 blocks),
//! whose header gives the block size to the reader. Without compression
//! the chunk is the bit-shuffled data, its size unchanged, in blocks of
//! the parameters' block size ([`vecpress::bit_split::encode_blocked_with`]).
#![forbid(unsafe_code)]

use vecpress::{Isa, bit_split};

use crate::{Buffer, Error, Filtered, alloc};

/// `cd_values[4]` for LZ4 (`BSHUF_H5_COMPRESS_LZ4`).
const COMPRESS_LZ4: u32 = 2;

/// `cd_values[4]` for zstd (`BSHUF_H5_COMPRESS_ZSTD`).
const COMPRESS_ZSTD: u32 = 3;

/// The version `set_local` records, as hdf5plugin's build records it.
pub(crate) const VERSION: [u32; 2] = [0, 4];

/// The parameters of `cd`: element size, block size in elements (0 for
/// the default), compression.
fn params(cd: &[u32]) -> Result<(usize, usize, u32), Error> {
    if cd.len() < 3 {
        return Err(Error::Params {
            what: "fewer than 3 cd_values",
            value: cd.len() as u64,
        });
    }
    let width = cd[2] as usize;
    if width == 0 {
        return Err(Error::Params {
            what: "element size of zero",
            value: 0,
        });
    }
    let block = cd.get(3).copied().unwrap_or(0) as usize;
    let compression = cd.get(4).copied().unwrap_or(0);
    if compression == COMPRESS_ZSTD {
        return Err(Error::Unsupported {
            what: "bitshuffle compression zstd",
            code: compression,
        });
    }
    Ok((width, block, compression))
}

/// The chunk `input` decoded.
pub(crate) fn decode<B: Buffer>(cd: &[u32], input: &[u8]) -> Result<Filtered<B>, Error> {
    let (width, block, compression) = params(cd)?;
    if compression == COMPRESS_LZ4 {
        let total = bit_split::decompressed_len_lz4(input)?;
        let total = usize::try_from(total).map_err(|_| Error::OutOfMemory { size: usize::MAX })?;
        let mut buf: B = alloc(total)?;
        let len = bit_split::decompress_lz4(input, width, &mut buf)?;
        return Ok(Filtered { buf, len });
    }
    let mut buf: B = alloc(input.len())?;
    let len = bit_split::decode_blocked_with(Isa::best(), input, width, block, &mut buf)?;
    Ok(Filtered { buf, len })
}

/// `input` bit-shuffled, then compressed as `cd[4]` says.
pub(crate) fn encode<B: Buffer>(cd: &[u32], input: &[u8]) -> Result<Filtered<B>, Error> {
    let (width, block, compression) = params(cd)?;
    if compression == COMPRESS_LZ4 {
        let mut buf: B = alloc(bit_split::max_compressed_len_lz4(input.len(), width, block))?;
        let len = bit_split::compress_lz4(input, width, block, &mut buf)?;
        return Ok(Filtered { buf, len });
    }
    let mut buf: B = alloc(input.len())?;
    let len = bit_split::encode_blocked_with(Isa::best(), input, width, block, &mut buf)?;
    Ok(Filtered { buf, len })
}

#[cfg(test)]
mod tests {
    use crate::{Error, Filter, decode_to_vec, encode_to_vec};

    fn data(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i / 9 % 200) as u8).collect()
    }

    #[test]
    fn round_trips_with_and_without_lz4() {
        for width in [1, 2, 3, 4, 8, 12] {
            for n in [0, 1, 7, 8, 9, 1000, 20_001] {
                let d = data(n * width);
                for block in [0, 8, 64, 1024] {
                    for compression in [0, 2] {
                        let cd = [0, 4, width as u32, block, compression];
                        let chunk = encode_to_vec(Filter::Bitshuffle, &cd, &d).unwrap();
                        if compression == 0 {
                            assert_eq!(chunk.len(), d.len());
                        }
                        let back = decode_to_vec(Filter::Bitshuffle, &cd, &chunk).unwrap();
                        assert_eq!(back, d, "width {width} n {n} block {block} {compression}");
                    }
                }
            }
        }
    }

    #[test]
    fn lz4_chunks_are_the_librarys_frames() {
        let d = data(40_000);
        let chunk = encode_to_vec(Filter::Bitshuffle, &[0, 4, 4, 0, 2], &d).unwrap();
        assert_eq!(
            chunk,
            vecpress::bit_split::compress_lz4_to_vec(&d, 4, 0).unwrap()
        );
        // The reader takes the block size from the header, not the parameters.
        let other = decode_to_vec(Filter::Bitshuffle, &[0, 4, 4, 64, 2], &chunk).unwrap();
        assert_eq!(other, d);
    }

    #[test]
    fn bad_parameters_and_chunks_are_errors() {
        let d = data(4000);
        assert!(encode_to_vec(Filter::Bitshuffle, &[0, 4], &d).is_err());
        assert!(encode_to_vec(Filter::Bitshuffle, &[0, 4, 0, 0, 2], &d).is_err());
        assert!(encode_to_vec(Filter::Bitshuffle, &[0, 4, 3, 0, 2], &d[..100]).is_err());
        assert!(encode_to_vec(Filter::Bitshuffle, &[0, 4, 4, 12, 0], &d).is_err());
        let zstd = encode_to_vec(Filter::Bitshuffle, &[0, 4, 4, 0, 3, 3], &d).unwrap_err();
        assert!(matches!(zstd, Error::Unsupported { code: 3, .. }));
        let cd = [0, 4, 4, 0, 2];
        let chunk = encode_to_vec(Filter::Bitshuffle, &cd, &d).unwrap();
        for cut in 0..chunk.len() {
            assert!(
                decode_to_vec(Filter::Bitshuffle, &cd, &chunk[..cut]).is_err(),
                "cut {cut}"
            );
        }
        for i in 0..chunk.len() {
            let mut bad = chunk.clone();
            bad[i] ^= 0x33;
            let _ = decode_to_vec(Filter::Bitshuffle, &cd, &bad);
        }
        let mut bomb = vec![0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x20, 0];
        bomb.extend([0; 20]);
        assert!(decode_to_vec(Filter::Bitshuffle, &cd, &bomb).is_err());
        // Uncompressed: a length that is not whole elements.
        assert!(decode_to_vec(Filter::Bitshuffle, &[0, 4, 4, 0, 0], &d[..10]).is_err());
    }
}
