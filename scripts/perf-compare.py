#!/usr/bin/env python3
"""Compares a fresh `scripts/perf-record.sh` run with this CPU's record.

Absolute speeds on a shared machine move by 5-10% from run to run, so only
ratios between rows of ONE run are compared (the bench interleaves each
decoder's samples with a memcpy of the same bytes). A file holds one or more
runs (rows tagged "run": 1, 2, ...; rows without the tag are run 1): each ratio
is computed within each run, and the file's value is its median over the runs,
since now and then one row of a run is 20-50% off. Within each (input, type)
of each run:

  - every vecpress row against memcpy (its decoding speed over memcpy's);
  - every vecpress row against the peers the bench ran beside its codec;
  - every pair of vecpress rows of one codec (LZ4's fixed loops `lz4:copy32`
    and `lz4+pairs` count with `lz4`), e.g. stream-vbyte/avx2 ÷ stream-vbyte/sse41;
  - compressors against their peers (encoding speed), where peers have one.

A ratio that fell by more than the threshold is printed, worst first; a
summary follows. The exit status is 0 whatever changed (this is a report),
2 when a file cannot be read.

    scripts/perf-compare.py FRESH.jsonl [RECORD.jsonl] [--threshold 5] [--all]

RECORD defaults to perf/<cpu key>.jsonl, the name perf-record.sh gives it.

The records are read by perflib.py, which perf-doc.py and perf-tune.py share.
"""
import argparse
import os
import sys

from perflib import median, read_record

# Kernel order inside a codec: the default dispatch first, then the widest.
ISA_ORDER = ["auto", "avx512", "avx2", "sse41", "neon", "scalar"]


def cpuinfo():
    """The first value of each /proc/cpuinfo field."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                name, sep, value = line.partition(":")
                if sep:
                    fields.setdefault(name.strip(), value.strip())
    except OSError:
        pass
    return fields


def cpu_key():
    """vendor-family-model as perf-record.sh names the record (arm-implementer-part on aarch64)."""
    info = cpuinfo()
    vendor = info.get("vendor_id")
    if vendor:
        short = {"GenuineIntel": "intel", "AuthenticAMD": "amd"}.get(vendor, vendor.lower())
        return f"{short}-{info.get('cpu family', '')}-{info.get('model', '')}"
    return f"arm-{info.get('CPU implementer', 'unknown')}-{info.get('CPU part', 'unknown')}"


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path):
    """A record read by read_record(); exits with status 2 when it cannot be read."""
    try:
        rec = read_record(path)
    except (OSError, UnicodeDecodeError) as e:
        print(f"perf-compare: cannot read {path}: {e}", file=sys.stderr)
        sys.exit(2)
    if rec.bad:
        print(f"perf-compare: {path}: {rec.bad} lines are not JSON rows; skipped", file=sys.stderr)
    return rec


def median_ratios(rec, group):
    """Every ratio of one (input, type): name -> its median over the runs that have it."""
    per_run = {}
    for groups in rec.runs.values():
        if group in groups:
            for name, x in ratios(groups[group]).items():
                per_run.setdefault(name, []).append(x)
    return {name: median(xs) for name, xs in per_run.items()}


def runs_text(rec):
    n = len(rec.runs)
    return f"{n} run" + ("" if n == 1 else "s")


def is_peer(r):
    return r["codec"].startswith("peer:")


def family(codec):
    """The codec a row belongs to: LZ4's fixed loops and pair decoder count with lz4."""
    return codec.split(":")[0].split("+")[0]


def label(r):
    return r["codec"] if is_peer(r) else f"{r['codec']}/{r['isa']}"


def order(r):
    """Sort key of a codec's rows: the plain codec before its variants, then by kernel."""
    codec = r["codec"]
    variant = 0 if codec == family(codec) else 1 if "+" in codec else 2
    isa = ISA_ORDER.index(r["isa"]) if r["isa"] in ISA_ORDER else len(ISA_ORDER)
    return (variant, isa, codec, r["isa"])


def decode_ratio(a, b):
    """a's decoding speed over b's, in GB/s where both have it, else in values/s."""
    for key in ("decode_gbs", "decode_mis"):
        x, y = a.get(key), b.get(key)
        if x and y:
            return x / y
    return None


def peers_by_family(rows):
    """The peers of each codec family. The bench prints a codec's peers right
    after its own rows, so a peer belongs to the family of the row before it."""
    peers = {}
    current = None
    for r in rows:
        if is_peer(r):
            peers.setdefault(current, []).append(r)
        else:
            current = family(r["codec"])
    return peers


