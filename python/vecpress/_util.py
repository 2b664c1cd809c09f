"""Argument normalisation shared by the codec modules (no codec logic)."""

from __future__ import annotations

from typing import Any

import numpy as np


def as_array(array: Any) -> Any:
    """An ndarray as is (a misaligned one copied); another buffer-protocol object viewed as an ndarray
    without a copy; anything else is passed through for the native checks to
    reject with a ``TypeError``."""
    if isinstance(array, np.ndarray):
        if array.flags.c_contiguous and not array.flags.aligned:
            # Rust slices need aligned values: one copy for this rare case.
            return array.copy()
        return array
    try:
        memoryview(array)
    except TypeError:
        return array
    return np.asarray(array)


def dtype_str(dtype: Any) -> str:
    """numpy's ``dtype.str`` for ``dtype`` (``"<u4"`` for ``np.uint32``)."""
    try:
        return np.dtype(dtype).str
    except TypeError as e:
        raise TypeError(f"not a numpy dtype: {dtype!r}") from e


def check_count(count: Any) -> int:
    """``count`` as a non-negative int."""
    if isinstance(count, (bool, float)) or not hasattr(count, "__index__"):
        raise TypeError(f"count must be an int, got {type(count).__name__}")
    count = count.__index__()
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    return count
