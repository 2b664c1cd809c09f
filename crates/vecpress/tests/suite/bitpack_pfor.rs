//! PFOR: golden vectors, every kernel against a reading of the format bit
//! by bit, the width choice against every candidate's cost, errors at their
//! offsets, and select and search against a plain model.

use crate::common::Rng;
use vecpress::bitpack::bp128::{self, Lanes};
use vecpress::bitpack::pfor;
use vecpress::{Error, Isa};

/// The block's values read from its bytes as docs/FORMAT.md says, bit by
/// bit, and its length.
fn reference_decode(bytes: &[u8]) -> (Vec<u32>, usize) {
    let b = usize::from(bytes[0] & 0x3f);
    let x = bytes[0] >> 7 == 1;
    let (n, e, packed_at) = if x {
        (usize::from(bytes[1]) + 1, usize::from(bytes[2]), 3)
    } else {
        (0, 0, 1)
    };
    let bit = |base: usize, at: usize| u32::from(bytes[base + at / 8] >> (at % 8) & 1);
    let mut values = vec![0u32; 128];
    for (m, v) in values.iter_mut().enumerate() {
        let (i, j) = (m / 4, m % 4);
        for k in 0..b {
            let lane_bit = i * b + k;
            let word = 4 * (lane_bit / 32) + j;
            *v |= bit(packed_at, 32 * word + lane_bit % 32) << k;
        }
    }
    let positions_at = packed_at + 16 * b;
    let highs_at = positions_at + n;
    for x in 0..n {
        let p = usize::from(bytes[positions_at + x]);
        for k in 0..e {
            values[p] |= bit(highs_at, x * e + k) << (b + k);
        }
    }
    (values, highs_at + (n * e).div_ceil(8))
}

/// The width the encoder is to choose (docs/FORMAT.md): over every width,
/// the block's size from the format's formula plus one byte for each
/// exception, the least, ties to the wider; with the block's size then.
fn cheapest(values: &[u32]) -> (usize, usize) {
    let bits = |v: u32| 32 - v.leading_zeros() as usize;
    let widest = values.iter().map(|&v| bits(v)).max().unwrap();
    let mut best: Option<(usize, usize, usize)> = None;
    for b in 0..=widest {
        let n = values.iter().filter(|&&v| bits(v) > b).count();
        let size = if n == 0 {
            1 + 16 * b
        } else {
            3 + 16 * b + n + (n * (widest - b)).div_ceil(8)
        };
        if best.is_none_or(|(cost, _, _)| size + n <= cost) {
            best = Some((size + n, b, size));
        }
    }
    let (_, b, size) = best.unwrap();
    (b, size)
}

/// Blocks of every kind: each width, with 0, a few or many wider values
/// of each wider width, and the extremes.
fn blocks(rng: &mut Rng) -> Vec<Vec<u32>> {
    let mut out = vec![vec![0; 128], vec![u32::MAX; 128]];
    for base in 0..=32u32 {
        for outliers in [0, 1, 3, 9, 40, 127] {
            let top = rng.below(33 - u64::from(base)) as u32 + base;
            let mask = |w: u32| if w == 32 { u32::MAX } else { (1u32 << w) - 1 };
            let mut v: Vec<u32> = (0..128)
                .map(|_| rng.next_u64() as u32 & mask(base))
                .collect();
            for _ in 0..outliers {
                let at = rng.below(128) as usize;
                v[at] = rng.next_u64() as u32 & mask(top) | mask(top) ^ mask(top.max(1) - 1);
            }
            out.push(v);
        }
    }
    out
}

