#!/usr/bin/env bash
# Records this CPU's benchmark results: `vecpress bench --json --peers` over the
# posting lists, the integer generators, Silesia (LZ4 decode, compress and HC
# level 9) and the float files, one JSON row per line, each tagged with the CPU,
# the commit and the run. The file is named after the CPU (vendor-family-model),
# so each machine keeps one record in perf/ and a fresh run is compared against
# it with scripts/perf-compare.py: only ratios within one run are compared,
# since absolute speeds on a shared machine move from run to run.
#
# A record holds several runs (every suite once per run, run after run): on a
# shared machine one row of a run is now and then 20-50% off, so the scripts
# that read records (perf-compare.py, perf-doc.py, perf-tune.py) compute each
# ratio within each run and take the median over the runs.
#
#   scripts/perf-record.sh [--quick] [--runs N] [OUT]    (default OUT: perf/<cpu key>.jsonl)
#
#   --runs N             run every suite N times, rows tagged "run": 1..N (default 3)
#   --quick              a smoke test: one run (unless --runs is given), a third
#                        of the passes, the first input of each suite (default
#                        OUT under target/, not perf/)
#   VECPRESS_DATA=DIR    the data (default: ../shared/data beside the repository)
#   VECPRESS_BIN=FILE    time this binary instead of building target/release/vecpress
#   VECPRESS_ALLOW_ABSENT=1  record even when the binary lacks a peer (one whose
#                        sources its build could not fetch or compile, see
#                        docs/BENCH.md); otherwise the first suite that lacks one
#                        stops the record, since its ratios to that peer would
#                        be missing from the record
set -euo pipefail

