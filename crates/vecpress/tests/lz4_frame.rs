//! LZ4 frames: round trips over every option, the reader's and writer's
//! streaming behaviour, and bad input (every flip and truncation of small
//! frames, hand-made broken frames, decompression bombs). Interop with the
//! `lz4` command and liblz4 is in `lz4_frame_interop.rs`.

mod common;

use std::io::{self, BufRead, Read, Write};

use common::{random_bytes, repetitive, text_like, Rng};
use proptest::prelude::*;
use vecpress::lz4::frame::{self, BlockSize, FrameDecoder, FrameEncoder, FrameInfo};
use vecpress::Error;

/// Every combination of the header's options, for one block size.
fn infos(size: BlockSize) -> impl Iterator<Item = FrameInfo> {
    (0..16u32).map(move |bits| {
        FrameInfo::new()
            .block_size(size)
            .independent_blocks(bits & 1 != 0)
            .block_checksums(bits & 2 != 0)
            .content_checksum(bits & 4 != 0)
            .content_size((bits & 8 != 0).then_some(0))
    })
}

fn all_infos() -> impl Iterator<Item = FrameInfo> {
    BlockSize::ALL.into_iter().flat_map(infos)
}

fn encode(data: &[u8], info: FrameInfo, chunk: usize) -> Vec<u8> {
    let info = match info.get_content_size() {
        Some(_) => info.content_size(Some(data.len() as u64)),
        None => info,
    };
    let mut enc = FrameEncoder::with_info(Vec::new(), info);
    for piece in data.chunks(chunk.max(1)) {
        enc.write_all(piece).unwrap();
    }
    enc.finish().unwrap()
}

fn decode_in_reads(bytes: &[u8], read_size: usize) -> Result<Vec<u8>, Error> {
    let mut dec = FrameDecoder::new(bytes);
    let mut out = Vec::new();
    let mut buf = vec![0u8; read_size];
    loop {
        let n = dec.read(&mut buf)?;
        if n == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&buf[..n]);
    }
}

