//! Choosing the decoding loop at run time: a multi-armed bandit with Thompson
//! sampling, as ClickHouse does (A. Milovidov, *How to speed up LZ4
//! decompression in ClickHouse*, 2018).
//!
//! Which [`Variant`] is fastest depends on the data (short or long matches,
//! close or far offsets) and on the CPU, so no fixed choice wins everywhere.
//! [`AdaptiveDecompressor`] times its decodes and keeps, per variant, a count
//! and a sum of seconds per byte. Its arms come in the order of
//! [`tune::lz4_arms`](crate::tune::lz4_arms): the first is the loop this
//! CPU's performance record shows fastest, so decoding is fast from the
//! first block, and the others are tried rarely. For each block of at least
//! [`MIN_TIMED_BLOCK`] bytes of output it picks a variant this way:
//!
//! 1. the first [`COLD_CALLS`] calls of each variant are timed but not
//!    counted (cold caches and branch predictors);
//! 2. all but one timed call in [`EXPLORE_EVERY`] run the leader: the first
//!    arm until another has a mean, then the arm with the lowest mean, kept
//!    until another's is lower by [`SWITCH_MARGIN`] (switching loops costs
//!    their warm branch history, so noise must not make them take turns);
//! 3. the others explore: a variant with fewer than two counted calls is
//!    chosen first (the one with fewest first);
//! 4. once all have them, each variant draws a time per byte from N(mean, sd /
//!    sqrt(n)), the posterior of its mean after n observations whose spread
//!    from block to block is sd, and the smallest draw wins. sd is the
//!    observed spread (of the times clipped to within half the mean, so
//!    that a call an interrupt slowed does not widen it) blended with a
//!    prior of 10% of the mean, worth
//!    [`PRIOR_WEIGHT`] observations, so that two lucky first calls do not
//!    shut a variant out. A variant 5% slower than the best is then chosen
//!    a few percent of the time, not a quarter of it as with a spread of
//!    the whole mean.
//!
//! Smaller blocks are too short to time well: they use the leader,
//! untimed. After every counted call all weights decay by
//! a factor (default [`DEFAULT_DECAY`]), so that old observations fade, a
//! variant that has not run for a while grows uncertain and is tried again,
//! and the choice follows a workload that changes.
//!
//! [`AdaptiveDecompressor::decompress_pair`] decodes two blocks at once
//! ([`block::decompress_pair`]) with the same bandit over a second set of
//! arms: a loop runs at other speeds over two blocks than over one, and
//! mixing the two kinds of calls in one mean would favor whichever arm ran
//! more pairs.
//!
//! Statistics live in an `Arc<Mutex<..>>`, shared by every decompressor made
//! with [`AdaptiveDecompressor::share`] (one per thread): one lock per timed
//! block of 32 KiB or more, which takes microseconds to decode, costs nothing
//! measurable, and keeps each variant's count and sum consistent with each
//! other (atomics would need a loop of compare-and-swap over two floats).
//!
//! ```
//! use vecpress::lz4::{adaptive::AdaptiveDecompressor, block};
//!
//! let data = b"adaptive lz4 decoding, adaptive lz4 decoding! ".repeat(2000);
//! let packed = block::compress(&data);
//! let mut dec = AdaptiveDecompressor::new();
//! let mut out = vec![0u8; data.len()];
//! for _ in 0..20 {
//!     assert_eq!(dec.decompress_into(&packed, &mut out)?, data.len());
//! }
//! assert_eq!(out, data);
//! let calls: u64 = dec.stats().iter().map(|s| s.calls).sum();
//! assert_eq!(calls, 20);
//! # Ok::<(), vecpress::Error>(())
//! ```

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::block::{self, Variant};
use crate::Error;

mod bandit;
use bandit::{Arm, Rng};

/// Blocks with less output than this are not timed.
pub const MIN_TIMED_BLOCK: usize = 32 * 1024;
/// Calls of each variant timed but not counted, at the start.
pub const COLD_CALLS: u64 = 2;
/// How much faster (as a share of its time per byte) another arm must be
/// for the leader to change: see `follow_leader`.
pub const SWITCH_MARGIN: f64 = 0.03;
/// One timed call in this many explores (Thompson sampling over every
/// arm); the others run the leader. Trying every arm in turn first made
/// inputs of a few dozen blocks pay for exploring that never paid back.
pub const EXPLORE_EVERY: u64 = 8;
/// How many observations the prior spread (10% of the mean) is worth.
pub const PRIOR_WEIGHT: f64 = 4.0;
/// The factor every weight is multiplied by after each counted call: old
/// observations lose half their weight after about 700 calls.
pub const DEFAULT_DECAY: f64 = 0.999;

