#!/usr/bin/env bash
# Runs the library's tests for aarch64 under qemu-user, with Debian's Rust
# toolchain (docs/ARCHITECTURE.md, "Tests, benchmarks, records"). Installs
# what is missing first, so it works as root on a fresh Debian machine with
# no prompts.
#
#   scripts/test-aarch64.sh [extra cargo test args, e.g. -- neon]
#
# Pitfalls it avoids: rustup's cargo/rustc come first on PATH and have no
# aarch64 std, so Debian's are named explicitly; dynamically linked aarch64
# binaries hang in pthread_create under qemu-user 7.2, so tests link
# statically; a fork can deadlock under qemu-user, so the tests spawn no
# commands (VECPRESS_TEST_EMULATED); a separate target dir keeps the two compilers apart.
set -euo pipefail

cd "$(dirname "$0")/.."
start=$(date +%s)

export DEBIAN_FRONTEND=noninteractive

# --- install what is missing -------------------------------------------------
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

packages=(rustc-web cargo-web libstd-rust-web-dev:arm64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
missing=()
for p in "${packages[@]}"; do
    installed "$p" || missing+=("$p")
done

if ((${#missing[@]})); then
    echo "test-aarch64: installing ${missing[*]}"
    if [[ $(id -u) -ne 0 ]]; then
        echo "test-aarch64: need root to install packages" >&2
        exit 1
    fi
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        dpkg --add-architecture arm64
    fi
    apt-get update -q
    # One transaction, so rustc-web and libstd-rust-web-dev:arm64 get the same version.
    apt-get install -y -q --no-install-recommends "${packages[@]}"
fi

rustc_version=$(/usr/bin/rustc --version)
echo "test-aarch64: $rustc_version, $(/usr/bin/cargo --version), $(qemu-aarch64 --version | head -n1)"

# --- build and run the tests -------------------------------------------------
log=$(mktemp)
trap 'rm -f "$log"' EXIT

export RUSTC=/usr/bin/rustc
export RUSTDOC=/usr/bin/rustdoc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER=qemu-aarch64
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C target-feature=+crt-static"
# The tests spawn no commands under qemu-user, where a fork in a process with
# other threads can deadlock (the native run checks interop with commands).
export VECPRESS_TEST_EMULATED=qemu-aarch64

status=0
/usr/bin/cargo test -p vecpress --target aarch64-unknown-linux-gnu \
    --target-dir target/aarch64 "$@" 2>&1 | tee "$log" || status=$?

# --- report ------------------------------------------------------------------
# Lines like "test vbyte::neon::tests::neon_matches_scalar ... ok".
neon_ok=$(grep -cE '^test .*neon.* \.\.\. ok$' "$log" || true)
neon_failed=$(grep -cE '^test .*neon.* \.\.\. FAILED$' "$log" || true)
# `--no-run` prints no result lines: a grep that finds none is not a failure.
passed=$({ grep -oE 'test result: [a-zA-Z]+\. [0-9]+ passed' "$log" || true; } | awk '{s += $4} END {print s + 0}')

echo
echo "test-aarch64: $passed tests passed in all, of which $neon_ok Neon tests (names containing 'neon'); $neon_failed Neon tests failed"
if ((status == 0 && neon_ok == 0)); then
    echo "test-aarch64: warning: no test with 'neon' in its name ran" >&2
fi
echo "test-aarch64: exit $status after $(($(date +%s) - start)) s"
exit "$status"
