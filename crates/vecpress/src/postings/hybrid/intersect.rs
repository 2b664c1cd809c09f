//! The intersection: short lists merged whole (first, where longer lists
//! are among them), longer ones driven by the list of fewest ids, a block
//! at a time (its blocks of runs or a bitmap walked a span of windows at a
//! time).

use super::pool::{Found, Scratch, VIEWS, pooled, with_lists, with_views};
use super::read::{Filters, List, Single, View, singles, singles_among};
use super::span::{
    self, and_count2, and_words, count, draw_runs, extend_clipped, extract, span_end,
};
use super::{Levels, SHIFT, WORDS, scalar};
use crate::{Error, Isa};

/// The intersection: of lists of one block each by [`and_singles`], of
/// two or more such lists beside longer ones by [`singles_first`], of
/// others by [`intersect_lists`].
pub(super) fn intersect(levels: Levels, lists: &[&[u8]], found: &mut Found) -> Result<(), Error> {
    if lists.is_empty() {
        return Ok(());
    }
    let mut one = [Single::EMPTY; VIEWS];
    if let Some(singles) = singles(lists, &mut one, Filters::Kept) {
        return pooled(|pool| {
            let got = and_singles(levels, singles, &mut pool.scratch, found);
            pool.scratch.trim();
            got
        });
    }
    if let Some((some, taken)) = singles_among(lists, &mut one) {
        return singles_first(levels, lists, some, taken, found);
    }
    with_lists(levels, lists, |lists, s| {
        intersect_lists(levels, lists, s, found)
    })
}

/// The intersection of a query whose lists include two or more of a
/// single block (`some`, list `i` among them where bit `i` of `taken` is
/// set), those intersected first, decoded whole: where
/// they hold no id in common, the longer lists are not read; where they
/// give ids, those are the candidates each longer list keeps by the blocks
/// that may hold them. Queries that pair rare terms with a common one are
/// often so, and their short lists' intersection costs less than the
/// longer lists' first blocks read and passed. Where the short lists hold
/// runs alone, the ids of their runs in common are the candidates where
/// they are few; else the query is answered as the others are.
///
/// Kept out of [`intersect`], so that a query on short lists does not pay
/// for its frame.
#[inline(never)]
fn singles_first(
    levels: Levels,
    lists: &[&[u8]],
    some: &[Single],
    taken: u32,
    found: &mut Found,
) -> Result<(), Error> {
    if !ranges_meet(some) {
        return Ok(());
    }
    // Where the short lists hold runs alone, the ids of their runs in
    // common, where they are few.
    let mut few = [0; FEW_IDS];
    let mut held = None;
    if some[0].is_runs() {
        let n = pooled(|pool| {
            let s = &mut pool.scratch;
            let got = single_runs_kept(levels, some, s).map(|()| ids_of_few(&s.runs, &mut few));
            s.trim();
            got
        })?;
        match n {
            Some(0) => return Ok(()),
            Some(n) => held = Some(n),
            None => {
                return with_lists(levels, lists, |lists, s| {
                    intersect_lists(levels, lists, s, found)
                });
            }
        }
    }
    let mut longer = [&[][..]; VIEWS];
    let mut k = 0;
    for (i, bytes) in lists.iter().enumerate() {
        if taken >> i & 1 == 0 {
            longer[k] = bytes;
            k += 1;
        }
    }
    with_lists(levels, &longer[..k], |lists, s| {
        let mut c = match held {
            Some(n) => {
                s.a.clear();
                s.a.extend_from_slice(&few[..n]);
                n
            }
            None => singles_kept(levels, some, s)?,
        };
        for l in lists.iter_mut() {
            if c == 0 || !l.next_block()? {
                return Ok(());
            }
            c = l.keep(&s.a[..c], &mut s.b)?;
            core::mem::swap(&mut s.a, &mut s.b);
        }
        found.ids(&s.a[..c]);
        Ok(())
    })
}

