"""The standard numcodecs ids served by vecpress (``shuffle``, ``lz4``,
``blosc``):
byte-compatible with numcodecs' own both ways, and switched on and off by
register_standard() / unregister_standard() for numcodecs.get_codec and
zarr format 2 arrays."""

import re
import subprocess
import sys

import numcodecs
import numpy as np
import pytest
from helpers import mixed, require

import vecpress
from vecpress import numcodecs as vnc

zarr = require("zarr")


@pytest.fixture
def standard():
    """register_standard() for one test, undone after it."""
    vnc.register_standard()
    yield
    vnc.unregister_standard()


@pytest.mark.parametrize("elementsize", [0, 1, 2, 3, 4, 7, 8, 16])
def test_shuffle_bytes_match_numcodecs_both_ways(elementsize):
    ours, theirs = vnc.Shuffle(elementsize), numcodecs.Shuffle(elementsize)
    assert ours.get_config() == theirs.get_config()
    for count in (0, 1, 5, 1000, 4099):
        data = mixed(np.uint8, count * max(elementsize, 1), seed=count)
        enc = ours.encode(data)
        assert bytes(enc) == bytes(theirs.encode(data)), count
        assert bytes(ours.decode(theirs.encode(data))) == data.tobytes()
        assert bytes(theirs.decode(enc)) == data.tobytes()
        out = np.zeros(len(data), np.uint8)
        assert ours.decode(enc, out=out) is out
        assert out.tobytes() == data.tobytes()


def test_shuffle_refuses_a_partial_element_as_numcodecs_does():
    for codec in (vnc.Shuffle(4), numcodecs.Shuffle(4)):
        with pytest.raises(ValueError, match="multiple of elementsize"):
            codec.encode(np.zeros(10, np.uint8))
        with pytest.raises(ValueError, match="multiple of elementsize"):
            codec.decode(np.zeros(10, np.uint8))


@pytest.mark.parametrize("acceleration", [1, 4])
def test_standard_lz4_matches_numcodecs_both_ways(acceleration):
    ours, theirs = vnc.StandardLZ4(acceleration), numcodecs.LZ4(acceleration)
    assert ours.get_config() == theirs.get_config()
    for n in (0, 10, 100_000):
        a = np.arange(n, dtype=np.int64) // 5
        np.testing.assert_array_equal(np.frombuffer(ours.decode(theirs.encode(a)), np.int64), a)
        if n:  # numcodecs cannot decode its own empty chunk (LZ4_decompress_safe into 0 bytes)
            np.testing.assert_array_equal(np.frombuffer(theirs.decode(ours.encode(a)), np.int64), a)


