"""The numcodecs codecs: configs, entry points, pickling, out=, bad chunks;
and zarr arrays of format 2 (numcodecs compressors) and 3 (adapters)."""

import json
import pickle
import subprocess
import sys
import warnings

import numcodecs
import numpy as np
import pytest
from helpers import mixed, require

import vecpress
from vecpress import numcodecs as vnc

zarr = require("zarr")

# (codec, dtype of the test data)
CODECS = [
    (vnc.VByte(), "<u4"),
    (vnc.VByte(dtype="<u4", delta=True), "<u4"),
    (vnc.VByte(dtype="<u8"), "<u8"),
    (vnc.VByte(dtype="<i4"), "<i4"),
    (vnc.VByte(dtype="<i8"), "<i8"),
    (vnc.StreamVByte(), "<u4"),
    (vnc.StreamVByte(delta=True), "<u4"),
    (vnc.StreamVByte(variant="0124"), "<u4"),
    (vnc.StreamVByte(dtype="<u8", delta=True), "<u8"),
    (vnc.StreamVByte(dtype="<i4", delta=True), "<i4"),
    (vnc.StreamVByte(dtype="<u2"), "<u2"),
    (vnc.BP128(), "<u4"),
    (vnc.BP128(delta=True), "<u4"),
    (vnc.PFOR(), "<u4"),
    (vnc.PFOR(delta=True), "<u4"),
    (vnc.FastLanes(), "<u4"),
    (vnc.FastLanes(delta=True), "<u4"),
    (vnc.FastLanesFoR(), "<u4"),
    (vnc.ByteSplit(dtype="<f4"), "<f4"),
    (vnc.ByteSplit(dtype="<f8"), "<f8"),
    (vnc.LZ4(), "<i8"),
    (vnc.LZ4(acceleration=8), "<f4"),
    (vnc.ByteSplitLZ4(dtype="<f4"), "<f4"),
    (vnc.ByteSplitLZ4(dtype="<f8"), "<f8"),
]
IDS = [repr(c) for c, _ in CODECS]


def sample(dtype: str, n: int = 10_000, seed: int = 0) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return np.cumsum(np.random.default_rng(seed).normal(size=n)).astype(dtype)
    return mixed(dtype, n, seed)


@pytest.mark.parametrize("codec,dtype", CODECS, ids=IDS)
def test_round_trip_and_out(codec, dtype):
    for n in (0, 1, 7, 1000, 10_001):
        a = sample(dtype, n, seed=n)
        enc = codec.encode(a)
        back = np.asarray(codec.decode(enc)).view(dtype)
        np.testing.assert_array_equal(back, a)
        out = np.full_like(a, 3)
        assert codec.decode(enc, out=out) is out
        np.testing.assert_array_equal(out, a)
    # 2-D chunks are flattened in C order.
    a2 = sample(dtype, 600).reshape(20, 30)
    np.testing.assert_array_equal(np.asarray(codec.decode(codec.encode(a2))).view(dtype), a2.ravel())
    out2 = np.zeros_like(a2)
    codec.decode(codec.encode(a2), out=out2)
    np.testing.assert_array_equal(out2, a2)


@pytest.mark.parametrize("codec,dtype", CODECS, ids=IDS)
def test_config_entry_point_and_pickle(codec, dtype):
    config = codec.get_config()
    assert config["id"] == codec.codec_id
    again = numcodecs.get_codec(config)
    assert type(again) is type(codec) and again == codec
    assert pickle.loads(pickle.dumps(codec)) == codec
    a = sample(dtype, 500)
    assert again.encode(a) == codec.encode(a)