/// What the decompressor knows about one variant.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantStats {
    /// The variant.
    pub variant: Variant,
    /// Calls that used it, timed or not.
    pub calls: u64,
    /// Timed calls (cold ones included).
    pub timed: u64,
    /// The decayed number of counted observations behind the mean.
    pub weight: f64,
    /// Mean decoding time per output byte, in seconds (None before any
    /// counted observation).
    pub seconds_per_byte: Option<f64>,
}

impl VariantStats {
    /// Decoding speed in GB/s from [`VariantStats::seconds_per_byte`].
    ///
    /// ```
    /// use vecpress::lz4::adaptive::AdaptiveDecompressor;
    /// let dec = AdaptiveDecompressor::new();
    /// assert!(dec.stats().iter().all(|s| s.gb_per_s().is_none()));
    /// ```
    pub fn gb_per_s(&self) -> Option<f64> {
        self.seconds_per_byte.map(|s| 1e-9 / s)
    }
}

#[derive(Debug)]
struct Shared {
    /// The arms of single blocks ([`AdaptiveDecompressor::decompress_into`]).
    arms: Vec<Arm>,
    /// The arms of pairs of blocks ([`AdaptiveDecompressor::decompress_pair`]):
    /// a loop over two blocks runs at other speeds than over one, so its
    /// times are kept apart.
    pair_arms: Vec<Arm>,
    /// The index of the leading arm, single blocks then pairs.
    leaders: [usize; 2],
    decay: f64,
}

impl Shared {
    fn arms(&mut self, pair: bool) -> &mut Vec<Arm> {
        if pair {
            &mut self.pair_arms
        } else {
            &mut self.arms
        }
    }

    /// The arms and the index of their leader.
    fn arms_and_leader(&mut self, pair: bool) -> (&mut Vec<Arm>, &mut usize) {
        if pair {
            (&mut self.pair_arms, &mut self.leaders[1])
        } else {
            (&mut self.arms, &mut self.leaders[0])
        }
    }
}

/// A decompressor that picks the decoding loop by Thompson sampling; see
/// the [module](self) docs.
#[derive(Debug)]
pub struct AdaptiveDecompressor {
    shared: Arc<Mutex<Shared>>,
    rng: Rng,
    fixed: Option<Variant>,
    penalty: Option<(Variant, Duration)>,
}

impl Default for AdaptiveDecompressor {
    fn default() -> Self {
        AdaptiveDecompressor::new()
    }
}

impl AdaptiveDecompressor {
    /// A decompressor over every available variant but `Checked`, in the
    /// order of [`tune::lz4_arms`](crate::tune::lz4_arms): the first, the
    /// fastest this CPU's profile records, leads until timings say otherwise.
    ///
    /// ```
    /// let dec = vecpress::lz4::adaptive::AdaptiveDecompressor::new();
    /// assert!(dec.stats().len() >= 2);
    /// ```
    pub fn new() -> AdaptiveDecompressor {
        AdaptiveDecompressor::build(&crate::tune::lz4_arms(), None)
    }

    /// A decompressor choosing among `variants`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] if one is not available; [`Error::OutOfRange`]
    /// if the list is empty.
    ///
    /// ```
    /// use vecpress::lz4::{adaptive::AdaptiveDecompressor, block::Variant};
    /// let dec = AdaptiveDecompressor::with_variants(&[Variant::Copy8, Variant::Copy16])?;
    /// assert_eq!(dec.stats().len(), 2);
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    pub fn with_variants(variants: &[Variant]) -> Result<AdaptiveDecompressor, Error> {
        if variants.is_empty() {
            return Err(Error::OutOfRange { index: 0, len: 0 });
        }
        for v in variants {
            v.check()?;
        }
        Ok(AdaptiveDecompressor::build(variants, None))
    }

