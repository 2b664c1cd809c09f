//! FastLanes: every kernel at every level against a bit-by-bit reference of
//! the layout, byte compatibility with the `fastlanes` crate both ways
//! (plain, FoR, Delta, at every width of every type), streams and errors.

use crate::common::Rng;
use fastlanes::{BitPacking, Delta, FastLanes, FoR, Transpose};
use vecpress::bitpack::fastlanes::{self as fl, Word};
use vecpress::{Error, Isa};

/// The layout written out bit by bit: row `r` of lane `l` (value
/// `FL_ORDER[r / 8] 16 + (r % 8) 128 + l`) at bits `r W ..` of the lane's
/// words, lane `l`'s word `k` being word `LANES k + l`.
fn reference_pack<T: Word + Into<u64>>(values: &[T], width: usize) -> Vec<u8> {
    const ORDER: [usize; 8] = [0, 4, 2, 6, 1, 5, 3, 7];
    let (bits, lanes) = (T::BITS, T::LANES);
    let mut words = vec![0u64; lanes * width];
    for lane in 0..lanes {
        for row in 0..bits {
            let v: u64 = values[ORDER[row / 8] * 16 + (row % 8) * 128 + lane].into();
            for b in 0..width {
                if v >> b & 1 == 1 {
                    let bit = row * width + b;
                    words[lanes * (bit / bits) + lane] |= 1 << (bit % bits);
                }
            }
        }
    }
    words
        .iter()
        .flat_map(|w| w.to_le_bytes()[..T::SIZE].to_vec())
        .collect()
}

/// The crate's words as little-endian bytes, and back.
trait Bytes: Sized {
    fn to_bytes(words: &[Self]) -> Vec<u8>;
    fn from_bytes(bytes: &[u8]) -> Vec<Self>;
    fn random(rng: &mut Rng, width: usize) -> Self;
}

macro_rules! bytes {
    ($t:ty) => {
        impl Bytes for $t {
            fn to_bytes(words: &[Self]) -> Vec<u8> {
                words.iter().flat_map(|w| w.to_le_bytes()).collect()
            }
            fn from_bytes(bytes: &[u8]) -> Vec<Self> {
                bytes
                    .chunks_exact(<$t as Word>::SIZE)
                    .map(|c| <$t>::from_le_bytes(c.try_into().unwrap()))
                    .collect()
            }
            fn random(rng: &mut Rng, width: usize) -> Self {
                if width == 0 {
                    0
                } else {
                    (rng.next_u64() >> (64 - width)) as $t
                }
            }
        }
    };
}
bytes!(u8);
bytes!(u16);
bytes!(u32);
bytes!(u64);

/// A block of values of exactly `width` bits at most, the top one set in
/// some (so the width is needed), with runs of zeros and of all-ones.
fn random_block<T: Word + Bytes>(rng: &mut Rng, width: usize) -> Vec<T> {
    let mut v: Vec<T> = (0..1024).map(|_| T::random(rng, width)).collect();
    let ones = T::random(rng, width) | T::random(rng, width);
    let at = rng.below(1000) as usize;
    for x in &mut v[at..at + 24] {
        *x = if at.is_multiple_of(2) { T::ZERO } else { ones };
    }
    v
}

