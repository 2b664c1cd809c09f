#!/usr/bin/env bash
# The Python package's tests: creates a venv under target/pyvenv (once),
# installs maturin, the test requirements and the benchmark peers, builds and
# installs ./python, then runs pytest (doctests, round trips, numcodecs, zarr
# formats 2 and 3, and a Dask LocalCluster with two worker processes).
#
#   scripts/test-python.sh              build, install, test
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

# Builds the extension in release mode with maturin (the build backend) and
# installs it with the Python sources.
"$py" -m pip install --quiet --force-reinstall --no-deps ./python

# The installed package is tested, not the source folder (which has no
# compiled module): pytest's own script puts no working directory on sys.path.
cd python
exec "../$venv/bin/pytest" -p no:cacheprovider "$@"
