"""vecpress.vbyte: round trips for every dtype, delta, out=, bad input."""

import numpy as np
import pytest
from helpers import INT_DTYPES, LENGTHS, arrays, misaligned, mixed
from hypothesis import given
from hypothesis import strategies as st

import vecpress
from vecpress import vbyte


def leb128(values) -> bytes:
    """The obvious LEB128 encoder, as protobuf writes varints."""
    out = bytearray()
    for v in values:
        v = int(v)
        while v >= 0x80:
            out.append(v & 0x7F | 0x80)
            v >>= 7
        out.append(v)
    return bytes(out)


def zigzag(v: int, bits: int) -> int:
    return ((v << 1) ^ (v >> (bits - 1))) & ((1 << bits) - 1)


@pytest.mark.parametrize("dtype", INT_DTYPES)
@given(data=st.data())
def test_round_trip_hypothesis(dtype, data):
    a = data.draw(arrays(dtype))
    enc = vbyte.encode(a)
    assert isinstance(enc, bytes)
    back = vbyte.decode(enc, len(a), dtype=dtype)
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back, a)


@given(a=arrays(np.uint32))
def test_delta_round_trip_hypothesis(a):
    enc = vbyte.encode(a, delta=True)
    np.testing.assert_array_equal(vbyte.decode(enc, len(a), delta=True), a)


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("n", LENGTHS)
def test_lengths(dtype, n):
    a = mixed(dtype, n, seed=n)
    enc = vbyte.encode(a)
    np.testing.assert_array_equal(vbyte.decode(enc, n, dtype=dtype), a)


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_matches_leb128(dtype):
    a = mixed(dtype, 3000, seed=7)
    assert vbyte.encode(a) == leb128(a)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_zigzag_matches_protobuf_sint(dtype):
    bits = np.iinfo(dtype).bits
    a = mixed(dtype, 3000, seed=8)
    assert vbyte.encode(a) == leb128(zigzag(int(v), bits) for v in a)


def test_delta_stores_gaps():
    a = np.array([5, 6, 200, 10], dtype=np.uint32)
    gaps = [5, 1, 194, (10 - 200) % 2**32]
    assert vbyte.encode(a, delta=True) == leb128(gaps)


@pytest.mark.parametrize("offset", range(1, 9))
def test_misaligned_input_and_data(offset):
    a = mixed(np.uint32, 1000, seed=offset)
    enc = vbyte.encode(misaligned(a, offset))
    raw = np.frombuffer(enc, dtype=np.uint8)
    np.testing.assert_array_equal(vbyte.decode(misaligned(raw, offset), len(a)), a)


def test_buffer_protocol_inputs():
    a = np.arange(100, dtype=np.uint32) * 1000
    enc = vbyte.encode(memoryview(a))
    assert enc == vbyte.encode(a)
    for data in (enc, bytearray(enc), memoryview(enc), np.frombuffer(enc, np.uint8)):
        np.testing.assert_array_equal(vbyte.decode(data, 100), a)


def test_trailing_bytes_ignored():
    np.testing.assert_array_equal(vbyte.decode(b"\x01\x02\xff\xff", 2), [1, 2])


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_zero_length(dtype):
    a = np.zeros(0, dtype=dtype)
    assert vbyte.encode(a) == b""
    out = vbyte.decode(b"", 0, dtype=dtype)
    assert out.shape == (0,) and out.dtype == np.dtype(dtype)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_out_reuse(dtype):
    out = np.full(5000, 7, dtype=dtype)
    for seed in range(3):
        a = mixed(dtype, 4000 + seed, seed=seed)
        got = vbyte.decode(vbyte.encode(a), len(a), out=out)
        assert np.shares_memory(got, out)
        np.testing.assert_array_equal(got, a)
        np.testing.assert_array_equal(out[: len(a)], a)


def test_out_checked():
    enc = vbyte.encode(np.arange(10, dtype=np.uint32))
    with pytest.raises(ValueError, match="holds 5 values"):
        vbyte.decode(enc, 10, out=np.zeros(5, np.uint32))
    with pytest.raises(TypeError, match="unsupported dtype"):
        vbyte.decode(enc, 10, out=np.zeros(10, np.float64))
    with pytest.raises(ValueError, match="1-D C-contiguous"):
        vbyte.decode(enc, 5, out=np.zeros(20, np.uint32)[::2])
    ro = np.zeros(10, np.uint32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="not writable"):
        vbyte.decode(enc, 10, out=ro)
    with pytest.raises(TypeError):
        vbyte.decode(enc, 10, out=bytearray(40))
    misaligned_out = np.zeros(41, np.uint8)[1:].view(np.uint32)
    with pytest.raises(ValueError, match="misaligned"):
        vbyte.decode(enc, 10, out=misaligned_out)


def test_bad_arrays_rejected():
    with pytest.raises(TypeError, match="numpy.ndarray"):
        vbyte.encode([1, 2, 3])
    with pytest.raises(TypeError, match="float64"):
        vbyte.encode(np.zeros(3))
    with pytest.raises(TypeError, match="non-native byte order"):
        vbyte.encode(np.zeros(3, ">u4"))
    with pytest.raises(ValueError, match=r"shape \(2, 3\)"):
        vbyte.encode(np.zeros((2, 3), np.uint32))
    with pytest.raises(ValueError, match="not contiguous"):
        vbyte.encode(np.zeros(10, np.uint32)[::2])
    with pytest.raises(ValueError, match="uint32 only"):
        vbyte.encode(np.zeros(3, np.uint64), delta=True)
    with pytest.raises(TypeError, match="bytes-like"):
        vbyte.decode("text", 1)
    with pytest.raises(TypeError, match="count"):
        vbyte.decode(b"\x01", 1.0)
    with pytest.raises(ValueError, match="count"):
        vbyte.decode(b"\x01", -1)
    with pytest.raises(TypeError, match="unsupported dtype"):
        vbyte.decode(b"\x01", 1, dtype=np.int16)


def test_hostile_count_is_truncated_not_allocated():
    with pytest.raises(vecpress.TruncatedError) as e:
        vbyte.decode(b"\x01\x02", 10**15, dtype=np.uint64)
    assert e.value.needed == 10**15 - 2


@pytest.mark.parametrize("dtype,delta", [(d, False) for d in INT_DTYPES] + [(np.uint32, True)])
def test_every_byte_flip_and_truncation(dtype, delta):
    a = mixed(dtype, 40, seed=3)
    enc = vbyte.encode(a, delta=delta)
    for cut in range(len(enc)):
        with pytest.raises(vecpress.TruncatedError):
            vbyte.decode(enc[:cut], len(a), dtype=dtype, delta=delta)
    for i in range(len(enc)):
        for flip in (0x01, 0x80, 0xFF):
            bad = bytearray(enc)
            bad[i] ^= flip
            try:
                out = vbyte.decode(bytes(bad), len(a), dtype=dtype, delta=delta)
            except vecpress.Error:
                continue
            assert len(out) == len(a)
