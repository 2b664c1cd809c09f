//! Arbitrary bytes through every decoder entry that sizes memory from what
//! the input states, with no limit of the caller's: the size a Blosc frame,
//! a bitshuffle-LZ4 frame, a size-prepended LZ4 block or an LZ4 frame
//! claims, and the block lengths of a vecpress file. Each must refuse a
//! claim the input cannot back before allocating for it. The smoke run
//! gives this target `-malloc_limit_mb=64` (scripts/fuzz.sh): inputs are at
//! most a few KiB, which decode to at most 255 bytes a byte, so an
//! allocation of 64 MiB can only come from a claim, and is a crash.
//!
//! Input: byte 0 picks the value width of bitshuffle (1 + byte % 16); the
//! rest is handed to every decoder as it is.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::{bit_split, blosc, container, lz4};

fuzz_target!(|data: &[u8]| {
    let Some((&first, data)) = data.split_first() else {
        return;
    };
    if let Ok(n) = blosc::decompressed_len(data) {
        assert!(n <= blosc::max_decompressed_len(data.len()));
        // A caller sizing its output from the checked size.
        let mut out = vec![0u8; n];
        let _ = blosc::decompress_into(data, &mut out);
    }
    let _ = blosc::decompress(data);
    let _ = blosc::decompress_with_limit(data, usize::MAX);
    let width = 1 + usize::from(first % 16);
    if let Ok(n) = bit_split::decompressed_len_lz4(data) {
        let n = usize::try_from(n).unwrap();
        assert!(n <= bit_split::max_decompressed_len_lz4(data.len()));
        let mut out = vec![0u8; n];
        let _ = bit_split::decompress_lz4(data, width, &mut out);
    }
    let _ = lz4::block::decompress_size_prepended(data);
    let _ = lz4::block::decompress_size_prepended_with_limit(data, usize::MAX);
    let _ = lz4::frame::decompress(data);
    if let Ok(mut r) = container::Reader::new(data) {
        let mut payload = Vec::new();
        while let Ok(Some(_)) = r.next_block(&mut payload) {}
    }
});
