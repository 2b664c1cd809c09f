//! Every level's merge against the scalar one: on sorted blocks of every
//! density, from every starting point, and on blocks that are not sorted.

use super::{Merged, keep_common_as, scalar};
use crate::Isa;
use crate::postings::tests::Rng;

/// Two sorted blocks drawn from one range, each value in `a` with odds
/// `pa` in 16, in `b` with odds `pb` in 16.
fn blocks(rng: &mut Rng, len: u32, pa: u64, pb: u64, base: u32) -> (Vec<u32>, Vec<u32>) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for v in 0..len {
        let v = base.saturating_add(v);
        if rng.below(16) < pa {
            a.push(v);
        }
        if rng.below(16) < pb {
            b.push(v);
        }
    }
    b.dedup();
    a.dedup();
    (a, b)
}

/// Runs `isa`'s merge and the scalar one from `(i, kept)`; checks that they
/// agree on where they stopped and what they kept.
///
/// Both forms of the AVX-512 level (compares in vectors or into masks)
/// are run, whichever this CPU's profile chooses.
fn check(isa: Isa, a: &[u32], b: &[u32], i: usize, kept: usize) -> Merged {
    let mut y = vec![9; a.len()];
    let want = scalar::keep_common(a, i, &mut y, kept, b, 0);
    for vectors in [false, true] {
        let mut x = vec![9; a.len()];
        let got = keep_common_as(isa, vectors, a, i, &mut x, kept, b);
        assert_eq!(
            got, want,
            "{isa:?} (vectors {vectors}): a {a:?} b {b:?} from {i} keeping at {kept}"
        );
        assert_eq!(x[..got.kept], y[..want.kept], "{isa:?}: kept");
    }
    want
}

#[test]
fn every_level_keeps_what_the_scalar_merge_keeps() {
    let mut rng = Rng(0x3e7);
    for isa in Isa::available().iter().copied() {
        for round in 0..3000 {
            let len = rng.below(400) as u32;
            let (pa, pb) = (1 + rng.below(16), 1 + rng.below(16));
            let base = if round % 50 == 0 {
                u32::MAX - len
            } else {
                rng.below(1 << 20) as u32
            };
            let (a, b) = blocks(&mut rng, len, pa, pb, base);
            let i = rng.below(a.len() as u64 + 1) as usize;
            let kept = rng.below(i as u64 + 1) as usize;
            let m = check(isa, &a, &b, i, kept);
            assert!(
                m.i == a.len() || m.j == b.len(),
                "{isa:?}: stopped early {m:?}"
            );
        }
    }
}

#[test]
fn lengths_around_the_eight_lanes_and_blocks_apart() {
    for isa in Isa::available().iter().copied() {
        for n in 0..=33u32 {
            for m in 0..=33u32 {
                let a: Vec<u32> = (0..n).map(|v| 3 * v).collect();
                let b: Vec<u32> = (0..m).map(|v| 2 * v).collect();
                check(isa, &a, &b, 0, 0);
                // Every candidate below every value, then above.
                let high: Vec<u32> = (0..m).map(|v| 1000 + v).collect();
                check(isa, &a, &high, 0, 0);
                check(isa, &high, &a, 0, 0);
                // The same values.
                check(isa, &a, &a, 0, 0);
            }
        }
        let top: Vec<u32> = (u32::MAX - 40..=u32::MAX).collect();
        check(isa, &top, &top, 0, 0);
    }
}

#[test]
fn blocks_that_are_not_sorted_stay_in_bounds() {
    let mut rng = Rng(0xbad);
    for isa in Isa::available().iter().copied() {
        for _ in 0..2000 {
            let (n, m) = (rng.below(70) as usize, rng.below(70) as usize);
            let a: Vec<u32> = (0..n).map(|_| rng.below(24) as u32).collect();
            let mut out = vec![0; n];
            let b: Vec<u32> = (0..m).map(|_| rng.below(24) as u32).collect();
            let i = rng.below(n as u64 + 1) as usize;
            let kept = rng.below(i as u64 + 1) as usize;
            for vectors in [false, true] {
                let m = keep_common_as(isa, vectors, &a, i, &mut out, kept, &b);
                assert!(
                    m.kept <= m.i && m.i <= n && m.j <= b.len(),
                    "{isa:?} (vectors {vectors}): {m:?}"
                );
            }
        }
    }
}

