"""Times vecpress against its Python peers on the same arrays, in one run.

    python python/bench/peers.py            # 1M values (default)
    python python/bench/peers.py -n 4000000 --repeat 30
    python python/bench/peers.py --dump /tmp/vp   # also write the arrays for `vecpress bench`

Each row is one operation by one contestant over the same input; the time is
the best of --repeat runs (each run at least a few ms). "vs vecpress" is the
peer's time over vecpress's time for the same operation: above 1 means
vecpress is faster. Decoders write into a reused output array where the
contestant allows it (``out=``), as the Rust benchmark does; "numpy copy" is
np.copyto of the decoded bytes. Peers that are not installed are listed as
absent.

The peers do the same work as vecpress: one thread (vecpress runs on the
calling thread; Blosc and blosc2 would otherwise use every core), and Blosc's
LZ4 at clevel 9, whose acceleration (10 - clevel) is 1 as in vecpress and
liblz4 by default (clevel 5 means acceleration 5: a faster, weaker LZ4).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable

import numpy as np

import vecpress
from vecpress import byte_split, group_varint, stream_vbyte, vbyte

ROWS: list[dict[str, Any]] = []

#: With --dump DIR: the arrays are written there (name -> array), with the
#: `vecpress bench` commands that time the Rust library on the same data.
DUMP: dict[str, np.ndarray] = {}


def best(f: Callable[[], Any], repeat: int) -> float:
    """The best time of `repeat` runs of f, each run looping f for >= 2 ms."""
    f()
    loops, t = 1, 0.0
    while True:
        t0 = time.perf_counter()
        for _ in range(loops):
            f()
        t = time.perf_counter() - t0
        if t >= 0.002:
            break
        loops *= 2
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(loops):
            f()
        times.append((time.perf_counter() - t0) / loops)
    return min(times)


def row(op: str, who: str, f: Callable[[], Any] | None, nbytes: int, repeat: int, size: int | None = None, why: str = ""):
    if f is None:
        ROWS.append({"op": op, "who": who, "absent": why})
        return
    ROWS.append({"op": op, "who": who, "t": best(f, repeat), "nbytes": nbytes, "ratio": nbytes / size if size else None})


def aligned_empty(n: int, dtype) -> np.ndarray:
    """An empty array whose data starts on a 64-byte boundary (numpy's own
    start 16 bytes past one, which slows AVX-512 stores that cross lines)."""
    itemsize = np.dtype(dtype).itemsize
    raw = np.empty(n * itemsize + 64, np.uint8)
    start = -raw.ctypes.data % 64
    return raw[start : start + n * itemsize].view(dtype)


def check(name: str, got, want):
    if not np.array_equal(np.asarray(got).view(np.uint8).ravel()[: np.asarray(want).nbytes], np.asarray(want).view(np.uint8).ravel()):
        raise SystemExit(f"{name}: round trip differs")


def integers(n: int, repeat: int):
    rng = np.random.default_rng(1)
    data = {
        "uint32 small (<256)": rng.integers(0, 256, n, dtype=np.uint32),
        "uint32 mixed widths": (rng.integers(0, 2**32, n, dtype=np.uint64) >> rng.integers(0, 32, n, dtype=np.uint64)).astype(np.uint32),
    }
    sorted_ids = np.cumsum(rng.integers(0, 64, n, dtype=np.uint32), dtype=np.uint32)
    DUMP["u32-small.docs"], DUMP["u32-mixed.docs"] = data.values()
    DUMP["sorted-ids.docs"] = sorted_ids
    try:
        import libstreamvbyte
    except ImportError as e:
        libstreamvbyte = None
        why = str(e)
    for label, a in data.items():
        out = np.empty_like(a)
        enc = stream_vbyte.encode(a)
        check("stream_vbyte", stream_vbyte.decode(enc, n, out=out), a)
        op = f"Stream VByte encode, {label}"
        row(op, "vecpress", lambda: stream_vbyte.encode(a), a.nbytes, repeat, len(enc))
        if libstreamvbyte:
            ref = libstreamvbyte.encode(a)
            check("libstreamvbyte", libstreamvbyte.decode(np.frombuffer(enc, np.uint8), n), a)
            row(op, "libstreamvbyte", lambda: libstreamvbyte.encode(a), a.nbytes, repeat, len(ref))
        else:
            row(op, "libstreamvbyte", None, 0, 0, why=why)
        op = f"Stream VByte decode, {label}"
        row(op, "vecpress (out=)", lambda: stream_vbyte.decode(enc, n, out=out), a.nbytes, repeat, len(enc))
        out64 = aligned_empty(n, np.uint32)
        row(op, "vecpress (out= 64-byte aligned)", lambda: stream_vbyte.decode(enc, n, out=out64), a.nbytes, repeat, len(enc))
        row(op, "vecpress (new array)", lambda: stream_vbyte.decode(enc, n), a.nbytes, repeat, len(enc))
        if libstreamvbyte:
            encu8 = np.frombuffer(enc, np.uint8)
            row(op, "libstreamvbyte", lambda: libstreamvbyte.decode(encu8, n), a.nbytes, repeat, len(enc))
        else:
            row(op, "libstreamvbyte", None, 0, 0, why=why)
        row(op, "numpy copy", lambda: np.copyto(out, a), a.nbytes, repeat)

    out = np.empty_like(sorted_ids)
    for name, enc_f, dec_f in [
        ("Stream VByte delta", lambda: stream_vbyte.encode(sorted_ids, delta=True), lambda e: stream_vbyte.decode(e, n, delta=True, out=out)),
        ("VByte delta", lambda: vbyte.encode(sorted_ids, delta=True), lambda e: vbyte.decode(e, n, delta=True, out=out)),
        ("Varint-GB delta", lambda: group_varint.encode(sorted_ids, delta=True), lambda e: group_varint.decode(e, n, delta=True, out=out)),
        ("Varint-G8IU delta", lambda: group_varint.encode(sorted_ids, delta=True, variant="g8iu"), lambda e: group_varint.decode(e, n, delta=True, variant="g8iu", out=out)),
    ]:
        enc = enc_f()
        check(name, dec_f(enc), sorted_ids)
        row(f"{name} encode, sorted ids", "vecpress", enc_f, sorted_ids.nbytes, repeat, len(enc))
        row(f"{name} decode, sorted ids", "vecpress (out=)", lambda: dec_f(enc), sorted_ids.nbytes, repeat, len(enc))
    row("delta decode, sorted ids", "numpy cumsum", lambda: np.cumsum(sorted_ids, dtype=np.uint32, out=out), sorted_ids.nbytes, repeat)


def overhead(repeat: int):
    """What a call through Python costs beyond the codec's work: decoding 4
    values into a reused array (compare with the microseconds of the 1M-value
    rows)."""
    a = np.arange(4, dtype=np.uint32)
    enc, out = stream_vbyte.encode(a), np.empty(4, np.uint32)
    row("call overhead: 4 values", "vecpress stream_vbyte.decode (out=)", lambda: stream_vbyte.decode(enc, 4, out=out), a.nbytes, repeat)
    row("call overhead: 4 values", "vecpress stream_vbyte.encode", lambda: stream_vbyte.encode(a), a.nbytes, repeat)


def floats(n: int, repeat: int):
    import numcodecs
    from numcodecs import blosc

    blosc.set_nthreads(1)
    try:
        import blosc2

        blosc2.set_nthreads(1)
    except ImportError:
        pass

    t = np.arange(n, dtype=np.float64)
    a = (20 + 5 * np.sin(t / 5000) + np.random.default_rng(2).normal(0, 0.01, n)).round(2)
    for x in (a.astype(np.float32), a):
        label = str(x.dtype)
        DUMP[f"{label}.{'f32' if x.itemsize == 4 else 'f64'}"] = x
        out = np.empty_like(x)
        enc = byte_split.encode(x)
        check("byte_split", byte_split.decode(enc, out=out), x)
        shuffle = numcodecs.Shuffle(elementsize=x.itemsize)
        assert shuffle.encode(x).tobytes() == enc if hasattr(shuffle.encode(x), "tobytes") else bytes(shuffle.encode(x)) == enc
        op = f"byte split (shuffle) encode, {label}"
        row(op, "vecpress", lambda: byte_split.encode(x), x.nbytes, repeat, len(enc))
        row(op, "numcodecs Shuffle", lambda: shuffle.encode(x), x.nbytes, repeat, len(enc))
        blosc_row(op, x, repeat)
        op = f"byte split (shuffle) decode, {label}"
        row(op, "vecpress (out=)", lambda: byte_split.decode(enc, out=out), x.nbytes, repeat, len(enc))
        row(op, "numcodecs Shuffle (out=)", lambda: shuffle.decode(enc, out=out), x.nbytes, repeat, len(enc))
        row(op, "numpy copy", lambda: np.copyto(out, x), x.nbytes, repeat)
        lz4_rows(x, label, repeat)


def blosc_row(op: str, x: np.ndarray, repeat: int):
    try:
        import blosc2
    except ImportError as e:
        row(op, "blosc2 shuffle", None, 0, 0, why=str(e))
        return
    # clevel 0 stores the shuffled bytes uncompressed: the filter alone.
    f = lambda: blosc2.compress(x, typesize=x.itemsize, clevel=0, filter=blosc2.Filter.SHUFFLE)
    row(op, "blosc2 shuffle (clevel 0)", f, x.nbytes, repeat)


def lz4_rows(x: np.ndarray, label: str, repeat: int):
    """LZ4 on the byte-split floats: vecpress against liblz4 (python-lz4),
    numcodecs' LZ4 and Blosc, blosc2 and pyarrow."""
    import numcodecs

    if not hasattr(vecpress, "lz4"):
        row(f"LZ4 compress, {label}", "vecpress", None, 0, 0, why="vecpress built without lz4")
        return
    from vecpress import lz4 as vlz4
    from vecpress.numcodecs import LZ4, ByteSplitLZ4

    split = byte_split.encode(x)
    DUMP[f"{label}-split.bytes"] = np.frombuffer(split, np.uint8)
    out = np.empty(len(split), np.uint8)
    packed = vlz4.compress(split)
    check("lz4", vlz4.decompress(packed, out=out), np.frombuffer(split, np.uint8))
    op = f"LZ4 block compress, byte-split {label}"
    row(op, "vecpress", lambda: vlz4.compress(split), len(split), repeat, len(packed))
    op_d = f"LZ4 block decompress, byte-split {label}"
    peers_d = [("vecpress (out=)", lambda: vlz4.decompress(packed, out=out), len(packed))]
    try:
        import lz4.block as plz4

        ref = plz4.compress(split, store_size=False)
        row(op, "python-lz4 (liblz4)", lambda: plz4.compress(split, store_size=False), len(split), repeat, len(ref))
        peers_d.append(("python-lz4 (liblz4)", lambda: plz4.decompress(packed, uncompressed_size=len(split)), len(packed)))
    except ImportError as e:
        row(op, "python-lz4 (liblz4)", None, 0, 0, why=str(e))
    try:
        import pyarrow as pa

        buf = pa.py_buffer(split)
        ref = pa.compress(buf, codec="lz4_raw", asbytes=True)
        row(op, "pyarrow lz4_raw", lambda: pa.compress(buf, codec="lz4_raw"), len(split), repeat, len(ref))
        peers_d.append(("pyarrow lz4_raw", lambda: pa.decompress(packed, decompressed_size=len(split), codec="lz4_raw"), len(packed)))
    except ImportError as e:
        row(op, "pyarrow lz4_raw", None, 0, 0, why=str(e))
    for who, f, size in peers_d:
        row(op_d, who, f, len(split), repeat, size)

    # numcodecs codecs on the raw floats: byte split + LZ4 as one codec.
    ours, theirs = LZ4(), numcodecs.LZ4()
    enc = ours.encode(x)
    assert np.array_equal(np.frombuffer(theirs.decode(enc), x.dtype), x)
    op = f"numcodecs LZ4 encode, {label}"
    row(op, "vecpress LZ4", lambda: ours.encode(x), x.nbytes, repeat, len(enc))
    row(op, "numcodecs LZ4", lambda: theirs.encode(x), x.nbytes, repeat, len(theirs.encode(x)))
    op = f"numcodecs LZ4 decode, {label}"
    dec_out = np.empty_like(x)
    row(op, "vecpress LZ4 (out=)", lambda: ours.decode(enc, out=dec_out), x.nbytes, repeat, len(enc))
    row(op, "numcodecs LZ4 (out=)", lambda: theirs.decode(enc, out=dec_out), x.nbytes, repeat, len(enc))

    bs = ByteSplitLZ4(dtype=x.dtype.str)
    blosc = numcodecs.Blosc(cname="lz4", clevel=9, shuffle=numcodecs.Blosc.SHUFFLE, blocksize=0)
    enc, benc = bs.encode(x), blosc.encode(x)
    op = f"shuffle + LZ4 encode, {label}"
    row(op, "vecpress ByteSplitLZ4", lambda: bs.encode(x), x.nbytes, repeat, len(enc))
    row(op, "numcodecs Blosc(lz4, shuffle)", lambda: blosc.encode(x), x.nbytes, repeat, len(benc))
    op = f"shuffle + LZ4 decode, {label}"
    row(op, "vecpress ByteSplitLZ4 (out=)", lambda: bs.decode(enc, out=dec_out), x.nbytes, repeat, len(enc))
    row(op, "numcodecs Blosc(lz4, shuffle) (out=)", lambda: blosc.decode(benc, out=dec_out), x.nbytes, repeat, len(benc))
    blosc_frames(x, label, repeat, dec_out)
    try:
        import blosc2

        b2 = blosc2.compress(x, typesize=x.itemsize, clevel=9, codec=blosc2.Codec.LZ4, filter=blosc2.Filter.SHUFFLE)
        row(f"shuffle + LZ4 encode, {label}", "blosc2 (lz4, shuffle)", lambda: blosc2.compress(x, typesize=x.itemsize, clevel=9, codec=blosc2.Codec.LZ4, filter=blosc2.Filter.SHUFFLE), x.nbytes, repeat, len(b2))
        row(op, "blosc2 (lz4, shuffle)", lambda: blosc2.decompress(b2, dst=dec_out), x.nbytes, repeat, len(b2))
    except ImportError as e:
        row(op, "blosc2", None, 0, 0, why=str(e))


