//! Generators shared by the cross-ISA tests.
#![allow(dead_code)]

pub mod data;

use std::process::{Command, Stdio};

use vecpress::lz4::frame::{BlockSize, FrameInfo};

/// A small deterministic generator (xorshift64*), so failures name a seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A u32 whose VByte form takes exactly `len` (1..=5) bytes.
    pub fn u32_of_len(&mut self, len: u32) -> u32 {
        let lo = if len == 1 { 0 } else { 1u64 << (7 * (len - 1)) };
        let hi = if len == 5 {
            1u64 << 32
        } else {
            1u64 << (7 * len)
        };
        (lo + self.below(hi - lo)) as u32
    }

    /// A u64 whose VByte form takes exactly `len` (1..=10) bytes.
    pub fn u64_of_len(&mut self, len: u32) -> u64 {
        let lo: u128 = if len == 1 {
            0
        } else {
            1u128 << (7 * (len - 1))
        };
        let hi: u128 = if len == 10 {
            1u128 << 64
        } else {
            1u128 << (7 * len)
        };
        let span = hi - lo;
        let r = ((self.next_u64() as u128) << 64 | self.next_u64() as u128) % span;
        (lo + r) as u64
    }

    /// A u32 that takes exactly `len` (1..=4) bytes as a little-endian
    /// integer with its high zero bytes dropped (the group varints' lengths).
    pub fn u32_of_bytes(&mut self, len: u32) -> u32 {
        let lo = if len == 1 { 0 } else { 1u64 << (8 * (len - 1)) };
        let hi = 1u64 << (8 * len);
        (lo + self.below(hi - lo)) as u32
    }

    /// `n` values whose byte lengths (1..=4, as [`Rng::u32_of_bytes`]) are
    /// drawn from the set bits of `mix` (bit 0 = one byte ... bit 3 = four).
    pub fn values_with_byte_mix(&mut self, n: usize, mix: u32) -> Vec<u32> {
        let lens: Vec<u32> = (1..=4).filter(|l| mix & (1 << (l - 1)) != 0).collect();
        (0..n)
            .map(|_| {
                let len = lens[self.below(lens.len() as u64) as usize];
                self.u32_of_bytes(len)
            })
            .collect()
    }

    /// `n` values whose byte lengths are drawn from the set bits of `mix`
    /// (bit 0 = one byte ... bit 4 = five bytes).
    pub fn values_with_mix(&mut self, n: usize, mix: u32) -> Vec<u32> {
        let lens: Vec<u32> = (1..=5).filter(|l| mix & (1 << (l - 1)) != 0).collect();
        (0..n)
            .map(|_| {
                let len = lens[self.below(lens.len() as u64) as usize];
                self.u32_of_len(len)
            })
            .collect()
    }
}

/// Lengths that put every kernel at and around its register and block sizes.
pub fn lengths() -> Vec<usize> {
    let mut v = vec![0, 1, 2, 3];
    for edge in [4usize, 6, 8, 12, 16, 32, 48, 64, 128, 256] {
        v.extend([edge - 1, edge, edge + 1]);
    }
    v.extend([1000, 4095, 4096, 4097]);
    v.sort_unstable();
    v.dedup();
    v
}

/// Every non-empty mix of byte lengths 1..=5.
pub fn mixes() -> impl Iterator<Item = u32> {
    1..32u32
}

/// `bytes` copied to offset `offset` of a larger buffer, as a slice of exactly
/// its length (so kernels see unaligned starts and no readable slack).
pub fn at_offset(bytes: &[u8], offset: usize) -> (Vec<u8>, usize) {
    let mut buf = vec![0xAAu8; offset + bytes.len()];
    buf[offset..].copy_from_slice(bytes);
    (buf, offset)
}

/// The running sum of `gaps` from `prev`, wrapping: what delta decoding gives.
pub fn running_sum(gaps: impl Iterator<Item = u32>, prev: u32) -> Vec<u32> {
    gaps.scan(prev, |p, g| {
        *p = p.wrapping_add(g);
        Some(*p)
    })
    .collect()
}

