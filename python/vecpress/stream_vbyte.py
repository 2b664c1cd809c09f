"""Stream VByte (Lemire, Kurz, Rupp 2017): uint32 values as 2-bit length
codes (four to a control byte) followed by the values' low bytes; uint64
with codes of 1, 2, 4 or 8 bytes (Coder1248, as the streamvbyte64 crate
writes it), int32 zigzag-coded, uint16 as uint32.

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

from vecpress import _native, _u32
from vecpress._util import as_array, check_count, dtype_str

__all__ = ["encode", "decode", "VARIANTS", "DTYPES"]

#: The dtypes :func:`encode` and :func:`decode` take (``variant`` is for uint32).
DTYPES = (np.uint32, np.uint64, np.int32, np.uint16)

#: ``"1234"``, the standard byte lengths, and ``"0124"``.
VARIANTS = ("1234", "0124")


def encode(array: Any, *, delta: bool = False, variant: str = "1234") -> bytes:
    """Encodes a 1-D contiguous uint32, uint64, int32 or uint16 array.
    ``delta=True`` (not for uint16) stores the gaps from 0, wrapping; for
    int32, the zigzag of the gaps.

    >>> import numpy as np
    >>> encode(np.array([0, 0, 5, 300], dtype=np.uint32), variant="0124").hex()
    '90052c01'
    >>> encode(np.array([100, 101, 103], dtype=np.uint32), delta=True).hex()
    '00640102'
    """
    name = _u32.variant_name("stream_vbyte", variant, VARIANTS)
    array = as_array(array)
    if isinstance(array, np.ndarray) and array.dtype.str in ("<u8", "<i4", "<u2"):
        if variant != VARIANTS[0]:
            raise ValueError("variant '0124' is for uint32")
        return _native.stream_vbyte_encode_wide(array, bool(delta))
    return _u32.encode(name, array, delta)


def decode(
    data: Any,
    count: int,
    *,
    dtype: Any = np.uint32,
    delta: bool = False,
    variant: str = "1234",
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Decodes ``count`` values of ``dtype`` from the start of ``data`` (any
    bytes-like object); with ``out`` (writable, 1-D, contiguous, at least
    ``count`` long; its dtype is used) writes there and returns
    ``out[:count]``.

    Raises :class:`vecpress.TruncatedError` when the control or data bytes
    run out.

    >>> decode(bytes.fromhex("00640102"), 3, delta=True).tolist()
    [100, 101, 103]
    >>> decode(encode(np.array([-5, 2**40], dtype=np.int64).view(np.uint64)), 2, dtype=np.uint64).view(np.int64).tolist()
    [-5, 1099511627776]
    """
    name = _u32.variant_name("stream_vbyte", variant, VARIANTS)
    code = out.dtype.str if isinstance(out, np.ndarray) else dtype_str(dtype)
    if code in ("<u8", "<i4", "<u2"):
        if variant != VARIANTS[0]:
            raise ValueError("variant '0124' is for uint32")
        count = check_count(count)
        result = _native.stream_vbyte_decode_wide(data, count, code, bool(delta), out)
        return out[:count] if out is not None else result
    return _u32.decode(name, data, count, dtype, delta, out)
