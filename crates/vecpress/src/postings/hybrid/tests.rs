use std::collections::BTreeSet;

use super::read::{
    ARRAY, BITMAP, Filters, GAPS, RUNS, Single, and_stream_runs, keep_in_stream_runs,
};
use super::write::{encode_gaps, put_varint, roaring_len};
use super::*;
use crate::postings::tests::Rng;
use crate::stream_vbyte;

/// Ids in stretches of varied density: dense runs (bitmap windows) between
/// sparse ones (gaps), from one id to a few hundred thousand, up to the
/// top of the range when `high`.
fn list(rng: &mut Rng, high: bool) -> Vec<u32> {
    let mut set = BTreeSet::new();
    let stretches = 1 + rng.below(6);
    let mut at: u64 = if high {
        u64::from(u32::MAX) - 300_000
    } else {
        rng.below(50_000)
    };
    for _ in 0..stretches {
        let span = 1 + rng.below(40_000);
        // Every id, one in 2, 3, ..., or (0) runs of 1 to 300 ids at random.
        let every = [1, 2, 3, 7, 50, 1000, 100_000, 0][rng.below(8) as usize];
        let mut v = at;
        while v < at + span && v <= u64::from(u32::MAX) {
            if every == 0 {
                let run = 1 + rng.below(300);
                for u in v..(v + run).min(u64::from(u32::MAX) + 1) {
                    set.insert(u as u32);
                }
                v += run + 1 + rng.below(500);
                continue;
            }
            if rng.below(every) == 0 {
                set.insert(v as u32);
            }
            v += 1;
        }
        at += span + rng.below(30_000);
    }
    set.into_iter().collect()
}

fn and_of(lists: &[Vec<u32>]) -> Vec<u32> {
    let mut acc: BTreeSet<u32> = lists[0].iter().copied().collect();
    for l in &lists[1..] {
        let s: BTreeSet<u32> = l.iter().copied().collect();
        acc = acc.intersection(&s).copied().collect();
    }
    acc.into_iter().collect()
}

fn or_of(lists: &[Vec<u32>]) -> Vec<u32> {
    let acc: BTreeSet<u32> = lists.iter().flatten().copied().collect();
    acc.into_iter().collect()
}

/// A list with arrays wherever Roaring's bytes leave room (`case` even),
/// or with gaps in their place (odd), so that the tests read both forms.
fn form(values: &[u32], case: usize) -> Vec<u8> {
    if case.is_multiple_of(2) {
        roomy(values)
    } else {
        encode_gaps(values)
    }
}

fn roomy(values: &[u32]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_within(values, Room::Roaring, &mut out).unwrap();
    out
}

#[test]
fn lists_round_trip_at_every_level() {
    let mut rng = Rng(7);
    for case in 0..60 {
        let values = list(&mut rng, case % 10 == 9);
        let bytes = form(&values, case);
        for &isa in Isa::available() {
            let mut got = vec![99];
            let used = decode_into_with(isa, &bytes, &mut got).unwrap();
            assert_eq!(used, bytes.len(), "case {case}, {isa:?}");
            assert_eq!(got[0], 99);
            assert_eq!(got[1..], values[..], "case {case}, {isa:?}");
        }
    }
}

#[test]
fn dense_windows_become_bitmaps_and_cost_less_than_gaps() {
    let dense: Vec<u32> = (0..100_000).filter(|v| v % 3 != 0).collect();
    let bytes = encode(&dense).unwrap();
    // 25 windows of 512 bytes, and a few bytes of headers.
    assert!(bytes.len() < 25 * 512 + 16, "{}", bytes.len());
    assert!(bytes.len() * 4 < stream_vbyte::encode_delta_to_vec(&dense, 0).len());
    let sparse: Vec<u32> = (0..400).map(|v| v * 300).collect();
    // As gaps, one block: its stream, after the block count (1 byte), the
    // kind and count (2), the last id (3) and the byte length (2).
    let gaps = stream_vbyte::encode_delta_to_vec(&sparse, 0).len() + 8;
    assert_eq!(encode_gaps(&sparse).len(), gaps);
    // As written, arrays: two bytes an id, a block in each 65,536 ids, for
    // fewer bytes than the gaps take here (two data bytes each) and no more
    // than a Roaring bitmap's arrays.
    let bytes = encode(&sparse).unwrap();
    assert_eq!(u32::from(bytes[1]) & 3, ARRAY);
    assert!(bytes.len() < gaps, "{}", bytes.len());
    assert!(bytes.len() <= roaring_len(&sparse));
    assert_eq!(decode_to_vec(&bytes).unwrap(), sparse);
    // Ids too sparse for arrays of a few dozen: one block of gaps, where
    // arrays would take a block (a header, a step of a query) per few ids.
    let sparser: Vec<u32> = (0..100).map(|v| v * 5000).collect();
    assert_eq!(encode(&sparser).unwrap(), encode_gaps(&sparser));
}

/// Arrays take the room a list has: within its Roaring bitmap's bytes
/// (most lists then hold some, and none takes more than the larger of
/// those bytes and its gaps' form), or within its gaps' bytes.
#[test]
fn arrays_fill_the_room_a_list_has() {
    let mut rng = Rng(29);
    let mut with_arrays = 0;
    for case in 0..60 {
        let values = list(&mut rng, case % 10 == 9);
        let (bytes, gaps) = (roomy(&values), encode_gaps(&values));
        let budget = roaring_len(&values).max(gaps.len());
        assert!(bytes.len() <= budget, "case {case}");
        with_arrays += usize::from(bytes != gaps);
        assert!(encode(&values).unwrap().len() <= gaps.len(), "case {case}");
    }
    assert!(with_arrays > 20, "{with_arrays}");
}

/// Each block of a list of gaps and arrays: its kind and its ids.
fn blocks_of(bytes: &[u8]) -> Vec<(u32, Vec<u32>)> {
    let varint = |at: &mut usize| super::read::varint(bytes, at).unwrap();
    let mut at = 0;
    let count = varint(&mut at);
    if count >= super::read::INDEXED {
        at += 8 * count as usize;
    }
    let mut before = 0;
    let mut blocks = Vec::new();
    for _ in 0..count {
        let head = varint(&mut at);
        let (kind, n) = (head & 3, (head >> 2) as usize);
        let mut ids = vec![0; n];
        match kind {
            GAPS => {
                varint(&mut at);
                let len = varint(&mut at) as usize;
                stream_vbyte::decode_delta(&bytes[at..at + len], &mut ids, before).unwrap();
                at += len;
            }
            ARRAY => {
                let first = before + varint(&mut at);
                ids[0] = first;
                for id in &mut ids[1..] {
                    *id = first + u32::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
                    at += 2;
                }
            }
            _ => panic!("a block of kind {kind} in a list of gaps and arrays"),
        }
        before = ids[n - 1];
        blocks.push((kind, ids));
    }
    assert_eq!(at, bytes.len());
    blocks
}

/// Arrays come a chunk of 65,536 ids at a time: where the room allows
/// arrays for some of a chunk's windows alone, choosing them a window at a
/// time (the sparsest first) made arrays and gaps take turns, a block each,
/// twenty blocks where four do.
#[test]
fn arrays_and_gaps_do_not_take_turns_in_a_chunk() {
    let mut rng = Rng(41);
    for case in 0..20 {
        // Ids a few dozen to a few hundred apart: windows of gaps of one and
        // two bytes side by side, and room for some arrays in each chunk.
        let mut values = Vec::new();
        let mut v = rng.below(500) as u32;
        let step = [60, 170, 400, 900][case % 4];
        while v < 300_000 {
            values.push(v);
            v += 1 + rng.below(2 * step) as u32;
        }
        let bytes = roomy(&values);
        assert!(bytes.len() <= roaring_len(&values).max(encode_gaps(&values).len()));
        let blocks = blocks_of(&bytes);
        let ids: Vec<u32> = blocks
            .iter()
            .flat_map(|(_, ids)| ids.iter().copied())
            .collect();
        assert_eq!(ids, values, "case {case}");
        let mut kinds = std::collections::BTreeMap::new();
        for (kind, ids) in &blocks {
            for id in ids {
                let k: &mut BTreeSet<u32> = kinds.entry(id >> 16).or_default();
                k.insert(*kind);
            }
        }
        for (chunk, k) in &kinds {
            assert_eq!(
                k.len(),
                1,
                "case {case}, step {step}: chunk {chunk} holds both forms"
            );
        }
    }
}

