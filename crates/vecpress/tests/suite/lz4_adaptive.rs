//! The adaptive LZ4 decompressor: correct output, convergence to the fastest
//! variant, forgetting, sharing across threads.

use std::time::Duration;

use vecpress::lz4::adaptive::{AdaptiveDecompressor, COLD_CALLS, EXPLORE_EVERY, MIN_TIMED_BLOCK};
use vecpress::lz4::block::{self, Variant};

fn sample_block() -> (Vec<u8>, Vec<u8>) {
    let data: Vec<u8> = (0..64 * 1024u32)
        .map(|i| ((i / 7) % 26) as u8 + if i % 91 < 5 { b'A' } else { b'a' })
        .collect();
    (block::compress(&data), data)
}

/// Runs `calls` decodes and returns the variants chosen for the last `tail`
/// (read from the change in the call counts).
fn run(dec: &mut AdaptiveDecompressor, calls: usize, tail: usize) -> Vec<Variant> {
    let (packed, data) = sample_block();
    let mut out = vec![0u8; data.len()];
    let mut chosen = Vec::new();
    for k in 0..calls {
        let before = dec.stats();
        out.fill(0);
        assert_eq!(dec.decompress_into(&packed, &mut out), Ok(data.len()));
        assert_eq!(out, data);
        if k >= calls - tail {
            let after = dec.stats();
            let v = after
                .iter()
                .zip(&before)
                .find(|(a, b)| a.calls != b.calls)
                .map(|(a, _)| a.variant)
                .unwrap();
            chosen.push(v);
        }
    }
    chosen
}

fn arms() -> Vec<Variant> {
    block::variants()
        .into_iter()
        .filter(|&v| v != Variant::Checked)
        .collect()
}

#[test]
fn converges_to_the_variant_that_is_measurably_fastest() {
    let arms = arms();
    assert!(arms.len() >= 2);
    for &fast in &arms[..2] {
        let slow = if fast == arms[0] { arms[1] } else { arms[0] };
        let mut dec = AdaptiveDecompressor::with_variants(&[fast, slow]).unwrap();
        dec.set_penalty(Some((slow, Duration::from_millis(3))));
        let chosen = run(&mut dec, 150, 50);
        let hits = chosen.iter().filter(|&&v| v == fast).count();
        assert!(
            hits >= 45,
            "fast {fast}: chose it {hits} of 50: {:?}",
            dec.stats()
        );
        let stats = dec.stats();
        let f = stats.iter().find(|s| s.variant == fast).unwrap();
        let s = stats.iter().find(|s| s.variant == slow).unwrap();
        assert!(f.calls > s.calls, "{stats:?}");
        assert!(f.seconds_per_byte.unwrap() < s.seconds_per_byte.unwrap());
    }
}

/// The first arm, the loop this CPU's record shows fastest, runs from the
/// first block; one timed call in `EXPLORE_EVERY` explores, the arms with
/// no mean first, until every arm has one.
#[test]
fn the_recorded_leader_runs_first_and_the_others_are_explored_rarely() {
    let mut dec = AdaptiveDecompressor::new();
    let n = dec.stats().len() as u64;
    assert!(n >= 2);
    assert_eq!(dec.stats()[0].variant, vecpress::tune::lz4_variant());
    run(&mut dec, EXPLORE_EVERY as usize, 0);
    let stats = dec.stats();
    assert_eq!(stats[0].calls, EXPLORE_EVERY - 1, "{stats:?}");
    assert_eq!(stats[1].calls, 1, "{stats:?}");
    assert!(stats[2..].iter().all(|s| s.calls == 0), "{stats:?}");
    // Each other arm needs its cold calls and two counted ones.
    run(&mut dec, (EXPLORE_EVERY * (COLD_CALLS + 2) * n) as usize, 0);
    for s in dec.stats() {
        assert!(s.timed >= COLD_CALLS + 2, "{s:?}");
        assert!(s.seconds_per_byte.is_some(), "{s:?}");
    }
}

