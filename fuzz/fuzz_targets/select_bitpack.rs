//! Arbitrary bytes, widths, indices and keys through the bit-packing entries
//! that read in place or search, and the block decoders of every FastLanes
//! type: none may panic or read out of bounds, every available level must
//! return what the scalar level returns, and each must agree with decoding
//! where decoding succeeds.
//!
//! - bp128 blocks (4 and 8 lanes): `select` is value `i` of `unpack` and
//!   fails exactly when it does (`i` in the block); `select_sorted` and
//!   `unpack_sorted` are the running sum of `unpack` from `initial`.
//! - PFOR blocks: where `decode_block` succeeds, `select_block` is its
//!   value `i` and `select_block_delta` the running sum, as
//!   `decode_block_delta` gives; where it fails, both give its error.
//! - bp128, PFOR and FastLanes delta streams: `search_delta` succeeds where the stream
//!   decodes, names a value the decoder gives at the index it names, and is
//!   the linear lower bound of `key` when the values are sorted; it finds
//!   nothing only after reading the whole stream, so then the stream decodes.
//! - FastLanes blocks of u8, u16, u32 and u64: `unpack`, `for_unpack` and
//!   `delta_unpack` fail alike; packing what they give at the same width
//!   gives back the input's bytes (every bit pattern is a block); FoR is
//!   `unpack` plus the reference; for u32 `delta_unpack_natural` is
//!   `delta_unpack` untransposed. `select`, `for_select` and `delta_select`
//!   give value `i` of those (in natural order for delta) and fail where
//!   they fail.
//!
//! Input: a width byte (below 0xf0 it is taken modulo two more than the
//! type's bits, so most widths are valid; from 0xf0 as it is), a flags byte
//! (bit 0: the key as it is rather than `initial` plus its top 20 bits;
//! bit 1: one FastLanes delta base too few), two bytes for the index
//! (little endian, modulo two more than the block's values), four for
//! `initial` (the delta forms' previous value, FoR's reference, the seed of
//! the FastLanes bases), four for the key, two for the count of the
//! streams (as the other targets take it, modulo 128 times the stream
//! length plus one unless the top bit is set), then the bytes.
#![no_main]

mod common;

use common::agree;
use libfuzzer_sys::fuzz_target;
use vecpress::bitpack::bp128::{self, Lanes};
use vecpress::bitpack::fastlanes::{self as fl, Word};
use vecpress::bitpack::pfor;
use vecpress::{Error, Isa};

struct Case<'a> {
    width: u8,
    flags: u8,
    index: u16,
    initial: u32,
    key: u32,
    n: usize,
    bytes: &'a [u8],
}

impl<'a> Case<'a> {
    fn parse(data: &'a [u8]) -> Option<Self> {
        let (head, bytes) = data.split_first_chunk::<14>()?;
        let le32 =
            |at: usize| u32::from_le_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
        let c = u16::from_le_bytes([head[12], head[13]]);
        let n = if c & 0x8000 != 0 {
            usize::from(c & 0x7fff)
        } else {
            usize::from(c) % (128 * bytes.len() + 1)
        };
        let initial = le32(4);
        let key = match head[1] & 1 {
            0 => initial.wrapping_add(le32(8) >> 12),
            _ => le32(8),
        };
        Some(Case {
            width: head[0],
            flags: head[1],
            index: u16::from_le_bytes([head[2], head[3]]),
            initial,
            key,
            n,
            bytes,
        })
    }

    /// The width for a type of `bits` bits.
    fn width(&self, bits: usize) -> u8 {
        if self.width >= 0xf0 {
            self.width
        } else {
            self.width % (bits as u8 + 2)
        }
    }

    /// An index into a block of `len` values, sometimes just past it.
    fn index(&self, len: usize) -> usize {
        usize::from(self.index) % (len + 2)
    }
}

/// The running sum of `gaps` from `initial`, wrapping.
fn running_sum(gaps: &[u32], initial: u32) -> Vec<u32> {
    gaps.iter()
        .scan(initial, |acc, &g| {
            *acc = acc.wrapping_add(g);
            Some(*acc)
        })
        .collect()
}