#[test]
fn golden_blocks_are_the_bytes_the_format_gives() {
    let mut values = [1u32; 128];
    values[3] = 301;
    values[70] = 5;
    let mut expected = vec![0x81, 0x01, 0x08];
    expected.extend([0xff; 16]);
    expected.extend([0x03, 0x46, 0x96, 0x02]);
    let mut block = [0u8; pfor::MAX_BLOCK_BYTES];
    let len = pfor::encode_block(&values, &mut block).unwrap();
    assert_eq!(block[..len], expected[..]);

    let docs: Vec<u32> = (1..=128u32)
        .map(|i| 1000 + 2 * i + if i == 128 { 256 } else { 0 })
        .collect();
    let mut expected_delta = vec![0x82, 0x00, 0x07];
    expected_delta.extend([0xaa; 32]);
    expected_delta.extend([0x7f, 0x40]);
    let len = pfor::encode_block_delta(1000, &docs, &mut block).unwrap();
    assert_eq!(block[..len], expected_delta[..]);

    // A stream: the block, then a VByte tail (7, 128, 0).
    let mut stream_values = values.to_vec();
    stream_values.extend([7, 128, 0]);
    let mut stream = expected.clone();
    stream.extend([0x07, 0x80, 0x01, 0x00]);
    assert_eq!(pfor::encode_to_vec(&stream_values), stream);
    assert_eq!(pfor::decode_to_vec(&stream, 131), Ok(stream_values));
    assert_eq!(
        pfor::decode_delta_to_vec(&expected_delta, 128, 1000),
        Ok(docs)
    );
}

#[test]
fn blocks_are_the_cheapest_and_decode_on_every_kernel() {
    let mut rng = Rng::new(26);
    for values in blocks(&mut rng) {
        let mut block = [0u8; pfor::MAX_BLOCK_BYTES];
        let len = pfor::encode_block(&values, &mut block).unwrap();
        let (b, size) = cheapest(&values);
        assert_eq!((usize::from(block[0] & 0x3f), len), (b, size), "{values:?}");
        let width = bp128::width(Lanes::X4, &values).unwrap();
        assert!(len <= 1 + Lanes::X4.packed_len(width));
        let (reference, ref_len) = reference_decode(&block[..len]);
        assert_eq!(ref_len, len);
        assert_eq!(reference, values);
        for &isa in Isa::available() {
            let mut out = [0u32; 128];
            assert_eq!(
                pfor::decode_block_with(isa, &block[..len], &mut out),
                Ok(len)
            );
            assert_eq!(out[..], values[..], "{isa:?}");
        }
        // The same values as gaps of a sorted block.
        let mut acc = 77u32;
        let docs: Vec<u32> = values
            .iter()
            .map(|&g| {
                acc = acc.wrapping_add(g);
                acc
            })
            .collect();
        let dlen = pfor::encode_block_delta(77, &docs, &mut block).unwrap();
        assert_eq!(dlen, len);
        for &isa in Isa::available() {
            let mut out = [0u32; 128];
            let r = pfor::decode_block_delta_with(isa, 77, &block[..dlen], &mut out);
            assert_eq!(r, Ok(dlen));
            assert_eq!(out[..], docs[..], "{isa:?}");
        }
    }
}

/// A block written field by field as docs/FORMAT.md lays it out (not by
/// the encoder, which would choose its own width): low parts of `b` bits,
/// and the high parts of `e` bits at `positions`.
fn raw_block(b: u8, e: u8, lows: &[u32], positions: &[u8], highs: &[u32]) -> Vec<u8> {
    let n = positions.len();
    let mut bytes = vec![b | if n > 0 { 0x80 } else { 0 }];
    if n > 0 {
        bytes.extend([(n - 1) as u8, e]);
    }
    let mut packed = vec![0u8; Lanes::X4.packed_len(b)];
    bp128::pack(Lanes::X4, lows, b, &mut packed).unwrap();
    bytes.extend(packed);
    bytes.extend(positions);
    let mut bits = vec![0u8; (n * usize::from(e)).div_ceil(8)];
    for (x, &h) in highs.iter().enumerate() {
        for k in 0..usize::from(e) {
            let at = x * usize::from(e) + k;
            bits[at / 8] |= ((h >> k & 1) as u8) << (at % 8);
        }
    }
    bytes.extend(bits);
    bytes
}

