//! `vecpress bench`: codecs, instruction sets and peer libraries decoding the
//! same inputs in one process, against a memcpy of the same bytes.
//!
//! Integer codecs run on posting lists (files, or the integer generators);
//! byte codecs on values and bytes (files, or the byte generators).
// `deny`, not `forbid`: peers/maskedvbyte.rs below calls C. Other files forbid it.
#![deny(unsafe_code)]

mod batch;
mod bytes;
mod elem;
mod generate;
mod generate_bytes;
mod input;
mod measure;
mod peers;
mod plot;
mod queries;
mod race;
mod report;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use vecpress::Isa;
use vecpress::codec::{self, ByteCodec, IntCodec};

use bytes::{ByteInput, ByteJob};
use input::{Input, Kind, Source};
use measure::Job;
use report::{AbsentLine, Line};

/// Options of `vecpress bench`.
#[derive(clap::Args, Debug)]
pub struct BenchOpt {
    /// Input files or directories (every file in them). What a file holds
    /// comes from --type, or else its extension: `.docs` is ds2i posting lists
    /// (`[n: u32 LE][n x u32 LE]...`) for the integer codecs; `.f32`, `.f64`,
    /// `.u16`, `.i64`, ... are little-endian values, `.w12` values of 12
    /// bytes, and anything else raw bytes, for the byte codecs. Without
    /// paths, the built-in generators run: uniform gaps of each bit width
    /// 1..32 and ClusterData-like sorted lists; random walks of f64 and f32,
    /// uniform f64 and text (with `--type wN`: N-byte big-endian decimals).
    pub paths: Vec<PathBuf>,

    /// What the inputs hold: postings, bytes, u16, i16, u32, i32, f32, u64,
    /// i64, f64, or wN for opaque values of N bytes (1..=256, as Parquet's
    /// FIXED_LEN_BYTE_ARRAY) (default: by extension; without paths, every
    /// generator).
    #[arg(long = "type", value_name = "TYPE", value_parser = input::Kind::parse)]
    pub kind: Option<input::Kind>,

    /// Codecs to run, comma-separated (default: all).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub codecs: Option<Vec<String>>,

    /// Instruction sets to decode with, comma-separated (scalar, sse41, avx2,
    /// avx512, neon, and auto: the default dispatch), or `all`: every level
    /// with a kernel of its own, and auto (the default).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub isa: Option<Vec<String>>,

    /// Also run peer libraries (LEB128 loop, MaskedVByte in C, varint-simd,
    /// integer-encoding, the bitpacking and fastlanes crates, ...) on the
    /// same inputs, each built at its best (docs/BENCH.md, "Peers").
    #[arg(long)]
    pub peers: bool,

    /// Also draw the integer codecs' results into this SVG file, as the
    /// Stream VByte paper's Fig. 5: decoding speed and extra storage against
    /// the bits per integer VByte takes (needs the vbyte codec).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,

    /// Print one JSON object per line instead of a table.
    #[arg(long)]
    pub json: bool,

    /// Timed passes over all blocks; the median pass is reported.
    #[arg(long, default_value_t = 7, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub reps: u32,

    /// Block size: values for integer codecs (default 4096: every block is
    /// decoded into one reused buffer this long), bytes for byte codecs
    /// (default 65536, rounded down to whole values).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=(1 << 26)))]
    pub block: Option<u32>,

    /// Compression level of `lz4-hc` and of its peer `peer:lz4-c-hc`
    /// (liblz4's `LZ4_compress_HC`): 2 to 12 as liblz4 counts them, 0 and 1
    /// the fast compressor.
    #[arg(long, default_value_t = 9, value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=12))]
    pub level: u32,

    /// Values in each generated input (ignored with paths).
    #[arg(long, default_value_t = 1 << 20, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=(1 << 28)))]
    pub values: u32,

    /// Only the inputs whose name contains one of these, comma-separated
    /// (e.g. `bits-08,cluster`).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub inputs: Option<Vec<String>>,

    /// Every kernel of every codec on every built-in input (the full grid),
    /// instead of the summary that `vecpress bench` alone prints.
    #[arg(long)]
    pub all: bool,

