//! A span's pieces: its end, runs cut to it, and its bitmap words; an
//! array's offsets widened.

use super::read::List;
use super::scalar;
#[cfg(target_arch = "x86_64")]
use super::{avx2, avx512};
use crate::Isa;

/// Windows a span takes at most where a list is a bitmap, so that the
/// bitmaps ANDed for it stay in the first level of cache, and runs drawn
/// over it draw no more than this.
pub(super) const CHUNK: u32 = 32;

/// Where a span from `w` ends: at the first of `ends`, and within
/// [`CHUNK`] windows where a list there is a bitmap.
pub(super) fn span_end(lists: &[List], w: u32, ends: impl Iterator<Item = u32>) -> u32 {
    let e = ends.min().unwrap_or(w + 1).max(w + 1);
    if lists.iter().any(List::has_bits) {
        e.min(w.saturating_add(CHUNK))
    } else {
        e
    }
}

/// Runs cut to ids `lo..hi`.
pub(super) fn clipped(runs: &[[u32; 2]], lo: u64, hi: u64) -> impl Iterator<Item = [u32; 2]> + '_ {
    runs.iter().filter_map(move |&[a, b]| {
        let (a, b) = (u64::from(a).max(lo), u64::from(b).min(hi - 1));
        (a <= b).then_some([a as u32, b as u32])
    })
}

/// Whether cutting `runs` to ids `lo..hi` leaves them as they are: every
/// run lies inside and none is empty. A checked list's runs keep within
/// their windows, so a span's cut mostly cuts none; one pass over their
/// least first id, greatest last id and order (which the compiler
/// vectorises) says so, where a cut run by run takes a compare and a
/// store each.
fn uncut(runs: &[[u32; 2]], lo: u64, hi: u64) -> bool {
    let (least, most, empty) = runs
        .iter()
        .fold((u32::MAX, 0, false), |(l, m, e), &[a, b]| {
            (l.min(a), m.max(b), e | (a > b))
        });
    !empty && u64::from(least) >= lo && u64::from(most) < hi
}

/// Appends `runs` cut to ids `lo..hi` to `out`: copied whole where the cut
/// leaves them ([`uncut`]); else each run is written and kept by its
/// count, into room reserved once, so that the loop takes no branch and
/// stores no length a run (as an `extend` from [`clipped`] would).
pub(super) fn extend_clipped(out: &mut Vec<[u32; 2]>, runs: &[[u32; 2]], lo: u64, hi: u64) {
    if uncut(runs, lo, hi) {
        out.extend_from_slice(runs);
        return;
    }
    out.reserve(runs.len());
    let start = out.len();
    let room = &mut out.spare_capacity_mut()[..runs.len()];
    let mut k = 0;
    for (i, &[a, b]) in runs.iter().enumerate() {
        let (a, b) = (u64::from(a).max(lo), u64::from(b).min(hi - 1));
        // At `k <= i`, within the room; an empty run is written over.
        room[k.min(i)].write([a as u32, b as u32]);
        k += usize::from(a <= b);
    }
    // SAFETY: the `k` slots after `start` were each written above (a slot
    // below `k` holds the run that counted it), within the room reserved.
    unsafe { out.set_len(start + k) };
}

/// Cuts `runs` to ids `lo..hi` where they are, as [`extend_clipped`]
/// appends them cut: nothing to do where the cut leaves them, else the
/// same loop with no branch, each run read before the slot it may go to
/// (at or below its own) is written.
pub(super) fn clip_in_place(runs: &mut Vec<[u32; 2]>, lo: u64, hi: u64) {
    if uncut(runs, lo, hi) {
        return;
    }
    let mut k = 0;
    for i in 0..runs.len() {
        let [a, b] = runs[i];
        let (a, b) = (u64::from(a).max(lo), u64::from(b).min(hi - 1));
        runs[k.min(i)] = [a as u32, b as u32];
        k += usize::from(a <= b);
    }
    runs.truncate(k);
}

