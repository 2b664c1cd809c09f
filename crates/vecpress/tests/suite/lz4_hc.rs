//! LZ4 high compression: every level decodes, with our decoder and with
//! liblz4's; the end-of-block rules hold; prefix, dictionary and frames; the
//! ratio against liblz4's HC on Silesia when the corpus is present.

use crate::common::Rng;
use proptest::prelude::*;
use vecpress::Error;
use vecpress::lz4::block::{self, LASTLITERALS, MFLIMIT};
use vecpress::lz4::frame::{self, BlockSize, FrameDecoder, FrameEncoder, FrameInfo};
use vecpress::lz4::hc::{self, HcOptions};

/// Every level and `favor_decompression_speed` setting worth telling apart.
fn all_options() -> Vec<HcOptions> {
    let mut v = Vec::new();
    for level in 0..=13 {
        v.push(HcOptions::new().level(level));
    }
    for level in 10..=12 {
        v.push(
            HcOptions::new()
                .level(level)
                .favor_decompression_speed(true),
        );
    }
    v
}

fn text(r: &mut Rng, n: usize) -> Vec<u8> {
    const WORDS: [&str; 14] = [
        "the ",
        "quick ",
        "brown ",
        "fox ",
        "jumps ",
        "over ",
        "lazy ",
        "dog ",
        "and ",
        "a ",
        "cat, ",
        "sleeps. ",
        "Whereupon ",
        "\n",
    ];
    let mut v = Vec::with_capacity(n + 12);
    while v.len() < n {
        v.extend_from_slice(WORDS[r.below(14) as usize].as_bytes());
    }
    v.truncate(n);
    v
}

fn random(r: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| r.next_u64() as u8).collect()
}

fn runs(r: &mut Rng, n: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        let b = if r.below(2) == 0 {
            0
        } else {
            r.next_u64() as u8
        };
        let len = 1 + r.below(400) as usize;
        v.extend(std::iter::repeat_n(b, len.min(n - v.len())));
    }
    v
}

/// Literals and copies from every distance up to beyond the window.
fn mixed(r: &mut Rng, n: usize) -> Vec<u8> {
    let mut v: Vec<u8> = Vec::with_capacity(n);
    while v.len() < n {
        let lits = r.below(20) as usize;
        for _ in 0..lits.min(n - v.len()) {
            v.push(r.next_u64() as u8);
        }
        if v.is_empty() {
            continue;
        }
        let back = 1 + r.below(v.len().min(70_000) as u64) as usize;
        let span = if r.below(8) == 0 { 600 } else { 30 };
        let len = (4 + r.below(span) as usize).min(n - v.len());
        for _ in 0..len {
            v.push(v[v.len() - back]);
        }
    }
    v
}

/// Named inputs: each kind at sizes around 64 KiB and some short ones.
fn inputs() -> Vec<(String, Vec<u8>)> {
    type Maker = fn(&mut Rng, usize) -> Vec<u8>;
    let kinds: [(&str, Maker); 5] = [
        ("text", text),
        ("random", random),
        ("runs", runs),
        ("zeros", |_, n| vec![0; n]),
        ("mixed", mixed),
    ];
    let mut v = Vec::new();
    for (name, make) in kinds {
        for n in [
            0, 1, 5, 12, 13, 19, 20, 100, 1000, 65_535, 65_536, 65_537, 200_000,
        ] {
            v.push((format!("{name} {n}"), make(&mut Rng::new(n as u64 + 1), n)));
        }
    }
    for n in 0..=20 {
        v.push((format!("short text {n}"), text(&mut Rng::new(3), n)));
        v.push((format!("short zeros {n}"), vec![0; n]));
    }
    v
}

