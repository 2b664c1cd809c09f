//! VByte: every kernel against the scalar reference, golden vectors, interop,
//! and bad input.

use crate::common::{Rng, at_offset, lengths, mixes, running_sum};
use proptest::prelude::*;
use vecpress::{Error, Isa, Unit, vbyte};

/// Decodes `n` values with every available kernel and checks each result
/// (values and consumed bytes, or the error) against scalar's.
fn all_isas_agree(input: &[u8], n: usize, prev: u32, context: &str) -> Result<Vec<u32>, Error> {
    let mut want = vec![0u32; n];
    let want_res = vbyte::decode_with(Isa::Scalar, input, &mut want);
    let mut want_d = vec![0u32; n];
    let want_d_res = vbyte::decode_delta_with(Isa::Scalar, input, &mut want_d, prev);
    for &isa in Isa::available() {
        let mut got = vec![0u32; n];
        let res = vbyte::decode_with(isa, input, &mut got);
        assert_eq!(res, want_res, "{isa} decode result, {context}");
        if res.is_ok() {
            assert_eq!(got, want, "{isa} decoded values, {context}");
        }
        let mut got = vec![0u32; n];
        let res = vbyte::decode_delta_with(isa, input, &mut got, prev);
        assert_eq!(res, want_d_res, "{isa} delta result, {context}");
        if res.is_ok() {
            assert_eq!(got, want_d, "{isa} delta values, {context}");
        }
    }
    want_res.map(|_| want)
}

#[test]
fn every_isa_round_trips_every_length_mix() {
    for mix in mixes() {
        for n in lengths() {
            let seed = (mix as u64) << 32 | n as u64;
            let mut rng = Rng::new(seed);
            let values = rng.values_with_mix(n, mix);
            let bytes = vbyte::encode_to_vec(&values);
            let offset = 1 + (seed % 63) as usize;
            let (buf, at) = at_offset(&bytes, offset);
            let ctx = format!("mix {mix:05b}, n {n}, seed {seed}, offset {offset}");
            let got = all_isas_agree(&buf[at..], n, 0, &ctx).unwrap();
            assert_eq!(got, values, "{ctx}");
        }
    }
}

#[test]
fn every_isa_round_trips_delta() {
    for mix in mixes() {
        for n in [0usize, 1, 15, 16, 17, 63, 64, 65, 500, 4096] {
            let seed = 7 + ((mix as u64) << 32 | n as u64);
            let mut rng = Rng::new(seed);
            let gaps = rng.values_with_mix(n, mix);
            let prev = rng.next_u64() as u32;
            let values: Vec<u32> = running_sum(gaps.iter().copied(), prev);
            let bytes = vbyte::encode_delta_to_vec(&values, prev);
            assert_eq!(
                bytes,
                vbyte::encode_to_vec(&gaps),
                "gaps are what is stored"
            );
            for &isa in Isa::available() {
                let mut out = vec![0u32; n];
                let used = vbyte::decode_delta_with(isa, &bytes, &mut out, prev);
                assert_eq!(
                    used,
                    Ok(bytes.len()),
                    "{isa} mix {mix:05b} n {n} seed {seed}"
                );
                assert_eq!(out, values, "{isa} mix {mix:05b} n {n} seed {seed}");
            }
        }
    }
}

#[test]
fn runs_of_one_byte_values_between_long_ones() {
    // Long runs of one-byte values (posting lists) with a lone long value at
    // every position of a 64-byte window exercise the kernels' fast paths.
    for len in 2..=5 {
        for at in 0..130 {
            let mut rng = Rng::new(at as u64);
            let mut values: Vec<u32> = (0..300).map(|_| rng.below(128) as u32).collect();
            values[at] = rng.u32_of_len(len);
            let bytes = vbyte::encode_to_vec(&values);
            let got =
                all_isas_agree(&bytes, values.len(), 5, &format!("len {len} at {at}")).unwrap();
            assert_eq!(got, values);
        }
    }
}

