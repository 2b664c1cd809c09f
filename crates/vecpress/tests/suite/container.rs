//! The container format: round trips, the bytes as docs/FORMAT.md spells
//! them, and every corruption and truncation of small files.
use std::io;

use crate::common::Rng;
use vecpress::container::{
    DICT_EXT_LEN, END_LEN, Element, FLAG_DICTIONARY, HEADER_LEN, Header, Limits, Reader,
    STORED_BIT, Writer,
};
use vecpress::{Error, Unit, vbyte};

/// A file of `values` in blocks of `block_len`, each encoded by VByte (codec
/// id 1) or stored raw when that is no shorter.
fn vbyte_file(values: &[u32], block_len: u32, total: Option<u64>) -> Vec<u8> {
    vbyte_file_with(values, block_len, total, None)
}

/// [`vbyte_file`] with a dictionary id in the header (the container does
/// not care which codec the id is for).
fn vbyte_file_with(
    values: &[u32],
    block_len: u32,
    total: Option<u64>,
    dict_id: Option<u32>,
) -> Vec<u8> {
    let header = Header {
        codec: 1,
        element: Element::U32,
        block_len,
        total,
        dict_id,
    };
    let mut w = Writer::new(Vec::new(), header).unwrap();
    for block in values.chunks(block_len as usize) {
        let raw: Vec<u8> = block.iter().flat_map(|v| v.to_le_bytes()).collect();
        let enc = vbyte::encode_to_vec(block);
        if enc.len() < raw.len() {
            w.write_block(block.len() as u32, &enc, false).unwrap();
        } else {
            w.write_block(block.len() as u32, &raw, true).unwrap();
        }
        w.hash_content(&raw);
    }
    w.finish().unwrap()
}

/// Reads a file written by `vbyte_file` back, checking everything.
fn read_vbyte_file(file: &[u8]) -> io::Result<Vec<u32>> {
    let mut r = Reader::new(file)?;
    let mut payload = Vec::new();
    let mut values = Vec::new();
    while let Some(block) = r.next_block(&mut payload)? {
        let mut out = vec![0u32; block.count as usize];
        if block.stored {
            for (v, b) in out.iter_mut().zip(payload.chunks_exact(4)) {
                *v = u32::from_le_bytes(b.try_into().unwrap());
            }
        } else {
            let used = vbyte::decode(&payload, &mut out)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            if used != payload.len() {
                return Err(io::Error::new(io::ErrorKind::InvalidData, "slack"));
            }
        }
        let raw: Vec<u8> = out.iter().flat_map(|v| v.to_le_bytes()).collect();
        r.hash_content(&raw);
        values.extend_from_slice(&out);
    }
    r.check_content()?;
    Ok(values)
}

fn inner(e: &io::Error) -> &Error {
    e.get_ref()
        .and_then(|e| e.downcast_ref::<Error>())
        .unwrap_or_else(|| panic!("not a vecpress error: {e}"))
}

#[test]
fn round_trips_at_block_boundaries() {
    let mut rng = Rng::new(7);
    for n in [0usize, 1, 2, 15, 16, 17, 31, 32, 33, 1000] {
        for block_len in [1u32, 16, 17, 1 << 20] {
            let values: Vec<u32> = (0..n).map(|_| rng.u32_of_len(1 + (n % 5) as u32)).collect();
            for total in [None, Some(n as u64)] {
                let file = vbyte_file(&values, block_len, total);
                let back = read_vbyte_file(&file).unwrap_or_else(|e| panic!("n {n}: {e}"));
                assert_eq!(back, values, "n {n} block {block_len}");
            }
        }
    }
}

#[test]
fn bytes_are_as_the_format_says() {
    use xxhash_rust::{xxh32::xxh32, xxh64::xxh64};

    let file = vbyte_file(&[1, 300, 7], 2, Some(3));
    let mut want = vec![0x89, b'V', b'P', b'R', 1, 1, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0];
    want.extend_from_slice(&3u64.to_le_bytes());
    let sum = xxh32(&want, 0);
    want.extend_from_slice(&sum.to_le_bytes());
    assert_eq!(want.len(), HEADER_LEN);
    for (count, payload) in [(2u32, &[1u8, 0xAC, 0x02][..]), (1, &[7][..])] {
        let mut head = count.to_le_bytes().to_vec();
        head.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        let mut summed = head.clone();
        summed.extend_from_slice(payload);
        want.extend_from_slice(&head);
        want.extend_from_slice(&xxh32(&summed, 0).to_le_bytes());
        want.extend_from_slice(payload);
    }
    let content: Vec<u8> = [1u32, 300, 7]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    want.extend_from_slice(&0u32.to_le_bytes());
    want.extend_from_slice(&3u64.to_le_bytes());
    want.extend_from_slice(&xxh64(&content, 0).to_le_bytes());
    assert_eq!(file, want);
}

