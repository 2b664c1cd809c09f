"""Hostile calls: arguments and Python objects that try to crash the
extension or make it allocate what the input cannot justify. Each must
raise an ``Exception`` subclass (never abort the process or raise a
``BaseException`` such as pyo3's ``PanicException``), within bounded
memory."""

import pytest
from helpers import peak_rss_mib

import vecpress
from vecpress import lz4


def test_a_size_claim_beyond_what_the_block_can_hold_is_refused_before_allocating():
    # One byte of LZ4 decodes to at most 255: a 2 GB claim is a lie.
    with pytest.raises(vecpress.LimitExceededError) as info:
        lz4.decompress(b"\x00", 0x7E000000)
    assert isinstance(info.value, ValueError)
    grew, said = peak_rss_mib(
        """
        try:
            lz4.decompress(b"\\x00", 0x7E000000)
            print("no error")
        except vecpress.Error as e:
            print("refused", type(e).__name__)
        """
    )
    assert said == "refused LimitExceededError"
    assert grew < 64, f"peak memory grew by {grew:.0f} MiB"
    # The largest honest claim still decodes (here: a block of 255 x 40 zeros).
    data = bytes(10_000)
    packed = lz4.compress(data)
    assert lz4.decompress(packed, len(data)) == data


def test_a_file_whose_write_claims_more_than_it_was_given_raises_valueerror():
    class Liar:
        def write(self, b):
            return 2**62

        def flush(self):
            pass

    with pytest.raises(ValueError, match="write"):
        with lz4.open(Liar(), "wb") as f:
            f.write(b"x" * 100_000)


@pytest.mark.parametrize("answer", [-1, 2**62, 10**30, "3", 1.5])
def test_a_file_whose_write_returns_nonsense_raises_an_exception(answer):
    class Odd:
        def write(self, b):
            return answer

        def flush(self):
            pass

    try:
        with lz4.open(Odd(), "wb") as f:
            f.write(b"y" * 100_000)
    except Exception:
        pass
    except BaseException as e:  # pragma: no cover - the failure being tested
        pytest.fail(f"{type(e).__name__} escaped: {e}")
    else:
        pytest.fail("no error")


def test_training_on_10_gib_of_samples_finishes_in_bounded_memory():
    grew, said = peak_rss_mib(
        """
        import time
        big = bytes(range(256)) * 4096  # 1 MiB
        start = time.monotonic()
        d = lz4.train_dictionary([big] * 10_000, 1 << 16)
        print("dict", len(d) <= 1 << 16, time.monotonic() - start < 120)
        """
    )
    assert said == "dict True True"
    assert grew < 1024, f"peak memory grew by {grew:.0f} MiB"


def _decoders():
    """(name, encoded bytes, dtype of out, decode(data, out)) for every
    decoder that takes ``out=``."""
    import numpy as np

    from vecpress import bit_split, byte_split, group_varint, stream_vbyte, vbyte

    ids = np.arange(0, 3000, 3, dtype=np.uint32)
    wide = np.arange(1000, dtype=np.uint64) << 40
    floats = np.linspace(0, 1, 1000, dtype=np.float64)
    n = len(ids)
    yield "stream_vbyte", stream_vbyte.encode(ids), np.uint32, lambda d, o: stream_vbyte.decode(d, n, out=o)
    yield "stream_vbyte delta", stream_vbyte.encode(ids, delta=True), np.uint32, (
        lambda d, o: stream_vbyte.decode(d, n, delta=True, out=o)
    )
    yield "stream_vbyte u64", stream_vbyte.encode(wide), np.uint64, (
        lambda d, o: stream_vbyte.decode(d, len(wide), dtype=np.uint64, out=o)
    )
    yield "vbyte", vbyte.encode(ids), np.uint32, lambda d, o: vbyte.decode(d, n, out=o)
    yield "group_varint", group_varint.encode(ids), np.uint32, lambda d, o: group_varint.decode(d, n, out=o)
    yield "byte_split", byte_split.encode(floats), np.float64, (
        lambda d, o: byte_split.decode(d, dtype=np.float64, out=o)
    )
    yield "bit_split", bit_split.encode(floats), np.float64, (lambda d, o: bit_split.decode(d, out=o))
    yield "lz4", lz4.compress(ids), np.uint8, lambda d, o: lz4.decompress(d, out=o)


