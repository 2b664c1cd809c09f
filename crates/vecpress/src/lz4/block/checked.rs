//! The checked decoder: one sequence at a time, every length and offset
//! tested before use. It is the reference the fast loops are tested against,
//! it finishes every block they leave (the tail, where wide copies no longer
//! fit), and it builds every error.
#![forbid(unsafe_code)]

use super::MINMATCH;
use crate::{Error, Unit};

/// One parsed sequence: where its literals are, and its match, if any.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sequence {
    /// Input offset of the token.
    pub token_at: usize,
    /// Input offset of the first literal.
    pub lit_at: usize,
    /// Number of literals.
    pub lit_len: usize,
    /// The match: (input offset of its offset field, offset, length); `None`
    /// for the last sequence, which ends the block.
    pub matched: Option<(usize, usize, usize)>,
    /// Input offset of the next token.
    pub next: usize,
}

/// Reads a length extension (bytes of 255 then one below) starting at `at`;
/// returns the sum and the offset after it.
fn extension(src: &[u8], mut at: usize, token_at: usize) -> Result<(usize, usize), Error> {
    let mut sum = 0usize;
    loop {
        let Some(&b) = src.get(at) else {
            return Err(Error::Truncated {
                offset: token_at,
                needed: 1,
                unit: Unit::Bytes,
            });
        };
        at += 1;
        sum = sum.saturating_add(usize::from(b));
        if b != 255 {
            return Ok((sum, at));
        }
    }
}

/// Parses the sequence whose token is at `ip`, checking that it stays inside
/// `src` (not yet that its match is legal: that depends on the output).
pub(super) fn parse(src: &[u8], ip: usize) -> Result<Sequence, Error> {
    let Some(&token) = src.get(ip) else {
        return Err(Error::Truncated {
            offset: ip,
            needed: 1,
            unit: Unit::Bytes,
        });
    };
    let mut at = ip + 1;
    let mut lit_len = usize::from(token >> 4);
    if lit_len == 15 {
        let (ext, next) = extension(src, at, ip)?;
        lit_len = lit_len.saturating_add(ext);
        at = next;
    }
    let lit_at = at;
    let remaining = src.len() - lit_at;
    if lit_len > remaining {
        return Err(Error::Truncated {
            offset: ip,
            needed: lit_len - remaining,
            unit: Unit::Bytes,
        });
    }
    at += lit_len;
    if at == src.len() {
        return Ok(Sequence {
            token_at: ip,
            lit_at,
            lit_len,
            matched: None,
            next: at,
        });
    }
    let Some(field) = src.get(at..at + 2) else {
        return Err(Error::Truncated {
            offset: ip,
            needed: at + 2 - src.len(),
            unit: Unit::Bytes,
        });
    };
    let offset = usize::from(u16::from_le_bytes([field[0], field[1]]));
    let offset_at = at;
    if offset == 0 {
        return Err(Error::Corrupt {
            offset: offset_at,
            what: "match offset is zero",
        });
    }
    at += 2;
    let mut match_len = usize::from(token & 15);
    if match_len == 15 {
        let (ext, next) = extension(src, at, ip)?;
        match_len = match_len.saturating_add(ext);
        at = next;
    }
    Ok(Sequence {
        token_at: ip,
        lit_at,
        lit_len,
        matched: Some((offset_at, offset, match_len.saturating_add(MINMATCH))),
        next: at,
    })
}

/// What one checked step leaves.
pub(super) enum Step {
    /// The block ended; the output ends here.
    Done(usize),
    /// Another sequence starts at input offset `.0`, output offset `.1`.
    More(usize, usize),
}

fn overrun(at: usize, what: &'static str) -> Error {
    Error::Corrupt { offset: at, what }
}

/// Decodes the sequence at `ip` into `buf` at `op`. `buf[..op]` is the
/// history a match may copy from; before it, logically, lies the tail of
/// `dict` (empty when there is none).
pub(super) fn step(
    src: &[u8],
    ip: usize,
    buf: &mut [u8],
    op: usize,
    dict: &[u8],
) -> Result<Step, Error> {
    let seq = parse(src, ip)?;
    if seq.lit_len > buf.len() - op {
        return Err(overrun(seq.token_at, "literals overrun the output"));
    }
    buf[op..op + seq.lit_len].copy_from_slice(&src[seq.lit_at..seq.lit_at + seq.lit_len]);
    let mut op = op + seq.lit_len;
    let Some((offset_at, offset, len)) = seq.matched else {
        return Ok(Step::Done(op));
    };
    if offset > op + dict.len() {
        return Err(overrun(
            offset_at,
            "match offset reaches before the start of the output",
        ));
    }
    if len > buf.len() - op {
        return Err(overrun(seq.token_at, "match overruns the output"));
    }
    let mut len = len;
    if offset > op {
        // The match starts in the dictionary, and may run on into `buf`.
        let from = dict.len() - (offset - op);
        let n = len.min(dict.len() - from);
        buf[op..op + n].copy_from_slice(&dict[from..from + n]);
        op += n;
        len -= n;
        if len == 0 {
            return Ok(Step::More(seq.next, op));
        }
    }
    let from = op - offset;
    // A match closer than its length repeats its first `offset` bytes: each
    // copy takes everything from `from` up to where the output has got to,
    // a whole number of repeats, so the copies double (log2(len / offset)
    // of them, not one per byte: the fast loops leave this path the long
    // runs that end near the block's end, which the format requires).
    let mut done = 0;
    while done < len {
        let n = (op + done - from).min(len - done);
        buf.copy_within(from..from + n, op + done);
        done += n;
    }
    Ok(Step::More(seq.next, op + len))
}

/// Checks a whole block without writing output; returns its decompressed
/// size. `history` is how many bytes before the output a match may reach.
pub(super) fn validate(src: &[u8], history: usize) -> Result<usize, Error> {
    let mut ip = 0;
    let mut produced = 0usize;
    loop {
        let seq = parse(src, ip)?;
        produced = produced.saturating_add(seq.lit_len);
        let Some((offset_at, offset, len)) = seq.matched else {
            return Ok(produced);
        };
        if offset > produced.saturating_add(history) {
            return Err(overrun(
                offset_at,
                "match offset reaches before the start of the output",
            ));
        }
        produced = produced.saturating_add(len);
        ip = seq.next;
    }
}
