//! Cursors against a plain list, and the set operations against sets, for
//! every format with a cursor and (Stream VByte) every ISA level.

use std::collections::BTreeSet;

use super::*;
use crate::bitpack::{bp128, fastlanes, pfor};
use crate::{Isa, stream_vbyte, vbyte};

/// A deterministic xorshift generator.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A sorted list of `n` distinct values, gaps up to `2^bits`.
pub(crate) fn list(rng: &mut Rng, n: usize, bits: u32) -> Vec<u32> {
    let mut v = Vec::with_capacity(n);
    let mut x = rng.below(1 << bits) as u32;
    for _ in 0..n {
        v.push(x);
        let width = rng.below(u64::from(bits) + 1);
        let gap = 1 + rng.below(1 << width) as u32;
        match x.checked_add(gap) {
            Some(y) => x = y,
            None => break,
        }
    }
    v
}

/// The reference: a cursor over a plain list.
struct Plain {
    v: Vec<u32>,
    at: usize,
}

impl Cursor for Plain {
    fn len(&self) -> usize {
        self.v.len()
    }
    fn position(&self) -> usize {
        self.at
    }
    fn next(&mut self) -> Result<Option<u32>, Error> {
        let v = self.v.get(self.at).copied();
        self.at = (self.at + 1).min(self.v.len());
        Ok(v)
    }
    fn advance_to(&mut self, target: u32) -> Result<Option<u32>, Error> {
        while self.at < self.v.len() && self.v[self.at] < target {
            self.at += 1;
        }
        Ok(self.v.get(self.at).copied())
    }
    fn decode_block(&mut self, out: &mut [u32]) -> Result<usize, Error> {
        let k = (self.v.len() - self.at).min(out.len()).min(7);
        out[..k].copy_from_slice(&self.v[self.at..self.at + k]);
        self.at += k;
        Ok(k)
    }
    fn buffered(&self) -> &[u32] {
        &self.v[self.at..]
    }
    fn consume(&mut self, k: usize) {
        self.at = (self.at + k).min(self.v.len());
    }
}

/// A delta-coded format with a cursor.
#[derive(Clone, Copy, Debug)]
enum Format {
    Svb,
    VByte,
    Bp128,
    Pfor,
    FastLanes,
}

/// A list in one format, with the level its cursor runs at.
struct Encoded {
    format: Format,
    bytes: Vec<u8>,
    isa: Isa,
}

impl Encoded {
    /// `v` in every format, at every level (VByte's cursor has no choice).
    fn all(v: &[u32]) -> Vec<Encoded> {
        let one = |format, bytes, isa| Encoded { format, bytes, isa };
        let mut out = vec![one(
            Format::VByte,
            vbyte::encode_delta_to_vec(v, 0),
            Isa::best(),
        )];
        for &isa in Isa::available() {
            out.push(one(
                Format::Svb,
                stream_vbyte::encode_delta_to_vec(v, 0),
                isa,
            ));
            out.push(one(Format::Bp128, bp128::encode_delta_to_vec(v, 0), isa));
            out.push(one(Format::Pfor, pfor::encode_delta_to_vec(v, 0), isa));
            out.push(one(
                Format::FastLanes,
                fastlanes::encode_delta_to_vec(v, 0),
                isa,
            ));
        }
        out
    }

    /// The same list with other bytes.
    fn with_bytes(&self, bytes: Vec<u8>) -> Encoded {
        Encoded { bytes, ..*self }
    }

    fn try_cursor(&self, n: usize) -> Result<Box<dyn Cursor + '_>, Error> {
        let (b, isa) = (&self.bytes[..], self.isa);
        Ok(match self.format {
            Format::Svb => Box::new(stream_vbyte::DeltaCursor::new_with(isa, b, n, 0)?),
            Format::VByte => Box::new(vbyte::DeltaCursor::new(b, n, 0)),
            Format::Bp128 => Box::new(bp128::DeltaCursor::new_with(isa, b, n, 0)?),
            Format::Pfor => Box::new(pfor::DeltaCursor::new_with(isa, b, n, 0)?),
            Format::FastLanes => Box::new(fastlanes::DeltaCursor::new_with(isa, b, n, 0)?),
        })
    }

    fn cursor(&self, n: usize) -> Box<dyn Cursor + '_> {
        self.try_cursor(n).unwrap()
    }

    fn name(&self) -> String {
        format!("{:?} {}", self.format, self.isa)
    }
}