    /// A decompressor that always uses `variant` (still counting its calls
    /// and timing large blocks): a baseline to compare with.
    ///
    /// # Errors
    /// [`Error::Unsupported`] if the variant is not available.
    ///
    /// ```
    /// use vecpress::lz4::{adaptive::AdaptiveDecompressor, block::{self, Variant}};
    /// let mut dec = AdaptiveDecompressor::fixed(Variant::Copy16)?;
    /// let packed = block::compress(&[5u8; 100]);
    /// let mut out = [0u8; 100];
    /// dec.decompress_into(&packed, &mut out)?;
    /// assert_eq!(dec.stats()[0].calls, 1);
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    pub fn fixed(variant: Variant) -> Result<AdaptiveDecompressor, Error> {
        variant.check()?;
        Ok(AdaptiveDecompressor::build(&[variant], Some(variant)))
    }

    fn build(variants: &[Variant], fixed: Option<Variant>) -> AdaptiveDecompressor {
        let arms: Vec<Arm> = variants
            .iter()
            .map(|&variant| Arm {
                variant,
                calls: 0,
                timed: 0,
                weight: 0.0,
                sum: 0.0,
                sum_clipped: 0.0,
                sum_sq: 0.0,
            })
            .collect();
        AdaptiveDecompressor {
            shared: Arc::new(Mutex::new(Shared {
                pair_arms: arms.clone(),
                arms,
                leaders: [0, 0],
                decay: DEFAULT_DECAY,
            })),
            rng: Rng::seeded(),
            fixed,
            penalty: None,
        }
    }

    /// Sets the factor (in `0.0..=1.0`; clamped) every weight is multiplied
    /// by after each counted call, for this decompressor and those sharing
    /// its statistics. 1.0 never forgets.
    ///
    /// ```
    /// let dec = vecpress::lz4::adaptive::AdaptiveDecompressor::new().with_decay(0.99);
    /// # let _ = dec;
    /// ```
    pub fn with_decay(self, decay: f64) -> AdaptiveDecompressor {
        self.lock().decay = if decay.is_nan() {
            1.0
        } else {
            decay.clamp(0.0, 1.0)
        };
        self
    }

    /// Another decompressor sharing these statistics (for another thread),
    /// with a random generator of its own.
    ///
    /// ```
    /// use vecpress::lz4::{adaptive::AdaptiveDecompressor, block};
    /// let dec = AdaptiveDecompressor::new();
    /// let packed = block::compress(&[1u8; 1000]);
    /// std::thread::scope(|s| {
    ///     for _ in 0..2 {
    ///         let mut mine = dec.share();
    ///         let packed = &packed;
    ///         s.spawn(move || {
    ///             let mut out = [0u8; 1000];
    ///             mine.decompress_into(packed, &mut out).unwrap();
    ///         });
    ///     }
    /// });
    /// assert_eq!(dec.stats().iter().map(|s| s.calls).sum::<u64>(), 2);
    /// ```
    pub fn share(&self) -> AdaptiveDecompressor {
        AdaptiveDecompressor {
            shared: Arc::clone(&self.shared),
            rng: Rng::seeded(),
            fixed: self.fixed,
            penalty: self.penalty,
        }
    }

    /// Decompresses the block `src` into `dst` with the variant the bandit
    /// picks; returns the bytes written. Errors as
    /// [`block::decompress_into`].
    ///
    /// ```
    /// use vecpress::lz4::{adaptive::AdaptiveDecompressor, block};
    /// let packed = block::compress(b"some bytes, some bytes, some bytes");
    /// let mut out = [0u8; 34];
    /// assert_eq!(AdaptiveDecompressor::new().decompress_into(&packed, &mut out)?, 34);
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    pub fn decompress_into(&mut self, src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
        let timed = dst.len() >= MIN_TIMED_BLOCK;
        self.run(
            false,
            timed,
            |variant| block::decompress_into_variant(variant, src, dst),
            |res| res.as_ref().ok().copied(),
        )
    }

