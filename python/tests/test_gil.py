"""The standard-id codecs release the GIL while they work: a pure-Python
thread keeps running during their calls (Dask's threaded scheduler and zarr's
decode threads rely on it).

A thread that increments a counter gets the GIL only when no other thread
holds it. While the main thread sits in a native call that holds the GIL, the
counter stands still; while the call has released it, the counter runs (at
half its solo speed at worst, when both threads share one core). The switch
interval is made short so that the Python code around each call (argument
checks, allocation) lets the counter run for little time compared with the
calls themselves.
"""

import sys
import threading
import time

import numpy as np
import pytest

from vecpress import bit_split
from vecpress import numcodecs as vnc


class Counter(threading.Thread):
    """Counts as fast as pure Python can until stopped."""

    def __init__(self):
        super().__init__(daemon=True)
        self.count = 0
        self.stop = False

    def run(self):
        while not self.stop:
            self.count += 1


def _progress(f, seconds: float) -> float:
    """The counter's speed while `f` runs again and again for about
    `seconds`, as a fraction of its speed while the main thread sleeps
    (which releases the GIL throughout)."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    counter = Counter()
    counter.start()

    def rate(run) -> float:
        c0, t0 = counter.count, time.perf_counter()
        run()
        return (counter.count - c0) / (time.perf_counter() - t0)

    def calls():
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            f()

    try:
        time.sleep(0.02)  # the counter is running
        # Its solo speed before and after the calls, in case the machine's
        # load changes meanwhile.
        before = rate(lambda: time.sleep(seconds / 4))
        during = rate(calls)
        after = rate(lambda: time.sleep(seconds / 4))
        solo_rate = (before + after) / 2
    finally:
        counter.stop = True
        counter.join()
        sys.setswitchinterval(previous)
    assert solo_rate > 0
    return during / solo_rate


def _floats(nbytes: int) -> np.ndarray:
    # Slowly varying values: LZ4 finds matches, so the call decodes at a
    # realistic speed rather than copying stored blocks.
    rng = np.random.default_rng(7)
    return np.round(np.cumsum(rng.normal(size=nbytes // 8)), 2)


@pytest.fixture(scope="module")
def data():
    return _floats(16 << 20)


def _calls(data):
    ours = vnc.Blosc(cname="lz4", clevel=5, shuffle=vnc.Blosc.SHUFFLE)
    frame = ours.encode(data)
    bit = vnc.Blosc(cname="lz4", clevel=5, shuffle=vnc.Blosc.BITSHUFFLE)
    bit_frame = bit.encode(data)
    bslz4 = bit_split.compress_lz4(data)
    out = np.empty_like(data)
    return {
        "Blosc.decode": lambda: ours.decode(frame, out=out),
        "Blosc.decode bitshuffle": lambda: bit.decode(bit_frame, out=out),
        "Blosc.encode": lambda: ours.encode(data),
        "bit_split.decompress_lz4": lambda: bit_split.decompress_lz4(bslz4, dtype=data.dtype, out=out),
    }


@pytest.mark.parametrize(
    "name", ["Blosc.decode", "Blosc.decode bitshuffle", "Blosc.encode", "bit_split.decompress_lz4"]
)
def test_calls_release_the_gil(data, name):
    f = _calls(data)[name]
    f()  # warm: output buffers allocated, kernels chosen
    share = _progress(f, 0.3)
    # Held throughout, the share would be a few percent (the Python code
    # between calls); released, half or more.
    assert share > 0.25, f"{name}: a Python thread ran at {share:.0%} of its speed during the calls"


def test_a_call_that_holds_the_gil_is_detected():
    """The measure itself: sorting a list of strings runs in C with the GIL
    held throughout (no Python code runs between its comparisons), and the
    counter then stands still."""
    keys = [str(i * 7919 % 1_000_003) for i in range(300_000)]
    assert _progress(lambda: sorted(keys), 0.3) < 0.25
