//! Interleaved timing of LZ4 block decompression: each round takes the 64
//! KiB blocks of a file in groups of [`GROUP`] (1 MiB) and runs every
//! decoder over a group before the next. A group takes each decoder about
//! a millisecond, so a slow spell of the machine (on a shared host these
//! last from tens of milliseconds to seconds, and slow some code more than
//! other) falls on all of them alike, where one decoder's pass over the
//! whole file could fall inside it and the next one's outside. A group
//! also holds thousands of sequences, far more than a branch predictor
//! keeps, so one decoder's pass over a block does not train the branches
//! of the next decoder of the same code on it, as taking turns block by
//! block could. Each block's best time of all rounds counts, and their sum
//! is reported, with its ratio to liblz4's `LZ4_decompress_safe` and to
//! lz4_flex. Rows `pairs:LOOP` and `pairs` (the adaptive decompressor)
//! decode the blocks two at a time (`block::decompress_pair`), each pair's
//! best time counting. Then the same for compression against
//! `LZ4_compress_default`, with both sizes.
//!
//! `cargo bench -p vecpress --bench lz4_timing -- [FILE...]`
//! (default: the Silesia files of the data folder, `$VECPRESS_DATA` or
//! `shared/data` beside the repository).

#[path = "../tests/common/data.rs"]
mod data;

#[path = "common/args.rs"]
mod args;

#[path = "common/files.rs"]
mod files;

use std::time::{Duration, Instant};

use std::cell::RefCell;

use vecpress::lz4::{adaptive::AdaptiveDecompressor, block};

#[path = "common/liblz4.rs"]
mod liblz4;

const BLOCK: usize = 64 * 1024;
/// Blocks a decoder runs over before the next decoder takes them.
const GROUP: usize = 16;
/// Rounds per file (`LZ4_TIMING_ROUNDS` overrides).
fn rounds() -> usize {
    std::env::var("LZ4_TIMING_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30)
}

type Decoder<'a> = (String, Box<dyn Fn(&[u8], &mut [u8]) -> usize + 'a>);

/// Decodes two blocks at once; returns the bytes of both.
type PairDecoder<'a> = (
    String,
    Box<dyn Fn((&[u8], &mut [u8]), (&[u8], &mut [u8])) -> usize + 'a>,
);

fn pair_decoders<'a>() -> Vec<PairDecoder<'a>> {
    let mut v: Vec<PairDecoder<'a>> = Vec::new();
    for variant in block::variants() {
        if variant == block::Variant::Checked {
            continue;
        }
        v.push((
            format!("pairs:{}", variant.name()),
            Box::new(move |a, b| {
                let (x, y) = block::decompress_pair_variant(variant, a, b);
                x.unwrap() + y.unwrap()
            }),
        ));
    }
    let adaptive = RefCell::new(AdaptiveDecompressor::new());
    v.push((
        "pairs".into(),
        Box::new(move |a, b| {
            let (x, y) = adaptive.borrow_mut().decompress_pair(a, b);
            x.unwrap() + y.unwrap()
        }),
    ));
    v
}

fn decoders<'a>() -> Vec<Decoder<'a>> {
    let mut v: Vec<Decoder<'a>> = Vec::new();
    for variant in block::variants() {
        v.push((
            variant.name().to_string(),
            Box::new(move |src, dst| block::decompress_into_variant(variant, src, dst).unwrap()),
        ));
    }
    let adaptive = RefCell::new(AdaptiveDecompressor::new());
    v.push((
        "adaptive".into(),
        Box::new(move |src: &[u8], dst: &mut [u8]| {
            adaptive.borrow_mut().decompress_into(src, dst).unwrap()
        }),
    ));
    #[cfg(target_arch = "x86_64")]
    v.push(("liblz4".into(), Box::new(liblz4::decompress)));
    v.push((
        "lz4_flex".into(),
        Box::new(|src: &[u8], dst: &mut [u8]| lz4_flex::block::decompress_into(src, dst).unwrap()),
    ));
    v
}

