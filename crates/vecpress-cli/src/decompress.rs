//! `vecpress decompress`: a vecpress file back to the original bytes, every
//! checksum verified, blocks decoded in parallel with `--threads` (see
//! [`crate::parallel`]); LZ4 frames likewise. The output appears (renamed
//! into place) only once everything checked out.
#![forbid(unsafe_code)]

use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use vecpress::container::{
    BlockInfo, ContentHash, Element, Header, MAGIC, PER_BLOCK, Reader, UnverifiedBlock,
};

use crate::elements::{self, Restorer};
use crate::engine::{self, Engine, Scratch};
use crate::files::{self, Input, Output};
use crate::lz4_settings::{self, Dictionary, Tuned};
use crate::{Common, parallel};

/// Options of `vecpress decompress`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  vecpress decompress index.docs.vp                 # writes index.docs
  vecpress decompress server.log.lz4                # LZ4 frames too (current and legacy)
  vecpress decompress -c seq.vp | tail -1
  vecpress decompress -T 0 big.log.lz4            # on every core
  vecpress decompress data.vp -o - | sha256sum
  vecpress decompress --dict records.dict rec.json.vp   # compressed with that dictionary")]
pub struct DecompressOpt {
    /// Input file, or - for stdin.
    pub input: PathBuf,

    /// Output file, or - for stdout (default: INPUT without .vp; stdout for stdin).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// Write to stdout.
    #[arg(short = 'c', long)]
    pub stdout: bool,

    /// Threads in all, each reading, decoding and writing blocks in turn
    /// (0: one per core): of vecpress files, and of LZ4 frames of
    /// independent blocks (as vecpress and lz4 write them
    /// by default). Frames of linked blocks decode on one thread (-v says
    /// so). The output and the errors are the same at every count.
    #[arg(short = 'T', long, value_name = "N", default_value_t = 1)]
    pub threads: usize,

    /// The LZ4 dictionary the input was compressed with. A vecpress file
    /// names it by id, which must match (a file compressed without one
    /// ignores it); LZ4 frames likewise, and frames that name none (as
    /// `lz4 -D FILE` writes them) are decoded with it.
    #[arg(short = 'D', long, value_name = "FILE")]
    pub dict: Option<PathBuf>,

    #[command(flatten)]
    pub common: Common,
}

/// A block read and, after decoding, its elements' bytes.
#[derive(Default)]
struct Slot {
    /// The block as read, its checksum checked by the thread that decodes it.
    unverified: Option<UnverifiedBlock>,
    info: Option<BlockInfo>,
    payload: Vec<u8>,
    decoded: Vec<u8>,
}