/// Text-like bytes: words from a small vocabulary, so that LZ77 finds
/// matches at many distances, as in prose.
pub fn text_like(n: usize, seed: u64) -> Vec<u8> {
    const WORDS: [&str; 24] = [
        "the",
        "of",
        "and",
        "to",
        "in",
        "compression",
        "a",
        "block",
        "frame",
        "is",
        "that",
        "window",
        "for",
        "it",
        "with",
        "as",
        "was",
        "on",
        "match",
        "literal",
        "be",
        "at",
        "by",
        "offset",
    ];
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n + 16);
    while out.len() < n {
        let word = WORDS[rng.below(WORDS.len() as u64) as usize];
        out.extend_from_slice(word.as_bytes());
        out.push(match rng.below(12) {
            0 => b'\n',
            1 => b',',
            _ => b' ',
        });
    }
    out.truncate(n);
    out
}

/// Uniformly random bytes: incompressible.
pub fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.next_u64() as u8).collect()
}

/// Long runs and a short repeating pattern: very compressible.
pub fn repetitive(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let run = 1 + rng.below(300) as usize;
        if rng.below(2) == 0 {
            out.extend(std::iter::repeat_n(rng.next_u64() as u8, run));
        } else {
            out.extend((0..run).map(|i| b"0123456789abcdef"[i % 16]));
        }
    }
    out.truncate(n);
    out
}

/// Files of the Canterbury and Silesia corpora in the data folder, with at
/// most `max_len` bytes of each; empty without them (a failure under CI:
/// see [`data::folder`]).
pub fn corpus_files(max_len: usize) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for corpus in ["canterbury", "silesia"] {
        let Some(dir) = data::folder(corpus, "the checks on real files") else {
            continue;
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if let Ok(mut bytes) = std::fs::read(&path) {
                bytes.truncate(max_len);
                files.push((path.display().to_string(), bytes));
            }
        }
    }
    files
}

/// Every combination of the LZ4 frame header's options, for one block size
/// (a content size, when set, is a placeholder the one-shot encoders fill).
pub fn infos(size: BlockSize) -> impl Iterator<Item = FrameInfo> {
    (0..16u32).map(move |bits| {
        FrameInfo::new()
            .block_size(size)
            .independent_blocks(bits & 1 != 0)
            .block_checksums(bits & 2 != 0)
            .content_checksum(bits & 4 != 0)
            .content_size((bits & 8 != 0).then_some(0))
    })
}

/// [`infos`] for every block size.
pub fn all_infos() -> impl Iterator<Item = FrameInfo> {
    BlockSize::ALL.into_iter().flat_map(infos)
}

/// Text-like, random and repetitive bytes, `n` of each.
pub fn kinds(n: usize, seed: u64) -> [(&'static str, Vec<u8>); 3] {
    [
        ("text", text_like(n, seed)),
        ("random", random_bytes(n, seed)),
        ("repetitive", repetitive(n, seed)),
    ]
}

/// A legacy LZ4 frame (magic 0x184C2102) whose blocks are LZ4 blocks of
/// `data`, 8 MiB each.
pub fn legacy_frame(data: &[u8]) -> Vec<u8> {
    let mut out = 0x184C_2102u32.to_le_bytes().to_vec();
    for chunk in data.chunks(8 << 20) {
        let block = vecpress::lz4::block::compress(chunk);
        out.extend((block.len() as u32).to_le_bytes());
        out.extend(block);
    }
    out
}

/// Whether the `lz4` command can be run to check interop with it; says why
/// not on stderr when it cannot, and fails under CI (`CI` set), whose
/// machine installs it (`.ci/run`), as a missing data folder does. Under an
/// emulator (`VECPRESS_TEST_EMULATED`, set by scripts/test-aarch64.sh) no
/// command is spawned: qemu-user can deadlock in a fork while other threads
/// of the test are translating code, and the native run of the same tests
/// covers the interop.
pub fn lz4_command() -> bool {
    if std::env::var_os("VECPRESS_TEST_EMULATED").is_some() {
        eprintln!(
            "note: under an emulator; interop with the lz4 command is left to the native run"
        );
        return false;
    }
    let found = Command::new("lz4")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
            panic!("the lz4 command is not on PATH under CI: interop with it cannot run");
        }
        eprintln!("note: the lz4 command is not on PATH; interop with it is skipped");
    }
    found
}
