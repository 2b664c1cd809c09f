//! The LZ4 block format: compressor, checked and fast decoders.
//!
//! See [the module above](super) for the layout of a block. Sizes: a block
//! of `n` input bytes takes at most [`max_compressed_len`]`(n)` bytes; the
//! decompressed size is not stored, so the caller passes an output slice at
//! least that large (or uses the size prefix of [`compress_size_prepended`],
//! the layout of numcodecs' `LZ4` codec).
//!
//! Decoders take untrusted input and need no padding. Each returns the bytes
//! it wrote, or an [`Error`] naming the input offset of the sequence or field
//! at fault: [`Error::Truncated`] (`needed` counts the missing bytes) when the
//! block ends inside a sequence, is empty, or ends with a match instead of
//! literals; [`Error::Corrupt`] for a zero offset, an offset that reaches
//! before the output (or prefix, or dictionary), or a sequence that would
//! overrun the output. A match only ever copies bytes this call wrote, or the
//! caller's prefix or dictionary: a reused output buffer does not leak its
//! old contents into the result.
//!
//! Blocks that come two or more at a time decode faster through
//! [`decompress_pair`], which runs the loop over two blocks at once.
//!
//! ```
//! use vecpress::lz4::block;
//!
//! let data = b"abcabcabcabcabcabcabcabcabcabc-xyz-xyz-xyz-xyz-xyz".to_vec();
//! let mut packed = vec![0u8; block::max_compressed_len(data.len())];
//! let n = block::compress_into(&data, &mut packed)?;
//! let mut out = vec![0u8; data.len()];
//! assert_eq!(block::decompress_into(&packed[..n], &mut out)?, data.len());
//! assert_eq!(out, data);
//! assert_eq!(block::validate(&packed[..n])?, data.len());
//! # Ok::<(), vecpress::Error>(())
//! ```

mod chain;
mod checked;
mod compress;
mod copier;
mod fast;
mod pair;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod shuffle;
mod size_prepended;
mod tables;
pub(crate) mod variant;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse41;

pub(crate) use pair::decompress_pair_with;
pub use pair::{decompress_pair, decompress_pair_variant};
pub use size_prepended::{
    compress_size_prepended, decompress_size_prepended, decompress_size_prepended_with_dict,
    decompress_size_prepended_with_limit,
};
pub use variant::{Variant, variants};

use crate::{Error, Isa};
use checked::Step;
pub(in crate::lz4) use compress::{extension_len, put_extension, read_u32};

impl Variant {
    /// The variant [`decompress_into`] uses: the
    /// fastest this CPU's profile records ([`tune::lz4_variant`]).
    ///
    /// [`tune::lz4_variant`]: crate::tune::lz4_variant
    ///
    /// ```
    /// assert!(vecpress::lz4::block::Variant::best().is_available());
    /// ```
    pub fn best() -> Variant {
        crate::tune::lz4_variant()
    }
}

/// The shortest match (`MINMATCH`): the low nibble of a token counts the
/// bytes beyond these 4.
pub const MINMATCH: usize = 4;
/// The last `LASTLITERALS` (5) bytes of a block are always literals (spec,
/// "End of block conditions").
pub const LASTLITERALS: usize = 5;
/// The last match starts at least `MFLIMIT` (12) bytes before the end of the
/// block, so blocks of fewer than 13 bytes are all literals.
pub const MFLIMIT: usize = 12;
/// The largest match offset (`LZ4_DISTANCE_MAX`): matches reach at most
/// 64 KiB - 1 back.
pub const MAX_DISTANCE: usize = 65_535;
/// The largest input the compressor takes (`LZ4_MAX_INPUT_SIZE`).
pub const MAX_INPUT_SIZE: usize = 0x7E00_0000;

/// Worst-case compressed size of `n` bytes (`LZ4_COMPRESSBOUND`):
/// `n + n / 255 + 16`.
///
/// ```
/// assert_eq!(vecpress::lz4::block::max_compressed_len(1000), 1000 + 3 + 16);
/// ```
pub const fn max_compressed_len(n: usize) -> usize {
    n.saturating_add(n / 255).saturating_add(16)
}

/// The most bytes a block of `n` bytes can decode to: `255 n + 16`. Each
/// byte of a block yields at most 255 bytes (a literal one, a match
/// length byte 255), so a size claimed beyond this is a lie, refused before
/// anything is allocated for it.
///
/// ```
/// use vecpress::lz4::block;
/// let packed = block::compress(&[0u8; 100_000]);
/// assert!(100_000 <= block::max_decompressed_len(packed.len()));
/// assert_eq!(block::max_decompressed_len(1), 271);
/// ```
pub const fn max_decompressed_len(n: usize) -> usize {
    n.saturating_mul(255).saturating_add(16)
}

