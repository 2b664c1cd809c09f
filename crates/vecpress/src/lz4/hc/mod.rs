//! LZ4 high compression: the same [block format](super::block), written by
//! slower parsers that find longer and more matches, as liblz4's `lz4hc.c`
//! does (`LZ4_compress_HC`, `lz4 -9`, `lz4 -12`).
//!
//! The output is an ordinary LZ4 block: any LZ4 decoder reads it, as fast as
//! (or faster than) the output of the fast compressor, since it holds fewer,
//! longer sequences. It keeps the rules of the end of a block: the last
//! [`LASTLITERALS`] bytes are literals and the last match starts at least
//! [`MFLIMIT`] bytes before the end.
//!
//! # Levels
//!
//! Levels have liblz4's meaning (its table `k_clTable`), with levels below 2
//! mapped as the LZ4 frame API and the `lz4` command map them:
//!
//! | level | parser | candidates per search | taken at once from |
//! |---|---|---|---|
//! | 0, 1 | the fast compressor ([`block::compress_into`]) | 1 | - |
//! | 2 | "mid": two hash tables, no chains | 2 | - |
//! | 3 ..= 8 | hash chain | 4, 8, 16, 32, 64, 128 | - |
//! | 9 (default) | hash chain, pattern analysis | 256 | - |
//! | 10 | optimal | 96 | 64 bytes |
//! | 11 | optimal | 512 | 128 bytes |
//! | 12 | optimal, full update | 16384 | 4096 bytes |
//!
//! Levels above 12 act as 12. Level 2 is liblz4 1.10's "mid" strategy
//! (`mid.rs`): a long and a short hash table, a few positions of each
//! match recorded, between level 1 and level 3 in both speed and ratio.
//!
//! The *hash-chain* parser (levels 3 to 9, `chain.rs`) looks for each match
//! a little ahead for a longer one that may start earlier, and trims
//! overlaps; the *optimal* parser (levels 10 to 12, `opt.rs`) prices every
//! path through the next positions in output bytes and takes the cheapest.
//! Both use one match finder (`search.rs`): a hash table of 32 Ki
//! positions and a chain table of 64 Ki distances (256 KiB), plus 64 KiB of
//! prices for the optimal parser, allocated per call.
//!
//! [`HcOptions::favor_decompression_speed`] (levels 10 to 12, as liblz4's
//! `LZ4_favorDecompressionSpeed`) avoids matches that decode slowly, for a
//! slightly larger block.
//!
//! ```
//! use vecpress::lz4::{block, hc};
//!
//! let text = b"It is a truth universally acknowledged, that a single man in \
//!     possession of a good fortune, must be in want of a wife. ".repeat(20);
//! let fast = block::compress(&text);
//! let best = hc::compress(&text, 12);
//! assert!(best.len() <= fast.len());
//! let mut out = vec![0u8; text.len()];
//! assert_eq!(block::decompress_into(&best, &mut out)?, text.len());
//! assert_eq!(out, text);
//! # Ok::<(), vecpress::Error>(())
//! ```
#![forbid(unsafe_code)]

mod chain;
mod mid;
mod opt;
mod search;

use super::block::{
    self, MAX_DISTANCE, MINMATCH, check_input_size, extension_len, max_compressed_len,
    put_extension,
};
pub use super::block::{LASTLITERALS, MFLIMIT};
use crate::Error;

/// The lowest level that runs a high-compression parser
/// (`LZ4HC_CLEVEL_MIN`); levels below it use the fast compressor.
pub const MIN_LEVEL: u32 = 2;
/// The default level (`LZ4HC_CLEVEL_DEFAULT`).
pub const DEFAULT_LEVEL: u32 = 9;
/// The first level of the optimal parser (`LZ4HC_CLEVEL_OPT_MIN`).
pub const OPT_MIN_LEVEL: u32 = 10;
/// The highest level (`LZ4HC_CLEVEL_MAX`); higher levels act as this one.
pub const MAX_LEVEL: u32 = 12;

