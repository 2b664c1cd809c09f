//! Streams of PFOR blocks: any number of u32, the form the registry's
//! `pfor` and `pfor-delta` codecs store.
//!
//! ```text
//! n values: n / 128 whole blocks (see the module's format), then the last
//!           n % 128 values as VByte (LEB128), as bp128's streams end
//! delta:    every block codes its gaps, the first one's to the value before
//!           it (`prev` for the first block); the VByte tail codes gaps too
//! ```
//!
//! The count is not stored: the caller knows it.
#![forbid(unsafe_code)]

use super::{BLOCK_LEN, block};
use crate::bitpack::stream::{self, BLOCK, BlockFormat, short};
use crate::{Error, Isa};

/// A whole PFOR block (the module's format).
struct Pfor;

impl BlockFormat for Pfor {
    const MAX_BLOCK_BYTES: usize = super::MAX_BLOCK_BYTES;

    /// As bp128's: the SSE4.1 and AVX-512 kernels sum a block of gaps
    /// with no exceptions in the registers they unpack it in (a block with
    /// exceptions is summed after its patch); the others sum every block
    /// in one pass after them all.
    fn sum_after(isa: Isa) -> bool {
        !matches!(isa, Isa::Sse41 | Isa::Avx512)
    }

    fn write<const DELTA: bool>(values: &[u32; BLOCK], mut prev: u32, out: &mut [u8]) -> usize {
        let mut gaps = *values;
        if DELTA {
            for g in gaps.iter_mut() {
                let v = *g;
                *g = v.wrapping_sub(prev);
                prev = v;
            }
        }
        block::write(&gaps, out)
    }

    fn read<const DELTA: bool>(
        isa: Isa,
        input: &[u8],
        prev: u32,
        out: &mut [u32; BLOCK],
    ) -> Result<usize, Error> {
        block::read::<DELTA>(isa, input, prev, out)
    }
}

/// Worst-case encoded size of `n` values: 513 bytes a whole block (the
/// size of the block with no exceptions, which the encoder never exceeds),
/// and the tail's VByte worst case.
///
/// ```
/// assert_eq!(vecpress::bitpack::pfor::max_encoded_len(256), 2 * 513);
/// ```
pub fn max_encoded_len(n: usize) -> usize {
    stream::max_encoded_len::<Pfor>(n)
}

/// Encodes `values` into `out`; returns the bytes written. Panics if `out`
/// holds fewer than [`max_encoded_len`]`(values.len())` bytes.
///
/// ```
/// use vecpress::bitpack::pfor;
/// let values: Vec<u32> = (0..300).map(|i| if i % 50 == 0 { 1 << 20 } else { i % 8 }).collect();
/// let mut bytes = vec![0u8; pfor::max_encoded_len(values.len())];
/// let len = pfor::encode(&values, &mut bytes);
/// let mut out = vec![0u32; values.len()];
/// assert_eq!(pfor::decode(&bytes[..len], &mut out), Ok(len));
/// assert_eq!(out, values);
/// ```
pub fn encode(values: &[u32], out: &mut [u8]) -> usize {
    stream::encode::<Pfor, false>(values, 0, out)
}

/// [`encode`] into a new vector.
///
/// ```
/// let bytes = vecpress::bitpack::pfor::encode_to_vec(&[1, 2, 3]);
/// assert_eq!(bytes, [1, 2, 3]); // three values: the VByte tail alone
/// ```
pub fn encode_to_vec(values: &[u32]) -> Vec<u8> {
    stream::encode_to_vec::<Pfor, false>(values, 0)
}

/// Encodes the gaps of sorted `values`, the first one's to `prev`; returns
/// the bytes written. Panics if `out` is shorter than [`max_encoded_len`].
///
/// ```
/// use vecpress::bitpack::pfor;
/// let docs: Vec<u32> = (0..200).map(|i| 10 * i + i % 3).collect();
/// let mut bytes = vec![0u8; pfor::max_encoded_len(docs.len())];
/// let len = pfor::encode_delta(&docs, 0, &mut bytes);
/// assert_eq!(pfor::decode_delta_to_vec(&bytes[..len], docs.len(), 0)?, docs);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn encode_delta(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    stream::encode::<Pfor, true>(values, prev, out)
}

/// [`encode_delta`] into a new vector.
///
/// ```
/// let bytes = vecpress::bitpack::pfor::encode_delta_to_vec(&[5, 7], 1);
/// assert_eq!(bytes, [4, 2]);
/// ```
pub fn encode_delta_to_vec(values: &[u32], prev: u32) -> Vec<u8> {
    stream::encode_to_vec::<Pfor, true>(values, prev)
}

/// Decodes `out.len()` values from the start of `input`; returns the bytes
/// consumed.
///
/// ```
/// let mut out = [0u32; 2];
/// assert_eq!(vecpress::bitpack::pfor::decode(&[9, 1], &mut out), Ok(2));
/// assert_eq!(out, [9, 1]);
/// ```
pub fn decode(input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    let levels = stream::Levels::tuned(crate::tune::Op::Bp128, false);
    stream::decode::<Pfor, false>(levels, input, out, 0)
}

