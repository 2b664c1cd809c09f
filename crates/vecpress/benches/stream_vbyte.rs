//! Kernel-level Stream VByte speed: every available kernel on blocks of 4096
//! values (an L1-resident output buffer, as the paper measures), for gaps of
//! 1, 1-2 and 1-4 bytes (and d-gaps of a real posting list when the data
//! folder's `postings/` is there), beside memcpy of the decoded
//! bytes, the scalar VByte decoder and (x86-64) the reference C library.
//! `cargo bench -p vecpress --bench stream_vbyte`.

#[path = "../tests/common/data.rs"]
mod data;

#[path = "common/gaps.rs"]
mod gaps;

#[path = "common/files.rs"]
mod files;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use vecpress::{Isa, stream_vbyte as svb, vbyte};

const BLOCK: usize = 4096;

/// The first 4096 d-gaps of the lists of a ds2i `.docs` file, if present.
fn posting_gaps(path: &std::path::Path) -> Option<Vec<u32>> {
    let raw = std::fs::read(path).ok()?;
    let out: Vec<u32> = files::ds2i_lists(&raw)
        .flat_map(|list| {
            list.into_iter().scan(0u32, |prev, v| {
                let gap = v.wrapping_sub(*prev);
                *prev = v;
                Some(gap)
            })
        })
        .take(BLOCK)
        .collect();
    (out.len() == BLOCK).then_some(out)
}

fn inputs() -> Vec<(&'static str, Vec<u32>)> {
    let mut v = vec![
        ("1-byte", gaps::gaps(BLOCK, 256, u32::MAX, 1)),
        ("1-2-bytes", gaps::gaps(BLOCK, 256, 4, 1 << 16)),
        ("1-4-bytes", gaps::gaps(BLOCK, 1 << 10, 3, u32::MAX)),
    ];
    let list = data::optional("postings").map(|d| d.join("census-income.docs"));
    if let Some(g) = list.and_then(|path| posting_gaps(&path)) {
        v.push(("census-income", g));
    }
    v
}

fn decode_delta(c: &mut Criterion) {
    let mut group = c.benchmark_group("stream-vbyte-decode-delta");
    group.throughput(Throughput::Elements(BLOCK as u64));
    for (name, gaps) in &inputs() {
        let values: Vec<u32> = gaps
            .iter()
            .scan(0u32, |p, &g| {
                *p = p.wrapping_add(g);
                Some(*p)
            })
            .collect();
        let bytes = svb::encode_delta_to_vec(&values, 0);
        let mut out = vec![0u32; BLOCK];
        for &isa in &svb::kernels() {
            group.bench_with_input(BenchmarkId::new(isa.name(), name), &bytes, |b, bytes| {
                b.iter(|| svb::decode_delta_with(isa, bytes, &mut out, 0).unwrap())
            });
        }
        let vb = vbyte::encode_delta_to_vec(&values, 0);
        group.bench_with_input(BenchmarkId::new("vbyte-scalar", name), &vb, |b, vb| {
            b.iter(|| vbyte::decode_delta_with(Isa::Scalar, vb, &mut out, 0).unwrap())
        });
        #[cfg(target_arch = "x86_64")]
        {
            let mut padded = bytes.clone();
            padded.extend_from_slice(&[0; 64]);
            group.bench_with_input(BenchmarkId::new("c-reference", name), &padded, |b, p| {
                b.iter(|| streamvbyte::decode_delta(p, &mut out, 0))
            });
        }
        group.bench_with_input(BenchmarkId::new("memcpy", name), gaps, |b, gaps| {
            b.iter(|| out.copy_from_slice(gaps))
        });
    }
    group.finish();
}

fn decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("stream-vbyte-decode");
    group.throughput(Throughput::Elements(BLOCK as u64));
    for (name, gaps) in &inputs() {
        let bytes = svb::encode_to_vec(gaps);
        let zero = svb::encode_0124_to_vec(gaps);
        let mut out = vec![0u32; BLOCK];
        for &isa in &svb::kernels() {
            group.bench_with_input(BenchmarkId::new(isa.name(), name), &bytes, |b, bytes| {
                b.iter(|| svb::decode_with(isa, bytes, &mut out).unwrap())
            });
            let id = format!("{}-0124", isa.name());
            group.bench_with_input(BenchmarkId::new(id, name), &zero, |b, zero| {
                b.iter(|| svb::decode_0124_with(isa, zero, &mut out).unwrap())
            });
        }
        #[cfg(target_arch = "x86_64")]
        {
            let mut padded = bytes.clone();
            padded.extend_from_slice(&[0; 64]);
            group.bench_with_input(BenchmarkId::new("c-reference", name), &padded, |b, p| {
                b.iter(|| streamvbyte::decode(p, &mut out))
            });
        }
    }
    group.finish();
}

fn encode(c: &mut Criterion) {
    let mut group = c.benchmark_group("stream-vbyte-encode");
    group.throughput(Throughput::Elements(BLOCK as u64));
    for (name, gaps) in &inputs() {
        let mut out = vec![0u8; svb::max_encoded_len(BLOCK)];
        for &isa in Isa::available() {
            group.bench_with_input(BenchmarkId::new(isa.name(), name), gaps, |b, gaps| {
                b.iter(|| svb::encode_with(isa, gaps, &mut out).unwrap())
            });
        }
        #[cfg(target_arch = "x86_64")]
        group.bench_with_input(BenchmarkId::new("c-reference", name), gaps, |b, gaps| {
            b.iter(|| streamvbyte::encode_to_buf(gaps, &mut out).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, decode_delta, decode, encode);
criterion_main!(benches);
