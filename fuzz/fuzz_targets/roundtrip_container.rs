//! Arbitrary values written as a vecpress file in arbitrary blocks (VByte or
//! stored; with codecs per block, VByte and Stream VByte in turn) read back
//! the same, with every check passing.
//!
//! Input: one byte for the block length (at least 1), one whose bit 0 says
//! whether the header records the total and bit 1 whether blocks name their
//! codecs (version 2), then the values as little-endian `u32`s (each `v`
//! taken as `v >> (v & 31)`, for a mix of lengths).
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::codec;
use vecpress::container::{Element, Header, Reader, Writer, PER_BLOCK, STORED_CODEC};

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let block_len = usize::from(head[0].max(1));
    let known_total = head[1] & 1 != 0;
    let per_block = head[1] & 2 != 0;
    let vbyte = codec::find("vbyte").unwrap();
    let svb = codec::find("stream-vbyte").unwrap();
    let values: Vec<u32> = rest
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .map(|v| v >> (v & 31))
        .collect();
    let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let header = Header {
        codec: if per_block { PER_BLOCK } else { vbyte.id() },
        element: Element::U32,
        block_len: block_len as u32,
        total: known_total.then_some(values.len() as u64),
        dict_id: None,
    };
    let mut w = Writer::new(Vec::new(), header).unwrap();
    let blocks = values.chunks(block_len).zip(raw.chunks(block_len * 4));
    for (i, (block, bytes)) in blocks.enumerate() {
        let c = if per_block && i % 2 == 1 { svb } else { vbyte };
        let mut enc = vec![0u8; c.max_encoded_len(block.len())];
        let n = c.encode(block, &mut enc);
        let stored = n >= bytes.len();
        let (payload, id) = if stored {
            (bytes, STORED_CODEC)
        } else {
            (&enc[..n], c.id())
        };
        w.write_block_with(block.len() as u32, payload, id, 0)
            .unwrap();
        w.hash_content(bytes);
    }
    let file = w.finish().unwrap();

    let mut r = Reader::new(&file[..]).unwrap();
    assert_eq!(r.header(), &header);
    let mut payload = Vec::new();
    let mut back = Vec::new();
    while let Some(b) = r.next_block(&mut payload).unwrap() {
        let bytes = if b.stored {
            payload.clone()
        } else {
            let c = [vbyte, svb]
                .into_iter()
                .find(|c| c.id() == b.codec)
                .unwrap();
            let mut values = vec![0u32; b.count as usize];
            assert_eq!(c.decode_auto(&payload, &mut values), Ok(payload.len()));
            values.iter().flat_map(|v| v.to_le_bytes()).collect()
        };
        r.hash_content(&bytes);
        back.extend_from_slice(&bytes);
    }
    r.check_content().unwrap();
    assert_eq!(back, raw);
});