@pytest.mark.parametrize("case", list(_decoders()), ids=lambda c: c[0])
def test_an_out_that_shares_memory_with_the_input_is_refused(case):
    import numpy as np

    name, encoded, dtype, decode = case
    itemsize = np.dtype(dtype).itemsize
    room = 8 * len(encoded) + 64 * itemsize
    buf = np.zeros(2 * room, dtype=np.uint8)
    buf[: len(encoded)] = np.frombuffer(encoded, dtype=np.uint8)
    data = buf[: len(encoded)]
    # out over the input itself, and out starting inside it.
    for start in (0, (len(encoded) // 2) // itemsize * itemsize):
        out = buf[start : start + room].view(dtype)
        with pytest.raises(ValueError, match="shares memory"):
            decode(data, out)
    # The same buffer's other half is fine: no byte in common.
    out = buf[room:].view(dtype)
    decode(data, out)


@pytest.mark.parametrize(
    "call",
    [
        lambda: __import__("vecpress").vbyte.decode(b"", 2**64),
        lambda: lz4.decompress(b"\x00", -1),
        lambda: lz4.decompress(b"\x00", 2**70),
        lambda: lz4.decompress_frame(b"", max_size=-1),
        lambda: lz4.compress_frame(b"x", block_size=2**64),
        lambda: lz4.train_dictionary([b"abc"], 2**64),
        lambda: lz4.compress(b"x", level=2**62),
        lambda: lz4.open(__import__("io").BytesIO(), "rb", max_size=-5),
        lambda: __import__("vecpress").stream_vbyte.decode(b"", -1),
    ],
)
def test_out_of_range_integers_raise_valueerror_not_overflowerror(call):
    with pytest.raises(ValueError) as info:
        call()
    assert not isinstance(info.value, OverflowError)


def test_huge_acceleration_acts_as_the_largest_and_round_trips():
    data = b"abcdefgh" * 1000
    packed = lz4.compress(data, acceleration=2**62)
    assert packed == lz4.compress(data, acceleration=lz4.MAX_ACCELERATION)
    assert lz4.decompress(packed, len(data)) == data


class _Evil:
    """An object that fails every way Python lets it: as an int, a buffer,
    an iterable, a string."""

    def __index__(self):
        raise RuntimeError("no index")

    def __iter__(self):
        raise RuntimeError("no iteration")

    def __len__(self):
        return -1

    def __str__(self):
        raise RuntimeError("no str")


def _hostile_values():
    import numpy as np

    return [
        None, -1, 0, 2**64, 2**100, float("nan"), 1.5, True, "x", b"", b"\x00" * 3, b"\xff" * 40,
        bytearray(5), memoryview(b"abcdefgh")[::2], np.zeros(3, np.float32), np.zeros((2, 2), np.uint32),
        np.arange(10, dtype=np.uint32), object(), _Evil(), [b"ab", 3],
    ]


def _public_functions():
    import inspect

    from vecpress import bit_split, byte_split, group_varint, stream_vbyte, vbyte

    for mod in (vbyte, stream_vbyte, group_varint, byte_split, bit_split, lz4):
        for name in getattr(mod, "__all__", dir(mod)):
            f = getattr(mod, name)
            if inspect.isfunction(f) and name != "open":
                yield f"{mod.__name__}.{name}", f


@pytest.mark.parametrize("name,f", list(_public_functions()), ids=lambda x: x if isinstance(x, str) else "")
def test_hostile_arguments_raise_only_exceptions(name, f):
    import inspect

    params = [
        p for p in inspect.signature(f).parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    values = _hostile_values()
    for a in values:
        for b in values if len(params) > 1 else [None]:
            args = [a] if len(params) == 1 else [a, b]
            try:
                f(*args)
            except Exception:
                pass
            except BaseException as e:  # pragma: no cover - the failure being tested
                pytest.fail(f"{name}{tuple(map(type, args))} let {type(e).__name__} escape: {e}")


def test_a_panic_reaches_python_as_vecpress_error():
    # The native test hook panics inside the guard every function runs in.
    with pytest.raises(vecpress.Error, match="internal error.*deliberate panic"):
        vecpress._native._panic_for_tests()


def _decoder_calls():
    """Strategies of calls to every decoder: any data (bytes, arrays of any
    dtype, strided views), any count or size, any dtype, out= arrays of any
    dtype, shape and length, some of them views of the data's own memory."""
    import numpy as np
    from hypothesis import strategies as st

    from vecpress import bit_split, byte_split, group_varint, stream_vbyte, vbyte

    counts = st.one_of(st.integers(-3, 5000), st.sampled_from([2**31, 2**32 + 1, 2**63 - 1, 2**64, -(2**70)]))
    dtypes = st.sampled_from([np.uint8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64,
                              np.float32, np.float64, np.bool_, "S3", object])

    @st.composite
    def call(draw):
        raw = draw(st.binary(max_size=600))
        kind = draw(st.sampled_from(["bytes", "bytearray", "array", "strided", "memoryview"]))
        backing = np.frombuffer(bytearray(raw + bytes(64)), dtype=np.uint8)
        data = {
            "bytes": raw,
            "bytearray": bytearray(raw),
            "array": backing[: len(raw)],
            "strided": backing[::2],
            "memoryview": memoryview(raw),
        }[kind]
        out_kind = draw(st.sampled_from(["none", "fresh", "2d", "alias", "readonly"]))
        dtype = draw(dtypes)
        n = draw(st.integers(0, 300))
        try:
            out = {
                "none": None,
                "fresh": lambda: np.zeros(n, dtype=dtype),
                "2d": lambda: np.zeros((2, n), dtype=dtype),
                "alias": lambda: backing[: (len(backing) // 8) * 8].view(np.uint32),
                "readonly": lambda: np.frombuffer(bytes(4 * n), dtype=np.uint32),
            }[out_kind]
            out = out() if callable(out) else out
        except (TypeError, ValueError):
            out = None
        count = draw(counts)
        delta = draw(st.booleans())
        which = draw(
            st.sampled_from(["vbyte", "stream_vbyte", "group_varint", "byte_split", "bit_split", "lz4", "frame"])
        )
        if which == "vbyte":
            return lambda: vbyte.decode(data, count, dtype=dtype, delta=delta, out=out)
        if which == "stream_vbyte":
            return lambda: stream_vbyte.decode(data, count, dtype=dtype, delta=delta, out=out)
        if which == "group_varint":
            return lambda: group_varint.decode(data, count, delta=delta, out=out)
        if which == "byte_split":
            return lambda: byte_split.decode(data, dtype=dtype, out=out)
        if which == "bit_split":
            return lambda: bit_split.decode(data, dtype=dtype, out=out)
        if which == "lz4":
            return lambda: lz4.decompress(data, None if out is not None else count, out=out)
        return lambda: lz4.decompress_frame(data, max_size=count)

    return call()


def test_every_decoder_under_random_arguments_raises_only_exceptions():
    from hypothesis import given, settings

    @settings(max_examples=1500, deadline=None)
    @given(call=_decoder_calls())
    def run(call):
        try:
            call()
        except Exception:
            pass
        except BaseException as e:  # pragma: no cover - the failure being tested
            pytest.fail(f"{type(e).__name__} escaped: {e}")

    run()
