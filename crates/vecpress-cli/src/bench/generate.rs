//! Built-in inputs, deterministic (each seeded from its own name).
//!
//! - `uniform-gap-bits-BB` (BB = 01..32): gaps drawn uniformly from
//!   `[1, 2^BB)`, so about half of them take exactly BB bits; the sorted list
//!   is their running sum (wrapping modulo 2^32 for wide gaps, as the delta
//!   codecs do).
//! - `cluster-gap-bits-BB` (BB = 02, 05, 08, 11): ClusterData-like sorted
//!   lists (Anh & Moffat, *Inverted index compressed using word-aligned binary
//!   codes*, 2005; the generator of Lemire's FastPFor benchmarks): n distinct
//!   values in `[0, n * 2^BB)` (at most 2^32) placed by recursive splitting:
//!   the middle value of each sub-list falls uniformly where it fits, so dense
//!   clusters alternate with sparse stretches. The mean gap is about 2^BB.
//!
//! Delta codecs encode the sorted list; plain codecs encode its gaps.
#![forbid(unsafe_code)]

/// One built-in input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generator {
    /// Gaps uniform in `[1, 2^bits)`.
    UniformGap {
        /// Bit width of the widest gap, 1..=32.
        bits: u32,
    },
    /// ClusterData-like sorted list with a mean gap of about `2^bits`.
    Cluster {
        /// log2 of the value range over the count.
        bits: u32,
    },
}

/// The mean-gap widths of the cluster inputs.
const CLUSTER_BITS: [u32; 4] = [2, 5, 8, 11];

impl Generator {
    /// Every built-in input, in the order the table shows them.
    pub fn all() -> Vec<Generator> {
        let uniform = (1..=32).map(|bits| Generator::UniformGap { bits });
        let cluster = CLUSTER_BITS.iter().map(|&bits| Generator::Cluster { bits });
        uniform.chain(cluster).collect()
    }

    /// The input's name in the table and in JSON.
    pub fn name(&self) -> String {
        match self {
            Generator::UniformGap { bits } => format!("uniform-gap-bits-{bits:02}"),
            Generator::Cluster { bits } => format!("cluster-gap-bits-{bits:02}"),
        }
    }

    /// `n` values: (the sorted list, its gaps from 0).
    pub fn generate(&self, n: usize) -> (Vec<u32>, Vec<u32>) {
        let mut rng = SplitMix64::new(fnv1a(self.name().as_bytes()));
        match *self {
            Generator::UniformGap { bits } => {
                let width = (1u64 << bits) - 1; // gaps in [1, 2^bits)
                let gaps: Vec<u32> = (0..n).map(|_| 1 + rng.below(width) as u32).collect();
                let mut sorted = gaps.clone();
                vecpress::delta::prefix_sum_in_place(&mut sorted, 0);
                (sorted, gaps)
            }
            Generator::Cluster { bits } => {
                let range = ((n as u64) << bits).clamp(n as u64, 1 << 32);
                let mut sorted = vec![0u32; n];
                cluster(&mut rng, &mut sorted, 0, range);
                let mut gaps = sorted.clone();
                vecpress::delta::encode_in_place(&mut gaps, 0);
                (sorted, gaps)
            }
        }
    }
}

/// Fills `out` with distinct increasing values in `[lo, hi)` (needs
/// `hi - lo >= out.len()`): the middle slot takes a value uniformly among those
/// leaving room for both halves, then each half recurses. Depth is log2(len).
fn cluster(rng: &mut SplitMix64, out: &mut [u32], lo: u64, hi: u64) {
    let n = out.len() as u64;
    if n == 0 {
        return;
    }
    let spare = hi - lo - n; // values in the range that stay unused
    if spare == 0 {
        for (v, i) in out.iter_mut().zip(lo..) {
            *v = i as u32;
        }
        return;
    }
    let half = out.len() / 2;
    let mid = lo + half as u64 + rng.below(spare + 1);
    out[half] = mid as u32;
    let (left, right) = out.split_at_mut(half);
    cluster(rng, left, lo, mid);
    cluster(rng, &mut right[1..], mid + 1, hi);
}

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and good enough here.
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, n)` for `n <= 2^32` (multiply-shift; bias below 2^-32).
    fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n <= 1 << 32);
        ((self.next() >> 32) * n) >> 32
    }
}

/// FNV-1a, to seed each generator from its name.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_gaps_have_their_width() {
        for bits in 1..=32 {
            let (sorted, gaps) = Generator::UniformGap { bits }.generate(10_000);
            assert!(gaps.iter().all(|&g| g >= 1 && u64::from(g) < 1 << bits));
            let widest = gaps.iter().map(|g| 32 - g.leading_zeros()).max();
            assert_eq!(widest, Some(bits), "bits {bits}");
            assert_eq!(sorted[0], gaps[0]);
        }
    }

    #[test]
    fn cluster_is_sorted_distinct_in_range() {
        for n in [0, 1, 2, 3, 1000, 4097] {
            for bits in CLUSTER_BITS {
                let (sorted, _) = Generator::Cluster { bits }.generate(n);
                assert_eq!(sorted.len(), n);
                assert!(sorted.windows(2).all(|w| w[0] < w[1]));
                assert!(sorted.iter().all(|&v| u64::from(v) < (n as u64) << bits));
            }
        }
    }

    #[test]
    fn deterministic() {
        let g = Generator::Cluster { bits: 8 };
        assert_eq!(g.generate(5000), g.generate(5000));
    }
}
