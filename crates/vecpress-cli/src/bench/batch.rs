//! `vecpress bench --queries`, its second table: many delta-coded Stream
//! VByte lists decoded, by one call of
//! [`stream_vbyte::decode_delta_lists`] for them all, against the same
//! lists decoded one after another by vecpress and by the C library.
//!
//! Two batches: every list of the file, and the lists of each query drawn
//! for the first table (one call a query). The lists lie one after another
//! in one buffer, as in an index file, and every contestant decodes them
//! into one output array, list after list; a pass times each contestant in
//! turn, and the median of `--reps` passes gives values per second. A copy
//! of the decoded values into the same array, and a fill of it, are timed
//! beside them.
#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use vecpress::stream_vbyte;

use super::peers::{self, Peer};

/// The last rows: the decoded values copied (`copy_from_slice`, a memcpy)
/// into the same array, and the array filled with one value: the bytes
/// every decoder writes, the first read from four bytes a value where the
/// decoders read one and a quarter or so, the second read from none. Where
/// the lists outgrow the caches, a decoder can go no faster than the fill.
const COPY: &str = "memcpy of the values decoded";
const FILL: &str = "fill of their bytes";

/// The lists in one buffer.
pub struct Stored {
    pub bytes: Vec<u8>,
    /// Each list's `(start, count)` in `bytes`.
    pub spans: Vec<(usize, usize)>,
    /// Every list's values, one after another.
    values: Vec<u32>,
    /// Where each list's values start in `values`.
    firsts: Vec<usize>,
}

impl Stored {
    pub fn new<'a>(lists: impl Iterator<Item = &'a [u32]>) -> Stored {
        let (mut bytes, mut spans, mut values) = (Vec::new(), Vec::new(), Vec::new());
        let mut firsts = Vec::new();
        let mut longest = 0;
        for list in lists {
            spans.push((bytes.len(), list.len()));
            firsts.push(values.len());
            bytes.extend(stream_vbyte::encode_delta_to_vec(list, 0));
            values.extend_from_slice(list);
            longest = longest.max(list.len());
        }
        // The C library's decoder is given the rest of the buffer after its
        // list; room for a peer that reads ahead of its last list.
        bytes.resize(bytes.len() + peers::min_input_len(longest), 0);
        Stored {
            bytes,
            spans,
            values,
            firsts,
        }
    }
}

/// A batch: the `(start, count)` of each of its lists in the buffer.
type Batch = Vec<(usize, usize)>;

/// Decodes batches of lists one after another into one array.
type Decode<'a> = Box<dyn FnMut(&[Batch], &mut [u32]) -> Result<()> + 'a>;

/// Prints the table: every list of `stored` in one batch, and a batch for
/// the lists of each of `queries` (indices of lists).
pub fn run(
    stored: &Stored,
    queries: &[Vec<usize>],
    reps: u32,
    c_peer: Option<&dyn Peer>,
) -> Result<()> {
    let bytes = &stored.bytes[..];
    let every: Vec<Vec<usize>> = vec![(0..stored.spans.len()).collect()];
    let mut contestants: Vec<(&str, Decode)> = vec![
        (
            "stream-vbyte-delta, lists in one call",
            Box::new(move |batches, out| {
                let mut at = 0;
                for b in batches {
                    at += stream_vbyte::decode_delta_lists(bytes, b, &mut out[at..])?;
                }
                Ok(())
            }),
        ),
        (
            "stream-vbyte-delta, list after list",
            Box::new(move |batches, out| {
                let mut at = 0;
                for b in batches {
                    for &(start, n) in b {
                        stream_vbyte::decode_delta(&bytes[start..], &mut out[at..at + n], 0)?;
                        at += n;
                    }
                }
                Ok(())
            }),
        ),
    ];
    if let Some(c) = c_peer {
        contestants.push((
            "peer:streamvbyte-c, list after list",
            Box::new(move |batches, out| {
                let mut at = 0;
                for b in batches {
                    for &(start, n) in b {
                        if c.decode_delta(&bytes[start..], &mut out[at..at + n])
                            .is_none()
                        {
                            bail!("the C library refused a list");
                        }
                        at += n;
                    }
                }
                Ok(())
            }),
        ));
    }

    let columns = [("every list", &every[..]), ("each query's lists", queries)];
    // The contestants, then the copy and the fill of the values they write.
    let names: Vec<&str> = contestants
        .iter()
        .map(|c| c.0)
        .chain([COPY, FILL])
        .collect();
    let all = names.len();
    let mut medians = vec![Vec::new(); all];
    for (column, lists) in columns {
        let batches: Vec<Batch> = lists
            .iter()
            .map(|b| b.iter().map(|&i| stored.spans[i]).collect())
            .collect();
        let want: Vec<u32> = lists
            .iter()
            .flatten()
            .flat_map(|&i| &stored.values[stored.firsts[i]..][..stored.spans[i].1])
            .copied()
            .collect();
        let n = want.len();
        let mut out = vec![0u32; n];
        let mut times = vec![Vec::new(); all];
        for pass in 0..reps.max(1) as usize {
            for j in 0..all {
                let c = (j + pass) % all;
                out.fill(0);
                let start = Instant::now();
                let fill = c == all - 1;
                match contestants.get_mut(c) {
                    Some((_, decode)) => decode(&batches, &mut out)?,
                    None if fill => out.fill(u32::MAX),
                    None => out.copy_from_slice(&want),
                }
                times[c].push(start.elapsed());
                if !fill && out != want {
                    bail!("{}: decoded {column} otherwise", names[c]);
                }
            }
        }
        for (c, mut t) in times.into_iter().enumerate() {
            t.sort();
            medians[c].push((n, t[t.len() / 2]));
        }
    }

    println!(
        "\n| {:<38} | {:>10} | {:>18} |",
        "million values per second", columns[0].0, columns[1].0
    );
    println!("|---|---:|---:|");
    let speed = |(n, t): (usize, Duration)| n as f64 / t.as_secs_f64() / 1e6;
    for (c, name) in names.iter().enumerate() {
        println!(
            "| {name:<38} | {:>10.0} | {:>18.0} |",
            speed(medians[c][0]),
            speed(medians[c][1])
        );
    }
    for (c, name) in names.iter().enumerate().skip(1) {
        let ratio = |k: usize| medians[c][k].1.as_secs_f64() / medians[0][k].1.as_secs_f64();
        println!(
            "| {:<38} | {:>9.2}x | {:>17.2}x |",
            format!("one call ÷ {name}"),
            ratio(0),
            ratio(1)
        );
    }
    Ok(())
}
