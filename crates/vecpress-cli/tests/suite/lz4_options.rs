//! Runs the built `vecpress` binary with the LZ4 options: `--level` (the
//! high-compression parsers) and `--dict` (dictionaries), in vecpress files
//! and LZ4 frames, and their errors.

use crate::common::{lz4_command, ok, s, scratch, stderr, vecpress};

use std::fs;
use std::process::{Command, Output};

use vecpress::lz4::dict::dictionary_id;

/// Asserts a failure with exit code `code`: one line on stderr, no panic,
/// containing every one of `words`.
fn fails(out: &Output, code: i32, words: &[&str]) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for w in words {
        assert!(err.contains(w), "{w:?} not in {err}");
    }
    err
}

/// JSON-like records, alike enough for a dictionary to help: `n` of them
/// from `first` on, concatenated.
fn records(first: u64, n: u64) -> Vec<u8> {
    let mut x = first.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::new();
    for i in first..first + n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let status = ["shipped", "pending", "cancelled", "returned"][(x % 4) as usize];
        out.extend_from_slice(
            format!(
                "{{\"id\":{i},\"kind\":\"order\",\"customer\":\"c{}\",\"status\":\"{status}\",\"total\":{}}}\n",
                x % 5000,
                (x >> 20) % 99_999
            )
            .as_bytes(),
        );
    }
    out
}

fn codec_id(file: &[u8]) -> u16 {
    u16::from_le_bytes([file[6], file[7]])
}

#[test]
fn levels_round_trip_and_select_the_parser() {
    let dir = scratch("levels");
    let input = dir.join("r.json");
    let data = records(0, 4000);
    fs::write(&input, &data).unwrap();
    let fast_out = dir.join("fast.vp");
    ok(vecpress(&[
        "compress",
        "--codec",
        "lz4",
        "--block",
        "64K",
        s(&input),
        "-o",
        s(&fast_out),
    ]));
    let fast = fs::read(&fast_out).unwrap();
    let mut sizes = Vec::new();
    for (codec, level, id) in [
        ("lz4", "1", 17u16),
        ("lz4", "2", 19),
        ("lz4", "9", 19),
        ("lz4-hc", "2", 19),
        ("lz4-hc", "5", 19),
        ("lz4-hc", "9", 19),
        ("lz4-hc", "10", 19),
        ("lz4-hc", "12", 19),
    ] {
        let out = dir.join(format!("{codec}-{level}.vp"));
        ok(vecpress(&[
            "compress",
            "--codec",
            codec,
            "--level",
            level,
            "--block",
            "64K",
            s(&input),
            "-o",
            s(&out),
        ]));
        let file = fs::read(&out).unwrap();
        assert_eq!(codec_id(&file), id, "{codec} level {level}");
        assert_eq!(file[12..16], [0; 4], "no flags without a dictionary");
        let back = ok(vecpress(&["decompress", "-c", s(&out)]));
        assert!(back.stdout == data, "{codec} level {level}");
        sizes.push((codec, level, file.len()));
    }
    // Level 1 is the fast compressor, the same as without --level.
    let level1 = fs::read(dir.join("lz4-1.vp")).unwrap();
    assert!(level1 == fast, "--level 1 is the fast compressor");
    // The high levels find more than the fast compressor.
    let size = |c: &str, l: &str| sizes.iter().find(|t| t.0 == c && t.1 == l).unwrap().2;
    assert!(
        size("lz4-hc", "12") < fast.len(),
        "{sizes:?}, fast {}",
        fast.len()
    );
    assert!(size("lz4-hc", "12") <= size("lz4-hc", "2"), "{sizes:?}");
    // `--codec lz4 --level 9` is lz4-hc at level 9, its default.
    let hc9 = fs::read(dir.join("lz4-hc-9.vp")).unwrap();
    assert!(fs::read(dir.join("lz4-9.vp")).unwrap() == hc9);
    let default_out = dir.join("hc.vp");
    ok(vecpress(&[
        "compress",
        "--codec",
        "lz4-hc",
        "--block",
        "64K",
        s(&input),
        "-o",
        s(&default_out),
    ]));
    assert!(
        fs::read(&default_out).unwrap() == hc9,
        "lz4-hc's default is 9"
    );

    // LZ4 frames at a level.
    let mut frames = Vec::new();
    for level in ["1", "4", "12"] {
        let out = dir.join(format!("f{level}.lz4"));
        ok(vecpress(&[
            "compress",
            "--format",
            "lz4",
            "--level",
            level,
            s(&input),
            "-o",
            s(&out),
        ]));
        let back = ok(vecpress(&["decompress", "-c", s(&out)]));
        assert!(back.stdout == data, "frame level {level}");
        if lz4_command() {
            let theirs = Command::new("lz4")
                .args(["-d", "-c", s(&out)])
                .output()
                .unwrap();
            assert!(theirs.stdout == data, "lz4 -d reads frame level {level}");
        }
        frames.push(fs::metadata(&out).unwrap().len());
    }
    assert!(frames[2] < frames[0], "{frames:?}");
}

