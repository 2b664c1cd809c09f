"""stream_vbyte, group_varint and bitpack (every variant): round trips,
delta, out=, bad input; interop with the reference Stream VByte
(libstreamvbyte)."""

import numpy as np
import pytest
from helpers import LENGTHS, arrays, misaligned, mixed
from hypothesis import given
from hypothesis import strategies as st

import vecpress
from vecpress import bitpack, group_varint, stream_vbyte

CODECS = (
    [(stream_vbyte, v) for v in stream_vbyte.VARIANTS]
    + [(group_varint, v) for v in group_varint.VARIANTS]
    + [(bitpack, c) for c in bitpack.CODECS]
)
IDS = [f"{m.__name__.split('.')[-1]}-{v}" for m, v in CODECS]


def sel(module, variant):
    """The keyword that picks `variant` of `module`: bitpack names its
    formats `codec`, the others `variant`."""
    return {"codec": variant} if module is bitpack else {"variant": variant}


@pytest.mark.parametrize("codec", CODECS, ids=IDS)
@pytest.mark.parametrize("delta", [False, True])
@given(a=arrays(np.uint32))
def test_round_trip_hypothesis(codec, delta, a):
    module, variant = codec
    enc = module.encode(a, delta=delta, **sel(module, variant))
    back = module.decode(enc, len(a), delta=delta, **sel(module, variant))
    assert back.dtype == np.uint32
    np.testing.assert_array_equal(back, a)


@pytest.mark.parametrize("codec", CODECS, ids=IDS)
@pytest.mark.parametrize("n", LENGTHS)
def test_lengths(codec, n):
    module, variant = codec
    a = mixed(np.uint32, n, seed=n)
    for delta in (False, True):
        enc = module.encode(a, delta=delta, **sel(module, variant))
        np.testing.assert_array_equal(module.decode(enc, n, delta=delta, **sel(module, variant)), a)


@pytest.mark.parametrize("codec", CODECS, ids=IDS)
def test_misaligned_and_out_reuse(codec):
    module, variant = codec
    out = np.zeros(3000, np.uint32)
    for offset in range(1, 9):
        a = mixed(np.uint32, 2000 + offset, seed=offset)
        enc = module.encode(misaligned(a, offset), **sel(module, variant))
        data = misaligned(np.frombuffer(enc, np.uint8), offset)
        got = module.decode(data, len(a), **sel(module, variant), out=out)
        assert np.shares_memory(got, out)
        np.testing.assert_array_equal(got, a)


@pytest.mark.parametrize("codec", CODECS, ids=IDS)
def test_zero_length(codec):
    module, variant = codec
    enc = module.encode(np.zeros(0, np.uint32), **sel(module, variant))
    assert module.decode(enc, 0, **sel(module, variant)).shape == (0,)


@pytest.mark.parametrize("codec", CODECS, ids=IDS)
def test_bad_arguments(codec):
    module, variant = codec
    with pytest.raises(TypeError, match="uint32"):
        module.encode(np.zeros(4, np.int64), **sel(module, variant))
    with pytest.raises(TypeError, match="uint32"):
        module.encode(np.zeros(4, np.float32), **sel(module, variant))
    with pytest.raises(ValueError, match="not contiguous"):
        module.encode(np.zeros(8, np.uint32)[::2], **sel(module, variant))
    with pytest.raises(ValueError, match="1-D"):
        module.encode(np.zeros((2, 2), np.uint32), **sel(module, variant))
    with pytest.raises(ValueError, match="variant|codec"):
        module.encode(np.zeros(4, np.uint32), **sel(module, "nope"))
    with pytest.raises(TypeError, match="uint32"):
        module.decode(b"\0" * 8, 1, dtype=np.int64, **sel(module, variant))


@pytest.mark.parametrize("codec", CODECS, ids=IDS)
def test_every_truncation_and_byte_flip(codec):
    module, variant = codec
    # Whole blocks and a tail for the bit packers (FastLanes: 1024), 37 values for the others.
    a = mixed(np.uint32, {"fastlanes": 1100}.get(variant, 300) if module is bitpack else 37, seed=11)
    for delta in (False, True):
        enc = module.encode(a, delta=delta, **sel(module, variant))
        for cut in range(len(enc)):
            with pytest.raises(vecpress.Error):
                module.decode(enc[:cut], len(a), delta=delta, **sel(module, variant))
        for i in range(len(enc)):
            for flip in (0x01, 0x10, 0x80, 0xFF):
                bad = bytearray(enc)
                bad[i] ^= flip
                try:
                    out = module.decode(bytes(bad), len(a), delta=delta, **sel(module, variant))
                except vecpress.Error:
                    continue
                assert len(out) == len(a)


@pytest.mark.parametrize("codec", CODECS, ids=IDS)
def test_hostile_count(codec):
    module, variant = codec
    with pytest.raises(vecpress.Error):
        module.decode(b"\xff\xff\xff", 10**15, **sel(module, variant))


def test_stream_vbyte_matches_reference_c_library():
    libstreamvbyte = pytest.importorskip("libstreamvbyte")
    a = mixed(np.uint32, 10_001, seed=5)
    ref = libstreamvbyte.encode(a)
    ref = bytes(ref) if not isinstance(ref, bytes) else ref
    assert stream_vbyte.encode(a) == ref
    np.testing.assert_array_equal(libstreamvbyte.decode(np.frombuffer(stream_vbyte.encode(a), np.uint8), len(a)), a)


WIDE = [(np.uint64, False), (np.uint64, True), (np.int32, False), (np.int32, True), (np.uint16, False)]


@pytest.mark.parametrize("dtype,delta", WIDE)
@given(data=st.data())
def test_stream_vbyte_wide_dtypes_hypothesis(dtype, delta, data):
    a = data.draw(arrays(dtype))
    enc = stream_vbyte.encode(a, delta=delta)
    back = stream_vbyte.decode(enc, len(a), dtype=dtype, delta=delta)
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back, a)


@pytest.mark.parametrize("dtype,delta", WIDE)
def test_stream_vbyte_wide_dtypes_lengths_out_and_bad_input(dtype, delta):
    out = np.zeros(5000, dtype)
    for n in LENGTHS[:-1]:
        a = mixed(dtype, n, seed=n)
        enc = stream_vbyte.encode(a, delta=delta)
        got = stream_vbyte.decode(enc, n, delta=delta, out=out)
        np.testing.assert_array_equal(got, a)
    a = mixed(dtype, 37, seed=2)
    enc = stream_vbyte.encode(a, delta=delta)
    for cut in range(len(enc)):
        with pytest.raises(vecpress.Error):
            stream_vbyte.decode(enc[:cut], len(a), dtype=dtype, delta=delta)
    for i in range(len(enc)):
        bad = bytearray(enc)
        bad[i] ^= 0x5A
        try:
            assert len(stream_vbyte.decode(bytes(bad), len(a), dtype=dtype, delta=delta)) == len(a)
        except vecpress.Error:
            pass


def test_stream_vbyte_wide_rules():
    with pytest.raises(ValueError, match="0124"):
        stream_vbyte.encode(np.zeros(3, np.uint64), variant="0124")
    with pytest.raises(ValueError, match="delta"):
        stream_vbyte.encode(np.zeros(3, np.uint16), delta=True)
    with pytest.raises(TypeError):
        stream_vbyte.encode(np.zeros(3, np.int64))
    # uint16 values are coded as uint32: the same bytes.
    a = mixed(np.uint16, 1000, seed=1)
    assert stream_vbyte.encode(a) == stream_vbyte.encode(a.astype(np.uint32))
