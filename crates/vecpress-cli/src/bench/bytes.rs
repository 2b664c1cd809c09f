//! Byte codecs (LZ4, byte stream split) on bytes and fixed-width values:
//! inputs, and the timing of one codec on one input.
//!
//! Each input is cut into blocks of `--block` bytes (rounded down to whole
//! values), compressed one by one; every block is decompressed into one
//! reused buffer, against a memcpy of the same bytes, in the race of
//! `race.rs`. Rows count values (elements of the input's type; bytes for
//! `bytes`) and give speeds in GB/s of uncompressed bytes. A peer with a
//! compressor of its own reports that compressor's speed and size; its
//! decoder is timed on vecpress's blocks where the format is shared, so that
//! every decoder works on the same bytes.
#![forbid(unsafe_code)]

use std::cell::RefCell;
use std::hint::black_box;
use std::ops::Range;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use vecpress::Isa;
use vecpress::codec::ByteCodec;
use vecpress::lz4::{self, adaptive::AdaptiveDecompressor, block::Variant};

use super::elem::Elem;
use super::generate_bytes::ByteGenerator;
use super::peers::BytePeer;
use super::race::{self, Bench, Contestant, Encoded, Timed, secs};
use super::report::{Line, Row};

/// One byte input, cut into blocks.
pub struct ByteInput {
    /// Name in the table: the generator's, or the file's stem.
    pub name: String,
    /// Its element type.
    pub elem: Elem,
    /// The whole input.
    pub bytes: Vec<u8>,
    /// Blocks: ranges of `bytes`, each a whole number of values.
    pub blocks: Vec<Range<usize>>,
}

impl ByteInput {
    /// A generated input of `n` values.
    pub fn generated(generator: ByteGenerator, n: usize, block: usize) -> ByteInput {
        let elem = generator.elem();
        ByteInput::new(generator.name(), elem, generator.generate(n), block)
    }

    /// Loads a file of `elem` values (little-endian).
    pub fn load(path: &Path, name: String, elem: Elem, block: usize) -> Result<ByteInput> {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        if !bytes.len().is_multiple_of(elem.width) {
            bail!(
                "{}: its size, {} bytes, is not a multiple of {} (the width of {}); pass --type",
                path.display(),
                bytes.len(),
                elem.width,
                elem.name
            );
        }
        Ok(ByteInput::new(name, elem, bytes, block))
    }

    fn new(name: String, elem: Elem, bytes: Vec<u8>, block: usize) -> ByteInput {
        let step = (block / elem.width).max(1) * elem.width;
        let blocks = (0..bytes.len())
            .step_by(step)
            .map(|start| start..bytes.len().min(start + step))
            .collect();
        ByteInput {
            name,
            elem,
            bytes,
            blocks,
        }
    }

    /// The largest block, in bytes.
    fn max_block(&self) -> usize {
        self.blocks.iter().map(|b| b.len()).max().unwrap_or(0)
    }
}

/// What to run on one byte input with one codec.
pub struct ByteJob<'a> {
    pub input: &'a ByteInput,
    pub codec: &'static dyn ByteCodec,
    pub isas: &'a [Isa],
    /// Whether the default dispatch gets a row (`auto`).
    pub auto: bool,
    pub peers: &'a [&'a dyn BytePeer],
    pub reps: u32,
    /// The compression level, for a codec with levels (`lz4-hc`): its
    /// blocks are compressed at this level instead of the registry's
    /// default.
    pub level: Option<u32>,
}

/// The adaptive LZ4 decompressors of a job's rows (`lz4`, `lz4+pairs`),
/// kept to say afterwards which loops they ran.
#[derive(Default)]
struct Adaptive {
    single: RefCell<AdaptiveDecompressor>,
    pairs: RefCell<AdaptiveDecompressor>,
}

/// The contestants of a job that round-tripped, and the lines of those
/// that did not.
type Entrants<'p> = (Vec<Contestant<'p, u8>>, Vec<Line>);

