#!/usr/bin/env bash
# Writes seed inputs for the fuzz targets into fuzz/corpus/TARGET/ (which git
# ignores): the golden vectors of crates/vecpress/tests/golden and small
# encodings of real data from DATA (postings lists, float and integer
# columns, slices of Silesia and Canterbury files) when that directory exists.
#
#   scripts/fuzz-seeds.sh              every target
#   scripts/fuzz-seeds.sh TARGET...    those targets
#   VECPRESS_DATA=DIR scripts/fuzz-seeds.sh   data from DIR (default: ../shared/data
#                                             from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${VECPRESS_DATA:-../shared/data}
# Absolute before moving into fuzz/.
[[ "$data" == /* ]] || data="$PWD/$data"
cd fuzz
args=(corpus)
if [[ -d "$data" ]]; then
    args+=("$data")
else
    echo "fuzz-seeds: no data directory at $data; golden vectors only" >&2
fi
# Built at opt-level 0 (FUZZ_SEEDS_OPT_LEVEL): a build of its own, beside
# the sanitized one of the targets, where the seeds' speed does not matter.
CARGO_PROFILE_RELEASE_OPT_LEVEL="${FUZZ_SEEDS_OPT_LEVEL:-0}" \
    cargo +nightly run --quiet --release --example seeds -- "${args[@]}" "$@"