/// AND, its count and OR of `lists` encoded, at every level, against the
/// sets' (`out` holding ids before each query).
fn answers_as_sets_do(lists: &[Vec<u32>], case: usize) {
    let encoded: Vec<Vec<u8>> = lists
        .iter()
        .enumerate()
        .map(|(i, l)| form(l, case + i))
        .collect();
    let refs: Vec<&[u8]> = encoded.iter().map(|b| &b[..]).collect();
    let (want_and, want_or) = (and_of(lists), or_of(lists));
    for &isa in Isa::available() {
        let mut got = vec![1, 2, 3];
        and_with(isa, &refs, &mut got).unwrap();
        assert_eq!(got, want_and, "AND, case {case}, {isa:?}");
        assert_eq!(and_count_with(isa, &refs).unwrap(), want_and.len());
        hits_hold(isa, &refs, &want_and);
        or_with(isa, &refs, &mut got).unwrap();
        assert_eq!(got, want_or, "OR, case {case}, {isa:?}");
        let mut hits = Hits::new();
        hits.push_ids(&[u32::MAX]);
        or_hits_with(isa, &refs, &mut hits).unwrap();
        held(&hits, &want_or, isa);
    }
}

/// The AND kept as [`Hits`] holds `want`, read every way, at `isa`.
fn hits_hold(isa: Isa, lists: &[&[u8]], want: &[u32]) {
    let mut hits = Hits::new();
    hits.push_ids(&[u32::MAX]);
    and_hits_with(isa, lists, &mut hits).unwrap();
    held(&hits, want, isa);
}

/// `hits` holds `want`, read every way.
fn held(hits: &Hits, want: &[u32], isa: Isa) {
    assert_eq!(hits.len(), want.len(), "hits, {isa:?}");
    assert_eq!(hits.to_vec(), want, "hits, {isa:?}");
    let iter = hits.iter();
    assert_eq!(iter.len(), want.len());
    assert!(iter.eq(want.iter().copied()), "hits' iter, {isa:?}");
    // Each id, and the ids either side of each, and the ends of the range.
    let near = want
        .iter()
        .flat_map(|&v| [v.wrapping_sub(1), v, v.wrapping_add(1)]);
    for v in near.chain([0, u32::MAX]).step_by(1 + want.len() / 3000) {
        assert_eq!(hits.contains(v), want.binary_search(&v).is_ok(), "{v}");
    }
}

#[test]
fn hits_keep_bitmaps_and_runs_and_ids_in_order() {
    // Three stretches: both lists dense (bitmaps), both runs, and gaps in
    // one; the answer holds each form, ending at the top of the range.
    let top = u32::MAX - 9_999;
    let dense = |v: &u32| !v.is_multiple_of(3);
    let mut a: Vec<u32> = (0..40_000).filter(dense).collect();
    let mut b: Vec<u32> = (0..40_000).filter(|v| v % 5 != 0).collect();
    a.extend((100_000..200_000).filter(|v| v % 1000 < 700));
    b.extend((100_000..200_000).filter(|v| v % 1000 > 200));
    a.extend((300_000..400_000).step_by(97));
    b.extend(300_000..400_000);
    // Sparse in both: the union's ids.
    a.extend((500_000..600_000).step_by(97));
    b.extend((500_001..600_000).step_by(89));
    a.extend(top..=u32::MAX);
    b.extend((top..=u32::MAX).filter(|v| v % 2 == 1));
    let want = and_of(&[a.clone(), b.clone()]);
    let (ea, eb) = (encode(&a).unwrap(), encode(&b).unwrap());
    for &isa in Isa::available() {
        hits_hold(isa, &[&ea, &eb], &want);
        let mut hits = Hits::new();
        and_hits_with(isa, &[&ea, &eb], &mut hits).unwrap();
        let forms: Vec<_> = hits.parts.iter().map(|p| p.form).collect();
        assert!(forms.contains(&hits::Form::Words), "{forms:?}");
        assert!(forms.contains(&hits::Form::Runs), "{forms:?}");
        assert!(forms.contains(&hits::Form::Ids), "{forms:?}");
        // Bitmaps hold a tenth of the bytes their ids would.
        assert!(
            hits.words.len() * 8 * 10 < want.len() * 4,
            "{}",
            hits.words.len()
        );
        // The union keeps its dense stretches as bitmaps, its sparse ones
        // as ids.
        let want_or = or_of(&[a.clone(), b.clone()]);
        or_hits_with(isa, &[&ea, &eb], &mut hits).unwrap();
        held(&hits, &want_or, isa);
        let forms: Vec<_> = hits.parts.iter().map(|p| p.form).collect();
        assert!(forms.contains(&hits::Form::Words), "{forms:?}");
        assert!(forms.contains(&hits::Form::Ids), "{forms:?}");
        assert!(hits.words.len() * 8 * 10 < want_or.len() * 4);
    }
    // A damaged list leaves the hits empty.
    let mut hits = Hits::new();
    hits.push_ids(&[1, 2]);
    assert!(and_hits(&[&ea, &eb[..eb.len() - 1]], &mut hits).is_err());
    assert!(hits.is_empty() && hits.iter().next().is_none());
}

#[test]
fn queries_agree_with_sets_at_every_level() {
    let mut rng = Rng(11);
    for case in 0..80 {
        let k = 1 + rng.below(4) as usize;
        let high = case % 8 == 7;
        let lists: Vec<Vec<u32>> = (0..k).map(|_| list(&mut rng, high)).collect();
        answers_as_sets_do(&lists, case);
    }
}

/// Ids from `at`, each up to `step` after the one before, with a run of 2
/// to 31 ids in place of one one time in `one_in`, while `more` (of how
/// many were drawn and the next) holds.
fn sparse_ids(
    rng: &mut Rng,
    mut at: u32,
    step: u64,
    one_in: u64,
    more: impl Fn(usize, u32) -> bool,
) -> Vec<u32> {
    let mut ids = Vec::new();
    let mut k = 0;
    while more(k, at) {
        if rng.below(one_in) == 0 {
            let run = 2 + rng.below(30) as u32;
            ids.extend(at..at + run);
            at += run;
        } else {
            ids.push(at);
        }
        at += 1 + rng.below(step) as u32;
        k += 1;
    }
    ids
}

/// Sparse ids cut into blocks by a few runs between them, and lists of a
/// few ids against long ones of every form: the list of fewest ids drives
/// a block at a time, whatever the order the query gives them in, and
/// the answers are the sets'.
#[test]
fn lists_of_many_blocks_answer_as_sets_do_whichever_drives() {
    let mut rng = Rng(23);
    for case in 0..120 {
        let k = 2 + rng.below(3) as usize;
        let lists: Vec<Vec<u32>> = (0..k)
            .map(|i| {
                if i > 0 && case % 3 == 0 {
                    return list(&mut rng, false);
                }
                // Ids far apart, with a stretch of runs now and then.
                let at = rng.below(5000) as u32;
                let step = [3, 40, 700, 5000][rng.below(4) as usize];
                let n = [5, 60, 400, 3000][rng.below(4) as usize];
                sparse_ids(&mut rng, at, step, 40, |k, _| k < n)
            })
            .collect();
        answers_as_sets_do(&lists, case);
        let mut turned = lists.clone();
        turned.reverse();
        answers_as_sets_do(&turned, case + 1);
    }
}

/// Three lists or more driven by a list of a few runs, short or longer,
/// in two windows, against long lists of sparse ids and runs in many
/// blocks that hold some of the runs' ids, or none.
#[test]
fn lists_driven_by_a_few_runs_answer_as_sets_do() {
    let mut rng = Rng(31);
    for case in 0..160 {
        let mut short = Vec::new();
        let longest = if case % 4 == 0 { 60 } else { 8 };
        for w in [rng.below(30), 30 + rng.below(30)] {
            let mut at = w as u32 * WINDOW + rng.below(2000) as u32;
            for _ in 0..1 + rng.below(3) {
                let run = 3 + rng.below(longest) as u32;
                short.extend(at..at + run);
                at += run + 1 + rng.below(50) as u32;
            }
        }
        let k = 3 + rng.below(2) as usize;
        let lists: Vec<Vec<u32>> = (0..k)
            .map(|i| {
                if i == 0 {
                    return short.clone();
                }
                let at = rng.below(500) as u32;
                let step = [40, 120, 700][rng.below(3) as usize];
                let mut ids = sparse_ids(&mut rng, at, step, 30, |_, at| at < 64 * WINDOW);
                if case % 5 != 0 {
                    ids.extend(short.iter().filter(|_| rng.below(4) != 0));
                }
                ids.sort_unstable();
                ids.dedup();
                ids
            })
            .collect();
        answers_as_sets_do(&lists, case);
    }
}