/// Runs `vecpress decompress`.
pub fn run(opt: &DecompressOpt) -> Result<()> {
    let out_path = files::output_path(&opt.input, opt.output.as_deref(), opt.stdout, |p| match p
        .extension()
        .and_then(|e| e.to_str())
    {
        Some("vp" | "lz4") => Ok(p.with_extension("")),
        _ => Err(format!(
            "{}: unknown suffix (expected .vp or .lz4); use -o OUT or -c",
            p.display()
        )),
    })?;
    let dict = opt.dict.as_deref().map(Dictionary::load).transpose()?;
    let input = Input::open(&opt.input)?;
    let name = input.name.clone();
    let bar = files::progress(input.size, opt.common.quiet, "decompress");
    let (magic, got, reader) =
        elements::peek_magic(input.reader).with_context(|| format!("{name}: read failed"))?;
    if got == 4 && is_lz4(magic) {
        let output = Output::create(&out_path, opt.common.force, input.permissions.clone())?;
        // A file is all there: reading a block ahead waits for nothing.
        let ahead = input.size.is_some();
        return lz4(opt, &name, (reader, ahead), output, bar, dict.as_ref());
    }
    if got == 4 && magic != MAGIC {
        bail!(
            "{name}: neither a vecpress file nor an LZ4 frame (its first bytes are {magic:02x?})"
        );
    }
    let reader = Reader::new(reader).map_err(|e| anyhow!("{name}: {}", describe(&e)))?;
    let header = *reader.header();
    let codecs = Codecs::new(&header, dict.as_ref()).with_context(|| name.clone())?;
    let output = Output::create(&out_path, opt.common.force, input.permissions.clone())?;
    // Reading on one side; on the other, the content restored, hashed in
    // order and written.
    let mut reader = reader;
    let mut sink = (Restorer::new(header.element), ContentHash::new(), output);
    parallel::ordered(
        parallel::threads(opt.threads),
        &mut reader,
        |reader: &mut Reader<Box<dyn Read + Send>>, slot: &mut Slot| {
            let index = reader.blocks();
            slot.unverified = reader
                .next_block_unverified(&mut slot.payload)
                .map_err(|e| anyhow!("{name}: block {index}: {}", describe(&e)))?;
            bar.set_position(reader.offset());
            Ok(slot.unverified.is_some())
        },
        |s: &mut Scratch, slot: &mut Slot| {
            if let Some(block) = slot.unverified {
                let info = block.verify(&slot.payload).map_err(|e| {
                    anyhow!("{name}: block {}: {}", block.info().index, describe(&e))
                })?;
                slot.info = Some(info);
            }
            decode_block(&codecs, slot, s).with_context(|| name.clone())
        },
        &mut sink,
        |(restorer, hash, output): &mut (Restorer, ContentHash, Output), slot: &mut Slot| {
            let content = restorer.restore(&mut slot.decoded);
            hash.update(content);
            std::io::Write::write_all(output, content)
                .with_context(|| format!("{}: write failed", output.name))
        },
    )?;
    let (_, hash, output) = sink;
    reader
        .check_content_hash(&hash)
        .map_err(|e| anyhow!("{name}: {}", describe(&e)))?;
    bar.finish_and_clear();
    let (elements, written) = (reader.total(), output.written);
    output.commit()?;
    if opt.common.verbose {
        eprintln!(
            "{name}: {} bytes -> {written} bytes, {elements} {} elements, codec {}{}, {} blocks, checksums ok",
            reader.offset(),
            header.element.name(),
            codecs.describe(),
            dict.as_ref()
                .filter(|_| header.dict_id.is_some())
                .map_or(String::new(), |d| format!(
                    " with dictionary {:#010x}",
                    d.id
                )),
            reader.blocks()
        );
    }
    Ok(())
}

/// Whether `magic` starts an LZ4 frame: current, legacy or skippable.
fn is_lz4(magic: [u8; 4]) -> bool {
    let m = u32::from_le_bytes(magic);
    m == 0x184D_2204 || m == 0x184C_2102 || (m & 0xFFFF_FFF0) == 0x184D_2A50
}

/// Decompresses LZ4 frames (the library checks their checksums): with
/// more than one thread, their blocks decode in parallel
/// ([`lz4_parallel`]).
fn lz4(
    opt: &DecompressOpt,
    name: &str,
    (reader, ahead): (Box<dyn Read + Send>, bool),
    mut output: Output,
    bar: indicatif::ProgressBar,
    dict: Option<&Dictionary>,
) -> Result<()> {
    use std::io::BufRead;
    use vecpress::lz4::frame::FrameDecoder;

    let threads = parallel::threads(opt.threads);
    if threads > 1 {
        return lz4_parallel(opt, name, reader, output, bar, dict, threads);
    }
    // Two blocks decoded at a time when reading ahead: a reader waiting for
    // input (stdin) would hold back a block's output until the next came.
    let mut dec = match dict {
        Some(d) => FrameDecoder::with_dictionary(reader, &d.bytes),
        None => FrameDecoder::new(reader),
    }
    .read_ahead(ahead);
    loop {
        // Each decoded block straight from the decoder's buffer.
        let block = match dec.fill_buf() {
            Ok([]) => break,
            Ok(block) => block,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(
                    match e
                        .get_ref()
                        .and_then(|i| i.downcast_ref::<vecpress::Error>())
                    {
                        Some(inner) => lz4_error(name, inner, dict),
                        None => anyhow!("{name}: {e}"),
                    },
                );
            }
        };
        std::io::Write::write_all(&mut output, block)
            .with_context(|| format!("{}: write failed", output.name))?;
        let n = block.len();
        dec.consume(n);
        bar.set_position(dec.position() as u64);
    }
    bar.finish_and_clear();
    let (read, written) = (dec.position(), output.written);
    output.commit()?;
    if opt.common.verbose {
        eprintln!("{name}: {read} bytes -> {written} bytes, LZ4 frames, checksums ok");
    }
    Ok(())
}

