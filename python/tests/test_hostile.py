"""Hostile calls: arguments and Python objects that try to crash the
extension or make it allocate what the input cannot justify. Each must
raise an ``Exception`` subclass (never abort the process or raise a
``BaseException`` such as pyo3's ``PanicException``), within bounded
memory."""

import subprocess
import sys
import tempfile
import textwrap

import pytest

import vecpress
from vecpress import lz4


def peak_rss_mib(code: str) -> tuple[float, str]:
    """Runs ``code`` in a fresh interpreter; returns the growth of its peak
    resident memory over the interpreter's baseline after the imports, in
    MiB, and what it printed. The code must print its own verdict."""
    script = textwrap.dedent(
        """
        import resource, sys
        import vecpress
        from vecpress import lz4
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        """
    ) + textwrap.dedent(code) + textwrap.dedent(
        """
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print("grew", (peak - base) / 1024)
        """
    )
    # Run from elsewhere: from python/, the source folder (which has no
    # compiled module) would shadow the installed package.
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tempfile.gettempdir(),
    )
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.strip().splitlines()
    grew = float(lines[-1].split()[1])
    return grew, "\n".join(lines[:-1])


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