/// Short lists (one block of gaps, an array, runs or a bitmap each, read
/// without a `List`) beside longer ones: every mix answers as the sets do,
/// up to more lists than a query holds on its stack.
#[test]
fn short_lists_of_one_block_answer_as_sets_do() {
    let mut rng = Rng(17);
    for case in 0..300 {
        let k = 1 + rng.below(10) as usize;
        let lists: Vec<Vec<u32>> = (0..k)
            .map(|i| {
                if case % 5 == 4 && i == 0 {
                    return list(&mut rng, false);
                }
                let w = rng.below(40) as u32 * WINDOW;
                // In one case in seven, every list is a few long runs (a
                // block of runs, where the shorter ones above are most
                // often a bitmap): runs meet runs.
                if case % 7 == 6 {
                    return runs_in_window(&mut rng, w, 20..320, 400);
                }
                match rng.below(5) {
                    // A window's bitmap: one id in two of most of it.
                    0 => return (w..w + 3000).step_by(2).collect(),
                    // A window's runs of consecutive ids.
                    1 => return runs_in_window(&mut rng, w, 1..61, 200),
                    _ => {}
                }
                let n = [1, 3, 16, 64, 65, 300, 1024][rng.below(7) as usize];
                let span = [n as u64, 4 * n as u64, 100_000][rng.below(3) as usize];
                let set: BTreeSet<u32> = (0..n).map(|_| rng.below(span) as u32).collect();
                set.into_iter().collect()
            })
            .collect();
        answers_as_sets_do(&lists, case);
    }
}

/// Short lists of one block (gaps, an array, runs) with long lists of
/// many blocks, the short ones meeting on nothing, on a few ids, or on
/// runs: the short lists are intersected first and the long ones keep
/// what they give, or are not read; each mix answers as the sets do.
#[test]
fn short_lists_beside_long_ones_answer_as_sets_do() {
    let mut rng = Rng(41);
    for case in 0..160 {
        let w = rng.below(20) as u32 * WINDOW;
        let shorts = 2 + rng.below(2) as usize;
        let mut lists: Vec<Vec<u32>> = (0..shorts)
            .map(|i| match case % 4 {
                // Runs alone: they meet on runs, or (one case in two) not.
                0 => {
                    let at = w + if case % 8 == 0 { 0 } else { 500 * i as u32 };
                    (0..1 + rng.below(4) as u32)
                        .flat_map(|r| at + r * 40..at + r * 40 + 20 + rng.below(20) as u32)
                        .collect()
                }
                // Ids of a window, some shared, or none.
                1 | 2 => {
                    let n = [3, 20, 60, 200][rng.below(4) as usize];
                    let step = 2 + (case % 4 == 2) as u32 * i as u32;
                    let set: BTreeSet<u32> =
                        (0..n).map(|_| w + step * rng.below(2000) as u32).collect();
                    set.into_iter().collect()
                }
                // One list of runs, the others ids.
                _ if i == 0 => (w..w + 300).collect(),
                _ => (w..w + 3000).step_by(3 + i).collect(),
            })
            .collect();
        for _ in 0..1 + rng.below(2) {
            lists.push(if case % 3 == 0 {
                list(&mut rng, false)
            } else {
                (0..200_000).filter(|v| v % 5 != case as u32 % 5).collect()
            });
        }
        answers_as_sets_do(&lists, case);
    }
}

/// A damaged short list beside another and a long list: the query fails
/// as decoding the damaged list does, or answers as the sets do.
#[test]
fn a_damaged_short_list_beside_a_long_one_fails_as_decoding_it_does() {
    let short: Vec<u32> = (0..40).map(|i| i * 37).collect();
    let partner = encode_gaps(&(0..3000).step_by(7).collect::<Vec<u32>>());
    let long: Vec<u32> = (0..300_000).filter(|v| v % 3 != 1).collect();
    let long_bytes = encode(&long).unwrap();
    let ids = [decode_to_vec(&partner).unwrap(), long];
    for bytes in [encode_gaps(&short), roomy(&short)] {
        assert!(Single::new(&bytes, Filters::Kept).is_some());
        each_bit_flipped(&bytes, |bad, isa, at| {
            and_with_damaged(isa, &[&long_bytes, bad, &partner], bad, &ids, &at);
        });
    }
}

/// Every bit of `bytes` flipped in turn, `f` called with the damaged bytes
/// at every level, and where (the byte, the bit, the level).
fn each_bit_flipped(bytes: &[u8], mut f: impl FnMut(&[u8], Isa, String)) {
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut bad = bytes.to_vec();
            bad[i] ^= 1 << bit;
            for &isa in Isa::available() {
                f(&bad, isa, format!("byte {i}, bit {bit}, {isa:?}"));
            }
        }
    }
}

/// The AND of `lists` (`bad` among them, the others whole and holding
/// `ids`) fails as decoding `bad` does, or answers as the sets do; or,
/// where `bad` does not decode, answers (a list is not read past where the
/// others end).
fn and_with_damaged(isa: Isa, lists: &[&[u8]], bad: &[u8], ids: &[Vec<u32>], at: &str) {
    let mut and = Vec::new();
    match (and_with(isa, lists, &mut and), decode_to_vec(bad)) {
        (Err(e), want) => assert_eq!(want, Err(e), "{at}"),
        (Ok(()), Ok(held)) => {
            let mut all = ids.to_vec();
            all.push(held);
            assert_eq!(and, and_of(&all), "{at}");
        }
        (Ok(()), Err(_)) => {}
    }
}

/// A long list in clusters far apart (blocks of gaps, or of runs, each
/// cluster starting a block), against a short one whose ids fall in the
/// holes between blocks, on a cluster's first id and just below it, and
/// on ids within: a query passes a block by the first id its stream says
/// without missing the ids at its edge. And short lists whose ranges meet
/// on one id, or miss by one.
#[test]
fn candidates_between_blocks_and_lists_apart_answer_as_sets_do() {
    let mut rng = Rng(29);
    for case in 0..90 {
        let mut long: Vec<u32> = Vec::new();
        let mut firsts = Vec::new();
        let mut at = rng.below(3000) as u32;
        for _ in 0..1 + rng.below(5) {
            firsts.push(at);
            if case % 3 == 2 {
                long.extend(runs_in_window(&mut rng, at, 1..40, 300));
                at = long[long.len() - 1] + 1;
            } else {
                for _ in 0..300 + rng.below(3000) {
                    long.push(at);
                    at += 1 + rng.below(30) as u32;
                }
            }
            at += 40_000 + rng.below(200_000) as u32;
        }
        let firsts: Vec<u32> = firsts
            .into_iter()
            .map(|f| long[long.partition_point(|&v| v < f)])
            .collect();
        let mut short = BTreeSet::new();
        for &f in &firsts {
            match rng.below(4) {
                0 => {}
                1 => {
                    short.insert(f);
                }
                2 => {
                    short.insert(f.saturating_sub(1));
                    short.insert(f);
                }
                _ => {
                    short.insert(f.saturating_sub(1 + rng.below(30_000) as u32));
                }
            }
        }
        for _ in 0..rng.below(20) {
            let v = long[rng.below(long.len() as u64) as usize];
            short.insert(v + rng.below(2) as u32);
        }
        let last = *long.last().unwrap();
        short.insert(last + 1 + rng.below(100) as u32);
        let short: Vec<u32> = short.into_iter().collect();
        answers_as_sets_do(&[short.clone(), long.clone()], case);
        answers_as_sets_do(&[long.clone(), short.clone(), long.clone()], case + 1);
    }
    for case in 0..40 {
        // Two short lists, the second's range from the first's last id
        // (meeting on it), or one past it.
        let a: Vec<u32> = (0..1 + rng.below(60) as u32)
            .map(|i| 1000 + 7 * i)
            .collect();
        let from = a[a.len() - 1] + (case % 2) as u32;
        let b: Vec<u32> = match case % 4 {
            // Runs, a bitmap, gaps.
            0 | 1 => (from..from + 500).collect(),
            2 => (from..from + 6000).step_by(2).collect(),
            _ => (from..from + 300_000).step_by(999).collect(),
        };
        answers_as_sets_do(&[a.clone(), b.clone()], case);
        answers_as_sets_do(&[b, a], case + 1);
    }
}