#[test]
fn every_byte_flip_is_caught() {
    let mut rng = Rng::new(11);
    let values: Vec<u32> = (0..40).map(|i| rng.u32_of_len(1 + i % 5)).collect();
    let file = vbyte_file(&values, 16, None);
    for i in 0..file.len() {
        for bit in 0..8 {
            let mut bad = file.clone();
            bad[i] ^= 1 << bit;
            match read_vbyte_file(&bad) {
                Err(e) => assert_eq!(e.kind(), io::ErrorKind::InvalidData, "byte {i}: {e}"),
                Ok(v) => panic!("byte {i} bit {bit} flipped went unnoticed: {v:?}"),
            }
        }
    }
}

#[test]
fn every_truncation_is_caught() {
    let values: Vec<u32> = (0..40).map(|i| i * 1000).collect();
    let file = vbyte_file(&values, 16, Some(40));
    for len in 0..file.len() {
        let e = read_vbyte_file(&file[..len]).unwrap_err();
        assert!(
            matches!(inner(&e), Error::Truncated { .. }),
            "length {len}: {e}"
        );
    }
    let mut longer = file.clone();
    longer.push(0);
    let e = read_vbyte_file(&longer).unwrap_err();
    assert_eq!(
        inner(&e),
        &Error::Corrupt {
            offset: file.len(),
            what: "data after the end record"
        }
    );
}

#[test]
fn errors_name_what_and_where() {
    let file = vbyte_file(&(0..40).collect::<Vec<u32>>(), 16, None);
    let corrupt = |offset, what| Error::Corrupt { offset, what };
    let checksum = |what, offset| Error::ChecksumMismatch { what, offset };
    let cases = [
        (0, corrupt(0, "not a vecpress file (bad magic)")),
        (4, corrupt(4, "unknown format version")),
        (6, checksum("header", 24)),
        // The second block's payload: the block (at 28 + 12 + 16) fails its checksum.
        (
            HEADER_LEN + 12 + 16 + 12 + 3,
            checksum("block", HEADER_LEN + 28),
        ),
        (file.len() - 1, checksum("content", file.len() - 8)),
    ];
    for (at, want) in cases {
        let mut bad = file.clone();
        bad[at] ^= 0x10;
        let e = read_vbyte_file(&bad).unwrap_err();
        assert_eq!(inner(&e), &want, "flip at {at}");
    }
}

/// The blocks of `file` read by `next_block_unverified` and checked after
/// with `verify`, as a reader handing blocks to threads does: what each
/// block gave, and the first error.
fn read_deferred(file: &[u8]) -> (Vec<(u64, Vec<u8>)>, Option<Error>) {
    let mut blocks = Vec::new();
    let mut r = match Reader::new(file) {
        Ok(r) => r,
        Err(e) => return (blocks, Some(inner(&e).clone())),
    };
    let mut payload = Vec::new();
    loop {
        match r.next_block_unverified(&mut payload) {
            Ok(None) => return (blocks, None),
            Ok(Some(block)) => match block.verify(&payload) {
                Ok(info) => {
                    assert_eq!(info, block.info());
                    blocks.push((info.offset, payload.clone()));
                }
                Err(e) => return (blocks, Some(inner(&e).clone())),
            },
            Err(e) => return (blocks, Some(inner(&e).clone())),
        }
    }
}

/// The same with `next_block`, which checks as it reads.
fn read_checked(file: &[u8]) -> (Vec<(u64, Vec<u8>)>, Option<Error>) {
    let mut blocks = Vec::new();
    let mut r = match Reader::new(file) {
        Ok(r) => r,
        Err(e) => return (blocks, Some(inner(&e).clone())),
    };
    let mut payload = Vec::new();
    loop {
        match r.next_block(&mut payload) {
            Ok(None) => return (blocks, None),
            Ok(Some(info)) => blocks.push((info.offset, payload.clone())),
            Err(e) => return (blocks, Some(inner(&e).clone())),
        }
    }
}

