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

impl ByteJob<'_> {
    /// Measures everything; one line per ISA, then per peer.
    pub fn run(&self) -> Vec<Line> {
        let input = self.input;
        let width = input.elem.width;
        let blocks = &input.blocks[..];
        let name = self.codec.name();
        let failure =
            |codec: &str, isa: &str, e| super::measure::failure(&input.name, codec, isa, e);
        let max_block = input.max_block();
        let mut scratch = vec![0u8; self.codec.max_encoded_len(max_block)];
        let compress = |block: &[u8], out: &mut [u8]| match self.level {
            Some(level) => lz4::hc::compress_into(block, out, level),
            None => self.codec.encode(block, width, out),
        };
        let mut encode_error = None;
        let encoded = Encoded::blocks(&input.bytes, blocks, 0, |block| {
            match compress(block, &mut scratch) {
                Ok(n) => Some(scratch[..n].to_vec()),
                Err(e) => {
                    encode_error = Some(e);
                    None
                }
            }
        });
        let Some(encoded) = encoded else {
            let e = anyhow::anyhow!("encoding failed: {}", encode_error.expect("set on None"));
            return vec![failure(name, "-", e)];
        };
        let encode_time = race::median(self.reps, || {
            for b in blocks {
                let block = black_box(&input.bytes[b.clone()]);
                black_box(compress(block, &mut scratch).ok());
            }
        });
        // Two blocks: the LZ4 row `lz4+pairs` decodes blocks two at a time.
        let mut buf = vec![0u8; 2 * max_block];
        let bench = Bench {
            values: &input.bytes[..],
            blocks,
            encoded: &encoded,
        };
        let produced = |i: usize| blocks[i].len();
        if let Err(e) = bench.check(&mut buf, produced, |i, out| {
            self.codec
                .decode(Isa::Scalar, bench.block_bytes(i), width, out)
        }) {
            let e = e.context("the scalar reference does not decode what was encoded");
            return vec![failure(name, Isa::Scalar.name(), e)];
        }

        let own: Vec<Option<Encoded>> = self
            .peers
            .iter()
            .map(|p| {
                Encoded::blocks(&input.bytes, blocks, 0, |block| {
                    let mut out = Vec::new();
                    let n = p.encode(block, width, &mut out)?;
                    out.truncate(n);
                    Some(out)
                })
            })
            .collect();
        let adaptive = RefCell::new(AdaptiveDecompressor::new());
        let adaptive = &adaptive;
        let adaptive_pairs = RefCell::new(AdaptiveDecompressor::new());
        let adaptive_pairs = &adaptive_pairs;
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
                        adaptive.borrow_mut().decompress_into(input, out)
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
                            black_box(self.codec.encode_with(level, block, width, &mut scratch));
                        }
                    })
                }
                _ => encode_time,
            };
            // The round trip checked, and one pass to time.
            let (checked, pass): (Result<()>, race::Pass<'_, u8>) =
                if let Kernel::AdaptivePairs = kernel {
                    let pair = move |i: usize, x: &mut [u8], y: &mut [u8]| {
                        let (a, b) = (bench.block_bytes(i), bench.block_bytes(i + 1));
                        adaptive_pairs.borrow_mut().decompress_pair((a, x), (b, y))
                    };
                    let single = move |i: usize, out: &mut [u8]| {
                        adaptive_pairs
                            .borrow_mut()
                            .decompress_into(bench.block_bytes(i), out)
                    };
                    (
                        bench.check_pairs(&mut buf, pair, single),
                        Box::new(move |buf: &mut [u8]| bench.pass_pairs(buf, pair, single)),
                    )
                } else {
                    (
                        bench.check(&mut buf, produced, decode),
                        Box::new(move |buf: &mut [u8]| bench.pass(buf, decode)),
                    )
                };
            match checked {
                Ok(()) => contestants.push(Contestant {
                    codec: row_name,
                    isa,
                    encode: Some(encode),
                    note: None,
                    compressed: encoded.len,
                    pass,
                }),
                Err(e) => failures.push(failure(&row_name, isa, e)),
            }
        }
        for (&peer, own) in self.peers.iter().zip(&own) {
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
            let compressed = own.as_ref().map_or(encoded.len, |e| e.len);
            let bench = match own {
                Some(encoded) if !peer.decodes_ours() => Bench { encoded, ..bench },
                _ => bench,
            };
            let decode = move |i: usize, out: &mut [u8]| {
                peer.decode(bench.block_bytes(i), width, out)
                    .ok_or("malformed input")
            };
            match bench.check(&mut buf, produced, decode) {
                Ok(()) => contestants.push(Contestant {
                    codec: peer.name().to_string(),
                    isa: "-",
                    encode,
                    note: peer.note(),
                    compressed,
                    pass: Box::new(move |buf: &mut [u8]| bench.pass(buf, decode)),
                }),
                Err(e) => failures.push(failure(peer.name(), "-", e)),
            }
        }

        let mut timed = race::race(contestants, &mut buf, self.reps);
        let memcpy_time = race::take_memcpy(&mut timed);
        let bytes = input.bytes.len() as f64;
        let values = bytes / width as f64;
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
                blocks: blocks.len() as u64,
                block: max_block as u64,
                reps: self.reps,
                note: t.note,
            })
        };
        // Which loops the adaptive decompressors ended up running, and how often.
        for t in timed.iter_mut().filter(|t| t.isa == ADAPTIVE) {
            let stats = if t.codec.ends_with("+pairs") {
                adaptive_pairs.borrow().pair_stats()
            } else {
                adaptive.borrow().stats()
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
