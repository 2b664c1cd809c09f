//! Arbitrary bytes and count through every available SIMD-BP128 kernel, as a
//! stream (plain and delta) and as single blocks of both lane counts: each
//! must return what the scalar reference returns (the same values and
//! length, or the same error), and none may panic or read out of bounds.
//!
//! Input: two bytes for the count (little endian: with the top bit clear it
//! is taken modulo 128 times the stream length plus one, so that it fits
//! the stream; with the top bit set the low 15 bits are used as they are),
//! four for the previous value of the delta form, then the stream as it is
//! (its first byte is also the width of the single blocks).
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::bitpack::bp128::{self, Lanes};
use vecpress::Isa;

fn count(c: [u8; 2], len: usize) -> usize {
    let c = u16::from_le_bytes(c);
    if c & 0x8000 != 0 {
        usize::from(c & 0x7fff)
    } else {
        usize::from(c) % (128 * len + 1)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((head, bytes)) = data.split_first_chunk::<6>() else {
        return;
    };
    let n = count([head[0], head[1]], bytes.len());
    let prev = u32::from_le_bytes([head[2], head[3], head[4], head[5]]);

    let mut want = vec![0u32; n];
    let want_res = bp128::decode_with(Isa::Scalar, bytes, &mut want);
    let mut want_d = vec![0u32; n];
    let want_d_res = bp128::decode_delta_with(Isa::Scalar, bytes, &mut want_d, prev);
    assert_eq!(want_res, want_d_res, "plain and delta consume alike");
    for &isa in Isa::available() {
        let mut got = vec![0u32; n];
        let res = bp128::decode_with(isa, bytes, &mut got);
        assert_eq!(res, want_res, "{isa}");
        if res.is_ok() {
            assert_eq!(got, want, "{isa}");
        }
        let mut got = vec![0u32; n];
        let res = bp128::decode_delta_with(isa, bytes, &mut got, prev);
        assert_eq!(res, want_d_res, "{isa} delta");
        if res.is_ok() {
            assert_eq!(got, want_d, "{isa} delta");
        }
    }
    match bp128::decode_to_vec(bytes, n) {
        Ok(v) => assert_eq!(v, &want[..]),
        Err(_) => assert!(want_res.is_err()),
    }
    match bp128::decode_delta_to_vec(bytes, n, prev) {
        Ok(v) => assert_eq!(v, &want_d[..]),
        Err(_) => assert!(want_d_res.is_err()),
    }

    // Single blocks: the first byte as the width, the rest as the block.
    let Some((&width, block)) = bytes.split_first() else {
        return;
    };
    for lanes in [Lanes::X4, Lanes::X8] {
        let mut want = vec![0u32; lanes.block_len()];
        let want_res = bp128::unpack_with(Isa::Scalar, lanes, block, width, &mut want);
        let mut want_s = vec![0u32; lanes.block_len()];
        let want_s_res =
            bp128::unpack_sorted_with(Isa::Scalar, lanes, prev, block, width, &mut want_s);
        assert_eq!(want_res, want_s_res, "plain and sorted read alike");
        for &isa in Isa::available() {
            let mut got = vec![0u32; lanes.block_len()];
            let res = bp128::unpack_with(isa, lanes, block, width, &mut got);
            assert_eq!(res, want_res, "{isa} {lanes:?}");
            if res.is_ok() {
                assert_eq!(got, want, "{isa} {lanes:?}");
            }
            let res = bp128::unpack_sorted_with(isa, lanes, prev, block, width, &mut got);
            assert_eq!(res, want_s_res, "{isa} {lanes:?} sorted");
            if res.is_ok() {
                assert_eq!(got, want_s, "{isa} {lanes:?} sorted");
            }
        }
    }
});
