//! Arbitrary bytes and width through every available byte stream split
//! kernel: encoding and decoding must each return what the scalar reference
//! returns (the same bytes, or the same error), decoding must invert
//! encoding, and a range decode must give the same rows. No kernel may panic
//! or touch bytes outside the slices it is given. The byte split + LZ4 form
//! must round-trip through every kernel too.
//!
//! Input: one byte for the width (modulo 40; with bit 7 clear the data is
//! cut to a whole number of rows), two for the first row and two for the
//! number of rows of the range decode, then the data as it is.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::{byte_split, Isa};

fuzz_target!(|data: &[u8]| {
    let Some((head, mut bytes)) = data.split_first_chunk::<5>() else {
        return;
    };
    let width = usize::from(head[0] & 0x7f) % 40;
    if head[0] & 0x80 == 0 && width > 0 {
        bytes = &bytes[..bytes.len() / width * width];
    }
    let start = usize::from(u16::from_le_bytes([head[1], head[2]]));
    let count = usize::from(u16::from_le_bytes([head[3], head[4]]));

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
            let rows = bytes.len() / width;
            // Mostly ranges inside the page, sometimes beyond it.
            let (start, count) = if rows > 0 && start & 0x8000 == 0 {
                let s = start % rows;
                (s, count % (rows - s + 1))
            } else {
                (start, count)
            };
            let mut part = vec![0u8; count * width];
            let res = byte_split::decode_range_with(isa, bytes, width, start, count, &mut part);
            if start + count <= rows {
                assert_eq!(res, Ok(count * width), "{isa} range");
                assert_eq!(&part[..], &want_d[start * width..(start + count) * width]);
            } else {
                assert!(res.is_err(), "{isa} range beyond the page");
            }
        }
    }
    if let Ok(packed) = byte_split::compress_lz4_to_vec(bytes, width) {
        for &isa in Isa::available() {
            let mut out = vec![0u8; bytes.len()];
            let res = byte_split::decompress_lz4_with(isa, &packed, width, &mut out);
            assert_eq!(res, Ok(bytes.len()), "{isa} lz4");
            assert_eq!(out, bytes, "{isa} lz4");
        }
    }
});
