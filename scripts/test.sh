#!/usr/bin/env bash
# The project's whole test suite: formatting, lints, every crate's tests (each
# SIMD kernel against the scalar reference, on every ISA level this CPU has),
# the ISA cap, and the Neon kernels under qemu (scripts/test-aarch64.sh).
#
#   scripts/test.sh            everything
#   SKIP_AARCH64=1 scripts/test.sh   without the aarch64 cross run
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (all targets, -D warnings)"
cargo clippy --workspace --all-targets -- -D warnings

step "tests (release: the property tests decode millions of values per kernel)"
cargo test --workspace --release

# The cap: with VECPRESS_ISA set, dispatch and Isa::available() stop at that
# level; the same suite must pass at each level this CPU has.
for cap in scalar sse41 avx2; do
    step "vecpress tests under VECPRESS_ISA=$cap"
    VECPRESS_ISA=$cap cargo test --release -p vecpress --test vbyte --test isa_cap
done

if [[ -n "${SKIP_AARCH64:-}" ]]; then
    step "aarch64 (Neon) tests skipped: SKIP_AARCH64 is set"
elif [[ "$(uname -m)" == "x86_64" ]]; then
    step "aarch64 (Neon) tests under qemu"
    scripts/test-aarch64.sh --release
fi

if [[ -n "${SKIP_FUZZ:-}" ]]; then
    step "fuzz smoke run skipped: SKIP_FUZZ is set"
elif rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    step "fuzz smoke run (every target, ${FUZZ_SECONDS:-30} s each)"
    scripts/fuzz.sh all "${FUZZ_SECONDS:-30}"
else
    step "fuzz smoke run skipped: no nightly toolchain"
fi
