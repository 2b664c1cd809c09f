//! The optimal parser of levels 10 to 12 (liblz4's `lz4opt` strategy).
//!
//! From a position with a match, it prices every way of reaching each of
//! the next positions (up to [`OPT_NUM`] of them) in output bytes: a literal
//! costs its byte plus, past 14 pending literals, the extension bytes of the
//! literal length; a match costs a token, an offset and its length's
//! extension bytes. Walking forward, at each position whose price could
//! still improve a later one, it searches the longest match and relaxes the
//! price of every position that match (at every length from [`MINMATCH`])
//! reaches. When no match reaches further, the cheapest path to the last
//! position is traced back and emitted.
//!
//! `sufficient_len` ends the window early: a match longer than that is taken
//! at once. Level 12 (`full_update`) searches at more positions and for any
//! match, not only for ones that reach past the window's end. With
//! `favor_decompression_speed`, matches less than 8 bytes back are skipped,
//! lengths 19 to 36 are cut to 18 (one token, no extension byte), and a match
//! replaces a path only when it saves a byte.
#![forbid(unsafe_code)]

use super::search::{MatchFinder, Search};
use super::{LASTLITERALS, MFLIMIT, MINMATCH, Match, Out};
use crate::Error;

/// Positions priced at most per window (`LZ4_OPT_NUM`).
const OPT_NUM: usize = 1 << 12;
/// Positions after the furthest match priced as literals.
const TRAILING_LITERALS: usize = 3;

/// How one position is reached at the lowest price found so far.
#[derive(Debug, Clone, Copy, Default)]
struct Node {
    /// Output bytes up to here.
    price: u32,
    /// Offset of the match ending here (0 for a literal).
    off: u32,
    /// Length of that match, or 1 for a literal.
    mlen: u32,
    /// Literals pending before the match (or before here, for a literal).
    litlen: u32,
}

/// Output bytes of `litlen` literals with their length extension.
#[inline(always)]
fn literals_price(litlen: u32) -> u32 {
    if litlen >= 15 {
        litlen + 1 + (litlen - 15) / 255
    } else {
        litlen
    }
}

/// Output bytes of a sequence: `litlen` literals and a match of `mlen`.
#[inline(always)]
fn sequence_price(litlen: u32, mlen: u32) -> u32 {
    3 + literals_price(litlen) + match_extension_price(mlen)
}

/// Extension bytes of a match length of `mlen`.
#[inline(always)]
fn match_extension_price(mlen: u32) -> u32 {
    if mlen >= 15 + MINMATCH as u32 {
        1 + (mlen - 15 - MINMATCH as u32) / 255
    } else {
        0
    }
}

/// The parameters of one level.
#[derive(Debug, Clone, Copy)]
pub(super) struct Params {
    pub attempts: u32,
    pub sufficient_len: usize,
    pub full_update: bool,
    pub favor_decompression_speed: bool,
}

/// Compresses `data[start..]` (history before it) into `out`.
pub(super) fn compress(
    data: &[u8],
    start: usize,
    out: &mut Out<'_>,
    params: Params,
) -> Result<(), Error> {
    // The setting as a constant, so that its test in the chain walk, once
    // per candidate, folds away.
    if params.favor_decompression_speed {
        parse::<true>(data, start, out, params)
    } else {
        parse::<false>(data, start, out, params)
    }
}

