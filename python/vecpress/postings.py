"""Queries on posting lists: the intersection and union of sorted uint32
lists, answered straight from their delta-coded bytes.

A list is a pair ``(data, count)``: the bytes :func:`vecpress.stream_vbyte.encode`,
:func:`vecpress.vbyte.encode` or :func:`vecpress.bitpack.encode` (bp128,
FastLanes, PFOR) wrote with ``delta=True``, and how many values they hold. An intersection is driven by the shortest list: the
others are read forward by cursor, skipping what cannot hold its values
(whole Stream VByte groups by their gaps' sums, FastLanes blocks by their
last value, without decoding them), and
blocks of like density are merged by SIMD kernels. The GIL is released while
a query runs.

>>> import numpy as np
>>> from vecpress import postings, stream_vbyte
>>> rare = np.array([3, 70, 500, 9002], dtype=np.uint32)
>>> common = np.arange(0, 10_000, 7, dtype=np.uint32)
>>> lists = [(stream_vbyte.encode(x, delta=True), len(x)) for x in (rare, common)]
>>> postings.intersect(lists).tolist()
[70, 9002]
>>> postings.intersect_count(lists)
2
>>> len(postings.union(lists))
1431

Damaged bytes raise what the decoder raises (:class:`vecpress.TruncatedError`,
:class:`vecpress.CorruptError`), from the block where a cursor meets them.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from vecpress import _native

__all__ = [
    "intersect",
    "intersect_count",
    "union",
    "decode_lists",
    "intersect_lists",
    "union_lists",
    "hybrid_encode",
    "hybrid_decode",
    "hybrid_intersect",
    "hybrid_intersect_count",
    "hybrid_union",
    "CODECS",
]

#: The codecs whose delta-coded lists queries read.
CODECS = ("stream-vbyte", "vbyte", "bp128", "fastlanes", "pfor")


def _lists(lists: Sequence[tuple[Any, int]]) -> list[tuple[Any, int]]:
    out = []
    for i, pair in enumerate(lists):
        try:
            data, count = pair
        except (TypeError, ValueError):
            raise TypeError(f"list {i}: expected a pair (data, count), got {type(pair).__name__}") from None
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 0:
            raise ValueError(f"list {i}: count must be a non-negative int, got {count!r}")
        out.append((data, int(count)))
    return out


def _codec(codec: str) -> str:
    name = codec.replace("_", "-")
    if name not in CODECS:
        raise ValueError(f"unknown codec {codec!r} for queries (expected one of {', '.join(CODECS)})")
    return name


def intersect(lists: Sequence[tuple[Any, int]], *, codec: str = "stream-vbyte") -> npt.NDArray[np.uint32]:
    """The values in every list, in order, as a uint32 array (empty for no list).

    >>> from vecpress import vbyte
    >>> a = vbyte.encode(np.array([1, 5, 9], dtype=np.uint32), delta=True)
    >>> b = vbyte.encode(np.array([5, 9, 12], dtype=np.uint32), delta=True)
    >>> intersect([(a, 3), (b, 3)], codec="vbyte").tolist()
    [5, 9]
    """
    return _native.postings_query(_lists(lists), _codec(codec), "and")


def intersect_count(lists: Sequence[tuple[Any, int]], *, codec: str = "stream-vbyte") -> int:
    """How many values are in every list, without returning them."""
    return int(_native.postings_query(_lists(lists), _codec(codec), "count"))


def union(lists: Sequence[tuple[Any, int]], *, codec: str = "stream-vbyte") -> npt.NDArray[np.uint32]:
    """The values in any list, in order and each once, as a uint32 array.

    >>> from vecpress import stream_vbyte
    >>> a = stream_vbyte.encode(np.array([1, 4, 9], dtype=np.uint32), delta=True)
    >>> b = stream_vbyte.encode(np.array([2, 4, 10], dtype=np.uint32), delta=True)
    >>> union([(a, 3), (b, 3)]).tolist()
    [1, 2, 4, 9, 10]
    """
    return _native.postings_query(_lists(lists), _codec(codec), "or")


def decode_lists(data: Any, starts: Any, counts: Any) -> npt.NDArray[np.uint32]:
    """Decodes many delta-coded Stream VByte lists stored in one buffer by
    one call: list ``i`` holds ``counts[i]`` values from byte ``starts[i]``
    of ``data`` (any bytes-like object), as :func:`vecpress.stream_vbyte.encode`
    wrote it with ``delta=True``. Returns every list's values one after
    another, as one uint32 array; ``np.split(values, np.cumsum(counts)[:-1])``
    gives the lists. Lists may lie anywhere in ``data`` and share bytes.

    Short lists (most of an index) cost little more than their values: the
    call is made once for them all, and at the AVX-512 level a list of up to
    64 values is decoded with no tail to finish. The GIL is released while
    it runs.

    >>> from vecpress import stream_vbyte
    >>> a = stream_vbyte.encode(np.array([3, 7, 300], dtype=np.uint32), delta=True)
    >>> b = stream_vbyte.encode(np.array([1, 2, 4, 8], dtype=np.uint32), delta=True)
    >>> decode_lists(a + b, [0, len(a)], [3, 4]).tolist()
    [3, 7, 300, 1, 2, 4, 8]

    Raises :class:`vecpress.TruncatedError` when a list's bytes end before
    its values do, :class:`vecpress.OutOfRangeError` for a start past the
    end of ``data``, and :class:`ValueError` for starts and counts of
    different lengths or below zero.
    """
    starts_list = _indices("starts", starts)
    counts_list = _indices("counts", counts)
    return _native.postings_decode_lists(data, starts_list, counts_list)


def intersect_lists(data: Any, starts: Any, counts: Any) -> npt.NDArray[np.uint32]:
    """The values in every one of the delta-coded Stream VByte lists stored
    in ``data``, in order, as a uint32 array: list ``i`` holds ``counts[i]``
    values from byte ``starts[i]``, as for :func:`decode_lists` (the lists
    of a query's terms in an index file, by one call).

    Lists of like lengths are decoded whole by one call and intersected by
    SIMD merges, which costs a query on short lists far less than a cursor
    per list; a list far longer than the shortest is read by cursor, as
    :func:`intersect` reads it. The GIL is released while it runs.

    >>> from vecpress import stream_vbyte
    >>> a = stream_vbyte.encode(np.array([3, 7, 300, 4000], dtype=np.uint32), delta=True)
    >>> b = stream_vbyte.encode(np.array([1, 3, 300, 301], dtype=np.uint32), delta=True)
    >>> intersect_lists(a + b, [0, len(a)], [4, 4]).tolist()
    [3, 300]

    Raises as :func:`decode_lists` does.
    """
    return _native.postings_query_lists(data, _indices("starts", starts), _indices("counts", counts), "and")


def union_lists(data: Any, starts: Any, counts: Any) -> npt.NDArray[np.uint32]:
    """The values in any of the Stream VByte lists stored in ``data`` (as for
    :func:`intersect_lists`), in order and each once, as a uint32 array.

    >>> from vecpress import stream_vbyte
    >>> a = stream_vbyte.encode(np.array([1, 4, 9], dtype=np.uint32), delta=True)
    >>> b = stream_vbyte.encode(np.array([2, 4, 10], dtype=np.uint32), delta=True)
    >>> union_lists(a + b, [0, len(a)], [3, 3]).tolist()
    [1, 2, 4, 9, 10]
    """
    return _native.postings_query_lists(data, _indices("starts", starts), _indices("counts", counts), "or")


def hybrid_encode(ids: Any, room: str = "gaps") -> bytes:
    """A sorted uint32 array of distinct ids as a hybrid list: each window of
    4096 ids a bitmap where the list is dense, runs where it holds
    stretches, Stream VByte gaps where it is sparse (``vecpress::postings::
    hybrid``; docs/FORMAT.md). A list is self-delimiting: lists stored one
    after another are each found by where it starts.

    ``room`` is the bytes a list may spend on arrays of 16-bit ids, which a
    query reads without a decode: ``"gaps"`` (no more than its gaps take)
    or ``"roaring"`` (up to its bytes as a Roaring bitmap: faster queries on
    short lists, for more bytes).

    >>> a = hybrid_encode(np.arange(0, 100_000, 3, dtype=np.uint32))
    >>> len(a) < len(np.arange(0, 100_000, 3)) // 2
    True
    >>> short = np.arange(1_000, 3_000, 37, dtype=np.uint32)
    >>> len(hybrid_encode(short)) < len(hybrid_encode(short, room="roaring"))
    True

    Raises ``TypeError`` for another dtype and ``ValueError`` where the ids
    do not rise or ``room`` is neither.
    """
    return _native.postings_hybrid_encode(ids, room)


def hybrid_decode(data: Any) -> npt.NDArray[np.uint32]:
    """The ids of the hybrid list that ``data`` (bytes-like) starts with.

    >>> hybrid_decode(hybrid_encode(np.array([2, 5, 9], dtype=np.uint32))).tolist()
    [2, 5, 9]

    Raises ``ValueError`` naming the offset where the bytes are damaged.
    """
    return _native.postings_hybrid_query([data], "decode")


def hybrid_intersect(lists: Sequence[Any]) -> npt.NDArray[np.uint32]:
    """The ids in every one of the hybrid lists (bytes-like, each starting
    with its list), in order: dense stretches intersect a word of 64 ids at
    a time, sparse ones by SIMD merges. The GIL is released while it runs.

    >>> a = hybrid_encode(np.arange(0, 100_000, 2, dtype=np.uint32))
    >>> b = hybrid_encode(np.array([3, 4, 10, 99_998], dtype=np.uint32))
    >>> hybrid_intersect([a, b]).tolist()
    [4, 10, 99998]

    Raises ``ValueError`` naming the offset where a list is damaged.
    """
    return _native.postings_hybrid_query(list(lists), "and")


def hybrid_intersect_count(lists: Sequence[Any]) -> int:
    """How many ids every one of the hybrid lists holds, none written out.

    >>> a = hybrid_encode(np.arange(0, 100_000, 2, dtype=np.uint32))
    >>> b = hybrid_encode(np.arange(0, 100_000, 3, dtype=np.uint32))
    >>> hybrid_intersect_count([a, b])
    16667
    """
    return int(_native.postings_hybrid_query(list(lists), "count"))


def hybrid_union(lists: Sequence[Any]) -> npt.NDArray[np.uint32]:
    """The ids in any of the hybrid lists, each once, in order.

    >>> a = hybrid_encode(np.array([1, 3], dtype=np.uint32))
    >>> b = hybrid_encode(np.array([2, 3, 4], dtype=np.uint32))
    >>> hybrid_union([a, b]).tolist()
    [1, 2, 3, 4]
    """
    return _native.postings_hybrid_query(list(lists), "or")


def _indices(name: str, values: Any) -> list[int]:
    array = np.asarray(values)
    if array.ndim != 1 or (array.size and array.dtype.kind not in "iu"):
        raise TypeError(f"{name} must be a 1-D sequence of ints, got {type(values).__name__}")
    if array.size and array.min() < 0:
        raise ValueError(f"{name} must be non-negative")
    return [int(v) for v in array.tolist()]
