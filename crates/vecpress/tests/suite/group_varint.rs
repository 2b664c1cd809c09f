//! Varint-GB and Varint-G8IU: every kernel against the scalar reference,
//! golden vectors, and bad input.

use crate::common::{Rng, at_offset, lengths, running_sum};
use proptest::prelude::*;
#[cfg(feature = "g8iu")]
use vecpress::group_varint::g8iu;
use vecpress::group_varint::gb;
use vecpress::{Error, Isa, Unit};

type DecodeWith = fn(Isa, &[u8], &mut [u32]) -> Result<usize, Error>;
type DecodeDeltaWith = fn(Isa, &[u8], &mut [u32], u32) -> Result<usize, Error>;
type DecodeDeltaToVec = fn(&[u8], usize, u32) -> Result<Vec<u32>, Error>;

/// One codec's public API, so that every test runs on both formats.
struct Codec {
    name: &'static str,
    max_encoded_len: fn(usize) -> usize,
    encoded_len: fn(&[u32]) -> usize,
    encode: fn(&[u32], &mut [u8]) -> usize,
    encode_to_vec: fn(&[u32]) -> Vec<u8>,
    encode_delta_to_vec: fn(&[u32], u32) -> Vec<u8>,
    decode_with: DecodeWith,
    decode_delta_with: DecodeDeltaWith,
    decode_to_vec: fn(&[u8], usize) -> Result<Vec<u32>, Error>,
    decode_delta_to_vec: DecodeDeltaToVec,
    kernels: fn() -> Vec<Isa>,
}

const GB: Codec = Codec {
    name: "gb",
    max_encoded_len: gb::max_encoded_len,
    encoded_len: gb::encoded_len,
    encode: gb::encode,
    encode_to_vec: gb::encode_to_vec,
    encode_delta_to_vec: gb::encode_delta_to_vec,
    decode_with: gb::decode_with,
    decode_delta_with: gb::decode_delta_with,
    decode_to_vec: gb::decode_to_vec,
    decode_delta_to_vec: gb::decode_delta_to_vec,
    kernels: gb::kernels,
};

#[cfg(feature = "g8iu")]
const G8IU: Codec = Codec {
    name: "g8iu",
    max_encoded_len: g8iu::max_encoded_len,
    encoded_len: g8iu::encoded_len,
    encode: g8iu::encode,
    encode_to_vec: g8iu::encode_to_vec,
    encode_delta_to_vec: g8iu::encode_delta_to_vec,
    decode_with: g8iu::decode_with,
    decode_delta_with: g8iu::decode_delta_with,
    decode_to_vec: g8iu::decode_to_vec,
    decode_delta_to_vec: g8iu::decode_delta_to_vec,
    kernels: g8iu::kernels,
};

fn codecs() -> Vec<&'static Codec> {
    #[cfg(feature = "g8iu")]
    return vec![&GB, &G8IU];
    #[cfg(not(feature = "g8iu"))]
    return vec![&GB];
}

impl Codec {
    /// Decodes `n` values, plain and delta from `prev`, with every available
    /// kernel and checks each result (values and bytes consumed, or the
    /// error) against scalar's; returns scalar's plain result.
    fn all_isas_agree(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        context: &str,
    ) -> Result<Vec<u32>, Error> {
        let name = self.name;
        let mut want = vec![0u32; n];
        let want_res = (self.decode_with)(Isa::Scalar, input, &mut want);
        let mut want_d = vec![0u32; n];
        let want_d_res = (self.decode_delta_with)(Isa::Scalar, input, &mut want_d, prev);
        assert_eq!(
            want_res, want_d_res,
            "{name} plain and delta consume alike, {context}"
        );
        if want_res.is_ok() {
            assert_eq!(
                want_d,
                running_sum(want.iter().copied(), prev),
                "{name} {context}"
            );
        }
        for &isa in Isa::available() {
            let mut got = vec![0u32; n];
            let res = (self.decode_with)(isa, input, &mut got);
            assert_eq!(res, want_res, "{name} {isa} decode result, {context}");
            if res.is_ok() {
                assert_eq!(got, want, "{name} {isa} decoded values, {context}");
            }
            let mut got = vec![0u32; n];
            let res = (self.decode_delta_with)(isa, input, &mut got, prev);
            assert_eq!(res, want_d_res, "{name} {isa} delta result, {context}");
            if res.is_ok() {
                assert_eq!(got, want_d, "{name} {isa} delta values, {context}");
            }
        }
        want_res.map(|_| want)
    }