# Paths given by the caller, made absolute before moving to the repository root.
absolute() {
    if [[ -z "$1" || "$1" == /* ]]; then echo "$1"; else echo "$PWD/$1"; fi
}

quick=
runs=
out=
while [[ $# -gt 0 ]]; do
    arg=$1
    shift
    case "$arg" in
        --quick) quick=1 ;;
        --runs=*) runs=${arg#--runs=} ;;
        --runs)
            if [[ $# -eq 0 ]]; then
                echo "perf-record: --runs needs a number" >&2
                exit 2
            fi
            runs=$1
            shift
            ;;
        # The comment block at the top of this file (up to its first code line).
        -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
        -*) echo "perf-record: unknown option $arg" >&2; exit 2 ;;
        *)
            if [[ -n "$out" ]]; then
                echo "perf-record: one output file only (got $out and $arg)" >&2
                exit 2
            fi
            out=$arg
            ;;
    esac
done
if [[ -z "$runs" ]]; then
    if [[ -n "$quick" ]]; then runs=1; else runs=3; fi
fi
if ! [[ "$runs" =~ ^[0-9]+$ ]] || (( 10#$runs < 1 )); then
    echo "perf-record: --runs takes a whole number of 1 or more (got '$runs')" >&2
    exit 2
fi
runs=$(( 10#$runs ))
out=$(absolute "$out")
data=$(absolute "${VECPRESS_DATA:-}")
bin=$(absolute "${VECPRESS_BIN:-}")
cd "$(dirname "$0")/.."
data=${data:-../shared/data}
for sub in postings silesia floats; do
    if [[ ! -d "$data/$sub" ]]; then
        echo "perf-record: no $data/$sub; set VECPRESS_DATA to the data directory" >&2
        exit 1
    fi
done

if [[ -z "$bin" ]]; then
    echo "perf-record: cargo build --release -p vecpress-cli" >&2
    cargo build --release -q -p vecpress-cli
    bin=target/release/vecpress
fi
if [[ ! -x "$bin" ]]; then
    echo "perf-record: $bin is not an executable" >&2
    exit 1
fi

# The record's name and the CPU label its rows carry (scripts/cpu.sh).
source scripts/cpu.sh
cpu_describe "$bin"
key=$cpu_key
cpu=$cpu_label

commit=$(git rev-parse --short HEAD)
if [[ -n "$(git status --porcelain --untracked-files=no)" ]]; then
    commit="$commit-dirty"
fi

if [[ -z "$out" ]]; then
    # A smoke run must not replace the record.
    if [[ -n "$quick" ]]; then
        out=target/perf-$key.quick.jsonl
    else
        out=perf/$key.jsonl
    fi
fi
mkdir -p "$(dirname "$out")"
tmp=$(mktemp "$out.XXXXXX")
raw=$tmp.raw
trap 'rm -f "$tmp" "$raw"' EXIT

# Passes, a third of them with --quick.
reps() {
    if [[ -n "$quick" ]]; then
        echo $(( ($1 + 2) / 3 ))
    else
        echo "$1"
    fi
}

# A directory's files, or only its first with --quick.
inputs() {
    local files=("$1"/*)
    if [[ -n "$quick" ]]; then
        echo "${files[0]}"
    else
        echo "$1"
    fi
}

# Adds the CPU, the commit and the run to each line, and keeps only the inputs
# named exactly (the bench's --inputs matches substrings).
tag() {
    CPU="$cpu" COMMIT="$commit" RUN="$run" KEEP="$1" python3 -c '
import json, os, sys
keep = set(filter(None, os.environ["KEEP"].split(",")))
for line in sys.stdin:
    if not line.strip():
        continue
    r = json.loads(line)
    if keep and "input" in r and r["input"] not in keep:
        continue
    r["cpu"] = os.environ["CPU"]
    r["commit"] = os.environ["COMMIT"]
    r["run"] = int(os.environ["RUN"])
    print(json.dumps(r))
'
}

failed=0
run=0
# suite NAME KEEP ARGS...: runs one bench, appending its rows tagged with $run.
suite() {
    local name=$1 keep=$2
    shift 2
    echo "perf-record: run $run of $runs: $name: vecpress bench $* --json --peers" >&2
    local status=0
    "$bin" bench "$@" --json --peers >"$raw" || status=$?
    if [[ -z "${VECPRESS_ALLOW_ABSENT:-}" ]] && grep -q '"absent"' "$raw"; then
        echo "perf-record: run $run: $name: peers absent from $bin:" >&2
        python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line) if line.strip() else {}
    if "absent" in r:
        print("  %s: %s" % (r["codec"], r["absent"]))
' <"$raw" | sort -u >&2
        echo "perf-record: rebuild with them, or set VECPRESS_ALLOW_ABSENT=1 to record without" >&2
        exit 1
    fi
    tag "$keep" <"$raw" >>"$tmp"
    # The bench fails after printing its rows when a decoder did not round-trip;
    # those rows carry "error" and the record goes on. Any other failure stops it.
    if [[ $status -ne 0 ]]; then
        if grep -q '"error"' "$raw"; then
            echo "perf-record: run $run: $name: some decoders did not round-trip (rows with \"error\")" >&2
            failed=1
        else
            echo "perf-record: run $run: $name: vecpress bench failed (exit $status)" >&2
            exit 1
        fi
    fi
}

generators=uniform-gap-bits-01,uniform-gap-bits-08,uniform-gap-bits-16,cluster-gap-bits-02,cluster-gap-bits-08
if [[ -n "$quick" ]]; then
    generators=${generators%%,*}
fi
int_codecs=stream-vbyte,stream-vbyte-delta,vbyte,vbyte-delta,varint-gb,varint-gb-delta
int_codecs=$int_codecs,varint-g8iu,varint-g8iu-delta,stream-vbyte-0124,stream-vbyte-0124-delta

# Whole runs one after another, so that a slow spell of the machine spoils one
# run's rows rather than every run of one suite.
for (( run = 1; run <= runs; run++ )); do
    suite "postings (every integer codec)" "" \
        "$(inputs "$data/postings")" --isa all --reps "$(reps 11)"
    suite "generators" "$generators" \
        --codecs "$int_codecs" --inputs "$generators" --isa all --reps "$(reps 7)"
    suite "silesia: lz4 decode and compress" "" \
        "$(inputs "$data/silesia")" --codecs lz4 --reps "$(reps 11)"
    suite "silesia: lz4-hc level 9" "" \
        "$(inputs "$data/silesia")" --codecs lz4-hc --level 9 --reps "$(reps 5)"
    suite "floats: byte-split, byte-split-lz4, lz4" "" \
        "$(inputs "$data/floats")" --codecs byte-split,byte-split-lz4,lz4 --isa all --reps "$(reps 7)"
    suite "floats: bit-split, bit-split-lz4, blosc-lz4" "" \
        "$(inputs "$data/floats")" --codecs bit-split,bit-split-lz4,blosc-lz4 --isa all --reps "$(reps 7)"
done

mv "$tmp" "$out"
rm -f "$raw"
trap - EXIT
rows=$(grep -c '"decode_gbs"' "$out" || true)
echo "perf-record: $rows rows in $runs run(s) ($cpu, commit $commit) in $out" >&2
if [[ $failed -ne 0 ]]; then
    echo "perf-record: some decoders did not round-trip; see the rows with \"error\"" >&2
fi
if [[ "$out" == "perf/$key.jsonl" ]] && git ls-files --error-unmatch "$out" >/dev/null 2>&1; then
    echo "perf-record: compare with the committed record:" >&2
    echo "    scripts/perf-compare.py $out <(git show HEAD:$out)" >&2
else
    echo "perf-record: compare with the record: scripts/perf-compare.py $out" \
        "(default record: perf/$key.jsonl)" >&2
fi
