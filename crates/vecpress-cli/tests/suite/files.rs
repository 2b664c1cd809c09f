//! Runs the built `vecpress` binary on files: compress, decompress and
//! inspect, round trips of every type and codec, stdin/stdout, threads,
//! corruption, overwriting and interrupted or failed runs.

use crate::common::{lz4_command, ok, s, scratch, stderr, vecpress, vecpress_stdin};

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use vecpress::codec;
use vecpress::container::Element;

/// Asserts a data error: exit 1, one line on stderr naming `name`, no panic.
fn data_error(out: &Output, name: &str) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("vecpress: ") && err.contains(name), "{err}");
    err
}

/// Files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A deterministic xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Content of `n` elements of `element`, with some structure to compress.
fn content(element: Element, n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    match element {
        Element::TextU64 => {
            for i in 0..n {
                let v = match i % 4 {
                    0 => rng.next(),
                    _ => rng.next() % 1000,
                };
                out.extend_from_slice(format!("{v}\n").as_bytes());
            }
        }
        Element::Postings => {
            let mut left = 0;
            let mut value = 0u32;
            for _ in 0..n {
                if left == 0 {
                    left = (rng.next() % 50) as u32;
                    value = 0;
                    out.extend_from_slice(&left.to_le_bytes());
                } else {
                    value += 1 + (rng.next() % 100) as u32;
                    out.extend_from_slice(&value.to_le_bytes());
                    left -= 1;
                }
            }
        }
        _ => {
            let width = element.width();
            let mut walk = 0u64;
            for _ in 0..n {
                walk = walk.wrapping_add(rng.next() % 64).wrapping_sub(31);
                let v = match element {
                    Element::F64 => (walk as i64 as f64 * 0.25).to_bits(),
                    Element::F32 => u64::from((walk as i64 as f32 * 0.5).to_bits()),
                    _ => walk,
                };
                out.extend_from_slice(&v.to_le_bytes()[..width]);
            }
        }
    }
    out
}

/// The codecs that fit an element type, as the CLI lists them.
fn codecs_for(element: Element) -> Vec<&'static str> {
    let mut names = vec!["store"];
    if matches!(element, Element::U32 | Element::I32 | Element::Postings) {
        names.extend(codec::int_codecs().iter().map(|c| c.name()));
    }
    for c in codec::byte_codecs() {
        if !c.needs_width() || element != Element::Bytes {
            names.push(c.name());
        }
    }
    names
}

#[test]
fn every_type_and_codec_round_trips() {
    let dir = scratch("round-trip");
    for element in Element::ALL {
        for n in [0usize, 1, 999, 3000] {
            let data = content(element, n, n as u64 + 7);
            let input = dir.join(format!("in-{}-{n}", element.name()));
            fs::write(&input, &data).unwrap();
            for codec in codecs_for(element) {
                let packed = dir.join("packed.vp");
                let back = dir.join("back");
                ok(vecpress(&[
                    "compress",
                    "-f",
                    "--type",
                    element.name(),
                    "--codec",
                    codec,
                    "--block",
                    "1K",
                    s(&input),
                    "-o",
                    s(&packed),
                ]));
                ok(vecpress(&["decompress", "-f", s(&packed), "-o", s(&back)]));
                assert_eq!(
                    fs::read(&back).unwrap(),
                    data,
                    "{} n {n} {codec}",
                    element.name()
                );
            }
        }
    }
}

#[test]
fn auto_compresses_and_says_why() {
    let dir = scratch("auto");
    let input = dir.join("ids.u32");
    let ids: Vec<u8> = (0..5000u32).flat_map(|i| (i * 3).to_le_bytes()).collect();
    fs::write(&input, &ids).unwrap();
    let out = ok(vecpress(&["compress", "-v", s(&input)]));
    let err = stderr(&out);
    assert!(err.contains("auto: ") && err.contains("ratio"), "{err}");
    let packed = fs::read(dir.join("ids.u32.vp")).unwrap();
    assert!(packed.len() * 3 < ids.len(), "{} bytes", packed.len());
    fs::remove_file(&input).unwrap();
    ok(vecpress(&["decompress", s(&dir.join("ids.u32.vp"))]));
    assert_eq!(fs::read(&input).unwrap(), ids);
}

