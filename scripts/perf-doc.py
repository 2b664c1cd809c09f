#!/usr/bin/env python3
"""Writes docs/BENCHMARKS.md from the records in perf/*.jsonl (one per CPU,
made by scripts/perf-record.sh): one column per CPU, every cell a ratio
between two rows of one run, since only those hold across runs on a shared
machine. A record holds one or more runs; each cell is the median over the
record's runs of its ratio within each run. The best kernel of a codec on an
input is the one with the highest median over the runs of its speed over the
fastest kernel's in that run; `auto ÷ best kernel` is the median over the runs
of auto over the fastest kernel of that run.

The records of whole commands (perf/cli-*.jsonl, made by
scripts/cli-throughput.sh) give the section "Command throughput".

    scripts/perf-doc.py [--perf DIR] [--out FILE]   (default: perf/, docs/BENCHMARKS.md)
"""
import argparse
import glob
import os
import sys
from collections import Counter

import perflib
from perflib import median

# Within this much of the best kernel, the default dispatch counts as right.
WITHIN = 0.97


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))



class Record:
    """One CPU's file: its runs, each a Run."""

    def __init__(self, path):
        self.key = os.path.splitext(os.path.basename(path))[0]
        rec = perflib.read_record(path)
        if rec.bad:
            print(f"perf-doc: {path}: {rec.bad} lines are not JSON rows; skipped", file=sys.stderr)
        self.runs = [Run(groups) for groups in rec.runs.values()]
        self.rows = rec.rows
        self.cpu = rec.cpus.most_common(1)[0][0] if rec.cpus else "-"
        self.commit = ", ".join(sorted(rec.commits)) or "-"

    def groups(self):
        """Every (input, type) of any run, in first-seen order."""
        return list(dict.fromkeys(g for run in self.runs for g in run.groups))

    def med(self, fn):
        """The median over the runs of fn(run), leaving out the runs where it is None."""
        return median(fn(run) for run in self.runs)

    def pick(self, speeds_of):
        """The name with the highest median over the runs of its speed over the
        fastest's of that run, where speeds_of(run) is {name: speed}. Only names
        found in as many runs as any count; None when there is no speed."""
        shares = {}
        for run in self.runs:
            speeds = {k: v for k, v in speeds_of(run).items() if v}
            if not speeds:
                continue
            top = max(speeds.values())
            for k, v in speeds.items():
                shares.setdefault(k, []).append(v / top)
        if not shares:
            return None
        most = max(len(v) for v in shares.values())
        best = None
        for k, v in shares.items():
            if len(v) == most and (best is None or median(v) > best[0]):
                best = (median(v), k)
        return best[1]

    def best_kernel(self, group, codec):
        """The isa of the codec's best fixed kernel on an input (not its auto
        row): see pick()."""
        return self.pick(lambda run: {r["isa"]: r["decode_gbs"] for r in run.kernels(group, codec)})

    def peers_of(self, group, codec):
        """The names of the peers the bench ran beside a codec, in any run."""
        return list(dict.fromkeys(p["codec"] for run in self.runs for p in run.peers_of(group, codec)))


class Run:
    """One run of a record: measured rows by (input, type), in file order."""

    def __init__(self, groups):
        self.groups = groups

    def row(self, group, codec, isa=None):
        """The row of a codec (and isa) on an input; with no isa, its auto
        row or else its first."""
        rows = [r for r in self.groups.get(group, []) if r["codec"] == codec]
        if isa is not None:
            rows = [r for r in rows if r["isa"] == isa]
        rows.sort(key=lambda r: r["isa"] != "auto")
        return rows[0] if rows else None

    def kernels(self, group, codec):
        """The fixed kernels' rows of a codec on an input (not its auto row)."""
        return [r for r in self.groups.get(group, [])
                if r["codec"] == codec and r["isa"] != "auto" and r.get("decode_gbs")]

    def fastest_kernel(self, group, codec):
        """The fastest fixed kernel's row of a codec on an input in this run."""
        rows = self.kernels(group, codec)
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
        for run in rec.runs:
            for g, rows in run.groups.items():
                if (types is None or g[1] in types) and any(r["codec"] == codec for r in rows):
                    seen.setdefault(g, None)
    return list(seen)


def codecs_of(records, types):
    """Own codecs on inputs of these types, in first-seen order."""
    seen = {}
    for rec in records:
        for run in rec.runs:
            for g, rows in run.groups.items():
                if g[1] in types:
                    for r in rows:
                        if not r["codec"].startswith("peer:"):
                            seen.setdefault(r["codec"], None)
    return list(seen)


def group_name(g, with_type):
    return f"{g[0]} ({g[1]})" if with_type else g[0]


def auto_vs_best(rec, g, codec):
    """(median over the runs of auto ÷ that run's fastest kernel, the best
    kernel's label) or (None, None)."""
    def one(run):
        auto = run.row(g, codec, "auto")
        fastest = run.fastest_kernel(g, codec)
        return ratio(speed(auto), speed(fastest)) if auto and fastest else None

    x = rec.med(one)
    best = rec.best_kernel(g, codec)
    if x is None or best is None:
        return None, None
    name = best
    # The kernel auto ran, as most runs name it.
    kernels = Counter(str(a["kernel"]) for a in (run.row(g, codec, "auto") for run in rec.runs)
                      if a and a.get("kernel"))
    if kernels:
        kernel = kernels.most_common(1)[0][0]
        if best not in kernel:
            name += f"; auto ran {kernel}"
    return x, name


