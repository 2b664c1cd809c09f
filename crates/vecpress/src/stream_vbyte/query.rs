//! Queries on delta-coded lists stored in one buffer, answered by one call:
//! the intersection ([`and_delta_lists`]) and union ([`or_delta_lists`]) of
//! the posting lists of a query's terms, each given by where its stream
//! starts and how many values it holds, as an index's dictionary gives them.
//!
//! Most lists of an index are short, and a query on short lists spends its
//! time on what it costs to start: a cursor per list, a skip per candidate.
//! Lists of like lengths are decoded whole instead, by one call (with the
//! kernel for short lists, see [`decode_delta_lists`](super::decode_delta_lists)),
//! and intersected by SIMD merges, with no cursor at all; a list far longer
//! than the shortest is read by a [`DeltaCursor`], which skips the groups
//! that cannot hold a candidate ([`postings::and`]).
#![forbid(unsafe_code)]

use super::DeltaCursor;
use super::decode::scalar::{control_len, control_truncated};
use super::lists::lists_impl;
use crate::postings;
use crate::{Error, Isa};

/// Lists of at most this many values, or of [`WHOLE_RATIO`] times the
/// shortest, are decoded whole for an intersection: decoding a value costs
/// a small part of what skipping to a candidate does. Lists of more than
/// [`WHOLE_MAX`] are read by cursors: between candidates as dense as their
/// values, a cursor's blocks cost no more than whole lists, and it skips
/// the runs that hold none.
const WHOLE_MIN: usize = 256;
/// See [`WHOLE_MIN`].
const WHOLE_RATIO: usize = 64;
/// See [`WHOLE_MIN`].
const WHOLE_MAX: usize = 4096;

/// Spans a query holds without allocating.
const INLINE: usize = 8;

/// The values in every list (their intersection), in order, into `out`
/// (cleared first), with the best kernels this process may use. Each list
/// is `(start, count)`: `count` values delta-coded from 0 at
/// `bytes[start..]` (as [`encode_delta`](super::encode_delta) writes them),
/// sorted. No list: nothing.
///
/// Errors are those of [`decode_delta_lists`](super::decode_delta_lists),
/// their offsets counted from the start of `bytes`: a list whose control
/// bytes are cut short fails before anything is decoded, and, as with
/// [`postings::and`], a long list may answer without reading a damaged
/// block that holds no candidate. On an error, `out` is empty.
///
/// ```
/// use vecpress::stream_vbyte;
///
/// let (a, b) = ([3u32, 7, 300, 4000], [1u32, 3, 300, 301]);
/// let mut bytes = stream_vbyte::encode_delta_to_vec(&a, 0);
/// let start_b = bytes.len();
/// bytes.extend(stream_vbyte::encode_delta_to_vec(&b, 0));
///
/// let mut hits = Vec::new();
/// stream_vbyte::and_delta_lists(&bytes, &[(0, a.len()), (start_b, b.len())], &mut hits)?;
/// assert_eq!(hits, [3, 300]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn and_delta_lists(
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    and_impl(Kernels::chosen(), bytes, lists, out)
}

/// [`and_delta_lists`] with the kernels (decoding and merging) of `isa`;
/// `Err(Unsupported)` if the CPU lacks it.
pub fn and_delta_lists_with(
    isa: Isa,
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    and_impl(Kernels::at(isa.check()?), bytes, lists, out)
}

/// The values in any list (their union), in order and each once, into
/// `out` (cleared first). The lists are as for [`and_delta_lists`]; each is
/// decoded whole (a union reads every value), into room taken once its
/// control bytes are known to be there, then merged, the shortest first.
///
/// ```
/// use vecpress::stream_vbyte;
///
/// let (a, b) = ([1u32, 4, 9], [2u32, 4, 10]);
/// let mut bytes = stream_vbyte::encode_delta_to_vec(&a, 0);
/// let start_b = bytes.len();
/// bytes.extend(stream_vbyte::encode_delta_to_vec(&b, 0));
///
/// let mut all = Vec::new();
/// stream_vbyte::or_delta_lists(&bytes, &[(0, 3), (start_b, 3)], &mut all)?;
/// assert_eq!(all, [1, 2, 4, 9, 10]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn or_delta_lists(
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    or_impl(Kernels::chosen(), bytes, lists, out)
}

/// [`or_delta_lists`] with the kernels of `isa`; `Err(Unsupported)` if the
/// CPU lacks it.
pub fn or_delta_lists_with(
    isa: Isa,
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    or_impl(Kernels::at(isa.check()?), bytes, lists, out)
}

