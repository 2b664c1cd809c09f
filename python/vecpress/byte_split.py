"""Byte stream split (Parquet's ``BYTE_STREAM_SPLIT``): ``N`` values of ``K``
bytes become ``K`` streams of ``N`` bytes, byte ``j`` of every value in
stream ``j``. The output is as long as the input; a general-purpose
compressor (LZ4, zstd) then finds the runs in the sign and exponent bytes of
floats. Any numeric dtype works; its item size is the width.

>>> import numpy as np
>>> from vecpress import byte_split
>>> a = np.array([1.5, -2.0, 1e-3], dtype=np.float32)
>>> data = byte_split.encode(a)
>>> data[9:].hex()
'3fc03a'
>>> byte_split.decode(data, dtype=np.float32).tolist() == a.tolist()
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecpress import _native
from vecpress._util import as_array, out_bytes, out_dtype

__all__ = ["encode", "decode"]


def encode(array: Any) -> bytes:
    """Splits a 1-D contiguous numeric array into ``array.itemsize`` byte
    streams.

    >>> import numpy as np
    >>> encode(np.array([0x0102, 0x0304], dtype=np.uint16)).hex()
    '02040103'
    """
    array = as_array(array)
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected a numpy.ndarray, got {type(array).__name__}")
    if array.dtype.kind not in "uifc" or not array.dtype.isnative:
        raise TypeError(f"unsupported dtype {array.dtype} (expected a native-order numeric dtype)")
    if array.ndim != 1:
        raise ValueError(f"expected a 1-D array, got shape {array.shape} (pass array.ravel())")
    if not array.flags.c_contiguous:
        raise ValueError("array is not contiguous (pass numpy.ascontiguousarray(array))")
    return _native.byte_split_encode(array, array.dtype.itemsize)


def decode(data: Any, *, dtype: Any = np.uint8, out: np.ndarray | None = None) -> np.ndarray:
    """Joins the streams of ``data`` into a new array of ``dtype``, whose item
    size is the width. With ``out`` (a writable C-contiguous array of at least
    ``len(data)`` bytes) the values are written there and the filled part is
    returned, flat, as ``out.dtype``.

    Raises :class:`vecpress.LimitExceededError` (a :class:`vecpress.Error`)
    when ``len(data)`` is not a whole number of values.

    >>> decode(bytes.fromhex("02040103"), dtype=np.uint16).tolist() == [0x0102, 0x0304]
    True
    """
    dtype = out_dtype(out, dtype)
    if dtype.kind not in "uifc" or not dtype.isnative:
        raise TypeError(f"unsupported dtype {dtype} (expected a native-order numeric dtype)")
    raw = out_bytes(out, memoryview(data).nbytes)
    n = _native.byte_split_decode(data, dtype.itemsize, raw)
    return raw[:n].view(dtype)
