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
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar
from warnings import warn

from numcodecs.abc import Codec
from zarr.abc.codec import BytesBytesCodec
from zarr.codecs import BloscCodec
from zarr.errors import ZarrUserWarning
from zarr.registry import register_codec

from vecpress import numcodecs as _numcodecs

if TYPE_CHECKING:
    from typing import Self

    from zarr.core.array_spec import ArraySpec
    from zarr.core.buffer import Buffer, BufferPrototype

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
        shuffle = {"noshuffle": 0, "shuffle": 1, "bitshuffle": 2}[getattr(self.shuffle, "value", self.shuffle)]
        return _numcodecs.Blosc(
            cname=getattr(self.cname, "value", self.cname),
            clevel=self.clevel,
            shuffle=shuffle,
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
