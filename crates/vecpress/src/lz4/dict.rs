//! LZ4 dictionaries: how a dictionary is named ([`dictionary_id`]) and a
//! simple trainer that builds one from sample records
//! ([`train_dictionary`]).
//!
//! A dictionary is data that logically comes before the input: matches may
//! reach back into it, so small records that resemble the samples compress
//! as if they were the continuation of a long, similar text. LZ4 matches
//! reach at most 64 KiB back, so only the last [`MAX_DICT_LEN`] bytes of a
//! dictionary count; every function here and in [`block`](super::block) and
//! [`frame`](super::frame) uses that tail of a longer one.
//!
//! # Dictionary id
//!
//! LZ4 frames (and vecpress files) name the dictionary they need by a 32-bit
//! id. LZ4 fixes no rule for it; here it is the XXH32 (seed 0) of the
//! dictionary's last 64 KiB, the bytes LZ4 uses, with 0 (which liblz4's LZ4F
//! reads as "no id") replaced by 1. Two dictionaries with the same id are
//! (but for a hash collision) the same dictionary.
//!
//! # Training
//!
//! [`train_dictionary`] picks substrings that recur across the samples and
//! lays them out so that the most useful ones sit at the end of the
//! dictionary, closest to the input (LZ4 offsets cost the same whatever
//! their distance, but the greedy parse finds the nearer copy first, and a
//! dictionary cut to a smaller size keeps its best part). It works in four
//! steps, in time linear in the samples' total length:
//!
//! 1. **Count.** Every 8-byte substring (*d-mer*) of every sample is hashed
//!    into a table of 2^20 counters; each counter holds the number of
//!    distinct samples that contain a d-mer of that hash, minus one (a d-mer
//!    seen in one sample only says nothing about the next record).
//! 2. **Select.** The samples, concatenated, are cut into as many equal
//!    *epochs* as the dictionary has room for segments (`size / segment`,
//!    the segment being [`SEGMENT_LEN`] bytes by default). In each epoch a
//!    window of one segment slides over every position, and the window whose
//!    distinct d-mers have the largest summed count wins (each d-mer counts
//!    once per window, so a run of one repeated byte scores little).
//! 3. **Forget.** The winner is trimmed of leading and trailing bytes whose
//!    d-mers count zero, and the counters of all its d-mers are set to zero,
//!    so later epochs pick other content instead of the same text again.
//!    Rounds of steps 2-3 repeat (at most four) while the dictionary is not
//!    full and something still scores.
//! 4. **Lay out.** The segments are sorted by score, lowest first, and
//!    concatenated; when they exceed `size`, the front (the weakest) is cut.
//!
//! This is the idea of zstd's COVER and FastCover trainers (Liao, Petri,
//! Moffat and Wirth, *Effective Construction of Relative Lempel-Ziv
//! Dictionaries*, WWW 2016), without their parameter search: the d-mer and
//! segment lengths are fixed. On 1 KiB records of the Silesia corpus a
//! 64 KiB dictionary trained on half the records compresses the other half
//! about twice as well as LZ4 without a dictionary (README, "LZ4
//! dictionaries", and `benches/dict_ratio.rs`).
//!
//! ```
//! use vecpress::lz4::{block, dict};
//!
//! let records: Vec<Vec<u8>> = (0..200)
//!     .map(|i| format!("{{\"id\":{i},\"kind\":\"order\",\"status\":\"shipped\",\"total\":{}}}", i * 7).into_bytes())
//!     .collect();
//! let samples: Vec<&[u8]> = records.iter().map(|r| &r[..]).collect();
//! let d = dict::train_dictionary(&samples[..150], 4096);
//! let rec = &records[170];
//! let mut packed = vec![0u8; block::max_compressed_len(rec.len())];
//! let with = block::compress_with_dict(rec, &d, &mut packed)?;
//! assert!(with < block::compress(rec).len());
//! let mut out = vec![0u8; rec.len()];
//! block::decompress_with_dict(&packed[..with], &d, &mut out)?;
//! assert_eq!(&out, rec);
//! # Ok::<(), vecpress::Error>(())
//! ```
#![forbid(unsafe_code)]