/// Cursors over the lists `enc[i][f]` (list `i` in format `f`).
fn cursors<'a>(enc: &'a [Vec<Encoded>], lists: &[Vec<u32>], f: usize) -> Vec<Box<dyn Cursor + 'a>> {
    enc.iter()
        .zip(lists)
        .map(|(e, l)| e[f].cursor(l.len()))
        .collect()
}

#[test]
fn cursors_walk_as_a_plain_list_does() {
    let mut rng = Rng(0x5eed);
    for n in [0usize, 1, 3, 4, 5, 127, 128, 129, 1000, 1024, 2100, 5000] {
        for bits in [1u32, 7, 15, 28] {
            let v = list(&mut rng, n, bits);
            let n = v.len();
            for enc in Encoded::all(&v) {
                let mut c = enc.cursor(n);
                let mut want = Plain {
                    v: v.clone(),
                    at: 0,
                };
                let mut block = [0u32; 200];
                for step in 0..3 * n + 10 {
                    let what = rng.below(5);
                    let (got, exp) = match what {
                        0 => (c.next().unwrap(), want.next().unwrap()),
                        1 | 2 => {
                            let last = *v.last().unwrap_or(&0);
                            let t = match rng.below(3) {
                                0 => rng.next() as u32,
                                _ => want
                                    .v
                                    .get(want.at)
                                    .copied()
                                    .unwrap_or(last)
                                    .saturating_add(rng.below(1 << bits) as u32),
                            };
                            (c.advance_to(t).unwrap(), want.advance_to(t).unwrap())
                        }
                        4 => {
                            // The buffer is the list from the cursor on.
                            let b = c.buffered().to_vec();
                            assert_eq!(
                                b[..],
                                v[want.at..want.at + b.len()],
                                "{} step {step}",
                                enc.name()
                            );
                            let k = rng.below(b.len() as u64 + 3) as usize;
                            c.consume(k);
                            want.at += k.min(b.len());
                            (None, None)
                        }
                        _ => {
                            let k = c.decode_block(&mut block).unwrap();
                            let got = block[..k].to_vec();
                            let expect = v[want.at..want.at + k].to_vec();
                            want.at += k;
                            assert_eq!(got, expect, "{} n {n} step {step}", enc.name());
                            if want.at < n {
                                assert!(k > 0);
                            }
                            (None, None)
                        }
                    };
                    assert_eq!(
                        got,
                        exp,
                        "{} n {n} bits {bits} step {step} op {what}",
                        enc.name()
                    );
                    assert_eq!(c.position(), want.at, "{} n {n} step {step}", enc.name());
                }
            }
        }
    }
}

fn and_reference(lists: &[Vec<u32>]) -> Vec<u32> {
    let Some((first, rest)) = lists.split_first() else {
        return Vec::new();
    };
    let sets: Vec<BTreeSet<u32>> = rest.iter().map(|l| l.iter().copied().collect()).collect();
    let mut out: Vec<u32> = first
        .iter()
        .copied()
        .filter(|v| sets.iter().all(|s| s.contains(v)))
        .collect();
    out.dedup();
    out
}

#[test]
fn and_and_or_agree_with_sets_for_two_to_eight_lists() {
    let mut rng = Rng(77);
    for round in 0..60 {
        let k = 1 + round % 8;
        // Lengths from 1:1 to 1:1000, over a shared universe.
        let universe = 1u32 << (10 + rng.below(12));
        let lists: Vec<Vec<u32>> = (0..k)
            .map(|i| {
                let n = if i == 0 {
                    1 + rng.below(50) as usize
                } else {
                    1 + rng.below(20_000) as usize
                };
                let mut s: BTreeSet<u32> = BTreeSet::new();
                for _ in 0..n {
                    s.insert(rng.below(u64::from(universe)) as u32);
                }
                s.into_iter().collect()
            })
            .collect();
        let want_and = and_reference(&lists);
        let want_or: Vec<u32> = lists
            .iter()
            .flatten()
            .copied()
            .collect::<BTreeSet<u32>>()
            .into_iter()
            .collect();
        let encoded: Vec<Vec<Encoded>> = lists.iter().map(|l| Encoded::all(l)).collect();
        for f in 0..encoded[0].len() {
            let name = encoded[0][f].name();
            let cursors = || cursors(&encoded, &lists, f);
            let mut out = vec![1, 2, 3];
            and(&mut cursors(), &mut out).unwrap();
            assert_eq!(out, want_and, "and, {name}, round {round}");
            assert_eq!(and_count(&mut cursors()).unwrap(), want_and.len(), "{name}");
            or(&mut cursors(), &mut out).unwrap();
            assert_eq!(out, want_or, "or, {name}, round {round}");
        }
    }
}