/// How to compress: the level and whether to favor decompression speed.
///
/// ```
/// use vecpress::lz4::hc::HcOptions;
/// let opts = HcOptions::new().level(11).favor_decompression_speed(true);
/// assert_eq!(opts.get_level(), 11);
/// assert!(opts.get_favor_decompression_speed());
/// assert_eq!(HcOptions::default().get_level(), 9);
/// assert_eq!(HcOptions::new().level(40).get_level(), 12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HcOptions {
    level: u32,
    favor_decompression_speed: bool,
}

impl Default for HcOptions {
    fn default() -> Self {
        HcOptions::new()
    }
}

impl HcOptions {
    /// Level [`DEFAULT_LEVEL`] (9), favoring ratio.
    ///
    /// ```
    /// assert_eq!(vecpress::lz4::hc::HcOptions::new().get_level(), 9);
    /// ```
    pub const fn new() -> HcOptions {
        HcOptions {
            level: DEFAULT_LEVEL,
            favor_decompression_speed: false,
        }
    }

    /// Sets the level (see [the table](self#levels)); levels above
    /// [`MAX_LEVEL`] become [`MAX_LEVEL`].
    ///
    /// ```
    /// let opts = vecpress::lz4::hc::HcOptions::new().level(4);
    /// assert_eq!(opts.get_level(), 4);
    /// ```
    pub const fn level(mut self, level: u32) -> HcOptions {
        self.level = if level > MAX_LEVEL { MAX_LEVEL } else { level };
        self
    }

    /// Skips matches that decode slowly (less than 8 bytes back, or just
    /// too long for the token's nibble): a little larger, faster-to-decode
    /// blocks. Levels 10 to 12 only; other levels ignore it.
    ///
    /// ```
    /// use vecpress::lz4::hc::{self, HcOptions};
    /// let data = b"abababababababababab-cdcdcdcdcdcdcdcdcdcd-abababababab".repeat(8);
    /// let opts = HcOptions::new().level(12).favor_decompression_speed(true);
    /// let mut dst = vec![0u8; vecpress::lz4::block::max_compressed_len(data.len())];
    /// let n = hc::compress_into_with(&data, &mut dst, &opts)?;
    /// assert_eq!(vecpress::lz4::block::validate(&dst[..n])?, data.len());
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    pub const fn favor_decompression_speed(mut self, on: bool) -> HcOptions {
        self.favor_decompression_speed = on;
        self
    }

    /// The level.
    ///
    /// ```
    /// assert_eq!(vecpress::lz4::hc::HcOptions::new().level(0).get_level(), 0);
    /// ```
    pub const fn get_level(&self) -> u32 {
        self.level
    }

    /// Whether decompression speed is favored.
    ///
    /// ```
    /// assert!(!vecpress::lz4::hc::HcOptions::new().get_favor_decompression_speed());
    /// ```
    pub const fn get_favor_decompression_speed(&self) -> bool {
        self.favor_decompression_speed
    }
}

/// Compresses `src` into `dst` at `level`; returns the block's length.
///
/// # Errors
/// [`Error::OutputTooSmall`] (with `needed` =
/// [`max_compressed_len`]) when the block does
/// not fit `dst`; a `dst` of that size always suffices.
/// [`Error::LimitExceeded`] for inputs above
/// [`MAX_INPUT_SIZE`](block::MAX_INPUT_SIZE).
///
/// ```
/// use vecpress::lz4::{block, hc};
/// let data = b"0123456789".repeat(50);
/// let mut dst = vec![0u8; block::max_compressed_len(data.len())];
/// let n = hc::compress_into(&data, &mut dst, 9)?;
/// let mut out = vec![0u8; data.len()];
/// block::decompress_into(&dst[..n], &mut out)?;
/// assert_eq!(out, data);
/// assert!(hc::compress_into(&data, &mut dst[..5], 9).is_err());
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_into(src: &[u8], dst: &mut [u8], level: u32) -> Result<usize, Error> {
    compress_into_with(src, dst, &HcOptions::new().level(level))
}

/// Like [`compress_into`], with all the options.
///
/// ```
/// use vecpress::lz4::{block, hc::{self, HcOptions}};
/// let data = b"a rose is a rose is a rose is a rose".to_vec();
/// let mut dst = vec![0u8; block::max_compressed_len(data.len())];
/// let n = hc::compress_into_with(&data, &mut dst, &HcOptions::new().level(10))?;
/// assert_eq!(block::validate(&dst[..n])?, data.len());
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_into_with(src: &[u8], dst: &mut [u8], opts: &HcOptions) -> Result<usize, Error> {
    check_input_size(src.len())?;
    if opts.level < MIN_LEVEL {
        return block::compress_into(src, dst);
    }
    compress_window(src, 0, dst, opts)
}