fn kinds(n: usize, seed: u64) -> [(&'static str, Vec<u8>); 3] {
    [
        ("text", text_like(n, seed)),
        ("random", random_bytes(n, seed)),
        ("repetitive", repetitive(n, seed)),
    ]
}

#[test]
fn every_option_round_trips() {
    for info in all_infos() {
        for n in [0, 1, 15, 4096, 70_000] {
            for (kind, data) in kinds(n, n as u64) {
                let bytes = frame::compress_with(&data, info);
                let got = frame::decompress(&bytes);
                assert_eq!(got.as_ref(), Ok(&data), "{info:?} {kind} n={n}");
            }
        }
    }
}

#[test]
fn lengths_around_block_and_window_sizes() {
    let mut lens = vec![0, 1, 2, 5, 12, 13, 255, 256];
    for edge in [1usize << 16, 1 << 18] {
        lens.extend([edge - 1, edge, edge + 1, 2 * edge + 7]);
    }
    for &n in &lens {
        let data = text_like(n, 7);
        for linked in [false, true] {
            let info = FrameInfo::new()
                .independent_blocks(!linked)
                .block_checksums(true);
            for size in [BlockSize::Max64KB, BlockSize::Max256KB] {
                let bytes = frame::compress_with(&data, info.block_size(size));
                assert_eq!(frame::decompress(&bytes).unwrap(), data, "n={n} {size:?}");
            }
        }
    }
}

#[test]
fn write_and_read_chunking_changes_nothing() {
    let data = text_like(200_000, 3);
    for info in infos(BlockSize::Max64KB) {
        let whole = encode(&data, info, data.len());
        for chunk in [1usize << 20, 1, 7, 4096, 65_535, 65_537] {
            if chunk == 1 && info.get_block_checksums() {
                continue; // slow in debug builds; one setting suffices
            }
            assert_eq!(encode(&data, info, chunk), whole, "{info:?} chunk {chunk}");
        }
        for read_size in [1, 3, 1000, 65_536, 1 << 20] {
            let got = decode_in_reads(&whole, read_size).unwrap();
            assert!(got == data, "{info:?} read size {read_size}");
        }
    }
}

#[test]
fn slices_in_slices_out() {
    for info in all_infos() {
        for n in [0, 1, 65_536, 65_537, 150_000] {
            for (kind, data) in kinds(n, 17) {
                let label = format!("{info:?} {kind} n={n}");
                // The worst case holds (random data is stored, block by block).
                let mut packed = vec![0u8; frame::max_compressed_len(n)];
                let len = frame::compress_into_with(&data, info, &mut packed).unwrap();
                assert_eq!(
                    &packed[..len],
                    &frame::compress_with(&data, info)[..],
                    "{label}"
                );
                // One byte less than the frame is too small.
                let short = frame::compress_into_with(&data, info, &mut packed[..len - 1]);
                assert!(
                    matches!(short, Err(Error::OutputTooSmall { .. })),
                    "{label}"
                );
                // Decoding into exactly the content's length, and one less.
                let mut out = vec![0u8; n + 1];
                assert_eq!(frame::decompress_into(&packed[..len], &mut out[..n]), Ok(n));
                assert!(out[..n] == data[..], "{label}");
                if n > 0 {
                    let res = frame::decompress_into(&packed[..len], &mut out[..n - 1]);
                    assert!(
                        matches!(res, Err(Error::OutputTooSmall { actual, .. }) if actual == n - 1)
                    );
                }
            }
        }
    }
}

#[test]
fn buf_read_hands_out_blocks() {
    let data = text_like(300_000, 13);
    let info = FrameInfo::new().independent_blocks(false);
    let bytes = frame::compress_with(&data, info);
    let mut dec = FrameDecoder::new(&bytes[..]);
    // Every fill is the rest of one block, at most 64 KiB.
    let mut got = Vec::new();
    loop {
        let avail = dec.fill_buf().unwrap();
        if avail.is_empty() {
            break;
        }
        assert!(avail.len() <= 65_536);
        let take = avail.len().min(1000);
        got.extend_from_slice(&avail[..take]);
        dec.consume(take);
    }
    assert!(got == data);
    // Lines across block boundaries.
    let lines: Vec<Vec<u8>> = FrameDecoder::new(&bytes[..])
        .split(b'\n')
        .collect::<Result<_, _>>()
        .unwrap();
    let want: Vec<Vec<u8>> = data.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    assert_eq!(lines.len(), want.len() - usize::from(data.ends_with(b"\n")));
    assert!(lines[..] == want[..lines.len()]);
}

#[test]
fn incompressible_blocks_are_stored() {
    let data = random_bytes(100_000, 11);
    let info = FrameInfo::new().content_checksum(false);
    let bytes = frame::compress_with(&data, info);
    // header (7) + two blocks (4 + 65536, 4 + 34464) + end mark (4)
    assert_eq!(bytes.len(), 7 + 4 + 65_536 + 4 + 34_464 + 4);
    let first = u32::from_le_bytes(bytes[7..11].try_into().unwrap());
    assert_eq!(first, (1 << 31) | 65_536);
    assert_eq!(&bytes[11..11 + 65_536], &data[..65_536]);
    assert_eq!(frame::decompress(&bytes).unwrap(), data);
}

#[test]
fn compressible_data_shrinks() {
    let data = text_like(300_000, 5);
    let bytes = frame::compress(&data);
    // Random words from a vocabulary of 24: about half the size.
    let len = bytes.len();
    assert!(len < data.len() * 6 / 10, "{len} of {}", data.len());
    let data = repetitive(300_000, 5);
    let len = frame::compress(&data).len();
    assert!(len < data.len() / 10, "{len} of {}", data.len());
}

#[test]
fn linked_blocks_reach_into_earlier_blocks() {
    // 64 KiB blocks, each a copy of the same 40 KiB of random bytes, then
    // more: only matches into the previous block can compress it.
    let unit = random_bytes(40_000, 9);
    let data: Vec<u8> = unit.iter().copied().cycle().take(400_000).collect();
    let info = FrameInfo::new().block_size(BlockSize::Max64KB);
    let independent = frame::compress_with(&data, info);
    let linked = frame::compress_with(&data, info.independent_blocks(false));
    assert!(
        linked.len() < independent.len() / 2,
        "linked {} independent {}",
        linked.len(),
        independent.len()
    );
    assert_eq!(frame::decompress(&linked).unwrap(), data);
    assert_eq!(decode_in_reads(&linked, 999).unwrap(), data);
}

#[test]
fn flush_writes_a_partial_block() {
    let mut enc = FrameEncoder::with_info(Vec::new(), FrameInfo::new().independent_blocks(false));
    enc.write_all(b"first part, ").unwrap();
    enc.flush().unwrap();
    let after_flush = enc.get_ref().len();
    assert!(after_flush > 7, "the header and a block are out");
    enc.write_all(b"first part, second part").unwrap();
    let bytes = enc.finish().unwrap();
    assert_eq!(
        frame::decompress(&bytes).unwrap(),
        b"first part, first part, second part"
    );
}

#[test]
fn declared_content_size_is_enforced_when_writing() {
    let info = FrameInfo::new().content_size(Some(10));
    let mut enc = FrameEncoder::with_info(Vec::new(), info);
    enc.write_all(b"short").unwrap();
    assert_eq!(
        enc.finish().unwrap_err().kind(),
        io::ErrorKind::InvalidInput
    );
    let mut enc = FrameEncoder::with_info(Vec::new(), info);
    let err = enc.write_all(b"much too long").unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
}

#[test]
fn concatenated_and_skippable_frames() {
    let a = text_like(100_000, 1);
    let b = repetitive(5000, 2);
    let mut bytes = Vec::new();
    for low in [0u32, 15] {
        // A skippable frame of user data, then a frame, then an empty one.
        bytes.extend((0x184D_2A50 + low).to_le_bytes());
        bytes.extend(5u32.to_le_bytes());
        bytes.extend(b"user!");
        bytes.extend(frame::compress(&a));
        bytes.extend(frame::compress(&[]));
        bytes.extend(frame::compress_with(
            &b,
            FrameInfo::new().independent_blocks(false),
        ));
    }
    let want: Vec<u8> = [&a[..], &b[..], &a[..], &b[..]].concat();
    assert_eq!(frame::decompress(&bytes).unwrap(), want);
    assert_eq!(decode_in_reads(&bytes, 777).unwrap(), want);
    let mut out = vec![0u8; want.len()];
    assert_eq!(frame::decompress_into(&bytes, &mut out), Ok(want.len()));
    assert!(out == want);
    // A stream holding only a skippable frame is empty content.
    let skip_only = [&0x184D_2A55u32.to_le_bytes()[..], &[0, 0, 0, 0]].concat();
    assert_eq!(frame::decompress(&skip_only).unwrap(), b"");
}

/// A legacy frame (magic 0x184C2102) whose blocks are LZ4 blocks of `data`.
fn legacy_frame(data: &[u8]) -> Vec<u8> {
    let mut out = 0x184C_2102u32.to_le_bytes().to_vec();
    for chunk in data.chunks(8 << 20) {
        let block = vecpress::lz4::block::compress(chunk);
        out.extend((block.len() as u32).to_le_bytes());
        out.extend(block);
    }
    out
}

#[test]
fn legacy_frames_end_at_the_next_magic_or_the_input() {
    let a = text_like(9 << 20, 4);
    let b = text_like(1000, 5);
    let mut bytes = legacy_frame(&a);
    bytes.extend(legacy_frame(&b));
    bytes.extend(frame::compress(&b));
    bytes.extend(legacy_frame(&b));
    let want = [&a[..], &b[..], &b[..], &b[..]].concat();
    assert!(frame::decompress(&bytes).unwrap() == want);
    let mut out = vec![0u8; want.len() + 10];
    assert_eq!(frame::decompress_into(&bytes, &mut out), Ok(want.len()));
    assert!(out[..want.len()] == want[..]);
    let short = frame::decompress_into(&bytes, &mut out[..want.len() - 1]);
    assert!(
        matches!(short, Err(Error::OutputTooSmall { .. })),
        "{short:?}"
    );
}

fn corrupt(offset: usize, what: &'static str) -> Result<Vec<u8>, Error> {
    Err(Error::Corrupt { offset, what })
}

#[test]
fn broken_frames_name_the_rule_and_offset() {
    let good = frame::compress_with(b"some content here", FrameInfo::new().block_checksums(true));
    assert_eq!(
        frame::decompress(b""),
        Err(Error::Truncated {
            offset: 0,
            needed: 4
        })
    );
    assert_eq!(
        frame::decompress(b"\x04\x22"),
        Err(Error::Truncated {
            offset: 0,
            needed: 2
        })
    );
    assert_eq!(
        frame::decompress(b"abcdefgh"),
        corrupt(0, "unknown magic number")
    );
    let mut two = good.clone();
    two.extend(b"junk");
    assert_eq!(
        frame::decompress(&two),
        corrupt(good.len(), "unknown magic number")
    );

    // Reserved FLG bit, with a header checksum that matches.
    let mut bad = good.clone();
    bad[4] |= 2;
    bad[6] = header_checksum(&bad[4..6]);
    assert_eq!(frame::decompress(&bad), corrupt(4, "reserved flag bit set"));
    // A wrong header checksum.
    let mut bad = good.clone();
    bad[6] ^= 0x55;
    let want = Err(Error::ChecksumMismatch {
        what: "header",
        offset: 6,
    });
    assert_eq!(frame::decompress(&bad), want);
    // A block size above the 64 KiB maximum.
    let mut bad = good.clone();
    bad[7..11].copy_from_slice(&(65_537u32).to_le_bytes());
    assert_eq!(
        frame::decompress(&bad),
        corrupt(7, "block size above the frame's maximum")
    );
    // A wrong block checksum: it sits just before the end mark.
    let mut bad = good.clone();
    let at = good.len() - 12;
    bad[at] ^= 1;
    let want = Err(Error::ChecksumMismatch {
        what: "block",
        offset: at,
    });
    assert_eq!(frame::decompress(&bad), want);
    // A wrong content checksum: the last four bytes.
    let mut bad = good.clone();
    let at = good.len() - 4;
    bad[at] ^= 1;
    let want = Err(Error::ChecksumMismatch {
        what: "content",
        offset: at,
    });
    assert_eq!(frame::decompress(&bad), want);
}

fn header_checksum(desc: &[u8]) -> u8 {
    (xxh32(desc) >> 8) as u8
}

/// xxh32 with seed 0, written out from the xxHash spec for short inputs
/// (under 16 bytes), so the test does not lean on the library's hasher.
fn xxh32(input: &[u8]) -> u32 {
    const P1: u32 = 0x9E37_79B1;
    const P2: u32 = 0x85EB_CA77;
    const P3: u32 = 0xC2B2_AE3D;
    const P4: u32 = 0x27D4_EB2F;
    const P5: u32 = 0x1656_67B1;
    assert!(input.len() < 16);
    let mut h = P5.wrapping_add(input.len() as u32);
    let mut words = input.chunks_exact(4);
    for w in &mut words {
        let w = u32::from_le_bytes(w.try_into().unwrap());
        h = h
            .wrapping_add(w.wrapping_mul(P3))
            .rotate_left(17)
            .wrapping_mul(P4);
    }
    for &b in words.remainder() {
        h = h
            .wrapping_add(u32::from(b).wrapping_mul(P5))
            .rotate_left(11)
            .wrapping_mul(P1);
    }
    h ^= h >> 15;
    h = h.wrapping_mul(P2);
    h ^= h >> 13;
    h = h.wrapping_mul(P3);
    h ^ (h >> 16)
}

#[test]
fn declared_content_size_is_checked_when_reading() {
    let data = text_like(1000, 8);
    let info = FrameInfo::new()
        .content_size(Some(0))
        .content_checksum(false);
    let good = frame::compress_with(&data, info);
    let wrong = |declared: u64| {
        let mut bad = good.clone();
        bad[6..14].copy_from_slice(&declared.to_le_bytes());
        bad[14] = header_checksum(&bad[4..14]);
        frame::decompress(&bad)
    };
    assert_eq!(
        wrong(999),
        corrupt(15, "content larger than its declared size")
    );
    let end_mark = good.len() - 4;
    assert_eq!(
        wrong(1001),
        corrupt(end_mark, "content smaller than its declared size")
    );
    assert_eq!(wrong(1000), Ok(data));
}

/// Every flip of every byte (three ways) and every truncation of `bytes`, a
/// frame of `data`: no panic ever. With a content checksum a damaged frame
/// gives `Err` or exactly `data` (a flip may turn a match into an equal one);
/// with block checksums too, always `Err`.
fn check_damage(bytes: &[u8], data: &[u8], info: FrameInfo, label: &str) {
    for len in 0..bytes.len() {
        assert!(
            frame::decompress(&bytes[..len]).is_err(),
            "{label}: prefix {len}"
        );
    }
    let mut bad = bytes.to_vec();
    for i in 0..bytes.len() {
        for mask in [0x01u8, 0x80, 0xFF] {
            bad[i] ^= mask;
            let res = frame::decompress_with_limit(&bad, 1 << 20);
            let why = || format!("{label}: byte {i} ^ {mask:#x} gave {res:?}");
            if info.get_content_checksum() && info.get_block_checksums() {
                assert!(res.is_err(), "{}", why());
            } else if info.get_content_checksum() {
                assert!(res.as_deref().map_or(true, |out| out == data), "{}", why());
            }
            bad[i] ^= mask;
        }
    }
}

#[test]
fn every_flip_and_truncation_of_small_frames() {
    for n in [0usize, 1, 40, 300] {
        for (kind, data) in kinds(n, 21) {
            for info in infos(BlockSize::Max64KB) {
                let bytes = frame::compress_with(&data, info);
                let label = format!("{kind} n={n} {info:?}");
                check_damage(&bytes, &data, info, &label);
            }
        }
    }
    // Linked blocks, several of them, with both checksums.
    let data = text_like(3 * 65_536 + 100, 2);
    let info = FrameInfo::new()
        .independent_blocks(false)
        .block_checksums(true);
    let bytes = frame::compress_with(&data, info);
    let mut bad = bytes.clone();
    for i in (0..bytes.len()).step_by(97) {
        bad[i] ^= 0x10;
        assert!(frame::decompress(&bad).is_err(), "byte {i}");
        bad[i] ^= 0x10;
    }
}

#[test]
fn limits_refuse_bombs() {
    // A frame that declares 2^60 bytes of content and holds none: magic,
    // FLG (version, independent blocks, content size, content checksum),
    // BD (64 KiB), the size, HC; then the end mark and checksum of nothing.
    let mut huge = vec![0x04, 0x22, 0x4D, 0x18, 0x6C, 0x40];
    huge.extend((1u64 << 60).to_le_bytes());
    huge.push(header_checksum(&huge[4..14]));
    huge.extend(&frame::compress(b"")[15..]);
    let err = frame::decompress_with_limit(&huge, 1 << 20).unwrap_err();
    assert!(
        matches!(err, Error::LimitExceeded { requested, limit: 1_048_576, .. } if requested == 1 << 60)
    );
    // Without a limit it fails on the missing content, not on allocation.
    let err = frame::decompress(&huge).unwrap_err();
    assert!(
        matches!(err, Error::Corrupt { .. } | Error::ChecksumMismatch { .. }),
        "{err:?}"
    );

    // Content that is not declared stops at the limit.
    let zeros = vec![0u8; 3 << 20];
    let bytes = frame::compress_with(&zeros, FrameInfo::new().block_size(BlockSize::Max4MB));
    let err = frame::decompress_with_limit(&bytes, 1 << 20).unwrap_err();
    assert!(
        matches!(
            err,
            Error::LimitExceeded {
                limit: 1_048_576,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        frame::decompress_with_limit(&bytes, 3 << 20).unwrap().len(),
        3 << 20
    );

    // A legacy frame expands 8 MiB a block.
    let legacy = legacy_frame(&vec![0u8; 24 << 20]);
    assert!(legacy.len() < 200_000);
    let err = frame::decompress_with_limit(&legacy, 10 << 20).unwrap_err();
    assert!(matches!(err, Error::LimitExceeded { .. }), "{err:?}");
}

#[test]
fn reader_errors_pass_through_and_stick() {
    struct Failing<'a>(&'a [u8]);
    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::new(io::ErrorKind::ConnectionReset, "gone"));
            }
            let n = buf.len().min(self.0.len()).min(10);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let bytes = frame::compress(&text_like(5000, 1));
    let half = &bytes[..bytes.len() / 2];
    let mut dec = FrameDecoder::new(Failing(half));
    let err = dec.read_to_end(&mut Vec::new()).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::ConnectionReset);
    let again = dec.read(&mut [0u8; 10]).unwrap_err();
    assert_eq!(again.kind(), io::ErrorKind::ConnectionReset);

    let mut dec = FrameDecoder::new(half);
    let err = dec.read_to_end(&mut Vec::new()).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    assert!(matches!(Error::from(err), Error::Truncated { .. }));
}

