//! Bit shuffle: Masui's bit-level transposition of values of any width, as
//! the bitshuffle library (HDF5 filter 32008) and Blosc's `BITSHUFFLE`
//! define it.
//!
//! Source: K. Masui et al., *A compression scheme for radio data in
//! high performance computing*, Astronomy and Computing 12 (2015), and the
//! bitshuffle library (github.com/kiyo-masui/bitshuffle, `bitshuffle_core.c`).
//! Like [byte split](crate::byte_split), the transform stores nothing of its
//! own: it reorders bits so that a compressor finds the runs in the high
//! bits of slowly varying values.
//!
//! # Format
//!
//! A block of `n` values of `K` bytes each (`n` a multiple of 8) becomes
//! `8 K` bit rows of `n / 8` bytes, one after the other: row `8 j + b`
//! holds bit `b` of byte `j` of every value, value `i` at bit `i % 8` of
//! the row's byte `i / 8`. For `K = 1` and the 8 values `1, 0, 0, 0, 0, 0,
//! 0, 3`: row 0 (bit 0 of each value) is `0b1000_0001`, row 1 is
//! `0b1000_0000`, the other rows are zero.
//!
//! The bitshuffle library cuts a buffer of `N` values into blocks of
//! [`default_block_size`] values (or a block size of the caller's, a
//! multiple of [`BLOCKED_MULT`]), then one block of the largest multiple of
//! 8 values left, and copies the last `N % 8` values unchanged. [`encode`]
//! and [`decode`] do exactly that; [`lz4`](compress_lz4) adds its framing.
//! Blosc transposes each of its blocks whole instead (see [`crate::blosc`]).
//!
//! # Kernels
//!
//! The SIMD kernels (SSE4.1, AVX2, Neon; `generic.rs`) take 16 columns of
//! the 8 rows of a byte a lane at a time, one register per row, transpose
//! the 8 x 8 bits of each column across the 8 registers (three rounds of
//! shifts and masks) and interleave the registers into the byte's stream
//! (three rounds of zips). Values of 2, 4 and 8 bytes are joined from their
//! streams in the same registers, so a block is one pass; other widths
//! write the streams and byte split joins them, a second pass. Encoding is
//! the same backwards. At the Avx512 level on a CPU with GFNI, a block is
//! three passes instead, each a register at a time: a byte split of the
//! values into `K` streams, one `gf2p8affineqb` per 64 bytes that
//! transposes each 8-byte word, and a byte split of each stream's words,
//! which gathers the rows. Blocks are small (8 KiB by default), so every
//! pass runs in L1. Where the CPU's profile says so
//! ([`crate::tune::bit_split_one_pass`]), values of 1, 2, 4 and 8 bytes
//! take the same steps in one pass, in registers: sixteen columns of a
//! byte's eight rows loaded four rows a register, gathered into words by
//! `vpermt2b`, transposed by `gf2p8affineqb`, and the `K` bytes of each
//! value joined by `vpermt2b`, `vpermt2w` and `vpermt2d` (`avx512.rs`).
//! There is no `vpshufbitqmb` (BITALG) form: it gathers one bit of each of
//! eight bytes into a mask register, a bit row at a time, where
//! `gf2p8affineqb` transposes all 64 bits of a word in one instruction,
//! and every CPU with BITALG (Ice Lake and later, Zen 4 and later) has
//! GFNI. An AVX-512 CPU without GFNI (Skylake-X, Cascade Lake) runs the
//! AVX2 kernel.
//!
//! # Example
//!
//! ```
//! use vecpress::bit_split;
//!
//! let values: Vec<u8> = [1u16, 2, 3, 4, 5, 6, 7, 8].iter().flat_map(|v| v.to_le_bytes()).collect();
//! let shuffled = bit_split::encode_to_vec(&values, 2)?;
//! // Row 3 (bit 3 of the low bytes) is set for value 7 (8) only.
//! assert_eq!(shuffled[3], 0b1000_0000);
//! assert_eq!(bit_split::decode_to_vec(&shuffled, 2)?, values);
//! # Ok::<(), vecpress::Error>(())
//! ```

mod block;
mod lz4;
mod scalar;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod generic;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse41;

pub use lz4::{
    HEADER_LEN, compress_lz4, compress_lz4_to_vec, decompress_lz4, decompress_lz4_with,
    decompressed_len_lz4, max_compressed_len_lz4, max_compressed_len_lz4_default,
    max_decompressed_len_lz4,
};