    /// Decompresses two blocks at once (`a.0` into `a.1`, `b.0` into `b.1`)
    /// with the pair loop of the variant the bandit picks, as
    /// [`block::decompress_pair`] does; returns each block's result.
    /// Pairs have statistics of their own ([`pair_stats`]), since a loop
    /// runs faster over two blocks than over one; pairs whose output totals
    /// at least [`MIN_TIMED_BLOCK`] bytes are timed.
    ///
    /// [`pair_stats`]: AdaptiveDecompressor::pair_stats
    ///
    /// ```
    /// use vecpress::lz4::{adaptive::AdaptiveDecompressor, block};
    /// let (x, y) = (b"one block of text ".repeat(3000), b"and another one ".repeat(3000));
    /// let (px, py) = (block::compress(&x), block::compress(&y));
    /// let (mut ox, mut oy) = (vec![0u8; x.len()], vec![0u8; y.len()]);
    /// let mut dec = AdaptiveDecompressor::new();
    /// for _ in 0..10 {
    ///     let (rx, ry) = dec.decompress_pair((&px, &mut ox), (&py, &mut oy));
    ///     assert_eq!((rx?, ry?), (x.len(), y.len()));
    /// }
    /// assert_eq!((ox, oy), (x, y));
    /// assert_eq!(dec.pair_stats().iter().map(|s| s.calls).sum::<u64>(), 10);
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    pub fn decompress_pair(
        &mut self,
        a: (&[u8], &mut [u8]),
        b: (&[u8], &mut [u8]),
    ) -> (Result<usize, Error>, Result<usize, Error>) {
        let timed = a.1.len() + b.1.len() >= MIN_TIMED_BLOCK;
        self.run(
            true,
            timed,
            |variant| block::decompress_pair_variant(variant, a, b),
            |res| match res {
                (Ok(x), Ok(y)) => Some(x + y),
                _ => None,
            },
        )
    }

    /// Runs `decode` with the variant of the pair arms (`pair`) or the
    /// single ones: the leader, untimed, unless `timed`; else the bandit's
    /// choice, timed and recorded with the bytes `bytes` says the result
    /// holds (`None` for a failed decode: only whole, successful decodes say
    /// how fast a variant is).
    fn run<R>(
        &mut self,
        pair: bool,
        timed: bool,
        decode: impl FnOnce(Variant) -> R,
        bytes: impl FnOnce(&R) -> Option<usize>,
    ) -> R {
        if !timed {
            let (i, variant) = self.leader(pair);
            let res = decode(variant);
            self.lock().arms(pair)[i].calls += 1;
            return res;
        }
        let (i, variant) = self.choose(pair);
        let start = Instant::now();
        let res = decode(variant);
        self.spin_penalty(variant, start);
        self.record(pair, i, start.elapsed(), bytes(&res));
        res
    }

    /// The test hook's extra time (see [`set_penalty`](Self::set_penalty)).
    fn spin_penalty(&self, variant: Variant, start: Instant) {
        if let Some((slow, extra)) = self.penalty
            && slow == variant
        {
            let until = start.elapsed() + extra;
            while start.elapsed() < until {
                std::hint::spin_loop();
            }
        }
    }

    /// Counts a call of arm `i` (of the pair arms when `pair`), and its time
    /// per byte when it decoded `bytes` (at least [`MIN_TIMED_BLOCK`]) past
    /// the arm's cold calls, decaying every arm's weight first.
    fn record(&self, pair: bool, i: usize, elapsed: Duration, bytes: Option<usize>) {
        let mut shared = self.lock();
        let decay = shared.decay;
        let arms = shared.arms(pair);
        arms[i].calls += 1;
        let Some(n) = bytes.filter(|&n| n >= MIN_TIMED_BLOCK) else {
            return;
        };
        arms[i].timed += 1;
        if arms[i].timed <= COLD_CALLS {
            return;
        }
        for other in arms.iter_mut() {
            other.decay(decay);
        }
        arms[i].observe(elapsed.as_secs_f64() / n as f64);
    }

    /// The variant the next large block would use, and its arm's index.
    fn choose(&mut self, pair: bool) -> (usize, Variant) {
        let mut shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = self.fixed {
            return (0, v);
        }
        let (arms, leader) = shared.arms_and_leader(pair);
        let timed: u64 = arms.iter().map(|a| a.timed).sum();
        if timed % EXPLORE_EVERY != EXPLORE_EVERY - 1 {
            return follow_leader(arms, leader);
        }
        let mut best = (f64::INFINITY, 0);
        for (i, arm) in arms.iter().enumerate() {
            let draw = arm.sample(&mut self.rng);
            if draw < best.0 {
                best = (draw, i);
            }
        }
        (best.1, arms[best.1].variant)
    }