    /// Encodes `values` and checks that every kernel decodes them back from
    /// a misaligned copy, plain and as gaps from `prev`.
    fn round_trip(&self, values: &[u32], prev: u32, offset: usize, context: &str) {
        let name = self.name;
        let n = values.len();
        let bytes = (self.encode_to_vec)(values);
        assert_eq!(bytes.len(), (self.encoded_len)(values), "{name} {context}");
        assert!(bytes.len() <= (self.max_encoded_len)(n), "{name} {context}");
        let mut buf = vec![0x5au8; (self.max_encoded_len)(n)];
        assert_eq!(
            (self.encode)(values, &mut buf),
            bytes.len(),
            "{name} {context}"
        );
        assert_eq!(&buf[..bytes.len()], &bytes[..], "{name} {context}");
        let (buf, at) = at_offset(&bytes, offset);
        let got = self.all_isas_agree(&buf[at..], n, prev, context);
        assert_eq!(got.as_deref(), Ok(values), "{name} {context}");
        let mut out = vec![0u32; n];
        assert_eq!(
            (self.decode_with)(Isa::best(), &bytes, &mut out),
            Ok(bytes.len())
        );

        // Delta: the gaps are what is stored.
        let gaps: Vec<u32> = values
            .iter()
            .scan(prev, |p, &v| {
                let g = v.wrapping_sub(*p);
                *p = v;
                Some(g)
            })
            .collect();
        let dbytes = (self.encode_delta_to_vec)(values, prev);
        assert_eq!(dbytes, (self.encode_to_vec)(&gaps), "{name} {context}");
        for &isa in Isa::available() {
            let mut out = vec![0u32; n];
            let res = (self.decode_delta_with)(isa, &dbytes, &mut out, prev);
            assert_eq!(res, Ok(dbytes.len()), "{name} {isa} delta {context}");
            assert_eq!(out, values, "{name} {isa} delta {context}");
        }
    }
}

/// Lengths 0..=70 (every residue of the group and block sizes, and the
/// kernels' room checks) and the shared edge lengths up to 4097.
fn all_lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=70).chain(lengths()).collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn simd_kernels_sse41_and_neon_match_scalar_on_every_byte_length_mix() {
    for codec in codecs() {
        for mix in 1..16u32 {
            for n in all_lengths() {
                let seed = (mix as u64) << 32 | n as u64;
                let mut rng = Rng::new(seed);
                let values = rng.values_with_byte_mix(n, mix);
                let prev = rng.next_u64() as u32;
                let offset = 1 + (seed % 63) as usize;
                let ctx = format!("mix {mix:04b}, n {n}, seed {seed}, offset {offset}");
                codec.round_trip(&values, prev, offset, &ctx);
            }
        }
    }
}

#[test]
fn sorted_lists_round_trip_as_gaps() {
    // Posting-list shapes: small gaps, with a rare large one.
    for codec in codecs() {
        for n in [1usize, 7, 8, 9, 100, 4096] {
            let mut rng = Rng::new(n as u64);
            let mut acc = 0u32;
            let values: Vec<u32> = (0..n)
                .map(|_| {
                    let gap = if rng.below(50) == 0 {
                        rng.below(1 << 20)
                    } else {
                        1 + rng.below(20)
                    };
                    acc = acc.wrapping_add(gap as u32);
                    acc
                })
                .collect();
            let bytes = (codec.encode_delta_to_vec)(&values, 0);
            assert_eq!(
                (codec.decode_delta_to_vec)(&bytes, n, 0),
                Ok(values.clone())
            );
            assert_eq!(
                (codec.decode_to_vec)(&(codec.encode_to_vec)(&values), n),
                Ok(values.clone())
            );
            for &isa in &(codec.kernels)() {
                let mut out = vec![0u32; n];
                assert_eq!(
                    (codec.decode_delta_with)(isa, &bytes, &mut out, 0),
                    Ok(bytes.len())
                );
                assert_eq!(out, values, "{} {isa} n {n}", codec.name);
            }
        }
    }
}

