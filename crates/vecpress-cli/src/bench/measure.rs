//! Timing one (codec, input): encode, memcpy baseline, every ISA, every peer.
//!
//! As in the papers: every block is decoded into one reused buffer of
//! `--block` values (L1-resident). Each decoder first decodes every block once
//! and must give back the values bit for bit, consuming exactly each block's
//! bytes; then `--reps` rounds time one pass over all blocks of every decoder
//! in turn (interleaved, so that a slow spell of a shared machine hits all of
//! them alike), and each decoder's median pass is kept.
#![forbid(unsafe_code)]

use std::hint::black_box;
use std::ops::Range;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use vecpress::codec::IntCodec;
use vecpress::Isa;

use super::input::Input;
use super::peers::{self, Peer};
use super::report::{Failure, Line, Row};

/// What to run on one input with one codec.
pub struct Job<'a> {
    pub input: &'a Input,
    pub codec: &'static dyn IntCodec,
    pub isas: &'a [Isa],
    pub peers: &'a [Box<dyn Peer>],
    pub block: usize,
    pub reps: u32,
}

/// The blocks of one input, encoded one after the other, then padded for peers.
struct Encoded {
    bytes: Vec<u8>,
    ranges: Vec<Range<usize>>,
    len: usize,
}

impl Job<'_> {
    /// Measures everything; one line per ISA, then per peer. A decoder that
    /// does not round-trip gets a [`Failure`] line; the others still run.
    pub fn run(&self) -> Vec<Line> {
        let values = self.input.values(self.codec.is_delta());
        let blocks = &self.input.blocks;
        let encoded = self.encode(values);

        let mut scratch = vec![0u8; self.codec.max_encoded_len(self.block)];
        let encode_time = median(self.reps, || {
            for b in blocks {
                black_box(
                    self.codec
                        .encode(black_box(&values[b.clone()]), &mut scratch),
                );
            }
        });
        let mut buf = vec![0u32; self.block];
        let memcpy_time = median(self.reps, || {
            for b in blocks {
                buf[..b.len()].copy_from_slice(black_box(&values[b.clone()]));
                black_box(&mut buf);
            }
        });

        let bench = Bench {
            values,
            blocks,
            encoded: &encoded,
        };
        let name = self.codec.name();
        let failure = |codec: &str, isa: &str, error: anyhow::Error| {
            Line::Failed(Failure {
                codec: codec.into(),
                isa: isa.into(),
                input: self.input.name.clone(),
                error: format!("{error:#}"),
            })
        };
        // The scalar reference checks the stream itself before any other decoder runs.
        if let Err(e) = bench.check(&mut buf, |i, out| {
            self.codec.decode(Isa::Scalar, bench.block_bytes(i), out)
        }) {
            let e = e.context("the scalar reference does not decode what was encoded");
            return vec![failure(name, Isa::Scalar.name(), e)];
        }

        let total = values.len() as f64;
        let row = |codec: &str,
                   isa: &str,
                   decode: Duration,
                   encode: Option<Duration>,
                   note: Option<String>| {
            Line::Row(Row {
                codec: codec.into(),
                isa: isa.into(),
                input: self.input.name.clone(),
                values: values.len() as u64,
                input_bytes: values.len() as u64 * 4,
                compressed_bytes: encoded.len as u64,
                bits_per_value: encoded.len as f64 * 8.0 / total,
                encode_mis: encode.map(|t| total / secs(t) / 1e6),
                decode_mis: total / secs(decode) / 1e6,
                encode_gbs: encode.map(|t| total * 4.0 / secs(t) / 1e9),
                decode_gbs: total * 4.0 / secs(decode) / 1e9,
                memcpy_gbs: total * 4.0 / secs(memcpy_time) / 1e9,
                memcpy_ratio: secs(memcpy_time) / secs(decode),
                scalar_ratio: None,
                blocks: blocks.len() as u64,
                block: self.block as u64,
                reps: self.reps,
                note,
            })
        };

        // Every decoder that round-trips becomes a contestant; then the passes
        // are interleaved (one pass of each, `reps` times), so that a slow
        // spell of the machine hits every contestant alike and the ratios of
        // one run stay fair.
        let bench = &bench;
        let mut slots: Vec<Result<Contestant, Line>> = Vec::new();
        for &isa in self.isas {
            let decode =
                move |i: usize, out: &mut [u32]| self.codec.decode(isa, bench.block_bytes(i), out);
            slots.push(match bench.check(&mut buf, decode) {
                Ok(()) => Ok((
                    name.to_string(),
                    isa.name(),
                    Some(encode_time),
                    None,
                    Box::new(move |buf: &mut [u32]| bench.pass(buf, decode)),
                )),
                Err(e) => Err(failure(name, isa.name(), e)),
            });
        }
        let delta = self.codec.is_delta();
        for peer in self.peers {
            let peer_name = super::peer_row_name(peer.name(), delta);
            let decode = move |i: usize, out: &mut [u32]| {
                let input = bench.padded_block_bytes(i);
                let consumed = if delta {
                    peer.decode_delta(input, out)
                } else {
                    peer.decode(input, out)
                };
                consumed.ok_or("malformed input")
            };
            slots.push(match bench.check(&mut buf, decode) {
                Ok(()) => Ok((
                    peer_name,
                    "-",
                    None,
                    peer.note(),
                    Box::new(move |buf: &mut [u32]| bench.pass(buf, decode)),
                )),
                Err(e) => Err(failure(&peer_name, "-", e)),
            });
        }
        // A sample is as many passes as fill about 2 ms, so that a tiny input
        // is not timed in the shadow of the previous contestant (cold caches,
        // or vector units that were powered down).
        let mut repeat = vec![1u32; slots.len()];
        for (k, slot) in slots.iter_mut().enumerate() {
            if let Ok((.., pass)) = slot {
                let start = Instant::now();
                pass(&mut buf);
                let once = secs(start.elapsed());
                repeat[k] = (SAMPLE.as_secs_f64() / once).clamp(1.0, 10_000.0) as u32;
            }
        }
        let mut times: Vec<Vec<Duration>> = vec![Vec::new(); slots.len()];
        let mut failed = vec![false; slots.len()];
        for _ in 0..self.reps.max(1) {
            for (k, slot) in slots.iter_mut().enumerate() {
                if let Ok((.., pass)) = slot {
                    let start = Instant::now();
                    for _ in 0..repeat[k] {
                        failed[k] |= !pass(&mut buf);
                    }
                    times[k].push(start.elapsed() / repeat[k]);
                }
            }
        }
        let mut lines = Vec::new();
        for (k, slot) in slots.into_iter().enumerate() {
            lines.push(match slot {
                Err(line) => line,
                Ok((codec, isa, _, _, _)) if failed[k] => failure(
                    &codec,
                    isa,
                    anyhow::anyhow!("decoding failed while timed, after a good round trip"),
                ),
                Ok((codec, isa, encode, note, _)) => {
                    row(&codec, isa, median_of(&mut times[k]), encode, note)
                }
            });
        }
        set_scalar_ratio(&mut lines);
        lines
    }

    fn encode(&self, values: &[u32]) -> Encoded {
        let mut scratch = vec![0u8; self.codec.max_encoded_len(self.block)];
        let mut bytes = Vec::new();
        let mut ranges = Vec::with_capacity(self.input.blocks.len());
        for b in &self.input.blocks {
            let n = self.codec.encode(&values[b.clone()], &mut scratch);
            let start = bytes.len();
            bytes.extend_from_slice(&scratch[..n]);
            ranges.push(start..bytes.len());
        }
        let len = bytes.len();
        bytes.resize(len + peers::min_input_len(self.block), 0);
        Encoded { bytes, ranges, len }
    }
}

