//! Frames decoded through a `BlockReader`, their blocks in other orders.

use super::*;
use crate::lz4::frame::{self, BlockSize};

/// Decodes `bytes` through a `BlockReader`, the blocks decoded in an
/// order other than the stream's; the first error in stream order.
/// Each way: the content checks by the reader, and deferred to a
/// `ContentCheck`; both must give the same.
fn split_decode(bytes: &[u8], dict: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    let own = split_decode_with(bytes, dict, false);
    let deferred = split_decode_with(bytes, dict, true);
    assert_eq!(own, deferred, "content checks deferred");
    own
}

fn split_decode_with(bytes: &[u8], dict: Option<&[u8]>, defer: bool) -> Result<Vec<u8>, Error> {
    let mut reader = match dict {
        Some(d) => BlockReader::with_dictionary(bytes, d),
        None => BlockReader::new(bytes),
    };
    if defer {
        reader = reader.defer_content_checks();
    }
    let mut check = ContentCheck::new();
    let mut blocks = Vec::new();
    let mut read_err = None;
    loop {
        let mut b = FrameBlock::default();
        match reader.next_block(&mut b) {
            Ok(true) => blocks.push(b),
            Ok(false) => break,
            Err(e) => {
                read_err = Some(e);
                break;
            }
        }
    }
    let decoded: Vec<_> = blocks.iter_mut().rev().map(|b| b.decode()).collect();
    let mut out = Vec::new();
    for (b, r) in blocks.iter_mut().zip(decoded.into_iter().rev()) {
        r?;
        reader.finish_block(b)?;
        if defer {
            check.check(b)?;
        }
        out.extend_from_slice(b.content());
    }
    match read_err {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

fn reference(bytes: &[u8], dict: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let r = match dict {
        Some(d) => frame::FrameDecoder::with_dictionary(bytes, d).read_to_end(&mut out),
        None => frame::FrameDecoder::new(bytes).read_to_end(&mut out),
    };
    r.map(|_| out).map_err(Error::from)
}

fn sample(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| ((i / 7) as u32).wrapping_mul(2_654_435_761) as u8 % 13)
        .collect()
}

fn frames() -> Vec<Vec<u8>> {
    let data = sample(200_000);
    let mut all = Vec::new();
    for bits in 0..8u32 {
        let info = FrameInfo::new()
            .block_size(BlockSize::Max64KB)
            .independent_blocks(bits & 1 != 0)
            .block_checksums(bits & 2 != 0)
            .content_checksum(bits & 4 != 0)
            .content_size(Some(0));
        all.push(frame::compress_with(&data, info));
    }
    // Two frames and a skippable one between them.
    let mut two = frame::compress(&data[..1000]);
    two.extend_from_slice(&[0x50, 0x2A, 0x4D, 0x18, 2, 0, 0, 0, 9, 9]);
    two.extend(frame::compress(&data[1000..]));
    all.push(two);
    all
}

#[test]
fn same_content_as_the_frame_decoder() {
    for bytes in frames() {
        let want = reference(&bytes, None).unwrap();
        assert_eq!(split_decode(&bytes, None).unwrap(), want);
    }
    let d = sample(70_000);
    let data = sample(150_000);
    for linked in [false, true] {
        let info = FrameInfo::new().independent_blocks(!linked);
        let mut enc = frame::FrameEncoder::with_dictionary(Vec::new(), info, &d);
        std::io::Write::write_all(&mut enc, &data).unwrap();
        let bytes = enc.finish().unwrap();
        assert_eq!(split_decode(&bytes, Some(&d)).unwrap(), data, "{linked}");
        assert_eq!(
            split_decode(&bytes, None),
            reference(&bytes, None),
            "no dictionary"
        );
    }
}

#[test]
fn same_errors_as_the_frame_decoder() {
    for bytes in frames() {
        // Every byte flipped in the first 64 bytes and around each
        // block boundary would take long; a stride covers every field.
        let end = bytes.len() - 12..bytes.len();
        for at in (0..bytes.len()).step_by(97).chain(0..40).chain(end) {
            let mut bad = bytes.clone();
            bad[at] ^= 0x41;
            assert_eq!(
                split_decode(&bad, None),
                reference(&bad, None),
                "flip at {at}"
            );
        }
        for cut in (0..bytes.len()).step_by(4099).chain([bytes.len() - 1]) {
            let bad = &bytes[..cut];
            assert_eq!(
                split_decode(bad, None),
                reference(bad, None),
                "cut at {cut}"
            );
        }
    }
}

#[test]
fn the_limit_holds() {
    let bytes = frame::compress_with(&sample(100_000), FrameInfo::new());
    let mut reader = BlockReader::new(&bytes[..]).limit(70_000);
    let mut b = FrameBlock::default();
    assert!(reader.next_block(&mut b).unwrap());
    b.decode().unwrap();
    reader.finish_block(&mut b).unwrap();
    assert!(reader.next_block(&mut b).unwrap());
    b.decode().unwrap();
    assert!(matches!(
        reader.finish_block(&mut b),
        Err(Error::LimitExceeded { limit: 70_000, .. })
    ));
}
