#!/usr/bin/env bash
# The Python package's tests: creates a venv under target/pyvenv (once),
# installs maturin, the test requirements and the benchmark peers, builds and
# installs ./python, builds the HDF5 filter plugins, then runs pytest
# (doctests, round trips, numcodecs, zarr formats 2 and 3, a Dask
# LocalCluster with two worker processes, and h5py through the plugins).
#
#   scripts/test-python.sh              build, install, test
#   scripts/test-python.sh --setup      the venv and the requirements alone
#   scripts/test-python.sh -k zarr      extra arguments go to pytest
#   PYTHON=python3.12 scripts/test-python.sh   another interpreter for the venv
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
    export PATH="$HOME/.cargo/bin:$PATH"
fi

venv=target/pyvenv
if [[ ! -x "$venv/bin/python" ]]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
py="$venv/bin/python"
"$py" -m pip install --quiet --upgrade pip
"$py" -m pip install --quiet -r python/requirements-test.txt
if [[ "${1:-}" == --setup ]]; then
    # The venv and its requirements alone (downloads, mostly): the suite
    # starts this while it builds, and waits for it before the build here.
    exit 0
fi

# Builds the extension in release mode with maturin (the build backend) and
# installs it with the Python sources.
"$py" -m pip install --quiet --force-reinstall --no-deps ./python

# The HDF5 filter plugins (crates/vecpress-hdf5) for tests/test_hdf5_plugin.py,
# copied into a folder of their own: HDF5 tries to load every lib*.so in
# HDF5_PLUGIN_PATH.
cargo build --release --quiet -p vecpress-h5blosc -p vecpress-h5lz4 -p vecpress-h5bshuf
target_dir="${CARGO_TARGET_DIR:-target}"
mkdir -p "$target_dir/hdf5-plugins"
cp "$target_dir"/release/libvecpress_h5{blosc,lz4,bshuf}.so "$target_dir/hdf5-plugins/"
VECPRESS_HDF5_PLUGIN_DIR="$(cd "$target_dir/hdf5-plugins" && pwd)"
export VECPRESS_HDF5_PLUGIN_DIR

# The installed package is tested, not the source folder (which has no
# compiled module): pytest's own script puts no working directory on sys.path.
cd python
exec "../$venv/bin/pytest" -p no:cacheprovider "$@"