#[test]
fn bytes_after_the_last_value_are_ignored() {
    let values = [5u32, 300, 70_000];
    let mut bytes = vbyte::encode_to_vec(&values);
    let len = bytes.len();
    bytes.extend_from_slice(&[0xff; 100]);
    for &isa in Isa::available() {
        let mut out = [0u32; 3];
        assert_eq!(vbyte::decode_with(isa, &bytes, &mut out), Ok(len), "{isa}");
        assert_eq!(out, values);
    }
}

#[test]
fn golden_vectors() {
    let text = include_str!("../golden/vbyte/vectors.txt");
    let mut rows = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (value, hex) = line.split_once(' ').unwrap();
        let value: u64 = value.parse().unwrap();
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        assert_eq!(vbyte::encode_u64_to_vec(&[value]), bytes, "u64 {value}");
        assert_eq!(vbyte::decode_u64_to_vec(&bytes, 1), Ok(vec![value]));
        if let Ok(v32) = u32::try_from(value) {
            assert_eq!(vbyte::encode_to_vec(&[v32]), bytes, "u32 {value}");
            // Many copies, so that the SIMD kernels see the vector too.
            let many = bytes.repeat(100);
            let got = all_isas_agree(&many, 100, 0, &format!("golden {value}")).unwrap();
            assert!(got.iter().all(|&g| g == v32));
        } else {
            let mut out = [0u32; 1];
            assert!(
                matches!(vbyte::decode(&bytes, &mut out), Err(Error::Corrupt { .. })),
                "{value} is no u32"
            );
        }
        rows += 1;
    }
    assert_eq!(rows, 22);
}

#[test]
fn interop_with_integer_encoding() {
    use integer_encoding::VarInt;
    let mut rng = Rng::new(42);
    for len in 1..=10 {
        for _ in 0..200 {
            let v = rng.u64_of_len(len);
            let theirs = v.encode_var_vec();
            assert_eq!(vbyte::encode_u64_to_vec(&[v]), theirs, "{v}");
            if let Ok(v32) = u32::try_from(v) {
                assert_eq!(vbyte::encode_to_vec(&[v32]), v32.encode_var_vec(), "{v32}");
            }
        }
    }
    // A stream written value by value by the peer decodes with every kernel.
    let values = rng.values_with_mix(5000, 0b11111);
    let theirs: Vec<u8> = values.iter().flat_map(|v| v.encode_var_vec()).collect();
    assert_eq!(
        all_isas_agree(&theirs, values.len(), 0, "integer-encoding stream").unwrap(),
        values
    );
}

#[test]
fn u64_round_trips() {
    let mut rng = Rng::new(9);
    let values: Vec<u64> = (0..3000).map(|i| rng.u64_of_len(1 + i % 10)).collect();
    let bytes = vbyte::encode_u64_to_vec(&values);
    assert_eq!(bytes.len(), vbyte::encoded_len_u64(&values));
    assert_eq!(vbyte::decode_u64_to_vec(&bytes, values.len()), Ok(values));
}

#[test]
fn signed_round_trips() {
    let mut rng = Rng::new(11);
    let v32: Vec<i32> = (0..2000)
        .map(|_| (rng.next_u64() as i32) >> rng.below(32))
        .chain([i32::MIN, i32::MAX, 0, -1])
        .collect();
    let bytes = vbyte::encode_i32_to_vec(&v32);
    let mut out = vec![0i32; v32.len()];
    assert_eq!(vbyte::decode_i32(&bytes, &mut out), Ok(bytes.len()));
    assert_eq!(out, v32);
    let v64: Vec<i64> = (0..2000)
        .map(|_| (rng.next_u64() as i64) >> rng.below(64))
        .chain([i64::MIN, i64::MAX])
        .collect();
    let bytes = vbyte::encode_i64_to_vec(&v64);
    let mut out = vec![0i64; v64.len()];
    assert_eq!(vbyte::decode_i64(&bytes, &mut out), Ok(bytes.len()));
    assert_eq!(out, v64);
}

