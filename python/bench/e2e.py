"""Whole reads and writes as users run them: zarr (formats 2 and 3), HDF5 and
Dask, with vecpress and with what users run today, on the same stored bytes.

    python python/bench/e2e.py                   # 256 MiB, 7 rounds, 1 and 2 threads
    python python/bench/e2e.py --mib 64 --rounds 3 --threads 1
    python python/bench/e2e.py --quick           # a smoke test: 16 MiB, 1 round

The array: every ``.f64`` file of ``floats/`` in the data folder
(``VECPRESS_DATA``, else ``../shared/data`` beside the repository) one after
the other, tiled to ``--mib`` MiB, stored in chunks of 1 MiB (131,072
values) with Blosc (lz4, clevel 5, byte shuffle, typesize 8): numcodecs'
``Blosc()`` for zarr format 2, zarr's ``BloscCodec`` for format 3,
hdf5plugin's ``Blosc`` and ``Bitshuffle(cname="lz4")`` filters for HDF5.

The paths (each row's baseline is what users run today):

==================  =====================================================
zarr2               ``arr[:]`` with numcodecs' Blosc; then after
                    ``vecpress.numcodecs.register_standard(pipeline=False)``
                    (the codecs alone); then with
                    ``vecpress.zarr3.CodecPipeline`` (what
                    ``register_standard()`` selects)
zarr3               ``arr[:]`` with zarr's ``BloscCodec``; then with
                    ``vecpress.zarr3.Blosc`` (``codecs.blosc``); then with
                    ``vecpress.zarr3.CodecPipeline``; then with the
                    ``zarrs`` codec pipeline, a peer
hdf5-blosc,         ``ds[:]`` with hdf5plugin's filter; then with vecpress's
hdf5-bitshuffle     filter plugin (``HDF5_PLUGIN_PATH``, no hdf5plugin)
dask                ``da.from_zarr(zarr2, chunks=8 MiB).sum()`` on a
                    LocalCluster of 2 worker processes of one thread,
                    numcodecs' Blosc in the workers, then
                    ``register_standard(pipeline=False)`` there, then
                    the pipeline (``ZARR_CODEC_PIPELINE__PATH``)
==================  =====================================================

Every path runs in a process of its own, so that codec registries, HDF5's
filter table and peak memory are its own (with ``OPENBLAS_NUM_THREADS=1``
unless set: numpy's BLAS threads otherwise spin on the cores being timed):
one untimed read (or write),
then ``--reads`` timed ones, their median reported. A round runs every path
once, in an order that rotates from round to round; the ratio of a row is
its baseline's time over its own time in the same round (above 1: faster
than the baseline), and the table gives the median ratio over the rounds
with its range. "Threads" is zarr's ``threading.max_workers`` (which
vecpress's pipeline decodes on; ``zarrs`` uses every core whatever it is
set to), c-blosc's ``nthreads`` in the process, and ``BLOSC_NTHREADS`` and
``VECPRESS_NTHREADS`` for the HDF5 filters. Peak RSS is the process's
high-water mark over the timed reads (reset after the check of the data),
the output arrays included.

The breakdown: one 1 MiB chunk's share of a whole read at one thread, cut
into storage read (the chunk file's bytes), decode (the codec into a
buffer it is given), copy (the chunk into the output array) and the rest
(zarr and Python), each timed alone over every chunk of the array.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

MiB = 1 << 20
CHUNK = MiB // 8  # values of a 1 MiB chunk
ROOT = Path(__file__).resolve().parents[2]

#: path -> (baseline path, what it is)
PATHS: dict[str, tuple[str, str]] = {
    "zarr2-numcodecs": ("zarr2-numcodecs", "zarr v2 arr[:], numcodecs Blosc"),
    "zarr2-vecpress": ("zarr2-numcodecs", "zarr v2 arr[:], vecpress register_standard(pipeline=False)"),
    "zarr2-pipeline": ("zarr2-numcodecs", "zarr v2 arr[:], vecpress.zarr3.CodecPipeline"),
    "zarr3-zarr": ("zarr3-zarr", "zarr v3 arr[:], zarr BloscCodec"),
    "zarr3-vecpress": ("zarr3-zarr", "zarr v3 arr[:], vecpress.zarr3.Blosc"),
    "zarr3-pipeline": ("zarr3-zarr", "zarr v3 arr[:], vecpress.zarr3.CodecPipeline"),
    "zarr3-zarrs": ("zarr3-zarr", "zarr v3 arr[:], zarrs pipeline (peer)"),
    "hdf5-blosc-hdf5plugin": ("hdf5-blosc-hdf5plugin", "HDF5 ds[:], Blosc, hdf5plugin"),
    "hdf5-blosc-vecpress": ("hdf5-blosc-hdf5plugin", "HDF5 ds[:], Blosc, vecpress plugin"),
    "hdf5-bitshuffle-hdf5plugin": ("hdf5-bitshuffle-hdf5plugin", "HDF5 ds[:], Bitshuffle-LZ4, hdf5plugin"),
    "hdf5-bitshuffle-vecpress": ("hdf5-bitshuffle-hdf5plugin", "HDF5 ds[:], Bitshuffle-LZ4, vecpress plugin"),
    "dask-numcodecs": ("dask-numcodecs", "Dask from_zarr(v2).sum(), numcodecs Blosc"),
    "dask-vecpress": ("dask-numcodecs", "Dask from_zarr(v2).sum(), vecpress register_standard(pipeline=False)"),
    "dask-pipeline": ("dask-numcodecs", "Dask from_zarr(v2).sum(), vecpress.zarr3.CodecPipeline"),
}
#: path -> the peer it is also held against
PEERS = {"zarr3-pipeline": "zarr3-zarrs"}
WRITES = ("zarr2-numcodecs", "zarr2-vecpress", "zarr2-pipeline", "zarr3-zarr", "zarr3-vecpress", "zarr3-pipeline", "zarr3-zarrs", "hdf5-blosc-hdf5plugin", "hdf5-blosc-vecpress")


def data_dir() -> Path:
    if os.environ.get("VECPRESS_DATA"):
        return Path(os.environ["VECPRESS_DATA"])
    return ROOT.parent / "shared" / "data"


def plugin_dir() -> Path:
    """Where vecpress's HDF5 filter plugins are (scripts/test-python.sh
    builds them there)."""
    return Path(os.environ.get("VECPRESS_HDF5_PLUGIN_DIR", ROOT / "target" / "hdf5-plugins"))


def column(mib: int) -> tuple[np.ndarray, str]:
    files = sorted((data_dir() / "floats").glob("*.f64"))
    if files:
        a, label = np.concatenate([np.fromfile(f, "<f8") for f in files]), f"{len(files)} files of floats/*.f64"
    else:
        print(f"note: no floats/*.f64 under {data_dir()} (set VECPRESS_DATA); a generated column stands in", file=sys.stderr)
        t = np.arange(4 * MiB, dtype=np.float64)
        a, label = (20 + 5 * np.sin(t / 5000) + np.random.default_rng(2).normal(0, 0.01, t.size)).round(2), "generated"
    n = mib * MiB // 8
    return np.tile(a, -(-n // a.size))[:n], label


# -- stores ----------------------------------------------------------------


def build(root: Path, mib: int) -> dict[str, Any]:
    """Writes the stores every path reads; returns their sizes."""
    import h5py
    import hdf5plugin
    import numcodecs
    import zarr

    a, label = column(mib)
    zarr.create_array(root / "zarr2", shape=a.shape, chunks=(CHUNK,), dtype=a.dtype, zarr_format=2, compressors=numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE))[:] = a
    codec = zarr.codecs.BloscCodec(cname="lz4", clevel=5, shuffle="shuffle", typesize=8)
    zarr.create_array(root / "zarr3", shape=a.shape, chunks=(CHUNK,), dtype=a.dtype, compressors=[codec])[:] = a
    with h5py.File(root / "data.h5", "w") as f:
        f.create_dataset("blosc", data=a, chunks=(CHUNK,), **hdf5plugin.Blosc(cname="lz4", clevel=5, shuffle=hdf5plugin.Blosc.SHUFFLE))
        f.create_dataset("bitshuffle", data=a, chunks=(CHUNK,), **hdf5plugin.Bitshuffle(cname="lz4"))
    stored = {name: sum(p.stat().st_size for p in (root / name).rglob("*") if p.is_file()) for name in ("zarr2", "zarr3")}
    return {"label": label, "nbytes": a.nbytes, "stored": stored}


# -- one path in its own process ---------------------------------------------


def _timed(f: Callable[[], Any], reads: int) -> list[float]:
    f()  # untimed: imports, codec instances, the page cache
    times = []
    for _ in range(reads):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return times


def _zarr_config(path: str, threads: int) -> dict[str, Any]:
    conf: dict[str, Any] = {"threading.max_workers": threads}
    if path == "zarr3-vecpress":
        conf["codecs.blosc"] = "vecpress.zarr3.Blosc"
    if path == "zarr3-zarrs":
        conf["codec_pipeline.path"] = "zarrs.ZarrsCodecPipeline"
    if path.endswith("pipeline"):
        conf["codec_pipeline.path"] = "vecpress.zarr3.CodecPipeline"
    return conf


def _reset_peak() -> None:
    """Resets the process's peak RSS (Linux: ``clear_refs``), so that the
    peak reported is the timed reads' and not the reference data's."""
    import gc

    gc.collect()
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def _peak_mib() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker(path: str, op: str, root: Path, threads: int, reads: int, mib: int) -> dict[str, Any]:
    if op == "breakdown":
        return _hdf5_breakdown(path, root, threads, reads)
    want, _ = column(mib)
    if path.startswith("hdf5"):
        import h5py

        if path.endswith("hdf5plugin"):
            import hdf5plugin  # noqa: F401  (registers its filters)
        name = path.split("-")[1]
        if op == "read":
            f = h5py.File(root / "data.h5", "r")
            ds = f[name]
            assert np.array_equal(ds[:].view(np.uint64), want.view(np.uint64)), f"{path}: data differs"
            del want
            _reset_peak()
            times = _timed(lambda: ds[:], reads)
        else:
            opts = {"compression": 32001, "compression_opts": (0, 0, 0, 0, 5, 1, 1)}
            tmp = root / f"w-{path}.h5"

            def write():
                with h5py.File(tmp, "w") as f:
                    f.create_dataset(name, data=want, chunks=(CHUNK,), **opts)

            times = _timed(write, reads)
            tmp.unlink()
    elif path.startswith("dask"):
        times = _dask(path, root, reads, want)
    else:
        import numcodecs
        import zarr

        numcodecs.blosc.set_nthreads(threads)
        if path == "zarr2-vecpress":
            from vecpress.numcodecs import register_standard

            register_standard(pipeline=False)
        with zarr.config.set(_zarr_config(path, threads)):
            fmt = path[:5]
            if op == "read":
                z = zarr.open_array(root / fmt, mode="r")
                assert np.array_equal(z[:].view(np.uint64), want.view(np.uint64)), f"{path}: data differs"
                del want
                _reset_peak()
                times = _timed(lambda: z[:], reads)
            else:
                src = zarr.open_array(root / fmt, mode="r")
                tmp = root / f"w-{path}"
                z = zarr.create_array(tmp, shape=want.shape, chunks=(CHUNK,), dtype=want.dtype, zarr_format=int(fmt[-1]), overwrite=True, compressors=src.compressors)

                def write():
                    z[:] = want

                times = _timed(write, reads)
                shutil.rmtree(tmp)
    return {"t": statistics.median(times), "rss_mib": _peak_mib()}


def _settle_allocator() -> None:
    """Frees one large buffer, which lifts glibc's threshold for mapping
    allocations afresh (each fresh mapping faults its pages in): the parts
    timed alone then allocate as they do inside a whole read, which frees
    chunk buffers all along."""
    big = bytearray(8 << 20)
    del big


def _hdf5_breakdown(path: str, root: Path, threads: int, reads: int) -> dict[str, Any]:
    """One chunk's share of ``ds[:]`` of the Blosc dataset, in parts: the
    raw chunk read (``read_direct_chunk``), its decode (c-blosc through
    numcodecs for hdf5plugin, the same c-blosc 1.x; vecpress's Blosc), the
    copy into the output, and HDF5's rest."""
    import h5py
    import numcodecs

    from vecpress import numcodecs as vnc

    _settle_allocator()
    if path.endswith("hdf5plugin"):
        import hdf5plugin  # noqa: F401

        numcodecs.blosc.set_nthreads(threads)
        numcodecs.blosc.use_threads = True
        codec = numcodecs.Blosc()
    else:
        codec = vnc.Blosc()
        codec.use_threads, codec.nthreads = True, threads
    with h5py.File(root / "data.h5", "r") as f:
        ds = f["blosc"]
        n = ds.id.get_num_chunks()
        raw = [ds.id.read_direct_chunk((i * CHUNK,))[1] for i in range(n)]
        out = np.empty(n * CHUNK)
        out[:] = 0
        scratch = np.empty(CHUNK)
        parts = {
            "whole": lambda: ds[:],
            "storage": lambda: [len(ds.id.read_direct_chunk((i * CHUNK,))[1]) for i in range(n)],
            "decode": lambda: [codec.decode(c, scratch) for c in raw],
            "copy": lambda: [np.copyto(out[i * CHUNK : (i + 1) * CHUNK], scratch) for i in range(n)],
        }
        for f_ in parts.values():
            f_()
        times: dict[str, list[float]] = {k: [] for k in parts}
        for _ in range(max(7, reads)):
            for k, f_ in parts.items():
                t0 = time.perf_counter()
                f_()
                times[k].append((time.perf_counter() - t0) / n)
    t = {k: statistics.median(v) for k, v in times.items()}
    t["rest"] = t["whole"] - t["storage"] - t["decode"] - t["copy"]
    return t


def _register(on: bool) -> str:
    import numcodecs

    from vecpress.numcodecs import register_standard, unregister_standard

    if on:
        register_standard(pipeline=False)
    else:
        unregister_standard()
    return type(numcodecs.get_codec({"id": "blosc"})).__module__


def _pipeline() -> str:
    import zarr

    from vecpress import zarr3  # noqa: F401

    return zarr.config.get("codec_pipeline.path").rsplit(".", 1)[-1]


def _dask(path: str, root: Path, reads: int, want: np.ndarray) -> list[float]:
    import dask.array as da
    from dask.distributed import Client, LocalCluster

    # Each worker process decodes on its one task thread's core. The
    # workers inherit the environment, zarr's configuration with it.
    os.environ["ZARR_THREADING__MAX_WORKERS"] = "1"
    if path.endswith("pipeline"):
        os.environ["ZARR_CODEC_PIPELINE__PATH"] = "vecpress.zarr3.CodecPipeline"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        on = path.endswith("vecpress")
        where = set(client.run(_register, on).values())
        if path.endswith("pipeline"):
            assert set(client.run(_pipeline).values()) == {"CodecPipeline"}
        assert where == {"vecpress.numcodecs" if on else "numcodecs.blosc"}, where
        # Eight chunks a task, as a user asking for 8 MiB tasks would.
        x = da.from_zarr(str(root / "zarr2"), chunks=(8 * CHUNK,))
        total = float(np.nansum(want))
        # The data holds NaNs: the check sums them out, once, untimed.
        got = float(da.nansum(x).compute())
        assert abs(got - total) <= 1e-9 * max(1.0, abs(total)), (got, total)

        def run():
            x.sum().compute()

        return _timed(run, reads)


# -- breakdown -----------------------------------------------------------------


def breakdown(root: Path, mib: int, reads: int) -> list[dict[str, Any]]:
    """One chunk's time at one thread, in parts (see the module's docstring).
    Each part is the median of `reads` timings (at least 7) over every chunk,
    the whole reads of the paths alternated within each timing round."""
    import numcodecs
    import zarr

    from vecpress import _native
    from vecpress import numcodecs as vnc

    numcodecs.blosc.set_nthreads(1)
    numcodecs.blosc.use_threads = False
    reads = max(7, reads)
    _settle_allocator()
    rows = []
    for fmt, prefix in (("zarr2", ""), ("zarr3", "c/")):
        files = sorted((root / fmt / prefix).iterdir() if prefix else (f for f in (root / fmt).iterdir() if f.name[0].isdigit()), key=lambda p: int(p.name))
        n = len(files)
        out = np.empty(n * CHUNK)
        out[:] = 0
        chunks = [p.read_bytes() for p in files]
        theirs, ours = numcodecs.Blosc(), vnc.Blosc()
        ours.use_threads = False
        scratch = np.empty(CHUNK)
        views = [out[i * CHUNK : (i + 1) * CHUNK].view(np.uint8) for i in range(n)]
        paths = [str(p) for p in files]
        base = "numcodecs" if fmt == "zarr2" else "zarr"
        arrays = {}
        for who, conf in ((base, {}), ("vecpress", {"codecs.blosc": "vecpress.zarr3.Blosc"}), ("pipeline", {"codec_pipeline.path": "vecpress.zarr3.CodecPipeline"})):
            if fmt == "zarr2" and who == "vecpress":
                vnc.register_standard(pipeline=False)
            with zarr.config.set({"threading.max_workers": 1, **conf}):
                arrays[who] = zarr.open_array(root / fmt, mode="r")
            vnc.unregister_standard()
        parts: dict[str, Callable[[], Any]] = {
            # One chunk's bytes alive at a time, as in a read.
            "storage": lambda: [len(p.read_bytes()) for p in files],
            "copy": lambda: [np.copyto(out[i * CHUNK : (i + 1) * CHUNK], scratch) for i in range(n)],
            f"decode {base}": lambda: [theirs.decode(c, scratch) for c in chunks],
            "decode vecpress": lambda: [ours.decode(c, scratch) for c in chunks],
            "read+decode pipeline": lambda: _native.blosc_decompress_files(paths, views, 1),
        }
        for who, z in arrays.items():
            conf = {"codec_pipeline.path": "vecpress.zarr3.CodecPipeline"} if who == "pipeline" else {}
            parts[f"whole {who}"] = (lambda z=z, conf=conf: _whole(z, conf))
        times: dict[str, list[float]] = {k: [] for k in parts}
        for f in parts.values():
            f()  # untimed: page cache, allocator, codec state
        for _ in range(reads):
            for k, f in parts.items():
                t0 = time.perf_counter()
                f()
                times[k].append((time.perf_counter() - t0) / n)
        t = {k: statistics.median(v) for k, v in times.items()}
        for who in arrays:
            if who == "pipeline":
                d, storage, copy = t["read+decode pipeline"], None, 0.0
            else:
                d, storage, copy = t[f"decode {'vecpress' if who == 'vecpress' else base}"], t["storage"], t["copy"]
            whole = t[f"whole {who}"]
            rows.append({"path": f"{fmt}-{who}", "chunk": whole, "storage": storage, "decode": d, "copy": copy, "rest": whole - (storage or 0.0) - d - copy})
    return rows


def _whole(z: Any, conf: dict[str, Any]) -> None:
    import zarr

    with zarr.config.set({"threading.max_workers": 1, **conf}):
        z[:]


# -- one chunk, numcodecs API ----------------------------------------------------


def per_file(reads: int) -> list[tuple[str, float]]:
    """numcodecs' Blosc over vecpress's decode time of the first MiB of
    each .f64 file, one thread, alternated."""
    import numcodecs

    from vecpress import numcodecs as vnc

    numcodecs.blosc.set_nthreads(1)
    numcodecs.blosc.use_threads = False
    theirs, ours = numcodecs.Blosc(), vnc.Blosc()
    ours.use_threads = False
    out = []
    for f in sorted((data_dir() / "floats").glob("*.f64")):
        a = np.fromfile(f, "<f8")[:CHUNK]
        frame = theirs.encode(a)
        dst = np.empty_like(a)
        ratios = []
        for _ in range(reads):
            t = [min(_timed(lambda c=c: c.decode(frame, dst), 20)) for c in (theirs, ours)]
            ratios.append(t[0] / t[1])
        out.append((f.stem, statistics.median(ratios)))
    return out


# -- targets -------------------------------------------------------------------

#: (what, path, against, goal): the targets of the paths users read through
TARGETS = [
    ("zarr v2 read, vecpress pipeline ÷ numcodecs Blosc", "zarr2-pipeline", "zarr2-numcodecs", 1.5),
    ("zarr v2 read, register_standard(pipeline=False) ÷ numcodecs Blosc", "zarr2-vecpress", "zarr2-numcodecs", 1.0),
    ("zarr v3 read, vecpress pipeline ÷ zarr BloscCodec", "zarr3-pipeline", "zarr3-zarr", 1.5),
    ("zarr v3 read, vecpress pipeline ÷ zarrs", "zarr3-pipeline", "zarr3-zarrs", 1.0),
    ("zarr v3 read, vecpress.zarr3.Blosc ÷ zarr BloscCodec", "zarr3-vecpress", "zarr3-zarr", 1.0),
    ("HDF5 ds[:] Blosc, vecpress plugin ÷ hdf5plugin", "hdf5-blosc-vecpress", "hdf5-blosc-hdf5plugin", 1.5),
    ("HDF5 ds[:] Bitshuffle, vecpress plugin ÷ hdf5plugin", "hdf5-bitshuffle-vecpress", "hdf5-bitshuffle-hdf5plugin", 1.5),
    ("Dask from_zarr(v2).sum(), vecpress pipeline ÷ numcodecs", "dask-pipeline", "dask-numcodecs", 1.5),
]


def targets(medians: dict[int, dict[tuple[str, str], float]], worst: tuple[str, float] | None) -> list[str]:
    counts = sorted(medians)
    lines = ["| target | goal | " + " | ".join(f"{t} thread(s)" for t in counts) + " |", "|---|---:|" + "---:|" * len(counts)]
    for what, path, against, goal in TARGETS:
        cells = []
        for t in counts:
            got = medians[t].get((path, against))
            cells.append("-" if got is None else f"{got:.3f} {'met' if got >= goal else 'missed'}")
        if any(c != "-" for c in cells):
            lines.append(f"| {what} | ≥ {goal:.1f} | " + " | ".join(cells) + " |")
    if worst is not None:
        cell = f"{worst[1]:.2f} {'met' if worst[1] >= 1.0 else 'missed'} ({worst[0]})"
        lines.append("| numcodecs Blosc decode of one chunk, worst .f64 file, c-blosc ÷ vecpress | ≥ 1.0 | " + " | ".join([cell] + ["" for _ in counts[1:]]) + " |")
    return lines


# -- the run -------------------------------------------------------------------


def run_path(path: str, op: str, root: Path, threads: int, reads: int, mib: int) -> dict[str, Any] | str:
    env = dict(os.environ)
    # numpy's OpenBLAS threads spin for a while once started, on the cores
    # the paths run on; one BLAS thread in every path's process, as Dask
    # sets for its workers.
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    # The HDF5 filters decode one chunk at a time, each on its library's
    # threads: c-blosc's (hdf5plugin) and vecpress's, both set to the row's count.
    env["BLOSC_NTHREADS"] = env["VECPRESS_NTHREADS"] = str(threads)
    if path.startswith("hdf5") and path.endswith("vecpress"):
        if not any(plugin_dir().glob("*.so")):
            return f"absent: no plugin in {plugin_dir()} (scripts/test-python.sh builds it)"
        env["HDF5_PLUGIN_PATH"] = str(plugin_dir())
    if path == "zarr3-zarrs":
        try:
            import zarrs  # noqa: F401
        except ImportError:
            return "absent: pip install zarrs"
    cmd = [sys.executable, __file__, "--worker", path, "--op", op, "--dir", str(root), "--threads", str(threads), "--reads", str(reads), "--mib", str(mib)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        return "failed: " + (done.stderr.strip().splitlines() or ["?"])[-1]
    return json.loads(done.stdout.strip().splitlines()[-1])


def cpu_name() -> str:
    """The CPU's name, family and model (as perf/ names its records)."""
    try:
        info: dict[str, str] = {}
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
        return f"{info['model name']} (family {info['cpu family']}, model {info['model']}), {os.cpu_count()} cores"
    except (OSError, KeyError):
        return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"


def table(args, root: Path, op: str, paths: list[str], threads: int, medians: dict[tuple[str, str], float]) -> list[str]:
    """Runs the rounds of `paths` and returns the table's lines; the median
    ratio of each row over its baseline and its peer goes into `medians`,
    keyed by (path, baseline or peer)."""
    results: dict[str, list[dict[str, Any]]] = {p: [] for p in paths}
    why: dict[str, str] = {}
    for r in range(args.rounds):
        order = paths[r % len(paths) :] + paths[: r % len(paths)]
        for p in order:
            if p in why:
                continue
            got = run_path(p, op, root, threads, args.reads, args.mib)
            if isinstance(got, str):
                why[p] = got
            else:
                results[p].append(got)
        print(f"  {op}, {threads} thread(s): round {r + 1}/{args.rounds} done", file=sys.stderr)
    lines = [f"| {op}, {threads} thread(s) | median time | vs baseline (median, range) | vs peer | peak RSS MiB |", "|---|---:|---:|---:|---:|"]

    def ratio(base: str, p: str) -> str:
        if base in why or p in why or not results[base] or not results[p]:
            return ""
        r = [b["t"] / s["t"] for b, s in zip(results[base], results[p])]
        return f"{statistics.median(r):.2f}x ({min(r):.2f}-{max(r):.2f})"

    for p in paths:
        base = PATHS[p][0]
        if p in why:
            lines.append(f"| {PATHS[p][1]} | {why[p]} | | | |")
            continue
        t = statistics.median(x["t"] for x in results[p])
        rss = max(x["rss_mib"] for x in results[p])
        for other in (base, PEERS.get(p)):
            if other and other != p and ratio(other, p):
                medians[(p, other)] = statistics.median(b["t"] / s["t"] for b, s in zip(results[other], results[p]))
        vs_base = "baseline" if base == p else ratio(base, p)
        peer = PEERS.get(p)
        vs_peer = f"{ratio(peer, p)} vs {peer.split('-', 1)[1]}" if peer in results and ratio(peer, p) else ""
        lines.append(f"| {PATHS[p][1]} | {t * 1e3:.0f} ms | {vs_base} | {vs_peer} | {rss:.0f} |")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mib", type=int, default=256, help="array size in MiB (default 256)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--reads", type=int, default=3, help="timed reads per process (median)")
    ap.add_argument("--threads", default="1,2", help="thread counts to run, comma-separated")
    ap.add_argument("--paths", default="zarr2,zarr3,hdf5,dask", help="path families to run")
    ap.add_argument("--no-writes", action="store_true")
    ap.add_argument("--breakdown-only", action="store_true", help="only the per-chunk breakdown and the one-chunk decode")
    ap.add_argument("--quick", action="store_true", help="16 MiB, one round, one read")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--op", default="read", help=argparse.SUPPRESS)
    ap.add_argument("--dir", help=argparse.SUPPRESS)
    ap.add_argument("--out", help="also write the tables to this file (markdown)")
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.op, Path(args.dir), int(args.threads), args.reads, args.mib)))
        return
    if args.quick:
        args.mib, args.rounds, args.reads = 16, 1, 1
    families = args.paths.split(",")
    paths = [p for p in PATHS if p.split("-")[0] in families]
    with tempfile.TemporaryDirectory(prefix="vecpress-e2e-") as tmp:
        root = Path(tmp)
        info = build(root, args.mib)
        out = [
            f"CPU: {cpu_name()}; {info['nbytes'] // MiB} MiB of float64 ({info['label']}), chunks of 1 MiB, "
            f"Blosc lz4 clevel 5 shuffle (zarr v2 stored {info['stored']['zarr2'] / info['nbytes']:.3f} of the data); "
            f"{args.rounds} rounds, median of {args.reads} reads each; python {platform.python_version()}",
            "",
        ]
        medians: dict[int, dict[tuple[str, str], float]] = {}
        for threads in (int(t) for t in args.threads.split(",")):
            if args.breakdown_only:
                break
            medians[threads] = {}
            out += table(args, root, "read", [p for p in paths if not (p.startswith("dask") and threads != 1)], threads, medians[threads]) + [""]
            if not args.no_writes:
                out += table(args, root, "write", [p for p in paths if p in WRITES], threads, {}) + [""]
        if "zarr2" in families or "zarr3" in families or "hdf5" in families:
            out += ["| one chunk's time, 1 thread (us) | whole read | storage | decode | copy | the rest (zarr or HDF5, Python) |", "|---|---:|---:|---:|---:|---:|"]
            rows = breakdown(root, args.mib, args.reads)
            if "hdf5" in families:
                for p in ("hdf5-blosc-hdf5plugin", "hdf5-blosc-vecpress"):
                    got = run_path(p, "breakdown", root, 1, args.reads, args.mib)
                    if isinstance(got, dict):
                        rows.append({"path": p, "chunk": got["whole"], **{k: got[k] for k in ("storage", "decode", "copy", "rest")}})
            for b in rows:
                storage = "in decode" if b["storage"] is None else f"{b['storage'] * 1e6:.0f}"
                out.append(f"| {b['path']} | {b['chunk'] * 1e6:.0f} | {storage} | {b['decode'] * 1e6:.0f} | {b['copy'] * 1e6:.0f} | {b['rest'] * 1e6:.0f} |")
            out.append("")
    worst = None
    if any((data_dir() / "floats").glob("*.f64")):
        ratios = per_file(max(3, args.reads))
        worst = min(ratios, key=lambda r: r[1])
        out.append(
            f"One 1 MiB chunk of each .f64 file, numcodecs Blosc decode over vecpress's (1 thread): "
            f"median {statistics.median(r for _, r in ratios):.2f}x, worst {worst[1]:.2f}x ({worst[0]})"
        )
        out.append("")
    if not args.breakdown_only:
        out += targets(medians, worst)
    print("\n".join(out))
    if args.out:
        Path(args.out).write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