/// Compresses `src` at `level` into a new vector holding exactly the block.
///
/// # Panics
/// For inputs above [`MAX_INPUT_SIZE`](block::MAX_INPUT_SIZE).
///
/// ```
/// use vecpress::lz4::{block, hc};
/// let data = vec![42u8; 10_000];
/// let packed = hc::compress(&data, 12);
/// assert!(packed.len() < 60);
/// assert_eq!(block::validate(&packed)?, data.len());
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress(src: &[u8], level: u32) -> Vec<u8> {
    let mut dst = vec![0u8; max_compressed_len(src.len())];
    let n = compress_into(src, &mut dst, level).expect("lz4 block input too large");
    dst.truncate(n);
    dst
}

/// Compresses `buf[prefix_len..]`, with matches allowed to reach back into
/// `buf[..prefix_len]` (up to 64 KiB): the linked blocks of a frame. Decode
/// with [`block::decompress_with_prefix`].
///
/// # Errors
/// [`Error::OutOfRange`] when `prefix_len > buf.len()`; else as
/// [`compress_into`].
///
/// ```
/// use vecpress::lz4::{block, hc::{self, HcOptions}};
/// let buf = b"one two three four five; one two three four five!".to_vec();
/// let mut dst = vec![0u8; block::max_compressed_len(buf.len())];
/// let n = hc::compress_with_prefix(&buf, 25, &mut dst, &HcOptions::new())?;
/// let mut out = buf[..25].to_vec();
/// out.resize(buf.len(), 0);
/// assert_eq!(block::decompress_with_prefix(&dst[..n], &mut out, 25)?, buf.len() - 25);
/// assert_eq!(out, buf);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_with_prefix(
    buf: &[u8],
    prefix_len: usize,
    dst: &mut [u8],
    opts: &HcOptions,
) -> Result<usize, Error> {
    if prefix_len > buf.len() {
        return Err(Error::OutOfRange {
            index: prefix_len,
            len: buf.len(),
        });
    }
    check_input_size(buf.len() - prefix_len)?;
    if opts.level < MIN_LEVEL {
        return block::compress_with_prefix(buf, prefix_len, dst);
    }
    let from = prefix_len.saturating_sub(MAX_DISTANCE);
    compress_window(&buf[from..], prefix_len - from, dst, opts)
}

/// Compresses `src` with matches allowed to reach into the last 64 KiB of
/// `dict`, the data before it. Decode with [`block::decompress_with_dict`].
/// Copies the dictionary's tail and `src` into one buffer first.
///
/// # Errors
/// As [`compress_into`].
///
/// ```
/// use vecpress::lz4::{block, hc::{self, HcOptions}};
/// let dict = b"the quick brown fox jumps over the lazy dog; ".repeat(4);
/// let src = b"the lazy dog jumps over the quick brown fox".to_vec();
/// let mut dst = vec![0u8; block::max_compressed_len(src.len())];
/// let n = hc::compress_with_dict(&src, &dict, &mut dst, &HcOptions::new().level(12))?;
/// assert!(n < hc::compress(&src, 12).len());
/// let mut out = vec![0u8; src.len()];
/// assert_eq!(block::decompress_with_dict(&dst[..n], &dict, &mut out)?, src.len());
/// assert_eq!(out, src);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_with_dict(
    src: &[u8],
    dict: &[u8],
    dst: &mut [u8],
    opts: &HcOptions,
) -> Result<usize, Error> {
    check_input_size(src.len())?;
    if opts.level < MIN_LEVEL {
        return block::compress_with_dict(src, dict, dst);
    }
    let tail = &dict[dict.len().saturating_sub(MAX_DISTANCE)..];
    let mut joined = Vec::with_capacity(tail.len() + src.len());
    joined.extend_from_slice(tail);
    joined.extend_from_slice(src);
    compress_window(&joined, tail.len(), dst, opts)
}