/// Delta blocks with 0, 1, 7, 8, 9, ..., 128 exceptions (below, at and above
/// the eight parts a register takes and the sixteen values a step sums), at
/// the first and last positions and in between, with high parts of the
/// widest width and sums that wrap, decode on every kernel as the format
/// read bit by bit and summed, alone and at the input's very end.
#[test]
fn delta_blocks_with_each_exception_count_decode_on_every_kernel() {
    let mut rng = Rng::new(26);
    let counts = [
        0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 100, 127, 128,
    ];
    for &n in &counts {
        for b in [0u8, 1, 3, 8, 17, 31] {
            for e in [1u8, 5, 12, 25, 26, 32 - b]
                .into_iter()
                .filter(|&e| e <= 32 - b)
            {
                let mask = |w: u8| if w >= 32 { u32::MAX } else { (1u32 << w) - 1 };
                let lows: Vec<u32> = (0..128).map(|_| rng.next_u64() as u32 & mask(b)).collect();
                // Positions 0 and 127 whenever there are two, the rest drawn.
                let mut set = [false; 128];
                if n >= 1 {
                    set[if n == 1 && rng.below(2) == 1 { 127 } else { 0 }] = true;
                }
                if n >= 2 {
                    set[127] = true;
                }
                while set.iter().filter(|&&x| x).count() < n {
                    set[rng.below(128) as usize] = true;
                }
                let positions: Vec<u8> = (0..128u8).filter(|&p| set[usize::from(p)]).collect();
                let highs: Vec<u32> = (0..n)
                    .map(|x| {
                        let h = rng.next_u64() as u32 & mask(e);
                        if x % 3 == 0 { mask(e) } else { h.max(1) }
                    })
                    .collect();
                let block = raw_block(b, if n > 0 { e } else { 0 }, &lows, &positions, &highs);
                let (gaps, len) = reference_decode(&block);
                assert_eq!(len, block.len());
                let initial = u32::MAX - rng.below(1000) as u32;
                let mut acc = initial;
                let want: Vec<u32> = gaps
                    .iter()
                    .map(|&g| {
                        acc = acc.wrapping_add(g);
                        acc
                    })
                    .collect();
                let mut padded = block.clone();
                padded.extend([0xa5; 70]);
                for &isa in Isa::available() {
                    for input in [&block[..], &padded[..]] {
                        let mut out = [0u32; 128];
                        let r = pfor::decode_block_delta_with(isa, initial, input, &mut out);
                        assert_eq!(r, Ok(len), "{isa:?} n={n} b={b} e={e}");
                        assert_eq!(out[..], want[..], "{isa:?} n={n} b={b} e={e}");
                        let r = pfor::decode_block_with(isa, input, &mut out);
                        assert_eq!(r, Ok(len), "{isa:?} n={n} b={b} e={e}");
                        assert_eq!(out[..], gaps[..], "{isa:?} n={n} b={b} e={e} plain");
                    }
                }
            }
        }
    }
}

fn posting_list(rng: &mut Rng, n: usize) -> Vec<u32> {
    let mut acc = 0u32;
    (0..n)
        .map(|i| {
            // Mostly small gaps, some long jumps.
            let gap = if rng.below(20) == 0 {
                rng.below(1 << (i % 24)) as u32
            } else {
                rng.below(16) as u32
            };
            acc = acc.wrapping_add(gap);
            acc
        })
        .collect()
}

