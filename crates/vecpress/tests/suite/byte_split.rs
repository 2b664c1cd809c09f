//! Byte stream split: every kernel against the scalar reference and a naive
//! transposition, every width 1..=32, the stream and range entries, and the
//! argument checks.

use crate::common::{Rng, at_offset};
use proptest::prelude::*;
use vecpress::{Error, Isa, byte_split};

/// The definition, one byte at a time: stream j holds byte j of every value.
fn naive_encode(input: &[u8], width: usize) -> Vec<u8> {
    let n = input.len() / width;
    let mut out = vec![0u8; input.len()];
    for v in 0..n {
        for j in 0..width {
            out[j * n + v] = input[v * width + j];
        }
    }
    out
}

fn random_bytes(rng: &mut Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// Value counts at and around every block size of the kernels (16 and 32
/// values, and the widths' tile tails), and long ones.
fn counts() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=70).collect();
    for edge in [96usize, 128, 256, 512, 1024, 4096] {
        v.extend([edge - 1, edge, edge + 1]);
    }
    v.push(4999);
    v
}

/// Encodes and decodes `input` with every available kernel, at offset
/// `offset` of a larger buffer, and checks both against the definition.
fn check_all(input: &[u8], width: usize, offset: usize, ctx: &str) {
    let want = naive_encode(input, width);
    let (buf, at) = at_offset(input, offset);
    let (enc_buf, enc_at) = at_offset(&want, offset);
    for &isa in Isa::available() {
        let mut out = vec![0x55u8; input.len() + offset];
        let res = byte_split::encode_with(isa, &buf[at..], width, &mut out[offset..]);
        assert_eq!(res, Ok(input.len()), "{isa} encode result, {ctx}");
        assert_eq!(&out[offset..], &want[..], "{isa} encode, {ctx}");
        assert!(
            out[..offset].iter().all(|&b| b == 0x55),
            "{isa} wrote before out, {ctx}"
        );

        let mut back = vec![0x55u8; input.len() + offset];
        let res = byte_split::decode_with(isa, &enc_buf[enc_at..], width, &mut back[offset..]);
        assert_eq!(res, Ok(input.len()), "{isa} decode result, {ctx}");
        assert_eq!(&back[offset..], input, "{isa} decode, {ctx}");
    }
}

#[test]
fn every_isa_matches_the_definition_for_every_width() {
    for width in 1..=32usize {
        for n in counts() {
            let seed = (width as u64) << 32 | n as u64;
            let mut rng = Rng::new(seed);
            let input = random_bytes(&mut rng, n * width);
            let offset = 1 + (seed % 63) as usize;
            check_all(
                &input,
                width,
                offset,
                &format!("width {width}, n {n}, offset {offset}"),
            );
        }
    }
}

#[test]
fn wide_values() {
    for width in [33usize, 47, 48, 64, 100, 255] {
        for n in [0usize, 1, 15, 16, 17, 31, 32, 33, 100] {
            let mut rng = Rng::new((width * 1000 + n) as u64);
            let input = random_bytes(&mut rng, n * width);
            check_all(&input, width, 3, &format!("width {width}, n {n}"));
        }
    }
}

#[test]
fn misaligned_slices() {
    for width in [2usize, 3, 4, 5, 8, 12, 16, 17] {
        let mut rng = Rng::new(width as u64);
        let input = random_bytes(&mut rng, 200 * width);
        for offset in 1..64 {
            check_all(
                &input,
                width,
                offset,
                &format!("width {width}, offset {offset}"),
            );
        }
    }
}

#[test]
fn output_beyond_the_result_is_untouched() {
    for width in [2usize, 3, 4, 7, 8, 12, 16, 20] {
        let mut rng = Rng::new(77 + width as u64);
        let input = random_bytes(&mut rng, 100 * width);
        let enc = naive_encode(&input, width);
        for &isa in Isa::available() {
            let mut out = vec![0xeeu8; input.len() + 40];
            byte_split::encode_with(isa, &input, width, &mut out).unwrap();
            assert!(
                out[input.len()..].iter().all(|&b| b == 0xee),
                "{isa} encode {width}"
            );
            let mut out = vec![0xeeu8; input.len() + 40];
            byte_split::decode_with(isa, &enc, width, &mut out).unwrap();
            assert_eq!(&out[..input.len()], &input[..]);
            assert!(
                out[input.len()..].iter().all(|&b| b == 0xee),
                "{isa} decode {width}"
            );
        }
    }
}

