//! What a query reuses: a thread's buffers and scratch, and its lists' views.

use std::cell::RefCell;
use std::mem::MaybeUninit;

use super::Levels;
use super::hits::Hits;
use super::read::{List, View};
use crate::Error;

/// Where a query's ids go.
pub(super) enum Found<'o> {
    Ids(&'o mut Vec<u32>),
    Count(&'o mut usize),
    Hits(&'o mut Hits),
}

impl Found<'_> {
    /// Adds ids, each above those found before.
    pub(super) fn ids(&mut self, ids: &[u32]) {
        match self {
            Found::Ids(out) => out.extend_from_slice(ids),
            Found::Count(n) => **n += ids.len(),
            Found::Hits(hits) => hits.push_ids(ids),
        }
    }
}

/// Scratch a query reuses from span to span.
pub(super) struct Scratch {
    /// Bitmaps of a span, ANDed or ORed, and runs drawn.
    pub(super) words: Vec<u64>,
    pub(super) mask: Vec<u64>,
    /// Candidates, those kept of them, and a list decoded.
    pub(super) a: Vec<u32>,
    pub(super) b: Vec<u32>,
    pub(super) d: Vec<u32>,
    pub(super) runs: Vec<[u32; 2]>,
    pub(super) other: Vec<[u32; 2]>,
    /// A driver's runs, intersected a stretch at a time.
    pub(super) few: Vec<[u32; 2]>,
    /// A union's lists: the window each stands at, and its runs' ids.
    pub(super) at: Vec<Option<u32>>,
    pub(super) expanded: Vec<Vec<u32>>,
}

impl Scratch {
    pub(super) const fn new() -> Scratch {
        Scratch {
            words: Vec::new(),
            mask: Vec::new(),
            a: Vec::new(),
            b: Vec::new(),
            d: Vec::new(),
            runs: Vec::new(),
            other: Vec::new(),
            few: Vec::new(),
            at: Vec::new(),
            expanded: Vec::new(),
        }
    }

    /// Frees buffers too long to keep for the next query: a check of their
    /// lengths inlined where a query ends, the frees apart.
    #[inline(always)]
    pub(super) fn trim(&mut self) {
        if self.buffers(false) > KEEP {
            self.trim_all();
        }
    }

    #[inline(never)]
    fn trim_all(&mut self) {
        self.buffers(true);
    }

    /// The longest buffer's capacity (past [`KEEP`] where a union expanded
    /// runs), each buffer longer than that freed with `free`. It names
    /// every field (no `..`), so that a buffer added to the scratch does
    /// not build until it is listed here.
    #[inline(always)]
    fn buffers(&mut self, free: bool) -> usize {
        fn one<T>(v: &mut Vec<T>, free: bool) -> usize {
            let capacity = v.capacity();
            if free && capacity > KEEP {
                *v = Vec::new();
            }
            capacity
        }
        let Scratch {
            words,
            mask,
            a,
            b,
            d,
            runs,
            other,
            few,
            at,
            expanded,
        } = self;
        let longest = [
            one(words, free),
            one(mask, free),
            one(a, free),
            one(b, free),
            one(d, free),
            one(runs, free),
            one(other, free),
            one(few, free),
            one(at, free),
        ]
        .into_iter()
        .fold(0, usize::max);
        if expanded.is_empty() {
            return longest;
        }
        if free {
            for v in expanded.iter_mut() {
                one(v, true);
            }
        }
        usize::MAX
    }
}

/// Buffers a thread's queries keep from one to the next: a query on short
/// lists would otherwise spend much of its time allocating them.
pub(super) struct Pool {
    pub(super) buffers: Vec<(Vec<u32>, Vec<u32>)>,
    pub(super) scratch: Scratch,
}

impl Pool {
    pub(super) const fn new() -> Pool {
        Pool {
            buffers: Vec::new(),
            scratch: Scratch::new(),
        }
    }
}

thread_local! {
    // Made at compile time, so that a query's access is a load, not a
    // check that the pool is made.
    static POOL: RefCell<Pool> = const { RefCell::new(Pool::new()) };
}

/// Runs `f` with this thread's pool, borrowed in place (a move of the pool
/// costs a short query more than its buffers' reuse saves); a query within
/// a query, which none makes, would take a pool of its own.
pub(super) fn with_pool<R>(f: impl FnOnce(&mut Pool) -> R) -> R {
    POOL.with(|pool| match pool.try_borrow_mut() {
        Ok(mut pool) => f(&mut pool),
        Err(_) => f(&mut Pool::new()),
    })
}

/// Runs `f` with this thread's pool, as [`with_pool`], for a query's answer
/// or its error. The closure moves an error out to a slot of this frame
/// and returns the answer alone: a `Result` returned by the closure is
/// copied out by wide loads across the narrower stores that wrote it
/// (its error's fields), which wait for those stores to retire, about a
/// tenth of a query on short lists.
pub(super) fn pooled<R>(f: impl FnOnce(&mut Pool) -> Result<R, Error>) -> Result<R, Error> {
    let mut failed = None;
    let got = with_pool(|pool| f(pool).map_err(|e| failed = Some(e)).ok());
    if let Some(answer) = got {
        return Ok(answer);
    }
    match failed {
        Some(e) => Err(e),
        None => unreachable!("a query with no answer left its error"),
    }
}

/// Buffers longer than this (in values) are freed after their query.
const KEEP: usize = 1 << 20;

/// Runs `f` with the lists of a query read from `lists` and this thread's
/// scratch, then keeps their buffers for the next query.
pub(super) fn with_lists<R>(
    levels: Levels,
    lists: &[&[u8]],
    f: impl FnOnce(&mut [List], &mut Scratch) -> Result<R, Error>,
) -> Result<R, Error> {
    pooled(|pool| query_with(levels, lists, pool, f))
}

fn query_with<R>(
    levels: Levels,
    lists: &[&[u8]],
    pool: &mut Pool,
    f: impl FnOnce(&mut [List], &mut Scratch) -> Result<R, Error>,
) -> Result<R, Error> {
    // A query of a few lists reads them into slots on the stack: a vector
    // of them is an allocation and its free, a tenth of a query that finds
    // one block of a long list.
    if lists.len() <= VIEWS {
        let mut slots = [const { MaybeUninit::uninit() }; VIEWS];
        return query_in(levels, lists, &mut slots, pool, f);
    }
    let mut read = Vec::with_capacity(lists.len());
    query_in(levels, lists, read.spare_capacity_mut(), pool, f)
}

/// [`query_with`], the lists read into `slots` (one for each at least),
/// then their buffers kept. Each list is built in its slot: pushed, it is
/// built on the stack and copied by wide loads across the narrower stores
/// that wrote it, which wait for those stores to retire (a twentieth of a
/// query that finds one block of a long list by its index). So is a list
/// returned in a `Result`: the count is read apart.
fn query_in<'a, R>(
    levels: Levels,
    lists: &[&'a [u8]],
    slots: &mut [MaybeUninit<List<'a>>],
    pool: &mut Pool,
    f: impl FnOnce(&mut [List<'a>], &mut Scratch) -> Result<R, Error>,
) -> Result<R, Error> {
    let mut got = Ok(());
    let mut built = 0;
    for (slot, bytes) in slots.iter_mut().zip(lists) {
        match List::count(bytes) {
            Ok(count) => {
                let buffers = pool.buffers.pop().unwrap_or_default();
                slot.write(List::at(levels, bytes, count, buffers));
                built += 1;
            }
            Err(e) => {
                got = Err(e);
                break;
            }
        }
    }
    let built = &mut slots[..built];
    // SAFETY: each of these slots was written with a list just above, and
    // `MaybeUninit<List>` has the layout of `List`.
    let read = unsafe { &mut *(core::ptr::from_mut(built) as *mut [List<'a>]) };
    let got = got.and_then(|()| f(read, &mut pool.scratch));
    for slot in built {
        // SAFETY: the slot holds a list (written above), read out once
        // here; nothing reads or drops the slots after.
        let (ids, runs) = unsafe { slot.assume_init_read() }.into_buffers();
        if ids.capacity() <= KEEP && runs.capacity() <= KEEP {
            pool.buffers.push((ids, runs));
        }
    }
    pool.scratch.trim();
    got
}

/// Lists a query takes its views of without allocating.
pub(super) const VIEWS: usize = 8;

/// Runs `f` on the views of `lists` over windows `w..e`.
pub(super) fn with_views<'l, R>(
    lists: impl ExactSizeIterator<Item = &'l List<'l>>,
    w: u32,
    e: u32,
    f: impl FnOnce(&[View<'l>]) -> R,
) -> R {
    let k = lists.len();
    if k <= VIEWS {
        let mut views = [View::Ids(&[]); VIEWS];
        for (v, l) in views.iter_mut().zip(lists) {
            *v = l.span(w, e);
        }
        f(&views[..k])
    } else {
        f(&lists.map(|l| l.span(w, e)).collect::<Vec<_>>())
    }
}
