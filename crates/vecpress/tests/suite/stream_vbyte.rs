//! Stream VByte: every kernel against the scalar reference, both formats and
//! delta, golden vectors, interop with the reference C library, bad input.

use crate::common::{self, Rng, at_offset, running_sum};
use proptest::prelude::*;
use vecpress::{Error, Isa, Unit, stream_vbyte as svb};

/// The four decoders: (name, format is 0124, delta).
const VARIANTS: [(&str, bool, bool); 4] = [
    ("standard", false, false),
    ("delta", false, true),
    ("0124", true, false),
    ("0124 delta", true, true),
];

fn decode_variant(
    isa: Isa,
    zero124: bool,
    delta: bool,
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, Error> {
    match (zero124, delta) {
        (false, false) => svb::decode_with(isa, input, out),
        (false, true) => svb::decode_delta_with(isa, input, out, prev),
        (true, false) => svb::decode_0124_with(isa, input, out),
        (true, true) => svb::decode_delta_0124_with(isa, input, out, prev),
    }
}

fn encode_variant(zero124: bool, delta: bool, values: &[u32], prev: u32) -> Vec<u8> {
    match (zero124, delta) {
        (false, false) => svb::encode_to_vec(values),
        (false, true) => svb::encode_delta_to_vec(values, prev),
        (true, false) => svb::encode_0124_to_vec(values),
        (true, true) => svb::encode_delta_0124_to_vec(values, prev),
    }
}

/// Decodes `n` values of one variant with every available kernel and checks
/// each result (values and bytes consumed, or the error) against scalar's.
fn all_isas_agree(
    zero124: bool,
    delta: bool,
    input: &[u8],
    n: usize,
    prev: u32,
    context: &str,
) -> Result<Vec<u32>, Error> {
    let mut want = vec![0u32; n];
    let want_res = decode_variant(Isa::Scalar, zero124, delta, input, &mut want, prev);
    for &isa in Isa::available() {
        let mut got = vec![0u32; n];
        let res = decode_variant(isa, zero124, delta, input, &mut got, prev);
        assert_eq!(res, want_res, "{isa} result, {context}");
        if res.is_ok() {
            assert_eq!(got, want, "{isa} values, {context}");
        }
    }
    want_res.map(|_| want)
}

/// Encodes with every variant, checks that every kernel decodes it back (at
/// an odd offset too), that the sizes are as announced and that the stream
/// validates.
fn round_trip_all(values: &[u32], prev: u32, context: &str) {
    for (name, zero124, delta) in VARIANTS {
        let bytes = encode_variant(zero124, delta, values, prev);
        let ctx = format!("{name}, {context}");
        assert!(bytes.len() <= svb::max_encoded_len(values.len()), "{ctx}");
        if !delta {
            let len = if zero124 {
                svb::encoded_len_0124(values)
            } else {
                svb::encoded_len(values)
            };
            assert_eq!(len, bytes.len(), "{ctx}");
            let valid = if zero124 {
                svb::validate_0124(&bytes, values.len())
            } else {
                svb::validate(&bytes, values.len())
            };
            assert!(valid, "{ctx}");
        }
        let offset = 1 + values.len() % 63;
        let (buf, at) = at_offset(&bytes, offset);
        let got = all_isas_agree(zero124, delta, &buf[at..], values.len(), prev, &ctx).unwrap();
        assert_eq!(got, values, "{ctx}");
        for &isa in Isa::available() {
            let mut out = vec![0u32; values.len()];
            let used = decode_variant(isa, zero124, delta, &bytes, &mut out, prev);
            assert_eq!(used, Ok(bytes.len()), "{isa} consumed, {ctx}");
        }
    }
}

/// `n` values whose standard byte lengths are drawn from the set bits of
/// `mix` (bit 0 = one byte ... bit 3 = four bytes); bit 4 adds zeros.
fn values_with_mix(rng: &mut Rng, n: usize, mix: u32) -> Vec<u32> {
    let lens: Vec<u32> = (0..5).filter(|l| mix & (1 << l) != 0).collect();
    (0..n)
        .map(|_| match lens[rng.below(lens.len() as u64) as usize] {
            4 => 0,
            0 => rng.below(1 << 8) as u32,
            l => {
                ((1u64 << (8 * l)) + rng.below((1u64 << (8 * (l + 1))) - (1u64 << (8 * l)))) as u32
            }
        })
        .collect()
}

/// Lengths around every group size a kernel uses (4 values a control byte,
/// 8 control bytes a block, 16 and 32 values a register).
fn lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=70).collect();
    for edge in [96usize, 128, 256, 512, 1024, 4096] {
        v.extend([edge - 5, edge - 4, edge - 1, edge, edge + 1, edge + 4]);
    }
    v.push(10_000);
    v
}