#[test]
fn bad_arguments_are_errors() {
    for &isa in Isa::available() {
        let mut out = [0u8; 16];
        assert!(matches!(
            byte_split::encode_with(isa, &[1, 2, 3], 0, &mut out),
            Err(Error::InvalidArgument { value: 0, .. })
        ));
        assert!(matches!(
            byte_split::decode_with(isa, &[1, 2, 3], 2, &mut out),
            Err(Error::InvalidArgument { value: 3, .. })
        ));
        assert_eq!(
            byte_split::encode_with(isa, &[0; 8], 4, &mut out[..7]),
            Err(Error::OutputTooSmall {
                needed: 8,
                actual: 7
            })
        );
        assert_eq!(
            byte_split::decode_with(isa, &[0; 8], 2, &mut out[..3]),
            Err(Error::OutputTooSmall {
                needed: 8,
                actual: 3
            })
        );
    }
    let mut small = [0f32; 1];
    assert_eq!(
        byte_split::decode_f32(&[0; 8], &mut small),
        Err(Error::OutputTooSmall {
            needed: 2,
            actual: 1
        })
    );
    assert!(byte_split::decode_f64(&[0; 12], &mut [0f64; 4]).is_err());
    assert!(byte_split::encode_u32(&[1, 2], &mut [0u8; 7]).is_err());
    let (mut a, mut b) = ([0u8; 2], [0u8; 1]);
    assert_eq!(
        byte_split::encode_streams(&[1, 2, 3, 4], 2, &mut [&mut a, &mut b]),
        Err(Error::OutputTooSmall {
            needed: 2,
            actual: 1
        })
    );
    assert!(byte_split::encode_streams(&[1, 2, 3, 4], 2, &mut [&mut a]).is_err());
    assert!(byte_split::decode_streams(&[&[1, 2], &[3]], 2, &mut [0; 4]).is_err());
    assert_eq!(
        byte_split::decode_streams(&[&[1, 2], &[3, 4]], 2, &mut [0; 3]),
        Err(Error::OutputTooSmall {
            needed: 4,
            actual: 3
        })
    );
    let page = [0u8; 20];
    let mut out = [0u8; 20];
    assert_eq!(
        byte_split::decode_range(&page, 4, 3, 3, &mut out),
        Err(Error::OutOfRange { index: 5, len: 5 })
    );
    assert_eq!(
        byte_split::decode_range(&page, 4, 6, 0, &mut out),
        Err(Error::OutOfRange { index: 6, len: 5 })
    );
    assert_eq!(byte_split::decode_range(&page, 4, 5, 0, &mut out), Ok(0));
    assert_eq!(
        byte_split::decode_range(&page, 4, 1, 3, &mut out[..11]),
        Err(Error::OutputTooSmall {
            needed: 12,
            actual: 11
        })
    );
}

#[test]
fn typed_values_round_trip_in_little_endian_order() {
    let mut rng = Rng::new(3);
    let f32s: Vec<f32> = (0..1001)
        .map(|_| f32::from_bits(rng.next_u64() as u32))
        .collect();
    let f64s: Vec<f64> = (0..1001).map(|_| f64::from_bits(rng.next_u64())).collect();
    let le32: Vec<u8> = f32s.iter().flat_map(|v| v.to_le_bytes()).collect();
    let le64: Vec<u8> = f64s.iter().flat_map(|v| v.to_le_bytes()).collect();

    let mut bytes = vec![0u8; le32.len()];
    assert_eq!(byte_split::encode_f32(&f32s, &mut bytes), Ok(le32.len()));
    assert_eq!(bytes, naive_encode(&le32, 4));
    let mut back = vec![0f32; f32s.len()];
    assert_eq!(byte_split::decode_f32(&bytes, &mut back), Ok(f32s.len()));
    assert!(
        back.iter()
            .zip(&f32s)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    );

    let mut bytes = vec![0u8; le64.len()];
    assert_eq!(byte_split::encode_f64(&f64s, &mut bytes), Ok(le64.len()));
    assert_eq!(bytes, naive_encode(&le64, 8));
    let mut back = vec![0f64; f64s.len()];
    assert_eq!(byte_split::decode_f64(&bytes, &mut back), Ok(f64s.len()));
    assert!(
        back.iter()
            .zip(&f64s)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    );

    let u16s: Vec<u16> = (0..777).map(|_| rng.next_u64() as u16).collect();
    let mut bytes = vec![0u8; 2 * u16s.len()];
    byte_split::encode_u16(&u16s, &mut bytes).unwrap();
    let le: Vec<u8> = u16s.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(bytes, naive_encode(&le, 2));
    let mut back = vec![0u16; u16s.len()];
    byte_split::decode_u16(&bytes, &mut back).unwrap();
    assert_eq!(back, u16s);

    let u32s: Vec<u32> = (0..777).map(|_| rng.next_u64() as u32).collect();
    let mut bytes = vec![0u8; 4 * u32s.len()];
    byte_split::encode_u32(&u32s, &mut bytes).unwrap();
    let mut back = vec![0u32; u32s.len()];
    byte_split::decode_u32(&bytes, &mut back).unwrap();
    assert_eq!(back, u32s);

    let u64s: Vec<u64> = (0..777).map(|_| rng.next_u64()).collect();
    let mut bytes = vec![0u8; 8 * u64s.len()];
    byte_split::encode_u64(&u64s, &mut bytes).unwrap();
    let le: Vec<u8> = u64s.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(bytes, naive_encode(&le, 8));
    let mut back = vec![0u64; u64s.len()];
    byte_split::decode_u64(&bytes, &mut back).unwrap();
    assert_eq!(back, u64s);
}