#[test]
fn extremes_round_trip() {
    for codec in codecs() {
        for v in [
            0u32,
            255,
            256,
            65_535,
            65_536,
            (1 << 24) - 1,
            1 << 24,
            u32::MAX,
        ] {
            for n in [1usize, 3, 4, 5, 8, 9, 33, 100] {
                codec.round_trip(&vec![v; n], v, n % 7 + 1, &format!("{v} x {n}"));
            }
        }
        // Gaps that wrap around.
        codec.round_trip(&[u32::MAX, 0, u32::MAX, 1, 0], 5, 3, "wrapping");
    }
}

#[test]
fn bytes_after_the_stream_are_ignored() {
    for codec in codecs() {
        let values: Vec<u32> = (0..37).map(|i| i * 1000).collect();
        let mut bytes = (codec.encode_to_vec)(&values);
        let len = bytes.len();
        bytes.extend_from_slice(&[0xff; 100]);
        for &isa in Isa::available() {
            let mut out = vec![0u32; values.len()];
            assert_eq!((codec.decode_with)(isa, &bytes, &mut out), Ok(len), "{isa}");
            assert_eq!(out, values);
        }
    }
}

/// Hand-derived Varint-GB streams (the group layout of FastPFor's
/// `VarIntGB`, without its 4-byte count header and padding).
#[test]
fn gb_golden_vectors() {
    let cases: &[(&[u32], &[u8])] = &[
        // Nothing: no group.
        (&[], &[]),
        // One value: a control byte of 0 (one byte), the byte.
        (&[7], &[0x00, 0x07]),
        // Four one-byte values: control 0, the fast path.
        (&[1, 2, 3, 4], &[0x00, 1, 2, 3, 4]),
        // The Stream VByte paper's Fig. 1a values: lengths 2, 1, 1, 4 give
        // codes 1, 0, 0, 3, first in the low bits: 0b11_00_00_01 = 0xc1.
        (
            &[1024, 12, 10, 1_073_741_824],
            &[0xc1, 0x00, 0x04, 0x0c, 0x0a, 0x00, 0x00, 0x00, 0x40],
        ),
        // Fig. 1b: 1, 2, 3, 1024: codes 0, 0, 0, 1 = 0b01_00_00_00 = 0x40.
        (&[1, 2, 3, 1024], &[0x40, 1, 2, 3, 0x00, 0x04]),
        // A partial last group: two values of 3 and 4 bytes; codes 2, 3 in
        // the low four bits (0b11_10 = 0x0e), the other codes zero.
        (
            &[0x0001_0203, 0xdead_beef],
            &[0x0e, 0x03, 0x02, 0x01, 0xef, 0xbe, 0xad, 0xde],
        ),
        // A full group then one value, at the length boundaries: lengths
        // 1, 2, 2, 3 give codes 0, 1, 1, 2: 0b10_01_01_00 = 0x94.
        (
            &[255, 256, 65_535, 65_536, 0],
            &[
                0x94, 0xff, 0x00, 0x01, 0xff, 0xff, 0x00, 0x00, 0x01, 0x00, 0x00,
            ],
        ),
    ];
    for &(values, bytes) in cases {
        assert_eq!(gb::encode_to_vec(values), bytes, "{values:?}");
        let got = GB.all_isas_agree(bytes, values.len(), 0, &format!("{values:?}"));
        assert_eq!(got.as_deref(), Ok(values));
    }
    // Repeated whole groups, so that the kernels see the vectors too.
    let group = [1024, 12, 10, 1_073_741_824u32];
    let stream = [0xc1u8, 0x00, 0x04, 0x0c, 0x0a, 0x00, 0x00, 0x00, 0x40].repeat(40);
    let got = GB.all_isas_agree(&stream, 160, 0, "fig 1a x 40").unwrap();
    assert_eq!(got, group.repeat(40));
}

