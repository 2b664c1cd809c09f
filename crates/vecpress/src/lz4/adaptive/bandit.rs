//! The bandit's arms: what is known of each variant, and the draws from its
//! posterior (see the [module above](super)).

use super::{COLD_CALLS, PRIOR_WEIGHT, VariantStats};
use crate::lz4::block::Variant;

/// One arm of the bandit.
#[derive(Debug, Clone)]
pub(super) struct Arm {
    pub(super) variant: Variant,
    pub(super) calls: u64,
    pub(super) timed: u64,
    pub(super) weight: f64,
    pub(super) sum: f64,
    /// Decayed sums of the times per byte clipped to within half the arm's
    /// mean, and of their squares, for the spread (see [`Arm::observe`]).
    pub(super) sum_clipped: f64,
    pub(super) sum_sq: f64,
}

impl Arm {
    pub(super) fn stats(&self) -> VariantStats {
        VariantStats {
            variant: self.variant,
            calls: self.calls,
            timed: self.timed,
            weight: self.weight,
            seconds_per_byte: self.mean(),
        }
    }

    pub(super) fn mean(&self) -> Option<f64> {
        (self.weight > 0.0).then(|| self.sum / self.weight)
    }

    /// Counts an observation of `per_byte` seconds a byte. The mean takes
    /// it as it is; the spread takes it clipped to within half the mean so
    /// far: one call slowed by an interrupt or another process (10x, say)
    /// would otherwise count in the spread as hundreds of ordinary calls,
    /// and keep every arm's draws wide, and the slower arms tried, for as
    /// long as its weight lasts.
    pub(super) fn observe(&mut self, per_byte: f64) {
        let clipped = match self.mean() {
            Some(m) => per_byte.clamp(0.5 * m, 1.5 * m),
            None => per_byte,
        };
        self.weight += 1.0;
        self.sum += per_byte;
        self.sum_clipped += clipped;
        self.sum_sq += clipped * clipped;
    }

    /// Multiplies every weight and sum by `decay`.
    pub(super) fn decay(&mut self, decay: f64) {
        self.weight *= decay;
        self.sum *= decay;
        self.sum_clipped *= decay;
        self.sum_sq *= decay;
    }

    /// A draw of this arm's time per byte; negative (preferred) while it
    /// has fewer than two counted calls.
    pub(super) fn sample(&self, rng: &mut Rng) -> f64 {
        let counted = self.timed.saturating_sub(COLD_CALLS);
        if counted < 2 {
            return counted as f64 - 2.0;
        }
        let mean = self.sum / self.weight;
        let clipped_mean = self.sum_clipped / self.weight;
        let observed = (self.sum_sq / self.weight - clipped_mean * clipped_mean).max(0.0);
        let prior = 0.01 * mean * mean;
        let var = (observed * self.weight + prior * PRIOR_WEIGHT) / (self.weight + PRIOR_WEIGHT);
        mean + rng.normal() * (var / self.weight).sqrt()
    }
}

/// xorshift64*: enough randomness for sampling, no dependency.
#[derive(Debug, Clone)]
pub(super) struct Rng(u64);

