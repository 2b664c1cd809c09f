"""vecpress's HDF5 filter plugins (crates/vecpress-hdf5): plain ``ds[:]``
through ``HDF5_PLUGIN_PATH``, byte-compatible both ways with hdf5plugin's
Blosc (32001), LZ4 (32004) and Bitshuffle (32008) filters.

Each side runs in a fresh interpreter: hdf5plugin registers its own filters
when imported, and HDF5 reads ``HDF5_PLUGIN_PATH`` once. The plugins are
built by scripts/test-python.sh, which names their folder in
``VECPRESS_HDF5_PLUGIN_DIR``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import hdf5_plugin_dir, require

h5py = require("h5py")
hdf5plugin = require("hdf5plugin")

PLUGINS = ("libvecpress_h5blosc.so", "libvecpress_h5lz4.so", "libvecpress_h5bshuf.so")

# name: (dtype, hdf5plugin's filter, the same filter by id and cd_values)
CASES = {
    "blosc_lz4_shuffle_u2": ("<u2", "hdf5plugin.Blosc('lz4', 5, 1)", (32001, (0, 0, 0, 0, 5, 1, 1))),
    "blosc_lz4_bitshuffle_f4": ("<f4", "hdf5plugin.Blosc('lz4', 5, 2)", (32001, (0, 0, 0, 0, 5, 2, 1))),
    "blosc_lz4_noshuffle_i4": ("<i4", "hdf5plugin.Blosc('lz4', 9, 0)", (32001, (0, 0, 0, 0, 9, 0, 1))),
    "blosc_lz4_shuffle_f8": ("<f8", "hdf5plugin.Blosc('lz4', 1, 1)", (32001, (0, 0, 0, 0, 1, 1, 1))),
    "blosc_lz4hc_shuffle_f8": ("<f8", "hdf5plugin.Blosc('lz4hc', 5, 1)", (32001, (0, 0, 0, 0, 5, 1, 2))),
    "blosc_lz4_u1": ("<u1", "hdf5plugin.Blosc('lz4', 5, 1)", (32001, (0, 0, 0, 0, 5, 1, 1))),
    "lz4_f4": ("<f4", "hdf5plugin.LZ4()", (32004, (0,))),
    "lz4_blocks_i4": ("<i4", "hdf5plugin.LZ4(nbytes=1000)", (32004, (1000,))),
    "lz4_u1": ("<u1", "hdf5plugin.LZ4()", (32004, (0,))),
    "bshuf_lz4_f8": ("<f8", "hdf5plugin.Bitshuffle(cname='lz4')", (32008, (0, 2))),
    "bshuf_lz4_u2": ("<u2", "hdf5plugin.Bitshuffle(nelems=256, cname='lz4')", (32008, (256, 2))),
    "bshuf_none_i4": ("<i4", "hdf5plugin.Bitshuffle(cname='none')", (32008, (0, 0))),
    "bshuf_none_u1": ("<u1", "hdf5plugin.Bitshuffle(nelems=64, cname='none')", (32008, (64, 0))),
}

# Chunks that do not divide the shape: edge chunks are partial.
SHAPE, CHUNKS = (203, 157), (64, 50)

# Writes the datasets of CASES to sys.argv[1], through `how` (a function of
# the case giving create_dataset's keyword arguments), with the data itself
# under raw/.
WRITE = """
import sys, h5py, numpy as np
CASES, SHAPE, CHUNKS = {cases!r}, {shape!r}, {chunks!r}
def data(name, dtype):
    rng = np.random.default_rng(len(name))
    walk = np.cumsum(rng.integers(-2, 3, size=SHAPE), axis=1)
    if np.dtype(dtype).kind == "f":
        return np.round(walk * 0.37, 2).astype(dtype)
    return (walk % np.iinfo(dtype).max).astype(dtype)
with h5py.File(sys.argv[1], "w") as f:
    for name, (dtype, spec, (fid, opts)) in CASES.items():
        a = data(name, dtype)
        f.create_dataset("raw/" + name, data=a)
        f.create_dataset(name, data=a, chunks=CHUNKS, **how(spec, fid, opts))
