//! LZ4 frames: bad input. Hand-made broken frames name the rule and the
//! offset; every flip and truncation of small frames gives `Err` (or, where
//! no checksum covers the change, a valid decode), never a panic; limits
//! refuse decompression bombs; reader errors pass through.

use std::io::{self, Read};

use crate::common::{Rng, infos, kinds, legacy_frame, text_like};
use proptest::prelude::*;
use vecpress::lz4::frame::{self, BlockSize, FrameDecoder, FrameInfo};
use vecpress::{Error, Unit};

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
            needed: 4,
            unit: Unit::Bytes,
        })
    );
    assert_eq!(
        frame::decompress(b"\x04\x22"),
        Err(Error::Truncated {
            offset: 0,
            needed: 2,
            unit: Unit::Bytes,
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
    // `decompress` holds to its default limit; without any limit the frame
    // fails on the missing content, not on allocation.
    let err = frame::decompress(&huge).unwrap_err();
    assert!(
        matches!(err, Error::LimitExceeded { requested, limit, .. }
            if requested == 1 << 60 && limit == vecpress::lz4::DEFAULT_MAX_OUTPUT),
        "{err:?}"
    );
    let err = frame::decompress_with_limit(&huge, usize::MAX).unwrap_err();
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

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