/// `Err(LimitExceeded)` for an input above [`MAX_INPUT_SIZE`].
pub(in crate::lz4) fn check_input_size(n: usize) -> Result<(), Error> {
    if n > MAX_INPUT_SIZE {
        return Err(Error::LimitExceeded {
            what: "lz4 block input size",
            requested: n,
            limit: MAX_INPUT_SIZE,
        });
    }
    Ok(())
}

/// Compresses `src` into `dst` as `LZ4_compress_default` does; returns the
/// block's length.
///
/// # Errors
/// [`Error::OutputTooSmall`] (with `needed` = [`max_compressed_len`]) when
/// the block does not fit `dst`; a `dst` of that size always suffices.
/// [`Error::LimitExceeded`] for inputs above [`MAX_INPUT_SIZE`].
///
/// ```
/// use vecpress::lz4::block;
/// let mut dst = [0u8; 64];
/// let n = block::compress_into(&[7u8; 40], &mut dst)?;
/// assert!(n < 20);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_into(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    compress_into_with(src, dst, 1)
}

/// Like [`compress_into`] with an acceleration factor
/// (`LZ4_compress_fast`): 1 (or 0) is the default; larger values search
/// less, for faster compression and larger blocks. Values above 65537 act
/// as 65537.
///
/// ```
/// use vecpress::lz4::block;
/// let data: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8 ^ (i / 97) as u8).collect();
/// let mut dst = vec![0u8; block::max_compressed_len(data.len())];
/// let fast = block::compress_into_with(&data, &mut dst, 8)?;
/// let mut out = vec![0u8; data.len()];
/// block::decompress_into(&dst[..fast], &mut out)?;
/// assert_eq!(out, data);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_into_with(src: &[u8], dst: &mut [u8], acceleration: u32) -> Result<usize, Error> {
    check_input_size(src.len())?;
    compress::compress(src, 0, dst, acceleration)
}

/// Compresses `src` into a new vector holding exactly the block.
///
/// # Panics
/// For inputs above [`MAX_INPUT_SIZE`].
///
/// ```
/// let block = vecpress::lz4::block::compress(b"");
/// assert_eq!(block, [0]); // one token: no literals, no match
/// ```
pub fn compress(src: &[u8]) -> Vec<u8> {
    let mut dst = vec![0u8; max_compressed_len(src.len())];
    let n = compress_into(src, &mut dst).expect("lz4 block input too large");
    dst.truncate(n);
    dst
}

/// Compresses `src` with matches allowed to reach into the last 64 KiB of
/// `dict`, the data that came before it (a dictionary, see
/// [`dict`](super::dict)). Decode with [`decompress_with_dict`] (or
/// [`decompress_with_prefix`] when the dictionary precedes the output in
/// one buffer). Copies the dictionary's tail and `src` into one buffer first.
///
/// A dictionary is worth a harder search than [`compress_into`]'s single
/// probe: this parse keeps every position of the dictionary and of `src` in
/// hash chains, takes the longest of up to 256 candidates, and matches
/// lazily (see `block/chain.rs`). It is slower than [`compress_into`]: each
/// call indexes the dictionary's tail (up to 64 KiB), which dominates the
/// time for small inputs, and it finds markedly more of what the
/// dictionary holds.
///
/// ```
/// use vecpress::lz4::block;
/// let dict = b"the quick brown fox jumps over the lazy dog; ".repeat(4);
/// let src = b"the lazy dog jumps over the quick brown fox".to_vec();
/// let mut dst = vec![0u8; block::max_compressed_len(src.len())];
/// let n = block::compress_with_dict(&src, &dict, &mut dst)?;
/// assert!(n < block::compress(&src).len());
/// let mut out = vec![0u8; src.len()];
/// assert_eq!(block::decompress_with_dict(&dst[..n], &dict, &mut out)?, src.len());
/// assert_eq!(out, src);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_with_dict(src: &[u8], dict: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    check_input_size(src.len())?;
    let tail = &dict[dict.len().saturating_sub(MAX_DISTANCE)..];
    let mut joined = Vec::with_capacity(tail.len() + src.len());
    joined.extend_from_slice(tail);
    joined.extend_from_slice(src);
    chain::compress(&joined, tail.len(), dst)
}

/// [`compress_with_prefix`] with the search of [`compress_with_dict`]: for
/// frames compressed with a dictionary.
pub(crate) fn compress_with_prefix_searching(
    buf: &[u8],
    prefix_len: usize,
    dst: &mut [u8],
) -> Result<usize, Error> {
    if prefix_len > buf.len() {
        return Err(Error::OutOfRange {
            index: prefix_len,
            len: buf.len(),
        });
    }
    check_input_size(buf.len() - prefix_len)?;
    let start = prefix_len.saturating_sub(MAX_DISTANCE);
    chain::compress(&buf[start..], prefix_len - start, dst)
}

