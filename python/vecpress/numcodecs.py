"""vecpress codecs for numcodecs, and through it for zarr and Dask.

Each class is a :class:`numcodecs.abc.Codec` with a ``codec_id``,
``get_config``/``from_config`` and ``encode``/``decode(buf, out=None)``.
They are registered under the ``numcodecs.codecs`` entry point, so
``numcodecs.get_codec({"id": "vecpress_vbyte"})`` finds them in any process,
and they pickle, so Dask workers can use them.

Integer codecs see a chunk as a flat run of ``dtype`` values (zarr hands
compressors the chunk's raw bytes) and write a 4-byte little-endian size of
the decoded bytes before the encoded values, as numcodecs' LZ4 does.

>>> import numpy as np, numcodecs
>>> from vecpress.numcodecs import VByte
>>> codec = numcodecs.get_codec({"id": "vecpress_vbyte", "dtype": "<u4", "delta": True})
>>> codec
VByte(delta=True, dtype='<u4')
>>> chunk = np.arange(1000, 2000, dtype=np.uint32)
>>> enc = codec.encode(chunk)
>>> len(enc)
1005
>>> np.array_equal(codec.decode(enc).view(np.uint32), chunk)
True
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import struct
import threading
from typing import Any

import numpy as np
from numcodecs.abc import Codec
from numcodecs.compat import ensure_contiguous_ndarray

from vecpress import UnsupportedFormatError, _native, bitpack, lz4, stream_vbyte, vbyte

__all__ = [
    "VByte",
    "StreamVByte",
    "BP128",
    "PFOR",
    "FastLanes",
    "FastLanesFoR",
    "ByteSplit",
    "LZ4",
    "ByteSplitLZ4",
    "Shuffle",
    "StandardLZ4",
    "Blosc",
    "register_standard",
    "unregister_standard",
]

_SIZE = struct.Struct("<I")


def _flat_bytes(buf: Any) -> np.ndarray:
    """`buf` (any buffer, any shape) as a flat uint8 array, without a copy.
    The common cases (bytes, C-contiguous arrays) skip numcodecs'
    ``ensure_contiguous_ndarray``, whose checks cost more than decoding a
    small chunk."""
    if type(buf) is bytes:
        return np.frombuffer(buf, np.uint8)
    if type(buf) is np.ndarray and buf.flags.c_contiguous and buf.dtype.kind != "O":
        return buf.reshape(-1).view(np.uint8)
    return ensure_contiguous_ndarray(buf).reshape(-1).view(np.uint8)


def _out_view(out: Any, nbytes: int, dtype: np.dtype) -> np.ndarray:
    """The first `nbytes` of `out` as a flat array of `dtype` (no copy)."""
    flat = _flat_bytes(out)
    if len(flat) < nbytes:
        raise ValueError(f"out holds {len(flat)} bytes, {nbytes} needed")
    return flat[:nbytes].view(dtype)


class _IntegerCodec(Codec):
    """A codec over flat runs of integers of one dtype (see subclasses)."""

    _module: Any = None
    _dtypes: tuple[str, ...] = ()
    _delta_dtypes: tuple[str, ...] = ()

    def __init__(self, dtype: Any = "<u4", delta: bool = False):
        dtype = np.dtype(dtype)
        if dtype.str not in self._dtypes:
            raise ValueError(
                f"{type(self).__name__} takes dtypes {', '.join(self._dtypes)}, not {dtype.str}"
            )
        if delta and not self._delta_dtypes:
            raise ValueError(f"{type(self).__name__} has no delta coding")
        if delta and dtype.str not in self._delta_dtypes:
            raise ValueError(f"{type(self).__name__} delta coding takes {', '.join(self._delta_dtypes)}")
        self.dtype = dtype.str
        self.delta = bool(delta)

    def encode(self, buf: Any) -> bytes:
        """The chunk's values, prefixed by their size in bytes."""
        flat = _flat_bytes(buf)
        itemsize = np.dtype(self.dtype).itemsize
        if len(flat) % itemsize:
            raise ValueError(f"buffer of {len(flat)} bytes is not a whole number of {self.dtype} values")
        if len(flat) > 0xFFFF_FFFF:
            raise ValueError("chunks are limited to 4 GiB")
        values = flat.view(self.dtype)
        return _SIZE.pack(len(flat)) + self._module.encode(values, delta=self.delta, **self._options())

    def decode(self, buf: Any, out: Any = None) -> Any:
        """The chunk's values as a flat array of ``dtype`` (or written to ``out``)."""
        data = _flat_bytes(buf)
        dtype = np.dtype(self.dtype)
        # The prefix is read (and a bad one raised) by the native side.
        nbytes = _native.sized_len(data, dtype.itemsize)
        count = nbytes // dtype.itemsize
        payload = data[_SIZE.size :]
        if out is not None:
            target = _out_view(out, nbytes, dtype)
            if target.flags.aligned:
                self._module.decode(payload, count, delta=self.delta, out=target, **self._options())
            else:  # a misaligned buffer: decode aside, then copy the bytes
                target[:] = self._module.decode(payload, count, dtype=dtype, delta=self.delta, **self._options())
            return out
        return self._module.decode(payload, count, dtype=dtype, delta=self.delta, **self._options())

    def _options(self) -> dict[str, Any]:
        """Keyword arguments of the codec module beyond ``delta``."""
        return {}


