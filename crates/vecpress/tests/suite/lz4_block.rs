//! LZ4 blocks: round trips, every variant against the checked decoder,
//! interop with liblz4 and lz4_flex, and bad input.

use crate::common::{Rng, at_offset};
use proptest::prelude::*;
use vecpress::lz4::block::{self, Variant};
use vecpress::{Error, Unit};

/// Makes an input of some kind and a given length.
type Maker = fn(&mut Rng, usize) -> Vec<u8>;

/// Inputs of one kind and length, for every kind the tests use.
fn kinds() -> Vec<(&'static str, Maker)> {
    vec![
        ("random", |r, n| {
            (0..n).map(|_| r.next_u64() as u8).collect()
        }),
        ("zeros", |_, n| vec![0u8; n]),
        ("text", |r, n| text(r, n)),
        ("periodic", |r, n| {
            let period = 1 + r.below(40) as usize;
            let pattern: Vec<u8> = (0..period).map(|_| r.next_u64() as u8).collect();
            pattern.iter().copied().cycle().take(n).collect()
        }),
        ("runs", |r, n| {
            let mut v = Vec::with_capacity(n);
            while v.len() < n {
                let b = r.next_u64() as u8;
                let len = 1 + r.below(300) as usize;
                v.extend(std::iter::repeat_n(b, len.min(n - v.len())));
            }
            v
        }),
        ("mixed", |r, n| mixed(r, n)),
    ]
}

/// Words from a small vocabulary: compressible like prose.
fn text(r: &mut Rng, n: usize) -> Vec<u8> {
    const WORDS: [&str; 12] = [
        "the ", "quick ", "brown ", "fox ", "jumps ", "over ", "lazy ", "dog ", "and ", "a ",
        "cat, ", "sleeps. ",
    ];
    let mut v = Vec::with_capacity(n + 8);
    while v.len() < n {
        v.extend_from_slice(WORDS[r.below(12) as usize].as_bytes());
    }
    v.truncate(n);
    v
}

/// Literals and back-references at every offset 1..=70000 and length.
fn mixed(r: &mut Rng, n: usize) -> Vec<u8> {
    let mut v: Vec<u8> = Vec::with_capacity(n);
    while v.len() < n {
        let lits = r.below(40) as usize;
        for _ in 0..lits.min(n - v.len()) {
            v.push(r.next_u64() as u8);
        }
        if v.is_empty() || v.len() >= n {
            continue;
        }
        let offset = 1 + match r.below(3) {
            0 => r.below(16),
            1 => r.below(64),
            _ => r.below(70_000),
        } as usize;
        let offset = offset.min(v.len());
        let longest = if r.below(8) == 0 { 2000 } else { 40 };
        let len = (4 + r.below(longest) as usize).min(n - v.len());
        let from = v.len() - offset;
        for i in 0..len {
            v.push(v[from + i]);
        }
    }
    v
}

/// A valid block of text to decode beside the block under test.
fn partner() -> &'static (Vec<u8>, Vec<u8>) {
    static PARTNER: std::sync::OnceLock<(Vec<u8>, Vec<u8>)> = std::sync::OnceLock::new();
    PARTNER.get_or_init(|| {
        let data = text(&mut Rng::new(77), 3000);
        (block::compress(&data), data)
    })
}

