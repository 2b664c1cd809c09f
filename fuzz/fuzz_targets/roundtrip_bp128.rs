//! Arbitrary values -> SIMD-BP128 encode -> decode with every kernel ==
//! values, plain and delta-coded, as a stream and as single blocks of both
//! lane counts at every width that holds them.
//!
//! Input: one byte of options, four for the previous value of the delta
//! form, then the values as little-endian `u32`s (with option bit 0 set,
//! each value `v` becomes `v >> (v & 31)`, for a mix of widths).
#![no_main]

mod common;

use common::values;
use libfuzzer_sys::fuzz_target;
use vecpress::bitpack::bp128::{self, Lanes};
use vecpress::Isa;

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_first_chunk::<5>() else {
        return;
    };
    let values = values(head[0], rest);
    let prev = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    let n = values.len();
    let plain = bp128::encode_to_vec(&values);
    let gaps = bp128::encode_delta_to_vec(&values, prev);
    assert!(plain.len() <= bp128::max_encoded_len(n));
    assert!(gaps.len() <= bp128::max_encoded_len(n));
    for &isa in Isa::available() {
        let mut out = vec![0u32; n];
        assert_eq!(bp128::decode_with(isa, &plain, &mut out), Ok(plain.len()));
        assert_eq!(out, values, "{isa}");
        assert_eq!(
            bp128::decode_delta_with(isa, &gaps, &mut out, prev),
            Ok(gaps.len())
        );
        assert_eq!(out, values, "{isa} delta");
    }
    assert_eq!(
        bp128::decode_delta_to_vec(&gaps, n, prev),
        Ok(values.clone())
    );

    // The first whole block of each lane count, at the least width and at 32.
    for lanes in [Lanes::X4, Lanes::X8] {
        let Some(block) = values.get(..lanes.block_len()) else {
            continue;
        };
        let least = bp128::width(lanes, block).unwrap();
        for width in [least, 32] {
            let mut packed = vec![0u8; lanes.packed_len(width)];
            for &isa in Isa::available() {
                let len = bp128::pack_with(isa, lanes, block, width, &mut packed).unwrap();
                let mut out = vec![0u32; lanes.block_len()];
                assert_eq!(
                    bp128::unpack_with(isa, lanes, &packed, width, &mut out),
                    Ok(len)
                );
                assert_eq!(out, block, "{isa} {lanes:?} width {width}");
            }
        }
        let least = bp128::width_sorted(lanes, prev, block).unwrap();
        let mut packed = vec![0u8; lanes.packed_len(least)];
        for &isa in Isa::available() {
            let len = bp128::pack_sorted_with(isa, lanes, prev, block, least, &mut packed).unwrap();
            let mut out = vec![0u32; lanes.block_len()];
            assert_eq!(
                bp128::unpack_sorted_with(isa, lanes, prev, &packed, least, &mut out),
                Ok(len)
            );
            assert_eq!(out, block, "{isa} {lanes:?} sorted");
        }
    }
});
