#!/usr/bin/env bash
# Times the `vecpress` command as whole processes against the `lz4` command,
# and its `-T 2` against `-T 1`, on one large file: the files of the Silesia
# corpus (silesia/ in the shared data) concatenated, REPEAT times over, so that a
# run's fixed costs (starting, the first touch of its buffers) weigh as they
# do on a large file. Each comparison runs its
# two commands alternately, REPS times each, and reports the median of the
# per-pair time ratios (below 1: the first command is the faster):
#
#   decompress -c | cat             vs lz4 -d -c | cat           (target <= 0.9)
#   compress --format lz4 -c | cat  vs lz4 -1 -c | cat           (target <= 1.0)
#   -T 2 vs -T 1, to /dev/null: compress and decompress of a .vp file
#   (--codec lz4) and of an LZ4 frame of independent blocks    (target <= 0.6)
#
# then the peak RSS (/usr/bin/time -v) of each of those at -T 1, 2 and 0.
# Results go, one JSON object a line, to perf/cli-<vendor>-<family>-<model>.jsonl
# (the CPU key of scripts/cpu.sh); scripts/perf-doc.py puts them in
# docs/BENCHMARKS.md. Timings mean something only on a quiet machine.
#
#   scripts/cli-throughput.sh [OUT]
#
#   REPS=N               runs of each command per comparison (default 11)
#   REPEAT=N             the corpus this many times over (default 3)
#   SIZE_MB=N            use only the first N MiB of the concatenated corpus
#   VECPRESS_DATA=DIR    the data (default: ../shared/data beside the repository)
#   VECPRESS_BIN=FILE    time this binary instead of building target/release/vecpress
set -euo pipefail

if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
    awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
    exit 0
