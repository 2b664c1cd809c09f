"""Times vecpress under the standard codec ids (Blosc frames, bitshuffle-LZ4)
against the C libraries that wrote them, in one run, on the same chunks.

    python python/bench/blosc.py                    # every part
    python python/bench/blosc.py --parts frames,threads
    python python/bench/blosc.py --quick            # a smoke test: small data, 3 runs

The parts:

- ``frames``: encode and decode of Blosc frames (lz4, clevel 5, byte and bit
  shuffle, the element size as typesize, the default block size) by
  ``vecpress.numcodecs.Blosc`` and ``numcodecs.Blosc`` (c-blosc), one thread
  each, chunk by chunk; both decoders read c-blosc's frames.
- ``threads``: two Python threads (a ThreadPoolExecutor of 2) decoding
  different chunks of the same frames at once; the time is the wall time of
  the whole set of chunks.
- ``bitshuffle``: HDF5 filter 32008 (bitshuffle + LZ4) chunks decoded by
  vecpress and by the ``bitshuffle`` package when it is installed, the plain
  bit transposition likewise; then datasets written by h5py through
  hdf5plugin's Bitshuffle(cname="lz4") and Blosc(cname="lz4") filters, read
  whole by h5py (HDF5 runs the filter) against their raw chunks
  (``read_direct_chunk``) decoded by vecpress, with the raw reads alone as a
  baseline.
- ``dask``: a zarr format 2 array written by plain numcodecs with its
  default Blosc, read on a Dask LocalCluster of 2 worker processes of one
  thread each, with numcodecs' Blosc in the workers and after
  ``vecpress.numcodecs.register_standard()`` there; the median of --dask-reads
  reads each way, alternating.

The columns are those of peers.py: "vs vecpress" is the contestant's time
over vecpress's time for the same work (above 1, vecpress is faster). Times
are the best of --repeat runs, each over every chunk (the dask part: median).
c-blosc runs on one thread (``numcodecs.blosc.set_nthreads(1)``,
``use_threads = False``) as vecpress does.

Data: the float columns of ``floats/`` in the data folder (``VECPRESS_DATA``,
else ``../shared/data`` beside the repository), every ``.f32`` file one after
the other as one float32 column and every ``.f64`` file as one float64
column, and the integer columns of ``ints/`` (int64, and the same values as
int32 where they fit). Without that folder, generated columns stand in, with
a note.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers import ROWS, print_table, row  # noqa: E402  (the timing and table of peers.py)

from vecpress import bit_split  # noqa: E402
from vecpress import numcodecs as vnc  # noqa: E402

MiB = 1 << 20
#: The filter-32008 header: the size (8 bytes) and the block size (4 bytes).
HEADER = 12


def check(name: str, got: Any, want: np.ndarray):
    """Stops the run if `got` (any buffer) does not hold the bytes of `want`."""
    if memoryview(got).cast("B") != memoryview(np.ascontiguousarray(want)).cast("B"):
        raise SystemExit(f"{name}: round trip differs")


def data_dir() -> Path:
    """VECPRESS_DATA, else ../shared/data beside the repository root."""
    if os.environ.get("VECPRESS_DATA"):
        return Path(os.environ["VECPRESS_DATA"])
    return Path(__file__).resolve().parents[2].parent / "shared" / "data"


def columns(quick: bool) -> dict[str, np.ndarray]:
    """The columns to time, by label (see the module's docstring)."""
    root = data_dir()
    found: dict[str, np.ndarray] = {}

    def load(folder: str, suffix: str, dtype: str) -> np.ndarray | None:
        files = sorted((root / folder).glob(f"*{suffix}"))
        if not files:
            return None
        return np.concatenate([np.fromfile(f, dtype=dtype) for f in files])

    f32, f64, i64 = load("floats", ".f32", "<f4"), load("floats", ".f64", "<f8"), load("ints", ".i64", "<i8")
    if f32 is not None:
        found["float32 (floats/*.f32)"] = f32
    if f64 is not None:
        found["float64 (floats/*.f64)"] = f64
    if i64 is not None:
        found["int64 (ints/*.i64)"] = i64
        i32 = i64.astype(np.int32)
        if np.array_equal(i32, i64):
            found["int32 (ints/*.i64 as int32)"] = i32
    if not found:
        print(f"note: no data under {root} (set VECPRESS_DATA); timing generated columns instead")
        n = 2_000_000
        t = np.arange(n, dtype=np.float64)
        a = (20 + 5 * np.sin(t / 5000) + np.random.default_rng(2).normal(0, 0.01, n)).round(2)
        ids = np.cumsum(np.random.default_rng(3).integers(0, 50, n)).astype(np.int64)
        found = {
            "float32 (generated)": a.astype(np.float32),
            "float64 (generated)": a,
            "int64 (generated)": ids,
            "int32 (generated)": ids.astype(np.int32),
        }
    if quick:
        found = {k: v[: MiB // v.itemsize * 2] for k, v in found.items()}
    return found


def chunked(a: np.ndarray, chunk_bytes: int) -> list[np.ndarray]:
    """`a` cut into chunks of `chunk_bytes` (the last one shorter), as zarr
    stores an array."""
    step = max(1, chunk_bytes // a.itemsize)
    return [a[i : i + step] for i in range(0, len(a), step)]


def tiled(a: np.ndarray, nbytes: int) -> np.ndarray:
    """`a` repeated to `nbytes` (for the parts that need many chunks)."""
    reps = -(-nbytes // a.nbytes)
    return np.tile(a, reps)[: nbytes // a.itemsize]


def numcodecs_one_thread():
    import numcodecs
    from numcodecs import blosc

    blosc.set_nthreads(1)
    blosc.use_threads = False
    return numcodecs


SHUFFLES = ((1, "shuffle"), (2, "bitshuffle"))


def frames(cols: dict[str, np.ndarray], chunk_bytes: int, repeat: int):
    """Blosc frames, one thread: encode and decode, chunk by chunk."""
    numcodecs = numcodecs_one_thread()
    for label, a in cols.items():
        chunks = chunked(a, chunk_bytes)
        outs = [np.empty_like(c) for c in chunks]
        for shuffle, name in SHUFFLES:
            ours = vnc.Blosc("lz4", 5, shuffle)
            theirs = numcodecs.Blosc("lz4", 5, shuffle)
            c_frames = [theirs.encode(c) for c in chunks]
            our_frames = [ours.encode(c) for c in chunks]
            for c, f, g in zip(chunks, c_frames, our_frames):
                check("vecpress decoding c-blosc", ours.decode(f), c)
                check("c-blosc decoding vecpress", theirs.decode(g), c)
            size = sum(map(len, c_frames))
            op = f"Blosc(lz4, 5, {name}) encode, {label}"
            row(op, "vecpress Blosc", lambda: [ours.encode(c) for c in chunks], a.nbytes, repeat, sum(map(len, our_frames)))
            row(op, "numcodecs Blosc (c-blosc)", lambda: [theirs.encode(c) for c in chunks], a.nbytes, repeat, size)
            op = f"Blosc(lz4, 5, {name}) decode of c-blosc's frames, {label}"

            def decode(codec):
                return lambda: [codec.decode(f, out=o) for f, o in zip(c_frames, outs)]

            row(op, "vecpress Blosc (out=)", decode(ours), a.nbytes, repeat, size)
            row(op, "numcodecs Blosc (c-blosc) (out=)", decode(theirs), a.nbytes, repeat, size)


def threads(cols: dict[str, np.ndarray], chunk_bytes: int, total_bytes: int, repeat: int):
    """Two Python threads decoding different chunks at once."""
    numcodecs = numcodecs_one_thread()
    for label, a in cols.items():
        if not label.startswith("float"):
            continue
        big = tiled(a, total_bytes)
        chunks = chunked(big, chunk_bytes)
        outs = [np.empty_like(c) for c in chunks]
        c_frames = [numcodecs.Blosc("lz4", 5, 1).encode(c) for c in chunks]
        size = sum(map(len, c_frames))
        ours, theirs = vnc.Blosc("lz4", 5, 1), numcodecs.Blosc("lz4", 5, 1)
        op = f"Blosc(lz4, 5, shuffle) decode, {len(chunks)} chunks of {chunk_bytes // 1024} KiB, {label}"
        with ThreadPoolExecutor(2) as pool:
            pool_rows = []
            for who, codec in (("vecpress Blosc", ours), ("numcodecs Blosc (c-blosc)", theirs)):
                def each(i: int, codec=codec):
                    codec.decode(c_frames[i], out=outs[i])

                def two(each=each):
                    list(pool.map(each, range(len(chunks))))

                def one(each=each):
                    for i in range(len(chunks)):
                        each(i)

                pool_rows.append((f"{who}, 2 threads", two))
                pool_rows.append((f"{who}, 1 thread", one))
            for who, f in pool_rows:
                row(op, who, f, big.nbytes, repeat, size)
        check("threads", np.concatenate(outs), big)


def bitshuffle_part(cols: dict[str, np.ndarray], chunk_bytes: int, repeat: int):
    """Filter-32008 chunks and the plain transposition; then HDF5 datasets."""
    try:
        import bitshuffle
    except ImportError as e:
        bitshuffle, why = None, f"{e} (pip install bitshuffle)"
    for label, a in cols.items():
        chunks = chunked(a, chunk_bytes)
        outs = [np.empty_like(c) for c in chunks]
        framed = [bit_split.compress_lz4(c) for c in chunks]
        for c, f, o in zip(chunks, framed, outs):
            check("bit_split lz4", bit_split.decompress_lz4(f, dtype=c.dtype), c)
            check("bit_split", bit_split.decode(bit_split.encode(c), dtype=c.dtype), c)
            check("bit_split out=", bit_split.decode(bit_split.encode(c), out=o), c)
        size = sum(map(len, framed))
        op = f"bitshuffle-LZ4 (HDF5 32008) decode, {label}"
        row(op, "vecpress bit_split", lambda: [bit_split.decompress_lz4(f, dtype=o.dtype, out=o) for f, o in zip(framed, outs)], a.nbytes, repeat, size)
        enc_op = f"bitshuffle-LZ4 (HDF5 32008) encode, {label}"
        row(enc_op, "vecpress bit_split", lambda: [bit_split.compress_lz4(c) for c in chunks], a.nbytes, repeat, size)
        plain = [bit_split.encode(c) for c in chunks]
        plain_op = f"bit shuffle decode (no LZ4), {label}"
        row(plain_op, "vecpress bit_split (out=)", lambda: [bit_split.decode(p, out=o) for p, o in zip(plain, outs)], a.nbytes, repeat)
        row(plain_op, "numpy copy", lambda: [np.copyto(o, c) for o, c in zip(outs, chunks)], a.nbytes, repeat)
        if bitshuffle is None:
            for o in (op, enc_op, plain_op):
                row(o, "bitshuffle", None, 0, 0, why=why)
            continue
        # The package's blocks carry no 12-byte header (the HDF5 filter adds it).
        bodies = [np.frombuffer(f[HEADER :], np.uint8) for f in framed]
        for c, f, b in zip(chunks, framed, bodies):
            check("bitshuffle decoding vecpress", bitshuffle.decompress_lz4(b, c.shape, c.dtype), c)
            # Its blocks under the header of ours (the same size and the same
            # default block size) make a frame that vecpress reads.
            theirs = f[:HEADER] + np.asarray(bitshuffle.compress_lz4(c)).tobytes()
            check("vecpress decoding bitshuffle", bit_split.decompress_lz4(theirs, dtype=c.dtype), c)
        row(op, "bitshuffle", lambda: [bitshuffle.decompress_lz4(b, c.shape, c.dtype) for b, c in zip(bodies, chunks)], a.nbytes, repeat, size)
        row(enc_op, "bitshuffle", lambda: [bitshuffle.compress_lz4(c) for c in chunks], a.nbytes, repeat, size)
        as_arrays = [np.frombuffer(p, c.dtype) for p, c in zip(plain, chunks)]
        row(plain_op, "bitshuffle", lambda: [bitshuffle.bitunshuffle(p) for p in as_arrays], a.nbytes, repeat)
    hdf5(cols, chunk_bytes, repeat)


def hdf5(cols: dict[str, np.ndarray], chunk_bytes: int, repeat: int):
    """Datasets written through hdf5plugin's filters, read two ways."""
    try:
        import h5py
        import hdf5plugin
    except ImportError as e:
        row("HDF5 filters", "h5py + hdf5plugin", None, 0, 0, why=str(e))
        return
    numcodecs_one_thread()
    with tempfile.TemporaryDirectory() as tmp:
        for label, a in cols.items():
            step = max(1, chunk_bytes // a.itemsize)
            filters = (
                ("Bitshuffle(lz4)", hdf5plugin.Bitshuffle(cname="lz4"), lambda raw, o: bit_split.decompress_lz4(raw, dtype=o.dtype, out=o)),
                ("Blosc(lz4, 5, shuffle)", hdf5plugin.Blosc(cname="lz4", clevel=5, shuffle=hdf5plugin.Blosc.SHUFFLE), None),
            )
            for name, flt, decode in filters:
                path = os.path.join(tmp, f"{name}.h5")
                with h5py.File(path, "w") as f:
                    f.create_dataset("x", data=a, chunks=(step,), **flt)
                # HDF5 stores the last chunk whole (padded), so its raw chunks
                # decode into whole chunks of a padded array.
                padded = np.empty(-(-len(a) // step) * step, a.dtype)
                out = padded[: len(a)]
                blosc = vnc.Blosc()
                # No chunk cache: HDF5 would otherwise serve chunks of up to
                # 1 MiB decoded from memory, and time no decoding at all.
                with h5py.File(path, "r", rdcc_nbytes=0) as f:
                    ds = f["x"]
                    starts = list(range(0, len(a), step))
                    sizes = []
                    unfiltered = 0
                    for s in starts:
                        mask, raw = ds.id.read_direct_chunk((s,))
                        sizes.append(len(raw))
                        unfiltered += mask & 1
                    if unfiltered:
                        row(f"HDF5 read, {name}, {label}", "vecpress", None, 0, 0, why=f"{unfiltered} chunks stored unfiltered")
                        continue

                    def ours(decode=decode):
                        for s in starts:
                            _, raw = ds.id.read_direct_chunk((s,))
                            o = padded[s : s + step]
                            if decode is None:
                                blosc.decode(raw, out=o)
                            else:
                                decode(raw, o)

                    ours()
                    check(f"HDF5 {name}", out, a)
                    op = f"HDF5 read of a dataset, {name}, chunks of {chunk_bytes // 1024} KiB, {label}"
                    row(op, "vecpress on read_direct_chunk", ours, a.nbytes, repeat, sum(sizes))
                    row(op, "h5py read_direct (hdf5plugin filter)", lambda: ds.read_direct(out), a.nbytes, repeat, sum(sizes))
                    row(op, "read_direct_chunk alone (no decode)", lambda: [ds.id.read_direct_chunk((s,)) for s in starts], a.nbytes, repeat)


def _read_part(path: str, start: int, stop: int) -> tuple[str, float]:
    """Runs in a Dask worker: reads rows start..stop of the zarr array at
    `path`, opened here so that the worker's codec registry applies; returns
    the module of the codec that read it and one value (a small result, so
    that the transfer of the data does not enter the time)."""
    import zarr

    z = zarr.open_array(path, mode="r")
    part = z[start:stop]
    return type(z.metadata.compressor).__module__, float(part[-1])


def _register(on: bool) -> str:
    """Runs in each Dask worker: vecpress's codecs for the standard ids, or
    numcodecs' own."""
    import numcodecs

    from vecpress.numcodecs import register_standard, unregister_standard

    (register_standard if on else unregister_standard)()
    return type(numcodecs.get_codec({"id": "blosc"})).__module__


def dask_part(cols: dict[str, np.ndarray], total_bytes: int, chunk_bytes: int, task_chunks: int, reads: int):
    """A zarr v2 array of numcodecs' default Blosc, read on a LocalCluster."""
    try:
        import zarr
        from dask.distributed import Client, LocalCluster
    except ImportError as e:
        row("zarr v2 read on Dask", "vecpress", None, 0, 0, why=str(e))
        return
    numcodecs = numcodecs_one_thread()
    label, a = next((k, v) for k, v in cols.items() if k.startswith("float64"))
    big = tiled(a, total_bytes)
    step = chunk_bytes // big.itemsize
    # zarr decodes a read's chunks in a thread pool: one thread, so that
    # each worker process decodes on one core, as its one task thread runs.
    os.environ["ZARR_THREADING__MAX_WORKERS"] = "1"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "blosc-v2.zarr")
        z = zarr.create_array(path, shape=big.shape, chunks=(step,), dtype=big.dtype, zarr_format=2, compressors=numcodecs.Blosc())
        z[:] = big
        stored = sum(f.stat().st_size for f in Path(path).iterdir() if f.name[0].isdigit())
        part = step * task_chunks
        bounds = [(s, min(s + part, len(big))) for s in range(0, len(big), part)]
        times: dict[bool, list[float]] = {False: [], True: []}
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
            for i in range(2 * reads + 2):
                on = bool(i % 2)
                where = set(client.run(_register, on).values())
                want = "vecpress.numcodecs" if on else "numcodecs.blosc"
                assert where == {want}, f"workers' blosc codec: {where}, expected {want}"
                t0 = time.perf_counter()
                futures = client.map(_read_part, [path] * len(bounds), [s for s, _ in bounds], [e for _, e in bounds], pure=False)
                got = client.gather(futures)
                t = time.perf_counter() - t0
                assert {m for m, _ in got} == {want}, got
                assert [v for _, v in got] == [float(big[e - 1]) for _, e in bounds]
                if i >= 2:  # the first read each way warms the workers
                    times[on].append(t)
        op = (
            f"zarr v2 read on a Dask LocalCluster (2 processes x 1 thread), "
            f"{big.nbytes // MiB} MiB in chunks of {chunk_bytes // 1024} KiB, numcodecs' default Blosc, {label}"
        )
        for on, who in ((True, "vecpress (register_standard in the workers)"), (False, "numcodecs Blosc (c-blosc)")):
            ROWS.append({"op": op, "who": who + f", median of {reads}", "t": statistics.median(times[on]), "nbytes": big.nbytes, "ratio": big.nbytes / stored})


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--parts", default="frames,threads,bitshuffle,dask", help="which parts to run (default: all)")
    p.add_argument("--chunk-kib", type=int, default=1024, help="chunk size of every part (default 1024 KiB)")
    p.add_argument("--repeat", type=int, default=9, help="timed runs per row; the best is kept")
    p.add_argument("--threads-mib", type=int, default=64, help="bytes decoded by the threads part (default 64 MiB)")
    p.add_argument("--dask-mib", type=int, default=256, help="size of the zarr array of the dask part (default 256 MiB)")
    p.add_argument("--dask-task-chunks", type=int, default=16, help="zarr chunks each Dask task reads (default 16)")
    p.add_argument("--dask-reads", type=int, default=5, help="timed reads each way in the dask part (default 5)")
    p.add_argument("--quick", action="store_true", help="a smoke test: 2 MiB columns, 3 runs, 16 MiB for threads and dask")
    args = p.parse_args()
    # One thread for the C filters too: hdf5plugin's bitshuffle is built with
    # OpenMP, and its Blosc filter reads BLOSC_NTHREADS (both read when
    # hdf5plugin loads, below).
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("BLOSC_NTHREADS", "1")
    if args.quick:
        args.repeat, args.threads_mib, args.dask_mib, args.dask_reads = 3, 16, 16, 1
    parts = set(args.parts.split(","))
    unknown = parts - {"frames", "threads", "bitshuffle", "dask"}
    if unknown:
        p.error(f"unknown parts: {', '.join(sorted(unknown))}")
    chunk = args.chunk_kib * 1024
    cols = columns(args.quick)
    print(f"columns: {', '.join(f'{k} {v.nbytes / MiB:.1f} MiB' for k, v in cols.items())}")
    if "frames" in parts:
        frames(cols, chunk, args.repeat)
    if "threads" in parts:
        threads(cols, chunk, args.threads_mib * MiB, args.repeat)
    if "bitshuffle" in parts:
        bitshuffle_part(cols, chunk, args.repeat)
    if "dask" in parts:
        dask_part(cols, args.dask_mib * MiB, chunk, args.dask_task_chunks, args.dask_reads)
    print_table()


if __name__ == "__main__":
    main()
