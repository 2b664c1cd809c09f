//! The queries by one call against sets, at every level, on both of their
//! paths (lists decoded whole, cursors), and on cut and hostile input.

use std::collections::BTreeSet;

use super::*;
use crate::postings::tests::{Rng, list};
use crate::stream_vbyte::{decode_delta_lists_with, encode_delta_to_vec};

/// A query's encoded lists, their spans, and the lists.
type Query = (Vec<u8>, Vec<(usize, usize)>, Vec<Vec<u32>>);

/// Lists of `counts` values, each a random part of one list of values (so
/// that they share some), encoded one after another.
fn query(rng: &mut Rng, counts: &[usize], bits: u32) -> Query {
    let longest = counts.iter().copied().max().unwrap_or(0);
    let base = list(rng, 2 * longest + 8, bits);
    let (mut bytes, mut spans, mut lists) = (Vec::new(), Vec::new(), Vec::new());
    for &n in counts {
        // Every value of `base` with odds n in base.len(), then cut to n.
        let mut l: Vec<u32> = base
            .iter()
            .copied()
            .filter(|_| rng.below(base.len() as u64) < 2 * n as u64)
            .collect();
        l.truncate(n);
        spans.push((bytes.len(), l.len()));
        bytes.extend(encode_delta_to_vec(&l, 0));
        lists.push(l);
    }
    (bytes, spans, lists)
}

fn and_sets(lists: &[Vec<u32>]) -> Vec<u32> {
    let Some((first, rest)) = lists.split_first() else {
        return Vec::new();
    };
    let mut s: BTreeSet<u32> = first.iter().copied().collect();
    for l in rest {
        let other: BTreeSet<u32> = l.iter().copied().collect();
        s.retain(|v| other.contains(v));
    }
    s.into_iter().collect()
}

