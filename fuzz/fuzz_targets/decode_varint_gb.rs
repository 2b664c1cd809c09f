//! Arbitrary bytes and count through every available Varint-GB kernel: each
//! must return what the scalar reference returns (the same values and
//! length, or the same error), and none may panic or read out of bounds.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use vecpress::group_varint::gb;
use vecpress::Isa;

#[derive(Arbitrary, Debug)]
struct Input {
    count: u16,
    prev: u32,
    bytes: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let n = input.count as usize;
    let mut want = vec![0u32; n];
    let want_res = gb::decode_with(Isa::Scalar, &input.bytes, &mut want);
    let mut want_d = vec![0u32; n];
    let want_d_res = gb::decode_delta_with(Isa::Scalar, &input.bytes, &mut want_d, input.prev);
    assert_eq!(want_res, want_d_res, "plain and delta consume alike");
    for &isa in Isa::available() {
        let mut got = vec![0u32; n];
        let res = gb::decode_with(isa, &input.bytes, &mut got);
        assert_eq!(res, want_res, "{isa}");
        if res.is_ok() {
            assert_eq!(got, want, "{isa}");
        }
        let mut got = vec![0u32; n];
        let res = gb::decode_delta_with(isa, &input.bytes, &mut got, input.prev);
        assert_eq!(res, want_d_res, "{isa} delta");
        if res.is_ok() {
            assert_eq!(got, want_d, "{isa} delta");
        }
    }
    let _ = gb::decode_to_vec(&input.bytes, n);
});