class VByte(_IntegerCodec):
    """VByte (LEB128) varints of ``dtype`` values: ``"<u4"``, ``"<u8"``,
    ``"<i4"``, ``"<i8"`` (signed ones zigzag-coded); ``delta=True`` (uint32)
    stores the gaps between successive values.

    >>> import numpy as np, numcodecs
    >>> codec = VByte(dtype="<i8")
    >>> a = np.array([-3, 0, 2**40], dtype=np.int64)
    >>> codec.decode(codec.encode(a)).tolist()
    [-3, 0, 1099511627776]
    >>> numcodecs.get_codec(codec.get_config()) == codec
    True
    """

    codec_id = "vecpress_vbyte"
    _module = vbyte
    _dtypes = ("<u4", "<u8", "<i4", "<i8")
    _delta_dtypes = ("<u4",)


class StreamVByte(_IntegerCodec):
    """Stream VByte of ``dtype`` values: ``"<u4"`` (byte-compatible with the
    reference C library), ``"<u8"``, ``"<i4"`` (zigzag), ``"<u2"``;
    ``delta=True`` stores the gaps between successive values,
    ``variant="0124"`` (uint32) suits data with many zeros.

    >>> import numpy as np, numcodecs
    >>> codec = StreamVByte(delta=True)
    >>> a = np.arange(0, 3000, 3, dtype=np.uint32)
    >>> enc = codec.encode(a)
    >>> len(enc) < a.nbytes // 3
    True
    >>> np.array_equal(codec.decode(enc).view(np.uint32), a)
    True
    >>> numcodecs.get_codec(codec.get_config())
    StreamVByte(delta=True, dtype='<u4', variant='1234')
    """

    codec_id = "vecpress_stream_vbyte"
    _module = stream_vbyte
    _dtypes = ("<u4", "<u8", "<i4", "<u2")
    _delta_dtypes = ("<u4", "<u8", "<i4")

    def __init__(self, dtype: Any = "<u4", delta: bool = False, variant: str = "1234"):
        super().__init__(dtype=dtype, delta=delta)
        if variant not in stream_vbyte.VARIANTS:
            raise ValueError(f"variant must be one of {stream_vbyte.VARIANTS}, got {variant!r}")
        if variant != "1234" and self.dtype != "<u4":
            raise ValueError("variant '0124' is for uint32")
        self.variant = variant

    def _options(self) -> dict[str, Any]:
        return {"variant": self.variant}


