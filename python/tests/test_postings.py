"""vecpress.postings: intersections and unions of encoded posting lists
against numpy's set operations, for both codecs; bad lists and arguments."""

import numpy as np
import pytest

import vecpress
from vecpress import bitpack, postings, stream_vbyte, vbyte

ENCODERS = {
    "stream-vbyte": stream_vbyte.encode,
    "vbyte": vbyte.encode,
    "bp128": lambda a, delta: bitpack.encode(a, delta=delta, codec="bp128"),
    "fastlanes": lambda a, delta: bitpack.encode(a, delta=delta, codec="fastlanes"),
    "pfor": lambda a, delta: bitpack.encode(a, delta=delta, codec="pfor"),
}


def sorted_list(rng, n, universe):
    return np.unique(rng.integers(0, universe, size=n, dtype=np.uint64)).astype(np.uint32)


def encoded(codec, arrays):
    return [(ENCODERS[codec](a, delta=True), len(a)) for a in arrays]


@pytest.mark.parametrize("codec", postings.CODECS)
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_agree_with_numpy(codec, k):
    rng = np.random.default_rng(k)
    for lengths in ([3000] * k, [10, 2000, 50_000, 700, 9][:k], [0, 500, 500, 1, 2][:k]):
        arrays = [sorted_list(rng, n, 200_000) for n in lengths]
        lists = encoded(codec, arrays)
        want_and = arrays[0]
        want_or = arrays[0]
        for a in arrays[1:]:
            want_and = np.intersect1d(want_and, a)
            want_or = np.union1d(want_or, a)
        got = postings.intersect(lists, codec=codec)
        assert got.dtype == np.uint32
        np.testing.assert_array_equal(got, want_and)
        assert postings.intersect_count(lists, codec=codec) == len(want_and)
        np.testing.assert_array_equal(postings.union(lists, codec=codec), want_or)


def test_no_list_and_extremes():
    assert postings.intersect([]).tolist() == []
    assert postings.union([]).tolist() == []
    top = np.array([0, 1, 2**32 - 2, 2**32 - 1], dtype=np.uint32)
    lists = encoded("stream-vbyte", [top, top[1:]])
    assert postings.intersect(lists).tolist() == [1, 2**32 - 2, 2**32 - 1]
    assert postings.union(lists).tolist() == top.tolist()


def test_buffers_of_any_kind():
    a = np.arange(0, 1000, 3, dtype=np.uint32)
    b = np.arange(0, 1000, 5, dtype=np.uint32)
    da, db = stream_vbyte.encode(a, delta=True), stream_vbyte.encode(b, delta=True)
    want = np.intersect1d(a, b).tolist()
    assert postings.intersect([(bytearray(da), len(a)), (memoryview(db), len(b))]).tolist() == want
    assert postings.intersect([(np.frombuffer(da, np.uint8), len(a)), (db, np.int64(len(b)))]).tolist() == want


