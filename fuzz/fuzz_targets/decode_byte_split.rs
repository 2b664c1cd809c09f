//! Arbitrary bytes, width and output size through every available byte
//! stream split decoder: each must return what the scalar reference returns
//! (the same values, or the same error) and none may panic or write outside
//! its output. The typed and separate-stream entries must agree too.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use vecpress::{byte_split, Isa};

#[derive(Arbitrary, Debug)]
struct Input {
    width: u8,
    out_len: u16,
    bytes: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let width = input.width as usize;
    let bytes = &input.bytes;
    let out_len = input.out_len as usize;
    let mut want = vec![0u8; out_len];
    let want_res = byte_split::decode_with(Isa::Scalar, bytes, width, &mut want);
    for &isa in Isa::available() {
        let mut got = vec![0u8; out_len];
        let res = byte_split::decode_with(isa, bytes, width, &mut got);
        assert_eq!(res, want_res, "{isa}");
        assert_eq!(got, want, "{isa}");
    }
    if let Ok(len) = want_res {
        let n = len / width;
        let streams: Vec<&[u8]> = (0..width).map(|j| &bytes[j * n..(j + 1) * n]).collect();
        let mut joined = vec![0u8; len];
        assert_eq!(byte_split::decode_streams(&streams, width, &mut joined), Ok(n));
        assert_eq!(joined, &want[..len]);
    }
    let mut f32s = vec![0f32; out_len / 4];
    if let Ok(n) = byte_split::decode_f32(bytes, &mut f32s) {
        let back: Vec<u8> = f32s[..n].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(back, byte_split::decode_to_vec(bytes, 4).unwrap());
    }
    let mut f64s = vec![0f64; out_len / 8];
    let _ = byte_split::decode_f64(bytes, &mut f64s);
});
