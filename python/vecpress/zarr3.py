"""vecpress codecs for zarr format 3 arrays.

Zarr format 2 arrays take the :mod:`vecpress.numcodecs` codecs directly
(``compressors=VByte()``). Format 3 arrays name their codecs in the array
metadata; these adapters, zarr bytes-to-bytes codecs
(:class:`zarr.abc.codec.BytesBytesCodec`) over the numcodecs codecs, put the
vecpress codecs there as ``numcodecs.vecpress_*``, with the numcodecs
codec's configuration. They are registered with
:func:`zarr.registry.register_codec` when this module is imported, and under
the ``zarr.codecs`` entry point, so zarr finds them when it opens the array
again in any process. :class:`Blosc` serves zarr's own ``blosc`` codec once
selected in zarr's configuration.

>>> import numpy as np, zarr, warnings
>>> from vecpress.zarr3 import StreamVByte
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")  # "not in the zarr v3 specification"
...     z = zarr.create_array(zarr.storage.MemoryStore(), shape=(10_000,), chunks=(1000,),
...                           dtype="uint32", compressors=[StreamVByte(delta=True)])
...     z[:] = np.arange(10_000, dtype=np.uint32)
...     assert (z[:] == np.arange(10_000)).all()
"""

from __future__ import annotations

import asyncio
import functools
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar
from warnings import warn

import numpy as np
from numcodecs.abc import Codec
from zarr.abc.codec import BytesBytesCodec
from zarr.codecs import BloscCodec, BytesCodec
from zarr.core.codec_pipeline import BatchedCodecPipeline, fill_value_or_default
from zarr.core.common import concurrent_map
from zarr.core.config import config
from zarr.storage import LocalStore
from zarr.errors import ZarrUserWarning
from zarr.registry import register_codec, register_pipeline

from vecpress import _native
from vecpress import numcodecs as _numcodecs

if TYPE_CHECKING:
    from typing import Self

    from collections.abc import Iterable

    from zarr.abc.store import ByteGetter
    from zarr.core.array_spec import ArraySpec
    from zarr.core.buffer import Buffer, BufferPrototype, NDBuffer
    from zarr.core.indexing import SelectorTuple

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
    "Blosc",
    "CodecPipeline",
]

# The name prefix zarr gives numcodecs codecs in format 3 metadata; arrays
# written with it open with these adapters.
_PREFIX = "numcodecs."


@dataclass(frozen=True)
class _Adapter(BytesBytesCodec):
    """A numcodecs codec (the subclass's ``codec``) as a zarr format 3
    bytes-to-bytes codec named ``numcodecs.<codec_id>``."""

    codec_config: dict[str, Any]

    codec_name: ClassVar[str]
    _codec_class: ClassVar[type[Codec]]
    is_fixed_size = False

    def __init_subclass__(cls, *, codec: type[Codec] | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if codec is not None:
            cls._codec_class = codec
            cls.codec_name = _PREFIX + codec.codec_id

    def __init__(self, **codec_config: Any) -> None:
        codec_id = codec_config.pop("id", self._codec_class.codec_id)
        if codec_id != self._codec_class.codec_id:
            raise ValueError(f"codec id {codec_id!r} is not {self._codec_class.codec_id!r}")
        object.__setattr__(self, "codec_config", codec_config)
        warn(
            "Numcodecs codecs are not in the Zarr version 3 specification and "
            "may not be supported by other zarr implementations.",
            category=ZarrUserWarning,
            stacklevel=2,
        )

    @cached_property
    def _codec(self) -> Codec:
        return self._codec_class(**self.codec_config)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        if data.get("name") != cls.codec_name:
            raise ValueError(f"expected a codec named {cls.codec_name!r}, got {data.get('name')!r}")
        return cls(**(data.get("configuration") or {}))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.codec_name, "configuration": dict(self.codec_config)}

    def compute_encoded_size(self, input_byte_length: int, chunk_spec: ArraySpec) -> int:
        raise NotImplementedError  # a compressor's output size depends on the data

    def _decode(self, chunk: Buffer, prototype: BufferPrototype) -> Buffer:
        return prototype.buffer.from_bytes(self._codec.decode(chunk.as_numpy_array()))

    def _encode(self, chunk: Buffer, prototype: BufferPrototype) -> Buffer:
        return prototype.buffer.from_bytes(self._codec.encode(chunk.as_numpy_array()))

    # The codecs release the GIL while they run: a thread each lets zarr's
    # event loop code other chunks meanwhile.
    async def _decode_single(self, chunk_data: Buffer, chunk_spec: ArraySpec) -> Buffer:
        return await asyncio.to_thread(self._decode, chunk_data, chunk_spec.prototype)

    async def _encode_single(self, chunk_data: Buffer, chunk_spec: ArraySpec) -> Buffer:
        return await asyncio.to_thread(self._encode, chunk_data, chunk_spec.prototype)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(codec_name={self.codec_name!r}, codec_config={self.codec_config!r})"


