"""Stream VByte (Lemire, Kurz, Rupp 2017): uint32 values as 2-bit length
codes (four to a control byte) followed by the values' low bytes.

Byte-compatible with the reference C library (``streamvbyte_encode``,
``streamvbyte_delta_encode``, ``streamvbyte_encode_0124``). The stream
stores no count: pass it to :func:`decode`. ``variant="0124"`` codes lengths
0, 1, 2, 4 (zeros take no data byte); ``delta=True`` stores the gaps between
successive values, wrapping, and the decoders fuse the prefix sum.

>>> import numpy as np
>>> from vecpress import stream_vbyte
>>> a = np.array([1024, 12, 10, 1 << 30, 1], dtype=np.uint32)
>>> data = stream_vbyte.encode(a)
>>> data.hex()
'c10000040c0a0000004001'
>>> stream_vbyte.decode(data, 5).tolist()
[1024, 12, 10, 1073741824, 1]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecpress import _u32

__all__ = ["encode", "decode", "VARIANTS"]

#: ``"1234"``, the standard byte lengths, and ``"0124"``.
VARIANTS = ("1234", "0124")


def encode(array: Any, *, delta: bool = False, variant: str = "1234") -> bytes:
    """Encodes a 1-D contiguous uint32 array.

    >>> import numpy as np
    >>> encode(np.array([0, 0, 5, 300], dtype=np.uint32), variant="0124").hex()
    '90052c01'
    >>> encode(np.array([100, 101, 103], dtype=np.uint32), delta=True).hex()
    '00640102'
    """
    return _u32.encode(_u32.variant_name("stream_vbyte", variant, VARIANTS), array, delta)


def decode(
    data: Any,
    count: int,
    *,
    dtype: Any = np.uint32,
    delta: bool = False,
    variant: str = "1234",
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Decodes ``count`` uint32 values from the start of ``data`` (any
    bytes-like object); with ``out`` (writable, 1-D, contiguous uint32,
    at least ``count`` long) writes there and returns ``out[:count]``.

    Raises :class:`vecpress.TruncatedError` when the control or data bytes
    run out.

    >>> decode(bytes.fromhex("00640102"), 3, delta=True).tolist()
    [100, 101, 103]
    """
    name = _u32.variant_name("stream_vbyte", variant, VARIANTS)
    return _u32.decode(name, data, count, dtype, delta, out)