#[test]
fn streams_round_trip_on_every_kernel_no_larger_than_bp128() {
    let mut rng = Rng::new(27);
    for n in [0, 1, 127, 128, 129, 255, 256, 1000, 128 * 33 + 5] {
        let plain: Vec<u32> = (0..n)
            .map(|i| (rng.next_u64() as u32) >> (i / 7 % 33).min(31))
            .collect();
        let bytes = pfor::encode_to_vec(&plain);
        assert!(bytes.len() <= pfor::max_encoded_len(n));
        assert!(bytes.len() <= bp128::encode_to_vec(&plain).len());
        let docs = posting_list(&mut rng, n);
        let delta = pfor::encode_delta_to_vec(&docs, 0);
        assert!(delta.len() <= bp128::encode_delta_to_vec(&docs, 0).len());
        for &isa in Isa::available() {
            let mut out = vec![0u32; n];
            assert_eq!(pfor::decode_with(isa, &bytes, &mut out), Ok(bytes.len()));
            assert_eq!(out, plain, "{isa:?} n={n}");
            assert_eq!(
                pfor::decode_delta_with(isa, &delta, &mut out, 0),
                Ok(delta.len())
            );
            assert_eq!(out, docs, "{isa:?} n={n}");
        }
    }
}

#[test]
fn broken_blocks_are_errors_at_their_offset() {
    let mut values = [1u32; 128];
    values[3] = 301;
    values[70] = 5;
    let mut good = [0u8; pfor::MAX_BLOCK_BYTES];
    let len = pfor::encode_block(&values, &mut good).unwrap();
    let good = &good[..len];
    let mut out = [0u32; 128];
    let corrupt = |at: usize, byte: u8| {
        let mut b = good.to_vec();
        b[at] = byte;
        b
    };
    let cases: [(Vec<u8>, usize); 8] = [
        (corrupt(0, 0x80 | 33), 0), // width above 32
        (corrupt(0, 0x41), 0),      // reserved bit
        (corrupt(2, 0), 2),         // exceptions of no bits
        (corrupt(2, 32), 2),        // 1 + 32 bits
        (corrupt(19, 0x46), 20),    // positions not increasing
        (corrupt(20, 0x03), 20),    // positions not increasing
        (corrupt(20, 0x80), 20),    // position past the block
        (corrupt(1, 200), 1),       // more exceptions than values
    ];
    for &isa in Isa::available() {
        for (bytes, offset) in &cases {
            match pfor::decode_block_with(isa, bytes, &mut out) {
                Err(Error::Corrupt { offset: o, .. }) => assert_eq!(o, *offset, "{bytes:?}"),
                other => panic!("{isa:?} {bytes:?}: {other:?}"),
            }
        }
        // Padding bits set: one exception of 7 high bits leaves one.
        let mut one = [0u32; 128];
        one[0] = 127;
        let mut block = [0u8; pfor::MAX_BLOCK_BYTES];
        let n = pfor::encode_block(&one, &mut block).unwrap();
        assert_eq!(block[..n], [0x80, 0x00, 0x07, 0x00, 0x7f]);
        block[4] |= 0x80;
        assert!(matches!(
            pfor::decode_block_with(isa, &block[..n], &mut out),
            Err(Error::Corrupt { offset: 4, .. })
        ));
        for cut in 0..len {
            match pfor::decode_block_with(isa, &good[..cut], &mut out) {
                Err(Error::Truncated { offset, .. }) => assert_eq!(offset, cut),
                other => panic!("{isa:?} cut at {cut}: {other:?}"),
            }
        }
    }
    assert!(matches!(
        pfor::decode_block(good, &mut out[..127]),
        Err(Error::OutputTooSmall { .. })
    ));
    let mut room = [0u8; 22];
    assert!(matches!(
        pfor::encode_block(&values, &mut room),
        Err(Error::OutputTooSmall { needed: 23, .. })
    ));
    assert!(matches!(
        pfor::encode_block(&values[..100], &mut room),
        Err(Error::InvalidArgument { value: 100, .. })
    ));
}

