//! Arbitrary bytes as an LZ4 block through every available decoding variant
//! and kernel: each must return what the checked decoder returns (the same
//! length and bytes, or the same error), whatever the output buffer held
//! before, and `validate` must agree. None may panic or read out of bounds.
//! The prefix and dictionary forms must agree with each other. Decoded as
//! either block of a pair (beside the same block cut short at half its
//! length, into half the output), each gives what it gives alone.
//!
//! Input: two bytes for the output length (little endian: with the top bit
//! clear, the size `validate` finds, less the low two bits, or the low 15
//! bits when the block is invalid; with the top bit set, the low 15 bits),
//! one for the length of the history, then the block as it is.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::lz4::block::{self, Variant};
use vecpress::Isa;

fuzz_target!(|data: &[u8]| {
    let Some((head, bytes)) = data.split_first_chunk::<3>() else {
        return;
    };
    let c = u16::from_le_bytes([head[0], head[1]]);
    let valid = block::validate(bytes);
    let n = match valid {
        Ok(size) if c & 0x8000 == 0 => size.min(1 << 20).saturating_sub(usize::from(c & 3)),
        _ => usize::from(c & 0x7fff),
    };

    let mut want = vec![0x11u8; n];
    let want_res = block::decompress_into_variant(Variant::Checked, bytes, &mut want);
    for v in block::variants() {
        for fill in [0x00u8, 0xEE] {
            let mut got = vec![fill; n];
            let res = block::decompress_into_variant(v, bytes, &mut got);
            assert_eq!(res, want_res, "{v}");
            if let Ok(k) = res {
                assert_eq!(got[..k], want[..k], "{v} fill {fill:#x}");
            }
        }
    }
    // Pairs: the block beside a copy of its first half (another block,
    // likely corrupt), into outputs of n and n / 2 bytes.
    let half = &bytes[..bytes.len() / 2];
    let mut want_half = vec![0x11u8; n / 2];
    let want_half_res = block::decompress_into_variant(Variant::Checked, half, &mut want_half);
    for v in block::variants() {
        let (mut got, mut got_half) = (vec![0xEEu8; n], vec![0xEEu8; n / 2]);
        let (res, res_half) =
            block::decompress_pair_variant(v, (bytes, &mut got), (half, &mut got_half));
        assert_eq!(res, want_res, "{v} pair");
        assert_eq!(res_half, want_half_res, "{v} pair, half");
        if let Ok(k) = res {
            assert_eq!(got[..k], want[..k], "{v} pair");
        }
        if let Ok(k) = res_half {
            assert_eq!(got_half[..k], want_half[..k], "{v} pair, half");
        }
    }
    for isa in block::kernels()
        .into_iter()
        .chain(Isa::available().iter().copied())
    {
        let mut got = vec![0xEEu8; n];
        let res = block::decompress_with(isa, bytes, &mut got);
        assert_eq!(res, want_res, "{isa}");
        if let Ok(k) = res {
            assert_eq!(got[..k], want[..k], "{isa}");
        }
    }
    match valid {
        Ok(size) if size <= n => assert_eq!(want_res, Ok(size)),
        Ok(_) => assert!(want_res.is_err()),
        Err(e) => assert!(want_res.is_err() || want_res == Err(e)),
    }
    // With history before the output: the prefix and the dictionary forms
    // decode alike.
    let p = usize::from(head[2]);
    let history: Vec<u8> = (0..p as u8).collect();
    let mut buf = history.clone();
    buf.resize(p + n, 0xEE);
    let with_prefix = block::decompress_with_prefix(bytes, &mut buf, p);
    let mut out = vec![0x00u8; n];
    let with_dict = block::decompress_with_dict(bytes, &history, &mut out);
    assert_eq!(with_prefix, with_dict);
    if let Ok(k) = with_dict {
        assert_eq!(buf[p..p + k], out[..k]);
    }
    if p == 0 {
        assert_eq!(with_dict, want_res, "an empty history changes nothing");
    }
    if let Ok(v) = block::decompress_size_prepended_with_limit(bytes, 1 << 20) {
        assert!(v.len() <= 1 << 20);
    }
});
