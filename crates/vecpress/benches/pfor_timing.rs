//! Interleaved timing of delta decoding for PFOR against SIMD-BP128 (the
//! issue's pfor-delta ÷ bp128-delta), on the lists of ds2i `.docs` files
//! cut into blocks of 4096 values as `vecpress bench` cuts them. Each round
//! takes the blocks in groups of [`GROUP`] and runs every decoder (each
//! kernel level of both codecs) over a group before the next, so that a
//! slow spell of a shared machine falls on all of them alike. Each block's
//! best time of all rounds counts; the sums are reported with the ratio of
//! pfor-delta to bp128-delta at the same level and their bits per integer.
//!
//! `cargo bench -p vecpress --bench pfor_timing -- [FILE.docs...]`
//! (default: the posting lists of the data folder, `$VECPRESS_DATA` or
//! `shared/data` beside the repository; `PFOR_TIMING_ROUNDS`, default 20).

#[path = "../tests/common/data.rs"]
mod data;

#[path = "common/args.rs"]
mod args;

#[path = "common/files.rs"]
mod files;

use std::time::{Duration, Instant};

use vecpress::Isa;
use vecpress::bitpack::{bp128, pfor};

const BLOCK: usize = 4096;
/// Blocks a decoder runs over before the next decoder takes them.
const GROUP: usize = 64;

fn rounds() -> usize {
    std::env::var("PFOR_TIMING_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20)
}

/// The lists of a ds2i `.docs` file cut into blocks of at most [`BLOCK`]
/// sorted values, each coded from 0 as `vecpress bench` codes them.
fn blocks(raw: &[u8]) -> Vec<(u32, Vec<u32>)> {
    files::ds2i_lists(raw)
        .flat_map(|list| {
            let chunks = list.chunks(BLOCK);
            chunks.map(|chunk| (0, chunk.to_vec())).collect::<Vec<_>>()
        })
        .collect()
}

type Decode = fn(Isa, &[u8], &mut [u32], u32) -> Result<usize, vecpress::Error>;
type Encode = fn(&[u32], u32) -> Vec<u8>;

fn main() {
    let paths = args::paths(|| {
        let dir = data::optional("postings").unwrap_or_default();
        files::sorted(&dir, Some("docs"))
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect()
    });
    let codecs: [(&str, Encode, Decode); 2] = [
        (
            "bp128-delta",
            bp128::encode_delta_to_vec,
            bp128::decode_delta_with,
        ),
        (
            "pfor-delta",
            pfor::encode_delta_to_vec,
            pfor::decode_delta_with,
        ),
    ];
    let levels = bp128::kernels();
    let mut out = vec![0u32; BLOCK];
    for path in paths {
        let raw = std::fs::read(&path).expect("readable file");
        let blocks = blocks(&raw);
        let values: usize = blocks.iter().map(|b| b.1.len()).sum();
        let encoded: Vec<Vec<Vec<u8>>> = codecs
            .iter()
            .map(|(_, encode, _)| blocks.iter().map(|(p, v)| encode(v, *p)).collect())
            .collect();
        let runs: Vec<(usize, Isa)> = (0..codecs.len())
            .flat_map(|c| levels.iter().map(move |&isa| (c, isa)))
            .collect();
        let mut best = vec![vec![Duration::MAX; blocks.len()]; runs.len()];
        for _ in 0..rounds() {
            for group in blocks
                .chunks(GROUP)
                .enumerate()
                .map(|(g, c)| g * GROUP..g * GROUP + c.len())
            {
                for (r, &(c, isa)) in runs.iter().enumerate() {
                    let decode = codecs[c].2;
                    for j in group.clone() {
                        let (prev, want) = &blocks[j];
                        let t = Instant::now();
                        decode(isa, &encoded[c][j], &mut out[..want.len()], *prev)
                            .expect("decodes");
                        best[r][j] = best[r][j].min(t.elapsed());
                        assert_eq!(&out[..want.len()], &want[..]);
                    }
                }
            }
        }
        println!("{path}: {values} values in {} blocks", blocks.len());
        let total: Vec<Duration> = best.iter().map(|b| b.iter().sum()).collect();
        for (r, &(c, isa)) in runs.iter().enumerate() {
            let bits: usize = encoded[c].iter().map(Vec::len).sum::<usize>() * 8;
            let base = runs
                .iter()
                .position(|&(c0, i0)| c0 == 0 && i0 == isa)
                .expect("a bp128 row per level");
            println!(
                "  {:12} {:7} {:8.0} M/s  {:5.2} bits  x{:.2} vs bp128-delta",
                codecs[c].0,
                isa.name(),
                values as f64 / total[r].as_secs_f64() / 1e6,
                bits as f64 / values as f64,
                total[base].as_secs_f64() / total[r].as_secs_f64()
            );
        }
    }
}