fi
out_arg=${1:-}
if [[ -n "$out_arg" && "$out_arg" != /* ]]; then
    out_arg="$PWD/$out_arg"
fi
cd "$(dirname "$0")/.."
root=$PWD

data=${VECPRESS_DATA:-$root/../shared/data}
if [[ ! -d "$data/silesia" ]]; then
    echo "cli-throughput: no silesia/ folder in $data (set VECPRESS_DATA)" >&2
    exit 1
fi
if ! command -v lz4 >/dev/null 2>&1; then
    echo "cli-throughput: the lz4 command is missing (on Debian: apt-get install -y lz4);" \
        "the comparisons with lz4 are left out" >&2
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "cli-throughput: /usr/bin/time is missing (on Debian: apt-get install -y time);" \
        "peak RSS is left out" >&2
fi
bin=${VECPRESS_BIN:-}
if [[ -z "$bin" ]]; then
    cargo build --release -q -p vecpress-cli
    bin=$root/target/release/vecpress
fi

commit=$(git rev-parse --short HEAD)
if [[ -n "$(git status --porcelain --untracked-files=no)" ]]; then
    commit="$commit-dirty"
fi

source scripts/cpu.sh
cpu_describe "$bin"

export CLI_BIN=$bin CLI_DATA=$data CLI_OUT=$out_arg CLI_COMMIT=$commit
export CLI_CPU_KEY=$cpu_key CLI_CPU=$cpu_label
exec python3 - <<'EOF'
import json, os, shutil, statistics, subprocess, sys, tempfile, time


def elapsed(cmd):
    """Seconds one shell command takes, as a whole process."""
    t = time.perf_counter()
    subprocess.run(["bash", "-o", "pipefail", "-c", cmd], check=True)
    return time.perf_counter() - t


def peak_rss_kb(cmd):
    """Peak RSS of one command (its largest process), from /usr/bin/time -v."""
    r = subprocess.run(["/usr/bin/time", "-v", "bash", "-c", f"exec {cmd}"],
                       check=True, stderr=subprocess.PIPE, text=True)
    for line in r.stderr.splitlines():
        if "Maximum resident set size" in line:
            return int(line.rsplit(":", 1)[1])
    raise RuntimeError("no peak RSS in /usr/bin/time -v output")


def main():
    binary, data = os.environ["CLI_BIN"], os.environ["CLI_DATA"]
    reps = int(os.environ.get("REPS", "11"))
    size_mb = os.environ.get("SIZE_MB")
    repeat = int(os.environ.get("REPEAT", "3"))
    key, cpu = os.environ["CLI_CPU_KEY"], os.environ["CLI_CPU"]
    out_path = os.environ.get("CLI_OUT") or os.path.join("perf", f"cli-{key}.jsonl")
    have_lz4 = shutil.which("lz4") is not None
    have_time = os.access("/usr/bin/time", os.X_OK)
    tmp = tempfile.mkdtemp(prefix="cli-throughput-")
    try:
        big = os.path.join(tmp, "silesia.tar")
        silesia = os.path.join(data, "silesia")
        limit = int(size_mb) << 20 if size_mb else None
        with open(big, "wb") as w:
            for _ in range(repeat):
                for name in sorted(os.listdir(silesia)):
                    with open(os.path.join(silesia, name), "rb") as f:
                        w.write(f.read())
            if limit is not None:
                w.truncate(min(limit, w.tell()))
        size = os.path.getsize(big)
        vp, lz = big + ".vp", big + ".lz4"
        q = lambda p: "'" + p.replace("'", "'\\''") + "'"
        vpc = f"{q(binary)}"
        subprocess.run(f"{vpc} compress -q --codec lz4 -c {q(big)} > {q(vp)}", shell=True, check=True)
        subprocess.run(f"{vpc} compress -q --format lz4 -c {q(big)} > {q(lz)}", shell=True, check=True)

        comparisons = []
        if have_lz4:
            comparisons += [
                ("decompress-pipe", 0.9,
                 f"{vpc} decompress -c {q(lz)} | cat > /dev/null",
                 f"lz4 -d -c {q(lz)} | cat > /dev/null"),
                ("compress-pipe", 1.0,
                 f"{vpc} compress --format lz4 -c {q(big)} | cat > /dev/null",
                 f"lz4 -1 -c {q(big)} | cat > /dev/null"),
            ]
        threads = {
            "vp-compress": f"{vpc} compress --codec lz4 -T {{t}} -c {q(big)} > /dev/null",
            "vp-decompress": f"{vpc} decompress -T {{t}} -c {q(vp)} > /dev/null",
            "lz4-compress": f"{vpc} compress --format lz4 -T {{t}} -c {q(big)} > /dev/null",
            "lz4-decompress": f"{vpc} decompress -T {{t}} -c {q(lz)} > /dev/null",
        }
        for name, cmd in threads.items():
            comparisons.append((f"{name}-T2", 0.6, cmd.format(t=2), cmd.format(t=1)))

        def show(cmd):
            return cmd.replace(q(binary), "vecpress").replace(tmp + "/", "")

        rows = []
        how = " ".join([f"REPS={reps}", f"REPEAT={repeat}"] + ([f"SIZE_MB={size_mb}"] if size_mb else [])
                       + ["scripts/cli-throughput.sh"])
        # -T 0 starts one thread per CPU this process may run on.
        allowed = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        base = {"cpu": cpu, "key": key, "commit": os.environ["CLI_COMMIT"], "input": "silesia",
                "input_bytes": size, "script": how, "cpus_allowed": allowed}
        for name, target, cmd, baseline in comparisons:
            ratios = []
            elapsed(cmd)  # warm the page cache and the binary
            elapsed(baseline)
            for i in range(reps):
                # Alternate which runs first, so that neither always follows the other.
                if i % 2 == 0:
                    a, b = elapsed(cmd), elapsed(baseline)
                else:
                    b, a = elapsed(baseline), elapsed(cmd)
                ratios.append(a / b)
            ratio = statistics.median(ratios)
            row = dict(base, name=name, command=show(cmd), baseline=show(baseline),
                       ratio=round(ratio, 4), ratios=[round(r, 4) for r in ratios],
                       reps=reps, target=target)
            rows.append(row)
            print(f"{name:20} {ratio:.3f} (target <= {target})  {show(cmd)}  vs  {show(baseline)}",
                  file=sys.stderr)
        if have_time:
            for name, cmd in threads.items():
                for t in (1, 2, 0):
                    kb = peak_rss_kb(cmd.format(t=t))
                    rows.append(dict(base, name=f"{name}-rss", threads=t, peak_rss_kb=kb,
                                     command=show(cmd.format(t=t))))
                    print(f"{name + '-rss':20} -T {t}: {kb} KB", file=sys.stderr)
        os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
        with open(out_path, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")
        print(f"cli-throughput: {len(rows)} rows in {out_path} ({cpu}, {size} bytes, "
              f"{reps} runs each)", file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
EOF