#[test]
fn forgets_and_follows_a_change() {
    let arms = arms();
    let (a, b) = (arms[0], arms[1]);
    let mut dec = AdaptiveDecompressor::with_variants(&[a, b])
        .unwrap()
        .with_decay(0.97);
    dec.set_penalty(Some((b, Duration::from_millis(3))));
    // Forgetting keeps exploring a little: a stale arm grows uncertain.
    let chosen = run(&mut dec, 80, 20);
    assert!(
        chosen.iter().filter(|&&v| v == a).count() >= 15,
        "{chosen:?}"
    );
    // Now `a` turns slow: the decayed statistics let `b` take over.
    dec.set_penalty(Some((a, Duration::from_millis(3))));
    let chosen = run(&mut dec, 150, 30);
    assert!(
        chosen.iter().filter(|&&v| v == b).count() >= 22,
        "{chosen:?} {:?}",
        dec.stats()
    );
}

#[test]
fn fixed_uses_one_variant() {
    let mut dec = AdaptiveDecompressor::fixed(Variant::Copy8).unwrap();
    let chosen = run(&mut dec, 10, 10);
    assert!(chosen.iter().all(|&v| v == Variant::Copy8));
    assert!(AdaptiveDecompressor::with_variants(&[]).is_err());
}

#[test]
fn small_blocks_are_not_timed() {
    let mut dec = AdaptiveDecompressor::new();
    let data = vec![3u8; MIN_TIMED_BLOCK - 1];
    let packed = block::compress(&data);
    let mut out = vec![0u8; data.len()];
    for _ in 0..5 {
        assert_eq!(dec.decompress_into(&packed, &mut out), Ok(data.len()));
    }
    assert_eq!(out, data);
    let stats = dec.stats();
    assert_eq!(stats.iter().map(|s| s.calls).sum::<u64>(), 5);
    assert!(stats.iter().all(|s| s.timed == 0));
}

#[test]
fn errors_pass_through_and_are_not_timed() {
    let mut dec = AdaptiveDecompressor::new();
    let mut out = vec![0u8; MIN_TIMED_BLOCK * 2];
    assert!(dec.decompress_into(&[0x10, b'a', 9, 0], &mut out).is_err());
    assert!(dec.stats().iter().all(|s| s.timed == 0));
}

#[test]
fn threads_share_statistics() {
    let dec = AdaptiveDecompressor::new();
    std::thread::scope(|s| {
        for _ in 0..2 {
            let mut mine = dec.share();
            s.spawn(move || {
                run(&mut mine, 10, 0);
            });
        }
    });
    assert_eq!(dec.stats().iter().map(|s| s.calls).sum::<u64>(), 20);
}

#[test]
fn pairs_have_statistics_of_their_own_and_converge() {
    let arms = arms();
    let (fast, slow) = (arms[0], arms[1]);
    let mut dec = AdaptiveDecompressor::with_variants(&[fast, slow]).unwrap();
    dec.set_penalty(Some((slow, Duration::from_millis(3))));
    let (packed, data) = sample_block();
    let (mut a, mut b) = (vec![0u8; data.len()], vec![0u8; data.len() + 7]);
    let mut late_fast = 0;
    for k in 0..150 {
        let before = dec.pair_stats();
        a.fill(0);
        b.fill(0);
        let (ra, rb) = dec.decompress_pair((&packed, &mut a), (&packed, &mut b));
        assert_eq!((ra, rb), (Ok(data.len()), Ok(data.len())));
        assert!(a == data && b[..data.len()] == data);
        let after = dec.pair_stats();
        let chose_fast = after
            .iter()
            .zip(&before)
            .any(|(x, y)| x.calls != y.calls && x.variant == fast);
        if k >= 100 && chose_fast {
            late_fast += 1;
        }
    }
    assert!(late_fast >= 45, "{late_fast} of 50: {:?}", dec.pair_stats());
    // Single blocks' statistics are untouched.
    assert!(
        dec.stats().iter().all(|s| s.calls == 0),
        "{:?}",
        dec.stats()
    );
    // A bad block in a pair: its error, the other block decoded, nothing timed.
    let mut fresh = AdaptiveDecompressor::new();
    let bad = [0x10, b'a', 9, 0];
    let (ra, rb) = fresh.decompress_pair((&bad, &mut a), (&packed, &mut b));
    assert_eq!(ra, block::decompress_into(&bad, &mut vec![0u8; data.len()]));
    assert!(ra.is_err());
    assert_eq!(rb, Ok(data.len()));
    assert!(fresh.pair_stats().iter().all(|s| s.timed == 0));
    assert_eq!(fresh.pair_stats().iter().map(|s| s.calls).sum::<u64>(), 1);
}