class BP128(_IntegerCodec):
    """SIMD-BP128 bit packing of ``"<u4"`` values (see
    :mod:`vecpress.bitpack`); ``delta=True`` packs the gaps between
    successive values, for sorted columns and posting lists.

    >>> import numpy as np, numcodecs
    >>> codec = BP128(delta=True)
    >>> a = np.arange(0, 40_000, 7, dtype=np.uint32)
    >>> enc = codec.encode(a)
    >>> len(enc) < a.nbytes // 8
    True
    >>> np.array_equal(codec.decode(enc).view(np.uint32), a)
    True
    >>> numcodecs.get_codec(codec.get_config())
    BP128(delta=True, dtype='<u4')
    """

    codec_id = "vecpress_bp128"
    _module = bitpack
    _dtypes = ("<u4",)
    _delta_dtypes = ("<u4",)

    def _options(self) -> dict[str, Any]:
        return {"codec": "bp128"}


class PFOR(BP128):
    """PFOR of ``"<u4"`` values (see :mod:`vecpress.bitpack`): blocks of 128
    in the width that makes each cheapest (its size plus a byte for each
    exception, for speed), larger values patched in;
    ``delta=True`` for sorted columns and posting lists.

    >>> import numpy as np
    >>> codec = PFOR(delta=True)
    >>> a = np.cumsum(np.random.default_rng(0).geometric(0.1, 5000), dtype=np.uint32)
    >>> np.array_equal(codec.decode(codec.encode(a)).view(np.uint32), a)
    True
    """

    codec_id = "vecpress_pfor"

    def _options(self) -> dict[str, Any]:
        return {"codec": "pfor"}


class FastLanes(BP128):
    """FastLanes bit packing of ``"<u4"`` values (see :mod:`vecpress.bitpack`):
    blocks of 1024 in the transposed layout; ``delta=True`` for sorted data.

    >>> import numpy as np
    >>> codec = FastLanes()
    >>> a = np.arange(5000, dtype=np.uint32) % 1000
    >>> np.array_equal(codec.decode(codec.encode(a)).view(np.uint32), a)
    True
    """

    codec_id = "vecpress_fastlanes"

    def _options(self) -> dict[str, Any]:
        return {"codec": "fastlanes"}


class FastLanesFoR(BP128):
    """FastLanes frame of reference of ``"<u4"`` values (codec
    ``"fastlanes-for"`` of :mod:`vecpress.bitpack`): each block of 1024
    packed minus its minimum, for columns whose values sit in a narrow band
    far from zero. It has no delta form (``delta=True`` raises
    ``ValueError``); the configuration keeps ``delta`` (always ``False``)
    so that it reads like the other bit packers'.

    >>> import numpy as np, numcodecs
    >>> codec = FastLanesFoR()
    >>> a = 3_000_000_000 + np.arange(4096, dtype=np.uint32) % 500
    >>> enc = codec.encode(a)
    >>> len(enc) < a.nbytes // 3
    True
    >>> np.array_equal(codec.decode(enc).view(np.uint32), a)
    True
    >>> numcodecs.get_codec(codec.get_config())
    FastLanesFoR(delta=False, dtype='<u4')
    """

    codec_id = "vecpress_fastlanes_for"
    _delta_dtypes = ()

    def _options(self) -> dict[str, Any]:
        return {"codec": "fastlanes-for"}


class ByteSplit(Codec):
    """Byte stream split (Parquet's ``BYTE_STREAM_SPLIT``) of values of
    ``dtype``: a filter that groups byte ``j`` of every value together so a
    compressor after it finds runs. The output is as long as the input.

    >>> import numpy as np, numcodecs
    >>> codec = ByteSplit(dtype="<f8")
    >>> a = np.linspace(0, 1, 1000)
    >>> enc = codec.encode(a)
    >>> len(enc) == a.nbytes
    True
    >>> np.array_equal(codec.decode(enc).view(np.float64), a)
    True
    """

    codec_id = "vecpress_byte_split"

    def __init__(self, dtype: Any = "<f4"):
        dtype = np.dtype(dtype)
        if dtype.kind not in "uifc":
            raise ValueError(f"ByteSplit takes numeric dtypes, not {dtype}")
        self.dtype = dtype.str

    def encode(self, buf: Any) -> bytes:
        """The chunk's bytes, split into ``itemsize`` streams."""
        return _native.byte_split_encode(_flat_bytes(buf), np.dtype(self.dtype).itemsize)

    def decode(self, buf: Any, out: Any = None) -> Any:
        """The chunk's bytes, joined back (into ``out`` when given)."""
        data = _flat_bytes(buf)
        target = np.empty(len(data), np.uint8) if out is None else _out_view(out, len(data), np.uint8)
        _native.byte_split_decode(data, np.dtype(self.dtype).itemsize, target)
        return target if out is None else out