/// Positions out of order (equal or decreasing) anywhere among many
/// exceptions, on both sides of the 64 that one compare of the AVX-512
/// check covers, and a last position past the block, are errors at the
/// first bad position, on every kernel, in both forms.
#[test]
fn positions_out_of_order_among_many_are_errors_at_the_first() {
    let b = 3u8;
    let lows = [5u32; 128];
    for n in [2usize, 9, 64, 65, 66, 100, 128] {
        let good: Vec<u8> = (0..n).map(|k| (k * 128 / n) as u8).collect();
        let highs = vec![1u32; n];
        let positions_at = 3 + Lanes::X4.packed_len(b);
        let mut cases: Vec<(Vec<u8>, usize)> = Vec::new();
        for k in [1, 2, 31, 63, 64, 65, 66, 99, n - 1] {
            if k == 0 || k >= n {
                continue;
            }
            let mut equal = good.clone();
            equal[k] = equal[k - 1];
            cases.push((equal, k));
            let mut lower = good.clone();
            lower[k] = lower[k - 1].saturating_sub(1);
            cases.push((lower, k));
        }
        if n < 128 {
            let mut past = good.clone();
            past[n - 1] = 128;
            cases.push((past, n - 1));
        }
        for (positions, k) in &cases {
            let block = raw_block(b, 4, &lows, positions, &highs);
            for &isa in Isa::available() {
                let mut out = [0u32; 128];
                for r in [
                    pfor::decode_block_with(isa, &block, &mut out),
                    pfor::decode_block_delta_with(isa, 7, &block, &mut out),
                ] {
                    match r {
                        Err(Error::Corrupt { offset, .. }) => {
                            assert_eq!(offset, positions_at + k, "{isa:?} n={n} {positions:?}")
                        }
                        other => panic!("{isa:?} n={n} {positions:?}: {other:?}"),
                    }
                }
            }
        }
        // The good positions decode, as a check on the cases' making.
        let block = raw_block(b, 4, &lows, &good, &highs);
        let (want, len) = reference_decode(&block);
        for &isa in Isa::available() {
            let mut out = [0u32; 128];
            assert_eq!(pfor::decode_block_with(isa, &block, &mut out), Ok(len));
            assert_eq!(out[..], want[..], "{isa:?} n={n}");
        }
    }
}

#[test]
fn streams_cut_short_or_flipped_never_panic() {
    let mut rng = Rng::new(28);
    let docs = posting_list(&mut rng, 128 * 3 + 40);
    let bytes = pfor::encode_delta_to_vec(&docs, 0);
    let mut out = vec![0u32; docs.len()];
    for &isa in Isa::available() {
        for cut in 0..bytes.len() {
            match pfor::decode_delta_with(isa, &bytes[..cut], &mut out, 0) {
                Err(Error::Truncated { offset, .. }) => assert!(offset <= cut, "{cut}"),
                other => panic!("{isa:?} cut at {cut}: {other:?}"),
            }
        }
    }
    // Every single-byte change: the same result on every level.
    for at in 0..bytes.len() {
        for flip in [0x01u8, 0x40, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[at] ^= flip;
            let mut a = vec![0u32; docs.len()];
            let ra = pfor::decode_delta_with(Isa::Scalar, &bad, &mut a, 0);
            for &isa in Isa::available() {
                let mut b = vec![0u32; docs.len()];
                assert_eq!(pfor::decode_delta_with(isa, &bad, &mut b, 0), ra);
                if ra.is_ok() {
                    assert_eq!(a, b);
                }
            }
            let sa = pfor::search_delta(&bad, docs.len(), docs[200], 0);
            assert!(sa.is_ok() || ra.is_err(), "search fails where decode works");
        }
    }
    assert!(matches!(
        pfor::decode_to_vec(&[], 1 << 40),
        Err(Error::Truncated { .. })
    ));
}