/// Runs of consecutive ids from near the start of window `w` to near its
/// end, each of a length in `lengths`, up to `apart` ids apart.
fn runs_in_window(rng: &mut Rng, w: u32, lengths: core::ops::Range<u32>, apart: u64) -> Vec<u32> {
    let mut at = w + rng.below(100) as u32;
    let mut ids = Vec::new();
    while at < w + 3500 {
        let run = lengths.start + rng.below(u64::from(lengths.end - lengths.start)) as u32;
        ids.extend(at..at + run);
        at += run + 1 + rng.below(apart) as u32;
    }
    ids
}

/// A short list read whole by its one decode fails as a list read block by
/// block does: the same error, at the same offset.
#[test]
fn a_damaged_short_list_fails_as_decoding_it_does() {
    let mut rng = Rng(19);
    let ids: Vec<u32> = (0..40).map(|i| i * 37 + rng.below(30) as u32).collect();
    let runs: Vec<u32> = (0..30).flat_map(|i| i * 90..i * 90 + 1 + i).collect();
    let dense: Vec<u32> = (0..2700).step_by(3).collect();
    for form in [
        roomy(&ids),
        encode_gaps(&ids),
        encode(&runs).unwrap(),
        encode(&dense).unwrap(),
    ] {
        damaged_short_list_fails_as_decoding_it_does(form);
    }
}

fn damaged_short_list_fails_as_decoding_it_does(bytes: Vec<u8>) {
    assert!(Single::new(&bytes, Filters::Kept).is_some());
    // A short list of gaps whose ids the damaged one keeps.
    let partner = encode_gaps(&(0..3000).step_by(7).collect::<Vec<u32>>());
    let partner_ids = [decode_to_vec(&partner).unwrap()];
    let mut failed = 0;
    each_bit_flipped(&bytes, |bad, isa, at| {
        let mut or = Vec::new();
        let got = or_with(isa, &[bad], &mut or).map(|()| or);
        match decode_to_vec(bad) {
            Err(e) => {
                assert_eq!(got, Err(e), "{at}");
                failed += 1;
            }
            Ok(mut want) => {
                want.dedup();
                assert_eq!(got, Ok(want), "{at}");
            }
        }
        let mut and = Vec::new();
        if let Err(e) = and_with(isa, &[bad, &bytes], &mut and) {
            assert_eq!(decode_to_vec(bad), Err(e));
        }
        and_with_damaged(isa, &[bad, &partner], bad, &partner_ids, &at);
    });
    assert!(failed > 0);
}

#[test]
fn lists_stored_one_after_another_are_found_by_where_they_start() {
    let mut rng = Rng(3);
    let lists: Vec<Vec<u32>> = (0..5).map(|_| list(&mut rng, false)).collect();
    let mut index = Vec::new();
    let starts: Vec<usize> = lists
        .iter()
        .map(|l| {
            let at = index.len();
            encode_into(l, &mut index).unwrap();
            at
        })
        .collect();
    for (l, &s) in lists.iter().zip(&starts) {
        let mut got = Vec::new();
        decode_into(&index[s..], &mut got).unwrap();
        assert_eq!(&got, l);
    }
    let refs: Vec<&[u8]> = starts.iter().map(|&s| &index[s..]).collect();
    let mut got = Vec::new();
    and(&refs[1..3], &mut got).unwrap();
    assert_eq!(got, and_of(&lists[1..3]));
}

#[test]
fn unsorted_ids_are_refused() {
    assert!(matches!(
        encode(&[1, 1]),
        Err(Error::InvalidArgument { .. })
    ));
    assert!(matches!(
        encode(&[5, 2]),
        Err(Error::InvalidArgument { .. })
    ));
    assert_eq!(
        decode_to_vec(&encode(&[]).unwrap()).unwrap(),
        Vec::<u32>::new()
    );
    assert_eq!(
        encode(&[u32::MAX]).map(|b| decode_to_vec(&b)),
        Ok(Ok(vec![u32::MAX]))
    );
}

#[test]
fn every_cut_and_every_flipped_byte_gives_an_error_or_a_list_never_a_panic() {
    let mut rng = Rng(5);
    let a: Vec<u32> = (0..9000)
        .filter(|v| v % 2 == 0)
        .chain([20_000, 70_000])
        .collect();
    let bytes = encode(&a).unwrap();
    let other = encode(&list(&mut rng, false)).unwrap();
    for cut in 0..bytes.len() {
        let part = &bytes[..cut];
        assert!(decode_to_vec(part).is_err(), "cut {cut}");
        for &isa in Isa::available() {
            let mut out = vec![7];
            assert!(
                or_with(isa, &[part, &other], &mut out).is_err(),
                "cut {cut}"
            );
            assert!(out.is_empty());
            // An intersection may end before it reaches the cut.
            let _ = and_with(isa, &[part, &other], &mut out);
        }
    }
    for i in 0..bytes.len().min(2000) {
        let mut bad = bytes.clone();
        bad[i] ^= 1 << rng.below(8);
        for &isa in Isa::available() {
            let mut out = Vec::new();
            let _ = decode_into_with(isa, &bad, &mut out);
            let _ = and_with(isa, &[&bad, &other], &mut out);
            let _ = or_with(isa, &[&bad, &other], &mut out);
        }
    }
}

#[test]
fn hostile_headers_are_named() {
    let head = |kind: u32, n: u32| {
        let mut b = vec![1];
        put_varint(&mut b, kind | n << 2);
        b
    };
    // A block claiming 2^29 gaps in 3 bytes (its last id 0).
    let mut b = head(GAPS, 1 << 29);
    b.extend([0, 3]);
    let at = b.len();
    b.extend([0, 0, 0]);
    assert!(matches!(decode_to_vec(&b), Err(Error::Corrupt { offset, .. }) if offset == at));
    // A block whose gaps end elsewhere than its header says.
    let mut b = head(GAPS, 1);
    b.extend([9, 2, 0, 8]);
    assert!(matches!(
        decode_to_vec(&b),
        Err(Error::Corrupt { offset: 4, .. })
    ));
    // A block past the largest id.
    let mut b = head(GAPS, 1);
    put_varint(&mut b, u32::MAX);
    let mut c = b.clone();
    put_varint(&mut c, 2);
    c.extend([0, 1]);
    let mut list = encode(&[7]).unwrap();
    list[0] = 2;
    list.extend_from_slice(&c[1..]);
    assert!(matches!(decode_to_vec(&list), Err(Error::Corrupt { .. })));
    // A bitmap block past the last window.
    let mut b = head(BITMAP, 2);
    put_varint(&mut b, WINDOWS - 1);
    assert!(matches!(
        decode_to_vec(&b),
        Err(Error::Corrupt { offset: 2, .. })
    ));
    // A bitmap block longer than the bytes.
    let mut b = head(BITMAP, 1);
    b.extend([0, 0xff]);
    assert!(matches!(
        decode_to_vec(&b),
        Err(Error::Truncated { offset: 1, .. })
    ));
    // Runs (their bytes from offset 4): more than the bytes can hold, one
    // longer than a window, one past the largest id.
    let mut b = head(RUNS, 3);
    b.extend([0, 4, 0, 0, 0, 0]);
    assert!(matches!(
        decode_to_vec(&b),
        Err(Error::Corrupt { offset: 4, .. })
    ));
    // A run's first and last ids are gaps (from the id before the block,
    // 0, then from the first), as a Stream VByte stream.
    let runs = |first: u32, len: u32| {
        let body = stream_vbyte::encode_to_vec(&[first, len]);
        let mut b = head(RUNS, 1);
        put_varint(&mut b, first.wrapping_add(len));
        put_varint(&mut b, body.len() as u32);
        let at = b.len();
        b.extend(body);
        (b, at)
    };
    let (b, at) = runs(0, WINDOW);
    assert_eq!(
        decode_to_vec(&b),
        Err(Error::Corrupt {
            offset: at,
            what: "a run longer than a window"
        })
    );
    let (b, at) = runs(u32::MAX - 5, 9);
    assert_eq!(
        decode_to_vec(&b),
        Err(Error::Corrupt {
            offset: at,
            what: "runs that do not rise"
        })
    );
    // Arrays (their offsets from offset 3): offsets that fall, a first
    // offset of 0, a last id past the largest, more offsets than bytes.
    let array = |first: u32, offsets: &[u16]| {
        let mut b = head(ARRAY, offsets.len() as u32 + 1);
        put_varint(&mut b, first);
        for o in offsets {
            b.extend(o.to_le_bytes());
        }
        b
    };
    assert_eq!(
        decode_to_vec(&array(5, &[1, 9, 700])),
        Ok(vec![5, 6, 14, 705])
    );
    for bad in [&[9, 9][..], &[9, 3, 700], &[0, 1]] {
        assert_eq!(
            decode_to_vec(&array(5, bad)),
            Err(Error::Corrupt {
                offset: 3,
                what: "an array whose ids do not rise"
            }),
            "{bad:?}"
        );
    }
    assert!(matches!(
        decode_to_vec(&array(u32::MAX - 2, &[1, 3])),
        Err(Error::Corrupt { offset: 2, .. })
    ));
    let mut b = head(ARRAY, 1 << 29);
    let at = b.len();
    b.extend([0, 1, 0]);
    assert!(matches!(decode_to_vec(&b), Err(Error::Truncated { offset, .. }) if offset == at));
    // A block of no ids; an array's first id cut off; a varint that never
    // ends.
    assert!(matches!(
        decode_to_vec(&[1, 0]),
        Err(Error::Corrupt { offset: 1, .. })
    ));
    assert!(matches!(
        decode_to_vec(&[1, 7]),
        Err(Error::Truncated { offset: 2, .. })
    ));
    assert!(matches!(
        decode_to_vec(&[0x80; 9]),
        Err(Error::Corrupt { offset: 0, .. })
    ));
}

