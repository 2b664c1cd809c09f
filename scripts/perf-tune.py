#!/usr/bin/env python3
"""Reads the performance records (perf/*.jsonl) and prints, per CPU and codec,
the decoding kernel with the best geometric mean of its speed over the
fastest kernel's, input by input (and its worst input), then the choices of
a CPU with no record: per codec, the kernel whose worst geometric mean over
the recorded CPUs is the highest. These are the fields of the `PROFILES` and
`SAFE` tables in crates/vecpress/src/tune.rs (a profile names the fields
where it differs from `SAFE`).

    scripts/perf-tune.py [--perf DIR] [RECORD.jsonl ...]

Only ratios within one run are used: kernels are compared on the same input
of the same run of the same record. A record holds one or more runs (rows
without "run" are run 1): per input, each kernel's speed over the fastest
kernel's of the same run, then its median over the runs, then the geometric
mean over the inputs.
"""
import argparse
import collections
import glob
import math
import os
import sys

import perflib

# The ops of `Op::ALL` in tune.rs whose level a record's rows rank (a bench
# codec of that name, at every level), in that order. The others (encoders,
# seek, u64, short lists, merges, Blosc, bp128's 8 lanes) keep SAFE's choice
# until a bench row measures them per level.
OPS = [
    "vbyte", "vbyte-delta", "varint-gb", "varint-gb-delta", "varint-g8iu",
    "varint-g8iu-delta", "stream-vbyte", "stream-vbyte-delta", "stream-vbyte-0124",
    "stream-vbyte-0124-delta", "byte-split", "byte-split-lz4", "bp128", "bp128-delta",
    "fastlanes", "fastlanes-delta", "fastlanes-for", "bit-split",
]
RUST = {"scalar": "Sc", "sse41": "Sse41", "avx2": "Avx2", "avx512": "Avx512"}
LEVELS = ["scalar", "sse41", "avx2", "avx512"]


def runs_as(kernels, want):
    """The geometric mean of the kernel a CPU runs when `want` is chosen: `want`
    where its record has it, else (for an ISA level) the highest recorded level
    below it, as tune.rs's `available_at_most` falls back."""
    if want in kernels:
        return kernels[want][0]
    below = LEVELS[: LEVELS.index(want)] if want in LEVELS else []
    return next((kernels[l][0] for l in reversed(below) if l in kernels), None)


def load(path):
    """{(codec, input, type, level): {run: {kernel: decode GB/s}}} of one record."""
    rec = perflib.read_record(path)
    if rec.bad:
        print(f"perf-tune: {path}: {rec.bad} lines are not JSON rows; skipped", file=sys.stderr)
    speeds = collections.defaultdict(lambda: collections.defaultdict(dict))
    for run, groups in rec.runs.items():
        for (input, type_), rows in groups.items():
            for r in rows:
                if not r.get("decode_gbs"):
                    continue
                codec, isa = r["codec"], r["isa"]
                if codec.startswith("peer:") or isa == "auto":
                    continue
                if codec.startswith("lz4:"):
                    codec, isa = "lz4", codec.split(":", 1)[1]
                    if isa == "checked":
                        continue
                speeds[(codec, input, type_, r.get("level"))][run][isa] = r["decode_gbs"]
    return speeds


def summarize(speeds):
    """{codec: {kernel: (geometric mean over inputs, worst input's ratio)}}, where
    an input's ratio is the median over the runs of the kernel's speed over the
    fastest kernel's of that run."""
    logs = collections.defaultdict(lambda: collections.defaultdict(list))
    for (codec, _, _, _), runs in speeds.items():
        shares = collections.defaultdict(list)
        for ks in runs.values():
            if len(ks) < 2:
                continue
            best = max(ks.values())
            for k, v in ks.items():
                shares[k].append(v / best)
        for k, v in shares.items():
            logs[codec][k].append(perflib.median(v))
    out = {}
    for codec, ks in logs.items():
        n = max(len(v) for v in ks.values())
        out[codec] = {
            k: (math.exp(sum(map(math.log, v)) / len(v)), min(v))
            for k, v in ks.items()
            if len(v) == n
        }
    return out


def print_fields(levels):
    """The levels of `OPS` as tune.rs's `Profile` fields."""
    for op, k in zip(OPS, levels):
        print(f"  {op.replace('-', '_')}: {RUST.get(k, '?') if k else '?'},")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="*")
    ap.add_argument("--perf", default="perf")
    args = ap.parse_args()
    paths = args.records or [p for p in sorted(glob.glob(os.path.join(args.perf, "*.jsonl")))
                             if not perflib.is_cli_record(p)]
    if not paths:
        raise SystemExit(f"perf-tune: no records in {args.perf}/")
    per_cpu = {os.path.basename(p)[: -len(".jsonl")]: summarize(load(p)) for p in paths}
    for cpu, codecs in per_cpu.items():
        print(f"== {cpu}")
        row = []
        for op in OPS + ["lz4"]:
            ks = codecs.get(op)
            if not ks:
                print(f"  {op:<25} (not in the record)")
                row.append(None)
                continue
            ranked = sorted(ks.items(), key=lambda kv: -kv[1][0])
            cells = ", ".join(f"{k} {g:.3f} (worst {w:.2f})" for k, (g, w) in ranked)
            print(f"  {op:<25} {cells}")
            row.append(ranked[0][0])
        print_fields(row[:-1])
        if codecs.get("lz4"):
            order = sorted(codecs["lz4"], key=lambda k: -codecs["lz4"][k][0])
            print("  lz4: [" + ", ".join(k.capitalize() for k in order) + "]")
    print("== safe (the highest worst geometric mean over the recorded CPUs)")
    safe = []
    for op in OPS + ["lz4"]:
        recorded = [c[op] for c in per_cpu.values() if c.get(op)]
        if not recorded:
            print(f"  {op:<25} (no record has it)")
            safe.append(None)
            continue
        if op == "lz4":
            # Every loop runs on every x86 CPU: only the loops all records have.
            kernels = set.intersection(*(set(ks) for ks in recorded))
        else:
            # A level a CPU lacks runs there as the highest level below it
            # (tune.rs's `available_at_most`), so it is judged by that kernel.
            kernels = set().union(*(set(ks) for ks in recorded)) & set(LEVELS)
        worst = {
            k: min(g for g in (runs_as(ks, k) for ks in recorded) if g is not None)
            for k in kernels
        }
        ranked = sorted(worst.items(), key=lambda kv: -kv[1])
        print(f"  {op:<25} " + ", ".join(f"{k} {w:.3f}" for k, w in ranked))
        safe.append(ranked[0][0] if op != "lz4" else [k for k, _ in ranked])
    print_fields(safe[:-1])
    if safe[-1]:
        print("  lz4: [" + ", ".join(k.capitalize() for k in safe[-1]) + "]")


if __name__ == "__main__":
    main()