macro_rules! compat {
    ($name:ident, $t:ty) => {
        #[test]
        fn $name() {
            let mut rng = Rng::new(0xfa57 + <$t as Word>::BITS as u64);
            for width in 0..=<$t as Word>::BITS {
                let w = width as u8;
                for round in 0..3 {
                    let values: Vec<$t> = random_block(&mut rng, width);
                    let arr: [$t; 1024] = values.clone().try_into().unwrap();
                    let expect = reference_pack(&values, width);
                    // The crate's bytes.
                    let mut theirs = vec![0 as $t; 1024 * width / <$t as Word>::BITS];
                    // SAFETY: 1024 values in, 1024 W / T words out, W <= T.
                    unsafe { <$t as BitPacking>::unchecked_pack(width, &arr, &mut theirs) };
                    let theirs = <$t as Bytes>::to_bytes(&theirs);
                    assert_eq!(theirs, expect, "crate vs reference, width {width}");
                    assert_eq!(fl::width(&values).unwrap() <= w, true);
                    for &isa in Isa::available() {
                        let ctx = format!("{} width {width} round {round} {isa:?}", stringify!($t));
                        let mut ours = vec![0xa5u8; fl::packed_len(w) + 3];
                        assert_eq!(
                            fl::pack_with(isa, &values, w, &mut ours),
                            Ok(fl::packed_len(w)),
                            "{ctx}"
                        );
                        assert_eq!(ours[..fl::packed_len(w)], expect[..], "pack {ctx}");
                        assert_eq!(
                            ours[fl::packed_len(w)..],
                            [0xa5; 3],
                            "pack wrote past {ctx}"
                        );
                        // Ours unpacks theirs, they unpack ours.
                        let mut out = vec![<$t>::MAX; 1025];
                        assert_eq!(
                            fl::unpack_with(isa, &theirs, w, &mut out),
                            Ok(fl::packed_len(w)),
                            "{ctx}"
                        );
                        assert_eq!(out[..1024], values[..], "unpack {ctx}");
                        assert_eq!(out[1024], <$t>::MAX, "unpack wrote past {ctx}");
                        let words = <$t as Bytes>::from_bytes(&ours[..fl::packed_len(w)]);
                        let mut back = [0 as $t; 1024];
                        // SAFETY: as above.
                        unsafe { <$t as BitPacking>::unchecked_unpack(width, &words, &mut back) };
                        assert_eq!(back[..], values[..], "crate unpack {ctx}");

                        // FoR: values shifted up by a reference, wrapping.
                        let reference = <$t as Bytes>::random(&mut rng, <$t as Word>::BITS);
                        let shifted: Vec<$t> =
                            values.iter().map(|v| v.wrapping_add(reference)).collect();
                        let mut ours = vec![0u8; fl::packed_len(w)];
                        fl::for_pack_with(isa, &shifted, reference, w, &mut ours).unwrap();
                        assert_eq!(ours, expect, "for_pack {ctx}");
                        let mut out = [0 as $t; 1024];
                        fl::for_unpack_with(isa, &ours, reference, w, &mut out).unwrap();
                        assert_eq!(out[..], shifted[..], "for_unpack {ctx}");
                        let words = <$t as Bytes>::from_bytes(&ours);
                        // SAFETY: as above.
                        unsafe {
                            <$t as FoR>::unchecked_unfor_pack(width, &words, reference, &mut back)
                        };
                        assert_eq!(back[..], shifted[..], "crate unfor_pack {ctx}");

                        // Delta: the running sums down each lane of the
                        // values as differences, from random bases.
                        const LANES: usize = <$t as FastLanes>::LANES;
                        let bases: [$t; LANES] = core::array::from_fn(|_| {
                            <$t as Bytes>::random(&mut rng, <$t as Word>::BITS)
                        });
                        let mut summed = [0 as $t; 1024];
                        <$t as Delta>::undelta::<LANES>(&arr, &bases, &mut summed);
                        let mut deltas = [0 as $t; 1024];
                        <$t as Delta>::delta::<LANES>(&summed, &bases, &mut deltas);
                        assert_eq!(deltas, arr, "crate delta {ctx}");
                        assert!(fl::delta_width(&summed, &bases).unwrap() <= w);
                        fl::delta_pack_with(isa, &summed, &bases, w, &mut ours).unwrap();
                        assert_eq!(ours, expect, "delta_pack {ctx}");
                        fl::delta_unpack_with(isa, &theirs, &bases, w, &mut out).unwrap();
                        assert_eq!(out, summed, "delta_unpack {ctx}");
                    }
                }
            }
        }
    };
}