impl Rng {
    /// A generator seeded from the clock and a counter, so that decompressors
    /// made at once differ.
    pub(super) fn seeded() -> Rng {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0x9E37_79B9_7F4A_7C15);
        let c = COUNTER.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng((c ^ t.rotate_left(32)) | 1)
    }

    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in (0, 1].
    fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// A standard normal draw (Box-Muller).
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.unit(), self.unit());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_draws_have_mean_zero_and_unit_spread() {
        let mut rng = Rng(12345);
        let n = 100_000;
        let draws: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let var = draws.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.02, "mean {mean}");
        assert!((var - 1.0).abs() < 0.03, "variance {var}");
    }

    #[test]
    fn untried_arms_come_first_fewest_first() {
        let mut rng = Rng(1);
        let arm = |timed| Arm {
            variant: Variant::Copy8,
            calls: timed,
            timed,
            weight: timed.saturating_sub(COLD_CALLS) as f64,
            sum: 1e-9 * timed.saturating_sub(COLD_CALLS) as f64,
            sum_clipped: 1e-9 * timed.saturating_sub(COLD_CALLS) as f64,
            sum_sq: 1e-18 * timed.saturating_sub(COLD_CALLS) as f64,
        };
        assert!(arm(0).sample(&mut rng) < arm(3).sample(&mut rng));
        assert!(arm(3).sample(&mut rng) < 0.0);
        assert!(arm(10).sample(&mut rng) > -1.0);
    }

    /// An arm with `n` observations of mean `mean` and relative spread `cv`.
    fn observed(n: f64, mean: f64, cv: f64) -> Arm {
        Arm {
            variant: Variant::Copy8,
            calls: n as u64 + COLD_CALLS,
            timed: n as u64 + COLD_CALLS,
            weight: n,
            sum: n * mean,
            sum_clipped: n * mean,
            sum_sq: n * mean * mean * (1.0 + cv * cv),
        }
    }

    #[test]
    fn a_slower_arm_with_a_tight_spread_rarely_wins_a_draw() {
        let mut rng = Rng(7);
        let (fast, slow) = (observed(50.0, 1.0, 0.05), observed(50.0, 1.05, 0.05));
        let wins = (0..10_000)
            .filter(|_| slow.sample(&mut rng) < fast.sample(&mut rng))
            .count();
        // The draws' spread is about 0.05 / sqrt(50) = 0.7%: a 5% gap is
        // crossed far less than once in a thousand draws.
        assert!(wins < 10, "{wins}");
        // With a wide observed spread the same gap is explored often.
        let (fast, slow) = (observed(50.0, 1.0, 0.5), observed(50.0, 1.05, 0.5));
        let wins = (0..10_000)
            .filter(|_| slow.sample(&mut rng) < fast.sample(&mut rng))
            .count();
        assert!(wins > 1000, "{wins}");
    }

    #[test]
    fn timing_outliers_do_not_widen_the_draws() {
        // Two arms 5% apart, 2% spread from call to call; the faster one's
        // calls include a 20x outlier every 50 calls (an interrupt).
        let mut rng = Rng(21);
        let mut noise = Rng(5);
        let (mut fast, mut slow) = (observed(0.0, 0.0, 0.0), observed(0.0, 0.0, 0.0));
        fast.timed = COLD_CALLS;
        slow.timed = COLD_CALLS;
        for k in 0..400 {
            let jitter = 1.0 + 0.02 * noise.normal();
            let outlier = if k % 50 == 7 { 20.0 } else { 1.0 };
            fast.observe(1.0 * jitter * outlier);
            slow.observe(1.05 * jitter);
            fast.timed += 1;
            slow.timed += 1;
        }
        // The outliers move the mean (8 of 400 calls at 20x: +38%) but not
        // the spread: the draws stay narrow.
        let mut spread = |arm: &Arm| {
            let draws: Vec<f64> = (0..2000).map(|_| arm.sample(&mut rng)).collect();
            let m = draws.iter().sum::<f64>() / 2000.0;
            (draws.iter().map(|d| (d - m) * (d - m)).sum::<f64>() / 2000.0).sqrt() / m
        };
        let (f, s) = (spread(&fast), spread(&slow));
        assert!(f < 0.01 && s < 0.01, "fast {f}, slow {s}");
        assert!(fast.mean().unwrap() > 1.3, "{:?}", fast.mean());
    }

    #[test]
    fn the_prior_keeps_two_lucky_calls_from_shutting_an_arm_out() {
        let mut rng = Rng(9);
        // Two identical observations: no observed spread, so the prior's
        // 10% of the mean sets it.
        let (lucky, other) = (observed(2.0, 1.03, 0.0), observed(2.0, 1.0, 0.0));
        let wins = (0..10_000)
            .filter(|_| lucky.sample(&mut rng) < other.sample(&mut rng))
            .count();
        assert!((1000..5000).contains(&wins), "{wins}");
    }
}
