//! FastLanes: every kernel at every level against a bit-by-bit reference of
//! the layout, byte compatibility with the `fastlanes` crate both ways
//! (plain, FoR, Delta, at every width of every type), streams and errors.

mod common;

use common::Rng;
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
