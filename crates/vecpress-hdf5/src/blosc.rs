//! Blosc, filter 32001: each chunk one c-blosc 1.x frame
//! ([`vecpress::blosc`]), as hdf5-blosc's `blosc_filter.c` writes it.
//!
//! `cd_values`: `[0]` filter revision (2), `[1]` Blosc format version (2),
//! `[2]` type size, `[3]` chunk size in bytes (both set by `set_local`),
//! `[4]` clevel (default 5), `[5]` shuffle (default 1), `[6]` compressor
//! (default 0, blosclz). Decoding needs none of them: the frame says all.
//! Encoding compresses the chunk with at most as many bytes as it has, as
//! hdf5-blosc asks of c-blosc (`destsize = nbytes`); a frame that would not
//! fit fails, and HDF5 stores the chunk unfiltered (the filter is optional).
#![forbid(unsafe_code)]

use vecpress::blosc::{self, Compressor, Params, Shuffle, SplitMode};

use crate::{Buffer, Error, Filtered, alloc};

/// The compressor of code `code` (0 blosclz, 1 lz4, 2 lz4hc, 3 snappy,
/// 4 zlib, 5 zstd), if vecpress writes it.
pub(crate) fn compressor(code: u32) -> Result<Compressor, Error> {
    match code {
        1 => Ok(Compressor::Lz4),
        2 => Ok(Compressor::Lz4hc),
        _ => Err(Error::Unsupported {
            what: "blosc compressor other than lz4 and lz4hc",
            code,
        }),
    }
}

/// Chunks smaller than this decode on one thread.
const MIN_SHARED: usize = 4 << 20;

/// The frame `input` decoded.
pub(crate) fn decode<B: Buffer>(_cd: &[u32], input: &[u8]) -> Result<Filtered<B>, Error> {
    let len = blosc::decompressed_len(input)?;
    let mut buf: B = alloc(len)?;
    // HDF5 runs filters one chunk at a time with its own work between them,
    // so the pool's threads sleep in between and each chunk pays their
    // waking: on a chunk of a MiB, more than a second thread saves.
    let threads = if len >= MIN_SHARED {
        crate::threads()
    } else {
        1
    };
    let len = blosc::decompress_into_threads(input, &mut buf, threads)?;
    Ok(Filtered { buf, len })
}

/// `input` compressed into one frame with the parameters of `cd`.
pub(crate) fn encode<B: Buffer>(cd: &[u32], input: &[u8]) -> Result<Filtered<B>, Error> {
    let param = |i: usize, default: u32| cd.get(i).copied().unwrap_or(default);
    if cd.len() < 4 {
        return Err(Error::Params {
            what: "fewer than 4 cd_values",
            value: cd.len() as u64,
        });
    }
    let clevel = param(4, 5);
    if clevel > 9 {
        return Err(Error::Params {
            what: "clevel above 9",
            value: clevel.into(),
        });
    }
    let shuffle = match param(5, 1) {
        0 => Shuffle::None,
        1 => Shuffle::Byte,
        2 => Shuffle::Bit,
        other => {
            return Err(Error::Params {
                what: "shuffle not 0, 1 or 2",
                value: other.into(),
            });
        }
    };
    let params = Params {
        compressor: compressor(param(6, 0))?,
        clevel: clevel as u8,
        shuffle,
        typesize: param(2, 1) as usize,
        blocksize: 0,
        split: SplitMode::ForwardCompat,
    };
    if input.len() > blosc::MAX_BUFFERSIZE {
        return Err(Error::Params {
            what: "chunk larger than blosc takes",
            value: input.len() as u64,
        });
    }
    let mut buf: B = alloc(blosc::max_compressed_len(input.len()))?;
    let len = blosc::compress_into(input, &params, &mut buf)?;
    if len > input.len() {
        return Err(Error::NotSmaller {
            size: len,
            limit: input.len(),
        });
    }
    Ok(Filtered { buf, len })
}

#[cfg(test)]
mod tests {
    use crate::{Error, Filter, decode_to_vec, encode_to_vec};

    fn values(n: u32) -> Vec<u8> {
        (0..n).flat_map(|i| (i / 5 * 3).to_le_bytes()).collect()
    }

    #[test]
    fn round_trips_each_shuffle_and_compressor() {
        let data = values(10_001);
        for compressor in [1, 2] {
            for shuffle in [0, 1, 2] {
                let cd = [2, 2, 4, data.len() as u32, 5, shuffle, compressor];
                let chunk = encode_to_vec(Filter::Blosc, &cd, &data).unwrap();
                assert!(chunk.len() < data.len() / 2, "{compressor} {shuffle}");
                assert_eq!(
                    chunk,
                    vecpress::blosc::compress(&data, &params(compressor, shuffle)).unwrap()
                );
                assert_eq!(decode_to_vec(Filter::Blosc, &cd, &chunk).unwrap(), data);
            }
        }
    }

    fn params(compressor: u32, shuffle: u32) -> vecpress::blosc::Params {
        let mut p = vecpress::blosc::Params::lz4(
            5,
            [
                vecpress::blosc::Shuffle::None,
                vecpress::blosc::Shuffle::Byte,
                vecpress::blosc::Shuffle::Bit,
            ][shuffle as usize],
            4,
        );
        p.compressor = super::compressor(compressor).unwrap();
        p
    }

    #[test]
    fn incompressible_chunk_fails_as_c_blosc_does() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let data: Vec<u8> = (0..1000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let err = encode_to_vec(Filter::Blosc, &[2, 2, 1, 1000, 5, 0, 1], &data).unwrap_err();
        assert!(
            matches!(
                err,
                Error::NotSmaller {
                    size: 1016,
                    limit: 1000
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn other_compressors_and_bad_parameters_fail() {
        let data = values(100);
        for code in [0, 3, 4, 5, 6, 99] {
            let err = encode_to_vec(Filter::Blosc, &[2, 2, 4, 400, 5, 1, code], &data).unwrap_err();
            assert!(matches!(err, Error::Unsupported { .. }), "{code}: {err}");
        }
        // No compressor given: hdf5-blosc's default, blosclz.
        assert!(encode_to_vec(Filter::Blosc, &[2, 2, 4, 400], &data).is_err());
        assert!(encode_to_vec(Filter::Blosc, &[2, 2, 4], &data).is_err());
        assert!(encode_to_vec(Filter::Blosc, &[2, 2, 4, 400, 10, 1, 1], &data).is_err());
        assert!(encode_to_vec(Filter::Blosc, &[2, 2, 4, 400, 5, 3, 1], &data).is_err());
    }

    #[test]
    fn bad_frames_are_errors() {
        let data = values(3000);
        let chunk = encode_to_vec(Filter::Blosc, &[2, 2, 4, 12_000, 5, 1, 1], &data).unwrap();
        for cut in 0..chunk.len() {
            assert!(
                decode_to_vec(Filter::Blosc, &[], &chunk[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        for i in 0..chunk.len() {
            let mut bad = chunk.clone();
            bad[i] ^= 0x5a;
            // A flip in the data may decode to other values; it must not panic.
            let _ = decode_to_vec(Filter::Blosc, &[], &bad);
        }
        // A header claiming 2 GiB from 32 bytes.
        let mut bomb = vec![2, 1, 0x21, 4];
        for v in [i32::MAX - 16, 1 << 20, 32, 16] {
            bomb.extend(v.to_le_bytes());
        }
        bomb.resize(32, 0);
        assert!(decode_to_vec(Filter::Blosc, &[], &bomb).is_err());
    }
}
