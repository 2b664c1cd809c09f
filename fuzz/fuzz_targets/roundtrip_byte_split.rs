//! Arbitrary bytes and width through every available byte stream split
//! kernel: encoding and decoding must each return what the scalar reference
//! returns (the same bytes, or the same error), decoding must invert
//! encoding, and a range decode must give the same rows. No kernel may panic
//! or touch bytes outside the slices it is given.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use vecpress::{byte_split, Isa};

#[derive(Arbitrary, Debug)]
struct Input {
    width: u8,
    start: u16,
    count: u16,
    bytes: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let width = input.width as usize % 40;
    let bytes = &input.bytes;
    let mut want = vec![0u8; bytes.len()];
    let want_res = byte_split::encode_with(Isa::Scalar, bytes, width, &mut want);
    let mut want_d = vec![0u8; bytes.len()];
    let want_d_res = byte_split::decode_with(Isa::Scalar, bytes, width, &mut want_d);
    assert_eq!(want_res.is_ok(), want_d_res.is_ok());
    if want_res.is_ok() {
        let mut back = vec![0u8; bytes.len()];
        byte_split::decode_with(Isa::Scalar, &want, width, &mut back).unwrap();
        assert_eq!(&back, bytes, "scalar round trip");
    }
    for &isa in Isa::available() {
        // One spare byte after each output, which must stay untouched.
        let mut got = vec![0xa5u8; bytes.len() + 1];
        let res = byte_split::encode_with(isa, bytes, width, &mut got);
        assert_eq!(res, want_res, "{isa} encode");
        if res.is_ok() {
            assert_eq!(&got[..bytes.len()], &want[..], "{isa} encode");
        }
        assert_eq!(got[bytes.len()], 0xa5, "{isa} encode wrote past the end");
        let mut got = vec![0xa5u8; bytes.len() + 1];
        let res = byte_split::decode_with(isa, bytes, width, &mut got);
        assert_eq!(res, want_d_res, "{isa} decode");
        if res.is_ok() {
            assert_eq!(&got[..bytes.len()], &want_d[..], "{isa} decode");
        }
        assert_eq!(got[bytes.len()], 0xa5, "{isa} decode wrote past the end");
        if want_d_res.is_ok() {
            let (start, count) = (input.start as usize, input.count as usize);
            let mut part = vec![0u8; count * width];
            let res = byte_split::decode_range_with(isa, bytes, width, start, count, &mut part);
            let rows = bytes.len() / width;
            if start + count <= rows {
                assert_eq!(res, Ok(count * width), "{isa} range");
                assert_eq!(&part[..], &want_d[start * width..(start + count) * width]);
            } else {
                assert!(res.is_err(), "{isa} range beyond the page");
            }
        }
    }
});
