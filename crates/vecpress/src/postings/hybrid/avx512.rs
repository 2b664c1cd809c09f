//! The AVX-512 window kernel: a bitmap's ids written a word at a time, one
//! `vpcompressb` (VBMI2) gathering the positions of the word's set bits as
//! bytes, then widened to ids sixteen at a time: a third to a half of the
//! time per id of four `vpcompressd` of the word's 16-bit pieces, on
//! bitmaps of every density a block holds (perf/amd-25-17.md, "Hybrid
//! posting queries"). The register forms, each stored whole: Zen 4 runs
//! the memory form of a compress as microcode, far slower than a compress
//! and a store.

use core::arch::x86_64::*;

use super::span::clipped;

/// [`super::scalar::widen`]: 32 offsets a step, each compared with the one
/// before it (the step's register with the last step's, shifted in by one
/// lane) and widened to two registers of ids; masked loads and stores for
/// the last step, so that a short list's few offsets take one step and no
/// scalar tail.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn widen(first: u32, offsets: &[[u8; 2]], out: &mut [u32]) -> bool {
    let n = offsets.len().min(out.len());
    let (src, dst) = (offsets.as_ptr().cast::<u16>(), out.as_mut_ptr());
    let base = _mm512_set1_epi32(first as i32);
    // Lane 0 from the last lane of the step before (the second source),
    // lane k from lane k - 1.
    let shift = _mm512_set_epi16(
        30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8,
        7, 6, 5, 4, 3, 2, 1, 0, 63,
    );
    // The offset before the first is 0, so that a first offset of 0 falls.
    let mut before = _mm512_setzero_si512();
    let mut falls: u32 = 0;
    let mut k = 0;
    while k < n {
        let left = n - k;
        let m: u32 = if left >= 32 { !0 } else { (1 << left) - 1 };
        // SAFETY: lanes of `m` are offsets `k..k + 32` below `n`, in both
        // slices; masked-off lanes are neither read nor written (the second
        // store's address, past the end on a last step of 16 or fewer, is
        // formed by a wrapping add).
        unsafe {
            let cur = _mm512_maskz_loadu_epi16(m, src.add(k).cast());
            let prev = _mm512_permutex2var_epi16(cur, shift, before);
            falls |= _mm512_mask_cmple_epu16_mask(m, cur, prev);
            let lo = _mm512_add_epi32(_mm512_cvtepu16_epi32(_mm512_castsi512_si256(cur)), base);
            let hi = _mm512_add_epi32(
                _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(cur)),
                base,
            );
            _mm512_mask_storeu_epi32(dst.add(k).cast(), m as u16, lo);
            _mm512_mask_storeu_epi32(dst.wrapping_add(k + 16).cast(), (m >> 16) as u16, hi);
            before = cur;
        }
        k += 32;
    }
    falls != 0
}

/// Appends the ids of the set bits of a window starting at `base`.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn extract(words: &[u64], base: u32, out: &mut Vec<u32>) {
    let total = super::scalar::count(words);
    // Sixteen lanes are stored from the last id written: room for them
    // past the ids.
    out.reserve(total + 16);
    let mut n = out.len();
    let ptr = out.as_mut_ptr();
    let positions = _mm512_set_epi8(
        63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
        40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
        17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    );
    for (j, &w) in words.iter().enumerate() {
        let at = base.wrapping_add(64 * j as u32);
        if w == 0 {
            continue;
        }
        // The word's set bits' positions, as bytes, at the front of one
        // register; widened sixteen at a time.
        let bytes = _mm512_maskz_compress_epi8(w, positions);
        let base = _mm512_set1_epi32(at as i32);
        let c = w.count_ones() as usize;
        let quarter = |q: __m128i| _mm512_add_epi32(_mm512_cvtepu8_epi32(q), base);
        // SAFETY: each store of sixteen lanes starts below `n + c`, so it
        // ends before `len + total + 16`, in the room reserved.
        unsafe {
            _mm512_storeu_si512(ptr.add(n).cast(), quarter(_mm512_castsi512_si128(bytes)));
            if c > 16 {
                _mm512_storeu_si512(
                    ptr.add(n + 16).cast(),
                    quarter(_mm512_extracti32x4_epi32::<1>(bytes)),
                );
            }
            if c > 32 {
                _mm512_storeu_si512(
                    ptr.add(n + 32).cast(),
                    quarter(_mm512_extracti32x4_epi32::<2>(bytes)),
                );
            }
            if c > 48 {
                _mm512_storeu_si512(
                    ptr.add(n + 48).cast(),
                    quarter(_mm512_extracti32x4_epi32::<3>(bytes)),
                );
            }
        }
        n += c;
    }
    // SAFETY: the first `n` are initialised: the old ones, then exactly the
    // ids of the `total` set bits.
    unsafe { out.set_len(n) };
}

