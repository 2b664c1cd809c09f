"""vecpress codecs for zarr format 3 arrays.

Zarr format 2 arrays take the :mod:`vecpress.numcodecs` codecs directly
(``compressors=VByte()``). Format 3 arrays name their codecs in the array
metadata; these adapters (over zarr's own numcodecs wrapper) put the vecpress
codecs there as ``numcodecs.vecpress_*`` bytes-to-bytes codecs, registered
under the ``zarr.codecs`` entry point so zarr finds them when it opens the
array again.

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

from zarr.codecs.numcodecs._codecs import _NumcodecsBytesBytesCodec

__all__ = ["VByte", "StreamVByte", "ByteSplit", "LZ4", "ByteSplitLZ4"]


class VByte(_NumcodecsBytesBytesCodec, codec_name="vecpress_vbyte"):
    """:class:`vecpress.numcodecs.VByte` in a zarr format 3 array."""


class StreamVByte(_NumcodecsBytesBytesCodec, codec_name="vecpress_stream_vbyte"):
    """:class:`vecpress.numcodecs.StreamVByte` in a zarr format 3 array."""


class ByteSplit(_NumcodecsBytesBytesCodec, codec_name="vecpress_byte_split"):
    """:class:`vecpress.numcodecs.ByteSplit` in a zarr format 3 array."""


class LZ4(_NumcodecsBytesBytesCodec, codec_name="vecpress_lz4"):
    """:class:`vecpress.numcodecs.LZ4` in a zarr format 3 array."""


class ByteSplitLZ4(_NumcodecsBytesBytesCodec, codec_name="vecpress_byte_split_lz4"):
    """:class:`vecpress.numcodecs.ByteSplitLZ4` in a zarr format 3 array."""
