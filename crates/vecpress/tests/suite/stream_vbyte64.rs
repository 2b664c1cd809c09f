//! 64-bit Stream VByte: every kernel against scalar, every byte-length mix,
//! interop with the `streamvbyte64` crate, and bad input.

use crate::common::{Rng, at_offset};
use proptest::prelude::*;
use vecpress::stream_vbyte::u64 as sv64;
use vecpress::{Error, Isa, Unit};

/// A u64 that takes exactly the length of `code` (0..4 -> 1, 2, 4, 8 bytes).
fn u64_of_code(rng: &mut Rng, code: u32) -> u64 {
    let (lo, bits) = match code {
        0 => (0, 8),
        1 => (1 << 8, 16),
        2 => (1 << 16, 32),
        _ => (1 << 32, 64),
    };
    let r = rng.next_u64() >> (64 - bits);
    r.max(lo)
}

/// `n` u64 values whose codes are drawn from the set bits of `mix` (bit c = code c).
fn u64_with_mix(rng: &mut Rng, n: usize, mix: u32) -> Vec<u64> {
    let codes: Vec<u32> = (0..4).filter(|c| mix & (1 << c) != 0).collect();
    (0..n)
        .map(|_| {
            let c = codes[rng.below(codes.len() as u64) as usize];
            u64_of_code(rng, c)
        })
        .collect()
}

/// The running sum of `gaps` from `prev`, wrapping.
fn running_sum64(gaps: &[u64], prev: u64) -> Vec<u64> {
    gaps.iter()
        .scan(prev, |p, &g| {
            *p = p.wrapping_add(g);
            Some(*p)
        })
        .collect()
}

/// Decodes `n` values (plain and delta from `prev`) with every available
/// kernel and checks each result against scalar's; returns scalar's plain one.
fn u64_isas_agree(input: &[u8], n: usize, prev: u64, context: &str) -> Result<Vec<u64>, Error> {
    let mut want = vec![0u64; n];
    let want_res = sv64::decode_with(Isa::Scalar, input, &mut want);
    let mut want_d = vec![0u64; n];
    let want_d_res = sv64::decode_delta_with(Isa::Scalar, input, &mut want_d, prev);
    assert_eq!(
        want_res, want_d_res,
        "plain and delta consume alike, {context}"
    );
    for &isa in Isa::available() {
        let mut got = vec![0u64; n];
        let res = sv64::decode_with(isa, input, &mut got);
        assert_eq!(res, want_res, "{isa} result, {context}");
        if res.is_ok() {
            assert_eq!(got, want, "{isa} values, {context}");
        }
        let mut got = vec![0u64; n];
        let res = sv64::decode_delta_with(isa, input, &mut got, prev);
        assert_eq!(res, want_d_res, "{isa} delta result, {context}");
        if res.is_ok() {
            assert_eq!(got, want_d, "{isa} delta values, {context}");
        }
    }
    want_res.map(|_| want)
}

/// Lengths around the kernels' group (4 values) and window (32 bytes) sizes.
fn lengths64() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=17).collect();
    for edge in [
        31usize, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000, 4096,
    ] {
        v.push(edge);
    }
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn u64_every_isa_round_trips_every_length_mix() {
    for mix in 1..16u32 {
        for n in lengths64() {
            let seed = (mix as u64) << 32 | n as u64;
            let mut rng = Rng::new(seed);
            let values = u64_with_mix(&mut rng, n, mix);
            let bytes = sv64::encode_to_vec(&values);
            assert_eq!(bytes.len(), sv64::encoded_len(&values));
            assert!(bytes.len() <= sv64::max_encoded_len(n));
            let offset = 1 + (seed % 63) as usize;
            let (buf, at) = at_offset(&bytes, offset);
            let ctx = format!("mix {mix:04b}, n {n}, seed {seed}, offset {offset}");
            let got = u64_isas_agree(&buf[at..], n, 7, &ctx).unwrap();
            assert_eq!(got, values, "{ctx}");
            assert_eq!(sv64::decode_to_vec(&bytes, n).unwrap(), values, "{ctx}");
        }
    }
}