#[test]
fn misaligned_inputs() {
    let data = text_like(100_000, 12);
    let bytes = frame::compress_with(&data, FrameInfo::new().independent_blocks(false));
    for offset in 1..64 {
        let (buf, at) = common::at_offset(&bytes, offset);
        assert!(
            frame::decompress(&buf[at..]).unwrap() == data,
            "offset {offset}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_data_and_options_round_trip(
        seed in any::<u64>(),
        n in 0usize..150_000,
        kind in 0u8..3,
        bits in 0u32..16,
        chunk in 1usize..100_000,
        read_size in 1usize..100_000,
    ) {
        let data = match kind {
            0 => text_like(n, seed),
            1 => random_bytes(n, seed),
            _ => repetitive(n, seed),
        };
        let info = infos(BlockSize::Max64KB).nth(bits as usize).unwrap();
        let bytes = encode(&data, info, chunk);
        let mut out = vec![0u8; n];
        prop_assert_eq!(frame::decompress_into(&bytes, &mut out), Ok(n));
        prop_assert!(out == data);
        prop_assert_eq!(decode_in_reads(&bytes, read_size).unwrap(), data);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300), seed in any::<u64>()) {
        let _ = frame::decompress_with_limit(&bytes, 1 << 20);
        // The same bytes after a valid header.
        let mut rng = Rng::new(seed);
        let info = infos(BlockSize::Max64KB).nth(rng.below(16) as usize).unwrap();
        let mut framed = frame::compress_with(b"", info.content_size(None));
        framed.truncate(7);
        framed.extend(&bytes);
        let _ = frame::decompress_with_limit(&framed, 1 << 20);
    }
}
