"""The optional test packages: under CI (``CI`` set) each one is installed
and each test that needs one runs, so a missing package fails the run
instead of skipping its tests quietly (helpers.require)."""

import importlib.metadata
import os
import pathlib
import re
import subprocess
import sys

import pytest
from helpers import under_ci

TESTS = pathlib.Path(__file__).parent
REQUIREMENTS = TESTS.parent / "requirements-test.txt"


def _distributions() -> list[str]:
    """The distribution names of requirements-test.txt, extras and
    version bounds dropped."""
    names = []
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.append(re.match(r"[A-Za-z0-9._-]+", line).group(0))
    return names


def test_every_test_requirement_is_installed_under_ci():
    names = _distributions()
    assert {"zarr", "dask", "h5py", "hdf5plugin", "bitshuffle", "numcodecs"} <= set(names)
    missing = []
    for name in names:
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
    if missing and not under_ci():
        pytest.skip(f"not installed (an error under CI): {', '.join(missing)}")
    assert not missing, f"missing under CI: {', '.join(missing)} (install python/requirements-test.txt)"


def test_optional_imports_go_through_require():
    # pytest's importorskip skips even under CI; helpers.require fails there.
    needle = "importorskip" + "("  # split, so this file does not match itself
    for path in TESTS.glob("*.py"):
        assert needle not in path.read_text(encoding="utf-8"), f"{path.name}: use helpers.require"


MISSING = '''
from helpers import require

missing = require("vecpress_no_such_module")


def test_never_runs():
    pass
'''


@pytest.mark.parametrize("ci", ["", "1", "true"])
def test_require_fails_under_ci_and_skips_elsewhere(tmp_path, ci):
    (tmp_path / "test_missing.py").write_text(MISSING, encoding="utf-8")
    env = {**os.environ, "CI": ci, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs", str(tmp_path / "test_missing.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = run.stdout + run.stderr
    if ci:
        assert run.returncode not in (0, 5), out  # 5: nothing ran, all skipped
        assert "vecpress_no_such_module cannot be imported under CI" in out, out
    else:
        assert run.returncode in (0, 5), out
        assert "1 skipped" in out and "failed" not in out and "error" not in out, out
