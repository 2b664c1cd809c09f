//! Arbitrary chunks through the three HDF5 filter plugins' decoders
//! (`vecpress_hdf5::decode_to_vec`): Blosc, LZ4 (filter 32004, whose block
//! framing is the plugin's own code) and bitshuffle, with or without LZ4.
//! Each must give `Ok` or an error, never a panic, and size its output only
//! from a size its input can back: the smoke run gives this target
//! `-malloc_limit_mb=64`, as for `decode_claims` (scripts/fuzz.sh). A chunk
//! that decodes is encoded again with the same parameters, and that must
//! decode to the same bytes.
//!
//! Input: byte 0 picks the filter (bits 0-1: 0 Blosc, 1 LZ4, 2 and 3
//! bitshuffle) and, for bitshuffle, whether LZ4 is on (bit 2) and the
//! element size (1 + bits 3-6); byte 1 the LZ4 filter's block size in units
//! of 64 bytes (0: the default); the rest is the chunk.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress_hdf5::{decode_to_vec, encode_to_vec, Filter};

fuzz_target!(|data: &[u8]| {
    let [first, second, chunk @ ..] = data else {
        return;
    };
    let (filter, cd): (Filter, Vec<u32>) = match first & 3 {
        0 => (Filter::Blosc, vec![2, 2, 8, 0, 5, 1, 1]),
        1 => (Filter::Lz4, vec![u32::from(*second) * 64]),
        _ => {
            let lz4 = if first & 4 != 0 { 2 } else { 0 };
            let width = 1 + u32::from(first >> 3 & 15);
            (Filter::Bitshuffle, vec![0, 4, width, 0, lz4])
        }
    };
    if let Ok(decoded) = decode_to_vec(filter, &cd, chunk) {
        assert!(decoded.len() <= chunk.len().saturating_mul(255).max(chunk.len()));
        let mut cd = cd;
        if filter == Filter::Blosc {
            cd[3] = decoded.len() as u32;
        }
        if let Ok(again) = encode_to_vec(filter, &cd, &decoded) {
            assert_eq!(decode_to_vec(filter, &cd, &again).ok(), Some(decoded));
        }
    }
});