compat!(compat_u8, u8);
compat!(compat_u16, u16);
compat!(compat_u32, u32);
compat!(compat_u64, u64);

/// A block with one value (difference) too wide for the width, in each row
/// in turn (the check runs in the packing pass, so it must see every row),
/// is refused by every form at every level, naming the bits it needs; one
/// that fits exactly still packs.
macro_rules! too_wide {
    ($name:ident, $t:ty) => {
        #[test]
        fn $name() {
            const BITS: usize = <$t as Word>::BITS;
            const LANES: usize = <$t as FastLanes>::LANES;
            const ORDER: [usize; 8] = [0, 4, 2, 6, 1, 5, 3, 7];
            let mut rng = Rng::new(0x71de + BITS as u64);
            for width in 0..BITS {
                let w = width as u8;
                for row in 0..BITS {
                    let values: Vec<$t> = random_block(&mut rng, width);
                    let lane = rng.below(LANES as u64) as usize;
                    let at = ORDER[row / 8] * 16 + (row % 8) * 128 + lane;
                    // Just too wide in even rows, as wide as the type in odd ones.
                    let (wide, need) = if row % 2 == 0 {
                        (values[at] | (1 as $t) << width, width + 1)
                    } else {
                        (<$t>::MAX, BITS)
                    };
                    let arr: [$t; 1024] = values.clone().try_into().unwrap();
                    let reference = <$t as Bytes>::random(&mut rng, BITS);
                    let bases: [$t; LANES] =
                        core::array::from_fn(|_| <$t as Bytes>::random(&mut rng, BITS));
                    for &isa in Isa::available() {
                        let ctx = format!("{} width {width} row {row} {isa:?}", stringify!($t));
                        let refused = |r: Result<usize, Error>, form: &str| {
                            assert!(
                                matches!(r, Err(Error::InvalidArgument { value, .. }) if value == need),
                                "{form} {ctx}: {r:?}"
                            );
                        };
                        let mut out = vec![0u8; fl::packed_len(w)];
                        let mut bad = values.clone();
                        let fits = fl::pack_with(isa, &bad, w, &mut out);
                        assert_eq!(fits, Ok(fl::packed_len(w)), "fits {ctx}");
                        bad[at] = wide;
                        refused(fl::pack_with(isa, &bad, w, &mut out), "pack");
                        let shifted: Vec<$t> =
                            bad.iter().map(|v| v.wrapping_add(reference)).collect();
                        refused(
                            fl::for_pack_with(isa, &shifted, reference, w, &mut out),
                            "for_pack",
                        );
                        let mut deltas = arr;
                        deltas[at] = wide;
                        let mut summed = [0 as $t; 1024];
                        <$t as Delta>::undelta::<LANES>(&deltas, &bases, &mut summed);
                        refused(
                            fl::delta_pack_with(isa, &summed, &bases, w, &mut out),
                            "delta_pack",
                        );
                        assert_eq!(fl::width(&bad).map(usize::from), Ok(need), "width {ctx}");
                    }
                }
            }
        }
    };
}

too_wide!(too_wide_u8, u8);
too_wide!(too_wide_u16, u16);
too_wide!(too_wide_u32, u32);
too_wide!(too_wide_u64, u64);

