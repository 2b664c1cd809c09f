//! `vecpress bench --queries`: AND and OR queries of 2 and 3 posting lists,
//! answered straight from the compressed lists by `vecpress::postings`,
//! against what users of other libraries run for the same queries.
//!
//! The queries are drawn (seeded) from each `.docs` file's lists with the
//! size ratios query logs show, the shortest list 1, 10, 100 and 1000 times
//! shorter than the longest, [`PER_RATIO`] queries each. Every contestant
//! answers every query of a kind (AND or OR of 2 or 3 lists) into a reused
//! buffer; a pass times them all, contestants in turn, and the median of
//! `--reps` passes gives queries per second. Every contestant's answers are
//! checked against the first's.
//!
//! The contestants:
//! - `stream-vbyte-delta`, `vbyte-delta`, `bp128-delta`,
//!   `fastlanes-delta` and `pfor-delta`: [`postings::and`] and
//!   [`postings::or`] over cursors on the lists' bytes;
//! - `hybrid`: [`postings::hybrid`] lists (bitmap windows where a list is
//!   dense, Stream VByte gaps where sparse), its `and` and `or`; `hybrid,
//!   AND counted` counts an AND's ids with `and_count` (its OR columns are
//!   `or`'s, as in `hybrid`); `hybrid, arrays` (and its count) the same
//!   on lists encoded with `hybrid::Room::Roaring`, arrays of 16-bit ids
//!   where the list's Roaring bitmap would take the bytes; `hybrid, as
//!   hits` keeps the answer as `hybrid::Hits` (`and_hits`, `or_hits`:
//!   bitmaps where the lists meet as bitmaps or a union is dense, runs
//!   where they meet as runs), as `peer:croaring` keeps its bitmap, and
//!   reads its count;
//! - `stream-vbyte-delta decode+merge`: each list decoded whole by
//!   vecpress, then intersected or merged as below (where the time goes);
//! - `peer:streamvbyte-c decode+merge`: each list decoded whole by the C
//!   library, then intersected by a plain merge, or by galloping when one
//!   list is over 32 times longer (as Lemire's code chooses), the two
//!   shortest first; unions by a plain merge: what a user of that library
//!   writes;
//! - `peer:croaring`: CRoaring bitmaps (the `croaring` crate, its runtime
//!   dispatch to AVX2 and AVX-512) built from the same lists with run
//!   containers where smaller (`run_optimize`), the bitmap `and`/`or`;
//!   `peer:croaring, counted` counts the answer without building its
//!   bitmap (`and_cardinality`, `or_cardinality` with the last list), to
//!   set beside `hybrid, AND counted`; `peer:croaring to array` reads the
//!   answer out into an array, as the others give it.
//!
//! A second table ([`super::batch`]) times the lists decoded by one call of
//! `stream_vbyte::decode_delta_lists` against list after list.
//!
//! Bytes per posting count every list drawn into a query once.
#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use vecpress::bitpack::{bp128, fastlanes, pfor};
use vecpress::postings::{self, Cursor, hybrid};
use vecpress::{stream_vbyte, vbyte};

use super::peers::{self, Peer};

/// The shortest list of a query is this many times shorter than the longest.
const RATIOS: [usize; 4] = [1, 10, 100, 1000];
/// Queries of each ratio, kind and arity.
const PER_RATIO: usize = 25;
/// The shortest list a query takes.
const MIN_LEN: usize = 8;
/// How long each contestant runs untimed before each timed run.
const WARM: Duration = Duration::from_millis(1);
/// Bytes after each encoded list, at least, for decoders that read ahead.
const PAD: usize = 64;

/// One list, in every form a contestant reads.
struct List {
    values: Vec<u32>,
    svb: Vec<u8>,
    svb_len: usize,
    vbyte: Vec<u8>,
    bp128: Vec<u8>,
    fastlanes: Vec<u8>,
    pfor: Vec<u8>,
    hybrid: Vec<u8>,
    /// The same with arrays where Roaring's bytes leave room.
    hybrid_arrays: Vec<u8>,
    #[cfg(feature = "peers")]
    bitmap: croaring::Bitmap,
}