use crate::byte_split::count;
use crate::{Error, Isa, byte_split, scratch};
use block::in_steps;
pub(crate) use block::{decode_block, encode_block};

/// Block sizes (in values) must be a multiple of this
/// (`BSHUF_BLOCKED_MULT`).
pub const BLOCKED_MULT: usize = 8;

/// The bytes a default block aims at (`BSHUF_TARGET_BLOCK_SIZE_B`).
const TARGET_BLOCK_BYTES: usize = 8192;

/// The smallest default block, in values (`BSHUF_MIN_RECOMMEND_BLOCK`).
const MIN_RECOMMEND_BLOCK: usize = 128;

/// The bitshuffle library's default block size, in values, for values of
/// `width` bytes (`bshuf_default_block_size`): 8 KiB of values rounded
/// down to a multiple of 8, at least 128 values. A `width` of 0 gives 0.
///
/// ```
/// use vecpress::bit_split::default_block_size;
/// assert_eq!(default_block_size(4), 2048);
/// assert_eq!(default_block_size(3), 2728);
/// assert_eq!(default_block_size(255), 128);
/// ```
pub const fn default_block_size(width: usize) -> usize {
    if width == 0 {
        return 0;
    }
    let size = TARGET_BLOCK_BYTES / width / BLOCKED_MULT * BLOCKED_MULT;
    if size > MIN_RECOMMEND_BLOCK {
        size
    } else {
        MIN_RECOMMEND_BLOCK
    }
}

/// Bit-shuffles `input`, a whole number of values of `width` bytes, into
/// `out` as the bitshuffle library's `bshuf_bitshuffle` does with its
/// default block size; returns the bytes written (`input.len()`).
///
/// ```
/// let mut out = [0u8; 8];
/// assert_eq!(vecpress::bit_split::encode(&[1, 0, 0, 0, 0, 0, 0, 3], 1, &mut out), Ok(8));
/// assert_eq!(out, [0b1000_0001, 0b1000_0000, 0, 0, 0, 0, 0, 0]);
/// ```
pub fn encode(input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    encode_blocked_with(
        crate::tune::isa(crate::tune::Op::BitSplit),
        input,
        width,
        0,
        out,
    )
}

/// [`encode`] with the kernels of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{bit_split, Isa};
/// for &isa in Isa::available() {
///     let mut out = [0u8; 9];
///     assert_eq!(bit_split::encode_with(isa, &[255, 0, 0, 0, 0, 0, 0, 0, 9], 1, &mut out), Ok(9));
///     // Eight values are transposed; the ninth is copied.
///     assert_eq!(out, [1, 1, 1, 1, 1, 1, 1, 1, 9]);
/// }
/// ```
pub fn encode_with(isa: Isa, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    encode_blocked_with(isa, input, width, 0, out)
}

/// [`encode_with`] in blocks of `block_size` values (a multiple of
/// [`BLOCKED_MULT`]; 0 for [`default_block_size`]).
///
/// ```
/// use vecpress::{bit_split, Isa};
/// let input: Vec<u8> = (0..32).collect();
/// let mut a = vec![0u8; 32];
/// let mut b = vec![0u8; 32];
/// bit_split::encode_blocked_with(Isa::best(), &input, 1, 16, &mut a)?;
/// bit_split::encode_blocked_with(Isa::best(), &input[16..], 1, 16, &mut b[16..])?;
/// assert_eq!(a[16..], b[16..]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn encode_blocked_with(
    isa: Isa,
    input: &[u8],
    width: usize,
    block_size: usize,
    out: &mut [u8],
) -> Result<usize, Error> {
    blocked(isa.check()?, input, width, block_size, out, encode_block)
}

/// Undoes [`encode`]: bit-unshuffles `input` into values of `width` bytes
/// at the start of `out`; returns the bytes written (`input.len()`).
///
/// ```
/// let mut out = [0u8; 8];
/// assert_eq!(vecpress::bit_split::decode(&[0b1000_0001, 0b1000_0000, 0, 0, 0, 0, 0, 0], 1, &mut out), Ok(8));
/// assert_eq!(out, [1, 0, 0, 0, 0, 0, 0, 3]);
/// ```
pub fn decode(input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    decode_blocked_with(
        crate::tune::isa(crate::tune::Op::BitSplit),
        input,
        width,
        0,
        out,
    )
}