/// Blocks hold whole windows: a block whose first id is in the window
/// of the block before's last is damaged, named so by a decode and by a
/// query that reads it, whichever way the query walks.
#[test]
fn a_block_that_shares_its_first_window_is_named() {
    // Gaps from `before`, as a block of gaps (its stream at the offset
    // returned, in the block).
    let gaps = |ids: &[u32], before: u32| {
        let body = stream_vbyte::encode_delta_to_vec(ids, before);
        let mut b = Vec::new();
        put_varint(&mut b, GAPS | (ids.len() as u32) << 2);
        put_varint(&mut b, ids[ids.len() - 1] - before);
        put_varint(&mut b, body.len() as u32);
        let at = b.len();
        b.extend(body);
        (b, at)
    };
    let (first, _) = gaps(&[10, 20], 0);
    let shared = |offset| Error::Corrupt {
        offset,
        what: "a block that starts in a window the block before holds",
    };
    // Within that window, named by its last id (after its kind and count);
    // reaching into the next, by its first id (at its stream).
    let (second, _) = gaps(&[30, 40], 20);
    let mut list = vec![2];
    list.extend(&first);
    let within = shared(list.len() + 1);
    list.extend(&second);
    assert_eq!(decode_to_vec(&list), Err(within.clone()));
    let (second, at) = gaps(&[30, WINDOW + 40], 20);
    let mut reaching = vec![2];
    reaching.extend(&first);
    let into = shared(reaching.len() + at);
    reaching.extend(&second);
    assert_eq!(decode_to_vec(&reaching), Err(into.clone()));
    // The same ids a window later are whole windows.
    let (later, _) = gaps(&[WINDOW + 30, WINDOW + 40], 20);
    let mut fine = vec![2];
    fine.extend(&first);
    fine.extend(&later);
    assert_eq!(
        decode_to_vec(&fine).unwrap(),
        [10, 20, WINDOW + 30, WINDOW + 40]
    );
    let partner = encode_gaps(&[30, 40, 50]);
    let long = encode_gaps(&(0..5000).map(|i| 2 * i).collect::<Vec<u32>>());
    for &isa in Isa::available() {
        let mut and = Vec::new();
        for (bad, error) in [(&list, &within), (&reaching, &into)] {
            for query in [[&bad[..], &partner], [&long, bad]] {
                assert_eq!(and_with(isa, &query, &mut and), Err(error.clone()));
            }
        }
    }
}

#[test]
fn runs_become_runs_blocks_at_a_few_bytes_a_run() {
    // 40 runs of 1000 ids each, 3000 apart: 40 runs (and the 9 a window's
    // edge cuts in two) of two gaps of 2 bytes and their control bits, and
    // a block header.
    let values: Vec<u32> = (0..40u32).flat_map(|r| r * 4000..r * 4000 + 1000).collect();
    let bytes = encode(&values).unwrap();
    assert!(bytes.len() <= 8 + 49 * 9 / 2, "{}", bytes.len());
    assert_eq!(decode_to_vec(&bytes).unwrap(), values);
    // A run of a million ids: a run a window (245), of a gap of 1 byte and
    // one of 2, in one block: a control byte for two runs (123), and the
    // block's header of 7 bytes.
    let values: Vec<u32> = (5..1_000_005).collect();
    let bytes = encode(&values).unwrap();
    assert_eq!(bytes[0], 1);
    assert!(bytes.len() <= 1 + 245 * 3 + 123 + 7, "{}", bytes.len());
    assert_eq!(decode_to_vec(&bytes).unwrap(), values);
}

/// A few short runs in a sparse list stay gaps: as runs they would save a
/// byte or two, and cut the list's one block of gaps into three, each with
/// a header; runs that save more than those headers become runs.
#[test]
fn short_runs_in_gaps_stay_gaps() {
    // 200 ids 40 apart, and runs of 3 in two windows.
    let mut values: Vec<u32> = (0..200).map(|v| v * 40).collect();
    values.extend([9_000, 9_001, 9_002, 5_000_000, 5_000_001, 5_000_002]);
    values.sort_unstable();
    let bytes = encode(&values).unwrap();
    // One block: the block count, then a header of kind gaps.
    assert_eq!(bytes[0], 1);
    assert_eq!(u32::from(bytes[1]) & 3, GAPS);
    assert_eq!(bytes, encode_gaps(&values));
    assert_eq!(decode_to_vec(&bytes).unwrap(), values);
    // A run of 200 ids saves more than the headers: a block of runs,
    // between two of gaps.
    let mut values: Vec<u32> = (0..200).map(|v| v * 40).collect();
    values.extend(9_000..9_200);
    values.extend((0..200).map(|v| 20_000 + v * 40));
    let bytes = encode(&values).unwrap();
    assert_eq!(bytes[0], 3);
    assert!(bytes.len() + 100 < stream_vbyte::encode_delta_to_vec(&values, 0).len());
    assert_eq!(decode_to_vec(&bytes).unwrap(), values);
}

/// A short list whose planned blocks take fewer bytes than one block of
/// gaps, by less than an eighth, is written as that one block, which a
/// query reads whole rather than walks; by more, it keeps its blocks.
#[test]
fn short_lists_become_one_block_of_gaps() {
    // 100 ids far apart, then a run of 16: a block of gaps and one of runs,
    // a few bytes fewer than the run's ids as gaps.
    let mut values: Vec<u32> = (1..=100).map(|v| v * 100_000).collect();
    values.extend(20_000_000..20_000_016);
    let planned = encode_gaps(&values);
    assert_eq!(planned[0], 2);
    let bytes = encode(&values).unwrap();
    // One block: the count, then a head of kind gaps and 116 ids.
    let mut head = vec![1];
    put_varint(&mut head, GAPS | 116 << 2);
    assert_eq!(bytes[..head.len()], head);
    let (planned, one) = (planned.len(), bytes.len());
    assert!(planned < one && one * 8 <= planned * 9, "{planned} {one}");
    assert_eq!(decode_to_vec(&bytes).unwrap(), values);
    // 15 ids and a run of 40: the run's block saves over a third.
    let mut values: Vec<u32> = (1..=15).map(|v| v * 100_000).collect();
    values.extend(20_000_000..20_000_040);
    let bytes = encode(&values).unwrap();
    assert_eq!(bytes[0], 2);
    assert_eq!(bytes, encode_gaps(&values));
}

