//! Timing of whole-frame LZ4 decompression, each way against the same frame:
//! `frame::decompress` (a new vector), `frame::decompress_into` (a slice
//! reused), `FrameDecoder` drained through `BufRead` one block at a time and
//! reading ahead (two blocks at a time), the `lz4` crate's `Decoder`
//! (liblz4's `LZ4F_decompress`) and lz4_flex's `FrameDecoder`, both read to
//! the end into a vector of the content's size. Frames as
//! `frame::compress` writes them (content size and checksum), of 64 KiB and
//! of 4 MiB blocks. Each way runs alone, `LZ4_FRAME_ROUNDS` times (15), so
//! that the allocator settles; its best time counts, and ratios are to
//! liblz4's.
//!
//! `cargo bench -p vecpress --bench lz4_frame_timing -- [FILE...]`
//! (default: the Silesia files of the data folder, `$VECPRESS_DATA` or
//! `shared/data` beside the repository).

#[path = "../tests/common/data.rs"]
mod data;

#[path = "common/args.rs"]
mod args;

use std::io::{BufRead, Read};
use std::time::{Duration, Instant};

use vecpress::lz4::frame::{self, BlockSize, FrameDecoder, FrameInfo};

fn best_of(rounds: usize, f: &mut dyn FnMut() -> usize) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        std::hint::black_box(f());
        best = best.min(t.elapsed());
    }
    best
}

/// Bytes a `FrameDecoder` gives, taken block by block from its buffer.
fn drain(packed: &[u8], ahead: bool) -> usize {
    let mut dec = FrameDecoder::new(packed).read_ahead(ahead);
    let mut n = 0;
    loop {
        let block = dec.fill_buf().unwrap();
        if block.is_empty() {
            return n;
        }
        let len = block.len();
        n += len;
        dec.consume(len);
    }
}

fn main() {
    let rounds = std::env::var("LZ4_FRAME_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    let paths = args::paths(|| {
        let dir = data::optional("silesia").unwrap_or_default();
        ["dickens", "mr", "ooffice", "xml"]
            .iter()
            .map(|f| dir.join(f).to_string_lossy().into_owned())
            .collect()
    });
    println!(
        "file      blocks  liblz4 GB/s  decompress  into  reader  reader+ahead  lz4_flex  (÷ liblz4)"
    );
    for path in paths {
        let Ok(data) = std::fs::read(&path) else {
            eprintln!("{path}: cannot read; skipped");
            continue;
        };
        let name = path.rsplit('/').next().unwrap_or(&path);
        for size in [BlockSize::Max64KB, BlockSize::Max4MB] {
            let info = FrameInfo::new()
                .block_size(size)
                .content_checksum(true)
                .content_size(Some(data.len() as u64));
            let packed = frame::compress_with(&data, info);
            let len = data.len();
            let c = best_of(rounds, &mut || {
                let mut v = Vec::with_capacity(len);
                lz4::Decoder::new(&packed[..])
                    .unwrap()
                    .read_to_end(&mut v)
                    .unwrap();
                v.len()
            });
            let ours = best_of(rounds, &mut || frame::decompress(&packed).unwrap().len());
            let mut out = vec![0u8; len];
            let into = best_of(rounds, &mut || {
                frame::decompress_into(&packed, &mut out).unwrap()
            });
            let single = best_of(rounds, &mut || drain(&packed, false));
            let ahead = best_of(rounds, &mut || drain(&packed, true));
            let flex = best_of(rounds, &mut || {
                let mut v = Vec::with_capacity(len);
                lz4_flex::frame::FrameDecoder::new(&packed[..])
                    .read_to_end(&mut v)
                    .unwrap();
                v.len()
            });
            let r = |d: Duration| c.as_secs_f64() / d.as_secs_f64();
            println!(
                "{name:9} {:6}  {:11.2}  {:10.2}  {:4.2}  {:6.2}  {:12.2}  {:8.2}",
                if size == BlockSize::Max64KB {
                    "64K"
                } else {
                    "4M"
                },
                len as f64 / c.as_secs_f64() / 1e9,
                r(ours),
                r(into),
                r(single),
                r(ahead),
                r(flex),
            );
        }
    }
}