/// Decodes `packed` with every available variant into a buffer of `size`
/// bytes (filled with a sentinel) and checks each against the checked
/// decoder: same result, same bytes. Also as either block of a pair, beside
/// a valid block: the same result for it, and the partner decoded whole.
fn all_variants_agree(packed: &[u8], size: usize, context: &str) -> Result<Vec<u8>, Error> {
    let mut want = vec![0x5Au8; size];
    let want_res = block::decompress_into_variant(Variant::Checked, packed, &mut want);
    let (partner, partner_data) = partner();
    for v in block::variants() {
        for fill in [0xA5u8, 0x00] {
            let mut got = vec![fill; size];
            let res = block::decompress_into_variant(v, packed, &mut got);
            assert_eq!(res, want_res, "{v} result, {context}");
            if let Ok(n) = res {
                assert_eq!(got[..n], want[..n], "{v} bytes, fill {fill:#x}, {context}");
            }
        }
        for first in [true, false] {
            let mut got = vec![0xA5u8; size];
            let mut other = vec![0xA5u8; partner_data.len()];
            let (res, res_other) = if first {
                block::decompress_pair_variant(v, (packed, &mut got), (partner, &mut other))
            } else {
                let (a, b) =
                    block::decompress_pair_variant(v, (partner, &mut other), (packed, &mut got));
                (b, a)
            };
            assert_eq!(res, want_res, "{v} pair (first {first}) result, {context}");
            if let Ok(n) = res {
                assert_eq!(
                    got[..n],
                    want[..n],
                    "{v} pair (first {first}) bytes, {context}"
                );
            }
            assert_eq!(res_other, Ok(partner_data.len()), "{v} partner, {context}");
            assert!(other == *partner_data, "{v} partner bytes, {context}");
        }
    }
    want_res.map(|n| want[..n].to_vec())
}

fn lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..300).collect();
    v.extend([
        511, 512, 1000, 4095, 4096, 4097, 65_535, 65_536, 65_546, 65_547, 65_548, 100_000, 300_000,
    ]);
    v
}

#[test]
fn round_trips_every_kind_and_length_through_every_variant() {
    for (name, make) in kinds() {
        for n in lengths() {
            let seed = n as u64 * 31 + name.len() as u64;
            let data = make(&mut Rng::new(seed), n);
            let packed = block::compress(&data);
            assert!(packed.len() <= block::max_compressed_len(n), "{name} {n}");
            let offset = 1 + (seed % 63) as usize;
            let (buf, at) = at_offset(&packed, offset);
            let ctx = format!("{name}, n {n}, seed {seed}");
            let got = all_variants_agree(&buf[at..], n, &ctx).unwrap();
            assert_eq!(got, data, "{ctx}");
            assert_eq!(block::validate(&packed), Ok(n), "{ctx}");
            // A larger output is fine; the count says how much was written.
            let mut big = vec![0u8; n + 100];
            assert_eq!(block::decompress_into(&packed, &mut big), Ok(n), "{ctx}");
        }
    }
}

#[test]
fn compression_of_compressible_kinds_shrinks() {
    let mut r = Rng::new(3);
    for (data, most) in [
        (vec![0u8; 100_000], 500),
        (text(&mut r, 100_000), 45_000),
        (mixed(&mut r, 100_000), 80_000),
    ] {
        assert!(block::compress(&data).len() < most);
    }
}

#[test]
fn acceleration_trades_ratio_and_still_round_trips() {
    let data = mixed(&mut Rng::new(9), 200_000);
    let mut sizes = Vec::new();
    for acc in [0, 1, 2, 8, 64, 65_537, u32::MAX] {
        let mut dst = vec![0u8; block::max_compressed_len(data.len())];
        let n = block::compress_into_with(&data, &mut dst, acc).unwrap();
        let mut out = vec![0u8; data.len()];
        assert_eq!(
            block::decompress_into(&dst[..n], &mut out),
            Ok(data.len()),
            "acc {acc}"
        );
        assert_eq!(out, data, "acc {acc}");
        sizes.push(n);
    }
    assert_eq!(sizes[0], sizes[1], "0 acts as 1");
    assert!(sizes[1] <= sizes[3] && sizes[3] <= sizes[4], "{sizes:?}");
}

#[test]
fn compress_into_reports_a_small_output() {
    let data = text(&mut Rng::new(1), 10_000);
    let need = block::compress(&data).len();
    let mut dst = vec![0u8; need - 1];
    assert!(matches!(
        block::compress_into(&data, &mut dst),
        Err(Error::OutputTooSmall { .. })
    ));
    let mut dst = vec![0u8; need];
    assert_eq!(block::compress_into(&data, &mut dst), Ok(need));
}

