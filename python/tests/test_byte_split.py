"""vecpress.byte_split: every numeric dtype, out=, bad lengths; the same
bytes as pyarrow's BYTE_STREAM_SPLIT where pyarrow is installed."""

import numpy as np
import pytest
from helpers import require
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import vecpress
from vecpress import byte_split

DTYPES = [np.uint8, np.uint16, np.int16, np.uint32, np.int32, np.float32, np.uint64, np.int64, np.float64, np.complex128]


def split(a: np.ndarray) -> bytes:
    """The obvious transposition: stream j holds byte j of every value."""
    return a.view(np.uint8).reshape(len(a), a.dtype.itemsize).T.tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_round_trip_hypothesis(dtype, data):
    a = data.draw(hnp.arrays(np.dtype(dtype), st.integers(0, 3000)))
    enc = byte_split.encode(a)
    assert enc == split(a)
    back = byte_split.decode(enc, dtype=dtype)
    assert back.dtype == np.dtype(dtype)
    assert back.tobytes() == a.tobytes()


@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 63, 64, 65, 4095, 4096, 4097, 100_003])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint16])
def test_lengths(n, dtype):
    a = np.random.default_rng(n).random(n).astype(dtype)
    enc = byte_split.encode(a)
    assert enc == split(a)
    np.testing.assert_array_equal(byte_split.decode(enc, dtype=dtype), a)


def test_out_reuse():
    out = np.zeros(1000, np.float64)
    for n in (10, 999, 1000):
        a = np.linspace(0, 1, n)
        got = byte_split.decode(byte_split.encode(a), out=out)
        assert np.shares_memory(got, out)
        np.testing.assert_array_equal(got, a)
    with pytest.raises(ValueError, match="holds"):
        byte_split.decode(byte_split.encode(np.zeros(10)), out=np.zeros(5))


def test_bad_input():
    with pytest.raises(vecpress.InvalidArgumentError) as e:
        byte_split.decode(b"\0" * 7, dtype=np.float32)
    assert e.value.value == 7
    with pytest.raises(TypeError):
        byte_split.encode(np.array(["a"]))
    with pytest.raises(ValueError, match="not contiguous"):
        byte_split.encode(np.zeros(10)[::2])


def test_matches_pyarrow_byte_stream_split():
    pa = require("pyarrow")
    pq = require("pyarrow.parquet")
    import io

    a = np.random.default_rng(1).random(1000).astype(np.float32)
    buf = io.BytesIO()
    pq.write_table(pa.table({"x": a}), buf, use_dictionary=False, compression="none", column_encoding={"x": "BYTE_STREAM_SPLIT"})
    assert split(a) in buf.getvalue()
    assert byte_split.encode(a) in buf.getvalue()
