"""Shared strategies, generators and checks for the vecpress tests."""

from __future__ import annotations

import importlib
import os
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