/// Every output shorter than the block is refused with `OutputTooSmall`
/// (never a panic or a partial block reported as whole), and the exact
/// length gives the same bytes as a roomy one: each kind of sequence (with
/// literals, a match right after a match, long lengths) meets the end of the
/// output somewhere.
#[test]
fn compress_into_refuses_every_short_output() {
    for (name, make) in kinds() {
        let data = make(&mut Rng::new(7), 3000);
        let want = block::compress(&data);
        for len in 0..want.len() {
            let mut dst = vec![0u8; len];
            assert!(
                matches!(
                    block::compress_into(&data, &mut dst),
                    Err(Error::OutputTooSmall { .. })
                ),
                "{name}: output of {len} of {}",
                want.len()
            );
        }
        let mut dst = vec![0u8; want.len()];
        assert_eq!(
            block::compress_into(&data, &mut dst),
            Ok(want.len()),
            "{name}"
        );
        assert_eq!(dst, want, "{name}");
    }
}

#[test]
fn blocks_keep_the_end_of_block_rules() {
    for (name, make) in kinds() {
        for n in [13usize, 20, 100, 5000] {
            let data = make(&mut Rng::new(n as u64), n);
            let packed = block::compress(&data);
            let (mut ip, mut op) = (0, 0);
            loop {
                let token = packed[ip];
                ip += 1;
                let mut lit = usize::from(token >> 4);
                if lit == 15 {
                    while packed[ip] == 255 {
                        lit += 255;
                        ip += 1;
                    }
                    lit += usize::from(packed[ip]);
                    ip += 1;
                }
                ip += lit;
                op += lit;
                if ip == packed.len() {
                    break;
                }
                assert!(
                    op + block::MFLIMIT <= n,
                    "{name} {n}: match starts too late"
                );
                ip += 2;
                let mut len = usize::from(token & 15);
                if len == 15 {
                    while packed[ip] == 255 {
                        len += 255;
                        ip += 1;
                    }
                    len += usize::from(packed[ip]);
                    ip += 1;
                }
                op += len + block::MINMATCH;
                assert!(
                    op + block::LASTLITERALS <= n,
                    "{name} {n}: match ends too late"
                );
            }
        }
    }
}

#[test]
fn dictionary_and_prefix_blocks_round_trip() {
    let mut r = Rng::new(77);
    for dict_len in [0usize, 1, 100, 65_535, 65_536, 100_000] {
        let whole = mixed(&mut r, dict_len + 20_000);
        let (dict, src) = whole.split_at(dict_len);
        let mut packed = vec![0u8; block::max_compressed_len(src.len())];
        let n = block::compress_with_dict(src, dict, &mut packed).unwrap();
        let mut out = vec![0xAAu8; src.len()];
        assert_eq!(
            block::decompress_with_dict(&packed[..n], dict, &mut out),
            Ok(src.len())
        );
        assert_eq!(out, src, "dict {dict_len}");
        let mut buf = whole.clone();
        buf[dict_len..].fill(0xAA);
        let got = block::decompress_with_prefix(&packed[..n], &mut buf, dict_len);
        assert_eq!(got, Ok(src.len()), "prefix {dict_len}");
        assert_eq!(buf, whole, "prefix {dict_len}");
        let mut by_prefix = vec![0u8; packed.len()];
        let p = block::compress_with_prefix(&whole, dict_len, &mut by_prefix).unwrap();
        out.fill(0xAA);
        let got = block::decompress_with_dict(&by_prefix[..p], dict, &mut out);
        assert_eq!((got, &out[..]), (Ok(src.len()), src), "prefix {dict_len}");
        // Without the history, a block that uses it must fail.
        if dict_len > 0 && block::decompress_with_dict(&packed[..n], &[], &mut out).is_ok() {
            assert_eq!(out, src);
        }
    }
}