/// Decompresses LZ4 frames on `threads` threads: the blocks are read as
/// stored, one thread at a time, block checksums checked and blocks decoded
/// in parallel, and written in order, one thread at a time, with the
/// content checksum over the whole content. Blocks of linked frames need
/// the content before them: they decode as they are written, in order (-v
/// says so).
fn lz4_parallel(
    opt: &DecompressOpt,
    name: &str,
    reader: Box<dyn Read + Send>,
    output: Output,
    bar: indicatif::ProgressBar,
    dict: Option<&Dictionary>,
    threads: usize,
) -> Result<()> {
    use std::sync::Mutex;
    use vecpress::lz4::frame::{BlockReader, ContentCheck, FrameBlock};

    let blocks = match dict {
        Some(d) => BlockReader::with_dictionary(reader, &d.bytes),
        None => BlockReader::new(reader),
    }
    .defer_content_checks();
    let err = |e: vecpress::Error| lz4_error(name, &e, dict);
    // The reader is taken in turn by the reading side (the blocks as
    // stored) and the writing side (finishing each block: limits, linked
    // blocks); the content checksum, the costly part, runs on the writing
    // side only, beside the reading.
    let blocks = Mutex::new(blocks);
    type Blocks = BlockReader<Box<dyn Read + Send>>;
    // Whether -v told of linked blocks yet.
    let mut input = (&blocks, false);
    let mut sink = (&blocks, ContentCheck::new(), output);
    parallel::ordered(
        threads,
        &mut input,
        |(blocks, told): &mut (&Mutex<Blocks>, bool), b: &mut FrameBlock| {
            let mut blocks = lock(blocks)?;
            let more = blocks.next_block(b).map_err(err)?;
            bar.set_position(blocks.position() as u64);
            if more && b.is_linked() && !*told && opt.common.verbose {
                eprintln!("{name}: a frame of linked blocks: they decode on one thread");
                *told = true;
            }
            Ok(more)
        },
        |_: &mut (), b: &mut FrameBlock| b.decode().map_err(err),
        &mut sink,
        |(blocks, check, output): &mut (&Mutex<Blocks>, ContentCheck, Output),
         b: &mut FrameBlock| {
            lock(blocks)?.finish_block(b).map_err(err)?;
            check.check(b).map_err(err)?;
            std::io::Write::write_all(output, b.content())
                .with_context(|| format!("{}: write failed", output.name))
        },
    )?;
    let (_, _, output) = sink;
    let blocks = blocks
        .into_inner()
        .map_err(|_| anyhow!("a thread panicked"))?;
    bar.finish_and_clear();
    let (read, written) = (blocks.position(), output.written);
    output.commit()?;
    if opt.common.verbose {
        eprintln!(
            "{name}: {read} bytes -> {written} bytes, LZ4 frames, checksums ok, {threads} threads"
        );
    }
    Ok(())
}

/// The reader shared by both sides of [`lz4_parallel`].
fn lock<T>(m: &std::sync::Mutex<T>) -> Result<std::sync::MutexGuard<'_, T>> {
    m.lock().map_err(|_| anyhow!("a thread panicked"))
}

/// An LZ4 frame error in words, naming the dictionary where one is missing
/// or another was given.
fn lz4_error(name: &str, e: &vecpress::Error, dict: Option<&Dictionary>) -> anyhow::Error {
    match (e, dict) {
        (
            &vecpress::Error::DictionaryMismatch {
                needed,
                given: None,
            },
            _,
        ) => anyhow!("{name}: {}", lz4_settings::missing(needed)),
        (vecpress::Error::DictionaryMismatch { .. }, Some(d)) => {
            anyhow!("{name}: {} (dictionary {})", describe_error(e), d.name)
        }
        _ => anyhow!("{name}: {}", describe_error(e)),
    }
}

/// A container or frame error in words. A truncation (the library counts
/// it in bytes, `Unit::Bytes`) is said as the file's: "file truncated: the
/// structure at byte N lacks M byte(s)"; anything else as the library says it.
pub fn describe(e: &std::io::Error) -> String {
    match e
        .get_ref()
        .and_then(|i| i.downcast_ref::<vecpress::Error>())
    {
        Some(inner) => describe_error(inner),
        None => e.to_string(),
    }
}