/// [`super::scalar::keep_set`], sixteen ids a step where they fall in two
/// adjacent 1024-bit pieces of the bitmap (four registers' loads): each
/// id's 32-bit word picked by `vpermt2d` from the piece's sixteen, shifted
/// to its bit, the ids whose bit is set compressed and stored after those
/// kept. Other steps (sparse ids, ids past the bitmap, a damaged list's
/// ids out of order) gather each id's 32-bit word, for the lanes whose
/// bit is in the bitmap (on Zen 4, half the time of the scalar tests,
/// which wait on a load an id, on census-income's sparse candidates); the
/// last few ids take the scalar test, a load and a shift an id.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn keep_set(bits: &[u8], base: u32, ids: &mut [u32]) -> usize {
    const PIECE: usize = 128;
    let n = ids.len();
    let pieces = bits.len() / PIECE;
    let (vbase, low5, one) = (
        _mm512_set1_epi32(base as i32),
        _mm512_set1_epi32(31),
        _mm512_set1_epi32(1),
    );
    // Bits in the bitmap, for the gather's lanes: every id's bit is in a
    // bitmap of all 2^32 (whose count does not fit a lane).
    let all = bits.len() as u64 * 8 > u64::from(u32::MAX);
    let vbits = _mm512_set1_epi32((bits.len() as u64 * 8) as i32);
    let t = bits.as_ptr();
    let (mut i, mut kept) = (0, 0);
    while i + 16 <= n {
        // Taken anew each step: the scalar steps borrow `ids` whole.
        let p = ids.as_mut_ptr();
        // SAFETY: `i + 16 <= n`: sixteen ids at `i` are readable; the
        // store of sixteen lanes at `kept <= i` stays within them, and
        // the ids after `i + 16` it does not reach are read later.
        // Pieces `c` (and `c + 1` if any lane is in it) are below
        // `pieces`: whole in `bits`. The gather reads the 32-bit word of
        // each lane's bit only where that bit is below `bits.len() * 8`
        // (a whole number of words): within `bits`.
        unsafe {
            let v = _mm512_loadu_si512(p.add(i).cast());
            let bit = _mm512_sub_epi32(v, vbase);
            let c = (*p.add(i)).wrapping_sub(base) >> 10;
            let piece = _mm512_srli_epi32::<10>(bit);
            let this = _mm512_cmpeq_epi32_mask(piece, _mm512_set1_epi32(c as i32));
            let next = _mm512_cmpeq_epi32_mask(piece, _mm512_set1_epi32(c.wrapping_add(1) as i32));
            let c = c as usize;
            if this | next != !0 || c >= pieces || (next != 0 && c + 1 >= pieces) {
                // Ids far apart: each id's 32-bit word gathered, for the
                // lanes whose bit is in the bitmap.
                let inside = if all {
                    !0
                } else {
                    _mm512_cmplt_epu32_mask(bit, vbits)
                };
                let w = _mm512_mask_i32gather_epi32::<4>(
                    _mm512_setzero_si512(),
                    inside,
                    _mm512_srli_epi32::<5>(bit),
                    t.cast(),
                );
                let set = _mm512_srlv_epi32(w, _mm512_and_si512(bit, low5));
                let hit = _mm512_mask_test_epi32_mask(inside, set, one);
                _mm512_storeu_si512(p.add(kept).cast(), _mm512_maskz_compress_epi32(hit, v));
                kept += hit.count_ones() as usize;
                i += 16;
                continue;
            }
            let at = t.add(c * PIECE);
            let word = _mm512_srli_epi32::<5>(bit);
            let mut w = _mm512_permutex2var_epi32(
                _mm512_loadu_si512(at.cast()),
                word,
                _mm512_loadu_si512(at.add(64).cast()),
            );
            if next != 0 {
                let w1 = _mm512_permutex2var_epi32(
                    _mm512_loadu_si512(at.add(PIECE).cast()),
                    word,
                    _mm512_loadu_si512(at.add(PIECE + 64).cast()),
                );
                w = _mm512_mask_mov_epi32(w, next, w1);
            }
            let set = _mm512_srlv_epi32(w, _mm512_and_si512(bit, low5));
            let hit = _mm512_test_epi32_mask(set, one);
            _mm512_storeu_si512(p.add(kept).cast(), _mm512_maskz_compress_epi32(hit, v));
            kept += hit.count_ones() as usize;
        }
        i += 16;
    }
    super::scalar::keep_set_at(bits, base, ids, i, n, kept)
}