#[test]
fn u64_every_isa_round_trips_delta() {
    for mix in 1..16u32 {
        for n in [0usize, 1, 3, 4, 5, 8, 9, 33, 100, 1001] {
            let seed = 3 + ((mix as u64) << 32 | n as u64);
            let mut rng = Rng::new(seed);
            let gaps = u64_with_mix(&mut rng, n, mix);
            let prev = rng.next_u64();
            let values = running_sum64(&gaps, prev);
            let bytes = sv64::encode_delta_to_vec(&values, prev);
            assert_eq!(bytes, sv64::encode_to_vec(&gaps), "gaps are stored");
            for &isa in Isa::available() {
                let mut out = vec![0u64; n];
                let used = sv64::decode_delta_with(isa, &bytes, &mut out, prev);
                assert_eq!(used, Ok(bytes.len()), "{isa} mix {mix:04b} n {n}");
                assert_eq!(out, values, "{isa} mix {mix:04b} n {n}");
            }
            assert_eq!(sv64::decode_delta_to_vec(&bytes, n, prev).unwrap(), values);
        }
    }
}

#[test]
fn u64_every_control_byte_in_every_kernel() {
    // 256 groups, one per control byte value, each followed by the others.
    let mut rng = Rng::new(1248);
    let mut values = Vec::new();
    for c in 0..256u32 {
        for i in 0..4 {
            values.push(u64_of_code(&mut rng, c >> (2 * i) & 3));
        }
    }
    let bytes = sv64::encode_to_vec(&values);
    let control: Vec<u8> = (0..=255).collect();
    assert_eq!(&bytes[..256], &control[..]);
    let got = u64_isas_agree(&bytes, values.len(), 0, "every control byte").unwrap();
    assert_eq!(got, values);
}

#[test]
fn u64_extremes() {
    let values = [
        0u64,
        u64::MAX,
        255,
        256,
        65535,
        65536,
        u32::MAX as u64,
        1 << 32,
    ];
    let bytes = sv64::encode_to_vec(&values);
    assert_eq!(&bytes[..2], &[0b01_00_11_00, 0b11_10_10_01]);
    assert_eq!(bytes.len(), 2 + 1 + 8 + 1 + 2 + 2 + 4 + 4 + 8);
    assert_eq!(
        u64_isas_agree(&bytes, 8, u64::MAX, "extremes").unwrap(),
        values
    );
    // Wrapping deltas.
    let values = [u64::MAX, 0, u64::MAX, 1];
    let bytes = sv64::encode_delta_to_vec(&values, 5);
    assert_eq!(sv64::decode_delta_to_vec(&bytes, 4, 5), Ok(values.to_vec()));
}

#[test]
fn u64_interop_with_streamvbyte64() {
    use streamvbyte64::{Coder, Coder1248};
    let coder = Coder1248::new();
    for mix in 1..16u32 {
        for n in [0usize, 4, 8, 64, 1000] {
            let mut rng = Rng::new(mix as u64 * 1000 + n as u64);
            let values = u64_with_mix(&mut rng, n, mix);
            // Theirs -> ours: tags, then the used data bytes.
            let (tag_len, data_len) = Coder1248::max_compressed_bytes(n);
            let mut tags = vec![0u8; tag_len];
            let mut data = vec![0u8; data_len];
            let used = coder.encode(&values, &mut tags, &mut data);
            let mut theirs = tags.clone();
            theirs.extend_from_slice(&data[..used]);
            assert_eq!(sv64::encode_to_vec(&values), theirs, "mix {mix:04b} n {n}");
            let got = u64_isas_agree(&theirs, n, 0, "theirs").unwrap();
            assert_eq!(got, values);
            // Delta coding agrees too.
            let used = coder.encode_deltas(9, &values, &mut tags, &mut data);
            let mut theirs = tags.clone();
            theirs.extend_from_slice(&data[..used]);
            assert_eq!(sv64::encode_delta_to_vec(&values, 9), theirs);
            // Ours -> theirs.
            let ours = sv64::encode_delta_to_vec(&values, 9);
            let (t, d) = ours.split_at(n / 4);
            let mut back = vec![0u64; n];
            assert_eq!(coder.decode_deltas(9, t, d, &mut back), d.len());
            assert_eq!(back, values);
        }
    }
    // Our lengths need no multiple of 4: the groups before the last agree.
    let values: Vec<u64> = (0..10).map(|i| 1u64 << (6 * i)).collect();
    let ours = sv64::encode_to_vec(&values);
    let mut tags = [0u8; 2];
    let mut data = [0u8; 64];
    let used = coder.encode(&values[..8], &mut tags, &mut data);
    assert_eq!(&ours[..2], &tags[..]);
    assert_eq!(&ours[3..3 + used], &data[..used]);
}