def picked_vs_best(rec, g, codec):
    """The median over the runs of the kernel auto ran (as its fixed row
    measured it) ÷ that run's fastest kernel, or None. Auto runs the same
    code as that row: this ratio says whether the dispatch picked right,
    apart from the noise of timing the same code twice."""
    def one(run):
        auto = run.row(g, codec, "auto")
        kernel = auto.get("kernel") if auto else None
        picked = run.row(g, codec, str(kernel)) if kernel else None
        fastest = run.fastest_kernel(g, codec)
        if not picked or picked["isa"] == "auto" or not fastest:
            return None
        return ratio(speed(picked), speed(fastest))

    return rec.med(one)


def best_over(rec, g, codec, best, fn):
    """The median over the runs of fn(run, the best kernel's row in that run)."""
    if best is None:
        return None
    return rec.med(lambda run: (lambda r: fn(run, r) if r else None)(run.row(g, codec, best)))


def table(out, head, lines, text_columns, text_last=False):
    """A Markdown table: the first `text_columns` columns (and the last, with
    `text_last`) left-aligned, the others right-aligned."""
    text = lambda i: i < text_columns or (text_last and i == len(head) - 1)
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join("---" if text(i) else "---:" for i in range(len(head))) + "|")
    for l in lines:
        out.append("| " + " | ".join(l) + " |")
    out.append("")


def dispatch_summary(records, out):
    """Per CPU: the (codec, input) pairs where auto is within 3% of the best kernel."""
    head, within, worst = ["default dispatch"], ["auto within 3% of the best kernel"], ["worst pair"]
    picked = ["the kernel auto runs within 3% of the best (its fixed row)"]
    for rec in records:
        n = ok = 0
        pn = pok = 0
        low = None
        for g in rec.groups():
            autos = dict.fromkeys(r["codec"] for run in rec.runs
                                  for r in run.groups.get(g, []) if r["isa"] == "auto")
            for codec in autos:
                x, name = auto_vs_best(rec, g, codec)
                if x is None:
                    continue
                n += 1
                ok += x >= WITHIN
                p = picked_vs_best(rec, g, codec)
                if p is not None:
                    pn += 1
                    pok += p >= WITHIN
                if low is None or x < low[0]:
                    low = (x, f"{codec} on {group_name(g, g[1] != 'u32')}: {x:.2f} ({name})")
        head.append(rec.key)
        within.append(f"{ok} of {n} (codec, input) pairs" if n else "- (no auto rows)")
        picked.append(f"{pok} of {pn} pairs" if pn else "-")
        worst.append(low[1] if low else "-")
    table(out, head, [within, picked, worst], 1)


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

    def loop_name(codec):
        return codec.split(":", 1)[1] if codec else None

    for g in files:
        auto, best = [], []
        for rec in records:
            auto.append(cell(rec.med(lambda run: ratio(speed(run.row(g, "lz4", "auto")),
                                                       speed(run.row(g, "peer:lz4-c"))))))
            b = rec.pick(lambda run: {r["codec"]: r.get("decode_gbs") for r in run.groups.get(g, [])
                                      if r["codec"].startswith("lz4:")})
            x = rec.med(lambda run: ratio(speed(run.row(g, b)), speed(run.row(g, "peer:lz4-c")))) if b else None
            best.append(cell(x, loop_name(b)))
        add((g[0], "lz4/auto ÷ peer:lz4-c"), auto)
        add(("", "best fixed loop ÷ peer:lz4-c"), best)
    if len(files) > 1:
        auto, best = [], []

        def total(run, codec, isa=None):
            return total_speed([run.row(g, codec, isa) for g in files])

        for rec in records:
            auto.append(cell(rec.med(lambda run: ratio(total(run, "lz4", "auto"),
                                                       total(run, "peer:lz4-c")))))
            loops = sorted({r["codec"] for run in rec.runs for g in files
                            for r in run.groups.get(g, []) if r["codec"].startswith("lz4:")})
            b = rec.pick(lambda run: {c: total(run, c) for c in loops})
            x = rec.med(lambda run: ratio(total(run, b), total(run, "peer:lz4-c"))) if b else None
            best.append(cell(x, loop_name(b)))
        add(("all files", "lz4/auto ÷ peer:lz4-c"), auto)
        add(("", "best fixed loop ÷ peer:lz4-c"), best)
    table(out, ["file", "ratio"] + [r.key for r in records], lines, 2)

    out.append("### lz4+pairs: two blocks at a time")
    out.append("")
    out.append("`lz4+pairs` decodes two independent blocks in one interleaved loop.")
    out.append("")
    lines = []
    for g in files:
        lines.append([g[0]] + [cell(rec.med(lambda run: ratio(speed(run.row(g, "lz4+pairs", "auto")),
                                                              speed(run.row(g, "peer:lz4-c")))))
                               for rec in records])
    if len(files) > 1:
        lines.append(["all files"] + [
            cell(rec.med(lambda run: ratio(total_speed([run.row(g, "lz4+pairs", "auto") for g in files]),
                                           total_speed([run.row(g, "peer:lz4-c") for g in files]))))
            for rec in records])
    table(out, ["file: lz4+pairs ÷ peer:lz4-c"] + [r.key for r in records], lines, 1)


