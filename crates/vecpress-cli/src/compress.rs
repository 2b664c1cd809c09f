//! `vecpress compress`: a file of integers, floats or bytes into a vecpress
//! file (docs/FORMAT.md) or an LZ4 frame, block by block in bounded memory,
//! blocks encoded in parallel with `--threads` (see [`crate::parallel`]).
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use vecpress::container::{Element, Header, MAX_BLOCK_BYTES, PER_BLOCK, STORED_CODEC, Writer};

use crate::choose::{Chooser, Tally, Work};
use crate::elements::{self, Block, BlockSource};
use crate::engine::{Engine, Scratch};
use crate::files::{self, Input, Output};
use crate::lz4_settings::{self, Dictionary, Tuned};
use crate::{Common, UsageError, parallel, trial};

/// Options of `vecpress compress`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  vecpress compress --type postings index.docs          # writes index.docs.vp
  vecpress compress --type f64 --auto -v prices.f64     # tries every codec on a sample
  vecpress compress --codec vbyte-delta --type u32 ids.u32 -o ids.vp
  seq 1 1000000 | vecpress compress --type text-u64 - > seq.vp
  vecpress compress --codec lz4 --threads 2 --block 4M big.bin
  vecpress compress --codec lz4-hc --level 12 big.bin   # smallest LZ4, slow to write
  vecpress compress --codec lz4 --dict records.dict rec.json   # decompress with --dict too
  vecpress compress --format lz4 server.log      # server.log.lz4, for the lz4 command
  vecpress compress --format lz4 -T 0 -c big.log | ssh host 'lz4 -d > big.log'   # every core
  vecpress compress --format lz4 -D app.dict --level 9 a.log   # lz4 -D app.dict -d reads it")]
pub struct CompressOpt {
    /// Input file, or - for stdin.
    pub input: PathBuf,

    /// Output file, or - for stdout (default: INPUT.vp; stdout for stdin).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// Write to stdout.
    #[arg(short = 'c', long)]
    pub stdout: bool,

    /// The codec (see `vecpress inspect --type T FILE` for what fits);
    /// `store` keeps the data uncompressed.
    #[arg(long, value_name = "NAME", conflicts_with = "auto")]
    pub codec: Option<String>,

    /// Pick each block's codec (the default without --codec): the one that
    /// makes the first block smallest, among all but the slow
    /// high-compression ones (lz4-hc: name it with --codec), and another
    /// for a block whose ratio under it strays by over 10%, if a sample of
    /// the block shows another smaller; -v says which and why.
    #[arg(long)]
    pub auto: bool,

    /// What the input holds: u32, u64, i32, i64, f32, f64 (little-endian),
    /// bytes, postings (ds2i lists `[n][n x u32]...`) or text-u64 (one
    /// decimal integer a line). Default: by extension (.u32, .f64, .docs,
    /// ...), else bytes.
    #[arg(long = "type", value_name = "TYPE", value_parser = parse_element)]
    pub element: Option<Element>,

    /// Bytes of input elements per block (suffixes K, M), rounded down to
    /// whole elements; at most 64M.
    #[arg(long, value_name = "SIZE", default_value = "1M", value_parser = parse_size)]
    pub block: u64,

    /// Threads in all, each reading, encoding and writing blocks in turn
    /// (0: one per core), for vecpress files and LZ4 frames alike. The
    /// output is the same at every count; memory grows by a block (its
    /// input and output, and a second output where the codec is chosen per
    /// block) a thread, 4 MiB blocks for --format lz4.
    #[arg(short = 'T', long, value_name = "N", default_value_t = 1)]
    pub threads: usize,

    /// What to write: a vecpress file (docs/FORMAT.md), `lz4`, a standard
    /// LZ4 frame (`.lz4`, as the lz4 command reads it), or `raw`, the
    /// codec's bare stream of all the elements (held in memory; posting
    /// lists as plain u32), for embedding in other formats: it stores no
    /// count, which -v prints.
    #[arg(long, value_enum, default_value_t = Format::Vecpress)]
    pub format: Format,