#[test]
fn every_isa_round_trips_every_length_mix() {
    for mix in 1..32u32 {
        for n in lengths() {
            let seed = (mix as u64) << 32 | n as u64;
            let mut rng = Rng::new(seed);
            let values = values_with_mix(&mut rng, n, mix);
            let prev = rng.next_u64() as u32;
            round_trip_all(&values, prev, &format!("mix {mix:05b}, n {n}, seed {seed}"));
        }
    }
}

#[test]
fn delta_of_sorted_gaps_round_trips() {
    for mix in 1..32u32 {
        for n in [0usize, 1, 3, 4, 5, 31, 32, 33, 127, 128, 129, 4096] {
            let seed = 11 + ((mix as u64) << 32 | n as u64);
            let mut rng = Rng::new(seed);
            let gaps = values_with_mix(&mut rng, n, mix);
            let prev = rng.next_u64() as u32;
            let values = running_sum(gaps.iter().copied(), prev);
            assert_eq!(
                svb::encode_delta_to_vec(&values, prev),
                svb::encode_to_vec(&gaps)
            );
            assert_eq!(
                svb::encode_delta_0124_to_vec(&values, prev),
                svb::encode_0124_to_vec(&gaps)
            );
            round_trip_all(&values, prev, &format!("delta mix {mix:05b}, n {n}"));
        }
    }
}

#[test]
fn powers_of_three_cover_every_byte_width() {
    // As the reference's unit test: lengths and values that are powers of
    // three, so that every byte width and group position occurs.
    let mut n = 1usize;
    while n < 100_000 {
        let values: Vec<u32> = (0..n).map(|i| 3u32.wrapping_pow((i % 21) as u32)).collect();
        round_trip_all(&values, 0, &format!("3^k, n {n}"));
        let gaps: Vec<u32> = (0..n).map(|i| 3u32.pow((i % 9) as u32)).collect();
        round_trip_all(
            &running_sum(gaps.into_iter(), 0),
            0,
            &format!("3^k gaps, n {n}"),
        );
        n *= 3;
    }
}

#[test]
fn bytes_after_the_last_value_are_ignored() {
    let values: Vec<u32> = (0..100).map(|i| i * 1000).collect();
    for (name, zero124, delta) in VARIANTS {
        let mut bytes = encode_variant(zero124, delta, &values, 0);
        let len = bytes.len();
        bytes.extend_from_slice(&[0xff; 100]);
        for &isa in Isa::available() {
            let mut out = vec![0u32; 100];
            let res = decode_variant(isa, zero124, delta, &bytes, &mut out, 0);
            assert_eq!(res, Ok(len), "{isa} {name}");
            assert_eq!(out, values, "{isa} {name}");
        }
    }
}