#[test]
fn stdin_to_stdout_and_threads_agree() {
    let data = content(Element::U32, 100_000, 3);
    let one = ok(vecpress_stdin(
        &[
            "compress", "--type", "u32", "--codec", "vbyte", "--block", "16K", "-",
        ],
        &data,
    ));
    let two = ok(vecpress_stdin(
        &[
            "compress", "--type", "u32", "--codec", "vbyte", "--block", "16K", "-T", "2", "-",
        ],
        &data,
    ));
    assert_eq!(one.stdout, two.stdout, "threads change the file");
    // More workers than cores, and posting lists, whose gaps run on across
    // blocks: the blocks still come out in order.
    let postings: Vec<u8> = (0..60_000u32)
        .flat_map(|i| (i * 3 + i % 7).to_le_bytes())
        .collect();
    let packed: Vec<Vec<u8>> = ["1", "5"]
        .iter()
        .map(|t| {
            let args = [
                "compress",
                "--type",
                "postings",
                "--codec",
                "stream-vbyte-delta",
                "--block",
                "4K",
                "-T",
                t,
                "-",
            ];
            ok(vecpress_stdin(&args, &postings)).stdout
        })
        .collect();
    assert_eq!(packed[0], packed[1], "threads change the file");
    let back = ok(vecpress_stdin(&["decompress", "-"], &packed[1]));
    assert_eq!(back.stdout, postings);
    for threads in ["1", "2", "0"] {
        let back = ok(vecpress_stdin(
            &["decompress", "-T", threads, "-"],
            &one.stdout,
        ));
        assert_eq!(back.stdout, data, "threads {threads}");
    }
}

#[test]
fn every_corruption_is_an_error_and_leaves_no_output() {
    let dir = scratch("corrupt");
    let input = dir.join("v.u32");
    fs::write(&input, content(Element::U32, 60, 5)).unwrap();
    let packed = dir.join("v.vp");
    ok(vecpress(&[
        "compress",
        "--codec",
        "vbyte",
        "--block",
        "64",
        s(&input),
        "-o",
        s(&packed),
    ]));
    let file = fs::read(&packed).unwrap();
    assert!(file.len() < 400, "{} bytes", file.len());
    let bad = dir.join("bad.vp");
    let out = dir.join("out");
    let mut cases: Vec<Vec<u8>> = (0..file.len()).map(|len| file[..len].to_vec()).collect();
    for i in 0..file.len() {
        for bit in [0, 7] {
            let mut b = file.clone();
            b[i] ^= 1 << bit;
            cases.push(b);
        }
    }
    cases.push([&file[..], b"x"].concat());
    for case in &cases {
        fs::write(&bad, case).unwrap();
        let r = vecpress(&["decompress", s(&bad), "-o", s(&out)]);
        data_error(&r, "bad.vp");
        assert_eq!(listing(&dir), ["bad.vp", "v.u32", "v.vp"], "left behind");
        let piped = vecpress_stdin(&["decompress", "-"], case);
        data_error(&piped, "<stdin>");
    }
    fs::write(&bad, &file[..file.len() - 30]).unwrap();
    let err = data_error(
        &vecpress(&["decompress", s(&bad), "-o", s(&out)]),
        "truncated",
    );
    assert!(err.contains("byte(s)"), "{err}");
    // The error names the block and the byte offset.
    let mut b = file.clone();
    let last = b.len() - 25;
    b[last] ^= 1;
    fs::write(&bad, &b).unwrap();
    let err = data_error(&vecpress(&["decompress", s(&bad), "-o", s(&out)]), "block");
    assert!(
        err.contains("checksum mismatch") && err.contains("byte"),
        "{err}"
    );
}

