//! Arbitrary bytes, width and output size through every available byte
//! stream split decoder: each must return what the scalar reference returns
//! (the same values, or the same error) and none may panic or write outside
//! its output. The typed and separate-stream entries must agree too, and the
//! byte split + LZ4 decoder must agree across its kernels.
//!
//! Input: one byte for the width (its low six bits; with bit 6 clear the
//! stream is cut to a whole number of rows), two for the output length
//! (little endian: with the top bit clear, the stream length plus the low
//! four bits; with it set, the low 15 bits as they are), then the stream.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::{byte_split, Isa};

fuzz_target!(|data: &[u8]| {
    let Some((head, mut bytes)) = data.split_first_chunk::<3>() else {
        return;
    };
    let width = usize::from(head[0] & 0x3f);
    if head[0] & 0x40 == 0 && width > 0 {
        bytes = &bytes[..bytes.len() / width * width];
    }
    let c = u16::from_le_bytes([head[1], head[2]]);
    let out_len = if c & 0x8000 != 0 {
        usize::from(c & 0x7fff)
    } else {
        bytes.len() + usize::from(c & 0xf)
    };

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
        assert_eq!(
            byte_split::decode_streams(&streams, width, &mut joined),
            Ok(n)
        );
        assert_eq!(joined, &want[..len]);
        assert_eq!(
            byte_split::decode_to_vec(bytes, width).unwrap(),
            &want[..len]
        );
    }
    let mut f32s = vec![0f32; out_len / 4];
    if let Ok(n) = byte_split::decode_f32(bytes, &mut f32s) {
        let back: Vec<u8> = f32s[..n].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(back, byte_split::decode_to_vec(bytes, 4).unwrap());
    }
    let mut f64s = vec![0f64; out_len / 8];
    let _ = byte_split::decode_f64(bytes, &mut f64s);

    // The stream read as one LZ4 block of split bytes, into an output of
    // `out_len` bytes.
    let mut want = vec![0u8; out_len];
    let want_res = byte_split::decompress_lz4_with(Isa::Scalar, bytes, width, &mut want);
    for &isa in Isa::available() {
        let mut got = vec![0u8; out_len];
        let res = byte_split::decompress_lz4_with(isa, bytes, width, &mut got);
        assert_eq!(res, want_res, "{isa} lz4");
        if res.is_ok() {
            assert_eq!(got, want, "{isa} lz4");
        }
    }
});
