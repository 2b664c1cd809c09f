//! Results: an aligned table (default) or JSON lines (`--json`).
#![forbid(unsafe_code)]

use std::io::Write;

use serde::Serialize;

/// One measured (codec or peer, isa, input).
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Codec name (`vbyte`, `vbyte-delta`) or peer name (`peer:...`).
    pub codec: String,
    /// ISA level of the decoding kernel, or `-` for peers.
    pub isa: String,
    /// Input name: a generator's, or a file's stem.
    pub input: String,
    /// Element type of the values (`u32` for integer codecs; `bytes`, `f32`,
    /// ... for byte codecs, as `--type` names them).
    #[serde(rename = "type")]
    pub elem: String,
    /// Values decoded per pass.
    pub values: u64,
    /// Their uncompressed size.
    pub input_bytes: u64,
    /// Encoded size of all blocks.
    pub compressed_bytes: u64,
    /// `input_bytes / compressed_bytes`.
    pub ratio: f64,
    /// `compressed_bytes * 8 / values`.
    pub bits_per_value: f64,
    /// Millions of values encoded per second (null for peers: only decoding is compared).
    pub encode_mis: Option<f64>,
    /// Millions of values decoded per second.
    pub decode_mis: f64,
    /// Encoding speed in GB/s of uncompressed bytes.
    pub encode_gbs: Option<f64>,
    /// Decoding speed in GB/s of uncompressed (decoded) bytes.
    pub decode_gbs: f64,
    /// memcpy of the same uncompressed bytes, block by block into the same buffer, GB/s.
    pub memcpy_gbs: f64,
    /// `decode_gbs / memcpy_gbs`.
    pub memcpy_ratio: f64,
    /// Decoding speed over the scalar kernel's, same codec and input (null without a scalar row).
    pub scalar_ratio: Option<f64>,
    /// Blocks per pass.
    pub blocks: u64,
    /// The most values (integer codecs) or bytes (byte codecs) a block holds.
    pub block: u64,
    /// Timed passes; the median is reported.
    pub reps: u32,
    /// How a peer was built, where that matters for its numbers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The compression level, for codecs and peers that have levels
    /// (`lz4-hc`, `peer:lz4-c-hc`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// On an `auto` row (the default dispatch): the kernel it ran, a
    /// level's name or an LZ4 loop's. Absent on the adaptive LZ4 rows,
    /// whose note says which loops they ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
}

/// A decoder that failed its round trip (or failed while timed): no figures.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// Codec or peer name.
    pub codec: String,
    /// ISA level, or `-` for peers.
    pub isa: String,
    /// Input name.
    pub input: String,
    /// What went wrong: block, value, decoded and expected.
    pub error: String,
}

/// One line of results.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Line {
    /// Measured.
    Row(Row),
    /// Not measured: it decoded wrongly.
    Failed(Failure),
}

impl Line {
    /// The input it belongs to.
    fn input(&self) -> &str {
        match self {
            Line::Row(r) => &r.input,
            Line::Failed(f) => &f.input,
        }
    }
}

/// A peer not built into this binary.
#[derive(Debug, Clone, Serialize)]
pub struct AbsentLine {
    /// The row name it would have.
    pub codec: String,
    /// Why it is absent.
    pub absent: String,
}

/// Prints one JSON line per row.
pub fn print_json(out: &mut impl Write, rows: &[Line]) -> std::io::Result<()> {
    for row in rows {
        serde_json::to_writer(&mut *out, row)?;
        writeln!(out)?;
    }
    out.flush()
}

/// Prints one JSON line for an absent peer.
pub fn print_json_absent(out: &mut impl Write, absent: &AbsentLine) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, absent)?;
    writeln!(out)?;
    out.flush()
}

const HEADER: [&str; 11] = [
    "codec", "isa", "input", "type", "ratio", "bits/val", "dec Mi/s", "dec GB/s", "x memcpy",
    "x scalar", "enc GB/s",
];
/// Columns aligned left (text); the others are numbers, aligned right.
const TEXT_COLUMNS: usize = 4;