fn or_sets(lists: &[Vec<u32>]) -> Vec<u32> {
    lists
        .iter()
        .flatten()
        .copied()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Counts of lists that take the path of lists decoded whole, of cursors,
/// and each in between, of 1 to 9 lists (9: more than are held inline).
const QUERIES: &[&[usize]] = &[
    &[],
    &[0],
    &[7],
    &[0, 50],
    &[1, 1],
    &[5, 9],
    &[16, 16],
    &[3, 64, 65],
    &[40, 40, 40, 40],
    &[8, 256],
    &[8, 257],
    &[4, 300],
    &[10, 640, 641],
    &[10, 2000],
    &[300, 5000, 20_000],
    &[1, 3000],
    &[33, 90, 200, 512, 700, 1000, 1500, 2100],
    &[20, 21, 22, 23, 24, 25, 26, 27, 28],
    &[20, 30, 40, 50, 60, 70, 80, 90, 100_000],
];

#[test]
fn every_level_answers_as_sets_do_on_both_paths() {
    let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
    for (q, counts) in QUERIES.iter().enumerate() {
        for bits in [2, 9, 20] {
            let (bytes, spans, lists) = query(&mut rng, counts, bits);
            let (and_want, or_want) = (and_sets(&lists), or_sets(&lists));
            // Spans in the reverse order answer alike.
            let reversed: Vec<_> = spans.iter().rev().copied().collect();
            for &isa in Isa::available() {
                for spans in [&spans, &reversed] {
                    let mut out = vec![7; 3];
                    and_delta_lists_with(isa, &bytes, spans, &mut out).unwrap();
                    assert_eq!(
                        out, and_want,
                        "{isa} AND of query {q} ({counts:?}) bits {bits}"
                    );
                    or_delta_lists_with(isa, &bytes, spans, &mut out).unwrap();
                    assert_eq!(
                        out, or_want,
                        "{isa} OR of query {q} ({counts:?}) bits {bits}"
                    );
                }
            }
            let mut out = Vec::new();
            and_delta_lists(&bytes, &spans, &mut out).unwrap();
            assert_eq!(out, and_want, "AND of query {q}");
            or_delta_lists(&bytes, &spans, &mut out).unwrap();
            assert_eq!(out, or_want, "OR of query {q}");
        }
    }
}

#[test]
fn a_cut_list_fails_as_its_decoding_does() {
    // Every cut of the last list's stream gives the error decoding the
    // lists gives, and `out` is left empty; an AND whose first two lists
    // share no value may answer without reading the last (empty, `Ok`).
    let mut rng = Rng(77);
    let mut reached = 0;
    for counts in [[5usize, 9, 40], [30, 60, 200], [2, 3, 64], [40, 40, 40]] {
        let (bytes, spans, lists) = query(&mut rng, &counts, 12);
        let reaches_last = !and_sets(&lists[..2]).is_empty();
        reached += usize::from(reaches_last);
        for cut in spans[2].0..bytes.len() {
            let mut all = vec![0; counts.iter().sum()];
            let want =
                decode_delta_lists_with(Isa::Scalar, &bytes[..cut], &spans, &mut all).unwrap_err();
            for &isa in Isa::available() {
                let mut out = vec![1, 2, 3];
                let got = and_delta_lists_with(isa, &bytes[..cut], &spans, &mut out);
                if reaches_last {
                    assert_eq!(got, Err(want.clone()), "{isa} AND cut at {cut}");
                } else {
                    assert_eq!(got, Ok(()), "{isa} AND cut at {cut}");
                }
                assert!(out.is_empty(), "{isa}: values left after an error");
                let got = or_delta_lists_with(isa, &bytes[..cut], &spans, &mut out);
                assert_eq!(got, Err(want.clone()), "{isa} OR cut at {cut}");
            }
        }
    }
    assert!(reached >= 2, "only {reached} queries read their last list");
}

#[test]
fn a_cursor_names_the_offset_in_the_whole_buffer() {
    // A short list, then a long one whose cursor reads its last block (the
    // short list's last value is past the long one's): cut in its data, the
    // error is where its own decoding fails, counted from the buffer's start.
    let long: Vec<u32> = (0..5000).map(|i| i * 3).collect();
    let short = [0u32, 9, 2001, 14_997, 20_000];
    let mut bytes = encode_delta_to_vec(&short, 0);
    let start = bytes.len();
    bytes.extend(encode_delta_to_vec(&long, 0));
    let spans = [(0, short.len()), (start, long.len())];
    let mut out = Vec::new();
    and_delta_lists(&bytes, &spans, &mut out).unwrap();
    assert_eq!(out, [0, 9, 2001, 14_997]);
    let cut = &bytes[..bytes.len() - 1];
    let mut one = vec![0; long.len()];
    let want = crate::stream_vbyte::decode_delta(&cut[start..], &mut one, 0)
        .unwrap_err()
        .shifted(start);
    for &isa in Isa::available() {
        let got = and_delta_lists_with(isa, cut, &spans, &mut out).unwrap_err();
        assert_eq!(offset(&got), offset(&want), "{isa}: {got} against {want}");
        assert!(out.is_empty());
    }
}

fn offset(e: &Error) -> Option<usize> {
    match *e {
        Error::Truncated { offset, .. } | Error::Corrupt { offset, .. } => Some(offset),
        _ => None,
    }
}

#[test]
fn hostile_counts_and_starts_are_errors_before_any_room_is_taken() {
    let bytes = encode_delta_to_vec(&[1, 2, 3], 0);
    let mut out = Vec::new();
    for spans in [
        [(0, 3), (0, 1 << 40)],
        [(0, usize::MAX), (0, usize::MAX)],
        [(0, 3), (1, 1 << 20)],
    ] {
        let want = Error::Truncated {
            offset: bytes.len(),
            needed: spans[1].1,
            unit: crate::Unit::Values,
        };
        assert_eq!(
            and_delta_lists(&bytes, &spans, &mut out),
            Err(want.clone()),
            "{spans:?}"
        );
        assert_eq!(
            or_delta_lists(&bytes, &spans, &mut out),
            Err(want),
            "{spans:?}"
        );
        assert_eq!(out.capacity(), 0, "room taken for a claim");
    }
    let past = [(0, 3), (bytes.len() + 1, 0)];
    let want = Error::OutOfRange {
        index: bytes.len() + 1,
        len: bytes.len(),
    };
    assert_eq!(and_delta_lists(&bytes, &past, &mut out), Err(want.clone()));
    assert_eq!(or_delta_lists(&bytes, &past, &mut out), Err(want));
    // A list may share another's bytes: the same list twice is itself.
    and_delta_lists(&bytes, &[(0, 3), (0, 3)], &mut out).unwrap();
    assert_eq!(out, [1, 2, 3]);
}
