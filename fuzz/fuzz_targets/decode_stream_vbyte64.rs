//! Arbitrary bytes and count through every available 64-bit Stream VByte
//! kernel: each must return what the scalar reference returns (the same
//! values and length, or the same error), and none may panic or read out of
//! bounds. The `_to_vec` entries must agree.
//!
//! Input: two bytes for the count (little endian: with the top bit clear it
//! is taken modulo the stream length plus one, so that it fits the stream;
//! with the top bit set the low 15 bits are used as they are), eight for the
//! previous value of the delta form, then the stream as it is.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::{stream_vbyte::u64 as sv64, Isa};

fn count(c: [u8; 2], len: usize) -> usize {
    let c = u16::from_le_bytes(c);
    if c & 0x8000 != 0 {
        usize::from(c & 0x7fff)
    } else {
        usize::from(c) % (len + 1)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((head, bytes)) = data.split_first_chunk::<10>() else {
        return;
    };
    let n = count([head[0], head[1]], bytes.len());
    let mut p = [0u8; 8];
    p.copy_from_slice(&head[2..]);
    let prev = u64::from_le_bytes(p);

    let mut want = vec![0u64; n];
    let want_res = sv64::decode_with(Isa::Scalar, bytes, &mut want);
    let mut want_d = vec![0u64; n];
    let want_d_res = sv64::decode_delta_with(Isa::Scalar, bytes, &mut want_d, prev);
    for &isa in Isa::available() {
        let mut got = vec![0u64; n];
        let res = sv64::decode_with(isa, bytes, &mut got);
        assert_eq!(res, want_res, "{isa}");
        if res.is_ok() {
            assert_eq!(got, want, "{isa}");
        }
        let mut got = vec![0u64; n];
        let res = sv64::decode_delta_with(isa, bytes, &mut got, prev);
        assert_eq!(res, want_d_res, "{isa} delta");
        if res.is_ok() {
            assert_eq!(got, want_d, "{isa} delta");
        }
    }
    match sv64::decode_to_vec(bytes, n) {
        Ok(v) => assert_eq!(v, want),
        Err(_) => assert!(want_res.is_err()),
    }
    match sv64::decode_delta_to_vec(bytes, n, prev) {
        Ok(v) => assert_eq!(v, want_d),
        Err(_) => assert!(want_d_res.is_err()),
    }
    let _ = sv64::decode_i64_to_vec(bytes, n);
    let _ = sv64::decode_zigzag_delta_to_vec(bytes, n, prev as i64);
});
