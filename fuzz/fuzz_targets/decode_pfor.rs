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

use libfuzzer_sys::fuzz_target;
use vecpress::bitpack::pfor;
use vecpress::Isa;

fn count(c: [u8; 2], len: usize) -> usize {
    let c = u16::from_le_bytes(c);
    if c & 0x8000 != 0 {
        usize::from(c & 0x7fff)
    } else {
        usize::from(c) % (128 * len + 1)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((head, bytes)) = data.split_first_chunk::<6>() else {
        return;
    };
    let n = count([head[0], head[1]], bytes.len());
    let prev = u32::from_le_bytes([head[2], head[3], head[4], head[5]]);

    let mut want = vec![0u32; n];
    let want_res = pfor::decode_with(Isa::Scalar, bytes, &mut want);
    let mut want_d = vec![0u32; n];
    let want_d_res = pfor::decode_delta_with(Isa::Scalar, bytes, &mut want_d, prev);
    assert_eq!(want_res, want_d_res, "plain and delta consume alike");
    for &isa in Isa::available() {
        let mut got = vec![0u32; n];
        let res = pfor::decode_with(isa, bytes, &mut got);
        assert_eq!(res, want_res, "{isa}");
        if res.is_ok() {
            assert_eq!(got, want, "{isa}");
        }
        let res = pfor::decode_delta_with(isa, bytes, &mut got, prev);
        assert_eq!(res, want_d_res, "{isa} delta");
        if res.is_ok() {
            assert_eq!(got, want_d, "{isa} delta");
        }
    }
    match pfor::decode_to_vec(bytes, n) {
        Ok(v) => assert_eq!(v, &want[..]),
        Err(_) => assert!(want_res.is_err()),
    }

    // The first block alone, and its values read in place.
    let mut block = [0u32; 128];
    let block_res = pfor::decode_block_with(Isa::Scalar, bytes, &mut block);
    for &isa in Isa::available() {
        let mut got = [0u32; 128];
        assert_eq!(pfor::decode_block_with(isa, bytes, &mut got), block_res);
        if block_res.is_ok() {
            assert_eq!(got, block);
        }
    }
    if block_res.is_ok() {
        let i = usize::from(head[2]) % 128;
        assert_eq!(pfor::select_block(bytes, i), Ok(block[i]));
        let sum = block[..=i].iter().fold(prev, |a, &g| a.wrapping_add(g));
        assert_eq!(pfor::select_block_delta(prev, bytes, i), Ok(sum));
    }

    // Search agrees with a scan where the stream decodes to sorted values.
    let key = prev.wrapping_add(u32::from_le_bytes([head[3], head[4], head[5], head[0]]) >> 8);
    let found = pfor::search_delta(bytes, n, key, prev);
    if want_d_res.is_ok() && want_d.windows(2).all(|w| w[0] <= w[1]) {
        let expected = want_d
            .iter()
            .position(|&v| v >= key)
            .map(|i| (i, want_d[i]));
        assert_eq!(found, Ok(expected));
    }
});