/// Walks the sequences of `packed` and checks the end-of-block rules: the
/// last match starts at least MFLIMIT bytes before the end, the last
/// LASTLITERALS bytes are literals. Returns the decoded size.
fn check_end_rules(packed: &[u8], what: &str) -> usize {
    let read_len = |ip: &mut usize, mut n: usize| {
        if n == 15 {
            loop {
                let b = packed[*ip];
                *ip += 1;
                n += b as usize;
                if b != 255 {
                    break;
                }
            }
        }
        n
    };
    let (mut ip, mut op) = (0, 0);
    let mut last_match_start = None;
    let last_lits = loop {
        let token = packed[ip];
        ip += 1;
        let lits = read_len(&mut ip, (token >> 4) as usize);
        ip += lits;
        op += lits;
        if ip == packed.len() {
            break lits;
        }
        ip += 2;
        let ml = read_len(&mut ip, (token & 15) as usize) + 4;
        last_match_start = Some(op);
        op += ml;
    };
    if let Some(start) = last_match_start {
        assert!(
            op - start >= MFLIMIT,
            "{what}: last match at {start} of {op}"
        );
        assert!(
            last_lits >= LASTLITERALS,
            "{what}: {last_lits} last literals"
        );
    }
    op
}

fn hc_block(data: &[u8], opts: &HcOptions) -> Vec<u8> {
    let mut dst = vec![0u8; block::max_compressed_len(data.len())];
    let n = hc::compress_into_with(data, &mut dst, opts).unwrap();
    dst.truncate(n);
    dst
}

#[test]
fn every_level_round_trips_and_keeps_the_end_rules() {
    let inputs = inputs();
    for opts in all_options() {
        for (name, data) in &inputs {
            let what = format!("{opts:?} {name}");
            let packed = hc_block(data, &opts);
            assert!(
                packed.len() <= block::max_compressed_len(data.len()),
                "{what}"
            );
            assert_eq!(check_end_rules(&packed, &what), data.len(), "{what}");
            let mut out = vec![0u8; data.len()];
            assert_eq!(
                block::decompress_into(&packed, &mut out),
                Ok(data.len()),
                "{what}"
            );
            assert!(out == *data, "{what}");
        }
    }
}

#[test]
fn output_too_small_is_an_error() {
    let data = text(&mut Rng::new(9), 5000);
    for level in [2, 9, 12] {
        let opts = HcOptions::new().level(level);
        let full = hc_block(&data, &opts);
        for cut in [0, 1, full.len() / 2, full.len() - 1] {
            let mut dst = vec![0u8; cut];
            let got = hc::compress_into_with(&data, &mut dst, &opts);
            assert!(
                matches!(got, Err(Error::OutputTooSmall { .. })),
                "level {level} cut {cut}: {got:?}"
            );
        }
        let mut dst = vec![0u8; full.len()];
        assert_eq!(
            hc::compress_into_with(&data, &mut dst, &opts),
            Ok(full.len())
        );
    }
}

#[test]
fn higher_levels_compress_better() {
    let mut r = Rng::new(11);
    let data = [text(&mut r, 150_000), mixed(&mut r, 150_000)].concat();
    let fast = block::compress(&data).len();
    let l9 = hc::compress(&data, 9).len();
    let l12 = hc::compress(&data, 12).len();
    let l4 = hc::compress(&data, 4).len();
    assert!(
        l12 <= l9 && l9 <= l4 && l4 < fast,
        "12: {l12}, 9: {l9}, 4: {l4}, fast: {fast}"
    );
}

#[test]
fn prefix_and_dict_round_trip() {
    let mut r = Rng::new(21);
    let history = [text(&mut r, 80_000), mixed(&mut r, 20_000)].concat();
    let src = [mixed(&mut r, 30_000), history[50_000..60_000].to_vec()].concat();
    let mut joined = history.clone();
    joined.extend_from_slice(&src);
    for opts in all_options() {
        let what = format!("{opts:?}");
        let mut dst = vec![0u8; block::max_compressed_len(src.len())];
        let n = hc::compress_with_prefix(&joined, history.len(), &mut dst, &opts).unwrap();
        let mut buf = history.clone();
        buf.resize(joined.len(), 0);
        let got = block::decompress_with_prefix(&dst[..n], &mut buf, history.len());
        assert_eq!(got, Ok(src.len()), "{what}");
        assert!(buf == joined, "{what}");
        let alone = hc_block(&src, &opts).len();
        assert!(n < alone, "{what}: the history helps ({n} vs {alone})");

        let m = hc::compress_with_dict(&src, &history, &mut dst, &opts).unwrap();
        let mut out = vec![0u8; src.len()];
        let got = block::decompress_with_dict(&dst[..m], &history, &mut out);
        assert_eq!(got, Ok(src.len()), "{what}");
        assert!(out == src, "{what}");
    }
    let mut dst = [0u8; 64];
    assert!(matches!(
        hc::compress_with_prefix(b"abc", 4, &mut dst, &HcOptions::new()),
        Err(Error::OutOfRange { .. })
    ));
}