/// Sets the bits of ids in `runs` (cut to `lo..hi`) in a bitmap of ids
/// from `lo`.
pub(super) fn draw_runs(words: &mut [u64], runs: &[[u32; 2]], lo: u64, hi: u64) {
    for [a, b] in clipped(runs, lo, hi) {
        let (a, b) = (
            (u64::from(a) - lo) as usize,
            (u64::from(b) - lo) as usize + 1,
        );
        if b > words.len() * 64 {
            continue;
        }
        let (aw, bw) = (a / 64, (b - 1) / 64);
        let first = !0u64 << (a % 64);
        let last = !0u64 >> (63 - (b - 1) % 64);
        if aw == bw {
            words[aw] |= first & last;
        } else {
            words[aw] |= first;
            words[aw + 1..bw].fill(!0);
            words[bw] |= last;
        }
    }
}

pub(super) fn load(words: &mut [u64], bits: &[u8]) {
    for (w, b) in words.iter_mut().zip(bits.chunks_exact(8)) {
        *w = u64::from_le_bytes(b.try_into().expect("eight bytes"));
    }
}

pub(super) fn and_words(words: &mut [u64], bits: &[u8]) {
    for (w, b) in words.iter_mut().zip(bits.chunks_exact(8)) {
        *w &= u64::from_le_bytes(b.try_into().expect("eight bytes"));
    }
}

pub(super) fn or_words(words: &mut [u64], bits: &[u8]) {
    for (w, b) in words.iter_mut().zip(bits.chunks_exact(8)) {
        *w |= u64::from_le_bytes(b.try_into().expect("eight bytes"));
    }
}

/// Ids set in a bitmap.
pub(super) fn count(isa: Isa, words: &[u64]) -> usize {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has AVX-512.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::count(words) },
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx2`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::count(words) },
        _ => scalar::count(words),
    }
}

/// Writes the AND of two bitmaps (of `out`'s length) to `out`; returns
/// the ids set in it.
pub(super) fn and2_into(isa: Isa, a: &[u8], b: &[u8], out: &mut [u64]) -> usize {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has AVX-512.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::and2_into(a, b, out) },
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx2`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::and2_into(a, b, out) },
        _ => scalar::and2_into(a, b, out),
    }
}