/// Appends the ids of `runs` cut to ids `lo..hi`: eight ids, then sixteen
/// a store from a run's first (a run of a few ids, as most are, in one),
/// each store starting where the run before ended, with room for the last
/// store's lanes past the ids. Where a loop of an id a step (the scalar
/// one's, vectorised only for long runs) takes a step per id.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn expand(runs: &[[u32; 2]], lo: u64, hi: u64, out: &mut Vec<u32>) {
    let mut n = out.len();
    let mut ptr = out.as_mut_ptr();
    let iota = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    let sixteen = _mm512_set1_epi32(16);
    for [a, b] in clipped(runs, lo, hi) {
        let len = (b - a) as usize + 1;
        // Room for the run and the last store's lanes past it, grown as
        // the runs come (a pass to count them first costs as much as
        // writing them).
        if out.capacity() - n < len + 16 {
            // SAFETY: the first `n` are initialised (the old ones, then the
            // runs' ids so far), and kept by the move `reserve` makes.
            unsafe { out.set_len(n) };
            out.reserve(len + 16);
            ptr = out.as_mut_ptr();
        }
        let mut ids = _mm512_add_epi32(_mm512_set1_epi32(a as i32), iota);
        // SAFETY: (for each store) it starts below `n + len`, so its lanes
        // end before `n + len + 16`, within the capacity just checked.
        unsafe {
            // Most runs hold a few ids: eight lanes, a store of half the
            // cost of sixteen.
            _mm256_storeu_si256(ptr.add(n).cast(), _mm512_castsi512_si256(ids));
            let mut k = 8;
            while k < len {
                _mm512_storeu_si512(
                    ptr.add(n + k).cast(),
                    _mm512_add_epi32(ids, _mm512_set1_epi32(8)),
                );
                ids = _mm512_add_epi32(ids, sixteen);
                k += 16;
            }
        }
        n += len;
    }
    // SAFETY: the first `n` are initialised: the old ones, then exactly the
    // runs' ids, in order (each run's stores overwrite the lanes past the
    // run before).
    unsafe { out.set_len(n) };
}

/// Ids set in both bitmaps (of like lengths): the scalar loop, compiled
/// with POPCNT.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn and_count2(a: &[u8], b: &[u8]) -> usize {
    super::scalar::and_count2(a, b)
}

/// Ids a candidate is from the one before it, on average, beyond which
/// [`keep_few`] gallops: a scan takes a compare of sixteen ids a step, a
/// gallop a dependent load and compare a step, twice the steps of a
/// binary search over that distance.
const SCAN: usize = 512;

/// [`super::scalar::keep_few`], where the candidates are no more than
/// [`SCAN`] ids apart on average: each candidate's place found by compares
/// of sixteen ids a step from where the one before stopped (the steps
/// independent of each other's loads, where a gallop's wait on each);
/// else each gallops.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn keep_few(candidates: &[u32], ids: &[u32], room: &mut [u32]) -> usize {
    if ids.len() > SCAN * candidates.len() {
        return super::scalar::keep_few(candidates, ids, room);
    }
    // The closure takes this function's features (and inlines the scan).
    super::scalar::keep_few_by(candidates, ids, room, |mut j, c| {
        let cv = _mm512_set1_epi32(c as i32);
        while j + 16 <= ids.len() {
            // SAFETY: `j + 16 <= ids.len()`: sixteen ids from `j` are in
            // bounds.
            let v = unsafe { _mm512_loadu_si512(ids.as_ptr().add(j).cast()) };
            let below = _mm512_cmplt_epu32_mask(v, cv);
            // A step of sixteen where all are below, taken before the
            // compare is known (as the branch predicts), so that the next
            // load waits for no compare.
            if below == u16::MAX {
                j += 16;
                continue;
            }
            // Sorted ids: those below the candidate are the register's first
            // lanes (in a damaged list's, some other lanes: `j` stays in
            // bounds all the same).
            return j + below.count_ones() as usize;
        }
        j + ids[j..].iter().take_while(|&&x| x < c).count()
    })
}

