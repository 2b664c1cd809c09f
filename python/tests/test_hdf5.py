"""HDF5 interop: the raw chunks that h5py writes through hdf5plugin's
Bitshuffle (LZ4, filter 32008) and Blosc (LZ4) filters decode byte-identically
through vecpress, and chunks vecpress writes read back through h5py."""

import numcodecs
import numpy as np
import pytest
from helpers import require

from vecpress import bit_split
from vecpress import numcodecs as vnc

h5py = require("h5py")
hdf5plugin = require("hdf5plugin")


def _data(dtype, shape=(64, 1000), seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return np.cumsum(rng.normal(size=shape), axis=1).astype(dtype)
    return (np.cumsum(rng.integers(0, 3, size=shape), axis=1) % 5000).astype(dtype)


CHUNKS = (16, 1000)


@pytest.mark.parametrize("dtype", ["<u1", "<u2", "<i4", "<f4", "<f8"])
def test_bitshuffle_lz4_chunks_both_ways(tmp_path, dtype):
    data = _data(dtype)
    path = tmp_path / "bs.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("x", data=data, chunks=CHUNKS, **hdf5plugin.Bitshuffle(cname="lz4"))
    with h5py.File(path, "r") as f:
        ds = f["x"]
        for i in range(0, data.shape[0], CHUNKS[0]):
            _, chunk = ds.id.read_direct_chunk((i, 0))
            got = bit_split.decompress_lz4(chunk, dtype=dtype)
            np.testing.assert_array_equal(got, data[i : i + CHUNKS[0]].ravel())
    # Chunks compressed by vecpress, written raw, read through the filter.
    path2 = tmp_path / "ours.h5"
    with h5py.File(path2, "w") as f:
        ds = f.create_dataset("x", shape=data.shape, dtype=dtype, chunks=CHUNKS, **hdf5plugin.Bitshuffle(cname="lz4"))
        for i in range(0, data.shape[0], CHUNKS[0]):
            ds.id.write_direct_chunk((i, 0), bit_split.compress_lz4(data[i : i + CHUNKS[0]]))
    with h5py.File(path2, "r") as f:
        np.testing.assert_array_equal(f["x"][:], data)


@pytest.mark.parametrize("shuffle", [hdf5plugin.Blosc.NOSHUFFLE, hdf5plugin.Blosc.SHUFFLE, hdf5plugin.Blosc.BITSHUFFLE])
@pytest.mark.parametrize("dtype", ["<u2", "<f4", "<f8"])
def test_blosc_lz4_chunks_decode_identically(tmp_path, shuffle, dtype):
    # Rounded, so that even unshuffled floats compress and the filter applies.
    data = np.round(_data(dtype, seed=3), 1).astype(dtype)
    path = tmp_path / "blosc.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("x", data=data, chunks=CHUNKS, **hdf5plugin.Blosc(cname="lz4", clevel=5, shuffle=shuffle))
    skipped = 0
    with h5py.File(path, "r") as f:
        ds = f["x"]
        for i in range(0, data.shape[0], CHUNKS[0]):
            mask, chunk = ds.id.read_direct_chunk((i, 0))
            if mask & 1:  # HDF5 stored the chunk unfiltered (Blosc did not shrink it)
                skipped += 1
                continue
            got = np.frombuffer(vnc.Blosc().decode(chunk), dtype)
            np.testing.assert_array_equal(got, data[i : i + CHUNKS[0]].ravel())
            # numcodecs reads the same chunk to the same bytes.
            assert bytes(numcodecs.Blosc().decode(chunk)) == got.tobytes()
    assert skipped < data.shape[0] // CHUNKS[0], "every chunk was stored unfiltered"
