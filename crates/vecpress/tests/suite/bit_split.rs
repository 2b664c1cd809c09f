//! Bit shuffle: every kernel against the scalar reference and a naive
//! bit-at-a-time definition, every width 1..=16 (and some wider), counts
//! around 8 values and the block sizes; the LZ4 framing of the HDF5 filter
//! 32008 against hand-derived bytes, liblz4's blocks, and bad input.

use crate::common::{Rng, at_offset};
use vecpress::{Error, Isa, bit_split};

/// The definition for one block of `n` values (`n` a multiple of 8): bit
/// `b` of byte `j` of value `i` is bit `i % 8` of byte `i / 8` of row
/// `8 j + b`.
fn naive_block(input: &[u8], width: usize) -> Vec<u8> {
    let n = input.len() / width;
    let row = n / 8;
    let mut out = vec![0u8; input.len()];
    for i in 0..n {
        for j in 0..width {
            for b in 0..8 {
                let bit = (input[i * width + j] >> b) & 1;
                out[(8 * j + b) * row + i / 8] |= bit << (i % 8);
            }
        }
    }
    out
}

/// The bitshuffle library's blocking over [`naive_block`].
fn naive(input: &[u8], width: usize, block: usize) -> Vec<u8> {
    let n = input.len() / width;
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while n - i >= block {
        out.extend(naive_block(&input[i * width..(i + block) * width], width));
        i += block;
    }
    let last = (n - i) / 8 * 8;
    out.extend(naive_block(&input[i * width..(i + last) * width], width));
    out.extend_from_slice(&input[(i + last) * width..]);
    out
}

/// Value counts: 0..=70, around the default blocks of the widths tested
/// and a few long ones.
fn counts(width: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..=70).collect();
    let bs = bit_split::default_block_size(width);
    for edge in [128, bs, 2 * bs] {
        v.extend([edge - 1, edge, edge + 1, edge + 7, edge + 8, edge + 9]);
    }
    v
}

fn widths() -> Vec<usize> {
    let mut w: Vec<usize> = (1..=16).collect();
    w.extend([17, 24, 31, 32, 33, 64, 255]);
    w
}

fn check_all(input: &[u8], width: usize, offset: usize, ctx: &str) {
    let want = naive(input, width, bit_split::default_block_size(width));
    let (buf, at) = at_offset(input, offset);
    let (enc, enc_at) = at_offset(&want, offset);
    for &isa in Isa::available() {
        let mut out = vec![0x55u8; input.len() + offset];
        let res = bit_split::encode_with(isa, &buf[at..], width, &mut out[offset..]);
        assert_eq!(res, Ok(input.len()), "{isa} encode result, {ctx}");
        assert!(out[offset..] == want[..], "{isa} encode, {ctx}");
        assert!(
            out[..offset].iter().all(|&b| b == 0x55),
            "{isa} wrote before out, {ctx}"
        );

        let mut back = vec![0x55u8; input.len() + offset];
        let res = bit_split::decode_with(isa, &enc[enc_at..], width, &mut back[offset..]);
        assert_eq!(res, Ok(input.len()), "{isa} decode result, {ctx}");
        assert!(back[offset..] == *input, "{isa} decode, {ctx}");
    }
}

#[test]
fn every_kernel_matches_the_definition_on_random_values() {
    let mut rng = Rng::new(27);
    for width in widths() {
        for n in counts(width) {
            let input: Vec<u8> = (0..n * width).map(|_| rng.next_u64() as u8).collect();
            let offset = (n % 5) * 3 + 1;
            check_all(
                &input,
                width,
                offset,
                &format!("width {width} n {n} seed 27"),
            );
        }
    }
}

#[test]
fn every_kernel_matches_the_definition_on_adversarial_values() {
    for width in widths() {
        for n in [8usize, 64, 129, 1000] {
            for fill in [0u8, 0xff, 0x80, 0x01] {
                let input = vec![fill; n * width];
                check_all(
                    &input,
                    width,
                    0,
                    &format!("width {width} n {n} fill {fill:#x}"),
                );
            }
            // One bit set at a time walks every row and column.
            let mut input = vec![0u8; n * width];
            for k in (0..input.len() * 8).step_by(61) {
                input[k / 8] ^= 1 << (k % 8);
            }
            check_all(&input, width, 0, &format!("width {width} n {n} sparse"));
        }
    }
}

#[test]
fn caller_block_sizes_follow_the_library() {
    let mut rng = Rng::new(3);
    for width in [1usize, 3, 4, 8] {
        for block in [8usize, 16, 136] {
            for n in [0usize, 7, 8, 9, 150, 301] {
                let input: Vec<u8> = (0..n * width).map(|_| rng.next_u64() as u8).collect();
                let want = naive(&input, width, block);
                for &isa in Isa::available() {
                    let mut out = vec![0u8; input.len()];
                    bit_split::encode_blocked_with(isa, &input, width, block, &mut out).unwrap();
                    assert_eq!(out, want, "{isa} width {width} block {block} n {n}");
                    let mut back = vec![0u8; input.len()];
                    bit_split::decode_blocked_with(isa, &out, width, block, &mut back).unwrap();
                    assert_eq!(back, input, "{isa} width {width} block {block} n {n}");
                }
            }
        }
    }
}

#[test]
fn arguments_are_checked() {
    let mut out = [0u8; 16];
    assert!(matches!(
        bit_split::encode(&[0; 8], 0, &mut out),
        Err(Error::InvalidArgument { .. })
    ));
    assert!(matches!(
        bit_split::encode(&[0; 9], 2, &mut out),
        Err(Error::InvalidArgument { .. })
    ));
    assert!(matches!(
        bit_split::decode(&[0; 16], 1, &mut out[..8]),
        Err(Error::OutputTooSmall { .. })
    ));
    assert!(matches!(
        bit_split::encode_blocked_with(Isa::Scalar, &[0; 16], 1, 12, &mut out),
        Err(Error::InvalidArgument { .. })
    ));
}