fn bp128_blocks(c: &Case) {
    let width = c.width(32);
    for lanes in [Lanes::X4, Lanes::X8] {
        let len = lanes.block_len();
        let i = c.index(len);
        let what = format!("{lanes:?} width {width}");
        let (plain, res) = agree(len, &what, |isa, out| {
            bp128::unpack_with(isa, lanes, c.bytes, width, out)
        });
        let (sorted, sorted_res) = agree(len, &format!("{what} sorted"), |isa, out| {
            bp128::unpack_sorted_with(isa, lanes, c.initial, c.bytes, width, out)
        });
        assert_eq!(res, sorted_res, "{what}: plain and sorted read alike");
        let mut auto = vec![0u32; len];
        assert_eq!(
            bp128::unpack(lanes, c.bytes, width, &mut auto),
            res,
            "{what} auto"
        );
        let got = bp128::select(lanes, c.bytes, width, i);
        let got_sorted = bp128::select_sorted(lanes, c.initial, c.bytes, width, i);
        if i >= len {
            assert!(got.is_err(), "{what}: select {i}: {got:?}");
            assert!(
                got_sorted.is_err(),
                "{what}: select_sorted {i}: {got_sorted:?}"
            );
            continue;
        }
        if res.is_err() {
            assert!(
                got.is_err(),
                "{what}: select {i} where unpack fails: {got:?}"
            );
            assert!(
                got_sorted.is_err(),
                "{what}: select_sorted {i} where unpack fails: {got_sorted:?}"
            );
            continue;
        }
        assert_eq!(auto, plain, "{what} auto");
        for (k, &v) in plain.iter().enumerate() {
            assert_eq!(
                bp128::select(lanes, c.bytes, width, k),
                Ok(v),
                "{what}: select {k}"
            );
        }
        assert_eq!(sorted, running_sum(&plain, c.initial), "{what}: sorted");
        assert_eq!(got_sorted, Ok(sorted[i]), "{what}: select_sorted {i}");
        let last = bp128::select_sorted(lanes, c.initial, c.bytes, width, len - 1);
        assert_eq!(last, Ok(sorted[len - 1]), "{what}: select_sorted last");
    }
}

fn pfor_block(c: &Case) {
    let i = c.index(pfor::BLOCK_LEN);
    let (block, res) = agree(pfor::BLOCK_LEN, "block", |isa, out| {
        pfor::decode_block_with(isa, c.bytes, out)
    });
    let (sums, sums_res) = agree(pfor::BLOCK_LEN, "block delta", |isa, out| {
        pfor::decode_block_delta_with(isa, c.initial, c.bytes, out)
    });
    assert_eq!(res, sums_res, "plain and delta blocks read alike");
    let got = pfor::select_block(c.bytes, i);
    let got_delta = pfor::select_block_delta(c.initial, c.bytes, i);
    if i >= pfor::BLOCK_LEN {
        assert!(
            matches!(got, Err(Error::OutOfRange { .. })),
            "select {i}: {got:?}"
        );
        assert!(
            matches!(got_delta, Err(Error::OutOfRange { .. })),
            "select delta {i}: {got_delta:?}"
        );
        return;
    }
    if let Err(e) = res {
        assert_eq!(got, Err(e.clone()), "select {i} of a block that fails");
        assert_eq!(got_delta, Err(e), "select delta {i} of a block that fails");
        return;
    }
    for (k, &v) in block.iter().enumerate() {
        assert_eq!(pfor::select_block(c.bytes, k), Ok(v), "select {k}");
    }
    assert_eq!(sums, running_sum(&block, c.initial), "delta block");
    assert_eq!(got_delta, Ok(sums[i]), "select delta {i}");
    let last = pfor::select_block_delta(c.initial, c.bytes, pfor::BLOCK_LEN - 1);
    assert_eq!(last, Ok(sums[pfor::BLOCK_LEN - 1]), "select delta last");
}

type Decode = fn(Isa, &[u8], &mut [u32], u32) -> Result<usize, Error>;
type Search = fn(&[u8], usize, u32, u32) -> Result<Option<(usize, u32)>, Error>;

fn search(c: &Case, name: &str, decode: Decode, search: Search) {
    let (values, res) = agree(c.n, name, |isa, out| decode(isa, c.bytes, out, c.initial));
    let found = search(c.bytes, c.n, c.key, c.initial);
    let what = format!(
        "{name}: n {}, key {}, found {found:?}, decode {res:?}",
        c.n, c.key
    );
    if found == Ok(None) {
        assert!(res.is_ok(), "{what}: nothing found in a stream that fails");
    }
    if res.is_err() {
        return;
    }
    match found {
        Ok(Some((j, v))) => assert_eq!(values.get(j), Some(&v), "{what}"),
        Ok(None) => {}
        Err(_) => panic!("{what}: search fails on a stream that decodes"),
    }
    if values.windows(2).all(|w| w[0] <= w[1]) {
        let want = values
            .iter()
            .position(|&v| v >= c.key)
            .map(|j| (j, values[j]));
        assert_eq!(found, Ok(want), "{what}: sorted");
    }
}

/// The operations the FastLanes checks need of each type.
trait Lane: Word {
    fn from_u64(v: u64) -> Self;
    fn wrapping_add(self, other: Self) -> Self;
}

macro_rules! lane {
    ($($t:ty)*) => {$(
        impl Lane for $t {
            fn from_u64(v: u64) -> Self {
                v as $t
            }
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
        }
    )*};
}
lane!(u8 u16 u32 u64);

/// The lanes' bases of a FastLanes delta block, drawn from `initial`: one
/// for each lane, or one too few when the flags say so.
fn bases<T: Lane>(c: &Case) -> Vec<T> {
    let lanes = T::LANES - usize::from((c.flags >> 1) & 1);
    (0..lanes as u64)
        .map(|l| {
            let x = (u64::from(c.initial) ^ l).wrapping_mul(0xff51_afd7_ed55_8ccd);
            T::from_u64(x >> (l % 64))
        })
        .collect()
}