/// Compresses `data[start..]`, `data[..start]` (at most 64 KiB) being the
/// history, with a high-compression parser (`opts.level >= MIN_LEVEL`).
fn compress_window(
    data: &[u8],
    start: usize,
    dst: &mut [u8],
    opts: &HcOptions,
) -> Result<usize, Error> {
    let mut out = Out {
        dst,
        pos: 0,
        bound: max_compressed_len(data.len() - start),
    };
    let level = opts.level.min(MAX_LEVEL);
    let favor = opts.favor_decompression_speed;
    match level {
        0..=2 => mid::compress(data, start, &mut out)?,
        3..=9 => chain::compress(data, start, &mut out, 1 << (level - 1))?,
        10 => opt::compress(data, start, &mut out, opt_params(96, 64, false, favor))?,
        11 => opt::compress(data, start, &mut out, opt_params(512, 128, false, favor))?,
        _ => opt::compress(data, start, &mut out, opt_params(16384, 4096, true, favor))?,
    }
    Ok(out.pos)
}

fn opt_params(attempts: u32, sufficient_len: usize, full_update: bool, favor: bool) -> opt::Params {
    opt::Params {
        attempts,
        sufficient_len,
        full_update,
        favor_decompression_speed: favor,
    }
}

/// A match: `len` bytes, `off` back; `back` tells how far before the
/// searched position it starts.
#[derive(Debug, Clone, Copy)]
struct Match {
    len: usize,
    off: usize,
    back: usize,
}

/// The output, every write checked against its length first.
struct Out<'a> {
    dst: &'a mut [u8],
    pos: usize,
    /// The worst-case size, reported when `dst` is too small.
    bound: usize,
}

impl Out<'_> {
    #[inline(always)]
    fn room(&self, n: usize) -> Result<(), Error> {
        if n > self.dst.len() - self.pos {
            return Err(Error::OutputTooSmall {
                needed: self.bound,
                actual: self.dst.len(),
            });
        }
        Ok(())
    }

    /// Appends a length extension: 255s, then the remainder.
    #[inline(always)]
    fn extension(&mut self, n: usize) {
        self.pos = put_extension(self.dst, self.pos, n);
    }

    /// Writes the sequence of the literals `data[anchor..ip]` and the match
    /// `m` at `ip`, and moves both past the match. A match shorter than
    /// [`MINMATCH`] (which the parsers never pass) is left to be literals.
    #[inline(always)]
    fn sequence(
        &mut self,
        data: &[u8],
        anchor: &mut usize,
        ip: &mut usize,
        m: Match,
    ) -> Result<(), Error> {
        debug_assert!(m.len >= MINMATCH && (1..=MAX_DISTANCE).contains(&m.off));
        if m.len < MINMATCH || m.off == 0 || m.off > MAX_DISTANCE || m.off > *ip {
            *ip += m.len;
            return Ok(());
        }
        let lits = *ip - *anchor;
        let ml = m.len - MINMATCH;
        self.room(1 + extension_len(lits) + lits + 2 + extension_len(ml))?;
        let token_at = self.pos;
        self.pos += 1;
        let mut token = if lits >= 15 {
            self.extension(lits - 15);
            15 << 4
        } else {
            (lits as u8) << 4
        };
        self.dst[self.pos..self.pos + lits].copy_from_slice(&data[*anchor..*ip]);
        self.pos += lits;
        self.dst[self.pos..self.pos + 2].copy_from_slice(&(m.off as u16).to_le_bytes());
        self.pos += 2;
        if ml >= 15 {
            token |= 15;
            self.extension(ml - 15);
        } else {
            token |= ml as u8;
        }
        self.dst[token_at] = token;
        *ip += m.len;
        *anchor = *ip;
        Ok(())
    }

    /// The last sequence: literals only, `data[from..]`.
    fn last_literals(&mut self, data: &[u8], from: usize) -> Result<(), Error> {
        let n = data.len() - from;
        self.room(1 + extension_len(n) + n)?;
        let token_at = self.pos;
        self.pos += 1;
        self.dst[token_at] = if n >= 15 {
            self.extension(n - 15);
            15 << 4
        } else {
            (n as u8) << 4
        };
        self.dst[self.pos..self.pos + n].copy_from_slice(&data[from..]);
        self.pos += n;
        Ok(())
    }
}
