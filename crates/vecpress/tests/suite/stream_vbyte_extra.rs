//! Stream VByte extras: zigzag (i32, i64), u16, random access (select,
//! seek) against a decode, and the append writers against one-shot encodes.

use crate::common::{self, Rng};
use proptest::prelude::*;
use vecpress::stream_vbyte as sv;
use vecpress::stream_vbyte::u64 as sv64;
use vecpress::{Error, Isa, Unit};

// ---- zigzag and u16 -------------------------------------------------------

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
            needed: 990,
            unit: Unit::Values,
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
                for &isa in Isa::available() {
                    assert_eq!(
                        sv::select_delta_with(isa, &delta, n, i, prev),
                        Ok(v),
                        "{isa} delta mix {mix:04b} n {n} i {i}"
                    );
                }
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
                for &isa in Isa::available() {
                    assert_eq!(
                        sv::seek_delta_with(isa, &bytes, n, t, prev),
                        Ok(want),
                        "{isa} bits {bits} n {n} target {t}"
                    );
                }
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
        }
    }
    // Delta: where decoding all 100 values finds value k cut, select_delta
    // of i >= k reports the same byte with i + 1 - k values missing, and a
    // seek past every value reports what decoding reports.
    for cut in 25..bytes.len() {
        let cut_delta = &bytes[..cut];
        let mut out = vec![0u32; 100];
        let Err(Error::Truncated {
            offset,
            needed,
            unit: Unit::Values,
        }) = sv::decode_delta(cut_delta, &mut out, 0)
        else {
            panic!("cut at {cut} decodes");
        };
        let k = 100 - needed;
        for &isa in Isa::available() {
            for i in [0usize, 1, 3, 4, 50, 98, 99] {
                let want = if i < k {
                    Ok(values[i])
                } else {
                    Err(Error::Truncated {
                        offset,
                        needed: i + 1 - k,
                        unit: Unit::Values,
                    })
                };
                assert_eq!(
                    sv::select_delta_with(isa, cut_delta, 100, i, 0),
                    want,
                    "{isa:?} cut {cut} i {i}"
                );
            }
            assert_eq!(
                sv::seek_delta_with(isa, cut_delta, 100, u32::MAX, 0),
                Err(Error::Truncated {
                    offset,
                    needed,
                    unit: Unit::Values
                }),
                "{isa:?} cut {cut}"
            );
        }
    }
    // Exact errors: value 99 cut short.
    let last = plain.len() - 1;
    assert_eq!(
        sv::select(&plain[..last], 100, 99),
        Err(Error::Truncated {
            offset: plain.len() - 3,
            needed: 1,
            unit: Unit::Values,
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
            needed: 4,
            unit: Unit::Values,
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

#[test]
fn select_and_seek_kernels_agree_on_bad_input() {
    let mut rng = Rng::new(123);
    let values = sorted(&mut rng, 300, 12, 0);
    let bytes = sv::encode_delta_to_vec(&values, 0);
    for cut in (0..bytes.len()).step_by(7) {
        for at in [0usize, 100, 250] {
            let mut bad = bytes[..cut].to_vec();
            if let Some(b) = bad.get_mut(at) {
                *b ^= 0x5a;
            }
            for (i, t) in [(0usize, 5u32), (150, 100_000), (299, u32::MAX)] {
                let want_sel = sv::select_delta_with(Isa::Scalar, &bad, 300, i, 0);
                let want_seek = sv::seek_delta_with(Isa::Scalar, &bad, 300, t, 0);
                for &isa in Isa::available() {
                    assert_eq!(
                        sv::select_delta_with(isa, &bad, 300, i, 0),
                        want_sel,
                        "{isa} cut {cut} at {at} i {i}"
                    );
                    assert_eq!(
                        sv::seek_delta_with(isa, &bad, 300, t, 0),
                        want_seek,
                        "{isa} cut {cut} at {at} t {t}"
                    );
                }
            }
        }
    }
}

/// A stream whose running sum wraps past 2^32 inside a run of groups: the
/// first value at least the target comes before the wrap, though the sum
/// over the run (wrapping) stays below the target. Every kernel answers as
/// the scalar search does.
#[test]
fn seek_where_the_running_sum_wraps_agrees_with_scalar() {
    for at in [0usize, 1, 5, 17, 40, 90] {
        let mut gaps = vec![1u32; 120];
        gaps[at] = 200;
        gaps[at + 1] = u32::MAX - 194;
        let mut acc = 10u32;
        let values: Vec<u32> = gaps
            .iter()
            .map(|&g| {
                acc = acc.wrapping_add(g);
                acc
            })
            .collect();
        let bytes = sv::encode_delta_to_vec(&values, 10);
        for target in [50u32, 100, 205, 210, 211, 1000, u32::MAX] {
            let want = sv::seek_delta_with(Isa::Scalar, &bytes, values.len(), target, 10);
            let first = values.iter().position(|&v| v >= target);
            assert_eq!(
                want,
                Ok(first.map(|i| (i, values[i]))),
                "at {at} target {target}"
            );
            for &isa in Isa::available() {
                assert_eq!(
                    sv::seek_delta_with(isa, &bytes, values.len(), target, 10),
                    want,
                    "{isa:?} at {at} target {target}"
                );
            }
        }
    }
}

/// A stream cut right after the value a seek finds still answers, on every
/// kernel, for every cut past that value's last byte.
#[test]
fn seek_answers_on_a_stream_cut_after_the_value_found() {
    let mut rng = Rng::new(77);
    for bits in [1u32, 8, 12, 20] {
        let values = sorted(&mut rng, 300, bits, 0);
        let bytes = sv::encode_delta_to_vec(&values, 0);
        let clen = 300usize.div_ceil(4);
        for i in [0usize, 3, 17, 64, 150, 299] {
            let target = values[i];
            let first = values.iter().position(|&v| v >= target).unwrap();
            // The data bytes up to the end of value `first`.
            let gaps: Vec<u32> = values
                .iter()
                .scan(0u32, |p, &v| {
                    let g = v.wrapping_sub(*p);
                    *p = v;
                    Some(g)
                })
                .collect();
            let end: usize = gaps[..=first]
                .iter()
                .map(|&g| (32 - g.leading_zeros()).max(1).div_ceil(8) as usize)
                .sum();
            for cut in clen + end..=bytes.len() {
                for &isa in Isa::available() {
                    assert_eq!(
                        sv::seek_delta_with(isa, &bytes[..cut], 300, target, 0),
                        Ok(Some((first, values[first]))),
                        "{isa:?} bits {bits} i {i} cut {cut}"
                    );
                }
            }
        }
    }
}
