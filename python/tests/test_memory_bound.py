"""Memory follows the input, not a claim: header-claim bombs of every
Python entry point that sizes an output from a header are refused within
bounded memory, each in its own interpreter with its address space capped
(so an allocation driven by a claim fails, rather than passing unnoticed on
a large machine), and bad arguments raise ``ValueError``, ``TypeError`` or a
``vecpress.Error``."""

import struct

import numpy as np
import pytest
from helpers import peak_rss_mib, require

import vecpress
from vecpress import bit_split

numcodecs_blosc = require("numcodecs.blosc")
from vecpress.numcodecs import Blosc  # after require: it needs numcodecs

# Headroom over the interpreter's address space after its imports: every
# bomb below claims several times more.
CAP_MIB = 768

_N = 715_827_536
BOMBS = {
    # A filter-32008 header stating 2 GiB in blocks of 2 GiB (14 bytes).
    "bitshuffle-lz4 2 GiB": "bit_split.decompress_lz4(bytes.fromhex('000000008000000080000000bc55'))",
    "bitshuffle-lz4 1 GiB, 8-byte values": (
        "bit_split.decompress_lz4(bytes.fromhex('000000004000000040000000bc55'), dtype='<f8')"
    ),
    # A Blosc frame, typesize 8, nbytes and blocksize 715,827,536 (20 bytes).
    "blosc lz4 715 MB": (
        f"Blosc().decode(struct.pack('<BBBBiii', 2, 1, 0x21, 8, {_N}, {_N}, 20) + struct.pack('<i', 20))"
    ),
    "blosc lz4 bitshuffle 2 GiB": (
        "Blosc().decode(struct.pack('<BBBBiii', 2, 1, 0x24 | 0x20, 8, 2**31 - 17, 2**31 - 17, 20)"
        " + struct.pack('<i', 20))"
    ),
    # A 17-byte blosclz frame stating 2 GiB: handed to numcodecs before
    # anything is allocated for it.
    "blosc blosclz 2 GiB": "Blosc().decode(struct.pack('<BBBBiii', 2, 1, 0x01, 4, 2**31 - 1, 2**31 - 1, 17) + b'\\0')",
    "blosc blosclz 2 GiB in blocks of 64 KiB": (
        "Blosc().decode(struct.pack('<BBBBiii', 2, 1, 0x01, 4, 2**31 - 1, 1 << 16, 17) + b'\\0')"
    ),
    "lz4 sized 4 GiB": "vecpress.numcodecs.LZ4().decode(b'\\xff\\xff\\xff\\xff\\x00')",
}


# What every bomb's interpreter imports before its baseline.
_SETUP = """
import struct
import numpy as np
import vecpress.numcodecs
from vecpress import bit_split
from vecpress.numcodecs import Blosc
import numcodecs.blosc
"""


def _run_capped(call: str) -> tuple[float, str]:
    """Runs ``call`` in a fresh interpreter whose address space is capped
    at what it holds after its imports plus ``CAP_MIB``; returns the growth
    of its peak resident memory in MiB and how the call ended."""
    code = f"""
try:
    {call}
    print("no error")
except MemoryError as e:
    print("MemoryError", e)
except Exception as e:
    kind = "vecpress" if isinstance(e, vecpress.Error) else "other"
    print("refused", kind, type(e).__name__)
"""
    return peak_rss_mib(code, setup=_SETUP, cap_mib=CAP_MIB)


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_a_header_claim_bomb_is_refused_within_64_mb(name):
    grew, said = _run_capped(BOMBS[name])
    if "blosclz" in name:
        # Not vecpress's compressor: numcodecs' own Blosc gets the frame
        # before vecpress allocates anything, and answers as it does alone
        # (which may be its own MemoryError under the cap).
        alone = BOMBS[name].replace("Blosc()", "numcodecs.blosc.Blosc()")
        grew_alone, said_alone = _run_capped(alone)
        assert said == said_alone, f"{name}: {said}, numcodecs alone: {said_alone}"
        assert grew <= grew_alone + 16, f"{name}: grew by {grew:.0f} MiB, numcodecs alone {grew_alone:.0f}"
        return
    assert said.startswith("refused vecpress"), f"{name}: {said}"
    assert grew < 64, f"{name}: peak memory grew by {grew:.0f} MiB"


def test_the_bombs_are_refused_in_process_too():
    for name in ("blosc lz4 715 MB", "bitshuffle-lz4 2 GiB"):
        with pytest.raises(vecpress.LimitExceededError):
            eval(BOMBS[name], {"bit_split": bit_split, "Blosc": Blosc, "struct": struct, "vecpress": vecpress})


def test_a_blosclz_frame_goes_to_numcodecs_unchanged():
    a = np.arange(10_000, dtype=np.int64)
    frame = numcodecs_blosc.Blosc(cname="blosclz").encode(a)
    assert np.array_equal(np.frombuffer(Blosc().decode(frame), np.int64), a)


def test_a_non_contiguous_out_is_refused_not_left_unfilled():
    values = np.arange(1024, dtype=np.uint64)
    frame = bit_split.compress_lz4(values)
    out = np.zeros((8, 1024), np.uint8).T
    with pytest.raises(ValueError):
        bit_split.decompress_lz4(frame, dtype=np.uint64, out=out)
    good = np.zeros(8 * 1024, np.uint8)
    back = bit_split.decompress_lz4(frame, dtype=np.uint64, out=good)
    assert np.array_equal(back, values)
    assert np.array_equal(good.view(np.uint64), values)


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda f: bit_split.decompress_lz4(f, out=bytearray(8192)), TypeError),
        (lambda f: bit_split.decompress_lz4(f, dtype="O"), TypeError),
        (lambda f: bit_split.decompress_lz4(f, dtype="V0"), TypeError),
        (lambda f: bit_split.decode(f[12:20], dtype="O"), TypeError),
        (lambda f: bit_split.compress_lz4(np.zeros(64, np.uint8), block_size=-8), ValueError),
        (lambda f: bit_split.compress_lz4(np.zeros(64, np.uint8), block_size=2**70), ValueError),
        (lambda f: bit_split.compress_lz4(np.zeros(64, np.uint8), block_size=12), vecpress.Error),
    ],
)
def test_bad_arguments_raise_the_errors_of_the_family(call, error):
    frame = bit_split.compress_lz4(np.arange(1024, dtype=np.uint64))
    with pytest.raises(error):
        call(frame)
