//! Arbitrary bytes and count through every available FastLanes kernel, in
//! each of the three stream forms (plain, FoR, delta): each level must
//! return what the scalar level returns (the same values and length, or the
//! same error), none may panic or read out of bounds, and the `_to_vec`
//! entries must agree.
//!
//! Input: two bytes for the count (little endian: with the top bit clear it
//! is taken modulo the stream length times 1024 plus one; with the top bit
//! set the low 15 bits are used as they are), four for the previous value
//! of the delta form, then the stream as it is.
#![no_main]

mod common;

use common::{agree, same_to_vec, Input};
use libfuzzer_sys::fuzz_target;
use vecpress::bitpack::fastlanes as fl;
use vecpress::{Error, Isa};

type Decode = fn(Isa, &[u8], &mut [u32], u32) -> Result<usize, Error>;
type ToVec = fn(&[u8], usize, u32) -> Result<Vec<u32>, Error>;

const FORMS: [(&str, Decode, ToVec); 3] = [
    (
        "plain",
        |isa, i, o, _| fl::decode_with(isa, i, o),
        |i, n, _| fl::decode_to_vec(i, n),
    ),
    (
        "for",
        |isa, i, o, _| fl::decode_for_with(isa, i, o),
        |i, n, _| fl::decode_for_to_vec(i, n),
    ),
    ("delta", fl::decode_delta_with, fl::decode_delta_to_vec),
];

fuzz_target!(|data: &[u8]| {
    let Some(input) = Input::<4>::parse(data, 1024) else {
        return;
    };
    let (n, bytes) = (input.n, input.bytes);
    let prev = u32::from_le_bytes(input.prev);
    for (name, decode, to_vec) in FORMS {
        let (want, want_res) = agree(n, name, |isa, out| decode(isa, bytes, out, prev));
        same_to_vec(to_vec(bytes, n, prev), &want, &want_res, name);
    }
});