/// Hand-derived Varint-G8IU blocks: bit j of the control byte is 0 when data
/// byte j ends an integer; trailing 1s mark unused bytes (as in the paper and
/// FastPFor's `VarIntG8IU`, whose encoder also zeroes the unused bytes).
#[cfg(feature = "g8iu")]
#[test]
fn g8iu_golden_vectors() {
    let cases: &[(&[u32], &[u8])] = &[
        (&[], &[]),
        // One value in the last block: ends at byte 0 -> 0b1111_1110.
        (&[7], &[0xfe, 7, 0, 0, 0, 0, 0, 0, 0]),
        // Paper, Fig. 2a: 1024, 12, 10, 2^30 end at bytes 1, 2, 3, 7, so
        // bits 0, 4, 5, 6 are 1: 0b0111_0001 = 0x71.
        (
            &[1024, 12, 10, 1_073_741_824],
            &[0x71, 0x00, 0x04, 0x0c, 0x0a, 0x00, 0x00, 0x00, 0x40],
        ),
        // Paper, Fig. 2b: 1, 2, 3, 1024, 1024 end at bytes 0, 1, 2, 4, 6;
        // byte 7 is wasted: 0b1010_1000 = 0xa8.
        (
            &[1, 2, 3, 1024, 1024],
            &[0xa8, 1, 2, 3, 0x00, 0x04, 0x00, 0x04, 0x00],
        ),
        // Eight one-byte values fill a block (control 0); the ninth starts
        // a new block.
        (
            &[1, 2, 3, 4, 5, 6, 7, 8, 9],
            &[0x00, 1, 2, 3, 4, 5, 6, 7, 8, 0xfe, 9, 0, 0, 0, 0, 0, 0, 0],
        ),
        // Three 3-byte values: two fit (6 bytes, 2 wasted), the third goes
        // to the next block. Ends at bytes 2 and 5: 0b1101_1011 = 0xdb.
        (
            &[0x01_0203, 0x04_0506, 0x07_0809],
            &[
                0xdb, 0x03, 0x02, 0x01, 0x06, 0x05, 0x04, 0, 0, //
                0xfb, 0x09, 0x08, 0x07, 0, 0, 0, 0, 0,
            ],
        ),
        // Two 4-byte values: ends at bytes 3 and 7: 0b0111_0111 = 0x77.
        (
            &[u32::MAX, 1 << 24],
            &[0x77, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01],
        ),
    ];
    for &(values, bytes) in cases {
        assert_eq!(g8iu::encode_to_vec(values), bytes, "{values:?}");
        let got = G8IU.all_isas_agree(bytes, values.len(), 0, &format!("{values:?}"));
        assert_eq!(got.as_deref(), Ok(values));
    }
    // Repeated blocks of Fig. 2b, so that the kernels see them.
    let stream = [0xa8u8, 1, 2, 3, 0x00, 0x04, 0x00, 0x04, 0x00].repeat(40);
    let got = G8IU.all_isas_agree(&stream, 200, 9, "fig 2b x 40").unwrap();
    assert_eq!(got, [1, 2, 3, 1024, 1024].repeat(40));
}