/// Says, before any row, which peers this build lacks and how to add
/// them: their rows would be missing from every ratio. The reasons follow
/// the table ([`print_table`]) or are JSON rows.
pub fn print_absent_first(out: &mut impl Write, absent: &[AbsentLine]) -> std::io::Result<()> {
    if absent.is_empty() {
        return Ok(());
    }
    let mut names: Vec<&str> = absent
        .iter()
        .map(|a| a.codec.strip_suffix("-delta").unwrap_or(&a.codec))
        .collect();
    names.dedup();
    writeln!(
        out,
        "missing peers: {} ({}); the build fetches and compiles them when it can reach \
         crates.io and a C compiler: `cargo fetch && touch crates/vecpress-cli/build.rs && \
         cargo build --release -p vecpress-cli` adds them",
        names.join(", "),
        absent[0].absent
    )
}

/// Prints the aligned table, absent peers after the rows, then notes.
pub fn print_table(
    out: &mut impl Write,
    lines: &[Line],
    absent: &[AbsentLine],
    notes: &[String],
) -> std::io::Result<()> {
    let opt = |v: Option<f64>, digits: usize| v.map_or("-".into(), |v| format!("{v:.digits$}"));
    let cells: Vec<Vec<String>> = lines
        .iter()
        .map(|line| match line {
            Line::Failed(f) => vec![
                f.codec.clone(),
                f.isa.clone(),
                f.input.clone(),
                format!("FAILED: {}", f.error),
            ],
            Line::Row(r) => vec![
                match r.level {
                    Some(level) => format!("{} -{level}", r.codec),
                    None => r.codec.clone(),
                },
                r.isa.clone(),
                r.input.clone(),
                r.elem.clone(),
                format!("{:.2}", r.ratio),
                format!("{:.2}", r.bits_per_value),
                format!("{:.0}", r.decode_mis),
                format!("{:.2}", r.decode_gbs),
                format!("{:.2}", r.memcpy_ratio),
                opt(r.scalar_ratio, 2),
                opt(r.encode_gbs, 2),
            ],
        })
        .collect();
    let mut widths = HEADER.map(str::len);
    for row in cells.iter().filter(|c| c.len() == HEADER.len()) {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    for row in &cells {
        for (w, cell) in widths.iter_mut().zip(&row[..TEXT_COLUMNS]) {
            *w = (*w).max(cell.len());
        }
    }
    for a in absent {
        widths[0] = widths[0].max(a.codec.len());
    }
    let line = |out: &mut dyn Write, cells: &[String]| -> std::io::Result<()> {
        let mut text = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            if i > 0 {
                text.push_str("  ");
            }
            if i < TEXT_COLUMNS || cells.len() < HEADER.len() {
                text.push_str(&format!("{cell:<w$}"));
            } else {
                text.push_str(&format!("{cell:>w$}"));
            }
        }
        writeln!(out, "{}", text.trim_end())
    };
    line(out, &HEADER.map(String::from))?;
    let mut previous_input: Option<&str> = None;
    for (l, cells) in lines.iter().zip(&cells) {
        if previous_input.is_some_and(|p| p != l.input()) {
            writeln!(out)?;
        }
        previous_input = Some(l.input());
        line(out, cells)?;
    }
    if !absent.is_empty() {
        writeln!(out)?;
    }
    for a in absent {
        writeln!(out, "{:<w$}  absent: {}", a.codec, a.absent, w = widths[0])?;
    }
    if !notes.is_empty() {
        writeln!(out)?;
    }
    for note in notes {
        writeln!(out, "note: {note}")?;
    }
    out.flush()
}

/// The peer each codec is set against in the summary: the library of the
/// same format and shape (a `-delta` codec's is the peer's `-delta` row).
/// Codecs not listed are set against the fastest peer of their family.
const COUNTERPARTS: [(&str, &str); 11] = [
    ("vbyte", "peer:maskedvbyte-c"),
    ("stream-vbyte", "peer:streamvbyte-c"),
    ("bp128", "peer:bitpacking-4x"),
    ("bp128-8x", "peer:bitpacking-8x"),
    ("fastlanes", "peer:fastlanes"),
    ("lz4", "peer:lz4-c"),
    ("lz4-hc", "peer:lz4-c-hc"),
    ("byte-split", "peer:naive"),
    ("bit-split", "peer:bitshuffle"),
    ("bit-split-lz4", "peer:bitshuffle-lz4"),
    ("blosc-lz4", "peer:c-blosc"),
];