class VByte(_Adapter, codec=_numcodecs.VByte):
    """:class:`vecpress.numcodecs.VByte` in a zarr format 3 array."""


class StreamVByte(_Adapter, codec=_numcodecs.StreamVByte):
    """:class:`vecpress.numcodecs.StreamVByte` in a zarr format 3 array."""


class BP128(_Adapter, codec=_numcodecs.BP128):
    """:class:`vecpress.numcodecs.BP128` in a zarr format 3 array."""


class PFOR(_Adapter, codec=_numcodecs.PFOR):
    """:class:`vecpress.numcodecs.PFOR` in a zarr format 3 array."""


class FastLanes(_Adapter, codec=_numcodecs.FastLanes):
    """:class:`vecpress.numcodecs.FastLanes` in a zarr format 3 array."""


class FastLanesFoR(_Adapter, codec=_numcodecs.FastLanesFoR):
    """:class:`vecpress.numcodecs.FastLanesFoR` in a zarr format 3 array."""


class ByteSplit(_Adapter, codec=_numcodecs.ByteSplit):
    """:class:`vecpress.numcodecs.ByteSplit` in a zarr format 3 array."""


class LZ4(_Adapter, codec=_numcodecs.LZ4):
    """:class:`vecpress.numcodecs.LZ4` in a zarr format 3 array."""


class ByteSplitLZ4(_Adapter, codec=_numcodecs.ByteSplitLZ4):
    """:class:`vecpress.numcodecs.ByteSplitLZ4` in a zarr format 3 array."""


for _cls in (VByte, StreamVByte, BP128, PFOR, FastLanes, FastLanesFoR, ByteSplit, LZ4, ByteSplitLZ4):
    register_codec(_cls.codec_name, _cls)


class Blosc(BloscCodec):
    """zarr's own ``blosc`` codec (format 3 metadata, the same name and
    configuration), its chunks compressed and decompressed by
    :class:`vecpress.numcodecs.Blosc` (LZ4 frames by vecpress's kernels,
    other compressors by numcodecs). Arrays stay readable by plain zarr.
    Select it in place of zarr's with
    ``zarr.config.set({"codecs.blosc": "vecpress.zarr3.Blosc"})``: zarr
    finds it under the ``zarr.codecs.blosc`` entry point, so the setting
    works in any process (a Dask worker, say) without importing this module
    first; without the setting zarr keeps its own.

    >>> import numpy as np, zarr
    >>> store = zarr.storage.MemoryStore()
    >>> z = zarr.create_array(store, shape=(10_000,), chunks=(1000,), dtype="float64",
    ...                       compressors=[zarr.codecs.BloscCodec(cname="lz4")])
    >>> z[:] = np.arange(10_000) / 7
    >>> with zarr.config.set({"codecs.blosc": "vecpress.zarr3.Blosc"}):
    ...     back = zarr.open_array(store, mode="r")
    ...     assert (back[:] == np.arange(10_000) / 7).all()
    ...     type(back.metadata.codecs[-1]).__module__
    'vecpress.zarr3'
    """

    @cached_property
    def _vecpress_blosc(self) -> _numcodecs.Blosc:
        return _numcodecs.Blosc(
            cname=_cname(self),
            clevel=self.clevel,
            shuffle=_shuffle(self),
            blocksize=self.blocksize,
            typesize=self.typesize,
        )

    # zarr's BloscCodec runs chunks through its private `_blosc_codec`. The
    # codec methods every zarr codec implements are overridden as well, so a
    # renamed private attribute cannot quietly bring numcodecs' Blosc back.
    @property
    def _blosc_codec(self) -> Codec:
        return self._vecpress_blosc

    def _decode_sync(self, chunk_bytes: Buffer, chunk_spec: ArraySpec) -> Buffer:
        return chunk_spec.prototype.buffer.from_bytes(self._vecpress_blosc.decode(chunk_bytes.as_numpy_array()))

    def _encode_sync(self, chunk_bytes: Buffer, chunk_spec: ArraySpec) -> Buffer:
        return chunk_spec.prototype.buffer.from_bytes(self._vecpress_blosc.encode(chunk_bytes.as_numpy_array()))

    # The codec releases the GIL: a thread each lets zarr code other chunks meanwhile.
    async def _decode_single(self, chunk_bytes: Buffer, chunk_spec: ArraySpec) -> Buffer:
        return await asyncio.to_thread(self._decode_sync, chunk_bytes, chunk_spec)

    async def _encode_single(self, chunk_bytes: Buffer, chunk_spec: ArraySpec) -> Buffer:
        return await asyncio.to_thread(self._encode_sync, chunk_bytes, chunk_spec)