#[test]
fn streams_and_ranges_match_the_packed_entries() {
    for width in [1usize, 2, 3, 4, 5, 8, 12, 16, 19] {
        for n in [0usize, 1, 16, 33, 100, 1000] {
            let mut rng = Rng::new((width * 7919 + n) as u64);
            let input = random_bytes(&mut rng, n * width);
            let packed = byte_split::encode_to_vec(&input, width).unwrap();

            let mut bufs = vec![vec![0u8; n + 5]; width];
            let mut streams: Vec<&mut [u8]> = bufs.iter_mut().map(|b| &mut b[..]).collect();
            assert_eq!(
                byte_split::encode_streams(&input, width, &mut streams),
                Ok(n)
            );
            for (j, b) in bufs.iter().enumerate() {
                assert_eq!(
                    &b[..n],
                    &packed[j * n..(j + 1) * n],
                    "width {width} n {n} stream {j}"
                );
                assert_eq!(&b[n..], &[0; 5], "width {width} n {n} stream {j}");
            }
            let views: Vec<&[u8]> = packed.chunks(n.max(1)).take(width).collect();
            let views = if n == 0 { vec![&[][..]; width] } else { views };
            let mut out = vec![0u8; input.len()];
            assert_eq!(byte_split::decode_streams(&views, width, &mut out), Ok(n));
            assert_eq!(out, input);
            assert_eq!(byte_split::decode_to_vec(&packed, width).unwrap(), input);

            for &isa in Isa::available() {
                for (start, count) in [
                    (0, n),
                    (0, n / 2),
                    (n / 3, n - n / 3),
                    (n / 2, n / 4),
                    (n, 0),
                ] {
                    let mut out = vec![0u8; count * width];
                    let res =
                        byte_split::decode_range_with(isa, &packed, width, start, count, &mut out);
                    assert_eq!(res, Ok(count * width));
                    assert_eq!(
                        out,
                        &input[start * width..(start + count) * width],
                        "{isa} width {width} n {n} range {start}+{count}"
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn kernels_agree_with_scalar(width in 1usize..=32, n in 0usize..5000, seed: u64, offset in 0usize..64) {
        let mut rng = Rng::new(seed);
        let input = random_bytes(&mut rng, n * width);
        let (buf, at) = at_offset(&input, offset);
        let input = &buf[at..];
        let want = byte_split::encode_to_vec(input, width).unwrap();
        let mut scalar = vec![0u8; input.len()];
        byte_split::encode_with(Isa::Scalar, input, width, &mut scalar).unwrap();
        prop_assert_eq!(&scalar, &want);
        for &isa in Isa::available() {
            let mut out = vec![0u8; input.len()];
            prop_assert_eq!(byte_split::encode_with(isa, input, width, &mut out), Ok(input.len()));
            prop_assert_eq!(&out, &scalar, "{} encode", isa);
            let mut back = vec![0u8; input.len()];
            prop_assert_eq!(byte_split::decode_with(isa, &scalar, width, &mut back), Ok(input.len()));
            prop_assert_eq!(&back[..], input, "{} decode", isa);
        }
    }
}

/// Streams a multiple of 4 KiB apart (counts of values that are multiples
/// of 4096, and separate streams cut from one buffer at that stride) take
/// the decoders' skewed loops at widths 12 to 16: they must join the same
/// values as everywhere else, through every whole step, the ring's last
/// refills and the tail after them.
#[test]
fn streams_4k_apart_decode_like_any_others() {
    for width in [11usize, 12, 13, 15, 16] {
        for n in [4096usize, 8192, 8192 + 63, 12288 + 37] {
            let mut rng = Rng::new((width * 131 + n) as u64);
            let input = random_bytes(&mut rng, n * width);
            let packed = naive_encode(&input, width);
            for &isa in Isa::available() {
                let ctx = format!("{isa} width {width} n {n}");
                let mut out = vec![0u8; input.len()];
                assert_eq!(
                    byte_split::decode_with(isa, &packed, width, &mut out),
                    Ok(input.len()),
                    "{ctx}"
                );
                assert!(out == input, "{ctx}: decode");
                // A range from a whole step on, and one from a value inside one.
                for start in [64usize, 1000] {
                    let count = n - start - 5;
                    let mut part = vec![0u8; count * width];
                    let res =
                        byte_split::decode_range_with(isa, &packed, width, start, count, &mut part);
                    assert_eq!(res, Ok(count * width), "{ctx}");
                    assert!(
                        part == input[start * width..(start + count) * width],
                        "{ctx}: range from {start}"
                    );
                }
            }
            // Separate streams 4096 bytes apart in one buffer.
            let stride = n.next_multiple_of(4096);
            let mut buf = vec![0u8; stride * width];
            for j in 0..width {
                buf[j * stride..j * stride + n].copy_from_slice(&packed[j * n..(j + 1) * n]);
            }
            let streams: Vec<&[u8]> = (0..width).map(|j| &buf[j * stride..][..n]).collect();
            let mut out = vec![0u8; input.len()];
            assert_eq!(byte_split::decode_streams(&streams, width, &mut out), Ok(n));
            assert!(out == input, "width {width} n {n}: separate streams");
        }
    }
}