/// Eleven bytes: one block of 8 values, then 3 copied. The header states 11
/// bytes and 8192-byte blocks (the default for width 1); the block is one
/// LZ4 sequence of 8 literals (token 0x80), too short for a match.
#[test]
fn lz4_golden_frame() {
    let input = [1u8, 0, 0, 0, 0, 0, 0, 3, 5, 6, 7];
    let want = [
        0, 0, 0, 0, 0, 0, 0, 11, // total size, u64 BE
        0, 0, 0x20, 0, // block size in bytes, u32 BE
        0, 0, 0, 9, // compressed size of block 0
        0x80, 0x81, 0x80, 0, 0, 0, 0, 0, 0, // the LZ4 block of the rows
        5, 6, 7, // the leftover values
    ];
    assert_eq!(bit_split::compress_lz4_to_vec(&input, 1, 0).unwrap(), want);
    for &isa in Isa::available() {
        let mut out = [0u8; 11];
        assert_eq!(
            bit_split::decompress_lz4_with(isa, &want, 1, &mut out),
            Ok(11)
        );
        assert_eq!(out, input);
    }
}

fn smooth_values(n: usize, width: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut v = 1000u64;
    let mut out = Vec::with_capacity(n * width);
    for _ in 0..n {
        v = v.wrapping_add(rng.below(5)).wrapping_sub(2);
        out.extend_from_slice(&v.to_le_bytes()[..width.min(8)]);
        out.extend(std::iter::repeat_n(0u8, width.saturating_sub(8)));
    }
    out
}

#[test]
fn lz4_round_trips_with_every_kernel() {
    for width in [1usize, 2, 3, 4, 8, 12, 16] {
        for n in [0usize, 5, 8, 2047, 2048, 2049, 5000, 20_003] {
            for block in [0usize, 64] {
                let input = smooth_values(n, width, n as u64);
                let packed = bit_split::compress_lz4_to_vec(&input, width, block).unwrap();
                assert!(
                    packed.len() <= bit_split::max_compressed_len_lz4(input.len(), width, block)
                );
                if block == 0 {
                    assert!(packed.len() <= bit_split::max_compressed_len_lz4_default(input.len()));
                }
                for &isa in Isa::available() {
                    let mut out = vec![0u8; input.len()];
                    let res = bit_split::decompress_lz4_with(isa, &packed, width, &mut out);
                    assert_eq!(
                        res,
                        Ok(input.len()),
                        "{isa} width {width} n {n} block {block}"
                    );
                    assert!(out == input, "{isa} width {width} n {n} block {block}");
                }
            }
        }
    }
}

/// Frames assembled here from the format, with blocks compressed by the
/// reference liblz4, decode to the input.
#[cfg(target_arch = "x86_64")]
#[test]
fn lz4_frames_with_liblz4_blocks_decode() {
    for width in [1usize, 4, 8] {
        let n = 3 * bit_split::default_block_size(width) + 21;
        let input = smooth_values(n, width, 9);
        let shuffled = bit_split::encode_to_vec(&input, width).unwrap();
        let bs = bit_split::default_block_size(width) * width;
        let mut frame = (input.len() as u64).to_be_bytes().to_vec();
        frame.extend_from_slice(&(bs as u32).to_be_bytes());
        let blocked = n / 8 * 8 * width;
        for chunk in shuffled[..blocked].chunks(bs) {
            let c = lz4::block::compress(chunk, None, false).unwrap();
            frame.extend_from_slice(&(c.len() as u32).to_be_bytes());
            frame.extend_from_slice(&c);
        }
        frame.extend_from_slice(&shuffled[blocked..]);
        let mut out = vec![0u8; input.len()];
        assert_eq!(
            bit_split::decompress_lz4(&frame, width, &mut out),
            Ok(input.len())
        );
        assert!(out == input, "width {width}");
    }
}

#[test]
fn lz4_bad_input_gives_errors() {
    let input = smooth_values(300, 4, 5);
    let packed = bit_split::compress_lz4_to_vec(&input, 4, 64).unwrap();
    let mut out = vec![0u8; input.len()];
    for cut in 0..packed.len() {
        assert!(
            bit_split::decompress_lz4(&packed[..cut], 4, &mut out).is_err(),
            "cut {cut}"
        );
    }
    for at in 0..packed.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut bad = packed.clone();
            bad[at] ^= flip;
            for &isa in Isa::available() {
                // Any result but a panic; a flip in a literal still decodes.
                let _ = bit_split::decompress_lz4_with(isa, &bad, 4, &mut out);
            }
        }
    }
    let mut bad = packed.clone();
    bad[8..12].copy_from_slice(&12u32.to_be_bytes());
    assert_eq!(
        bit_split::decompress_lz4(&bad, 4, &mut out),
        Err(Error::Corrupt {
            offset: 8,
            what: "block size not a whole number of 8 values"
        })
    );
    let mut bad = packed.clone();
    bad[12..16].copy_from_slice(&u32::MAX.to_be_bytes());
    assert!(matches!(
        bit_split::decompress_lz4(&bad, 4, &mut out),
        Err(Error::Truncated { offset: 12, .. })
    ));
    let mut long = packed.clone();
    long.push(0);
    assert!(matches!(
        bit_split::decompress_lz4(&long, 4, &mut out),
        Err(Error::Corrupt { .. })
    ));
    assert!(matches!(
        bit_split::decompress_lz4(&packed, 4, &mut out[..100]),
        Err(Error::OutputTooSmall { .. })
    ));
}