impl List {
    fn new(values: Vec<u32>) -> List {
        let mut svb = stream_vbyte::encode_delta_to_vec(&values, 0);
        let svb_len = svb.len();
        // Room for decoders that trust their input to read ahead (the C
        // library's, as the bench pads every block for it).
        svb.resize((svb_len + PAD).max(peers::min_input_len(values.len())), 0);
        #[cfg(feature = "peers")]
        let bitmap = {
            let mut b = croaring::Bitmap::of(&values);
            b.run_optimize();
            b
        };
        List {
            vbyte: vbyte::encode_delta_to_vec(&values, 0),
            bp128: bp128::encode_delta_to_vec(&values, 0),
            fastlanes: fastlanes::encode_delta_to_vec(&values, 0),
            pfor: pfor::encode_delta_to_vec(&values, 0),
            hybrid: hybrid::encode(&values).expect("posting lists are sorted"),
            hybrid_arrays: {
                let mut out = Vec::new();
                hybrid::encode_within(&values, hybrid::Room::Roaring, &mut out)
                    .expect("posting lists are sorted");
                out
            },
            svb,
            svb_len,
            values,
            #[cfg(feature = "peers")]
            bitmap,
        }
    }
}

/// A query: indices of its lists, shortest first.
type Query = Vec<usize>;

/// What the queries of a kind returned: values in all answers, and their
/// sum (wrapping) where the contestant read them, to compare contestants by.
#[derive(Clone, Copy, Debug, Default)]
struct Answers {
    count: usize,
    sum: Option<u32>,
}

impl Answers {
    /// No answers yet, for queries of `kind` (which says whether to sum
    /// the values).
    fn new(kind: Kind) -> Answers {
        Answers {
            count: 0,
            sum: kind.check.then_some(0),
        }
    }

    fn add(&mut self, values: &[u32]) {
        self.count += values.len();
        let Some(sum) = self.sum else {
            return;
        };
        let sum = values.iter().fold(sum, |s, &v| s.wrapping_add(v));
        self.sum = Some(sum);
    }

    /// Adds `n` values counted and not read: these answers are checked by
    /// their count alone.
    fn counted(&mut self, n: usize) {
        self.count += n;
        self.sum = None;
    }

    /// Whether two contestants answered alike (by the sums where both have one).
    fn agree(self, other: Answers) -> bool {
        self.count == other.count
            && match (self.sum, other.sum) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }
}

/// A deterministic xorshift generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Draws the queries of `arity` lists: for each ratio, a long list at
/// random, and the lists nearest in length to its length over the ratio
/// (and, with 3, over the ratio's square root).
fn draw(lists: &[List], arity: usize, rng: &mut Rng) -> Vec<Query> {
    let mut by_len: Vec<usize> = (0..lists.len())
        .filter(|&i| lists[i].values.len() >= MIN_LEN)
        .collect();
    by_len.sort_by_key(|&i| lists[i].values.len());
    let nearest = |len: usize, not: &[usize]| -> Option<usize> {
        by_len
            .iter()
            .copied()
            .filter(|i| !not.contains(i))
            .min_by_key(|&i| lists[i].values.len().abs_diff(len))
    };
    let mut queries = Vec::new();
    for ratio in RATIOS {
        let long: Vec<usize> = by_len
            .iter()
            .copied()
            .filter(|&i| lists[i].values.len() >= ratio * MIN_LEN)
            .collect();
        if long.len() < 2 {
            continue;
        }
        for _ in 0..PER_RATIO {
            let l = long[rng.below(long.len())];
            let n = lists[l].values.len();
            let mut q = vec![l];
            if arity == 3 {
                let mid = n / (ratio as f64).sqrt().max(1.0) as usize;
                match nearest(mid.max(MIN_LEN), &q) {
                    Some(m) => q.push(m),
                    None => continue,
                }
            }
            match nearest((n / ratio).max(MIN_LEN), &q) {
                Some(s) => q.push(s),
                None => continue,
            }
            q.sort_by_key(|&i| lists[i].values.len());
            queries.push(q);
        }
    }
    queries
}