/// Compresses `buf[prefix_len..]`, with matches allowed to reach back into
/// `buf[..prefix_len]` (up to 64 KiB): [`compress_with_dict`] for data that
/// already sits after its history. Decode with [`decompress_with_prefix`].
///
/// ```
/// use vecpress::lz4::block;
/// let buf = b"one two three four; one two three four".to_vec();
/// let mut dst = vec![0u8; block::max_compressed_len(buf.len())];
/// let n = block::compress_with_prefix(&buf, 20, &mut dst)?;
/// let mut out = buf[..20].to_vec();
/// out.resize(buf.len(), 0);
/// assert_eq!(block::decompress_with_prefix(&dst[..n], &mut out, 20)?, buf.len() - 20);
/// assert_eq!(out, buf);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn compress_with_prefix(buf: &[u8], prefix_len: usize, dst: &mut [u8]) -> Result<usize, Error> {
    if prefix_len > buf.len() {
        return Err(Error::OutOfRange {
            index: prefix_len,
            len: buf.len(),
        });
    }
    check_input_size(buf.len() - prefix_len)?;
    let start = prefix_len.saturating_sub(MAX_DISTANCE);
    compress::compress(&buf[start..], prefix_len - start, dst, 1)
}

/// Decompresses the block `src` into `dst` with the fastest loop of this
/// CPU; returns the bytes written. `dst` must hold the whole result.
///
/// ```
/// use vecpress::{lz4::block, Error};
/// let packed = block::compress(b"yada yada yada yada yada yada!");
/// let mut out = [0u8; 64];
/// let n = block::decompress_into(&packed, &mut out)?;
/// assert_eq!(&out[..n], b"yada yada yada yada yada yada!");
/// assert!(matches!(block::decompress_into(&packed, &mut out[..10]), Err(Error::Corrupt { .. })));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_into(src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    decode(Variant::best(), src, dst, 0, &[])
}

/// Like [`decompress_into`], with the loop chosen for the level `isa` (see
/// [`kernels`]).
///
/// # Errors
/// [`Error::Unsupported`] when the CPU lacks `isa`; else as
/// [`decompress_into`].
///
/// ```
/// use vecpress::{lz4::block, Isa};
/// let packed = block::compress(&[1u8; 100]);
/// let mut out = [0u8; 100];
/// for &isa in Isa::available() {
///     assert_eq!(block::decompress_with(isa, &packed, &mut out)?, 100);
/// }
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_with(isa: Isa, src: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    decode(Variant::for_isa(isa.check()?), src, dst, 0, &[])
}

/// The levels of [`Isa::available`] that have a decoding loop of their own:
/// `Scalar` (portable 16-byte copies), `Sse41` (`pshufb` patterns), `Avx2`
/// (32-byte copies), `Neon` (`tbl` patterns).
///
/// ```
/// assert!(vecpress::lz4::block::kernels().contains(&vecpress::Isa::Scalar));
/// ```
pub fn kernels() -> Vec<Isa> {
    Isa::available()
        .iter()
        .copied()
        .filter(|isa| matches!(isa, Isa::Scalar | Isa::Sse41 | Isa::Avx2 | Isa::Neon))
        .collect()
}

/// Decompresses with the loop `variant`; returns the bytes written.
///
/// # Errors
/// [`Error::Unsupported`] when the CPU lacks what `variant` needs; else as
/// [`decompress_into`].
///
/// ```
/// use vecpress::lz4::block::{self, Variant};
/// let packed = block::compress(b"to be or not to be, to be or not to be");
/// let mut out = [0u8; 38];
/// for v in block::variants() {
///     assert_eq!(block::decompress_into_variant(v, &packed, &mut out)?, 38);
/// }
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_into_variant(
    variant: Variant,
    src: &[u8],
    dst: &mut [u8],
) -> Result<usize, Error> {
    decode(variant.check()?, src, dst, 0, &[])
}

/// Decompresses `src` into `buf[prefix_len..]`, where `buf[..prefix_len]`
/// holds the data decoded before it, which matches may reference (up to
/// 64 KiB back): the linked blocks of a frame. Returns the bytes written
/// after the prefix.
///
/// # Errors
/// [`Error::OutOfRange`] when `prefix_len > buf.len()`; else as
/// [`decompress_into`].
///
/// ```
/// use vecpress::lz4::block;
/// let history = b"an example of history, ".to_vec();
/// let mut joined = history.clone();
/// joined.extend_from_slice(b"an example of history, again");
/// let mut packed = vec![0u8; block::max_compressed_len(joined.len())];
/// let n = block::compress_with_prefix(&joined, history.len(), &mut packed)?;
/// let mut buf = history.clone();
/// buf.resize(joined.len(), 0);
/// assert_eq!(block::decompress_with_prefix(&packed[..n], &mut buf, history.len())?, 28);
/// assert_eq!(buf, joined);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_with_prefix(
    src: &[u8],
    buf: &mut [u8],
    prefix_len: usize,
) -> Result<usize, Error> {
    if prefix_len > buf.len() {
        return Err(Error::OutOfRange {
            index: prefix_len,
            len: buf.len(),
        });
    }
    decode(Variant::best(), src, buf, prefix_len, &[])
}

