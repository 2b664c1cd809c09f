//! `vecpress inspect`: what a vecpress file holds (header, blocks, ratio,
//! checksums verified), or, for a raw file with `--type`, every fitting
//! codec's ratio and speed on it and the one to use.
#![forbid(unsafe_code)]

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow};
use vecpress::container::{Element, MAGIC, PER_BLOCK, Reader};

use crate::decompress::{Codecs, Verified};
use crate::elements::{self, Block, BlockSource};
use crate::engine::{self, Engine};
use crate::files::Input;
use crate::lz4_settings::Dictionary;
use crate::{compress, decompress, trial};

/// Options of `vecpress inspect`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  vecpress inspect data.vp                       # header, blocks, ratio, checksums
  vecpress inspect --dict records.dict rec.vp    # a file compressed with a dictionary
  vecpress inspect --type postings index.docs    # which codec suits this file
  vecpress inspect --cpu                         # this CPU and the kernels it runs")]
pub struct InspectOpt {
    /// A vecpress file, or a raw file (with --type, or by extension).
    #[arg(required_unless_present = "cpu")]
    pub file: Option<PathBuf>,

    /// Show this CPU (vendor, family, model), the instruction sets it has,
    /// and the kernel each codec decodes with by default on it.
    #[arg(long, conflicts_with_all = ["element", "dict"])]
    pub cpu: bool,

    /// What a raw file holds (as for compress): compare the codecs on it.
    #[arg(long = "type", value_name = "TYPE", value_parser = compress::parse_element)]
    pub element: Option<Element>,

    /// Block size for the comparison (as for compress).
    #[arg(long, value_name = "SIZE", default_value = "1M", value_parser = compress::parse_size)]
    pub block: u64,

    /// Compare on at most this many bytes from the start of a raw file.
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = compress::parse_bytes)]
    pub sample: u64,

    /// The LZ4 dictionary a vecpress file was compressed with, to decode and
    /// verify its content (without it, only the header and blocks are checked).
    #[arg(short = 'D', long, value_name = "FILE")]
    pub dict: Option<PathBuf>,
}

/// Runs `vecpress inspect`.
pub fn run(opt: &InspectOpt) -> Result<()> {
    let Some(file) = opt.file.as_deref().filter(|_| !opt.cpu) else {
        cpu()?;
        return Ok(());
    };
    let input = Input::open(file)?;
    let name = input.name.clone();
    let (magic, got, reader) =
        elements::peek_magic(input.reader).with_context(|| format!("{name}: read failed"))?;
    if got == 4 && magic == MAGIC && opt.element.is_none() {
        let dict = opt.dict.as_deref().map(Dictionary::load).transpose()?;
        return container(&name, input.size, reader, dict.as_ref());
    }
    let element = opt.element.unwrap_or_else(|| elements::by_extension(file));
    raw(&name, element, reader, opt)
}

/// Prints the CPU, its dispatch profile and each codec's default kernel.
fn cpu() -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    use vecpress::tune::{self, Cpu};
    let cpu = Cpu::current();
    let profile = cpu.profile();
    let levels: Vec<&str> = vecpress::Isa::available()
        .iter()
        .map(|i| i.name())
        .collect();
    writeln!(out, "cpu:           {}", cpu.name)?;
    writeln!(
        out,
        "id:            {} (vendor {}, family {}, model {})",
        cpu.key(),
        cpu.vendor,
        cpu.family,
        cpu.model
    )?;
    writeln!(out, "levels:        {}", levels.join(" "))?;
    let identified = cpu.identify();
    if profile.uarch == tune::SAFE.uarch {
        writeln!(
            out,
            "profile:       none recorded for this CPU: the choices safest across the recorded ones"
        )?;
    } else {
        writeln!(
            out,
            "profile:       {} (from {})",
            profile.uarch, profile.record
        )?;
    }
    writeln!(out, "chosen:        {}", identified.why)?;
    writeln!(out, "default kernels:")?;
    for c in vecpress::codec::int_codecs() {
        writeln!(out, "  {:<26}{}", c.name(), c.auto_kernel())?;
    }
    for c in vecpress::codec::byte_codecs() {
        writeln!(out, "  {:<26}{}", c.name(), c.auto_kernel())?;
    }
    // The operations no codec of the registry names: encoders, seeks,
    // queries and the rest, each at its level from the table.
    let named: Vec<&str> = vecpress::codec::int_codecs()
        .iter()
        .map(|c| c.name())
        .chain(vecpress::codec::byte_codecs().iter().map(|c| c.name()))
        .collect();
    for &op in tune::Op::ALL {
        if !named.contains(&op.name()) {
            writeln!(out, "  {:<26}{}", op.name(), tune::isa(op).name())?;
        }
    }
    let arms: Vec<&str> = tune::lz4_arms().iter().map(|v| v.name()).collect();
    writeln!(out, "  {:<26}{}", "lz4 adaptive (arms)", arms.join(" "))?;
    let form = if tune::lz4_register_patterns() {
        "made in a register, one store"
    } else {
        "two 16-byte stores"
    };
    writeln!(out, "  {:<26}{}", "lz4 copy32 short offsets", form)?;
    let form = if tune::bp128_halves() {
        "two 4-lane vectors a 256-bit register"
    } else {
        "sixteen values a 512-bit register"
    };
    writeln!(out, "  {:<26}{}", "bp128 plain at avx512", form)?;
    let form = if tune::bit_split_one_pass() {
        "one pass in registers"
    } else {
        "three passes"
    };
    writeln!(out, "  {:<26}{}", "bit split with gfni", form)?;
    let form = if tune::pfor_scalar_patch() {
        "scalar read-modify-writes"
    } else {
        "gather and scatter"
    };
    writeln!(out, "  {:<26}{}", "pfor exceptions at avx512", form)?;
    let form = if tune::merge_in_vectors() {
        "vector compares (the avx2 kernel)"
    } else {
        "compares into mask registers"
    };
    writeln!(out, "  {:<26}{}", "merge at avx512", form)?;
    Ok(())
}