impl ByteJob<'_> {
    /// Measures everything; one line per ISA, then per peer: the blocks
    /// encoded and checked against the scalar decoder, every decoder that
    /// round-trips raced against a memcpy, then a row each.
    pub fn run(&self) -> Vec<Line> {
        let max_block = self.input.max_block();
        let mut scratch = vec![0u8; self.codec.max_encoded_len(max_block)];
        let (encoded, encode_time) = match self.encode_all(&mut scratch) {
            Ok(done) => done,
            Err(e) => return vec![self.failure(self.codec.name(), "-", e)],
        };
        // Two blocks: the LZ4 row `lz4+pairs` decodes blocks two at a time.
        let mut buf = vec![0u8; 2 * max_block];
        let bench = Bench {
            values: &self.input.bytes[..],
            blocks: &self.input.blocks[..],
            encoded: &encoded,
        };
        let produced = |i: usize| self.input.blocks[i].len();
        let width = self.input.elem.width;
        if let Err(e) = bench.check(&mut buf, produced, |i, out| {
            self.codec
                .decode(Isa::Scalar, bench.block_bytes(i), width, out)
        }) {
            let e = e.context("the scalar reference does not decode what was encoded");
            return vec![self.failure(self.codec.name(), Isa::Scalar.name(), e)];
        }
        let peers_encoded = self.peers_encode();
        let adaptive = Adaptive::default();
        let (mut contestants, mut failures) =
            self.own_contestants(bench, &adaptive, encode_time, &mut scratch, &mut buf);
        let (theirs, their_failures) = self.peer_contestants(bench, &peers_encoded, &mut buf);
        contestants.extend(theirs);
        failures.extend(their_failures);
        let timed = race::race(contestants, &mut buf, self.reps);
        self.report(timed, failures, &adaptive)
    }

    fn failure(&self, codec: &str, isa: &str, e: anyhow::Error) -> Line {
        super::measure::failure(&self.input.name, codec, isa, e)
    }

    /// Compresses a block with the job's codec (at its level, if it has one).
    fn compress(&self, block: &[u8], out: &mut [u8]) -> Result<usize, vecpress::Error> {
        match self.level {
            Some(level) => lz4::hc::compress_into(block, out, level),
            None => self.codec.encode(block, self.input.elem.width, out),
        }
    }

    /// Every block encoded, and the median time of encoding them all.
    fn encode_all(&self, scratch: &mut [u8]) -> Result<(Encoded, Duration)> {
        let input = self.input;
        let blocks = &input.blocks[..];
        let mut encode_error = None;
        let encoded = Encoded::blocks(&input.bytes, blocks, 0, |block| {
            match self.compress(block, scratch) {
                Ok(n) => Some(scratch[..n].to_vec()),
                Err(e) => {
                    encode_error = Some(e);
                    None
                }
            }
        });
        let Some(encoded) = encoded else {
            bail!("encoding failed: {}", encode_error.expect("set on None"));
        };
        let encode_time = race::median(self.reps, || {
            for b in blocks {
                let block = black_box(&input.bytes[b.clone()]);
                black_box(self.compress(block, scratch).ok());
            }
        });
        Ok((encoded, encode_time))
    }

    /// Each peer's own encoding of the blocks, where it has a compressor.
    fn peers_encode(&self) -> Vec<Option<Encoded>> {
        let (input, width) = (self.input, self.input.elem.width);
        self.peers
            .iter()
            .map(|p| {
                Encoded::blocks(&input.bytes, &input.blocks, 0, |block| {
                    let mut out = Vec::new();
                    let n = p.encode(block, width, &mut out)?;
                    out.truncate(n);
                    Some(out)
                })
            })
            .collect()
    }

    /// The memcpy baseline and the codec's own decoders (a kernel per level,
    /// LZ4's loops and adaptive decompressors, the default dispatch), each
    /// checked; a codec with encoders per level has each timed here.
    fn own_contestants<'p>(
        &'p self,
        bench: Bench<'p, u8>,
        adaptive: &'p Adaptive,
        encode_time: Duration,
        scratch: &mut [u8],
        buf: &mut [u8],
    ) -> Entrants<'p> {
        let (input, width, name) = (self.input, self.input.elem.width, self.codec.name());
        let blocks = &input.blocks[..];
        let produced = |i: usize| blocks[i].len();
        let mut contestants: Vec<Contestant<u8>> = vec![race::memcpy(&input.bytes, blocks)];
        let mut failures = Vec::new();
        for kernel in kernels(self.codec, self.isas, self.auto) {
            let (row_name, isa) = kernel.row(name);
            let decode = move |i: usize, out: &mut [u8]| {
                let input = bench.block_bytes(i);
                match kernel {
                    Kernel::Isa(isa) => self.codec.decode(isa, input, width, out),
                    Kernel::Variant(v) => lz4::block::decompress_into_variant(v, input, out),
                    Kernel::Default => self.codec.decode_auto(input, width, out),
                    Kernel::Adaptive | Kernel::AdaptivePairs => {
                        adaptive.single.borrow_mut().decompress_into(input, out)
                    }
                }
            };
            // A codec with encoding kernels per level has its encoder timed
            // on each row, the others the one encoder's time.
            let encode = match kernel {
                Kernel::Isa(level)
                    if self.codec.encode_with(level, &[], width, &mut []).is_some() =>
                {
                    race::median(self.reps, || {
                        for b in blocks {
                            let block = black_box(&input.bytes[b.clone()]);
                            black_box(self.codec.encode_with(level, block, width, scratch));
                        }
                    })
                }
                _ => encode_time,
            };
            // The round trip checked, and one pass to time.
            let (checked, pass): (Result<()>, race::Pass<'_, u8>) =
                if let Kernel::AdaptivePairs = kernel {
                    let pairs = &adaptive.pairs;
                    let pair = move |i: usize, x: &mut [u8], y: &mut [u8]| {
                        let (a, b) = (bench.block_bytes(i), bench.block_bytes(i + 1));
                        pairs.borrow_mut().decompress_pair((a, x), (b, y))
                    };
                    let single = move |i: usize, out: &mut [u8]| {
                        pairs
                            .borrow_mut()
                            .decompress_into(bench.block_bytes(i), out)
                    };
                    (
                        bench.check_pairs(buf, pair, single),
                        Box::new(move |buf: &mut [u8]| bench.pass_pairs(buf, pair, single)),
                    )
                } else {
                    (
                        bench.check(buf, produced, decode),
                        Box::new(move |buf: &mut [u8]| bench.pass(buf, decode)),
                    )
                };
            match checked {
                Ok(()) => contestants.push(Contestant {
                    codec: row_name,
                    isa,
                    encode: Some(encode),
                    note: None,
                    compressed: bench.encoded.len,
                    pass,
                }),
                Err(e) => failures.push(self.failure(&row_name, isa, e)),
            }
        }
        (contestants, failures)
    }

    /// The peers' decoders, each checked: on their own encoding where the
    /// format is theirs alone, else on ours; with their compressors' times.
    fn peer_contestants<'p>(
        &'p self,
        bench: Bench<'p, u8>,
        peers_encoded: &'p [Option<Encoded>],
        buf: &mut [u8],
    ) -> Entrants<'p> {
        let (input, width) = (self.input, self.input.elem.width);
        let blocks = &input.blocks[..];
        let produced = |i: usize| blocks[i].len();
        let (mut contestants, mut failures) = (Vec::new(), Vec::new());
        for (&peer, own) in self.peers.iter().zip(peers_encoded) {
            // Its compression is timed (and its size reported) where it has one.
            let encode = own.as_ref().map(|_| {
                let mut out = Vec::new();
                race::median(self.reps, || {
                    for b in blocks {
                        let block = black_box(&input.bytes[b.clone()]);
                        black_box(peer.encode(block, width, &mut out));
                    }
                })
            });
            let compressed = own.as_ref().map_or(bench.encoded.len, |e| e.len);
            let bench = match own {
                Some(encoded) if !peer.decodes_ours() => Bench { encoded, ..bench },
                _ => bench,
            };
            let decode = move |i: usize, out: &mut [u8]| {
                peer.decode(bench.block_bytes(i), width, out)
                    .ok_or("malformed input")
            };
            match bench.check(buf, produced, decode) {
                Ok(()) => contestants.push(Contestant {
                    codec: peer.name().to_string(),
                    isa: "-",
                    encode,
                    note: peer.note(),
                    compressed,
                    pass: Box::new(move |buf: &mut [u8]| bench.pass(buf, decode)),
                }),
                Err(e) => failures.push(self.failure(peer.name(), "-", e)),
            }
        }
        (contestants, failures)
    }

    /// A row for each decoder timed (against the memcpy's time), the
    /// adaptive rows noting which loops they ran, then the failures.
    fn report(&self, mut timed: Vec<Timed>, failures: Vec<Line>, adaptive: &Adaptive) -> Vec<Line> {
        let input = self.input;
        let name = self.codec.name();
        let memcpy_time = race::take_memcpy(&mut timed);
        let bytes = input.bytes.len() as f64;
        let values = bytes / input.elem.width as f64;
        let max_block = input.max_block();
        let level_of = |codec: &str| {
            if codec == name {
                return self.level;
            }
            let peer = self.peers.iter().find(|p| p.name() == codec);
            peer.and_then(|p| p.level())
        };
        let row = |t: Timed, decode: Duration| {
            Line::Row(Row {
                level: level_of(&t.codec),
                // The adaptive rows (`lz4`, `lz4+pairs`) say in their note
                // which loops they ran.
                kernel: (t.isa == ADAPTIVE && t.codec != "lz4" && !t.codec.ends_with("+pairs"))
                    .then(|| self.codec.auto_kernel().to_string()),
                codec: t.codec,
                isa: t.isa.into(),
                input: input.name.clone(),
                elem: input.elem.name.into(),
                values: values as u64,
                input_bytes: bytes as u64,
                compressed_bytes: t.compressed as u64,
                ratio: bytes / (t.compressed.max(1) as f64),
                bits_per_value: t.compressed as f64 * 8.0 / values,
                encode_mis: t.encode.map(|e| values / secs(e) / 1e6),
                decode_mis: values / secs(decode) / 1e6,
                encode_gbs: t.encode.map(|e| bytes / secs(e) / 1e9),
                decode_gbs: bytes / secs(decode) / 1e9,
                memcpy_gbs: bytes / secs(memcpy_time) / 1e9,
                memcpy_ratio: secs(memcpy_time) / secs(decode),
                scalar_ratio: None,
                blocks: input.blocks.len() as u64,
                block: max_block as u64,
                reps: self.reps,
                note: t.note,
            })
        };
        // Which loops the adaptive decompressors ended up running, and how often.
        for t in timed.iter_mut().filter(|t| t.isa == ADAPTIVE) {
            let stats = if t.codec.ends_with("+pairs") {
                adaptive.pairs.borrow().pair_stats()
            } else {
                adaptive.single.borrow().stats()
            };
            let total: u64 = stats.iter().map(|s| s.calls).sum();
            let shares: Vec<String> = stats
                .iter()
                .filter(|s| s.calls > 0)
                .map(|s| {
                    let share = s.calls as f64 * 100.0 / total.max(1) as f64;
                    format!("{} {share:.0}%", s.variant.name())
                })
                .collect();
            t.note = Some(format!("calls per loop: {}", shares.join(", ")));
        }
        super::measure::timed_lines(timed, failures, &input.name, row)
    }
}

