//! The `vecpress` command.
//!
//! One subcommand per module, each holding its clap options and its handler,
//! as in pco_cli:
//!
//! - `vecpress bench`: decode and encode speed of every codec, instruction set
//!   and peer library on the same inputs (see [`bench`]).
// Unsafe code is denied everywhere but in src/bench/peers/maskedvbyte.rs, which calls C;
// every other file forbids it.
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod bench;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// SIMD integer codecs: benchmarks and tools.
#[derive(Parser)]
#[command(name = "vecpress", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Measure decoding and encoding speed on generated inputs or posting-list files.
    Bench(bench::BenchOpt),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench(opt) => bench::run(&opt),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vecpress: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
