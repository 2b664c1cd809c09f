//! Byte stream split speed: every available kernel, encode and decode, for
//! widths 2, 3, 4, 5, 8, 12 and 16, on 1 MiB and 64 KiB of values, beside a
//! memcpy of the same bytes and a plain nested loop (`peer:naive`, the shape
//! of arrow-rs's and Arrow C++'s scalar code). Throughput is in input bytes.
//!
//! `cargo bench -p vecpress --bench byte_split`

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use vecpress::byte_split;

const WIDTHS: [usize; 7] = [2, 3, 4, 5, 8, 12, 16];
const SIZES: [(&str, usize); 2] = [("1MiB", 1 << 20), ("64KiB", 64 << 10)];

/// Float-like bytes: random low bytes, a few distinct high ones.
fn values(len: usize) -> Vec<u8> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..len)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if i % 4 == 3 {
                0x3f + (x as u8 & 1)
            } else {
                x as u8
            }
        })
        .collect()
}

/// The nested loop: for each value, for each byte, one store.
fn naive_encode(input: &[u8], width: usize, out: &mut [u8]) {
    let n = input.len() / width;
    for v in 0..n {
        for j in 0..width {
            out[j * n + v] = input[v * width + j];
        }
    }
}

fn naive_decode(input: &[u8], width: usize, out: &mut [u8]) {
    let n = input.len() / width;
    for v in 0..n {
        for j in 0..width {
            out[v * width + j] = input[j * n + v];
        }
    }
}

fn bench(c: &mut Criterion, decode: bool) {
    let name = if decode {
        "byte_split-decode"
    } else {
        "byte_split-encode"
    };
    let mut group = c.benchmark_group(name);
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(700))
        .sample_size(20);
    for (size_name, size) in SIZES {
        for width in WIDTHS {
            let len = size / width * width;
            let plain = values(len);
            let input = if decode {
                byte_split::encode_to_vec(&plain, width).unwrap()
            } else {
                plain
            };
            let mut out = vec![0u8; len];
            group.throughput(Throughput::Bytes(len as u64));
            let id = |who: &str| BenchmarkId::new(who, format!("w{width}/{size_name}"));
            for isa in byte_split::kernels() {
                group.bench_function(id(isa.name()), |b| {
                    b.iter(|| {
                        if decode {
                            byte_split::decode_with(isa, black_box(&input), width, &mut out)
                        } else {
                            byte_split::encode_with(isa, black_box(&input), width, &mut out)
                        }
                    })
                });
            }
            group.bench_function(id("peer:naive"), |b| {
                b.iter(|| {
                    if decode {
                        naive_decode(black_box(&input), width, &mut out)
                    } else {
                        naive_encode(black_box(&input), width, &mut out)
                    }
                })
            });
            group.bench_function(id("memcpy"), |b| {
                b.iter(|| out.copy_from_slice(black_box(&input)))
            });
        }
    }
    group.finish();
}

fn encode(c: &mut Criterion) {
    bench(c, false);
}

fn decode(c: &mut Criterion) {
    bench(c, true);
}

criterion_group!(benches, encode, decode);
criterion_main!(benches);
