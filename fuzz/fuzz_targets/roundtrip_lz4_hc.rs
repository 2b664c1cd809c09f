//! Arbitrary bytes -> compress at a high-compression level (with or without
//! history) -> decompress == the bytes, and the block is one liblz4 reads
//! (the checked loop: every rule of the format).
//!
//! Input: one byte for the level (2..=12) and the decompression-speed
//! option, two for where the history ends, then the data as it is.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::lz4::{block, hc};

fuzz_target!(|input: &[u8]| {
    let Some((head, data)) = input.split_first_chunk::<3>() else {
        return;
    };
    let level = 2 + u32::from(head[0] % 11);
    let opts = hc::HcOptions::new()
        .level(level)
        .favor_decompression_speed(head[0] & 0x80 != 0);
    let mut packed = vec![0u8; block::max_compressed_len(data.len())];
    let k = hc::compress_into_with(data, &mut packed, &opts).unwrap();
    assert_eq!(
        block::validate(&packed[..k]),
        Ok(data.len()),
        "level {level}"
    );
    let mut out = vec![0xEEu8; data.len()];
    assert_eq!(
        block::decompress_into(&packed[..k], &mut out),
        Ok(data.len())
    );
    assert_eq!(out, data, "level {level}");
    // A too-small output buffer is an error, never a panic.
    if k > 0 {
        assert!(hc::compress_into_with(data, &mut packed[..k - 1], &opts).is_err());
    }
    // The tail after `split` compressed against the head as history.
    let split = usize::from(u16::from_le_bytes([head[1], head[2]])).min(data.len());
    let (hist, tail) = data.split_at(split);
    let k = hc::compress_with_dict(tail, hist, &mut packed, &opts).unwrap();
    let mut out = vec![0u8; tail.len()];
    assert_eq!(
        block::decompress_with_dict(&packed[..k], hist, &mut out),
        Ok(tail.len())
    );
    assert_eq!(out, tail, "level {level}, history {split}");
});
