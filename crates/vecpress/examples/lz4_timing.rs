//! Interleaved timing of LZ4 block decompression: each round runs every
//! decoder once over every 64 KiB block of a file, so that a busy machine
//! slows all of them alike; the best round of each is reported, with its
//! ratio to liblz4's `LZ4_decompress_safe` and to lz4_flex.
//!
//! `cargo run --release -p vecpress --example lz4_timing [FILE...]`
//! (default: the Silesia files in `/work/shared/data/silesia`).

use std::time::{Duration, Instant};

use vecpress::lz4::block;

const BLOCK: usize = 64 * 1024;
const ROUNDS: usize = 30;

type Decoder<'a> = (String, Box<dyn Fn(&[u8], &mut [u8]) -> usize + 'a>);

fn decoders<'a>() -> Vec<Decoder<'a>> {
    let mut v: Vec<Decoder<'a>> = Vec::new();
    for variant in block::variants() {
        v.push((
            variant.name().to_string(),
            Box::new(move |src, dst| block::decompress_into_variant(variant, src, dst).unwrap()),
        ));
    }
    #[cfg(target_arch = "x86_64")]
    v.push((
        "liblz4".into(),
        Box::new(|src: &[u8], dst: &mut [u8]| {
            // SAFETY: the pointers and lengths describe live slices, which
            // LZ4_decompress_safe stays inside.
            let n = unsafe {
                lz4::liblz4::LZ4_decompress_safe(
                    src.as_ptr().cast(),
                    dst.as_mut_ptr().cast(),
                    src.len() as i32,
                    dst.len() as i32,
                )
            };
            n as usize
        }),
    ));
    v.push((
        "lz4_flex".into(),
        Box::new(|src: &[u8], dst: &mut [u8]| lz4_flex::block::decompress_into(src, dst).unwrap()),
    ));
    v
}

fn main() {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        let dir = "/work/shared/data/silesia";
        let mut found: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path().to_string_lossy().into_owned())
            .collect();
        found.sort();
        paths = found;
    }
    let decoders = decoders();
    let mut out = vec![0u8; BLOCK];
    for path in paths {
        let data = std::fs::read(&path).expect("readable file");
        let blocks: Vec<(Vec<u8>, usize)> = data
            .chunks(BLOCK)
            .map(|c| (block::compress(c), c.len()))
            .collect();
        let packed: usize = blocks.iter().map(|b| b.0.len()).sum();
        let mut best = vec![Duration::MAX; decoders.len()];
        for _ in 0..ROUNDS {
            for (i, (_, decode)) in decoders.iter().enumerate() {
                let t = Instant::now();
                for (src, n) in &blocks {
                    let got = decode(src, &mut out[..*n]);
                    assert_eq!(got, *n);
                }
                best[i] = best[i].min(t.elapsed());
            }
        }
        let gbps = |d: Duration| data.len() as f64 / d.as_secs_f64() / 1e9;
        let find = |name: &str| decoders.iter().position(|d| d.0 == name);
        println!(
            "{path}: {} bytes, ratio {:.3}",
            data.len(),
            data.len() as f64 / packed as f64
        );
        for (i, (name, _)) in decoders.iter().enumerate() {
            let mut line = format!("  {name:10} {:6.2} GB/s", gbps(best[i]));
            for peer in ["liblz4", "lz4_flex"] {
                if let Some(p) = find(peer) {
                    let r = best[p].as_secs_f64() / best[i].as_secs_f64();
                    line += &format!("  x{r:.2} vs {peer}");
                }
            }
            println!("{line}");
        }
    }
}