/// The intersection of lists of a single block each (short lists, mostly):
/// the shortest of gaps or an array decoded, its ids kept by a SIMD merge
/// with each other such list decoded whole, and by a bit test against a
/// bitmap or a walk of runs, until none is left.
fn and_singles(
    levels: Levels,
    lists: &[Single],
    s: &mut Scratch,
    found: &mut Found,
) -> Result<(), Error> {
    if !ranges_meet(lists) {
        // No list is decoded.
        return Ok(());
    }
    if lists[0].is_runs() {
        return and_single_runs(levels, lists, s, found);
    }
    let c = singles_kept(levels, lists, s)?;
    found.ids(&s.a[..c]);
    Ok(())
}

/// Whether the ranges of ids the lists may hold meet.
#[inline(always)]
fn ranges_meet(lists: &[Single]) -> bool {
    let (low, high) = lists.iter().fold((0, u32::MAX), |(low, high), l| {
        let (a, b) = l.range();
        (low.max(a), high.min(b))
    });
    low <= high
}

/// The ids every list holds, into the first of `s.a`; how many. The first
/// list gives ids (gaps, an array). Inlined into each caller, as
/// [`Single::new`] is.
#[inline(always)]
fn singles_kept(levels: Levels, lists: &[Single], s: &mut Scratch) -> Result<usize, Error> {
    let (first, rest) = lists.split_first().expect("a query has lists");
    first.decode(levels, &mut s.a)?;
    let mut c = first.n;
    for l in rest {
        if c == 0 {
            break;
        }
        if !l.gives_ids() {
            c = l.keep(levels, &mut s.a[..c], &mut s.d)?;
            continue;
        }
        l.decode(levels, &mut s.d)?;
        if s.b.len() < c {
            s.b.resize(c, 0);
        }
        c = crate::postings::keep_decoded(levels.kernels, &s.a[..c], &mut s.b[..c], &s.d[..l.n]);
        core::mem::swap(&mut s.a, &mut s.b);
    }
    Ok(c)
}

/// The intersection of lists of a single block of runs each: their runs
/// intersected, then written out as ids or counted.
fn and_single_runs(
    levels: Levels,
    lists: &[Single],
    s: &mut Scratch,
    found: &mut Found,
) -> Result<(), Error> {
    single_runs_kept(levels, lists, s)?;
    runs_found(levels.kernels, &s.runs, found);
    Ok(())
}

/// The runs every list holds (lists of a single block of runs each), into
/// `s.runs`.
fn single_runs_kept(levels: Levels, lists: &[Single], s: &mut Scratch) -> Result<(), Error> {
    let (first, rest) = lists.split_first().expect("a query has lists");
    s.runs.clear();
    s.runs.extend_from_slice(first.runs(levels, &mut s.d)?);
    for l in rest {
        if s.runs.is_empty() {
            break;
        }
        s.other.clear();
        l.and_runs(levels, &s.runs, &mut s.d, &mut s.other)?;
        core::mem::swap(&mut s.runs, &mut s.other);
    }
    Ok(())
}

/// Ids of the short lists' runs in common that [`singles_first`] takes as
/// candidates: more, and the runs are walked with the longer lists'.
const FEW_IDS: usize = 128;

/// The ids of `runs` into `few`, and how many, where they fit.
fn ids_of_few(runs: &[[u32; 2]], few: &mut [u32; FEW_IDS]) -> Option<usize> {
    let mut n: usize = 0;
    for &[a, b] in runs {
        let len = usize::try_from(b.checked_sub(a)?).ok()?.checked_add(1)?;
        let room = few.get_mut(n..n.checked_add(len)?)?;
        for (slot, id) in room.iter_mut().zip(a..=b) {
            *slot = id;
        }
        n += len;
    }
    Some(n)
}

