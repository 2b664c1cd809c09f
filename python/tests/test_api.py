"""The package surface: ISA names, exceptions, docstring examples."""

import doctest
import importlib
import pickle

import numpy as np
import pytest

import vecpress

MODULES = ["vecpress", "vecpress.vbyte", "vecpress.stream_vbyte", "vecpress.group_varint", "vecpress.bitpack", "vecpress.bit_split", "vecpress.byte_split", "vecpress.lz4", "vecpress.postings", "vecpress.numcodecs", "vecpress.zarr3"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0


def test_isa_is_one_of_the_available_levels():
    assert vecpress.isa() in vecpress.available_isas()
    assert vecpress.available_isas()[0] == "scalar"
    assert vecpress.isa() == vecpress.available_isas()[-1]


def test_error_hierarchy():
    for cls in [
        vecpress.TruncatedError,
        vecpress.CorruptError,
        vecpress.OutputTooSmallError,
        vecpress.LimitExceededError,
        vecpress.OutOfRangeError,
        vecpress.ChecksumMismatchError,
        vecpress.UnsupportedError,
        vecpress.UnsupportedFormatError,
    ]:
        assert issubclass(cls, vecpress.Error)
    assert issubclass(vecpress.Error, ValueError)


def test_errors_carry_fields():
    with pytest.raises(vecpress.TruncatedError) as e:
        vecpress.vbyte.decode(b"\x01\x80\x80", 3)
    assert (e.value.offset, e.value.needed, e.value.unit) == (1, 2, "values")
    assert "byte 1" in str(e.value)
    # An LZ4 block whose token (at byte 0) promises 5 literals, of which 2
    # are there: the count is of bytes.
    with pytest.raises(vecpress.TruncatedError) as e:
        vecpress.lz4.decompress(b"\x50ab", 16)
    assert (e.value.offset, e.value.needed, e.value.unit) == (0, 3, "bytes")
    assert str(e.value) == "input truncated: what starts at byte 0 lacks 3 byte(s)"
    with pytest.raises(vecpress.CorruptError) as e:
        vecpress.vbyte.decode(b"\x00\xff\xff\xff\xff\x7f", 2)
    assert e.value.offset == 5
    assert isinstance(e.value.what, str) and e.value.what


def test_errors_pickle():
    try:
        vecpress.vbyte.decode(b"\x80", 1)
    except vecpress.Error as e:
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is vecpress.TruncatedError
        assert str(back) == str(e)


def test_isa_cap_env(tmp_path):
    """VECPRESS_ISA caps the level for a whole process."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", "import vecpress; print(vecpress.isa(), vecpress.available_isas())"],
        env={"VECPRESS_ISA": "scalar", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert out.stdout.strip() == "scalar ['scalar']"


def test_gil_released_threads_agree():
    """Decoders run in threads at once (the GIL released) and agree."""
    from concurrent.futures import ThreadPoolExecutor

    values = np.arange(200_000, dtype=np.uint32) * 977
    data = vecpress.vbyte.encode(values)
    with ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(lambda _: vecpress.vbyte.decode(data, len(values)), range(8)))
    for out in outs:
        np.testing.assert_array_equal(out, values)
