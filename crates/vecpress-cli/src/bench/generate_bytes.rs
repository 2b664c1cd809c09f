//! Built-in inputs for the byte codecs, deterministic (each seeded from its
//! own name).
//!
//! - `f64-walk`, `f32-walk`: a random walk rounded to hundredths, as sensor
//!   readings and prices are: the sign, exponent and high mantissa bytes
//!   repeat, the low bytes do not; what byte stream split is for.
//! - `f64-uniform`: doubles uniform in [0, 1): the hard case, little to gain.
//! - `decimal-wN` (with `--type wN`): N-byte big-endian two's complement
//!   integers, as Parquet stores DECIMAL in FIXED_LEN_BYTE_ARRAY(N): a walk
//!   of prices in cents, so the high bytes repeat (sign extension) and the
//!   low ones do not.
//! - `text`: words drawn from a small vocabulary with Zipf-like frequencies,
//!   spaces and line breaks: repetitive like natural text, for LZ4.
#![forbid(unsafe_code)]

use super::elem::Elem;

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
    /// Big-endian decimals of the element's width (only with `--type wN`).
    Decimal(Elem),
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
    pub fn name(&self) -> String {
        match self {
            ByteGenerator::F64Walk => "f64-walk".into(),
            ByteGenerator::F32Walk => "f32-walk".into(),
            ByteGenerator::F64Uniform => "f64-uniform".into(),
            ByteGenerator::Text => "text".into(),
            ByteGenerator::Decimal(e) => format!("decimal-w{}", e.width),
        }
    }

    /// The element type of its values.
    pub fn elem(&self) -> Elem {
        match self {
            ByteGenerator::F64Walk | ByteGenerator::F64Uniform => Elem::F64,
            ByteGenerator::F32Walk => Elem::F32,
            ByteGenerator::Text => Elem::BYTES,
            ByteGenerator::Decimal(e) => *e,
        }
    }

    /// `n` values (bytes for `text`), little-endian.
    pub fn generate(&self, n: usize) -> Vec<u8> {
        let mut rng = Rng::new(&self.name());
        match self {
            ByteGenerator::F64Walk => walk(&mut rng, n).flat_map(|v| v.to_le_bytes()).collect(),
            ByteGenerator::F32Walk => walk(&mut rng, n)
                .flat_map(|v| (v as f32).to_le_bytes())
                .collect(),
            ByteGenerator::F64Uniform => (0..n)
                .flat_map(|_| ((rng.next() >> 11) as f64 / (1u64 << 53) as f64).to_le_bytes())
                .collect(),
            ByteGenerator::Text => text(&mut rng, n),
            ByteGenerator::Decimal(e) => decimals(&mut rng, n, e.width),
        }
    }
}

/// `n` big-endian two's complement integers of `width` bytes: a walk of
/// cents from 10000.00 in steps of -5.00..5.00, wrapped into the width's
/// range when it is narrower than the walk.
fn decimals(rng: &mut Rng, n: usize, width: usize) -> Vec<u8> {
    let bits = 8 * width.min(16) as u32;
    let mut x: i128 = 1_000_000;
    let mut out = Vec::with_capacity(n * width);
    for _ in 0..n {
        x += (rng.next() % 1001) as i128 - 500;
        // Keep the low `bits` bits, sign-extended (a no-op where the value fits).
        let v = if bits >= 128 {
            x
        } else {
            (x << (128 - bits)) >> (128 - bits)
        };
        let be = v.to_be_bytes();
        let sign = if v < 0 { 0xff } else { 0 };
        out.extend(std::iter::repeat_n(sign, width.saturating_sub(16)));
        out.extend_from_slice(&be[16 - width.min(16)..]);
    }
    out
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
        assert!(
            text.iter()
                .all(|b| b.is_ascii_lowercase() || *b == b' ' || *b == b'\n')
        );
        let walk = ByteGenerator::F64Walk.generate(100);
        let first = f64::from_le_bytes(walk[..8].try_into().unwrap());
        assert!((19.0..=21.0).contains(&first));
    }

    #[test]
    fn decimals_are_big_endian_and_sign_extended() {
        for width in [1, 3, 5, 8, 12, 16, 20] {
            let g = ByteGenerator::Decimal(Elem::fixed(width));
            let a = g.generate(500);
            assert_eq!(a.len(), 500 * width, "{width}");
            assert_eq!(a, g.generate(500));
            if width >= 4 {
                // The walk stays near 1_000_000 cents: positive, and it fits
                // in 4 bytes, so every higher byte is a zero sign byte.
                for v in a.chunks(width) {
                    let (high, low) = v.split_at(width - 4);
                    assert!(high.iter().all(|&b| b == 0), "{width}: {v:?}");
                    let x = u32::from_be_bytes(low.try_into().unwrap());
                    assert!((500_000..1_500_000).contains(&x), "{width}: {x}");
                }
            }
        }
    }
}
