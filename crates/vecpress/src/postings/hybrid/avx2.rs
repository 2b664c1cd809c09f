//! The AVX2 window kernels, for CPUs without AVX-512 (Zen 3, and Intel's
//! client cores). A bitmap's ids are written a byte at a time: the
//! positions of a byte's set bits, eight bytes from a table of the 256
//! bytes, widened to eight ids and stored whole, the next byte's written
//! from where this one's ids end. A run's ids are eight lanes a store.
//! Candidates are tested against a bitmap eight a step by a gather of their
//! words, and two lists of runs intersected four runs of each a step. The
//! rest is the portable loops compiled for this level: POPCNT for the
//! bitmaps' counts (the baseline's has none, and counts by shifts and
//! masks), and vectors of 256 bits for the loops the compiler vectorises.

use core::arch::x86_64::*;

use super::avx512::RunsDone;
use super::span::clipped;
use crate::simd::x86::{SET_BITS8, compress8, widen_u8x8_from};

/// Appends the ids of the set bits of a window starting at `base`: each
/// word's bytes a step (eight ids stored from the last written, of which
/// the byte's set bits' are kept), or, for a word of a few bits, each
/// bit's id by its trailing zeros, eight stored unconditionally.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn extract(words: &[u64], base: u32, out: &mut Vec<u32>) {
    let total = super::scalar::count(words);
    // Eight lanes are stored from the last id written: room for them past
    // the ids.
    out.reserve(total + 8);
    let mut n = out.len();
    let ptr = out.as_mut_ptr();
    let table = SET_BITS8.as_ptr();
    for (j, &w) in words.iter().enumerate() {
        if w == 0 {
            continue;
        }
        let at = base.wrapping_add(64 * j as u32);
        let c = w.count_ones() as usize;
        if c <= 8 {
            // SAFETY: eight stores at `n..n + 8`, below `len + total + 8`,
            // in the room reserved.
            unsafe {
                let mut w = w;
                for k in 0..8 {
                    *ptr.add(n + k) = at.wrapping_add(w.trailing_zeros() & 63);
                    w &= w.wrapping_sub(1);
                }
            }
            n += c;
            continue;
        }
        let mut at = _mm256_set1_epi32(at as i32);
        let eight = _mm256_set1_epi32(8);
        for k in 0..8 {
            let byte = (w >> (8 * k)) as u8;
            // SAFETY: the table has a row for each byte; the store of eight
            // lanes starts at `n`, below `len + total`, so it ends before
            // `len + total + 8`, in the room reserved.
            unsafe {
                let p = widen_u8x8_from(table.add(usize::from(byte)).cast());
                _mm256_storeu_si256(ptr.add(n).cast(), _mm256_add_epi32(p, at));
            }
            n += byte.count_ones() as usize;
            at = _mm256_add_epi32(at, eight);
        }
    }
    // SAFETY: the first `n` are initialised: the old ones, then exactly the
    // ids of the `total` set bits.
    unsafe { out.set_len(n) };
}

/// Appends the ids of `runs` cut to ids `lo..hi`: eight ids a store from a
/// run's first, each store starting where the run before ended, with room
/// for the last store's lanes past the ids.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn expand(runs: &[[u32; 2]], lo: u64, hi: u64, out: &mut Vec<u32>) {
    let mut n = out.len();
    let mut ptr = out.as_mut_ptr();
    let iota = _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    let eight = _mm256_set1_epi32(8);
    for [a, b] in clipped(runs, lo, hi) {
        let len = (b - a) as usize + 1;
        // Room for the run and the last store's lanes past it, grown as
        // the runs come.
        if out.capacity() - n < len + 8 {
            // SAFETY: the first `n` are initialised (the old ones, then the
            // runs' ids so far), and kept by the move `reserve` makes.
            unsafe { out.set_len(n) };
            out.reserve(len + 8);
            ptr = out.as_mut_ptr();
        }
        let mut ids = _mm256_add_epi32(_mm256_set1_epi32(a as i32), iota);
        let mut k = 0;
        while k < len {
            // SAFETY: the store starts below `n + len`, so its lanes end
            // before `n + len + 8`, within the capacity just checked.
            unsafe { _mm256_storeu_si256(ptr.add(n + k).cast(), ids) };
            ids = _mm256_add_epi32(ids, eight);
            k += 8;
        }
        n += len;
    }
    // SAFETY: the first `n` are initialised: the old ones, then exactly the
    // runs' ids, in order (each run's stores overwrite the lanes past the
    // run before).
    unsafe { out.set_len(n) };
}

