//! Reading ahead (`FrameDecoder::read_ahead`, and the slice functions, which
//! always do): two blocks of a frame of independent blocks decoded at once
//! give what one block at a time gives, the same bytes and the same errors
//! at the same offsets after the same output, on sound and damaged frames,
//! under limits, with blocks shorter than the frame's maximum.

use std::io::{Read, Write};

use crate::common::{Rng, random_bytes, text_like};
use vecpress::Error;
use vecpress::lz4::frame::{self, BlockSize, FrameDecoder, FrameEncoder, FrameInfo};

/// What a decoder gives: the bytes it handed out, then its error, if any.
type Outcome = (Vec<u8>, Option<Error>);

/// Reads `bytes` through a `FrameDecoder` in reads of `read_size` bytes.
fn read(bytes: &[u8], ahead: bool, limit: u64, read_size: usize) -> Outcome {
    let mut dec = FrameDecoder::with_limit(bytes, limit).read_ahead(ahead);
    let mut out = Vec::new();
    let mut buf = vec![0u8; read_size];
    loop {
        match dec.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return (out, Some(Error::from(e))),
        }
    }
}

/// Checks every way of reading `bytes` against one block at a time.
fn check_same(bytes: &[u8], limit: u64, label: &str) {
    let (single, err) = read(bytes, false, limit, 1 << 20);
    for read_size in [1 << 20, 1000] {
        let (paired, perr) = read(bytes, true, limit, read_size);
        assert_eq!(perr, err, "{label}: reads of {read_size}");
        assert!(
            paired == single,
            "{label}: reads of {read_size}: output differs"
        );
    }
    let whole = frame::decompress_with_limit(bytes, usize::try_from(limit).unwrap());
    match &err {
        None => assert!(whole.as_ref() == Ok(&single), "{label}: decompress"),
        Some(e) => assert_eq!(whole.as_ref(), Err(e), "{label}: decompress"),
    }
    // Into a slice of the limit's size (or of 4 MiB, more than any content
    // here): a limit passed is a slice too small.
    let mut dst = vec![0u8; usize::try_from(limit).unwrap().min(4 << 20)];
    let into = frame::decompress_into(bytes, &mut dst);
    match &err {
        None => {
            assert_eq!(into, Ok(single.len()), "{label}: decompress_into");
            assert!(
                dst[..single.len()] == single[..],
                "{label}: decompress_into"
            );
        }
        Some(Error::LimitExceeded { requested, .. }) => assert_eq!(
            into,
            Err(Error::OutputTooSmall {
                needed: *requested,
                actual: dst.len()
            }),
            "{label}: decompress_into"
        ),
        Some(e) => assert_eq!(into.as_ref(), Err(e), "{label}: decompress_into"),
    }
}

/// A frame of `data` with a block boundary after each of `cuts` (each
/// piece is written and flushed, so blocks may be shorter than the
/// maximum).
fn frame_in_pieces(data: &[u8], cuts: &[usize], info: FrameInfo) -> Vec<u8> {
    let mut enc = FrameEncoder::with_info(Vec::new(), info);
    let mut at = 0;
    for &cut in cuts.iter().chain([&data.len()]) {
        enc.write_all(&data[at..cut]).unwrap();
        enc.flush().unwrap();
        at = cut;
    }
    enc.finish().unwrap()
}

/// `info` with the content size of `data` declared if it declares one.
fn sized(info: FrameInfo, data: &[u8]) -> FrameInfo {
    match info.get_content_size() {
        Some(_) => info.content_size(Some(data.len() as u64)),
        None => info,
    }
}

fn infos() -> Vec<FrameInfo> {
    let base = FrameInfo::new().block_size(BlockSize::Max64KB);
    vec![
        base,
        base.content_checksum(true).block_checksums(true),
        base.content_size(Some(0)),
        base.block_size(BlockSize::Max256KB).content_checksum(true),
    ]
}

