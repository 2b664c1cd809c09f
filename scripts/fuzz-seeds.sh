#!/usr/bin/env bash
# Writes seed inputs for the fuzz targets into fuzz/corpus/TARGET/ (which git
# ignores): the golden vectors of crates/vecpress/tests/golden and small
# encodings of real data from DATA (postings lists, float and integer
# columns, slices of Silesia and Canterbury files) when that directory exists.
#
#   scripts/fuzz-seeds.sh              every target
#   scripts/fuzz-seeds.sh TARGET...    those targets
#   VECPRESS_DATA=DIR scripts/fuzz-seeds.sh   data from DIR (default: /work/shared/data)
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
data=${VECPRESS_DATA:-/work/shared/data}
args=(corpus)
if [[ -d "$data" ]]; then
    args+=("$data")
else
    echo "fuzz-seeds: no data directory at $data; golden vectors only" >&2
fi
cargo +nightly run --quiet --release --example seeds -- "${args[@]}" "$@"
