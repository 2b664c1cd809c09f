//! Arbitrary bytes and width through every available bit shuffle decoder
//! and the bit shuffle + LZ4 decoder (the HDF5 filter 32008 framing): each
//! must return what the scalar kernels return (the same bytes, or the same
//! error) and none may panic or write outside its output.
//!
//! Input: one byte for the width (its low six bits), two for the output
//! length of the LZ4 framing (little endian, low 15 bits), then the bytes.
#![no_main]

mod common;

use common::agree;
use libfuzzer_sys::fuzz_target;
use vecpress::{bit_split, Isa};

fuzz_target!(|data: &[u8]| {
    let Some((head, bytes)) = data.split_first_chunk::<3>() else {
        return;
    };
    let width = usize::from(head[0] & 0x3f);
    let out_len = usize::from(u16::from_le_bytes([head[1], head[2]]) & 0x7fff);

    let mut want = vec![0u8; bytes.len()];
    let want_res = bit_split::decode_with(Isa::Scalar, bytes, width, &mut want);
    for &isa in Isa::available() {
        let mut got = vec![0u8; bytes.len()];
        let res = bit_split::decode_with(isa, bytes, width, &mut got);
        assert_eq!(res, want_res, "{isa}");
        assert_eq!(got, want, "{isa}");
    }

    let _ = agree(out_len, "lz4", |isa, out| {
        bit_split::decompress_lz4_with(isa, bytes, width, out)
    });
});
