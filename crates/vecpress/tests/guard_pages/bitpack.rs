//! The bit-packing codecs against guard pages: the registry's streams, the
//! blocks of bp128, FastLanes and PFOR with their in-place reads, and the
//! delta streams' searches.

use vecpress::bitpack::bp128::{self, Lanes};
use vecpress::bitpack::fastlanes as fl;
use vecpress::bitpack::pfor;

use super::*;

/// `n` values of `width` bits (0..=64) each, as u64: the generators of the
/// bit-packing tests, which cast them to the type packed.
fn of_width(r: &mut Rng, n: usize, width: u32) -> Vec<u64> {
    (0..n)
        .map(|_| match width {
            0 => 0,
            w => r.next_u64() >> (64 - w),
        })
        .collect()
}

/// `n` gaps whose width changes with each block of `block` values, through
/// every width 0..=32 (block `k` has width `k % 33`); with `exceptions`,
/// one value in 37 is a random u32, as PFOR patches in.
fn block_widths(r: &mut Rng, n: usize, block: usize, exceptions: bool) -> Vec<u32> {
    (0..n)
        .map(|i| match exceptions && i % 37 == 5 {
            true => r.next_u64() as u32,
            false => of_width(r, 1, (i / block % 33) as u32)[0] as u32,
        })
        .collect()
}

/// A bit-packing codec of the registry: (name, delta coded, values a
/// block, encode, decode with a kernel).
type Bitpack = (
    &'static str,
    bool,
    usize,
    fn(&[u32]) -> Vec<u8>,
    Decode<u32>,
);

fn bitpack_codecs() -> [Bitpack; 7] {
    [
        (
            "bp128",
            false,
            128,
            bp128::encode_to_vec,
            bp128::decode_with,
        ),
        (
            "bp128-delta",
            true,
            128,
            |v| bp128::encode_delta_to_vec(v, PREV),
            |isa, i, o| bp128::decode_delta_with(isa, i, o, PREV),
        ),
        ("fastlanes", false, 1024, fl::encode_to_vec, fl::decode_with),
        (
            "fastlanes-delta",
            true,
            1024,
            |v| fl::encode_delta_to_vec(v, PREV),
            |isa, i, o| fl::decode_delta_with(isa, i, o, PREV),
        ),
        (
            "fastlanes-for",
            false,
            1024,
            fl::encode_for_to_vec,
            fl::decode_for_with,
        ),
        ("pfor", false, 128, pfor::encode_to_vec, pfor::decode_with),
        (
            "pfor-delta",
            true,
            128,
            |v| pfor::encode_delta_to_vec(v, PREV),
            |isa, i, o| pfor::decode_delta_with(isa, i, o, PREV),
        ),
    ]
}

#[test]
fn bitpack_streams_stay_inside_their_slices() {
    for (codec, delta, block, encode, decode) in bitpack_codecs() {
        // Around one and two blocks, and 33 blocks and a tail: every width
        // once.
        let lengths = [0, 1, 3, block - 1, block, block + 1, 2 * block + 5];
        let lengths = lengths.into_iter().chain([33 * block + 3]);
        for (n, exceptions) in lengths.flat_map(|n| [(n, false), (n, true)]) {
            let gaps = block_widths(&mut Rng::new(n as u64 + 41), n, block, exceptions);
            let values = if delta {
                running_sum(gaps.iter().copied(), PREV)
            } else {
                gaps
            };
            let ctx = format!("{codec}, exceptions {exceptions}");
            check_stream(decode, &encode(&values), &values, &ctx);
        }
    }
}

