//! Random access on delta-coded VByte streams, as lemire/MaskedVByte offers
//! (`masked_vbyte_select_delta`, `masked_vbyte_search_delta`): decode with the
//! fastest kernel into a small stack buffer, chunk by chunk, and stop as soon
//! as the answer is known.
#![forbid(unsafe_code)]

use super::zigzag::in_whole;
use crate::Error;

/// Values decoded per step: small enough for the stack, large enough that
/// the kernel runs at full speed.
const CHUNK: usize = 256;

/// Calls `visit(first_index, values)` on successive decoded chunks of the
/// first `n` values until it returns `Some`.
fn scan<T>(
    input: &[u8],
    n: usize,
    mut prev: u32,
    mut visit: impl FnMut(usize, &[u32]) -> Option<T>,
) -> Result<Option<T>, Error> {
    let mut buf = [0u32; CHUNK];
    let mut pos = 0;
    let mut done = 0;
    while done < n {
        let m = (n - done).min(CHUNK);
        let chunk = &mut buf[..m];
        pos += super::decode_delta(&input[pos..], chunk, prev)
            .map_err(|e| in_whole(e, pos, n - done - m))?;
        prev = chunk[m - 1];
        if let Some(found) = visit(done, chunk) {
            return Ok(Some(found));
        }
        done += m;
    }
    Ok(None)
}

/// The value at index `i` of a delta-coded stream of `n` values (encoded from
/// `prev`), without decoding past it.
///
/// ```
/// use vecpress::vbyte;
/// let bytes = vbyte::encode_delta_to_vec(&[2, 4, 8, 1000], 0);
/// assert_eq!(vbyte::select_delta(&bytes, 4, 3, 0), Ok(1000));
/// assert!(vbyte::select_delta(&bytes, 4, 4, 0).is_err());
/// ```
pub fn select_delta(input: &[u8], n: usize, i: usize, prev: u32) -> Result<u32, Error> {
    if i >= n {
        return Err(Error::OutOfRange { index: i, len: n });
    }
    let found = scan(input, i + 1, prev, |first, chunk| {
        (first + chunk.len() > i).then(|| chunk[i - first])
    })?;
    Ok(found.expect("scan covers index i"))
}

/// The index and value of the first value `>= key` in a delta-coded sorted
/// stream of `n` values (encoded from `prev`), or `None` if every value is
/// smaller. Decodes only as far as the answer.
///
/// ```
/// use vecpress::vbyte;
/// let bytes = vbyte::encode_delta_to_vec(&[2, 4, 8, 1000], 0);
/// assert_eq!(vbyte::search_delta(&bytes, 4, 5, 0), Ok(Some((2, 8))));
/// assert_eq!(vbyte::search_delta(&bytes, 4, 8, 0), Ok(Some((2, 8))));
/// assert_eq!(vbyte::search_delta(&bytes, 4, 1001, 0), Ok(None));
/// ```
pub fn search_delta(
    input: &[u8],
    n: usize,
    key: u32,
    prev: u32,
) -> Result<Option<(usize, u32)>, Error> {
    scan(input, n, prev, |first, chunk| {
        if chunk[chunk.len() - 1] < key {
            return None;
        }
        chunk
            .iter()
            .position(|&v| v >= key)
            .map(|j| (first + j, chunk[j]))
    })
}
