//! Arbitrary bytes and count through every available Stream VByte kernel, in
//! the variant an input byte chooses (standard, delta, 0124, 0124 delta):
//! each must return what the scalar reference returns (the same values and
//! length, or the same error), and none may panic or read out of bounds.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use vecpress::{stream_vbyte as svb, Error, Isa};

#[derive(Arbitrary, Debug)]
struct Input {
    variant: u8,
    count: u16,
    prev: u32,
    bytes: Vec<u8>,
}

fn decode(variant: u8, isa: Isa, bytes: &[u8], out: &mut [u32], prev: u32) -> Result<usize, Error> {
    match variant % 4 {
        0 => svb::decode_with(isa, bytes, out),
        1 => svb::decode_delta_with(isa, bytes, out, prev),
        2 => svb::decode_0124_with(isa, bytes, out),
        _ => svb::decode_delta_0124_with(isa, bytes, out, prev),
    }
}

fuzz_target!(|input: Input| {
    let n = input.count as usize;
    let mut want = vec![0u32; n];
    let want_res = decode(input.variant, Isa::Scalar, &input.bytes, &mut want, input.prev);
    for &isa in Isa::available() {
        let mut got = vec![0u32; n];
        let res = decode(input.variant, isa, &input.bytes, &mut got, input.prev);
        assert_eq!(res, want_res, "{isa}");
        if res.is_ok() {
            assert_eq!(got, want, "{isa}");
        }
    }
    let valid = if input.variant % 4 < 2 {
        svb::validate(&input.bytes, n)
    } else {
        svb::validate_0124(&input.bytes, n)
    };
    if valid {
        assert_eq!(want_res, Ok(input.bytes.len()));
    }
    let _ = svb::decode_to_vec(&input.bytes, n);
});