#[test]
fn bp128_blocks_stay_inside_their_slices() {
    for lanes in [Lanes::X4, Lanes::X8] {
        let len = lanes.block_len();
        let mut input = Guarded::new(lanes.packed_len(32));
        let mut output = Guarded::new(4 * len);
        for width in 0..=32u8 {
            let mut r = Rng::new(u64::from(width) + 3);
            let values: Vec<u32> = of_width(&mut r, len, width.into())
                .into_iter()
                .map(|v| v as u32)
                .collect();
            // The same values as the gaps of a sorted block from PREV.
            let sorted = running_sum(values.iter().copied(), PREV);
            let mut packed = vec![0u8; lanes.packed_len(width)];
            let mut packed_sorted = packed.clone();
            bp128::pack(lanes, &values, width, &mut packed).unwrap();
            bp128::pack_sorted(lanes, PREV, &sorted, width, &mut packed_sorted).unwrap();
            let plen = packed.len();
            for &isa in Isa::available() {
                let ctx = format!("{lanes:?}, width {width}, {isa}");
                for at_end in [true, false] {
                    let ctx = format!("{ctx}, at end {at_end}");
                    let src = input.place(&packed, at_end);
                    let out = output.out::<u32>(len, true);
                    let res = bp128::unpack_with(isa, lanes, src, width, out);
                    assert_eq!((res, &out[..]), (Ok(plen), &values[..]), "unpack, {ctx}");
                    let out = output.out::<u32>(len, true);
                    let res = bp128::unpack(lanes, src, width, out);
                    assert_eq!((res, &out[..]), (Ok(plen), &values[..]), "auto, {ctx}");
                    for i in probes(len) {
                        let got = bp128::select(lanes, src, width, i);
                        assert_eq!(got, Ok(values[i]), "select {i}, {ctx}");
                    }
                    let src = input.place(&packed_sorted, at_end);
                    let out = output.out::<u32>(len, true);
                    let res = bp128::unpack_sorted_with(isa, lanes, PREV, src, width, out);
                    assert_eq!((res, &out[..]), (Ok(plen), &sorted[..]), "sorted, {ctx}");
                    let out = output.out::<u32>(len, true);
                    let res = bp128::unpack_sorted(lanes, PREV, src, width, out);
                    assert_eq!(
                        (res, &out[..]),
                        (Ok(plen), &sorted[..]),
                        "sorted auto, {ctx}"
                    );
                    for i in probes(len) {
                        let got = bp128::select_sorted(lanes, PREV, src, width, i);
                        assert_eq!(got, Ok(sorted[i]), "select_sorted {i}, {ctx}");
                    }
                }
                // An output one value short is refused, not overrun.
                let src = input.at_end(&packed);
                let res = bp128::unpack_with(isa, lanes, src, width, output.out(len - 1, true));
                assert!(res.is_err(), "short output, {ctx}: {res:?}");
                let out = output.out(len - 1, true);
                let res = bp128::unpack_sorted_with(isa, lanes, PREV, src, width, out);
                assert!(res.is_err(), "sorted, short output, {ctx}: {res:?}");
                for cut in cuts(plen) {
                    let ctx = format!("{ctx}, cut {cut}");
                    let src = input.at_end(&packed[..cut]);
                    let res = bp128::unpack_with(isa, lanes, src, width, output.out(len, true));
                    assert!(res.is_err(), "unpack, {ctx}: {res:?}");
                    let out = output.out(len, true);
                    let res = bp128::unpack_sorted_with(isa, lanes, PREV, src, width, out);
                    assert!(res.is_err(), "sorted, {ctx}: {res:?}");
                    // Value 0 lies in the first words: the whole block
                    // must still be there.
                    for i in [0, len - 1] {
                        let res = bp128::select(lanes, src, width, i);
                        assert!(res.is_err(), "select {i}, {ctx}: {res:?}");
                        let res = bp128::select_sorted(lanes, PREV, src, width, i);
                        assert!(res.is_err(), "select_sorted {i}, {ctx}: {res:?}");
                    }
                }
            }
        }
    }
}

/// The types FastLanes packs, made from the u64 of [`of_width`].
trait Lane: fl::Word + Word {
    fn cast(v: u64) -> Self;
    fn widen(self) -> u64;
    fn plus(self, other: Self) -> Self;
}