def ratios(rows):
    """Every same-run ratio of one (input, type): name -> value."""
    out = {}
    own = [r for r in rows if not is_peer(r)]
    peers = peers_by_family(rows)
    families = {}
    for r in own:
        families.setdefault(family(r["codec"]), []).append(r)

    for r in own:
        m = r.get("memcpy_ratio")
        if m is None and r.get("decode_gbs") and r.get("memcpy_gbs"):
            m = r["decode_gbs"] / r["memcpy_gbs"]
        if m:
            out[f"{label(r)} ÷ memcpy"] = m

    for fam, members in families.items():
        # Peers printed before any vecpress row cannot be placed: compare them with every row.
        fam_peers = peers.get(fam, []) + peers.get(None, [])
        for r in members:
            for p in fam_peers:
                x = decode_ratio(r, p)
                if x:
                    out[f"{label(r)} ÷ {label(p)}"] = x
        members = sorted(members, key=order)
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                x = decode_ratio(a, b)
                if x:
                    out[f"{label(a)} ÷ {label(b)}"] = x

        # Compressors: a family's rows share one encoder when they share its
        # speed (LZ4's loops); otherwise each kernel encodes on its own.
        enc_peers = [p for p in fam_peers if p.get("encode_gbs")]
        enc = [r for r in members if r.get("encode_gbs")]
        if not enc_peers or not enc:
            continue
        if len({r["encode_gbs"] for r in enc}) == 1:
            encoders = [(f"{fam} encode", enc[0])]
        else:
            encoders = [(f"{label(r)} encode", r) for r in enc]
        for name, r in encoders:
            for p in enc_peers:
                # lz4-hc's peer at a level is no match for the fast compressor.
                if r.get("level") != p.get("level"):
                    continue
                out[f"{name} ÷ {p['codec']} encode"] = r["encode_gbs"] / p["encode_gbs"]
    return out


def table(lines, header):
    """Prints rows of cells, text left-aligned and numbers right-aligned."""
    lines = [header] + lines
    widths = [max(len(l[i]) for l in lines) for i in range(len(header))]
    right = [True, False, False, True, True]
    for l in lines:
        cells = [c.rjust(w) if r else c.ljust(w) for c, w, r in zip(l, widths, right)]
        print("  ".join(cells).rstrip())


def main():
    ap = argparse.ArgumentParser(
        description="Compare same-run ratios of a fresh perf record with this CPU's record.")
    ap.add_argument("fresh", metavar="FRESH.jsonl")
    ap.add_argument("record", metavar="RECORD.jsonl", nargs="?",
                    help="default: perf/<cpu key>.jsonl")
    ap.add_argument("--threshold", type=float, default=5.0, metavar="PERCENT",
                    help="report ratios that moved by more than this (default 5)")
    ap.add_argument("--all", action="store_true", help="print every compared ratio")
    args = ap.parse_args()

    record = args.record or os.path.join(repo_root(), "perf", f"{cpu_key()}.jsonl")
    if not os.path.exists(record):
        print(f"perf-compare: no record {record}", file=sys.stderr)
        sys.exit(2)
    if not args.record and os.path.exists(args.fresh) and os.path.samefile(args.fresh, record):
        print(f"perf-compare: {args.fresh} is the record itself; compare with the committed one:\n"
              f"    scripts/perf-compare.py {args.fresh} <(git show HEAD:perf/{os.path.basename(record)})",
              file=sys.stderr)
    fresh_rec = load(args.fresh)
    old_rec = load(record)
    for name, path, rec in (("fresh: ", args.fresh, fresh_rec), ("record:", record, old_rec)):
        print(f"{name} {path} ({runs_text(rec)}; {', '.join(sorted(rec.commits))}; "
              f"{'; '.join(sorted(rec.cpus))})")
    if set(fresh_rec.cpus) != set(old_rec.cpus):
        print("warning: the files name different CPUs; ratios may differ for that alone")
    fresh = set(fresh_rec.groups())
    old = set(old_rec.groups())

    changes = []
    only_fresh = only_old = 0
    for group in sorted(fresh & old):
        a = median_ratios(fresh_rec, group)
        b = median_ratios(old_rec, group)
        only_fresh += len(a.keys() - b.keys())
        only_old += len(b.keys() - a.keys())
        for name in a.keys() & b.keys():
            changes.append((a[name] / b[name] - 1, f"{group[0]} ({group[1]})", name, b[name], a[name]))
    changes.sort()

    t = args.threshold / 100
    fell = [c for c in changes if c[0] < -t]
    rose = [c for c in changes if c[0] > t]
    shown = changes if args.all else fell
    print()
    if shown:
        table([[f"{c:+.1%}", group, name, f"{old:.3f}", f"{new:.3f}"]
               for c, group, name, old, new in shown],
              ["change", "input (type)", "ratio", "record", "fresh"])
        print()
    print(f"{len(changes)} ratios compared (medians over {runs_text(fresh_rec)} fresh and "
          f"{runs_text(old_rec)} in the record): {len(fell)} fell and {len(rose)} rose by more than "
          f"{args.threshold:g}%", end="")
    if only_fresh or only_old:
        print(f"; {only_fresh} only in the fresh run, {only_old} only in the record", end="")
    print()
    inputs_fresh = len(fresh - old)
    inputs_old = len(old - fresh)
    if inputs_fresh or inputs_old:
        print(f"inputs not compared: {inputs_fresh} only in the fresh run, {inputs_old} only in the record")


if __name__ == "__main__":
    main()
