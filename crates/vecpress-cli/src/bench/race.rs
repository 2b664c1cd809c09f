//! The race every measurement runs: decoders that round-tripped are timed in
//! interleaved passes over the same blocks, and each keeps its median.
//!
//! Each decoder first decodes every block once and must give back the input
//! bit for bit; then `--reps` rounds time one pass over all blocks of every
//! decoder in turn (interleaved, so that a slow spell of a shared machine hits
//! all of them alike). Shared by the integer codecs (`u32` blocks, see
//! `measure.rs`) and the byte codecs (`u8` blocks, see `bytes.rs`).
#![forbid(unsafe_code)]

use std::fmt::Display;
use std::hint::black_box;
use std::ops::{Not, Range};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

/// The alignment of [`Encoded::bytes`]' first block.
const WORD: usize = 8;

/// The blocks of one input, encoded one after the other, then padded for peers.
pub struct Encoded {
    /// Every block's bytes, the first on an 8-byte boundary (what comes before
    /// it is not read), then zeros (peers may read past a block's end).
    pub bytes: Vec<u8>,
    /// Each block's bytes in `bytes`.
    pub ranges: Vec<Range<usize>>,
    /// The encoded size: `bytes` without the padding.
    pub len: usize,
}

impl Encoded {
    /// Encodes each block with `encode` (`None` from it: none of this), then
    /// pads with `padding` zero bytes.
    pub fn blocks<T>(
        values: &[T],
        blocks: &[Range<usize>],
        padding: usize,
        mut encode: impl FnMut(&[T]) -> Option<Vec<u8>>,
    ) -> Option<Encoded> {
        let mut bytes = Vec::new();
        let mut ranges = Vec::with_capacity(blocks.len());
        for b in blocks {
            let start = bytes.len();
            bytes.extend_from_slice(&encode(&values[b.clone()])?);
            ranges.push(start..bytes.len());
        }
        // The buffer starts on a word boundary, as a store or file buffer
        // does, so that a peer whose blocks are whole words (the fastlanes
        // crate's) reads them in place.
        let len = bytes.len();
        let mut aligned: Vec<u8> = Vec::with_capacity(len + padding + WORD);
        let lead = aligned.as_ptr().align_offset(WORD).min(WORD);
        aligned.resize(lead, 0);
        aligned.extend_from_slice(&bytes);
        aligned.resize(lead + len + padding, 0);
        for r in &mut ranges {
            *r = r.start + lead..r.end + lead;
        }
        Some(Encoded {
            bytes: aligned,
            ranges,
            len,
        })
    }
}

/// One input's values, blocks and encoded bytes, shared by every decoder.
pub struct Bench<'a, T> {
    /// What every block must decode to.
    pub values: &'a [T],
    /// Blocks: ranges of `values`.
    pub blocks: &'a [Range<usize>],
    /// The bytes decoded.
    pub encoded: &'a Encoded,
}

impl<T> Clone for Bench<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Bench<'_, T> {}

