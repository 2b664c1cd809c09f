//! Arbitrary bytes and count through every available Varint-GB kernel: each
//! must return what the scalar reference returns (the same values and
//! length, or the same error), and none may panic or read out of bounds.
//!
//! Input: two bytes for the count (little endian: with the top bit clear it
//! is taken modulo the stream length plus one, so that it fits the stream;
//! with the top bit set the low 15 bits are used as they are), four for the
//! previous value of the delta form, then the stream as it is.
#![no_main]

mod common;

use common::{agree, same_to_vec, Input};
use libfuzzer_sys::fuzz_target;
use vecpress::group_varint::gb;

fuzz_target!(|data: &[u8]| {
    let Some(input) = Input::<4>::parse(data, 1) else {
        return;
    };
    let (n, bytes) = (input.n, input.bytes);
    let prev = u32::from_le_bytes(input.prev);

    let (want, want_res) = agree(n, "", |isa, out| gb::decode_with(isa, bytes, out));
    let (want_d, want_d_res) = agree(n, "delta", |isa, out| {
        gb::decode_delta_with(isa, bytes, out, prev)
    });
    assert_eq!(want_res, want_d_res, "plain and delta consume alike");
    same_to_vec(gb::decode_to_vec(bytes, n), &want, &want_res, "to_vec");
    same_to_vec(
        gb::decode_delta_to_vec(bytes, n, prev),
        &want_d,
        &want_d_res,
        "delta to_vec",
    );
});