/// The parse, favoring decompression speed when `FAVOR`.
fn parse<const FAVOR: bool>(
    data: &[u8],
    start: usize,
    out: &mut Out<'_>,
    params: Params,
) -> Result<(), Error> {
    let len = data.len();
    let mut anchor = start;
    if len - start < MFLIMIT + 1 {
        return out.last_literals(data, anchor);
    }
    let mflimit = len - MFLIMIT;
    let match_limit = len - LASTLITERALS;
    let sufficient_len = params.sufficient_len.min(OPT_NUM - 1);
    let favor = FAVOR;
    let search = Search {
        attempts: params.attempts,
        favor_decompression_speed: favor,
    };
    let mut finder = MatchFinder::new(data, 0);
    // A match longer than `min_len` at `at`, or `None`.
    let mut longer = |at: usize, min_len: usize| -> Option<Match> {
        let mut m = finder.wider_match::<true, true>(at, at, match_limit, min_len, search);
        if m.len <= min_len {
            return None;
        }
        if favor && m.len > 18 && m.len <= 36 {
            m.len = 18;
        }
        Some(m)
    };
    let mut opt = vec![Node::default(); OPT_NUM + TRAILING_LITERALS];
    let mut ip = start;

    while ip <= mflimit {
        let llen = (ip - anchor) as u32;
        let Some(first) = longer(ip, MINMATCH - 1) else {
            ip += 1;
            continue;
        };
        if first.len > sufficient_len {
            // Good enough: take it now.
            out.sequence(data, &mut anchor, &mut ip, first)?;
            continue;
        }

        // Prices of the first positions: literals, then the first match at
        // every length.
        for (r, node) in opt.iter_mut().enumerate().take(MINMATCH) {
            *node = Node {
                price: literals_price(llen + r as u32),
                off: 0,
                mlen: 1,
                litlen: llen + r as u32,
            };
        }
        for (mlen, node) in opt
            .iter_mut()
            .enumerate()
            .take(first.len + 1)
            .skip(MINMATCH)
        {
            *node = Node {
                price: sequence_price(llen, mlen as u32),
                off: first.off as u32,
                mlen: mlen as u32,
                litlen: llen,
            };
        }
        let mut last_pos = first.len;
        trailing_literals(&mut opt, last_pos);

        // The position and match that end the window: by default the
        // cheapest path to `last_pos`.
        let mut end: Option<(usize, Match)> = None;
        let mut cur = 1;
        while cur < last_pos {
            let at = ip + cur;
            if at > mflimit {
                break;
            }
            // Not worth searching where the next position costs no more.
            if params.full_update {
                if opt[cur + 1].price <= opt[cur].price
                    && opt[cur + MINMATCH].price < opt[cur].price + 3
                {
                    cur += 1;
                    continue;
                }
            } else if opt[cur + 1].price <= opt[cur].price {
                cur += 1;
                continue;
            }
            let min_len = if params.full_update {
                MINMATCH - 1
            } else {
                last_pos - cur
            };
            let Some(m) = longer(at, min_len) else {
                cur += 1;
                continue;
            };
            if m.len > sufficient_len || m.len + cur >= OPT_NUM {
                // Take it at once.
                last_pos = cur + 1;
                end = Some((cur, m));
                break;
            }
            // Literals after `cur`.
            let base = opt[cur];
            for litlen in 1..MINMATCH {
                let price = base.price.saturating_sub(literals_price(base.litlen))
                    + literals_price(base.litlen + litlen as u32);
                let pos = cur + litlen;
                if price < opt[pos].price {
                    opt[pos] = Node {
                        price,
                        off: 0,
                        mlen: 1,
                        litlen: base.litlen + litlen as u32,
                    };
                }
            }
            // The match at every length: the price before it and its
            // literals do not depend on the length, nor does the bound past
            // which a position is new (`last_pos` moves only after the last
            // length's test, if that length's node is written).
            let (ll, before) = if base.mlen == 1 {
                let ll = base.litlen;
                let before = if cur > ll as usize {
                    opt[cur - ll as usize].price
                } else {
                    0
                };
                (ll, before)
            } else {
                (0, base.price)
            };
            let short_price = before + sequence_price(ll, MINMATCH as u32);
            let relax = Relax {
                first: cur + MINMATCH,
                new_from: last_pos + TRAILING_LITERALS,
                short_price,
                favor: u32::from(favor),
                off: m.off as u32,
                litlen: ll,
            };
            if relax.run(&mut opt[cur + MINMATCH..=cur + m.len]) && cur + m.len > last_pos {
                last_pos = cur + m.len;
            }
            trailing_literals(&mut opt, last_pos);
            cur += 1;
        }

        let (mut cand, mut sel_len, mut sel_off) = match end {
            Some((cur, m)) => (cur, m.len as u32, m.off as u32),
            None => {
                let node = opt[last_pos];
                (last_pos - node.mlen as usize, node.mlen, node.off)
            }
        };
        // Trace the path back, storing at each step's start the step that
        // follows it.
        loop {
            let Node { mlen, off, .. } = opt[cand];
            opt[cand].mlen = sel_len;
            opt[cand].off = sel_off;
            (sel_len, sel_off) = (mlen, off);
            if mlen == 0 || mlen as usize > cand {
                break;
            }
            cand -= mlen as usize;
        }
        // Emit the path.
        let mut r = 0;
        while r < last_pos {
            let Node { mlen, off, .. } = opt[r];
            if mlen <= 1 {
                ip += 1;
                r += 1;
                continue;
            }
            r += mlen as usize;
            let m = Match {
                len: mlen as usize,
                off: off as usize,
                back: 0,
            };
            out.sequence(data, &mut anchor, &mut ip, m)?;
        }
    }
    out.last_literals(data, anchor)
}

/// A match found at one position, priced at every length it reaches.
struct Relax {
    /// The position its shortest length ([`MINMATCH`]) reaches.
    first: usize,
    /// Positions past this one are new: the match replaces what is there.
    new_from: usize,
    /// The price of the path through it at its shortest length.
    short_price: u32,
    /// 1 when a replacement must save a byte, else 0.
    favor: u32,
    /// Its offset.
    off: u32,
    /// Literals pending before it.
    litlen: u32,
}

impl Relax {
    /// Writes the match, at the length each node's position asks, into
    /// every node of `nodes` (the positions `first..`) that it reaches
    /// for less; returns whether it wrote the last one. Lengths up to 18
    /// share one price (no extension byte).
    #[inline(always)]
    fn run(&self, nodes: &mut [Node]) -> bool {
        let Some((last, nodes)) = nodes.split_last_mut() else {
            return false;
        };
        // Lengths MINMATCH to MINMATCH + 14: the token's nibble holds them.
        let short = nodes.len().min(15);
        let (head, tail) = nodes.split_at_mut(short);
        for (at, node) in head.iter_mut().enumerate() {
            self.offer(node, at, self.short_price);
        }
        for (i, node) in tail.iter_mut().enumerate() {
            let at = short + i;
            let price = self.short_price + match_extension_price((MINMATCH + at) as u32);
            self.offer(node, at, price);
        }
        let at = short + tail.len();
        let price = self.short_price + match_extension_price((MINMATCH + at) as u32);
        self.offer(last, at, price)
    }

    /// Puts the match's length `MINMATCH + at` at `node` if it is new or
    /// cheaper there; returns whether it did.
    #[inline(always)]
    fn offer(&self, node: &mut Node, at: usize, price: u32) -> bool {
        if self.first + at > self.new_from || price + self.favor <= node.price {
            *node = Node {
                price,
                off: self.off,
                mlen: (MINMATCH + at) as u32,
                litlen: self.litlen,
            };
            return true;
        }
        false
    }
}

/// Prices the [`TRAILING_LITERALS`] positions after `last_pos` as literals.
#[inline(always)]
fn trailing_literals(opt: &mut [Node], last_pos: usize) {
    for add in 1..=TRAILING_LITERALS {
        opt[last_pos + add] = Node {
            price: opt[last_pos].price + literals_price(add as u32),
            off: 0,
            mlen: 1,
            litlen: add as u32,
        };
    }
}
