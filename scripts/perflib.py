"""Reading the performance records (perf/*.jsonl, made by
scripts/perf-record.sh), shared by perf-compare.py, perf-doc.py and
perf-tune.py."""
import json
import os
import statistics
from collections import Counter


class Runs:
    """A record read by read_record():

    runs     {run: {(input, type): [rows in file order]}}, runs in ascending order
    cpus     Counter of the rows' "cpu"
    commits  set of the rows' "commit"
    rows     measured rows read (every run)
    bad      lines that are not a JSON object, or whose "run" is not a whole number
    handicapped  rows left out as measured on a peer's build below its best
    """

    def __init__(self):
        self.runs = {}
        self.handicapped = 0
        self.cpus = Counter()
        self.commits = set()
        self.rows = 0
        self.bad = 0

    def groups(self):
        """Every (input, type) of any run, in first-seen order (run by run)."""
        return list(dict.fromkeys(g for groups in self.runs.values() for g in groups))


# Peers that run at their best only when compiled for the CPU: a row of
# theirs whose note does not say so was measured on a build for baseline
# x86-64 (records made before the bench built them natively), and a ratio
# to it would flatter vecpress.
NATIVE_PEERS = ("peer:fastlanes", "peer:varint-simd", "peer:streamvbyte64", "peer:lz4_flex")


def handicapped(row):
    """Whether a row is a native-only peer's, measured on another build."""
    codec = row.get("codec") or ""
    base = codec[:-len("-delta")] if codec.endswith("-delta") else codec
    return base in NATIVE_PEERS and "target-cpu=native" not in (row.get("note") or "")


def read_record(path):
    """Reads a record made by perf-record.sh. A row is keyed by (run, input,
    type, codec, isa, level); rows without "run" (records of one run, made
    before perf-record.sh had --runs) count as run 1. A row measured twice
    (files run together) counts once, the later one. Absent peers, failed
    decoders, lines without an input and peers measured on a build below
    their best (handicapped(), counted in .handicapped) are left out. Raises
    OSError or UnicodeDecodeError when the file cannot be read."""
    rec = Runs()
    runs = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                rec.bad += 1
                continue
            if not isinstance(r, dict):
                rec.bad += 1
                continue
            if "absent" in r or "error" in r or "input" not in r:
                continue
            if handicapped(r):
                rec.handicapped += 1
                continue
            run = r.get("run", 1)
            if isinstance(run, bool) or not isinstance(run, int):
                rec.bad += 1
                continue
            rec.rows += 1
            rec.cpus[r.get("cpu", "-")] += 1
            rec.commits.add(r.get("commit", "-"))
            group = runs.setdefault(run, {}).setdefault((r["input"], r.get("type", "-")), {})
            key = (r.get("codec"), r.get("isa"), r.get("level"))
            # Measured twice: the later row counts, in its own place in the file.
            group.pop(key, None)
            group[key] = r
    for run in sorted(runs):
        rec.runs[run] = {g: list(rows.values()) for g, rows in runs[run].items()}
    return rec


def median(values):
    """The median of the values that are not None, or None when there are none."""
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def is_cli_record(path):
    """Whether a file of perf/ holds whole-command timings (cli-*.jsonl, made
    by scripts/cli-throughput.sh) rather than `vecpress bench` rows."""
    return os.path.basename(path).startswith("cli-")


def read_cli_record(path):
    """The rows of a record made by cli-throughput.sh: JSON objects with a
    "name" (lines that are not are left out). Raises OSError or
    UnicodeDecodeError when the file cannot be read."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(r, dict) and isinstance(r.get("name"), str):
                rows.append(r)
    return rows
