//! Arbitrary bytes as an LZ4 block through every available decoding variant:
//! each must return what the checked decoder returns (the same length and
//! bytes, or the same error), whatever the output buffer held before, and
//! `validate` must agree. None may panic or read out of bounds.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use vecpress::lz4::block::{self, Variant};

#[derive(Arbitrary, Debug)]
struct Input {
    out_len: u16,
    prefix_len: u8,
    bytes: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let n = input.out_len as usize;
    let mut want = vec![0x11u8; n];
    let want_res = block::decompress_into_variant(Variant::Checked, &input.bytes, &mut want);
    for v in block::variants() {
        for fill in [0x00u8, 0xEE] {
            let mut got = vec![fill; n];
            let res = block::decompress_into_variant(v, &input.bytes, &mut got);
            assert_eq!(res, want_res, "{v}");
            if let Ok(k) = res {
                assert_eq!(got[..k], want[..k], "{v} fill {fill:#x}");
            }
        }
    }
    match block::validate(&input.bytes) {
        Ok(size) if size <= n => assert_eq!(want_res, Ok(size)),
        Ok(_) => assert!(want_res.is_err()),
        Err(e) => assert!(want_res.is_err() || want_res == Err(e)),
    }
    // With history before the output: the prefix and the dictionary forms
    // decode alike.
    let p = input.prefix_len as usize;
    let history: Vec<u8> = (0..p as u8).collect();
    let mut buf = history.clone();
    buf.resize(p + n, 0xEE);
    let with_prefix = block::decompress_with_prefix(&input.bytes, &mut buf, p);
    let mut out = vec![0x00u8; n];
    let with_dict = block::decompress_with_dict(&input.bytes, &history, &mut out);
    assert_eq!(with_prefix, with_dict);
    if let Ok(k) = with_dict {
        assert_eq!(buf[p..p + k], out[..k]);
    }
    let _ = block::decompress_size_prepended_with_limit(&input.bytes, 1 << 20);
});