register_codec("blosc", Blosc)


class CodecPipeline(BatchedCodecPipeline):
    """zarr's codec pipeline, with the reads of Blosc-LZ4 arrays decoded by
    vecpress straight into the array zarr returns. Select it with
    ``zarr.config.set({"codec_pipeline.path": "vecpress.zarr3.CodecPipeline"})``
    (or the ``ZARR_CODEC_PIPELINE__PATH`` environment variable); arrays stay
    the same bytes, readable by any zarr.

    A read whose array holds fixed-size values in native byte order, in C
    order, compressed by one Blosc codec of the ``lz4`` or ``lz4hc``
    compressor and nothing else (format 3: ``bytes`` then ``blosc``;
    format 2: ``compressor`` Blosc, no filters) takes the direct path: each
    chunk that the selection covers whole and whose place in the output is
    one contiguous run of memory is decoded there, no intermediate buffer,
    its stored bytes read by the decoding thread itself from a local store's
    file (fetched by the store, a group of chunks at a time, from any other
    store), on ``threading.max_workers`` threads (all the cores when unset)
    with the GIL released; the blocks of one chunk are decoded in parallel
    when there are fewer chunks than threads. Writes of whole chunks take
    the same path the other way: compressed on those threads, frames
    byte-identical to the array's own codec's. Chunks read or written in
    part, and other codecs, go through zarr's own pipeline unchanged.

    >>> import numpy as np, zarr
    >>> store = zarr.storage.MemoryStore()
    >>> z = zarr.create_array(store, shape=(10_000,), chunks=(1000,), dtype="float64",
    ...                       compressors=[zarr.codecs.BloscCodec(cname="lz4")])
    >>> z[:] = np.arange(10_000) / 7
    >>> with zarr.config.set({"codec_pipeline.path": "vecpress.zarr3.CodecPipeline"}):
    ...     back = zarr.open_array(store, mode="r")
    ...     assert (back[:] == np.arange(10_000) / 7).all()
    ...     assert (back[2500:2600] == np.arange(2500, 2600) / 7).all()
    ...     type(back.async_array.codec_pipeline).__name__
    'CodecPipeline'
    """

    #: Chunks fetched and decoded at a time, per decoding thread: the next
    #: group is fetched while one decodes, so about two groups of stored
    #: bytes are held at once.
    group = 4

    def _direct(self) -> bool:
        """Whether the codecs allow the direct path (the array's dtype and
        order are checked per chunk)."""
        if self.array_array_codecs:
            return False
        ab, bb = self.array_bytes_codec, self.bytes_bytes_codecs
        if isinstance(ab, BytesCodec):
            if ab.endian is not None and ab.endian.value != sys.byteorder:
                return False
            if len(bb) != 1 or not isinstance(bb[0], BloscCodec):
                return False
            return _cname(bb[0]) in ("lz4", "lz4hc")
        if type(ab).__name__ == "V2Codec" and not bb and not getattr(ab, "filters", None):
            compressor = getattr(ab, "compressor", None)
            config_ = compressor.get_config() if compressor is not None else {}
            return config_.get("id") == "blosc" and config_.get("cname") in ("lz4", "lz4hc")
        return False

    async def read(
        self,
        batch_info: Iterable[tuple[ByteGetter, ArraySpec, SelectorTuple, SelectorTuple, bool]],
        out: NDBuffer,
        drop_axes: tuple[int, ...] = (),
    ) -> None:
        batch_info = list(batch_info)
        target = out.as_ndarray_like()
        if not self._direct() or not isinstance(target, np.ndarray):
            return await super().read(batch_info, out, drop_axes)
        direct: list[tuple[ByteGetter, ArraySpec, np.ndarray]] = []
        rest = []
        for item in batch_info:
            byte_getter, spec, _, out_selection, is_complete = item
            view = self._place(target, spec, out_selection, is_complete)
            if view is None:
                rest.append(item)
            else:
                direct.append((byte_getter, spec, view))
        if rest:
            await super().read(rest, out, drop_axes)
        if not direct:
            return
        threads = config.get("threading.max_workers") or os.cpu_count() or 1
        loop = asyncio.get_running_loop()
        # Chunks of a store on local disk are read by the decoding threads
        # themselves, each into a buffer it keeps; others are fetched by the
        # store, a group at a time, the next group while one decodes.
        files, fetched = [], []
        for item in direct:
            path = _local_file(item[0])
            if path is None:
                fetched.append(item)
            else:
                files.append((path, *item))
        size = self.group * threads
        for i in range(0, len(files), 16 * size):
            g = [item for _, *item in files[i : i + 16 * size]]
            paths = [path for path, *_ in files[i : i + 16 * size]]
            outs = [view.reshape(-1).view(np.uint8) for _, _, view in g]
            missing = await loop.run_in_executor(_decoder(), _native.blosc_decompress_files, paths, outs, threads)
            for k in missing:
                g[k][2][...] = fill_value_or_default(g[k][1])
        if not fetched:
            return
        limit = config.get("async.concurrency")
        groups = [fetched[i : i + size] for i in range(0, len(fetched), size)]

        async def fetch(g: list[tuple[ByteGetter, ArraySpec, np.ndarray]]) -> list[Buffer | None]:
            return await concurrent_map(
                [(bg, spec.prototype) for bg, spec, _ in g], lambda bg, proto: bg.get(proto), limit
            )

        pending = asyncio.ensure_future(fetch(groups[0]))
        for k, g in enumerate(groups):
            stored = await pending
            if k + 1 < len(groups):
                pending = asyncio.ensure_future(fetch(groups[k + 1]))
            frames, outs = [], []
            for buf, (_, spec, view) in zip(stored, g, strict=True):
                if buf is None:
                    view[...] = fill_value_or_default(spec)
                else:
                    frames.append(buf.as_numpy_array())
                    outs.append(view.reshape(-1).view(np.uint8))
            if frames:
                # On a thread of vecpress's own: zarr's pool (threading.max_workers,
                # perhaps one thread) stays free to fetch the next group meanwhile.
                await loop.run_in_executor(_decoder(), _native.blosc_decompress_many, frames, outs, threads)

    def _encoder_params(self, spec: ArraySpec) -> tuple[str, int, int, int, int] | None:
        """The Blosc parameters the array's codec writes chunks of `spec`
        with (cname, clevel, shuffle, typesize, blocksize), as
        :class:`vecpress.numcodecs.Blosc` takes them: frames byte-identical
        to that codec's, and so to c-blosc's; None where the direct path
        does not write."""
        if not self._direct():
            return None
        itemsize = spec.dtype.to_native_dtype().itemsize
        if isinstance(self.array_bytes_codec, BytesCodec):
            codec = self.bytes_bytes_codecs[0].evolve_from_array_spec(spec)
            return _cname(codec), codec.clevel, _shuffle(codec), codec.typesize or itemsize, codec.blocksize
        compressor = self.array_bytes_codec.compressor
        conf = compressor.get_config()
        shuffle = conf.get("shuffle", 1)
        if shuffle == -1:
            shuffle = 2 if itemsize == 1 else 1
        typesize = getattr(compressor, "_typesize", None) or itemsize
        return conf["cname"], conf.get("clevel", 5), shuffle, typesize, conf.get("blocksize", 0)

    async def write(
        self,
        batch_info: Iterable[tuple[ByteSetter, ArraySpec, SelectorTuple, SelectorTuple, bool]],
        value: NDBuffer,
        drop_axes: tuple[int, ...] = (),
    ) -> None:
        """Whole chunks whose values are one contiguous run of `value` are
        compressed on vecpress's threads (all of a group in one call, the
        GIL released) and stored as zarr stores them (chunks equal to the
        fill value deleted, unless ``write_empty_chunks``); every other
        chunk goes through zarr's own pipeline."""
        batch_info = list(batch_info)
        source = value.as_ndarray_like()
        if drop_axes or not isinstance(source, np.ndarray) or source.ndim == 0 or not batch_info:
            return await super().write(batch_info, value, drop_axes)
        params = self._encoder_params(batch_info[0][1])
        if params is None or params[0] not in ("lz4", "lz4hc"):
            return await super().write(batch_info, value, drop_axes)
        direct, rest = [], []
        for item in batch_info:
            byte_setter, spec, _, out_selection, is_complete = item
            view = self._place(source, spec, out_selection, is_complete)
            if view is None or self._encoder_params(spec) != params:
                rest.append(item)
            else:
                direct.append((byte_setter, spec, view))
        if rest:
            await super().write(rest, value, drop_axes)
        threads = config.get("threading.max_workers") or os.cpu_count() or 1
        limit = config.get("async.concurrency")
        loop = asyncio.get_running_loop()
        # A group's frames are held until stored: as many chunks as a read's group.
        size = self.group * threads
        for i in range(0, len(direct), size):
            g = direct[i : i + size]
            empty = [bs for bs, spec, view in g if not spec.config.write_empty_chunks and _all_fill(view, spec)]
            g = [item for item in g if item[0] not in empty] if empty else g
            if g:
                srcs = [view.reshape(-1).view(np.uint8) for _, _, view in g]
                frames = await loop.run_in_executor(_decoder(), _native.blosc_compress_many, srcs, *params, threads)
                await concurrent_map(
                    [(bs, spec.prototype.buffer.from_bytes(f)) for (bs, spec, _), f in zip(g, frames, strict=True)],
                    lambda bs, buf: bs.set(buf),
                    limit,
                )
            if empty:
                await concurrent_map([(bs,) for bs in empty], lambda bs: bs.delete(), limit)

    @staticmethod
    def _place(target: np.ndarray, spec: ArraySpec, out_selection: SelectorTuple, is_complete: bool) -> np.ndarray | None:
        """The chunk's place in `target` when the direct path can decode it
        there: a whole chunk of the array's dtype and C order whose place is
        one contiguous run of memory; else None."""
        if not is_complete or spec.order != "C":
            return None
        dtype = spec.dtype.to_native_dtype()
        if dtype != target.dtype or dtype.hasobject or not dtype.isnative or dtype.itemsize == 0:
            return None
        try:
            view = target[out_selection]
        except (IndexError, TypeError):
            return None
        if not isinstance(view, np.ndarray) or not view.flags.c_contiguous or view.size != int(np.prod(spec.shape)):
            return None
        if view.base is None and view is not target:
            return None  # a copy (fancy indexing), not a place in target
        return view


