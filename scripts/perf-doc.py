#!/usr/bin/env python3
"""Writes docs/BENCHMARKS.md from the records in perf/*.jsonl (one per CPU,
made by scripts/perf-record.sh): one column per CPU, every cell a ratio
between two rows of one run, since only those hold across runs on a shared
machine.

    scripts/perf-doc.py [--perf DIR] [--out FILE]   (default: perf/, docs/BENCHMARKS.md)
"""
import argparse
import glob
import json
import os
import sys
from collections import Counter

# Within this much of the best kernel, the default dispatch counts as right.
WITHIN = 0.97


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Record:
    """One CPU's file: measured rows by (input, type), in file order."""

    def __init__(self, path):
        self.key = os.path.splitext(os.path.basename(path))[0]
        self.groups = {}
        cpus = Counter()
        commits = set()
        self.rows = 0
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                r = json.loads(line)
                if "absent" in r or "error" in r or "input" not in r:
                    continue
                self.rows += 1
                cpus[r.get("cpu", "-")] += 1
                commits.add(r.get("commit", "-"))
                rows = self.groups.setdefault((r["input"], r.get("type", "-")), [])
                # A row measured twice: the later one counts.
                rows[:] = [o for o in rows if (o["codec"], o["isa"]) != (r["codec"], r["isa"])]
                rows.append(r)
        self.cpu = cpus.most_common(1)[0][0] if cpus else "-"
        self.commit = ", ".join(sorted(commits)) or "-"

    def row(self, group, codec, isa=None):
        """The row of a codec (and isa) on an input; with no isa, its auto
        row or else its first."""
        rows = [r for r in self.groups.get(group, []) if r["codec"] == codec]
        if isa is not None:
            rows = [r for r in rows if r["isa"] == isa]
        rows.sort(key=lambda r: r["isa"] != "auto")
        return rows[0] if rows else None

    def best_kernel(self, group, codec):
        """The fastest fixed kernel of a codec on an input (not its auto row)."""
        rows = [r for r in self.groups.get(group, [])
                if r["codec"] == codec and r["isa"] != "auto" and r.get("decode_gbs")]
        return max(rows, key=lambda r: r["decode_gbs"]) if rows else None

    def peers_of(self, group, codec):
        """The peers the bench ran beside a codec: it prints them right after
        the codec's own rows."""
        out = []
        current = None
        for r in self.groups.get(group, []):
            if r["codec"].startswith("peer:"):
                if current == codec:
                    out.append(r)
            else:
                current = r["codec"].split(":")[0].split("+")[0]
        return out


def ratio(a, b):
    return a / b if a and b else None


def speed(r, key="decode_gbs"):
    return r.get(key) if r else None


def cell(x, name=None):
    if x is None:
        return "-"
    return f"{x:.2f} ({name})" if name else f"{x:.2f}"


def total_speed(rows, key="decode_gbs"):
    """Total bytes over total time of rows on several inputs (None if any is missing)."""
    if not rows or any(not speed(r, key) for r in rows):
        return None
    return sum(r["input_bytes"] for r in rows) / sum(r["input_bytes"] / r[key] for r in rows)


def groups_with(records, codec, types=None):
    """Every (input, type) where some record has the codec, in first-seen order."""
    seen = {}
    for rec in records:
        for g, rows in rec.groups.items():
            if (types is None or g[1] in types) and any(r["codec"] == codec for r in rows):
                seen.setdefault(g, None)
    return list(seen)


def codecs_of(records, types):
    """Own codecs on inputs of these types, in first-seen order."""
    seen = {}
    for rec in records:
        for g, rows in rec.groups.items():
            if g[1] in types:
                for r in rows:
                    if not r["codec"].startswith("peer:"):
                        seen.setdefault(r["codec"], None)
    return list(seen)


def group_name(g, with_type):
    return f"{g[0]} ({g[1]})" if with_type else g[0]


def auto_vs_best(rec, g, codec):
    """(auto ÷ best kernel, the best kernel's label) or (None, None)."""
    auto = rec.row(g, codec, "auto")
    best = rec.best_kernel(g, codec)
    if not auto or not best:
        return None, None
    name = best["isa"]
    kernel = auto.get("kernel")
    if kernel and best["isa"] not in str(kernel):
        name += f"; auto ran {kernel}"
    return ratio(auto["decode_gbs"], best["decode_gbs"]), name


