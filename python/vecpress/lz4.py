"""LZ4: blocks (raw, or behind a 4-byte little-endian size as numcodecs'
``LZ4`` and python-lz4's ``store_size=True`` write them) and frames (the
``.lz4`` file format, with xxHash32 checksums).

>>> from vecpress import lz4
>>> text = b"It was the best of times, it was the worst of times. " * 100
>>> block = lz4.compress(text)
>>> len(block) < len(text) // 10
True
>>> lz4.decompress(block, len(text)) == text
True
>>> packed = lz4.compress(text, store_size=True)
>>> int.from_bytes(packed[:4], "little") == len(text)
True
>>> lz4.decompress(packed, store_size=True) == text
True
>>> frame = lz4.compress_frame(text)
>>> frame[:4].hex()
'04224d18'
>>> lz4.decompress_frame(frame) == text
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecpress import _native

__all__ = ["compress", "decompress", "compress_frame", "decompress_frame", "BLOCK_SIZES", "MAX_FRAME_OUTPUT"]

#: The block sizes of LZ4 frames: 64 KiB, 256 KiB, 1 MiB, 4 MiB.
BLOCK_SIZES = (1 << 16, 1 << 18, 1 << 20, 1 << 22)

#: What :func:`decompress_frame` accepts at most unless told otherwise
#: (a guard against decompression bombs): 1 GiB.
MAX_FRAME_OUTPUT = 1 << 30


def compress(data: Any, *, acceleration: int = 1, store_size: bool = False) -> bytes:
    """Compresses any bytes-like object (a numpy array's bytes too) into one
    LZ4 block; ``acceleration`` above 1 trades ratio for speed, as in liblz4.
    With ``store_size`` the block follows its decompressed size as 4 bytes,
    little-endian (numcodecs' LZ4, python-lz4's default).

    >>> compress(b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa").hex()
    '1f61010007506161616161'
    """
    if acceleration < 1:
        raise ValueError(f"acceleration must be >= 1, got {acceleration}")
    return _native.lz4_compress(data, int(acceleration), bool(store_size))


def decompress(data: Any, size: int | None = None, *, out: Any = None, store_size: bool = False) -> Any:
    """Decompresses one LZ4 block. Give the decompressed ``size`` (its
    bytes are returned), or ``out`` (a writable numpy array, whose filled
    bytes are returned as a uint8 view), or ``store_size=True`` for a block
    behind its 4-byte size.

    Raises :class:`vecpress.CorruptError` or :class:`vecpress.TruncatedError`
    for a bad block, :class:`vecpress.OutputTooSmallError` when it holds more
    than ``size`` or ``out`` takes.

    >>> import numpy as np
    >>> out = np.zeros(64, np.uint8)
    >>> decompress(bytes.fromhex("1f61010007506161616161"), out=out).tobytes()
    b'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
    """
    if store_size:
        if out is not None or size is not None:
            raise ValueError("store_size=True reads the size from the data: pass neither size nor out")
        return _native.lz4_decompress_size_prepended(data)
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy.ndarray, got {type(out).__name__}")
        if not out.flags.c_contiguous:
            raise ValueError("out must be C-contiguous")
        raw = out.reshape(-1).view(np.uint8)
        n = _native.lz4_decompress_into(data, raw)
        return raw[:n]
    if size is None:
        raise TypeError("decompress() needs the decompressed size, out=, or store_size=True")
    return _native.lz4_decompress(data, int(size))


def compress_frame(
    data: Any,
    *,
    block_size: int = 1 << 16,
    block_checksums: bool = False,
    content_checksum: bool = True,
    content_size: bool = True,
) -> bytes:
    """Compresses ``data`` into one LZ4 frame (readable by the ``lz4``
    command and any liblz4): independent blocks of ``block_size`` bytes (one
    of :data:`BLOCK_SIZES`), an xxHash32 of the content, the content size in
    the header.
    """
    return _native.lz4_compress_frame(data, int(block_size), bool(block_checksums), bool(content_checksum), bool(content_size))


def decompress_frame(data: Any, *, max_size: int = MAX_FRAME_OUTPUT) -> bytes:
    """Decompresses LZ4 frames (concatenated frames, skippable and legacy
    frames too), checking every checksum present; more than ``max_size``
    bytes of output raise :class:`vecpress.LimitExceededError`.

    >>> decompress_frame(compress_frame(b"abc"))
    b'abc'
    """
    return _native.lz4_decompress_frame(data, int(max_size))