/// Long runs of a short pattern up to the block's end: the fast loops leave
/// such a match (the block's last 5 bytes must be literals, so it ends too
/// close for their wide copies) to the checked path, which copies it by
/// doubling; and runs that start in a dictionary and go on in the output.
#[test]
fn long_periodic_runs_to_the_end_of_the_block_and_from_a_dictionary() {
    for period in [1usize, 2, 3, 7, 16, 31, 33, 64] {
        let pattern: Vec<u8> = (0..period).map(|i| (i * 37 + 11) as u8).collect();
        for len in [20usize, 100, 1000, 65_536, 200_000] {
            let mut data = b"head".to_vec();
            data.extend(pattern.iter().cycle().take(len));
            data.extend_from_slice(b"tail!");
            let ctx = format!("period {period}, run {len}");
            let packed = block::compress(&data);
            assert!(
                packed.len() < 100 + len / 50,
                "{ctx}: {} bytes",
                packed.len()
            );
            assert_eq!(
                all_variants_agree(&packed, data.len(), &ctx).unwrap(),
                data,
                "{ctx}"
            );

            let dict: Vec<u8> = pattern
                .iter()
                .cycle()
                .take(period * 3 + 1)
                .copied()
                .collect();
            let src: Vec<u8> = pattern.iter().cycle().skip(1).take(len).copied().collect();
            let mut packed = vec![0u8; block::max_compressed_len(src.len())];
            let n = block::compress_with_dict(&src, &dict, &mut packed).unwrap();
            let mut out = vec![0xAAu8; src.len()];
            let got = block::decompress_with_dict(&packed[..n], &dict, &mut out);
            assert_eq!((got, &out), (Ok(src.len()), &src), "dictionary, {ctx}");
        }
    }
}

/// Writes an LZ4 length's extension bytes (the part from 15 on).
fn push_extension(out: &mut Vec<u8>, mut rest: usize) {
    while rest >= 255 {
        out.push(255);
        rest -= 255;
    }
    out.push(rest as u8);
}

/// Blocks written by hand, one match each: `head` random literals, then a
/// match at `offset` of `len` bytes (its pattern the last `offset` bytes
/// written), then 12 literals (the end-of-block rules) or 64 (room for the
/// fast loops to copy the match themselves), decoded by every
/// variant and compared with the bytes the match means, not only with the
/// checked decoder. Every offset that a loop copies as an overlapping match
/// (below 32, its widest copy) and past it, each at lengths around the
/// copies' widths and steps, after heads as short as the offset allows (the
/// pattern loads then reach back to the block's first byte).
#[test]
fn every_short_offset_and_length_decodes_to_its_pattern() {
    let mut r = Rng::new(9);
    let mut lengths: Vec<usize> = (4..=70).collect();
    lengths.extend([95, 96, 97, 127, 128, 129, 130, 200, 1000, 4099]);
    for offset in 1..=40usize {
        for (head, tail) in [
            (offset, 12),
            (offset + 1, 64),
            (offset + 7, 12),
            (48.max(offset), 64),
        ] {
            for &len in &lengths {
                let mut data: Vec<u8> = (0..head).map(|_| r.next_u64() as u8).collect();
                for _ in 0..len {
                    data.push(data[data.len() - offset]);
                }
                let tail: Vec<u8> = (0..tail).map(|_| r.next_u64() as u8).collect();
                data.extend(&tail);

                let mut packed = Vec::new();
                let lit = head.min(15);
                let m = (len - 4).min(15);
                packed.push((lit << 4 | m) as u8);
                if head >= 15 {
                    push_extension(&mut packed, head - 15);
                }
                packed.extend(&data[..head]);
                packed.extend((offset as u16).to_le_bytes());
                if len - 4 >= 15 {
                    push_extension(&mut packed, len - 4 - 15);
                }
                packed.push((tail.len().min(15) << 4) as u8);
                if tail.len() >= 15 {
                    push_extension(&mut packed, tail.len() - 15);
                }
                packed.extend(&tail);

                let ctx = format!("offset {offset}, head {head}, match {len}");
                let got = all_variants_agree(&packed, data.len(), &ctx);
                assert_eq!(got.as_ref(), Ok(&data), "{ctx}");
                let got = all_variants_agree(&packed, data.len() + 40, &ctx);
                assert_eq!(got.as_ref(), Ok(&data), "{ctx}, room after");
            }
        }
    }
}

