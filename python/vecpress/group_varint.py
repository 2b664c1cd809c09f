"""Group varints of uint32 values: Varint-GB (Google's group varint: one
descriptor byte of four 2-bit lengths, then four values of 1 to 4 bytes) and
Varint-G8IU (Stepanov et al. 2011: 8-byte data blocks behind a descriptor
byte that marks where each value ends).

The stream stores no count: pass it to :func:`decode`. ``delta=True`` stores
the gaps between successive values, wrapping.

>>> import numpy as np
>>> from vecpress import group_varint
>>> a = np.array([1, 256, 65536, 16777216, 7], dtype=np.uint32)
>>> for variant in group_varint.VARIANTS:
...     data = group_varint.encode(a, variant=variant)
...     assert group_varint.decode(data, 5, variant=variant).tolist() == a.tolist()
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecpress import _u32

__all__ = ["encode", "decode", "VARIANTS"]

#: ``"gb"`` (Varint-GB) and ``"g8iu"`` (Varint-G8IU).
VARIANTS = ("gb", "g8iu")


def _name(variant: str) -> str:
    if variant not in VARIANTS:
        raise ValueError(f"variant must be 'gb' or 'g8iu', got {variant!r}")
    return f"group_varint_{variant}"


def encode(array: Any, *, delta: bool = False, variant: str = "gb") -> bytes:
    """Encodes a 1-D contiguous uint32 array.

    >>> import numpy as np
    >>> encode(np.array([1, 2, 3, 4], dtype=np.uint32)).hex()
    '0001020304'
    """
    return _u32.encode(_name(variant), array, delta)


def decode(
    data: Any,
    count: int,
    *,
    dtype: Any = np.uint32,
    delta: bool = False,
    variant: str = "gb",
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Decodes ``count`` uint32 values from the start of ``data``; with
    ``out`` writes there and returns ``out[:count]``.

    >>> decode(bytes.fromhex("0001020304"), 4, delta=True).tolist()
    [1, 3, 6, 10]
    """
    return _u32.decode(_name(variant), data, count, dtype, delta, out)