#[test]
fn checksums_verified_later_catch_what_next_block_catches() {
    let file = vbyte_file(&(0..40).map(|i| i * 977).collect::<Vec<u32>>(), 16, None);
    let (blocks, err) = read_deferred(&file);
    assert_eq!(blocks.len(), 3);
    assert_eq!(err, None);
    for i in 0..file.len() {
        let mut bad = file.clone();
        bad[i] ^= 0x04;
        assert_eq!(read_deferred(&bad), read_checked(&bad), "flip at {i}");
    }
    // A payload flip is a checksum error naming the block's header.
    let mut bad = file.clone();
    bad[HEADER_LEN + 12 + 3] ^= 1;
    let (blocks, err) = read_deferred(&bad);
    assert!(blocks.is_empty());
    assert_eq!(
        err,
        Some(Error::ChecksumMismatch {
            what: "block",
            offset: HEADER_LEN
        })
    );
}

#[test]
fn hostile_lengths_are_refused_before_allocating() {
    let header = Header {
        codec: 1,
        element: Element::U64,
        block_len: u32::MAX,
        total: None,
        dict_id: None,
    };
    let e = Reader::new(&header.to_bytes()[..]).err().unwrap();
    assert!(
        matches!(
            inner(&e),
            Error::LimitExceeded {
                what: "block bytes",
                ..
            }
        ),
        "{e}"
    );

    // A block claiming a stored payload of 2 GiB in a file of a few bytes.
    let header = Header {
        element: Element::Bytes,
        block_len: 16,
        ..header
    };
    let mut file = header.to_bytes().to_vec();
    file.extend_from_slice(&16u32.to_le_bytes());
    file.extend_from_slice(&(STORED_BIT | 0x7FFF_FFFF).to_le_bytes());
    file.extend_from_slice(&[0; 4]);
    let e = Reader::new(&file[..])
        .unwrap()
        .next_block(&mut Vec::new())
        .unwrap_err();
    assert_eq!(
        inner(&e),
        &Error::Corrupt {
            offset: HEADER_LEN + 4,
            what: "stored block length differs from its count"
        }
    );
    let limits = Limits {
        max_block_bytes: 15,
    };
    assert!(Reader::with_limits(&file[..], limits).is_err());
}

#[test]
fn writer_refuses_what_readers_would_reject() {
    let header = Header {
        codec: 1,
        element: Element::U32,
        block_len: 4,
        total: Some(4),
        dict_id: None,
    };
    let mut w = Writer::new(Vec::new(), header).unwrap();
    assert!(w.write_block(0, &[], false).is_err());
    assert!(w.write_block(5, &[0; 20], true).is_err());
    assert!(w.write_block(2, &[0; 9], false).is_err());
    assert!(w.write_block(2, &[0; 9], true).is_err());
    w.write_block(2, &[1, 2], false).unwrap();
    assert!(w.finish().is_err(), "total 4 promised, 2 written");
    let big = Header {
        block_len: 1 << 30,
        ..header
    };
    assert!(Writer::new(Vec::new(), big).is_err());
    assert_eq!(END_LEN, 20);
}

/// Rewrites the fixed header's checksum after an edit of its first 24 bytes.
fn fix_header_sum(file: &mut [u8]) {
    let sum = xxhash_rust::xxh32::xxh32(&file[..24], 0);
    file[24..28].copy_from_slice(&sum.to_le_bytes());
}