    /// Compression level of the LZ4 codecs, as the lz4 command takes it:
    /// 1 the fast compressor, 2 to 12 the high-compression parsers (slower,
    /// smaller; 9 is lz4-hc's default). With --codec lz4-hc 2 to 12; with
    /// --codec lz4 or --format lz4 1 to 12 (--codec lz4 from 2 up is
    /// lz4-hc). Other codecs have no levels.
    #[arg(long, value_name = "N")]
    pub level: Option<u32>,

    /// Compress with this LZ4 dictionary (its last 64 KiB count; train one
    /// with vecpress::lz4::dict): --codec lz4 or lz4-hc, or --format lz4.
    /// The output names it by id; decompressing needs the same file
    /// (`vecpress decompress --dict FILE`, or `lz4 -D FILE -d` for frames).
    #[arg(short = 'D', long, value_name = "FILE")]
    pub dict: Option<PathBuf>,

    #[command(flatten)]
    pub common: Common,
}

/// Output formats of `compress`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The vecpress file format.
    Vecpress,
    /// The codec's bare stream.
    Raw,
    /// A standard LZ4 frame (as the `lz4` command writes; --codec and --type
    /// do not apply).
    Lz4,
}

/// Parses `--type`.
pub fn parse_element(s: &str) -> Result<Element, String> {
    Element::parse(s).ok_or_else(|| {
        let names: Vec<_> = Element::ALL.iter().map(|e| e.name()).collect();
        format!("unknown type (known: {})", names.join(", "))
    })
}

/// Parses a block size: [`parse_bytes`], at most [`MAX_BLOCK_BYTES`].
pub fn parse_size(s: &str) -> Result<u64, String> {
    let n = parse_bytes(s)?;
    if n > MAX_BLOCK_BYTES {
        return Err(format!("must be at most {}M", MAX_BLOCK_BYTES >> 20));
    }
    Ok(n)
}

/// Parses a positive size with an optional K, M or G suffix (powers of 1024).
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let (digits, shift) = match s.as_bytes().last() {
        Some(b'K' | b'k') => (&s[..s.len() - 1], 10),
        Some(b'M' | b'm') => (&s[..s.len() - 1], 20),
        Some(b'G' | b'g') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let n: u64 = digits.parse().map_err(|_| format!("'{s}' is not a size"))?;
    let n = n
        .checked_shl(shift)
        .filter(|&b| b >> shift == n)
        .ok_or("too large")?;
    if n == 0 {
        return Err("must be positive".into());
    }
    Ok(n)
}

