//! Arbitrary values -> PFOR encode -> decode with every kernel == values,
//! plain and delta-coded, never larger than bp128's stream; each whole
//! block's values read back in place by select.
//!
//! Input: one byte of options, four for the previous value of the delta
//! form, then the values as little-endian `u32`s (with option bit 0 set,
//! each value `v` becomes `v >> (v & 31)`, for a mix of widths and
//! exceptions; with bit 1 set, the values are sorted).
#![no_main]

mod common;

use common::values;
use libfuzzer_sys::fuzz_target;
use vecpress::bitpack::{bp128, pfor};
use vecpress::Isa;

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_first_chunk::<5>() else {
        return;
    };
    let mut values = values(head[0], rest);
    if head[0] & 2 != 0 {
        values.sort_unstable();
    }
    let prev = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    let bytes = pfor::encode_to_vec(&values);
    let gaps = pfor::encode_delta_to_vec(&values, prev);
    assert!(bytes.len() <= bp128::encode_to_vec(&values).len());
    assert!(gaps.len() <= bp128::encode_delta_to_vec(&values, prev).len());
    for &isa in Isa::available() {
        let mut out = vec![0u32; values.len()];
        assert_eq!(
            pfor::decode_with(isa, &bytes, &mut out),
            Ok(bytes.len()),
            "{isa}"
        );
        assert_eq!(out, values, "{isa}");
        assert_eq!(
            pfor::decode_delta_with(isa, &gaps, &mut out, prev),
            Ok(gaps.len()),
            "{isa}"
        );
        assert_eq!(out, values, "{isa} delta");
    }
    if let Some(first) = values.first_chunk::<128>() {
        let mut block = [0u8; pfor::MAX_BLOCK_BYTES];
        let len = pfor::encode_block(first, &mut block).expect("a block");
        assert_eq!(block[..len], bytes[..len]);
        for (i, &v) in first.iter().enumerate() {
            assert_eq!(pfor::select_block(&block[..len], i), Ok(v));
            assert_eq!(pfor::select_block_delta(prev, &gaps, i), Ok(v));
        }
    }
});
