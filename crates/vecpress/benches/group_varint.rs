//! Kernel-level Varint-GB and Varint-G8IU decoding speed, against the scalar
//! VByte decoder in the same run:
//!
//! - `group-varint-decode-delta/<codec>-<isa>/<bits>`: delta decoding of a
//!   block of 4096 gaps of `bits` bits (uniform below 2^bits), every bit width
//!   1..=32, every kernel; `vbyte-scalar` is `vbyte::decode_delta_with(Isa::Scalar, ..)`.
//! - `group-varint-decode/...`: the same without delta, for a few widths.
//! - `group-varint-postings/<file>`: every list of each ds2i file under
//!   `postings/` of the data folder (or `$VECPRESS_POSTINGS`), delta-coded in
//!   blocks of 4096, decoded into one reused buffer of 4096 values.
//!
//! `cargo bench -p vecpress --bench group_varint [-- FILTER]`

#[path = "../tests/common/data.rs"]
mod data;

#[path = "common/files.rs"]
mod files;

use std::path::PathBuf;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
#[cfg(feature = "g8iu")]
use vecpress::group_varint::g8iu;
use vecpress::group_varint::gb;
use vecpress::{Error, Isa, vbyte};

const BLOCK: usize = 4096;

type DecodeDelta = fn(Isa, &[u8], &mut [u32], u32) -> Result<usize, Error>;
type DecodePlain = fn(Isa, &[u8], &mut [u32]) -> Result<usize, Error>;

/// A decoder to time: name, kernels, encoder of gaps, plain and delta decoders.
struct Subject {
    name: &'static str,
    kernels: Vec<Isa>,
    encode: fn(&[u32]) -> Vec<u8>,
    decode: DecodePlain,
    decode_delta: DecodeDelta,
}

fn subjects() -> Vec<Subject> {
    let mut v = vec![
        Subject {
            name: "vbyte",
            kernels: vec![Isa::Scalar, Isa::best()],
            encode: vbyte::encode_to_vec,
            decode: vbyte::decode_with,
            decode_delta: vbyte::decode_delta_with,
        },
        Subject {
            name: "gb",
            kernels: gb::kernels(),
            encode: gb::encode_to_vec,
            decode: gb::decode_with,
            decode_delta: gb::decode_delta_with,
        },
    ];
    #[cfg(feature = "g8iu")]
    v.push(Subject {
        name: "g8iu",
        kernels: g8iu::kernels(),
        encode: g8iu::encode_to_vec,
        decode: g8iu::decode_with,
        decode_delta: g8iu::decode_delta_with,
    });
    for s in &mut v {
        s.kernels.dedup();
    }
    v
}

/// 4096 deterministic gaps uniform in `0..2^bits`.
fn gaps(bits: u32) -> Vec<u32> {
    let mut x = 0x2545_F491_4F6C_DD1Du64 ^ u64::from(bits);
    (0..BLOCK)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x >> 16) as u32) >> (32 - bits)
        })
        .collect()
}

fn by_width(c: &mut Criterion) {
    let subjects = subjects();
    let mut out = vec![0u32; BLOCK];
    let mut group = c.benchmark_group("group-varint-decode-delta");
    group.throughput(Throughput::Elements(BLOCK as u64));
    for bits in 1..=32 {
        let gaps = gaps(bits);
        for s in &subjects {
            let bytes = (s.encode)(&gaps);
            for &isa in &s.kernels {
                let id = BenchmarkId::new(format!("{}-{isa}", s.name), bits);
                group.bench_with_input(id, &bytes, |b, bytes| {
                    b.iter(|| (s.decode_delta)(isa, bytes, &mut out, 0).unwrap())
                });
            }
        }
    }
    group.finish();

    let mut group = c.benchmark_group("group-varint-decode");
    group.throughput(Throughput::Elements(BLOCK as u64));
    for bits in [4, 8, 16, 24, 32] {
        let gaps = gaps(bits);
        for s in &subjects {
            let bytes = (s.encode)(&gaps);
            for &isa in &s.kernels {
                let id = BenchmarkId::new(format!("{}-{isa}", s.name), bits);
                group.bench_with_input(id, &bytes, |b, bytes| {
                    b.iter(|| (s.decode)(isa, bytes, &mut out).unwrap())
                });
            }
        }
        group.bench_with_input(BenchmarkId::new("memcpy", bits), &gaps, |b, gaps| {
            b.iter(|| out.copy_from_slice(gaps))
        });
    }
    group.finish();
}

/// A block of up to 4096 values of a list: its gaps encoded from `prev`
/// (the value before it in the list, or 0).
struct Block {
    bytes: Vec<u8>,
    n: usize,
    prev: u32,
}

fn postings(c: &mut Criterion) {
    let dir = std::env::var_os("VECPRESS_POSTINGS")
        .map(PathBuf::from)
        .or_else(|| data::optional("postings"))
        .unwrap_or_default();
    let paths = files::sorted(&dir, Some("docs"));
    if paths.is_empty() {
        eprintln!("group_varint bench: no posting lists in {}", dir.display());
        return;
    }
    let subjects = subjects();
    let mut out = vec![0u32; BLOCK];
    let mut group = c.benchmark_group("group-varint-postings");
    group.sample_size(10);
    for path in &paths {
        let raw = std::fs::read(path).unwrap_or_default();
        let lists: Vec<Vec<u32>> = files::ds2i_lists(&raw).collect();
        let total: usize = lists.iter().map(Vec::len).sum();
        if total == 0 {
            continue;
        }
        let file = path.file_stem().unwrap().to_string_lossy().into_owned();
        group.throughput(Throughput::Elements(total as u64));
        for s in &subjects {
            let blocks: Vec<Block> = lists
                .iter()
                .flat_map(|list| {
                    list.chunks(BLOCK).enumerate().map(move |(i, chunk)| {
                        let prev = if i == 0 { 0 } else { list[i * BLOCK - 1] };
                        let gaps: Vec<u32> = chunk
                            .iter()
                            .scan(prev, |p, &v| {
                                let g = v.wrapping_sub(*p);
                                *p = v;
                                Some(g)
                            })
                            .collect();
                        Block {
                            bytes: (s.encode)(&gaps),
                            n: chunk.len(),
                            prev,
                        }
                    })
                })
                .collect();
            let size: usize = blocks.iter().map(|b| b.bytes.len()).sum();
            eprintln!(
                "{file}: {} {:.2} bits/int",
                s.name,
                8.0 * size as f64 / total as f64
            );
            for &isa in &s.kernels {
                let id = BenchmarkId::new(format!("{}-{isa}", s.name), &file);
                group.bench_with_input(id, &blocks, |b, blocks| {
                    b.iter(|| {
                        for block in blocks {
                            let out = &mut out[..block.n];
                            (s.decode_delta)(isa, &block.bytes, out, block.prev).unwrap();
                        }
                    })
                });
            }
        }
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(700))
}

criterion_group! {
    name = benches;
    config = config();
    targets = postings, by_width
}
criterion_main!(benches);
