//! Choosing the codec of each block, for `compress` without `--codec`.
//!
//! The first block is tried with every codec that fits (see
//! [`crate::trial`]); the winner, the *leader*, then encodes every block.
//! Columns change along a file (a sensor goes quiet, a partition starts,
//! files are joined), and a change shows in the leader's ratio: a block
//! whose ratio strays by more than [`DRIFT`] from the leader's on the first
//! block is *probed*: every candidate encodes a sample of it, a few stripes
//! spread over the block, and the one or two that make the sample smallest
//! encode the whole block too. The smallest encoding is kept, so a probe
//! never makes a block larger than the leader would.
//!
//! A block's choice depends on its own bytes and the first block alone, not
//! on the blocks before it, so the file is the same at every thread count
//! and each thread chooses for the blocks it encodes. A file where the
//! leader wins throughout pays for probes only where its ratio moves.
#![forbid(unsafe_code)]

use anyhow::Result;
use vecpress::container::Element;

use crate::elements::Block;
use crate::engine::{Engine, Scratch};
use crate::trial::Trial;

/// How far (a factor either way) a block's ratio under the leader may
/// stray from the first block's before the block is probed.
pub const DRIFT: f64 = 1.10;
/// Stripes a probe's sample is taken from, spread evenly over the block.
const STRIPES: usize = 4;
/// Bytes of a probe's sample: a 64th of the block, at least this much.
const MIN_SAMPLE: usize = 16 << 10;
/// Sizes within this factor of the smallest count as a tie, which the
/// codec faster to decode wins (as in [`crate::trial::best`]).
const TIE: f64 = 1.01;
/// A sample ranks codecs roughly: those within this factor of the
/// smallest on it are tried on the whole block, up to [`CONTENDERS`].
const CLOSE: f64 = 1.05;
/// The most codecs a probe tries on the whole block.
const CONTENDERS: usize = 2;

/// A codec tried on the first block.
#[derive(Clone, Copy)]
struct Candidate {
    engine: Engine,
    /// Its decoding speed on the first block, MB/s.
    decode_mbs: f64,
}

/// Chooses the codec of each block.
pub struct Chooser {
    element: Element,
    leader: Candidate,
    /// The leader's ratio (elements' bytes per payload byte) on the first block.
    leader_ratio: f64,
    /// The candidates that compress (the leader among them).
    candidates: Vec<Candidate>,
}

/// Buffers of one worker.
#[derive(Default)]
pub struct Work {
    pub engine: Scratch,
    sample: Vec<u8>,
    encoded: Vec<u8>,
}

impl Chooser {
    /// A chooser from the trials on the first block and the one chosen
    /// among them; `None` when no block could choose otherwise (a single
    /// codec compresses this element type), or nothing compresses.
    pub fn new(element: Element, trials: &[Trial], leader: Engine) -> Option<Chooser> {
        let candidates: Vec<Candidate> = trials
            .iter()
            .filter(|t| !matches!(t.engine, Engine::Store))
            .map(|t| Candidate {
                engine: t.engine,
                decode_mbs: t.decode_mbs(),
            })
            .collect();
        let first = trials.iter().find(|t| t.engine.id() == leader.id())?;
        if candidates.len() < 2 || matches!(leader, Engine::Store) {
            return None;
        }
        Some(Chooser {
            element,
            leader: Candidate {
                engine: leader,
                decode_mbs: first.decode_mbs(),
            },
            leader_ratio: first.raw_bytes as f64 / first.payload_bytes.max(1) as f64,
            candidates,
        })
    }

    /// Encodes `block` with the codec chosen for it: sets its payload,
    /// `stored`, `engine` and `probed`.
    pub fn encode(&self, w: &mut Work, block: &mut Block) -> Result<()> {
        let leader = self.leader.engine;
        leader.encode(self.element, &block.raw, &mut block.payload, &mut w.engine)?;
        block.engine = Some(leader);
        block.probed = false;
        let raw = block.raw.len();
        let ratio = raw as f64 / block.payload.len().clamp(1, raw.max(1)) as f64;
        if ratio <= self.leader_ratio * DRIFT && ratio * DRIFT >= self.leader_ratio {
            block.stored = block.payload.len() >= raw;
            return Ok(());
        }
        block.probed = true;
        let contenders = self.probe(w, &block.raw)?;
        let mut best = (block.payload.len(), self.leader);
        for c in contenders {
            c.engine
                .encode(self.element, &block.raw, &mut w.encoded, &mut w.engine)?;
            let (ours, theirs) = (w.encoded.len(), best.0);
            let better = ours < theirs
                || (ours as f64 <= theirs as f64 * TIE && c.decode_mbs > best.1.decode_mbs);
            if better {
                std::mem::swap(&mut w.encoded, &mut block.payload);
                best = (ours, c);
            }
        }
        block.engine = Some(best.1.engine);
        block.stored = block.payload.len() >= raw;
        Ok(())
    }

