//! The hash-chain parser of levels 3 to 9 (liblz4's `lz4hc` strategy).
//!
//! At each position it searches the longest match `M1`; then, before
//! emitting it, it searches near the end of `M1` (at `M1.end - 2`) for a
//! longer match `M2`, which may start earlier, eating into `M1`, and near the
//! end of `M2` for a longer `M3`. With three ascending matches in hand it
//! decides how much of each to keep:
//!
//! - no `M2` longer than `M1`: emit `M1`;
//! - `M2` starts less than 3 bytes after `M1`: drop `M1`, `M2` becomes `M1`;
//! - no `M3` longer than `M2`: emit `M1` (cut where `M2` starts) and `M2`;
//! - `M3` overlaps `M1` (less than 3 bytes of `M2` left between them): drop
//!   `M2`, `M3` becomes `M2`;
//! - otherwise emit `M1`, shift `M2, M3` down and search a new `M3`.
//!
//! Where two matches overlap and the first is short, the first keeps up to
//! [`OPTIMAL_ML`] bytes (all that a token's nibble holds) and the second
//! starts later: a long match shortened costs nothing, a short one
//! lengthened saves a sequence. Pattern analysis is on from 129 attempts
//! up (level 9), as in liblz4.
#![forbid(unsafe_code)]

use super::search::{MatchFinder, Search};
use super::{LASTLITERALS, MFLIMIT, MINMATCH, Match, Out};
use crate::Error;

/// The longest match that still fits the token's nibble (`OPTIMAL_ML`,
/// 15 + 3 = 18).
const OPTIMAL_ML: usize = 18;

/// Compresses `data[start..]` (history before it) into `out` with chains of
/// `attempts` candidates.
pub(super) fn compress(
    data: &[u8],
    start: usize,
    out: &mut Out<'_>,
    attempts: u32,
) -> Result<(), Error> {
    if attempts > 128 {
        parse::<true>(data, start, out, attempts)
    } else {
        parse::<false>(data, start, out, attempts)
    }
}

/// The parse, with pattern analysis when `PATTERN`.
fn parse<const PATTERN: bool>(
    data: &[u8],
    start: usize,
    out: &mut Out<'_>,
    attempts: u32,
) -> Result<(), Error> {
    let len = data.len();
    let mut anchor = start;
    if len - start < MFLIMIT + 1 {
        return out.last_literals(data, anchor);
    }
    let mflimit = len - MFLIMIT;
    let match_limit = len - LASTLITERALS;
    let search = Search {
        attempts,
        favor_decompression_speed: false,
    };
    let mut finder = MatchFinder::new(data, 0);
    let mut ip = start;
    let none = Match {
        len: 0,
        off: 0,
        back: 0,
    };

    'main: while ip <= mflimit {
        let mut m1 =
            finder.wider_match::<PATTERN, false>(ip, ip, match_limit, MINMATCH - 1, search);
        if m1.len < MINMATCH {
            ip += 1;
            continue;
        }
        // Kept in case the search skips too far ahead.
        let (mut start0, mut m0) = (ip, m1);
        'search2: loop {
            let (mut start2, mut m2);
            if ip + m1.len <= mflimit {
                start2 = ip + m1.len - 2;
                m2 = finder.wider_match::<PATTERN, false>(start2, ip, match_limit, m1.len, search);
                start2 -= m2.back;
            } else {
                (start2, m2) = (0, none);
            }
            if m2.len <= m1.len {
                out.sequence(data, &mut anchor, &mut ip, m1)?;
                continue 'main;
            }
            if start0 < ip && start2 < ip + m0.len {
                // M1 was skipped, and M0 reaches M2: restore M0.
                ip = start0;
                m1 = m0;
            }
            if start2 - ip < 3 {
                // M1 is too short to keep.
                ip = start2;
                m1 = m2;
                continue 'search2;
            }
            'search3: loop {
                if start2 - ip < OPTIMAL_ML {
                    let mut new_ml = m1.len.min(OPTIMAL_ML);
                    if ip + new_ml > start2 + m2.len - MINMATCH {
                        new_ml = start2 - ip + m2.len - MINMATCH;
                    }
                    if new_ml > start2 - ip {
                        let correction = new_ml - (start2 - ip);
                        start2 += correction;
                        m2.len -= correction;
                    }
                }
                let (mut start3, m3);
                if start2 + m2.len <= mflimit {
                    start3 = start2 + m2.len - 3;
                    m3 = finder.wider_match::<PATTERN, false>(
                        start3,
                        start2,
                        match_limit,
                        m2.len,
                        search,
                    );
                    start3 -= m3.back;
                } else {
                    (start3, m3) = (0, none);
                }
                if m3.len <= m2.len {
                    // No better M3: emit M1 (cut at M2) and M2.
                    if start2 < ip + m1.len {
                        m1.len = start2 - ip;
                    }
                    out.sequence(data, &mut anchor, &mut ip, m1)?;
                    ip = start2;
                    out.sequence(data, &mut anchor, &mut ip, m2)?;
                    continue 'main;
                }
                if start3 < ip + m1.len + 3 {
                    // M3 leaves too little of M2: drop M2.
                    if start3 >= ip + m1.len {
                        // M1 can go now; M3 becomes M1 and what is left of
                        // M2 the fallback.
                        if start2 < ip + m1.len {
                            let correction = ip + m1.len - start2;
                            start2 += correction;
                            m2.len = m2.len.saturating_sub(correction);
                            if m2.len < MINMATCH {
                                start2 = start3;
                                m2 = m3;
                            }
                        }
                        out.sequence(data, &mut anchor, &mut ip, m1)?;
                        ip = start3;
                        m1 = m3;
                        start0 = start2;
                        m0 = m2;
                        continue 'search2;
                    }
                    start2 = start3;
                    m2 = m3;
                    continue 'search3;
                }
                // Three ascending matches: emit M1, cut to fit.
                if start2 < ip + m1.len {
                    if start2 - ip < OPTIMAL_ML {
                        m1.len = m1.len.min(OPTIMAL_ML);
                        if ip + m1.len > start2 + m2.len - MINMATCH {
                            m1.len = start2 - ip + m2.len - MINMATCH;
                        }
                        if m1.len > start2 - ip {
                            let correction = m1.len - (start2 - ip);
                            start2 += correction;
                            m2.len -= correction;
                        }
                    } else {
                        m1.len = start2 - ip;
                    }
                }
                out.sequence(data, &mut anchor, &mut ip, m1)?;
                ip = start2;
                m1 = m2;
                start2 = start3;
                m2 = m3;
            }
        }
    }
    out.last_literals(data, anchor)
}