use xxhash_rust::xxh32::xxh32;

/// The most of a dictionary LZ4 can use: matches reach at most 64 KiB back.
pub const MAX_DICT_LEN: usize = 64 << 10;

/// The default segment length of [`train_dictionary`], in bytes.
pub const SEGMENT_LEN: usize = 256;

/// Bytes of the substrings counted (the d-mers).
const DMER: usize = 6;
/// log2 of the number of counters.
const TABLE_LOG: u32 = 20;
/// Marks a position whose d-mer crosses the end of its sample.
const NONE: u32 = u32::MAX;
/// Rounds of selection at most.
const ROUNDS: usize = 4;

/// The most sample bytes [`train_dictionary`] reads. It needs about five
/// bytes of memory per byte it reads, so beyond this it trains on an evenly
/// spread choice of the samples whose lengths add up to at most this (as
/// zstd's trainers cap their input): memory and time stay bounded however
/// large the samples, and 64 MiB of records is far more than a 64 KiB
/// dictionary needs to find what recurs.
pub const MAX_TRAINING_BYTES: usize = 64 << 20;

/// The samples to train on: all of them when their `total` length is at
/// most `budget`; else a choice spread evenly over them, each sample kept
/// while the bytes kept stay within their share of the bytes seen, and a
/// sample longer than what the budget has left cut to it.
fn sample_evenly<'a>(samples: &[&'a [u8]], total: usize, budget: usize) -> Vec<&'a [u8]> {
    if total <= budget {
        return samples.to_vec();
    }
    let (mut kept, mut taken, mut seen) = (Vec::new(), 0usize, 0usize);
    for s in samples {
        // taken / seen <= budget / total, in integers that cannot overflow.
        if taken < budget && (taken as u128) * (total as u128) <= (seen as u128) * (budget as u128)
        {
            let s = &s[..s.len().min(budget - taken)];
            taken += s.len();
            kept.push(s);
        }
        seen = seen.saturating_add(s.len());
    }
    kept
}

/// The id of a dictionary: XXH32 (seed 0) of its last [`MAX_DICT_LEN`]
/// bytes, or 1 where that is 0 (see the [module](self) docs).
///
/// ```
/// use vecpress::lz4::dict::dictionary_id;
///
/// let d = b"some dictionary".to_vec();
/// assert_eq!(dictionary_id(&d), dictionary_id(&d.clone()));
/// assert_ne!(dictionary_id(&d), dictionary_id(b"another"));
/// // Only the last 64 KiB count.
/// let mut long = vec![1u8; 10];
/// long.extend(vec![7u8; 64 << 10]);
/// assert_eq!(dictionary_id(&long), dictionary_id(&long[10..]));
/// ```
pub fn dictionary_id(dict: &[u8]) -> u32 {
    let tail = &dict[dict.len().saturating_sub(MAX_DICT_LEN)..];
    match xxh32(tail, 0) {
        0 => 1,
        id => id,
    }
}

/// Builds a dictionary of at most `size` bytes (and at most
/// [`MAX_DICT_LEN`]) from sample records, with segments of
/// [`SEGMENT_LEN`] bytes: see the [module](self) docs for the method.
///
/// The samples should look like the data to be compressed (records of the
/// same kind, each compressed on its own). When they hold no more bytes than
/// `size`, the dictionary is all of them, concatenated; samples of fewer
/// than 8 bytes contribute no substrings. Time and memory are linear in the
/// samples' total length (about 5 bytes of memory per sample byte), and
/// bounded: beyond [`MAX_TRAINING_BYTES`] it reads an evenly spread choice
/// of the samples.
///
/// ```
/// let samples: Vec<Vec<u8>> = (0..100)
///     .map(|i| format!("GET /api/v1/items/{i} HTTP/1.1\r\nHost: example.org\r\n").into_bytes())
///     .collect();
/// let refs: Vec<&[u8]> = samples.iter().map(|s| &s[..]).collect();
/// let d = vecpress::lz4::dict::train_dictionary(&refs, 1024);
/// assert!(d.len() <= 1024);
/// assert!(d.windows(17).any(|w| w == b"Host: example.org"));
/// ```
pub fn train_dictionary(samples: &[&[u8]], size: usize) -> Vec<u8> {
    train_dictionary_with(samples, size, SEGMENT_LEN)
}