/// A few lone ids amid runs become runs of one id: as gaps they would
/// save a byte or two, and cut the list's block of runs into three.
#[test]
fn lone_ids_amid_runs_join_the_runs() {
    // Runs of 100 ids in windows 0, 2 and 4, and an id alone in 1 and 3.
    let mut values: Vec<u32> = [0, 2, 4]
        .iter()
        .flat_map(|w| w * WINDOW..w * WINDOW + 100)
        .collect();
    values.extend([WINDOW + 7, 3 * WINDOW + 9]);
    values.sort_unstable();
    let bytes = encode(&values).unwrap();
    assert_eq!(bytes[..2], [1, RUNS as u8 | 5 << 2]);
    assert_eq!(decode_to_vec(&bytes).unwrap(), values);
    // Sparse ids between the runs, 300 of them: a block of gaps there.
    values.extend((0..300).map(|v| WINDOW + 200 + 11 * v));
    values.sort_unstable();
    let bytes = encode(&values).unwrap();
    assert_eq!(bytes[0], 3);
    assert_eq!(decode_to_vec(&bytes).unwrap(), values);
}

#[test]
fn window_kernels_agree_with_the_scalar_ones() {
    let mut rng = Rng(9);
    for case in 0..400 {
        let mut words = [0u64; WORDS];
        let density = rng.below(65);
        for w in words.iter_mut() {
            for bit in 0..64 {
                if rng.below(64) < density {
                    *w |= 1 << bit;
                }
            }
        }
        let base = (rng.below(u64::from(WINDOWS)) as u32) << SHIFT;
        let mut want = vec![5];
        scalar::extract(&words, base, &mut want);
        for &isa in Isa::available() {
            let mut got = vec![5];
            extract(isa, &words, base, &mut got);
            assert_eq!(got, want, "case {case}, {isa:?}");
        }
    }
}

/// Runs checked at every level as by the scalar kernel: every count of runs
/// up to a few steps of sixteen values, with runs that touch, overlap,
/// share an end with the next, fall, end a window or one less past their
/// first, wrap past the largest id, or start below, at or above `before`
/// (0 among them).
#[test]
fn run_checks_agree_with_the_scalar_one() {
    let mut rng = Rng(57);
    for case in 0..3000 {
        let n = rng.below(40) as usize;
        // The first block's runs start from 0, and may start at it.
        let before = if case % 5 == 0 {
            0
        } else {
            rng.below(1 << 20) as u32
        };
        let mut at = u64::from(before) + rng.below(3);
        let mut runs = Vec::with_capacity(n);
        for _ in 0..n {
            let len = rng.below(u64::from(WINDOW));
            let first = at.min(u64::from(u32::MAX)) as u32;
            let last = (at + len).min(u64::from(u32::MAX)) as u32;
            runs.push([first, last]);
            at += len + 1 + rng.below(5000);
        }
        if n > 0 && case % 4 != 0 {
            let k = rng.below(n as u64) as usize;
            let [a, b] = runs[k];
            runs[k] = match rng.below(7) {
                0 => [a, a.wrapping_sub(1)],
                1 => [a, a.wrapping_add(WINDOW)],
                2 => [a, a.wrapping_add(WINDOW - 1)],
                3 if k > 0 => [runs[k - 1][1], b],
                4 if k > 0 => [runs[k - 1][1].wrapping_add(1), b],
                5 => [before.wrapping_sub(1), b],
                6 => [a, u32::MAX],
                _ => [before, b],
            };
        }
        let want = scalar::runs_fit(&runs, before);
        for &isa in Isa::available() {
            assert_eq!(
                span::runs_fit(isa, &runs, before),
                want,
                "case {case}, {isa:?}"
            );
        }
    }
}

/// Ids kept by a bit test at every level as by the scalar kernel: bitmaps
/// of one to four windows (and lengths no window has), of every density;
/// ids of every density over them, sorted, some below the bitmap or past
/// it, or out of order, at lengths about the kernels' sixteen.
#[test]
fn bit_tests_agree_with_the_scalar_one() {
    let mut rng = Rng(41);
    for case in 0..3000 {
        let len = match case % 5 {
            4 => rng.below(1200) as usize,
            _ => (1 + rng.below(4) as usize) * WINDOW_BYTES,
        };
        let density = rng.below(9);
        let bits: Vec<u8> = (0..len)
            .map(|_| (0..8).fold(0u8, |b, k| b | u8::from(rng.below(8) < density) << k))
            .collect();
        let base = (rng.below(u64::from(WINDOWS)) as u32) << SHIFT;
        let span = (len as u64 * 8).max(1);
        let n = rng.below(120) as usize;
        // From every id of the bitmap to one in 2,000, and past it at times.
        let gap = [1, 8, 64, 2000][rng.below(4) as usize];
        let step = 1 + rng.below(gap);
        let mut at = rng.below(span);
        let mut ids: Vec<u32> = (0..n)
            .map(|_| {
                at += rng.below(step) + 1;
                let off = if case % 7 == 0 { at } else { at % (span + 40) };
                base.wrapping_add(off as u32)
            })
            .collect();
        match case % 11 {
            3 => ids.sort_unstable(),
            5 if n > 1 => ids.swap(0, n - 1),
            7 if n > 0 => ids[n / 2] = base.wrapping_sub(1 + rng.below(5000) as u32),
            _ => ids.sort_unstable(),
        }
        let mut want = ids.clone();
        let k = scalar::keep_set(&bits, base, &mut want);
        for &isa in Isa::available() {
            let mut got = ids.clone();
            let m = span::keep_set(isa, &bits, base, &mut got);
            assert_eq!(got[..m], want[..k], "case {case}, {isa:?}");
        }
    }
}

/// Runs' ids written at every level as a range of each: runs of one id to
/// a window's, a few apart or far, up to the largest id, cut to spans that
/// start and end inside them or hold them whole; the ids before untouched.
#[test]
fn run_expansions_are_their_ranges() {
    let mut rng = Rng(37);
    for case in 0..2000 {
        let mut runs = Vec::new();
        let mut at = if case % 10 == 9 {
            u64::from(u32::MAX) - rng.below(20_000)
        } else {
            rng.below(1 << 20)
        };
        for _ in 0..rng.below(40) {
            let len = [1, 2, 15, 16, 17, 33, WINDOW as u64][rng.below(7) as usize];
            let last = (at + len - 1).min(u64::from(u32::MAX));
            runs.push([at as u32, last as u32]);
            at = last + 2 + rng.below(100);
            if at > u64::from(u32::MAX) {
                break;
            }
        }
        let (lo, hi) = match (runs.first(), runs.last()) {
            (Some(f), Some(l)) if case % 2 == 0 => {
                let (f, l) = (u64::from(f[0]), u64::from(l[1]));
                (f + rng.below(l - f + 1), f + rng.below(l - f + 2))
            }
            _ => (0, 1 << 32),
        };
        let want: Vec<u32> = [9, 9]
            .into_iter()
            .chain(runs.iter().flat_map(|&[a, b]| a..=b))
            .enumerate()
            .filter(|&(i, v)| i < 2 || (lo..hi).contains(&u64::from(v)))
            .map(|(_, v)| v)
            .collect();
        for &isa in Isa::available() {
            let mut got = vec![9, 9];
            span::expand(isa, &runs, lo, hi, &mut got);
            assert_eq!(got, want, "case {case}, {isa:?}");
        }
    }
}

