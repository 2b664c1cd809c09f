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

mod common;

use common::{agree, same_to_vec, Input};
use libfuzzer_sys::fuzz_target;
use vecpress::bitpack::bp128::{self, Lanes};

fuzz_target!(|data: &[u8]| {
    let Some(input) = Input::<4>::parse(data, 128) else {
        return;
    };
    let (n, bytes) = (input.n, input.bytes);
    let prev = u32::from_le_bytes(input.prev);

    let (want, want_res) = agree(n, "", |isa, out| bp128::decode_with(isa, bytes, out));
    let (want_d, want_d_res) = agree(n, "delta", |isa, out| {
        bp128::decode_delta_with(isa, bytes, out, prev)
    });
    assert_eq!(want_res, want_d_res, "plain and delta consume alike");
    same_to_vec(bp128::decode_to_vec(bytes, n), &want, &want_res, "to_vec");
    same_to_vec(
        bp128::decode_delta_to_vec(bytes, n, prev),
        &want_d,
        &want_d_res,
        "delta to_vec",
    );

    // Single blocks: the first byte as the width, the rest as the block.
    let Some((&width, block)) = bytes.split_first() else {
        return;
    };
    for lanes in [Lanes::X4, Lanes::X8] {
        let what = format!("{lanes:?}");
        let (_, want_res) = agree(lanes.block_len(), &what, |isa, out| {
            bp128::unpack_with(isa, lanes, block, width, out)
        });
        let what = format!("{lanes:?} sorted");
        let (_, want_s_res) = agree(lanes.block_len(), &what, |isa, out| {
            bp128::unpack_sorted_with(isa, lanes, prev, block, width, out)
        });
        assert_eq!(want_res, want_s_res, "plain and sorted read alike");
    }
});
