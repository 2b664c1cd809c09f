//! `-T/--threads`: one thread, two and one per core (`-T 0`) give the same
//! bytes on every path (files, stdin, stdout, vecpress files, LZ4 frames of
//! every kind), and a corrupt block fails the same way at every count.

use crate::common::{ok, s, scratch, stderr, vecpress, vecpress_stdin};

use std::fs;
use std::path::Path;
use std::process::Output;

use vecpress::lz4::frame::{self, BlockSize, FrameInfo};

const THREADS: [&str; 3] = ["1", "2", "0"];

/// About 1.5 MB of text-like bytes: compressible, different in every block.
fn text() -> Vec<u8> {
    let words = [
        "block", "thread", "order", "frame", "checksum", "pipe", "the", "of", "a", "decode",
    ];
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::new();
    while out.len() < 1_500_000 || !out.len().is_multiple_of(4) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(words[(x % 10) as usize].as_bytes());
        out.push(if x.is_multiple_of(13) { b'\n' } else { b' ' });
        if x.is_multiple_of(101) {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    out
}

/// LZ4 frames of 64 KiB blocks (many of them) with every mix of linked
/// blocks, block checksums and content checksum; with their names.
fn frames(data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut all = Vec::new();
    for linked in [false, true] {
        for block_sums in [false, true] {
            for content_sum in [false, true] {
                let info = FrameInfo::new()
                    .block_size(BlockSize::Max64KB)
                    .independent_blocks(!linked)
                    .block_checksums(block_sums)
                    .content_checksum(content_sum)
                    .content_size(Some(0));
                let name = format!(
                    "{}{}{}",
                    if linked { "linked" } else { "independent" },
                    if block_sums { "-blocksums" } else { "" },
                    if content_sum { "-contentsum" } else { "" }
                );
                all.push((name, frame::compress_with(data, info)));
            }
        }
    }
    // Two frames back to back, the second of linked blocks.
    let mut two = frame::compress(&data[..300_000]);
    let info = FrameInfo::new().independent_blocks(false);
    two.extend(frame::compress_with(&data[300_000..], info));
    all.push(("two-frames".into(), two));
    all
}

/// Runs `args` with `-T t` added, for every count; asserts they all succeed
/// and returns their stdout.
fn at_every_count(args: &[&str], stdin: Option<&[u8]>) -> Vec<Vec<u8>> {
    THREADS
        .iter()
        .map(|t| {
            let mut all = args.to_vec();
            all.extend(["-T", t]);
            let out = match stdin {
                Some(input) => vecpress_stdin(&all, input),
                None => vecpress(&all),
            };
            ok(out).stdout
        })
        .collect()
}

#[test]
fn every_path_gives_the_same_bytes_at_every_thread_count() {
    let dir = scratch("same");
    let data = text();
    let input = dir.join("in.txt");
    fs::write(&input, &data).unwrap();

    // Compressing: a vecpress file and an LZ4 frame, file to file, file to
    // stdout (a pipe) and stdin to stdout.
    for format in [
        &["--codec", "lz4", "--block", "64K"][..],
        &["--codec", "vbyte", "--type", "u32", "--block", "16K"],
        &["--format", "lz4"],
    ] {
        let mut outs = Vec::new();
        for t in THREADS {
            let out = dir.join(format!("out-{t}"));
            let mut args = vec!["compress", "-qf", "-T", t, s(&input), "-o", s(&out)];
            args.extend_from_slice(format);
            ok(vecpress(&args));
            outs.push(fs::read(&out).unwrap());
        }
        let mut args = vec!["compress", "-c", s(&input)];
        args.extend_from_slice(format);
        let piped = at_every_count(&args, None);
        let mut args = vec!["compress", "-"];
        args.extend_from_slice(format);
        let stdin = at_every_count(&args, Some(&data));
        // A file's header records its size, which stdin's cannot.
        for got in outs.iter().chain(&piped) {
            assert!(got == &outs[0], "{format:?}: thread counts differ");
        }
        for got in &stdin {
            assert!(
                got == &stdin[0],
                "{format:?} from stdin: thread counts differ"
            );
        }
        // And back, from a file and from stdin, to a file and to stdout.
        let packed = dir.join(if format[0] == "--format" {
            "p.lz4"
        } else {
            "p.vp"
        });
        fs::write(&packed, &outs[0]).unwrap();
        let back = at_every_count(&["decompress", "-c", s(&packed)], None);
        let back_stdin = at_every_count(&["decompress", "-"], Some(&outs[0]));
        for got in back.iter().chain(&back_stdin) {
            assert!(got == &data, "{format:?}: decompressed bytes differ");
        }
        for t in THREADS {
            let out = dir.join(format!("back-{t}"));
            ok(vecpress(&[
                "decompress",
                "-qf",
                "-T",
                t,
                s(&packed),
                "-o",
                s(&out),
            ]));
            assert!(fs::read(&out).unwrap() == data, "{format:?} -T {t}");
        }
    }

    // LZ4 frames of every kind, as other encoders write them.
    for (name, bytes) in frames(&data) {
        let path = dir.join(format!("{name}.lz4"));
        fs::write(&path, &bytes).unwrap();
        let back = at_every_count(&["decompress", "-c", s(&path)], None);
        let back_stdin = at_every_count(&["decompress", "-"], Some(&bytes));
        for got in back.iter().chain(&back_stdin) {
            assert!(got == &data, "{name}: decompressed bytes differ");
        }
    }
}

#[test]
fn linked_frames_say_they_decode_on_one_thread() {
    let dir = scratch("linked");
    let data = text();
    let info = FrameInfo::new()
        .block_size(BlockSize::Max64KB)
        .independent_blocks(false);
    let path = dir.join("linked.lz4");
    fs::write(&path, frame::compress_with(&data, info)).unwrap();
    let out = ok(vecpress(&["decompress", "-v", "-T", "2", "-c", s(&path)]));
    let err = stderr(&out);
    assert!(
        err.contains("linked blocks") && err.contains("one thread"),
        "{err}"
    );
    let independent = dir.join("independent.lz4");
    fs::write(&independent, frame::compress(&data)).unwrap();
    let out = ok(vecpress(&[
        "decompress",
        "-v",
        "-T",
        "2",
        "-c",
        s(&independent),
    ]));
    let err = stderr(&out);
    assert!(!err.contains("linked blocks"), "{err}");
    assert!(err.contains("2 threads"), "{err}");
}

/// Asserts a data error: exit code 1, one line, no panic; returns it.
fn failure(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// Decompresses `bad` (a file in `dir`) at every thread count to a file and
/// to stdout; asserts the same error every time and no output file left.
fn fails_alike(dir: &Path, bad: &Path, what: &str) -> String {
    let mut errors = Vec::new();
    for t in THREADS {
        let out = dir.join(format!("out-{t}"));
        let r = vecpress(&["decompress", "-T", t, s(bad), "-o", s(&out)]);
        errors.push(failure(&r));
        let mut left: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.retain(|n| n.starts_with("out-") || n.starts_with(".vecpress-"));
        assert!(left.is_empty(), "{what} -T {t} left {left:?}");
        let r = vecpress(&["decompress", "-T", t, "-c", s(bad)]);
        errors.push(failure(&r));
    }
    for e in &errors {
        assert_eq!(e, &errors[0], "{what}: the thread counts fail differently");
    }
    errors.swap_remove(0)
}

#[test]
fn a_corrupt_block_fails_alike_at_every_thread_count() {
    let dir = scratch("corrupt");
    let data = text();
    let input = dir.join("in.txt");
    fs::write(&input, &data).unwrap();
    let vp = dir.join("in.vp");
    ok(vecpress(&[
        "compress",
        "-q",
        "--codec",
        "lz4",
        "--block",
        "64K",
        s(&input),
        "-o",
        s(&vp),
    ]));
    let mut bytes = fs::read(&vp).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x20;
    let bad = dir.join("bad.vp");
    fs::write(&bad, &bytes).unwrap();
    let err = fails_alike(&dir, &bad, "vecpress file");
    assert!(err.contains("block"), "{err}");
    // The content checksum in the end record.
    let mut sum = fs::read(&vp).unwrap();
    let at = sum.len() - 1;
    sum[at] ^= 0x01;
    let bad_sum = dir.join("bad-sum.vp");
    fs::write(&bad_sum, &sum).unwrap();
    let sum_err = fails_alike(&dir, &bad_sum, "vecpress file's content checksum");
    assert!(sum_err.contains("content checksum"), "{sum_err}");
    fs::remove_file(&bad_sum).unwrap();
    // Two corrupt blocks: the first one is named.
    let later = (mid + 300_000).min(bytes.len() - 30);
    bytes[later] ^= 0x20;
    fs::write(&bad, &bytes).unwrap();
    assert_eq!(fails_alike(&dir, &bad, "vecpress file"), err);

    for (name, frame) in frames(&data) {
        let mut bytes = frame.clone();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x55;
        bytes[mid + 1] ^= 0xFF;
        let bad = dir.join(format!("bad-{name}.lz4"));
        fs::write(&bad, &bytes).unwrap();
        if name.contains("sum") {
            let err = fails_alike(&dir, &bad, &name);
            assert!(err.contains(&format!("bad-{name}.lz4")), "{err}");
        } else {
            // No checksum: the flip may go unnoticed, but alike.
            let runs: Vec<_> = THREADS
                .iter()
                .map(|t| {
                    let r = vecpress(&["decompress", "-T", t, "-c", s(&bad)]);
                    (r.status.code(), stderr(&r), r.stdout)
                })
                .collect();
            for r in &runs {
                assert!(r == &runs[0], "{name}: the thread counts differ");
            }
        }
        // The content checksum at the end (checked after every block was
        // decoded, on whichever thread writes).
        if name.ends_with("contentsum") {
            let mut bytes = frame.clone();
            let last = bytes.len() - 1;
            bytes[last] ^= 0x01;
            fs::write(&bad, &bytes).unwrap();
            let err = fails_alike(&dir, &bad, &name);
            assert!(err.contains("content checksum"), "{name}: {err}");
        }
        // Truncated in the middle of a block.
        fs::write(&bad, &frame[..frame.len() / 2]).unwrap();
        let err = fails_alike(&dir, &bad, &name);
        assert!(err.contains("truncated"), "{name}: {err}");
    }
}
