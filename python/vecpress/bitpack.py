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
layout of the ``fastlanes`` crate. ``"fastlanes-for"`` is FastLanes'
frame of reference: each block of 1024 stored minus its minimum, in the
bits its largest difference needs, for values that sit in a narrow band far
from zero (timestamps, ids of one range). ``delta=True`` packs the gaps
between successive values, for sorted lists such as posting lists
(``"fastlanes-for"`` has no delta form: its reference already takes the
band's offset out).

The stream stores no count: pass it to :func:`decode`.

>>> import numpy as np
>>> from vecpress import bitpack
>>> docs = np.cumsum(np.full(1000, 3, dtype=np.uint32), dtype=np.uint32)
>>> data = bitpack.encode(docs, delta=True)
>>> len(data) < docs.nbytes // 10
True
>>> np.array_equal(bitpack.decode(data, len(docs), delta=True), docs)
True

Frame of reference, for values near a large one (four whole blocks: 6 bits
a value instead of 31):

>>> stamps = 1_700_000_000 + np.arange(4096, dtype=np.uint32) % 60
>>> data = bitpack.encode(stamps, codec="fastlanes-for")
>>> len(data) < len(bitpack.encode(stamps, codec="fastlanes")) // 4
True
>>> np.array_equal(bitpack.decode(data, len(stamps), codec="fastlanes-for"), stamps)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecpress import _u32

__all__ = ["encode", "decode", "CODECS", "DELTA_CODECS"]

#: The bit packers by name (the library registry's ids).
CODECS = ("bp128", "pfor", "fastlanes", "fastlanes-for")

#: The bit packers that also pack gaps (``delta=True``).
DELTA_CODECS = ("bp128", "pfor", "fastlanes")


def _name(codec: str, delta: bool) -> str:
    if codec not in CODECS:
        raise ValueError(f"codec must be one of {', '.join(map(repr, CODECS))}, got {codec!r}")
    if delta and codec not in DELTA_CODECS:
        raise ValueError(
            f"codec {codec!r} has no delta form (delta=True takes {', '.join(map(repr, DELTA_CODECS))})"
        )
    return codec


def encode(array: Any, *, delta: bool = False, codec: str = "bp128") -> bytes:
    """Encodes a 1-D contiguous uint32 array with the bit packer ``codec``
    (one of :data:`CODECS`); ``delta=True`` packs the gaps (a codec of
    :data:`DELTA_CODECS`, else ``ValueError``).

    >>> import numpy as np
    >>> encode(np.array([1, 2, 3], dtype=np.uint32)).hex()
    '010203'
    """
    return _u32.encode(_name(codec, delta), array, delta)


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
    return _u32.decode(_name(codec, delta), data, count, dtype, delta, out)