/// The intersection of lists of several blocks: the list of fewest ids (as
/// its first block's header and its count of blocks suggest) drives, a
/// block at a time. A block of gaps or an array gives its ids as
/// candidates, which each other list keeps by the blocks that may hold
/// them (decoding those alone, and passing the rest by their headers),
/// unless another list holds nothing in the block's range. A bitmap or
/// runs block is walked a span of windows at a time with the others, where
/// bitmaps meet word by word and runs run by run.
///
/// Kept out of [`intersect`], so that a query on short lists does not
/// pay for its frame.
#[inline(never)]
fn intersect_lists(
    levels: Levels,
    lists: &mut [List],
    s: &mut Scratch,
    found: &mut Found,
) -> Result<(), Error> {
    let isa = levels.kernels;
    for l in lists.iter_mut() {
        if !l.next_block()? {
            return Ok(());
        }
    }
    lists.sort_by_key(List::guess);
    // Where the driver goes next: its next block, or the first that may
    // hold an id another list reached past its last.
    let mut first = true;
    let mut past = None;
    'blocks: loop {
        let (driver, others) = lists.split_first_mut().expect("a query has lists");
        if !core::mem::take(&mut first) {
            let more = match past.take() {
                Some(id) => driver.reach(id)?.is_some(),
                None => driver.next_block()?,
            };
            if !more {
                return Ok(());
            }
        }
        let Some((low, last)) = driver.bounds() else {
            return Ok(());
        };
        if driver.unread_runs().is_some_and(|n| n < FEW_RUNS) {
            if few_runs(levels, lists, s, found)? == Walked::AllEnded {
                return Ok(());
            }
            continue;
        }
        if !driver.gives_ids() {
            let (w, e) = (low >> SHIFT, driver.end());
            if walk(isa, lists, w, e, s, found)? == Walked::AllEnded {
                return Ok(());
            }
            continue;
        }
        for l in others.iter_mut() {
            match l.reach(low)? {
                None => return Ok(()),
                Some((from, _)) if from > last => {
                    past = Some(from);
                    continue 'blocks;
                }
                Some(_) => {}
            }
        }
        let ids = driver.ids()?;
        let Some((second, rest)) = others.split_first_mut() else {
            found.ids(ids);
            continue;
        };
        let mut c = second.keep(ids, &mut s.a)?;
        for l in rest {
            if c == 0 {
                continue 'blocks;
            }
            c = l.keep(&s.a[..c], &mut s.b)?;
            core::mem::swap(&mut s.a, &mut s.b);
        }
        found.ids(&s.a[..c]);
    }
}

/// A driver's block of fewer runs than this (a quarter of a block of runs,
/// as the encoder makes them) is intersected by [`few_runs`]: more, and
/// the others' blocks are rarely many times as long.
const FEW_RUNS: usize = 64;

/// The intersection in the block of runs the first list (the driver)
/// stands in, unread: a stretch of windows at a time, in which each other
/// list stands in one block. Where each of those blocks holds runs, many
/// times as many as the driver's there or decoded already, the driver's
/// runs are intersected with them, in their streams where unread (as
/// [`List::and_runs`] reads them): a few runs against a long list cost a
/// few groups of its stream a block, not the block's decode. From the
/// first stretch where one does not, the rest of the block is walked.
fn few_runs(
    levels: Levels,
    lists: &mut [List],
    s: &mut Scratch,
    found: &mut Found,
) -> Result<Walked, Error> {
    let isa = levels.kernels;
    let (driver, _) = lists.split_first_mut().expect("a query has lists");
    let stop = driver.end();
    s.few.clear();
    s.few.extend_from_slice(driver.runs()?);
    // The first id not yet intersected, and the first run that may hold it.
    let (mut from, mut i) = (0, 0);
    while let Some(&[a, _]) = s.few.get(i) {
        let from_id = u64::from(a).max(from) as u32;
        let mut last = u32::MAX;
        for l in lists[1..].iter_mut() {
            match l.reach(from_id)? {
                None => return Ok(Walked::AllEnded),
                Some((_, l)) => last = last.min(l),
            }
        }
        // The windows up to the first end of a list's block.
        let end = ((last >> SHIFT) + 1).min(stop);
        let hi = u64::from(end) << SHIFT;
        let seg = &s.few[i..];
        let seg = &seg[..seg.partition_point(|r| u64::from(r[0]) < hi)];
        if !lists[1..].iter().all(|l| l.holds_runs_for(seg.len())) {
            // The rest walked: where the driver's runs are not few against
            // another's here, they are not few against its next blocks.
            return walk(isa, lists, from_id >> SHIFT, stop, s, found);
        }
        s.runs.clear();
        extend_clipped(&mut s.runs, seg, u64::from(from_id), hi);
        for l in lists[1..].iter() {
            s.other.clear();
            l.and_runs(levels, &s.runs, &mut s.other);
            core::mem::swap(&mut s.runs, &mut s.other);
        }
        runs_found(isa, &s.runs, found);
        if end >= stop {
            break;
        }
        from = hi;
        i += s.few[i..].partition_point(|r| u64::from(r[1]) < hi);
    }
    Ok(Walked::Done)
}

