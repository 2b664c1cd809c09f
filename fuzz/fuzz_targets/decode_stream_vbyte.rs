//! Arbitrary bytes and count through every available Stream VByte kernel, in
//! the variant an input byte chooses (standard, delta, 0124, 0124 delta):
//! each must return what the scalar reference returns (the same values and
//! length, or the same error), and none may panic or read out of bounds.
//! `validate` and the `_to_vec` entries must agree. Delta streams are also
//! decoded as lists by one call (`decode_delta_lists`: the stream, then its
//! first half again, both from 0), which must give what decoding each alone
//! gives.
//!
//! Input: one byte for the variant, two for the count (little endian: with
//! the top bit clear it is taken modulo the stream length plus one, so that
//! it fits the stream; with the top bit set the low 15 bits are used as they
//! are), four for the previous value of the delta forms, then the stream.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::{stream_vbyte as svb, Error, Isa};

fn count(c: [u8; 2], len: usize) -> usize {
    let c = u16::from_le_bytes(c);
    if c & 0x8000 != 0 {
        usize::from(c & 0x7fff)
    } else {
        usize::from(c) % (len + 1)
    }
}

fn decode(variant: u8, isa: Isa, bytes: &[u8], out: &mut [u32], prev: u32) -> Result<usize, Error> {
    match variant % 4 {
        0 => svb::decode_with(isa, bytes, out),
        1 => svb::decode_delta_with(isa, bytes, out, prev),
        2 => svb::decode_0124_with(isa, bytes, out),
        _ => svb::decode_delta_0124_with(isa, bytes, out, prev),
    }
}

fn decode_to_vec(variant: u8, bytes: &[u8], n: usize, prev: u32) -> Result<Vec<u32>, Error> {
    match variant % 4 {
        0 => svb::decode_to_vec(bytes, n),
        1 => svb::decode_delta_to_vec(bytes, n, prev),
        2 => svb::decode_0124_to_vec(bytes, n),
        _ => svb::decode_delta_0124_to_vec(bytes, n, prev),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((head, bytes)) = data.split_first_chunk::<7>() else {
        return;
    };
    let variant = head[0];
    let n = count([head[1], head[2]], bytes.len());
    let prev = u32::from_le_bytes([head[3], head[4], head[5], head[6]]);

    let mut want = vec![0u32; n];
    let want_res = decode(variant, Isa::Scalar, bytes, &mut want, prev);
    for &isa in Isa::available() {
        let mut got = vec![0u32; n];
        let res = decode(variant, isa, bytes, &mut got, prev);
        assert_eq!(res, want_res, "{isa}");
        if res.is_ok() {
            assert_eq!(got, want, "{isa}");
        }
    }
    let valid = if variant % 4 < 2 {
        svb::validate(bytes, n)
    } else {
        svb::validate_0124(bytes, n)
    };
    if valid {
        assert_eq!(want_res, Ok(bytes.len()));
    }
    match decode_to_vec(variant, bytes, n, prev) {
        Ok(v) => assert_eq!(v, want),
        Err(_) => assert!(want_res.is_err()),
    }
    if variant % 4 == 1 {
        let lists = [(0, n), (0, n / 2)];
        let mut alone = vec![0u32; n + n / 2];
        let (whole, half) = alone.split_at_mut(n);
        let alone_res = svb::decode_delta_with(Isa::Scalar, bytes, whole, 0)
            .and_then(|_| svb::decode_delta_with(Isa::Scalar, bytes, half, 0));
        for &isa in Isa::available() {
            let mut got = vec![0u32; n + n / 2];
            let res = svb::decode_delta_lists_with(isa, bytes, &lists, &mut got);
            match &alone_res {
                Ok(_) => {
                    assert_eq!(res, Ok(n + n / 2), "lists, {isa}");
                    assert_eq!(got, alone, "lists, {isa}");
                }
                Err(e) => assert_eq!(res.as_ref(), Err(e), "lists, {isa}"),
            }
        }
    }
});