impl<T: Copy + PartialEq + Display + Not<Output = T>> Bench<'_, T> {
    /// Block `i`'s bytes, exactly.
    pub fn block_bytes(&self, i: usize) -> &[u8] {
        &self.encoded.bytes[self.encoded.ranges[i].clone()]
    }

    /// Block `i`'s bytes and everything after, padding included (for peers).
    pub fn padded_block_bytes(&self, i: usize) -> &[u8] {
        &self.encoded.bytes[self.encoded.ranges[i].start..]
    }

    /// Checks that `decode` gives back every block bit for bit, consuming
    /// (or producing) exactly `want(i)` bytes.
    pub fn check<E: Display>(
        &self,
        buf: &mut [T],
        want: impl Fn(usize) -> usize,
        mut decode: impl FnMut(usize, &mut [T]) -> Result<usize, E>,
    ) -> Result<()> {
        for (i, b) in self.blocks.iter().enumerate() {
            let expected = &self.values[b.clone()];
            let out = &mut buf[..b.len()];
            // Start from the complement, so that a value left unwritten shows.
            for (o, &v) in out.iter_mut().zip(expected) {
                *o = !v;
            }
            let want = want(i);
            match decode(i, out) {
                Ok(n) if n == want => {}
                Ok(n) => bail!("block {i}: {n} bytes, not {want}"),
                Err(e) => bail!("block {i}: {e}"),
            }
            if let Some(k) = (0..out.len()).find(|&k| out[k] != expected[k]) {
                bail!(
                    "block {i}, value {k}: decoded {}, expected {}",
                    out[k],
                    expected[k]
                );
            }
        }
        Ok(())
    }

    /// The blocks as the pair decoder takes them: `(i, Some(i + 1))` for
    /// blocks 0 and 1, 2 and 3, ..., and `(last, None)` for an odd one out.
    fn pairs(&self) -> impl Iterator<Item = (usize, Option<usize>)> + use<T> {
        let n = self.blocks.len();
        (0..n)
            .step_by(2)
            .map(move |i| (i, (i + 1 < n).then_some(i + 1)))
    }

    /// [`check`](Self::check) for a decoder of two blocks at once: `pair`
    /// decodes blocks `i` and `i + 1` into two parts of `buf` (which holds
    /// two blocks), `single` an odd last block.
    pub fn check_pairs<E: Display>(
        &self,
        buf: &mut [T],
        mut pair: impl FnMut(usize, &mut [T], &mut [T]) -> (Result<usize, E>, Result<usize, E>),
        mut single: impl FnMut(usize, &mut [T]) -> Result<usize, E>,
    ) -> Result<()> {
        for (i, j) in self.pairs() {
            let (x, rest) = buf.split_at_mut(self.blocks[i].len());
            let results = match j {
                Some(j) => {
                    let y = &mut rest[..self.blocks[j].len()];
                    let (rx, ry) = pair(i, x, y);
                    vec![(i, rx, 0), (j, ry, x.len())]
                }
                None => vec![(i, single(i, x), 0)],
            };
            for (k, res, at) in results {
                let b = self.blocks[k].clone();
                match res {
                    Ok(n) if n == b.len() => {}
                    Ok(n) => bail!("block {k}: {n} values, not {}", b.len()),
                    Err(e) => bail!("block {k}: {e}"),
                }
                if buf[at..at + b.len()] != self.values[b] {
                    bail!("block {k}: decoded values differ");
                }
            }
        }
        Ok(())
    }

    /// One pass of a pair decoder over every block (see
    /// [`check_pairs`](Self::check_pairs)); false if any failed.
    pub fn pass_pairs<E>(
        &self,
        buf: &mut [T],
        mut pair: impl FnMut(usize, &mut [T], &mut [T]) -> (Result<usize, E>, Result<usize, E>),
        mut single: impl FnMut(usize, &mut [T]) -> Result<usize, E>,
    ) -> bool {
        let mut ok = true;
        for (i, j) in self.pairs() {
            let (x, rest) = buf.split_at_mut(self.blocks[i].len());
            match j {
                Some(j) => {
                    let (rx, ry) = pair(i, x, &mut rest[..self.blocks[j].len()]);
                    ok &= rx.is_ok() && ry.is_ok();
                }
                None => ok &= single(i, x).is_ok(),
            }
        }
        black_box(&mut *buf);
        ok
    }

    /// One pass of `decode` over every block, into `buf`; false if any failed.
    pub fn pass<E>(
        &self,
        buf: &mut [T],
        mut decode: impl FnMut(usize, &mut [T]) -> Result<usize, E>,
    ) -> bool {
        let mut ok = true;
        for (i, b) in self.blocks.iter().enumerate() {
            ok &= decode(i, &mut buf[..b.len()]).is_ok();
        }
        black_box(&mut *buf);
        ok
    }
}

/// One pass of a decoder over every block, into the buffer; false on failure.
pub type Pass<'p, T> = Box<dyn FnMut(&mut [T]) -> bool + 'p>;

/// A decoder that round-tripped, ready to time.
pub struct Contestant<'p, T> {
    /// Row name.
    pub codec: String,
    /// Its ISA level, or `-`.
    pub isa: &'static str,
    /// Its codec's encoding time (None for peers: only decoding is compared).
    pub encode: Option<Duration>,
    /// How it was built, where that matters.
    pub note: Option<String>,
    /// The encoded size it decodes.
    pub compressed: usize,
    /// One pass over every block.
    pub pass: Pass<'p, T>,
}