#[test]
fn select_and_search_match_a_full_decode() {
    let mut rng = Rng::new(5);
    for n in [1usize, 2, 255, 256, 257, 1000, 5000] {
        let gaps = rng.values_with_mix(n, 0b00111);
        let prev = 17u32;
        let values: Vec<u32> = running_sum(gaps.iter().map(|&g| g.min(1 << 18)), prev);
        let bytes = vbyte::encode_delta_to_vec(&values, prev);
        for i in [0, n / 3, n / 2, n - 1] {
            assert_eq!(
                vbyte::select_delta(&bytes, n, i, prev),
                Ok(values[i]),
                "n {n} i {i}"
            );
        }
        assert_eq!(
            vbyte::select_delta(&bytes, n, n, prev),
            Err(Error::OutOfRange { index: n, len: n })
        );
        for _ in 0..50 {
            let key = values[0].wrapping_sub(3)
                + rng.below((values[n - 1] - values[0] + 10) as u64) as u32;
            let want = values
                .iter()
                .position(|&v| v >= key)
                .map(|i| (i, values[i]));
            assert_eq!(
                vbyte::search_delta(&bytes, n, key, prev),
                Ok(want),
                "n {n} key {key}"
            );
        }
        assert_eq!(
            vbyte::search_delta(&bytes, n, 0, prev),
            Ok(Some((0, values[0])))
        );
        // Searching past the end of a truncated stream names the truncation.
        let cut = &bytes[..bytes.len() - 1];
        assert!(matches!(
            vbyte::search_delta(cut, n, u32::MAX, prev),
            Err(Error::Truncated { .. })
        ));
    }
}