#[test]
fn specific_errors_with_offsets() {
    let mut out = [0u32; 5];
    // Two control bytes needed, one given.
    assert_eq!(
        svb::decode(&[0], &mut out),
        Err(Error::Truncated {
            offset: 1,
            needed: 5,
            unit: Unit::Values,
        })
    );
    // Codes 0, 1, 3, 0 | 0: the third value (4 bytes at data offset 3) is cut.
    let bytes = [0b00_11_01_00, 0, 1, 2, 3, 4, 5];
    assert_eq!(
        svb::decode(&bytes, &mut out),
        Err(Error::Truncated {
            offset: 5,
            needed: 3,
            unit: Unit::Values,
        })
    );
    assert_eq!(
        svb::decode_to_vec(&[0b01_00, 1, 2, 3], 2),
        Ok(vec![1, 0x0302])
    );
    assert_eq!(
        svb::decode_to_vec(&[], 1),
        Err(Error::Truncated {
            offset: 0,
            needed: 1,
            unit: Unit::Values,
        })
    );
    assert_eq!(svb::decode_to_vec(&[], 0), Ok(vec![]));
    assert!(svb::validate(&[], 0));
    assert!(!svb::validate(&[0], 0));
    assert!(svb::validate_0124(&[0], 1));
    assert!(!svb::validate(&[0], 1));
}

#[test]
fn errors_deep_in_a_stream_agree_across_isas() {
    let mut rng = Rng::new(99);
    for (name, zero124, delta) in VARIANTS {
        for n in [16usize, 17, 64, 100, 1000, 4097] {
            let values = values_with_mix(&mut rng, n, 0b11111);
            let bytes = encode_variant(zero124, delta, &values, 3);
            for cut in [1usize, 2, 5, 15, 16, 17, 40, 100] {
                if cut > bytes.len() {
                    continue;
                }
                let short = &bytes[..bytes.len() - cut];
                let ctx = format!("{name} n {n} cut {cut}");
                let res = all_isas_agree(zero124, delta, short, n, 3, &ctx);
                assert!(
                    matches!(res, Err(Error::Truncated { .. })),
                    "{ctx}: {res:?}"
                );
            }
        }
    }
}

#[test]
fn every_byte_change_and_truncation_gives_ok_or_err_alike() {
    let mut rng = Rng::new(5);
    for (name, zero124, delta) in VARIANTS {
        for n in [1usize, 4, 7, 16, 33, 70] {
            let values = values_with_mix(&mut rng, n, 0b11111);
            let bytes = encode_variant(zero124, delta, &values, 0);
            for len in 0..bytes.len() {
                let ctx = format!("{name} n {n} truncated to {len}");
                assert!(all_isas_agree(zero124, delta, &bytes[..len], n, 0, &ctx).is_err());
            }
            for i in 0..bytes.len() {
                for flip in [0x01u8, 0x80, 0xff, 0x55] {
                    let mut bad = bytes.clone();
                    bad[i] ^= flip;
                    let ctx = format!("{name} n {n} byte {i} ^ {flip:#x}");
                    let _ = all_isas_agree(zero124, delta, &bad, n, 0, &ctx);
                }
            }
        }
    }
}

/// Runs of one-byte gaps below 32 (dense posting lists) go through the
/// AVX-512 kernel's byte-domain path, 64 values at a time: a larger gap at
/// each edge of such a window, lengths around its size and every
/// truncation check where that path must stop.
#[test]
fn delta_runs_of_small_gaps_round_trip() {
    let mut rng = Rng::new(32);
    for n in [
        63usize, 64, 65, 127, 128, 129, 192, 255, 256, 1000, 4096, 4099,
    ] {
        for big_at in [
            None,
            Some(0),
            Some(1),
            Some(31),
            Some(32),
            Some(63),
            Some(64),
            Some(100),
        ] {
            for big in [32u32, 255, 256, 70_000] {
                let gaps: Vec<u32> = (0..n)
                    .map(|i| {
                        if Some(i % 128) == big_at {
                            big
                        } else {
                            rng.below(32) as u32
                        }
                    })
                    .collect();
                let prev = rng.next_u64() as u32;
                let values = running_sum(gaps.into_iter(), prev);
                let ctx = format!("small gaps, n {n}, gap {big} at {big_at:?} of 128, prev {prev}");
                round_trip_all(&values, prev, &ctx);
            }
        }
    }
    for n in [64usize, 65, 130, 200] {
        let gaps: Vec<u32> = (0..n).map(|_| rng.below(32) as u32).collect();
        let values = running_sum(gaps.into_iter(), 7);
        let bytes = svb::encode_delta_to_vec(&values, 7);
        for len in 0..bytes.len() {
            let ctx = format!("small gaps, n {n}, truncated to {len}");
            assert!(all_isas_agree(false, true, &bytes[..len], n, 7, &ctx).is_err());
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x20;
            let ctx = format!("small gaps, n {n}, byte {i} ^ 0x20");
            let _ = all_isas_agree(false, true, &bad, n, 7, &ctx);
        }
    }
}