class LZ4(Codec):
    """LZ4 blocks, byte-compatible with numcodecs' own ``LZ4`` codec: the
    decompressed size as 4 bytes little-endian, then one block, so either
    decodes the other's chunks.

    >>> import numpy as np, numcodecs
    >>> a = np.arange(100_000, dtype=np.int64) // 7
    >>> ours, theirs = LZ4(), numcodecs.LZ4()
    >>> np.array_equal(np.frombuffer(theirs.decode(ours.encode(a)), np.int64), a)
    True
    >>> np.array_equal(np.frombuffer(ours.decode(theirs.encode(a)), np.int64), a)
    True
    """

    codec_id = "vecpress_lz4"

    def __init__(self, acceleration: int = 1, level: int = 1):
        # The same checks as lz4.compress, made when the codec is built.
        lz4.compress(b"", level=level, acceleration=acceleration)
        self.acceleration = int(acceleration)
        self.level = int(level)

    def encode(self, buf: Any) -> bytes:
        """The chunk's bytes as a size-prefixed LZ4 block (at ``level`` 2 to
        12, the high-compression parsers: smaller chunks, read as fast)."""
        return lz4.compress(_flat_bytes(buf), level=self.level, acceleration=self.acceleration, store_size=True)

    def decode(self, buf: Any, out: Any = None) -> Any:
        """The chunk's bytes (into ``out`` when given)."""
        data = _flat_bytes(buf)
        # The native side reads the size prefix and refuses a size the block
        # cannot decode to, before it is allocated here.
        size = _native.lz4_sized_len(data)
        target = np.empty(size, np.uint8) if out is None else _out_view(out, size, np.uint8)
        _native.lz4_decompress_sized_into(data, target)
        return target if out is None else out


class ByteSplitLZ4(Codec):
    """Byte stream split of ``dtype`` values, then LZ4 (like Blosc's shuffle
    + LZ4): the size as 4 bytes little-endian, then one LZ4 block of the
    split bytes.

    >>> import numpy as np
    >>> codec = ByteSplitLZ4(dtype="<f8")
    >>> a = np.round(np.linspace(0, 100, 10_000), 2)
    >>> enc = codec.encode(a)
    >>> len(enc) < a.nbytes // 2
    True
    >>> np.array_equal(codec.decode(enc).view(np.float64), a)
    True
    """

    codec_id = "vecpress_byte_split_lz4"

    def __init__(self, dtype: Any = "<f4", acceleration: int = 1):
        self._split = ByteSplit(dtype)
        self._lz4 = LZ4(acceleration)
        self.dtype = self._split.dtype
        self.acceleration = self._lz4.acceleration

    def encode(self, buf: Any) -> bytes:
        """Split, then LZ4 with a size prefix."""
        return self._lz4.encode(self._split.encode(buf))

    def decode(self, buf: Any, out: Any = None) -> Any:
        """LZ4, then join (into ``out`` when given)."""
        return self._split.decode(self._lz4.decode(buf), out=out)