#[test]
fn sound_frames_decode_alike() {
    const K: usize = 65_536;
    let data = text_like(9 * K + 777, 1);
    let cut_sets: [&[usize]; 5] = [
        &[],
        &[1000],
        &[1000, 1000 + K, 1000 + K + 5, 2 * K + 6],
        &[K - 1, 2 * K, 2 * K + 1, 3 * K + 1, 5 * K],
        &[7, 14, 21, 28, 35],
    ];
    for info in infos() {
        for cuts in cut_sets {
            let info = sized(info, &data);
            let bytes = frame_in_pieces(&data, cuts, info);
            let label = format!("{info:?} cuts {cuts:?}");
            check_same(&bytes, u64::MAX, &label);
            assert!(read(&bytes, true, u64::MAX, 4096).0 == data, "{label}");
        }
    }
    // Blocks stored as they are between compressed ones, and two frames.
    let mut mixed = text_like(2 * K, 2);
    mixed.extend(random_bytes(K + 10, 3));
    mixed.extend(text_like(3 * K, 4));
    let mut bytes = frame::compress_with(&mixed, infos()[0]);
    bytes.extend(frame::compress_with(&data, infos()[2]));
    check_same(&bytes, u64::MAX, "stored blocks and two frames");
    mixed.extend(&data);
    assert!(frame::decompress(&bytes).unwrap() == mixed);
}

#[test]
fn damaged_frames_fail_alike_after_the_same_output() {
    let data = text_like(5 * 65_536 + 300, 5);
    let mut rng = Rng::new(6);
    for info in infos() {
        let info = sized(info, &data);
        let bytes = frame_in_pieces(&data, &[40_000, 40_100], info);
        for len in (0..bytes.len()).step_by(577).chain([bytes.len() - 1]) {
            check_same(&bytes[..len], u64::MAX, &format!("{info:?} cut at {len}"));
        }
        let mut bad = bytes.clone();
        for _ in 0..150 {
            let i = rng.below(bytes.len() as u64) as usize;
            let mask = [0x01u8, 0x80, 0xFF][rng.below(3) as usize];
            bad[i] ^= mask;
            check_same(&bad, 1 << 24, &format!("{info:?} byte {i} ^ {mask:#x}"));
            bad[i] ^= mask;
        }
    }
}

#[test]
fn limits_stop_at_the_same_byte() {
    let data = text_like(4 * 65_536 + 1234, 7);
    for info in infos() {
        let bytes = frame_in_pieces(&data, &[30_000], sized(info, &data));
        for limit in [0u64, 1, 29_999, 30_000, 30_001, 95_536, 95_537, 200_000] {
            check_same(&bytes, limit, &format!("{info:?} limit {limit}"));
        }
    }
}

/// The second block of a pair decodes a whole block after the first and
/// moves down: bytes of a reused buffer or slice beyond what was decoded
/// are never handed out, and a slice that ends inside the second block
/// reports the end of that block as needed.
#[test]
fn short_first_blocks_and_short_slices() {
    const K: usize = 65_536;
    let data = text_like(3 * K, 8);
    let info = FrameInfo::new().block_size(BlockSize::Max64KB);
    let bytes = frame_in_pieces(&data, &[100, 100 + K], info);
    // Block ends: 100, 100 + K, 100 + 2K, 3K.
    for (len, needed) in [
        (100 + K - 1, 100 + K),
        (100 + K, 100 + 2 * K),
        (3 * K - 1, 3 * K),
    ] {
        let mut dst = vec![0xEEu8; len];
        assert_eq!(
            frame::decompress_into(&bytes, &mut dst),
            Err(Error::OutputTooSmall {
                needed,
                actual: len
            }),
            "slice of {len}"
        );
    }
    let mut dst = vec![0xEEu8; 3 * K + 50];
    assert_eq!(frame::decompress_into(&bytes, &mut dst), Ok(3 * K));
    assert!(dst[..3 * K] == data[..]);
    // The reader hands out each byte once, in order, whatever the reads.
    for read_size in [1, 99, 100, 101, 4096, 1 << 20] {
        let (out, err) = read(&bytes, true, u64::MAX, read_size);
        assert_eq!(err, None);
        assert!(out == data, "reads of {read_size}");
    }
}
