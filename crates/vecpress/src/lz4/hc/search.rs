//! The match finder of the high-compression levels: a hash table of the
//! last position of each 4-byte hash, and a chain table linking every
//! position of the window to the previous one with the same hash.
//!
//! Positions are kept as *indices*, the position plus [`BASE`], so that the
//! zeroed hash table means "no candidate" (index 0 lies below every window)
//! and no subtraction on a chain can wrap. The chain table holds 16-bit
//! distances, indexed by the low 16 bits of the index: a ring over the
//! 64 KiB window, each distance capped at [`MAX_DISTANCE`].
//!
//! [`MatchFinder::wider_match`] walks the chain of a position, newest
//! candidate first, for at most `attempts` candidates, keeping the longest
//! match; it may also extend a match backwards, down to a caller-given low
//! limit (the hash-chain parser uses this to let a later match eat into an
//! earlier one). Two refinements of liblz4 make deep searches pay:
//!
//! - *Chain swap*: once a match of length `L` is found, any position inside
//!   it has a chain that must hold the next candidate too; the walk
//!   continues along whichever of those chains jumps furthest back,
//!   skipping candidates that cannot beat `L`.
//! - *Pattern analysis*: on a run of one repeated byte, consecutive positions
//!   chain to each other one by one; instead of walking the run a byte at a
//!   time, the finder measures the run and jumps to its far end (or to
//!   where the whole run of the source fits).
#![forbid(unsafe_code)]

use super::{MAX_DISTANCE, MINMATCH, Match};
use crate::lz4::block::read_u32;

/// log2 of the number of hash-table entries (`LZ4HC_HASH_LOG`).
const HASH_LOG: u32 = 15;
/// Entries of the chain table: one per position of a 64 KiB window.
const CHAIN_SIZE: usize = 1 << 16;
const CHAIN_MASK: usize = CHAIN_SIZE - 1;
/// Added to a position to make its index; above every distance, so index 0
/// is never a candidate.
const BASE: usize = 1 << 16;

#[inline(always)]
fn read_u16(data: &[u8], at: usize) -> u16 {
    let bytes: &[u8; 2] = data[at..at + 2].try_into().expect("2 bytes");
    u16::from_le_bytes(*bytes)
}

#[inline(always)]
fn hash4(seq: u32) -> usize {
    (seq.wrapping_mul(2_654_435_761) >> (32 - HASH_LOG)) as usize
}

/// How many bytes from `p` equal those from `m` (`m < p`), stopping at
/// `limit`: 8 bytes at a time, the first difference found by its lowest set
/// bit.
#[inline(always)]
pub(super) fn count(data: &[u8], p: usize, m: usize, limit: usize) -> usize {
    if p >= limit {
        return 0;
    }
    let a = &data[p..limit];
    let b = &data[m..m + a.len()];
    let mut n = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let x = u64::from_le_bytes(x.try_into().expect("8 bytes"));
        let y = u64::from_le_bytes(y.try_into().expect("8 bytes"));
        let diff = x ^ y;
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + a[n..]
        .iter()
        .zip(&b[n..])
        .take_while(|(x, y)| x == y)
        .count()
}

/// How many bytes before `p` equal those before `m` (`m < p`), going back at
/// most to `low` on the `p` side and to 0 on the `m` side.
#[inline(always)]
fn count_back(data: &[u8], p: usize, m: usize, low: usize) -> usize {
    let max = (p - low).min(m);
    let mut n = 0;
    while n + 4 <= max {
        let diff = read_u32(data, p - n - 4) ^ read_u32(data, m - n - 4);
        if diff != 0 {
            return n + (diff.leading_zeros() / 8) as usize;
        }
        n += 4;
    }
    while n < max && data[p - n - 1] == data[m - n - 1] {
        n += 1;
    }
    n
}

