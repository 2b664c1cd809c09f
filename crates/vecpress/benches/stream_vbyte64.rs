//! Kernel-level 64-bit Stream VByte decoding speed: every available kernel
//! on blocks of 4096 values (an L1-resident output buffer), plain and
//! delta, for values of 1 byte, 1-2 bytes and 1-8 bytes, with the
//! `streamvbyte64` crate and a memcpy of the decoded bytes as baselines.
//! `cargo bench -p vecpress --bench stream_vbyte64`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use streamvbyte64::{Coder, Coder1248};
use vecpress::stream_vbyte::u64 as sv64;

const BLOCK: usize = 4096;

fn inputs() -> Vec<(&'static str, Vec<u64>)> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    vec![
        ("1-byte", (0..BLOCK).map(|_| next() % 256).collect()),
        (
            "1-2-bytes",
            (0..BLOCK).map(|_| next() >> (48 + next() % 9)).collect(),
        ),
        (
            "1-8-bytes",
            (0..BLOCK).map(|_| next() >> (next() % 64)).collect(),
        ),
    ]
}

fn decode(c: &mut Criterion) {
    let coder = Coder1248::new();
    for delta in [false, true] {
        let name = if delta {
            "sv64-decode-delta"
        } else {
            "sv64-decode"
        };
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(BLOCK as u64));
        for (input, values) in inputs() {
            let bytes = sv64::encode_to_vec(&values);
            let mut out = vec![0u64; BLOCK];
            for isa in sv64::kernels() {
                group.bench_with_input(BenchmarkId::new(isa.name(), input), &bytes, |b, bytes| {
                    if delta {
                        b.iter(|| sv64::decode_delta_with(isa, bytes, &mut out, 0).unwrap())
                    } else {
                        b.iter(|| sv64::decode_with(isa, bytes, &mut out).unwrap())
                    }
                });
            }
            let (tags, data) = bytes.split_at(BLOCK / 4);
            group.bench_with_input(BenchmarkId::new("streamvbyte64", input), &(), |b, _| {
                if delta {
                    b.iter(|| coder.decode_deltas(0, tags, data, &mut out))
                } else {
                    b.iter(|| coder.decode(tags, data, &mut out))
                }
            });
            group.bench_with_input(BenchmarkId::new("memcpy", input), &values, |b, v| {
                b.iter(|| out.copy_from_slice(v))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, decode);
criterion_main!(benches);
