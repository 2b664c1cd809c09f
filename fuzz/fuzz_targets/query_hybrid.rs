//! `vecpress::postings::hybrid` on arbitrary bytes and on lists drawn from
//! them, at every level. None may panic or read out of bounds.
//!
//! Input: a byte choosing the mode, then:
//! - even, bytes as they come: up to three lists, each two bytes of length
//!   (little endian, cut to what is left) and its bytes. Each list decodes
//!   alike at every level. Where every list decodes to strictly increasing
//!   ids, every level answers AND, its count and OR as the sets of the
//!   decoded ids do; where one does not decode, OR, which reads every list
//!   whole, fails at every level;
//! - odd, lists drawn: the rest split in up to three parts, each read as
//!   steps (a byte: gaps of 1 to 64, runs, or jumps of many windows), so
//!   that lists of every form come out (arrays up to their Roaring bytes
//!   where the mode's second bit is set); each must decode to itself, and
//!   every level answer as the sets do.
#![no_main]

use std::collections::BTreeSet;

use libfuzzer_sys::fuzz_target;
use vecpress::postings::hybrid;
use vecpress::{Error, Isa};

/// Ids drawn from `steps`: each byte a gap (1 to 64), a run of up to 300
/// ids, or a jump of a few windows.
fn draw(steps: &[u8]) -> Vec<u32> {
    let mut ids = Vec::new();
    let mut at: u64 = 0;
    for &b in steps {
        match b >> 6 {
            0 | 1 => at += u64::from(b & 63) + 1,
            2 => {
                let run = u64::from(b & 63) * 5 + 1;
                ids.extend(at + 1..=at + run);
                at += run;
                continue;
            }
            _ => at += u64::from(b & 63) * 4096 + 1,
        }
        ids.push(at);
    }
    ids.into_iter()
        .take_while(|&v| v <= u64::from(u32::MAX))
        .map(|v| v as u32)
        .collect()
}

fn strictly_increasing(ids: &[u32]) -> bool {
    ids.windows(2).all(|w| w[0] < w[1])
}

/// What every level answers: AND, its count and OR, or their errors.
type Answers = (
    Result<Vec<u32>, Error>,
    Result<usize, Error>,
    Result<Vec<u32>, Error>,
);

fn answers(isa: Isa, lists: &[&[u8]]) -> Answers {
    let mut and = Vec::new();
    let and = hybrid::and_with(isa, lists, &mut and).map(|()| and);
    let count = hybrid::and_count_with(isa, lists);
    let mut hits = hybrid::Hits::new();
    let got = hybrid::and_hits_with(isa, lists, &mut hits);
    // The AND kept as hits fails where the AND does, and holds its ids.
    match (&and, got) {
        (Ok(ids), Ok(())) => {
            assert_eq!(&hits.to_vec(), ids, "hits at {isa:?}");
            assert!(hits.iter().eq(ids.iter().copied()), "hits' iter at {isa:?}");
            assert_eq!(hits.len(), ids.len());
        }
        (Err(e), Err(f)) => assert_eq!(e, &f, "hits' error at {isa:?}"),
        (a, h) => panic!("AND {a:?}, hits {h:?} at {isa:?}"),
    }
    let mut or = Vec::new();
    let or = hybrid::or_with(isa, lists, &mut or).map(|()| or);
    // The OR kept as hits, likewise.
    match (&or, hybrid::or_hits_with(isa, lists, &mut hits)) {
        (Ok(ids), Ok(())) => {
            assert_eq!(&hits.to_vec(), ids, "OR hits at {isa:?}");
            assert!(
                hits.iter().eq(ids.iter().copied()),
                "OR hits' iter at {isa:?}"
            );
        }
        (Err(e), Err(f)) => assert_eq!(e, &f, "OR hits' error at {isa:?}"),
        (o, h) => panic!("OR {o:?}, hits {h:?} at {isa:?}"),
    }
    (and, count, or)
}

/// Checks every level's answers against the sets of `decoded`.
fn check(lists: &[&[u8]], decoded: &[Vec<u32>]) {
    let sets: Vec<BTreeSet<u32>> = decoded
        .iter()
        .map(|d| d.iter().copied().collect())
        .collect();
    let mut and: BTreeSet<u32> = sets.first().cloned().unwrap_or_default();
    for s in &sets[1.min(sets.len())..] {
        and = and.intersection(s).copied().collect();
    }
    let or: BTreeSet<u32> = sets.iter().flatten().copied().collect();
    let want_and: Vec<u32> = and.into_iter().collect();
    let want_or: Vec<u32> = or.into_iter().collect();
    for &isa in Isa::available() {
        let (a, c, o) = answers(isa, lists);
        assert_eq!(a.as_ref(), Ok(&want_and), "AND at {isa:?}");
        assert_eq!(c, Ok(want_and.len()), "count at {isa:?}");
        assert_eq!(o.as_ref(), Ok(&want_or), "OR at {isa:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, mut rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 1 {
        let parts = rest.len().div_ceil(3).max(1);
        let lists: Vec<Vec<u32>> = rest.chunks(parts).map(draw).collect();
        // Arrays wherever Roaring's bytes leave room, when the mode's second
        // bit is set.
        let room = if mode & 2 == 2 {
            hybrid::Room::Roaring
        } else {
            hybrid::Room::Gaps
        };
        let encoded: Vec<Vec<u8>> = lists
            .iter()
            .map(|l| {
                let mut out = Vec::new();
                hybrid::encode_within(l, room, &mut out).unwrap();
                out
            })
            .collect();
        for (l, e) in lists.iter().zip(&encoded) {
            for &isa in Isa::available() {
                let mut got = Vec::new();
                assert_eq!(hybrid::decode_into_with(isa, e, &mut got), Ok(e.len()));
                assert_eq!(&got, l, "decoded at {isa:?}");
            }
        }
        let refs: Vec<&[u8]> = encoded.iter().map(|e| &e[..]).collect();
        check(&refs, &lists);
        return;
    }
    let mut lists: Vec<&[u8]> = Vec::new();
    while lists.len() < 3 && rest.len() >= 2 {
        let len = (usize::from(rest[0]) | usize::from(rest[1]) << 8).min(rest.len() - 2);
        lists.push(&rest[2..2 + len]);
        rest = &rest[2 + len..];
    }
    let mut decoded = Vec::new();
    for l in &lists {
        let first = hybrid::decode_to_vec(l);
        for &isa in Isa::available() {
            let mut got = Vec::new();
            let at = hybrid::decode_into_with(isa, l, &mut got).map(|_| got);
            assert_eq!(at, first, "decoded at {isa:?}");
        }
        decoded.push(first);
    }
    if decoded.iter().any(Result::is_err) {
        for &isa in Isa::available() {
            assert!(
                answers(isa, &lists).2.is_err(),
                "OR of a list that does not decode at {isa:?}"
            );
        }
        return;
    }
    let decoded: Vec<Vec<u32>> = decoded.into_iter().map(Result::unwrap).collect();
    if decoded.iter().all(|d| strictly_increasing(d)) {
        check(&lists, &decoded);
    } else {
        for &isa in Isa::available() {
            let _ = answers(isa, &lists);
        }
    }
});