/// Arrays' offsets widened at every level as by the scalar kernel, at
/// every length about a step of 32 and its masked tail, rising or with one
/// offset that falls, repeats or is a first 0, at any place; the ids
/// around them untouched.
#[test]
fn searches_for_few_candidates_keep_those_held() {
    let mut rng = Rng(43);
    for case in 0..2000 {
        // Up to 4,000 ids, from a step of one to a step of 30, and 1 to 40
        // candidates: some scans, some gallops, some of neither.
        let n = rng.below(4000) as usize;
        let step = 1 + rng.below(30);
        let first = rng.below(1 << 20) as u32;
        let mut ids = vec![first];
        while ids.len() < n {
            let next = u64::from(*ids.last().unwrap()) + 1 + rng.below(step);
            if next - u64::from(first) > 0xffff {
                break;
            }
            ids.push(next as u32);
        }
        let top = u64::from(*ids.last().unwrap()) + 3;
        let mut candidates: Vec<u32> = (0..1 + rng.below(40))
            .map(|_| match rng.below(3) {
                0 => ids[rng.below(ids.len() as u64) as usize],
                _ => (u64::from(first) + rng.below(top - u64::from(first))) as u32,
            })
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        let want: Vec<u32> = candidates
            .iter()
            .copied()
            .filter(|c| ids.binary_search(c).is_ok())
            .collect();
        let offsets: Vec<[u8; 2]> = ids[1..]
            .iter()
            .map(|&v| ((v - first) as u16).to_le_bytes())
            .collect();
        for &isa in Isa::available() {
            let mut room = vec![0; candidates.len()];
            let k = span::keep_few(isa, &candidates, &ids, &mut room);
            assert_eq!(room[..k], want, "case {case}, {isa:?}");
            let k = span::keep_few16(isa, &candidates, first, &offsets, &mut room);
            assert_eq!(room[..k], want, "in place, case {case}, {isa:?}");
        }
        // Ids out of order (a damaged list's): some of the candidates,
        // never a read out of bounds.
        if ids.len() > 2 {
            let (mut ids, mut offsets) = (ids.clone(), offsets.clone());
            let (a, b) = (
                rng.below(ids.len() as u64) as usize,
                rng.below(offsets.len() as u64) as usize,
            );
            ids[a] = rng.below(1 << 21) as u32;
            offsets[b] = (rng.below(1 << 16) as u16).to_le_bytes();
            for &isa in Isa::available() {
                let mut room = vec![0; candidates.len()];
                assert!(span::keep_few(isa, &candidates, &ids, &mut room) <= candidates.len());
                let k = span::keep_few16(isa, &candidates, first, &offsets, &mut room);
                assert!(k <= candidates.len());
            }
        }
    }
}

#[test]
fn array_kernels_agree_with_the_scalar_one() {
    let mut rng = Rng(31);
    for case in 0..3000 {
        let n = rng.below(100) as usize;
        let mut offsets: Vec<u16> = Vec::with_capacity(n);
        let mut at = 0u16;
        for _ in 0..n {
            at = at.saturating_add(1 + rng.below(600) as u16);
            offsets.push(at);
        }
        if n > 0 && case % 3 != 0 {
            let k = rng.below(n as u64) as usize;
            offsets[k] = match rng.below(3) {
                0 => 0,
                1 if k > 0 => offsets[k - 1],
                _ => offsets[k].wrapping_sub(1 + rng.below(700) as u16),
            };
        }
        let offsets: Vec<[u8; 2]> = offsets.iter().map(|o| o.to_le_bytes()).collect();
        let first = rng.below(u64::from(u32::MAX - 0xffff)) as u32;
        let mut want = vec![7; n + 2];
        let want_falls = scalar::widen(first, &offsets, &mut want[1..n + 1]);
        let rising = offsets
            .windows(2)
            .all(|w| u16::from_le_bytes(w[1]) > u16::from_le_bytes(w[0]));
        assert_eq!(
            want_falls,
            !(rising && offsets.first().is_none_or(|o| *o != [0, 0]))
        );
        for &isa in Isa::available() {
            let mut got = vec![7; n + 2];
            let falls = span::widen(isa, first, &offsets, &mut got[1..n + 1]);
            assert_eq!(falls, want_falls, "case {case}, {isa:?}");
            assert_eq!(got, want, "case {case}, {isa:?}");
        }
    }
}

#[test]
fn the_format_documents_example_is_what_the_encoder_writes() {
    // docs/FORMAT.md, "Hybrid posting lists".
    assert_eq!(
        roomy(&[5, 300, 1000]),
        [0x01, 0x0f, 0x05, 0x27, 0x01, 0xe3, 0x03]
    );
    let bytes = encode(&[5, 300, 1000]).unwrap();
    assert_eq!(
        bytes,
        [
            0x01, 0x0c, 0xe8, 0x07, 0x06, 0x14, 0x05, 0x27, 0x01, 0xbc, 0x02
        ]
    );
    assert_eq!(decode_to_vec(&bytes).unwrap(), [5, 300, 1000]);
    let all: Vec<u32> = (0..10_000).collect();
    let bytes = encode(&all).unwrap();
    assert_eq!(bytes[..2], [0x01, RUNS as u8 | 3 << 2]);
    assert_eq!(decode_to_vec(&bytes).unwrap(), all);
}

/// The run intersections against sets of their ids, cut to a span, on runs
/// that touch, nest, share ends and miss each other, in lists of like
/// lengths and of far unlike ones, by the kernel of every level; their
/// union as runs; and ids kept by the runs they are in.
#[test]
fn run_intersections_are_those_of_their_ids() {
    let mut rng = Rng(23);
    let draw = |rng: &mut Rng| -> Vec<[u32; 2]> {
        let mut runs = Vec::new();
        let mut at = rng.below(20) as u32;
        let n = [12, 300][rng.below(2) as usize];
        // Gaps of a few ids (most runs meet one of the other list's) or of
        // dozens (most miss).
        let apart = [6, 60][rng.below(2) as usize];
        for _ in 0..rng.below(n) {
            let len = rng.below(9) as u32;
            runs.push([at, at + len]);
            at += len + 1 + rng.below(apart) as u32;
        }
        runs
    };
    let ids =
        |runs: &[[u32; 2]]| -> BTreeSet<u32> { runs.iter().flat_map(|&[a, b]| a..=b).collect() };
    for _ in 0..3000 {
        let (a, b) = (draw(&mut rng), draw(&mut rng));
        let lo = rng.below(30) as u32;
        let hi = lo + rng.below(4000) as u32;
        let want: Vec<u32> = ids(&a)
            .intersection(&ids(&b))
            .copied()
            .filter(|v| (lo..=hi).contains(v))
            .collect();
        let mut got = vec![[7, 7]];
        scalar::and_runs(&a, &b, lo, hi, &mut got);
        assert_eq!(got[0], [7, 7]);
        assert!(got[1..].iter().all(|r| r[0] <= r[1]), "{a:?} {b:?}");
        assert!(
            got[1..].windows(2).all(|w| w[0][1] < w[1][0]),
            "{a:?} {b:?}"
        );
        assert_eq!(
            ids(&got[1..]).into_iter().collect::<Vec<_>>(),
            want,
            "{a:?} {b:?} {lo} {hi}"
        );
        assert_eq!(scalar::and_runs_count(&a, &b, lo, hi), want.len());
        // Their union as runs: those of the ids, apart and rising.
        let mut union = vec![[7, 7]];
        scalar::or_runs(&a, &b, &mut union);
        assert_eq!(union[0], [7, 7]);
        assert!(
            union[1..].windows(2).all(|w| w[0][1] + 1 < w[1][0]),
            "{a:?} {b:?} {union:?}"
        );
        assert!(union[1..].iter().all(|r| r[0] <= r[1]), "{a:?} {b:?}");
        assert_eq!(ids(&union[1..]), &ids(&a) | &ids(&b), "{a:?} {b:?}");
        for &isa in Isa::available() {
            let mut by = vec![[7, 7]];
            span::and_runs(isa, &a, &b, lo, hi, &mut by);
            assert_eq!(by, got, "{isa:?} {a:?} {b:?} {lo} {hi}");
            let n = span::and_runs_count(isa, &a, &b, lo, hi);
            assert_eq!(n, want.len(), "{isa:?} {a:?} {b:?} {lo} {hi}");
        }
        // Ids kept by the runs they are in.
        let mut probe: Vec<u32> = ids(&b)
            .into_iter()
            .step_by(1 + rng.below(40) as usize)
            .collect();
        let inside: Vec<u32> = probe
            .iter()
            .copied()
            .filter(|v| ids(&a).contains(v))
            .collect();
        let scan = probe.clone();
        let kept = scalar::keep_in_runs(&a, &mut probe);
        assert_eq!(probe[..kept], inside[..], "{a:?} {b:?}");
        // The same runs read in place from their stream, after an id before.
        let before = a
            .first()
            .map_or(0, |r| r[0].saturating_sub(rng.below(3) as u32));
        let stream = stream_vbyte::encode_delta_to_vec(a.as_flattened(), before);
        for &isa in Isa::available() {
            let mut got = scan.clone();
            let kept = keep_in_stream_runs(isa, &stream, a.len(), before, &mut got);
            assert_eq!(got[..kept], inside[..], "{isa:?} {a:?} {b:?}");
        }
        // And the other list's runs intersected with them there.
        let whole: Vec<u32> = ids(&a).intersection(&ids(&b)).copied().collect();
        for &isa in Isa::available() {
            let mut got = vec![[7, 7]];
            and_stream_runs(isa, &stream, a.len(), before, &b, &mut got);
            assert_eq!(got[0], [7, 7]);
            assert!(got[1..].windows(2).all(|w| w[0][1] < w[1][0]), "{isa:?}");
            let got: Vec<u32> = ids(&got[1..]).into_iter().collect();
            assert_eq!(got, whole, "{isa:?} {a:?} {b:?}");
        }
        // Damaged: bytes at random give rising ids of the candidates, and
        // rising runs within the other's.
        if let Some(byte) = stream.len().checked_sub(1) {
            let mut bad = stream.clone();
            bad[rng.below(byte as u64 + 1) as usize] ^= 1 << rng.below(8);
            bad.truncate(bad.len() - rng.below(3) as usize);
            for &isa in Isa::available() {
                let mut got = scan.clone();
                let kept = keep_in_stream_runs(isa, &bad, a.len(), before, &mut got);
                assert!(got[..kept].windows(2).all(|w| w[0] < w[1]), "{isa:?}");
                let mut runs = Vec::new();
                and_stream_runs(isa, &bad, a.len(), before, &b, &mut runs);
                assert!(runs.iter().all(|r| r[0] <= r[1]), "{isa:?}");
                assert!(runs.windows(2).all(|w| w[0][1] < w[1][0]), "{isa:?}");
                assert!(ids(&runs).is_subset(&ids(&b)), "{isa:?}");
            }
        }
    }
}