#[test]
fn no_overwrite_without_force() {
    let dir = scratch("overwrite");
    let input = dir.join("a.bin");
    fs::write(&input, b"hello hello hello").unwrap();
    let packed = dir.join("a.bin.vp");
    fs::write(&packed, b"precious").unwrap();
    let r = vecpress(&["compress", s(&input)]);
    let err = data_error(&r, "a.bin.vp");
    assert!(err.contains("-f"), "{err}");
    assert_eq!(fs::read(&packed).unwrap(), b"precious");
    ok(vecpress(&["compress", "-f", s(&input)]));
    fs::write(&input, b"other").unwrap();
    data_error(&vecpress(&["decompress", s(&packed)]), "a.bin");
    assert_eq!(fs::read(&input).unwrap(), b"other");
    ok(vecpress(&["decompress", "-f", s(&packed)]));
    assert_eq!(fs::read(&input).unwrap(), b"hello hello hello");
}

#[test]
fn failures_leave_no_partial_output() {
    let dir = scratch("partial");
    // Not whole u32s: found after the header and blocks are written.
    let input = dir.join("odd");
    fs::write(&input, vec![7u8; 4099]).unwrap();
    let piped = vecpress_stdin(
        &[
            "compress",
            "--type",
            "u32",
            "--block",
            "1K",
            "-",
            "-o",
            s(&dir.join("o.vp")),
        ],
        &[7u8; 4099],
    );
    data_error(&piped, "multiple of 4");
    let r = vecpress(&["compress", "--type", "u32", s(&input)]);
    data_error(&r, "odd");
    // A bad number on line 3, after a block of good ones.
    let text = dir.join("nums.txt");
    fs::write(&text, "1\n2\n-3\n4\n").unwrap();
    let r = vecpress(&["compress", "--type", "text-u64", "--block", "8", s(&text)]);
    let err = data_error(&r, "line 3");
    assert!(err.contains("'-3'"), "{err}");
    assert_eq!(listing(&dir), ["nums.txt", "odd"]);
}

#[test]
fn interrupt_removes_the_temporary_file() {
    let dir = scratch("interrupt");
    let out = dir.join("o.vp");
    let mut child = Command::new(env!("CARGO_BIN_EXE_vecpress"))
        .args([
            "compress",
            "--type",
            "bytes",
            "--codec",
            "store",
            "--block",
            "1K",
            "-",
            "-o",
            s(&out),
        ])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&[1u8; 1 << 16]).unwrap();
    let mut waited = 0;
    while listing(&dir).is_empty() && waited < 200 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        waited += 1;
    }
    assert_eq!(listing(&dir).len(), 1, "a temporary file while running");
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    drop(stdin);
    assert_eq!(status.code(), Some(130));
    assert!(listing(&dir).is_empty(), "left: {:?}", listing(&dir));
}

#[test]
fn usage_errors_exit_2() {
    let dir = scratch("usage");
    let input = dir.join("x.u64");
    fs::write(&input, [0u8; 16]).unwrap();
    for args in [
        vec!["compress", "--codec", "nope", s(&input)],
        vec!["compress", "--codec", "vbyte", s(&input)],
        vec!["compress", "--type", "u33", s(&input)],
        vec!["compress", "--block", "0", s(&input)],
        vec!["decompress", s(&input)],
        vec!["frobnicate"],
    ] {
        let r = vecpress(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", stderr(&r));
    }
    assert_eq!(listing(&dir), ["x.u64"]);
}

#[test]
fn inspect_reports_files_and_recommends_codecs() {
    let dir = scratch("inspect");
    let input = dir.join("p.docs");
    fs::write(&input, content(Element::Postings, 20_000, 9)).unwrap();
    let table = ok(vecpress(&["inspect", s(&input)]));
    let table = String::from_utf8(table.stdout).unwrap();
    for name in codecs_for(Element::Postings) {
        assert!(table.contains(name), "{name} missing: {table}");
    }
    assert!(table.contains("recommended: "), "{table}");
    ok(vecpress(&["compress", "--codec", "vbyte", s(&input)]));
    let info = ok(vecpress(&["inspect", s(&dir.join("p.docs.vp"))]));
    let info = String::from_utf8(info.stdout).unwrap();
    for want in [
        "codec:         vbyte",
        "type:          postings",
        "checksums:     ok",
        "ratio:",
    ] {
        assert!(info.contains(want), "{want}: {info}");
    }
    let mut file = fs::read(dir.join("p.docs.vp")).unwrap();
    let mid = file.len() / 2;
    file[mid] ^= 4;
    fs::write(dir.join("bad.vp"), &file).unwrap();
    let r = vecpress(&["inspect", s(&dir.join("bad.vp"))]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stdout).contains("FAILED"));
}