    /// AND and OR queries of 2 and 3 posting lists drawn from each `.docs`
    /// file (default: the postings of the shared data), answered from the
    /// compressed lists, against decoding with the C Stream VByte library
    /// then merging, and against CRoaring bitmaps: queries per second and
    /// bytes per posting.
    #[arg(long, conflicts_with_all = ["plot", "json", "all", "codecs", "isa"])]
    pub queries: bool,
}

/// The built-in inputs of the summary: one posting list, one float column
/// and one text, so that every codec runs on data it suits.
const SUMMARY_INPUTS: [&str; 3] = ["cluster-gap-bits-08", "f64-walk", "text"];

impl BenchOpt {
    /// `vecpress bench` alone (no paths, codecs, levels, inputs, plot or
    /// JSON, no `--all`): the summary, one line per codec with its default
    /// kernel, against memcpy and the best peer.
    fn summary(&self) -> bool {
        self.paths.is_empty()
            && self.kind.is_none()
            && self.codecs.is_none()
            && self.isa.is_none()
            && self.inputs.is_none()
            && self.plot.is_none()
            && !self.json
            && !self.all
    }
}

/// Values per block for integer codecs, unless --block says.
const INT_BLOCK: usize = 4096;
/// Bytes per block for byte codecs, unless --block says.
const BYTE_BLOCK: usize = 65536;

/// What a run of `vecpress bench` times: the codecs, levels, inputs and
/// peers the options select, and the notes and absent rows of the peers.
struct Plan {
    summary: bool,
    int_codecs: Vec<&'static dyn IntCodec>,
    byte_codecs: Vec<&'static dyn ByteCodec>,
    /// The levels to time (`None`: each codec's own), and whether the
    /// default dispatch gets a row.
    isas: Option<Vec<Isa>>,
    auto: bool,
    int_block: usize,
    byte_block: usize,
    present: Vec<Box<dyn peers::Peer>>,
    byte_present: Vec<Box<dyn peers::BytePeer>>,
    absent_lines: Vec<AbsentLine>,
    /// The notes of the peers that run beside a chosen codec.
    notes: Vec<String>,
}

/// Runs `vecpress bench`: selects what to time, races it input by input,
/// then prints the summary, table or plot.
pub fn run(opt: &BenchOpt) -> Result<()> {
    if opt.queries {
        return run_queries(opt);
    }
    let mut plan = Plan::new(opt)?;
    let summary_inputs: Vec<String> = SUMMARY_INPUTS.iter().map(|s| s.to_string()).collect();
    let filters = if plan.summary {
        Some(&summary_inputs[..])
    } else {
        opt.inputs.as_deref()
    };
    let sources = Source::select(&opt.paths, opt.kind, filters, plan.int_block)?;
    let mut stdout = std::io::stdout().lock();
    let (lines, failures) = race_all(opt, &plan, sources, &mut stdout)?;
    report(opt, &mut plan, &lines, &mut stdout)?;
    if failures > 0 {
        bail!(
            "{failures} decoder(s) did not round-trip; see the lines marked FAILED (\"error\" in JSON)"
        );
    }
    Ok(())
}

