//! LZ4 block speed on real data cut into 64 KiB blocks (the Silesia files of
//! the data folder, `$VECPRESS_DATA/silesia`, or `VECPRESS_LZ4_DATA=dir`; a
//! generated input when neither exists): every decoding variant against liblz4's
//! `LZ4_decompress_safe` and lz4_flex, and the compressor against
//! `LZ4_compress_default`. `cargo bench -p vecpress --bench lz4`.

#[path = "../tests/common/data.rs"]
mod data;

#[path = "common/files.rs"]
mod files;

use std::path::PathBuf;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use vecpress::lz4::block;

const BLOCK: usize = 64 * 1024;

/// (name, contents) of each input file.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let dir = std::env::var_os("VECPRESS_LZ4_DATA")
        .map(PathBuf::from)
        .or_else(|| data::optional("silesia"))
        .unwrap_or_default();
    let mut found: Vec<(String, Vec<u8>)> = files::sorted(&dir, None)
        .iter()
        .filter_map(|path| {
            let name = path.file_name()?.to_string_lossy().into_owned();
            Some((name, std::fs::read(path).ok()?))
        })
        .collect();
    if found.is_empty() {
        let words = [
            "lorem ",
            "ipsum ",
            "dolor ",
            "sit ",
            "amet, ",
            "consectetur ",
        ];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut text = Vec::new();
        while text.len() < 4 << 20 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            text.extend_from_slice(words[(x % 6) as usize].as_bytes());
        }
        found.push(("generated".into(), text));
    }
    found
}

/// The blocks of `data` compressed as liblz4 (or, off x86_64, we) would.
fn blocks(data: &[u8]) -> Vec<(Vec<u8>, usize)> {
    data.chunks(BLOCK)
        .map(|chunk| {
            #[cfg(target_arch = "x86_64")]
            let packed = lz4::block::compress(chunk, None, false).unwrap();
            #[cfg(not(target_arch = "x86_64"))]
            let packed = block::compress(chunk);
            (packed, chunk.len())
        })
        .collect()
}

fn decompress(c: &mut Criterion) {
    let mut group = c.benchmark_group("lz4-decompress");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, data) in inputs() {
        let blocks = blocks(&data);
        let mut out = vec![0u8; BLOCK];
        group.throughput(Throughput::Bytes(data.len() as u64));
        for v in block::variants() {
            group.bench_function(BenchmarkId::new(v.name(), &name), |b| {
                b.iter(|| {
                    for (packed, n) in &blocks {
                        let got = block::decompress_into_variant(v, packed, &mut out[..*n]);
                        assert_eq!(got, Ok(*n));
                    }
                })
            });
        }
        #[cfg(target_arch = "x86_64")]
        group.bench_function(BenchmarkId::new("liblz4-safe", &name), |b| {
            b.iter(|| {
                for (packed, n) in &blocks {
                    // SAFETY: the pointers and lengths describe live slices;
                    // LZ4_decompress_safe stays inside them.
                    let got = unsafe {
                        lz4::liblz4::LZ4_decompress_safe(
                            packed.as_ptr().cast(),
                            out.as_mut_ptr().cast(),
                            packed.len() as i32,
                            *n as i32,
                        )
                    };
                    assert_eq!(got, *n as i32);
                }
            })
        });
        group.bench_function(BenchmarkId::new("lz4_flex", &name), |b| {
            b.iter(|| {
                for (packed, n) in &blocks {
                    let got = lz4_flex::block::decompress_into(packed, &mut out[..*n]);
                    assert_eq!(got.ok(), Some(*n));
                }
            })
        });
    }
    group.finish();
}

fn compress(c: &mut Criterion) {
    let mut group = c.benchmark_group("lz4-compress");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let mut out = vec![0u8; block::max_compressed_len(BLOCK)];
    for (name, data) in inputs() {
        group.throughput(Throughput::Bytes(data.len() as u64));
        let ours: usize = data
            .chunks(BLOCK)
            .map(|c| block::compress_into(c, &mut out).unwrap())
            .sum();
        group.bench_function(BenchmarkId::new("vecpress", &name), |b| {
            b.iter(|| {
                for chunk in data.chunks(BLOCK) {
                    block::compress_into(chunk, &mut out).unwrap();
                }
            })
        });
        #[cfg(target_arch = "x86_64")]
        {
            let theirs: usize = data
                .chunks(BLOCK)
                .map(|c| lz4::block::compress_to_buffer(c, None, false, &mut out).unwrap())
                .sum();
            println!(
                "{name}: {} bytes, vecpress {ours} ({:.4}), liblz4 {theirs} ({:.4}), ours/theirs {:.4}",
                data.len(),
                ours as f64 / data.len() as f64,
                theirs as f64 / data.len() as f64,
                ours as f64 / theirs as f64
            );
            group.bench_function(BenchmarkId::new("liblz4-default", &name), |b| {
                b.iter(|| {
                    for chunk in data.chunks(BLOCK) {
                        lz4::block::compress_to_buffer(chunk, None, false, &mut out).unwrap();
                    }
                })
            });
        }
        #[cfg(not(target_arch = "x86_64"))]
        println!("{name}: vecpress {ours} of {}", data.len());
    }
    group.finish();
}

criterion_group!(benches, decompress, compress);
criterion_main!(benches);