fn hc_frame(data: &[u8], info: FrameInfo, level: u32) -> Vec<u8> {
    use std::io::Write;
    let mut enc = FrameEncoder::with_info(Vec::new(), info).with_level(level);
    for piece in data.chunks(70_001) {
        enc.write_all(piece).unwrap();
    }
    enc.finish().unwrap()
}

#[test]
fn frames_at_hc_levels_round_trip() {
    use std::io::Read;
    let mut r = Rng::new(31);
    let data = [text(&mut r, 300_000), mixed(&mut r, 200_000)].concat();
    for independent in [true, false] {
        let info = FrameInfo::new()
            .block_size(BlockSize::Max64KB)
            .independent_blocks(independent)
            .block_checksums(true);
        let fast = hc_frame(&data, info, 1);
        let mut sizes = Vec::new();
        for level in [2, 9, 12] {
            let packed = hc_frame(&data, info, level);
            assert!(frame::decompress(&packed).unwrap() == data, "{level}");
            let mut out = Vec::new();
            FrameDecoder::new(&packed[..])
                .read_to_end(&mut out)
                .unwrap();
            assert!(out == data, "{level}");
            sizes.push(packed.len());
        }
        assert!(
            sizes[2] <= sizes[1] && sizes[1] < fast.len(),
            "{sizes:?} {}",
            fast.len()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_inputs_round_trip(seed in any::<u64>(), n in 0usize..20_000, kind in 0usize..4, level in 0u32..=12, favor: bool) {
        let mut r = Rng::new(seed);
        let data = match kind {
            0 => text(&mut r, n),
            1 => runs(&mut r, n),
            2 => mixed(&mut r, n),
            _ => random(&mut r, n),
        };
        let opts = HcOptions::new().level(level).favor_decompression_speed(favor);
        let packed = hc_block(&data, &opts);
        let mut out = vec![0u8; n];
        prop_assert_eq!(block::decompress_into(&packed, &mut out), Ok(n));
        prop_assert!(out == data);
    }
}

/// The Silesia files, or `None` when the data folder is absent (saying so;
/// a failure under CI).
#[cfg(target_arch = "x86_64")]
fn silesia() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = crate::common::data::folder("silesia", "the Silesia checks against liblz4")?;
    let mut files = Vec::new();
    for name in ["dickens", "mr", "ooffice", "xml"] {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        files.push((name.to_string(), bytes));
    }
    Some(files)
}

#[cfg(target_arch = "x86_64")]
mod liblz4 {
    use super::*;
    use std::io::{Read, Write};

    use lz4::liblz4::{LZ4_compress_HC, LZ4_decompress_safe};

    fn their_hc(data: &[u8], level: i32) -> Vec<u8> {
        // liblz4's optimal parser reads from the source pointer even when it
        // is empty: give it a real one.
        let one = [0u8; 1];
        let data = if data.is_empty() { &one[..0] } else { data };
        let mut dst = vec![0u8; block::max_compressed_len(data.len())];
        // SAFETY: both pointers come from live slices whose lengths are
        // passed with them; liblz4 writes at most `dst.len()` bytes.
        let n = unsafe {
            LZ4_compress_HC(
                data.as_ptr().cast(),
                dst.as_mut_ptr().cast(),
                data.len() as i32,
                dst.len() as i32,
                level,
            )
        };
        assert!(n > 0 || data.is_empty(), "LZ4_compress_HC failed");
        dst.truncate(n as usize);
        dst
    }

    fn their_decode(packed: &[u8], n: usize) -> Option<Vec<u8>> {
        let mut out = vec![0u8; n];
        // SAFETY: as above; liblz4 reads at most `packed.len()` bytes and
        // writes at most `n`.
        let got = unsafe {
            LZ4_decompress_safe(
                packed.as_ptr().cast(),
                out.as_mut_ptr().cast(),
                packed.len() as i32,
                n as i32,
            )
        };
        (got == n as i32).then_some(out)
    }

    #[test]
    fn liblz4_decodes_every_level() {
        let inputs = inputs();
        for opts in all_options() {
            for (name, data) in &inputs {
                let packed = hc_block(data, &opts);
                let back = their_decode(&packed, data.len());
                assert!(back.as_deref() == Some(&data[..]), "{opts:?} {name}");
            }
        }
    }

    #[test]
    fn we_decode_liblz4_hc() {
        for (name, data) in inputs() {
            for level in [2, 3, 9, 10, 12] {
                let theirs = their_hc(&data, level);
                let mut out = vec![0u8; data.len()];
                let got = block::decompress_into(&theirs, &mut out);
                assert_eq!(got, Ok(data.len()), "{name} {level}");
                assert!(out == data, "{name} {level}");
            }
        }
    }

    #[test]
    fn close_to_liblz4_on_generated_data() {
        let mut r = Rng::new(41);
        let data = [
            text(&mut r, 200_000),
            mixed(&mut r, 200_000),
            runs(&mut r, 50_000),
        ]
        .concat();
        for level in [2, 4, 9, 11, 12] {
            let ours = hc::compress(&data, level).len() as f64;
            let theirs = their_hc(&data, level as i32).len() as f64;
            assert!(
                ours <= theirs * 1.005,
                "level {level}: ours {ours}, liblz4 {theirs}"
            );
        }
    }

    #[test]
    fn silesia_decodes_and_is_close_to_liblz4() {
        let Some(files) = silesia() else { return };
        for (name, data) in files {
            for level in [2u32, 9, 12] {
                let ours = hc::compress(&data, level);
                let back = their_decode(&ours, data.len());
                assert!(back.as_deref() == Some(&data[..]), "{name} {level}");
                let theirs = their_hc(&data, level as i32);
                let (a, b) = (ours.len() as f64, theirs.len() as f64);
                eprintln!(
                    "{name} level {level}: ours {a}, liblz4 {b}, {:+.3}%",
                    (a / b - 1.0) * 100.0
                );
                assert!(a <= b * 1.005, "{name} level {level}: ours {a}, liblz4 {b}");
            }
        }
    }

    #[test]
    fn liblz4_reads_our_hc_frames() {
        let mut r = Rng::new(51);
        let data = [text(&mut r, 300_000), mixed(&mut r, 150_000)].concat();
        for independent in [true, false] {
            for level in [3, 9, 12] {
                let info = FrameInfo::new()
                    .block_size(BlockSize::Max64KB)
                    .independent_blocks(independent);
                let packed = hc_frame(&data, info, level);
                let mut out = Vec::new();
                lz4::Decoder::new(&packed[..])
                    .unwrap()
                    .read_to_end(&mut out)
                    .unwrap();
                assert!(out == data, "{independent} {level}");
            }
        }
    }

    #[test]
    fn lz4_command_reads_our_hc_frames() {
        use std::process::{Command, Stdio};
        if !crate::common::lz4_command() {
            return;
        }
        let data = text(&mut Rng::new(61), 200_000);
        for level in [9, 12] {
            let info = FrameInfo::new().independent_blocks(false);
            let packed = hc_frame(&data, info, level);
            let mut child = Command::new("lz4")
                .args(["-d", "-c"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            let writer = std::thread::spawn(move || stdin.write_all(&packed));
            let out = child.wait_with_output().unwrap();
            writer.join().unwrap().unwrap();
            assert!(out.status.success());
            assert!(out.stdout == data, "level {level}");
        }
    }
}
