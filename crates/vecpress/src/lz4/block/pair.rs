//! Two independent blocks decoded by one loop, a sequence of each in turn:
//! two chains of loads for the CPU to run side by side.

use super::{Variant, decode_from_form, fast};
use crate::{Error, Isa};

#[cfg(target_arch = "aarch64")]
use super::neon;
#[cfg(target_arch = "x86_64")]
use super::{avx2, sse41};

/// Decompresses two blocks, `a.0` into `a.1` and `b.0` into `b.1`, with the
/// fastest loop of this CPU running over both at once: a sequence of one,
/// then a sequence of the other. Returns each block's result, the same as
/// [`decompress_into`](super::decompress_into) gives it (bytes written, or the error at the same
/// input offset).
///
/// Decoding one block, the loop waits on a chain of loads: the next token's
/// place depends on the lengths in this one. Two independent blocks give
/// the CPU two chains to run side by side. That decodes faster than one
/// block at a time (`perf/intel-6-207.md`, "LZ4"), most where sequences
/// are shortest (text), even with a loop that already shortens its chain
/// with a table of where each next token would be. Use it wherever blocks
/// come two or more at a time: the blocks of a column, of a file, of a
/// frame of independent blocks.
///
/// ```
/// use vecpress::lz4::block;
/// let (x, y) = (b"first block, first block, first!".repeat(20), b"second: 2nd 2nd 2nd".repeat(30));
/// let (px, py) = (block::compress(&x), block::compress(&y));
/// let (mut ox, mut oy) = (vec![0u8; x.len()], vec![0u8; y.len()]);
/// let (rx, ry) = block::decompress_pair((&px, &mut ox), (&py, &mut oy));
/// assert_eq!((rx?, ry?), (x.len(), y.len()));
/// assert_eq!((ox, oy), (x, y));
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_pair(
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> (Result<usize, Error>, Result<usize, Error>) {
    decode_pair(Variant::best(), a, b)
}

/// [`decompress_pair`] with the loop `variant`; both results are
/// [`Error::Unsupported`] when this CPU cannot run it.
///
/// ```
/// use vecpress::lz4::block;
/// let packed = block::compress(&[3u8; 500]);
/// for v in block::variants() {
///     let (mut a, mut b) = ([0u8; 500], [0u8; 400]);
///     let (ra, rb) = block::decompress_pair_variant(v, (&packed, &mut a), (&packed, &mut b));
///     assert_eq!(ra, Ok(500));
///     assert!(rb.is_err()); // 500 bytes do not fit in 400
/// }
/// ```
pub fn decompress_pair_variant(
    variant: Variant,
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> (Result<usize, Error>, Result<usize, Error>) {
    match variant.check() {
        Ok(v) => decode_pair(v, a, b),
        Err(e) => (Err(e.clone()), Err(e)),
    }
}

/// [`decompress_pair`] with the loop of `isa`, the one [`decompress_with`](super::decompress_with)
/// runs: for codecs whose frames hold several independent blocks.
pub(crate) fn decompress_pair_with(
    isa: Isa,
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> (Result<usize, Error>, Result<usize, Error>) {
    match isa.check() {
        Ok(isa) => decode_pair(Variant::for_isa(isa), a, b),
        Err(e) => (Err(e.clone()), Err(e)),
    }
}

/// The most a block may expand (its output over its input) for
/// [`decode_pair`] to run the pair loop on it; where either block of a pair
/// expands more, each is decoded alone. Such a block is mostly long matches
/// and runs, with few sequences, so there is little chain of loads for a
/// second block to hide, and the pair loop runs slower than one block at a
/// time on blocks that expand more than 4 times, as the byte planes of
/// float columns that Blosc splits do (about 8 times; `perf/intel-6-207.md`,
/// "LZ4").
const PAIR_MAX_EXPANSION: usize = 4;

/// The pair loop of `variant` over both blocks from their starts, then
/// each block finished on its own as `decode` does; or each block alone
/// where one expands more than [`PAIR_MAX_EXPANSION`] times.
fn decode_pair(
    variant: Variant,
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> (Result<usize, Error>, Result<usize, Error>) {
    decode_pair_form(variant, crate::tune::lz4_register_patterns(), a, b)
}

/// [`decode_pair`] with the form of `copy32`'s overlapping matches given,
/// as `decode_from_form`.
pub(super) fn decode_pair_form(
    variant: Variant,
    register: bool,
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> (Result<usize, Error>, Result<usize, Error>) {
    #[cfg(not(target_arch = "x86_64"))]
    let _ = register;
    let ((a_src, a_dst), (b_src, b_dst)) = (a, b);
    if a_dst.len() / PAIR_MAX_EXPANSION > a_src.len()
        || b_dst.len() / PAIR_MAX_EXPANSION > b_src.len()
    {
        return (
            decode_from_form(variant, register, a_src, a_dst, 0, &[], (0, 0)),
            decode_from_form(variant, register, b_src, b_dst, 0, &[], (0, 0)),
        );
    }
    let pair = ((a_src, &mut *a_dst), (b_src, &mut *b_dst));
    let (a_at, b_at) = match variant {
        Variant::Copy8 => fast::decode_pair_copy8(pair.0, pair.1),
        Variant::Copy16 => fast::decode_pair_copy16(pair.0, pair.1),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `variant` passed `check()` (or came from `best()`), so the
        // CPU has the Sse41 level.
        Variant::Shuffle16 => unsafe { sse41::decode_pair_shuffle16(pair.0, pair.1) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has Neon.
        Variant::Shuffle16 => unsafe { neon::decode_pair_shuffle16(pair.0, pair.1) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has the Avx2 level.
        Variant::Copy32 if register => unsafe { avx2::decode_pair_copy32::<true>(pair.0, pair.1) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Variant::Copy32 => unsafe { avx2::decode_pair_copy32::<false>(pair.0, pair.1) },
        _ => ((0, 0), (0, 0)),
    };
    (
        decode_from_form(variant, register, a_src, a_dst, 0, &[], a_at),
        decode_from_form(variant, register, b_src, b_dst, 0, &[], b_at),
    )
}
