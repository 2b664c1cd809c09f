"""Argument normalisation shared by the codec modules (no codec logic)."""

from __future__ import annotations

import sys
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


def value_dtype(dtype: Any) -> np.dtype:
    """``dtype`` checked to be one of fixed-width values (not objects, not
    of size zero): a ``TypeError`` before any decoding, not numpy's after."""
    dt = np.dtype(dtype)
    if dt.hasobject or dt.itemsize == 0:
        raise TypeError(f"dtype must be of fixed-width values, got {dt}")
    return dt


def out_dtype(out: Any, dtype: Any) -> np.dtype:
    """The dtype a decoder of fixed-width values returns: ``out``'s when it
    is given (checked to be an ndarray), else ``dtype``."""
    if out is not None and not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray, got {type(out).__name__}")
    return value_dtype(out.dtype if out is not None else dtype)


def out_bytes(out: np.ndarray | None, nbytes: int) -> np.ndarray:
    """``out`` (checked to be a C-contiguous ndarray) as a flat uint8 view,
    or a new uint8 array of ``nbytes`` when it is ``None``."""
    if out is None:
        return np.empty(nbytes, np.uint8)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray, got {type(out).__name__}")
    if not out.flags.c_contiguous:
        raise ValueError("out must be a 1-D C-contiguous array")
    return out.reshape(-1).view(np.uint8)


def dtype_str(dtype: Any) -> str:
    """numpy's ``dtype.str`` for ``dtype`` (``"<u4"`` for ``np.uint32``)."""
    try:
        return np.dtype(dtype).str
    except TypeError as e:
        raise TypeError(f"not a numpy dtype: {dtype!r}") from e


def int_arg(value: Any, name: str, lo: int = 0, hi: int | None = sys.maxsize) -> int:
    """``value`` as an int in ``lo..=hi`` (no upper bound with ``hi=None``):
    ``TypeError`` for a non-integer, ``ValueError`` out of range. Never the
    ``OverflowError`` the native layer would raise for a number that does
    not fit its integer type: that is not a ``ValueError``."""
    if isinstance(value, (bool, float)) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    value = value.__index__()
    if value < lo:
        raise ValueError(f"{name} must be >= {lo}, got {value}")
    if hi is not None and value > hi:
        raise ValueError(f"{name} must be <= {hi}, got {value}")
    return value


def check_count(count: Any) -> int:
    """``count`` as a non-negative int that fits the native size type."""
    return int_arg(count, "count")