def blosc_frames(x: np.ndarray, label: str, repeat: int, out: np.ndarray):
    """Blosc frames (lz4, clevel 5: numcodecs' default, byte and bit
    shuffle): vecpress's Blosc against numcodecs.Blosc (c-blosc, one
    thread), each decoding the other's frames too; and the bitshuffle-LZ4
    framing of HDF5 filter 32008 against hdf5plugin's."""
    import numcodecs

    from vecpress import bit_split
    from vecpress.numcodecs import Blosc

    for shuffle, name in ((Blosc.SHUFFLE, "shuffle"), (Blosc.BITSHUFFLE, "bitshuffle")):
        ours, theirs = Blosc("lz4", 5, shuffle), numcodecs.Blosc("lz4", 5, shuffle)
        mine, c_blosc = ours.encode(x), theirs.encode(x)
        check("blosc", np.frombuffer(ours.decode(c_blosc), x.dtype), x)
        op = f"Blosc(lz4, {name}) encode, {label}"
        row(op, "vecpress Blosc", lambda: ours.encode(x), x.nbytes, repeat, len(mine))
        row(op, "numcodecs Blosc", lambda: theirs.encode(x), x.nbytes, repeat, len(c_blosc))
        op = f"Blosc(lz4, {name}) decode of c-blosc's frame, {label}"
        row(op, "vecpress Blosc (out=)", lambda: ours.decode(c_blosc, out=out), x.nbytes, repeat, len(c_blosc))
        row(op, "numcodecs Blosc (out=)", lambda: theirs.decode(c_blosc, out=out), x.nbytes, repeat, len(c_blosc))
    frame = bit_split.compress_lz4(x)
    check("bit_split lz4", bit_split.decompress_lz4(frame, dtype=x.dtype), x)
    op = f"bitshuffle-LZ4 (HDF5 32008) decode, {label}"
    row(op, "vecpress bit_split", lambda: bit_split.decompress_lz4(frame, dtype=x.dtype, out=out), x.nbytes, repeat, len(frame))
    try:
        import bitshuffle

        row(op, "bitshuffle", lambda: bitshuffle.decompress_lz4(np.frombuffer(frame[12:], np.uint8), x.shape, x.dtype), x.nbytes, repeat, len(frame))
    except ImportError as e:
        row(op, "bitshuffle", None, 0, 0, why=str(e))


