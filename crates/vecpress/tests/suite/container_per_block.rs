//! Version 2 of the container, whose blocks name their own codecs: round
//! trips across codecs, the bytes as docs/FORMAT.md spells them, every
//! corruption and truncation, and the new fields' rules on both sides.
use std::io;

use crate::common::Rng;
use vecpress::codec::{self, IntCodec};
use vecpress::container::{
    BLOCK_HEADER_LEN_V2, Element, HEADER_LEN, Header, PER_BLOCK, Reader, STORED_BIT, STORED_CODEC,
    Writer,
};
use vecpress::{Error, vbyte};

fn int_codec(id: u16) -> Option<&'static dyn IntCodec> {
    codec::int_codecs().iter().copied().find(|c| c.id() == id)
}

fn header(block_len: u32, total: Option<u64>) -> Header {
    Header {
        codec: PER_BLOCK,
        element: Element::U32,
        block_len,
        total,
        dict_id: None,
    }
}

fn le_bytes(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A version 2 file of `values` whose blocks take the codecs of `ids` in
/// turn (a block is stored raw when its encoding is no shorter).
fn per_block_file(values: &[u32], block_len: u32, total: Option<u64>, ids: &[u16]) -> Vec<u8> {
    let mut w = Writer::new(Vec::new(), header(block_len, total)).unwrap();
    for (i, block) in values.chunks(block_len as usize).enumerate() {
        let raw = le_bytes(block);
        let c = int_codec(ids[i % ids.len()]).unwrap();
        let mut enc = vec![0u8; c.max_encoded_len(block.len())];
        let n = c.encode(block, &mut enc);
        if n < raw.len() {
            w.write_block_with(block.len() as u32, &enc[..n], c.id(), 0)
                .unwrap();
        } else {
            w.write_block_with(block.len() as u32, &raw, STORED_CODEC, 0)
                .unwrap();
        }
        w.hash_content(&raw);
    }
    w.finish().unwrap()
}

/// Reads a file back, each block by the codec it names; the values and
/// each block's codec id.
fn read_file(file: &[u8]) -> io::Result<(Vec<u32>, Vec<u16>)> {
    let mut r = Reader::new(file)?;
    let (mut payload, mut values, mut ids) = (Vec::new(), Vec::new(), Vec::new());
    while let Some(block) = r.next_block(&mut payload)? {
        let mut out = vec![0u32; block.count as usize];
        if block.stored {
            for (v, b) in out.iter_mut().zip(payload.chunks_exact(4)) {
                *v = u32::from_le_bytes(b.try_into().unwrap());
            }
        } else {
            let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_string());
            let c = int_codec(block.codec).ok_or_else(|| bad("unknown codec"))?;
            let used = c
                .decode_auto(&payload, &mut out)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            if used != payload.len() {
                return Err(bad("slack"));
            }
        }
        r.hash_content(&le_bytes(&out));
        values.extend_from_slice(&out);
        ids.push(block.codec);
    }
    r.check_content()?;
    Ok((values, ids))
}

fn inner(e: &io::Error) -> &Error {
    e.get_ref()
        .and_then(|e| e.downcast_ref::<Error>())
        .unwrap_or_else(|| panic!("not a vecpress error: {e}"))
}

/// Ids of two integer codecs: VByte, and Stream VByte.
fn two_ids() -> [u16; 2] {
    [
        codec::find("vbyte").unwrap().id(),
        codec::find("stream-vbyte").unwrap().id(),
    ]
}

#[test]
fn blocks_of_several_codecs_round_trip() {
    let mut rng = Rng::new(3);
    let ids = two_ids();
    for n in [0usize, 1, 15, 16, 17, 33, 1000] {
        for block_len in [1u32, 16, 17, 1 << 20] {
            let values: Vec<u32> = (0..n).map(|_| rng.u32_of_len(1 + (n % 4) as u32)).collect();
            for total in [None, Some(n as u64)] {
                let file = per_block_file(&values, block_len, total, &ids);
                assert_eq!(file[4], 2, "version");
                let (back, got) = read_file(&file).unwrap_or_else(|e| panic!("n {n}: {e}"));
                assert_eq!(back, values, "n {n} block {block_len}");
                let blocks = n.div_ceil(block_len as usize);
                assert_eq!(got.len(), blocks);
                if n >= 33 && block_len == 16 {
                    assert_eq!(got[..2], ids, "each block names its codec");
                }
            }
        }
    }
}

