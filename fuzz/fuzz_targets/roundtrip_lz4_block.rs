//! Arbitrary bytes -> compress (at some acceleration, with or without
//! history) -> decompress with every variant == the bytes.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use vecpress::lz4::block;

#[derive(Arbitrary, Debug)]
struct Input {
    acceleration: u8,
    split: u16,
    bytes: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let data = &input.bytes;
    let mut packed = vec![0u8; block::max_compressed_len(data.len())];
    let k = block::compress_into_with(data, &mut packed, input.acceleration.into()).unwrap();
    assert_eq!(block::validate(&packed[..k]), Ok(data.len()));
    for v in block::variants() {
        let mut out = vec![0xEEu8; data.len()];
        assert_eq!(block::decompress_into_variant(v, &packed[..k], &mut out), Ok(data.len()), "{v}");
        assert_eq!(&out, data, "{v}");
    }
    // The tail after `split` compressed against the head as history.
    let split = (input.split as usize).min(data.len());
    let (head, tail) = data.split_at(split);
    let k = block::compress_with_dict(tail, head, &mut packed).unwrap();
    let mut out = vec![0u8; tail.len()];
    assert_eq!(block::decompress_with_dict(&packed[..k], head, &mut out), Ok(tail.len()));
    assert_eq!(out, tail);
    let mut buf = data.clone();
    buf[split..].fill(0xEE);
    assert_eq!(block::decompress_with_prefix(&packed[..k], &mut buf, split), Ok(tail.len()));
    assert_eq!(&buf, data);
});