/// AND (`true`) or OR of the lists of a query.
#[derive(Clone, Copy)]
struct Kind {
    and: bool,
    arity: usize,
    /// Whether the answers' values are summed, to check them against
    /// another row's: in a run that is not timed, since the bitmap rows
    /// read none.
    check: bool,
}

impl Kind {
    const ALL: [Kind; 4] = [
        Kind {
            and: true,
            arity: 2,
            check: false,
        },
        Kind {
            and: true,
            arity: 3,
            check: false,
        },
        Kind {
            and: false,
            arity: 2,
            check: false,
        },
        Kind {
            and: false,
            arity: 3,
            check: false,
        },
    ];

    fn name(self) -> String {
        format!("{}-{}", if self.and { "AND" } else { "OR" }, self.arity)
    }
}

/// Answers every query of a kind; what they returned.
type Answer<'a> = Box<dyn FnMut(Kind, &[Query]) -> Result<Answers> + 'a>;

/// A way of answering queries.
struct Contestant<'a> {
    name: &'static str,
    run: Answer<'a>,
    /// Bytes of the lists in its form, per posting.
    bytes_per_posting: f64,
}

/// Runs the queries on the lists of one file; prints a table.
pub fn run(name: &str, raw: Vec<Vec<u32>>, reps: u32) -> Result<()> {
    let owned: Vec<List> = raw.into_iter().map(List::new).collect();
    let lists: &[List] = &owned;
    let c_peer = peers::all()
        .into_iter()
        .filter_map(|slot| slot.ok())
        .find(|p| p.name() == "peer:streamvbyte-c");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let two = draw(lists, 2, &mut rng);
    let three = draw(lists, 3, &mut rng);
    if two.is_empty() {
        bail!("{name}: too few lists of {MIN_LEN} values or more to draw queries from");
    }
    let mut used: Vec<usize> = two.iter().chain(&three).flatten().copied().collect();
    used.sort_unstable();
    used.dedup();
    let postings_used: usize = used.iter().map(|&i| lists[i].values.len()).sum();
    let stored = super::batch::Stored::new(lists.iter().map(|l| &l.values[..]));
    let per = |bytes: usize| bytes as f64 / postings_used.max(1) as f64;

    let mut contestants = vec![
        Contestant {
            name: "stream-vbyte-delta",
            run: Box::new(|k, qs| {
                let mut out = Vec::new();
                cursors(k, qs, &mut out, |i| {
                    let l = &lists[i];
                    stream_vbyte::DeltaCursor::new(&l.svb[..l.svb_len], l.values.len(), 0)
                })
            }),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].svb_len).sum()),
        },
        Contestant {
            name: ONE_CALL,
            run: Box::new(|k, qs| one_call(k, qs, &stored)),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].svb_len).sum()),
        },
        Contestant {
            name: "vbyte-delta",
            run: Box::new(|k, qs| {
                let mut out = Vec::new();
                cursors(k, qs, &mut out, |i| {
                    Ok(vbyte::DeltaCursor::new(
                        &lists[i].vbyte,
                        lists[i].values.len(),
                        0,
                    ))
                })
            }),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].vbyte.len()).sum()),
        },
        Contestant {
            name: "bp128-delta",
            run: Box::new(|k, qs| {
                let mut out = Vec::new();
                cursors(k, qs, &mut out, |i| {
                    let l = &lists[i];
                    Ok(bp128::DeltaCursor::new(&l.bp128, l.values.len(), 0))
                })
            }),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].bp128.len()).sum()),
        },
        Contestant {
            name: "fastlanes-delta",
            run: Box::new(|k, qs| {
                let mut out = Vec::new();
                cursors(k, qs, &mut out, |i| {
                    let l = &lists[i];
                    Ok(fastlanes::DeltaCursor::new(&l.fastlanes, l.values.len(), 0))
                })
            }),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].fastlanes.len()).sum()),
        },
        Contestant {
            name: "pfor-delta",
            run: Box::new(|k, qs| {
                let mut out = Vec::new();
                cursors(k, qs, &mut out, |i| {
                    let l = &lists[i];
                    Ok(pfor::DeltaCursor::new(&l.pfor, l.values.len(), 0))
                })
            }),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].pfor.len()).sum()),
        },
        Contestant {
            name: HYBRID,
            run: Box::new(|k, qs| hybrid_queries(lists, k, qs, Gives::Ids, |l| &l.hybrid)),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].hybrid.len()).sum()),
        },
        Contestant {
            name: HYBRID_COUNT,
            run: Box::new(|k, qs| hybrid_queries(lists, k, qs, Gives::Count, |l| &l.hybrid)),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].hybrid.len()).sum()),
        },
        Contestant {
            name: HYBRID_HITS,
            run: Box::new(|k, qs| hybrid_queries(lists, k, qs, Gives::Hits, |l| &l.hybrid)),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].hybrid.len()).sum()),
        },
        Contestant {
            name: HYBRID_ARRAYS,
            run: Box::new(|k, qs| hybrid_queries(lists, k, qs, Gives::Ids, |l| &l.hybrid_arrays)),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].hybrid_arrays.len()).sum()),
        },
        Contestant {
            name: HYBRID_ARRAYS_COUNT,
            run: Box::new(|k, qs| hybrid_queries(lists, k, qs, Gives::Count, |l| &l.hybrid_arrays)),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].hybrid_arrays.len()).sum()),
        },
        Contestant {
            name: HYBRID_ARRAYS_HITS,
            run: Box::new(|k, qs| hybrid_queries(lists, k, qs, Gives::Hits, |l| &l.hybrid_arrays)),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].hybrid_arrays.len()).sum()),
        },
        Contestant {
            name: "stream-vbyte-delta decode+merge",
            run: Box::new({
                let mut s = Scratch::default();
                move |k, qs| {
                    decode_then_merge(
                        k,
                        qs,
                        &mut s,
                        |i| lists[i].values.len(),
                        |i, out| {
                            stream_vbyte::decode_delta(&lists[i].svb, out, 0).map(|_| ())?;
                            Ok(())
                        },
                    )
                }
            }),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].svb_len).sum()),
        },
    ];
    if let Some(c) = &c_peer {
        contestants.push(Contestant {
            name: "peer:streamvbyte-c decode+merge",
            run: Box::new({
                let mut s = Scratch::default();
                let c: &dyn Peer = c.as_ref();
                move |k, qs| {
                    decode_then_merge(
                        k,
                        qs,
                        &mut s,
                        |i| lists[i].values.len(),
                        |i, out| match c.decode_delta(&lists[i].svb, out) {
                            Some(_) => Ok(()),
                            None => bail!("the C library refused a list"),
                        },
                    )
                }
            }),
            bytes_per_posting: per(used.iter().map(|&i| lists[i].svb_len).sum()),
        });
    }
    #[cfg(feature = "peers")]
    {
        let roaring_bytes = per(used
            .iter()
            .map(|&i| {
                lists[i]
                    .bitmap
                    .get_serialized_size_in_bytes::<croaring::Portable>()
            })
            .sum());
        for (name, answer) in [
            ("peer:croaring", Roaring::Bitmap),
            (ROARING_COUNT, Roaring::Count),
            ("peer:croaring to array", Roaring::Array),
        ] {
            contestants.push(Contestant {
                name,
                run: Box::new(move |k, qs| Ok(roaring(lists, k, qs, answer))),
                bytes_per_posting: roaring_bytes,
            });
        }
    }

    let mut medians: Vec<Vec<Duration>> = vec![Vec::new(); contestants.len()];
    for kind in Kind::ALL {
        let qs = if kind.arity == 2 { &two } else { &three };
        let mut times: Vec<Vec<Duration>> = vec![Vec::new(); contestants.len()];
        let mut want: Option<Answers> = None;
        for pass in 0..reps as usize {
            for j in 0..contestants.len() {
                let c = (j + pass) % contestants.len();
                // Untimed runs first, for a millisecond: a contestant is
                // timed at the speed it settles to. Its first runs after
                // another's were measured up to half again slower, for
                // most of a millisecond on a 2-core Zen 4, and on a file
                // of short queries a run is shorter than that.
                let warm = Instant::now();
                let checked = Kind {
                    check: true,
                    ..kind
                };
                let got = (contestants[c].run)(checked, qs)?;
                while warm.elapsed() < WARM {
                    (contestants[c].run)(kind, qs)?;
                }
                let start = Instant::now();
                let timed = (contestants[c].run)(kind, qs)?;
                times[c].push(start.elapsed());
                if timed.count != got.count {
                    bail!(
                        "{name}: {} answers {} queries with {} values, then {}",
                        contestants[c].name,
                        kind.name(),
                        got.count,
                        timed.count
                    );
                }
                match want {
                    None => want = Some(got),
                    Some(w) if !w.agree(got) => bail!(
                        "{name}: {} answers {} queries otherwise ({} values) than the others ({})",
                        contestants[c].name,
                        kind.name(),
                        got.count,
                        w.count
                    ),
                    Some(_) => {}
                }
            }
        }
        for (c, mut t) in times.into_iter().enumerate() {
            t.sort();
            medians[c].push(t[t.len() / 2]);
        }
    }

    println!(
        "{name}: {} lists; {} queries of 2 lists, {} of 3 (ratios 1:{}), {reps} passes\n",
        lists.len(),
        two.len(),
        three.len(),
        RATIOS.map(|r| r.to_string()).join(", 1:")
    );
    let mut head = format!("| {:<34}", "queries per second");
    for kind in Kind::ALL {
        head += &format!(" | {:>9}", kind.name());
    }
    println!("{head} | bytes/posting |");
    println!("|---{}|---:|", "|---:".repeat(Kind::ALL.len()));
    for (c, con) in contestants.iter().enumerate() {
        let mut row = format!("| {:<34}", con.name);
        for (k, kind) in Kind::ALL.iter().enumerate() {
            let n = if kind.arity == 2 {
                two.len()
            } else {
                three.len()
            };
            row += &format!(" | {:>9.0}", n as f64 / medians[c][k].as_secs_f64());
        }
        println!("{row} | {:>13.3} |", con.bytes_per_posting);
    }
    let peers = [
        "peer:streamvbyte-c decode+merge",
        "peer:croaring",
        ROARING_COUNT,
        "peer:croaring to array",
    ];
    for (own, peer) in [
        "stream-vbyte-delta",
        ONE_CALL,
        HYBRID,
        HYBRID_COUNT,
        HYBRID_HITS,
        HYBRID_ARRAYS,
        HYBRID_ARRAYS_COUNT,
        HYBRID_ARRAYS_HITS,
    ]
    .into_iter()
    .flat_map(|own| peers.map(|peer| (own, peer)))
    {
        let (Some(o), Some(p)) = (
            contestants.iter().position(|c| c.name == own),
            contestants.iter().position(|c| c.name == peer),
        ) else {
            continue;
        };
        let mut row = format!("| {:<34}", format!("{own} ÷ {peer}"));
        for (theirs, ours) in medians[p].iter().zip(&medians[o]) {
            let ratio = theirs.as_secs_f64() / ours.as_secs_f64();
            row += &format!(" | {ratio:>8.2}x");
        }
        println!("{row} | {:>13} |", "");
    }
    let queries: Vec<Query> = two.into_iter().chain(three).collect();
    super::batch::run(&stored, &queries, reps, c_peer.as_deref())
}