/// The crate's own `FoR::for_pack` (const widths) and
/// `Delta::undelta_pack` against ours, for u32 at every width.
#[test]
fn crate_for_pack_and_undelta_pack_u32() {
    let mut rng = Rng::new(32);
    macro_rules! each {
        ($($w:literal)*) => {$({
            const B: usize = 1024 * $w / 32;
            let values: Vec<u32> = random_block(&mut rng, $w);
            let reference = rng.next_u64() as u32;
            let shifted: Vec<u32> = values.iter().map(|v| v.wrapping_add(reference)).collect();
            let mut theirs = [0u32; B];
            <u32 as FoR>::for_pack::<$w, B>(&shifted.clone().try_into().unwrap(), reference, &mut theirs);
            let bases: [u32; 32] = core::array::from_fn(|_| rng.next_u64() as u32);
            let mut summed = [0u32; 1024];
            <u32 as Delta>::undelta_pack::<32, $w, B>(&theirs, &bases, &mut summed);
            for &isa in Isa::available() {
                let mut ours = vec![0u8; fl::packed_len($w)];
                fl::for_pack_with(isa, &shifted, reference, $w, &mut ours).unwrap();
                assert_eq!(ours, <u32 as Bytes>::to_bytes(&theirs), "width {} {isa:?}", $w);
                let mut out = [0u32; 1024];
                fl::delta_unpack_with(isa, &ours, &bases, $w, &mut out).unwrap();
                assert_eq!(out, summed, "width {} {isa:?}", $w);
            }
        })*};
    }
    each!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
}

#[test]
fn transpose_matches_the_crate() {
    let mut rng = Rng::new(7);
    let values: [u64; 1024] = core::array::from_fn(|_| rng.next_u64());
    let mut theirs = [0u64; 1024];
    <u64 as Transpose>::transpose(&values, &mut theirs);
    let mut ours = [0u64; 1024];
    fl::transpose(&values, &mut ours).unwrap();
    assert_eq!(ours, theirs);
    let mut back = [0u64; 1024];
    fl::untranspose(&ours, &mut back).unwrap();
    assert_eq!(back, values);
}

#[test]
fn block_errors() {
    let values = [3u32; 1024];
    let mut out = [0u8; 4096];
    assert!(matches!(
        fl::pack(&values[..1000], 2, &mut out),
        Err(Error::InvalidArgument { .. })
    ));
    assert!(matches!(
        fl::pack(&values, 1, &mut out),
        Err(Error::InvalidArgument { .. })
    ));
    assert!(matches!(
        fl::pack(&values, 33, &mut out),
        Err(Error::InvalidArgument { .. })
    ));
    assert!(matches!(
        fl::pack(&values, 2, &mut out[..255]),
        Err(Error::OutputTooSmall { .. })
    ));
    let mut vals = [0u32; 1024];
    assert!(matches!(
        fl::unpack(&out[..255], 2, &mut vals),
        Err(Error::Truncated { .. })
    ));
    assert!(matches!(
        fl::unpack(&out, 2, &mut vals[..1023]),
        Err(Error::OutputTooSmall { .. })
    ));
    assert!(matches!(
        fl::unpack(&out, 9, &mut [0u8; 1024]),
        Err(Error::InvalidArgument { .. })
    ));
    assert!(matches!(
        fl::delta_unpack(&out, &[0u32; 31], 2, &mut vals),
        Err(Error::InvalidArgument { .. })
    ));
    if !Isa::Neon.is_supported() {
        assert!(matches!(
            fl::unpack_with(Isa::Neon, &out, 2, &mut vals),
            Err(Error::Unsupported { .. })
        ));
    }
}

type Encode = fn(&[u32]) -> Vec<u8>;
type Decode = fn(Isa, &[u8], &mut [u32]) -> Result<usize, Error>;