/// Rewrites the dictionary extension's checksum after an edit of bytes 0..32.
fn fix_dict_sum(file: &mut [u8]) {
    let sum = xxhash_rust::xxh32::xxh32(&file[..32], 0);
    file[32..36].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn dictionary_id_round_trips_and_its_bytes_are_as_the_format_says() {
    use xxhash_rust::xxh32::xxh32;

    let values: Vec<u32> = (0..100).map(|i| i * 37).collect();
    let id = 0xA1B2_C3D4;
    let file = vbyte_file_with(&values, 16, Some(100), Some(id));
    let plain = vbyte_file(&values, 16, Some(100));
    assert_eq!(HEADER_LEN + DICT_EXT_LEN, 36);
    // The same file with flag bit 0, the id and its checksum after byte 28.
    assert_eq!(file.len(), plain.len() + DICT_EXT_LEN);
    assert_eq!(file[..12], plain[..12]);
    assert_eq!(file[12..16], FLAG_DICTIONARY.to_le_bytes());
    assert_eq!(FLAG_DICTIONARY, 1);
    assert_eq!(file[16..24], plain[16..24]);
    assert_eq!(file[24..28], xxh32(&file[..24], 0).to_le_bytes());
    assert_eq!(file[28..32], id.to_le_bytes());
    assert_eq!(file[32..36], xxh32(&file[..32], 0).to_le_bytes());
    assert_eq!(file[36..], plain[HEADER_LEN..]);

    let r = Reader::new(&file[..]).unwrap();
    assert_eq!(r.header().dict_id, Some(id));
    assert_eq!(r.offset(), 36);
    assert_eq!(Header::parse(&file).unwrap().dict_id, Some(id));
    assert_eq!(Header::parse(&plain).unwrap().dict_id, None);
    assert_eq!(read_vbyte_file(&file).unwrap(), values);
}

#[test]
fn dictionary_id_is_covered_by_a_checksum() {
    let values: Vec<u32> = (0..20).collect();
    let file = vbyte_file_with(&values, 8, None, Some(0x0102_0304));
    for at in HEADER_LEN..HEADER_LEN + DICT_EXT_LEN {
        for bit in 0..8 {
            let mut bad = file.clone();
            bad[at] ^= 1 << bit;
            let e = read_vbyte_file(&bad).unwrap_err();
            assert_eq!(
                inner(&e),
                &Error::ChecksumMismatch {
                    what: "header dictionary id",
                    offset: 32
                },
                "byte {at} bit {bit}"
            );
            assert_eq!(
                Header::parse(&bad),
                Err(Error::ChecksumMismatch {
                    what: "header dictionary id",
                    offset: 32
                })
            );
        }
    }
    // The flag itself is under the fixed header's checksum: clearing it
    // cannot silently turn the file into one without a dictionary.
    let mut bad = file.clone();
    bad[12] ^= 1;
    let e = read_vbyte_file(&bad).unwrap_err();
    assert_eq!(
        inner(&e),
        &Error::ChecksumMismatch {
            what: "header",
            offset: 24
        }
    );
    // Nor can setting it on a file without one.
    let mut bad = vbyte_file(&values, 8, None);
    bad[12] ^= 1;
    assert!(read_vbyte_file(&bad).is_err());
    // Even with both checksums recomputed, id 0 ("no dictionary") is refused.
    let mut zero = file.clone();
    zero[28..32].fill(0);
    fix_dict_sum(&mut zero);
    let e = read_vbyte_file(&zero).unwrap_err();
    assert_eq!(
        inner(&e),
        &Error::Corrupt {
            offset: 28,
            what: "dictionary id is zero"
        }
    );
}

#[test]
fn unknown_flags_are_still_rejected() {
    let values: Vec<u32> = (0..20).collect();
    for flags in [2u32, 3, 1 << 31, u32::MAX] {
        for dict_id in [None, Some(77)] {
            let mut bad = vbyte_file_with(&values, 8, None, dict_id);
            bad[12..16].copy_from_slice(&flags.to_le_bytes());
            fix_header_sum(&mut bad);
            let e = read_vbyte_file(&bad).unwrap_err();
            assert_eq!(
                inner(&e),
                &Error::Corrupt {
                    offset: 12,
                    what: "unknown header flags"
                },
                "flags {flags:#x}"
            );
        }
    }
}

#[test]
fn files_with_a_dictionary_id_catch_every_flip_and_truncation() {
    let values: Vec<u32> = (0..40).map(|i| i * 1000).collect();
    let file = vbyte_file_with(&values, 16, Some(40), Some(0xFFFF_FFFF));
    for i in 0..file.len() {
        for bit in 0..8 {
            let mut bad = file.clone();
            bad[i] ^= 1 << bit;
            assert!(read_vbyte_file(&bad).is_err(), "byte {i} bit {bit}");
        }
    }
    for len in 0..file.len() {
        let e = read_vbyte_file(&file[..len]).unwrap_err();
        assert!(
            matches!(inner(&e), Error::Truncated { .. }),
            "length {len}: {e}"
        );
    }
    let e = read_vbyte_file(&file[..30]).unwrap_err();
    assert_eq!(
        inner(&e),
        &Error::Truncated {
            offset: 28,
            needed: 6,
            unit: Unit::Bytes,
        }
    );
    assert_eq!(
        Header::parse(&file[..30]),
        Err(Error::Truncated {
            offset: 28,
            needed: 6,
            unit: Unit::Bytes,
        })
    );
}

#[test]
fn writer_refuses_dictionary_id_zero() {
    let header = Header {
        codec: 17,
        element: Element::Bytes,
        block_len: 4,
        total: None,
        dict_id: Some(0),
    };
    let e = Writer::new(Vec::new(), header).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
}