fn main() {
    let paths = args::paths(|| {
        let dir = data::optional("silesia").unwrap_or_default();
        files::sorted(&dir, None)
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect()
    });
    let decoders = decoders();
    let pair_decoders = pair_decoders();
    let mut out = vec![0u8; 2 * BLOCK];
    for path in paths {
        let data = std::fs::read(&path).expect("readable file");
        let blocks: Vec<(Vec<u8>, usize)> = data
            .chunks(BLOCK)
            .map(|c| (block::compress(c), c.len()))
            .collect();
        let packed: usize = blocks.iter().map(|b| b.0.len()).sum();
        let mut best = vec![vec![Duration::MAX; blocks.len()]; decoders.len()];
        let pairs: Vec<&[(Vec<u8>, usize)]> = blocks.chunks(2).collect();
        let mut best_pairs = vec![vec![Duration::MAX; pairs.len()]; pair_decoders.len()];
        let adaptive = decoders
            .iter()
            .position(|d| d.0 == "adaptive")
            .expect("a row");
        for _ in 0..rounds() {
            for group in 0..pairs.len().div_ceil(GROUP / 2) {
                let group_pairs = group * GROUP / 2..pairs.len().min((group + 1) * GROUP / 2);
                let group_blocks = 2 * group_pairs.start..blocks.len().min(2 * group_pairs.end);
                for (i, (_, decode)) in decoders.iter().enumerate() {
                    for j in group_blocks.clone() {
                        let (src, n) = &blocks[j];
                        let t = Instant::now();
                        let got = decode(src, &mut out[..*n]);
                        best[i][j] = best[i][j].min(t.elapsed());
                        assert_eq!(got, *n);
                    }
                }
                for (i, (_, decode)) in pair_decoders.iter().enumerate() {
                    for j in group_pairs.clone() {
                        let pair = pairs[j];
                        let t = Instant::now();
                        let got = match pair {
                            [(a, m), (b, n)] => {
                                let (x, y) = out.split_at_mut(*m);
                                decode((a, x), (b, &mut y[..*n]))
                            }
                            // An odd last block: alone, with the adaptive decoder.
                            [(a, m)] => (decoders[adaptive].1)(a, &mut out[..*m]),
                            _ => unreachable!("chunks of 2"),
                        };
                        best_pairs[i][j] = best_pairs[i][j].min(t.elapsed());
                        assert_eq!(got, pair.iter().map(|p| p.1).sum::<usize>());
                    }
                }
            }
        }
        let names: Vec<&String> = decoders
            .iter()
            .map(|d| &d.0)
            .chain(pair_decoders.iter().map(|d| &d.0))
            .collect();
        let best: Vec<Duration> = best
            .iter()
            .chain(&best_pairs)
            .map(|b| b.iter().sum())
            .collect();
        let gbps = |d: Duration| data.len() as f64 / d.as_secs_f64() / 1e9;
        let find = |name: &str| names.iter().position(|d| *d == name);
        println!(
            "{path}: {} bytes, ratio {:.3}",
            data.len(),
            data.len() as f64 / packed as f64
        );
        for (i, name) in names.iter().enumerate() {
            let mut line = format!("  {name:15} {:6.2} GB/s", gbps(best[i]));
            for peer in ["liblz4", "lz4_flex"] {
                if let Some(p) = find(peer) {
                    let r = best[p].as_secs_f64() / best[i].as_secs_f64();
                    line += &format!("  x{r:.2} vs {peer}");
                }
            }
            println!("{line}");
        }
        compress(&data);
    }
}

/// Interleaved rounds of compressing every 64 KiB block, ours and
/// liblz4's, with the total compressed sizes.
fn compress(data: &[u8]) {
    let mut out = vec![0u8; block::max_compressed_len(BLOCK)];
    let ours: usize = data
        .chunks(BLOCK)
        .map(|c| block::compress_into(c, &mut out).unwrap())
        .sum();
    let chunks: Vec<&[u8]> = data.chunks(BLOCK).collect();
    let mut ours_t = vec![Duration::MAX; chunks.len()];
    #[cfg(target_arch = "x86_64")]
    let mut theirs_t = vec![Duration::MAX; chunks.len()];
    for _ in 0..rounds() {
        for (j, c) in chunks.iter().enumerate() {
            let t = Instant::now();
            block::compress_into(c, &mut out).unwrap();
            ours_t[j] = ours_t[j].min(t.elapsed());
            #[cfg(target_arch = "x86_64")]
            {
                let t = Instant::now();
                liblz4::compress(c, &mut out);
                theirs_t[j] = theirs_t[j].min(t.elapsed());
            }
        }
    }
    let best_ours: Duration = ours_t.iter().sum();
    #[cfg(target_arch = "x86_64")]
    let best_theirs: Duration = theirs_t.iter().sum();
    let gbps = |d: Duration| data.len() as f64 / d.as_secs_f64() / 1e9;
    println!("  compress   {:6.2} GB/s, {ours} bytes", gbps(best_ours));
    #[cfg(target_arch = "x86_64")]
    {
        let theirs: usize = data
            .chunks(BLOCK)
            .map(|c| liblz4::compress(c, &mut out))
            .sum();
        println!(
            "  liblz4     {:6.2} GB/s, {theirs} bytes; ours: size x{:.4}, speed x{:.2}",
            gbps(best_theirs),
            ours as f64 / theirs as f64,
            best_theirs.as_secs_f64() / best_ours.as_secs_f64()
        );
    }
}