#[test]
fn select_reads_the_values_of_blocks_in_place() {
    let mut rng = Rng::new(29);
    for values in blocks(&mut rng) {
        let mut plain = [0u8; pfor::MAX_BLOCK_BYTES];
        let mut delta = [0u8; pfor::MAX_BLOCK_BYTES];
        let len = pfor::encode_block(&values, &mut plain).unwrap();
        let dlen = pfor::encode_block_delta(5, &values, &mut delta).unwrap();
        let plain = &plain[..len];
        let mut sum = 5u32;
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(pfor::select_block(plain, i), Ok(v), "{i}");
            assert_eq!(pfor::select_block_delta(5, &delta[..dlen], i), Ok(v));
            sum = sum.wrapping_add(v);
            // Gaps of the block as given, from the plain encoding.
            assert_eq!(pfor::select_block_delta(5, plain, i), Ok(sum));
        }
        assert!(matches!(
            pfor::select_block(plain, 128),
            Err(Error::OutOfRange { index: 128, .. })
        ));
        assert!(matches!(
            pfor::select_block(&plain[..len - 1], 0),
            Err(Error::Truncated { .. })
        ));
    }
    // bp128: every lane count and width.
    for lanes in [Lanes::X4, Lanes::X8] {
        for width in 0..=32u8 {
            let mask = if width == 32 {
                u32::MAX
            } else {
                (1u32 << width) - 1
            };
            let values: Vec<u32> = (0..lanes.block_len())
                .map(|_| rng.next_u64() as u32 & mask)
                .collect();
            let w = bp128::width(lanes, &values).unwrap();
            let mut packed = vec![0u8; lanes.packed_len(w)];
            bp128::pack(lanes, &values, w, &mut packed).unwrap();
            let mut sum = 9u32;
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(
                    bp128::select(lanes, &packed, w, i),
                    Ok(v),
                    "{lanes:?} {w} {i}"
                );
                sum = sum.wrapping_add(v);
                assert_eq!(bp128::select_sorted(lanes, 9, &packed, w, i), Ok(sum));
            }
            assert!(matches!(
                bp128::select(lanes, &packed, w, lanes.block_len()),
                Err(Error::OutOfRange { .. })
            ));
            if w > 0 {
                assert!(matches!(
                    bp128::select(lanes, &packed[..packed.len() - 1], w, 0),
                    Err(Error::Truncated { .. })
                ));
            }
        }
    }
}

/// The model of search: the first index whose value is at least `key`.
fn lower_bound(values: &[u32], key: u32) -> Option<(usize, u32)> {
    values
        .iter()
        .position(|&v| v >= key)
        .map(|i| (i, values[i]))
}

#[test]
fn search_finds_the_lower_bound_of_sorted_streams() {
    let mut rng = Rng::new(30);
    for n in [0, 1, 100, 128, 129, 256, 1000, 128 * 20 + 3] {
        let docs = posting_list(&mut rng, n);
        let prev = 0;
        let pf = pfor::encode_delta_to_vec(&docs, prev);
        let bp = bp128::encode_delta_to_vec(&docs, prev);
        let last = docs.last().copied().unwrap_or(0);
        let mut keys = vec![0, 1, last, last.saturating_add(1), u32::MAX];
        keys.extend(
            docs.iter()
                .step_by(37)
                .flat_map(|&d| [d, d.wrapping_sub(1), d + 1]),
        );
        keys.extend((0..20).map(|_| rng.below(u64::from(last) + 2) as u32));
        for key in keys {
            let expected = lower_bound(&docs, key);
            assert_eq!(
                pfor::search_delta(&pf, n, key, prev),
                Ok(expected),
                "n={n} key={key}"
            );
            assert_eq!(
                bp128::search_delta(&bp, n, key, prev),
                Ok(expected),
                "n={n} key={key}"
            );
        }
    }
    assert!(pfor::search_delta(&[], 5, 1, 0).is_err());
    assert!(bp128::search_delta(&[40], 128, 1, 0).is_err());
}

