//! Arbitrary values written as a vecpress file in arbitrary blocks (VByte or
//! stored) read back the same, with every check passing.
//!
//! Input: one byte for the block length (at least 1), one whose bit 0 says
//! whether the header records the total, then the values as little-endian
//! `u32`s (each `v` taken as `v >> (v & 31)`, for a mix of lengths).
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::container::{Element, Header, Reader, Writer};
use vecpress::vbyte;

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let block_len = usize::from(head[0].max(1));
    let known_total = head[1] & 1 != 0;
    let values: Vec<u32> = rest
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .map(|v| v >> (v & 31))
        .collect();
    let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let header = Header {
        codec: 1,
        element: Element::U32,
        block_len: block_len as u32,
        total: known_total.then_some(values.len() as u64),
        dict_id: None,
    };
    let mut w = Writer::new(Vec::new(), header).unwrap();
    for (block, bytes) in values.chunks(block_len).zip(raw.chunks(block_len * 4)) {
        let enc = vbyte::encode_to_vec(block);
        let stored = enc.len() >= bytes.len();
        let payload = if stored { bytes } else { &enc[..] };
        w.write_block(block.len() as u32, payload, stored).unwrap();
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
            let values = vbyte::decode_to_vec(&payload, b.count as usize).unwrap();
            values.iter().flat_map(|v| v.to_le_bytes()).collect()
        };
        r.hash_content(&bytes);
        back.extend_from_slice(&bytes);
    }
    r.check_content().unwrap();
    assert_eq!(back, raw);
});
