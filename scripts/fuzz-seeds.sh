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
cargo +nightly run --quiet --release --example seeds -- "${args[@]}" "$@"