impl Plan {
    fn new(opt: &BenchOpt) -> Result<Plan> {
        let summary = opt.summary();
        let (int_codecs, byte_codecs) = select_codecs(opt.codecs.as_deref())?;
        // The summary times the default dispatch alone (the `auto` rows).
        let (isas, auto) = if summary {
            (Some(Vec::new()), true)
        } else {
            select_isas(opt.isa.as_deref())?
        };
        let peers_on = opt.peers || summary;
        let (present, absent) = split_slots(peers_on.then(peers::all));
        let (byte_present, byte_absent) =
            split_slots(peers_on.then(|| peers::all_bytes(opt.level)));
        let mut absent_lines: Vec<AbsentLine> = Vec::new();
        for c in &int_codecs {
            for a in absent
                .iter()
                .filter(|a| a.family == peers::family_of(c.name()))
            {
                absent_lines.push(AbsentLine {
                    codec: peer_row_name(a.name, c.is_delta()),
                    absent: a.reason.clone(),
                });
            }
        }
        for c in &byte_codecs {
            for a in byte_absent.iter().filter(|a| a.family == c.name()) {
                absent_lines.push(AbsentLine {
                    codec: a.name.into(),
                    absent: a.reason.clone(),
                });
            }
        }
        let families: Vec<&str> = int_codecs
            .iter()
            .map(|c| peers::family_of(c.name()))
            .chain(byte_codecs.iter().map(|c| c.name()))
            .collect();
        let notes: Vec<String> = present
            .iter()
            .filter(|p| families.contains(&p.family()))
            .filter_map(|p| p.note().map(|n| format!("{}: {n}", p.name())))
            .chain(
                byte_present
                    .iter()
                    .filter(|p| families.contains(&p.family()))
                    .filter_map(|p| p.note().map(|n| format!("{}: {n}", p.name()))),
            )
            .collect();
        Ok(Plan {
            summary,
            int_codecs,
            byte_codecs,
            isas,
            auto,
            int_block: opt.block.map_or(INT_BLOCK, |b| b as usize),
            byte_block: opt.block.map_or(BYTE_BLOCK, |b| b as usize),
            present,
            byte_present,
            absent_lines,
            notes,
        })
    }
}

/// Times every codec of the plan on every source, one input in memory at a
/// time (each line printed as it comes with `--json`); returns the lines
/// and how many failed to round-trip.
fn race_all(
    opt: &BenchOpt,
    plan: &Plan,
    sources: Vec<Source>,
    stdout: &mut std::io::StdoutLock,
) -> Result<(Vec<Line>, usize)> {
    let (int_codecs, byte_codecs) = (&plan.int_codecs, &plan.byte_codecs);
    if opt.json {
        for a in &plan.absent_lines {
            report::print_json_absent(stdout, a)?;
        }
    }
    let steps = sources.len() * (int_codecs.len() + byte_codecs.len());
    let progress = progress_bar(opt.json, steps as u64);
    let mut all_lines: Vec<Line> = Vec::new();
    let mut failures = 0;
    let mut emit = |lines: Vec<Line>, out: &mut std::io::StdoutLock| -> Result<()> {
        failures += lines
            .iter()
            .filter(|l| matches!(l, Line::Failed(_)))
            .count();
        if opt.json {
            report::print_json(out, &lines)?;
        }
        all_lines.extend(lines);
        Ok(())
    };
    for source in sources {
        let input = match source {
            Source::Generated(g) => {
                progress.set_message(format!("generating {}", g.name()));
                Either::Ints(Input::generated(g, opt.values as usize, plan.int_block))
            }
            Source::Docs(input) => Either::Ints(input),
            Source::GeneratedBytes(g) => {
                progress.set_message(format!("generating {}", g.name()));
                Either::Bytes(ByteInput::generated(
                    g,
                    opt.values as usize,
                    plan.byte_block,
                ))
            }
            Source::File(path, name, Kind::Values(elem)) => {
                progress.set_message(format!("reading {}", path.display()));
                Either::Bytes(ByteInput::load(&path, name, elem, plan.byte_block)?)
            }
            Source::File(path, name, Kind::Postings) => {
                Either::Ints(Input::load_docs(&path, name, plan.int_block)?)
            }
        };
        match input {
            Either::Ints(input) => {
                progress.inc(byte_codecs.len() as u64);
                if input.sorted.is_empty() {
                    progress.suspend(|| eprintln!("vecpress: skipping {}: no values", input.name));
                    progress.inc(int_codecs.len() as u64);
                    continue;
                }
                for &codec in int_codecs {
                    progress.set_message(format!("{} on {}", codec.name(), input.name));
                    let own_isas = plan.isas.clone().unwrap_or_else(|| codec.kernels());
                    let family = peers::family_of(codec.name());
                    let own_peers: Vec<&dyn peers::Peer> = plan
                        .present
                        .iter()
                        .map(|p| &**p)
                        .filter(|p| p.family() == family)
                        .collect();
                    let job = Job {
                        input: &input,
                        codec,
                        isas: &own_isas,
                        auto: plan.auto,
                        peers: &own_peers,
                        block: plan.int_block,
                        reps: opt.reps,
                    };
                    emit(job.run(), stdout)?;
                    progress.inc(1);
                }
            }
            Either::Bytes(input) => {
                progress.inc(int_codecs.len() as u64);
                if input.bytes.is_empty() {
                    progress.suspend(|| eprintln!("vecpress: skipping {}: empty", input.name));
                    progress.inc(byte_codecs.len() as u64);
                    continue;
                }
                for &codec in byte_codecs {
                    progress.inc(1);
                    // A transform of fixed-width values has nothing to do on bytes.
                    if codec.needs_width() && input.elem.width == 1 {
                        continue;
                    }
                    progress.set_message(format!("{} on {}", codec.name(), input.name));
                    let own_isas = plan.isas.clone().unwrap_or_else(|| codec.kernels());
                    let own_peers: Vec<&dyn peers::BytePeer> = plan
                        .byte_present
                        .iter()
                        .map(|p| &**p)
                        .filter(|p| p.family() == codec.name())
                        .collect();
                    let job = ByteJob {
                        input: &input,
                        codec,
                        isas: &own_isas,
                        auto: plan.auto,
                        peers: &own_peers,
                        reps: opt.reps,
                        level: (codec.name() == "lz4-hc").then_some(opt.level),
                    };
                    emit(job.run(), stdout)?;
                }
            }
        }
    }
    progress.finish_and_clear();
    Ok((all_lines, failures))
}

