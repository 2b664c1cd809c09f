//! Runs the built `vecpress` binary on tiny inputs.

use crate::common::{self, stderr, vecpress};

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

const REQUIRED: [&str; 14] = [
    "codec",
    "isa",
    "input",
    "type",
    "ratio",
    "values",
    "input_bytes",
    "compressed_bytes",
    "bits_per_value",
    "encode_mis",
    "decode_mis",
    "encode_gbs",
    "decode_gbs",
    "memcpy_gbs",
];

/// Runs `bench --json --reps 1 ARGS`; returns its exit status and JSON lines.
fn run_json(args: &[&str]) -> (Output, Vec<Value>) {
    let mut all = vec!["bench", "--json", "--reps", "1"];
    all.extend_from_slice(args);
    let out = vecpress(&all);
    let lines = String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l:?}: {e}")))
        .collect();
    (out, lines)
}

/// Runs a bench that must succeed; returns its JSON lines.
fn bench_json(args: &[&str]) -> Vec<Value> {
    let (out, lines) = run_json(args);
    assert!(out.status.success(), "{args:?} failed: {}", stderr(&out));
    lines
}

/// Rows that were measured (not absent peers nor failures), checked for consistency.
fn rows(lines: &[Value]) -> Vec<&Value> {
    let rows: Vec<&Value> = lines
        .iter()
        .filter(|l| l.get("absent").is_none() && l.get("error").is_none())
        .collect();
    for row in &rows {
        for key in REQUIRED {
            assert!(row.get(key).is_some(), "{key} missing in {row}");
        }
        let values = row["values"].as_f64().unwrap();
        let compressed = row["compressed_bytes"].as_f64().unwrap();
        assert!(values > 0.0 && compressed > 0.0, "{row}");
        let width = match row["type"].as_str().unwrap() {
            "bytes" => 1.0,
            "u16" | "i16" => 2.0,
            "u32" | "i32" | "f32" => 4.0,
            t if t.starts_with('w') => t[1..].parse().unwrap(),
            _ => 8.0,
        };
        assert_eq!(row["input_bytes"].as_f64().unwrap(), values * width);
        let bits = row["bits_per_value"].as_f64().unwrap();
        assert!((bits - compressed * 8.0 / values).abs() < 1e-9, "{row}");
        assert!(row["decode_mis"].as_f64().unwrap() > 0.0, "{row}");
        assert!(row["decode_gbs"].as_f64().unwrap() > 0.0, "{row}");
        assert!(row["memcpy_gbs"].as_f64().unwrap() > 0.0, "{row}");
        if row["isa"] != "-" {
            assert!(row["encode_mis"].as_f64().unwrap() > 0.0, "{row}");
        }
    }
    rows
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vecpress-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_docs(path: &Path, lists: &[Vec<u32>]) {
    let mut bytes = Vec::new();
    for list in lists {
        bytes.extend_from_slice(&(list.len() as u32).to_le_bytes());
        for v in list {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn generated_inputs_give_consistent_json() {
    let lines = bench_json(&[
        "--values",
        "3000",
        "--block",
        "256",
        "--inputs",
        "bits-03,bits-32,cluster-gap-bits-08",
        "--isa",
        "scalar",
    ]);
    let rows = rows(&lines);
    for codec in ["vbyte", "vbyte-delta"] {
        for input in [
            "uniform-gap-bits-03",
            "uniform-gap-bits-32",
            "cluster-gap-bits-08",
        ] {
            let found = rows
                .iter()
                .filter(|r| r["codec"] == codec && r["input"] == input);
            assert!(found.count() >= 1, "no row for {codec} on {input}");
        }
    }
    assert!(rows.iter().all(|r| r["values"] == 3000));
    // 3-bit gaps take one byte each; 32-bit gaps mostly five.
    let bits = |input: &str| {
        rows.iter()
            .find(|r| r["codec"] == "vbyte" && r["input"] == input)
            .unwrap()["bits_per_value"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(bits("uniform-gap-bits-03"), 8.0);
    assert!(bits("uniform-gap-bits-32") > 36.0);
}

/// Every kernel of this CPU runs; one that does not round-trip gets an
/// `error` line (the others still run) and the exit status is 1.
#[test]
fn every_kernel_is_measured_or_reported_failed() {
    let (out, lines) = run_json(&[
        "--values",
        "5000",
        "--block",
        "1000",
        "--inputs",
        "bits-09,cluster-gap-bits-02",
        "--isa",
        "all",
        "--peers",
    ]);
    let rows = rows(&lines);
    let failed: Vec<&Value> = lines.iter().filter(|l| l.get("error").is_some()).collect();
    for f in &failed {
        for key in ["codec", "isa", "input", "error"] {
            assert!(f[key].as_str().is_some_and(|s| !s.is_empty()), "{f}");
        }
    }
    assert_eq!(out.status.success(), failed.is_empty(), "{}", stderr(&out));
    if !failed.is_empty() {
        assert!(
            stderr(&out).contains("did not round-trip"),
            "{}",
            stderr(&out)
        );
    }
    let kernels = rows.len() + failed.len();
    assert!(kernels >= 2 * 2 * 2, "{lines:?}"); // 2 codecs, 2 inputs, scalar + peers at least
}

#[test]
fn codec_and_isa_filters() {
    let lines = bench_json(&[
        "--values",
        "1000",
        "--inputs",
        "bits-07",
        "--codecs",
        "vbyte-delta",
        "--isa",
        "scalar",
    ]);
    let rows = rows(&lines);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["codec"], "vbyte-delta");
    assert_eq!(rows[0]["isa"], "scalar");
    assert_eq!(rows[0]["input"], "uniform-gap-bits-07");
}

#[test]
fn peers_are_present_or_absent_with_a_reason() {
    let lines = bench_json(&[
        "--values",
        "2000",
        "--inputs",
        "bits-12",
        "--codecs",
        "vbyte-delta",
        "--isa",
        "scalar",
        "--peers",
    ]);
    let rows = rows(&lines);
    let names = [
        "peer:leb128-scalar-delta",
        "peer:maskedvbyte-c-delta",
        "peer:varint-simd-delta",
        "peer:integer-encoding-delta",
    ];
    for name in names {
        let row = rows.iter().any(|r| r["codec"] == name && r["isa"] == "-");
        let absent = lines
            .iter()
            .any(|l| l["codec"] == name && l["absent"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(row != absent, "{name}: row {row}, absent {absent}");
    }
    assert!(
        rows.iter()
            .any(|r| r["codec"] == "peer:leb128-scalar-delta")
    );
}

#[test]
fn posting_list_file_and_directory() {
    let dir = temp_dir("docs");
    let lists = vec![
        (1..=5000u32).map(|i| i * 3).collect::<Vec<_>>(),
        vec![],
        vec![7, 1_000_000, 4_000_000_000],
    ];
    write_docs(&dir.join("tiny.docs"), &lists);
    // Any other file is bytes, for the byte codecs.
    std::fs::write(dir.join("notes.txt"), b"not a docs file").unwrap();
    let lines = bench_json(&["--block", "1000", "--isa", "scalar", dir.to_str().unwrap()]);
    let rows = rows(&lines);
    let (ints, bytes): (Vec<&Value>, Vec<&Value>) = rows.iter().partition(|r| r["type"] == "u32");
    assert!(!ints.is_empty());
    for row in &bytes {
        assert_eq!(row["input"], "notes", "{row}");
        assert_eq!(row["type"], "bytes", "{row}");
    }
    for row in &ints {
        assert_eq!(row["input"], "tiny");
        assert_eq!(row["values"], 5003);
        assert_eq!(row["blocks"], 6);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn table_output() {
    let out = vecpress(&[
        "bench", "--reps", "1", "--values", "500", "--inputs", "bits-05", "--isa", "scalar",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("dec Mi/s"), "{text}");
    assert!(text.contains("uniform-gap-bits-05"), "{text}");
}

#[test]
fn bad_arguments_fail_with_a_message() {
    let cases: [(&[&str], &str); 5] = [
        (&["bench", "--codecs", "nope"], "known codecs: vbyte"),
        (&["bench", "--isa", "sse9"], "unknown instruction set"),
        (
            &["bench", "/no/such/file.docs"],
            "cannot read /no/such/file.docs",
        ),
        (
            &["bench", "--inputs", "nothing-like-this"],
            "no input matches",
        ),
        (&["bench", "--reps", "0"], "--reps"),
    ];
    for (args, message) in cases {
        let out = vecpress(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = stderr(&out);
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn unsupported_isa_fails() {
    let isa = if cfg!(target_arch = "x86_64") {
        "neon"
    } else {
        "avx2"
    };
    let out = vecpress(&["bench", "--isa", isa, "--values", "100"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not supported by this CPU"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn malformed_docs_files_fail_without_panic() {
    let dir = temp_dir("bad");
    let good = dir.join("good.docs");
    write_docs(&good, &[vec![1, 2, 3, 4]]);
    let bytes = std::fs::read(&good).unwrap();
    for (name, len) in [("short-list.docs", 12), ("odd-size.docs", 18)] {
        let path = dir.join(name);
        std::fs::write(&path, &bytes[..len]).unwrap();
        let out = vecpress(&["bench", "--reps", "1", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = stderr(&out);
        assert!(
            err.contains("is not a ds2i .docs file") && err.contains("truncated"),
            "{name}: {err}"
        );
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plot_draws_every_codec_and_memcpy() {
    let dir = temp_dir("plot");
    let svg = dir.join("fig5.svg");
    let out = vecpress(&[
        "bench",
        "--reps",
        "1",
        "--values",
        "2000",
        "--inputs",
        "bits-04,bits-20",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..80.min(text.len())]);
    for label in [
        "bits per integer taken by VByte",
        "decoding speed (billions of integers/s)",
        "extra bits per integer vs. VByte",
        "vbyte (scalar)",
        "vbyte (fastest kernel)",
        "memcpy of the decoded bytes",
    ] {
        assert!(text.contains(label), "missing {label}");
    }
    // The delta codec alone gives the x axis: the paper codes gaps.
    let out = vecpress(&[
        "bench",
        "--reps",
        "1",
        "--values",
        "500",
        "--inputs",
        "bits-04",
        "--codecs",
        "vbyte-delta",
        "--isa",
        "scalar",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_fixed_width_values_generated_and_from_files() {
    // Generated: decimals of an odd width, one kernel per level.
    let lines = bench_json(&[
        "--type",
        "w12",
        "--codecs",
        "byte-split",
        "--values",
        "3000",
    ]);
    let measured = rows(&lines);
    assert!(!measured.is_empty());
    for row in &measured {
        assert_eq!(row["type"], "w12", "{row}");
        assert_eq!(row["input"], "decimal-w12", "{row}");
        assert_eq!(row["input_bytes"], 36_000, "{row}");
    }
    // A file named by its extension; a size that is no multiple is refused.
    let dir = temp_dir("fixed-width");
    let good = dir.join("vals.w5");
    std::fs::write(
        &good,
        (0..5000u32).map(|i| (i * 31) as u8).collect::<Vec<u8>>(),
    )
    .unwrap();
    let lines = bench_json(&["--codecs", "byte-split", good.to_str().unwrap()]);
    assert!(
        rows(&lines)
            .iter()
            .all(|r| r["type"] == "w5" && r["values"] == 1000)
    );
    let bad = dir.join("vals.w7");
    std::fs::write(&bad, [0u8; 20]).unwrap();
    let (out, _) = run_json(&["--codecs", "byte-split", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a multiple of 7"),
        "{}",
        stderr(&out)
    );
    let (out, _) = run_json(&["--type", "w0"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("wN for values of N bytes"),
        "{}",
        stderr(&out)
    );
}

/// `vecpress bench` alone: one line per codec with the kernel the default
/// dispatch chose on this CPU, against memcpy and the best peer; `--all`
/// gives the full grid instead.
#[test]
fn bench_alone_prints_a_summary_of_the_default_kernels() {
    let out = vecpress(&["bench", "--reps", "1", "--values", "3000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = text.lines();
    assert!(lines.next().unwrap().contains("default kernel"), "{text}");
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(header[..3], ["codec", "input", "kernel"], "{text}");
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split_whitespace().collect()).collect();
    let levels: Vec<&str> = vecpress::Isa::available()
        .iter()
        .map(|i| i.name())
        .collect();
    for codec in vecpress::codec::int_codecs() {
        let row = rows
            .iter()
            .find(|r| r[0] == codec.name())
            .unwrap_or_else(|| panic!("{} missing: {text}", codec.name()));
        assert_eq!(row[2], codec.auto_kernel().name(), "{text}");
        assert!(levels.contains(&row[2]), "{text}");
        // A measured speed (GB/s; x memcpy rounds to 0.00 in an unoptimised build).
        let speed: f64 = row[3].parse().unwrap();
        assert!(speed > 0.0, "{text}");
        let x_memcpy: f64 = row[4].parse().unwrap();
        assert!(x_memcpy >= 0.0, "{text}");
    }
    for codec in ["byte-split", "byte-split-lz4", "lz4", "lz4-hc"] {
        assert!(
            rows.iter().any(|r| r[0] == codec),
            "{codec} missing: {text}"
        );
    }
    assert!(rows.iter().all(|r| r.len() == 8), "{text}");
    // Like with like: BP128 (4 lanes) beside BitPacker4x, not the faster
    // 8-lane peer; a codec without a counterpart beside the fastest peer.
    for (codec, peer, kind) in [
        ("bp128", "peer:bitpacking-4x", "counterpart"),
        ("bp128-8x", "peer:bitpacking-8x", "counterpart"),
        ("vbyte-delta", "peer:maskedvbyte-c-delta", "counterpart"),
    ] {
        let row = rows.iter().find(|r| r[0] == codec).expect("a row");
        if row[5] != "-" || ci() {
            assert_eq!((row[5], row[7]), (peer, kind), "{text}");
        }
    }
    assert!(
        rows.iter()
            .all(|r| r[5] == "-" || ["counterpart", "fastest"].contains(&r[7])),
        "{text}"
    );
    // Every peer built: none is missing on a CI machine, and the summary
    // says so first where one is.
    if ci() {
        assert!(!text.contains("missing peers"), "{text}");
    }
    // The full grid: every kernel, with the scalar column.
    let all = vecpress(&[
        "bench", "--all", "--reps", "1", "--values", "500", "--inputs", "bits-05",
    ]);
    assert!(all.status.success(), "{}", stderr(&all));
    let all = String::from_utf8_lossy(&all.stdout).into_owned();
    assert!(
        all.contains("x scalar") && all.contains(" scalar "),
        "{all}"
    );
}

/// Whether this runs in CI, where every peer must be built.
fn ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// `bench --peers --json` lists an absent peer as a row with its reason; a
/// CI build (a fresh clone, built as the README says) has none.
#[test]
fn every_peer_is_built_in_ci() {
    let out = vecpress(&[
        "bench",
        "--peers",
        "--json",
        "--reps",
        "1",
        "--values",
        "2000",
        "--inputs",
        "cluster-gap-bits-08,f64-walk",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON row"))
        .collect();
    let absent: Vec<&serde_json::Value> =
        rows.iter().filter(|r| r.get("absent").is_some()).collect();
    if ci() {
        assert!(absent.is_empty(), "{absent:?}");
    }
    // Each absent row names the peer and why.
    for row in absent {
        assert!(
            row["codec"]
                .as_str()
                .is_some_and(|c| c.starts_with("peer:")),
            "{row}"
        );
        assert!(
            row["absent"].as_str().is_some_and(|r| !r.is_empty()),
            "{row}"
        );
    }
    // The peers that run are rows with a speed.
    let peers = rows
        .iter()
        .filter(|r| {
            r["codec"].as_str().is_some_and(|c| c.starts_with("peer:"))
                && r["decode_gbs"].as_f64().is_some_and(|v| v > 0.0)
        })
        .count();
    assert!(peers > 0, "{rows:?}");
}

/// `bench --queries` answers AND and OR queries on a posting file with
/// every contestant (cursors, and each query by one call on the stored
/// lists; the peers too in a CI build), which must agree (the command fails
/// otherwise), and reports bytes per posting.
#[test]
fn bench_queries_run_every_contestant_on_a_posting_file() {
    let dir = common::scratch("bench-queries");
    let path = dir.join("lists.docs");
    let mut bytes = Vec::new();
    // Lengths from 8 to about 20000, over a shared range of documents.
    for k in 0..60u32 {
        let n = 8 + k * k * 6;
        let step = (400_000 / n).max(1);
        bytes.extend_from_slice(&n.to_le_bytes());
        for i in 0..n {
            bytes.extend_from_slice(&(i * step + k % step).to_le_bytes());
        }
    }
    std::fs::write(&path, &bytes).unwrap();
    let out = vecpress(&["bench", "--queries", "--reps", "1", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{}{text}", stderr(&out));
    assert!(text.contains("100 queries of 2 lists, 100 of 3"), "{text}");
    let mut want = vec![
        "stream-vbyte-delta ",
        "stream-vbyte-delta, one call ",
        "vbyte-delta ",
        "bp128-delta ",
        "fastlanes-delta ",
        "pfor-delta ",
        "hybrid ",
        "hybrid, as hits ",
        "hybrid, arrays, as hits ",
        "stream-vbyte-delta decode+merge",
    ];
    if ci() {
        want.extend([
            "peer:streamvbyte-c decode+merge",
            "peer:croaring ",
            "peer:croaring to array",
        ]);
    }
    // Each named row holds `n` numbers, all positive.
    let check_rows = |names: &[&str], n: usize| {
        for name in names {
            let row = text
                .lines()
                .find(|l| l.starts_with(&format!("| {name}")))
                .unwrap_or_else(|| panic!("no row {name}: {text}"));
            let cells: Vec<f64> = row
                .split('|')
                .skip(2)
                .filter_map(|c| c.trim().parse().ok())
                .collect();
            assert_eq!(cells.len(), n, "{row}");
            assert!(cells.iter().all(|&c| c > 0.0), "{row}");
        }
    };
    // Four query kinds and bytes per posting.
    check_rows(&want, 5);
    // The second table: every list, and each query's lists, decoded by one
    // call and list after list (the command checks they decode alike).
    let mut want = vec![
        "stream-vbyte-delta, lists in one call",
        "stream-vbyte-delta, list after list",
        "memcpy of the values decoded",
        "fill of their bytes",
    ];
    if ci() {
        want.push("peer:streamvbyte-c, list after list");
    }
    check_rows(&want, 2);
}