"""

THROUGH_HDF5PLUGIN = "import hdf5plugin\ndef how(spec, fid, opts):\n    return dict(eval(spec))\n"
THROUGH_PLUGIN = "def how(spec, fid, opts):\n    return dict(compression=fid, compression_opts=opts)\n"


@pytest.fixture(scope="module")
def plugin_dir() -> Path:
    """The folder of the three plugin libraries."""
    path = Path(hdf5_plugin_dir())
    missing = [p for p in PLUGINS if not (path / p).is_file()]
    assert not missing, f"{path} lacks {missing}"
    return path


def run(code: str, *args, plugin_path: Path | None) -> str:
    """Runs `code` in a fresh interpreter with HDF5_PLUGIN_PATH set to
    `plugin_path` (or unset); returns its stdout. It must exit normally."""
    env = {k: v for k, v in os.environ.items() if k != "HDF5_PLUGIN_PATH"}
    if plugin_path is not None:
        env["HDF5_PLUGIN_PATH"] = str(plugin_path)
    proc = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=Path(args[0]).parent if args else None,
    )
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def write(path: Path, through: str, plugin_path: Path | None) -> None:
    code = through + WRITE.format(cases=CASES, shape=SHAPE, chunks=CHUNKS)
    run(code, path, plugin_path=plugin_path)


READ_PLAIN = """
import sys, h5py, numpy as np
assert "hdf5plugin" not in sys.modules
names = sys.argv[2].split(",")
print("avail", all(h5py.h5z.filter_avail(i) for i in (32001, 32004, 32008)))
failed = []
with h5py.File(sys.argv[1], "r") as f:
    for name in names:
        try:
            got = f[name][:]
        except OSError:
            failed.append(name)
            continue
        np.testing.assert_array_equal(got, f["raw/" + name][:])
print("failed", ",".join(failed))
maps = open("/proc/self/maps").read()
print("loaded", ",".join(sorted({l.rsplit("/", 1)[-1] for l in maps.splitlines() if "libvecpress_h5" in l})))
"""


def test_hdf5plugin_files_read_through_the_plugin(tmp_path, plugin_dir):
    path = tmp_path / "hdf5plugin.h5"
    write(path, THROUGH_HDF5PLUGIN, None)
    names = ",".join(CASES)
    out = run(READ_PLAIN, path, names, plugin_path=plugin_dir).splitlines()
    assert out == ["avail True", "failed ", "loaded " + ",".join(sorted(PLUGINS))]
    # Without the plugins the same process cannot read a single dataset.
    empty = tmp_path / "empty"
    empty.mkdir()
    out = run(READ_PLAIN, path, names, plugin_path=empty).splitlines()
    assert out == ["avail False", "failed " + names, "loaded "]


COMPARE = """
import sys, h5py, hdf5plugin, numpy as np
ours, theirs = (h5py.File(p, "r") for p in sys.argv[1:3])
for name in sys.argv[3].split(","):
    a, b = ours[name], theirs[name]
    np.testing.assert_array_equal(a[:], a.parent["raw/" + name][:])
    fa, fb = a.id.get_create_plist().get_filter(0), b.id.get_create_plist().get_filter(0)
    assert fa[:3] == fb[:3], (name, fa, fb)
    same = 0
    for i in range(0, a.shape[0], a.chunks[0]):
        for j in range(0, a.shape[1], a.chunks[1]):
            ca, cb = a.id.read_direct_chunk((i, j)), b.id.read_direct_chunk((i, j))
            same += ca == cb
    print(name, same, a.id.get_num_chunks())
