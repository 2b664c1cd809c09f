//! Arbitrary values -> encode -> decode with every kernel == values, in the
//! three u32 stream forms; and the first 1024 values (zero padded) packed
//! and unpacked as blocks of u8, u16, u32 and u64 at their own width and
//! one wider, plain and FoR.
//!
//! Input: one byte of options, four for the previous value of the delta
//! form, then the values as little-endian `u32`s (with option bit 0 set,
//! each value `v` becomes `v >> (v & 31)`, for a mix of widths).
#![no_main]

mod common;

use common::values;
use libfuzzer_sys::fuzz_target;
use vecpress::bitpack::fastlanes::{self as fl, Word};
use vecpress::Isa;

/// One block of `T` through every level, plain and FoR.
fn block<T: Word>(values: &[T]) {
    let width = fl::width(values).unwrap();
    let (reference, for_width) = fl::for_reference(values).unwrap();
    for w in [width, (width + 1).min(T::BITS as u8)] {
        for &isa in Isa::available() {
            let mut packed = vec![0u8; fl::packed_len(w)];
            assert_eq!(fl::pack_with(isa, values, w, &mut packed), Ok(packed.len()));
            let mut out = vec![T::ZERO; 1024];
            assert_eq!(fl::unpack_with(isa, &packed, w, &mut out), Ok(packed.len()));
            assert_eq!(out, values, "{isa} width {w}");
        }
    }
    for &isa in Isa::available() {
        let mut packed = vec![0u8; fl::packed_len(for_width)];
        fl::for_pack_with(isa, values, reference, for_width, &mut packed).unwrap();
        let mut out = vec![T::ZERO; 1024];
        fl::for_unpack_with(isa, &packed, reference, for_width, &mut out).unwrap();
        assert_eq!(out, values, "{isa} FoR");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_first_chunk::<5>() else {
        return;
    };
    let values = values(head[0], rest);
    let prev = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    let plain = fl::encode_to_vec(&values);
    let ofr = fl::encode_for_to_vec(&values);
    let gaps = fl::encode_delta_to_vec(&values, prev);
    for &isa in Isa::available() {
        let mut out = vec![0u32; values.len()];
        assert_eq!(
            fl::decode_with(isa, &plain, &mut out),
            Ok(plain.len()),
            "{isa}"
        );
        assert_eq!(out, values, "{isa}");
        assert_eq!(
            fl::decode_for_with(isa, &ofr, &mut out),
            Ok(ofr.len()),
            "{isa} FoR"
        );
        assert_eq!(out, values, "{isa} FoR");
        assert_eq!(
            fl::decode_delta_with(isa, &gaps, &mut out, prev),
            Ok(gaps.len()),
            "{isa} delta"
        );
        assert_eq!(out, values, "{isa} delta");
    }
    let mut first = values.clone();
    first.resize(1024, 0);
    block::<u32>(&first);
    block::<u8>(&first.iter().map(|&v| v as u8).collect::<Vec<_>>());
    block::<u16>(&first.iter().map(|&v| v as u16).collect::<Vec<_>>());
    block::<u64>(
        &first
            .iter()
            .map(|&v| u64::from(v) << (v & 31) | u64::from(v))
            .collect::<Vec<_>>(),
    );
});
