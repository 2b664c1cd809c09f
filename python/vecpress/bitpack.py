"""Bit packing of uint32 values: every block of 128 values stored in exactly
as many bits as its largest value needs.

``"bp128"`` is SIMD-BP128 (Lemire and Boytsov 2015), blocks in the 4-lane
interleaved layout of simdcomp and of the Rust ``bitpacking`` crate (one
width byte, then ``16 * width`` bytes per block; the values after the last
whole block as VByte). ``"pfor"`` packs each block of 128 in the width that
makes it cheapest (its size plus a byte for each exception, which costs the
decoder more than its bytes) and patches the larger values in as exceptions
(Lucene's and FastPFor's way, a format of vecpress's own). ``"fastlanes"``
is FastLanes (Afroozeh and Boncz 2023): blocks of 1024 in the transposed
layout of the ``fastlanes`` crate. ``delta=True`` packs the gaps between
successive values, for sorted lists such as posting lists.

The stream stores no count: pass it to :func:`decode`.

>>> import numpy as np
>>> from vecpress import bitpack
>>> docs = np.cumsum(np.full(1000, 3, dtype=np.uint32), dtype=np.uint32)
>>> data = bitpack.encode(docs, delta=True)
>>> len(data) < docs.nbytes // 10
True
>>> np.array_equal(bitpack.decode(data, len(docs), delta=True), docs)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecpress import _u32

__all__ = ["encode", "decode", "CODECS"]

#: The bit packers by name.
CODECS = ("bp128", "pfor", "fastlanes")


def _name(codec: str) -> str:
    if codec not in CODECS:
        raise ValueError(f"codec must be one of {', '.join(map(repr, CODECS))}, got {codec!r}")
    return codec


def encode(array: Any, *, delta: bool = False, codec: str = "bp128") -> bytes:
    """Encodes a 1-D contiguous uint32 array.

    >>> import numpy as np
    >>> encode(np.array([1, 2, 3], dtype=np.uint32)).hex()
    '010203'
    """
    return _u32.encode(_name(codec), array, delta)


def decode(
    data: Any,
    count: int,
    *,
    dtype: Any = np.uint32,
    delta: bool = False,
    codec: str = "bp128",
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Decodes ``count`` uint32 values from the start of ``data``; with
    ``out`` writes there and returns ``out[:count]``.

    >>> decode(bytes.fromhex("010203"), 3, delta=True).tolist()
    [1, 3, 6]
    """
    return _u32.decode(_name(codec), data, count, dtype, delta, out)
