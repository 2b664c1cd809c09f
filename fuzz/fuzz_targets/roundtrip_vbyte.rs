//! Arbitrary values -> encode -> decode with every kernel == values, plain
//! and delta-coded.
//!
//! Input: one byte of options, four for the previous value of the delta
//! form, then the values as little-endian `u32`s (with option bit 0 set,
//! each value `v` becomes `v >> (v & 31)`, for a mix of lengths).
#![no_main]

mod common;

use common::values;
use libfuzzer_sys::fuzz_target;
use vecpress::{vbyte, Isa};

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_first_chunk::<5>() else {
        return;
    };
    let values = values(head[0], rest);
    let prev = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    let bytes = vbyte::encode_to_vec(&values);
    let gaps = vbyte::encode_delta_to_vec(&values, prev);
    for &isa in Isa::available() {
        let mut out = vec![0u32; values.len()];
        assert_eq!(
            vbyte::decode_with(isa, &bytes, &mut out),
            Ok(bytes.len()),
            "{isa}"
        );
        assert_eq!(out, values, "{isa}");
        assert_eq!(
            vbyte::decode_delta_with(isa, &gaps, &mut out, prev),
            Ok(gaps.len()),
            "{isa}"
        );
        assert_eq!(out, values, "{isa} delta");
    }
    assert_eq!(
        vbyte::decode_to_vec(&bytes, values.len()),
        Ok(values.clone())
    );
    assert_eq!(
        vbyte::decode_delta_to_vec(&gaps, values.len(), prev),
        Ok(values)
    );
});