/// Runs `vecpress compress`.
pub fn run(opt: &CompressOpt) -> Result<()> {
    let element = opt
        .element
        .unwrap_or_else(|| elements::by_extension(&opt.input));
    let dict = opt.dict.as_deref().map(Dictionary::load).transpose()?;
    let engine = match &opt.codec {
        _ if opt.format == Format::Lz4 => {
            if let Some(level) = opt.level {
                lz4_settings::check_frame_level(level)?;
            }
            None
        }
        Some(name) => Some(Tuned::new(
            chosen(name, element)?,
            opt.level,
            dict.as_ref(),
        )?),
        None => {
            for (given, what) in [(opt.level.is_some(), "--level"), (dict.is_some(), "--dict")] {
                if given {
                    return Err(UsageError(format!(
                        "{what} needs --codec lz4 or lz4-hc (or --format lz4)"
                    ))
                    .into());
                }
            }
            None
        }
    };
    let suffix = if opt.format == Format::Lz4 {
        ".lz4"
    } else {
        ".vp"
    };
    let out_path = files::output_path(&opt.input, opt.output.as_deref(), opt.stdout, |p| {
        let mut s = p.as_os_str().to_owned();
        s.push(suffix);
        Ok(PathBuf::from(s))
    })?;
    if out_path != Path::new("-") && out_path == opt.input {
        return Err(UsageError(format!(
            "{}: input and output are the same file",
            out_path.display()
        ))
        .into());
    }
    let input = Input::open(&opt.input)?;
    if opt.format == Format::Lz4 {
        return lz4(opt, input, &out_path, dict.as_ref());
    }
    let name = input.name.clone();
    let width = element.width() as u64;
    let total = match input.size {
        Some(size) if element != Element::TextU64 => {
            if size % width != 0 {
                bail!(
                    "{name}: its size, {size} bytes, is not a multiple of {width} (the width of {}); pass another --type",
                    element.name()
                );
            }
            Some(size / width)
        }
        _ => None,
    };
    let block_len = (opt.block / width).max(1) as usize;
    let bar = files::progress(input.size, opt.common.quiet, "compress");
    let mut source = BlockSource::new(input.reader, &name, element, block_len);

    let mut first = Block::default();
    let more = source.next(&mut first)?;
    let (engine, chooser) = match engine {
        Some(e) => (e, None),
        None => {
            let (trials, best) = auto(element, &first, opt.common.verbose)?;
            let chooser = (opt.format == Format::Vecpress)
                .then(|| Chooser::new(element, &trials, best))
                .flatten();
            (Tuned::plain(best), chooser)
        }
    };
    let output = Output::create(&out_path, opt.common.force, input.permissions.clone())?;
    if opt.format == Format::Raw {
        return raw(opt, engine, element, &mut source, first, more, output);
    }
    let out_name = output.name.clone();
    let header = Header {
        codec: if chooser.is_some() {
            PER_BLOCK
        } else {
            engine.engine.id()
        },
        element,
        block_len: block_len as u32,
        total,
        dict_id: engine.dict.map(|d| d.id),
    };
    let write_err = || format!("{out_name}: write failed");
    let writer = Writer::new(output, header).with_context(write_err)?;

    let encode = |w: &mut Work, b: &mut Block| -> Result<()> {
        if let Some(chooser) = &chooser {
            return chooser.encode(w, b);
        }
        engine.encode(element, &b.raw, &mut b.payload, &mut w.engine)?;
        b.stored = b.payload.len() >= b.raw.len();
        Ok(())
    };
    let blocks = Blocks {
        source: &mut source,
        first: more.then_some(first),
        bar: &bar,
    };
    // The blocks read, the file written, blocks written, blocks stored
    // raw, the codecs chosen.
    let mut ctx = (blocks, writer, 0u64, 0u64, Tally::default());
    type Ctx<'a> = (Blocks<'a>, Writer<Output>, u64, u64, Tally);
    let leader = engine.engine;
    parallel::ordered_shared(
        parallel::threads(opt.threads),
        &mut ctx,
        |(blocks, writer, ..): &mut Ctx<'_>, b: &mut Block| blocks.next(writer, b),
        encode,
        |(_, writer, count, stored, tally): &mut Ctx<'_>, b: &mut Block| {
            let payload = if b.stored { &b.raw } else { &b.payload };
            let codec = match b.engine {
                _ if b.stored => STORED_CODEC,
                Some(e) => e.id(),
                None => leader.id(),
            };
            writer
                .write_block_with(b.count as u32, payload, codec, 0)
                .with_context(write_err)?;
            *count += 1;
            *stored += u64::from(b.stored);
            tally.add(b, leader);
            Ok(())
        },
    )?;
    let (_, writer, count, stored, tally) = ctx;
    let blocks = count;
    let elements = writer.total();
    let output = writer.finish().with_context(write_err)?;
    bar.finish_and_clear();
    let written = output.written;
    output.commit()?;
    if opt.common.verbose {
        let consumed = source.consumed;
        eprintln!(
            "{name}: {consumed} bytes -> {written} bytes (ratio {:.3}), {elements} {} elements, codec {}, {blocks} blocks ({stored} stored raw)",
            consumed as f64 / written.max(1) as f64,
            element.name(),
            match chooser {
                Some(_) => format!("chosen per block, first {}", engine.engine.name()),
                None => describe(&engine),
            },
        );
        if chooser.is_some() {
            eprintln!("{name}: {}", tally.describe());
        }
    }
    Ok(())
}

