//! Trying codecs on data: size, encode and decode speed, with the round trip
//! checked. `compress --auto` runs it on a sample to pick a codec, `inspect`
//! on a raw file to print a table.
#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use vecpress::container::Element;

use crate::engine::{Engine, Scratch};

/// One codec's result on some blocks.
pub struct Trial {
    pub engine: Engine,
    /// Bytes of the elements.
    pub raw_bytes: u64,
    /// Bytes the blocks take in a file (payloads, stored raw where smaller,
    /// plus block headers).
    pub file_bytes: u64,
    /// Bytes of the payloads alone.
    pub payload_bytes: u64,
    pub encode: Duration,
    pub decode: Duration,
}

/// Bytes of a block's header in a file.
const BLOCK_OVERHEAD: u64 = vecpress::container::BLOCK_HEADER_LEN as u64;

impl Trial {
    /// Raw bytes per file byte.
    pub fn ratio(&self) -> f64 {
        self.raw_bytes as f64 / self.file_bytes.max(1) as f64
    }

    /// Encoding speed in MB/s of raw bytes.
    pub fn encode_mbs(&self) -> f64 {
        mbs(self.raw_bytes, self.encode)
    }

    /// Decoding speed in MB/s of raw bytes.
    pub fn decode_mbs(&self) -> f64 {
        mbs(self.raw_bytes, self.decode)
    }
}

fn mbs(bytes: u64, t: Duration) -> f64 {
    bytes as f64 / 1e6 / t.as_secs_f64().max(1e-9)
}

/// Runs `engine` over `blocks` (elements' bytes and counts), each timed over
/// passes of at least a few milliseconds, the round trip checked.
pub fn run(engine: Engine, element: Element, blocks: &[(usize, &[u8])]) -> Result<Trial> {
    let mut t = Trial {
        engine,
        raw_bytes: 0,
        file_bytes: 0,
        payload_bytes: 0,
        encode: Duration::ZERO,
        decode: Duration::ZERO,
    };
    let mut s = Scratch::default();
    let (mut enc, mut dec) = (Vec::new(), Vec::new());
    for &(count, raw) in blocks {
        let encode = timed(|| engine.encode(element, raw, &mut enc, &mut s))?;
        let decode = timed(|| engine.decode(element, &enc, count, &mut dec, &mut s))?;
        if dec != raw {
            bail!("{} does not round-trip this data", engine.name());
        }
        t.raw_bytes += raw.len() as u64;
        t.payload_bytes += enc.len().min(raw.len()) as u64;
        t.file_bytes += BLOCK_OVERHEAD + enc.len().min(raw.len()) as u64;
        t.encode += encode;
        t.decode += decode;
    }
    Ok(t)
}

/// Runs `f` once untimed (its buffers and the data then in cache, as every
/// pass after finds them), then until 5 ms have passed (at least once, at
/// most 1000 times); returns the mean time of a timed pass.
fn timed(mut f: impl FnMut() -> Result<()>) -> Result<Duration> {
    f()?;
    let start = Instant::now();
    let mut passes = 0u32;
    while passes == 0 || (start.elapsed() < Duration::from_millis(5) && passes < 1000) {
        f()?;
        passes += 1;
    }
    Ok(start.elapsed() / passes)
}

/// The trial to recommend: the smallest file, unless another is within 1%
/// of it and decodes faster.
pub fn best(trials: &[Trial]) -> Option<&Trial> {
    let smallest = trials.iter().map(|t| t.file_bytes).min()?;
    trials
        .iter()
        .filter(|t| t.file_bytes as f64 <= smallest as f64 * 1.01)
        .max_by(|a, b| a.decode_mbs().total_cmp(&b.decode_mbs()))
}
