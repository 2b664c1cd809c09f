#!/usr/bin/env python3
"""Measures `vecpress compress` choosing its codec for each block (no
--codec) against every single codec it chooses among, and against zstd -3,
on the files the per-block choice is judged by: the .f64 files of floats/
joined into one file, the .f32 files likewise, each Silesia file, and a few
files of one kind throughout (posting lists, 64-bit integers), where a
single codec wins on every block.

For each file it reports the size of every single-codec file (`--codec C`,
the codecs `compress` tries: all that fit but store and lz4-hc), of the
automatic file, the automatic file over the smallest single-codec one, and
zstd -3's. Speeds are medians over REPS runs of whole commands, each pair
of commands run alternately, as ratios within the run:

  compress, auto ÷ before   `compress` without --codec against the same command
                            of the build given by --before (a build that chose
                            once, on the first block), > 1: faster now
  decode, auto ÷ single     `decompress -c` of the automatic file against that
                            of the smallest single-codec file, > 1: faster
                            ("same file" where the two are the same bytes)

  python3 scripts/choice-bench.py [--before BIN] [--reps N] [--out perf/choice-<cpu>.md]

VECPRESS_DATA names the data (default ../shared/data beside the repository);
VECPRESS_BIN the binary (default: cargo build --release, target/release/vecpress).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    d = Path(os.environ.get("VECPRESS_DATA", ROOT.parent / "shared" / "data"))
    if not d.is_dir():
        sys.exit(f"choice-bench: no data at {d} (set VECPRESS_DATA)")
    return d


def binary() -> str:
    b = os.environ.get("VECPRESS_BIN")
    if b:
        return b
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "vecpress-cli"], cwd=ROOT, check=True)
    return str(ROOT / "target" / "release" / "vecpress")


def cpu_name() -> str:
    info: dict[str, str] = {}
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        key, _, value = line.partition(":")
        info.setdefault(key.strip(), value.strip())
    return f"{info.get('model name', '?')} (family {info.get('cpu family', '?')}, model {info.get('model', '?')}), {os.cpu_count()} cores"


def inputs(data: Path, tmp: Path) -> list[tuple[str, Path, str]]:
    """(label, path, --type) of every file measured."""
    out = []
    for ext in ("f64", "f32"):
        joined = tmp / f"floats-joined.{ext}"
        with open(joined, "wb") as f:
            for p in sorted((data / "floats").glob(f"*.{ext}")):
                f.write(p.read_bytes())
        n = len(list((data / "floats").glob(f"*.{ext}")))
        out.append((f"floats/*.{ext} joined ({n} files)", joined, ext))
    for p in sorted((data / "silesia").iterdir()):
        if p.is_file() and p.name != "README.md":
            out.append((f"silesia/{p.name}", p, "bytes"))
    for name, kind in (("postings/census-income.docs", "postings"), ("postings/clueweb09_1k_positions.docs", "postings"),
                       ("ints/nycflights13_flights_time_hour.i64", "i64")):
        if (data / name).exists():
            out.append((name, data / name, kind))
    return out


def candidates(vp: str, kind: str) -> list[str]:
    """The codecs `compress` tries on this type: those `inspect` lists, but store and lz4-hc."""
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(b"\0" * 4096)
        f.flush()
        text = subprocess.run([vp, "inspect", "--type", kind, f.name], capture_output=True, text=True, check=True).stdout
    names = []
    for line in text.splitlines()[2:]:
        name = line.split()[0] if line.split() else ""
        if name and name not in ("store", "lz4-hc", "recommended:") and not name.endswith(":"):
            names.append(name)
    return names


def run(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def paired(a: list[str], b: list[str], reps: int) -> float:
    """Median over alternated runs of time(b) / time(a): > 1 when a is faster."""
    ratios = []
    for i in range(reps):
        if i % 2:
            tb, ta = run(b), run(a)
        else:
            ta, tb = run(a), run(b)
        ratios.append(tb / ta)
    return statistics.median(ratios)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", help="an older vecpress binary, whose automatic compression to time against")
    ap.add_argument("--reps", type=int, default=21, help="runs of each command (default 21)")
    ap.add_argument("--out", help="also write the table to this file (markdown)")
    args = ap.parse_args()
    vp = binary()
    data = data_dir()
    zstd = shutil.which("zstd")
    lines = [f"CPU: {cpu_name()}; blocks of 1 MiB; speeds are medians of {args.reps} alternated runs of whole commands.", "",
             "| file | smallest single codec | bytes | automatic: bytes | ÷ smallest single | blocks per codec | zstd -3 bytes | automatic ÷ zstd -3 | compress, auto ÷ before | decode, auto ÷ single |",
             "|---|---|---:|---:|---:|---|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for label, path, kind in inputs(data, tmp):
            sizes = {}
            for c in candidates(vp, kind):
                out = tmp / f"single-{c}.vp"
                subprocess.run([vp, "compress", "-q", "-f", "--type", kind, "--codec", c, str(path), "-o", str(out)], check=True)
                sizes[c] = out.stat().st_size
            best = min(sizes, key=lambda c: sizes[c])
            auto = tmp / "auto.vp"
            auto_cmd = [vp, "compress", "-q", "-f", "--type", kind, str(path), "-o", str(auto)]
            subprocess.run(auto_cmd, check=True)
            auto_bytes = auto.stat().st_size
            shown = subprocess.run([vp, "inspect", str(auto)], capture_output=True, text=True, check=True).stdout
            per_codec = next((l.split(":", 1)[1].strip() for l in shown.splitlines() if l.startswith("per codec:")), None)
            if per_codec is None:
                codec = next(l.split(":", 1)[1].split("(")[0].strip() for l in shown.splitlines() if l.startswith("codec:"))
                per_codec = f"{codec}, all (one codec fits)"
            z, to_z = "-", "-"
            if zstd:
                z_bytes = len(subprocess.run([zstd, "-3", "-c", str(path)], capture_output=True, check=True).stdout)
                z, to_z = f"{z_bytes:,}", f"{auto_bytes / z_bytes:.2f}"
            speed = "-"
            if args.before:
                before_cmd = [args.before] + auto_cmd[1:-1] + [str(tmp / "before.vp")]
                speed = f"{paired(auto_cmd, before_cmd, args.reps):.2f}"
            single = tmp / f"single-{best}.vp"
            decode = "same file"
            if single.read_bytes() != auto.read_bytes():
                decode = f"{paired([vp, 'decompress', '-q', '-c', str(auto)], [vp, 'decompress', '-q', '-c', str(single)], args.reps):.2f}"
            lines.append(f"| {label} | {best} | {sizes[best]:,} | {auto_bytes:,} | {auto_bytes / sizes[best]:.3f} | {per_codec} | {z} | {to_z} | {speed} | {decode} |")
            print(lines[-1], flush=True)
    lines += ["", "Made by `python3 scripts/choice-bench.py" + (" --before BIN" if args.before else "") + "`."]
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