#[test]
fn u64_specific_errors() {
    let mut out = [0u64; 5];
    // No room for the two control bytes.
    assert_eq!(
        sv64::decode(&[0], &mut out),
        Err(Error::Truncated {
            offset: 1,
            needed: 5,
            unit: Unit::Values,
        })
    );
    // Codes 3, 0, 0, 0 | 0: the first value needs 8 bytes, 3 are there.
    let bad = [0b11, 0, 1, 2, 3, 4, 5];
    assert_eq!(
        sv64::decode(&bad, &mut out),
        Err(Error::Truncated {
            offset: 2,
            needed: 5,
            unit: Unit::Values,
        })
    );
    // Cut inside the last value.
    let bytes = sv64::encode_to_vec(&[1, 2, 3, 4, 1 << 20]);
    for isa in sv64::kernels() {
        assert_eq!(
            sv64::decode_with(isa, &bytes[..bytes.len() - 1], &mut out),
            Err(Error::Truncated {
                offset: 6,
                needed: 1,
                unit: Unit::Values,
            }),
            "{isa}"
        );
    }
    assert!(sv64::decode_to_vec(&bytes, usize::MAX).is_err());
    assert!(sv64::decode_delta_to_vec(&bytes, 1 << 40, 0).is_err());
}

#[test]
fn u64_every_byte_change_and_truncation_gives_ok_or_err_alike() {
    let mut rng = Rng::new(77);
    for n in [1usize, 4, 9, 40] {
        let values = u64_with_mix(&mut rng, n, 0b1111);
        let bytes = sv64::encode_to_vec(&values);
        for cut in 0..bytes.len() {
            let r = u64_isas_agree(&bytes[..cut], n, 1, &format!("n {n} cut {cut}"));
            assert!(matches!(r, Err(Error::Truncated { .. })), "n {n} cut {cut}");
        }
        for at in 0..bytes.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut bad = bytes.clone();
                bad[at] ^= flip;
                let _ = u64_isas_agree(&bad, n, 1, &format!("n {n} at {at} flip {flip}"));
            }
        }
    }
}

#[test]
fn u64_unsupported_isa_is_an_error() {
    for &isa in Isa::ALL {
        let mut out = [0u64; 1];
        let res = sv64::decode_with(isa, &[0, 1], &mut out);
        if isa.is_supported() {
            assert_eq!(res, Ok(2));
        } else {
            assert_eq!(res, Err(Error::Unsupported { isa: isa.name() }));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_u64_all_isas_match_scalar(
        values in prop::collection::vec(any::<u64>().prop_map(|v| v >> (v % 64)), 0..3000),
        prev: u64,
    ) {
        let bytes = sv64::encode_to_vec(&values);
        let got = u64_isas_agree(&bytes, values.len(), prev, "proptest").unwrap();
        prop_assert_eq!(got, values);
    }

    #[test]
    fn prop_u64_arbitrary_bytes_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..600),
        n in 0usize..700,
        prev: u64,
    ) {
        let _ = u64_isas_agree(&bytes, n, prev, "arbitrary bytes");
    }
}
