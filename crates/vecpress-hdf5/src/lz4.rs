//! LZ4, filter 32004: HDF5's LZ4 filter (`H5Zlz4.c` in hdf5plugin and in
//! HDFGroup's hdf5_plugins).
//!
//! ```text
//!   original size (u64 BE) | block size (u32 BE)                 12-byte header
//!   compressed size (u32 BE) | LZ4 block, or the block raw       per block
//! ```
//!
//! The chunk is cut into blocks of the header's block size, the last one
//! shorter. A block whose compressed size equals its size is stored raw
//! (the writer stores it so whenever LZ4 does not make it smaller).
//! `cd_values[0]`, when present and not zero, is the block size the writer
//! uses; else 1 GiB. The writer compresses as `LZ4_compress_default`.
#![forbid(unsafe_code)]

use vecpress::lz4::block;

use crate::{Buffer, Error, Filtered, alloc};

/// The header's length.
const HEADER_LEN: usize = 12;

/// The block size when `cd_values` gives none (`DEFAULT_BLOCK_SIZE`).
const DEFAULT_BLOCK_SIZE: usize = 1 << 30;

/// The largest chunk the reference writer takes (`INT32_MAX`).
const MAX_CHUNK: usize = i32::MAX as usize;

/// An error at byte `offset` of the input.
fn corrupt(offset: usize, what: &'static str) -> Error {
    Error::Codec(vecpress::Error::Corrupt { offset, what })
}

/// `len` bytes at `at` of `input`, or `Truncated`.
fn take(input: &[u8], at: usize, len: usize) -> Result<&[u8], Error> {
    input.get(at..at.saturating_add(len)).ok_or_else(|| {
        Error::Codec(vecpress::Error::Truncated {
            offset: at,
            needed: at.saturating_add(len) - input.len(),
            unit: vecpress::Unit::Bytes,
        })
    })
}

/// The 4-byte big-endian size at `at`.
fn be32(input: &[u8], at: usize) -> Result<usize, Error> {
    let b = take(input, at, 4)?;
    Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

/// The chunk `input` decoded.
pub(crate) fn decode<B: Buffer>(input: &[u8]) -> Result<Filtered<B>, Error> {
    let header = take(input, 0, HEADER_LEN)?;
    let stated = u64::from_be_bytes(header[..8].try_into().unwrap_or([0xff; 8]));
    // Each block costs its 4-byte size and yields at most 255 bytes a byte
    // of it (block::max_decompressed_len), or its own length stored raw.
    let possible = input.len().saturating_mul(255);
    let total = usize::try_from(stated)
        .ok()
        .filter(|&t| t <= possible)
        .ok_or(Error::Codec(vecpress::Error::LimitExceeded {
            what: "lz4 filter stated size beyond what the chunk holds",
            requested: usize::try_from(stated).unwrap_or(usize::MAX),
            limit: possible,
        }))?;
    let block_size = be32(input, 8)?.min(total);
    if block_size == 0 && total > 0 {
        return Err(corrupt(8, "block size of zero"));
    }
    let mut buf: B = alloc(total)?;
    let (mut pos, mut done) = (HEADER_LEN, 0);
    while done < total {
        let len = block_size.min(total - done);
        let csize = be32(input, pos)?;
        let src = take(input, pos + 4, csize)?;
        let dst = &mut buf[done..done + len];
        if csize == len {
            dst.copy_from_slice(src);
        } else if block::decompress_into(src, dst)? != len {
            return Err(corrupt(pos + 4, "lz4 block shorter than its block size"));
        }
        pos += 4 + csize;
        done += len;
    }
    Ok(Filtered { buf, len: total })
}

/// `input` compressed in blocks of `cd[0]` bytes (default 1 GiB).
pub(crate) fn encode<B: Buffer>(cd: &[u32], input: &[u8]) -> Result<Filtered<B>, Error> {
    if input.len() > MAX_CHUNK {
        return Err(Error::Params {
            what: "chunk above 2 GiB",
            value: input.len() as u64,
        });
    }
    let block_size = match cd.first() {
        Some(&b) if b > 0 => b as usize,
        _ => DEFAULT_BLOCK_SIZE,
    }
    .min(input.len())
    .max(1);
    let blocks = input.len().div_ceil(block_size);
    let bound = HEADER_LEN + blocks * (4 + block::max_compressed_len(block_size));
    let mut buf: B = alloc(bound)?;
    buf[..8].copy_from_slice(&(input.len() as u64).to_be_bytes());
    buf[8..12].copy_from_slice(&(block_size as u32).to_be_bytes());
    let mut pos = HEADER_LEN;
    for src in input.chunks(block_size) {
        let mut c = block::compress_into(src, &mut buf[pos + 4..])?;
        if c >= src.len() {
            buf[pos + 4..pos + 4 + src.len()].copy_from_slice(src);
            c = src.len();
        }
        buf[pos..pos + 4].copy_from_slice(&(c as u32).to_be_bytes());
        pos += 4 + c;
    }
    Ok(Filtered { buf, len: pos })
}

#[cfg(test)]
mod tests {
    use crate::{Filter, decode_to_vec, encode_to_vec};

    fn data(n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| (i / 7 % 251) as u8 ^ (i % 3) as u8)
            .collect()
    }

    #[test]
    fn round_trips_with_each_block_size() {
        for n in [1, 2, 15, 16, 17, 1000, 65_536, 100_003] {
            let d = data(n);
            for cd in [&[][..], &[0], &[1], &[7], &[1024], &[65_536]] {
                let chunk = encode_to_vec(Filter::Lz4, cd, &d).unwrap();
                assert_eq!(
                    decode_to_vec(Filter::Lz4, cd, &chunk).unwrap(),
                    d,
                    "{n} {cd:?}"
                );
            }
        }
    }

    #[test]
    fn layout_is_the_reference_filters() {
        let d = data(3000);
        let chunk = encode_to_vec(Filter::Lz4, &[1000], &d).unwrap();
        assert_eq!(
            chunk[..12],
            [0, 0, 0, 0, 0, 0, 0x0b, 0xb8, 0, 0, 0x03, 0xe8]
        );
        let mut pos = 12;
        for block in d.chunks(1000) {
            let c = u32::from_be_bytes(chunk[pos..pos + 4].try_into().unwrap()) as usize;
            assert_eq!(
                chunk[pos + 4..pos + 4 + c],
                vecpress::lz4::block::compress(block)
            );
            pos += 4 + c;
        }
        assert_eq!(pos, chunk.len());
        // A block that does not shrink is stored raw.
        let chunk = encode_to_vec(Filter::Lz4, &[], &[1, 2, 3]).unwrap();
        assert_eq!(
            chunk,
            [0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 3, 1, 2, 3]
        );
    }

    #[test]
    fn bad_chunks_are_errors() {
        let d = data(5000);
        let chunk = encode_to_vec(Filter::Lz4, &[2000], &d).unwrap();
        for cut in 0..chunk.len() {
            assert!(
                decode_to_vec(Filter::Lz4, &[], &chunk[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        for i in 0..chunk.len() {
            let mut bad = chunk.clone();
            bad[i] ^= 0x41;
            let _ = decode_to_vec(Filter::Lz4, &[], &bad);
        }
        // A header stating 2^60 bytes, and one with a block size of zero.
        let mut bomb = vec![0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        bomb.extend([0; 20]);
        assert!(decode_to_vec(Filter::Lz4, &[], &bomb).is_err());
        let zero = [
            0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8,
        ];
        assert!(decode_to_vec(Filter::Lz4, &[], &zero).is_err());
    }
}
