//! Arbitrary lists through `vecpress::postings`: AND, its count and OR of
//! one to four lists in one delta-coded format, with every level the
//! format's cursor takes. None may panic or read out of bounds. Where
//! every list decodes (by the format's own decoder), every level must
//! answer alike, OR must succeed, and give the union of the decoded lists where
//! each is sorted, and AND their intersection where each is strictly
//! increasing; where one does not decode, OR, which reads every list whole,
//! must fail at every level (an AND may answer without reading the damaged
//! block, and which blocks it reads depends on the level's skip kernel).
//!
//! Stream VByte's lists are also stored in one buffer and queried by one
//! call (`stream_vbyte::and_delta_lists`, `or_delta_lists`), at every
//! level: the same answers where the lists decode, OR failing where one
//! does not.
//!
//! Input: a byte choosing the format (Stream VByte, VByte, bp128, FastLanes,
//! PFOR), a byte for the number of lists (1 to 4), then for each list two
//! bytes of count (as `common::Input` reads them, over the list's bytes) and
//! two of length (little endian, cut to what is left), then its bytes.
#![no_main]

mod common;

use std::collections::BTreeSet;

use libfuzzer_sys::fuzz_target;
use vecpress::bitpack::{bp128, fastlanes, pfor};
use vecpress::postings::{self, Cursor};
use vecpress::{stream_vbyte, vbyte, Error, Isa};

/// A cursor over `bytes` holding `n` values in format `f`, at `isa`.
fn cursor<'a>(f: u8, isa: Isa, bytes: &'a [u8], n: usize) -> Result<Box<dyn Cursor + 'a>, Error> {
    Ok(match f {
        0 => Box::new(stream_vbyte::DeltaCursor::new_with(isa, bytes, n, 0)?),
        1 => Box::new(vbyte::DeltaCursor::new(bytes, n, 0)),
        2 => Box::new(bp128::DeltaCursor::new_with(isa, bytes, n, 0)?),
        3 => Box::new(fastlanes::DeltaCursor::new_with(isa, bytes, n, 0)?),
        _ => Box::new(pfor::DeltaCursor::new_with(isa, bytes, n, 0)?),
    })
}

/// The list decoded whole by the format's own decoder.
fn decode(f: u8, bytes: &[u8], n: usize) -> Result<Vec<u32>, Error> {
    match f {
        0 => stream_vbyte::decode_delta_to_vec(bytes, n, 0),
        1 => vbyte::decode_delta_to_vec(bytes, n, 0),
        2 => bp128::decode_delta_to_vec(bytes, n, 0),
        3 => fastlanes::decode_delta_to_vec(bytes, n, 0),
        _ => pfor::decode_delta_to_vec(bytes, n, 0),
    }
}

type Answer = (
    Result<Vec<u32>, Error>,
    Result<usize, Error>,
    Result<Vec<u32>, Error>,
);

fn query(f: u8, isa: Isa, lists: &[(&[u8], usize)]) -> Answer {
    let make = || -> Result<Vec<Box<dyn Cursor + '_>>, Error> {
        lists.iter().map(|&(b, n)| cursor(f, isa, b, n)).collect()
    };
    let mut and = Vec::new();
    let mut or = Vec::new();
    let a = make()
        .and_then(|mut c| postings::and(&mut c, &mut and))
        .map(|()| and);
    let count = make().and_then(|mut c| postings::and_count(&mut c));
    let o = make()
        .and_then(|mut c| postings::or(&mut c, &mut or))
        .map(|()| or);
    (a, count, o)
}