"""


def test_plugin_files_read_through_hdf5plugin_with_the_same_chunks(tmp_path, plugin_dir):
    ours, theirs = tmp_path / "ours.h5", tmp_path / "theirs.h5"
    write(ours, THROUGH_PLUGIN, plugin_dir)
    write(theirs, THROUGH_HDF5PLUGIN, None)
    out = run(COMPARE, ours, theirs, ",".join(CASES), plugin_path=None).splitlines()
    assert len(out) == len(CASES)
    for line in out:
        name, same, total = line.split()
        # Every format here is deterministic: c-blosc's and liblz4's output
        # is what vecpress writes, so each stored chunk is byte-identical,
        # filter mask included.
        assert same == total, f"{name}: {same} of {total} chunks identical"


CORRUPT = """
import sys, h5py, numpy as np
path, names = sys.argv[1], sys.argv[2].split(",")
rng = np.random.default_rng(1)
def claims(fid):
    # A header that states a huge size, then a few bytes.
    if fid == 32001:
        head = bytes([2, 1, 0x21, 4]) + np.array([2**31 - 17, 1 << 16, 48, 48], "<i4").tobytes()
    elif fid == 32004:
        head = (2**60).to_bytes(8, "big") + (1 << 30).to_bytes(4, "big")
    else:
        head = (2**40).to_bytes(8, "big") + (8192).to_bytes(4, "big")
    return head + bytes(32)
raised = []
for kind in ("garbage", "truncated", "claims"):
    with h5py.File(path, "a") as f:
        for name in names:
            ds = f[name]
            mask, chunk = ds.id.read_direct_chunk((0, 0))
            fid = ds.id.get_create_plist().get_filter(0)[0]
            bad = {
                "garbage": rng.integers(0, 256, len(chunk), dtype=np.uint8).tobytes(),
                "truncated": chunk[: len(chunk) // 2],
                "claims": claims(fid),
            }[kind]
            ds.id.write_direct_chunk((0, 0), bad, mask)
    with h5py.File(path, "r") as f:
        for name in names:
            try:
                f[name][:]
            except OSError as e:
                raised.append(f"{kind}:{name}")
                last = str(e)
print(" ".join(raised))
print(last, file=sys.stderr)
"""


def test_corrupt_chunks_give_read_errors(tmp_path, plugin_dir):
    path = tmp_path / "corrupt.h5"
    write(path, THROUGH_PLUGIN, plugin_dir)
    # The bare bit shuffle (no compression) has no header: any bytes of the
    # right length are valid, a short chunk is not.
    framed = [n for n in CASES if not n.startswith("bshuf_none")]
    out = run(CORRUPT, path, ",".join(framed), plugin_path=plugin_dir).split()
    expected = [f"{kind}:{name}" for kind in ("garbage", "truncated", "claims") for name in framed]
    assert out == expected


UNSUPPORTED = """
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    for name in ("blosc_zstd", "blosc_blosclz", "bshuf_zstd"):
        try:
            f[name][:]
            print(name, "read")
        except OSError:
            print(name, "OSError")
with h5py.File(sys.argv[1].replace(".h5", "-new.h5"), "w") as f:
    for fid, opts in ((32001, (0, 0, 0, 0, 5, 1, 5)), (32001, (0, 0, 0, 0, 5, 1, 0)), (32008, (0, 3))):
        try:
            f.create_dataset(str(opts), data=np.arange(100), chunks=(50,), compression=fid, compression_opts=opts)
            print(fid, "created")
        except ValueError:
            print(fid, "refused")
"""


def test_other_compressors_fail_cleanly(tmp_path, plugin_dir):
    path = tmp_path / "zstd.h5"
    write_them = """
import sys, h5py, hdf5plugin, numpy as np
a = np.arange(10_000, dtype="f4")
with h5py.File(sys.argv[1], "w") as f:
    f.create_dataset("blosc_zstd", data=a, chunks=(3000,), **hdf5plugin.Blosc("zstd"))
    f.create_dataset("blosc_blosclz", data=a, chunks=(3000,), **hdf5plugin.Blosc("blosclz"))
    f.create_dataset("bshuf_zstd", data=a, chunks=(3000,), **hdf5plugin.Bitshuffle(cname="zstd"))
"""
    run(write_them, path, plugin_path=None)
    out = run(UNSUPPORTED, path, plugin_path=plugin_dir).splitlines()
    assert out == [
        "blosc_zstd OSError",
        "blosc_blosclz OSError",
        "bshuf_zstd OSError",
        "32001 refused",
        "32001 refused",
        "32008 refused",
    ]