/// [`decode`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// let mut out = [0u32; 1];
/// for &isa in vecpress::Isa::available() {
///     assert_eq!(vecpress::bitpack::pfor::decode_with(isa, &[7], &mut out), Ok(1));
/// }
/// ```
pub fn decode_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
    stream::decode::<Pfor, false>(stream::Levels::one(isa.check()?), input, out, 0)
}

/// Decodes `n` values into a new vector.
///
/// ```
/// assert_eq!(vecpress::bitpack::pfor::decode_to_vec(&[3, 4], 2), Ok(vec![3, 4]));
/// ```
pub fn decode_to_vec(input: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    let mut out = alloc_out(input, n)?;
    decode(input, &mut out)?;
    Ok(out)
}

/// Decodes `out.len()` values of a delta stream, summing the gaps from
/// `prev`; returns the bytes consumed.
///
/// ```
/// let mut out = [0u32; 2];
/// assert_eq!(vecpress::bitpack::pfor::decode_delta(&[4, 2], &mut out, 1), Ok(2));
/// assert_eq!(out, [5, 7]);
/// ```
pub fn decode_delta(input: &[u8], out: &mut [u32], prev: u32) -> Result<usize, Error> {
    let levels = stream::Levels::tuned(crate::tune::Op::Bp128Delta, true);
    stream::decode::<Pfor, true>(levels, input, out, prev)
}

/// [`decode_delta`] with the kernel of `isa`; `Err(Unsupported)` if the
/// CPU lacks it.
///
/// ```
/// let mut out = [0u32; 1];
/// for &isa in vecpress::Isa::available() {
///     assert_eq!(vecpress::bitpack::pfor::decode_delta_with(isa, &[1], &mut out, 9), Ok(1));
///     assert_eq!(out, [10]);
/// }
/// ```
pub fn decode_delta_with(
    isa: Isa,
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, Error> {
    stream::decode::<Pfor, true>(stream::Levels::one(isa.check()?), input, out, prev)
}

/// Decodes `n` values of a delta stream into a new vector.
///
/// ```
/// assert_eq!(vecpress::bitpack::pfor::decode_delta_to_vec(&[4, 2], 2, 1), Ok(vec![5, 7]));
/// ```
pub fn decode_delta_to_vec(input: &[u8], n: usize, prev: u32) -> Result<Vec<u32>, Error> {
    let mut out = alloc_out(input, n)?;
    decode_delta(input, &mut out, prev)?;
    Ok(out)
}

/// The index and value of the first value `>= key` of a sorted delta
/// stream of `n` values (encoded from `prev`), or `None` if every value is
/// smaller.
///
/// The stream stores no skip list, so each block before the answer is
/// unpacked and patched, but not summed value by value: its last value is
/// the value before it plus the sum of its gaps (a vectorised reduction).
/// Only the block holding the answer gets its running sum and a binary
/// search; the VByte tail is decoded only when every block is below `key`.
/// Time O(n / 128) block unpacks before the answer, and O(log 128) in it.
/// On a stream that is not sorted the answer is some index, never a panic.
///
/// ```
/// use vecpress::bitpack::pfor;
/// let docs: Vec<u32> = (0..1000).map(|i| 3 * i).collect();
/// let bytes = pfor::encode_delta_to_vec(&docs, 0);
/// assert_eq!(pfor::search_delta(&bytes, 1000, 301, 0), Ok(Some((101, 303))));
/// assert_eq!(pfor::search_delta(&bytes, 1000, 3000, 0), Ok(None));
/// ```
pub fn search_delta(
    input: &[u8],
    n: usize,
    key: u32,
    prev: u32,
) -> Result<Option<(usize, u32)>, Error> {
    stream::search_delta::<Pfor>(input, n, key, prev)
}

/// An output of `n` values, refused before allocating when `input` could
/// not hold them (each block takes at least a byte, each VByte value one).
fn alloc_out(input: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    let room = input.len().saturating_mul(BLOCK_LEN);
    if room < n {
        return Err(short(input.len(), n - room));
    }
    Ok(vec![0u32; n])
}

stream::delta_cursor!(
    /// A forward cursor over a delta stream of `n` values (as [`encode_delta`]
    /// writes it), for queries on posting lists ([`crate::postings`]). The
    /// blocks keep no index of their values, so the cursor skips by decoding:
    /// four blocks (512 values) at a time while it reads on, one while it
    /// skips.
    ///
    /// ```
    /// use vecpress::bitpack::pfor;
    /// use vecpress::postings::Cursor;
    ///
    /// let docs: Vec<u32> = (0..1000).map(|i| i * 7 + (i % 100 == 0) as u32 * 3).collect();
    /// let bytes = pfor::encode_delta_to_vec(&docs, 0);
    /// let mut c = pfor::DeltaCursor::new(&bytes, docs.len(), 0);
    /// assert_eq!(c.advance_to(4999)?, Some(5005));
    /// assert_eq!(c.advance_to(7000)?, None);
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    Pfor,
    crate::tune::Op::Bp128Delta
);
