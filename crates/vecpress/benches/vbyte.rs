//! Kernel-level VByte decoding speed: every available kernel on blocks of
//! 4096 values (an L1-resident output buffer, as the paper measures), for
//! gaps of 1, 1-2 and 1-5 bytes, and for mixes of one- and two-byte values
//! (the share of two-byte ones from none to all, as Masked VByte's paper
//! varies it), plain and delta coded. `cargo bench -p vecpress --bench vbyte`.

#[path = "common/gaps.rs"]
mod gaps;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use vecpress::{Isa, vbyte};

const BLOCK: usize = 4096;

fn decode_delta(c: &mut Criterion) {
    let inputs = [
        ("1-byte", gaps::gaps(BLOCK, 128, u32::MAX, 1)),
        ("1-2-bytes", gaps::gaps(BLOCK, 128, 4, 1 << 14)),
        ("1-5-bytes", gaps::gaps(BLOCK, 1 << 10, 3, u32::MAX)),
    ];
    let mut group = c.benchmark_group("vbyte-decode-delta");
    group.throughput(Throughput::Elements(BLOCK as u64));
    for (name, gaps) in &inputs {
        let bytes = vbyte::encode_to_vec(gaps);
        let mut out = vec![0u32; BLOCK];
        for &isa in &vbyte::kernels() {
            group.bench_with_input(BenchmarkId::new(isa.name(), name), &bytes, |b, bytes| {
                b.iter(|| vbyte::decode_delta_with(isa, bytes, &mut out, 0).unwrap())
            });
        }
        group.bench_with_input(BenchmarkId::new("memcpy", name), gaps, |b, gaps| {
            b.iter(|| out.copy_from_slice(gaps))
        });
    }
    group.finish();
    let _ = Isa::best();
}

/// Every kernel on blocks whose values take one byte, or two for a share
/// of them (in percent), plain and delta coded.
fn decode_mix(c: &mut Criterion) {
    let mut group = c.benchmark_group("vbyte-decode-mix");
    group.throughput(Throughput::Elements(BLOCK as u64));
    let mut out = vec![0u32; BLOCK];
    for two in [0u32, 5, 10, 25, 50, 100] {
        // One in `rare` of the values below 2^14 (two bytes), the rest below 128.
        let values = match two {
            0 => gaps::gaps(BLOCK, 128, u32::MAX, 1),
            100 => gaps::gaps(BLOCK, 1 << 14, u32::MAX, 1)
                .iter()
                .map(|&v| v.max(128))
                .collect(),
            _ => gaps::gaps(BLOCK, 128, 100 / two, 1 << 14),
        };
        let bytes = vbyte::encode_to_vec(&values);
        for &isa in &vbyte::kernels() {
            let name = format!("{two}%-two-bytes");
            group.bench_with_input(
                BenchmarkId::new(format!("{}-plain", isa.name()), &name),
                &bytes,
                |b, bytes| b.iter(|| vbyte::decode_with(isa, bytes, &mut out).unwrap()),
            );
            group.bench_with_input(
                BenchmarkId::new(format!("{}-delta", isa.name()), &name),
                &bytes,
                |b, bytes| b.iter(|| vbyte::decode_delta_with(isa, bytes, &mut out, 0).unwrap()),
            );
        }
    }
    group.finish();
}

fn decode_u64(c: &mut Criterion) {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let inputs: [(&str, Vec<u64>); 3] = [
        ("1-byte", (0..BLOCK).map(|_| next() % 128).collect()),
        (
            "1-3-bytes",
            (0..BLOCK).map(|_| next() >> (43 + next() % 21)).collect(),
        ),
        (
            "1-10-bytes",
            (0..BLOCK).map(|_| next() >> (next() % 64)).collect(),
        ),
    ];
    let mut group = c.benchmark_group("vbyte-decode-u64");
    group.throughput(Throughput::Elements(BLOCK as u64));
    for (name, values) in &inputs {
        let bytes = vbyte::encode_u64_to_vec(values);
        let mut out = vec![0u64; BLOCK];
        group.bench_with_input(BenchmarkId::new("scalar", name), &bytes, |b, bytes| {
            b.iter(|| vbyte::decode_u64(bytes, &mut out).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, decode_delta, decode_mix, decode_u64);
criterion_main!(benches);