def table(out, head, lines, text_columns):
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join("---" if i < text_columns else "---:" for i in range(len(head))) + "|")
    for l in lines:
        out.append("| " + " | ".join(l) + " |")
    out.append("")


def dispatch_summary(records, out):
    """Per CPU: the (codec, input) pairs where auto is within 3% of the best kernel."""
    head, within, worst = ["default dispatch"], ["auto within 3% of the best kernel"], ["worst pair"]
    for rec in records:
        n = ok = 0
        low = None
        for g, rows in rec.groups.items():
            for codec in {r["codec"] for r in rows if r["isa"] == "auto"}:
                x, name = auto_vs_best(rec, g, codec)
                if x is None:
                    continue
                n += 1
                ok += x >= WITHIN
                if low is None or x < low[0]:
                    low = (x, f"{codec} on {group_name(g, g[1] != 'u32')}: {x:.2f} ({name})")
        head.append(rec.key)
        within.append(f"{ok} of {n} (codec, input) pairs" if n else "- (no auto rows)")
        worst.append(low[1] if low else "-")
    table(out, head, [within, worst], 1)


def lz4_decode(records, out):
    files = groups_with(records, "lz4", {"bytes"})
    if not files:
        return
    out.append("## LZ4 decode, one block at a time")
    out.append("")
    out.append("Silesia files in 64 KiB blocks, decoded one block at a time. `lz4/auto` is the "
               "adaptive decoder (it picks a copy loop per block); the best fixed loop is the "
               "fastest single loop (`lz4:copy8`, `lz4:copy32`, ...) on that file. "
               "\"all files\" is total bytes over total time.")
    out.append("")
    lines = []

    def add(label, values):
        lines.append([label[0], label[1]] + values)

    for g in files:
        auto, best = [], []
        for rec in records:
            peer = speed(rec.row(g, "peer:lz4-c"))
            auto.append(cell(ratio(speed(rec.row(g, "lz4", "auto")), peer)))
            loops = [r for r in rec.groups.get(g, []) if r["codec"].startswith("lz4:")]
            b = max(loops, key=lambda r: r["decode_gbs"]) if loops else None
            best.append(cell(ratio(speed(b), peer), b["codec"].split(":", 1)[1] if b else None))
        add((g[0], "lz4/auto ÷ peer:lz4-c"), auto)
        add(("", "best fixed loop ÷ peer:lz4-c"), best)
    if len(files) > 1:
        auto, best = [], []
        for rec in records:
            peer = total_speed([rec.row(g, "peer:lz4-c") for g in files])
            auto.append(cell(ratio(total_speed([rec.row(g, "lz4", "auto") for g in files]), peer)))
            loops = {r["codec"] for g in files for r in rec.groups.get(g, [])
                     if r["codec"].startswith("lz4:")}
            totals = [(total_speed([rec.row(g, c) for g in files]), c) for c in sorted(loops)]
            totals = [t for t in totals if t[0]]
            b = max(totals) if totals else (None, None)
            best.append(cell(ratio(b[0], peer), b[1].split(":", 1)[1] if b[1] else None))
        add(("all files", "lz4/auto ÷ peer:lz4-c"), auto)
        add(("", "best fixed loop ÷ peer:lz4-c"), best)
    table(out, ["file", "ratio"] + [r.key for r in records], lines, 2)

    out.append("### lz4+pairs: two blocks at a time")
    out.append("")
    out.append("`lz4+pairs` decodes two independent blocks in one interleaved loop.")
    out.append("")
    lines = []
    for g in files:
        lines.append([g[0]] + [cell(ratio(speed(rec.row(g, "lz4+pairs", "auto")),
                                          speed(rec.row(g, "peer:lz4-c")))) for rec in records])
    if len(files) > 1:
        lines.append(["all files"] + [
            cell(ratio(total_speed([rec.row(g, "lz4+pairs", "auto") for g in files]),
                       total_speed([rec.row(g, "peer:lz4-c") for g in files])))
            for rec in records])
    table(out, ["file: lz4+pairs ÷ peer:lz4-c"] + [r.key for r in records], lines, 1)