/// One FastLanes block of `T`: the three decoders at every level, then
/// packed back.
fn fastlanes_block<T: Lane>(c: &Case) -> Option<Vec<T>> {
    let width = c.width(T::BITS);
    let bytes = c.bytes;
    let reference = T::from_u64(u64::from(c.initial).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let bases = bases::<T>(c);
    let lanes = bases.len();
    let what = format!("{} bits, width {width}", T::BITS);
    let (plain, res) = agree(fl::BLOCK, &what, |isa, out| {
        fl::unpack_with(isa, bytes, width, out)
    });
    let (ofr, for_res) = agree(fl::BLOCK, &format!("{what} FoR"), |isa, out| {
        fl::for_unpack_with(isa, bytes, reference, width, out)
    });
    let (delta, delta_res) = agree(fl::BLOCK, &format!("{what} delta"), |isa, out| {
        fl::delta_unpack_with(isa, bytes, &bases, width, out)
    });
    let mut auto = vec![T::ZERO; fl::BLOCK];
    assert_eq!(fl::unpack(bytes, width, &mut auto), res, "{what} auto");
    assert_eq!(res, for_res, "{what}: plain and FoR read alike");
    if lanes != T::LANES {
        assert!(delta_res.is_err(), "{what}: {lanes} bases");
        return None;
    }
    assert_eq!(res, delta_res, "{what}: plain and delta read alike");
    let i = c.index(fl::BLOCK);
    let picked = (
        fl::select::<T>(bytes, width, i),
        fl::for_select(bytes, reference, width, i),
        fl::delta_select(bytes, &bases, width, i),
    );
    if i >= fl::BLOCK || res.is_err() {
        assert!(
            picked.0.is_err() && picked.1.is_err() && picked.2.is_err(),
            "{what}: select at {i} of a block that does not unpack: {picked:?}"
        );
    }
    let len = res.ok()?;
    if i < fl::BLOCK {
        let mut natural = vec![T::ZERO; fl::BLOCK];
        fl::untranspose(&delta, &mut natural).unwrap();
        assert_eq!(
            picked,
            (Ok(plain[i]), Ok(ofr[i]), Ok(natural[i])),
            "{what}: select at {i}"
        );
    }
    assert_eq!(auto, plain, "{what} auto");
    let sum: Vec<T> = plain.iter().map(|&v| v.wrapping_add(reference)).collect();
    assert_eq!(ofr, sum, "{what}: FoR is plain plus the reference");
    for &isa in Isa::available() {
        let mut packed = vec![0u8; len];
        assert_eq!(
            fl::pack_with(isa, &plain, width, &mut packed),
            Ok(len),
            "{what} {isa}"
        );
        assert_eq!(packed, bytes[..len], "{what} {isa}: plain packed back");
        assert_eq!(
            fl::for_pack_with(isa, &ofr, reference, width, &mut packed),
            Ok(len),
            "{what} {isa}: FoR"
        );
        assert_eq!(packed, bytes[..len], "{what} {isa}: FoR packed back");
        assert_eq!(
            fl::delta_pack_with(isa, &delta, &bases, width, &mut packed),
            Ok(len),
            "{what} {isa}: delta"
        );
        assert_eq!(packed, bytes[..len], "{what} {isa}: delta packed back");
    }
    Some(delta)
}

/// `delta_unpack_natural` against `delta_unpack` (whose scalar output is
/// `delta` where it succeeded) and `untranspose`.
fn fastlanes_natural(c: &Case, delta: Option<Vec<u32>>) {
    let width = c.width(32);
    let bases = bases::<u32>(c);
    let (natural, res) = agree(fl::BLOCK, "natural", |isa, out| {
        fl::delta_unpack_natural_with(isa, c.bytes, &bases, width, out)
    });
    let mut auto = vec![0u32; fl::BLOCK];
    assert_eq!(
        fl::delta_unpack_natural(c.bytes, &bases, width, &mut auto),
        res,
        "natural auto"
    );
    let mut transposed = vec![0u32; fl::BLOCK];
    let delta_res = fl::delta_unpack(c.bytes, &bases, width, &mut transposed);
    assert_eq!(res, delta_res, "natural and transposed delta read alike");
    if res.is_err() {
        return;
    }
    assert_eq!(auto, natural, "natural auto");
    let mut want = vec![0u32; fl::BLOCK];
    fl::untranspose(&transposed, &mut want).unwrap();
    assert_eq!(natural, want, "natural is delta_unpack untransposed");
    if let Some(delta) = delta {
        assert_eq!(delta, transposed, "delta_unpack at the auto level");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(c) = Case::parse(data) else {
        return;
    };
    bp128_blocks(&c);
    pfor_block(&c);
    search(&c, "bp128", bp128::decode_delta_with, bp128::search_delta);
    search(&c, "pfor", pfor::decode_delta_with, pfor::search_delta);
    search(&c, "fastlanes", fl::decode_delta_with, fl::search_delta);
    fastlanes_block::<u8>(&c);
    fastlanes_block::<u16>(&c);
    fastlanes_block::<u64>(&c);
    let block = fastlanes_block::<u32>(&c);
    fastlanes_natural(&c, block);
});
