"""The documentation runs: every ```python block of python/README.md and of
the Python section of the repository's README.md, each as a script in a
fresh interpreter (from an empty folder, so that it finds the installed
package and writes its files there). A block imports what it uses, and
runs twice in the same folder, as a reader trying it again would (files
the first run wrote must not make the second fail)."""

import os
import pathlib
import re
import subprocess
import sys

import pytest
from helpers import hdf5_plugin_dir, require

HERE = pathlib.Path(__file__).resolve().parent
PACKAGE_README = HERE.parent / "README.md"
ROOT_README = HERE.parent.parent / "README.md"


def blocks(path: pathlib.Path, section: str | None = None) -> list[tuple[str, str]]:
    text = path.read_text(encoding="utf-8")
    if section is not None:
        start = text.index(f"\n## {section}\n")
        end = text.find("\n## ", start + 1)
        text = text[start : end if end != -1 else len(text)]
    found = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    return [(f"{path.parent.name}/{path.name} block {i + 1}", code) for i, code in enumerate(found)]


ALL = blocks(PACKAGE_README) + blocks(ROOT_README, "Python")


def test_the_readmes_have_the_blocks_we_expect():
    names = [n for n, _ in ALL]
    assert len(blocks(PACKAGE_README)) >= 4, names
    assert len(blocks(ROOT_README, "Python")) >= 1, names
    assert any("LocalCluster" in code for _, code in ALL)


@pytest.mark.parametrize("name,code", ALL, ids=[n for n, _ in ALL])
def test_block_runs(name, code, tmp_path):
    if "dask" in code:
        require("dask.distributed")
    if "zarr" in code:
        require("zarr")
    env = None
    if "HDF5_PLUGIN_PATH" in code:
        # The block's reader sets it in the shell, before Python starts.
        require("h5py")
        env = {**os.environ, "HDF5_PLUGIN_PATH": hdf5_plugin_dir()}
    script = tmp_path / "block.py"
    script.write_text(code, encoding="utf-8")
    # Dask's block starts a cluster: once is enough for its time.
    for attempt in ("first", "second")[: 1 if "LocalCluster" in code else 2]:
        run = subprocess.run(
            [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env
        )
        assert run.returncode == 0, f"{name} failed on its {attempt} run:\n{code}\n--- stderr:\n{run.stderr[-4000:]}"