fn forms() -> [(&'static str, Encode, Decode); 3] {
    [
        ("plain", fl::encode_to_vec, fl::decode_with),
        ("for", fl::encode_for_to_vec, fl::decode_for_with),
        (
            "delta",
            |v| fl::encode_delta_to_vec(v, 0),
            |isa, i, o| fl::decode_delta_with(isa, i, o, 0),
        ),
    ]
}

#[test]
fn streams_round_trip() {
    let mut rng = Rng::new(99);
    for n in [0, 1, 1023, 1024, 1025, 2048, 3000, 5000] {
        for gap_bits in [0, 1, 5, 12, 20] {
            let mut acc = 0u32;
            let sorted: Vec<u32> = (0..n)
                .map(|_| {
                    acc = acc.wrapping_add(u32::random(&mut rng, gap_bits));
                    acc
                })
                .collect();
            let random: Vec<u32> = (0..n)
                .map(|_| u32::random(&mut rng, gap_bits + 8))
                .collect();
            for (name, enc, dec) in forms() {
                for values in [&sorted, &random] {
                    let bytes = enc(values);
                    assert!(bytes.len() <= fl::max_encoded_len(n));
                    for &isa in Isa::available() {
                        let mut out = vec![0u32; n];
                        assert_eq!(
                            dec(isa, &bytes, &mut out),
                            Ok(bytes.len()),
                            "{name} n {n} {isa:?}"
                        );
                        assert_eq!(&out, values, "{name} n {n} gap {gap_bits} {isa:?}");
                    }
                }
            }
        }
    }
    let docs: Vec<u32> = (0..4096).map(|i| 1_000_000 + 9 * i).collect();
    assert!(fl::encode_delta_to_vec(&docs, 1_000_000).len() < 4096 * 5 / 8);
    // A list far from `prev` pays for the jump once (a VByte base), not with
    // the width of its first block: 2 bits an integer at most here.
    let far: Vec<u32> = (0..4096).map(|i| (1 << 30) + i).collect();
    assert!(fl::encode_delta_to_vec(&far, 0).len() < 4096 * 2 / 8);
}

#[test]
fn streams_reject_bad_input() {
    let mut rng = Rng::new(5);
    let mut acc = 0u32;
    let values: Vec<u32> = (0..1100)
        .map(|_| {
            acc += u32::random(&mut rng, 6);
            acc
        })
        .collect();
    for (name, enc, dec) in forms() {
        let bytes = enc(&values);
        // Every truncation is an error (or decodes fewer bytes, never panics).
        for cut in 0..bytes.len() {
            let mut out = vec![0u32; values.len()];
            assert!(
                dec(Isa::best(), &bytes[..cut], &mut out).is_err(),
                "{name} cut {cut}"
            );
        }
        // A width above 32 is corrupt at its offset.
        let mut bad = bytes.clone();
        bad[0] = 33;
        let mut out = vec![0u32; values.len()];
        assert_eq!(
            dec(Isa::best(), &bad, &mut out),
            Err(Error::Corrupt {
                offset: 0,
                what: "bit width above 32"
            }),
            "{name}"
        );
        // Every byte flip decodes or fails, alike at every level.
        for at in 0..bytes.len().min(400) {
            let mut bad = bytes.clone();
            bad[at] ^= 0x5a;
            let results: Vec<_> = Isa::available()
                .iter()
                .map(|&isa| {
                    let mut out = vec![0u32; values.len()];
                    dec(isa, &bad, &mut out).map(|n| (n, out))
                })
                .collect();
            assert!(results.windows(2).all(|w| w[0] == w[1]), "{name} flip {at}");
        }
    }
    assert!(matches!(
        fl::decode_to_vec(&[1], 1 << 40),
        Err(Error::Truncated { .. })
    ));
}

/// `width` low bits set.
fn ones<T: Word>(width: usize) -> T {
    if width == 0 {
        T::ZERO
    } else {
        T::ONES >> (T::BITS - width)
    }
}

/// `select` and `for_select` give `unpack`'s and `for_unpack`'s value at
/// every index of random blocks and of blocks all ones at the width, at
/// every width; `delta_select` gives the value `delta_unpack` then
/// `untranspose` give (the natural order) at every index, for packed bytes
/// of every pattern, and the source values of a `delta_pack`ed block.
fn select_every_index<T: Word + Bytes>(seed: u64) {
    let mut rng = Rng::new(seed);
    let name = format!("u{}", T::BITS);
    for width in 0..=T::BITS {
        let w = width as u8;
        let len = fl::packed_len(w);
        for (kind, values) in [
            ("random", random_block::<T>(&mut rng, width)),
            ("ones", vec![ones::<T>(width); 1024]),
        ] {
            let ctx = format!("{name} width {width} {kind}");
            // Room past the block, so that a read past it would show.
            let mut packed = vec![0x5au8; len + 8];
            fl::pack(&values, w, &mut packed).unwrap();
            let mut out = vec![T::ZERO; 1024];
            fl::unpack(&packed, w, &mut out).unwrap();
            assert_eq!(out, values, "{ctx}");
            let reference = T::random(&mut rng, T::BITS);
            let mut for_out = vec![T::ZERO; 1024];
            fl::for_unpack(&packed, reference, w, &mut for_out).unwrap();
            for i in 0..1024 {
                assert_eq!(
                    fl::select::<T>(&packed[..len], w, i),
                    Ok(out[i]),
                    "{ctx} {i}"
                );
                assert_eq!(
                    fl::for_select(&packed[..len], reference, w, i),
                    Ok(for_out[i]),
                    "for {ctx} {i}"
                );
            }
            // Packed bytes as differences: any pattern is a delta block.
            let bases: Vec<T> = (0..T::LANES)
                .map(|_| T::random(&mut rng, T::BITS))
                .collect();
            let (mut lanes, mut natural) = (vec![T::ZERO; 1024], vec![T::ZERO; 1024]);
            fl::delta_unpack(&packed, &bases, w, &mut lanes).unwrap();
            fl::untranspose(&lanes, &mut natural).unwrap();
            for (i, &v) in natural.iter().enumerate() {
                assert_eq!(
                    fl::delta_select(&packed[..len], &bases, w, i),
                    Ok(v),
                    "delta {ctx} {i}"
                );
            }
        }
        // A sorted block packed as its stream does: its own values back.
        let mut acc = T::random(&mut rng, T::BITS.min(8));
        let mut sorted = Vec::with_capacity(1024);
        for _ in 0..1024 {
            sorted.push(acc);
            let gap = T::random(&mut rng, width.min(T::BITS.saturating_sub(11)));
            acc = acc | gap; // non-decreasing, never wraps
        }
        let mut transposed = vec![T::ZERO; 1024];
        fl::transpose(&sorted, &mut transposed).unwrap();
        let bases: Vec<T> = (0..T::LANES).map(|_| sorted[0]).collect();
        let dw = fl::delta_width(&transposed, &bases).unwrap();
        let mut packed = vec![0u8; fl::packed_len(dw)];
        fl::delta_pack(&transposed, &bases, dw, &mut packed).unwrap();
        for (i, &v) in sorted.iter().enumerate() {
            assert_eq!(
                fl::delta_select(&packed, &bases, dw, i),
                Ok(v),
                "sorted {name} width {width} {i}"
            );
        }
    }
}

#[test]
fn select_agrees_with_unpack_u8() {
    select_every_index::<u8>(81);
}

#[test]
fn select_agrees_with_unpack_u16() {
    select_every_index::<u16>(161);
}

#[test]
fn select_agrees_with_unpack_u32() {
    select_every_index::<u32>(321);
}

#[test]
fn select_agrees_with_unpack_u64() {
    select_every_index::<u64>(641);
}

/// Impossible widths, indices past the block, short input and a wrong
/// number of bases are errors, never a panic or a read past the slice.
fn select_errors_of<T: Word + Bytes>() {
    let bits = T::BITS as u8;
    let packed = vec![0xffu8; fl::packed_len(bits)];
    let bases = vec![T::ZERO; T::LANES];
    for w in [bits + 1, 65, u8::MAX] {
        let bad = Err(Error::InvalidArgument {
            what: "bit width (at most the bits of the type)",
            value: usize::from(w),
        });
        assert_eq!(fl::select::<T>(&packed, w, 0), bad, "{bits} {w}");
        assert_eq!(fl::for_select(&packed, T::ZERO, w, 0), bad);
        assert_eq!(fl::delta_select(&packed, &bases, w, 0), bad);
    }
    for w in [1, bits / 2, bits] {
        let len = fl::packed_len(w);
        assert_eq!(
            fl::select::<T>(&packed, w, 1024),
            Err(Error::OutOfRange {
                index: 1024,
                len: 1024
            })
        );
        assert!(matches!(
            fl::delta_select(&packed, &bases, w, usize::MAX),
            Err(Error::OutOfRange { .. })
        ));
        for cut in [0, 1, len - 1] {
            let short = Err(Error::Truncated {
                offset: cut,
                needed: len - cut,
                unit: vecpress::Unit::Bytes,
            });
            assert_eq!(
                fl::select::<T>(&packed[..cut], w, 1023),
                short,
                "{bits} {w}"
            );
            assert_eq!(fl::for_select(&packed[..cut], T::ONES, w, 0), short);
            assert_eq!(fl::delta_select(&packed[..cut], &bases, w, 5), short);
        }
        assert!(matches!(
            fl::delta_select(&packed, &bases[1..], w, 0),
            Err(Error::InvalidArgument { .. })
        ));
    }
    // Width 0 needs no bytes.
    assert_eq!(fl::select::<T>(&[], 0, 1023), Ok(T::ZERO));
    assert_eq!(fl::for_select(&[], T::ONES, 0, 3), Ok(T::ONES));
}

#[test]
fn select_errors() {
    select_errors_of::<u8>();
    select_errors_of::<u16>();
    select_errors_of::<u32>();
    select_errors_of::<u64>();
}

/// The model of search: the first index whose value is at least `key`.
fn lower_bound(values: &[u32], key: u32) -> Option<(usize, u32)> {
    values
        .iter()
        .position(|&v| v >= key)
        .map(|i| (i, values[i]))
}

/// A sorted list of `n` values from `start` whose gaps take `gap_bits`.
fn sorted_list(rng: &mut Rng, n: usize, start: u32, gap_bits: usize) -> Vec<u32> {
    let mut acc = start;
    (0..n)
        .map(|_| {
            acc += u32::random(rng, gap_bits);
            acc
        })
        .collect()
}

#[test]
fn search_delta_finds_the_lower_bound_of_sorted_streams() {
    let mut rng = Rng::new(77);
    for n in [0, 1, 31, 1023, 1024, 1025, 2048 + 17, 3 * 1024, 5000] {
        for (gap_bits, start, prev) in [
            (0, 7, 3),
            (1, 0, 0),
            (4, 1000, 1000),
            (12, 1 << 20, 5),
            (18, 0, 0),
            (3, u32::MAX - 30_000, u32::MAX - 40_000),
        ] {
            let docs = sorted_list(&mut rng, n, start, gap_bits);
            let bytes = fl::encode_delta_to_vec(&docs, prev);
            assert_eq!(fl::decode_delta_to_vec(&bytes, n, prev).as_ref(), Ok(&docs));
            let first = docs.first().copied().unwrap_or(0);
            let last = docs.last().copied().unwrap_or(0);
            let mut keys = vec![
                0,
                1,
                first.saturating_sub(1),
                first,
                last,
                last.saturating_add(1),
                u32::MAX,
            ];
            // Values at and around block and run boundaries, and others.
            for i in [0, 30, 31, 32, 991, 992, 1022, 1023, 1024, 1025, 2047, 2048] {
                if let Some(&d) = docs.get(i) {
                    keys.extend([d.wrapping_sub(1), d, d.saturating_add(1)]);
                }
            }
            keys.extend(docs.iter().step_by(97).flat_map(|&d| [d, d + 1]));
            keys.extend((0..20).map(|_| first + rng.below(u64::from(last - first) + 2) as u32));
            for key in keys {
                assert_eq!(
                    fl::search_delta(&bytes, n, key, prev),
                    Ok(lower_bound(&docs, key)),
                    "n {n} gap bits {gap_bits} key {key}"
                );
            }
        }
    }
}

#[test]
fn search_delta_on_bad_input_is_an_error_or_an_index_never_a_panic() {
    let mut rng = Rng::new(78);
    let n = 2 * 1024 + 50;
    let docs = sorted_list(&mut rng, n, 0, 8);
    let bytes = fl::encode_delta_to_vec(&docs, 0);
    let last = docs[n - 1];
    // Cut anywhere, a search that has to read everything fails.
    for cut in 0..bytes.len() {
        assert!(
            fl::search_delta(&bytes[..cut], n, last, 0).is_err(),
            "cut {cut}"
        );
        let _ = fl::search_delta(&bytes[..cut], n, docs[1500], 0);
    }
    // A search past every value reads the whole stream, so it fails as
    // decoding does, to the offset and the count of missing values: a
    // short list (all tail, read a piece at a time) and the long one.
    let short = sorted_list(&mut rng, 700, 0, 20);
    let short_bytes = fl::encode_delta_to_vec(&short, 0);
    for (values, bytes) in [(&short, &short_bytes), (&docs, &bytes)] {
        let n = values.len();
        let mut out = vec![0u32; n];
        for cut in 0..bytes.len() {
            let want = fl::decode_delta(&bytes[..cut], &mut out, 0);
            assert!(want.is_err(), "cut {cut} of {n}");
            let got = fl::search_delta(&bytes[..cut], n, u32::MAX, 0);
            assert_eq!(got.map(|_| 0), want, "cut {cut} of {n}");
        }
        assert_eq!(fl::search_delta(bytes, n, u32::MAX, 0), Ok(None));
    }
    // A count past the stream's end is an error too.
    assert!(fl::search_delta(&bytes, n + 1, u32::MAX, 0).is_err());
    assert!(fl::search_delta(&bytes, usize::MAX, u32::MAX, 0).is_err());
    // A width above 32 is corrupt at its offset, in the second block too.
    let mut bad = bytes.clone();
    bad[0] = 33;
    assert_eq!(
        fl::search_delta(&bad, n, 5, 0),
        Err(Error::Corrupt {
            offset: 0,
            what: "bit width above 32"
        })
    );
    // The second block: past the first's width byte, 32 VByte bases and
    // packed bytes.
    let mut second = 1;
    for _ in 0..32 {
        while bytes[second] & 0x80 != 0 {
            second += 1;
        }
        second += 1;
    }
    second += fl::packed_len(bytes[0]);
    let mut bad = bytes.clone();
    bad[second] = 40;
    assert_eq!(
        fl::search_delta(&bad, n, last, 0),
        Err(Error::Corrupt {
            offset: second,
            what: "bit width above 32"
        })
    );
    // Flipped bytes (an unsorted stream, or a broken one): an error, or an
    // index whose value is the one decoding gives there (decoding up to
    // its block: a later block may be broken).
    for at in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[at] ^= 0xa5;
        let decoded = fl::decode_delta_to_vec(&bad, n, 0);
        for key in [0, docs[700], docs[2047], last, u32::MAX] {
            match fl::search_delta(&bad, n, key, 0) {
                Ok(Some((j, v))) => {
                    let upto = n.min((j / 1024 + 1) * 1024);
                    let decoded = fl::decode_delta_to_vec(&bad, upto, 0);
                    let decoded = decoded.expect("search read what decodes");
                    assert_eq!(decoded[j], v, "flip {at} key {key}");
                }
                Ok(None) => assert!(decoded.is_ok(), "flip {at} key {key}"),
                Err(_) => {}
            }
        }
    }
    // Unsorted values coded as wrapping gaps: some index, its value.
    let random: Vec<u32> = (0..n).map(|_| rng.next_u64() as u32).collect();
    let bytes = fl::encode_delta_to_vec(&random, 0);
    for _ in 0..200 {
        let key = rng.next_u64() as u32;
        if let Some((j, v)) = fl::search_delta(&bytes, n, key, 0).unwrap() {
            assert_eq!(random[j], v, "key {key}");
        }
    }
}