/// [`describe`] for the library's error.
fn describe_error(e: &vecpress::Error) -> String {
    match e {
        vecpress::Error::Truncated { offset, needed, .. } => {
            format!("file truncated: the structure at byte {offset} lacks {needed} byte(s)")
        }
        other => other.to_string(),
    }
}

/// The codecs a file's blocks decode with: the header's for every block
/// (version 1), or each block's own (version 2, checked as each comes).
#[derive(Clone, Copy)]
pub struct Codecs<'a> {
    element: Element,
    dict_id: Option<u32>,
    dict: Option<&'a Dictionary>,
    /// The header's codec, for a version 1 file.
    fixed: Option<Tuned<'a>>,
    block_header_len: usize,
}

impl<'a> Codecs<'a> {
    /// The codecs of a file with `header`, given the dictionary `dict`
    /// (from `--dict`): the header's codec is checked now, and so is the
    /// dictionary a file of per-block codecs names.
    pub fn new(header: &Header, dict: Option<&'a Dictionary>) -> Result<Codecs<'a>> {
        let fixed = if header.codec == PER_BLOCK {
            if let Some(needed) = header.dict_id {
                dict.ok_or_else(|| lz4_settings::missing(needed))?
                    .check(needed)?;
            }
            None
        } else {
            let engine = engine::for_file(header.codec, header.element)?;
            Some(Tuned::for_file(engine, header.dict_id, dict)?)
        };
        Ok(Codecs {
            element: header.element,
            dict_id: header.dict_id,
            dict,
            fixed,
            block_header_len: header.block_header_len(),
        })
    }

    /// The codec of a block.
    pub fn for_block(&self, info: &BlockInfo) -> Result<Tuned<'a>> {
        if info.stored {
            return Ok(Tuned::plain(Engine::Store));
        }
        if let Some(fixed) = self.fixed {
            return Ok(fixed);
        }
        let engine = engine::for_file(info.codec, self.element)?;
        Tuned::for_file(engine, self.dict_id, self.dict)
    }

    /// The codec for -v: its name, or "chosen per block".
    pub fn describe(&self) -> &'static str {
        self.fixed.map_or("chosen per block", |t| t.engine.name())
    }
}

/// Decodes one block (stored or encoded) into its elements' bytes.
fn decode_block(codecs: &Codecs<'_>, slot: &mut Slot, s: &mut Scratch) -> Result<()> {
    let Some(info) = slot.info else { return Ok(()) };
    let count = info.count as usize;
    let r = codecs.for_block(&info).and_then(|engine| {
        engine.decode(codecs.element, &slot.payload, count, &mut slot.decoded, s)
    });
    r.with_context(|| {
        format!(
            "block {} (payload at byte {} of the file)",
            info.index,
            info.offset + codecs.block_header_len as u64
        )
    })
}

/// What [`verify`] found.
#[derive(Default)]
pub struct Verified {
    /// Blocks stored raw.
    pub stored: u64,
    /// Bytes of content restored (0 when not decoded).
    pub content: u64,
    /// Blocks of each codec id and level (stored ones under id 0).
    pub per_codec: std::collections::BTreeMap<(u16, u8), u64>,
}

/// Reads a whole vecpress file, verifying it; for `inspect`. Without the
/// codecs (a dictionary is missing), blocks are checked but not decoded, and
/// the content is neither measured (0 bytes) nor checked.
pub fn verify(
    reader: &mut Reader<Box<dyn Read + Send>>,
    codecs: Option<Codecs<'_>>,
) -> Result<Verified> {
    let element = reader.header().element;
    let mut slot = Slot::default();
    let mut s = Scratch::default();
    let mut restorer = Restorer::new(element);
    let mut found = Verified::default();
    loop {
        let index = reader.blocks();
        slot.info = reader
            .next_block(&mut slot.payload)
            .map_err(|e| anyhow!("block {index}: {}", describe(&e)))?;
        let Some(info) = slot.info else { break };
        found.stored += u64::from(info.stored);
        *found.per_codec.entry((info.codec, info.level)).or_default() += 1;
        let Some(codecs) = &codecs else { continue };
        decode_block(codecs, &mut slot, &mut s)?;
        let c = restorer.restore(&mut slot.decoded);
        found.content += c.len() as u64;
        reader.hash_content(c);
    }
    if codecs.is_some() {
        reader.check_content().map_err(|e| anyhow!(describe(&e)))?;
    }
    Ok(found)
}