/// [`super::scalar::keep_few16`] as [`keep_few`] does it: 32 offsets a
/// step, read in place.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn keep_few16(
    candidates: &[u32],
    first: u32,
    offsets: &[[u8; 2]],
    room: &mut [u32],
) -> usize {
    if offsets.len() > SCAN * candidates.len() {
        return super::scalar::keep_few16(candidates, first, offsets, room);
    }
    super::scalar::keep_few16_by(candidates, first, offsets, room, |mut j, off| {
        let ov = _mm512_set1_epi16(off as i16);
        while j + 32 <= offsets.len() {
            // SAFETY: `j + 32 <= offsets.len()`: 32 offsets (64 bytes) from
            // `j` are in bounds.
            let v = unsafe { _mm512_loadu_si512(offsets.as_ptr().add(j).cast()) };
            let below = _mm512_cmplt_epu16_mask(v, ov);
            if below == u32::MAX {
                j += 32;
                continue;
            }
            return j + below.count_ones() as usize;
        }
        j + offsets[j..]
            .iter()
            .take_while(|o| u16::from_le_bytes(**o) < off)
            .count()
    })
}

/// The AND of two bitmaps written out and counted: the scalar loop,
/// compiled with POPCNT.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn and2_into(a: &[u8], b: &[u8], out: &mut [u64]) -> usize {
    super::scalar::and2_into(a, b, out)
}

/// Ids set in a bitmap: the scalar loop, compiled with POPCNT.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn count(words: &[u64]) -> usize {
    super::scalar::count(words)
}

/// Whether runs rise from `before`, none touching the next or longer than
/// a window: the scalar loop, vectorised by the compiler for AVX-512 (its
/// baseline form, of 128-bit steps, took a tenth of a query on lists of
/// runs).
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn runs_fit(runs: &[[u32; 2]], before: u32) -> bool {
    super::scalar::runs_fit(runs, before)
}

/// Where [`and_runs`] stopped, and what it counted.
pub(super) struct RunsDone {
    /// Runs of `a` and of `b` passed: the intersection of what is left of
    /// each is the rest of the answer.
    pub(super) a: usize,
    pub(super) b: usize,
    /// Ids in the overlaps found (if counted).
    pub(super) ids: usize,
}

