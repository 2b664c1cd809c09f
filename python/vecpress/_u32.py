"""The shared body of the uint32 codec modules (stream_vbyte, group_varint)."""

from __future__ import annotations

from typing import Any

import numpy as np

from vecpress import _native
from vecpress._util import as_array, check_count, dtype_str


def encode(name: str, array: Any, delta: bool) -> bytes:
    return _native.u32_encode(name, as_array(array), bool(delta))


def decode(name: str, data: Any, count: int, dtype: Any, delta: bool, out: Any) -> np.ndarray:
    count = check_count(count)
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy.ndarray, got {type(out).__name__}")
        _native.u32_decode(name, data, count, bool(delta), out)
        return out[:count]
    if dtype_str(dtype) != "<u4":
        raise TypeError(f"unsupported dtype {np.dtype(dtype).name} (expected uint32)")
    return _native.u32_decode(name, data, count, bool(delta), None)


def variant_name(prefix: str, variant: str, variants: tuple[str, ...]) -> str:
    if variant not in variants:
        raise ValueError(f"variant must be one of {', '.join(map(repr, variants))}, got {variant!r}")
    return f"{prefix}_{variant}" if variant != variants[0] else prefix