/// Ids a candidate is from the one before it, on average, beyond which
/// [`keep_few`] gallops (as the AVX-512 kernel's, with half its lanes).
const SCAN: usize = 256;

/// [`super::scalar::keep_few`], where the candidates are no more than
/// [`SCAN`] ids apart on average: each candidate's place found by compares
/// of eight ids a step from where the one before stopped; else each
/// gallops.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn keep_few(candidates: &[u32], ids: &[u32], room: &mut [u32]) -> usize {
    if ids.len() > SCAN * candidates.len() {
        return super::scalar::keep_few(candidates, ids, room);
    }
    // Unsigned order by signed compares: both sides' top bits flipped.
    let flip = _mm256_set1_epi32(i32::MIN);
    super::scalar::keep_few_by(candidates, ids, room, |mut j, c| {
        let cv = _mm256_set1_epi32((c ^ 0x8000_0000) as i32);
        while j + 8 <= ids.len() {
            // SAFETY: `j + 8 <= ids.len()`: eight ids from `j` are in
            // bounds.
            let v = unsafe { _mm256_loadu_si256(ids.as_ptr().add(j).cast()) };
            let below = _mm256_cmpgt_epi32(cv, _mm256_xor_si256(v, flip));
            let below = _mm256_movemask_ps(_mm256_castsi256_ps(below)) as u32;
            // A step of eight where all are below, taken before the
            // compare is known (as the branch predicts).
            if below == 0xff {
                j += 8;
                continue;
            }
            // Sorted ids: those below the candidate are the register's
            // first lanes (in a damaged list's, some other lanes: `j` stays
            // in bounds all the same).
            return j + below.count_ones() as usize;
        }
        j + ids[j..].iter().take_while(|&&x| x < c).count()
    })
}

/// [`super::scalar::keep_few16`] as [`keep_few`] does it: sixteen offsets
/// a step, read in place.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn keep_few16(
    candidates: &[u32],
    first: u32,
    offsets: &[[u8; 2]],
    room: &mut [u32],
) -> usize {
    if offsets.len() > SCAN * candidates.len() {
        return super::scalar::keep_few16(candidates, first, offsets, room);
    }
    let flip = _mm256_set1_epi16(i16::MIN);
    super::scalar::keep_few16_by(candidates, first, offsets, room, |mut j, off| {
        let ov = _mm256_set1_epi16((off ^ 0x8000) as i16);
        while j + 16 <= offsets.len() {
            // SAFETY: `j + 16 <= offsets.len()`: sixteen offsets (32 bytes)
            // from `j` are in bounds.
            let v = unsafe { _mm256_loadu_si256(offsets.as_ptr().add(j).cast()) };
            let below = _mm256_cmpgt_epi16(ov, _mm256_xor_si256(v, flip));
            // Two mask bits an offset.
            let below = _mm256_movemask_epi8(below) as u32;
            if below == u32::MAX {
                j += 16;
                continue;
            }
            return j + below.count_ones() as usize / 2;
        }
        j + offsets[j..]
            .iter()
            .take_while(|o| u16::from_le_bytes(**o) < off)
            .count()
    })
}

/// [`super::scalar::widen`], compiled for this level (the compiler
/// vectorises its loops).
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn widen(first: u32, offsets: &[[u8; 2]], out: &mut [u32]) -> bool {
    super::scalar::widen(first, offsets, out)
}

