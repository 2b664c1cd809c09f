//! Arbitrary bytes and count through every available PFOR kernel: each must
//! return what the scalar level returns (the same values and length, or the
//! same error), and none may panic or read out of bounds. The block entries,
//! select and search must agree with decoding where it succeeds.
//!
//! Input: two bytes for the count (little endian: with the top bit clear it
//! is taken modulo 128 times the stream length plus one, so that it fits
//! the stream; with the top bit set the low 15 bits are used as they are),
//! four for the previous value of the delta forms, then the stream as it is.
#![no_main]

mod common;

use common::{agree, same_to_vec, Input};
use libfuzzer_sys::fuzz_target;
use vecpress::bitpack::pfor;

fuzz_target!(|data: &[u8]| {
    let Some(input) = Input::<4>::parse(data, 128) else {
        return;
    };
    let (n, bytes) = (input.n, input.bytes);
    let prev = u32::from_le_bytes(input.prev);

    let (want, want_res) = agree(n, "", |isa, out| pfor::decode_with(isa, bytes, out));
    let (want_d, want_d_res) = agree(n, "delta", |isa, out| {
        pfor::decode_delta_with(isa, bytes, out, prev)
    });
    assert_eq!(want_res, want_d_res, "plain and delta consume alike");
    same_to_vec(pfor::decode_to_vec(bytes, n), &want, &want_res, "to_vec");

    // The first block alone, and its values read in place.
    let (block, block_res) = agree(128, "block", |isa, out| {
        pfor::decode_block_with(isa, bytes, out)
    });
    if block_res.is_ok() {
        let i = usize::from(input.prev[0]) % 128;
        assert_eq!(pfor::select_block(bytes, i), Ok(block[i]));
        let sum = block[..=i].iter().fold(prev, |a, &g| a.wrapping_add(g));
        assert_eq!(pfor::select_block_delta(prev, bytes, i), Ok(sum));
    }

    // Search agrees with a scan where the stream decodes to sorted values.
    let key = prev.wrapping_add(
        u32::from_le_bytes([input.prev[1], input.prev[2], input.prev[3], input.head[0]]) >> 8,
    );
    let found = pfor::search_delta(bytes, n, key, prev);
    if want_d_res.is_ok() && want_d.windows(2).all(|w| w[0] <= w[1]) {
        let expected = want_d
            .iter()
            .position(|&v| v >= key)
            .map(|i| (i, want_d[i]));
        assert_eq!(found, Ok(expected));
    }
});