/// [`train_dictionary`] with segments of `segment` bytes (at least 16;
/// smaller values are raised to it): shorter segments pick more, smaller
/// pieces of text.
///
/// ```
/// let samples: Vec<Vec<u8>> = (0..50u32)
///     .map(|i| format!("<row id=\"{i}\"><name>item</name><price>{}</price></row>", i * 3).into_bytes())
///     .collect();
/// let refs: Vec<&[u8]> = samples.iter().map(|s| &s[..]).collect();
/// let d = vecpress::lz4::dict::train_dictionary_with(&refs, 512, 64);
/// assert!(!d.is_empty() && d.len() <= 512);
/// ```
pub fn train_dictionary_with(samples: &[&[u8]], size: usize, segment: usize) -> Vec<u8> {
    let size = size.min(MAX_DICT_LEN);
    let segment = segment.max(2 * DMER);
    let total = samples
        .iter()
        .fold(0usize, |n, s| n.saturating_add(s.len()));
    if size == 0 {
        return Vec::new();
    }
    if total <= size {
        return samples.concat();
    }
    let kept = sample_evenly(samples, total, MAX_TRAINING_BYTES);
    let samples = &kept[..];
    let data = samples.concat();
    let mut trainer = Trainer::count(samples, &data);
    let mut chosen: Vec<(u64, usize, usize)> = Vec::new();
    let mut len = 0usize;
    for _ in 0..ROUNDS {
        if len >= size {
            break;
        }
        let epochs = (size - len)
            .div_ceil(segment)
            .min(data.len() / segment)
            .max(1);
        let epoch_len = data.len() / epochs;
        let before = chosen.len();
        for e in 0..epochs {
            let (a, b) = (e * epoch_len, (e + 1) * epoch_len);
            if let Some((score, from, to)) = trainer.best_segment(a, b, segment) {
                trainer.forget(from, to);
                len += to - from;
                chosen.push((score, from, to));
            }
        }
        if chosen.len() == before {
            break;
        }
    }
    // Weakest first, so that the best end up nearest the input.
    chosen.sort_by_key(|&(score, from, _)| (score, std::cmp::Reverse(from)));
    let mut dict = Vec::with_capacity(len);
    for &(_, from, to) in &chosen {
        dict.extend_from_slice(&data[from..to]);
    }
    let cut = dict.len().saturating_sub(size);
    dict.drain(..cut);
    dict
}

/// The counters and the hash of every position of the samples.
struct Trainer {
    /// Per hash: distinct samples containing it, minus one.
    freq: Vec<u32>,
    /// Per position of the concatenated samples: its d-mer's hash, or
    /// [`NONE`].
    hashes: Vec<u32>,
    /// Per hash: how often it occurs in the current window.
    active: Vec<u32>,
}

fn hash(bytes: &[u8]) -> u32 {
    let mut b = [0u8; 8];
    b[..DMER].copy_from_slice(&bytes[..DMER]);
    (u64::from_le_bytes(b).wrapping_mul(0x9E37_79B1_85EB_CA87) >> (64 - TABLE_LOG)) as u32
}

impl Trainer {
    /// Step 1: counts the d-mers of `samples` (whose concatenation is
    /// `data`).
    fn count(samples: &[&[u8]], data: &[u8]) -> Trainer {
        let mut freq = vec![0u32; 1 << TABLE_LOG];
        // The last sample (plus one) each hash was seen in.
        let mut seen = vec![0u32; 1 << TABLE_LOG];
        let mut hashes = vec![NONE; data.len()];
        let mut start = 0;
        for (i, s) in samples.iter().enumerate() {
            let tag = (i as u32).wrapping_add(1);
            for p in 0..s.len().saturating_sub(DMER - 1) {
                let h = hash(&s[p..]);
                hashes[start + p] = h;
                let h = h as usize;
                if seen[h] != tag {
                    if seen[h] != 0 {
                        freq[h] = freq[h].saturating_add(1);
                    }
                    seen[h] = tag;
                }
            }
            start += s.len();
        }
        debug_assert_eq!(start, data.len());
        Trainer {
            freq,
            hashes,
            active: vec![0u32; 1 << TABLE_LOG],
        }
    }