#[test]
fn bytes_are_as_the_format_says() {
    use xxhash_rust::{xxh32::xxh32, xxh64::xxh64};

    let [vb, _] = two_ids();
    let mut w = Writer::new(Vec::new(), header(2, Some(3))).unwrap();
    w.write_block_with(2, &[1, 0xAC, 0x02], vb, 7).unwrap();
    w.write_block_with(1, &le_bytes(&[7]), STORED_CODEC, 0)
        .unwrap();
    w.hash_content(&le_bytes(&[1, 300, 7]));
    let file = w.finish().unwrap();

    let mut want = vec![
        0x89, b'V', b'P', b'R', 2, 1, 0xFF, 0xFF, 2, 0, 0, 0, 0, 0, 0, 0,
    ];
    want.extend_from_slice(&3u64.to_le_bytes());
    let sum = xxh32(&want, 0);
    want.extend_from_slice(&sum.to_le_bytes());
    assert_eq!(want.len(), HEADER_LEN);
    let blocks: [(u32, u32, u16, u8, Vec<u8>); 2] = [
        (2, 3, vb, 7, vec![1, 0xAC, 0x02]),
        (1, 4 | STORED_BIT, 0, 0, le_bytes(&[7])),
    ];
    for (count, len, codec, level, payload) in blocks {
        let mut head = count.to_le_bytes().to_vec();
        head.extend_from_slice(&len.to_le_bytes());
        head.extend_from_slice(&codec.to_le_bytes());
        head.extend_from_slice(&[level, 0]);
        let mut summed = head.clone();
        summed.extend_from_slice(&payload);
        want.extend_from_slice(&head);
        want.extend_from_slice(&xxh32(&summed, 0).to_le_bytes());
        assert_eq!(head.len() + 4, BLOCK_HEADER_LEN_V2);
        want.extend_from_slice(&payload);
    }
    want.extend_from_slice(&0u32.to_le_bytes());
    want.extend_from_slice(&3u64.to_le_bytes());
    want.extend_from_slice(&xxh64(&le_bytes(&[1, 300, 7]), 0).to_le_bytes());
    assert_eq!(file, want);

    let mut r = Reader::new(&file[..]).unwrap();
    let mut payload = Vec::new();
    let first = r.next_block(&mut payload).unwrap().unwrap();
    assert_eq!((first.codec, first.level, first.stored), (vb, 7, false));
    let second = r.next_block(&mut payload).unwrap().unwrap();
    assert_eq!(second.offset, (HEADER_LEN + BLOCK_HEADER_LEN_V2 + 3) as u64);
    assert_eq!((second.codec, second.level, second.stored), (0, 0, true));
}

#[test]
fn every_byte_flip_is_caught() {
    let mut rng = Rng::new(19);
    let values: Vec<u32> = (0..40).map(|i| rng.u32_of_len(1 + i % 5)).collect();
    let file = per_block_file(&values, 16, None, &two_ids());
    for i in 0..file.len() {
        for bit in 0..8 {
            let mut bad = file.clone();
            bad[i] ^= 1 << bit;
            match read_file(&bad) {
                Err(e) => assert_eq!(e.kind(), io::ErrorKind::InvalidData, "byte {i}: {e}"),
                Ok(v) => panic!("byte {i} bit {bit} flipped went unnoticed: {v:?}"),
            }
        }
    }
}

#[test]
fn every_truncation_is_caught() {
    let values: Vec<u32> = (0..40).map(|i| i * 1000).collect();
    let file = per_block_file(&values, 16, Some(40), &two_ids());
    for len in 0..file.len() {
        let e = read_file(&file[..len]).unwrap_err();
        assert!(
            matches!(inner(&e), Error::Truncated { .. }),
            "length {len}: {e}"
        );
    }
}

/// Rewrites the fixed header's checksum after an edit of its first 24 bytes.
fn fix_header_sum(file: &mut [u8]) {
    let sum = xxhash_rust::xxh32::xxh32(&file[..24], 0);
    file[24..28].copy_from_slice(&sum.to_le_bytes());
}

/// Rewrites the checksum of the block at `at` (of `len` payload bytes)
/// after an edit of its fields.
fn fix_block_sum(file: &mut [u8], at: usize, len: usize) {
    let mut h = xxhash_rust::xxh32::Xxh32::new(0);
    h.update(&file[at..at + 12]);
    h.update(&file[at + 16..at + 16 + len]);
    file[at + 12..at + 16].copy_from_slice(&h.digest().to_le_bytes());
}

