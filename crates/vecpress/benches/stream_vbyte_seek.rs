//! Random access on Stream VByte blocks, as the paper's Fig. 6 measures it:
//! blocks of 256 sorted values whose gaps have `b` random bits, 64 random
//! queries a pass. Each operation is timed against decoding the whole block
//! (with the best kernel for plain streams, with each kernel for delta
//! streams) and then indexing or searching it.
//! `cargo bench -p vecpress --bench stream_vbyte_seek`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use vecpress::stream_vbyte as sv;

const BLOCK: usize = 256;
const QUERIES: usize = 64;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A block of sorted values (gaps below `2^bits`), random indexes and
/// targets within its range.
fn block(bits: u32) -> (Vec<u32>, Vec<usize>, Vec<u32>) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ bits as u64);
    let mut acc = 0u32;
    let values: Vec<u32> = (0..BLOCK)
        .map(|_| {
            acc = acc.wrapping_add((rng.next() % (1u64 << bits)) as u32);
            acc
        })
        .collect();
    let idx = (0..QUERIES).map(|_| rng.next() as usize % BLOCK).collect();
    let last = values[BLOCK - 1] as u64 + 1;
    let targets = (0..QUERIES).map(|_| (rng.next() % last) as u32).collect();
    (values, idx, targets)
}

fn random_access(c: &mut Criterion) {
    for (name, bits) in [
        ("b1", 1u32),
        ("b4", 4),
        ("b8", 8),
        ("b12", 12),
        ("b16", 16),
        ("b20", 20),
        ("b24", 24),
    ] {
        let (values, idx, targets) = block(bits);
        let plain = sv::encode_to_vec(&values);
        let delta = sv::encode_delta_to_vec(&values, 0);
        let mut out = [0u32; BLOCK];
        let mut group = c.benchmark_group(format!("sv-random-access/{name}"));
        group.throughput(Throughput::Elements(QUERIES as u64));
        group.bench_function(BenchmarkId::new("select", "direct"), |b| {
            b.iter(|| {
                idx.iter()
                    .map(|&i| sv::select(&plain, BLOCK, i).unwrap())
                    .fold(0, u32::wrapping_add)
            })
        });
        group.bench_function(BenchmarkId::new("select", "decode-block"), |b| {
            b.iter(|| {
                idx.iter()
                    .map(|&i| {
                        sv::decode(&plain, &mut out).unwrap();
                        black_box(&out)[i]
                    })
                    .fold(0, u32::wrapping_add)
            })
        });
        group.bench_function(BenchmarkId::new("select_delta", "direct"), |b| {
            b.iter(|| {
                idx.iter()
                    .map(|&i| sv::select_delta(&delta, BLOCK, i, 0).unwrap())
                    .fold(0, u32::wrapping_add)
            })
        });
        // Delta baselines with every decoding kernel: the fastest one is the
        // fair comparison.
        for isa in sv::kernels() {
            group.bench_function(
                BenchmarkId::new("select_delta", format!("decode-block-{isa}")),
                |b| {
                    b.iter(|| {
                        idx.iter()
                            .map(|&i| {
                                sv::decode_delta_with(isa, &delta, &mut out, 0).unwrap();
                                black_box(&out)[i]
                            })
                            .fold(0, u32::wrapping_add)
                    })
                },
            );
        }
        group.bench_function(BenchmarkId::new("seek_delta", "direct"), |b| {
            b.iter(|| {
                targets
                    .iter()
                    .map(|&t| {
                        sv::seek_delta(&delta, BLOCK, t, 0)
                            .unwrap()
                            .map_or(0, |(i, _)| i)
                    })
                    .sum::<usize>()
            })
        });
        for isa in sv::kernels() {
            group.bench_function(
                BenchmarkId::new("seek_delta", format!("decode-block-{isa}")),
                |b| {
                    b.iter(|| {
                        targets
                            .iter()
                            .map(|&t| {
                                sv::decode_delta_with(isa, &delta, &mut out, 0).unwrap();
                                black_box(&out).partition_point(|&v| v < t)
                            })
                            .sum::<usize>()
                    })
                },
            );
        }
        group.finish();
    }
}

criterion_group!(benches, random_access);
criterion_main!(benches);