/// Prints what the race found: the summary, or the table (unless JSON went
/// out line by line), and the plot.
fn report(
    opt: &BenchOpt,
    plan: &mut Plan,
    all_lines: &[Line],
    stdout: &mut std::io::StdoutLock,
) -> Result<()> {
    if plan.summary {
        let cpu = vecpress::tune::Cpu::current();
        writeln!(
            stdout,
            "vecpress bench: each codec's default kernel on this CPU ({}, profile {}), \
             median of {} passes; `vecpress bench --all` runs every kernel and input",
            cpu.key(),
            cpu.profile().uarch,
            opt.reps
        )?;
        report::print_absent_first(stdout, &plan.absent_lines)?;
        report::print_summary(stdout, all_lines)?;
    } else if !opt.json {
        let levels: Vec<&str> = Isa::available().iter().map(|i| i.name()).collect();
        writeln!(
            stdout,
            "vecpress bench: integer blocks of {} values, byte blocks of {} \
             bytes, each decoded into one buffer; median of {} passes; CPU levels: {}",
            plan.int_block,
            plan.byte_block,
            opt.reps,
            levels.join(" ")
        )?;
        report::print_absent_first(stdout, &plan.absent_lines)?;
        // And what vecpress's own rows have to say (e.g. the loops LZ4's
        // adaptive decompressor chose).
        // Rows written as peers (`bp128-8x`) gave their note above already.
        let present = &plan.present;
        let peer_row = |codec: &str| {
            present
                .iter()
                .any(|p| codec == p.name() || codec == peer_row_name(p.name(), true))
        };
        for line in all_lines {
            if let Line::Row(r) = line
                && let (false, Some(note)) =
                    (r.codec.starts_with("peer:") || peer_row(&r.codec), &r.note)
            {
                plan.notes
                    .push(format!("{} on {}: {note}", r.codec, r.input));
            }
        }
        report::print_table(stdout, all_lines, &plan.absent_lines, &plan.notes)?;
    }
    if let Some(path) = &opt.plot {
        let data = if opt.paths.is_empty() {
            "built-in generators".to_string()
        } else {
            let names: Vec<String> = opt.paths.iter().map(|p| p.display().to_string()).collect();
            names.join(", ")
        };
        plot::draw(path, all_lines, &data)?;
        if !opt.json {
            writeln!(stdout, "plot: {}", path.display())?;
        }
    }
    Ok(())
}

/// An input for one kind of codec.
enum Either {
    Ints(Input),
    Bytes(ByteInput),
}

