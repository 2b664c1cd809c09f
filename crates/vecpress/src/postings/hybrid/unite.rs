//! The union: short lists merged whole, longer ones a span of windows at a
//! time, drawn into a bitmap where dense.

use super::hits::Hits;
use super::pool::{Scratch, VIEWS, pooled, with_lists};
use super::read::{Filters, List, Single, View, singles};
use super::scalar::or_runs;
use super::span::{CHUNK, clip_in_place, draw_runs, expand, extract, or_words, span_end};
use super::{Levels, SHIFT, WINDOWS, WORDS};
use crate::{Error, Isa};

/// Ids a span's lists hold, per word of its bitmap, at least, for a union
/// to draw them into the bitmap rather than merge them: a word drawn and
/// read back costs a union about what this many ids merged do (sorted
/// census lists, whose runs hold thousands of ids, unite four times as
/// fast drawn; lists of short runs lose a few percent drawn at half this).
const DRAWN: usize = 8;

/// Where a union's ids go: a vector, or [`Hits`] (its bitmaps kept as
/// words, its ids in the hits' own vector).
pub(super) enum United<'o> {
    Ids(&'o mut Vec<u32>),
    Hits(&'o mut Hits),
}

impl United<'_> {
    /// The vector ids are appended to, and where they start.
    fn ids(&mut self) -> (&mut Vec<u32>, usize) {
        match self {
            United::Ids(out) => {
                let from = out.len();
                (out, from)
            }
            United::Hits(hits) => hits.open_ids(),
        }
    }

    /// Keeps the ids appended since `from` (in the hits, a part of them).
    fn close(&mut self, from: usize) {
        if let United::Hits(hits) = self {
            hits.close_ids(from);
        }
    }
}

/// The union, a span of windows at a time: from the first window any list
/// holds ids in to the first end of those lists' blocks or start of
/// another's, so that in the span each list there is in one block.
pub(super) fn unite(levels: Levels, lists: &[&[u8]], out: &mut United) -> Result<(), Error> {
    let mut one = [Single::EMPTY; VIEWS];
    if let Some(singles) = singles(lists, &mut one, Filters::Refused) {
        return pooled(|pool| {
            let got = or_singles(levels, singles, &mut pool.scratch, out);
            pool.scratch.trim();
            got
        });
    }
    let isa = levels.kernels;
    with_lists(levels, lists, |lists, s| unite_lists(isa, lists, s, out))
}

/// The union of lists of a single block each: each decoded whole, and
/// merged into the union of those before.
fn or_singles(
    levels: Levels,
    lists: &[Single],
    s: &mut Scratch,
    united: &mut United,
) -> Result<(), Error> {
    let Some((first, rest)) = lists.split_first() else {
        return Ok(());
    };
    first.decode(levels, &mut s.a)?;
    let (out, from) = united.ids();
    if rest.is_empty() {
        out.extend_from_slice(&s.a[..first.n]);
        crate::postings::dedup(out, from);
        united.close(from);
        return Ok(());
    }
    s.a.truncate(first.n);
    for (i, l) in rest.iter().enumerate() {
        l.decode(levels, &mut s.d)?;
        // The last union is the answer.
        if i + 1 == rest.len() {
            crate::postings::merge::union_after(levels.kernels, &s.a, &s.d[..l.n], out);
            break;
        }
        crate::postings::merge::union(levels.kernels, &s.a, &s.d[..l.n], &mut s.b);
        core::mem::swap(&mut s.a, &mut s.b);
    }
    united.close(from);
    Ok(())
}

fn unite_lists(
    isa: Isa,
    lists: &mut [List],
    s: &mut Scratch,
    out: &mut United,
) -> Result<(), Error> {
    // Kept in the scratch, for the next query.
    let mut at = core::mem::take(&mut s.at);
    let mut expanded = core::mem::take(&mut s.expanded);
    at.clear();
    at.resize(lists.len(), None);
    if expanded.len() < lists.len() {
        expanded.resize_with(lists.len(), Vec::new);
    }
    let got = unite_spans(isa, lists, s, &mut at, &mut expanded, out);
    s.at = at;
    s.expanded = expanded;
    got
}

