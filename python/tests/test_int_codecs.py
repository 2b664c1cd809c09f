"""stream_vbyte, group_varint and bitpack (every variant): round trips,
delta, out=, bad input; interop with the reference Stream VByte
(libstreamvbyte)."""

import numpy as np
import pytest
from helpers import LENGTHS, arrays, misaligned, mixed, require
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


def deltas(module, variant):
    """The `delta` settings `variant` of `module` has: FastLanes' frame of
    reference has no delta form."""
    if module is bitpack and variant not in bitpack.DELTA_CODECS:
        return (False,)
    return (False, True)


WITH_DELTA = [(c, d) for c in CODECS for d in deltas(*c)]
WITH_DELTA_IDS = [f"{IDS[CODECS.index(c)]}-delta={d}" for c, d in WITH_DELTA]


@pytest.mark.parametrize("codec,delta", WITH_DELTA, ids=WITH_DELTA_IDS)
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
    for delta in deltas(module, variant):
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
    a = mixed(np.uint32, 1100 if variant.startswith("fastlanes") else 300 if module is bitpack else 37, seed=11)
    for delta in deltas(module, variant):
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


def test_bitpack_codecs_are_the_registry_ids():
    assert bitpack.CODECS == ("bp128", "pfor", "fastlanes", "fastlanes-for")
    assert set(bitpack.DELTA_CODECS) == set(bitpack.CODECS) - {"fastlanes-for"}


def test_fastlanes_for_has_no_delta_form():
    a = np.arange(100, dtype=np.uint32)
    enc = bitpack.encode(a, codec="fastlanes-for")
    with pytest.raises(ValueError, match="'fastlanes-for' has no delta form"):
        bitpack.encode(a, codec="fastlanes-for", delta=True)
    with pytest.raises(ValueError, match="'fastlanes-for' has no delta form"):
        bitpack.decode(enc, len(a), codec="fastlanes-for", delta=True)
    # The native entry refuses it too, whoever calls it.
    with pytest.raises(ValueError, match="no delta form"):
        vecpress._native.u32_encode("fastlanes-for", a, True)
    with pytest.raises(ValueError, match="no delta form"):
        vecpress._native.u32_decode("fastlanes-for", enc, len(a), True)


@pytest.mark.parametrize("n", [1, 1023, 1024, 1025, 2048, 3000])
@pytest.mark.parametrize("base", [0, 1_000_000, 2**32 - 64])
def test_fastlanes_for_takes_out_each_blocks_minimum(n, base):
    rng = np.random.default_rng(n)
    a = (base + rng.integers(0, 64, n)).astype(np.uint32)
    enc = bitpack.encode(a, codec="fastlanes-for")
    np.testing.assert_array_equal(bitpack.decode(enc, n, codec="fastlanes-for"), a)
    blocks = n // 1024
    if blocks:
        # Each whole block packs 6-bit differences (768 bytes) plus its
        # width and reference; plain FastLanes needs the full width of base.
        assert len(enc) <= blocks * (768 + 6) + 5 * (n % 1024) + 8
        if base:
            assert len(enc) < len(bitpack.encode(a, codec="fastlanes"))
    # Every block constant: width 0.
    same = np.full(n, base + 7, np.uint32)
    np.testing.assert_array_equal(bitpack.decode(bitpack.encode(same, codec="fastlanes-for"), n, codec="fastlanes-for"), same)


def test_fastlanes_for_blocks_of_every_spread():
    # A full-range block (0 and u32::MAX: 32 bits), a narrow band near the
    # top, a constant block, then a tail.
    full = np.zeros(1024, np.uint32)
    full[::2] = 2**32 - 1
    top = (2**32 - 1 - np.arange(1024) % 3).astype(np.uint32)
    a = np.concatenate([full, top, np.full(1024, 5, np.uint32), np.arange(77, dtype=np.uint32)])
    enc = bitpack.encode(a, codec="fastlanes-for")
    np.testing.assert_array_equal(bitpack.decode(enc, len(a), codec="fastlanes-for"), a)
    out = np.zeros(len(a) + 10, np.uint32)
    got = bitpack.decode(enc, len(a), codec="fastlanes-for", out=out)
    assert np.shares_memory(got, out)
    np.testing.assert_array_equal(got, a)


def test_stream_vbyte_matches_reference_c_library():
    libstreamvbyte = require("libstreamvbyte")
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
