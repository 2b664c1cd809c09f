//! Unit tests of the Masked VByte kernel and its private tables.
use super::{REJECT, SHUFFLES_X, STEPS, decode_bulk, decode_delta_bulk};
use crate::Isa;
use crate::vbyte::tables::{DECODE, SHUFFLE, SIX_END};
use crate::vbyte::{decode_delta_with, decode_with, encode_to_vec};

/// xorshift64: a tiny deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `n` values whose byte lengths are drawn from the set bits of `mix` (bit L-1 = L bytes).
fn values(rng: &mut Rng, n: usize, mix: u32) -> Vec<u32> {
    let lens: Vec<u32> = (1..=5).filter(|l| mix >> (l - 1) & 1 == 1).collect();
    (0..n)
        .map(|_| {
            let len = lens[rng.below(lens.len() as u64) as usize];
            let low = if len == 1 { 0 } else { 1u64 << (7 * (len - 1)) };
            let high = (1u64 << (7 * len)).min(1 << 32);
            (low + rng.below(high - low)) as u32
        })
        .collect()
}

/// Sse41 and Scalar give the same result and output for `n` values, plain and delta.
fn check(input: &[u8], n: usize, what: &str) {
    let run = |isa, delta| {
        let mut out = vec![0u32; n];
        let result = match delta {
            true => decode_delta_with(isa, input, &mut out, 7),
            false => decode_with(isa, input, &mut out),
        };
        (result, out)
    };
    for delta in [false, true] {
        let (want, got) = (run(Isa::Scalar, delta), run(Isa::Sse41, delta));
        assert_eq!(got, want, "{what}, n {n}, delta {delta}");
    }
}

/// Calls the kernels directly: bounds, progress on valid input, and `prev`.
fn check_kernel(input: &[u8], n: usize, what: &str) {
    let mut out = vec![0u32; n];
    // SAFETY: the callers test `Isa::Sse41.is_supported()` first.
    let (consumed, produced) = unsafe { decode_bulk(input, &mut out) };
    assert!(consumed <= input.len() && produced <= n, "{what}");
    assert!(
        produced + 32 >= n.min(input.len()),
        "{what}: only {produced} of {n}"
    );
    let mut prev = 7;
    // SAFETY: as above.
    let (c, p) = unsafe { decode_delta_bulk(input, &mut out, &mut prev) };
    assert_eq!((c, p), (consumed, produced), "{what}");
    assert_eq!(prev, if p == 0 { 7 } else { out[p - 1] }, "{what}");
}

/// STEPS is DECODE but for rejected windows, and every rejected window
/// has a continuation bit on byte 4 or 5, which REJECT moves under the
/// 2-value overflow check; SHUFFLES_X matches SHUFFLE but for the
/// 6-value layout.
#[test]
fn private_tables() {
    for (mask, (&step, &entry)) in STEPS.iter().zip(DECODE.iter()).enumerate() {
        if entry[0] == 0 {
            assert_eq!(step, [0, REJECT], "mask {mask:012b}");
            assert!(mask & 0b11_0000 != 0, "mask {mask:012b}");
        } else {
            assert_eq!(step, entry, "mask {mask:012b}");
        }
    }
    let reject = SHUFFLES_X[usize::from(REJECT)];
    assert_eq!((reject[6], reject[14]), (4, 5));
    for (i, (mine, theirs)) in SHUFFLES_X.iter().zip(SHUFFLE.iter()).enumerate() {
        if i >= usize::from(SIX_END) {
            assert_eq!(mine, theirs, "shuffle {i}");
            continue;
        }
        // Value k: bytes 2k, 2k + 1 of theirs; 16-bit lane 0, 2, 4, 6, 1, 3 of mine.
        for (k, lane) in [0, 2, 4, 6, 1, 3].into_iter().enumerate() {
            assert_eq!(mine[2 * lane..2 * lane + 2], theirs[2 * k..2 * k + 2]);
        }
        assert_eq!(theirs[12..], [0xff; 4]);
    }
}

#[test]
fn random_streams_match_scalar() {
    if !Isa::Sse41.is_supported() {
        return;
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut buf = vec![0u8; 5 * 2000 + 64];
    for mix in 1..32 {
        let mut sizes = vec![0, 1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 49, 64, 100, 1999];
        sizes.extend((0..4).map(|_| rng.below(2000) as usize));
        for n in sizes {
            let bytes = encode_to_vec(&values(&mut rng, n, mix));
            let offset = 1 + 2 * rng.below(32) as usize;
            buf[offset..offset + bytes.len()].copy_from_slice(&bytes);
            let input = &buf[offset..offset + bytes.len()];
            let what = format!("mix {mix:05b}, offset {offset}");
            check(input, n, &what);
            check(input, n / 2, &what); // room for only part of the stream
            check_kernel(input, n, &what);
        }
    }
}

#[test]
fn invalid_varint_at_every_position() {
    if !Isa::Sse41.is_supported() {
        return;
    }
    let mut rng = Rng(12345);
    let mut bad: Vec<Vec<u8>> = vec![vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x01]];
    bad.extend((0x10..=0x7f).map(|e| vec![0xff, 0xff, 0xff, 0xff, e]));
    for mix in [0b00001, 0b00011, 0b00111, 0b11111, 0b10001] {
        let vals = values(&mut rng, 80, mix);
        for k in 0..vals.len() {
            for (b, bytes) in bad.iter().enumerate() {
                if b > 1 && rng.below(8) != 0 {
                    continue; // a sample of the 5th-byte values at each position
                }
                let mut input = encode_to_vec(&vals[..k]);
                input.extend_from_slice(bytes);
                input.extend(encode_to_vec(&vals[k + 1..]));
                let what = format!("mix {mix:05b}, bad value {k}: {bytes:02x?}");
                check(&input, vals.len(), &what);
            }
        }
    }
}

#[test]
fn largest_values_and_truncated_streams() {
    if !Isa::Sse41.is_supported() {
        return;
    }
    let mut rng = Rng(777);
    let top = [u32::MAX, u32::MAX - 1, 1 << 31, 1 << 28, (1 << 28) - 1, 0];
    let vals: Vec<u32> = (0..70).map(|i| top[i % top.len()]).collect();
    let bytes = encode_to_vec(&vals);
    check(&bytes, vals.len(), "largest values");
    check_kernel(&bytes, vals.len(), "largest values");
    for mix in [0b00001, 0b00011, 0b11111] {
        let vals = values(&mut rng, 90, mix);
        let bytes = encode_to_vec(&vals);
        for cut in 0..bytes.len() {
            check(
                &bytes[..cut],
                vals.len(),
                &format!("mix {mix:05b}, cut at {cut}"),
            );
        }
    }
}
