//! Arbitrary values -> encode -> decode with every kernel == values.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::{vbyte, Isa};

fuzz_target!(|input: (Vec<u32>, u32)| {
    let (values, prev) = input;
    let bytes = vbyte::encode_to_vec(&values);
    let gaps = vbyte::encode_delta_to_vec(&values, prev);
    for &isa in Isa::available() {
        let mut out = vec![0u32; values.len()];
        assert_eq!(vbyte::decode_with(isa, &bytes, &mut out), Ok(bytes.len()), "{isa}");
        assert_eq!(out, values, "{isa}");
        assert_eq!(vbyte::decode_delta_with(isa, &gaps, &mut out, prev), Ok(gaps.len()), "{isa}");
        assert_eq!(out, values, "{isa} delta");
    }
});
