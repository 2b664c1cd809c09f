//! Memory follows the input, not a claim: the three filters' decoders,
//! measured by a counting allocator, allocate at most their format's bound
//! times the chunk's length (255 bytes a byte for LZ4 inside any of them,
//! as SECURITY.md has it), plus working memory of the same order and a
//! constant, whatever sizes the chunk states. Fed header-claim bombs (every
//! size field at the largest values it can state) and damaged valid chunks.

// The library's counting allocator: one definition for both tests.
#[path = "../../vecpress/tests/counting/mod.rs"]
mod counting;

use counting::peak_of;
use vecpress_hdf5::{Filter, decode_to_vec, encode_to_vec};

/// Output plus working memory, in multiples of the bound.
const WORK: usize = 4;
/// The constant part: a thread's scratch for small blocks, tables.
const SLACK: usize = 512 << 10;

fn check(filter: Filter, cd: &[u32], chunk: &[u8], what: &str) {
    let bound = chunk.len().saturating_mul(255).saturating_mul(WORK) + SLACK;
    let (_, peak) = peak_of(|| decode_to_vec(filter, cd, chunk));
    assert!(
        peak <= bound,
        "{filter:?} {what}: {peak} bytes allocated for a chunk of {}, {bound} allowed",
        chunk.len()
    );
}

/// A chunk with the 4- or 8-byte field at `at` set to each of the largest
/// values it can state (either byte order), and cut at every length up to
/// 64 bytes.
fn bombs(filter: Filter, cd: &[u32], valid: &[u8], fields: &[(usize, usize)]) {
    for &(at, width) in fields {
        for value in [
            u64::MAX,
            u64::MAX >> 1,
            u64::from(u32::MAX),
            u64::from(i32::MAX as u32),
            1 << 30,
            1 << 24,
        ] {
            let mut bad = valid.to_vec();
            if at + width > bad.len() {
                continue;
            }
            let (be, le) = (value.to_be_bytes(), value.to_le_bytes());
            bad[at..at + width].copy_from_slice(&be[8 - width..]);
            check(filter, cd, &bad, &format!("field {at} = {value:#x} (BE)"));
            bad[at..at + width].copy_from_slice(&le[..width]);
            check(filter, cd, &bad, &format!("field {at} = {value:#x} (LE)"));
        }
    }
    for cut in 0..valid.len().min(64) {
        check(filter, cd, &valid[..cut], &format!("cut at {cut}"));
    }
}

fn data() -> Vec<u8> {
    (0..20_000u32).flat_map(|i| (i / 7).to_le_bytes()).collect()
}

#[test]
fn blosc_claims_are_refused_before_allocating() {
    let data = data();
    let cd = [2, 2, 4, data.len() as u32, 5, 1, 1];
    let chunk = encode_to_vec(Filter::Blosc, &cd, &data).unwrap();
    bombs(
        Filter::Blosc,
        &cd,
        &chunk,
        &[(4, 4), (8, 4), (12, 4), (16, 4)],
    );
}

#[test]
fn lz4_claims_are_refused_before_allocating() {
    let data = data();
    for block in [0u32, 1000, 4096] {
        let cd = [block];
        let chunk = encode_to_vec(Filter::Lz4, &cd, &data).unwrap();
        bombs(Filter::Lz4, &cd, &chunk, &[(0, 8), (8, 4), (12, 4)]);
        // A header alone, stating 2^k bytes in blocks of several sizes.
        for k in 10..64 {
            for bs in [1u32, 4096, u32::MAX] {
                let mut h = (1u64 << k).to_be_bytes().to_vec();
                h.extend(bs.to_be_bytes());
                h.extend([0, 0, 0, 5, 0x50, 1, 2, 3, 4, 5]);
                check(
                    Filter::Lz4,
                    &cd,
                    &h,
                    &format!("claim 2^{k}, blocks of {bs}"),
                );
            }
        }
    }
}

#[test]
fn bitshuffle_claims_are_refused_before_allocating() {
    let data = data();
    for lz4 in [0, 2] {
        let cd = [0, 4, 4, 0, lz4];
        let chunk = encode_to_vec(Filter::Bitshuffle, &cd, &data).unwrap();
        bombs(Filter::Bitshuffle, &cd, &chunk, &[(0, 8), (8, 4), (12, 4)]);
    }
}
