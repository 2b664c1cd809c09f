//! Built-in inputs for the byte codecs, deterministic (each seeded from its
//! own name).
//!
//! - `f64-walk`, `f32-walk`: a random walk rounded to hundredths, as sensor
//!   readings and prices are: the sign, exponent and high mantissa bytes
//!   repeat, the low bytes do not; what byte stream split is for.
//! - `f64-uniform`: doubles uniform in [0, 1): the hard case, little to gain.
//! - `text`: words drawn from a small vocabulary with Zipf-like frequencies,
//!   spaces and line breaks: repetitive like natural text, for LZ4.
#![forbid(unsafe_code)]

use super::bytes::Elem;

/// One built-in byte input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteGenerator {
    /// Random walk of f64 rounded to 0.01.
    F64Walk,
    /// Random walk of f32 rounded to 0.01.
    F32Walk,
    /// f64 uniform in [0, 1).
    F64Uniform,
    /// Zipf-like words.
    Text,
}

impl ByteGenerator {
    /// Every built-in byte input, in table order.
    pub fn all() -> [ByteGenerator; 4] {
        [
            ByteGenerator::F64Walk,
            ByteGenerator::F32Walk,
            ByteGenerator::F64Uniform,
            ByteGenerator::Text,
        ]
    }

    /// The input's name in the table and in JSON.
    pub fn name(&self) -> &'static str {
        match self {
            ByteGenerator::F64Walk => "f64-walk",
            ByteGenerator::F32Walk => "f32-walk",
            ByteGenerator::F64Uniform => "f64-uniform",
            ByteGenerator::Text => "text",
        }
    }

    /// The element type of its values.
    pub fn elem(&self) -> Elem {
        match self {
            ByteGenerator::F64Walk | ByteGenerator::F64Uniform => Elem::F64,
            ByteGenerator::F32Walk => Elem::F32,
            ByteGenerator::Text => Elem::BYTES,
        }
    }

    /// `n` values (bytes for `text`), little-endian.
    pub fn generate(&self, n: usize) -> Vec<u8> {
        let mut rng = Rng::new(self.name());
        match self {
            ByteGenerator::F64Walk => walk(&mut rng, n).flat_map(|v| v.to_le_bytes()).collect(),
            ByteGenerator::F32Walk => walk(&mut rng, n)
                .flat_map(|v| (v as f32).to_le_bytes())
                .collect(),
            ByteGenerator::F64Uniform => (0..n)
                .flat_map(|_| ((rng.next() >> 11) as f64 / (1u64 << 53) as f64).to_le_bytes())
                .collect(),
            ByteGenerator::Text => text(&mut rng, n),
        }
    }
}

/// A walk from 20.0 in steps of -0.5..0.5, rounded to hundredths.
fn walk(rng: &mut Rng, n: usize) -> impl Iterator<Item = f64> + '_ {
    let mut x = 20.0f64;
    (0..n).map(move |_| {
        x += (rng.next() % 101) as f64 / 100.0 - 0.5;
        (x * 100.0).round() / 100.0
    })
}

/// `n` bytes of words, rank r drawn with weight about 1/r.
fn text(rng: &mut Rng, n: usize) -> Vec<u8> {
    const SYLLABLES: [&str; 16] = [
        "the", "an", "of", "in", "ter", "con", "ing", "ed", "re", "al", "ion", "to", "st", "er",
        "at", "or",
    ];
    let words: Vec<String> = (0..2048u64)
        .map(|w| {
            let mut h = w.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let len = 1 + (h % 3) as usize;
            (0..len)
                .map(|_| {
                    h = h.rotate_left(17).wrapping_mul(0xff51_afd7_ed55_8ccd);
                    SYLLABLES[(h % 16) as usize]
                })
                .collect()
        })
        .collect();
    let mut out = Vec::with_capacity(n + 32);
    let mut line = 0;
    while out.len() < n {
        // Inverse of a 1/r law: rank = 2048^u - 1 for u uniform in [0, 1).
        let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
        let rank = (2048f64.powf(u) - 1.0) as usize;
        out.extend_from_slice(words[rank.min(2047)].as_bytes());
        line += 1;
        out.push(if line % 12 == 0 { b'\n' } else { b' ' });
    }
    out.truncate(n);
    out
}

/// SplitMix64, seeded from a name.
struct Rng(u64);

impl Rng {
    fn new(name: &str) -> Rng {
        Rng(name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        }))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_determinism() {
        for g in ByteGenerator::all() {
            let a = g.generate(1000);
            assert_eq!(a.len(), 1000 * g.elem().width, "{}", g.name());
            assert_eq!(a, g.generate(1000), "{}", g.name());
        }
        let text = ByteGenerator::Text.generate(10_000);
        assert!(text
            .iter()
            .all(|b| b.is_ascii_lowercase() || *b == b' ' || *b == b'\n'));
        let walk = ByteGenerator::F64Walk.generate(100);
        let first = f64::from_le_bytes(walk[..8].try_into().unwrap());
        assert!((19.0..=21.0).contains(&first));
    }
}