/// A dictionary longer than 64 KiB counts by its last 64 KiB only, on both
/// sides; inputs around the end-of-block limits and the table's size
/// threshold round trip with dictionaries of every size class.
#[test]
fn dictionaries_use_their_last_64k_and_round_trip_at_the_edges() {
    let mut r = Rng::new(78);
    let long = mixed(&mut r, 200_000);
    let tail = &long[long.len() - 65_535..];
    for src_len in [
        0usize, 1, 5, 11, 12, 13, 14, 100, 4096, 65_535, 65_536, 65_547, 65_548, 150_000,
    ] {
        // Inputs that copy pieces of the dictionary, and fresh bytes.
        let mut src = Vec::with_capacity(src_len);
        while src.len() < src_len {
            let from = r.below(long.len() as u64 - 300) as usize;
            let take = (r.below(200) as usize + 1).min(src_len - src.len());
            src.extend_from_slice(&long[from..from + take]);
            if src.len() < src_len {
                src.push(r.below(256) as u8);
            }
        }
        for (name, dict) in [
            ("long", &long[..]),
            ("tail", tail),
            ("empty", &[][..]),
            ("tiny", &long[..3]),
        ] {
            let mut packed = vec![0u8; block::max_compressed_len(src.len())];
            let n = block::compress_with_dict(&src, dict, &mut packed).unwrap();
            let mut out = vec![0x55u8; src.len()];
            let got = block::decompress_with_dict(&packed[..n], dict, &mut out);
            assert_eq!(got, Ok(src.len()), "{name} {src_len}");
            assert!(out == src, "{name} {src_len}");
            if name == "long" {
                // The tail alone decodes what the long dictionary encoded.
                out.fill(0x55);
                let got = block::decompress_with_dict(&packed[..n], tail, &mut out);
                assert_eq!(got, Ok(src.len()), "tail decodes long {src_len}");
                assert!(out == src, "tail decodes long {src_len}");
            }
            // A short output is an error, never a panic.
            if !src.is_empty() {
                let got =
                    block::decompress_with_dict(&packed[..n], dict, &mut out[..src.len() - 1]);
                assert!(got.is_err(), "{name} {src_len}: short output");
            }
        }
    }
}

#[test]
fn size_prepended_round_trips_and_refuses_hostile_sizes() {
    let data = text(&mut Rng::new(5), 3000);
    let packed = block::compress_size_prepended(&data);
    assert_eq!(block::decompress_size_prepended(&packed).unwrap(), data);
    let mut lying = packed.clone();
    lying[..4].copy_from_slice(&2999u32.to_le_bytes());
    assert!(block::decompress_size_prepended(&lying).is_err());
    lying[..4].copy_from_slice(&3001u32.to_le_bytes());
    assert!(block::decompress_size_prepended(&lying).is_err());
    assert!(matches!(
        block::decompress_size_prepended_with_limit(&packed, 100),
        Err(Error::LimitExceeded {
            requested: 3000,
            limit: 100,
            ..
        })
    ));
    assert_eq!(
        block::decompress_size_prepended(&[1, 0]),
        Err(Error::Truncated {
            offset: 0,
            needed: 2,
            unit: Unit::Bytes,
        })
    );
}

