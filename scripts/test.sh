#!/usr/bin/env bash
# The project's whole test suite: formatting, lints, docs, every crate's tests (each
# SIMD kernel against the scalar reference, on every ISA level this CPU has),
# the API examples, the ISA cap, the Python package, the Neon kernels under qemu
# (scripts/test-aarch64.sh) and a fuzz smoke run.
#
#   scripts/test.sh            everything
#   SKIP_AARCH64=1 scripts/test.sh   without the aarch64 cross run
#   SKIP_PYTHON=1 / SKIP_FUZZ=1      without the Python package / the fuzz smoke run
set -euo pipefail
cd "$(dirname "$0")/.."

# Each heading gives the time since the start: where the suite's time goes.
start=$SECONDS
step() { printf '\n== [%dm%02ds] %s\n' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)) "$*"; }

# The suite builds to test, not to ship: the release profile's thin LTO,
# single codegen unit and debug info (there for the benchmarks) make the link
# of each of the many test binaries several times slower, for code the
# optimiser treats at the same level. The fuzz build keeps its own profile.
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=0

# The Python package's venv and requirements download while Rust builds.
if [[ -z "${SKIP_PYTHON:-}" ]]; then
    mkdir -p target
    scripts/test-python.sh --setup >target/python-setup.log 2>&1 &
    python_setup=$!
fi

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (all targets, -D warnings)"
cargo clippy --workspace --all-targets -- -D warnings
step "cargo clippy without default features (no Varint-G8IU)"
cargo clippy -p vecpress --no-default-features --all-targets -- -D warnings

step "cargo doc (no broken links, -D warnings), with and without default features"
# The command's crate first, on its own: its binary is named as the library
# is, and rustdoc writes both to target/doc/vecpress (see its Cargo.toml).
RUSTDOCFLAGS="-D warnings" cargo rustdoc -p vecpress-cli --bin vecpress --quiet
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
RUSTDOCFLAGS="-D warnings" cargo doc -p vecpress --no-default-features --no-deps --quiet

step "docs/BENCHMARKS.md and README.md's headline table are what scripts/perf-doc.py makes of perf/"
bench_doc=$(mktemp)
readme=$(mktemp)
cp README.md "$readme"
python3 scripts/perf-doc.py --out "$bench_doc" --readme "$readme" 2>/dev/null
if ! diff -u docs/BENCHMARKS.md "$bench_doc" || ! diff -u README.md "$readme"; then
    echo "docs/BENCHMARKS.md or README.md's headline table is stale: run scripts/perf-doc.py" >&2
    exit 1
fi
rm -f "$bench_doc" "$readme"

step "tests (release: the property tests decode millions of values per kernel)"
cargo test --workspace --release

# The API examples assert their own round trips; running them keeps them
# in step with the API. `cargo test` built them with the workspace's feature
# set (a `-p vecpress` build would resolve other features and rebuild all).
for example in crates/vecpress/examples/*.rs; do
    name=$(basename "$example" .rs)
    step "example $name"
    target/release/examples/"$name"
done

# The cap: with VECPRESS_ISA set, dispatch and Isa::available() stop at that
# level; the same suite must pass at each level this CPU has. The whole
# workspace again, so that the build above serves as it is.
# A cap at the CPU's own top level runs what the suite above ran, so the
# AVX2 cap runs only where the AVX-512 level (Isa::Avx512's features) is
# there above it.
has_avx512_level() {
    local flags f
    flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null) || return 1
    for f in avx512f avx512bw avx512vl avx512vbmi avx512_vbmi2; do
        [[ " $flags " == *" $f "* ]] || return 1
    done
}
caps=(scalar sse41)
if has_avx512_level; then
    caps+=(avx2)
fi
for cap in "${caps[@]}"; do
    step "tests under VECPRESS_ISA=$cap"
    VECPRESS_ISA=$cap cargo test --release --workspace --tests
done
if [[ " ${caps[*]} " != *" avx2 "* ]]; then
    step "tests under VECPRESS_ISA=avx2 skipped: this CPU has no level above AVX2, so the run above was that run"
fi

if [[ -n "${SKIP_PYTHON:-}" ]]; then
    step "Python package tests skipped: SKIP_PYTHON is set"
else
    step "Python package: build with maturin, pytest (numpy, numcodecs, zarr, Dask)"
    if ! wait "$python_setup"; then
        cat target/python-setup.log >&2
        echo "the Python venv's setup failed (above)" >&2
        exit 1
    fi
    scripts/test-python.sh -q
fi

if [[ -n "${SKIP_AARCH64:-}" ]]; then
    step "aarch64 (Neon) tests skipped: SKIP_AARCH64 is set"
elif [[ "$(uname -m)" == "x86_64" ]]; then
    # Unit and integration tests: they run every kernel Isa::available() lists,
    # Neon included. The doctests (examples, the same on every target) ran above;
    # under qemu each would be linked and emulated on its own, for minutes.
    step "aarch64 (Neon) tests under qemu"
    scripts/test-aarch64.sh --release --lib --tests
fi

if [[ -n "${SKIP_FUZZ:-}" ]]; then
    step "fuzz smoke run skipped: SKIP_FUZZ is set"
elif rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    step "fuzz targets: cargo +nightly fmt --check"
    (cd fuzz && cargo +nightly fmt --check)
    step "fuzz smoke run (every target, ${FUZZ_SECONDS:-7} s each, one a core at once, seeded when the corpus is empty)"
    # Sixteen codegen units and opt-level 1: cargo-fuzz's one unit at
    # opt-level 3 builds the instrumented kernels for longer than the whole
    # smoke run lasts; a smoke run needs its inputs run, not run fastest.
    env -u CARGO_PROFILE_RELEASE_LTO -u CARGO_PROFILE_RELEASE_CODEGEN_UNITS -u CARGO_PROFILE_RELEASE_DEBUG \
        CARGO_PROFILE_RELEASE_OPT_LEVEL="${FUZZ_OPT_LEVEL:-1}" \
        FUZZ_CODEGEN_UNITS="${FUZZ_CODEGEN_UNITS:-16}" scripts/fuzz.sh all "${FUZZ_SECONDS:-7}"
else
    step "fuzz smoke run skipped: no nightly toolchain"
fi

step "all passed"
