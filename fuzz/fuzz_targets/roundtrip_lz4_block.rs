//! Arbitrary bytes -> compress (at some acceleration, with or without
//! history) -> decompress with every variant and kernel == the bytes.
//!
//! Input: one byte for the acceleration, two for where the history ends,
//! then the data as it is.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::lz4::block;
use vecpress::Isa;

fuzz_target!(|input: &[u8]| {
    let Some((head, data)) = input.split_first_chunk::<3>() else {
        return;
    };
    let mut packed = vec![0u8; block::max_compressed_len(data.len())];
    let k = block::compress_into_with(data, &mut packed, head[0].into()).unwrap();
    assert_eq!(block::validate(&packed[..k]), Ok(data.len()));
    for v in block::variants() {
        let mut out = vec![0xEEu8; data.len()];
        assert_eq!(
            block::decompress_into_variant(v, &packed[..k], &mut out),
            Ok(data.len()),
            "{v}"
        );
        assert_eq!(out, data, "{v}");
    }
    for &isa in Isa::available() {
        let mut out = vec![0xEEu8; data.len()];
        assert_eq!(
            block::decompress_with(isa, &packed[..k], &mut out),
            Ok(data.len()),
            "{isa}"
        );
        assert_eq!(out, data, "{isa}");
    }
    // The tail after `split` compressed against the head as history.
    let split = usize::from(u16::from_le_bytes([head[1], head[2]])).min(data.len());
    let (hist, tail) = data.split_at(split);
    let k = block::compress_with_dict(tail, hist, &mut packed).unwrap();
    let mut out = vec![0u8; tail.len()];
    assert_eq!(
        block::decompress_with_dict(&packed[..k], hist, &mut out),
        Ok(tail.len())
    );
    assert_eq!(out, tail);
    let mut buf = data.to_vec();
    buf[split..].fill(0xEE);
    assert_eq!(
        block::decompress_with_prefix(&packed[..k], &mut buf, split),
        Ok(tail.len())
    );
    assert_eq!(buf, data);
    let k = block::compress_with_prefix(data, split, &mut packed).unwrap();
    let mut buf = data.to_vec();
    buf[split..].fill(0);
    assert_eq!(
        block::decompress_with_prefix(&packed[..k], &mut buf, split),
        Ok(tail.len())
    );
    assert_eq!(buf, data);
});