/// Whatever `decode_block` rejects, `select_block` rejects with the same
/// error at every index (a corrupt block has no value to select), and
/// wherever it decodes, select agrees with it at every index; likewise
/// the delta forms. Blocks with exceptions, their bytes flipped (the
/// header, every byte of the positions and high parts, some of the packed
/// part) and cut short.
#[test]
fn select_rejects_what_decode_rejects_and_agrees_with_the_rest() {
    let mut rng = Rng::new(31);
    // Blocks that decode and blocks that do not.
    let mut outcomes = [0usize; 2];
    let check = |bad: &[u8], outcomes: &mut [usize; 2]| {
        let mut out = [0u32; 128];
        let mut dout = [0u32; 128];
        let decoded = pfor::decode_block(bad, &mut out);
        let ddecoded = pfor::decode_block_delta(11, bad, &mut dout);
        assert_eq!(decoded.is_ok(), ddecoded.is_ok(), "{bad:?}");
        match decoded {
            Err(e) => {
                outcomes[1] += 1;
                assert_eq!(ddecoded, Err(e.clone()));
                for i in [0, 1, 64, 127] {
                    assert_eq!(pfor::select_block(bad, i), Err(e.clone()), "{i} {bad:?}");
                    assert_eq!(pfor::select_block_delta(11, bad, i), Err(e.clone()));
                }
            }
            Ok(_) => {
                outcomes[0] += 1;
                for i in 0..128 {
                    assert_eq!(pfor::select_block(bad, i), Ok(out[i]), "{i} {bad:?}");
                    assert_eq!(pfor::select_block_delta(11, bad, i), Ok(dout[i]));
                }
            }
        }
    };
    for values in blocks(&mut rng).into_iter().step_by(3) {
        let mut block = [0u8; pfor::MAX_BLOCK_BYTES];
        let len = pfor::encode_block(&values, &mut block).unwrap();
        let block = &block[..len];
        let packed_at = if block[0] & 0x80 != 0 { 3 } else { 1 };
        let positions_at = packed_at + 16 * usize::from(block[0] & 0x3f);
        let mut at: Vec<usize> = (0..packed_at).chain(positions_at..len).collect();
        if positions_at > packed_at {
            at.extend(
                (0..6).map(|_| packed_at + rng.below((positions_at - packed_at) as u64) as usize),
            );
        }
        for &at in &at {
            for flip in [0x01, 0x40, 0x80, 0xff, 0x5a] {
                let mut bad = block.to_vec();
                bad[at] ^= flip;
                check(&bad, &mut outcomes);
            }
        }
        for cut in 0..len {
            check(&block[..cut], &mut outcomes);
        }
    }
    // Positions out of order, repeated, past the block (the second, at
    // byte 3 + 16 + 1); padding bits set:
    // each decoded as corrupt, which select used not to see.
    let lows = [1u32; 128];
    for positions in [[5u8, 3], [7, 7], [1, 200]] {
        let bad = raw_block(1, 4, &lows, &positions, &[3, 9]);
        let mut out = [0u32; 128];
        let e = pfor::decode_block(&bad, &mut out).unwrap_err();
        assert!(matches!(e, Error::Corrupt { offset: 20, .. }), "{e:?}");
        assert_eq!(pfor::select_block(&bad, 0), Err(e.clone()));
        assert_eq!(pfor::select_block_delta(0, &bad, 127), Err(e));
    }
    let mut bad = raw_block(1, 4, &lows, &[3], &[9]);
    *bad.last_mut().unwrap() |= 0x80;
    let mut out = [0u32; 128];
    let e = pfor::decode_block(&bad, &mut out).unwrap_err();
    assert!(matches!(e, Error::Corrupt { .. }), "{e:?}");
    assert_eq!(pfor::select_block(&bad, 3), Err(e));
    // Both outcomes were exercised.
    assert!(outcomes.iter().all(|&n| n > 100), "{outcomes:?}");
}