#[test]
fn specific_errors_with_offsets() {
    let mut out = [0u32; 3];
    // A varint longer than 5 bytes, after two good values.
    let bad = [1, 2, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
    let err = Error::Corrupt {
        offset: 6,
        what: "varint longer than 5 bytes for u32",
    };
    assert_eq!(vbyte::decode(&bad, &mut out), Err(err.clone()));
    // A 5th byte with bits above 32.
    let bad = [1, 2, 0xff, 0xff, 0xff, 0xff, 0x10];
    assert_eq!(
        vbyte::decode(&bad, &mut out),
        Err(Error::Corrupt {
            offset: 6,
            what: "varint overflows 32 bits"
        })
    );
    // Truncated inside the third value.
    assert_eq!(
        vbyte::decode(&[1, 2, 0x80], &mut out),
        Err(Error::Truncated {
            offset: 2,
            needed: 1,
            unit: Unit::Values,
        })
    );
    // Truncated before the third value.
    assert_eq!(
        vbyte::decode(&[1, 2], &mut out),
        Err(Error::Truncated {
            offset: 2,
            needed: 1,
            unit: Unit::Values,
        })
    );
    // u64: 11 bytes, and a 10th byte above 1.
    let mut out64 = [0u64; 1];
    assert_eq!(
        vbyte::decode_u64(&[0xff; 11], &mut out64),
        Err(Error::Corrupt {
            offset: 9,
            what: "varint longer than 10 bytes for u64"
        })
    );
    let mut b = [0xffu8; 10];
    b[9] = 2;
    assert_eq!(
        vbyte::decode_u64(&b, &mut out64),
        Err(Error::Corrupt {
            offset: 9,
            what: "varint overflows 64 bits"
        })
    );
    // Output too small for encoding.
    assert_eq!(
        vbyte::try_encode(&[300, 300], &mut [0u8; 3]),
        Err(Error::OutputTooSmall {
            needed: 4,
            actual: 3
        })
    );
    assert!(err.to_string().contains("byte 6"));
}

#[test]
fn errors_deep_in_a_stream_agree_across_isas() {
    // A long stream with one invalid value at every position the kernels can
    // meet it: a 6-byte varint, or a 5th byte in 0x10..=0x7f.
    let mut rng = Rng::new(77);
    let values = rng.values_with_mix(200, 0b00011);
    for at in (0..200).step_by(3) {
        for poison in [
            &[0x80u8, 0x80, 0x80, 0x80, 0x80, 0x01][..],
            &[0xff, 0xff, 0xff, 0xff, 0x10][..],
            &[0x80, 0x80, 0x80, 0x80, 0x7f][..],
        ] {
            let mut bytes = vbyte::encode_to_vec(&values[..at]);
            let offset = bytes.len();
            bytes.extend_from_slice(poison);
            bytes.extend_from_slice(&vbyte::encode_to_vec(&values[at..]));
            let res = all_isas_agree(&bytes, 201, 0, &format!("poison at {at}"));
            assert!(
                matches!(res, Err(Error::Corrupt { offset: o, .. }) if o == offset + 4 || o == offset + 5),
                "{res:?}"
            );
        }
    }
}

#[test]
fn every_byte_change_and_truncation_gives_ok_or_err_alike() {
    let mut rng = Rng::new(3);
    let values = rng.values_with_mix(120, 0b10011);
    let bytes = vbyte::encode_to_vec(&values);
    for i in 0..bytes.len() {
        for new in [0x00, 0x01, 0x0f, 0x10, 0x7f, 0x80, 0xff, bytes[i] ^ 0x80] {
            let mut b = bytes.clone();
            b[i] = new;
            let _ = all_isas_agree(&b, values.len(), 1, &format!("byte {i} -> {new:#x}"));
        }
    }
    for cut in 0..bytes.len() {
        let res = all_isas_agree(&bytes[..cut], values.len(), 0, &format!("cut {cut}"));
        assert!(
            matches!(res, Err(Error::Truncated { .. })),
            "cut {cut}: {res:?}"
        );
    }
}

#[test]
fn hostile_counts_do_not_allocate() {
    // A count far beyond what 3 bytes can hold: an error, with no huge allocation.
    assert!(matches!(
        vbyte::decode_to_vec(&[1, 2, 3], usize::MAX),
        Err(Error::Truncated { offset: 3, .. })
    ));
    assert!(vbyte::decode_delta_to_vec(&[1, 2, 3], usize::MAX / 2, 0).is_err());
    assert!(vbyte::decode_u64_to_vec(&[], usize::MAX).is_err());
}

#[test]
fn unsupported_isa_is_an_error() {
    for &isa in Isa::ALL {
        let mut out = [0u32; 1];
        let res = vbyte::decode_with(isa, &[1], &mut out);
        if isa.is_supported() {
            assert_eq!(res, Ok(1));
        } else {
            assert_eq!(res, Err(Error::Unsupported { isa: isa.name() }));
        }
    }
}

fn value_strategy() -> impl Strategy<Value = u32> {
    prop_oneof![
        0u32..128,
        128u32..16384,
        16384u32..(1 << 21),
        (1u32 << 21)..(1 << 28),
        (1u32 << 28)..=u32::MAX
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn prop_all_isas_match_scalar(values in prop::collection::vec(value_strategy(), 0..10_000), prev: u32) {
        let bytes = vbyte::encode_to_vec(&values);
        let got = all_isas_agree(&bytes, values.len(), prev, "proptest").unwrap();
        prop_assert_eq!(got, values);
    }

    #[test]
    fn prop_arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600), n in 0usize..700, prev: u32) {
        let _ = all_isas_agree(&bytes, n, prev, "arbitrary bytes");
    }
}

/// Decodes `n` u64 values (scalar: the u64 decoder has no SIMD kernel yet).
fn u64_isas_agree(input: &[u8], n: usize, _context: &str) -> Result<Vec<u64>, Error> {
    let mut out = vec![0u64; n];
    vbyte::decode_u64(input, &mut out).map(|_| out)
}

