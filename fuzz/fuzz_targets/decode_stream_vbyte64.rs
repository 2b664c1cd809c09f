//! Arbitrary bytes and count through every available 64-bit Stream VByte
//! kernel: each must return what the scalar reference returns (the same
//! values and length, or the same error), and none may panic or read out of
//! bounds.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use vecpress::{stream_vbyte::u64 as sv64, Isa};

#[derive(Arbitrary, Debug)]
struct Input {
    count: u16,
    prev: u64,
    bytes: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let n = input.count as usize;
    let mut want = vec![0u64; n];
    let want_res = sv64::decode_with(Isa::Scalar, &input.bytes, &mut want);
    let mut want_d = vec![0u64; n];
    let want_d_res = sv64::decode_delta_with(Isa::Scalar, &input.bytes, &mut want_d, input.prev);
    for &isa in Isa::available() {
        let mut got = vec![0u64; n];
        let res = sv64::decode_with(isa, &input.bytes, &mut got);
        assert_eq!(res, want_res, "{isa}");
        if res.is_ok() {
            assert_eq!(got, want, "{isa}");
        }
        let mut got = vec![0u64; n];
        let res = sv64::decode_delta_with(isa, &input.bytes, &mut got, input.prev);
        assert_eq!(res, want_d_res, "{isa} delta");
        if res.is_ok() {
            assert_eq!(got, want_d, "{isa} delta");
        }
    }
    let _ = sv64::decode_to_vec(&input.bytes, n);
});