    /// The candidates to encode the whole of a block with beside the
    /// leader: of those that make a sample of `raw` smallest, or within
    /// [`CLOSE`] of it, the [`CONTENDERS`] smallest, the leader left out.
    fn probe(&self, w: &mut Work, raw: &[u8]) -> Result<Vec<Candidate>> {
        let sample = sample(raw, self.element.width(), &mut w.sample);
        let mut sizes = Vec::with_capacity(self.candidates.len());
        for c in &self.candidates {
            c.engine
                .encode(self.element, sample, &mut w.encoded, &mut w.engine)?;
            sizes.push((w.encoded.len().min(sample.len()), *c));
        }
        sizes.sort_by_key(|&(n, _)| n);
        let smallest = sizes.first().map_or(0, |&(n, _)| n);
        let leader = self.leader.engine.id();
        Ok(sizes
            .into_iter()
            .filter(|&(n, _)| n as f64 <= smallest as f64 * CLOSE)
            .take(CONTENDERS)
            .map(|(_, c)| c)
            .filter(|c| c.engine.id() != leader)
            .collect())
    }
}

/// A sample of `raw` (elements of `width` bytes): [`STRIPES`] stripes of
/// whole elements spread evenly over it, together a 64th of it and at
/// least [`MIN_SAMPLE`] bytes; all of `raw` when that is not much more.
fn sample<'a>(raw: &'a [u8], width: usize, buf: &'a mut Vec<u8>) -> &'a [u8] {
    let want = (raw.len() / 64).max(MIN_SAMPLE);
    if raw.len() <= 2 * want {
        return raw;
    }
    let stripe = want / STRIPES / width * width;
    let elements = raw.len() / width;
    let step = (elements - stripe / width) / (STRIPES - 1) * width;
    buf.clear();
    for k in 0..STRIPES {
        buf.extend_from_slice(&raw[k * step..k * step + stripe]);
    }
    buf
}

/// Blocks by codec, and probes, for `compress -v`.
#[derive(Default)]
pub struct Tally {
    per_codec: std::collections::BTreeMap<&'static str, u64>,
    probed: u64,
    switched: u64,
}

impl Tally {
    /// Counts a block as written.
    pub fn add(&mut self, block: &Block, leader: Engine) {
        let name = match block.engine {
            _ if block.stored => "store",
            Some(e) => e.name(),
            None => leader.name(),
        };
        *self.per_codec.entry(name).or_default() += 1;
        self.probed += u64::from(block.probed);
        self.switched += u64::from(block.engine.is_some_and(|e| e.id() != leader.id()));
    }

    /// One line: blocks per codec, probes and switches.
    pub fn describe(&self) -> String {
        let counts: Vec<String> = self
            .per_codec
            .iter()
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        format!(
            "blocks per codec: {}; {} probed (ratio over {:.0}% from the first block's), {} changed codec",
            counts.join(", "),
            self.probed,
            (DRIFT - 1.0) * 100.0,
            self.switched
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_whole_elements_from_across_the_block() {
        let raw: Vec<u8> = (0..(1u32 << 18)).flat_map(|i| i.to_le_bytes()).collect();
        let mut buf = Vec::new();
        let s = sample(&raw, 4, &mut buf).to_vec();
        assert_eq!(s.len(), MIN_SAMPLE);
        let first = u32::from_le_bytes(s[..4].try_into().unwrap());
        let last = u32::from_le_bytes(s[s.len() - 4..].try_into().unwrap());
        assert_eq!(first, 0);
        assert_eq!(last, (1 << 18) - 1, "the last stripe ends the block");
        let small = &raw[..3 * MIN_SAMPLE / 2];
        assert_eq!(sample(small, 4, &mut buf), small);
    }
}