/// The row name of a codec's counterpart peer, if it has one.
pub fn counterpart(codec: &str) -> Option<String> {
    let (plain, delta) = match codec.strip_suffix("-delta") {
        Some(plain) => (plain, true),
        None => (codec, false),
    };
    // `lz4+pairs` is LZ4 too.
    let plain = plain.split('+').next().unwrap_or(plain);
    let (_, peer) = COUNTERPARTS.iter().find(|(c, _)| *c == plain)?;
    Some(if delta {
        format!("{peer}-delta")
    } else {
        (*peer).to_string()
    })
}

/// The summary of `vecpress bench` alone: per codec and input, the default
/// dispatch's row (the kernel it ran, its speed, against memcpy) and a peer
/// of the same input, with the ratio to it: the codec's counterpart (the
/// library of the same format and shape) where it ran, else the fastest
/// peer of its family; the last column says which (`counterpart`,
/// `fastest`).
pub fn print_summary(out: &mut impl Write, lines: &[Line]) -> std::io::Result<()> {
    let rows: Vec<&Row> = lines
        .iter()
        .filter_map(|l| match l {
            Line::Row(r) => Some(r),
            Line::Failed(_) => None,
        })
        .collect();
    let header = [
        "codec", "input", "kernel", "dec GB/s", "x memcpy", "peer", "x peer", "peer is",
    ];
    let fastest = |a: &&&Row, b: &&&Row| a.decode_gbs.total_cmp(&b.decode_gbs);
    let mut cells: Vec<[String; 8]> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        // vecpress's default dispatch (`bp128-8x` included: its own kernels
        // on a peer's stream).
        if r.isa != "auto" || r.codec.starts_with("peer:") {
            continue;
        }
        // The counterpart's fastest row on this input (a peer may have a
        // row per level); else the fastest peer among those that follow the
        // codec's own rows (`lz4` has `lz4+pairs` too), up to the next codec's.
        let same = counterpart(&r.codec).and_then(|name| {
            rows.iter()
                .filter(|p| p.input == r.input && p.codec == name)
                .max_by(fastest)
        });
        let family = |c: &str| c.split(['+', ':']).next().unwrap_or_default().to_string();
        let (peer, kind) = match same {
            Some(p) => (Some(p), "counterpart"),
            None => (
                rows[i + 1..]
                    .iter()
                    .take_while(|p| {
                        p.input == r.input
                            && (p.codec.starts_with("peer:")
                                || family(&p.codec) == family(&r.codec))
                    })
                    .filter(|p| p.codec.starts_with("peer:"))
                    .max_by(fastest),
                "fastest",
            ),
        };
        let kernel = r.kernel.clone().unwrap_or_else(|| "adaptive".into());
        cells.push([
            r.codec.clone(),
            r.input.clone(),
            kernel,
            format!("{:.2}", r.decode_gbs),
            format!("{:.2}", r.memcpy_ratio),
            peer.map_or("-".into(), |p| p.codec.clone()),
            peer.map_or("-".into(), |p| {
                format!("{:.2}", r.decode_gbs / p.decode_gbs)
            }),
            peer.map_or("-".into(), |_| kind.into()),
        ]);
    }
    let mut widths = header.map(str::len);
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cols: &[&str]| -> String {
        let mut s = String::new();
        for (k, (c, w)) in cols.iter().zip(widths).enumerate() {
            if k > 0 {
                s.push_str("  ");
            }
            // Names left, figures right.
            if matches!(k, 3 | 4 | 6) {
                s.push_str(&format!("{c:>w$}"));
            } else {
                s.push_str(&format!("{c:<w$}"));
            }
        }
        s.trim_end().to_string()
    };
    writeln!(out, "{}", line(&header))?;
    for row in &cells {
        let cols: Vec<&str> = row.iter().map(String::as_str).collect();
        writeln!(out, "{}", line(&cols))?;
    }
    Ok(())
}