@pytest.mark.parametrize("codec,dtype", [c for c in CODECS if c[0].codec_id != "vecpress_byte_split"], ids=[i for i, c in zip(IDS, CODECS) if c[0].codec_id != "vecpress_byte_split"])
def test_bad_chunks(codec, dtype):
    enc = codec.encode(sample(dtype, 100))
    for cut in (0, 1, 3):
        with pytest.raises(vecpress.TruncatedError) as e:
            codec.decode(enc[:cut])
        assert (e.value.offset, e.value.needed, e.value.unit) == (0, 4 - cut, "bytes")
    with pytest.raises(vecpress.Error):
        codec.decode(enc[:-1])
    # A size prefix that promises far more than the chunk holds.
    hostile = (2**32 - 4).to_bytes(4, "little") + enc[4:]
    with pytest.raises(vecpress.Error):
        codec.decode(hostile)
    with pytest.raises(vecpress.CorruptError):
        codec.decode((3).to_bytes(4, "little") + enc[4:])
    with pytest.raises(ValueError, match="holds"):
        codec.decode(enc, out=np.zeros(10, np.dtype(dtype)))


def test_size_prefix_errors_are_the_native_mapping():
    # The prefix is read on the native side, so its errors carry the
    # library's fields and message like every other bad input.
    with pytest.raises(vecpress.TruncatedError) as e:
        vnc.StreamVByte().decode(b"\x01\x00")
    assert str(e.value) == "input truncated: what starts at byte 0 lacks 2 byte(s)"
    enc = vnc.VByte(dtype="<u8").encode(np.arange(10, dtype=np.uint64))
    with pytest.raises(vecpress.CorruptError) as e:
        vnc.VByte(dtype="<u8").decode((12).to_bytes(4, "little") + enc[4:])
    assert (e.value.offset, e.value.what) == (0, "size prefix is not a whole number of values")


@pytest.mark.parametrize("with_out", [False, True])
def test_lz4_size_claim_beyond_the_block_is_refused(with_out):
    codec = vnc.LZ4()
    block = codec.encode(np.zeros(1000, np.uint8))[4:]
    bound = 255 * len(block) + 16  # what one LZ4 block of that length can decode to
    out = np.zeros(bound + 1, np.uint8) if with_out else None
    with pytest.raises(vecpress.LimitExceededError) as e:
        codec.decode((bound + 1).to_bytes(4, "little") + block, out=out)
    assert (e.value.requested, e.value.limit) == (bound + 1, bound)
    assert e.value.what.startswith("lz4 block size")
    # The largest claim the block could back passes the check and then
    # disagrees with what the block holds.
    with pytest.raises(vecpress.CorruptError) as e:
        codec.decode(bound.to_bytes(4, "little") + block, out=out)
    assert e.value.offset == 0


def test_every_error_class_is_a_vecpress_error():
    for name in vecpress.__all__:
        if name.endswith("Error") and name != "Error":
            assert issubclass(getattr(vecpress, name), vecpress.Error), name
    assert "IoError" in vecpress.__all__


@pytest.mark.parametrize("codec,dtype", CODECS, ids=IDS)
def test_misaligned_out(codec, dtype):
    a = sample(dtype, 1000)
    raw = np.zeros(a.nbytes + 1, np.uint8)
    out = raw[1:]
    assert codec.decode(codec.encode(a), out=out) is out
    assert out.tobytes() == a.tobytes()


def test_bad_configs():
    with pytest.raises(ValueError):
        vnc.VByte(dtype="<f4")
    with pytest.raises(ValueError):
        vnc.VByte(dtype="<i4", delta=True)
    with pytest.raises(ValueError):
        vnc.StreamVByte(dtype="<i8")
    with pytest.raises(ValueError):
        vnc.StreamVByte(dtype="<u8", variant="0124")
    with pytest.raises(ValueError):
        vnc.StreamVByte(variant="9999")
    with pytest.raises(ValueError, match="whole number"):
        vnc.VByte().encode(b"\x01\x02\x03")
    with pytest.raises(ValueError, match="FastLanesFoR has no delta coding"):
        vnc.FastLanesFoR(delta=True)
    with pytest.raises(ValueError, match="takes dtypes <u4"):
        vnc.FastLanesFoR(dtype="<u8")