class Shuffle(Codec):
    """numcodecs' ``shuffle`` filter (Blosc's byte shuffle, which is byte
    stream split) under its id and configuration, byte-compatible with
    :class:`numcodecs.Shuffle` both ways: either decodes what the other
    wrote. :func:`register_standard` makes numcodecs and zarr use it for
    ``"shuffle"``.

    >>> import numpy as np, numcodecs
    >>> a = np.linspace(0, 1, 1000)
    >>> ours, theirs = Shuffle(elementsize=8), numcodecs.Shuffle(elementsize=8)
    >>> bytes(ours.encode(a)) == bytes(theirs.encode(a))
    True
    >>> np.array_equal(ours.decode(theirs.encode(a)).view(np.float64), a)
    True
    >>> ours.get_config() == theirs.get_config()
    True
    """

    codec_id = "shuffle"

    def __init__(self, elementsize: int = 4):
        self.elementsize = elementsize

    def _arrays(self, buf: Any, out: Any) -> tuple[np.ndarray, np.ndarray]:
        data = _flat_bytes(buf)
        target = np.empty(len(data), np.uint8) if out is None else _out_view(out, len(data), np.uint8)
        if self.elementsize > 1 and len(data) % self.elementsize:
            raise ValueError("Shuffle buffer is not an integer multiple of elementsize")
        return data, target

    def encode(self, buf: Any, out: Any = None) -> Any:
        """Byte ``j`` of every element together, for each ``j``."""
        data, target = self._arrays(buf, out)
        if self.elementsize <= 1:
            target[:] = data
        else:
            _native.byte_split_encode_into(data, int(self.elementsize), target)
        return target if out is None else out

    def decode(self, buf: Any, out: Any = None) -> Any:
        """The elements joined back (into ``out`` when given)."""
        data, target = self._arrays(buf, out)
        if self.elementsize <= 1:
            target[:] = data
        else:
            _native.byte_split_decode(data, int(self.elementsize), target)
        return target if out is None else out

    def __repr__(self) -> str:
        return f"{type(self).__name__}(elementsize={self.elementsize})"


class StandardLZ4(LZ4):
    """:class:`LZ4` under numcodecs' id ``"lz4"`` and its configuration
    (``acceleration`` alone), which :func:`register_standard` puts in place
    of :class:`numcodecs.LZ4`.

    >>> import numcodecs
    >>> StandardLZ4(acceleration=2).get_config() == numcodecs.LZ4(acceleration=2).get_config()
    True
    """

    codec_id = "lz4"

    def __init__(self, acceleration: int = 1):
        super().__init__(acceleration=acceleration)

    def get_config(self) -> dict[str, Any]:
        return {"id": self.codec_id, "acceleration": self.acceleration}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(acceleration={self.acceleration})"


