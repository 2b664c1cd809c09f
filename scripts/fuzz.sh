#!/usr/bin/env bash
# Runs one fuzz target, or every target, for a while with cargo-fuzz on the
# nightly toolchain (installing cargo-fuzz if it is missing). A target whose
# corpus directory is empty first gets seeds (scripts/fuzz-seeds.sh).
#
#   scripts/fuzz.sh TARGET SECONDS
#   scripts/fuzz.sh all SECONDS
#   FUZZ_MAX_LEN=N FUZZ_RSS_MB=N  input length and memory limits (4096, 2048)
#   FUZZ_CODEGEN_UNITS=N           build with N codegen units (cargo-fuzz's
#                                  default is 1: the fastest fuzzing, and the
#                                  slowest build; a short run wants 16)
#   FUZZ_JOBS=N                    targets run at once (the machine's cores)
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
target=${1:?usage: scripts/fuzz.sh TARGET|all SECONDS}
seconds=${2:-30}

if ! rustup toolchain list | grep -q '^nightly'; then
    echo "fuzz: no nightly toolchain; skipped" >&2
    exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz"
    cargo +nightly install --locked cargo-fuzz >/dev/null
fi

build=()
if [[ -n "${FUZZ_CODEGEN_UNITS:-}" ]]; then
    build=(--codegen-units "$FUZZ_CODEGEN_UNITS")
fi
if [[ "$target" == all ]]; then
    targets=$(cargo +nightly fuzz list)
    # One build of every target: cargo links them side by side, where a
    # run per target would link each in turn.
    cargo +nightly fuzz build "${build[@]}"
else
    targets=$target
fi

# Seeds for every target whose corpus is empty, in one run of the seed
# maker: it reads the data folder once for all of them.
empty=()
for t in $targets; do
    mkdir -p "corpus/$t"
    if [[ -z "$(ls -A "corpus/$t")" ]]; then
        empty+=("$t")
    fi
done
if (( ${#empty[@]} )); then
    ../scripts/fuzz-seeds.sh "${empty[@]}"
fi

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# One target's run, its output into its log.
run() {
    local t=$1
    # The decoders that size memory from a claim, with no limit of the
    # caller's: an allocation of 64 MiB from inputs this short can only come
    # from an unchecked claim, and libFuzzer reports it as a crash. (Others
    # keep libFuzzer's default, the RSS limit.)
    local malloc=()
    if [[ "$t" == decode_claims || "$t" == decode_hdf5_filters ]]; then
        malloc=(-malloc_limit_mb="${FUZZ_CLAIM_MALLOC_MB:-64}")
    fi
    cargo +nightly fuzz run "${build[@]}" "$t" "corpus/$t" -- -max_total_time="$seconds" \
        -max_len="${FUZZ_MAX_LEN:-4096}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" "${malloc[@]}" \
        >"$logs/$t" 2>&1
}

# A target's outcome: the end of its log, or the whole of it where it failed.
report() {
    local t=$1 status=$2
    if (( status == 0 )); then
        echo "fuzz: $t for ${seconds}s"
        tail -n 3 "$logs/$t"
    else
        echo "fuzz: $t FAILED (exit $status)"
        cat "$logs/$t"
        failed+=("$t")
    fi
}

# Each run is one process on one core: FUZZ_JOBS of them at once (the
# machine's cores by default), each given the seconds asked.
jobs=${FUZZ_JOBS:-$(nproc)}
failed=()
declare -A running=()
# Waits for one of the running targets to end and reports it.
reap() {
    local done_pid status
    wait -n -p done_pid && status=0 || status=$?
    report "${running[$done_pid]}" "$status"
    unset "running[$done_pid]"
}
for t in $targets; do
    while (( ${#running[@]} >= jobs )); do
        reap
    done
    run "$t" &
    running[$!]=$t
done
while (( ${#running[@]} )); do
    reap
done
if (( ${#failed[@]} )); then
    echo "fuzz: failed: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
    exit 1
fi
