//! A small inverted index: each term's sorted document ids are stored as a
//! delta-coded Stream VByte stream, and queries read them without decoding
//! whole lists: a cursor (`stream_vbyte::DeltaCursor`) walks a list forward
//! and jumps to the first document at or after a target, which is what the
//! AND and OR queries of `vecpress::postings` are made of (lists stored in
//! one buffer, as in an index file, are queried by one call of
//! `stream_vbyte::and_delta_lists` and `or_delta_lists`, and in the hybrid
//! form of `postings::hybrid`, bitmaps where a list is dense); `select_delta`
//! fetches the i-th document.
//!
//! `cargo run --release -p vecpress --example posting_index`

use std::collections::BTreeMap;

use vecpress::postings;
use vecpress::stream_vbyte::{self, DeltaCursor};

/// One term's postings: the count (Stream VByte does not store it) and the
/// encoded gaps.
struct PostingList {
    len: usize,
    bytes: Vec<u8>,
}

impl PostingList {
    fn new(doc_ids: &[u32]) -> PostingList {
        // Gaps are coded from 0: the first value is the first document id.
        PostingList {
            len: doc_ids.len(),
            bytes: stream_vbyte::encode_delta_to_vec(doc_ids, 0),
        }
    }

    fn decode(&self) -> Result<Vec<u32>, vecpress::Error> {
        stream_vbyte::decode_delta_to_vec(&self.bytes, self.len, 0)
    }
}

impl PostingList {
    /// A cursor at the list's first document.
    fn cursor(&self) -> Result<DeltaCursor<'_>, vecpress::Error> {
        DeltaCursor::new(&self.bytes, self.len, 0)
    }
}

/// Documents holding every term: the shortest list drives, and each other
/// list's cursor skips forward to its documents, never decoding the groups
/// of values below them.
fn and_query(terms: &[&PostingList]) -> Result<Vec<u32>, vecpress::Error> {
    let mut cursors = terms
        .iter()
        .map(|t| t.cursor())
        .collect::<Result<Vec<_>, _>>()?;
    let mut hits = Vec::new();
    postings::and(&mut cursors, &mut hits)?;
    Ok(hits)
}

/// Sorted, distinct document ids below `docs`, each kept with probability
/// 1/`every` (a fixed xorshift, so every run builds the same index).
fn postings(docs: u32, every: u32, seed: u64) -> Vec<u32> {
    let mut x = seed;
    (0..docs)
        .filter(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x.is_multiple_of(u64::from(every))
        })
        .collect()
}

fn main() -> Result<(), vecpress::Error> {
    let docs = 1_000_000;
    let lists: BTreeMap<&str, Vec<u32>> = [("common", 3), ("rare", 400), ("vecpress", 50)]
        .into_iter()
        .enumerate()
        .map(|(i, (term, every))| (term, postings(docs, every, 0x9E37_79B9 + i as u64)))
        .collect();
    let index: BTreeMap<&str, PostingList> = lists
        .iter()
        .map(|(&term, ids)| (term, PostingList::new(ids)))
        .collect();

    for (term, ids) in &lists {
        let list = &index[term];
        // The round trip, and random access without decoding the list.
        assert_eq!(&list.decode()?, ids);
        let mid = ids.len() / 2;
        assert_eq!(
            stream_vbyte::select_delta(&list.bytes, list.len, mid, 0)?,
            ids[mid]
        );
        println!(
            "{term:>9}: {:>7} documents in {:>7} bytes ({:.2} bits each)",
            list.len,
            list.bytes.len(),
            list.bytes.len() as f64 * 8.0 / list.len as f64,
        );
    }

    // An AND query of two terms, then three, checked against plain merges.
    let merged = |terms: &[&str]| -> Vec<u32> {
        lists[terms[0]]
            .iter()
            .copied()
            .filter(|d| terms[1..].iter().all(|t| lists[t].binary_search(d).is_ok()))
            .collect()
    };
    for terms in [&["rare", "vecpress"][..], &["rare", "vecpress", "common"]] {
        let found: Vec<&PostingList> = terms.iter().map(|t| &index[t]).collect();
        let hits = and_query(&found)?;
        assert_eq!(hits, merged(terms));
        println!(
            "{}: {} documents, first {:?}",
            terms.join(" AND "),
            hits.len(),
            hits.first()
        );
    }

    // An OR query: every document of either term, once.
    let mut cursors = [index["rare"].cursor()?, index["vecpress"].cursor()?];
    let mut either = Vec::new();
    postings::or(&mut cursors, &mut either)?;
    let mut expected: Vec<u32> = lists["rare"]
        .iter()
        .chain(&lists["vecpress"])
        .copied()
        .collect();
    expected.sort_unstable();
    expected.dedup();
    assert_eq!(either, expected);
    println!("rare OR vecpress: {} documents", either.len());

    // An index file holds every list in one buffer, each found by where it
    // starts and how many documents it holds: a query is then one call,
    // which decodes lists of like lengths whole and reads a far longer one
    // by cursor.
    let mut file = Vec::new();
    let mut spans = BTreeMap::new();
    for (&term, list) in &index {
        spans.insert(term, (file.len(), list.len));
        file.extend_from_slice(&list.bytes);
    }
    let query: Vec<(usize, usize)> = ["rare", "vecpress", "common"].map(|t| spans[t]).to_vec();
    let mut hits = Vec::new();
    stream_vbyte::and_delta_lists(&file, &query, &mut hits)?;
    assert_eq!(hits, merged(&["rare", "vecpress", "common"]));
    stream_vbyte::or_delta_lists(&file, &query[..2], &mut hits)?;
    assert_eq!(hits, expected);

    // The same index as hybrid lists: dense stretches as bitmaps, runs as
    // runs, the rest as Stream VByte gaps; each list self-delimiting, found
    // by where it starts. A count needs no document written.
    let mut hybrid_file = Vec::new();
    let mut starts = BTreeMap::new();
    for (&term, list) in &lists {
        starts.insert(term, hybrid_file.len());
        postings::hybrid::encode_into(list, &mut hybrid_file)?;
    }
    let terms = ["rare", "vecpress", "common"].map(|t| &hybrid_file[starts[t]..]);
    postings::hybrid::and(&terms, &mut hits)?;
    assert_eq!(hits, merged(&["rare", "vecpress", "common"]));
    assert_eq!(postings::hybrid::and_count(&terms)?, hits.len());
    postings::hybrid::or(&terms[..2], &mut hits)?;
    assert_eq!(hits, expected);
    println!(
        "hybrid index: {} bytes, Stream VByte: {} bytes",
        hybrid_file.len(),
        file.len()
    );

    // New documents are appended to a list without re-encoding it.
    let list = &index["rare"];
    let mut writer = stream_vbyte::DeltaWriter::from_stream(list.bytes.clone(), list.len, 0)?;
    writer.push(docs);
    let grown = PostingList {
        len: writer.len(),
        bytes: writer.into_bytes(),
    };
    assert_eq!(grown.decode()?.last(), Some(&docs));
    Ok(())
}
