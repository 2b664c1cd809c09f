"""vecpress.bit_split: encode and decode against a numpy transposition in
the bitshuffle library's blocks, several value widths, out=, and out's
refusals."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from vecpress import bit_split

DTYPES = [np.uint8, np.uint16, np.int32, np.float32, np.uint64, np.float64, np.complex128]


def planes(rows: np.ndarray) -> bytes:
    """One block transposed by numpy: plane 8 k + b holds bit b of byte k of
    every value (a row of ``rows``), the first value in the lowest bit."""
    bits = np.unpackbits(rows, axis=1, bitorder="little")
    return np.packbits(bits.T, axis=1, bitorder="little").tobytes()


def bitshuffle(a: np.ndarray) -> bytes:
    """The bitshuffle library's layout: blocks of 8 KiB of values (a multiple
    of 8, at least 128), one block of the largest multiple of 8 left, then
    the last values' bytes as they are."""
    k = a.dtype.itemsize
    block = max(8192 // k // 8 * 8, 128)
    rows = a.view(np.uint8).reshape(len(a), k)
    out, i = [], 0
    while len(a) - i >= block:
        out.append(planes(rows[i : i + block]))
        i += block
    last = (len(a) - i) // 8 * 8
    out.append(planes(rows[i : i + last]))
    out.append(rows[i + last :].tobytes())
    return b"".join(out)


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_round_trip_against_numpy(dtype, data):
    a = data.draw(hnp.arrays(np.dtype(dtype), st.integers(0, 3000)))
    enc = bit_split.encode(a)
    assert enc == bitshuffle(a)
    back = bit_split.decode(enc, dtype=dtype)
    assert back.dtype == np.dtype(dtype)
    assert back.tobytes() == a.tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
def test_out_reuse(dtype):
    out = np.zeros(3000, dtype)
    rng = np.random.default_rng(7)
    for n in (0, 7, 8, 999, 3000):
        a = rng.integers(0, 255, n * np.dtype(dtype).itemsize, dtype=np.uint8).view(dtype)
        got = bit_split.decode(bit_split.encode(a), out=out)
        assert n == 0 or np.shares_memory(got, out)
        assert got.dtype == np.dtype(dtype) and got.tobytes() == a.tobytes()


def test_out_takes_its_width_from_its_dtype():
    a = np.arange(1000, dtype=np.uint32) * 2654435761
    out = np.empty(1000, np.uint32)
    got = bit_split.decode(bit_split.encode(a), dtype=np.uint8, out=out)
    np.testing.assert_array_equal(got, a)


def test_out_refusals():
    enc = bit_split.encode(np.arange(100, dtype=np.uint32))
    with pytest.raises(ValueError, match="holds"):
        bit_split.decode(enc, out=np.zeros(99, np.uint32))
    with pytest.raises(ValueError, match="contiguous"):
        bit_split.decode(enc, out=np.zeros(400, np.uint32)[::2])
    with pytest.raises(TypeError, match="numpy.ndarray"):
        bit_split.decode(enc, out=bytearray(400))
    readonly = np.zeros(100, np.uint32)
    readonly.flags.writeable = False
    with pytest.raises((ValueError, TypeError, BufferError)):
        bit_split.decode(enc, out=readonly)