def test_register_standard_switches_get_codec_on_and_off():
    def kinds():
        return [
            type(numcodecs.get_codec({"id": "shuffle", "elementsize": 4})),
            type(numcodecs.get_codec({"id": "lz4", "acceleration": 1})),
            type(numcodecs.get_codec({"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0})),
        ]

    before = kinds()
    assert before == [numcodecs.Shuffle, numcodecs.LZ4, numcodecs.Blosc]
    vnc.register_standard()
    vnc.register_standard()  # twice: still undone by one unregister
    try:
        assert kinds() == [vnc.Shuffle, vnc.StandardLZ4, vnc.Blosc]
    finally:
        vnc.unregister_standard()
    assert kinds() == before


def _write(path, data):
    z = zarr.create_array(
        str(path),
        shape=data.shape,
        chunks=(40, 300),
        dtype=data.dtype,
        zarr_format=2,
        filters=[numcodecs.get_codec({"id": "shuffle", "elementsize": data.dtype.itemsize})],
        compressors=numcodecs.get_codec({"id": "lz4", "acceleration": 1}),
    )
    z[:] = data
    return z


def _data():
    rng = np.random.default_rng(5)
    return np.cumsum(rng.normal(size=(100, 700)), axis=1)


def test_zarr_v2_written_by_numcodecs_reads_with_vecpress(tmp_path, standard):
    data = _data()
    vnc.unregister_standard()
    _write(tmp_path / "a.zarr", data)
    vnc.register_standard()
    z = zarr.open_array(str(tmp_path / "a.zarr"), mode="r")
    assert isinstance(z.metadata.filters[0], vnc.Shuffle)
    assert isinstance(z.metadata.compressor, vnc.StandardLZ4)
    np.testing.assert_array_equal(z[:], data)


def test_zarr_v2_written_by_vecpress_reads_with_numcodecs(tmp_path, standard):
    data = _data()
    z = _write(tmp_path / "a.zarr", data)
    assert isinstance(z.metadata.compressor, vnc.StandardLZ4)
    meta = (tmp_path / "a.zarr" / ".zarray").read_text()
    assert '"id": "lz4"' in meta and '"id": "shuffle"' in meta
    vnc.unregister_standard()
    back = zarr.open_array(str(tmp_path / "a.zarr"), mode="r")
    assert type(back.metadata.compressor) is numcodecs.LZ4
    np.testing.assert_array_equal(back[:], data)
    vnc.register_standard()


BLOSC_CASES = [
    (cname, clevel, shuffle, blocksize, dtype)
    for cname in ("lz4", "lz4hc")
    for clevel in (0, 1, 5, 9)
    for shuffle in (0, 1, 2, -1)
    for blocksize in (0, 256, 4096, 100_000)
    for dtype in ("<u1", "<u2", "<f4", "<f8", "<i8")
]


def _blosc_data(dtype, n, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return np.cumsum(rng.normal(size=n)).astype(dtype)
    return (np.cumsum(rng.integers(0, 4, n)) % 200).astype(dtype)


@pytest.mark.parametrize("cname,clevel,shuffle,blocksize,dtype", BLOSC_CASES)
def test_blosc_frames_are_read_both_ways(cname, clevel, shuffle, blocksize, dtype):
    ours = vnc.Blosc(cname, clevel, shuffle, blocksize)
    theirs = numcodecs.Blosc(cname, clevel, shuffle, blocksize)
    assert ours.get_config() == theirs.get_config()
    for n in (0, 1, 37, 5000, 70_001):
        a = _blosc_data(dtype, n, n + clevel)
        mine, c_blosc = ours.encode(a), theirs.encode(a)
        if n:  # numcodecs cannot decode an empty frame, its own either
            assert bytes(theirs.decode(mine)) == a.tobytes(), n
        assert bytes(ours.decode(c_blosc)) == a.tobytes(), n
        assert bytes(ours.decode(mine)) == a.tobytes(), n
        out = np.zeros(a.nbytes + 3, np.uint8)
        assert ours.decode(c_blosc, out=out) is out
        assert out[: a.nbytes].tobytes() == a.tobytes()


def test_blosc_of_other_compressors_goes_to_numcodecs():
    a = np.arange(10_000, dtype=np.int32)
    for cname in ("zstd", "blosclz", "zlib"):
        theirs = numcodecs.Blosc(cname=cname)
        frame = theirs.encode(a)
        # The native decoder names what it does not read ...
        with pytest.raises(vecpress.UnsupportedFormatError, match=cname):
            vecpress._native.blosc_decompress_into(frame, np.empty(a.nbytes, np.uint8))
        # ... and the codec hands such frames to numcodecs.
        ours = vnc.Blosc(cname=cname)
        assert bytes(ours.decode(frame)) == a.tobytes()
        assert bytes(theirs.decode(ours.encode(a))) == a.tobytes()


class _BloscBefore016(numcodecs.Blosc):
    """numcodecs' Blosc as numcodecs 0.13 to 0.15 have it: no typesize."""

    def __init__(self, cname="lz4", clevel=5, shuffle=1, blocksize=0):
        super().__init__(cname, clevel, shuffle, blocksize)


def test_blosc_fallback_works_with_numcodecs_before_typesize(monkeypatch):
    import numcodecs.blosc

    a = np.arange(10_000, dtype=np.int32)
    monkeypatch.setattr(numcodecs.blosc, "Blosc", _BloscBefore016)
    for typesize in (None, 4):
        ours = vnc.Blosc(cname="zstd", typesize=typesize)
        assert type(ours._numcodecs()) is _BloscBefore016
        frame = ours.encode(a)
        assert bytes(ours.decode(frame)) == a.tobytes()
        assert bytes(numcodecs.Blosc(cname="zstd").decode(frame)) == a.tobytes()
    monkeypatch.undo()
    # numcodecs 0.16 on takes it.
    assert vnc._takes_typesize(numcodecs.blosc.Blosc)
    assert vnc.Blosc(cname="zstd", typesize=4)._numcodecs()._typesize == 4


@pytest.mark.parametrize("version,takes", [("0.13.1", False), ("0.15.1", False), ("0.16.0", True), ("1.0.0rc1", True)])
def test_blosc_typesize_support_from_the_version_without_a_signature(monkeypatch, version, takes):
    def no_signature(obj):
        raise ValueError("no signature found for builtin")

    monkeypatch.setattr(vnc.inspect, "signature", no_signature)
    monkeypatch.setattr(numcodecs, "__version__", version)
    assert vnc._takes_typesize.__wrapped__(numcodecs.Blosc) is takes


def test_blosc_refuses_corrupt_frames_with_a_vecpress_error():
    a = np.arange(20_000, dtype=np.float64)
    frame = bytes(vnc.Blosc().encode(a))
    for cut in (0, 5, 15, 16, 40, len(frame) - 1):
        with pytest.raises(vecpress.Error):
            vnc.Blosc().decode(frame[:cut])
    big = bytearray(frame)
    big[4:8] = (2**31 - 1).to_bytes(4, "little")  # nbytes beyond the limit
    with pytest.raises(vecpress.Error):
        vnc.Blosc().decode(bytes(big))


@pytest.mark.parametrize("shuffle", [0, 1, 2])
def test_blosc_decodes_on_threads_as_on_one(shuffle):
    """nthreads and use_threads as numcodecs' Blosc has them: the same bytes
    and the same errors at every count, in the main thread and out of it."""
    import threading

    rng = np.random.default_rng(5)
    chunks = [np.cumsum(rng.normal(size=n)).round(2) for n in (131_072, 50_000, 300)]
    frames = [numcodecs.Blosc(shuffle=shuffle).encode(a) for a in chunks]
    frames.append(numcodecs.Blosc(shuffle=shuffle, blocksize=1 << 14).encode(chunks[0]))
    codec = vnc.Blosc()
    assert codec._threads() == (codec.nthreads if threading.current_thread() is threading.main_thread() else 1)
    seen = []
    t = threading.Thread(target=lambda: seen.append(codec._threads()))
    t.start()
    t.join()
    assert seen == [1]
    for use, n in ((False, 4), (True, 1), (True, 2), (True, 3)):
        ours = vnc.Blosc(shuffle=shuffle)
        ours.use_threads, ours.nthreads = use, n
        for frame, a in zip(frames, chunks + [chunks[0]]):
            assert bytes(ours.decode(frame)) == a.tobytes(), (use, n)
            bad = bytearray(frame)
            bad[len(bad) // 2 : len(bad) // 2 + 64] = bytes(64)
            one = vnc.Blosc(shuffle=shuffle)
            one.use_threads = False
            try:
                want = bytes(one.decode(bytes(bad)))
            except vecpress.Error as e:
                with pytest.raises(type(e), match=re.escape(str(e))):
                    ours.decode(bytes(bad))
            else:
                assert bytes(ours.decode(bytes(bad))) == want


def test_zarr_v2_default_blosc_reads_with_vecpress(tmp_path, standard):
    data = _data()
    vnc.unregister_standard()
    z = zarr.create_array(str(tmp_path / "b.zarr"), shape=data.shape, chunks=(40, 300), dtype=data.dtype,
                          zarr_format=2, compressors=numcodecs.Blosc())
    z[:] = data
    vnc.register_standard()
    back = zarr.open_array(str(tmp_path / "b.zarr"), mode="r")
    assert isinstance(back.metadata.compressor, vnc.Blosc)
    np.testing.assert_array_equal(back[:], data)


@pytest.mark.parametrize(
    "config",
    [{}, {"cname": "lz4hc", "clevel": 9, "shuffle": 2}, {"cname": "lz4", "shuffle": 0, "blocksize": 4096}, {"cname": "zstd"}],
)
def test_zarr_v2_blosc_written_by_vecpress_reads_with_numcodecs(tmp_path, standard, config):
    data = _data()
    compressor = numcodecs.get_codec({"id": "blosc", **config})
    assert type(compressor) is vnc.Blosc
    z = zarr.create_array(str(tmp_path / "c.zarr"), shape=data.shape, chunks=(40, 300), dtype=data.dtype,
                          zarr_format=2, compressors=compressor)
    z[:] = data
    assert isinstance(zarr.open_array(str(tmp_path / "c.zarr"), mode="r").metadata.compressor, vnc.Blosc)
    vnc.unregister_standard()
    back = zarr.open_array(str(tmp_path / "c.zarr"), mode="r")
    assert type(back.metadata.compressor) is numcodecs.Blosc
    np.testing.assert_array_equal(back[:], data)
    vnc.register_standard()


@pytest.mark.parametrize("shuffle", ["noshuffle", "shuffle", "bitshuffle"])
def test_zarr_v3_blosc_both_ways(tmp_path, shuffle):
    from vecpress import zarr3

    data = _data()
    codec = zarr.codecs.BloscCodec(cname="lz4", clevel=5, shuffle=shuffle)
    plain = zarr.create_array(str(tmp_path / "plain.zarr"), shape=data.shape, chunks=(40, 300),
                              dtype=data.dtype, compressors=[codec])
    plain[:] = data
    with zarr.config.set({"codecs.blosc": "vecpress.zarr3.Blosc"}):
        back = zarr.open_array(str(tmp_path / "plain.zarr"), mode="r")
        assert isinstance(back.metadata.codecs[-1], zarr3.Blosc)
        np.testing.assert_array_equal(back[:], data)
        ours = zarr.create_array(str(tmp_path / "ours.zarr"), shape=data.shape, chunks=(40, 300),
                                 dtype=data.dtype, compressors=[zarr3.Blosc(cname="lz4", shuffle=shuffle)])
        ours[:] = data
    again = zarr.open_array(str(tmp_path / "ours.zarr"), mode="r")
    assert type(again.metadata.codecs[-1]) is zarr.codecs.BloscCodec
    np.testing.assert_array_equal(again[:], data)


def test_zarr_v3_blosc_runs_vecpress_kernels_when_selected(tmp_path, monkeypatch):
    from vecpress import zarr3

    calls = []
    for name in ("encode", "decode"):
        original = getattr(vnc.Blosc, name)
        monkeypatch.setattr(vnc.Blosc, name, lambda self, *a, _f=original, _n=name, **k: calls.append(_n) or _f(self, *a, **k))
    data = _data()
    with zarr.config.set({"codecs.blosc": "vecpress.zarr3.Blosc"}):
        z = zarr.create_array(str(tmp_path / "a.zarr"), shape=data.shape, chunks=(40, 300), dtype=data.dtype,
                              compressors=[zarr3.Blosc(cname="lz4")])
        z[:] = data
        assert "encode" in calls
        np.testing.assert_array_equal(zarr.open_array(str(tmp_path / "a.zarr"), mode="r")[:], data)
        assert "decode" in calls


# Run in a fresh interpreter that imports zarr alone: which class serves
# "blosc" must come from zarr's entry points, not from an import of
# vecpress.zarr3 by the test process.
FRESH_BLOSC = """
import sys, warnings
import numpy as np, zarr
warnings.simplefilter("error")
path, expected, select = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
with zarr.config.set({"codecs.blosc": "vecpress.zarr3.Blosc"} if select else {}):
    z = zarr.open_array(path, mode="r+")
    codec = type(z.metadata.codecs[-1])
    np.testing.assert_array_equal(z[:], np.load(expected))
    if select:
        z[:5, :5] = 0  # and writes through it
        assert (zarr.open_array(path, mode="r")[:5, :5] == 0).all()
print(codec.__module__ + "." + codec.__qualname__)
"""


@pytest.mark.parametrize("select,served_by", [(True, "vecpress.zarr3.Blosc"), (False, "zarr.codecs.blosc.BloscCodec")])
def test_zarr_v3_blosc_selected_by_config_in_a_fresh_process(tmp_path, select, served_by):
    data = _data()
    np.save(tmp_path / "expected.npy", data)
    z = zarr.create_array(str(tmp_path / "a.zarr"), shape=data.shape, chunks=(40, 300), dtype=data.dtype,
                          compressors=[zarr.codecs.BloscCodec(cname="lz4", shuffle="shuffle")])
    z[:] = data
    run = subprocess.run(
        [sys.executable, "-c", FRESH_BLOSC, str(tmp_path / "a.zarr"), str(tmp_path / "expected.npy"), "1" if select else "0"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    assert run.stdout.strip() == served_by


def test_register_standard_sets_the_pipeline_only_over_zarrs_own():
    """register_standard() puts vecpress's codec pipeline in zarr's place,
    leaves a pipeline of the user's choice alone, and unregister_standard()
    puts back what was there; pipeline=False leaves zarr's."""
    ours = "vecpress.zarr3.CodecPipeline"
    default = zarr.config.get("codec_pipeline.path")
    assert default == "zarr.core.codec_pipeline.BatchedCodecPipeline"
    try:
        vnc.register_standard()
        assert zarr.config.get("codec_pipeline.path") == ours
        vnc.register_standard()  # twice: undone once
        vnc.unregister_standard()
        assert zarr.config.get("codec_pipeline.path") == default
        vnc.register_standard(pipeline=False)
        assert zarr.config.get("codec_pipeline.path") == default
        vnc.unregister_standard()
        zarr.config.set({"codec_pipeline.path": "zarrs.ZarrsCodecPipeline"})
        vnc.register_standard()
        assert zarr.config.get("codec_pipeline.path") == "zarrs.ZarrsCodecPipeline"
        vnc.unregister_standard()
        assert zarr.config.get("codec_pipeline.path") == "zarrs.ZarrsCodecPipeline"
    finally:
        vnc.unregister_standard()
        zarr.config.set({"codec_pipeline.path": default})


def test_register_standard_reads_zarr_v2_blosc_through_the_pipeline(tmp_path, standard):
    data = np.cumsum(np.random.default_rng(8).normal(size=50_000))
    z = zarr.create_array(tmp_path / "p.zarr", shape=data.shape, chunks=(4096,), dtype=data.dtype, zarr_format=2, compressors=numcodecs.Blosc())
    z[:] = data
    back = zarr.open_array(tmp_path / "p.zarr", mode="r")
    assert type(back.async_array.codec_pipeline).__name__ == "CodecPipeline"
    assert back.async_array.codec_pipeline._direct()
    np.testing.assert_array_equal(back[:], data)
    np.testing.assert_array_equal(back[1000:9000], data[1000:9000])
