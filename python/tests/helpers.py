"""Shared strategies, generators and checks for the vecpress tests."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tempfile
import textwrap
from types import ModuleType

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp


INT_DTYPES = [np.uint32, np.uint64, np.int32, np.int64]


def under_ci() -> bool:
    """Whether the environment variable ``CI`` is set and not empty, read
    as the Rust tests read it (crates/vecpress/tests/common/data.rs)."""
    return bool(os.environ.get("CI"))


def peak_rss_mib(code: str, *, setup: str = "", cap_mib: int | None = None) -> tuple[float, str]:
    """Runs ``code`` in a fresh interpreter, after ``setup`` (imports beyond
    ``vecpress`` and ``vecpress.lz4``); returns the growth of its peak
    resident memory over its baseline after the setup, in MiB, and what it
    printed. The code must print its own verdict. With ``cap_mib``, the
    interpreter's address space is capped at its size after the setup plus
    that many MiB, so that an allocation a claim drives fails rather than
    passing unnoticed on a large machine."""
    cap = ""
    if cap_mib is not None:
        cap = textwrap.dedent(
            f"""
            with open("/proc/self/status") as f:
                vm = next(int(l.split()[1]) for l in f if l.startswith("VmSize:"))
            cap = (vm + {cap_mib} * 1024) * 1024
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            """
        )
    script = (
        "import resource, sys\nimport vecpress\nfrom vecpress import lz4\n"
        + textwrap.dedent(setup)
        + cap
        + "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        + textwrap.dedent(code)
        + textwrap.dedent(
            """
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            print("grew", (peak - base) / 1024)
            """
        )
    )
    # Run from elsewhere: from python/, the source folder (which has no
    # compiled module) would shadow the installed package.
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tempfile.gettempdir(),
    )
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.strip().splitlines()
    grew = float(lines[-1].split()[1])
    return grew, "\n".join(lines[:-1])


def require(module: str) -> ModuleType:
    """``module`` imported, for tests of an optional package (zarr, Dask,
    h5py, ...). When it cannot be imported the test, or at a module's top
    the whole file, fails under CI, where every package of
    requirements-test.txt is installed and every check must run, so none is
    lost to a quiet skip; elsewhere it skips, as ``pytest.importorskip``.
    """
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if under_ci():
            pytest.fail(
                f"{module} cannot be imported under CI (install python/requirements-test.txt): {e}",
                pytrace=False,
            )
        raise pytest.skip.Exception(f"could not import {module!r}: {e}", allow_module_level=True) from None


def hdf5_plugin_dir() -> str:
    """The folder of vecpress's three HDF5 filter plugins
    (``VECPRESS_HDF5_PLUGIN_DIR``, which scripts/test-python.sh builds and
    sets). Without it a test fails under CI and skips elsewhere, as
    ``require`` does."""
    where = os.environ.get("VECPRESS_HDF5_PLUGIN_DIR")
    if not where:
        why = (
            "VECPRESS_HDF5_PLUGIN_DIR is not set: scripts/test-python.sh builds the "
            "plugins (cargo build --release -p vecpress-h5blosc -p vecpress-h5lz4 "
            "-p vecpress-h5bshuf) and sets it"
        )
        if under_ci():
            pytest.fail(why, pytrace=False)
        raise pytest.skip.Exception(why)
    return where


def arrays(dtype, max_len: int = 2000):
    """1-D arrays of `dtype` whose values span every byte length: each
    element draws its bit width first, so small and large values mix."""
    info = np.iinfo(dtype)
    bits = info.bits

    def value(width: int):
        if info.min < 0:
            hi = (1 << max(width - 1, 0)) - 1
            return st.integers(-hi - 1, hi)
        return st.integers(0, (1 << width) - 1)

    elements = st.integers(0, bits).flatmap(value)
    return hnp.arrays(np.dtype(dtype), st.integers(0, max_len), elements=elements)


# Hand-picked lengths: empty, one, around SIMD registers and groups, long.
LENGTHS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 4095, 4096, 4097, 100_003]


def mixed(dtype, n: int, seed: int = 0) -> np.ndarray:
    """`n` values of `dtype` with random bit widths (every byte length)."""
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype)
    widths = rng.integers(0, info.bits + 1, n)
    raw = rng.integers(0, np.iinfo(np.uint64).max, n, dtype=np.uint64, endpoint=True)
    mask = np.where(widths >= 64, np.uint64(~np.uint64(0)), (np.uint64(1) << widths.astype(np.uint64)) - np.uint64(1))
    return (raw & mask).astype(np.uint64).view(np.uint64).astype(dtype, casting="unsafe")


def misaligned(a: np.ndarray, offset: int) -> np.ndarray:
    """A contiguous copy of `a` starting `offset` bytes into a larger buffer."""
    buf = np.zeros(a.nbytes + offset + 8, dtype=np.uint8)
    view = buf[offset : offset + a.nbytes].view(a.dtype)
    view[:] = a
    return view