/// Answers the queries with cursors made by `cursor`.
fn cursors<C: Cursor>(
    kind: Kind,
    queries: &[Query],
    out: &mut Vec<u32>,
    cursor: impl Fn(usize) -> Result<C, vecpress::Error>,
) -> Result<Answers> {
    let mut answers = Answers::new(kind);
    let mut cs: Vec<C> = Vec::with_capacity(3);
    for q in queries {
        cs.clear();
        for &i in q {
            cs.push(cursor(i)?);
        }
        if kind.and {
            postings::and(&mut cs, out)?;
        } else {
            postings::or(&mut cs, out)?;
        }
        answers.add(out);
    }
    Ok(answers)
}

/// The contestant that answers each query by one call on the lists stored
/// in one buffer, as an index holds them.
const ONE_CALL: &str = "stream-vbyte-delta, one call";
/// The contestant answering from `postings::hybrid` lists.
const HYBRID: &str = "hybrid";
/// The same, an AND counted (`hybrid::and_count`), as the Roaring peer
/// counts its bitmap.
const HYBRID_COUNT: &str = "hybrid, AND counted";
/// `hybrid` and `hybrid, AND counted` on lists encoded with
/// `hybrid::Room::Roaring`: arrays of 16-bit ids where a list's Roaring
/// bitmap would take the bytes.
const HYBRID_ARRAYS: &str = "hybrid, arrays";
const HYBRID_ARRAYS_COUNT: &str = "hybrid, arrays, AND counted";
/// Answers kept as `hybrid::Hits` (`hybrid::and_hits`, `or_hits`):
/// bitmaps where the lists meet as bitmaps (or a union is dense), runs
/// where they meet as runs, as the Roaring peer keeps its answer; its
/// count read from them.
const HYBRID_HITS: &str = "hybrid, as hits";
const HYBRID_ARRAYS_HITS: &str = "hybrid, arrays, as hits";