def lz4_compress(records, out):
    files = [g for g in groups_with(records, "lz4", {"bytes"})]
    files += [g for g in groups_with(records, "lz4-hc", {"bytes"}) if g not in files]
    if not files:
        return
    levels = sorted({str(r["level"]) for rec in records for g in files
                     for r in rec.groups.get(g, []) if r["codec"] == "lz4-hc" and "level" in r})
    level = f" (level {', '.join(levels)})" if levels else ""
    out.append("## LZ4 compress")
    out.append("")
    out.append(f"Encoding speed over liblz4's on the same blocks: the fast compressor against "
               f"`LZ4_compress_default`, `lz4-hc`{level} against `LZ4_compress_HC` at the same level. "
               f"\"all files\" is total bytes over total time.")
    out.append("")
    pairs = [("lz4", "peer:lz4-c"), ("lz4-hc", "peer:lz4-c-hc")]
    lines = []
    for g in files:
        for i, (own, peer) in enumerate(pairs):
            lines.append([g[0] if i == 0 else "", f"{own} ÷ {peer}"] + [
                cell(ratio(speed(rec.row(g, own), "encode_gbs"),
                           speed(rec.row(g, peer), "encode_gbs"))) for rec in records])
    if len(files) > 1:
        for i, (own, peer) in enumerate(pairs):
            lines.append(["all files" if i == 0 else "", f"{own} ÷ {peer}"] + [
                cell(ratio(total_speed([rec.row(g, own) for g in files], "encode_gbs"),
                           total_speed([rec.row(g, peer) for g in files], "encode_gbs")))
                for rec in records])
    table(out, ["file", "encode ratio"] + [r.key for r in records], lines, 2)


def stream_vbyte(records, out):
    codecs = [c for c in ("stream-vbyte", "stream-vbyte-delta") if groups_with(records, c)]
    if not codecs:
        return
    out.append("## Stream VByte")
    out.append("")
    out.append("Posting lists and generated lists in blocks of 4096 values. The best kernel is "
               "the fastest fixed instruction-set level on that input, named in brackets; "
               "`peer:streamvbyte-c` is the reference C library (lemire/streamvbyte).")
    out.append("")
    for codec in codecs:
        peer = "peer:streamvbyte-c" + ("-delta" if codec.endswith("-delta") else "")
        out.append(f"### {codec}")
        out.append("")
        lines = []
        for g in groups_with(records, codec, {"u32"}):
            autos, peers = [], []
            for rec in records:
                autos.append(cell(*auto_vs_best(rec, g, codec)))
                best = rec.best_kernel(g, codec)
                peers.append(cell(ratio(speed(best), speed(rec.row(g, peer))),
                                  best["isa"] if best else None))
            lines.append([g[0], "auto ÷ best kernel"] + autos)
            lines.append(["", f"best kernel ÷ {peer}"] + peers)
        table(out, ["input", "ratio"] + [r.key for r in records], lines, 2)


def integer_codecs(records, out):
    codecs = codecs_of(records, {"u32"})
    if not codecs:
        return
    out.append("## Default dispatch, every integer codec")
    out.append("")
    out.append("`auto` (the kernel the codec picks for this CPU) over the fastest fixed kernel, "
               "named in brackets: within 3% (0.97 or more) the dispatch picked right.")
    out.append("")
    lines = []
    for codec in codecs:
        for i, g in enumerate(groups_with(records, codec, {"u32"})):
            lines.append([codec if i == 0 else "", g[0]] +
                         [cell(*auto_vs_best(rec, g, codec)) for rec in records])
    table(out, ["codec", "input"] + [r.key for r in records], lines, 2)