/// The blocks of the input in order, each fed to the content checksum and
/// (posting lists) turned into gaps as it is taken; the first one was read
/// before the codec was chosen.
struct Blocks<'a> {
    source: &'a mut BlockSource,
    first: Option<Block>,
    bar: &'a indicatif::ProgressBar,
}

impl Blocks<'_> {
    /// Fills `block` with the next block; `false` at the end.
    fn next<W: std::io::Write>(
        &mut self,
        writer: &mut Writer<W>,
        block: &mut Block,
    ) -> Result<bool> {
        match self.first.take() {
            Some(first) => *block = first,
            None => {
                if !self.source.next(block)? {
                    return Ok(false);
                }
            }
        }
        writer.hash_content(block.content(self.source.element()));
        self.source.make_gaps(block);
        self.bar.set_position(self.source.consumed);
        Ok(true)
    }
}

/// The codec with its level and dictionary, for -v.
fn describe(t: &Tuned<'_>) -> String {
    let mut s = t.engine.name().to_string();
    if let Some(level) = t.level {
        s += &format!(" level {level}");
    }
    if let Some(d) = t.dict {
        s += &format!(" with dictionary {:#010x} ({})", d.id, d.name);
    }
    s
}

/// Writes the input as one LZ4 frame of independent 4 MiB blocks, with
/// content size and checksum, streaming; at `--level`, with the dictionary
/// `dict` (whose id the frame header names). Blocks are compressed on
/// `--threads` threads, and the bytes are the same at every thread count.
fn lz4(opt: &CompressOpt, input: Input, out_path: &Path, dict: Option<&Dictionary>) -> Result<()> {
    use vecpress::lz4::frame::{BlockEncoder, BlockSize, FrameInfo};
    use xxhash_rust::xxh32::Xxh32;

    /// A block of input and its stored form, `out[..len]`.
    #[derive(Default)]
    struct Piece {
        src: Vec<u8>,
        out: Vec<u8>,
        len: usize,
    }

    let name = input.name.clone();
    let mut output = Output::create(out_path, opt.common.force, input.permissions.clone())?;
    let out_name = output.name.clone();
    let write_err = || format!("{out_name}: write failed");
    let info = FrameInfo::new()
        .block_size(BlockSize::Max4MB)
        .content_size(input.size);
    let enc = match dict {
        Some(d) => BlockEncoder::with_dictionary(info, &d.bytes),
        None => BlockEncoder::new(info),
    };
    let enc = match opt.level {
        Some(level) => enc.with_level(level),
        None => enc,
    };
    let block = info.get_block_size().bytes();
    let bar = files::progress(input.size, opt.common.quiet, "compress");
    std::io::Write::write_all(&mut output, &enc.header()).with_context(write_err)?;
    // The input, the content checksum, bytes read; apart, the output.
    let mut source = (input, Xxh32::new(0), 0u64);
    parallel::ordered(
        parallel::threads(opt.threads),
        &mut source,
        |(input, hash, consumed): &mut (Input, Xxh32, u64), p: &mut Piece| {
            p.src.resize(block, 0);
            let n = files::read_some(&mut input.reader, &mut p.src)
                .with_context(|| format!("{name}: read failed"))?;
            p.src.truncate(n);
            hash.update(&p.src);
            *consumed += n as u64;
            bar.set_position(*consumed);
            Ok(n > 0)
        },
        |scratch: &mut Vec<u8>, p: &mut Piece| {
            p.len = enc
                .encode(&p.src, &mut p.out, scratch)
                .with_context(|| format!("{name}: compression failed"))?;
            Ok(())
        },
        &mut output,
        |output: &mut Output, p: &mut Piece| {
            std::io::Write::write_all(output, &p.out[..p.len]).with_context(write_err)
        },
    )?;
    let (input, hash, consumed) = source;
    if input.size.is_some_and(|s| s != consumed) {
        bail!("{name}: changed while being read");
    }
    std::io::Write::write_all(&mut output, &enc.end(hash.digest())).with_context(write_err)?;
    bar.finish_and_clear();
    let written = output.written;
    output.commit()?;
    if opt.common.verbose {
        let mut how = String::new();
        if let Some(level) = opt.level {
            how += &format!(", level {level}");
        }
        if let Some(d) = dict {
            how += &format!(", dictionary {:#010x} ({})", d.id, d.name);
        }
        eprintln!(
            "{name}: {consumed} bytes -> {written} bytes (ratio {:.3}), LZ4 frame{how}",
            consumed as f64 / written.max(1) as f64
        );
    }
    Ok(())
}