/// How a `hybrid` contestant gives an AND's answer.
#[derive(Clone, Copy)]
enum Gives {
    Ids,
    Count,
    Hits,
}

/// Answers the queries from the lists' `postings::hybrid` bytes (those
/// `form` gives), as `gives` says (an OR counted as ids).
fn hybrid_queries(
    lists: &[List],
    kind: Kind,
    queries: &[Query],
    gives: Gives,
    form: impl Fn(&List) -> &Vec<u8>,
) -> Result<Answers> {
    let mut answers = Answers::new(kind);
    let mut out = Vec::new();
    let mut hits = hybrid::Hits::new();
    let mut q_lists: Vec<&[u8]> = Vec::with_capacity(3);
    for q in queries {
        q_lists.clear();
        q_lists.extend(q.iter().map(|&i| &form(&lists[i])[..]));
        match (kind.and, gives) {
            (true, Gives::Count) => {
                answers.counted(hybrid::and_count(&q_lists)?);
                continue;
            }
            (and, Gives::Hits) => {
                if and {
                    hybrid::and_hits(&q_lists, &mut hits)?;
                } else {
                    hybrid::or_hits(&q_lists, &mut hits)?;
                }
                answers.counted(hits.len());
                continue;
            }
            _ => {}
        }
        if kind.and {
            hybrid::and(&q_lists, &mut out)?;
        } else {
            hybrid::or(&q_lists, &mut out)?;
        }
        answers.add(&out);
    }
    Ok(answers)
}