/// Runs of one-byte values (zero control bytes: the kernels zero-extend
/// them with no table, 16, 32 or 64 at a time) broken by a longer value at
/// each place of a 32-value window and at places of a 128-value one, at
/// lengths around the run sizes, and every truncation of such streams:
/// every kernel agrees with the scalar one.
#[test]
fn plain_runs_of_one_byte_values_round_trip() {
    let mut rng = Rng::new(33);
    for n in [15usize, 16, 17, 31, 32, 33, 63, 64, 65, 96, 129, 1000, 4099] {
        for long_at in [
            None,
            Some(0),
            Some(3),
            Some(4),
            Some(15),
            Some(16),
            Some(17),
            Some(31),
        ] {
            for long in [256u32, 70_000, u32::MAX] {
                let values: Vec<u32> = (0..n)
                    .map(|i| {
                        if Some(i % 32) == long_at {
                            long
                        } else {
                            rng.below(256) as u32
                        }
                    })
                    .collect();
                let ctx = format!("one-byte values, n {n}, {long} at {long_at:?} of 32");
                round_trip_all(&values, 0, &ctx);
            }
        }
    }
    for n in [63usize, 64, 65, 127, 128, 129, 200, 1000] {
        for long_at in [0usize, 1, 15, 16, 47, 48, 63, 64, 65, 79, 80, 127] {
            for zero124 in [false, true] {
                let values: Vec<u32> = (0..n)
                    .map(|i| {
                        if i % 128 == long_at {
                            70_000
                        } else if zero124 {
                            0
                        } else {
                            rng.below(256) as u32
                        }
                    })
                    .collect();
                let bytes = encode_variant(zero124, false, &values, 0);
                let ctx =
                    format!("one-byte runs, n {n}, zero124 {zero124}, long at {long_at} of 128");
                assert_eq!(
                    all_isas_agree(zero124, false, &bytes, n, 0, &ctx),
                    Ok(values),
                    "{ctx}"
                );
            }
        }
    }
    for zero124 in [false, true] {
        let values: Vec<u32> = (0..100)
            .map(|i| if i == 70 { 300 } else { i % 3 })
            .collect();
        let bytes = encode_variant(zero124, false, &values, 0);
        for len in 0..bytes.len() {
            let ctx = format!("one-byte values, zero124 {zero124}, truncated to {len}");
            assert!(all_isas_agree(zero124, false, &bytes[..len], 100, 0, &ctx).is_err());
        }
    }
}

/// Runs of one-byte gaps at the edges of the byte-sum paths (AVX2 and
/// AVX-512 sum gaps below 32 in bytes, eight or more to a byte): gaps of 31
/// everywhere (the largest sums they take), of 32 and 63 (sums that would
/// wrap a byte), and one such gap at each place of a qword among gaps of 31.
#[test]
fn delta_runs_at_the_byte_sum_limits_round_trip() {
    for n in [32usize, 64, 96, 257, 1024] {
        for gap in [31u32, 32, 33, 63, 64, 127, 255] {
            let values = running_sum(std::iter::repeat_n(gap, n), 5);
            round_trip_all(&values, 5, &format!("gaps of {gap}, n {n}"));
            for at in 0..8 {
                let gaps = (0..n).map(|i| if i % 8 == at { gap } else { 31 });
                let values = running_sum(gaps, u32::MAX - 100);
                let ctx = format!("gap {gap} at {at} of 8 among 31, n {n}");
                round_trip_all(&values, u32::MAX - 100, &ctx);
            }
        }
    }
}

