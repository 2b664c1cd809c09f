"""VByte (LEB128 varints, as in protobuf, Lucene and Go), with the Masked
VByte SIMD decoder.

Each value takes 1 to 5 bytes (uint32) or 1 to 10 (uint64), seven bits a
byte. int32/int64 are zigzag-coded first (protobuf's ``sint32``/``sint64``);
``delta=True`` (uint32 only) stores the gaps between successive values,
wrapping, and the decoder fuses the prefix sum. The stream stores no count:
pass it to :func:`decode`.

>>> import numpy as np
>>> from vecpress import vbyte
>>> data = vbyte.encode(np.array([1, 128, 300], dtype=np.uint32))
>>> data.hex()
'018001ac02'
>>> vbyte.decode(data, 3).tolist()
[1, 128, 300]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecpress import _native
from vecpress._util import as_array, check_count, dtype_str

__all__ = ["encode", "decode", "DTYPES"]

#: The dtypes :func:`encode` and :func:`decode` take.
DTYPES = (np.uint32, np.uint64, np.int32, np.int64)


def encode(array: Any, *, delta: bool = False) -> bytes:
    """Encodes a 1-D contiguous array of uint32, uint64, int32 or int64.

    ``delta=True`` (uint32 only) encodes the gaps from 0, wrapping modulo
    2**32, so any sequence round-trips; sorted ids give small gaps.

    Raises ``TypeError`` for another dtype or a non-array, ``ValueError`` for
    a non-1-D or non-contiguous array.

    >>> import numpy as np
    >>> encode(np.array([10, 11, 13], dtype=np.uint32), delta=True)
    b'\\n\\x01\\x02'
    >>> encode(np.array([-1, 1], dtype=np.int64)).hex()
    '0102'
    """
    return _native.vbyte_encode(as_array(array), bool(delta))


def decode(
    data: Any,
    count: int,
    *,
    dtype: Any = np.uint32,
    delta: bool = False,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Decodes ``count`` values from the start of ``data`` (any bytes-like
    object; bytes after the last value are ignored).

    With ``out`` (a writable 1-D contiguous array of the codec's dtype holding
    at least ``count`` values) the values are written there and
    ``out[:count]`` is returned; ``dtype`` is then taken from ``out``.

    Raises :class:`vecpress.TruncatedError` when ``data`` ends early and
    :class:`vecpress.CorruptError` for a value that overflows its type.

    >>> import numpy as np
    >>> decode(b"\\n\\x01\\x02", 3, delta=True).tolist()
    [10, 11, 13]
    >>> buf = np.zeros(8, dtype=np.int32)
    >>> decode(b"\\x01\\x02", 2, out=buf).tolist()
    [-1, 1]
    """
    count = check_count(count)
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy.ndarray, got {type(out).__name__}")
        _native.vbyte_decode(data, count, out.dtype.str, bool(delta), out)
        return out[:count]
    return _native.vbyte_decode(data, count, dtype_str(dtype), bool(delta), None)