fuzz_target!(|data: &[u8]| {
    let [f, k, rest @ ..] = data else {
        return;
    };
    let f = f % 5;
    let k = 1 + usize::from(k % 4);
    let mut lists = Vec::new();
    let mut rest = rest;
    for _ in 0..k {
        let Some((len, tail)) = rest.split_at_checked(4) else {
            break;
        };
        let l = usize::from(u16::from_le_bytes([len[2], len[3]])).min(tail.len());
        let head = [&len[..2], &tail[..l]].concat();
        let Some(input) = common::Input::<0>::parse(&head, 128) else {
            break;
        };
        lists.push((&tail[..l], input.n));
        rest = &tail[l..];
    }
    if lists.is_empty() {
        return;
    }
    // VByte's cursor has no levels: the scalar one stands for them all.
    let levels: &[Isa] = if f == 1 {
        &[Isa::Scalar]
    } else {
        Isa::available()
    };
    let decoded: Result<Vec<Vec<u32>>, Error> =
        lists.iter().map(|&(b, n)| decode(f, b, n)).collect();
    let want = query(f, Isa::Scalar, &lists);
    for &isa in levels {
        let got = query(f, isa, &lists);
        if decoded.is_ok() {
            assert_eq!(got, want, "{isa} format {f}");
        } else {
            // An intersection reads only the blocks that can hold its
            // candidates, and which those are depends on the level's skip
            // kernel: whether it meets the damage may differ. OR reads all.
            assert!(got.2.is_err(), "{isa} format {f}: OR of a damaged list");
        }
    }
    if f == 0 {
        stored(&lists, levels);
    }
    let (and, count, or) = want;
    match decoded {
        Ok(decoded) => {
            let or = or.expect("every list decodes");
            if let Some(union) = union_of(&decoded) {
                assert_eq!(or, union);
            }
            if let Some(inter) = intersection_of(&decoded) {
                assert_eq!(and.expect("every list decodes"), inter);
                assert_eq!(count.expect("every list decodes"), inter.len());
            }
        }
        Err(_) => assert!(
            or.is_err(),
            "format {f}: a list fails to decode, OR did not"
        ),
    }
});

/// Stream VByte's lists stored one after another in one buffer, queried by
/// one call at every level. A list's stream may run on into the next one's
/// bytes there: the reference is each list decoded from where it starts in
/// the buffer.
fn stored(lists: &[(&[u8], usize)], levels: &[Isa]) {
    let (mut bytes, mut spans) = (Vec::new(), Vec::new());
    for &(b, n) in lists {
        spans.push((bytes.len(), n));
        bytes.extend_from_slice(b);
    }
    let decoded: Result<Vec<Vec<u32>>, Error> = spans
        .iter()
        .map(|&(start, n)| stream_vbyte::decode_delta_to_vec(&bytes[start..], n, 0))
        .collect();
    for &isa in levels {
        let (mut and, mut or) = (Vec::new(), Vec::new());
        let a = stream_vbyte::and_delta_lists_with(isa, &bytes, &spans, &mut and);
        let o = stream_vbyte::or_delta_lists_with(isa, &bytes, &spans, &mut or);
        let Ok(decoded) = &decoded else {
            assert!(
                o.is_err(),
                "{isa}: a list fails to decode, OR by one call did not"
            );
            continue;
        };
        assert_eq!(o, Ok(()), "{isa}: OR by one call of lists that decode");
        if let Some(union) = union_of(decoded) {
            assert_eq!(or, union, "{isa}: OR by one call");
        }
        if let Some(inter) = intersection_of(decoded) {
            assert_eq!(a, Ok(()), "{isa}: AND by one call of lists that decode");
            assert_eq!(and, inter, "{isa}: AND by one call");
        }
    }
}

/// The union of lists each sorted, each value once; `None` if one is not.
fn union_of(decoded: &[Vec<u32>]) -> Option<Vec<u32>> {
    if !decoded.iter().all(|l| l.windows(2).all(|w| w[0] <= w[1])) {
        return None;
    }
    let union: BTreeSet<u32> = decoded.iter().flatten().copied().collect();
    Some(union.into_iter().collect())
}

/// The intersection of lists each strictly increasing; `None` if one is not.
fn intersection_of(decoded: &[Vec<u32>]) -> Option<Vec<u32>> {
    if !decoded.iter().all(|l| l.windows(2).all(|w| w[0] < w[1])) {
        return None;
    }
    let sets: Vec<BTreeSet<u32>> = decoded
        .iter()
        .map(|l| l.iter().copied().collect())
        .collect();
    Some(
        decoded[0]
            .iter()
            .copied()
            .filter(|v| sets.iter().all(|s| s.contains(v)))
            .collect(),
    )
}
