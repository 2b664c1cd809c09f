//! Arbitrary values -> Varint-GB and Varint-G8IU encode -> decode with every
//! kernel == values, plain and delta-coded.
//!
//! Input: one byte of options, four for the previous value of the delta
//! form, then the values as little-endian `u32`s (with option bit 0 set,
//! each value `v` becomes `v >> (v & 31)`, for a mix of lengths).
#![no_main]

mod common;

use common::values;
use libfuzzer_sys::fuzz_target;
use vecpress::group_varint::{g8iu, gb};
use vecpress::Isa;

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_first_chunk::<5>() else {
        return;
    };
    let values = values(head[0], rest);
    let prev = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    let n = values.len();
    let gb_bytes = gb::encode_to_vec(&values);
    let gb_gaps = gb::encode_delta_to_vec(&values, prev);
    let g8_bytes = g8iu::encode_to_vec(&values);
    let g8_gaps = g8iu::encode_delta_to_vec(&values, prev);
    assert!(gb_bytes.len() <= gb::max_encoded_len(n));
    assert!(g8_bytes.len() <= g8iu::max_encoded_len(n));
    for &isa in Isa::available() {
        let mut out = vec![0u32; n];
        assert_eq!(
            gb::decode_with(isa, &gb_bytes, &mut out),
            Ok(gb_bytes.len()),
            "{isa}"
        );
        assert_eq!(out, values, "gb {isa}");
        assert_eq!(
            gb::decode_delta_with(isa, &gb_gaps, &mut out, prev),
            Ok(gb_gaps.len())
        );
        assert_eq!(out, values, "gb {isa} delta");
        assert_eq!(
            g8iu::decode_with(isa, &g8_bytes, &mut out),
            Ok(g8_bytes.len()),
            "{isa}"
        );
        assert_eq!(out, values, "g8iu {isa}");
        assert_eq!(
            g8iu::decode_delta_with(isa, &g8_gaps, &mut out, prev),
            Ok(g8_gaps.len())
        );
        assert_eq!(out, values, "g8iu {isa} delta");
    }
    assert_eq!(gb::decode_to_vec(&gb_bytes, n), Ok(values.clone()));
    assert_eq!(g8iu::decode_delta_to_vec(&g8_gaps, n, prev), Ok(values));
});
