//! The encoder: each window's form chosen, and its blocks written.

use super::read::{BITMAP, GAPS, RUNS};
use super::{SHIFT, WINDOW_BYTES};
use crate::{Error, stream_vbyte};

/// A window is runs where they take fewer bytes than its gaps and less
/// than this fraction of its bitmap, so that a query decodes them faster
/// than it reads the bitmap; and a bitmap where it takes fewer bytes than
/// this many times its gaps, so that a query reads it in place where its
/// gaps would be decoded (dense lists of census data: a word of their
/// bitmap read at a time, for a tenth more bytes than their gaps).
const RUNS_UNDER: usize = 8;
const BITMAP_UNDER: usize = 2;

/// Ids a block of gaps holds, and runs a block of runs, before it ends
/// with the window it is in: a query decodes little more than this of a
/// list to reach an id, skipping the blocks before by their headers. A
/// block holds whole windows, so that in a window a list is in one block.
const GAPS_PER_BLOCK: usize = 1024;
const RUNS_PER_BLOCK: usize = 128;

/// `items` (sorted by `window`) cut into pieces of at least `min` items
/// (but the last), each ending where a window does.
fn whole_windows<T>(
    items: &[T],
    window: impl Fn(&T) -> u32,
    min: usize,
) -> impl Iterator<Item = &[T]> {
    let mut rest = items;
    core::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = min.min(rest.len());
        let w = window(&rest[end - 1]);
        end += rest[end..].partition_point(|x| window(x) == w);
        let (piece, after) = rest.split_at(end);
        rest = after;
        Some(piece)
    })
}

/// Writes a block of gaps or runs: its header (its kind and count `n`,
/// its last id's distance from `prev`, the id before it, and its byte
/// length), then the Stream VByte stream of `values` (ids, or runs' first
/// and last ids) as gaps from `prev`. Returns its last id.
fn put_block(out: &mut Vec<u8>, kind: u32, n: usize, values: &[u32], prev: u32) -> u32 {
    let data = stream_vbyte::encode_delta_to_vec(values, prev);
    let last = values[values.len() - 1];
    put_varint(out, kind | (n as u32) << 2);
    put_varint(out, last - prev);
    put_varint(out, data.len() as u32);
    out.extend_from_slice(&data);
    last
}

/// A block the encoder writes: ids `from..to`, of a kind.
struct Block {
    from: usize,
    to: usize,
    kind: u32,
}

/// Runs of consecutive ids, first and last, each in one window.
fn runs_of(ids: &[u32]) -> Vec<[u32; 2]> {
    let mut runs: Vec<[u32; 2]> = Vec::new();
    for &v in ids {
        match runs.last_mut() {
            Some(r) if r[1].wrapping_add(1) == v && v >> SHIFT == r[0] >> SHIFT => r[1] = v,
            _ => runs.push([v, v]),
        }
    }
    runs
}

/// Each window in the form that takes the fewest bytes, as
/// [`RUNS_UNDER`] and [`BITMAP_UNDER`] weigh them: 512 as a bitmap; as
/// gaps, a quarter byte of control and one to four data bytes each; as
/// runs, two such gaps each (to its first id, and from there to its last).
/// Adjacent bitmap windows make one block; windows of gaps, or of runs,
/// one block until a window of another form.
fn plan(values: &[u32]) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut i = 0;
    let mut prev = 0u32;
    while i < values.len() {
        let w = values[i] >> SHIFT;
        let end = i + values[i..].partition_point(|&v| v >> SHIFT == w);
        // Costs in quarters of a byte.
        let mut gaps = end - i;
        let (mut runs, mut start) = (0, 0u32);
        for (k, &v) in values[i..end].iter().enumerate() {
            gaps += 4 * stream_vbyte::value_len(v.wrapping_sub(prev));
            if k == 0 || v != prev.wrapping_add(1) {
                // Two gaps: to its first id, and to its last.
                runs += 2 + 4 * (stream_vbyte::value_len(v.wrapping_sub(prev)) + 1);
                start = v;
            } else if v - start == 256 {
                // The gap to its last id takes a second byte.
                runs += 4;
            }
            prev = v;
        }
        let bitmap = 4 * WINDOW_BYTES;
        // A bitmap is read in place, runs and gaps are decoded: bytes
        // are traded for that where a query feels it.
        let kind = if runs < gaps && runs * RUNS_UNDER < bitmap {
            RUNS
        } else if bitmap < gaps * BITMAP_UNDER {
            BITMAP
        } else {
            GAPS
        };
        match blocks.last_mut() {
            Some(b)
                if b.kind == kind
                    && (kind != BITMAP || values[b.to - 1] >> SHIFT == w.wrapping_sub(1)) =>
            {
                b.to = end
            }
            _ => blocks.push(Block {
                from: i,
                to: end,
                kind,
            }),
        }
        i = end;
    }
    blocks
}

pub(super) fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The work of [`super::encode_into`].
pub(super) fn encode_into(values: &[u32], out: &mut Vec<u8>) -> Result<usize, Error> {
    if let Some(i) = values.windows(2).position(|w| w[0] >= w[1]) {
        return Err(Error::InvalidArgument {
            what: "an id not above the one before",
            value: i + 1,
        });
    }
    let mut body = Vec::new();
    let mut count = 0u32;
    let (mut prev, mut next) = (0u32, 0u32);
    for b in plan(values) {
        let ids = &values[b.from..b.to];
        match b.kind {
            BITMAP => {
                let (first, last) = (ids[0] >> SHIFT, ids[ids.len() - 1] >> SHIFT);
                let n = last - first + 1;
                put_varint(&mut body, BITMAP | n << 2);
                put_varint(&mut body, first - next);
                let at = body.len();
                body.resize(at + n as usize * WINDOW_BYTES, 0);
                let base = first << SHIFT;
                for &v in ids {
                    let bit = (v - base) as usize;
                    body[at + bit / 8] |= 1 << (bit % 8);
                }
                count += 1;
                next = first + n;
                prev = ((u64::from(next) << SHIFT) - 1) as u32;
            }
            RUNS => {
                let runs = runs_of(ids);
                for part in whole_windows(&runs, |r| r[0] >> SHIFT, RUNS_PER_BLOCK) {
                    prev = put_block(&mut body, RUNS, part.len(), part.as_flattened(), prev);
                    count += 1;
                }
                next = (prev >> SHIFT) + 1;
            }
            _ => {
                for part in whole_windows(ids, |&v| v >> SHIFT, GAPS_PER_BLOCK) {
                    prev = put_block(&mut body, GAPS, part.len(), part, prev);
                    count += 1;
                }
                next = (prev >> SHIFT) + 1;
            }
        }
    }
    let start = out.len();
    put_varint(out, count);
    out.extend_from_slice(&body);
    Ok(out.len() - start)
}