#[test]
fn u64_round_trips_every_length_mix() {
    for mix in [
        1u32,
        3,
        0b11_1111_1111,
        0b10_0000_0000,
        0b11_0000_0001,
        0b01_1111_0000,
    ] {
        for n in lengths() {
            let seed = (mix as u64) << 32 | n as u64;
            let mut rng = Rng::new(seed);
            let lens: Vec<u32> = (1..=10).filter(|l| mix & (1 << (l - 1)) != 0).collect();
            let values: Vec<u64> = (0..n)
                .map(|_| {
                    let len = lens[rng.below(lens.len() as u64) as usize];
                    rng.u64_of_len(len)
                })
                .collect();
            let bytes = vbyte::encode_u64_to_vec(&values);
            let (buf, at) = at_offset(&bytes, 1 + (seed % 31) as usize);
            let got = u64_isas_agree(&buf[at..], n, &format!("mix {mix:010b} n {n}")).unwrap();
            assert_eq!(got, values, "mix {mix:010b} n {n}");
        }
    }
}

#[test]
fn u64_bad_input_is_an_error() {
    let mut rng = Rng::new(21);
    let values: Vec<u64> = (0..60)
        .map(|i| rng.u64_of_len(1 + (i % 10) as u32))
        .collect();
    let bytes = vbyte::encode_u64_to_vec(&values);
    for i in 0..bytes.len() {
        for new in [0x00, 0x01, 0x02, 0x7f, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[i] = new;
            let _ = u64_isas_agree(&b, values.len(), &format!("byte {i} -> {new:#x}"));
        }
    }
    for cut in 0..bytes.len() {
        let res = u64_isas_agree(&bytes[..cut], values.len(), &format!("cut {cut}"));
        assert!(
            matches!(res, Err(Error::Truncated { .. })),
            "cut {cut}: {res:?}"
        );
    }
    // An 11-byte varint and a 10th byte of 2, deep in a long stream.
    for poison in [
        &[0xffu8; 11][..],
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02][..],
    ] {
        let mut b = vbyte::encode_u64_to_vec(&values[..40]);
        let at = b.len();
        b.extend_from_slice(poison);
        b.extend_from_slice(&bytes);
        let res = u64_isas_agree(&b, 100, "poison");
        assert!(
            matches!(res, Err(Error::Corrupt { offset, .. }) if offset == at + 9),
            "{res:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn prop_u64_round_trips(values in prop::collection::vec(any::<u64>().prop_map(|v| v >> (v % 64)), 0..3000)) {
        let bytes = vbyte::encode_u64_to_vec(&values);
        prop_assert_eq!(u64_isas_agree(&bytes, values.len(), "proptest").unwrap(), values);
    }

    #[test]
    fn prop_u64_arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400), n in 0usize..400) {
        let _ = u64_isas_agree(&bytes, n, "arbitrary bytes");
    }
}

#[test]
fn tiny_gaps_with_wrapping_sums() {
    // Runs of gaps below 32 (the AVX-512 kernel sums those in bytes), broken
    // by larger ones, from a `prev` near the top so that the sums wrap.
    for seed in 0..40u64 {
        let mut rng = Rng::new(seed);
        let n = 64 + rng.below(3000) as usize;
        let gaps: Vec<u32> = (0..n)
            .map(|_| match rng.below(1000) {
                0 => {
                    let len = 1 + rng.below(5) as u32;
                    rng.u32_of_len(len)
                }
                1..=9 => 32 + rng.below(96) as u32,
                _ => rng.below(32) as u32,
            })
            .collect();
        let prev = u32::MAX - rng.below(5000) as u32;
        let bytes = vbyte::encode_to_vec(&gaps);
        let want: Vec<u32> = running_sum(gaps.iter().copied(), prev);
        for &isa in Isa::available() {
            let mut out = vec![0u32; n];
            assert_eq!(
                vbyte::decode_delta_with(isa, &bytes, &mut out, prev),
                Ok(bytes.len()),
                "{isa} seed {seed}"
            );
            assert_eq!(out, want, "{isa} seed {seed}");
        }
    }
}