/// The `isa` column of the adaptive decompressor's row, and of the other
/// codecs' default dispatch.
const ADAPTIVE: &str = super::measure::AUTO;

/// One decoder of a byte codec: a kernel per ISA level; for LZ4, the
/// adaptive decompressor (row `lz4`) and each fixed loop (rows `lz4:LOOP`).
#[derive(Clone, Copy)]
enum Kernel {
    Isa(Isa),
    Variant(Variant),
    Adaptive,
    /// The adaptive decompressor over two blocks at a time (row `lz4+pairs`).
    AdaptivePairs,
    /// The codec's own `decode`: the default dispatch (row `CODEC`, isa `auto`).
    Default,
}

impl Kernel {
    /// Its row's codec and isa columns.
    fn row(self, codec: &str) -> (String, &'static str) {
        match self {
            Kernel::Isa(isa) => (codec.to_string(), isa.name()),
            Kernel::Variant(v) => (
                format!("{codec}:{}", v.name()),
                v.isa().map_or("-", Isa::name),
            ),
            Kernel::Adaptive => (codec.to_string(), ADAPTIVE),
            Kernel::AdaptivePairs => (format!("{codec}+pairs"), ADAPTIVE),
            Kernel::Default => (codec.to_string(), ADAPTIVE),
        }
    }
}

/// The decoders to time: for LZ4 the adaptive one, then every loop whose
/// level is among `isas`; for other codecs one per level, then the default
/// dispatch.
fn kernels(codec: &dyn ByteCodec, isas: &[Isa], auto: bool) -> Vec<Kernel> {
    if codec.name() != "lz4" {
        return isas
            .iter()
            .map(|&isa| Kernel::Isa(isa))
            .chain(auto.then_some(Kernel::Default))
            .collect();
    }
    let loops = lz4::block::variants()
        .into_iter()
        .filter(|v| v.isa().is_some_and(|isa| isas.contains(&isa)))
        .map(Kernel::Variant);
    [Kernel::Adaptive, Kernel::AdaptivePairs]
        .into_iter()
        .chain(loops)
        .collect()
}