/// The intersection of two sorted lists of runs (first and last, cut to
/// ids `lo..=hi`), eight runs of each a step while both have eight, then
/// the block that ends first moves on (both, if they end together). A run
/// of the block that moves on ends before every later run of the other
/// list begins, so that each overlapping pair of runs meets once, and the
/// overlaps come out in order. Unsorted runs (a damaged list's) give
/// unspecified runs, never a read out of bounds.
///
/// `COUNT`: the overlaps' ids are counted, every run of one block against
/// every run of the other (two of `a`'s eight a register, against `b`'s
/// eight in each half), their lengths added under the mask of those that
/// overlap, with no branch. Else the overlaps are appended to `out`: each
/// of `a`'s eight, its first and last broadcast in pairs, against `b`'s
/// eight as they lie in memory (their pairs swapped to meet), two compares
/// a run (whether it starts by the end of each of `b`'s and ends at or
/// after its start), and a run that meets none, as most runs of posting
/// lists do, costs those alone; the overlaps of one that meets some are
/// compressed out in pairs. The second is the faster where overlaps are
/// written out, the first where they are counted.
///
/// # Safety
/// The CPU has every feature of `Isa::Avx512`.
#[target_feature(
    enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
)]
pub(super) unsafe fn and_runs<const COUNT: bool>(
    a: &[[u32; 2]],
    b: &[[u32; 2]],
    lo: u32,
    hi: u32,
    out: &mut Vec<[u32; 2]>,
) -> RunsDone {
    const FIRSTS: u16 = 0x5555;
    let (mut i, mut j, mut ids) = (0, 0, 0usize);
    // `b`'s firsts (lanes 0-7 and again 8-15), and lasts.
    let firsts = _mm512_set_epi32(14, 12, 10, 8, 6, 4, 2, 0, 14, 12, 10, 8, 6, 4, 2, 0);
    let lasts = _mm512_add_epi32(firsts, _mm512_set1_epi32(1));
    // `a`'s run 2k's first in lanes 0-7, run 2k + 1's in 8-15, from these
    // plus 4k.
    let pick = _mm512_set_epi32(2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0);
    let (vlo, vhi, one) = (
        _mm512_set1_epi32(lo as i32),
        _mm512_set1_epi32(hi as i32),
        _mm512_set1_epi32(1),
    );
    // Each lane adds at most four overlaps of a window (4096 ids) a step,
    // so that 2^12 steps keep the sum of the sixteen within 32 bits.
    let mut acc = _mm512_setzero_si512();
    let mut steps = 0u32;
    let (pa, pb) = (a.as_ptr(), b.as_ptr().cast::<u32>());
    while i + 8 <= a.len() && j + 8 <= b.len() {
        let (a_end, b_end) = (a[i + 7][1], b[j + 7][1]);
        if a_end >= b[j][0] && b_end >= a[i][0] {
            // SAFETY: `j + 8 <= b.len()`: the eight runs (sixteen u32)
            // at `j` are readable.
            let vb = unsafe { _mm512_loadu_si512(pb.add(2 * j).cast()) };
            // SAFETY: `i + 8 <= a.len()`: as for `b`.
            let va = unsafe { _mm512_loadu_si512(pa.add(i).cast()) };
            if COUNT {
                let bf = _mm512_max_epu32(_mm512_permutexvar_epi32(firsts, vb), vlo);
                let bl = _mm512_min_epu32(_mm512_permutexvar_epi32(lasts, vb), vhi);
                for k in 0..4 {
                    let first = _mm512_add_epi32(pick, _mm512_set1_epi32(4 * k));
                    let f = _mm512_max_epu32(_mm512_permutexvar_epi32(first, va), bf);
                    let l = _mm512_min_epu32(
                        _mm512_permutexvar_epi32(_mm512_add_epi32(first, one), va),
                        bl,
                    );
                    let m = _mm512_cmple_epu32_mask(f, l);
                    acc = _mm512_mask_add_epi32(
                        acc,
                        m,
                        acc,
                        _mm512_sub_epi32(_mm512_add_epi32(l, one), f),
                    );
                }
                steps += 1;
                if steps == 1 << 12 {
                    ids += _mm512_reduce_add_epi32(acc) as u32 as usize;
                    acc = _mm512_setzero_si512();
                    steps = 0;
                }
            } else {
                // Whether one of `a`'s eight runs meets one of `b`'s (uncut:
                // runs that meet none uncut meet none cut), 64 pairs in four
                // compares: where two lists' runs interleave, most steps
                // meet none, and pass on after these.
                let bf = _mm512_permutexvar_epi32(firsts, vb);
                let bl = _mm512_permutexvar_epi32(lasts, vb);
                let mut meet = 0;
                for k in 0..4 {
                    let first = _mm512_add_epi32(pick, _mm512_set1_epi32(4 * k));
                    let f = _mm512_permutexvar_epi32(first, va);
                    let l = _mm512_permutexvar_epi32(_mm512_add_epi32(first, one), va);
                    meet |= _mm512_cmple_epu32_mask(f, bl) & _mm512_cmple_epu32_mask(bf, l);
                }
                if meet == 0 {
                    i += if a_end <= b_end { 8 } else { 0 };
                    j += if b_end <= a_end { 8 } else { 0 };
                    continue;
                }
                // `b`'s runs cut to `lo..=hi`, firsts in the even lanes;
                // those left non-empty; their pairs swapped (lasts even).
                let vb = _mm512_mask_min_epu32(_mm512_max_epu32(vb, vlo), !FIRSTS, vb, vhi);
                let swapped = _mm512_rol_epi64::<32>(vb);
                let live = _mm512_mask_cmple_epu32_mask(FIRSTS, vb, swapped);
                for k in 0..8 {
                    // SAFETY: `i + k < i + 8 <= a.len()`.
                    let run = unsafe { *pa.add(i + k) };
                    let pair = u64::from(run[0]) | u64::from(run[1]) << 32;
                    let va = _mm512_set1_epi64(pair as i64);
                    // Even lanes: its first at most their lasts; odd lanes:
                    // their firsts at most its last.
                    let starts = _mm512_mask_cmple_epu32_mask(live, va, swapped);
                    let ends = _mm512_mask_cmple_epu32_mask(live << 1, swapped, va);
                    let m = starts & (ends >> 1);
                    if m == 0 {
                        continue;
                    }
                    // Each pair's larger first and smaller last.
                    let pairs = _mm512_mask_min_epu32(_mm512_max_epu32(va, vb), !FIRSTS, va, vb);
                    out.reserve(8);
                    // SAFETY: `out` has room for eight more runs (sixteen
                    // u32) past its length; the first runs stored, as many
                    // as `m` has bits, are the overlaps, set before the
                    // length takes them.
                    unsafe {
                        let at = out.as_mut_ptr().add(out.len());
                        let kept = _mm512_maskz_compress_epi32(m | m << 1, pairs);
                        _mm512_storeu_si512(at.cast(), kept);
                        out.set_len(out.len() + m.count_ones() as usize);
                    }
                }
            }
        }
        i += if a_end <= b_end { 8 } else { 0 };
        j += if b_end <= a_end { 8 } else { 0 };
    }
    if COUNT {
        ids += _mm512_reduce_add_epi32(acc) as u32 as usize;
    }
    RunsDone { a: i, b: j, ids }
}
