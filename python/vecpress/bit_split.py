"""Bit shuffle (Masui's bitshuffle): ``N`` values of ``K`` bytes become
``8 K`` bit planes, bit ``b`` of every value together, as the bitshuffle
library arranges them: in blocks of 8 KiB of values (rounded down to a
multiple of 8 values, at least 128 values), then one block of the largest
multiple of 8 values left; the last ``N % 8`` values are copied as they
are. A compressor after it finds the runs in the planes of slowly varying
data.

:func:`compress_lz4` and :func:`decompress_lz4` are the bitshuffle
library's LZ4 framing, the HDF5 filter 32008 (``hdf5plugin.Bitshuffle``
with ``cname="lz4"``): a 12-byte header (the size and the block size, big
endian), then each block of bit-shuffled values as a 4-byte big-endian size
and an LZ4 block.

Neither stores the value width: it is the caller's (HDF5 keeps it in the
filter's parameters), given here as the dtype's item size. Decoding with a
dtype of another width is not detected where the frame's block size happens
to suit both widths, and gives other values: decode with the dtype that was
encoded.

>>> import numpy as np
>>> from vecpress import bit_split
>>> a = np.arange(100_000, dtype=np.uint32) // 3
>>> frame = bit_split.compress_lz4(a)
>>> len(frame) < a.nbytes // 10
True
>>> np.array_equal(bit_split.decompress_lz4(frame, dtype=np.uint32), a)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecpress import _native
from vecpress._util import int_arg, out_bytes, out_dtype, value_dtype

__all__ = ["encode", "decode", "compress_lz4", "decompress_lz4"]

# The largest frame decompress_lz4 allocates for (bitshuffle's own limit
# is the memory at hand; this one keeps a hostile header from taking it).
MAX_OUTPUT = 1 << 31


def _bytes_and_width(array: Any) -> tuple[Any, int]:
    arr = np.ascontiguousarray(array) if isinstance(array, np.ndarray) else np.frombuffer(array, np.uint8)
    return arr.reshape(-1).view(np.uint8), arr.dtype.itemsize


def encode(array: Any) -> bytes:
    """Bit-shuffles a numeric array (any shape, C order) whose item size is
    the value width.

    >>> encode(np.array([1, 0, 1, 0, 1, 0, 1, 0], dtype=np.uint8)).hex()
    '5500000000000000'
    """
    data, width = _bytes_and_width(array)
    return _native.bit_split_encode(data, width)


def decode(data: Any, *, dtype: Any = np.uint8, out: np.ndarray | None = None) -> np.ndarray:
    """Undoes :func:`encode` into a new flat array of ``dtype``. With ``out``
    (a writable C-contiguous array of at least ``len(data)`` bytes) the
    values are written there, with no allocation, and the filled part is
    returned, flat, as ``out.dtype``, whose item size is the value width.

    >>> decode(bytes.fromhex("5500000000000000")).tolist()
    [1, 0, 1, 0, 1, 0, 1, 0]
    >>> buf = np.empty(8, np.uint8)
    >>> decode(bytes.fromhex("5500000000000000"), out=buf).tolist()
    [1, 0, 1, 0, 1, 0, 1, 0]
    """
    dtype = out_dtype(out, dtype)
    raw = out_bytes(out, memoryview(data).nbytes)
    n = _native.bit_split_decode(data, dtype.itemsize, raw)
    return raw[:n].view(dtype)


def compress_lz4(array: Any, *, block_size: int = 0) -> bytes:
    """Bit shuffle and LZ4 in blocks of ``block_size`` values (0: the
    bitshuffle library's default), as the HDF5 filter 32008 writes a chunk."""
    block_size = int_arg(block_size, "block_size")
    data, width = _bytes_and_width(array)
    return _native.bit_split_compress_lz4(data, width, block_size)


def decompress_lz4(data: Any, *, dtype: Any = np.uint8, out: np.ndarray | None = None) -> np.ndarray:
    """Decompresses a filter-32008 frame of values of ``dtype`` into a new
    flat array (or into ``out``, a writable C-contiguous array of at least
    the frame's size in bytes, returning the filled part as ``dtype``).

    The size the header states is checked against what the frame can hold
    (255 bytes a byte) before anything is allocated.

    >>> frame = compress_lz4(np.arange(64, dtype=np.uint16))
    >>> buf = np.zeros(128, np.uint8)
    >>> decompress_lz4(frame, dtype=np.uint16, out=buf)[-3:].tolist()
    [61, 62, 63]
    """
    dtype = value_dtype(dtype)
    size = _native.bit_split_lz4_len(data, MAX_OUTPUT)
    target = out_bytes(out, size)
    n = _native.bit_split_decompress_lz4_into(data, dtype.itemsize, target)
    return target[:n].view(dtype)
