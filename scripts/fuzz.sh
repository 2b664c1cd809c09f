#!/usr/bin/env bash
# Runs one fuzz target, or every target, for a while with cargo-fuzz on the
# nightly toolchain (installing cargo-fuzz if it is missing).
#
#   scripts/fuzz.sh TARGET SECONDS
#   scripts/fuzz.sh all SECONDS
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

if [[ "$target" == all ]]; then
    targets=$(cargo +nightly fuzz list)
else
    targets=$target
fi
for t in $targets; do
    echo "fuzz: $t for ${seconds}s"
    mkdir -p "corpus/$t"
    cargo +nightly fuzz run "$t" "corpus/$t" -- -max_total_time="$seconds" -max_len=4096 2>&1 | tail -n 3
done