/// How a walk of a span of windows ended.
#[derive(PartialEq, Eq)]
enum Walked {
    /// At the end of the windows given.
    Done,
    /// Where a list ended: nothing after is in every list.
    AllEnded,
}

/// The intersection in windows `w..stop`, a span at a time: from a window
/// that every list holds ids in (leapfrogging to it) to the first end of a
/// list's block, so that in the span each list is one bitmap or one array
/// of ids. No list is sought at `stop` or after, so that the first, whose
/// block ends there, stays in it.
fn walk(
    isa: Isa,
    lists: &mut [List],
    mut w: u32,
    stop: u32,
    s: &mut Scratch,
    found: &mut Found,
) -> Result<Walked, Error> {
    let k = lists.len();
    'spans: while w < stop {
        // Lists that all stand in blocks of gaps merge their ids there
        // whole. Each list seeks the first window the lists before it hold
        // ids in, so that a long list after a short one is not decoded
        // where the short one has no ids.
        let mut first = w;
        for l in lists.iter_mut() {
            if first >= stop {
                break 'spans;
            }
            match l.seek(first)? {
                None => return Ok(Walked::AllEnded),
                Some(at) => first = first.max(at),
            }
        }
        if first >= stop {
            break;
        }
        if lists.iter().all(List::has_ids) {
            let e = lists.iter().map(List::end).min().unwrap_or(first);
            if first < e {
                with_views(lists.iter(), first, e, |views| {
                    span_and(isa, views, first, e, s, found)
                });
                w = e;
                continue;
            }
        }
        w = first;
        let (mut agreed, mut i) = (0, 0);
        while agreed < k {
            if w >= stop {
                break 'spans;
            }
            match lists[i].seek(w)? {
                None => return Ok(Walked::AllEnded),
                Some(at) if at == w => agreed += 1,
                Some(at) => (w, agreed) = (at, 1),
            }
            i = (i + 1) % k;
        }
        let e = span_end(lists, w, lists.iter().map(List::end));
        with_views(lists.iter(), w, e, |views| {
            span_and(isa, views, w, e, s, found)
        });
        w = e;
    }
    Ok(Walked::Done)
}