/// A contestant's result: its median pass.
pub struct Timed {
    /// Row name.
    pub codec: String,
    /// Its ISA level, or `-`.
    pub isa: &'static str,
    /// Its codec's encoding time.
    pub encode: Option<Duration>,
    /// How it was built.
    pub note: Option<String>,
    /// The encoded size it decodes.
    pub compressed: usize,
    /// The median decoding pass; `None` when a timed pass failed.
    pub decode: Option<Duration>,
}

/// The memcpy baseline as a contestant: every block's values copied into the
/// buffer. It runs in the race with the decoders, first, so that their
/// ratios to it are measured in the same rounds; [`take_memcpy`] takes its
/// time back out.
pub fn memcpy<'p, T: Copy>(values: &'p [T], blocks: &'p [Range<usize>]) -> Contestant<'p, T> {
    Contestant {
        codec: "memcpy".into(),
        isa: "-",
        encode: None,
        note: None,
        compressed: 0,
        pass: Box::new(move |buf: &mut [T]| {
            for b in blocks {
                buf[..b.len()].copy_from_slice(black_box(&values[b.clone()]));
                black_box(&mut *buf);
            }
            true
        }),
    }
}

/// Removes the [`memcpy`] contestant's result (the first) from `timed` and
/// returns its median pass.
pub fn take_memcpy(timed: &mut Vec<Timed>) -> Duration {
    let t = timed.remove(0);
    debug_assert_eq!(t.codec, "memcpy");
    t.decode.unwrap_or(Duration::MAX)
}

/// The least time a timed sample of one decoder lasts.
const SAMPLE: Duration = Duration::from_millis(2);

/// How long a contestant runs untimed before each of its samples.
const WARM_UP: Duration = Duration::from_millis(10);

/// Times the contestants in `reps` interleaved rounds, each round in a
/// shuffled order.
///
/// A sample is as many passes as fill about 2 ms, so that a tiny input is not
/// timed in the shadow of the previous contestant (cold caches, or vector
/// units that were powered down). Before it, the contestant runs untimed for
/// [`WARM_UP`], at least one pass: that shadow outlasts a pass over a large
/// input. (Measured without the warm-up, the decoders right after a slow
/// scalar one ran well off their steady speed for several milliseconds,
/// and in a fixed order the same contestants carried that every round:
/// kernels read slower than the C decoders they match.)
pub fn race<T>(mut contestants: Vec<Contestant<'_, T>>, buf: &mut [T], reps: u32) -> Vec<Timed> {
    let mut repeat = vec![1u32; contestants.len()];
    for (k, c) in contestants.iter_mut().enumerate() {
        let start = Instant::now();
        (c.pass)(buf);
        let once = secs(start.elapsed());
        repeat[k] = (SAMPLE.as_secs_f64() / once).clamp(1.0, 10_000.0) as u32;
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); contestants.len()];
    let mut failed = vec![false; contestants.len()];
    // Each round in a new order: a disturbance that recurs with the period
    // of a round (a neighbour's periodic work on a shared host) would
    // otherwise fall on the same contestant every round.
    let mut order: Vec<usize> = (0..contestants.len()).collect();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..reps.max(1) {
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        for &k in &order {
            let c = &mut contestants[k];
            let warm = Instant::now();
            loop {
                failed[k] |= !(c.pass)(buf);
                if warm.elapsed() >= WARM_UP {
                    break;
                }
            }
            let start = Instant::now();
            for _ in 0..repeat[k] {
                failed[k] |= !(c.pass)(buf);
            }
            times[k].push(start.elapsed() / repeat[k]);
        }
    }
    contestants
        .into_iter()
        .enumerate()
        .map(|(k, c)| Timed {
            codec: c.codec,
            isa: c.isa,
            encode: c.encode,
            note: c.note,
            compressed: c.compressed,
            decode: (!failed[k]).then(|| median_of(&mut times[k])),
        })
        .collect()
}

/// The median time of `reps` runs of `pass`.
pub fn median(reps: u32, mut pass: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..reps.max(1))
        .map(|_| {
            let start = Instant::now();
            pass();
            start.elapsed()
        })
        .collect();
    median_of(&mut times)
}

/// The median of some times (not empty).
fn median_of(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// Seconds, never zero (a pass over a tiny input may read as 0 ns).
pub fn secs(t: Duration) -> f64 {
    t.as_secs_f64().max(1e-9)
}
