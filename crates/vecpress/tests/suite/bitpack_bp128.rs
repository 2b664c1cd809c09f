//! SIMD-BP128: every kernel against a bit-by-bit reference of the layout,
//! byte compatibility with the `bitpacking` crate both ways, and errors.

use crate::common::Rng;
use bitpacking::{BitPacker, BitPacker4x, BitPacker8x};
use vecpress::bitpack::bp128::{self, Lanes};
use vecpress::{Error, Isa};

const LANES: [Lanes; 2] = [Lanes::X4, Lanes::X8];

/// The layout written out bit by bit: value `i` of lane `j` (value
/// `L i + j` of the block) at bits `i W ..` of the lane's words, lane `j`'s
/// word `k` being u32 number `L k + j`.
fn reference_pack(lanes: Lanes, values: &[u32], width: u8) -> Vec<u8> {
    let l = lanes.count();
    let w = usize::from(width);
    let mut words = vec![0u32; l * w];
    for (n, &v) in values.iter().enumerate() {
        let (i, j) = (n / l, n % l);
        for b in 0..w {
            if v >> b & 1 == 1 {
                let bit = i * w + b;
                words[l * (bit / 32) + j] |= 1 << (bit % 32);
            }
        }
    }
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn mask(width: u8) -> u32 {
    if width == 32 {
        u32::MAX
    } else {
        (1u32 << width) - 1
    }
}

fn random_block(rng: &mut Rng, lanes: Lanes, width: u8) -> Vec<u32> {
    let mut v: Vec<u32> = (0..lanes.block_len())
        .map(|_| rng.next_u64() as u32 & mask(width))
        .collect();
    if width > 0 {
        // The width is the block's: one value takes its top bit.
        let at = rng.below(v.len() as u64) as usize;
        v[at] |= 1 << (width - 1);
    }
    v
}

/// A sorted block whose gaps (the first one's to `initial`) need `width` bits.
fn sorted_block(rng: &mut Rng, lanes: Lanes, width: u8, initial: u32) -> Vec<u32> {
    let gaps = random_block(rng, lanes, width);
    let mut acc = initial;
    gaps.iter()
        .map(|&g| {
            acc = acc.wrapping_add(g);
            acc
        })
        .collect()
}

#[test]
fn every_kernel_packs_and_unpacks_the_reference_layout() {
    let mut rng = Rng::new(128);
    for &isa in Isa::available() {
        for lanes in LANES {
            for width in 0..=32u8 {
                for _ in 0..4 {
                    let values = random_block(&mut rng, lanes, width);
                    assert_eq!(bp128::width(lanes, &values), Ok(width));
                    let expected = reference_pack(lanes, &values, width);
                    let mut packed = vec![0xa5u8; lanes.packed_len(width) + 8];
                    let n = bp128::pack_with(isa, lanes, &values, width, &mut packed).unwrap();
                    assert_eq!(n, expected.len());
                    assert_eq!(packed[..n], expected[..], "{isa:?} {lanes:?} width {width}");
                    assert!(
                        packed[n..].iter().all(|&b| b == 0xa5),
                        "wrote past the block"
                    );
                    let mut out = vec![u32::MAX; lanes.block_len() + 3];
                    assert_eq!(
                        bp128::unpack_with(isa, lanes, &expected, width, &mut out),
                        Ok(n)
                    );
                    assert_eq!(
                        out[..values.len()],
                        values[..],
                        "{isa:?} {lanes:?} width {width}"
                    );
                    assert!(out[values.len()..].iter().all(|&v| v == u32::MAX));
                }
            }
        }
    }
}

#[test]
fn every_kernel_packs_and_unpacks_sorted_blocks() {
    let mut rng = Rng::new(129);
    for &isa in Isa::available() {
        for lanes in LANES {
            for width in 0..=32u8 {
                let initial = rng.next_u64() as u32;
                let values = sorted_block(&mut rng, lanes, width, initial);
                assert_eq!(bp128::width_sorted(lanes, initial, &values), Ok(width));
                let gaps: Vec<u32> = std::iter::once(initial)
                    .chain(values.iter().copied())
                    .collect::<Vec<_>>()
                    .windows(2)
                    .map(|w| w[1].wrapping_sub(w[0]))
                    .collect();
                let expected = reference_pack(lanes, &gaps, width);
                let mut packed = vec![0u8; lanes.packed_len(width)];
                bp128::pack_sorted_with(isa, lanes, initial, &values, width, &mut packed).unwrap();
                assert_eq!(packed, expected, "{isa:?} {lanes:?} width {width}");
                let mut out = vec![0u32; lanes.block_len()];
                let n = bp128::unpack_sorted_with(isa, lanes, initial, &packed, width, &mut out);
                assert_eq!(n, Ok(packed.len()));
                assert_eq!(out, values, "{isa:?} {lanes:?} width {width}");
            }
        }
    }
}

/// Our bytes and `bitpacking`'s, for one packer of that crate.
fn compatible<B: BitPacker>(packer: B, lanes: Lanes, seed: u64) {
    assert_eq!(B::BLOCK_LEN, lanes.block_len());
    let mut rng = Rng::new(seed);
    for width in 0..=32u8 {
        let values = random_block(&mut rng, lanes, width);
        assert_eq!(packer.num_bits(&values), width);
        let mut theirs = vec![0u8; lanes.packed_len(32)];
        let n = packer.compress(&values, &mut theirs, width);
        let mut ours = vec![0u8; lanes.packed_len(32)];
        assert_eq!(bp128::pack(lanes, &values, width, &mut ours), Ok(n));
        assert_eq!(ours[..n], theirs[..n], "{lanes:?} width {width}");
        let mut out = vec![0u32; lanes.block_len()];
        assert_eq!(bp128::unpack(lanes, &theirs[..n], width, &mut out), Ok(n));
        assert_eq!(out, values);
        let mut back = vec![0u32; lanes.block_len()];
        packer.decompress(&ours[..n], &mut back, width);
        assert_eq!(back, values);

        let initial = rng.next_u64() as u32 >> 1;
        let sorted = sorted_block(&mut rng, lanes, width, initial);
        assert_eq!(packer.num_bits_sorted(initial, &sorted), width);
        let n = packer.compress_sorted(initial, &sorted, &mut theirs, width);
        assert_eq!(
            bp128::pack_sorted(lanes, initial, &sorted, width, &mut ours),
            Ok(n)
        );
        assert_eq!(ours[..n], theirs[..n], "sorted {lanes:?} width {width}");
        assert_eq!(
            bp128::unpack_sorted(lanes, initial, &theirs[..n], width, &mut out),
            Ok(n)
        );
        assert_eq!(out, sorted);
        packer.decompress_sorted(initial, &ours[..n], &mut back, width);
        assert_eq!(back, sorted);
    }
}

#[test]
fn bytes_are_those_of_the_bitpacking_crate() {
    for seed in 0..8 {
        compatible(BitPacker4x::new(), Lanes::X4, 1000 + seed);
        compatible(BitPacker8x::new(), Lanes::X8, 2000 + seed);
    }
}

#[test]
fn any_bytes_unpack_the_same_on_every_kernel() {
    let mut rng = Rng::new(130);
    for lanes in LANES {
        for width in 0..=32u8 {
            let bytes: Vec<u8> = (0..lanes.packed_len(width))
                .map(|_| rng.next_u64() as u8)
                .collect();
            let mut reference = vec![0u32; lanes.block_len()];
            bp128::unpack_with(Isa::Scalar, lanes, &bytes, width, &mut reference).unwrap();
            assert_eq!(reference_pack(lanes, &reference, width), bytes);
            for &isa in Isa::available() {
                let mut out = vec![0u32; lanes.block_len()];
                bp128::unpack_with(isa, lanes, &bytes, width, &mut out).unwrap();
                assert_eq!(out, reference, "{isa:?} {lanes:?} width {width}");
                bp128::unpack_sorted_with(isa, lanes, 7, &bytes, width, &mut out).unwrap();
                let mut acc = 7u32;
                for (i, &g) in reference.iter().enumerate() {
                    acc = acc.wrapping_add(g);
                    assert_eq!(out[i], acc, "{isa:?} {lanes:?} width {width} value {i}");
                }
            }
        }
    }
}

#[test]
fn bad_arguments_and_short_input_are_errors() {
    let values = [3u32; 128];
    let mut packed = [0u8; 16 * 32];
    let mut out = [0u32; 256];
    for &isa in Isa::available() {
        // Short input: truncated where it ends, for every width.
        for width in 1..=32u8 {
            let len = Lanes::X4.packed_len(width);
            for cut in [0, 1, len / 2, len - 1] {
                assert_eq!(
                    bp128::unpack_with(isa, Lanes::X4, &packed[..cut], width, &mut out),
                    Err(Error::Truncated {
                        offset: cut,
                        needed: len - cut,
                        unit: vecpress::Unit::Bytes
                    })
                );
            }
        }
        assert!(matches!(
            bp128::unpack_with(isa, Lanes::X4, &packed, 33, &mut out),
            Err(Error::InvalidArgument { value: 33, .. })
        ));
        assert_eq!(
            bp128::unpack_with(isa, Lanes::X8, &packed, 1, &mut out[..255]),
            Err(Error::OutputTooSmall {
                needed: 256,
                actual: 255
            })
        );
        // A value wider than the width, a block of the wrong length, a
        // short output.
        assert!(matches!(
            bp128::pack_with(isa, Lanes::X4, &values, 1, &mut packed),
            Err(Error::InvalidArgument { value: 2, .. })
        ));
        assert!(matches!(
            bp128::pack_with(isa, Lanes::X8, &values, 2, &mut packed),
            Err(Error::InvalidArgument { value: 128, .. })
        ));
        assert_eq!(
            bp128::pack_with(isa, Lanes::X4, &values, 2, &mut packed[..31]),
            Err(Error::OutputTooSmall {
                needed: 32,
                actual: 31
            })
        );
        // Width 0: nothing written or read, zeros (or `initial`) out.
        assert_eq!(
            bp128::pack_with(isa, Lanes::X4, &[0; 128], 0, &mut []),
            Ok(0)
        );
        assert_eq!(
            bp128::unpack_sorted_with(isa, Lanes::X4, 9, &[], 0, &mut out),
            Ok(0)
        );
        assert!(out[..128].iter().all(|&v| v == 9));
    }
    assert!(matches!(
        bp128::width(Lanes::X4, &values[..100]),
        Err(Error::InvalidArgument { value: 100, .. })
    ));
}

fn stream_values(rng: &mut Rng, n: usize, sorted: bool) -> Vec<u32> {
    let mut v: Vec<u32> = (0..n)
        .map(|i| (rng.next_u64() as u32) >> (i / 128 % 33).min(31))
        .collect();
    if sorted {
        v.sort_unstable();
    }
    v
}

#[test]
fn streams_of_blocks_round_trip_on_every_kernel() {
    let mut rng = Rng::new(131);
    for n in [0, 1, 127, 128, 129, 255, 256, 1000, 128 * 33 + 5] {
        let plain = stream_values(&mut rng, n, false);
        let bytes = bp128::encode_to_vec(&plain);
        assert!(bytes.len() <= bp128::max_encoded_len(n));
        let sorted = stream_values(&mut rng, n, true);
        let delta = bp128::encode_delta_to_vec(&sorted, 3);
        for &isa in Isa::available() {
            let mut out = vec![0u32; n];
            assert_eq!(bp128::decode_with(isa, &bytes, &mut out), Ok(bytes.len()));
            assert_eq!(out, plain, "{isa:?} n={n}");
            if n > 0 && sorted[0] >= 3 {
                assert_eq!(
                    bp128::decode_delta_with(isa, &delta, &mut out, 3),
                    Ok(delta.len())
                );
                assert_eq!(out, sorted, "{isa:?} n={n}");
            }
        }
    }
}

#[test]
fn streams_cut_short_or_corrupt_are_errors_at_their_offset() {
    let mut rng = Rng::new(132);
    let values = stream_values(&mut rng, 128 * 3 + 40, false);
    let bytes = bp128::encode_to_vec(&values);
    let mut out = vec![0u32; values.len()];
    for &isa in Isa::available() {
        for cut in 0..bytes.len() {
            match bp128::decode_with(isa, &bytes[..cut], &mut out) {
                Err(Error::Truncated { offset, .. }) => assert!(offset <= cut, "{cut}"),
                other => panic!("{isa:?} cut at {cut}: {other:?}"),
            }
        }
        // The second block's width byte set above 32.
        let second = 1 + 16 * usize::from(bytes[0]);
        for bad in [33u8, 64, 255] {
            let mut corrupt = bytes.clone();
            corrupt[second] = bad;
            assert!(matches!(
                bp128::decode_with(isa, &corrupt, &mut out),
                Err(Error::Corrupt { offset, .. }) if offset == second
            ));
        }
        // Any bytes at all: a result, never a panic, the same on every level.
        for len in [0, 1, 17, 100, 600] {
            let junk: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            let mut a = vec![0u32; 300];
            let mut b = vec![0u32; 300];
            let ra = bp128::decode_with(Isa::Scalar, &junk, &mut a);
            let rb = bp128::decode_with(isa, &junk, &mut b);
            assert_eq!(ra, rb);
            if ra.is_ok() {
                assert_eq!(a, b);
            }
        }
    }
    assert!(matches!(
        bp128::decode_to_vec(&[], 1 << 40),
        Err(Error::Truncated { .. })
    ));
}

/// The value of `bytes` (a block of `lanes` at `width`) at index `n`, read
/// bit by bit as [`reference_pack`] lays them out.
fn reference_value(lanes: Lanes, bytes: &[u8], width: u8, n: usize) -> u32 {
    let (l, w) = (lanes.count(), usize::from(width));
    let (i, j) = (n / l, n % l);
    (0..w).fold(0, |v, b| {
        let bit = i * w + b;
        let at = 4 * (l * (bit / 32) + j);
        let word = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        v | (word >> (bit % 32) & 1) << b
    })
}

#[test]
fn adversarial_blocks_unpack_on_every_kernel_at_the_end_of_their_buffer() {
    // All ones (every value the width's maximum, gaps that wrap), zeros,
    // and patterns whose set bits sit at the words' ends.
    let patterns: [fn(usize) -> u8; 5] = [
        |_| 0xff,
        |_| 0,
        |i| if i % 4 == 3 { 0x80 } else { 0 },
        |i| if i % 4 == 0 { 0x01 } else { 0 },
        |i| (i as u8).wrapping_mul(0x9d) ^ 0x5a,
    ];
    for lanes in LANES {
        for width in 0..=32u8 {
            for pattern in patterns {
                let len = lanes.packed_len(width);
                // The block ends where its buffer does: nothing past it to read.
                let bytes: Vec<u8> = (0..len).map(pattern).collect();
                let expected: Vec<u32> = (0..lanes.block_len())
                    .map(|n| reference_value(lanes, &bytes, width, n))
                    .collect();
                for &isa in Isa::available() {
                    let what = format!("{isa:?} {lanes:?} width {width}");
                    let mut out = vec![0x5a5a_5a5au32; lanes.block_len() + 1];
                    assert_eq!(
                        bp128::unpack_with(isa, lanes, &bytes, width, &mut out),
                        Ok(len)
                    );
                    assert_eq!(out[..lanes.block_len()], expected[..], "{what}");
                    assert_eq!(out[lanes.block_len()], 0x5a5a_5a5a, "{what}");
                    let initial = u32::MAX - 3;
                    let n = bp128::unpack_sorted_with(isa, lanes, initial, &bytes, width, &mut out);
                    assert_eq!(n, Ok(len));
                    let mut acc = initial;
                    for (i, &g) in expected.iter().enumerate() {
                        acc = acc.wrapping_add(g);
                        assert_eq!(out[i], acc, "{what} sorted value {i}");
                    }
                    assert_eq!(out[lanes.block_len()], 0x5a5a_5a5a, "{what}");
                }
            }
        }
    }
}

/// `select_sorted` gives `unpack_sorted`'s value at every index, for every
/// lane count and width, on random gaps and on gaps all ones at the width
/// (whose sums wrap at 32 bits); the checks are those of `select`.
#[test]
fn select_sorted_agrees_with_unpack_sorted_at_every_index() {
    let mut rng = Rng::new(129);
    for lanes in LANES {
        for width in 0..=32u8 {
            let random = random_block(&mut rng, lanes, width);
            let ones = vec![mask(width); lanes.block_len()];
            for (kind, gaps) in [("random", random), ("ones", ones)] {
                let initial = rng.next_u64() as u32;
                // Gaps packed as they are: `pack` writes the bytes of
                // `pack_sorted` of their sums.
                let len = lanes.packed_len(width);
                let mut packed = vec![0x5au8; len + 8];
                bp128::pack(lanes, &gaps, width, &mut packed).unwrap();
                let packed = &packed[..len];
                let mut out = vec![0u32; lanes.block_len()];
                bp128::unpack_sorted(lanes, initial, packed, width, &mut out).unwrap();
                let mut sum = initial;
                for (i, &g) in gaps.iter().enumerate() {
                    sum = sum.wrapping_add(g);
                    assert_eq!(out[i], sum, "{lanes:?} {width} {kind} {i}");
                    assert_eq!(
                        bp128::select_sorted(lanes, initial, packed, width, i),
                        Ok(sum),
                        "{lanes:?} width {width} {kind} index {i}"
                    );
                }
                assert_eq!(
                    bp128::select_sorted(lanes, initial, packed, width, lanes.block_len()),
                    Err(Error::OutOfRange {
                        index: lanes.block_len(),
                        len: lanes.block_len()
                    })
                );
                if len > 0 {
                    assert_eq!(
                        bp128::select_sorted(lanes, initial, &packed[..len - 1], width, 0),
                        Err(Error::Truncated {
                            offset: len - 1,
                            needed: 1,
                            unit: vecpress::Unit::Bytes
                        })
                    );
                }
            }
        }
        let packed = [0xffu8; 1024];
        for width in [33, 64, u8::MAX] {
            assert_eq!(
                bp128::select_sorted(lanes, 0, &packed, width, 0),
                Err(Error::InvalidArgument {
                    what: "bit width (at most 32)",
                    value: usize::from(width)
                })
            );
            assert!(matches!(
                bp128::select(lanes, &packed, width, 0),
                Err(Error::InvalidArgument { .. })
            ));
        }
    }
}
