//! The `vecpress` command.
//!
//! One subcommand per module, each holding its clap options and its handler,
//! as in pco_cli:
//!
//! - `vecpress compress`, `decompress`: files to and from the vecpress format
//!   (docs/FORMAT.md; see [`compress`], [`decompress`]).
//! - `vecpress inspect`: what a vecpress file holds, or which codec suits a
//!   raw file (see [`inspect`]).
//! - `vecpress bench`: decode and encode speed of every codec, instruction set
//!   and peer library on the same inputs (see [`bench`](mod@bench)).
//! - `vecpress completions SHELL`: a completion script.
//!
//! Exit codes: 0 success, 1 a data or I/O error, 2 a usage error.
// Unsafe code is denied everywhere but in src/alloc.rs, the allocator, and the
// peers of src/bench/peers/ that call C or the peer library built for the CPU
// (their files say which); every other file forbids it.
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(target_os = "linux")]
mod alloc;
mod bench;
mod choose;
mod compress;
mod decompress;
mod elements;
mod engine;
mod files;
mod inspect;
mod lz4_settings;
mod parallel;
mod pipe;
mod trial;

use std::process::ExitCode;

#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: alloc::Allocator = alloc::Allocator;

use clap::{CommandFactory, Parser, Subcommand};

/// SIMD integer codecs: compress, decompress and inspect files; benchmarks.
#[derive(Parser)]
#[command(
    name = "vecpress",
    version,
    about,
    after_help = "Examples:
  vecpress compress --type u32 ids.u32            # writes ids.u32.vp
  vecpress decompress ids.u32.vp -o ids.u32 -f
  vecpress compress --codec lz4-hc --level 12 big.log    # LZ4 high compression
  vecpress compress --codec lz4 --dict recs.dict r.json  # decompress with --dict too
  vecpress inspect --type f64 prices.f64          # which codec suits it
  vecpress bench --peers
  vecpress completions bash > /etc/bash_completion.d/vecpress

Exit codes: 0 success, 1 data or I/O error, 2 usage error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compress a file of integers, floats, bytes or decimal text into a vecpress file.
    #[command(visible_alias = "c")]
    Compress(compress::CompressOpt),
    /// Restore a vecpress file (or .lz4 frames) to its original bytes, verifying every checksum.
    #[command(visible_alias = "d")]
    Decompress(decompress::DecompressOpt),
    /// Show a vecpress file's header, blocks and ratio, or compare codecs on a raw file.
    Inspect(inspect::InspectOpt),
    /// Measure decoding and encoding speed on generated inputs or posting-list files.
    Bench(bench::BenchOpt),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// Options every file command takes.
#[derive(clap::Args, Debug)]
pub struct Common {
    /// Overwrite an existing output.
    #[arg(short, long)]
    pub force: bool,
    /// Print nothing but errors (no progress bar).
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Say what was done: sizes, ratio, codec (and why, with --auto).
    #[arg(short, long)]
    pub verbose: bool,
}

/// A mistake in the command line found after parsing: exit code 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    files::install_interrupt_handler();
    let result = match cli.command {
        Command::Compress(opt) => compress::run(&opt),
        Command::Decompress(opt) => decompress::run(&opt),
        Command::Inspect(opt) => inspect::run(&opt),
        Command::Bench(opt) => bench::run(&opt),
        Command::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "vecpress",
                &mut std::io::stdout(),
            );
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vecpress: {e:#}");
            if e.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
