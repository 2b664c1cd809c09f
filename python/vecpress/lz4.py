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

Levels 2 to 12 run the high-compression parsers (as ``lz4 -9`` and
``lz4 -12`` count them); any LZ4 decoder reads what they write:

>>> len(lz4.compress(text, level=12)) <= len(block)
True

Small records compress better with a dictionary trained on records like
them (:func:`train_dictionary`); the same dictionary decompresses them:

>>> records = [b'{"id": %d, "status": "ok", "region": "eu-west"}' % i for i in range(200)]
>>> d = lz4.train_dictionary(records, size=1024)
>>> small = lz4.compress(records[7], dict=d)
>>> len(small) < len(lz4.compress(records[7]))
True
>>> lz4.decompress(small, len(records[7]), dict=d) == records[7]
True

Files of any length stream through :func:`open`, a block at a time, as
the ``lz4`` command writes and reads them:

>>> import io
>>> buf = io.BytesIO()
>>> with lz4.open(buf, "wb") as f:
...     _ = f.write(text)
>>> with lz4.open(io.BytesIO(buf.getvalue())) as f:
...     f.read() == text
True
"""

from __future__ import annotations

import builtins
import io
import os
import sys
from collections.abc import Iterable
from typing import IO, Any

import numpy as np

from vecpress import _native
from vecpress._util import int_arg

__all__ = [
    "compress",
    "decompress",
    "compress_frame",
    "decompress_frame",
    "train_dictionary",
    "open",
    "BLOCK_SIZES",
    "MAX_FRAME_OUTPUT",
    "MAX_LEVEL",
    "MAX_ACCELERATION",
]

#: The block sizes of LZ4 frames: 64 KiB, 256 KiB, 1 MiB, 4 MiB.
BLOCK_SIZES = (1 << 16, 1 << 18, 1 << 20, 1 << 22)

#: What :func:`decompress_frame` accepts at most unless told otherwise
#: (a guard against decompression bombs): 1 GiB.
MAX_FRAME_OUTPUT = 1 << 30

#: The highest compression level (liblz4's ``LZ4HC_CLEVEL_MAX``).
MAX_LEVEL = 12
#: The largest ``acceleration`` (liblz4's ``LZ4_ACCELERATION_MAX``): larger
#: values act as it, as in liblz4.
MAX_ACCELERATION = 65537


def _level(level: int, acceleration: int, dict: Any) -> int:
    """Checks ``level`` and ``acceleration`` together; returns the level."""
    level = int_arg(level, "level", 0, MAX_LEVEL)
    acceleration = min(int_arg(acceleration, "acceleration", 1, None), MAX_ACCELERATION)
    if acceleration != 1 and (level >= 2 or dict is not None):
        raise ValueError("acceleration applies to the fast compressor (level 0 or 1) without a dictionary")
    return level


def compress(
    data: Any, *, level: int = 1, acceleration: int = 1, store_size: bool = False, dict: Any = None
) -> bytes:
    """Compresses any bytes-like object (a numpy array's bytes too) into one
    LZ4 block.

    ``level`` 0 or 1 runs the fast compressor, where ``acceleration`` above 1
    trades ratio for speed, as in liblz4; levels 2 to :data:`MAX_LEVEL` run
    the high-compression parsers (slower to compress, as fast to
    decompress). With ``store_size`` the block follows its decompressed size
    as 4 bytes, little-endian (numcodecs' LZ4, python-lz4's default). With
    ``dict`` (bytes-like, its last 64 KiB count) matches may reach into it:
    decompress with the same ``dict``.

    >>> compress(b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa").hex()
    '1f61010007506161616161'
    """
    level = _level(level, acceleration, dict)
    acceleration = min(int_arg(acceleration, "acceleration", 1, None), MAX_ACCELERATION)
    return _native.lz4_compress(data, acceleration, level, bool(store_size), dict)


def decompress(
    data: Any, size: int | None = None, *, out: Any = None, store_size: bool = False, dict: Any = None
) -> Any:
    """Decompresses one LZ4 block. Give the decompressed ``size`` (its
    bytes are returned), or ``out`` (a writable numpy array, whose filled
    bytes are returned as a uint8 view), or ``store_size=True`` for a block
    behind its 4-byte size; and the ``dict`` it was compressed with, if any.

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
        return _native.lz4_decompress_size_prepended(data, dict)
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy.ndarray, got {type(out).__name__}")
        if not out.flags.c_contiguous:
            raise ValueError("out must be C-contiguous")
        raw = out.reshape(-1).view(np.uint8)
        n = _native.lz4_decompress_into(data, raw, dict)
        return raw[:n]
    if size is None:
        raise TypeError("decompress() needs the decompressed size, out=, or store_size=True")
    return _native.lz4_decompress(data, int_arg(size, "size"), dict)


def compress_frame(
    data: Any,
    *,
    level: int = 1,
    block_size: int = 1 << 16,
    block_checksums: bool = False,
    content_checksum: bool = True,
    content_size: bool = True,
    dict: Any = None,
) -> bytes:
    """Compresses ``data`` into one LZ4 frame (readable by the ``lz4``
    command and any liblz4): independent blocks of ``block_size`` bytes (one
    of :data:`BLOCK_SIZES`) at ``level`` (as :func:`compress`), an xxHash32
    of the content, the content size in the header. With ``dict`` every
    block may reach into it, and the header names its id (``lz4 -D`` reads
    such frames).

    >>> text = b"frames at any level, " * 100
    >>> decompress_frame(compress_frame(text, level=9)) == text
    True
    """
    level = _level(level, 1, None)
    return _native.lz4_compress_frame(
        data,
        level,
        int_arg(block_size, "block_size"),
        bool(block_checksums),
        bool(content_checksum),
        bool(content_size),
        dict,
    )


def decompress_frame(data: Any, *, max_size: int = MAX_FRAME_OUTPUT, dict: Any = None) -> bytes:
    """Decompresses LZ4 frames (concatenated frames, skippable and legacy
    frames too), checking every checksum present; more than ``max_size``
    bytes of output raise :class:`vecpress.LimitExceededError`. Frames made
    with a dictionary need it as ``dict``.

    >>> decompress_frame(compress_frame(b"abc"))
    b'abc'
    """
    # A limit beyond any size the process can hold is no limit.
    limit = min(int_arg(max_size, "max_size", 0, None), sys.maxsize)
    return _native.lz4_decompress_frame(data, limit, dict)


def train_dictionary(samples: Iterable[Any], size: int = 1 << 16) -> bytes:
    """A dictionary of at most ``size`` bytes (at most 64 KiB count) for
    compressing records like ``samples`` (bytes-like objects, each a record
    of the kind to compress on its own): the substrings most of them share,
    the most useful last, where LZ4's offsets are shortest. It reads at most
    64 MiB of the samples (an evenly spread choice of them beyond that), so
    memory stays under about 320 MiB however many samples are given.

    >>> d = train_dictionary([b"GET /items/%d HTTP/1.1\\r\\nHost: example.org\\r\\n" % i for i in range(100)], 256)
    >>> len(d) <= 256 and b"Host: example.org" in d
    True
    """
    return _native.lz4_train_dictionary(list(samples), int_arg(size, "size"))


class _Reader(io.RawIOBase):
    """The unbuffered LZ4 frame stream under :func:`open`'s reading file:
    each read takes decoded bytes of the current block."""

    def __init__(self, fp: Any, owned: bool, reader: Any) -> None:
        self._fp = fp
        self._owned = owned
        self._reader = reader

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        view = memoryview(b).cast("B")
        data = self._reader.read1(len(view))
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            try:
                if self._owned:
                    self._fp.close()
            finally:
                super().close()


class _Writer(io.BufferedIOBase):
    """:func:`open`'s writing file: writes compress into one frame (the
    encoder holds a block, no other buffer is needed), ``flush`` ends the
    block being filled, ``close`` ends the frame."""

    def __init__(self, fp: Any, owned: bool, writer: Any) -> None:
        self._fp = fp
        self._owned = owned
        self._writer = writer
        self._finished = False

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        if self.closed:
            raise ValueError("write to a closed file")
        return int(self._writer.write(b))

    def flush(self) -> None:
        if not self.closed and not self._finished:
            self._writer.flush()

    def close(self) -> None:
        if self.closed:
            return
        try:
            self._finished = True
            self._writer.finish()
        finally:
            try:
                if self._owned:
                    self._fp.close()
            finally:
                super().close()


def open(
    file: str | bytes | os.PathLike[str] | os.PathLike[bytes] | IO[bytes],
    mode: str = "rb",
    *,
    level: int = 1,
    block_size: int = 1 << 22,
    block_checksums: bool = False,
    content_checksum: bool = True,
    dict: Any = None,
    max_size: int | None = None,
    encoding: str | None = None,
    errors: str | None = None,
    newline: str | None = None,
) -> IO[Any]:
    """Opens an LZ4 frame file (a path, or a binary file object) for
    streaming, as :func:`gzip.open` does for gzip: a buffered binary file
    (``"rb"``, ``"wb"``, ``"xb"``, ``"ab"``; ``"r"``, ``"w"``... alike), or
    a text file (``"rt"``, ``"wt"``...) with ``encoding``, ``errors`` and
    ``newline``. Memory holds a block at a time, whatever the file's
    length.

    Reading decodes every frame in turn (concatenated, skippable and
    legacy frames too) and checks every checksum present; bad data raises
    the :class:`vecpress.Error` that names it, more than ``max_size`` bytes
    of output (no limit by default) :class:`vecpress.LimitExceededError`.
    Writing makes one frame, as the ``lz4`` command does: independent
    blocks of ``block_size`` bytes (one of :data:`BLOCK_SIZES`) at
    ``level`` (as :func:`compress`), a content checksum; ``flush()`` ends
    the block being filled, so that what was written can be decoded;
    closing ends the frame. Frames with a dictionary need ``dict``.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "log.lz4")
    >>> with open(path, "wt", encoding="utf-8") as f:
    ...     _ = f.write("line one\\nline two\\n")
    >>> with open(path, "rt", encoding="utf-8") as f:
    ...     [line.rstrip() for line in f]
    ['line one', 'line two']
    """
    if mode not in {m + t for m in "rwxa" for t in ("", "b", "t")}:
        raise ValueError(f"invalid mode {mode!r}: one of r, w, x, a, then b or t")
    text = mode.endswith("t")
    if not text and (encoding is not None or errors is not None or newline is not None):
        raise ValueError("encoding, errors and newline apply to text modes only")
    binary_mode = mode[0] + "b"
    if isinstance(file, (str, bytes, os.PathLike)):
        fp: Any = builtins.open(file, binary_mode)
        owned = True
    elif hasattr(file, "read" if mode[0] == "r" else "write"):
        fp, owned = file, False
    else:
        raise TypeError("file must be a path or a binary file object")
    try:
        if mode[0] == "r":
            limit = (1 << 64) - 1
            if max_size is not None:
                limit = min(int_arg(max_size, "max_size", 0, None), limit)
            # A file opened here is all there: reading a block ahead (two
            # decoded at a time) waits for nothing, unlike a pipe's reads.
            raw = _Reader(fp, owned, _native._FrameReader(fp, limit, owned, dict))
            buffered: Any = io.BufferedReader(raw, buffer_size=1 << 16)
        else:
            lv = _level(level, 1, None)
            writer = _native._FrameWriter(
                fp, lv, int_arg(block_size, "block_size"), bool(block_checksums), bool(content_checksum), dict
            )
            buffered = _Writer(fp, owned, writer)
    except BaseException:
        if owned:
            fp.close()
        raise
    if text:
        return io.TextIOWrapper(buffered, encoding=encoding, errors=errors, newline=newline)
    return buffered