def _zarr_case(codec, dtype):
    shape, chunks = (120, 500), (50, 200)
    data = sample(dtype, shape[0] * shape[1], seed=3).reshape(shape)
    return data, shape, chunks


@pytest.mark.parametrize("codec,dtype", CODECS, ids=IDS)
def test_zarr_format_2(tmp_path, codec, dtype):
    data, shape, chunks = _zarr_case(codec, dtype)
    path = tmp_path / "a.zarr"
    z = zarr.create_array(str(path), shape=shape, chunks=chunks, dtype=dtype, zarr_format=2, compressors=codec)
    z[:] = data
    meta = (path / ".zarray").read_text()
    assert codec.codec_id in meta
    back = zarr.open_array(str(path), mode="r")
    np.testing.assert_array_equal(back[:], data)
    np.testing.assert_array_equal(back[7:93, 150:420], data[7:93, 150:420])


def _adapter(codec):
    from vecpress import zarr3

    return {
        "vecpress_vbyte": zarr3.VByte,
        "vecpress_stream_vbyte": zarr3.StreamVByte,
        "vecpress_bp128": zarr3.BP128,
        "vecpress_pfor": zarr3.PFOR,
        "vecpress_fastlanes": zarr3.FastLanes,
        "vecpress_fastlanes_for": zarr3.FastLanesFoR,
        "vecpress_byte_split": zarr3.ByteSplit,
        "vecpress_lz4": zarr3.LZ4,
        "vecpress_byte_split_lz4": zarr3.ByteSplitLZ4,
    }[codec.codec_id]


@pytest.mark.parametrize("codec,dtype", CODECS, ids=IDS)
def test_zarr_format_3(tmp_path, codec, dtype):
    adapter = _adapter(codec)
    config = {k: v for k, v in codec.get_config().items() if k != "id"}
    data, shape, chunks = _zarr_case(codec, dtype)
    path = tmp_path / "a.zarr"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        z = zarr.create_array(str(path), shape=shape, chunks=chunks, dtype=dtype, zarr_format=3, compressors=[adapter(**config)])
        z[:] = data
        meta = (path / "zarr.json").read_text()
        assert f"numcodecs.{codec.codec_id}" in meta
        back = zarr.open_array(str(path), mode="r")
        np.testing.assert_array_equal(back[:], data)
        np.testing.assert_array_equal(back[7:93, 150:420], data[7:93, 150:420])


# A fresh interpreter that imports zarr alone opens each array: the codec
# classes must come from the zarr.codecs entry points.
FRESH_READ = """
import json, sys
import numpy as np, zarr
for path, expected in json.loads(sys.argv[1]):
    z = zarr.open_array(path, mode="r")
    codec = type(z.metadata.codecs[-1])
    assert codec.__module__ == "vecpress.zarr3", (path, codec)
    np.testing.assert_array_equal(z[:], np.load(expected))
print(len(json.loads(sys.argv[1])))
"""


def test_zarr_format_3_opens_in_a_fresh_process(tmp_path):
    cases = []
    for i, (codec, dtype) in enumerate(CODECS):
        config = {k: v for k, v in codec.get_config().items() if k != "id"}
        data, shape, chunks = _zarr_case(codec, dtype)
        path, expected = tmp_path / f"{i}.zarr", tmp_path / f"{i}.npy"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            z = zarr.create_array(str(path), shape=shape, chunks=chunks, dtype=dtype, zarr_format=3,
                                  compressors=[_adapter(codec)(**config)])
            z[:] = data
        np.save(expected, data)
        cases.append((str(path), str(expected)))
    run = subprocess.run([sys.executable, "-W", "ignore", "-c", FRESH_READ, json.dumps(cases)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    assert run.stdout.strip() == str(len(CODECS))
