//! Arbitrary values -> encode with every kernel (the same bytes) -> decode
//! with every kernel == values, for both formats, plain and delta.
//!
//! Input: one byte of options, four for the previous value of the delta
//! forms, then the values as little-endian `u32`s (with option bit 0 set,
//! each value `v` becomes `v >> (v & 31)`, for a mix of lengths).
#![no_main]

mod common;

use common::values;
use libfuzzer_sys::fuzz_target;
use vecpress::{stream_vbyte as svb, Isa};

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_first_chunk::<5>() else {
        return;
    };
    let values = values(head[0], rest);
    let prev = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    let bytes = svb::encode_to_vec(&values);
    assert!(svb::validate(&bytes, values.len()));
    let gaps = svb::encode_delta_to_vec(&values, prev);
    let zero = svb::encode_0124_to_vec(&values);
    assert!(svb::validate_0124(&zero, values.len()));
    let zero_gaps = svb::encode_delta_0124_to_vec(&values, prev);
    let mut enc = vec![0u8; svb::max_encoded_len(values.len())];
    for &isa in Isa::available() {
        assert_eq!(
            svb::encode_with(isa, &values, &mut enc),
            Ok(bytes.len()),
            "{isa}"
        );
        assert_eq!(&enc[..bytes.len()], &bytes[..], "{isa}");
        let mut out = vec![0u32; values.len()];
        assert_eq!(
            svb::decode_with(isa, &bytes, &mut out),
            Ok(bytes.len()),
            "{isa}"
        );
        assert_eq!(out, values, "{isa}");
        assert_eq!(
            svb::decode_delta_with(isa, &gaps, &mut out, prev),
            Ok(gaps.len()),
            "{isa}"
        );
        assert_eq!(out, values, "{isa} delta");
        assert_eq!(
            svb::decode_0124_with(isa, &zero, &mut out),
            Ok(zero.len()),
            "{isa}"
        );
        assert_eq!(out, values, "{isa} 0124");
        let used = svb::decode_delta_0124_with(isa, &zero_gaps, &mut out, prev);
        assert_eq!(used, Ok(zero_gaps.len()), "{isa}");
        assert_eq!(out, values, "{isa} 0124 delta");
    }
    assert_eq!(svb::decode_to_vec(&bytes, values.len()), Ok(values.clone()));
    assert_eq!(
        svb::decode_delta_0124_to_vec(&zero_gaps, values.len(), prev),
        Ok(values)
    );
});