def dump(folder: str, n: int):
    """Writes the arrays for `vecpress bench` (a `.docs` file of one list for
    the integer codecs, little-endian values or raw bytes for the byte codecs)
    and prints the commands that time the same codecs on them, each array as
    one block, as Python encodes and decodes it in one call."""
    import os

    os.makedirs(folder, exist_ok=True)
    for name, a in DUMP.items():
        with open(os.path.join(folder, name), "wb") as f:
            if name.endswith(".docs"):
                f.write(np.uint32(len(a)).tobytes())
            f.write(a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes())
    p = lambda *names: " ".join(os.path.join(folder, x) for x in names)
    isa = vecpress.isa()
    print(f"\n# The Rust library on the same arrays ({folder}), each one block:")
    print(f"vecpress bench {p('u32-small.docs', 'u32-mixed.docs')} --codecs stream-vbyte --isa {isa} --block {n} --reps 21 --peers")
    print(f"vecpress bench {p('sorted-ids.docs')} --codecs stream-vbyte-delta,vbyte-delta,varint-gb-delta,varint-g8iu-delta --isa {isa} --block {n} --reps 21")
    print(f"vecpress bench {p('float32.f32')} --codecs byte-split,byte-split-lz4 --isa {isa} --block {4 * n} --reps 21")
    print(f"vecpress bench {p('float64.f64')} --codecs byte-split,byte-split-lz4 --isa {isa} --block {8 * n} --reps 21")
    print(f"vecpress bench {p('float32-split.bytes', 'float64-split.bytes')} --codecs lz4 --peers --block {8 * n} --reps 21")


