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

use libfuzzer_sys::fuzz_target;
use vecpress::bitpack::fastlanes as fl;
use vecpress::{Error, Isa};

fn count(c: [u8; 2], len: usize) -> usize {
    let c = u16::from_le_bytes(c);
    if c & 0x8000 != 0 {
        usize::from(c & 0x7fff)
    } else {
        usize::from(c) % (len * 1024 + 1)
    }
}

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
    let Some((head, bytes)) = data.split_first_chunk::<6>() else {
        return;
    };
    let n = count([head[0], head[1]], bytes.len());
    let prev = u32::from_le_bytes([head[2], head[3], head[4], head[5]]);
    for (name, decode, to_vec) in FORMS {
        let mut want = vec![0u32; n];
        let want_res = decode(Isa::Scalar, bytes, &mut want, prev);
        for &isa in Isa::available() {
            let mut got = vec![0u32; n];
            let res = decode(isa, bytes, &mut got, prev);
            assert_eq!(res, want_res, "{name} {isa}");
            if res.is_ok() {
                assert_eq!(got, want, "{name} {isa}");
            }
        }
        match to_vec(bytes, n, prev) {
            Ok(v) => assert_eq!(v, want, "{name}"),
            Err(_) => assert!(want_res.is_err(), "{name}"),
        }
    }
});
