"""vecpress.zarr3.CodecPipeline: every read gives what zarr's own pipeline
gives, on the direct path (chunks decoded in place, from files or from
fetched bytes) and on the fallbacks; bad chunks raise errors naming the
chunk; the batch decoders check their buffers."""

import os

import numpy as np
import pytest
from helpers import require

import vecpress
from vecpress import _native

zarr = require("zarr")
numcodecs = require("numcodecs")

from vecpress import zarr3  # noqa: E402  (after zarr is known to be there)

OURS = {"codec_pipeline.path": "vecpress.zarr3.CodecPipeline"}


def _values(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        v = np.cumsum(rng.normal(size=n)).round(2)
    else:
        v = np.cumsum(rng.integers(0, 3, size=n)) % (1 << min(8 * dtype.itemsize - 1, 30))
    return v.astype(dtype).reshape(shape)


def _stores(tmp_path):
    yield "memory", zarr.storage.MemoryStore()
    yield "local", zarr.storage.LocalStore(tmp_path / "a.zarr")


SELECTIONS = [
    (slice(None),),
    (slice(3, 250),),
    (slice(None, None, 7),),
    (np.array([0, 5, 999, 1500]),),
    (17,),
]


def _reads(z, selections):
    return [np.asarray(z[sel]) for sel in selections]


def _same(a, b):
    """Equal to the bit (the data has no NaNs, but equality should not depend on that)."""
    assert a.dtype == b.dtype and a.shape == b.shape
    assert np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize(
    "compressor",
    [
        dict(cname="lz4", clevel=5, shuffle="shuffle"),
        dict(cname="lz4", clevel=1, shuffle="bitshuffle"),
        dict(cname="lz4hc", clevel=9, shuffle="noshuffle"),
        dict(cname="zstd", clevel=3, shuffle="shuffle"),  # zarr's own pipeline
    ],
)
@pytest.mark.parametrize("dtype", ["u1", "<i2", "<f4", "<f8"])
def test_format_3_reads_as_zarr_reads(tmp_path, threads, compressor, dtype):
    data = _values((2003,), dtype)
    for name, store in _stores(tmp_path / f"{threads}"):
        z = zarr.create_array(store, shape=data.shape, chunks=(256,), dtype=dtype, compressors=[zarr.codecs.BloscCodec(**compressor)], fill_value=7)
        z[:1792] = data[:1792]  # the last chunk is never written: fill values
        want = _reads(zarr.open_array(store, mode="r"), SELECTIONS)
        with zarr.config.set({**OURS, "threading.max_workers": threads}):
            ours = zarr.open_array(store, mode="r")
            assert type(ours.async_array.codec_pipeline) is zarr3.CodecPipeline
            assert ours.async_array.codec_pipeline._direct() == (compressor["cname"] != "zstd")
            for sel, got, expected in zip(SELECTIONS, _reads(ours, SELECTIONS), want):
                _same(got, expected)
        assert (want[0][1792:] == 7).all(), name


@pytest.mark.parametrize("order", ["C", "F"])
def test_2d_arrays_and_format_2(tmp_path, order):
    data = _values((301, 157), "<f8", seed=3)
    sels = [(slice(None), slice(None)), (slice(10, 200), slice(None)), (slice(None), slice(5, 60)), (slice(64, 128), slice(0, 157))]
    for fmt in (2, 3):
        for name, store in _stores(tmp_path / f"{fmt}{order}"):
            kw = {"compressors": numcodecs.Blosc(cname="lz4")} if fmt == 2 else {"compressors": [zarr.codecs.BloscCodec(cname="lz4")]}
            if fmt == 2:
                kw["order"] = order
            elif order == "F":
                continue  # format 3 has no order: a transpose codec, tested below
            z = zarr.create_array(store, shape=data.shape, chunks=(64, 157), dtype=data.dtype, zarr_format=fmt, **kw)
            z[:] = data
            with zarr.config.set(OURS):
                ours = zarr.open_array(store, mode="r")
                for sel in sels:
                    np.testing.assert_array_equal(ours[sel], data[sel], err_msg=f"{fmt} {name} {sel}")


def test_other_codec_chains_fall_back(tmp_path):
    data = _values((1000, 10), "<u2")
    store = zarr.storage.LocalStore(tmp_path / "t.zarr")
    z = zarr.create_array(
        store,
        shape=data.shape,
        chunks=(100, 10),
        dtype=data.dtype,
        filters=[zarr.codecs.TransposeCodec(order=(1, 0))],
        serializer=zarr.codecs.BytesCodec(endian="big"),
        compressors=[zarr.codecs.BloscCodec(cname="lz4")],
    )
    z[:] = data
    with zarr.config.set(OURS):
        ours = zarr.open_array(store, mode="r")
        assert not ours.async_array.codec_pipeline._direct()
        np.testing.assert_array_equal(ours[:], data)


def _chunk_file(root, key):
    return os.path.join(root, *key.split("/"))


def test_bad_chunk_files_raise_naming_the_chunk(tmp_path):
    data = _values((4096,), "<f8")
    root = tmp_path / "bad.zarr"
    z = zarr.create_array(zarr.storage.LocalStore(root), shape=data.shape, chunks=(512,), dtype=data.dtype, compressors=[zarr.codecs.BloscCodec(cname="lz4")])
    z[:] = data
    path = _chunk_file(root, "c/3")
    good = open(path, "rb").read()
    other = zarr.create_array(zarr.storage.MemoryStore(), shape=(1024,), chunks=(1024,), dtype="<f8", compressors=[zarr.codecs.BloscCodec(cname="lz4")])
    other[:] = np.arange(1024.0)
    cases = {
        "truncated": good[: len(good) // 2],
        "garbage": bytes(range(256)) * 4,
        "flipped": good[:40] + bytes(b ^ 0x5A for b in good[40:200]) + good[200:],
        "another size": other.store_path.store._store_dict["c/0"].to_bytes(),
    }
    for what, bad in cases.items():
        with open(path, "wb") as f:
            f.write(bad)
        with zarr.config.set(OURS):
            ours = zarr.open_array(zarr.storage.LocalStore(root), mode="r")
            try:
                got = ours[:]
            except (vecpress.Error, ValueError) as e:
                assert "chunk" in str(e), (what, e)
            else:
                # A flip inside literals can decode; the other chunks still must be right.
                assert what == "flipped", what
                np.testing.assert_array_equal(np.delete(got, np.s_[1536:2048]), np.delete(data, np.s_[1536:2048]))
    with open(path, "wb") as f:
        f.write(good)


def test_batch_decoders_check_their_buffers():
    frames = [numcodecs.Blosc(cname="lz4").encode(np.arange(1000.0) + i) for i in range(3)]
    out = np.empty(3000)
    outs = [out[i * 1000 : (i + 1) * 1000].view(np.uint8) for i in range(3)]
    _native.blosc_decompress_many(frames, outs, 2)
    np.testing.assert_array_equal(out, np.concatenate([np.arange(1000.0) + i for i in range(3)]))
    overlapping = [out[:1000].view(np.uint8), out[500:1500].view(np.uint8)]
    with pytest.raises(ValueError, match="shares memory|not writable"):
        _native.blosc_decompress_many(frames[:2], overlapping, 2)
    with pytest.raises(ValueError, match="chunk 1"):
        _native.blosc_decompress_many(frames[:2], [outs[0], out[:999].view(np.uint8)], 1)
    with pytest.raises(ValueError, match="2 chunks and 1 outs"):
        _native.blosc_decompress_many(frames[:2], outs[:1], 1)
    bad = bytearray(frames[2])
    bad[20:60] = bytes(40)
    with pytest.raises(vecpress.Error, match="chunk 2") as info:
        _native.blosc_decompress_many([frames[0], frames[1], bytes(bad)], outs, 3)
    assert info.value.chunk == 2


def test_batch_files_report_missing_ones(tmp_path):
    codec = numcodecs.Blosc(cname="lz4")
    paths = []
    for i in range(4):
        p = tmp_path / str(i)
        if i != 2:
            p.write_bytes(codec.encode(np.full(100, float(i))))
        paths.append(str(p))
    out = np.zeros(400)
    outs = [out[i * 100 : (i + 1) * 100].view(np.uint8) for i in range(4)]
    assert _native.blosc_decompress_files(paths, outs, 2) == [2]
    np.testing.assert_array_equal(out, np.repeat([0.0, 1.0, 0.0, 3.0], 100))
    (tmp_path / "1").write_bytes(codec.encode(np.full(50, 1.0)))
    with pytest.raises(ValueError, match="chunk 1: the frame holds 400 bytes, the chunk 800"):
        _native.blosc_decompress_files(paths, outs, 2)


def _chunk_files(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and not p.name.startswith((".z", "zarr.json"))}


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(
    "fmt,compressor",
    [
        (3, dict(cname="lz4", clevel=5, shuffle="shuffle")),
        (3, dict(cname="lz4hc", clevel=3, shuffle="bitshuffle")),
        (3, dict(cname="lz4", clevel=9, shuffle="noshuffle", blocksize=4096)),
        (2, dict(cname="lz4", clevel=5, shuffle=1)),
        (2, dict(cname="lz4", clevel=1, shuffle=-1)),
        (2, dict(cname="lz4hc", clevel=5, shuffle=2)),
    ],
)
@pytest.mark.parametrize("dtype", ["u1", "<i4", "<f8"])
def test_writes_store_the_chunks_zarr_stores(tmp_path, monkeypatch, threads, fmt, compressor, dtype):
    """Every chunk file byte for byte as zarr's own pipeline writes it, for
    whole-array and partial writes, with empty chunks left out."""
    data = _values((3001,), dtype, seed=4)
    data[512:1024] = 0  # a chunk equal to the fill value: not stored

    def make(root):
        codec = numcodecs.Blosc(**compressor) if fmt == 2 else zarr.codecs.BloscCodec(**compressor)
        kw = {"compressors": codec} if fmt == 2 else {"compressors": [codec]}
        return zarr.create_array(zarr.storage.LocalStore(root), shape=data.shape, chunks=(512,), dtype=dtype, zarr_format=fmt, fill_value=0, **kw)

    calls = []
    compress_many = _native.blosc_compress_many

    def counted(srcs, *args):
        calls.append(len(srcs))
        return compress_many(srcs, *args)

    monkeypatch.setattr(_native, "blosc_compress_many", counted)
    theirs, ours = tmp_path / "theirs", tmp_path / "ours"
    z = make(theirs)
    z[:] = data
    z[100:700] = data[::-1][100:700]
    z[1024:1536] = np.zeros(512, dtype)  # a whole chunk of fill values: deleted
    with zarr.config.set({**OURS, "threading.max_workers": threads}):
        z2 = make(ours)
        assert type(z2.async_array.codec_pipeline) is zarr3.CodecPipeline
        z2[:] = data
        z2[100:700] = data[::-1][100:700]
        z2[1024:1536] = np.zeros(512, dtype)
    # Whole chunks 0, 2, 3 and 4 of z2[:] (1 is empty, 5 the shorter edge
    # chunk, zarr's), then none of the partial write, then chunk 2 emptied.
    assert sum(calls) == 4, calls
    want = _chunk_files(theirs)
    assert _chunk_files(ours) == want
    names = {k.split("/")[-1] for k in want}
    assert names == {"0", "1", "3", "4", "5"}, names
    np.testing.assert_array_equal(zarr.open_array(zarr.storage.LocalStore(ours), mode="r")[:], zarr.open_array(zarr.storage.LocalStore(theirs), mode="r")[:])