/// Writes the whole input as one bare stream of `engine`.
fn raw(
    opt: &CompressOpt,
    engine: Tuned<'_>,
    element: Element,
    source: &mut BlockSource,
    mut block: Block,
    mut more: bool,
    mut output: Output,
) -> Result<()> {
    let mut all = Vec::new();
    let mut count = 0usize;
    while more {
        all.extend_from_slice(&block.raw);
        count += block.count;
        more = source.next(&mut block)?;
    }
    let mut payload = Vec::new();
    engine.encode(element, &all, &mut payload, &mut Scratch::default())?;
    std::io::Write::write_all(&mut output, &payload)
        .with_context(|| format!("{}: write failed", output.name))?;
    output.commit()?;
    if opt.common.verbose {
        eprintln!(
            "count: {count} {} elements ({} bytes) in {} bytes of {} stream",
            element.name(),
            all.len(),
            payload.len(),
            describe(&engine)
        );
    }
    Ok(())
}

/// The engine named by `--codec`, checked against the element type.
fn chosen(name: &str, element: Element) -> Result<Engine> {
    let Some(engine) = Engine::by_name(name) else {
        let names: Vec<_> = Engine::all().iter().map(|e| e.name()).collect();
        return Err(UsageError(format!(
            "unknown codec '{name}' (known: {})",
            names.join(", ")
        ))
        .into());
    };
    if !engine.fits(element) {
        return Err(UsageError(format!(
            "codec {name} cannot compress {} (these can: {})",
            element.name(),
            Engine::names_fitting(element)
        ))
        .into());
    }
    Ok(engine)
}

/// Picks the codec that makes `first`, the first block, smallest; returns
/// every codec's trial too.
fn auto(element: Element, first: &Block, verbose: bool) -> Result<(Vec<trial::Trial>, Engine)> {
    // Try on the block as it will be encoded, then put it back.
    let mut sample = Block {
        count: first.count,
        raw: first.raw.clone(),
        ..Block::default()
    };
    let mut probe = BlockSource::new(Box::new(std::io::empty()), "", element, 1);
    probe.make_gaps(&mut sample);
    let blocks = [(sample.count, &sample.raw[..])];
    let mut trials = Vec::new();
    // High compression is asked for (`--codec lz4-hc`), not guessed: it
    // wins on size almost always, at a tenth of the fast codecs' speed.
    for engine in Engine::fitting(element)
        .into_iter()
        .filter(|e| e.name() != "lz4-hc")
    {
        trials.push(trial::run(engine, element, &blocks)?);
    }
    let best = trial::best(&trials)
        .map(|t| t.engine)
        .unwrap_or(Engine::Store);
    if verbose {
        let mut others: Vec<_> = trials
            .iter()
            .map(|t| {
                format!(
                    "{} {:.3} ({:.0} MB/s)",
                    t.engine.name(),
                    t.ratio(),
                    t.decode_mbs()
                )
            })
            .collect();
        others.sort();
        eprintln!(
            "auto: {}, the smallest (or within 1% of it and faster to decode) on the first {} bytes; ratio, decoding speed: {}",
            best.name(),
            sample.raw.len(),
            others.join(", ")
        );
    }
    Ok((trials, best))
}
