//! `vecpress bench`: codecs, instruction sets and peer libraries decoding the
//! same inputs in one process, against a memcpy of the same bytes.
// `deny`, not `forbid`: peers/maskedvbyte.rs below calls C. Other files forbid it.
#![deny(unsafe_code)]

mod generate;
mod input;
mod measure;
mod peers;
mod race;
mod report;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use vecpress::codec::{self, IntCodec};
use vecpress::Isa;

use input::{Input, Source};
use measure::Job;
use report::{AbsentLine, Line};

/// Options of `vecpress bench`.
#[derive(clap::Args, Debug)]
pub struct BenchOpt {
    /// ds2i posting-list files (`[n: u32 LE][n x u32 LE]...`) or directories of
    /// `*.docs` files. Without paths, the built-in generators run: uniform gaps of
    /// each bit width 1..32 and ClusterData-like sorted lists.
    pub paths: Vec<PathBuf>,

    /// Codecs to run, comma-separated (default: all).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub codecs: Option<Vec<String>>,

    /// Instruction sets to decode with, comma-separated (scalar, sse41, avx2,
    /// avx512, neon), or `all`: every level with a kernel of its own (the default).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub isa: Option<Vec<String>>,

    /// Also run peer libraries (LEB128 loop, MaskedVByte in C, varint-simd,
    /// integer-encoding) on the same bytes.
    #[arg(long)]
    pub peers: bool,

    /// Print one JSON object per line instead of a table.
    #[arg(long)]
    pub json: bool,

    /// Timed passes over all blocks; the median pass is reported.
    #[arg(long, default_value_t = 7, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub reps: u32,

    /// Values per block; every block is decoded into one reused buffer this long.
    #[arg(long, default_value_t = 4096, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=(1 << 24)))]
    pub block: u32,

    /// Values in each generated input (ignored with paths).
    #[arg(long, default_value_t = 1 << 20, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=(1 << 28)))]
    pub values: u32,

    /// Only the inputs whose name contains one of these, comma-separated
    /// (e.g. `bits-08,cluster`).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub inputs: Option<Vec<String>>,
}

/// Runs `vecpress bench`.
pub fn run(opt: &BenchOpt) -> Result<()> {
    let codecs = select_codecs(opt.codecs.as_deref())?;
    let isas = select_isas(opt.isa.as_deref())?;
    let block = opt.block as usize;
    let sources = Source::select(&opt.paths, opt.inputs.as_deref(), block)?;

    let (present, absent): (Vec<_>, Vec<_>) = if opt.peers {
        peers::all().into_iter().partition(Result::is_ok)
    } else {
        (Vec::new(), Vec::new())
    };
    let present: Vec<Box<dyn peers::Peer>> = present.into_iter().flatten().collect();
    let absent: Vec<AbsentLine> = codecs
        .iter()
        .flat_map(|c| {
            absent
                .iter()
                .filter_map(|s| s.as_ref().err())
                .filter(|a| a.family == peers::family_of(c.name()))
                .map(|a| AbsentLine {
                    codec: peer_row_name(a.name, c.is_delta()),
                    absent: a.reason.clone(),
                })
        })
        .collect();
    let notes: Vec<String> = present
        .iter()
        .filter_map(|p| p.note().map(|n| format!("{}: {n}", p.name())))
        .collect();

    let mut stdout = std::io::stdout().lock();
    if opt.json {
        for a in &absent {
            report::print_json_absent(&mut stdout, a)?;
        }
    }
    let progress = progress_bar(opt.json, (sources.len() * codecs.len()) as u64);
    let mut all_lines: Vec<Line> = Vec::new();
    let mut failures = 0;
    for source in sources {
        let input = match source {
            Source::Generated(g) => {
                progress.set_message(format!("generating {}", g.name()));
                Input::generated(g, opt.values as usize, block)
            }
            Source::Loaded(input) => input,
            Source::File(path, name) => Input::load_docs(&path, name, block)?,
        };
        if input.sorted.is_empty() {
            progress.suspend(|| eprintln!("vecpress: skipping {}: no values", input.name));
            progress.inc(codecs.len() as u64);
            continue;
        }
        for &codec in &codecs {
            progress.set_message(format!("{} on {}", codec.name(), input.name));
            let own_isas = isas.clone().unwrap_or_else(|| codec.kernels());
            let family = peers::family_of(codec.name());
            let own_peers: Vec<&dyn peers::Peer> = present
                .iter()
                .map(|p| &**p)
                .filter(|p| p.family() == family)
                .collect();
            let job = Job {
                input: &input,
                codec,
                isas: &own_isas,
                peers: &own_peers,
                block,
                reps: opt.reps,
            };
            let lines = job.run();
            failures += lines
                .iter()
                .filter(|l| matches!(l, Line::Failed(_)))
                .count();
            if opt.json {
                report::print_json(&mut stdout, &lines)?;
            } else {
                all_lines.extend(lines);
            }
            progress.inc(1);
        }
    }
    progress.finish_and_clear();
    if !opt.json {
        let levels: Vec<&str> = Isa::available().iter().map(|i| i.name()).collect();
        writeln!(
            stdout,
            "vecpress bench: blocks of {block} values decoded into one buffer, median of {} passes; \
             CPU levels: {}",
            opt.reps,
            levels.join(" ")
        )?;
        report::print_table(&mut stdout, &all_lines, &absent, &notes)?;
    }
    if failures > 0 {
        bail!("{failures} decoder(s) did not round-trip; see the lines marked FAILED (\"error\" in JSON)");
    }
    Ok(())
}

fn peer_row_name(name: &str, delta: bool) -> String {
    if delta {
        format!("{name}-delta")
    } else {
        name.to_string()
    }
}

fn select_codecs(names: Option<&[String]>) -> Result<Vec<&'static dyn IntCodec>> {
    let Some(names) = names else {
        return Ok(codec::int_codecs().to_vec());
    };
    let mut chosen: Vec<&'static dyn IntCodec> = Vec::new();
    for name in names.iter().map(|n| n.trim()) {
        let Some(c) = codec::find(name) else {
            let known: Vec<&str> = codec::int_codecs().iter().map(|c| c.name()).collect();
            bail!(
                "unknown codec '{name}' (known codecs: {})",
                known.join(", ")
            );
        };
        if !chosen.iter().any(|k| k.id() == c.id()) {
            chosen.push(c);
        }
    }
    Ok(chosen)
}

/// `None`: each codec's own kernels. Otherwise the listed levels, each available.
fn select_isas(names: Option<&[String]>) -> Result<Option<Vec<Isa>>> {
    let Some(names) = names else { return Ok(None) };
    if names.iter().any(|n| n.trim().eq_ignore_ascii_case("all")) {
        return Ok(None);
    }
    let available = Isa::available();
    let mut chosen = Vec::new();
    for name in names {
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
    Ok(Some(chosen))
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