/// One pass of a decoder over every block, into the buffer; false on failure.
type Pass<'p> = Box<dyn FnMut(&mut [u32]) -> bool + 'p>;

/// A decoder that round-tripped, ready to time: (codec, isa, encode time, note, pass).
type Contestant<'p> = (
    String,
    &'static str,
    Option<Duration>,
    Option<String>,
    Pass<'p>,
);

/// One input's values, blocks and encoded bytes, shared by every decoder.
struct Bench<'a> {
    values: &'a [u32],
    blocks: &'a [Range<usize>],
    encoded: &'a Encoded,
}

impl Bench<'_> {
    /// Block `i`'s bytes, exactly.
    fn block_bytes(&self, i: usize) -> &[u8] {
        &self.encoded.bytes[self.encoded.ranges[i].clone()]
    }

    /// Block `i`'s bytes and everything after, padding included (for peers).
    fn padded_block_bytes(&self, i: usize) -> &[u8] {
        &self.encoded.bytes[self.encoded.ranges[i].start..]
    }

    /// Checks that `decode` gives back every block bit for bit, consuming
    /// exactly its bytes.
    fn check<E: std::fmt::Display>(
        &self,
        buf: &mut [u32],
        mut decode: impl FnMut(usize, &mut [u32]) -> Result<usize, E>,
    ) -> Result<()> {
        for (i, b) in self.blocks.iter().enumerate() {
            let expected = &self.values[b.clone()];
            let out = &mut buf[..b.len()];
            // Start from the complement, so that a value left unwritten shows.
            for (o, v) in out.iter_mut().zip(expected) {
                *o = !v;
            }
            let want = self.encoded.ranges[i].len();
            match decode(i, out) {
                Ok(consumed) if consumed == want => {}
                Ok(consumed) => {
                    bail!("block {i} consumed {consumed} bytes, not {want}")
                }
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

    /// One pass of `decode` over every block, into `buf`; false if any failed.
    fn pass<E>(
        &self,
        buf: &mut [u32],
        mut decode: impl FnMut(usize, &mut [u32]) -> Result<usize, E>,
    ) -> bool {
        let mut ok = true;
        for (i, b) in self.blocks.iter().enumerate() {
            ok &= decode(i, &mut buf[..b.len()]).is_ok();
        }
        black_box(&mut *buf);
        ok
    }
}

/// Decoding speed relative to the scalar kernel's, when it has a row.
fn set_scalar_ratio(lines: &mut [Line]) {
    let scalar = lines.iter().find_map(|l| match l {
        Line::Row(r) if r.isa == Isa::Scalar.name() => Some(r.decode_mis),
        _ => None,
    });
    let Some(base) = scalar else { return };
    for line in lines {
        if let Line::Row(r) = line {
            r.scalar_ratio = Some(r.decode_mis / base);
        }
    }
}

/// The least time a timed sample of one decoder lasts.
const SAMPLE: Duration = Duration::from_millis(2);

/// The median time of `reps` runs of `pass`.
fn median(reps: u32, mut pass: impl FnMut()) -> Duration {
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
fn secs(t: Duration) -> f64 {
    t.as_secs_f64().max(1e-9)
}
