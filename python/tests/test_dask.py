"""Dask at cluster scale: a LocalCluster with two worker processes writes a
lazily generated chunked array (320 MB) to zarr with vecpress codecs, reads
it back, and checks equality and the compression ratio. The codecs travel
to the workers by pickle and are found there by their entry points. A
small zarr format 2 array of numcodecs' default Blosc reads the same on the
workers before, with and after register_standard()."""

import os
import time

import numpy as np
import pytest
from helpers import require

import vecpress
from vecpress.numcodecs import ByteSplit, StreamVByte

da = require("dask.array")
distributed = require("distributed")
zarr = require("zarr")

CHUNK = 1 << 20  # values per chunk: 4 MiB of uint32
CHUNKS = int(os.environ.get("VECPRESS_DASK_CHUNKS", "80"))  # 80 x 4 MiB = 320 MiB


def sorted_ids(block_id=None):
    """One chunk of a sorted id list (gaps 0..63), the same whenever and
    wherever it is computed: the seed is the chunk index, the start a
    closed form."""
    i = block_id[0]
    gaps = np.random.default_rng(i).integers(0, 64, CHUNK, dtype=np.uint32)
    return (np.uint32(i * CHUNK * 32) + np.cumsum(gaps, dtype=np.uint32)).astype(np.uint32)


def lazy_ids():
    return da.map_blocks(sorted_ids, dtype=np.uint32, chunks=((CHUNK,) * CHUNKS,))


def measurements(block_id=None):
    """One chunk of float32 sensor readings: a slow signal plus noise."""
    i = block_id[0]
    rng = np.random.default_rng(1000 + i)
    t = np.arange(i * CHUNK // 4, (i + 1) * CHUNK // 4, dtype=np.float64)
    return (20 + 5 * np.sin(t / 5000) + rng.normal(0, 0.01, t.size)).astype(np.float32).round(2)


def store_bytes(path) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        memory_limit="3GiB",
    ) as cluster, distributed.Client(cluster) as client:
        yield client


def test_workers_run_vecpress(client):
    isas = client.run(vecpress.isa)
    assert len(isas) == 2
    assert set(isas.values()) == {vecpress.isa()}
    pids = client.run(os.getpid)
    assert os.getpid() not in pids.values()


def test_sorted_ids_stream_vbyte_zarr_format_2(client, tmp_path):
    path = str(tmp_path / "ids.zarr")
    ids = lazy_ids()
    codec = StreamVByte(delta=True)
    start = time.perf_counter()
    z = zarr.create_array(path, shape=ids.shape, chunks=(CHUNK,), dtype="uint32", zarr_format=2, compressors=codec)
    da.store(ids, z, lock=False)
    written = time.perf_counter() - start

    back = da.from_zarr(path)
    assert back.chunks == ids.chunks
    assert bool((back == lazy_ids()).all().compute())
    # Spot-check one chunk here too, through the codec in this process.
    np.testing.assert_array_equal(zarr.open_array(path, mode="r")[5 * CHUNK : 6 * CHUNK], sorted_ids((5,)))

    ratio = ids.nbytes / store_bytes(path)
    print(f"\n{ids.nbytes / 2**20:.0f} MiB of sorted ids written in {written:.1f} s, ratio {ratio:.2f}")
    # Gaps below 64 take one data byte and a quarter of a control byte.
    assert 3.0 < ratio < 4.0


def test_float_readings_byte_split_zarr_format_3(client, tmp_path):
    import warnings

    from vecpress import zarr3

    path = str(tmp_path / "readings.zarr")
    n = CHUNKS // 4
    x = da.map_blocks(measurements, dtype=np.float32, chunks=((CHUNK // 4,) * n,))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        z = zarr.create_array(
            path,
            shape=x.shape,
            chunks=(CHUNK // 4,),
            dtype="float32",
            zarr_format=3,
            compressors=[zarr3.ByteSplit(dtype="<f4"), zarr.codecs.ZstdCodec(level=1)],
        )
        da.store(x, z, lock=False)
        back = da.from_zarr(path)
        assert bool((back == x).all().compute())
    ratio = x.nbytes / store_bytes(path)
    print(f"\n{x.nbytes / 2**20:.0f} MiB of float readings, byte split + zstd: ratio {ratio:.2f}")
    assert ratio > 1.5


ROWS = 250  # rows of a chunk of the Blosc array below


def _read_chunk(path: str, i: int):
    """Chunk `i` of the zarr array at `path`, opened on the worker that
    runs this, and the module of the compressor that read it."""
    z = zarr.open_array(path, mode="r")
    return type(z.metadata.compressor).__module__, z[i * ROWS : (i + 1) * ROWS]


def _blosc_module() -> str:
    import numcodecs

    return type(numcodecs.get_codec({"id": "blosc"})).__module__


def test_default_blosc_zarr_v2_reads_on_workers_after_register_standard(client, tmp_path):
    import numcodecs

    from vecpress.numcodecs import register_standard, unregister_standard

    # A zarr v2 array with numcodecs' default Blosc (lz4, byte shuffle),
    # written by plain numcodecs.
    path = str(tmp_path / "blosc.zarr")
    data = np.cumsum(np.random.default_rng(7).normal(size=(8 * ROWS, 500)), axis=1)
    assert _blosc_module() == "numcodecs.blosc"
    z = zarr.create_array(path, shape=data.shape, chunks=(ROWS, 500), dtype=data.dtype, zarr_format=2,
                          compressors=numcodecs.Blosc())
    z[:] = data

    def read_on_workers():
        parts = client.gather(client.map(_read_chunk, [path] * 8, range(8), pure=False))
        return {m for m, _ in parts}, np.concatenate([c for _, c in parts])

    assert set(client.run(_blosc_module).values()) == {"numcodecs.blosc"}
    client.run(register_standard)
    register_standard()
    try:
        assert set(client.run(_blosc_module).values()) == {"vecpress.numcodecs"}
        modules, got = read_on_workers()
        assert modules == {"vecpress.numcodecs"}
        np.testing.assert_array_equal(got, data)
        # The same through dask.array (the compressor travels by pickle).
        np.testing.assert_array_equal(da.from_zarr(path).compute(), data)
    finally:
        client.run(unregister_standard)
        unregister_standard()
    # Undone: plain numcodecs again, on the workers and here.
    assert set(client.run(_blosc_module).values()) == {"numcodecs.blosc"}
    assert _blosc_module() == "numcodecs.blosc"
    modules, got = read_on_workers()
    assert modules == {"numcodecs.blosc"}
    np.testing.assert_array_equal(got, data)