    /// The variant with the lowest mean so far (the first arm before any).
    fn leader(&self, pair: bool) -> (usize, Variant) {
        let mut shared = self.lock();
        let (arms, leader) = shared.arms_and_leader(pair);
        follow_leader(arms, leader)
    }

    /// The statistics of every variant this decompressor chooses from.
    ///
    /// ```
    /// use vecpress::lz4::{adaptive::AdaptiveDecompressor, block::Variant};
    /// let dec = AdaptiveDecompressor::fixed(Variant::Copy8)?;
    /// let stats = dec.stats();
    /// assert_eq!((stats[0].variant, stats[0].calls, stats[0].seconds_per_byte), (Variant::Copy8, 0, None));
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    pub fn stats(&self) -> Vec<VariantStats> {
        self.lock().arms.iter().map(Arm::stats).collect()
    }

    /// The statistics of [`decompress_pair`](Self::decompress_pair), as
    /// [`stats`](Self::stats) gives those of single blocks.
    ///
    /// ```
    /// let dec = vecpress::lz4::adaptive::AdaptiveDecompressor::new();
    /// assert_eq!(dec.pair_stats().len(), dec.stats().len());
    /// ```
    pub fn pair_stats(&self) -> Vec<VariantStats> {
        self.lock().pair_arms.iter().map(Arm::stats).collect()
    }

    /// Test hook: makes every timed decode with `variant` take `extra`
    /// longer (spinning), so tests can check that the bandit moves away
    /// from a slow variant. `None` removes it.
    #[doc(hidden)]
    pub fn set_penalty(&mut self, penalty: Option<(Variant, Duration)>) {
        self.penalty = penalty;
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        // A panic while holding the lock leaves plain numbers behind: usable.
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The leading arm and its index: `leader`, until another arm's mean is
/// below the leader's by [`SWITCH_MARGIN`] (or the leader has none yet).
/// Each switch of loops costs the new loop's branch history and cold code,
/// so two arms whose means cross back and forth by noise do not take turns.
fn follow_leader(arms: &[Arm], leader: &mut usize) -> (usize, Variant) {
    let mut best: Option<(f64, usize)> = None;
    for (i, arm) in arms.iter().enumerate() {
        if let Some(m) = arm.mean()
            && best.is_none_or(|(b, _)| m < b)
        {
            best = Some((m, i));
        }
    }
    if let Some((m, i)) = best {
        match arms[*leader].mean() {
            Some(current) if m >= current * (1.0 - SWITCH_MARGIN) => {}
            _ => *leader = i,
        }
    }
    (*leader, arms[*leader].variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arm(variant: Variant, mean: Option<f64>) -> Arm {
        Arm {
            variant,
            calls: 0,
            timed: 0,
            weight: if mean.is_some() { 1.0 } else { 0.0 },
            sum: mean.unwrap_or(0.0),
            sum_clipped: mean.unwrap_or(0.0),
            sum_sq: mean.map_or(0.0, |m| m * m),
        }
    }

    #[test]
    fn the_leader_changes_only_for_a_clear_margin() {
        let (a, b) = (Variant::Copy8, Variant::Copy16);
        // Before any mean, the first arm leads; the first mean takes over.
        let mut leader = 0;
        assert_eq!(
            follow_leader(&[arm(a, None), arm(b, None)], &mut leader),
            (0, a)
        );
        assert_eq!(
            follow_leader(&[arm(a, None), arm(b, Some(2.0))], &mut leader),
            (1, b)
        );
        // Within the margin of the leader, another arm does not take over.
        let mut leader = 0;
        let close = 1.0 - SWITCH_MARGIN / 2.0;
        assert_eq!(
            follow_leader(&[arm(a, Some(1.0)), arm(b, Some(close))], &mut leader),
            (0, a)
        );
        // Past it, it does, and keeps the lead when the first comes back within the margin.
        let far = 1.0 - 2.0 * SWITCH_MARGIN;
        assert_eq!(
            follow_leader(&[arm(a, Some(1.0)), arm(b, Some(far))], &mut leader),
            (1, b)
        );
        assert_eq!(
            follow_leader(&[arm(a, Some(far * 0.99)), arm(b, Some(far))], &mut leader),
            (1, b)
        );
    }
}
