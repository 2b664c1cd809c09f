"""vecpress: SIMD-accelerated integer and byte codecs for numpy arrays.

Each codec is a submodule with ``encode(array) -> bytes`` and
``decode(data, count) -> numpy.ndarray`` (or ``compress``/``decompress`` for
byte codecs). Inputs are borrowed through the buffer protocol without a copy,
and the GIL is released while a codec runs, so threads compress in parallel.

>>> import numpy as np, vecpress
>>> from vecpress import vbyte
>>> ids = np.array([3, 7, 8, 150, 151, 100_000], dtype=np.uint32)
>>> data = vbyte.encode(ids, delta=True)
>>> len(data)
9
>>> vbyte.decode(data, len(ids), delta=True).tolist()
[3, 7, 8, 150, 151, 100000]
>>> vecpress.isa() in vecpress.available_isas()
True

Corrupt input raises a subclass of :class:`vecpress.Error` (a ``ValueError``):

>>> vbyte.decode(b"\\x80", 1)
Traceback (most recent call last):
...
vecpress.TruncatedError: input truncated: value at byte 0 is incomplete (1 value(s) missing)

For zarr and Dask, see :mod:`vecpress.numcodecs` and :mod:`vecpress.zarr3`.
"""

from vecpress._native import (
    ChecksumMismatchError,
    CorruptError,
    DictionaryMismatchError,
    Error,
    InvalidArgumentError,
    IoError,
    LimitExceededError,
    OutOfRangeError,
    OutputTooSmallError,
    TruncatedError,
    UnsupportedError,
    UnsupportedFormatError,
)
from vecpress._native import available_isas as _available_isas
from vecpress._native import default_kernels as _default_kernels
from vecpress._native import isa as _isa
from vecpress import bit_split, bitpack, byte_split, group_varint, lz4, postings, stream_vbyte, vbyte

__all__ = [
    "ChecksumMismatchError",
    "CorruptError",
    "DictionaryMismatchError",
    "Error",
    "InvalidArgumentError",
    "IoError",
    "LimitExceededError",
    "OutOfRangeError",
    "OutputTooSmallError",
    "TruncatedError",
    "UnsupportedError",
    "UnsupportedFormatError",
    "available_isas",
    "default_kernels",
    "isa",
    "bit_split",
    "bitpack",
    "byte_split",
    "group_varint",
    "lz4",
    "postings",
    "stream_vbyte",
    "vbyte",
]

__version__ = "0.1.0"


def isa() -> str:
    """The highest instruction-set level this process may use:
    ``"scalar"``, ``"sse41"``, ``"avx2"``, ``"avx512"`` or ``"neon"``.

    It is the best level the CPU supports, capped by the ``VECPRESS_ISA``
    environment variable (read once, when the first codec runs). Which
    kernel each codec runs at or below it is chosen per microarchitecture:
    see :func:`default_kernels`.

    >>> isa() in {"scalar", "sse41", "avx2", "avx512", "neon"}
    True
    """
    return _isa()


def available_isas() -> list[str]:
    """The levels this process may use, lowest first (always starts with
    ``"scalar"``).

    >>> available_isas()[0]
    'scalar'
    """
    return list(_available_isas())


def default_kernels() -> dict[str, str]:
    """The kernel each codec decodes with by default on this CPU: an
    instruction-set level (or, for LZ4, a copy loop), chosen per
    microarchitecture from the library's performance records, never above
    :func:`isa`.

    >>> kernels = default_kernels()
    >>> kernels["stream-vbyte"] in available_isas()
    True
    """
    return dict(_default_kernels())