/// The levels a query runs at: the kernel for short lists, the others'
/// decoder, and the merges.
#[derive(Clone, Copy)]
struct Kernels {
    short: Isa,
    long: Isa,
    merge: Isa,
}

impl Kernels {
    /// The levels this CPU's profile chooses.
    fn chosen() -> Kernels {
        use crate::tune::{Op, isa};
        Kernels {
            short: isa(Op::StreamVByteShortLists),
            long: isa(Op::StreamVByteDelta),
            merge: isa(Op::Intersect),
        }
    }

    /// Every kernel at one level.
    fn at(isa: Isa) -> Kernels {
        Kernels {
            short: isa,
            long: isa,
            merge: isa,
        }
    }
}

/// Calls `f` with the spans sorted by count, held in an array when there
/// are few.
fn sorted<R>(lists: &[(usize, usize)], f: impl FnOnce(&[(usize, usize)]) -> R) -> R {
    let mut inline = [(0, 0); INLINE];
    let mut heap = Vec::new();
    let spans = if lists.len() <= INLINE {
        inline[..lists.len()].copy_from_slice(lists);
        &mut inline[..lists.len()]
    } else {
        heap.extend_from_slice(lists);
        &mut heap[..]
    };
    spans.sort_unstable_by_key(|&(_, n)| n);
    f(spans)
}

/// The values of every list, summed, once each list's control bytes are
/// known to be in `bytes` (so that room for them is bounded by the
/// input); else the error decoding that list gives.
fn claimed(bytes: &[u8], spans: &[(usize, usize)]) -> Result<usize, Error> {
    spans.iter().try_fold(0usize, |sum, &(start, n)| {
        let have = bytes.len().checked_sub(start).ok_or(Error::OutOfRange {
            index: start,
            len: bytes.len(),
        })?;
        if have < control_len(n) {
            return Err(control_truncated(have, n).shifted(start));
        }
        sum.checked_add(n).ok_or(Error::LimitExceeded {
            what: "values in all lists",
            requested: n,
            limit: usize::MAX - sum,
        })
    })
}

fn and_impl(
    k: Kernels,
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    out.clear();
    sorted(lists, |spans| and_sorted(k, bytes, spans, out))
}

fn and_sorted(
    k: Kernels,
    bytes: &[u8],
    spans: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    let Some(&(_, n0)) = spans.first() else {
        return Ok(());
    };
    let whole = n0.saturating_mul(WHOLE_RATIO).clamp(WHOLE_MIN, WHOLE_MAX);
    if spans.iter().all(|&(_, n)| n <= whole) {
        let total = claimed(bytes, spans)?;
        // Room for the shortest list's candidates, then the lists.
        out.resize(n0 + total, 0);
        if let Err(e) = lists_impl(k.short, k.long, bytes, spans, &mut out[n0..]) {
            out.clear();
            return Err(e);
        }
        let mut counts = [0; INLINE];
        let kept = if spans.len() <= INLINE {
            for (c, &(_, n)) in counts.iter_mut().zip(spans) {
                *c = n;
            }
            postings::and_decoded(k.merge, out, &counts[..spans.len()])
        } else {
            let counts: Vec<usize> = spans.iter().map(|&(_, n)| n).collect();
            postings::and_decoded(k.merge, out, &counts)
        };
        out.truncate(kept);
        return Ok(());
    }
    let mut cursors = spans
        .iter()
        .map(|&(start, n)| DeltaCursor::at(k.long, k.short, bytes, start, n))
        .collect::<Result<Vec<_>, Error>>()?;
    let answer = postings::and(&mut cursors, out);
    if answer.is_err() {
        out.clear();
    }
    answer
}

fn or_impl(
    k: Kernels,
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    out.clear();
    sorted(lists, |spans| or_sorted(k, bytes, spans, out))
}

fn or_sorted(
    k: Kernels,
    bytes: &[u8],
    spans: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    let total = claimed(bytes, spans)?;
    let mut all = vec![0; total];
    lists_impl(k.short, k.long, bytes, spans, &mut all)?;
    let mut rest = &all[..];
    let lists = spans.iter().map(|&(_, n)| {
        let (list, after) = rest.split_at(n);
        rest = after;
        list
    });
    postings::or_decoded(k.merge, lists, out);
    Ok(())
}

#[cfg(test)]
mod tests;