/// Streams written by FastPFor's reference `varintgb` and `varintg8iu`
/// (`../golden/group_varint/generate.py`): after its count header (GB) and zero
/// padding to 4 bytes are stripped, each is what vecpress writes, and every
/// kernel reads it back.
#[test]
fn interop_with_fastpfor_vectors() {
    let text = include_str!("../golden/group_varint/vectors.txt");
    let mut rows = [0; 2];
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut fields = line.split(' ');
        let (name, values, hex) = (
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let values: Vec<u32> = values.split(',').map(|v| v.parse().unwrap()).collect();
        let theirs: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        let (codec, ours, body) = match name {
            "varintgb" => {
                assert_eq!(theirs[..4], (values.len() as u32).to_le_bytes(), "{line}");
                rows[0] += 1;
                (&GB, gb::encode_to_vec(&values), &theirs[4..])
            }
            #[cfg(feature = "g8iu")]
            "varintg8iu" => {
                rows[1] += 1;
                (&G8IU, g8iu::encode_to_vec(&values), &theirs[..])
            }
            _ => continue,
        };
        assert_eq!(&body[..ours.len()], &ours[..], "{name} {values:?}");
        let padding = &body[ours.len()..];
        assert!(
            padding.len() < 4 && padding.iter().all(|&b| b == 0),
            "{name} {values:?}"
        );
        let got = codec.all_isas_agree(body, values.len(), 7, name);
        assert_eq!(got, Ok(values), "{name}");
    }
    assert_eq!(rows[0], 65);
    #[cfg(feature = "g8iu")]
    assert_eq!(rows[1], 65);
}

#[test]
fn gb_specific_errors_with_offsets() {
    let mut out = [0u32; 6];
    // A whole group, then a control byte with a code for a 3rd value of 2.
    let mut bad = vec![0x00, 1, 2, 3, 4, 0b0001_0000, 5, 6];
    assert_eq!(
        gb::decode(&bad, &mut out),
        Err(Error::Corrupt {
            offset: 5,
            what: "length code set for a value past the count"
        })
    );
    // Fixed: two one-byte values.
    bad[5] = 0;
    assert_eq!(gb::decode(&bad, &mut out), Ok(8));
    // Truncated before the second group, and inside its second value.
    assert_eq!(
        gb::decode(&bad[..5], &mut out),
        Err(Error::Truncated {
            offset: 5,
            needed: 2,
            unit: Unit::Values,
        })
    );
    assert_eq!(
        gb::decode(&[0x00, 1, 2, 3, 4, 0b0100, 5, 6], &mut out),
        Err(Error::Truncated {
            offset: 7,
            needed: 1,
            unit: Unit::Values,
        })
    );
    // Output too big for the input, through every kernel.
    let long = gb::encode_to_vec(&[9; 100]);
    let res = GB.all_isas_agree(&long, 101, 0, "count past the end");
    assert_eq!(
        res,
        Err(Error::Truncated {
            offset: long.len(),
            needed: 1,
            unit: Unit::Values,
        })
    );
}

#[cfg(feature = "g8iu")]
#[test]
fn g8iu_specific_errors_with_offsets() {
    let good = [0xfcu8, 1, 2, 0, 0, 0, 0, 0, 0];
    let mut out = [0u32; 4];
    let corrupt = |offset, what| Err(Error::Corrupt { offset, what });
    // A 5-byte integer in the second block.
    let mut bad = [good, [0b1110_1111, 1, 1, 1, 1, 1, 1, 1, 1]].concat();
    assert_eq!(
        g8iu::decode(&bad, &mut out),
        corrupt(9, "integer longer than 4 bytes")
    );
    // A block with no integer.
    bad[9] = 0xff;
    assert_eq!(
        g8iu::decode(&bad, &mut out),
        corrupt(9, "block holds no integer")
    );
    // A last block with more integers than the count leaves.
    bad[9] = 0b1111_1000;
    assert_eq!(
        g8iu::decode(&bad, &mut out),
        corrupt(9, "block holds more integers than the count")
    );
    let mut five = [0u32; 5];
    assert_eq!(g8iu::decode(&bad, &mut five), Ok(18));
    assert_eq!(five, [1, 2, 1, 1, 1]);
    // A stream ending inside a block.
    assert_eq!(
        g8iu::decode(&bad[..17], &mut five),
        Err(Error::Truncated {
            offset: 9,
            needed: 3,
            unit: Unit::Values,
        })
    );
    // The same errors deep in a long stream, where the kernels run.
    let mut rng = Rng::new(8);
    let values = rng.values_with_byte_mix(300, 0b0011);
    let bytes = g8iu::encode_to_vec(&values);
    for block in 0..bytes.len() / 9 {
        for control in [0xffu8, 0b1110_1111, 0b0001_1111, 0x7f] {
            let mut b = bytes.clone();
            b[9 * block] = control;
            let res = G8IU.all_isas_agree(&b, values.len(), 0, &format!("block {block}"));
            assert!(
                matches!(res, Err(Error::Corrupt { offset, .. }) if offset == 9 * block),
                "block {block} control {control:08b}: {res:?}"
            );
        }
    }
}