/// Answers the queries with [`stream_vbyte::and_delta_lists`] and
/// [`stream_vbyte::or_delta_lists`] on the lists in `stored`.
fn one_call(kind: Kind, queries: &[Query], stored: &super::batch::Stored) -> Result<Answers> {
    let mut answers = Answers::new(kind);
    let (mut spans, mut out) = (Vec::with_capacity(3), Vec::new());
    for q in queries {
        spans.clear();
        spans.extend(q.iter().map(|&i| stored.spans[i]));
        if kind.and {
            stream_vbyte::and_delta_lists(&stored.bytes, &spans, &mut out)?;
        } else {
            stream_vbyte::or_delta_lists(&stored.bytes, &spans, &mut out)?;
        }
        answers.add(&out);
    }
    Ok(answers)
}

/// Buffers of the decode-then-merge contestants.
#[derive(Default)]
struct Scratch {
    decoded: [Vec<u32>; 3],
    out: Vec<u32>,
    tmp: Vec<u32>,
}

/// Answers the queries by decoding each list whole with `decode`, then
/// intersecting or merging the arrays.
fn decode_then_merge(
    kind: Kind,
    queries: &[Query],
    s: &mut Scratch,
    len: impl Fn(usize) -> usize,
    mut decode: impl FnMut(usize, &mut [u32]) -> Result<()>,
) -> Result<Answers> {
    let mut answers = Answers::new(kind);
    for q in queries {
        for (slot, &i) in s.decoded.iter_mut().zip(q) {
            // Grown when shorter, never cleared: the decoders write every
            // value they are given room for.
            let n = len(i);
            if slot.len() < n {
                slot.resize(n, 0);
            }
            decode(i, &mut slot[..n])?;
            slot.truncate(n);
        }
        let arrays = &s.decoded[..q.len()];
        if kind.and {
            and_arrays(arrays, &mut s.out, &mut s.tmp);
        } else {
            or_arrays(arrays, &mut s.out, &mut s.tmp);
        }
        answers.add(&s.out);
    }
    Ok(answers)
}