@pytest.mark.parametrize("codec", postings.CODECS)
def test_truncated_lists_raise(codec):
    a = np.arange(0, 100_000, 3, dtype=np.uint32)
    data = ENCODERS[codec](a, delta=True)
    b = np.arange(0, 100_000, 2, dtype=np.uint32)
    other = (ENCODERS[codec](b, delta=True), len(b))
    for cut in (1, len(data) // 2, len(data) - 1):
        with pytest.raises(vecpress.TruncatedError):
            postings.union([(data[:cut], len(a)), other], codec=codec)
        with pytest.raises(vecpress.TruncatedError):
            postings.intersect([(data[:cut], len(a)), other], codec=codec)
    # A count far beyond the bytes: an error, not an allocation of its size.
    with pytest.raises(vecpress.Error):
        postings.union([(data, 1 << 40)], codec=codec)


def test_random_bytes_never_crash():
    rng = np.random.default_rng(9)
    for _ in range(300):
        data = rng.integers(0, 256, size=int(rng.integers(0, 200)), dtype=np.uint8).tobytes()
        count = int(rng.integers(0, 400))
        for codec in postings.CODECS:
            for query in (postings.intersect, postings.union):
                try:
                    query([(data, count), (data, count // 2)], codec=codec)
                except vecpress.Error:
                    pass


def test_bad_arguments():
    data = stream_vbyte.encode(np.arange(4, dtype=np.uint32), delta=True)
    with pytest.raises(ValueError, match="unknown codec"):
        postings.intersect([(data, 4)], codec="lz4")
    with pytest.raises(TypeError, match="pair"):
        postings.intersect([data])
    with pytest.raises(ValueError, match="count"):
        postings.intersect([(data, -1)])
    with pytest.raises(TypeError, match="bytes-like"):
        postings.intersect([("text", 4)])
    assert postings.intersect([(data, 4)], codec="stream_vbyte").tolist() == [0, 1, 2, 3]


def test_decode_lists_agrees_with_decoding_each():
    rng = np.random.default_rng(5)
    lengths = [0, 1, 3, 4, 5, 16, 17, 63, 64, 65, 200, 5000, 2, 30]
    arrays = [sorted_list(rng, n, 1 << 31) for n in lengths]
    parts = [stream_vbyte.encode(a, delta=True) for a in arrays]
    starts = np.cumsum([0] + [len(p) for p in parts[:-1]])
    counts = [len(a) for a in arrays]
    data = b"".join(parts)
    got = postings.decode_lists(data, starts, counts)
    assert got.dtype == np.uint32
    np.testing.assert_array_equal(got, np.concatenate(arrays))
    # In any order, repeated, from any buffer type.
    order = [5, 0, 5, 12, 9]
    got = postings.decode_lists(memoryview(bytearray(data)), [int(starts[i]) for i in order], [counts[i] for i in order])
    np.testing.assert_array_equal(got, np.concatenate([arrays[i] for i in order]))
    assert postings.decode_lists(b"", [], []).tolist() == []


def test_decode_lists_bad_input_raises():
    a = stream_vbyte.encode(np.arange(1, 100, dtype=np.uint32), delta=True)
    with pytest.raises(vecpress.TruncatedError):
        postings.decode_lists(a[:-1], [0], [99])
    with pytest.raises(vecpress.TruncatedError):
        postings.decode_lists(a, [0, 0], [99, 2**40])  # a claim its bytes cannot back
    with pytest.raises(vecpress.OutOfRangeError):
        postings.decode_lists(a, [len(a) + 1], [0])
    with pytest.raises(ValueError):
        postings.decode_lists(a, [0, 1], [3])
    with pytest.raises(ValueError):
        postings.decode_lists(a, [-1], [3])
    with pytest.raises(TypeError):
        postings.decode_lists(a, [0.5], [3])


def test_queries_on_stored_lists_agree_with_sets():
    rng = np.random.default_rng(11)
    universe = np.sort(rng.choice(1 << 20, size=40_000, replace=False)).astype(np.uint32)
    # Short and like lengths (decoded whole), and 1:1000 (read by cursor).
    for lengths in ([8, 12], [16, 16, 60], [50, 3000], [9, 9000], [300, 40, 2000, 7]):
        arrays = [np.sort(rng.choice(universe, size=n, replace=False)) for n in lengths]
        parts = [stream_vbyte.encode(a, delta=True) for a in arrays]
        starts = np.cumsum([0] + [len(p) for p in parts[:-1]])
        data = b"".join(parts)
        want_and = sorted(set.intersection(*(set(a.tolist()) for a in arrays)))
        want_or = sorted(set().union(*(set(a.tolist()) for a in arrays)))
        got = postings.intersect_lists(data, starts, lengths)
        assert got.dtype == np.uint32
        assert got.tolist() == want_and, lengths
        assert postings.union_lists(data, starts, lengths).tolist() == want_or, lengths
        lists = [(p, len(a)) for p, a in zip(parts, arrays)]
        assert postings.intersect(lists).tolist() == want_and
    assert postings.intersect_lists(b"", [], []).tolist() == []


def test_queries_on_stored_lists_bad_input_raises():
    a = stream_vbyte.encode(np.arange(1, 100, dtype=np.uint32), delta=True)
    for query in (postings.intersect_lists, postings.union_lists):
        with pytest.raises(vecpress.TruncatedError):
            query(a[:-1], [0, 0], [99, 99])
        with pytest.raises(vecpress.TruncatedError):
            query(a, [0, 0], [99, 2**40])  # a claim its bytes cannot back
        with pytest.raises(vecpress.OutOfRangeError):
            query(a, [0, len(a) + 1], [3, 0])
        with pytest.raises(ValueError):
            query(a, [0, 1], [3])


def hybrid_lists(rng):
    """Lists of every form: dense (bitmaps), stretches (runs), sparse (gaps)."""
    dense = np.flatnonzero(rng.random(200_000) < 0.4).astype(np.uint32)
    runs = np.concatenate([np.arange(s, s + rng.integers(1, 400)) for s in range(0, 200_000, 700)])
    sparse = sorted_list(rng, 3000, 200_000)
    return [dense, runs.astype(np.uint32), sparse, dense[::7].copy()]


@pytest.mark.parametrize("room", ["gaps", "roaring"])
def test_hybrid_queries_agree_with_sets(room):
    rng = np.random.default_rng(5)
    arrays = hybrid_lists(rng)
    parts = [postings.hybrid_encode(a, room=room) for a in arrays]
    for a, p in zip(arrays, parts):
        assert postings.hybrid_decode(p).tolist() == a.tolist()
        # At most twice the bytes of a Stream VByte stream of the same ids (a
        # window is a bitmap where that takes less than twice its gaps, for
        # speed), and the headers of blocks (8 bytes at most per 1024 ids).
        assert len(p) <= 2 * len(stream_vbyte.encode(a, delta=True)) + 1 + 8 * -(-len(a) // 1024)
    for chosen in ([0, 1], [0, 2], [1, 2, 3], [3]):
        sets = [set(arrays[i].tolist()) for i in chosen]
        lists = [parts[i] for i in chosen]
        want_and = sorted(set.intersection(*sets))
        got = postings.hybrid_intersect(lists)
        assert got.dtype == np.uint32
        assert got.tolist() == want_and, chosen
        assert postings.hybrid_intersect_count(lists) == len(want_and)
        assert postings.hybrid_union(lists).tolist() == sorted(set().union(*sets)), chosen
    # Lists stored one after another, each found by where it starts.
    data = b"".join(parts)
    starts = np.cumsum([0] + [len(p) for p in parts[:-1]])
    views = [memoryview(data)[s:] for s in starts]
    assert postings.hybrid_intersect(views[:2]).tolist() == postings.hybrid_intersect(parts[:2]).tolist()
    assert postings.hybrid_intersect([]).tolist() == []


def test_hybrid_bad_input_raises():
    a = postings.hybrid_encode(np.arange(0, 50_000, 2, dtype=np.uint32))
    with pytest.raises(vecpress.TruncatedError):
        postings.hybrid_decode(a[:-1])
    with pytest.raises(vecpress.TruncatedError):
        postings.hybrid_union([a, a[:100]])
    with pytest.raises(ValueError):
        postings.hybrid_encode(np.array([3, 3], dtype=np.uint32))
    with pytest.raises(TypeError):
        postings.hybrid_encode(np.array([3, 4], dtype=np.int64))
    with pytest.raises(ValueError, match="roaring"):
        postings.hybrid_encode(np.array([3, 4], dtype=np.uint32), room="more")
    rng = np.random.default_rng(1)
    for _ in range(200):
        junk = rng.integers(0, 256, size=int(rng.integers(0, 600)), dtype=np.uint8).tobytes()
        try:
            postings.hybrid_union([junk, a])
        except ValueError:
            pass