#[test]
fn lists_of_different_formats_go_together() {
    let a: Vec<u32> = (0..3000).map(|i| i * 3).collect();
    let b: Vec<u32> = (0..3000).map(|i| i * 5).collect();
    let (x, y) = (
        stream_vbyte::encode_delta_to_vec(&a, 0),
        vbyte::encode_delta_to_vec(&b, 0),
    );
    let mut s = stream_vbyte::DeltaCursor::new(&x, a.len(), 0).unwrap();
    let mut v = vbyte::DeltaCursor::new(&y, b.len(), 0);
    let mut lists: [&mut dyn Cursor; 2] = [&mut s, &mut v];
    let mut out = Vec::new();
    and(&mut lists, &mut out).unwrap();
    assert_eq!(out, (0..600).map(|i| i * 15).collect::<Vec<u32>>());
}

#[test]
fn extremes_and_duplicates() {
    let lists = [
        vec![0u32, 0, 5, u32::MAX],
        vec![0u32, u32::MAX],
        vec![u32::MAX - 1, u32::MAX],
    ];
    let enc: Vec<Vec<Encoded>> = lists.iter().map(|l| Encoded::all(l)).collect();
    for f in 0..enc[0].len() {
        let mut c = cursors(&enc, &lists, f);
        let mut out = Vec::new();
        and(&mut c[..2], &mut out).unwrap();
        assert_eq!(out, [0, u32::MAX], "{}", enc[0][f].name());
        let mut c = cursors(&enc, &lists, f);
        and(&mut c, &mut out).unwrap();
        assert_eq!(out, [u32::MAX]);
        let mut c = cursors(&enc, &lists, f);
        or(&mut c, &mut out).unwrap();
        assert_eq!(out, [0, 5, u32::MAX - 1, u32::MAX]);
    }
}

#[test]
fn a_damaged_list_fails_where_the_cursor_meets_the_damage() {
    let long: Vec<u32> = (0..2000).map(|i| i * 11).collect();
    let short: Vec<u32> = vec![5, 21_989]; // the long list's last value
    let s = stream_vbyte::encode_delta_to_vec(&short, 0);
    for enc in Encoded::all(&long) {
        // Cut the long list's bytes short: the query reaches the cut.
        for cut in [enc.bytes.len() - 1, enc.bytes.len() / 2, 3] {
            let cut_enc = enc.with_bytes(enc.bytes[..cut].to_vec());
            let mut a = stream_vbyte::DeltaCursor::new(&s, 2, 0).unwrap();
            let result = cut_enc
                .try_cursor(long.len())
                .and_then(|mut b| and_count(&mut [&mut a as &mut dyn Cursor, &mut b]));
            let e = result.expect_err(&format!("{} cut at {cut}", enc.name()));
            assert!(matches!(e, Error::Truncated { .. }), "{}: {e}", enc.name());
        }
    }
}

#[test]
fn random_bytes_never_panic_and_every_call_moves_forward() {
    let mut rng = Rng(991);
    for _ in 0..300 {
        let len = rng.below(300) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let n = rng.below(400) as usize;
        for enc in Encoded::all(&[]) {
            let enc = enc.with_bytes(bytes.clone());
            let Ok(mut c) = enc.try_cursor(n) else {
                continue;
            };
            let mut last = 0;
            for _ in 0..50 {
                let r = if rng.below(2) == 0 {
                    c.next()
                } else {
                    c.advance_to(rng.next() as u32)
                };
                assert!(c.position() >= last && c.position() <= n, "{}", enc.name());
                last = c.position();
                if r.is_err() {
                    break;
                }
            }
        }
    }
}

#[test]
fn a_list_that_ends_early_still_leaves_the_others_to_filter() {
    // The middle list ends after 6: the candidates it keeps from that block
    // must still pass the longest list, which lacks 6.
    let lists = [
        vec![5u32, 6, 100],
        vec![1u32, 2, 3, 4, 5, 6],
        (1u32..=5).chain([100, 200, 300]).collect(),
    ];
    let enc: Vec<Vec<Encoded>> = lists.iter().map(|l| Encoded::all(l)).collect();
    for f in 0..enc[0].len() {
        let mut c = cursors(&enc, &lists, f);
        let mut out = Vec::new();
        and(&mut c, &mut out).unwrap();
        assert_eq!(out, [5], "{}", enc[0][f].name());
    }
}