/// The intersection of sorted arrays (shortest first), the two shortest
/// first: by merge, or by galloping in the longer when it is over 32 times
/// longer.
fn and_arrays(arrays: &[Vec<u32>], out: &mut Vec<u32>, tmp: &mut Vec<u32>) {
    and2(&arrays[0], &arrays[1], out);
    for a in &arrays[2..] {
        std::mem::swap(out, tmp);
        and2(tmp, a, out);
    }
}

fn and2(a: &[u32], b: &[u32], out: &mut Vec<u32>) {
    out.clear();
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if large.len() > 32 * small.len() {
        // Galloping: from where the last search ended, steps of 1, 2, 4,
        // ... past the value, then a binary search in the last step.
        let mut lo = 0;
        for &x in small {
            let mut step = 1;
            let mut hi = lo;
            while hi < large.len() && large[hi] < x {
                lo = hi + 1;
                hi += step;
                step *= 2;
            }
            let hi = hi.min(large.len());
            lo += large[lo..hi].partition_point(|&v| v < x);
            if lo == large.len() {
                return;
            }
            if large[lo] == x {
                out.push(x);
            }
        }
    } else {
        let (mut i, mut j) = (0, 0);
        while i < small.len() && j < large.len() {
            let (x, y) = (small[i], large[j]);
            if x < y {
                i += 1;
            } else if y < x {
                j += 1;
            } else {
                out.push(x);
                i += 1;
                j += 1;
            }
        }
    }
}

/// The union of sorted arrays by plain merges, each value once.
fn or_arrays(arrays: &[Vec<u32>], out: &mut Vec<u32>, tmp: &mut Vec<u32>) {
    or2(&arrays[0], &arrays[1], out);
    for a in &arrays[2..] {
        std::mem::swap(out, tmp);
        or2(tmp, a, out);
    }
}

fn or2(a: &[u32], b: &[u32], out: &mut Vec<u32>) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        out.push(x.min(y));
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// The CRoaring peer with the AND of 2 lists counted, as a Roaring user
/// who wants the count alone asks for it (`and_cardinality`, which builds
/// no bitmap; the last of 3 lists likewise).
const ROARING_COUNT: &str = "peer:croaring, counted";

/// What the CRoaring peer answers with.
#[derive(Clone, Copy)]
#[cfg(feature = "peers")]
enum Roaring {
    /// The bitmap of the answer (its cardinality read, as a Roaring user
    /// keeps it).
    Bitmap,
    /// Its cardinality alone, the last list counted against the others'
    /// bitmap without building one.
    Count,
    /// Its values read out into an array, as the others give them.
    Array,
}