/// Long runs of one-byte gaps (zero control bytes) in which each 32 gaps
/// either all stay below 32 (summed in bytes at the AVX2 and AVX-512 levels)
/// or hold wider ones up to 255 (summed in 16-bit lanes), in every order of
/// the two kinds: a wide word among narrow ones, narrow among wide, runs of
/// each, the wide gap in each quarter of its word or everywhere in it; and
/// the run broken by a two-byte gap at a word's start, middle or end.
#[test]
fn delta_runs_mixing_narrow_and_wide_words_round_trip() {
    let mut rng = Rng::new(255);
    // Bit w of a pattern: word w's gaps reach up to 255.
    let patterns: [u64; 8] = [
        0b0010,
        0b1101,
        0b0110_0110,
        0xf0f0_f0f0,
        0x5555_5555,
        0x8000_0001,
        0xffff_fffe,
        0x0123_4567_89ab_cdef,
    ];
    for (p, &pattern) in patterns.iter().enumerate() {
        for wide_at in [None, Some(0usize), Some(9), Some(18), Some(31)] {
            for two_byte_at in [None, Some(32 * 5), Some(32 * 7 + 13), Some(32 * 11 + 31)] {
                let n = 32 * 64 + 7;
                let gaps: Vec<u32> = (0..n)
                    .map(|i| {
                        if Some(i) == two_byte_at {
                            return 256 + rng.below(1000) as u32;
                        }
                        let wide = pattern >> (i / 32 % 64) & 1 == 1;
                        match (wide, wide_at) {
                            (false, _) => rng.below(32) as u32,
                            (true, None) => rng.below(256) as u32,
                            (true, Some(at)) if i % 32 == at => 32 + rng.below(224) as u32,
                            (true, Some(_)) => rng.below(32) as u32,
                        }
                    })
                    .collect();
                let prev = rng.next_u64() as u32;
                let values = running_sum(gaps.into_iter(), prev);
                let ctx = format!(
                    "pattern {p}, wide gap at {wide_at:?} of 32, two-byte gap at {two_byte_at:?}"
                );
                round_trip_all(&values, prev, &ctx);
            }
        }
    }
}

#[test]
fn hostile_counts_do_not_allocate() {
    for n in [usize::MAX, usize::MAX / 2, 1 << 40] {
        assert!(svb::decode_to_vec(&[0; 8], n).is_err());
        assert!(svb::decode_0124_to_vec(&[0; 8], n).is_err());
        assert!(svb::decode_delta_to_vec(&[0; 8], n, 0).is_err());
        assert!(!svb::validate(&[0; 8], n));
    }
    assert_eq!(svb::max_encoded_len(usize::MAX), usize::MAX);
}

#[test]
fn unsupported_isa_is_an_error() {
    for &isa in Isa::ALL {
        let mut out = [0u32; 1];
        let res = svb::decode_with(isa, &[0, 1], &mut out);
        if isa.is_supported() {
            assert_eq!(res, Ok(2));
        } else {
            assert_eq!(res, Err(Error::Unsupported { isa: isa.name() }));
            assert!(svb::encode_with(isa, &[1], &mut [0u8; 8]).is_err());
        }
    }
}

#[test]
fn encode_with_every_isa_matches_scalar() {
    let mut rng = Rng::new(17);
    // Every byte length's edges, at every lane of a 16-value register.
    let edges = [
        0u32,
        1,
        255,
        256,
        0xffff,
        0x1_0000,
        0xff_ffff,
        0x100_0000,
        u32::MAX,
    ];
    let shifted =
        |k: usize| -> Vec<u32> { (0..4099).map(|i| edges[(i + k) % edges.len()]).collect() };
    let inputs = (0..edges.len()).map(shifted);
    for values in lengths()
        .into_iter()
        .map(|n| values_with_mix(&mut rng, n, 0b11111))
        .chain(inputs)
    {
        let n = values.len();
        let mut want = vec![0u8; svb::max_encoded_len(n)];
        let len = svb::encode_with(Isa::Scalar, &values, &mut want).unwrap();
        want.truncate(len);
        assert_eq!(svb::encode_to_vec(&values), want, "best {n}");
        for &isa in Isa::available() {
            let mut out = vec![0u8; want.len()];
            assert_eq!(
                svb::encode_with(isa, &values, &mut out),
                Ok(want.len()),
                "{isa} {n}"
            );
            assert_eq!(out, want, "{isa} {n}");
        }
    }
}