/// The intersection of every list's ids in windows `w..e`, in each of which
/// every list is in one block.
fn span_and(isa: Isa, views: &[View], w: u32, e: u32, s: &mut Scratch, found: &mut Found) {
    let (lo, hi) = (u64::from(w) << SHIFT, u64::from(e) << SHIFT);
    // The shortest array of ids, if any list holds ids as gaps here, is
    // where the candidates start; else the bitmaps are ANDed; else the runs
    // are intersected.
    let shortest = views
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v {
            View::Ids(ids) => Some((ids.len(), i)),
            _ => None,
        })
        .min();
    if let Some((_, first)) = shortest {
        let View::Ids(ids) = views[first] else {
            unreachable!("the shortest is an array of ids")
        };
        // The candidates: the list's own ids until a filter writes those
        // kept to `s.a` (a merge reads them in place, with no copy first).
        let (mut c, mut copied) = (ids.len(), false);
        // The first `c` candidates in `a` (copied there from `ids` the
        // first time), for a filter that keeps them in place.
        fn in_place<'a>(
            a: &'a mut Vec<u32>,
            ids: &[u32],
            copied: &mut bool,
            c: usize,
        ) -> &'a mut [u32] {
            if !*copied {
                a.clear();
                a.extend_from_slice(ids);
                *copied = true;
            }
            &mut a[..c]
        }
        for (i, v) in views.iter().enumerate() {
            if i == first || c == 0 {
                continue;
            }
            match *v {
                View::Ids(other) => {
                    s.b.resize(c.max(s.b.len()), 0);
                    let from = if copied { &s.a[..c] } else { ids };
                    c = crate::postings::keep_decoded(isa, from, &mut s.b[..c], other);
                    core::mem::swap(&mut s.a, &mut s.b);
                    copied = true;
                }
                View::Bits(bits) => {
                    c = span::keep_set(
                        isa,
                        bits,
                        lo as u32,
                        in_place(&mut s.a, ids, &mut copied, c),
                    );
                }
                View::Runs(runs) => {
                    c = scalar::keep_in_runs(runs, in_place(&mut s.a, ids, &mut copied, c));
                }
            }
        }
        let kept = if copied { &s.a[..c] } else { ids };
        found.ids(kept);
        return;
    }
    if views.iter().any(|v| matches!(v, View::Bits(_))) {
        if let (Found::Count(n), [View::Bits(a), View::Bits(b)]) = (&mut *found, views) {
            **n += and_count2(isa, a, b);
            return;
        }
        let words = (e - w) as usize * WORDS;
        if let Found::Hits(hits) = found {
            // ANDed in place, where the answer keeps them.
            let acc = hits.open_words(words, !0);
            let n = match views {
                // Both whole over the span (as every list's is, bar a
                // damaged one's), so that the count is the words'.
                [View::Bits(a), View::Bits(b)]
                    if a.len() == acc.len() * 8 && b.len() == a.len() =>
                {
                    span::and2_into(isa, a, b, acc)
                }
                _ => {
                    and_views(views, acc, &mut s.mask, lo, hi);
                    count(isa, acc)
                }
            };
            hits.close_words(lo as u32, words, n);
            return;
        }
        s.words.clear();
        s.words.resize(words, !0);
        and_views(views, &mut s.words, &mut s.mask, lo, hi);
        match found {
            Found::Ids(out) => extract(isa, &s.words, lo as u32, out),
            Found::Count(n) => **n += count(isa, &s.words),
            Found::Hits(_) => unreachable!("hits are ANDed in place"),
        }
        return;
    }
    // Every list holds runs here: their intersection, run by run.
    let (lo, last) = (lo as u32, (hi - 1) as u32);
    let first = views[0].runs();
    match (views, &mut *found) {
        ([_], _) => {
            s.runs.clear();
            extend_clipped(&mut s.runs, first, u64::from(lo), hi);
        }
        ([_, b], Found::Count(n)) => {
            **n += span::and_runs_count(isa, first, b.runs(), lo, last);
            return;
        }
        _ => {
            s.runs.clear();
            span::and_runs(isa, first, views[1].runs(), lo, last, &mut s.runs);
            for v in &views[2..] {
                s.other.clear();
                span::and_runs(isa, &s.runs, v.runs(), lo, last, &mut s.other);
                core::mem::swap(&mut s.runs, &mut s.other);
            }
        }
    }
    runs_found(isa, &s.runs, found);
}

/// ANDs into `acc` (all set, or a bitmap) the bitmaps and runs of `views`
/// over ids `lo..hi` (`acc`'s), drawing runs in `mask`.
fn and_views(views: &[View], acc: &mut [u64], mask: &mut Vec<u64>, lo: u64, hi: u64) {
    for v in views {
        match *v {
            View::Bits(bits) => and_words(acc, bits),
            View::Runs(runs) => {
                mask.clear();
                mask.resize(acc.len(), 0);
                draw_runs(mask, runs, lo, hi);
                for (a, m) in acc.iter_mut().zip(mask.iter()) {
                    *a &= m;
                }
            }
            View::Ids(_) => {}
        }
    }
}

/// The ids of `runs` written out, or counted.
fn runs_found(isa: Isa, runs: &[[u32; 2]], found: &mut Found) {
    match found {
        Found::Ids(out) => span::expand(isa, runs, 0, 1 << 32, out),
        Found::Hits(hits) => hits.push_runs(runs),
        Found::Count(n) => {
            **n += runs
                .iter()
                .map(|&[a, b]| (b - a) as usize + 1)
                .sum::<usize>()
        }
    }
}