/// Answers the queries with CRoaring's `and`/`or`.
#[cfg(feature = "peers")]
fn roaring(lists: &[List], kind: Kind, queries: &[Query], answer: Roaring) -> Answers {
    let mut answers = Answers::new(kind);
    let mut out = Vec::new();
    for q in queries {
        let (last, rest) = q.split_last().expect("a query has lists");
        let last = &lists[*last].bitmap;
        let first = &lists[rest[0]].bitmap;
        if let (Roaring::Count, [_]) = (answer, rest) {
            answers.counted(if kind.and {
                first.and_cardinality(last)
            } else {
                first.or_cardinality(last)
            } as usize);
            continue;
        }
        let mut r = if kind.and {
            first.and(&lists[q[1]].bitmap)
        } else {
            first.or(&lists[q[1]].bitmap)
        };
        for &i in &q[2..] {
            if let Roaring::Count = answer {
                break;
            }
            if kind.and {
                r.and_inplace(&lists[i].bitmap);
            } else {
                r.or_inplace(&lists[i].bitmap);
            }
        }
        match answer {
            Roaring::Array => {
                // Read out in bulk (`roaring_uint32_iterator_read`) into
                // a buffer kept between queries, as the hybrid rows write
                // theirs, grown (and cleared) only when an answer is longer
                // than any before.
                let card = r.cardinality() as usize;
                if out.len() < card {
                    out.resize(card, 0);
                }
                let n = r.iter().next_many(&mut out[..card]);
                answers.add(&out[..n]);
            }
            Roaring::Bitmap => answers.counted(r.cardinality() as usize),
            Roaring::Count => answers.counted(if kind.and {
                r.and_cardinality(last)
            } else {
                r.or_cardinality(last)
            } as usize),
        }
    }
    answers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists(lens: impl Iterator<Item = usize>) -> Vec<List> {
        lens.map(|n| List::new((0..n as u32).map(|i| 3 * i).collect()))
            .collect()
    }

    #[test]
    fn queries_have_the_ratios_asked() {
        // Lengths 8 to about 16000: every ratio has lists to draw from.
        let ls = lists((0..400).map(|i| 8 + i * i / 10));
        let mut rng = Rng(1);
        for arity in [2, 3] {
            let qs = draw(&ls, arity, &mut rng);
            assert_eq!(qs.len(), RATIOS.len() * PER_RATIO, "arity {arity}");
            for (k, q) in qs.iter().enumerate() {
                assert_eq!(q.len(), arity);
                let (short, long) = (ls[q[0]].values.len(), ls[q[arity - 1]].values.len());
                let ratio = RATIOS[k / PER_RATIO];
                let got = long as f64 / short as f64;
                assert!(
                    got >= ratio as f64 / 2.0 && got <= ratio as f64 * 2.0 + 1.0,
                    "{k}: {long}/{short} for 1:{ratio}"
                );
            }
        }
    }

    #[test]
    fn array_intersections_and_unions_are_set_operations() {
        let a: Vec<u32> = (0..3000).map(|i| i * 2).collect();
        let b: Vec<u32> = (0..50).map(|i| i * 37).collect();
        let c: Vec<u32> = (0..2000).map(|i| i * 3).collect();
        let (mut out, mut tmp) = (Vec::new(), Vec::new());
        let set = |v: &[u32]| {
            v.iter()
                .copied()
                .collect::<std::collections::BTreeSet<u32>>()
        };
        and_arrays(&[b.clone(), c.clone(), a.clone()], &mut out, &mut tmp);
        let want: Vec<u32> = set(&a)
            .intersection(&set(&b))
            .copied()
            .filter(|v| set(&c).contains(v))
            .collect();
        assert_eq!(out, want);
        or_arrays(&[b.clone(), a.clone()], &mut out, &mut tmp);
        assert_eq!(out, set(&a).union(&set(&b)).copied().collect::<Vec<u32>>());
    }
}

#[cfg(test)]
mod more_tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn array_intersections_agree_with_sets_at_every_ratio() {
        let mut rng = Rng(5);
        for round in 0..300 {
            let universe = 1 + rng.below(1 << 20);
            let lens = [
                1 + rng.below(100),
                1 + rng.below(5000),
                1 + rng.below(100_000),
            ];
            let lists: Vec<Vec<u32>> = lens
                .iter()
                .map(|&n| {
                    let s: BTreeSet<u32> = (0..n).map(|_| rng.below(universe) as u32).collect();
                    s.into_iter().collect()
                })
                .collect();
            let sets: Vec<BTreeSet<u32>> =
                lists.iter().map(|l| l.iter().copied().collect()).collect();
            let want: Vec<u32> = lists[0]
                .iter()
                .copied()
                .filter(|v| sets[1].contains(v) && sets[2].contains(v))
                .collect();
            let (mut out, mut tmp) = (Vec::new(), Vec::new());
            and_arrays(&lists, &mut out, &mut tmp);
            assert_eq!(out, want, "round {round}");
        }
    }
}
