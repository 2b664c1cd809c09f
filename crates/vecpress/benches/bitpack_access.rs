//! Interleaved timing of the bit packers' random access against decoding:
//! `select_sorted` on one 4-lane bp128 block of sorted values (gaps of 4,
//! 12 and 20 bits, 1000 random indexes) against the gaps summed in place a
//! step of every lane at a time, the form it replaced; and each delta
//! stream's `search_delta` (bp128, PFOR, FastLanes) against decoding the
//! whole list and a binary search, for 1000 keys drawn from the longest
//! list of each ds2i `.docs` file. Each round runs every contender once,
//! so that a slow spell of a shared machine falls on all of them alike;
//! the median of the rounds' ratios is reported (above 1: the first
//! contender is faster).
//!
//! `cargo bench -p vecpress --bench bitpack_access -- [FILE.docs...]`
//! (default: the posting lists of the data folder, `$VECPRESS_DATA` or
//! `shared/data` beside the repository; without it, a generated list).

#[path = "../tests/common/data.rs"]
mod data;

#[path = "common/args.rs"]
mod args;

#[path = "common/files.rs"]
mod files;

use std::hint::black_box;
use std::time::Instant;

use vecpress::Error;
use vecpress::bitpack::bp128::{self, Lanes};
use vecpress::bitpack::{fastlanes, pfor};

const ROUNDS: usize = 15;
const QUERIES: usize = 1000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Seconds `f` takes.
fn seconds(f: &mut dyn FnMut() -> u64) -> f64 {
    let start = Instant::now();
    black_box(f());
    start.elapsed().as_secs_f64()
}

/// The median over [`ROUNDS`] rounds of `a`'s time over `b`'s, and their
/// median times.
fn race(a: &mut dyn FnMut() -> u64, b: &mut dyn FnMut() -> u64) -> (f64, f64, f64) {
    let (mut ratios, mut ta, mut tb) = (vec![], vec![], vec![]);
    for _ in 0..ROUNDS {
        let (x, y) = (seconds(a), seconds(b));
        ratios.push(x / y);
        ta.push(x);
        tb.push(y);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(ratios), median(ta), median(tb))
}

/// Gaps `0..=i` of a 4-lane block of `w`-bit gaps summed in place, a step
/// of the four lanes at a time in an array of four sums: the form
/// `select_sorted` replaced.
fn gaps_in_place(block: &[u8], w: usize, i: usize) -> u32 {
    const L: usize = 4;
    let (k, j) = (i / L, i % L);
    let mask = u64::MAX >> (64 - w);
    let words = |q: usize| -> [u64; L] {
        let row = &block[4 * L * q..4 * L * (q + 1)];
        core::array::from_fn(|lane| {
            u64::from(u32::from_le_bytes([
                row[4 * lane],
                row[4 * lane + 1],
                row[4 * lane + 2],
                row[4 * lane + 3],
            ]))
        })
    };
    let step = |step: usize| -> [u32; L] {
        let (q, s) = (step * w / 32, step * w % 32);
        let mut v = words(q);
        if s + w > 32 {
            let next = words(q + 1);
            for (v, next) in v.iter_mut().zip(next) {
                *v |= next << 32;
            }
        }
        v.map(|v| ((v >> s) & mask) as u32)
    };
    let mut acc = [0u32; L];
    for s in 0..k {
        for (a, g) in acc.iter_mut().zip(step(s)) {
            *a = a.wrapping_add(g);
        }
    }
    for (lane, (a, g)) in acc.iter_mut().zip(step(k)).enumerate() {
        if lane <= j {
            *a = a.wrapping_add(g);
        }
    }
    acc.iter().fold(0, |sum, &a| sum.wrapping_add(a))
}