/// [`super::scalar::keep_set`], eight ids a step: each id's 32-bit word
/// of the bitmap gathered (for the lanes whose bit is in it), shifted so
/// that the id's bit is the lane's top, the ids whose bit is set moved to
/// the front by [`compress8`] and stored after those kept; the last few
/// ids take the scalar test.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn keep_set(bits: &[u8], base: u32, ids: &mut [u32]) -> usize {
    let n = ids.len();
    // Bit numbers compared as signed lanes: a bitmap of fewer than 2^31
    // bits (a span's, of a few windows, always) keeps them positive.
    let Ok(len) = i32::try_from(bits.len() as u64 * 8) else {
        return super::scalar::keep_set(bits, base, ids);
    };
    let (vbase, vlen, low5) = (
        _mm256_set1_epi32(base as i32),
        _mm256_set1_epi32(len),
        _mm256_set1_epi32(31),
    );
    let t = bits.as_ptr();
    let (mut i, mut kept) = (0, 0);
    while i + 8 <= n {
        // Taken anew each step: the scalar steps borrow `ids` whole.
        let p = ids.as_mut_ptr();
        // SAFETY: `i + 8 <= n`: eight ids at `i` are readable; the store of
        // eight lanes at `kept <= i` stays within them, and the ids after
        // `i + 8` it does not reach are read later. The gather reads the
        // 32-bit word of each lane's bit only where that bit is below
        // `len` (a whole number of words): within `bits`.
        unsafe {
            let v = _mm256_loadu_si256(p.add(i).cast());
            let bit = _mm256_sub_epi32(v, vbase);
            // 0 <= bit < len, as signed lanes.
            let inside =
                _mm256_andnot_si256(_mm256_srai_epi32::<31>(bit), _mm256_cmpgt_epi32(vlen, bit));
            let w = _mm256_mask_i32gather_epi32::<4>(
                _mm256_setzero_si256(),
                t.cast(),
                _mm256_srli_epi32::<5>(bit),
                inside,
            );
            // The id's bit to the lane's top: shifted by 31 less its place.
            let top = _mm256_sllv_epi32(w, _mm256_andnot_si256(bit, low5));
            let hit = _mm256_movemask_ps(_mm256_castsi256_ps(top)) as u32;
            _mm256_storeu_si256(p.add(kept).cast(), compress8(v, hit));
            kept += hit.count_ones() as usize;
        }
        i += 8;
    }
    super::scalar::keep_set_at(bits, base, ids, i, n, kept)
}

/// Ids set in both bitmaps (of like lengths): the portable loop, with
/// POPCNT.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn and_count2(a: &[u8], b: &[u8]) -> usize {
    super::scalar::and_count2(a, b)
}

/// The AND of two bitmaps written out and counted: the portable loop, with
/// POPCNT.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn and2_into(a: &[u8], b: &[u8], out: &mut [u64]) -> usize {
    super::scalar::and2_into(a, b, out)
}

/// Ids set in a bitmap: the portable loop, with POPCNT.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn count(words: &[u64]) -> usize {
    super::scalar::count(words)
}

/// Whether runs rise from `before`, none touching the next or longer than
/// a window: the portable loop, vectorised by the compiler for AVX2.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn runs_fit(runs: &[[u32; 2]], before: u32) -> bool {
    super::scalar::runs_fit(runs, before)
}

