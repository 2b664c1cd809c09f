//! Arbitrary bytes and count through every available VByte kernel: each must
//! return what the scalar reference returns (the same values and length, or
//! the same error), and none may panic or read out of bounds. The `_to_vec`,
//! u64, select and search entries must agree or fail cleanly.
//!
//! Input: two bytes for the count (little endian: with the top bit clear it
//! is taken modulo the stream length plus one, so that it fits the stream;
//! with the top bit set the low 15 bits are used as they are), four for the
//! previous value of the delta forms, then the stream as it is.
#![no_main]

mod common;

use common::{agree, same_to_vec, Input};
use libfuzzer_sys::fuzz_target;
use vecpress::vbyte;

fuzz_target!(|data: &[u8]| {
    let Some(input) = Input::<4>::parse(data, 1) else {
        return;
    };
    let (n, bytes) = (input.n, input.bytes);
    let prev = u32::from_le_bytes(input.prev);

    let (want, want_res) = agree(n, "", |isa, out| vbyte::decode_with(isa, bytes, out));
    let (want_d, want_d_res) = agree(n, "delta", |isa, out| {
        vbyte::decode_delta_with(isa, bytes, out, prev)
    });
    assert_eq!(want_res, want_d_res, "plain and delta consume alike");
    same_to_vec(vbyte::decode_to_vec(bytes, n), &want, &want_res, "to_vec");
    same_to_vec(
        vbyte::decode_delta_to_vec(bytes, n, prev),
        &want_d,
        &want_d_res,
        "delta to_vec",
    );
    let mut out64 = vec![0u64; n];
    let res64 = vbyte::decode_u64(bytes, &mut out64);
    if let Ok(used) = want_res {
        // A valid 32-bit stream is a valid 64-bit one with the same values.
        assert_eq!(res64, Ok(used));
        assert!(out64.iter().zip(&want).all(|(&a, &b)| a == u64::from(b)));
    }
    let _ = vbyte::decode_u64_to_vec(bytes, n);
    if n > 0 {
        let i = usize::from(input.prev[0]) % n;
        let sel = vbyte::select_delta(bytes, n, i, prev);
        if want_d_res.is_ok() {
            assert_eq!(sel, Ok(want_d[i]));
        }
    }
    let _ = vbyte::search_delta(bytes, n, prev.wrapping_add(u32::from(input.prev[1])), prev);
});
