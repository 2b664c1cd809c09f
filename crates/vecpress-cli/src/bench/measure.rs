//! Timing one integer codec on one input: encode, memcpy baseline, every ISA,
//! every peer of its family.
//!
//! As in the papers: every block is decoded into one reused buffer of
//! `--block` values (L1-resident), and the timing is the race of `race.rs`.
#![forbid(unsafe_code)]

use std::hint::black_box;
use std::time::Duration;

use vecpress::Isa;
use vecpress::codec::IntCodec;

use super::input::Input;
use super::peers::{self, Peer};
use super::race::{self, Bench, Contestant, Encoded, Timed, secs};
use super::report::{Failure, Line, Row};

/// The `isa` column of the default dispatch's row.
pub const AUTO: &str = "auto";

/// What to run on one input with one codec.
pub struct Job<'a> {
    pub input: &'a Input,
    pub codec: &'static dyn IntCodec,
    pub isas: &'a [Isa],
    /// Whether the default dispatch gets a row (`auto`).
    pub auto: bool,
    pub peers: &'a [&'a dyn Peer],
    pub block: usize,
    pub reps: u32,
}

impl Job<'_> {
    /// Measures everything; one line per ISA, then per peer. A decoder that
    /// does not round-trip gets a [`Failure`] line; the others still run.
    pub fn run(&self) -> Vec<Line> {
        let delta = self.codec.is_delta();
        let values = self.input.values(delta);
        let blocks = &self.input.blocks[..];
        let padding = peers::min_input_len(self.block);
        let mut scratch = vec![0u8; self.codec.max_encoded_len(self.block)];
        let encoded = Encoded::blocks(values, blocks, padding, |block| {
            let n = self.codec.encode(block, &mut scratch);
            Some(scratch[..n].to_vec())
        })
        .expect("vecpress's encoders always encode");

        let encode_time = race::median(self.reps, || {
            for b in blocks {
                black_box(
                    self.codec
                        .encode(black_box(&values[b.clone()]), &mut scratch),
                );
            }
        });
        let mut buf = vec![0u32; self.block];
        let bench = Bench {
            values,
            blocks,
            encoded: &encoded,
        };
        let name = self.codec.name();
        let failure = |codec: &str, isa: &str, e| failure(&self.input.name, codec, isa, e);
        let consumed = |i: usize| encoded.ranges[i].len();
        // The scalar reference checks the stream itself before any other decoder runs.
        if let Err(e) = bench.check(&mut buf, consumed, |i, out| {
            self.codec.decode(Isa::Scalar, bench.block_bytes(i), out)
        }) {
            let e = e.context("the scalar reference does not decode what was encoded");
            return vec![failure(name, Isa::Scalar.name(), e)];
        }

        // Peers with a format of their own decode their own encoding of the blocks.
        let own: Vec<Option<Encoded>> = self
            .peers
            .iter()
            .map(|p| Encoded::blocks(values, blocks, padding, |block| p.encode(block, delta)))
            .collect();
        let mut contestants: Vec<Contestant<u32>> = vec![race::memcpy(values, blocks)];
        let mut failures = Vec::new();
        // Every kernel asked for, then (`None`) the default dispatch, as the
        // codec's own `decode` runs it.
        let kernels = self.isas.iter().map(|&isa| Some(isa));
        for kernel in kernels.chain(self.auto.then_some(None)) {
            let label = kernel.map_or(AUTO, Isa::name);
            let decode = move |i: usize, out: &mut [u32]| match kernel {
                Some(isa) => self.codec.decode(isa, bench.block_bytes(i), out),
                None => self.codec.decode_auto(bench.block_bytes(i), out),
            };
            match bench.check(&mut buf, consumed, decode) {
                Ok(()) => contestants.push(Contestant {
                    codec: name.to_string(),
                    isa: label,
                    encode: Some(encode_time),
                    note: None,
                    compressed: encoded.len,
                    pass: Box::new(move |buf: &mut [u32]| bench.pass(buf, decode)),
                }),
                Err(e) => failures.push(failure(name, label, e)),
            }
        }
        for (&peer, own) in self.peers.iter().zip(&own) {
            let peer_name = super::peer_row_name(peer.name(), delta);
            // A row of vecpress's own kernels on a peer's stream (an `isa`
            // other than `-`) reports its encoder's time too, like the codecs.
            let encode = (peer.isa() != "-" && own.is_some()).then(|| {
                race::median(self.reps, || {
                    for b in blocks {
                        black_box(peer.encode(black_box(&values[b.clone()]), delta));
                    }
                })
            });
            let bench = match own {
                Some(encoded) => Bench { encoded, ..bench },
                None => bench,
            };
            let decode = move |i: usize, out: &mut [u32]| {
                let input = bench.padded_block_bytes(i);
                let consumed = if delta {
                    peer.decode_delta(input, out)
                } else {
                    peer.decode(input, out)
                };
                consumed.ok_or("malformed input")
            };
            let consumed = |i: usize| bench.encoded.ranges[i].len();
            match bench.check(&mut buf, consumed, decode) {
                Ok(()) => contestants.push(Contestant {
                    codec: peer_name,
                    isa: peer.isa(),
                    encode,
                    note: peer.note(),
                    compressed: bench.encoded.len,
                    pass: Box::new(move |buf: &mut [u32]| bench.pass(buf, decode)),
                }),
                Err(e) => failures.push(failure(&peer_name, peer.isa(), e)),
            }
        }

        let mut timed = race::race(contestants, &mut buf, self.reps);
        let memcpy_time = race::take_memcpy(&mut timed);
        let total = values.len() as f64;
        let row = |t: Timed, decode: Duration| {
            Line::Row(Row {
                codec: t.codec,
                isa: t.isa.into(),
                input: self.input.name.clone(),
                elem: "u32".into(),
                values: values.len() as u64,
                input_bytes: values.len() as u64 * 4,
                compressed_bytes: t.compressed as u64,
                ratio: total * 4.0 / (t.compressed.max(1) as f64),
                bits_per_value: t.compressed as f64 * 8.0 / total,
                encode_mis: t.encode.map(|e| total / secs(e) / 1e6),
                decode_mis: total / secs(decode) / 1e6,
                encode_gbs: t.encode.map(|e| total * 4.0 / secs(e) / 1e9),
                decode_gbs: total * 4.0 / secs(decode) / 1e9,
                memcpy_gbs: total * 4.0 / secs(memcpy_time) / 1e9,
                memcpy_ratio: secs(memcpy_time) / secs(decode),
                scalar_ratio: None,
                blocks: blocks.len() as u64,
                block: self.block as u64,
                reps: self.reps,
                note: t.note,
                level: None,
                kernel: (t.isa == AUTO).then(|| self.codec.auto_kernel().name().to_string()),
            })
        };
        timed_lines(timed, failures, &self.input.name, row)
    }
}

/// The line of `codec` at `isa` that failed on `input` with `error`.
pub fn failure(input: &str, codec: &str, isa: &str, error: anyhow::Error) -> Line {
    Line::Failed(Failure {
        codec: codec.into(),
        isa: isa.into(),
        input: input.into(),
        error: format!("{error:#}"),
    })
}

/// One line per timed contestant on `input`: its `row`, or a failure where
/// its timed decode failed; then the `failures` found before timing, with
/// every row's ratio to the scalar kernel set.
pub fn timed_lines(
    timed: Vec<Timed>,
    failures: Vec<Line>,
    input: &str,
    row: impl Fn(Timed, Duration) -> Line,
) -> Vec<Line> {
    let mut lines: Vec<Line> = timed
        .into_iter()
        .map(|t| match t.decode {
            Some(decode) => row(t, decode),
            None => failure(
                input,
                &t.codec,
                t.isa,
                anyhow::anyhow!("decoding failed while timed, after a good round trip"),
            ),
        })
        .collect();
    lines.extend(failures);
    set_scalar_ratio(&mut lines);
    lines
}

/// Decoding speed relative to the scalar kernel's, when it has a row.
pub fn set_scalar_ratio(lines: &mut [Line]) {
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
