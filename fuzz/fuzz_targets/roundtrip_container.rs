//! Arbitrary values written as a vecpress file in arbitrary blocks (VByte or
//! stored) read back the same, with every check passing.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use vecpress::container::{Element, Header, Reader, Writer};
use vecpress::vbyte;

#[derive(Arbitrary, Debug)]
struct Input {
    block_len: u8,
    known_total: bool,
    values: Vec<u32>,
}

fuzz_target!(|input: Input| {
    let block_len = usize::from(input.block_len.max(1));
    let raw: Vec<u8> = input.values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let header = Header {
        codec: 1,
        element: Element::U32,
        block_len: block_len as u32,
        total: input.known_total.then_some(input.values.len() as u64),
    };
    let mut w = Writer::new(Vec::new(), header).unwrap();
    for (values, bytes) in input.values.chunks(block_len).zip(raw.chunks(block_len * 4)) {
        let enc = vbyte::encode_to_vec(values);
        let stored = enc.len() >= bytes.len();
        let payload = if stored { bytes } else { &enc[..] };
        w.write_block(values.len() as u32, payload, stored).unwrap();
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