#[test]
fn bad_levels_and_misplaced_options_are_usage_errors() {
    let dir = scratch("usage");
    let input = dir.join("r.json");
    fs::write(&input, records(0, 100)).unwrap();
    let ids = dir.join("ids.u32");
    fs::write(&ids, [1u8, 0, 0, 0, 2, 0, 0, 0]).unwrap();
    let dict = dir.join("d.txt");
    fs::write(&dict, records(1000, 50)).unwrap();
    let empty = dir.join("empty");
    fs::write(&empty, b"").unwrap();
    let cases: [(&[&str], &[&str]); 10] = [
        (
            &["--codec", "lz4-hc", "--level", "1"],
            &["--level 1", "2 to 12"],
        ),
        (
            &["--codec", "lz4-hc", "--level", "13"],
            &["--level 13", "2 to 12"],
        ),
        (
            &["--codec", "lz4", "--level", "0"],
            &["--level 0", "1 (fast) to 12"],
        ),
        (
            &["--codec", "lz4", "--level", "99"],
            &["--level 99", "out of range"],
        ),
        (
            &["--format", "lz4", "--level", "13"],
            &["--level 13", "out of range"],
        ),
        (
            &["--codec", "store", "--level", "3"],
            &["--level", "store has no levels"],
        ),
        (&["--level", "3"], &["--level needs --codec lz4 or lz4-hc"]),
        (
            &["--dict", s(&dict)],
            &["--dict needs --codec lz4 or lz4-hc"],
        ),
        (
            &["--codec", "store", "--dict", s(&dict)],
            &["store takes no dictionary"],
        ),
        (
            &["--codec", "lz4", "--dict", s(&empty)],
            &["the dictionary is empty"],
        ),
    ];
    for (args, words) in cases {
        let mut all = vec!["compress", "-c"];
        all.extend_from_slice(args);
        all.push(s(&input));
        let out = vecpress(&all);
        fails(&out, 2, words);
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // An integer codec has no levels either.
    let out = vecpress(&[
        "compress",
        "-c",
        "--codec",
        "vbyte",
        "--level",
        "3",
        s(&ids),
    ]);
    fails(&out, 2, &["vbyte has no levels"]);
    // A dictionary that cannot be read.
    let missing = dir.join("no-such.dict");
    let out = vecpress(&[
        "compress",
        "-c",
        "--codec",
        "lz4",
        "--dict",
        s(&missing),
        s(&input),
    ]);
    fails(&out, 1, &["no-such.dict"]);
    let out = vecpress(&["compress", "-c", "--level", "x", s(&input)]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn dictionaries_in_vecpress_files() {
    let dir = scratch("dict");
    let input = dir.join("r.json");
    let data = records(10_000, 3000);
    fs::write(&input, &data).unwrap();
    // A dictionary of more than 64 KiB: only its last 64 KiB count.
    let dict_bytes = records(0, 1500);
    assert!(dict_bytes.len() > 80 << 10, "{}", dict_bytes.len());
    let dict = dir.join("big.dict");
    fs::write(&dict, &dict_bytes).unwrap();
    let tail = dir.join("tail.dict");
    fs::write(&tail, &dict_bytes[dict_bytes.len() - (64 << 10)..]).unwrap();
    let other = dir.join("other.dict");
    fs::write(&other, records(50_000, 100)).unwrap();
    let id = dictionary_id(&dict_bytes);
    let id_hex = format!("{id:#010x}");
    let other_hex = format!("{:#010x}", dictionary_id(&fs::read(&other).unwrap()));

    let plain = dir.join("plain.vp");
    ok(vecpress(&[
        "compress",
        "--codec",
        "lz4",
        "--block",
        "1K",
        s(&input),
        "-o",
        s(&plain),
    ]));
    let plain_len = fs::metadata(&plain).unwrap().len();
    for (codec, level) in [
        ("lz4", None),
        ("lz4-hc", None),
        ("lz4-hc", Some("12")),
        ("lz4", Some("9")),
    ] {
        let out = dir.join("r.json.vp");
        let mut args = vec![
            "compress",
            "-f",
            "--codec",
            codec,
            "--block",
            "1K",
            "--dict",
            s(&dict),
        ];
        if let Some(l) = level {
            args.extend_from_slice(&["--level", l]);
        }
        args.push(s(&input));
        ok(vecpress(&args));
        let file = fs::read(&out).unwrap();
        // The header: flag bit 0, the id after the fixed 28 bytes.
        assert_eq!(file[12..16], [1, 0, 0, 0], "{codec} {level:?}");
        assert_eq!(file[28..32], id.to_le_bytes(), "{codec} {level:?}");
        assert!(
            (file.len() as u64) * 3 / 2 < plain_len,
            "{codec} {level:?}: {} bytes with the dictionary, {plain_len} without",
            file.len()
        );

        // The right dictionary, whole or its last 64 KiB.
        for d in [&dict, &tail] {
            let back = ok(vecpress(&["decompress", "-c", "--dict", s(d), s(&out)]));
            assert!(
                back.stdout == data,
                "{codec} {level:?} with {}",
                d.display()
            );
        }
        let restored = dir.join("r.json");
        fs::rename(&input, dir.join("keep")).unwrap();
        ok(vecpress(&[
            "decompress",
            "-T",
            "2",
            "-D",
            s(&dict),
            s(&out),
        ]));
        assert!(fs::read(&restored).unwrap() == data);

        // No dictionary, or another: a clear error, no output.
        fs::remove_file(&restored).unwrap();
        let err = fails(
            &vecpress(&["decompress", s(&out)]),
            1,
            &["r.json.vp", &id_hex, "--dict"],
        );
        assert!(err.contains("none was given"), "{err}");
        assert!(!restored.exists());
        let out2 = vecpress(&["decompress", "--dict", s(&other), s(&out)]);
        fails(&out2, 1, &[&id_hex, &other_hex, "other.dict"]);
        assert!(!restored.exists());
        fs::rename(dir.join("keep"), &input).unwrap();
    }

    // inspect shows the id, and decodes with the dictionary.
    let out = dir.join("r.json.vp");
    let shown = ok(vecpress(&["inspect", s(&out)]));
    let text = String::from_utf8(shown.stdout).unwrap();
    assert!(text.contains(&format!("dictionary:    {id_hex}")), "{text}");
    assert!(text.contains("content not decoded"), "{text}");
    let shown = ok(vecpress(&["inspect", "--dict", s(&dict), s(&out)]));
    let text = String::from_utf8(shown.stdout).unwrap();
    assert!(text.contains("checksums:     ok"), "{text}");
    let wrong = vecpress(&["inspect", "--dict", s(&other), s(&out)]);
    fails(&wrong, 1, &[&id_hex, &other_hex]);

    // A file without a dictionary ignores --dict.
    let back = ok(vecpress(&[
        "decompress",
        "-c",
        "--dict",
        s(&other),
        s(&plain),
    ]));
    assert!(back.stdout == data);
}

#[test]
fn dictionaries_in_lz4_frames() {
    let dir = scratch("frame");
    let input = dir.join("r.json");
    let data = records(20_000, 3000);
    fs::write(&input, &data).unwrap();
    let dict_bytes = records(0, 600);
    let dict = dir.join("d.dict");
    fs::write(&dict, &dict_bytes).unwrap();
    let other = dir.join("other.dict");
    fs::write(&other, records(90_000, 100)).unwrap();
    let id = dictionary_id(&dict_bytes);
    let id_hex = format!("{id:#010x}");
    let plain = dir.join("plain.lz4");
    ok(vecpress(&[
        "compress",
        "--format",
        "lz4",
        s(&input),
        "-o",
        s(&plain),
    ]));
    for level in [None, Some("9")] {
        let out = dir.join("r.json.lz4");
        let mut args = vec!["compress", "-f", "--format", "lz4", "--dict", s(&dict)];
        if let Some(l) = level {
            args.extend_from_slice(&["--level", l]);
        }
        args.push(s(&input));
        ok(vecpress(&args));
        let frame = fs::read(&out).unwrap();
        assert_eq!(frame[..4], [0x04, 0x22, 0x4D, 0x18]);
        // FLG bit 0: a dictionary id, after the 8-byte content size.
        assert_eq!(frame[4] & 1, 1, "FLG {:#x}", frame[4]);
        assert_eq!(frame[4] & 0x08, 0x08, "content size present");
        assert_eq!(frame[14..18], id.to_le_bytes());

        let back = ok(vecpress(&["decompress", "-c", "--dict", s(&dict), s(&out)]));
        assert!(back.stdout == data, "level {level:?}");
        fails(
            &vecpress(&["decompress", "-c", s(&out)]),
            1,
            &[&id_hex, "--dict"],
        );
        fails(
            &vecpress(&["decompress", "-c", "--dict", s(&other), s(&out)]),
            1,
            &[&id_hex, "other.dict"],
        );
        if lz4_command() {
            let theirs = Command::new("lz4")
                .args(["-D", s(&dict), "-d", "-c", s(&out)])
                .output()
                .unwrap();
            assert!(
                theirs.status.success(),
                "{}",
                String::from_utf8_lossy(&theirs.stderr)
            );
            assert!(theirs.stdout == data, "lz4 -D FILE -d reads our frame");
        } else {
            eprintln!("lz4 command absent: interop with it not checked");
        }
    }
    assert!(
        fs::metadata(dir.join("r.json.lz4")).unwrap().len() < fs::metadata(&plain).unwrap().len()
    );
    // Frames the lz4 command writes with a dictionary (it stores no id).
    if lz4_command() {
        let theirs = dir.join("theirs.lz4");
        let made = Command::new("lz4")
            .args(["-q", "-D", s(&dict), s(&input), s(&theirs)])
            .status()
            .unwrap();
        assert!(made.success());
        let back = ok(vecpress(&[
            "decompress",
            "-c",
            "--dict",
            s(&dict),
            s(&theirs),
        ]));
        assert!(back.stdout == data);
    }
}