/// [`decode`] with the kernels of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{bit_split, Isa};
/// for &isa in Isa::available() {
///     let mut out = [0u8; 8];
///     assert_eq!(bit_split::decode_with(isa, &[1; 8], 1, &mut out), Ok(8));
///     assert_eq!(out, [255, 0, 0, 0, 0, 0, 0, 0]);
/// }
/// ```
pub fn decode_with(isa: Isa, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
    decode_blocked_with(isa, input, width, 0, out)
}

/// [`decode_with`] in blocks of `block_size` values (a multiple of
/// [`BLOCKED_MULT`]; 0 for [`default_block_size`]).
///
/// ```
/// use vecpress::{bit_split, Isa};
/// let input: Vec<u8> = (0..40).collect();
/// let mut shuffled = vec![0u8; 40];
/// bit_split::encode_blocked_with(Isa::best(), &input, 2, 8, &mut shuffled)?;
/// let mut out = vec![0u8; 40];
/// bit_split::decode_blocked_with(Isa::best(), &shuffled, 2, 8, &mut out)?;
/// assert_eq!(out, input);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decode_blocked_with(
    isa: Isa,
    input: &[u8],
    width: usize,
    block_size: usize,
    out: &mut [u8],
) -> Result<usize, Error> {
    blocked(isa.check()?, input, width, block_size, out, decode_block)
}

/// [`encode`] into a new vector.
///
/// ```
/// assert_eq!(vecpress::bit_split::encode_to_vec(&[3, 0, 0, 0, 0, 0, 0, 0], 1)?, [1, 1, 0, 0, 0, 0, 0, 0]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn encode_to_vec(input: &[u8], width: usize) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; input.len()];
    encode(input, width, &mut out)?;
    Ok(out)
}

/// [`decode`] into a new vector.
///
/// ```
/// assert_eq!(vecpress::bit_split::decode_to_vec(&[1, 1, 0, 0, 0, 0, 0, 0], 1)?, [3, 0, 0, 0, 0, 0, 0, 0]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decode_to_vec(input: &[u8], width: usize) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; input.len()];
    decode(input, width, &mut out)?;
    Ok(out)
}

/// The levels that have a kernel of their own, among those available.
///
/// ```
/// assert_eq!(vecpress::bit_split::kernels()[0], vecpress::Isa::Scalar);
/// ```
pub fn kernels() -> Vec<Isa> {
    byte_split::kernels()
}

/// A transposition of one block: `(isa, input, width, out, scratch)`.
type BlockFn = fn(Isa, &[u8], usize, &mut [u8], &mut [u8]);

/// The block size in values: `block_size`, or the default for 0.
pub(crate) fn block_values(width: usize, block_size: usize) -> Result<usize, Error> {
    if block_size == 0 {
        return Ok(default_block_size(width));
    }
    if !block_size.is_multiple_of(BLOCKED_MULT) {
        return Err(Error::InvalidArgument {
            what: "block size not a multiple of 8 values",
            value: block_size,
        });
    }
    Ok(block_size)
}

/// The bitshuffle library's blocking (`bshuf_blocked_wrap_fun`): whole
/// blocks, then the largest multiple of 8 values left, then the last
/// values copied.
fn blocked(
    isa: Isa,
    input: &[u8],
    width: usize,
    block_size: usize,
    out: &mut [u8],
    f: BlockFn,
) -> Result<usize, Error> {
    let n = count(input.len(), width)?;
    let bs = block_values(width, block_size)?;
    if out.len() < input.len() {
        return Err(Error::OutputTooSmall {
            needed: input.len(),
            actual: out.len(),
        });
    }
    // The block functions write their scratch before they read it.
    let i = scratch::with(bs.min(n) * width, |scratch| {
        let mut i = 0;
        while i < n {
            let m = if n - i >= bs { bs } else { (n - i) / 8 * 8 };
            if m == 0 {
                break;
            }
            let bytes = i * width..(i + m) * width;
            f(
                isa,
                &input[bytes.clone()],
                width,
                &mut out[bytes],
                &mut scratch[..m * width],
            );
            i += m;
        }
        i
    });
    out[i * width..input.len()].copy_from_slice(&input[i * width..]);
    Ok(input.len())
}