    fn freq_at(&self, p: usize) -> u32 {
        match self.hashes[p] {
            NONE => 0,
            h => self.freq[h as usize],
        }
    }

    /// Step 2: the best window of `segment` bytes starting in `a..b`, as
    /// (score, start, end) after trimming; `None` when nothing scores.
    fn best_segment(&mut self, a: usize, b: usize, segment: usize) -> Option<(u64, usize, usize)> {
        let n = self.hashes.len();
        let dmers = segment - DMER + 1;
        let last = (b + dmers).min(n);
        let (mut score, mut best, mut best_at) = (0u64, 0u64, a);
        for j in a..last {
            self.enter(j, &mut score);
            if j >= a + dmers {
                self.leave(j - dmers, &mut score);
            }
            let start = (j + 1).saturating_sub(dmers).max(a);
            if score > best && start < b {
                (best, best_at) = (score, start);
            }
        }
        for j in last.saturating_sub(dmers).max(a)..last {
            self.leave(j, &mut score);
        }
        if best == 0 {
            return None;
        }
        let mut from = best_at;
        let mut to = (best_at + segment).min(n);
        while from < to && self.freq_at(from) == 0 {
            from += 1;
        }
        // The last useful d-mer ends the segment.
        while to > from && self.freq_at(to - 1) == 0 {
            to -= 1;
        }
        to = (to + DMER - 1).min(best_at + segment).min(n);
        (from < to).then_some((best, from, to))
    }

    fn enter(&mut self, p: usize, score: &mut u64) {
        if let Some(h) = self.slot(p) {
            if self.active[h] == 0 {
                *score += u64::from(self.freq[h]);
            }
            self.active[h] += 1;
        }
    }

    fn leave(&mut self, p: usize, score: &mut u64) {
        if let Some(h) = self.slot(p) {
            self.active[h] -= 1;
            if self.active[h] == 0 {
                *score -= u64::from(self.freq[h]);
            }
        }
    }

    fn slot(&self, p: usize) -> Option<usize> {
        match self.hashes[p] {
            NONE => None,
            h => Some(h as usize),
        }
    }

    /// Step 3: the d-mers of `data[from..to]` count no more.
    fn forget(&mut self, from: usize, to: usize) {
        for p in from..to {
            if let Some(h) = self.slot(p) {
                self.freq[h] = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_inputs_and_sizes() {
        assert!(train_dictionary(&[], 1000).is_empty());
        assert!(train_dictionary(&[b"abc"], 0).is_empty());
        assert_eq!(train_dictionary(&[b"abc", b"", b"de"], 10), b"abcde");
        let noise: Vec<u8> = (0..5000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        // Nothing recurs across one sample: no segment scores.
        assert!(train_dictionary(&[&noise], 100).is_empty());
    }

    #[test]
    fn picks_what_recurs_and_respects_the_size() {
        let records: Vec<Vec<u8>> = (0..300u32)
            .map(|i| {
                let noise: String = (0..20)
                    .map(|k| char::from(b'a' + ((i * 31 + k * 7) % 26) as u8))
                    .collect();
                format!("{noise} the common header of every record {noise}").into_bytes()
            })
            .collect();
        let refs: Vec<&[u8]> = records.iter().map(|r| &r[..]).collect();
        for size in [16, 100, 1000, 70_000] {
            let d = train_dictionary(&refs, size);
            assert!(d.len() <= size.min(MAX_DICT_LEN));
            if size >= 100 {
                assert!(
                    d.windows(20).any(|w| w == b"the common header of"),
                    "{size}"
                );
            }
        }
    }
}