/// Present peers, and the absent ones; none when peers were not asked for.
fn split_slots<P: ?Sized>(
    slots: Option<Vec<Result<Box<P>, peers::Absent>>>,
) -> (Vec<Box<P>>, Vec<peers::Absent>) {
    let mut present = Vec::new();
    let mut absent = Vec::new();
    for slot in slots.unwrap_or_default() {
        match slot {
            Ok(p) => present.push(p),
            Err(a) => absent.push(a),
        }
    }
    (present, absent)
}

fn peer_row_name(name: &str, delta: bool) -> String {
    if delta {
        format!("{name}-delta")
    } else {
        name.to_string()
    }
}

/// Integer codecs and byte codecs, apart.
type Codecs = (Vec<&'static dyn IntCodec>, Vec<&'static dyn ByteCodec>);

/// The codecs --codecs names (default: all), integer and byte codecs apart.
fn select_codecs(names: Option<&[String]>) -> Result<Codecs> {
    let Some(names) = names else {
        return Ok((codec::int_codecs().to_vec(), codec::byte_codecs().to_vec()));
    };
    let mut ints: Vec<&'static dyn IntCodec> = Vec::new();
    let mut bytes: Vec<&'static dyn ByteCodec> = Vec::new();
    for name in names.iter().map(|n| n.trim()) {
        if let Some(c) = codec::find(name) {
            if !ints.iter().any(|k| k.id() == c.id()) {
                ints.push(c);
            }
        } else if let Some(c) = codec::find_bytes(name) {
            if !bytes.iter().any(|k| k.id() == c.id()) {
                bytes.push(c);
            }
        } else {
            let known: Vec<&str> = codec::int_codecs()
                .iter()
                .map(|c| c.name())
                .chain(codec::byte_codecs().iter().map(|c| c.name()))
                .collect();
            bail!(
                "unknown codec '{name}' (known codecs: {})",
                known.join(", ")
            );
        }
    }
    Ok((ints, bytes))
}

/// `None`: each codec's own kernels. Otherwise the listed levels, each
/// available. And whether the default dispatch (`auto`) runs too: always,
/// unless a list leaves it out.
fn select_isas(names: Option<&[String]>) -> Result<(Option<Vec<Isa>>, bool)> {
    let Some(names) = names else {
        return Ok((None, true));
    };
    if names.iter().any(|n| n.trim().eq_ignore_ascii_case("all")) {
        return Ok((None, true));
    }
    let available = Isa::available();
    let mut chosen = Vec::new();
    let mut auto = false;
    for name in names {
        if name.trim().eq_ignore_ascii_case("auto") {
            auto = true;
            continue;
        }
        let isa: Isa = name.parse()?;
        if !available.contains(&isa) {
            let names: Vec<&str> = available.iter().map(|i| i.name()).collect();
            let why = if isa.is_supported() {
                "is capped by VECPRESS_ISA"
            } else {
                "is not supported by this CPU"
            };
            bail!(
                "instruction set '{isa}' {why} (available: {})",
                names.join(", ")
            );
        }
        chosen.push(isa);
    }
    chosen.sort();
    chosen.dedup();
    Ok((Some(chosen), auto))
}

fn progress_bar(json: bool, len: u64) -> ProgressBar {
    if json || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {wide_msg}") {
        bar.set_style(style);
    }
    bar
}

/// `vecpress bench --queries`: [`queries::run`] on each `.docs` file given,
/// or on those of the shared data's postings.
fn run_queries(opt: &BenchOpt) -> Result<()> {
    let paths = if opt.paths.is_empty() {
        vec![input::data_dir()?.join("postings")]
    } else {
        opt.paths.clone()
    };
    let files: Vec<PathBuf> = input::expand_paths(&paths)?
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "docs"))
        .filter(|p| {
            let name = p.to_string_lossy();
            opt.inputs
                .as_ref()
                .is_none_or(|f| f.iter().any(|s| name.contains(s.as_str())))
        })
        .collect();
    if files.is_empty() {
        bail!("no .docs files among {paths:?}");
    }
    let cpu = vecpress::tune::Cpu::current();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "CPU: {} (family {}, model {}), {cores} cores\n",
        cpu.name, cpu.family, cpu.model
    );
    for path in files {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        queries::run(&name, input::read_lists(&path)?, opt.reps)?;
        println!();
    }
    Ok(())
}