#[test]
fn hostile_blocks_give_errors_with_offsets() {
    let cases: &[(&[u8], Error)] = &[
        (
            &[],
            Error::Truncated {
                offset: 0,
                needed: 1,
                unit: Unit::Bytes,
            },
        ),
        // One literal, then a match with offset 0.
        (
            &[0x10, b'a', 0, 0],
            Error::Corrupt {
                offset: 2,
                what: "match offset is zero",
            },
        ),
        // Offset 2 with one byte produced.
        (
            &[0x10, b'a', 2, 0, 0x00],
            Error::Corrupt {
                offset: 2,
                what: "match offset reaches before the start of the output",
            },
        ),
        // 15 literals promised by the token and its extension, 2 present.
        (
            &[0xF0, 0, 1, 2],
            Error::Truncated {
                offset: 0,
                needed: 13,
                unit: Unit::Bytes,
            },
        ),
        // A length extension that never ends.
        (
            &[0xF0, 255, 255],
            Error::Truncated {
                offset: 0,
                needed: 1,
                unit: Unit::Bytes,
            },
        ),
        // Literals, then only one byte of offset.
        (
            &[0x20, b'a', b'b', 1],
            Error::Truncated {
                offset: 0,
                needed: 1,
                unit: Unit::Bytes,
            },
        ),
        // A block that ends with a match, not literals.
        (
            &[0x10, b'a', 1, 0],
            Error::Truncated {
                offset: 4,
                needed: 1,
                unit: Unit::Bytes,
            },
        ),
    ];
    for (packed, want) in cases {
        let mut out = [0u8; 64];
        for v in block::variants() {
            assert_eq!(
                block::decompress_into_variant(v, packed, &mut out).as_ref(),
                Err(want),
                "{v} {packed:?}"
            );
        }
        assert_eq!(
            block::validate(packed).as_ref(),
            Err(want),
            "validate {packed:?}"
        );
    }
    // A match far longer than the output.
    let long = [0x1F, b'a', 1, 0, 255, 255, 255, 10, 0x00];
    let mut out = vec![0u8; 200];
    for v in block::variants() {
        assert_eq!(
            block::decompress_into_variant(v, &long, &mut out),
            Err(Error::Corrupt {
                offset: 0,
                what: "match overruns the output"
            }),
            "{v}"
        );
    }
    assert_eq!(block::validate(&long), Ok(1 + 4 + 15 + 3 * 255 + 10));
}

/// Small valid blocks: every single-byte change and every truncation gives
/// the same result from every variant, no panic, and `validate` agrees.
#[test]
fn every_flip_and_truncation_of_small_blocks() {
    for (name, make) in kinds() {
        for n in [0usize, 5, 20, 64, 200] {
            let data = make(&mut Rng::new(n as u64 + 1000), n);
            let packed = block::compress(&data);
            for cut in 0..packed.len() {
                let ctx = format!("{name} n {n} cut {cut}");
                check_bad(&packed[..cut], n, &ctx);
            }
            for i in 0..packed.len() {
                for x in [0x01u8, 0x10, 0x80, 0xFF] {
                    let mut bad = packed.clone();
                    bad[i] ^= x;
                    check_bad(&bad, n, &format!("{name} n {n} byte {i} ^ {x:#x}"));
                }
            }
        }
    }
}

fn check_bad(packed: &[u8], n: usize, ctx: &str) {
    let res = all_variants_agree(packed, n + 40, ctx);
    match block::validate(packed) {
        Ok(size) => {
            if size <= n + 40 {
                assert_eq!(res.map(|v| v.len()), Ok(size), "{ctx}");
            }
        }
        // The same error, unless the output ran out before it.
        Err(e) => match res {
            Err(Error::Corrupt { what, .. }) if what.contains("overrun") => {}
            other => assert_eq!(other, Err(e), "{ctx}"),
        },
    }
}