/// A driver of a few runs against lists of many blocks of runs (searched in
/// their streams, or decoded where a walk reached them), with bitmaps and
/// gaps between (walked): as sets, whichever blocks the driver's runs
/// reach.
#[test]
fn a_few_runs_against_long_lists_of_runs_answer_as_sets_do() {
    let mut rng = Rng(41);
    // Runs of a few ids, dozens apart, over `windows`, with a dense window
    // (a bitmap) or a sparse one (gaps) here and there.
    let long = |rng: &mut Rng, windows: u32| -> Vec<u32> {
        let mut ids = Vec::new();
        for w in 0..windows {
            let base = w * WINDOW;
            match rng.below(12) {
                0 => ids.extend((base..base + WINDOW).filter(|_| rng.below(3) != 0)),
                1 => ids.extend((base..base + WINDOW).step_by(97)),
                _ => {
                    let mut at = base + rng.below(8) as u32;
                    while at + 40 < base + WINDOW {
                        let len = 1 + rng.below(12) as u32;
                        ids.extend(at..at + len);
                        at += len + 1 + rng.below(400) as u32;
                    }
                }
            }
        }
        ids
    };
    for case in 0..60 {
        let windows = 8 + rng.below(80) as u32;
        let k = 2 + rng.below(2) as usize;
        let mut lists: Vec<Vec<u32>> = (1..k).map(|_| long(&mut rng, windows)).collect();
        // The driver: a few runs, some at ids the first long list holds.
        let mut few = Vec::new();
        for _ in 0..1 + rng.below(6) {
            let at = match rng.below(2) {
                0 => lists[0][rng.below(lists[0].len() as u64) as usize],
                _ => rng.below(u64::from(windows * WINDOW)) as u32,
            };
            few.extend(at..at + 2 + rng.below(40) as u32);
        }
        few.sort_unstable();
        few.dedup();
        lists.insert(0, few);
        answers_as_sets_do(&lists, 2 * case);
    }
}

/// A list of many blocks starts with an index of them: a decode checks
/// every block against it, so any entry changed is named; a query that
/// passes blocks by an entry that points back, or past the bytes, names
/// it; none panics.
#[test]
fn a_damaged_index_is_named() {
    let ids: Vec<u32> = (0..6000).map(|i| 40 * i).collect();
    let bytes = encode_gaps(&ids);
    let blocks = bytes[0] as usize;
    assert!(
        blocks as u32 >= read::INDEXED && bytes[0] < 0x80,
        "{blocks}"
    );
    assert_eq!(decode_to_vec(&bytes).unwrap(), ids);
    let wrong = |e: &Result<Vec<u32>, Error>| {
        matches!(e, Err(Error::Corrupt { what, .. })
            if *what == "a block that its list's index does not match")
    };
    // Entry `k` of the lasts (`k < blocks`) or the ends, at its offset.
    let entry = |k: usize| 1 + 4 * k;
    let set = |k: usize, v: u32| {
        let mut bad = bytes.clone();
        bad[entry(k)..entry(k) + 4].copy_from_slice(&v.to_le_bytes());
        bad
    };
    let get = |k: usize| u32::from_le_bytes(bytes[entry(k)..entry(k) + 4].try_into().unwrap());
    for k in 0..2 * blocks {
        for v in [get(k) + 1, get(k) - 1, 0, u32::MAX] {
            assert!(wrong(&decode_to_vec(&set(k, v))), "entry {k} = {v}");
        }
    }
    // A query for the last id passes all blocks but the last by the index.
    let partner = encode(&[ids[ids.len() - 1]]).unwrap();
    let query = |list: &[u8], isa| {
        let mut out = Vec::new();
        and_with(isa, &[list, &partner], &mut out).map(|()| out)
    };
    let (last_end, last_of_before) = (blocks + blocks - 2, blocks - 2);
    for &isa in Isa::available() {
        assert_eq!(query(&bytes, isa), Ok(vec![ids[ids.len() - 1]]));
        // The block before the last ending past the bytes, or before the
        // block the query stands in; the last id before it falling.
        for (k, v) in [(last_end, u32::MAX), (last_end, 0), (last_of_before, 0)] {
            let got = query(&set(k, v), isa);
            assert_eq!(
                got,
                Err(Error::Corrupt {
                    offset: entry(k % blocks),
                    what: "a block that its list's index does not match",
                }),
                "entry {k} = {v}, {isa:?}"
            );
        }
        // Cut in its index: a decode and a query say so.
        let cut = &bytes[..entry(blocks)];
        assert!(matches!(decode_to_vec(cut), Err(Error::Truncated { .. })));
        assert!(matches!(query(cut, isa), Err(Error::Truncated { .. })));
    }
}

#[test]
fn runs_extended_or_cut_in_place_are_those_clipped() {
    let mut rng = Rng(29);
    for round in 0..4000 {
        // Rising runs within the span (copied whole), rising runs across
        // its ends, and damaged ones: empty (first above last) or out of
        // order, each cut as `clipped` cuts it.
        let mut runs = Vec::new();
        let mut at = rng.below(50) as u32;
        for _ in 0..rng.below(40) {
            let len = rng.below(12) as u32;
            runs.push([at, at + len]);
            at += len + 1 + rng.below(20) as u32;
        }
        if round % 4 == 3 && !runs.is_empty() {
            let i = rng.below(runs.len() as u64) as usize;
            runs[i].reverse();
            let j = rng.below(runs.len() as u64) as usize;
            runs.swap(i, j);
        }
        let (lo, hi) = if round % 2 == 0 {
            (0, u64::from(u32::MAX) + 1)
        } else {
            let lo = rng.below(300);
            (lo, lo + 1 + rng.below(400))
        };
        let before = vec![[7, 9]; rng.below(3) as usize];
        let mut want = before.clone();
        want.extend(span::clipped(&runs, lo, hi));
        let mut got = before;
        span::extend_clipped(&mut got, &runs, lo, hi);
        assert_eq!(got, want, "runs {runs:?}, ids {lo}..{hi}");
        let mut cut = runs.clone();
        span::clip_in_place(&mut cut, lo, hi);
        assert!(
            span::clipped(&runs, lo, hi).eq(cut.iter().copied()),
            "runs {runs:?} cut in place, ids {lo}..{hi}"
        );
    }
}