/// The SIMD kernels of one ISA level (`generic::kernels!` makes them):
/// each turns a prefix of its input, whole registers from the start, and
/// returns the columns done; the scalar code does the rest.
pub(crate) struct Kernels {
    /// The columns of each row a step takes: the kernels do whole steps.
    step: usize,
    /// 8 bit rows (`rows.len() / 8` bytes each) into their byte stream.
    rows_to_stream: unsafe fn(rows: &[u8], out: &mut [u8]) -> usize,
    /// The inverse of `rows_to_stream`.
    stream_to_rows: unsafe fn(stream: &[u8], rows: &mut [u8]) -> usize,
    /// `8 width` bit rows into values of `width` = 2, 4 or 8 bytes, in one
    /// pass (other widths do nothing).
    rows_to_values: unsafe fn(rows: &[u8], width: usize, out: &mut [u8]) -> usize,
    /// The inverse of `rows_to_values`.
    values_to_rows: unsafe fn(values: &[u8], width: usize, rows: &mut [u8]) -> usize,
}

impl Kernels {
    /// The one map from ISA level to its kernels; `None` at the scalar
    /// level. Calling them is sound when `isa` came from `Isa::best()`,
    /// `Isa::check()` or `tune::isa()` (the CPU has its features; Avx512
    /// implies Avx2's) and the output is as long as the input.
    fn of(isa: Isa) -> Option<&'static Kernels> {
        match isa {
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 | Isa::Avx512 => Some(&avx2::level::KERNELS),
            #[cfg(target_arch = "x86_64")]
            Isa::Sse41 => Some(&sse41::level::KERNELS),
            #[cfg(target_arch = "aarch64")]
            Isa::Neon => Some(&neon::neon::KERNELS),
            _ => None,
        }
    }

    fn rows_to_stream(&self, rows: &[u8], out: &mut [u8]) {
        // SAFETY: `Kernels::of` gave `self` for a checked level; the
        // output is as long as the input (the callers' chunks, whole
        // multiples of 8 values, or `in_steps`' copies).
        let f = |i: &[u8], o: &mut [u8]| unsafe { (self.rows_to_stream)(i, o) };
        let done = in_steps(false, 1, self.step, rows, out, f);
        scalar::rows_to_stream(rows, out, done);
    }

    fn stream_to_rows(&self, stream: &[u8], rows: &mut [u8]) {
        // SAFETY: as in `rows_to_stream`.
        let f = |i: &[u8], o: &mut [u8]| unsafe { (self.stream_to_rows)(i, o) };
        let done = in_steps(true, 1, self.step, stream, rows, f);
        scalar::stream_to_rows(stream, rows, done);
    }

    fn rows_to_values(&self, rows: &[u8], width: usize, out: &mut [u8]) {
        // SAFETY: as in `rows_to_stream`.
        let f = |i: &[u8], o: &mut [u8]| unsafe { (self.rows_to_values)(i, width, o) };
        let done = in_steps(false, width, self.step, rows, out, f);
        scalar::decode_columns(rows, width, out, done);
    }

    fn values_to_rows(&self, values: &[u8], width: usize, rows: &mut [u8]) {
        // SAFETY: as in `rows_to_stream`.
        let f = |i: &[u8], o: &mut [u8]| unsafe { (self.values_to_rows)(i, width, o) };
        let done = in_steps(true, width, self.step, values, rows, f);
        scalar::encode_columns(values, width, rows, done);
    }
}

#[cfg(test)]
mod tests {
    use super::block::{decode_block_in, encode_block_in};
    use super::scalar;
    use crate::Isa;

    /// Both GFNI forms (one pass, three passes) at every level this CPU
    /// has, for the widths the one pass takes and one it does not, on
    /// blocks whose rows are a whole number of the kernels' 16- or
    /// 32-column steps and blocks with columns left over (the padded last
    /// step, `in_steps`), against the scalar code.
    /// The form a CPU's profile does not choose runs nowhere else here.
    #[test]
    fn both_gfni_forms_match_the_scalar_code() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        };
        for width in [1usize, 2, 3, 4, 8] {
            for n in [8usize, 120, 128, 136, 256, 1024, 1032] {
                let values: Vec<u8> = (0..n * width).map(|_| next()).collect();
                let mut want = vec![0u8; values.len()];
                scalar::encode_block(&values, width, &mut want);
                for &isa in Isa::available() {
                    for one_pass in [false, true] {
                        let ctx = format!("{isa} one pass {one_pass} width {width} n {n}");
                        let mut scratch = vec![0u8; values.len()];
                        let mut rows = vec![0u8; values.len()];
                        encode_block_in(isa, one_pass, &values, width, &mut rows, &mut scratch);
                        assert!(rows == want, "encode, {ctx}");
                        let mut back = vec![0u8; values.len()];
                        decode_block_in(isa, one_pass, &rows, width, &mut back, &mut scratch);
                        assert!(back == values, "decode, {ctx}");
                    }
                }
            }
        }
    }
}