class Blosc(Codec):
    """numcodecs' ``blosc`` codec (version-1 Blosc frames) under its id,
    constructor and configuration, byte-compatible with
    :class:`numcodecs.Blosc`: frames with the ``lz4`` and ``lz4hc``
    compressors (numcodecs' default is ``lz4``), any shuffle, type size and
    block size, are written and read by vecpress's kernels with the GIL
    released; frames of other compressors (``zstd``, ``blosclz``, ...) go to
    numcodecs' own Blosc, so :func:`register_standard` changes no result.

    >>> import numpy as np, numcodecs
    >>> a = np.cumsum(np.random.default_rng(1).normal(size=10_000))
    >>> ours, theirs = Blosc(), numcodecs.Blosc()
    >>> np.array_equal(np.frombuffer(theirs.decode(ours.encode(a)), np.float64), a)
    True
    >>> np.array_equal(np.frombuffer(ours.decode(theirs.encode(a)), np.float64), a)
    True
    >>> ours.get_config() == theirs.get_config()
    True
    """

    codec_id = "blosc"
    NOSHUFFLE = 0
    SHUFFLE = 1
    BITSHUFFLE = 2
    AUTOSHUFFLE = -1
    AUTOBLOCKS = 0
    # numcodecs' limit on a buffer (c-blosc's BLOSC_MAX_BUFFERSIZE).
    max_buffer_size = 2**31 - 1 - 16
    #: Threads a decode uses (its blocks, or the splits of a one-block
    #: frame), as c-blosc's ``nthreads``: all the cores, up to 8.
    nthreads: int = min(8, os.cpu_count() or 1)
    #: As numcodecs' ``blosc.use_threads``: None uses :attr:`nthreads` when
    #: called from the main thread and one thread elsewhere (where the
    #: caller, a zarr pipeline or a Dask worker, runs chunks in parallel
    #: itself); True always, False never.
    use_threads: bool | None = None

    def __init__(
        self,
        cname: str = "lz4",
        clevel: int = 5,
        shuffle: int = SHUFFLE,
        blocksize: int = AUTOBLOCKS,
        typesize: int | None = None,
    ):
        if shuffle not in (-1, 0, 1, 2):
            raise ValueError(f"shuffle must be -1, 0, 1 or 2, not {shuffle!r}")
        if not 0 <= int(clevel) <= 9:
            raise ValueError(f"clevel must be 0 to 9, not {clevel!r}")
        if typesize is not None and typesize < 1:
            raise ValueError(f"Cannot use typesize {typesize} less than 1.")
        self.cname = cname
        self.clevel = int(clevel)
        self.shuffle = int(shuffle)
        self.blocksize = int(blocksize)
        self._typesize = typesize

    def get_config(self) -> dict[str, Any]:
        return {
            "id": self.codec_id,
            "cname": self.cname,
            "clevel": self.clevel,
            "shuffle": self.shuffle,
            "blocksize": self.blocksize,
        }

    def _numcodecs(self) -> Codec:
        """numcodecs' own Blosc with this configuration (other compressors).

        numcodecs takes ``typesize`` from 0.16 on; before, its Blosc reads
        the element size from the buffer, and ``typesize`` is left out, as
        zarr's own ``BloscCodec`` does with those versions (so the frames are
        the ones plain zarr writes with the same numcodecs).
        """
        from numcodecs.blosc import Blosc as Theirs

        args = (self.cname, self.clevel, self.shuffle, self.blocksize)
        if _takes_typesize(Theirs):
            return Theirs(*args, typesize=self._typesize)
        return Theirs(*args)

    def encode(self, buf: Any) -> bytes:
        """The chunk as one Blosc frame; the element size is ``typesize``
        or the buffer's item size."""
        if self.cname not in ("lz4", "lz4hc"):
            return self._numcodecs().encode(buf)
        arr = ensure_contiguous_ndarray(buf)
        typesize = self._typesize or arr.dtype.itemsize
        shuffle = self.shuffle
        if shuffle == self.AUTOSHUFFLE:
            shuffle = self.BITSHUFFLE if arr.dtype.itemsize == 1 else self.SHUFFLE
        data = arr.reshape(-1).view(np.uint8)
        if len(data) > self.max_buffer_size:
            raise ValueError(f"Codec does not support buffers of > {self.max_buffer_size} bytes")
        return _native.blosc_compress(data, self.cname, self.clevel, shuffle, typesize, self.blocksize)

    def decode(self, buf: Any, out: Any = None) -> Any:
        """The chunk's bytes (into ``out`` when given)."""
        data = _flat_bytes(buf)
        try:
            size = _native.blosc_nbytes(data, self.max_buffer_size)
            target = np.empty(size, np.uint8) if out is None else _out_view(out, size, np.uint8)
            _native.blosc_decompress_into(data, target, self._threads())
        except UnsupportedFormatError:
            return self._numcodecs().decode(buf, out)
        return target if out is None else out

    def _threads(self) -> int:
        use = self.use_threads
        if use is None:
            use = threading.current_thread() is threading.main_thread()
        return max(1, self.nthreads) if use else 1

    def __repr__(self) -> str:
        names = {0: "NOSHUFFLE", 1: "SHUFFLE", 2: "BITSHUFFLE", -1: "AUTOSHUFFLE"}
        return (
            f"{type(self).__name__}(cname={self.cname!r}, clevel={self.clevel}, "
            f"shuffle={names[self.shuffle]}, blocksize={self.blocksize})"
        )