def byte_split(records, out):
    types = {t for rec in records for (_, t) in rec.groups if t not in ("u32", "bytes")}
    codecs = [c for c in ("byte-split", "byte-split-lz4") if groups_with(records, c, types)]
    if not codecs:
        return
    out.append("## Byte split on floats")
    out.append("")
    out.append("Float files in blocks of up to 64 KiB: the default dispatch over the best kernel, the best "
               "kernel over a memcpy of the same bytes, and over the peers run beside it.")
    out.append("")
    for codec in codecs:
        out.append(f"### {codec}")
        out.append("")
        files = groups_with(records, codec, types)
        peer_names = list(dict.fromkeys(p["codec"] for rec in records for g in files
                                        for p in rec.peers_of(g, codec)))
        lines = []
        for g in files:
            autos, memcpy = [], []
            peers = {p: [] for p in peer_names}
            for rec in records:
                autos.append(cell(*auto_vs_best(rec, g, codec)))
                best = rec.best_kernel(g, codec)
                m = None
                if best:
                    m = best.get("memcpy_ratio") or ratio(best["decode_gbs"], best.get("memcpy_gbs"))
                memcpy.append(cell(m, best["isa"] if best else None))
                for p in peer_names:
                    peers[p].append(cell(ratio(speed(best), speed(rec.row(g, p)))))
            lines.append([group_name(g, True), "auto ÷ best kernel"] + autos)
            lines.append(["", "best kernel ÷ memcpy"] + memcpy)
            for p in peer_names:
                lines.append(["", f"best kernel ÷ {p}"] + peers[p])
        table(out, ["input", "ratio"] + [r.key for r in records], lines, 2)


def main():
    ap = argparse.ArgumentParser(description="Write docs/BENCHMARKS.md from perf/*.jsonl.")
    ap.add_argument("--perf", metavar="DIR", default=os.path.join(repo_root(), "perf"),
                    help="the records (default: perf/)")
    ap.add_argument("--out", metavar="FILE",
                    default=os.path.join(repo_root(), "docs", "BENCHMARKS.md"),
                    help="default: docs/BENCHMARKS.md")
    args = ap.parse_args()

    paths = sorted(glob.glob(os.path.join(args.perf, "*.jsonl")))
    if not paths:
        print(f"perf-doc: no records (*.jsonl) in {args.perf}", file=sys.stderr)
        sys.exit(1)
    records = []
    for path in paths:
        try:
            records.append(Record(path))
        except (OSError, ValueError) as e:
            print(f"perf-doc: {path}: {e}", file=sys.stderr)
            sys.exit(1)

    out = [
        "<!-- Generated by scripts/perf-doc.py from perf/*.jsonl; do not edit. -->",
        "",
        "# Benchmarks",
        "",
        "Generated by `scripts/perf-doc.py` from `perf/*.jsonl`; do not edit.",
        "",
        "## How to read these tables",
        "",
        "Each column is one CPU's record, each cell a ratio between two rows of ONE "
        "`vecpress bench` run: every decoder's timed passes are interleaved with a memcpy of the "
        "same bytes, so these ratios hold on a shared machine where absolute speeds move by "
        "5-10% from run to run. No cell divides a speed from one run by one from another. "
        "Above 1, the first decoder named is the faster. Speeds are decoding speeds in GB/s of "
        "decoded bytes unless a table says encoding.",
        "",
        "`auto` is the default dispatch, what the library runs unless told otherwise; a kernel "
        "is one fixed instruction-set level (`scalar`, `sse41`, `avx2`, `avx512`, `neon`), and "
        "the best kernel is the fastest of them on that input. `-` means the record has no such "
        "row: a record made before the row existed, a peer not built into the binary, or a CPU "
        "without that level.",
        "",
        "To re-record on a machine (the record is named after its CPU, `perf/<vendor>-<family>-<model>.jsonl`):",
        "",
        "```sh",
        "scripts/perf-record.sh fresh.jsonl   # builds the CLI, runs every suite",
        "scripts/perf-compare.py fresh.jsonl  # same-run ratios that moved, against perf/<cpu>.jsonl",
        "mv fresh.jsonl perf/<cpu>.jsonl",
        "scripts/perf-doc.py                  # rewrites this file",
        "```",
        "",
        "## Machines",
        "",
    ]
    table(out, ["record", "CPU", "commit", "rows"],
          [[r.key, r.cpu, r.commit, str(r.rows)] for r in records], 3)
    dispatch_summary(records, out)
    lz4_decode(records, out)
    lz4_compress(records, out)
    stream_vbyte(records, out)
    integer_codecs(records, out)
    byte_split(records, out)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(out).rstrip() + "\n")
    print(f"perf-doc: {args.out} from {len(records)} record(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