#[test]
fn golden_vectors_0124() {
    let text = include_str!("../golden/stream_vbyte/vectors_0124.txt");
    let mut rows = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut parts = line.split(' ');
        let kind = parts.next().unwrap();
        let values: Vec<u32> = parts
            .next()
            .unwrap()
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        let hex = parts.next().unwrap_or("");
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        let delta = kind == "delta";
        assert_eq!(encode_variant(true, delta, &values, 0), bytes, "{line}");
        let got = all_isas_agree(true, delta, &bytes, values.len(), 0, line).unwrap();
        assert_eq!(got, values, "{line}");
        rows += 1;
    }
    assert!(rows >= 10);
}

#[test]
fn real_postings_round_trip_when_present() {
    let Some(dir) = common::data::folder("postings", "the real posting lists") else {
        return;
    };
    let path = dir.join("clueweb09_1k.docs");
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let words: Vec<u32> = raw
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut at = 0;
    let mut lists = 0;
    while at < words.len() && lists < 2000 {
        let n = words[at] as usize;
        let list = &words[at + 1..at + 1 + n];
        let bytes = svb::encode_delta_to_vec(list, 0);
        let got = all_isas_agree(false, true, &bytes, n, 0, "postings").unwrap();
        assert_eq!(got, list);
        at += 1 + n;
        lists += 1;
    }
}

#[cfg(target_arch = "x86_64")]
mod interop {
    use super::*;

    /// The reference decoder may read past the end of its input: give it room.
    fn padded(bytes: &[u8]) -> Vec<u8> {
        let mut v = bytes.to_vec();
        v.extend_from_slice(&[0; 64]);
        v
    }

    #[test]
    fn bytes_match_the_reference_both_ways() {
        let mut rng = Rng::new(2024);
        for mix in 1..16u32 {
            for n in [0usize, 1, 3, 4, 5, 17, 100, 1000, 4099] {
                let values = values_with_mix(&mut rng, n, mix);
                let ours = svb::encode_to_vec(&values);
                assert_eq!(ours, streamvbyte::encode(&values), "mix {mix:04b} n {n}");
                let mut theirs_out = vec![0u32; n];
                let used = streamvbyte::decode(&padded(&ours), &mut theirs_out);
                assert_eq!((used, &theirs_out), (ours.len(), &values));

                let prev = rng.next_u64() as u32;
                let sorted = running_sum(values.iter().copied(), prev);
                let ours = svb::encode_delta_to_vec(&sorted, prev);
                assert_eq!(
                    ours,
                    streamvbyte::encode_delta(&sorted, prev),
                    "delta {mix:04b} {n}"
                );
                let mut theirs_out = vec![0u32; n];
                let used = streamvbyte::decode_delta(&padded(&ours), &mut theirs_out, prev);
                assert_eq!((used, &theirs_out), (ours.len(), &sorted));
                let got = all_isas_agree(false, true, &ours, n, prev, "interop delta").unwrap();
                assert_eq!(got, sorted);
            }
        }
    }
}

fn value_strategy() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        0u32..256,
        256u32..65536,
        65536u32..(1 << 24),
        any::<u32>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn prop_all_isas_match_scalar(values in prop::collection::vec(value_strategy(), 0..10_000), prev: u32) {
        round_trip_all(&values, prev, "proptest");
    }

    #[test]
    fn prop_arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600), n in 0usize..900, prev: u32) {
        for (name, zero124, delta) in VARIANTS {
            let _ = all_isas_agree(zero124, delta, &bytes, n, prev, name);
        }
    }
}