/// The length of the run of `byte` starting at `p`, stopping at `limit`.
#[inline(always)]
fn run_forward(data: &[u8], p: usize, limit: usize, byte: u8) -> usize {
    if p >= limit {
        return 0;
    }
    let a = &data[p..limit];
    let pattern = u64::from_ne_bytes([byte; 8]);
    let mut n = 0;
    for x in a.chunks_exact(8) {
        let diff = u64::from_le_bytes(x.try_into().expect("8 bytes")) ^ pattern;
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + a[n..].iter().take_while(|&&x| x == byte).count()
}

/// The length of the run of `byte` ending just before `p`, going back at
/// most to `low`: 8 bytes at a time from the end, because pattern analysis
/// measures long runs (a byte-by-byte loop here costs a fifth of level 12's
/// instructions on Silesia's `mr`).
#[inline(always)]
fn run_backward(data: &[u8], p: usize, low: usize, byte: u8) -> usize {
    let a = &data[low..p];
    let pattern = u64::from_ne_bytes([byte; 8]);
    let mut n = 0;
    for x in a.rchunks_exact(8) {
        let diff = u64::from_le_bytes(x.try_into().expect("8 bytes")) ^ pattern;
        if diff != 0 {
            return n + (diff.leading_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + a[..a.len() - n]
        .iter()
        .rev()
        .take_while(|&&x| x == byte)
        .count()
}

/// How deep the search at one position goes, and what it skips.
#[derive(Debug, Clone, Copy)]
pub(super) struct Search {
    /// Candidates to try at most.
    pub attempts: u32,
    /// Skip matches less than 8 bytes back (they decode slowly).
    pub favor_decompression_speed: bool,
}

/// Whether the source position is known to start a run of one byte.
#[derive(PartialEq, Eq, Clone, Copy)]
enum Repeat {
    Untested,
    Not,
    Confirmed,
}

/// The hash and chain tables over `data`; positions below the first one
/// searched (the history of a prefix or dictionary) are inserted lazily,
/// like every other position, when a search needs them.
pub(super) struct MatchFinder<'a> {
    data: &'a [u8],
    /// Fixed sizes, so that masked and shifted indices need no bounds
    /// check.
    hash: Box<[u32; 1 << HASH_LOG]>,
    chain: Box<[u16; CHAIN_SIZE]>,
    /// The next position to insert.
    next: usize,
}

impl<'a> MatchFinder<'a> {
    /// A finder over `data` whose window starts at `window_start` (no match
    /// reaches before it).
    pub(super) fn new(data: &'a [u8], window_start: usize) -> MatchFinder<'a> {
        MatchFinder {
            data,
            hash: vec![0; 1 << HASH_LOG]
                .into_boxed_slice()
                .try_into()
                .expect("the hash table's size"),
            chain: vec![u16::MAX; CHAIN_SIZE]
                .into_boxed_slice()
                .try_into()
                .expect("the chain table's size"),
            next: window_start,
        }
    }

    /// Inserts every position from the last one inserted up to `ip`
    /// (excluded).
    #[inline(always)]
    fn insert(&mut self, ip: usize) {
        let data = self.data;
        let p = self.next;
        if p < ip {
            // One bounds check for the run: each window is the 4 bytes at
            // a position.
            for (k, w) in data[p..ip + 3].windows(4).enumerate() {
                let h = hash4(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
                let idx = p + k + BASE;
                let delta = (idx - self.hash[h] as usize).min(MAX_DISTANCE);
                self.chain[idx & CHAIN_MASK] = delta as u16;
                self.hash[h] = idx as u32;
            }
        }
        self.next = self.next.max(ip);
    }

    #[inline(always)]
    fn delta(&self, idx: usize) -> usize {
        usize::from(self.chain[idx & CHAIN_MASK])
    }

    /// The longest match for `ip` longer than `longest`, of at most
    /// `high_limit - ip` bytes forward, which may start before `ip` (down
    /// to `low_limit`): `back` tells how far before, and `len` counts from
    /// the match's real start. Returns `len == longest` (and no offset)
    /// when nothing longer was found.
    ///
    /// `PATTERN` turns pattern analysis on (jumps over runs of one repeated
    /// byte), `SWAP` chain swapping (the walk follows the furthest-reaching
    /// chain inside a found match; only with `low_limit == ip`).
    ///
    /// `ip` lies at least [`MINMATCH`] bytes before the end of the data, and
    /// `low_limit + longest < high_limit`.
    #[inline(always)]
    pub(super) fn wider_match<const PATTERN: bool, const SWAP: bool>(
        &mut self,
        ip: usize,
        low_limit: usize,
        high_limit: usize,
        mut longest: usize,
        search: Search,
    ) -> Match {
        self.insert(ip);
        let data = self.data;
        let ip_idx = ip + BASE;
        // The window starts at `next`'s original value or 64 KiB back.
        let lowest = (ip_idx - MAX_DISTANCE).max(BASE);
        let look_back = ip - low_limit;
        let pattern = read_u32(data, ip);
        let mut mi = self.hash[hash4(pattern)] as usize;
        let mut attempts = search.attempts;
        let mut chain_pos = 0;
        let mut repeat = Repeat::Untested;
        let mut src_run = 0;
        let mut found = Match {
            len: longest,
            off: 0,
            back: 0,
        };
        // `low_limit + longest` and one byte after it: what a candidate
        // must match to beat `longest`.
        let mut probe = read_u16(data, low_limit + longest - 1);
        while mi >= lowest && attempts > 0 {
            attempts -= 1;
            let mut match_len = 0;
            let m = mi - BASE;
            if !(search.favor_decompression_speed && ip_idx - mi < 8) {
                let worth = match (m + longest - 1).checked_sub(look_back) {
                    Some(at) => read_u16(data, at) == probe,
                    None => true,
                };
                if worth && read_u32(data, m) == pattern {
                    let back = if look_back > 0 {
                        count_back(data, ip, m, low_limit)
                    } else {
                        0
                    };
                    match_len =
                        MINMATCH + count(data, ip + MINMATCH, m + MINMATCH, high_limit) + back;
                    if match_len > longest {
                        longest = match_len;
                        found = Match {
                            len: longest,
                            off: ip - m,
                            back,
                        };
                        if low_limit + longest + 1 < data.len() {
                            probe = read_u16(data, low_limit + longest - 1);
                        }
                    }
                }
            }

            if SWAP && match_len == longest && m + longest <= ip {
                // Follow the chain, among those inside the match, that jumps
                // furthest back.
                const TRIGGER: u32 = 4;
                let mut furthest = 1;
                let end = longest - MINMATCH + 1;
                let mut accel = 1u32 << TRIGGER;
                let mut pos = 0;
                while pos < end {
                    let d = self.delta(mi + pos);
                    let step = (accel >> TRIGGER) as usize;
                    accel += 1;
                    if d > furthest {
                        furthest = d;
                        chain_pos = pos;
                        accel = 1 << TRIGGER;
                    }
                    pos += step;
                }
                if furthest > 1 {
                    mi -= furthest;
                    continue;
                }
            }

            let next = self.delta(mi);
            if PATTERN && next == 1 && chain_pos == 0 {
                let cand = mi - 1;
                let byte = pattern as u8;
                if repeat == Repeat::Untested {
                    if pattern == u32::from_ne_bytes([byte; 4]) {
                        repeat = Repeat::Confirmed;
                        src_run = 4 + run_forward(data, ip + 4, high_limit, byte);
                    } else {
                        repeat = Repeat::Not;
                    }
                }
                if repeat == Repeat::Confirmed
                    && cand >= lowest
                    && read_u32(data, cand - BASE) == pattern
                {
                    let c = cand - BASE;
                    let forward = 4 + run_forward(data, c + 4, high_limit, byte);
                    let back = run_backward(data, c, lowest - BASE, byte);
                    let segment = back + forward;
                    if segment >= src_run && forward <= src_run {
                        // The whole source run fits: align its end.
                        mi = cand + forward - src_run;
                    } else {
                        // The furthest start in this segment.
                        mi = cand - back;
                        if look_back == 0 {
                            let max_len = segment.min(src_run);
                            if longest < max_len {
                                if ip_idx - mi > MAX_DISTANCE {
                                    break;
                                }
                                longest = max_len;
                                found = Match {
                                    len: longest,
                                    off: ip_idx - mi,
                                    back: 0,
                                };
                                if low_limit + longest + 1 < data.len() {
                                    probe = read_u16(data, low_limit + longest - 1);
                                }
                            }
                            mi -= self.delta(mi);
                        }
                    }
                    continue;
                }
            }
            mi -= self.delta(mi + chain_pos);
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::{count, count_back, run_backward, run_forward};

    /// Bytes with runs of every length up to 40 between single other bytes.
    fn runs() -> Vec<u8> {
        let mut data = Vec::new();
        for len in 0..40 {
            data.push(b'x');
            data.extend(std::iter::repeat_n(b'a', len));
        }
        data.push(b'x');
        data
    }

    #[test]
    fn run_lengths_match_a_byte_loop() {
        let data = runs();
        for p in 0..=data.len() {
            for low in (0..=p).step_by(3) {
                let slow = data[low..p]
                    .iter()
                    .rev()
                    .take_while(|&&b| b == b'a')
                    .count();
                assert_eq!(run_backward(&data, p, low, b'a'), slow, "back {p} {low}");
            }
            for limit in (p..=data.len()).step_by(5) {
                let slow = data[p..limit].iter().take_while(|&&b| b == b'a').count();
                assert_eq!(run_forward(&data, p, limit, b'a'), slow, "fwd {p} {limit}");
            }
        }
    }

    #[test]
    fn match_lengths_match_a_byte_loop() {
        let data: Vec<u8> = runs().into_iter().chain(runs()).collect();
        let half = data.len() / 2;
        for p in half..data.len() {
            for m in (0..p).step_by(7) {
                let slow = (0..data.len() - p)
                    .take_while(|&k| data[p + k] == data[m + k])
                    .count();
                assert_eq!(count(&data, p, m, data.len()), slow, "fwd {p} {m}");
                for low in [0, half, p] {
                    let max = (p - low).min(m);
                    let slow = (0..max)
                        .take_while(|&k| data[p - 1 - k] == data[m - 1 - k])
                        .count();
                    assert_eq!(count_back(&data, p, m, low), slow, "back {p} {m} {low}");
                }
            }
        }
    }
}