/// [`super::avx512::and_runs`] with four runs of each list a step: the
/// sixteen pairs of a step's runs compared in two registers (two of `a`'s
/// runs, each against `b`'s four), the block that ends first moving on.
/// Counted, the overlaps' lengths are added under the mask of those that
/// overlap, with no branch; else each overlapping pair (most steps have
/// none) is cut and appended in order, `a`'s run then `b`'s.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx2`.
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn and_runs<const COUNT: bool>(
    a: &[[u32; 2]],
    b: &[[u32; 2]],
    lo: u32,
    hi: u32,
    out: &mut Vec<[u32; 2]>,
) -> RunsDone {
    let (mut i, mut j, mut ids) = (0, 0, 0usize);
    // `b`'s four firsts (lanes 0-3 and again 4-7), and lasts.
    let firsts = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    let lasts = _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7);
    // `a`'s runs 0 and 1 (lanes 0-3, 4-7), then 2 and 3: their firsts.
    let pick = [
        _mm256_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2),
        _mm256_setr_epi32(4, 4, 4, 4, 6, 6, 6, 6),
    ];
    let (vlo, vhi, one) = (
        _mm256_set1_epi32(lo as i32),
        _mm256_set1_epi32(hi as i32),
        _mm256_set1_epi32(1),
    );
    // Unsigned `x <= y`: where the larger is `y`.
    let at_most = |x: __m256i, y: __m256i| _mm256_cmpeq_epi32(_mm256_max_epu32(x, y), y);
    // Each lane adds at most two overlaps of a window (4096 ids) a step,
    // so that 2^12 steps keep each lane within 2^26.
    let mut acc = _mm256_setzero_si256();
    let mut steps = 0u32;
    let (pa, pb) = (a.as_ptr().cast::<u32>(), b.as_ptr().cast::<u32>());
    while i + 4 <= a.len() && j + 4 <= b.len() {
        let (a_end, b_end) = (a[i + 3][1], b[j + 3][1]);
        if a_end >= b[j][0] && b_end >= a[i][0] {
            // SAFETY: `i + 4 <= a.len()` and `j + 4 <= b.len()`: the four
            // runs (eight u32) at each are readable.
            let (va, vb) = unsafe {
                (
                    _mm256_loadu_si256(pa.add(2 * i).cast()),
                    _mm256_loadu_si256(pb.add(2 * j).cast()),
                )
            };
            let bf = _mm256_permutevar8x32_epi32(vb, firsts);
            let bl = _mm256_permutevar8x32_epi32(vb, lasts);
            if COUNT {
                let (bf, bl) = (_mm256_max_epu32(bf, vlo), _mm256_min_epu32(bl, vhi));
                for p in pick {
                    let f = _mm256_max_epu32(_mm256_permutevar8x32_epi32(va, p), bf);
                    let l = _mm256_min_epu32(
                        _mm256_permutevar8x32_epi32(va, _mm256_add_epi32(p, one)),
                        bl,
                    );
                    let len = _mm256_sub_epi32(_mm256_add_epi32(l, one), f);
                    acc = _mm256_add_epi32(acc, _mm256_and_si256(at_most(f, l), len));
                }
                steps += 1;
                if steps == 1 << 12 {
                    ids += lanes_sum(acc);
                    acc = _mm256_setzero_si256();
                    steps = 0;
                }
            } else {
                // Bit 4k + q: `a`'s run k (of the four) meets `b`'s run q
                // (uncut: runs that meet none uncut meet none cut).
                let mut meet = 0u32;
                for (k, p) in pick.into_iter().enumerate() {
                    let f = _mm256_permutevar8x32_epi32(va, p);
                    let l = _mm256_permutevar8x32_epi32(va, _mm256_add_epi32(p, one));
                    let m = _mm256_and_si256(at_most(f, bl), at_most(bf, l));
                    meet |= (_mm256_movemask_ps(_mm256_castsi256_ps(m)) as u32) << (8 * k);
                }
                while meet != 0 {
                    let t = meet.trailing_zeros() as usize;
                    meet &= meet - 1;
                    let (x, y) = (a[i + t / 4], b[j + t % 4]);
                    let (first, last) = (x[0].max(y[0]).max(lo), x[1].min(y[1]).min(hi));
                    if first <= last {
                        out.push([first, last]);
                    }
                }
            }
        }
        i += if a_end <= b_end { 4 } else { 0 };
        j += if b_end <= a_end { 4 } else { 0 };
    }
    if COUNT {
        ids += lanes_sum(acc);
    }
    RunsDone { a: i, b: j, ids }
}

/// The sum of eight u32 lanes.
#[inline(always)]
fn lanes_sum(v: __m256i) -> usize {
    let mut lanes = [0u32; 8];
    // SAFETY: `lanes` holds 32 bytes; AVX is the caller's.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), v) };
    lanes.iter().map(|&x| x as usize).sum()
}