fn select(rng: &mut Rng) {
    let indexes: Vec<usize> = (0..QUERIES).map(|_| (rng.next() % 128) as usize).collect();
    for width in [4u8, 12, 20] {
        let mut sum = 0u32;
        let sorted: Vec<u32> = (0..128)
            .map(|_| {
                sum = sum.wrapping_add((rng.next() & ((1 << width) - 1)) as u32);
                sum
            })
            .collect();
        let mut packed = vec![0u8; Lanes::X4.packed_len(width)];
        bp128::pack_sorted(Lanes::X4, 0, &sorted, width, &mut packed).expect("a block");
        for &i in &indexes[..16] {
            assert_eq!(gaps_in_place(&packed, width.into(), i), sorted[i]);
        }
        let (ratio, ours, theirs) = race(
            &mut || {
                let pick = |&i| bp128::select_sorted(Lanes::X4, 0, &packed, width, i);
                indexes.iter().map(|i| u64::from(pick(i).unwrap())).sum()
            },
            &mut || {
                let pick = |&i| gaps_in_place(black_box(&packed), width.into(), i);
                indexes.iter().map(|i| u64::from(pick(i))).sum()
            },
        );
        println!(
            "bp128 select_sorted, gaps of {width:2} bits: {:5.1} ns a call, in place {:5.1} ns: {:.2}x as fast",
            ours * 1e9 / QUERIES as f64,
            theirs * 1e9 / QUERIES as f64,
            1.0 / ratio
        );
    }
}

type Encode = fn(&[u32], u32) -> Vec<u8>;
type Decode = fn(&[u8], &mut [u32], u32) -> Result<usize, Error>;
type Search = fn(&[u8], usize, u32, u32) -> Result<Option<(usize, u32)>, Error>;

fn search(name: &str, list: &[u32], rng: &mut Rng) {
    let keys: Vec<u32> = (0..QUERIES)
        .map(|_| list[(rng.next() % list.len() as u64) as usize])
        .collect();
    let codecs: [(&str, Encode, Decode, Search); 3] = [
        (
            "bp128-delta",
            bp128::encode_delta_to_vec,
            bp128::decode_delta,
            bp128::search_delta,
        ),
        (
            "pfor-delta",
            pfor::encode_delta_to_vec,
            pfor::decode_delta,
            pfor::search_delta,
        ),
        (
            "fastlanes-delta",
            fastlanes::encode_delta_to_vec,
            fastlanes::decode_delta,
            fastlanes::search_delta,
        ),
    ];
    let n = list.len();
    let mut out = vec![0u32; n];
    for (codec, encode, decode, search) in codecs {
        let stream = encode(list, 0);
        for &key in &keys[..16] {
            let want = list.partition_point(|&v| v < key);
            assert_eq!(search(&stream, n, key, 0).unwrap().map(|f| f.0), Some(want));
        }
        let (ratio, ours, _) = race(
            &mut || {
                let find = |&key| search(&stream, n, key, 0).unwrap().map_or(0, |f| f.0);
                keys.iter().map(|k| find(k) as u64).sum()
            },
            &mut || {
                let mut find = |&key| {
                    decode(&stream, &mut out, 0).unwrap();
                    out.partition_point(|&v| v < key)
                };
                keys.iter().map(|k| find(k) as u64).sum()
            },
        );
        println!(
            "{name} ({n} values) {codec:15} search_delta {:7.2} us a key, {:.2}x as fast as decoding and a binary search",
            ours * 1e6 / QUERIES as f64,
            1.0 / ratio
        );
    }
}

fn main() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    select(&mut rng);
    let paths = args::paths(|| {
        let dir = data::optional("postings").unwrap_or_default();
        files::sorted(&dir, Some("docs"))
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect()
    });
    if paths.is_empty() {
        println!("no posting lists found (VECPRESS_DATA): a generated list of 100000 values");
        let mut sum = 0u32;
        let list: Vec<u32> = (0..100_000)
            .map(|_| {
                sum += (rng.next() % 200) as u32;
                sum
            })
            .collect();
        search("generated", &list, &mut rng);
    }
    for path in paths {
        let raw = std::fs::read(&path).expect("readable file");
        let list = files::ds2i_lists(&raw)
            .max_by_key(|l| l.len())
            .unwrap_or_default();
        if list.is_empty() {
            continue;
        }
        let name = std::path::Path::new(&path).file_stem().unwrap_or_default();
        search(&name.to_string_lossy(), &list, &mut rng);
    }
}