def _cname(codec: BloscCodec) -> str:
    """A zarr ``BloscCodec``'s compressor name."""
    return getattr(codec.cname, "value", codec.cname)


def _shuffle(codec: BloscCodec) -> int:
    """A zarr ``BloscCodec``'s shuffle as numcodecs numbers it."""
    return {"noshuffle": 0, "shuffle": 1, "bitshuffle": 2}[getattr(codec.shuffle, "value", codec.shuffle)]


def _all_fill(view: np.ndarray, spec: ArraySpec) -> bool:
    """Whether the chunk `view` holds only its fill value, as zarr judges it
    (``NDBuffer.all_equal``). Its first value decides most chunks at once:
    the whole comparison, a pass over the chunk, runs only when that one is
    the fill value."""
    fill = fill_value_or_default(spec)
    nd = spec.prototype.nd_buffer
    flat = view.reshape(-1)
    if not nd.from_ndarray_like(flat[:1]).all_equal(fill):
        return False
    return bool(nd.from_ndarray_like(view).all_equal(fill))


def _local_file(byte_getter: Any) -> str | None:
    """The file that holds a chunk of a zarr ``LocalStore`` (as the store
    itself names it), or None for a chunk of another store."""
    store = getattr(byte_getter, "store", None)
    if isinstance(store, LocalStore) and getattr(store, "_is_open", False) and isinstance(getattr(byte_getter, "path", None), str):
        return os.fspath(store.root / byte_getter.path)
    return None


@functools.lru_cache(maxsize=1)
def _decoder() -> ThreadPoolExecutor:
    """The thread that runs :class:`CodecPipeline`'s decoding calls (each
    call spreads its chunks over its own threads)."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="vecpress-decode")


register_pipeline(CodecPipeline)