macro_rules! lane {
    ($($t:ty)*) => {$(
        impl Lane for $t {
            fn cast(v: u64) -> Self {
                v as $t
            }
            fn widen(self) -> u64 {
                self.into()
            }
            fn plus(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
        }
    )*};
}
lane!(u8 u16 u32 u64);

/// FastLanes blocks of `T` at every width: plain, FoR and delta (and for
/// u32 the delta block into natural order), whole at both ends of the
/// input region, truncated, and into an output one value short.
fn fastlanes_blocks<T: Lane>() {
    let bits = <T as fl::Word>::BITS;
    let mut input = Guarded::new(fl::packed_len(bits as u8));
    let mut output = Guarded::new(fl::BLOCK * size_of::<T>());
    let natural = size_of::<T>() == 4;
    for width in 0..=bits as u8 {
        let mut r = Rng::new(u64::from(width) + 71);
        let cast = |v: Vec<u64>| -> Vec<T> { v.into_iter().map(T::cast).collect() };
        let values = cast(of_width(&mut r, fl::BLOCK, width.into()));
        let reference = T::cast(r.next_u64());
        let bases = cast(of_width(&mut r, T::LANES, bits as u32));
        let shifted: Vec<T> = values.iter().map(|&v| v.plus(reference)).collect();
        let len = fl::packed_len(width);
        let (mut packed, mut packed_for) = (vec![0u8; len], vec![0u8; len]);
        fl::pack(&values, width, &mut packed).unwrap();
        fl::for_pack(&shifted, reference, width, &mut packed_for).unwrap();
        // A delta block whose differences are `values`: what the scalar
        // kernel unpacks from their packed bytes, which must pack back the
        // same (every bit pattern is a block).
        let mut sums = vec![T::ZERO; fl::BLOCK];
        fl::delta_unpack_with(Isa::Scalar, &packed, &bases, width, &mut sums).unwrap();
        let mut repacked = vec![0u8; len];
        fl::delta_pack(&sums, &bases, width, &mut repacked).unwrap();
        assert_eq!(
            repacked, packed,
            "{bits} bits, width {width}: delta round trip"
        );
        let mut in_order = vec![T::ZERO; fl::BLOCK];
        fl::untranspose(&sums, &mut in_order).unwrap();
        // For u32, the only type `delta_unpack_natural` takes.
        let as_u32 = |v: &[T]| -> Vec<u32> { v.iter().map(|&x| x.widen() as u32).collect() };
        let (bases32, in_order) = (as_u32(&bases), as_u32(&in_order));
        for &isa in Isa::available() {
            let ctx = format!("{bits} bits, width {width}, {isa}");
            for at_end in [true, false] {
                let ctx = format!("{ctx}, at end {at_end}");
                let src = input.place(&packed, at_end);
                let out = output.out::<T>(fl::BLOCK, true);
                let res = fl::unpack_with(isa, src, width, out);
                assert_eq!((res, &out[..]), (Ok(len), &values[..]), "unpack, {ctx}");
                let out = output.out::<T>(fl::BLOCK, true);
                let res = fl::delta_unpack_with(isa, src, &bases, width, out);
                assert_eq!((res, &out[..]), (Ok(len), &sums[..]), "delta, {ctx}");
                if natural {
                    let out = output.out::<u32>(fl::BLOCK, true);
                    let res = fl::delta_unpack_natural_with(isa, src, &bases32, width, out);
                    assert_eq!((res, &out[..]), (Ok(len), &in_order[..]), "natural, {ctx}");
                }
                let src = input.place(&packed_for, at_end);
                let out = output.out::<T>(fl::BLOCK, true);
                let res = fl::for_unpack_with(isa, src, reference, width, out);
                assert_eq!((res, &out[..]), (Ok(len), &shifted[..]), "FoR, {ctx}");
            }
            let src = input.at_end(&packed);
            let res = fl::unpack_with(isa, src, width, output.out::<T>(fl::BLOCK - 1, true));
            assert!(res.is_err(), "short output, {ctx}: {res:?}");
            for cut in cuts(len) {
                let ctx = format!("{ctx}, cut {cut}");
                let src = input.at_end(&packed[..cut]);
                let res = fl::unpack_with(isa, src, width, output.out::<T>(fl::BLOCK, true));
                assert!(res.is_err(), "unpack, {ctx}: {res:?}");
                let out = output.out::<T>(fl::BLOCK, true);
                let res = fl::for_unpack_with(isa, src, reference, width, out);
                assert!(res.is_err(), "FoR, {ctx}: {res:?}");
                let out = output.out::<T>(fl::BLOCK, true);
                let res = fl::delta_unpack_with(isa, src, &bases, width, out);
                assert!(res.is_err(), "delta, {ctx}: {res:?}");
                if natural {
                    let out = output.out::<u32>(fl::BLOCK, true);
                    let res = fl::delta_unpack_natural_with(isa, src, &bases32, width, out);
                    assert!(res.is_err(), "natural, {ctx}: {res:?}");
                }
            }
        }
    }
}

#[test]
fn fastlanes_blocks_stay_inside_their_slices() {
    fastlanes_blocks::<u8>();
    fastlanes_blocks::<u16>();
    fastlanes_blocks::<u32>();
    fastlanes_blocks::<u64>();
}

#[test]
fn pfor_blocks_stay_inside_their_slices() {
    let mut input = Guarded::new(pfor::MAX_BLOCK_BYTES + 256);
    let mut output = Guarded::new(4 * pfor::BLOCK_LEN);
    let n = pfor::BLOCK_LEN;
    // The (width, has exceptions) of the blocks written: every packed width,
    // with and without exceptions.
    let mut seen = std::collections::BTreeSet::new();
    for width in 0..=32u32 {
        for exceptions in [0, 1, 3, 20].into_iter().filter(|&e| e == 0 || width < 32) {
            let mut r = Rng::new(u64::from(width) * 100 + exceptions);
            let mut values: Vec<u32> = of_width(&mut r, n, width)
                .into_iter()
                .map(|v| v as u32)
                .collect();
            // Exceptions of 1 to 32 - width bits above the width.
            for _ in 0..exceptions {
                let high = width + 1 + r.below(u64::from(32 - width)) as u32;
                let v = of_width(&mut r, 1, high)[0] as u32 | 1 << (high - 1);
                values[r.below(n as u64) as usize] = v;
            }
            let sorted = running_sum(values.iter().copied(), PREV);
            let mut block = [0u8; pfor::MAX_BLOCK_BYTES];
            let len = pfor::encode_block(&values, &mut block).unwrap();
            let block = &block[..len];
            let mut delta = [0u8; pfor::MAX_BLOCK_BYTES];
            let delta_len = pfor::encode_block_delta(PREV, &sorted, &mut delta).unwrap();
            assert_eq!(&delta[..delta_len], block, "the gaps are the values");
            seen.insert((block[0] & 0x3f, block[0] & 0x80 != 0));
            for &isa in Isa::available() {
                let ctx = format!("width {width}, {exceptions} exceptions, {isa}");
                for at_end in [true, false] {
                    let ctx = format!("{ctx}, at end {at_end}");
                    let src = input.place(block, at_end);
                    let out = output.out::<u32>(n, true);
                    let res = pfor::decode_block_with(isa, src, out);
                    assert_eq!((res, &out[..]), (Ok(len), &values[..]), "decode, {ctx}");
                    let out = output.out::<u32>(n, true);
                    let res = pfor::decode_block_delta_with(isa, PREV, src, out);
                    assert_eq!((res, &out[..]), (Ok(len), &sorted[..]), "delta, {ctx}");
                    for i in probes(n) {
                        assert_eq!(pfor::select_block(src, i), Ok(values[i]), "{i}, {ctx}");
                        let got = pfor::select_block_delta(PREV, src, i);
                        assert_eq!(got, Ok(sorted[i]), "delta {i}, {ctx}");
                    }
                }
                let src = input.at_end(block);
                let res = pfor::decode_block_with(isa, src, output.out(n - 1, true));
                assert!(res.is_err(), "short output, {ctx}: {res:?}");
                for cut in cuts(len) {
                    let ctx = format!("{ctx}, cut {cut}");
                    let src = input.at_end(&block[..cut]);
                    let res = pfor::decode_block_with(isa, src, output.out(n, true));
                    assert!(res.is_err(), "decode, {ctx}: {res:?}");
                    let res = pfor::decode_block_delta_with(isa, PREV, src, output.out(n, true));
                    assert!(res.is_err(), "delta, {ctx}: {res:?}");
                    for i in [0, n - 1] {
                        let res = pfor::select_block(src, i);
                        assert!(res.is_err(), "select {i}, {ctx}: {res:?}");
                        let res = pfor::select_block_delta(PREV, src, i);
                        assert!(res.is_err(), "select delta {i}, {ctx}: {res:?}");
                    }
                }
            }
        }
    }
    let missing: Vec<_> = (0..=32u8)
        .flat_map(|w| [(w, false), (w, true)])
        .filter(|&(w, x)| (w < 32 || !x) && !seen.contains(&(w, x)))
        .collect();
    assert!(
        missing.is_empty(),
        "no block of (width, exceptions) {missing:?}"
    );
}

/// A sorted delta stream's search: (codec, encode from `prev`, search).
type Search = (
    &'static str,
    fn(&[u32], u32) -> Vec<u8>,
    fn(&[u8], usize, u32, u32) -> Result<Option<(usize, u32)>, Error>,
);

/// `search_delta` of bp128 and PFOR streams against a linear scan, at the
/// level the CPU's profile chooses (under the cap).
#[test]
fn bitpack_search_stays_inside_its_slice() {
    let codecs: [Search; 2] = [
        ("bp128", bp128::encode_delta_to_vec, bp128::search_delta),
        ("pfor", pfor::encode_delta_to_vec, pfor::search_delta),
    ];
    let mut input = Guarded::new(bp128::max_encoded_len(1000).max(pfor::max_encoded_len(1000)));
    for (codec, encode, search) in codecs {
        for n in [0, 1, 127, 128, 129, 255, 256, 257, 300, 1000] {
            // Gaps of one to three bytes, and gaps whose width changes with
            // each block (0 to 19 bits: the sum stays below 2^30).
            let mut r = Rng::new(n as u64 + 5);
            let widths: Vec<u32> = (0..n)
                .map(|i| of_width(&mut r, 1, (i / 128 * 7 % 20) as u32)[0] as u32)
                .collect();
            let kinds = [("bytes", sorted_gaps(&mut r, n, false)), ("widths", widths)];
            for (kind, gaps) in kinds {
                let values = running_sum(gaps.iter().copied(), PREV);
                let bytes = encode(&values, PREV);
                let mut keys = vec![0, PREV, u32::MAX];
                keys.extend(probes(n).flat_map(|i| [values[i], values[i] + 1]));
                let ctx = format!("{codec}, {kind}, n {n}");
                for at_end in [true, false] {
                    let src = input.place(&bytes, at_end);
                    for &key in &keys {
                        let want = values
                            .iter()
                            .position(|&v| v >= key)
                            .map(|j| (j, values[j]));
                        let got = search(src, n, key, PREV);
                        assert_eq!(got, Ok(want), "key {key}, {ctx}, at end {at_end}");
                    }
                }
                // A key past every value needs every byte.
                for cut in cuts(bytes.len()) {
                    let res = search(input.at_end(&bytes[..cut]), n, u32::MAX, PREV);
                    assert!(res.is_err(), "{ctx}, cut {cut}: {res:?}");
                }
            }
        }
    }
}
