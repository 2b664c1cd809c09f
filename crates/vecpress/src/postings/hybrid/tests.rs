use std::collections::BTreeSet;

use super::*;

/// A seeded generator (xorshift), so that failures repeat.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

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
        let every = [1, 2, 3, 7, 50, 1000, 100_000][rng.below(7) as usize];
        let mut v = at;
        while v < at + span && v <= u64::from(u32::MAX) {
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

#[test]
fn lists_round_trip_at_every_level() {
    let mut rng = Rng(7);
    for case in 0..60 {
        let values = list(&mut rng, case % 10 == 9);
        let bytes = encode(&values).unwrap();
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
    let sparse: Vec<u32> = (0..100).map(|v| v * 5000).collect();
    let bytes = encode(&sparse).unwrap();
    // One block of gaps: its stream, after the block count (1 byte), the
    // kind and count (2) and the byte length (2).
    assert_eq!(
        bytes.len(),
        stream_vbyte::encode_delta_to_vec(&sparse, 0).len() + 5
    );
}

#[test]
fn queries_agree_with_sets_at_every_level() {
    let mut rng = Rng(11);
    for case in 0..80 {
        let k = 1 + rng.below(4) as usize;
        let high = case % 8 == 7;
        let lists: Vec<Vec<u32>> = (0..k).map(|_| list(&mut rng, high)).collect();
        let encoded: Vec<Vec<u8>> = lists.iter().map(|l| encode(l).unwrap()).collect();
        let refs: Vec<&[u8]> = encoded.iter().map(|b| &b[..]).collect();
        let (want_and, want_or) = (and_of(&lists), or_of(&lists));
        for &isa in Isa::available() {
            let mut got = vec![1, 2, 3];
            and_with(isa, &refs, &mut got).unwrap();
            assert_eq!(got, want_and, "AND, case {case}, {isa:?}");
            assert_eq!(and_count_with(isa, &refs).unwrap(), want_and.len());
            or_with(isa, &refs, &mut got).unwrap();
            assert_eq!(got, want_or, "OR, case {case}, {isa:?}");
        }
    }
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
    // A block claiming 2^30 gaps in 3 bytes.
    let mut b = vec![1];
    put_varint(&mut b, 1 << 31);
    put_varint(&mut b, 3);
    b.extend([0, 0, 0]);
    assert!(matches!(
        decode_to_vec(&b),
        Err(Error::Corrupt { offset: 1, .. })
    ));
    // A bitmap block past the last window.
    let mut b = vec![1];
    put_varint(&mut b, 1 | 2 << 1);
    put_varint(&mut b, WINDOWS - 1);
    assert!(matches!(decode_to_vec(&b), Err(Error::Corrupt { .. })));
    // A bitmap block longer than the bytes.
    let b = [1, 3, 0, 0xff];
    assert!(matches!(
        decode_to_vec(&b),
        Err(Error::Truncated { offset: 1, .. })
    ));
    // A block of no ids; a varint that never ends.
    assert!(matches!(
        decode_to_vec(&[1, 0]),
        Err(Error::Corrupt { offset: 1, .. })
    ));
    assert!(matches!(
        decode_to_vec(&[0x80; 9]),
        Err(Error::Corrupt { offset: 0, .. })
    ));
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