def lz4_compress(records, out):
    files = [g for g in groups_with(records, "lz4", {"bytes"})]
    files += [g for g in groups_with(records, "lz4-hc", {"bytes"}) if g not in files]
    if not files:
        return
    levels = sorted({str(r["level"]) for rec in records for run in rec.runs for g in files
                     for r in run.groups.get(g, []) if r["codec"] == "lz4-hc" and "level" in r})
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
                cell(rec.med(lambda run: ratio(speed(run.row(g, own), "encode_gbs"),
                                               speed(run.row(g, peer), "encode_gbs"))))
                for rec in records])
    if len(files) > 1:
        for i, (own, peer) in enumerate(pairs):
            lines.append(["all files" if i == 0 else "", f"{own} ÷ {peer}"] + [
                cell(rec.med(lambda run: ratio(
                    total_speed([run.row(g, own) for g in files], "encode_gbs"),
                    total_speed([run.row(g, peer) for g in files], "encode_gbs"))))
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
                peers.append(cell(best_over(rec, g, codec, best,
                                            lambda run, r: ratio(speed(r), speed(run.row(g, peer)))),
                                  best))
            lines.append([g[0], "auto ÷ best kernel"] + autos)
            lines.append(["", f"best kernel ÷ {peer}"] + peers)
        table(out, ["input", "ratio"] + [r.key for r in records], lines, 2)


def integer_codecs(records, out):
    # Only codecs with fixed kernels: `bp128-8x` (our kernels on a peer's
    # stream) has its default dispatch alone.
    codecs = [c for c in codecs_of(records, {"u32"})
              if any(run.kernels(g, c) for rec in records for run in rec.runs
                     for g in groups_with(records, c, {"u32"}))]
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
    types = {t for rec in records for (_, t) in rec.groups() if t not in ("u32", "bytes")}
    codecs = [c for c in ("byte-split", "byte-split-lz4", "bit-split", "bit-split-lz4", "blosc-lz4")
              if groups_with(records, c, types)]
    if not codecs:
        return
    out.append("## Byte split, bit split and Blosc on floats")
    out.append("")
    out.append("Float files in blocks of up to 64 KiB: the default dispatch over the best kernel, the best "
               "kernel over a memcpy of the same bytes, and over the peers run beside it "
               "(`peer:c-blosc`: c-blosc 1.x, byte shuffle and LZ4 at clevel 5, the frames "
               "`blosc-lz4` decodes).")
    out.append("")
    for codec in codecs:
        out.append(f"### {codec}")
        out.append("")
        files = groups_with(records, codec, types)
        peer_names = list(dict.fromkeys(p for rec in records for g in files
                                        for p in rec.peers_of(g, codec)))
        lines = []
        for g in files:
            autos, memcpy = [], []
            peers = {p: [] for p in peer_names}
            for rec in records:
                autos.append(cell(*auto_vs_best(rec, g, codec)))
                best = rec.best_kernel(g, codec)
                m = best_over(rec, g, codec, best, lambda run, r: r.get("memcpy_ratio")
                              or ratio(r["decode_gbs"], r.get("memcpy_gbs")))
                memcpy.append(cell(m, best))
                for p in peer_names:
                    peers[p].append(cell(best_over(
                        rec, g, codec, best,
                        lambda run, r, p=p: ratio(speed(r), speed(run.row(g, p))))))
            lines.append([group_name(g, True), "auto ÷ best kernel"] + autos)
            lines.append(["", "best kernel ÷ memcpy"] + memcpy)
            for p in peer_names:
                lines.append(["", f"best kernel ÷ {p}"] + peers[p])
        table(out, ["input", "ratio"] + [r.key for r in records], lines, 2)



# The instruction-set levels, lowest first: a record made before `auto` rows
# existed ran the highest level by default.
LEVELS = ["scalar", "sse41", "avx2", "avx512", "neon"]


# The comparisons of scripts/cli-throughput.sh, in its order, with what they say.
CLI_TIMES = [
    ("decompress-pipe", "`decompress -c \\| cat` ÷ `lz4 -d -c \\| cat`"),
    ("compress-pipe", "`compress --format lz4 -c \\| cat` ÷ `lz4 -1 -c \\| cat`"),
    ("vp-compress-T2", "compress .vp: `-T 2` ÷ `-T 1`"),
    ("vp-decompress-T2", "decompress .vp: `-T 2` ÷ `-T 1`"),
    ("lz4-compress-T2", "compress LZ4 frame: `-T 2` ÷ `-T 1`"),
    ("lz4-decompress-T2", "decompress LZ4 frame: `-T 2` ÷ `-T 1`"),
]
CLI_RSS = [
    ("vp-compress-rss", "compress .vp"),
    ("vp-decompress-rss", "decompress .vp"),
    ("lz4-compress-rss", "compress LZ4 frame"),
    ("lz4-decompress-rss", "decompress LZ4 frame"),
]


def command_throughput(cli, out):
    """The whole-command timings: one column per CPU with a cli record."""
    out += ["## Command throughput", ""]
    if not cli:
        out += ["No record yet: `scripts/cli-throughput.sh` on a quiet machine writes "
                "`perf/cli-<vendor>-<family>-<model>.jsonl`.", ""]
        return
    out += ["Whole `vecpress` processes on the Silesia files concatenated, timed by "
            "`scripts/cli-throughput.sh` against the `lz4` command and against themselves at "
            "`-T 1`: each cell is the median over the runs of the time ratio of two commands run "
            "one after the other (below 1, the first is the faster); then the peak RSS at "
            "`-T 1`, `-T 2` and `-T 0` (one thread per core), in MiB.", ""]
    by_name = [({r["name"]: r for r in rows if "ratio" in r}, rows) for _, rows in cli]
    lines = []
    for name, label in CLI_TIMES:
        targets = {t[name]["target"] for t, _ in by_name if name in t}
        target = f"≤ {min(targets):g}" if targets else "-"
        lines.append([label, target] + [cell(t[name]["ratio"]) if name in t else "-"
                                        for t, _ in by_name])
    for name, label in CLI_RSS:
        cells = []
        for _, rows in by_name:
            kb = {r.get("threads"): r["peak_rss_kb"] for r in rows
                  if r["name"] == name and "peak_rss_kb" in r}
            cells.append(" / ".join(f"{kb[t] / 1024:.0f}" if t in kb else "-" for t in (1, 2, 0)))
        lines.append([f"peak RSS, {label} (MiB, -T 1 / 2 / 0)", "-T 2 ≤ 3× -T 1"] + cells)
    table(out, ["measure", "target"] + [key for key, _ in cli], lines, 2)
    for key, rows in cli:
        first = rows[0] if rows else {}
        met, missed = [], []
        for r in rows:
            if "ratio" in r:
                (met if r["ratio"] <= r["target"] else missed).append(r["name"])
        reading = (f"{len(met)} of {len(met) + len(missed)} time targets met"
                   + (f"; missed: {', '.join(missed)}" if missed else ""))
        if first.get("cpus_allowed") == 1:
            reading += " (run on one CPU: `-T 2` could not gain)"
        out.append(f"- `{key}`: {first.get('cpu', '-')}, commit {first.get('commit', '-')}, "
                   f"{first.get('input_bytes', 0) / 2**20:.0f} MiB, "
                   f"`{first.get('script', 'scripts/cli-throughput.sh')}`: {reading}.")
    out.append("")


def default_row(run, g, codec):
    """The codec's default dispatch on an input in a run: its `auto` row, or
    in a record older than those rows the highest level's (then the
    default), marked by the second value."""
    auto = run.row(g, codec, "auto")
    if auto:
        return auto, False
    rows = run.kernels(g, codec)
    if not rows:
        return None, False
    return max(rows, key=lambda r: LEVELS.index(r["isa"]) if r["isa"] in LEVELS else -1), True


def spread(values):
    """"a-b" of the values present (one value alone), or None."""
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    lo, hi = values[0], values[-1]
    return f"{lo:.2f}" if f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}-{hi:.2f}"


def headline(records):
    """The README's short table: one row per headline ratio, one column per
    record (the range over the inputs named, each the median over runs)."""
    old = [False]

    def per_input(rec, inputs, codec, peer, key="decode_gbs"):
        values = []
        for g in inputs:
            def one(run):
                row, fallback = default_row(run, g, codec)
                old[0] |= fallback
                return ratio(speed(row, key), speed(run.row(g, peer), key) if peer != "memcpy"
                             else (row or {}).get("memcpy_gbs"))
            values.append(rec.med(one))
        return spread(values)

    def total(rec, files, codec, peer, key="decode_gbs", isa=None):
        x = rec.med(lambda run: ratio(total_speed([run.row(g, codec, isa) for g in files], key),
                                      total_speed([run.row(g, peer) for g in files], key)))
        return f"{x:.2f}" if x is not None else None

    def named(codec, names, types):
        return [g for g in groups_with(records, codec, types) if g[0] in names]

    silesia = groups_with(records, "lz4", {"bytes"})
    long_lists = {"census-income", "census-income_srt", "wikileaks-noquotes", "wikileaks-noquotes_srt"}
    postings = {"census-income", "census-income_srt", "wikileaks-noquotes", "wikileaks-noquotes_srt",
                "clueweb09_1k", "clueweb09_1k_positions", "uscensus2000"}
    floats = [g for g in groups_with(records, "byte-split") if g[1] in ("f32", "f64")]
    rows = [
        ("LZ4 decode, one block at a time (adaptive) ÷ liblz4, Silesia", 
         lambda rec: total(rec, silesia, "lz4", "peer:lz4-c", isa="auto")),
        ("LZ4 decode, two blocks at a time ÷ liblz4, Silesia",
         lambda rec: total(rec, silesia, "lz4+pairs", "peer:lz4-c", isa="auto")),
        ("LZ4 compress ÷ liblz4 (`LZ4_compress_default`), Silesia",
         lambda rec: total(rec, silesia, "lz4", "peer:lz4-c", "encode_gbs", isa="auto")),
        ("LZ4 HC level 9 compress ÷ liblz4's, Silesia",
         lambda rec: total(rec, groups_with(records, "lz4-hc", {"bytes"}), "lz4-hc", "peer:lz4-c-hc",
                           "encode_gbs")),
        ("Stream VByte delta decode ÷ the C library, long posting lists",
         lambda rec: per_input(rec, named("stream-vbyte-delta", long_lists, {"u32"}),
                               "stream-vbyte-delta", "peer:streamvbyte-c-delta")),
        ("Stream VByte decode ÷ the C library, long posting lists",
         lambda rec: per_input(rec, named("stream-vbyte", long_lists, {"u32"}),
                               "stream-vbyte", "peer:streamvbyte-c")),
        ("VByte delta decode ÷ MaskedVByte (C), posting lists",
         lambda rec: per_input(rec, named("vbyte-delta", postings, {"u32"}),
                               "vbyte-delta", "peer:maskedvbyte-c-delta")),
        ("Byte stream split decode ÷ memcpy, float columns",
         lambda rec: per_input(rec, floats, "byte-split", "memcpy")),
    ]
    lines = [[label] + [fn(rec) or "-" for rec in records] for label, fn in rows]
    out = []
    table(out, ["decoder ÷ peer (above 1: vecpress is faster)"]
          + [r.cpu.rsplit(", ", 1)[0] if r.cpu.endswith("cores") else r.cpu for r in records],
          lines, 1)
    if old[0]:
        out.append("Where a record predates the default dispatch rows, its highest level's kernel "
                   "stands for the default (as it then was).")
        out.append("")
    return out


# One line per target of what holds it back where a record misses it; the
# lab notes (perf/<record>.md) give the figures and what was tried.
CAUSES = {
    "LZ4 decode one block at a time ÷ liblz4, all Silesia files":
        "liblz4's work (1.03-1.08x its instructions by valgrind) at fewer instructions a cycle",
    "LZ4 decode one block at a time ÷ liblz4, worst Silesia file":
        "as above, most on short matches (ooffice)",
    "Stream VByte delta ÷ the C library, worst long posting list":
        "bound by the instructions issued; the prefix sum is the cost over plain decoding",
    "Stream VByte ÷ the C library, worst long posting list":
        "the census lists run from memory; 2-3 byte values take the C loop's work and more",
    "BP128 unpack ÷ bitpacking's BitPacker4x, worst posting file":
        "lists of a few values are mostly the VByte tail both sides share",
    "BP128 delta unpack ÷ BitPacker4x's sorted, worst posting file":
        "lists of a few values are mostly the VByte tail both sides share",
    "BP128 8-lane unpack ÷ bitpacking's BitPacker8x, worst posting file":
        "the crate's compiled code equals ours on 8-lane blocks",
    "FastLanes unpack ÷ the fastlanes crate, worst posting file":
        "the crate built for the CPU unpacks long lists as fast as our kernel",
    "Blosc frames (shuffle, LZ4) ÷ c-blosc, worst float file":
        "LZ4 takes most of a frame's time, where the decoder is near liblz4",
    "Bit split ÷ memcpy of the same bytes, worst float file":
        "a transposition moves each byte more than once where a copy moves it once",
    "Bit split ÷ the bitshuffle library, worst float file":
        "columns that run from memory, where both near a copy's speed",
    "PFOR delta ÷ BP128 delta, worst posting file":
        "each exception is a read-modify-write, and its block a second pass",
    "AND of 2 and 3 stored lists by one call ÷ the C library's decode then merge, "
    "worst posting file":
        "on lists of a few values the decodes' latency and the call's own work are the query",
    "AND of 2 and 3 hybrid lists, counted ÷ CRoaring's AND counted, worst posting file":
        "short lists: two Stream VByte decodes and a merge a query, against Roaring's "
        "arrays of 16-bit ids read in place",
    "AND of 2 and 3 hybrid lists ÷ CRoaring's AND, worst posting file":
        "each id written out (Roaring's answer stays a bitmap), and gaps and runs decoded "
        "where Roaring reads its containers in place",
    "AND of 2 and 3 hybrid lists kept as hits ÷ CRoaring's AND, worst posting file":
        "short lists: a query's fixed costs (headers, two short decodes) against Roaring's "
        "arrays read in place; lists of runs: decoded and checked before they meet",
    "CRoaring's bytes per posting ÷ hybrid lists', worst posting file":
        "",
    "AND of 2 and 3 hybrid lists with arrays ÷ CRoaring's AND, worst posting file":
        "each id written out (Roaring's answer stays a bitmap), and gaps and runs decoded "
        "where Roaring reads its containers in place",
    "CRoaring's bytes per posting ÷ hybrid lists' with arrays, worst posting file":
        "arrays fill each list's room within its Roaring bytes; files whose long lists "
        "take more than Roaring's as gaps go over in sum",
    "Every list of a file by one call ÷ the C library list after list, worst posting file":
        "long lists: a call's cost is nothing there, the single-list kernel's speed all",
}


def targets(records, perf_dir, out):
    """Per CPU, the project's speed targets: the value its record shows, met or
    missed, and the CPU's notes (`perf/<record>.md`: why a target is missed
    there), when the file exists."""
    silesia = groups_with(records, "lz4", {"bytes"})
    long_lists = {"census-income", "census-income_srt", "wikileaks-noquotes",
                  "wikileaks-noquotes_srt"}

    def default_ratio(rec, g, codec, peer):
        return rec.med(lambda run: ratio(speed(default_row(run, g, codec)[0]),
                                         speed(run.row(g, peer))))

    def lz4_total(rec):
        return rec.med(lambda run: ratio(
            total_speed([default_row(run, g, "lz4")[0] for g in silesia]),
            total_speed([run.row(g, "peer:lz4-c") for g in silesia])))

    def worst(rec, groups, codec, peer, with_type=False):
        pairs = [(default_ratio(rec, g, codec, peer), group_name(g, with_type)) for g in groups]
        pairs = [p for p in pairs if p[0] is not None]
        return min(pairs) if pairs else None

    def lists(codec):
        return [g for g in groups_with(records, codec, {"u32"}) if g[0] in long_lists]

    def floats(codec):
        return groups_with(records, codec, {"f32", "f64"})

    def postings(codec):
        return [g for g in groups_with(records, codec, {"u32"})
                if not g[0].startswith(("uniform-", "cluster-"))]

    def worst_over_memcpy(rec, codec):
        pairs = [(rec.med(lambda run, g=g: default_row(run, g, codec)[0].get("memcpy_ratio")
                          if default_row(run, g, codec)[0] else None), group_name(g, True))
                 for g in floats(codec)]
        pairs = [p for p in pairs if p[0] is not None]
        return min(pairs) if pairs else None

    def queries(rec):
        """The tables of `vecpress bench --queries` in perf/queries-<record>.md:
        per file, its rows by name, each a list of cells."""
        path = os.path.join(perf_dir, f"queries-{rec.key}.md")
        if not os.path.exists(path):
            return {}
        files, name = {}, None
        for line in open(path, encoding="utf-8"):
            if ".docs:" in line and line.split(":")[0].endswith(".docs"):
                name = line.split(":")[0][: -len(".docs")]
                files[name] = {}
            elif name and line.startswith("| "):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                files[name].setdefault(cells[0], cells[1:])
        return files

    def query_worst(rec, row, columns):
        """The lowest ratio (`1.23x` cells) of `row` in `columns` over the files."""
        pairs = []
        for name, rows in queries(rec).items():
            cells = rows.get(row)
            if cells:
                for c in columns:
                    if c < len(cells) and cells[c].endswith("x"):
                        pairs.append((float(cells[c][:-1]), name))
        return min(pairs) if pairs else None

    def bytes_worst(rec, peer, own):
        """The lowest ratio of `peer`'s bytes per posting to `own`'s over the
        files (the last cell of each row)."""
        pairs = []
        for name, rows in queries(rec).items():
            p, o = rows.get(peer), rows.get(own)
            if p and o:
                try:
                    pairs.append((float(p[-1]) / float(o[-1]), name))
                except (ValueError, ZeroDivisionError):
                    pass
        return min(pairs) if pairs else None

    goals = [
        ("LZ4 decode one block at a time ÷ liblz4, all Silesia files", 1.2,
         lambda rec: (lz4_total(rec), None)),
        ("LZ4 decode one block at a time ÷ liblz4, worst Silesia file", 1.0,
         lambda rec: worst(rec, silesia, "lz4", "peer:lz4-c")),
        ("Stream VByte delta ÷ the C library, worst long posting list", 1.5,
         lambda rec: worst(rec, lists("stream-vbyte-delta"), "stream-vbyte-delta",
                           "peer:streamvbyte-c-delta")),
        ("Stream VByte ÷ the C library, worst long posting list", 1.2,
         lambda rec: worst(rec, lists("stream-vbyte"), "stream-vbyte", "peer:streamvbyte-c")),
        ("BP128 unpack ÷ bitpacking's BitPacker4x, worst posting file", 1.2,
         lambda rec: worst(rec, postings("bp128"), "bp128", "peer:bitpacking-4x")),
        ("BP128 delta unpack ÷ BitPacker4x's sorted, worst posting file", 1.2,
         lambda rec: worst(rec, postings("bp128-delta"), "bp128-delta",
                           "peer:bitpacking-4x-delta")),
        ("BP128 8-lane unpack ÷ bitpacking's BitPacker8x, worst posting file", 1.2,
         lambda rec: worst(rec, postings("bp128-8x"), "bp128-8x", "peer:bitpacking-8x")),
        ("FastLanes unpack ÷ the fastlanes crate, worst posting file", 1.0,
         lambda rec: worst(rec, postings("fastlanes"), "fastlanes", "peer:fastlanes")),
        ("Blosc frames (shuffle, LZ4) ÷ c-blosc, worst float file", 1.2,
         lambda rec: worst(rec, floats("blosc-lz4"), "blosc-lz4", "peer:c-blosc", True)),
        ("Bit split ÷ memcpy of the same bytes, worst float file", 0.8,
         lambda rec: worst_over_memcpy(rec, "bit-split")),
        ("Bit split ÷ the bitshuffle library, worst float file", 1.5,
         lambda rec: worst(rec, floats("bit-split"), "bit-split", "peer:bitshuffle", True)),
        ("PFOR delta ÷ BP128 delta, worst posting file", 0.7,
         lambda rec: worst(rec, postings("pfor-delta"), "pfor-delta", "bp128-delta")),
        ("AND of 2 and 3 stored lists by one call ÷ the C library's decode then merge, "
         "worst posting file", 2.0,
         lambda rec: query_worst(rec, "stream-vbyte-delta, one call ÷ peer:streamvbyte-c "
                                 "decode+merge", [0, 1])),
        ("AND of 2 and 3 hybrid lists, counted ÷ CRoaring's AND counted, worst posting file",
         1.0, lambda rec: query_worst(rec, "hybrid, AND counted ÷ peer:croaring, counted",
                                      [0, 1])),
        ("AND of 2 and 3 hybrid lists ÷ CRoaring's AND, worst posting file", 1.0,
         lambda rec: query_worst(rec, "hybrid ÷ peer:croaring", [0, 1])),
        ("AND of 2 and 3 hybrid lists kept as hits ÷ CRoaring's AND, worst posting file", 1.0,
         lambda rec: query_worst(rec, "hybrid, as hits ÷ peer:croaring", [0, 1])),
        ("CRoaring's bytes per posting ÷ hybrid lists', worst posting file", 1.0,
         lambda rec: bytes_worst(rec, "peer:croaring", "hybrid")),
        ("AND of 2 and 3 hybrid lists with arrays ÷ CRoaring's AND, worst posting file", 1.0,
         lambda rec: query_worst(rec, "hybrid, arrays ÷ peer:croaring", [0, 1])),
        ("CRoaring's bytes per posting ÷ hybrid lists' with arrays, worst posting file", 1.0,
         lambda rec: bytes_worst(rec, "peer:croaring", "hybrid, arrays")),
        ("Every list of a file by one call ÷ the C library list after list, worst posting file",
         1.5, lambda rec: query_worst(rec, "one call ÷ peer:streamvbyte-c, list after list", [0])),
    ]
    out += ["## Targets", "",
            "The speed the project aims at on every CPU, the default dispatch's ratio in each "
            "record, and whether it is met; where one is missed, the last column says in a line "
            "what holds it back, and each CPU's lab notes (linked below the table) by how much "
            "and what was tried.", ""]
    lines = []
    for label, goal, fn in goals:
        cells = []
        for rec in records:
            got = fn(rec)
            if not got or got[0] is None:
                cells.append("-")
                continue
            value, where = got
            mark = "met" if value >= goal else "missed"
            cells.append(f"{value:.2f} {mark}" + (f" ({where})" if where else ""))
        missed = any(c.split(" ")[1:2] == ["missed"] for c in cells)
        lines.append([label, f"≥ {goal:.1f}"] + cells + [CAUSES.get(label, "") if missed else ""])
    table(out, ["target", "goal"] + [r.key for r in records] + ["why, where missed"], lines, 2,
          text_last=True)
    if any(c == "-" for line in lines for c in line[2:]):
        out += ["A dash: the record has no row to tell, such as a peer that it measured below its "
                "best build (the fastlanes, varint-simd, streamvbyte64 and lz4_flex crates before the bench "
                "compiled them for the CPU); the CPU's next record fills it.", ""]
    notes = [f"[{rec.key}](../perf/{rec.key}.md)" for rec in records
             if os.path.exists(os.path.join(perf_dir, rec.key + ".md"))]
    if notes:
        out += ["Lab notes, per CPU (what each figure rests on, what was tried and dropped): "
                + ", ".join(notes) + ".", ""]


def end_to_end(perf_dir, out):
    """The tables of python/bench/e2e.py, one file a CPU (perf/e2e-*.md,
    written by its --out), as they are, each followed by its CPU's notes on
    the targets it misses (perf/e2e-<cpu>.notes.md)."""
    paths = sorted(p for p in glob.glob(os.path.join(perf_dir, "e2e-*.md")) if not p.endswith(".notes.md"))
    if not paths:
        return
    out += ["## End to end: zarr, HDF5 and Dask reads", "",
            "Whole reads and writes as users run them, against what they run today on the same "
            "stored bytes, from `python python/bench/e2e.py --out perf/e2e-<cpu>.md` (its docstring "
            "says how each row is timed). Each ratio is the median over alternated rounds of the "
            "baseline's time over the row's in the same round, with its range. A table cuts one "
            "chunk's time at one thread into its parts, and the last says which targets are met.", ""]
    for path in paths:
        key = os.path.splitext(os.path.basename(path))[0][len("e2e-"):]
        with open(path, encoding="utf-8") as f:
            text = f.read().strip()
        out += [f"### {key}", "", text, ""]
        # Where the time goes where a target is missed: the lab notes.
        notes = path[: -len(".md")] + ".notes.md"
        if os.path.exists(notes):
            out += [f"Where the time goes, and why a target is missed: "
                    f"[perf/{os.path.basename(notes)}](../perf/{os.path.basename(notes)}).", ""]


def tables_per_cpu(perf_dir, out, prefix, heading, intro):
    """A section of tables written by a tool, one file a CPU
    (perf/<prefix>-<cpu>.md), as they are, under `heading` and `intro`."""
    paths = sorted(glob.glob(os.path.join(perf_dir, f"{prefix}-*.md")))
    if not paths:
        return
    out += [f"## {heading}", "", intro, ""]
    for path in paths:
        key = os.path.splitext(os.path.basename(path))[0][len(prefix) + 1:]
        with open(path, encoding="utf-8") as f:
            out += [f"### {key}", "", f.read().strip(), ""]


def per_block_choice(perf_dir, out):
    """The tables of scripts/choice-bench.py (perf/choice-*.md, written by its --out)."""
    tables_per_cpu(perf_dir, out, "choice", "Per-block codec choice",
                   "`vecpress compress` without `--codec` chooses each block's codec (docs/FORMAT.md, "
                   "version 2). Each row compresses one file every way `compress` chooses among, from "
                   "`python3 scripts/choice-bench.py --before BIN --out perf/choice-<cpu>.md` (its "
                   "docstring says how each figure is taken). Targets: the automatic file no larger "
                   "than 1.01x the smallest single-codec file on every row, at least 5% smaller than it "
                   "on the joined f64 file; compression no more than 10% slower than a build that chose "
                   "once (\"auto ÷ before\" at least 0.90) where one codec wins throughout; decoding "
                   "no slower than the smallest single codec's file. zstd -3 shows how far a "
                   "general-purpose entropy coder still is.")


def from_python(perf_dir, out):
    """The tables of the Python benchmarks: python/bench/peers.py
    (perf/python-peers.md) and python/bench/blosc.py (perf/python-blosc-<cpu>.md),
    as they are, and a link to their lab notes (perf/python-notes.md)."""
    peers = os.path.join(perf_dir, "python-peers.md")
    blosc = sorted(glob.glob(os.path.join(perf_dir, "python-blosc-*.md")))
    if not os.path.exists(peers) and not blosc:
        return
    out += ["## From Python", "",
            "The package's codecs against their Python peers on the same arrays, and the Blosc "
            "frames and bitshuffle-LZ4 chunks that `register_standard()` and `vecpress.bit_split` "
            "serve against the C libraries that write those formats (docs/BENCH.md, \"Python\", "
            "says how each is run). Where a target is missed, and why: "
            "[perf/python-notes.md](../perf/python-notes.md).", ""]
    if os.path.exists(peers):
        with open(peers, encoding="utf-8") as f:
            out += ["### peers.py", "", f.read().strip(), ""]
    for path in blosc:
        key = os.path.splitext(os.path.basename(path))[0][len("python-blosc-"):]
        with open(path, encoding="utf-8") as f:
            out += [f"### blosc.py: {key}", "", f.read().strip(), ""]


def posting_queries(perf_dir, out):
    """The tables of `vecpress bench --queries` (perf/queries-*.md, its output as it is)."""
    tables_per_cpu(perf_dir, out, "queries", "Queries on posting lists",
                   "AND and OR queries of 2 and 3 posting lists answered from the compressed lists "
                   "(`vecpress::postings` over cursors, by one call on stored Stream VByte lists, "
                   "and on hybrid lists), from `vecpress bench --queries > "
                   "perf/queries-<cpu>.md` (docs/BENCH.md, \"Queries\", says how queries are drawn and "
                   "timed). Targets: AND of 2 and 3 lists at least 2x the peer that decodes with the C "
                   "Stream VByte library and then intersects, and at least 1.0x CRoaring's AND (hybrid "
                   "lists: their ids against Roaring's bitmap, their count against Roaring's count), at "
                   "no more bytes per posting than CRoaring; and the lists decoded by one call of "
                   "`stream_vbyte::decode_delta_lists` (each file's second table) at least 1.5x the C "
                   "library decoding them one after another. Each ratio row is a median time over "
                   "another's in the same run; above 1, vecpress is the faster.")


def replace_block(path, block):
    """Replaces the lines between `<!-- headline:start -->` and
    `<!-- headline:end -->` of the file at `path` with `block`."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start, end = "<!-- headline:start -->", "<!-- headline:end -->"
    if start not in text or end not in text:
        print(f"perf-doc: {path} has no {start} ... {end} block", file=sys.stderr)
        sys.exit(1)
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    new = head + start + "\n" + "\n".join(block).rstrip() + "\n" + end + tail
    if new != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)


def main():
    ap = argparse.ArgumentParser(description="Write docs/BENCHMARKS.md from perf/*.jsonl.")
    ap.add_argument("--perf", metavar="DIR", default=os.path.join(repo_root(), "perf"),
                    help="the records (default: perf/)")
    ap.add_argument("--out", metavar="FILE",
                    default=os.path.join(repo_root(), "docs", "BENCHMARKS.md"),
                    help="default: docs/BENCHMARKS.md")
    ap.add_argument("--readme", metavar="FILE", default=os.path.join(repo_root(), "README.md"),
                    help="the file whose headline block is rewritten (default: README.md)")
    args = ap.parse_args()

    every = sorted(glob.glob(os.path.join(args.perf, "*.jsonl")))
    paths = [p for p in every if not perflib.is_cli_record(p)]
    cli_paths = [p for p in every if perflib.is_cli_record(p)]
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
        "Each column is one CPU's record. Every ratio is between two rows of ONE "
        "`vecpress bench` run: every decoder's timed passes are interleaved with a memcpy of the "
        "same bytes, so these ratios hold on a shared machine where absolute speeds move by "
        "5-10% from run to run. No ratio divides a speed from one run by one from another. "
        "A record holds one or more runs (the `runs` column below; three by default), since "
        "now and then one row of a run is 20-50% off on a shared machine: each cell is the "
        "median over the record's runs of a ratio measured within one run. "
        "Above 1, the first decoder named is the faster. Speeds are decoding speeds in GB/s of "
        "decoded bytes unless a table says encoding.",
        "",
        "`auto` is the default dispatch, what the library runs unless told otherwise; a kernel "
        "is one fixed instruction-set level (`scalar`, `sse41`, `avx2`, `avx512`, `neon`), and "
        "the best kernel is the fastest of them on that input: the one whose speed over the "
        "fastest kernel's of the same run has the highest median over the runs. `auto ÷ best "
        "kernel` is the median over the runs of auto over the fastest kernel of that run. "
        "`-` means the record has no such "
        "row: a record made before the row existed, a peer not built into the binary, or a CPU "
        "without that level.",
        "",
        "To re-record on a machine (the record is named after its CPU, `perf/<vendor>-<family>-<model>.jsonl`):",
        "",
        "```sh",
        "scripts/perf-record.sh fresh.jsonl   # builds the CLI, runs every suite 3 times (--runs N)",
        "scripts/perf-compare.py fresh.jsonl  # same-run ratios that moved, against perf/<cpu>.jsonl",
        "mv fresh.jsonl perf/<cpu>.jsonl",
        "scripts/perf-doc.py                  # rewrites this file",
        "```",
        "",
        "## Machines",
        "",
    ]
    table(out, ["record", "CPU", "commit", "runs", "rows"],
          [[r.key, r.cpu, r.commit, str(len(r.runs)), str(r.rows)] for r in records], 3)
    end_to_end(args.perf, out)
    from_python(args.perf, out)
    per_block_choice(args.perf, out)
    posting_queries(args.perf, out)
    targets(records, args.perf, out)
    dispatch_summary(records, out)
    lz4_decode(records, out)
    lz4_compress(records, out)
    stream_vbyte(records, out)
    integer_codecs(records, out)
    byte_split(records, out)
    try:
        cli = [(os.path.splitext(os.path.basename(p))[0][len("cli-"):], perflib.read_cli_record(p))
               for p in cli_paths]
    except (OSError, ValueError) as e:
        print(f"perf-doc: {e}", file=sys.stderr)
        sys.exit(1)
    command_throughput(cli, out)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(out).rstrip() + "\n")
    replace_block(args.readme, headline(records))
    print(f"perf-doc: {args.out} and the headline of {args.readme} from {len(records)} record(s)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