#[test]
fn help_and_completions() {
    for cmd in ["compress", "decompress", "inspect"] {
        let help = ok(vecpress(&[cmd, "--help"]));
        assert!(
            String::from_utf8_lossy(&help.stdout).contains("Examples:"),
            "{cmd}"
        );
    }
    let bash = ok(vecpress(&["completions", "bash"]));
    let script = String::from_utf8(bash.stdout).unwrap();
    assert!(script.contains("vecpress") && script.contains("decompress"));
}

#[test]
fn raw_format_is_the_bare_codec_stream() {
    let values: Vec<u32> = (0..3000u32).map(|i| i * i).collect();
    let data: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let out = ok(vecpress_stdin(
        &[
            "compress", "--format", "raw", "--codec", "vbyte", "--type", "u32", "--block", "1K",
            "-v", "-",
        ],
        &data,
    ));
    assert_eq!(out.stdout, vecpress::vbyte::encode_to_vec(&values));
    assert!(
        stderr(&out).contains("count: 3000 u32 elements"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn lz4_frames_both_ways() {
    let dir = scratch("lz4");
    let text: Vec<u8> = (0..200_000u32)
        .flat_map(|i| format!("line {} of {}\n", i % 1000, i / 7).into_bytes())
        .collect();
    let input = dir.join("t.txt");
    fs::write(&input, &text).unwrap();
    ok(vecpress(&["compress", "--format", "lz4", s(&input)]));
    let frame = fs::read(dir.join("t.txt.lz4")).unwrap();
    assert_eq!(frame[..4], [0x04, 0x22, 0x4D, 0x18]);
    assert!(frame.len() * 2 < text.len(), "{} bytes", frame.len());
    let back = ok(vecpress(&["decompress", "-c", s(&dir.join("t.txt.lz4"))]));
    assert_eq!(back.stdout, text);
    let piped = ok(vecpress_stdin(&["decompress", "-"], &frame));
    assert_eq!(piped.stdout, text);

    // Corrupt frames: an error, no output.
    let bad = dir.join("bad.lz4");
    for at in [4, 7, frame.len() / 2, frame.len() - 2] {
        let mut b = frame.clone();
        b[at] ^= 0x21;
        fs::write(&bad, &b).unwrap();
        data_error(&vecpress(&["decompress", s(&bad)]), "bad.lz4");
        assert!(!dir.join("bad").exists());
    }
    fs::write(&bad, &frame[..frame.len() - 9]).unwrap();
    data_error(&vecpress(&["decompress", s(&bad)]), "bad.lz4");

    if !lz4_command() {
        eprintln!("lz4 command absent: interop with it not checked");
        return;
    }
    let theirs = Command::new("lz4")
        .args(["-d", "-c", s(&dir.join("t.txt.lz4"))])
        .output()
        .unwrap();
    assert!(theirs.status.success());
    assert_eq!(theirs.stdout, text, "lz4 -d reads our frame");
    for (flag, name) in [
        ("-z", "current.lz4"),
        ("-l", "legacy.lz4"),
        ("-BD", "linked.lz4"),
    ] {
        let out = dir.join(name);
        let made = Command::new("lz4")
            .args([flag, "-q", s(&input), s(&out)])
            .status()
            .unwrap();
        assert!(made.success());
        let back = ok(vecpress(&["decompress", "-c", s(&out)]));
        assert_eq!(back.stdout, text, "{name}");
    }
}

#[test]
fn inspect_cpu_lists_every_codec_and_operation_at_its_level() {
    let out = ok(vecpress(&["inspect", "--cpu"]));
    let text = String::from_utf8(out.stdout).unwrap();
    for op in vecpress::tune::Op::ALL {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{} ", op.name())))
            .unwrap_or_else(|| panic!("{} missing: {text}", op.name()));
        assert!(
            vecpress::Isa::available()
                .iter()
                .any(|i| line.trim_end().ends_with(i.name())),
            "{line}"
        );
    }
}