#[test]
fn the_codec_fields_are_checked_with_the_checksums_intact() {
    let [vb, _] = two_ids();
    let mut w = Writer::new(Vec::new(), header(4, None)).unwrap();
    let enc = vbyte::encode_to_vec(&[1, 2, 3, 4]);
    w.write_block_with(4, &enc, vb, 0).unwrap();
    w.hash_content(&le_bytes(&[1, 2, 3, 4]));
    let file = w.finish().unwrap();
    let at = HEADER_LEN;
    let corrupt = |offset, what| Error::Corrupt { offset, what };
    let disagree = "block's codec disagrees with its stored bit";
    type Edit<'a> = &'a dyn Fn(&mut Vec<u8>);
    let edits: [(Edit<'_>, Error); 4] = [
        (
            &|f| f[at + 11] = 1,
            corrupt(at + 11, "block's reserved byte is not zero"),
        ),
        (&|f| f[at + 8..at + 10].fill(0), corrupt(at + 8, disagree)),
        (
            &|f| f[at + 8..at + 10].fill(0xFF),
            corrupt(at + 8, "block's codec or level is not one"),
        ),
        // Stored now, and as long as its four elements, with codec vbyte.
        (
            &|f| {
                let mut stored = f[..at].to_vec();
                stored.extend_from_slice(&4u32.to_le_bytes());
                stored.extend_from_slice(&(16 | STORED_BIT).to_le_bytes());
                stored.extend_from_slice(&vb.to_le_bytes());
                stored.extend_from_slice(&[0; 6]);
                stored.extend_from_slice(&le_bytes(&[1, 2, 3, 4]));
                stored.extend_from_slice(&f[f.len() - 20..]);
                *f = stored;
            },
            corrupt(at + 8, disagree),
        ),
    ];
    for (i, (edit, want)) in edits.into_iter().enumerate() {
        let mut bad = file.clone();
        edit(&mut bad);
        let len = le32(&bad[at + 4..]) & !STORED_BIT;
        fix_block_sum(&mut bad, at, len as usize);
        let e = read_file(&bad).unwrap_err();
        assert_eq!(inner(&e), &want, "edit {i}");
    }
}

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b[..4].try_into().unwrap())
}

#[test]
fn the_version_and_the_header_codec_go_together() {
    let file = per_block_file(&[1, 2, 3], 4, None, &two_ids());
    let mut v2_with_codec = file.clone();
    v2_with_codec[6..8].copy_from_slice(&1u16.to_le_bytes());
    fix_header_sum(&mut v2_with_codec);
    let mut v1_per_block = file.clone();
    v1_per_block[4] = 1;
    fix_header_sum(&mut v1_per_block);
    let mut v3 = file.clone();
    v3[4] = 3;
    fix_header_sum(&mut v3);
    for (bad, offset, what) in [
        (
            v2_with_codec,
            6,
            "a version 2 header names a codec (its blocks name theirs)",
        ),
        (
            v1_per_block,
            6,
            "a version 1 header leaves the codec to its blocks",
        ),
        (v3, 4, "unknown format version"),
    ] {
        let e = Reader::new(&bad[..]).unwrap_err();
        assert_eq!(inner(&e), &Error::Corrupt { offset, what });
    }
}

#[test]
fn writers_refuse_what_readers_would_reject() {
    let [vb, svb] = two_ids();
    let mut w = Writer::new(Vec::new(), header(4, None)).unwrap();
    assert!(
        w.write_block(2, &[1, 2], false).is_err(),
        "an encoded block names its codec"
    );
    assert!(w.write_block_with(2, &[1, 2], PER_BLOCK, 0).is_err());
    assert!(w.write_block_with(1, &[0; 4], STORED_CODEC, 3).is_err());
    assert!(w.write_block_with(1, &[0; 3], STORED_CODEC, 0).is_err());
    w.write_block(1, &[0; 4], true).unwrap();
    w.write_block_with(2, &[1, 2], svb, 12).unwrap();

    let v1 = Header {
        codec: vb,
        ..header(4, None)
    };
    let mut w = Writer::new(Vec::new(), v1).unwrap();
    assert!(
        w.write_block_with(2, &[1, 2], svb, 0).is_err(),
        "a version 1 file has one codec"
    );
    w.write_block_with(2, &[1, 2], vb, 0).unwrap();
    w.write_block_with(1, &[0; 4], STORED_CODEC, 0).unwrap();
    let file = w.finish().unwrap();
    assert_eq!(file[4], 1);
}