/// Decompresses `src` into `dst`; matches may reach past the start of `dst`
/// into the last 64 KiB of `dict`, the data before it.
///
/// ```
/// use vecpress::lz4::block;
/// let dict = b"0123456789abcdef".repeat(8);
/// let src = b"89abcdef01234567".repeat(3);
/// let mut packed = vec![0u8; block::max_compressed_len(src.len())];
/// let n = block::compress_with_dict(&src, &dict, &mut packed)?;
/// let mut out = vec![0u8; src.len()];
/// assert_eq!(block::decompress_with_dict(&packed[..n], &dict, &mut out)?, src.len());
/// assert_eq!(out, src);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_with_dict(src: &[u8], dict: &[u8], dst: &mut [u8]) -> Result<usize, Error> {
    let dict = &dict[dict.len().saturating_sub(MAX_DISTANCE)..];
    decode(Variant::best(), src, dst, 0, dict)
}

/// [`decompress_with_prefix`] where the last 64 KiB of `dict` lie before
/// `buf[..prefix_len]`: the first blocks of a frame with a dictionary.
pub(crate) fn decompress_with_prefix_and_dict(
    src: &[u8],
    buf: &mut [u8],
    prefix_len: usize,
    dict: &[u8],
) -> Result<usize, Error> {
    if prefix_len > buf.len() {
        return Err(Error::OutOfRange {
            index: prefix_len,
            len: buf.len(),
        });
    }
    let dict = &dict[dict.len().saturating_sub(MAX_DISTANCE)..];
    decode(Variant::best(), src, buf, prefix_len, dict)
}

/// Checks the block `src` without writing anything; returns its
/// decompressed size. A block that validates decompresses into any output of
/// at least that size.
///
/// ```
/// use vecpress::lz4::block;
/// let packed = block::compress(&[9u8; 1000]);
/// assert_eq!(block::validate(&packed)?, 1000);
/// assert!(block::validate(&packed[..packed.len() - 1]).is_err());
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn validate(src: &[u8]) -> Result<usize, Error> {
    checked::validate(src, 0)
}

/// The one map from variant to loop: the loop decodes what it can, the
/// checked path one sequence, and so on until the block ends.
fn decode(
    variant: Variant,
    src: &[u8],
    buf: &mut [u8],
    start: usize,
    dict: &[u8],
) -> Result<usize, Error> {
    decode_from(variant, src, buf, start, dict, (0, start))
}

/// [`decode`] from input offset `at.0` and output offset `at.1`, the start
/// of a sequence.
fn decode_from(
    variant: Variant,
    src: &[u8],
    buf: &mut [u8],
    start: usize,
    dict: &[u8],
    at: (usize, usize),
) -> Result<usize, Error> {
    let register = crate::tune::lz4_register_patterns();
    decode_from_form(variant, register, src, buf, start, dict, at)
}

/// [`decode_from`] with the form of the `copy32` loop's overlapping
/// matches given (`register`: see `avx2::Copy32`), not read from the CPU's
/// profile: the tests run both.
fn decode_from_form(
    variant: Variant,
    register: bool,
    src: &[u8],
    buf: &mut [u8],
    start: usize,
    dict: &[u8],
    at: (usize, usize),
) -> Result<usize, Error> {
    #[cfg(not(target_arch = "x86_64"))]
    let _ = register;
    let (mut ip, mut op) = at;
    loop {
        (ip, op) = match variant {
            Variant::Checked => (ip, op),
            Variant::Copy8 => fast::decode_copy8(src, ip, buf, op),
            Variant::Copy16 => fast::decode_copy16(src, ip, buf, op),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `variant` passed `check()` (or came from `best()`), so
            // the CPU has the Sse41 level.
            Variant::Shuffle16 => unsafe { sse41::decode_shuffle16(src, ip, buf, op) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: as above, the CPU has Neon.
            Variant::Shuffle16 => unsafe { neon::decode_shuffle16(src, ip, buf, op) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, the CPU has the Avx2 level.
            Variant::Copy32 if register => unsafe { avx2::decode_copy32::<true>(src, ip, buf, op) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Variant::Copy32 => unsafe { avx2::decode_copy32::<false>(src, ip, buf, op) },
            #[allow(unreachable_patterns)]
            _ => (ip, op),
        };
        match checked::step(src, ip, buf, op, dict)? {
            Step::Done(end) => return Ok(end - start),
            Step::More(i, o) => (ip, op) = (i, o),
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests;
