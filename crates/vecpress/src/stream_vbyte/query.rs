//! Queries on delta-coded lists stored in one buffer, answered by one call:
//! the intersection ([`and_delta_lists`]) and union ([`or_delta_lists`]) of
//! the posting lists of a query's terms, each given by where its stream
//! starts and how many values it holds, as an index's dictionary gives them.
//!
//! Most lists of an index are short, and a query on short lists spends its
//! time on what it costs to start: a cursor per list, a skip per candidate.
//! Lists of like lengths are decoded whole instead, by one call (with the
//! kernel for short lists, see [`decode_delta_lists`](super::decode_delta_lists)),
//! and intersected by SIMD merges, with no cursor at all. A list far longer
//! than the candidates left (the values the shorter lists share) is read by
//! a [`DeltaCursor`], which skips the groups that cannot hold one of them.
#![forbid(unsafe_code)]

use core::ops::ControlFlow;

use super::DeltaCursor;
use super::chunked::scan;
use super::decode::scalar::{control_len, control_truncated};
use super::lists::lists_impl;
use crate::postings;
use crate::{Error, Isa};

/// A list of at most this many values, or of [`WHOLE_RATIO`] times the
/// candidates left (the shortest list's, then those the lists before kept),
/// is decoded whole for an intersection: decoding a value costs a small part
/// of what skipping to a candidate does. A list of more than [`WHOLE_MAX`]
/// is read by cursor: between candidates as dense as its values, a
/// cursor's blocks cost no more than a whole list, and it skips the runs
/// that hold none.
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
    query(Kernels::chosen(), bytes, lists, out, and_sorted)
}

/// [`and_delta_lists`] with the kernels (decoding and merging) of `isa`;
/// `Err(Unsupported)` if the CPU lacks it.
pub fn and_delta_lists_with(
    isa: Isa,
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    query(Kernels::at(isa.check()?), bytes, lists, out, and_sorted)
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
    query(Kernels::chosen(), bytes, lists, out, or_sorted)
}

/// [`or_delta_lists`] with the kernels of `isa`; `Err(Unsupported)` if the
/// CPU lacks it.
pub fn or_delta_lists_with(
    isa: Isa,
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    query(Kernels::at(isa.check()?), bytes, lists, out, or_sorted)
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

/// An intersection or union of spans sorted by count, into `out`.
type Answer = fn(Kernels, &[u8], &[(usize, usize)], &mut Vec<u32>) -> Result<(), Error>;

/// A query's spans sorted by count, given to `answer` with `out` cleared.
fn query(
    k: Kernels,
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut Vec<u32>,
    answer: Answer,
) -> Result<(), Error> {
    out.clear();
    sorted(lists, |spans| answer(k, bytes, spans, out))
}

/// The values of every list, summed, once each list's bytes are known to
/// be enough for them (a control byte per four values and a data byte per
/// value at least), so that room for them is bounded by the input as the
/// format bounds it; else the error decoding that list gives, found a
/// chunk at a time without room for its values.
fn claimed(bytes: &[u8], spans: &[(usize, usize)]) -> Result<usize, Error> {
    spans.iter().try_fold(0usize, |sum, &(start, n)| {
        let have = bytes.len().checked_sub(start).ok_or(Error::OutOfRange {
            index: start,
            len: bytes.len(),
        })?;
        let clen = control_len(n);
        if have < clen {
            return Err(control_truncated(have, n).shifted(start));
        }
        if have - clen < n {
            // Cut short: every value takes a data byte at least.
            scan::<(), true>(&bytes[start..], n, 0, |_, _| ControlFlow::Continue(()))
                .map_err(|e| e.shifted(start))?;
        }
        sum.checked_add(n).ok_or(Error::LimitExceeded {
            what: "values in all lists",
            requested: n,
            limit: usize::MAX - sum,
        })
    })
}

fn and_sorted(
    k: Kernels,
    bytes: &[u8],
    spans: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    let answer = match spans {
        [] => Ok(()),
        [(_, n0), (_, n1), ..] if *n1 <= within(*n0) => and_whole(k, bytes, spans, out),
        _ => and_cursors(k, bytes, spans, out),
    };
    if answer.is_err() {
        out.clear();
    }
    answer
}

/// The longest list decoded whole against `c` candidates.
fn within(c: usize) -> usize {
    c.saturating_mul(WHOLE_RATIO).clamp(WHOLE_MIN, WHOLE_MAX)
}

/// The intersection of the two shortest lists decoded whole by one call,
/// then of each longer one in turn: decoded whole while it is within the
/// ratio of the candidates left, else read by cursor, which skips what
/// holds none of them. Leaves the answer in `out`.
fn and_whole(
    k: Kernels,
    bytes: &[u8],
    spans: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    let (two, rest) = spans.split_at(2);
    let n0 = two[0].1;
    let total = claimed(bytes, two)?;
    // Room for the shortest list's candidates, then the two lists.
    out.resize(n0 + total, 0);
    lists_impl(k.short, k.long, bytes, two, &mut out[n0..])?;
    let mut c = postings::and_decoded(k.merge, out, &[two[0].1, two[1].1]);
    for &(start, n) in rest {
        if c == 0 {
            break;
        }
        // The candidates, room for those kept (there are as many values
        // after them: the room and the lists above hold twice the
        // shortest's), then a list decoded whole.
        let m = if n <= within(c) {
            claimed(bytes, &[(start, n)])?;
            out.resize(2 * c + n, 0);
            let (candidates, after) = out.split_at_mut(c);
            let (kept, list) = after.split_at_mut(c);
            lists_impl(k.short, k.long, bytes, &[(start, n)], list)?;
            postings::keep_decoded(k.merge, candidates, kept, list)
        } else {
            let mut cursor = DeltaCursor::at(k.long, k.short, bytes, start, n)?;
            let (candidates, kept) = out.split_at_mut(c);
            postings::keep_held(k.merge, candidates, kept, &mut cursor)?.0
        };
        out.copy_within(c..c + m, 0);
        c = m;
    }
    out.truncate(c);
    Ok(())
}

/// The intersection by cursors ([`postings::and`]).
fn and_cursors(
    k: Kernels,
    bytes: &[u8],
    spans: &[(usize, usize)],
    out: &mut Vec<u32>,
) -> Result<(), Error> {
    let mut cursors = spans
        .iter()
        .map(|&(start, n)| DeltaCursor::at(k.long, k.short, bytes, start, n))
        .collect::<Result<Vec<_>, Error>>()?;
    postings::and(&mut cursors, out)
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