/// [`unite_lists`] with where each list stands (`at`) and its runs' ids
/// listed (`expanded`).
fn unite_spans(
    isa: Isa,
    lists: &mut [List],
    s: &mut Scratch,
    at: &mut [Option<u32>],
    expanded: &mut [Vec<u32>],
    united: &mut United,
) -> Result<(), Error> {
    let mut w = 0u32;
    while w < WINDOWS {
        for (l, a) in lists.iter_mut().zip(at.iter_mut()) {
            *a = l.seek(w)?;
        }
        let Some(start) = at.iter().flatten().copied().min() else {
            break;
        };
        // The span ends where a list here ends its block, or where another
        // starts.
        let ends = lists.iter().zip(at.iter()).filter_map(|(l, a)| match a {
            Some(a) if *a == start => Some(l.end()),
            Some(a) => Some(*a),
            None => None,
        });
        let mut e = span_end(lists, start, ends);
        let span = |e: u32| -> Vec<View> {
            lists
                .iter()
                .zip(at.iter())
                .filter(|(_, a)| **a == Some(start))
                .map(|(l, _)| l.span(start, e))
                .collect()
        };
        let mut views = span(e);
        // A bitmap is read in place; runs and ids, where they hold
        // [`DRAWN`] ids a word or more, are drawn and set in a bitmap (a
        // run of many ids costs its words), not listed and merged. Runs
        // count whole, a little more than the span may hold of them.
        let words = |e: u32| (e - start) as usize * WORDS;
        let held: usize = views
            .iter()
            .map(|v| match *v {
                View::Bits(_) => 0,
                View::Ids(ids) => ids.len(),
                View::Runs(runs) => runs
                    .iter()
                    .map(|&[a, b]| b.wrapping_sub(a) as usize + 1)
                    .sum(),
            })
            .sum();
        let drawn = views.iter().any(|v| matches!(v, View::Bits(_))) || held >= words(e) * DRAWN;
        // Over as many windows as a bitmap block's span.
        if drawn && e - start > CHUNK {
            e = start + CHUNK;
            views = span(e);
        }
        let (lo, hi) = (u64::from(start) << SHIFT, u64::from(e) << SHIFT);
        let words = words(e);
        if drawn {
            // Drawn where the answer keeps it, if it keeps bitmaps.
            let acc = match united {
                United::Hits(hits) => hits.open_words(words, 0),
                United::Ids(_) => {
                    s.words.clear();
                    s.words.resize(words, 0);
                    &mut s.words[..]
                }
            };
            for v in &views {
                match *v {
                    View::Bits(bits) => or_words(acc, bits),
                    View::Runs(runs) => draw_runs(acc, runs, lo, hi),
                    View::Ids(ids) => {
                        let span = acc.len() * 64;
                        for &v in ids {
                            let bit = u64::from(v).wrapping_sub(lo) as usize;
                            if bit < span {
                                acc[bit / 64] |= 1 << (bit % 64);
                            }
                        }
                    }
                }
            }
            match united {
                United::Hits(hits) => {
                    let n = hits.count_open(isa, words);
                    hits.close_words(lo as u32, words, n);
                }
                United::Ids(out) => extract(isa, &s.words, lo as u32, out),
            }
        } else if views.iter().all(|v| matches!(v, View::Runs(_))) {
            // Lists that all hold runs here unite as runs: kept so in the
            // hits, their ids written once.
            or_runs_of(&views, lo, hi, s);
            match united {
                United::Hits(hits) => hits.push_runs(&s.runs),
                United::Ids(out) => expand(isa, &s.runs, lo, hi, out),
            }
        } else {
            // Arrays of ids and runs: the runs' ids are the output's, so
            // listing them costs what writing them does.
            for (v, x) in views.iter().zip(expanded.iter_mut()) {
                if let View::Runs(runs) = *v {
                    x.clear();
                    expand(isa, runs, lo, hi, x);
                }
            }
            let ids = || {
                views.iter().zip(expanded.iter()).map(|(v, x)| match *v {
                    View::Ids(ids) => ids,
                    _ => &x[..],
                })
            };
            // One or two lists (most spans) merged straight into the
            // answer, after the spans before (all below this one's ids).
            let mut first_two = ids();
            let (out, from) = united.ids();
            match (views.len(), first_two.next(), first_two.next()) {
                (1, Some(a), _) => {
                    out.extend_from_slice(a);
                    crate::postings::dedup(out, from);
                }
                (2, Some(a), Some(b)) => crate::postings::merge::union_after(isa, a, b, out),
                _ => {
                    crate::postings::or_decoded(isa, ids(), &mut s.a);
                    out.extend_from_slice(&s.a);
                }
            }
            united.close(from);
        }
        w = e;
    }
    Ok(())
}

/// The union of the runs of `views` (each [`View::Runs`]) in `s.runs`, cut
/// to ids `lo..hi`.
fn or_runs_of(views: &[View], lo: u64, hi: u64, s: &mut Scratch) {
    s.runs.clear();
    s.runs
        .extend_from_slice(views.first().map_or(&[], View::runs));
    for v in views.iter().skip(1) {
        s.other.clear();
        or_runs(&s.runs, v.runs(), &mut s.other);
        core::mem::swap(&mut s.runs, &mut s.other);
    }
    // Cut as `expand` cuts a span's runs.
    clip_in_place(&mut s.runs, lo, hi);
}
