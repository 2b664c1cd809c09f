//! LZ4 frames: round trips over every option and through every entry (the
//! reader and writer in any piece sizes, `BufRead`, slices, vectors),
//! concatenated, skippable and legacy frames. Bad input is in
//! `lz4_frame_bad_input.rs`, interop with the `lz4` command and liblz4 in
//! `lz4_frame_interop.rs`, bounded memory in `../lz4_frame_memory.rs` (a
//! binary of its own: it counts the process's allocations).

use std::io::{self, BufRead, Read, Write};

use crate::common::{
    self, all_infos, infos, kinds, legacy_frame, random_bytes, repetitive, text_like,
};
use proptest::prelude::*;
use vecpress::Error;
use vecpress::lz4::frame::{self, BlockSize, FrameDecoder, FrameEncoder, FrameInfo};

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
        for n in [0, 1, 65_537] {
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
}
