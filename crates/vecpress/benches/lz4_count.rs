//! One pass of one LZ4 coder over every 64 KiB block of a file, for counting
//! its instructions (`scripts/count-instructions.sh` runs it under
//! `valgrind --tool=callgrind`). On a busy two-core machine a timing moves
//! by 5-10% from run to run; the count of instructions does not, so it tells
//! whether a change to a loop made it do less work, and how much more or
//! less than liblz4's does.
//!
//! `cargo bench -p vecpress --bench lz4_count -- FILE MODE [LEVEL]`,
//! MODE one of `setup` (read the file and compress its blocks, which every
//! mode does first: with the fast compressor, or at LEVEL with `lz4::hc`),
//! `compress`, `liblz4-compress`, `decompress:LOOP` (`copy8`, `copy16`,
//! `shuffle16`, `copy32`, `checked`), `liblz4-decompress`,
//! `lz4_flex-decompress`, `hc:LEVEL`, `liblz4-hc:LEVEL` (`LZ4_compress_HC`).
//! A mode's own work is its count less `setup`'s (at the same LEVEL).

use vecpress::lz4::{block, hc};

#[path = "common/liblz4.rs"]
mod liblz4;

const BLOCK: usize = 64 * 1024;

fn main() {
    // `cargo bench` passes `--bench` to every bench target.
    let args: Vec<String> = std::env::args().filter(|a| a != "--bench").collect();
    let (Some(path), Some(mode)) = (args.get(1), args.get(2)) else {
        // A plain `cargo bench` runs every bench target with no arguments: say
        // what this one needs without failing the others.
        println!("usage: lz4_count FILE MODE [LEVEL]");
        std::process::exit(if args.len() == 1 { 0 } else { 2 });
    };
    let data = std::fs::read(path).expect("readable file");
    let level: Option<u32> = args.get(3).map(|l| l.parse().expect("a level"));
    let blocks: Vec<(Vec<u8>, &[u8])> = data
        .chunks(BLOCK)
        .map(|c| match level {
            Some(level) => (hc::compress(c, level), c),
            None => (block::compress(c), c),
        })
        .collect();
    let mut packed = vec![0u8; block::max_compressed_len(BLOCK)];
    let mut out = vec![0u8; BLOCK];
    // The sum of what each pass returns, printed so that no pass is idle.
    let mut total = 0usize;
    match mode.as_str() {
        "setup" => {}
        "compress" => {
            for (_, raw) in &blocks {
                total += block::compress_into(raw, &mut packed).expect("room");
            }
        }
        "liblz4-compress" => {
            for (_, raw) in &blocks {
                total += liblz4::compress(raw, &mut packed);
            }
        }
        m if m.starts_with("hc:") || m.starts_with("liblz4-hc:") => {
            let level: u32 = m[m.find(':').expect("a colon") + 1..]
                .parse()
                .expect("a level");
            for (_, raw) in &blocks {
                total += if m.starts_with("hc:") {
                    hc::compress_into(raw, &mut packed, level).expect("room")
                } else {
                    liblz4::compress_hc(raw, &mut packed, level)
                };
            }
        }
        "liblz4-decompress" => {
            for (src, raw) in &blocks {
                total += liblz4::decompress(src, &mut out[..raw.len()]);
            }
        }
        "lz4_flex-decompress" => {
            for (src, raw) in &blocks {
                total += lz4_flex::block::decompress_into(src, &mut out[..raw.len()])
                    .expect("a sound block");
            }
        }
        other => {
            let Some(variant) = other
                .strip_prefix("decompress:")
                .and_then(|name| block::variants().into_iter().find(|v| v.name() == name))
            else {
                eprintln!("lz4_count: unknown mode {other} (or a loop this CPU lacks)");
                std::process::exit(2);
            };
            for (src, raw) in &blocks {
                total += block::decompress_into_variant(variant, src, &mut out[..raw.len()])
                    .expect("a sound block");
            }
        }
    }
    println!("{total}");
}