fn container(
    name: &str,
    size: Option<u64>,
    reader: Box<dyn std::io::Read + Send>,
    dict: Option<&Dictionary>,
) -> Result<()> {
    let mut reader =
        Reader::new(reader).map_err(|e| anyhow!("{name}: {}", decompress::describe(&e)))?;
    let h = *reader.header();
    let codec = match Engine::by_id(h.codec) {
        _ if h.codec == PER_BLOCK => "chosen per block",
        Some(e) => e.name(),
        None => "unknown",
    };
    println!("file:          {name}");
    println!("format:        vecpress, version {}", h.version());
    println!("codec:         {codec} (id {})", h.codec);
    println!("type:          {}", h.element.name());
    println!(
        "block length:  {} elements ({} bytes)",
        h.block_len,
        h.block_bytes()
    );
    match h.total {
        Some(t) => println!("elements:      {t}"),
        None => println!("elements:      not in the header (written as a stream)"),
    }
    if let Some(id) = h.dict_id {
        println!("dictionary:    {id:#010x}");
    }
    // Without the dictionary, check what can be checked and say so.
    let codecs = match (h.dict_id, dict) {
        (Some(_), None) if h.codec != PER_BLOCK => {
            engine::for_file(h.codec, h.element).with_context(|| name.to_string())?;
            None
        }
        (Some(_), None) => None,
        _ => Some(Codecs::new(&h, dict).with_context(|| name.to_string())?),
    };
    let result = decompress::verify(&mut reader, codecs);
    let file_bytes = size.unwrap_or(reader.offset());
    println!("blocks:        {}", reader.blocks());
    if let (Ok(found), PER_BLOCK) = (&result, h.codec) {
        let counts: Vec<String> = found
            .per_codec
            .iter()
            .map(|(&(id, level), n)| {
                let name = Engine::by_id(id).map_or("unknown", |e| e.name());
                match level {
                    0 => format!("{name} {n}"),
                    l => format!("{name} (level {l}) {n}"),
                }
            })
            .collect();
        println!("per codec:     {}", counts.join(", "));
    }
    match (result, h.dict_id) {
        (Ok(Verified { stored, .. }), Some(id)) if codecs.is_none() => {
            println!("stored raw:    {stored} blocks");
            println!("elements:      {} in the blocks", reader.total());
            println!("file:          {file_bytes} bytes");
            println!(
                "checksums:     header and every block ok; content not decoded (needs dictionary {id:#010x}: pass --dict FILE)"
            );
            Ok(())
        }
        (
            Ok(Verified {
                stored, content, ..
            }),
            _,
        ) => {
            println!("stored raw:    {stored} blocks");
            println!(
                "content:       {content} bytes in {} elements",
                reader.total()
            );
            println!("file:          {file_bytes} bytes");
            println!(
                "ratio:         {:.3}",
                content as f64 / file_bytes.max(1) as f64
            );
            println!("checksums:     ok (header, every block, content)");
            Ok(())
        }
        (Err(e), _) => {
            println!("checksums:     FAILED");
            Err(anyhow!("{name}: {e:#}"))
        }
    }
}

fn raw(
    name: &str,
    element: Element,
    reader: Box<dyn std::io::Read + Send>,
    opt: &InspectOpt,
) -> Result<()> {
    let block_len = (opt.block / element.width() as u64).max(1) as usize;
    let mut source = BlockSource::new(reader, name, element, block_len);
    let mut blocks = Vec::new();
    let mut bytes = 0u64;
    while bytes < opt.sample {
        let mut b = Block::default();
        if !source.next(&mut b)? {
            break;
        }
        source.make_gaps(&mut b);
        bytes += b.raw.len() as u64;
        blocks.push(b);
    }
    let views: Vec<(usize, &[u8])> = blocks.iter().map(|b| (b.count, &b.raw[..])).collect();
    let mut trials = Vec::new();
    for engine in Engine::fitting(element) {
        trials.push(trial::run(engine, element, &views)?);
    }
    let elements: usize = blocks.iter().map(|b| b.count).sum();
    println!(
        "{name}: {elements} {} elements ({bytes} bytes{}), blocks of {block_len}",
        element.name(),
        if source.consumed > bytes && element != Element::TextU64 {
            ", a sample"
        } else {
            ""
        }
    );
    println!(
        "{:<16} {:>9} {:>14} {:>12} {:>12}",
        "codec", "ratio", "bits/element", "encode MB/s", "decode MB/s"
    );
    for t in &trials {
        println!(
            "{:<16} {:>9.3} {:>14.3} {:>12.0} {:>12.0}",
            t.engine.name(),
            t.ratio(),
            t.file_bytes as f64 * 8.0 / elements.max(1) as f64,
            t.encode_mbs(),
            t.decode_mbs()
        );
    }
    if let Some(best) = trial::best(&trials) {
        println!(
            "recommended: {} (the smallest, or within 1% of it and faster to decode): vecpress compress --type {} --codec {} {name}",
            best.engine.name(),
            element.name(),
            best.engine.name(),
        );
    }
    Ok(())
}