/// Ids set in both bitmaps (of like lengths).
pub(super) fn and_count2(isa: Isa, a: &[u8], b: &[u8]) -> usize {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has AVX-512.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::and_count2(a, b) },
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx2`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::and_count2(a, b) },
        _ => scalar::and_count2(a, b),
    }
}

/// Whether runs rise from `before`, none touching the next or longer than
/// a window.
pub(super) fn runs_fit(isa: Isa, runs: &[[u32; 2]], before: u32) -> bool {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx512`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::runs_fit(runs, before) },
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx2`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::runs_fit(runs, before) },
        _ => scalar::runs_fit(runs, before),
    }
}

/// Keeps, in order at the front of `ids`, those whose bit is set in the
/// bitmap of windows starting at `base`; returns how many. Ids outside
/// them (a damaged list's) are dropped.
pub(super) fn keep_set(isa: Isa, bits: &[u8], base: u32, ids: &mut [u32]) -> usize {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx512`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::keep_set(bits, base, ids) },
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx2`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::keep_set(bits, base, ids) },
        _ => scalar::keep_set(bits, base, ids),
    }
}

/// Writes to the front of `room` the candidates (sorted, far fewer) that
/// `ids` (sorted) holds; returns how many.
pub(super) fn keep_few(isa: Isa, candidates: &[u32], ids: &[u32], room: &mut [u32]) -> usize {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx512`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::keep_few(candidates, ids, room) },
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx2`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::keep_few(candidates, ids, room) },
        _ => scalar::keep_few(candidates, ids, room),
    }
}

/// [`keep_few`] on an array read in place: ids `first` and `first` plus
/// each 16-bit offset (rising; where they do not, unspecified candidates).
pub(super) fn keep_few16(
    isa: Isa,
    candidates: &[u32],
    first: u32,
    offsets: &[[u8; 2]],
    room: &mut [u32],
) -> usize {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx512`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::keep_few16(candidates, first, offsets, room) },
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx2`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::keep_few16(candidates, first, offsets, room) },
        _ => scalar::keep_few16(candidates, first, offsets, room),
    }
}

/// Writes ids `first` plus each 16-bit offset into `out` (as long);
/// whether the offsets fall or start at 0.
pub(super) fn widen(isa: Isa, first: u32, offsets: &[[u8; 2]], out: &mut [u32]) -> bool {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx512`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::widen(first, offsets, out) },
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx2`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::widen(first, offsets, out) },
        _ => scalar::widen(first, offsets, out),
    }
}

/// Appends the ids of `runs` cut to ids `lo..hi`.
pub(super) fn expand(isa: Isa, runs: &[[u32; 2]], lo: u64, hi: u64, out: &mut Vec<u32>) {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx512`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::expand(runs, lo, hi, out) },
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx2`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::expand(runs, lo, hi, out) },
        _ => scalar::expand(runs, lo, hi, out),
    }
}

/// Appends the ids of the set bits of a window starting at `base`.
pub(super) fn extract(isa: Isa, words: &[u64], base: u32, out: &mut Vec<u32>) {
    match isa {
        // SAFETY: `tune::isa` or a checked level: the CPU has AVX-512 (F,
        // VBMI2 among its features) and the AVX2 level's POPCNT and BMI.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { avx512::extract(words, base, out) },
        // SAFETY: `tune::isa` or a checked level: the CPU has every feature
        // of `Isa::Avx2`.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { avx2::extract(words, base, out) },
        _ => scalar::extract(words, base, out),
    }
}

/// The intersection of two sorted lists of runs (first and last), cut to
/// ids `lo..=hi`, appended to `out`.
pub(super) fn and_runs(
    isa: Isa,
    a: &[[u32; 2]],
    b: &[[u32; 2]],
    lo: u32,
    hi: u32,
    out: &mut Vec<[u32; 2]>,
) {
    let (i, j) = match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if near(a, b) => {
            // SAFETY: `tune::isa` or a checked level: the CPU has every
            // feature of `Isa::Avx512`.
            let done = unsafe { avx512::and_runs::<false>(a, b, lo, hi, out) };
            (done.a, done.b)
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 if near(a, b) => {
            // SAFETY: `tune::isa` or a checked level: the CPU has every
            // feature of `Isa::Avx2`.
            let done = unsafe { avx2::and_runs::<false>(a, b, lo, hi, out) };
            (done.a, done.b)
        }
        _ => (0, 0),
    };
    scalar::and_runs(&a[i..], &b[j..], lo, hi, out);
}

/// The ids in both lists of runs (as [`and_runs`]), counted.
pub(super) fn and_runs_count(isa: Isa, a: &[[u32; 2]], b: &[[u32; 2]], lo: u32, hi: u32) -> usize {
    let (i, j, n) = match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if near(a, b) => {
            // SAFETY: `tune::isa` or a checked level: the CPU has every
            // feature of `Isa::Avx512`.
            let done = unsafe { avx512::and_runs::<true>(a, b, lo, hi, &mut Vec::new()) };
            (done.a, done.b, done.ids)
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 if near(a, b) => {
            // SAFETY: `tune::isa` or a checked level: the CPU has every
            // feature of `Isa::Avx2`.
            let done = unsafe { avx2::and_runs::<true>(a, b, lo, hi, &mut Vec::new()) };
            (done.a, done.b, done.ids)
        }
        _ => (0, 0, 0),
    };
    n + scalar::and_runs_count(&a[i..], &b[j..], lo, hi)
}

/// Whether two lists of runs are walked side by side (a block of each a
/// step), not the shorter's runs searched for in the longer.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn near(a: &[[u32; 2]], b: &[[u32; 2]]) -> bool {
    a.len() <= scalar::SKEW * b.len() && b.len() <= scalar::SKEW * a.len()
}