def print_table():
    print(f"vecpress {vecpress.__version__}, kernels: {vecpress.isa()}, numpy {np.__version__}, Python {sys.version.split()[0]}")
    op = None
    base = None
    print(f"{'operation / contestant':<48} {'MB/s':>9} {'µs':>9.9} {'vs vecpress':>12} {'comp. ratio':>12}")
    order = list(dict.fromkeys(r["op"] for r in ROWS))
    for r in sorted(ROWS, key=lambda r: order.index(r["op"])):
        if r["op"] != op:
            op = r["op"]
            base = next((x["t"] for x in ROWS if x["op"] == op and x["who"].startswith("vecpress") and "t" in x), None)
            print(f"\n{op}")
        if "absent" in r:
            print(f"  {r['who']:<46} absent: {r['absent']}")
            continue
        mbs = r["nbytes"] / r["t"] / 1e6
        vs = f"{r['t'] / base:.2f}" if base else "-"
        ratio = f"{r['ratio']:.2f}" if r["ratio"] else ""
        print(f"  {r['who']:<46} {mbs:9.0f} {r['t'] * 1e6:9.2f} {vs:>12} {ratio:>12}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", type=int, default=1_000_000, help="values per array (default 1M)")
    p.add_argument("--repeat", type=int, default=15, help="timed runs per row; the best is kept")
    p.add_argument("--dump", metavar="DIR", help="also write the arrays to DIR and print the `vecpress bench` commands for them")
    args = p.parse_args()
    overhead(args.repeat)
    integers(args.n, args.repeat)
    floats(args.n, args.repeat)
    print_table()
    if args.dump:
        dump(args.dump, args.n)


if __name__ == "__main__":
    main()