#[test]
fn outputs_never_show_bytes_the_call_did_not_write() {
    // Data without the byte 0xEE, decoded into buffers full of 0xEE of every
    // size from too small to ample: whatever is returned as written holds
    // no 0xEE.
    let mut r = Rng::new(11);
    for n in [20usize, 100, 1000] {
        let data: Vec<u8> = mixed(&mut r, n).iter().map(|&b| b.min(0xED)).collect();
        let packed = block::compress(&data);
        for size in 0..n + 50 {
            for v in block::variants() {
                let mut out = vec![0xEEu8; size];
                if let Ok(k) = block::decompress_into_variant(v, &packed, &mut out) {
                    assert_eq!(&out[..k], &data[..], "{v} n {n} size {size}");
                }
                let (mut a, mut b) = (vec![0xEEu8; size], vec![0xEEu8; n + 50 - size]);
                let (ra, rb) =
                    block::decompress_pair_variant(v, (&packed, &mut a), (&packed, &mut b));
                for (res, out) in [(ra, &a), (rb, &b)] {
                    if let Ok(k) = res {
                        assert_eq!(&out[..k], &data[..], "{v} pair n {n} size {size}");
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_inputs_round_trip(seed in any::<u64>(), n in 0usize..5000, kind in 0usize..6) {
        let data = kinds()[kind].1(&mut Rng::new(seed), n);
        let packed = block::compress(&data);
        let got = all_variants_agree(&packed, n, &format!("kind {kind} seed {seed} n {n}"));
        prop_assert_eq!(got, Ok(data));
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200), size in 0usize..600) {
        check_bad(&bytes, size, &format!("{} random bytes, output {size}", bytes.len()));
    }
}

#[cfg(target_arch = "x86_64")]
mod liblz4 {
    use super::*;

    #[test]
    fn liblz4_decodes_ours_and_we_decode_its() {
        for (name, make) in kinds() {
            for n in [0usize, 1, 12, 13, 100, 4096, 65_536, 300_000] {
                let data = make(&mut Rng::new(n as u64 + 5), n);
                let ours = block::compress(&data);
                let back = lz4::block::decompress(&ours, Some(n as i32)).unwrap();
                assert_eq!(back, data, "liblz4 decodes ours: {name} {n}");
                let theirs = lz4::block::compress(&data, None, false).unwrap();
                let got = all_variants_agree(&theirs, n, &format!("liblz4's {name} {n}"));
                assert_eq!(got.unwrap(), data, "{name} {n}");
                // The same parse: sizes agree within 1%.
                let (a, b) = (ours.len() as f64, theirs.len() as f64);
                assert!(
                    (a - b).abs() <= b * 0.01 + 2.0,
                    "{name} {n}: ours {a}, liblz4 {b}"
                );
            }
        }
    }

    #[test]
    fn liblz4_size_prepended_is_ours() {
        let data = text(&mut Rng::new(8), 5000);
        let theirs = lz4::block::compress(&data, None, true).unwrap();
        assert_eq!(block::decompress_size_prepended(&theirs).unwrap(), data);
        let ours = block::compress_size_prepended(&data);
        assert_eq!(lz4::block::decompress(&ours, None).unwrap(), data);
    }
}

#[test]
fn lz4_flex_decodes_ours_and_we_decode_its() {
    for (name, make) in kinds() {
        for n in [0usize, 1, 13, 100, 4096, 70_000] {
            let data = make(&mut Rng::new(n as u64 + 6), n);
            let ours = block::compress(&data);
            let back = lz4_flex::block::decompress(&ours, n).unwrap();
            assert_eq!(back, data, "lz4_flex decodes ours: {name} {n}");
            let theirs = lz4_flex::block::compress(&data);
            let got = all_variants_agree(&theirs, n, &format!("lz4_flex's {name} {n}"));
            assert_eq!(got.unwrap(), data, "{name} {n}");
        }
    }
}

/// Inputs around 64 KiB (where the compressor switches to a table of u16
/// positions that skips the distance test): random head, zeros, then the
/// head again, so that the search meets the head's position as the
/// candidate of the last bytes, as far back as the input allows. Offsets
/// stay within 65535 bytes: ours and liblz4 (on x86-64, where it is built)
/// decode every block.
#[test]
fn matches_near_64k_stay_within_the_largest_offset() {
    let mut rng = Rng::new(64);
    for len in (65_536 - 24..65_536 + 48).chain([131_072 - 12, 131_072 + 12]) {
        let head: Vec<u8> = (0..24).map(|_| rng.next_u64() as u8).collect();
        let mut data = vec![0u8; len];
        data[..24].copy_from_slice(&head);
        data[len - 24..].copy_from_slice(&head);
        let packed = block::compress(&data);
        let mut out = vec![0u8; len];
        assert_eq!(block::decompress_into(&packed, &mut out), Ok(len), "{len}");
        assert!(out == data, "{len}: ours");
        #[cfg(target_arch = "x86_64")]
        {
            let theirs =
                lz4::block::decompress(&packed, Some(len as i32)).expect("liblz4 decodes it");
            assert!(theirs == data, "{len}: liblz4");
        }
    }
}
