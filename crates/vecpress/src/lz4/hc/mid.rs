//! Level 2: liblz4 1.10's "mid" strategy (`LZ4MID_compress`), between the
//! fast compressor and the hash chains.
//!
//! Two hash tables of 16 Ki positions, no chains: one keyed by 7 bytes
//! (long matches), one by 4. At each position the compressor tries the
//! long table's candidate, then the short one's; a short match is swapped
//! for a longer one found by the long table one byte later. A match is
//! extended backwards over pending literals, and a few positions at its
//! start and end are added to the tables (not every position, which is what
//! keeps it fast). Unmatched input is skipped faster and faster (one more
//! byte per 512 pending literals).
#![forbid(unsafe_code)]

use super::search::count;
use super::{LASTLITERALS, MAX_DISTANCE, MFLIMIT, MINMATCH, Match, Out};
use crate::Error;

/// log2 of the entries of each table (`LZ4MID_HASHLOG`).
const HASH_LOG: u32 = 14;
/// Bytes the long table's hash reads (`LZ4MID_HASHSIZE`; 7 of them count).
const HASH_SIZE: usize = 8;
/// Added to positions to make indices, so that 0 is no candidate.
const BASE: usize = 1 << 16;

#[inline(always)]
fn read_u64(data: &[u8], at: usize) -> u64 {
    let bytes: &[u8; 8] = data[at..at + 8].try_into().expect("8 bytes");
    u64::from_le_bytes(*bytes)
}

/// The two tables.
struct Tables {
    short: Box<[u32; 1 << HASH_LOG]>,
    long: Box<[u32; 1 << HASH_LOG]>,
}

impl Tables {
    fn new() -> Tables {
        let table = || {
            vec![0u32; 1 << HASH_LOG]
                .into_boxed_slice()
                .try_into()
                .expect("the table's size")
        };
        Tables {
            short: table(),
            long: table(),
        }
    }

    #[inline(always)]
    fn slot4(data: &[u8], at: usize) -> usize {
        let seq = crate::lz4::block::read_u32(data, at);
        (seq.wrapping_mul(2_654_435_761) >> (32 - HASH_LOG)) as usize
    }

    #[inline(always)]
    fn slot8(data: &[u8], at: usize) -> usize {
        const PRIME_7_BYTES: u64 = 58_295_818_150_454_627;
        ((read_u64(data, at) << 8).wrapping_mul(PRIME_7_BYTES) >> (64 - HASH_LOG)) as usize
    }

    /// Records position `at` (as index `idx`) in the short table.
    #[inline(always)]
    fn add4(&mut self, data: &[u8], at: usize, idx: usize) {
        self.short[Self::slot4(data, at)] = idx as u32;
    }

    /// Records position `at` (as index `idx`) in the long table.
    #[inline(always)]
    fn add8(&mut self, data: &[u8], at: usize, idx: usize) {
        self.long[Self::slot8(data, at)] = idx as u32;
    }

    /// Fills the tables from the history `data[..end]`, as liblz4 loads a
    /// dictionary at this level: every third position in both tables, and
    /// every position of the last 32 KiB in the long one.
    fn fill(&mut self, data: &[u8], end: usize) {
        if end <= HASH_SIZE {
            return;
        }
        let target = end - HASH_SIZE;
        let mut at = 0;
        while at < target {
            self.add4(data, at, at + BASE);
            self.add8(data, at + 1, at + 1 + BASE);
            at += 3;
        }
        let from = if end > 32 * 1024 + HASH_SIZE {
            target - 32 * 1024
        } else {
            0
        };
        for at in from..target {
            self.add8(data, at, at + BASE);
        }
    }
}

/// Compresses `data[start..]` (history before it) into `out`.
pub(super) fn compress(data: &[u8], start: usize, out: &mut Out<'_>) -> Result<(), Error> {
    let len = data.len();
    let mut anchor = start;
    if len - start < MFLIMIT + 1 {
        return out.last_literals(data, anchor);
    }
    let mflimit = len - MFLIMIT;
    let match_limit = len - LASTLITERALS;
    let ilimit = len - HASH_SIZE;
    let mut t = Tables::new();
    t.fill(data, start);
    let mut ip = start;

    while ip <= mflimit {
        let ip_idx = ip + BASE;
        let found = find(&mut t, data, &mut ip, ip_idx, mflimit, match_limit);
        let Some((mut len, dist)) = found else {
            // Skip faster over incompressible input.
            ip += 1 + ((ip - anchor) >> 9);
            continue;
        };
        // Extend backwards over pending literals.
        while ip > anchor && ip > dist && data[ip - 1] == data[ip - dist - 1] {
            ip -= 1;
            len += 1;
        }
        // The start of the match (keyed as liblz4 does, by the index of
        // the position first searched).
        t.add8(data, ip + 1, ip_idx + 1);
        t.add8(data, ip + 2, ip_idx + 2);
        t.add4(data, ip + 1, ip_idx + 1);
        let m = Match {
            len,
            off: dist,
            back: 0,
        };
        out.sequence(data, &mut anchor, &mut ip, m)?;
        // The end of the match.
        let end_idx = ip + BASE;
        if ip - 2 < ilimit {
            if ip > 5 {
                t.add8(data, ip - 5, end_idx - 5);
            }
            t.add8(data, ip - 3, end_idx - 3);
            t.add8(data, ip - 2, end_idx - 2);
            t.add4(data, ip - 2, end_idx - 2);
            t.add4(data, ip - 1, end_idx - 1);
        }
    }
    out.last_literals(data, anchor)
}

/// The match at `ip` (index `ip_idx`): the long table's candidate, else
/// the short table's (or the long table's at `ip + 1`, if longer, moving
/// `ip` there). Returns its length and distance.
#[inline(always)]
fn find(
    t: &mut Tables,
    data: &[u8],
    ip: &mut usize,
    ip_idx: usize,
    mflimit: usize,
    match_limit: usize,
) -> Option<(usize, usize)> {
    let p = *ip;
    let h8 = Tables::slot8(data, p);
    let pos8 = t.long[h8] as usize;
    t.long[h8] = ip_idx as u32;
    // A candidate 1 to MAX_DISTANCE back (0 and anything ahead wrap).
    if ip_idx.wrapping_sub(pos8).wrapping_sub(1) < MAX_DISTANCE {
        let len = count(data, p, pos8 - BASE, match_limit);
        if len >= MINMATCH {
            return Some((len, ip_idx - pos8));
        }
    }
    let h4 = Tables::slot4(data, p);
    let pos4 = t.short[h4] as usize;
    t.short[h4] = ip_idx as u32;
    if ip_idx.wrapping_sub(pos4).wrapping_sub(1) < MAX_DISTANCE {
        let len = count(data, p, pos4 - BASE, match_limit);
        if len >= MINMATCH {
            // Maybe a longer one starts one byte later.
            let h8 = Tables::slot8(data, p + 1);
            let pos8 = t.long[h8] as usize;
            let dist2 = (ip_idx + 1).wrapping_sub(pos8);
            if dist2.wrapping_sub(1) < MAX_DISTANCE && p < mflimit {
                let len2 = count(data, p + 1, pos8 - BASE, match_limit);
                if len2 > len {
                    t.long[h8] = (ip_idx + 1) as u32;
                    *ip = p + 1;
                    return Some((len2, dist2));
                }
            }
            return Some((len, ip_idx - pos4));
        }
    }
    None
}
