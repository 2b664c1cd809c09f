//! The compressor used with a dictionary: a hash-chain search with one step
//! of lazy matching, which finds the long matches a 64 KiB dictionary
//! offers.
//!
//! [`compress`](super::compress)'s single-slot table suits one pass over
//! fresh input, but a dictionary fills it 16 times over: most of the
//! dictionary would be forgotten before the input starts. Here every
//! position of the dictionary and the input is kept in a chain of earlier
//! positions with the same 4-byte hash (a head table of 2^16 entries, and
//! per position the distance to the previous one), and each position of
//! the input looks at up to [`DEPTH`] candidates, keeping the longest match.
//! Before taking a match, the next position is tried too, and wins if its
//! match is longer (lazy matching). The output is an ordinary LZ4 block.
#![forbid(unsafe_code)]

use super::compress::{Out, count, read_u32};
use super::{LASTLITERALS, MAX_DISTANCE, MFLIMIT, MINMATCH, max_compressed_len};
use crate::Error;

/// Candidates examined per position.
const DEPTH: usize = 256;
/// log2 of the number of chain heads.
const HEAD_LOG: u32 = 16;
/// No earlier position (in `head`).
const EMPTY: u32 = u32::MAX;

fn slot(data: &[u8], at: usize) -> usize {
    (read_u32(data, at).wrapping_mul(2_654_435_761) >> (32 - HEAD_LOG)) as usize
}

/// The chains over `data`, filled position by position.
struct Chains {
    head: Vec<u32>,
    /// Distance back to the previous position of the same hash (0: none).
    prev: Vec<u16>,
    /// Positions below this are in the chains.
    next: usize,
}

impl Chains {
    fn insert_to(&mut self, data: &[u8], end: usize) {
        while self.next < end {
            let at = self.next;
            let h = slot(data, at);
            let last = self.head[h];
            self.prev[at] = if last == EMPTY {
                0
            } else {
                u16::try_from(at - last as usize).unwrap_or(0)
            };
            self.head[h] = at as u32;
            self.next += 1;
        }
    }

    /// The longest match for `ip` (offset, length counted from MINMATCH),
    /// among the chain's first [`DEPTH`] candidates within reach.
    fn best(&self, data: &[u8], ip: usize, limit: usize) -> Option<(usize, usize)> {
        let seq = read_u32(data, ip);
        let mut cand = self.head[slot(data, ip)];
        let mut best: Option<(usize, usize)> = None;
        for _ in 0..DEPTH {
            if cand == EMPTY {
                break;
            }
            let m = cand as usize;
            if m >= ip || ip - m > MAX_DISTANCE {
                break;
            }
            if read_u32(data, m) == seq {
                let len = count(data, ip + MINMATCH, m + MINMATCH, limit);
                if best.is_none_or(|(_, l)| len > l) {
                    best = Some((ip - m, len));
                    if ip + MINMATCH + len == limit {
                        break;
                    }
                }
            }
            match self.prev[m] {
                0 => break,
                d => cand = (m - usize::from(d)) as u32,
            }
        }
        best
    }
}

/// Compresses `data[start..]` into `dst`, with matches reaching into
/// `data[..start]` (at most [`MAX_DISTANCE`] back); returns the block's
/// length.
pub(super) fn compress(data: &[u8], start: usize, dst: &mut [u8]) -> Result<usize, Error> {
    let len = data.len();
    let mut out = Out {
        dst,
        pos: 0,
        bound: max_compressed_len(len - start),
    };
    if len - start < MFLIMIT + 1 {
        out.last_literals(data, start)?;
        return Ok(out.pos);
    }
    // Matches start before this (MFLIMIT before the end) and stop at
    // `match_limit`, leaving LASTLITERALS bytes to be literals.
    let mflimit_plus_one = len - MFLIMIT + 1;
    let match_limit = len - LASTLITERALS;
    let first = start.saturating_sub(MAX_DISTANCE);
    let mut chains = Chains {
        head: vec![EMPTY; 1 << HEAD_LOG],
        prev: vec![0; len],
        next: first,
    };
    let (mut ip, mut anchor) = (start, start);
    while ip < mflimit_plus_one {
        chains.insert_to(data, ip);
        let Some((mut offset, mut mlen)) = chains.best(data, ip, match_limit) else {
            ip += 1;
            continue;
        };
        // Lazy: a longer match one byte on is worth a literal.
        if ip + 1 < mflimit_plus_one {
            chains.insert_to(data, ip + 1);
            if let Some((o, l)) = chains.best(data, ip + 1, match_limit)
                && l > mlen + 1
            {
                (ip, offset, mlen) = (ip + 1, o, l);
            }
        }
        // Extend backwards over pending literals (into the dictionary too).
        while ip > anchor && ip - offset > 0 && data[ip - 1] == data[ip - 1 - offset] {
            ip -= 1;
            mlen += 1;
        }
        let token_at = out.literals(data, anchor, ip)?;
        out.matched(token_at, offset, mlen)?;
        ip += MINMATCH + mlen;
        anchor = ip;
    }
    out.last_literals(data, anchor)?;
    Ok(out.pos)
}