/// Every level's union against the scalar one, and against a set.
#[test]
fn every_level_unites_as_the_scalar_merge_does() {
    let mut rng = Rng(0x0417);
    for isa in Isa::available().iter().copied() {
        for round in 0..3000 {
            let len = rng.below(600) as u32;
            let (pa, pb) = (rng.below(17), rng.below(17));
            let base = if round % 50 == 0 {
                u32::MAX - len
            } else {
                rng.below(1 << 20) as u32
            };
            let (a, b) = blocks(&mut rng, len, pa, pb, base);
            let mut got = vec![7, 7];
            super::union(isa, &a, &b, &mut got);
            let mut want = Vec::new();
            scalar::union(&a, &b, &mut want);
            let set: Vec<u32> = a
                .iter()
                .chain(&b)
                .copied()
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            assert_eq!(want, set, "scalar: a {a:?} b {b:?}");
            assert_eq!(got, want, "{isa:?}: a {a:?} b {b:?}");
        }
    }
}

/// A union appended after values, none equal to the last of them: every
/// level as the scalar union, the values before untouched.
#[test]
fn unions_appended_after_values() {
    let mut rng = Rng(0xa99e);
    for isa in Isa::available().iter().copied() {
        for round in 0..2000 {
            let len = rng.below(300) as u32;
            let base = 2 + rng.below(1 << 20) as u32;
            let (pa, pb) = (rng.below(17), rng.below(17));
            let (a, b) = blocks(&mut rng, len, pa, pb, base);
            let first = a.iter().chain(&b).min().copied().unwrap_or(base);
            // Below every value, or equal to the least (then dropped).
            let last = if round % 2 == 0 { first - 1 } else { first };
            let mut got = vec![0, last];
            super::union_after(isa, &a, &b, &mut got);
            let want: Vec<u32> = [0, last]
                .into_iter()
                .chain(a.iter().chain(&b).copied().filter(|&v| v != last))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            assert_eq!(got, want, "{isa:?}: a {a:?} b {b:?} after {last}");
        }
    }
}

#[test]
fn unions_of_repeated_and_unsorted_values() {
    let mut rng = Rng(0x5eed5);
    for isa in Isa::available().iter().copied() {
        for _ in 0..2000 {
            let (n, m) = (rng.below(80) as usize, rng.below(80) as usize);
            let mut a: Vec<u32> = (0..n).map(|_| rng.below(40) as u32).collect();
            let mut b: Vec<u32> = (0..m).map(|_| rng.below(40) as u32).collect();
            // Sorted with repeats: each value once.
            a.sort_unstable();
            b.sort_unstable();
            let mut got = Vec::new();
            super::union(isa, &a, &b, &mut got);
            let mut want: Vec<u32> = a.iter().chain(&b).copied().collect();
            want.sort_unstable();
            want.dedup();
            assert_eq!(got, want, "{isa:?}");
            // Not sorted: no more values than given, no fault.
            let a: Vec<u32> = (0..n).map(|_| rng.next() as u32).collect();
            super::union(isa, &a, &b, &mut got);
            assert!(got.len() <= n + m);
        }
    }
}

/// A list over 32 times longer than the other: its runs copied whole.
#[test]
fn unions_of_a_short_list_and_a_long_one() {
    let mut rng = Rng(0x51ee);
    for isa in Isa::available().iter().copied() {
        for _ in 0..500 {
            let len = 2000 + rng.below(3000) as u32;
            let base = rng.below(9) as u32;
            let (_, long) = blocks(&mut rng, len, 0, 12, base);
            let short: Vec<u32> = (0..rng.below(20))
                .map(|_| rng.below(u64::from(len) + 9) as u32)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let mut want: Vec<u32> = short.iter().chain(&long).copied().collect();
            want.sort_unstable();
            want.dedup();
            for (x, y) in [(&short, &long), (&long, &short)] {
                let mut got = Vec::new();
                super::union(isa, x, y, &mut got);
                assert_eq!(got, want, "{isa:?}");
            }
        }
    }
}
