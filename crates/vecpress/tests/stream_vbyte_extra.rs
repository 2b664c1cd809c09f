//! Stream VByte extras: the u64 variant (every kernel against scalar,
//! interop with `streamvbyte64`), and bad input.

mod common;

use common::{at_offset, Rng};
use proptest::prelude::*;
use vecpress::stream_vbyte::u64 as sv64;
use vecpress::{Error, Isa};

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
            needed: 5
        })
    );
    // Codes 3, 0, 0, 0 | 0: the first value needs 8 bytes, 3 are there.
    let bad = [0b11, 0, 1, 2, 3, 4, 5];
    assert_eq!(
        sv64::decode(&bad, &mut out),
        Err(Error::Truncated {
            offset: 2,
            needed: 5
        })
    );
    // Cut inside the last value.
    let bytes = sv64::encode_to_vec(&[1, 2, 3, 4, 1 << 20]);
    for isa in sv64::kernels() {
        assert_eq!(
            sv64::decode_with(isa, &bytes[..bytes.len() - 1], &mut out),
            Err(Error::Truncated {
                offset: 6,
                needed: 1
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

// ---- zigzag and u16 -------------------------------------------------------

use vecpress::stream_vbyte as sv;

/// Signed values of every magnitude, with the extremes.
fn signed32(rng: &mut Rng, n: usize) -> Vec<i32> {
    let mut v: Vec<i32> = (0..n)
        .map(|_| (rng.next_u64() as i32) >> rng.below(32))
        .collect();
    v.extend([i32::MIN, i32::MAX, 0, -1, 1, i32::MIN, i32::MIN + 1]);
    v
}

#[test]
fn zigzag_i32_round_trips() {
    let mut rng = Rng::new(32);
    for n in [0usize, 1, 3, 4, 5, 255, 256, 257, 1000] {
        let values = signed32(&mut rng, n);
        let bytes = sv::encode_i32_to_vec(&values);
        // Zigzag then the u32 codec, exactly.
        let zz: Vec<u32> = values
            .iter()
            .map(|&v| ((v << 1) ^ (v >> 31)) as u32)
            .collect();
        assert_eq!(bytes, sv::encode_to_vec(&zz), "n {n}");
        let mut out = vec![0i32; values.len()];
        assert_eq!(sv::decode_i32(&bytes, &mut out), Ok(bytes.len()));
        assert_eq!(out, values);
        assert_eq!(
            sv::decode_i32_to_vec(&bytes, values.len()),
            Ok(values.clone())
        );
        let mut small = vec![0u8; bytes.len()];
        assert_eq!(sv::encode_i32(&values, &mut small), bytes.len());
    }
}

#[test]
fn zigzag_delta_i32_is_the_zigzag_of_each_difference() {
    let mut rng = Rng::new(33);
    for n in [0usize, 1, 2, 5, 300, 1001] {
        let values = signed32(&mut rng, n);
        let prev = rng.next_u64() as i32;
        let bytes = sv::encode_zigzag_delta_to_vec(&values, prev);
        // As the reference's zigzag_delta_encode: zigzag(in[i] - prev), prev = in[i].
        let mut p = prev;
        let want: Vec<u32> = values
            .iter()
            .map(|&v| {
                let d = v.wrapping_sub(p);
                p = v;
                ((d << 1) ^ (d >> 31)) as u32
            })
            .collect();
        assert_eq!(bytes, sv::encode_to_vec(&want), "n {n}");
        let mut out = vec![0i32; values.len()];
        assert_eq!(
            sv::decode_zigzag_delta(&bytes, &mut out, prev),
            Ok(bytes.len())
        );
        assert_eq!(out, values);
        assert_eq!(
            sv::decode_zigzag_delta_to_vec(&bytes, values.len(), prev),
            Ok(values)
        );
    }
    // A slowly varying series takes one byte a value.
    let wave: Vec<i32> = (0..1000).map(|i| 1_000_000 + (i % 40) - 20).collect();
    let bytes = sv::encode_zigzag_delta_to_vec(&wave, 1_000_000);
    assert_eq!(bytes.len(), 250 + 1000, "one byte a difference");
}

#[test]
fn zigzag_i64_round_trips() {
    let mut rng = Rng::new(64);
    for n in [0usize, 1, 4, 5, 255, 256, 257, 1000] {
        let mut values: Vec<i64> = (0..n)
            .map(|_| (rng.next_u64() as i64) >> rng.below(64))
            .collect();
        values.extend([i64::MIN, i64::MAX, 0, -1, i64::MIN + 1]);
        let bytes = sv64::encode_i64_to_vec(&values);
        let zz: Vec<u64> = values
            .iter()
            .map(|&v| ((v << 1) ^ (v >> 63)) as u64)
            .collect();
        assert_eq!(bytes, sv64::encode_to_vec(&zz));
        assert_eq!(
            sv64::decode_i64_to_vec(&bytes, values.len()),
            Ok(values.clone())
        );
        let prev = rng.next_u64() as i64;
        let bytes = sv64::encode_zigzag_delta_to_vec(&values, prev);
        let mut out = vec![0i64; values.len()];
        assert_eq!(
            sv64::decode_zigzag_delta(&bytes, &mut out, prev),
            Ok(bytes.len())
        );
        assert_eq!(out, values);
        assert_eq!(
            sv64::decode_zigzag_delta_to_vec(&bytes, values.len(), prev),
            Ok(values)
        );
    }
}

#[test]
fn u16_is_the_u32_stream_of_the_widened_values() {
    let mut rng = Rng::new(16);
    for n in [0usize, 1, 3, 4, 5, 256, 257, 3000] {
        let mut values: Vec<u16> = (0..n)
            .map(|_| (rng.next_u64() >> rng.below(64)) as u16)
            .collect();
        values.extend([0, u16::MAX, 255, 256]);
        let bytes = sv::encode_u16_to_vec(&values);
        let wide: Vec<u32> = values.iter().map(|&v| u32::from(v)).collect();
        assert_eq!(bytes, sv::encode_to_vec(&wide));
        assert_eq!(
            sv::decode_u16_to_vec(&bytes, values.len()),
            Ok(values.clone())
        );
        assert_eq!(sv::decode_to_vec(&bytes, values.len()), Ok(wide));
    }
    // A value above u16::MAX deep in a stream: Corrupt at its data offset.
    let mut wide: Vec<u32> = (0..600).map(|i| i % 300).collect();
    wide[517] = 70_000;
    let bytes = sv::encode_to_vec(&wide);
    let offset = 150
        + wide[..517]
            .iter()
            .map(|&v| if v < 256 { 1 } else { 2 })
            .sum::<usize>();
    assert_eq!(
        sv::decode_u16_to_vec(&bytes, 600),
        Err(Error::Corrupt {
            offset,
            what: "value exceeds u16"
        })
    );
}

#[test]
fn signed_and_u16_bad_input_is_an_error() {
    let mut rng = Rng::new(99);
    let values = signed32(&mut rng, 30);
    let bytes = sv::encode_i32_to_vec(&values);
    for cut in 0..bytes.len() {
        let mut out = vec![0i32; values.len()];
        assert!(
            matches!(
                sv::decode_i32(&bytes[..cut], &mut out),
                Err(Error::Truncated { .. })
            ),
            "cut {cut}"
        );
        let mut out = vec![0u16; values.len()];
        assert!(sv::decode_u16(&bytes[..cut], &mut out).is_err());
        let mut out = vec![0i64; values.len()];
        assert!(sv64::decode_zigzag_delta(&bytes[..cut], &mut out, 0).is_err());
    }
    // Errors count values over the whole stream, not the chunk.
    let long = sv::encode_i32_to_vec(&vec![-1; 1000]);
    let mut out = vec![0i32; 1000];
    assert_eq!(
        sv::decode_i32(&long[..250 + 10], &mut out),
        Err(Error::Truncated {
            offset: 260,
            needed: 990
        })
    );
    assert!(sv::decode_i32_to_vec(&[], usize::MAX).is_err());
    assert!(sv::decode_u16_to_vec(&[0; 3], 1 << 40).is_err());
    assert!(sv64::decode_i64_to_vec(&[0; 3], 1 << 40).is_err());
}

// ---- select and seek -------------------------------------------------------

/// Sorted values from gaps below `2^bits`, from `prev`.
fn sorted(rng: &mut Rng, n: usize, bits: u32, prev: u32) -> Vec<u32> {
    let gaps: Vec<u32> = (0..n).map(|_| rng.below(1 << bits) as u32).collect();
    common::running_sum(gaps.into_iter(), prev)
}

#[test]
fn select_matches_a_full_decode_at_every_position() {
    for mix in 1..16u32 {
        for n in [1usize, 3, 4, 5, 31, 32, 33, 255, 256, 257, 600] {
            let mut rng = Rng::new((mix as u64) << 20 | n as u64);
            // Byte lengths 1..=4 from the mix bits.
            let values: Vec<u32> = (0..n)
                .map(|_| {
                    let lens: Vec<u32> = (0..4).filter(|l| mix & (1 << l) != 0).collect();
                    let len = lens[rng.below(lens.len() as u64) as usize] + 1;
                    let v = rng.next_u64() as u32;
                    if len == 4 {
                        v | 1 << 24
                    } else {
                        (v & ((1 << (8 * len)) - 1)).max(1 << (8 * (len - 1)))
                            >> u32::from(len == 1)
                    }
                })
                .collect();
            let bytes = sv::encode_to_vec(&values);
            let prev = rng.next_u64() as u32;
            let delta = sv::encode_delta_to_vec(&values, prev);
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(sv::select(&bytes, n, i), Ok(v), "mix {mix:04b} n {n} i {i}");
                assert_eq!(
                    sv::select_delta(&delta, n, i, prev),
                    Ok(v),
                    "delta mix {mix:04b} n {n} i {i}"
                );
            }
            assert_eq!(
                sv::select(&bytes, n, n),
                Err(Error::OutOfRange { index: n, len: n })
            );
            assert_eq!(
                sv::select_delta(&delta, n, n + 5, prev),
                Err(Error::OutOfRange {
                    index: n + 5,
                    len: n
                })
            );
        }
    }
}

#[test]
fn seek_matches_a_linear_search() {
    let mut rng = Rng::new(8);
    for bits in [0u32, 1, 4, 8, 12, 20, 24] {
        for n in [1usize, 4, 5, 63, 64, 65, 256, 1000] {
            if (n as u64) << bits >= 1 << 31 {
                continue; // the values would wrap, so not be sorted
            }
            let prev = rng.below(1000) as u32;
            let values = sorted(&mut rng, n, bits, prev);
            let bytes = sv::encode_delta_to_vec(&values, prev);
            let mut targets: Vec<u32> = values
                .iter()
                .flat_map(|&v| [v.saturating_sub(1), v, v + 1])
                .collect();
            targets.extend([0, prev, u32::MAX, values[n - 1] + 1]);
            for t in targets {
                let want = values.iter().position(|&v| v >= t).map(|i| (i, values[i]));
                assert_eq!(
                    sv::seek_delta(&bytes, n, t, prev),
                    Ok(want),
                    "bits {bits} n {n} target {t}"
                );
            }
            for i in [0, n / 2, n - 1] {
                assert_eq!(sv::select_delta(&bytes, n, i, prev), Ok(values[i]));
            }
        }
    }
}

#[test]
fn select_and_seek_bad_input() {
    let values: Vec<u32> = (0..100).map(|i| i * 1000).collect();
    let bytes = sv::encode_delta_to_vec(&values, 0);
    let plain = sv::encode_to_vec(&values);
    for cut in 0..plain.len() {
        let cut_bytes = &plain[..cut];
        for i in [0usize, 1, 50, 99] {
            // select reports what decoding i + 1 values reports.
            let mut out = vec![0u32; i + 1];
            let dec = sv::decode(cut_bytes, &mut out).map(|_| ());
            let sel = sv::select(cut_bytes, 100, i);
            if cut >= 25 {
                match (&dec, &sel) {
                    (Ok(()), Ok(v)) => assert_eq!(*v, values[i]),
                    (Err(_), Err(e)) => assert!(matches!(e, Error::Truncated { .. })),
                    _ => {}
                }
            } else {
                assert!(sel.is_err(), "control cut at {cut}");
            }
            let cut_delta = &bytes[..cut.min(bytes.len())];
            let _ = sv::select_delta(cut_delta, 100, i, 0);
        }
        let _ = sv::seek_delta(&bytes[..cut.min(bytes.len())], 100, 50_000, 0);
    }
    // Exact errors: value 99 cut short.
    let last = plain.len() - 1;
    assert_eq!(
        sv::select(&plain[..last], 100, 99),
        Err(Error::Truncated {
            offset: plain.len() - 3,
            needed: 1
        })
    );
    assert!(
        matches!(sv::select(&plain[..30], 100, 99), Err(Error::Truncated { needed, .. }) if needed > 1)
    );
    assert!(matches!(
        sv::seek_delta(&bytes[..bytes.len() - 1], 100, u32::MAX, 0),
        Err(Error::Truncated { .. })
    ));
    assert_eq!(
        sv::seek_delta(&bytes[..bytes.len() - 1], 100, 5, 0),
        Ok(Some((1, 1000)))
    );
    assert_eq!(
        sv::select(&[], usize::MAX, 3),
        Err(Error::Truncated {
            offset: 0,
            needed: 4
        })
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_select_seek_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400), n in 0usize..600, i in 0usize..700, target: u32, prev: u32) {
        let _ = sv::select(&bytes, n, i);
        let _ = sv::select_delta(&bytes, n, i, prev);
        let _ = sv::seek_delta(&bytes, n, target, prev);
    }
}

// ---- append ------------------------------------------------------------------

use vecpress::stream_vbyte::{DeltaWriter, Writer};

/// Values of 1-4 bytes, mixed.
fn mixed32(rng: &mut Rng, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| (rng.next_u64() as u32) >> (8 * rng.below(4)))
        .collect()
}

#[test]
fn writer_bytes_equal_a_one_shot_encode() {
    let mut rng = Rng::new(4);
    for n in [0usize, 1, 2, 3, 4, 5, 7, 8, 9, 100, 1000] {
        let values = mixed32(&mut rng, n);
        // Value by value.
        let mut w = Writer::new();
        for (k, &v) in values.iter().enumerate() {
            w.push(v);
            assert_eq!(
                w.as_bytes(),
                &sv::encode_to_vec(&values[..=k])[..],
                "push n {n} k {k}"
            );
        }
        assert_eq!(w.len(), n);
        // Random batches, reopened from bytes between some of them.
        let mut w = Writer::new();
        let mut done = 0;
        while done < n {
            let take = (1 + rng.below(40) as usize).min(n - done);
            w.extend(&values[done..done + take]);
            done += take;
            if rng.below(3) == 0 {
                w = Writer::from_stream(w.into_bytes(), done).unwrap();
            }
            assert_eq!(
                w.as_bytes(),
                &sv::encode_to_vec(&values[..done])[..],
                "extend n {n} done {done}"
            );
        }
        let bytes = w.into_bytes();
        assert_eq!(bytes, sv::encode_to_vec(&values));
        assert_eq!(sv::decode_to_vec(&bytes, n), Ok(values.clone()));
        // Delta: the same as encode_delta.
        let prev = rng.next_u64() as u32;
        let mut d = DeltaWriter::new(prev);
        let (a, b) = values.split_at(n / 3);
        d.extend(a);
        let mut d = DeltaWriter::from_stream(d.into_bytes(), a.len(), prev).unwrap();
        for &v in b {
            d.push(v);
        }
        assert_eq!(d.last(), values.last().copied().unwrap_or(prev));
        assert_eq!(
            d.as_bytes(),
            &sv::encode_delta_to_vec(&values, prev)[..],
            "delta n {n}"
        );
    }
}

#[test]
fn writer_from_stream_checks_the_stream() {
    let values = [1u32, 300, 70_000, 1 << 30, 2];
    let bytes = sv::encode_to_vec(&values);
    for cut in 0..bytes.len() {
        let r = Writer::from_stream(bytes[..cut].to_vec(), 5);
        assert!(matches!(r, Err(Error::Truncated { .. })), "cut {cut}");
        // As decoding reports it.
        let mut out = [0u32; 5];
        assert_eq!(
            r.unwrap_err(),
            sv::decode(&bytes[..cut], &mut out).unwrap_err(),
            "cut {cut}"
        );
    }
    let mut long = bytes.clone();
    long.push(0);
    assert_eq!(
        Writer::from_stream(long, 5),
        Err(Error::Corrupt {
            offset: bytes.len(),
            what: "bytes after the last value"
        })
    );
    // Unused codes of the last control byte are cleared, so appending works.
    let mut dirty = bytes.clone();
    dirty[1] |= 0b1111_1100;
    let mut w = Writer::from_stream(dirty, 5).unwrap();
    assert_eq!(w.as_bytes(), &bytes[..]);
    w.extend(&[7, 8, 9]);
    assert_eq!(
        w.as_bytes(),
        &sv::encode_to_vec(&[1, 300, 70_000, 1 << 30, 2, 7, 8, 9])[..]
    );
    assert!(DeltaWriter::from_stream(bytes[..4].to_vec(), 5, 0).is_err());
    assert_eq!(Writer::from_stream(Vec::new(), 0), Ok(Writer::new()));
}