@functools.lru_cache(maxsize=None)
def _takes_typesize(blosc: type) -> bool:
    """Whether numcodecs' Blosc class ``blosc`` takes ``typesize`` (numcodecs
    0.16 on), read once per class from its signature, or from numcodecs'
    version where a compiled class offers no signature."""
    try:
        return "typesize" in inspect.signature(blosc).parameters
    except (TypeError, ValueError):
        import numcodecs

        major, minor = (int(n) for n in re.findall(r"\d+", numcodecs.__version__)[:2])
        return (major, minor) >= (0, 16)


# The standard ids served by vecpress's implementations, and what numcodecs
# had registered for them before register_standard() (restored by
# unregister_standard()).
_STANDARD: tuple[type[Codec], ...] = (Shuffle, StandardLZ4, Blosc)
_REPLACED: dict[str, Any] = {}


def register_standard(pipeline: bool = True) -> None:
    """Makes :func:`numcodecs.get_codec`, and through it zarr format 2
    arrays, use vecpress's implementations for the standard ids
    ``"shuffle"``, ``"lz4"`` and ``"blosc"``. The bytes are the same both ways, so data
    written either way reads either way; :func:`unregister_standard` puts
    numcodecs' own back.

    With ``pipeline`` (the default), and zarr 3.1 or later installed with
    its own codec pipeline configured, zarr's ``codec_pipeline.path`` is set
    to :class:`vecpress.zarr3.CodecPipeline` as well, so that arrays opened
    from then on read their Blosc-LZ4 chunks straight into the output on
    vecpress's threads (format 2 and format 3 alike); a pipeline chosen by
    the user (``zarrs``, say) is left as it is.

    >>> import numcodecs
    >>> register_standard()
    >>> type(numcodecs.get_codec({"id": "shuffle", "elementsize": 4})).__module__
    'vecpress.numcodecs'
    >>> unregister_standard()
    >>> type(numcodecs.get_codec({"id": "shuffle", "elementsize": 4})).__module__
    'numcodecs.shuffle'
    """
    from numcodecs import registry

    for cls in _STANDARD:
        current = registry.codec_registry.get(cls.codec_id)
        if current is not cls:
            _REPLACED.setdefault(cls.codec_id, current)
            registry.register_codec(cls)
    if pipeline and not _PIPELINE_REPLACED:
        config = _zarr_config()
        if config is not None and config.get("codec_pipeline.path") == _ZARR_PIPELINE:
            config.set({"codec_pipeline.path": _OUR_PIPELINE})
            _PIPELINE_REPLACED.append(_ZARR_PIPELINE)


def unregister_standard() -> None:
    """Undoes :func:`register_standard`: numcodecs' own implementations
    serve the standard ids again, and zarr's pipeline its arrays."""
    from numcodecs import registry

    for codec_id, previous in list(_REPLACED.items()):
        if previous is None:
            registry.codec_registry.pop(codec_id, None)
        else:
            registry.register_codec(previous, codec_id)
        del _REPLACED[codec_id]
    if _PIPELINE_REPLACED:
        config = _zarr_config()
        if config is not None and config.get("codec_pipeline.path") == _OUR_PIPELINE:
            config.set({"codec_pipeline.path": _PIPELINE_REPLACED[0]})
        _PIPELINE_REPLACED.clear()


_ZARR_PIPELINE = "zarr.core.codec_pipeline.BatchedCodecPipeline"
_OUR_PIPELINE = "vecpress.zarr3.CodecPipeline"
# zarr's pipeline path before register_standard() set vecpress's, if it did.
_PIPELINE_REPLACED: list[str] = []


def _zarr_config() -> Any:
    """zarr's configuration, once vecpress's pipeline is registered with it;
    None without zarr 3.1 or later (whose pipeline vecpress's extends)."""
    try:
        import zarr

        from vecpress import zarr3  # noqa: F401  (registers the pipeline)
    except ImportError:
        return None
    return zarr.config