#[test]
fn every_byte_change_and_truncation_gives_ok_or_err_alike() {
    for codec in codecs() {
        let mut rng = Rng::new(3);
        let values = rng.values_with_byte_mix(90, 0b1011);
        let bytes = (codec.encode_to_vec)(&values);
        for i in 0..bytes.len() {
            for new in [
                0x00, 0x01, 0x0f, 0x55, 0x7f, 0x80, 0xaa, 0xfe, 0xff, !bytes[i],
            ] {
                let mut b = bytes.clone();
                b[i] = new;
                let ctx = format!("{} byte {i} -> {new:#x}", codec.name);
                let _ = codec.all_isas_agree(&b, values.len(), 1, &ctx);
            }
        }
        for cut in 0..bytes.len() {
            let ctx = format!("{} cut {cut}", codec.name);
            let res = codec.all_isas_agree(&bytes[..cut], values.len(), 0, &ctx);
            assert!(
                matches!(res, Err(Error::Truncated { .. })),
                "{ctx}: {res:?}"
            );
        }
    }
}

#[test]
fn hostile_counts_do_not_allocate() {
    for codec in codecs() {
        let bytes = (codec.encode_to_vec)(&[1, 2, 3]);
        assert!(matches!(
            (codec.decode_to_vec)(&bytes, usize::MAX),
            Err(Error::Truncated { .. })
        ));
        assert!((codec.decode_delta_to_vec)(&bytes, usize::MAX / 2, 0).is_err());
        assert!((codec.decode_to_vec)(&[], usize::MAX).is_err());
        assert_eq!((codec.decode_to_vec)(&[], 0), Ok(vec![]));
    }
}

#[test]
fn unsupported_isa_is_an_error() {
    for codec in codecs() {
        let bytes = (codec.encode_to_vec)(&[42]);
        for &isa in Isa::ALL {
            let mut out = [0u32; 1];
            let res = (codec.decode_with)(isa, &bytes, &mut out);
            if isa.is_supported() {
                assert_eq!(res, Ok(bytes.len()));
                assert_eq!(out, [42]);
            } else {
                assert_eq!(res, Err(Error::Unsupported { isa: isa.name() }));
            }
        }
    }
}

#[test]
#[should_panic(expected = "too small")]
fn encoding_into_a_short_buffer_panics() {
    gb::encode(&[1, 2, 300], &mut [0u8; 4]);
}

fn value_strategy() -> impl Strategy<Value = u32> {
    prop_oneof![
        0u32..256,
        256u32..65_536,
        65_536u32..(1 << 24),
        (1u32 << 24)..=u32::MAX
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn prop_all_isas_match_scalar(values in prop::collection::vec(value_strategy(), 0..3000), prev: u32, offset in 0usize..64) {
        for codec in codecs() {
            codec.round_trip(&values, prev, offset, "proptest");
        }
    }

    #[test]
    fn prop_arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600), n in 0usize..700, prev: u32) {
        for codec in codecs() {
            let _ = codec.all_isas_agree(&bytes, n, prev, "arbitrary bytes");
        }
    }
}
