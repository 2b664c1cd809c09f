"""vecpress.lz4.open: LZ4 frame files streamed a block at a time, read and
written through paths and file objects, in binary and text modes; interop
with python-lz4's frames both ways; bad data, limits and the file's own
errors."""

import io

import numpy as np
import pytest
from helpers import require

import vecpress
from vecpress import lz4

plz4_frame = require("lz4.frame")


def data(n, seed=0):
    rng = np.random.default_rng(seed)
    words = [b"stream", b"frame", b"block", b"lz4", b"of", b"the", b"\n"]
    picks = rng.integers(0, len(words), n // 4)
    return b" ".join(words[i] for i in picks)[:n]


def test_round_trip_through_paths_in_pieces(tmp_path):
    text = data(3_000_000)
    path = tmp_path / "big.lz4"
    with lz4.open(path, "wb", block_size=1 << 16) as f:
        for at in range(0, len(text), 77_777):
            assert f.write(text[at : at + 77_777]) == len(text[at : at + 77_777])
    packed = path.read_bytes()
    assert len(packed) < len(text) // 2
    # The file is a frame any LZ4 reader takes.
    assert lz4.decompress_frame(packed) == text
    assert plz4_frame.decompress(packed) == text
    with lz4.open(path) as f:
        got = []
        while chunk := f.read(12_345):
            got.append(chunk)
    assert b"".join(got) == text
    with lz4.open(str(path), "rb") as f:
        assert f.read() == text
        assert f.read() == b""


def test_reads_what_python_lz4_writes_and_concatenated_frames():
    a, b = data(200_000, 1), data(90_000, 2)
    packed = plz4_frame.compress(a, block_size=plz4_frame.BLOCKSIZE_MAX64KB) + lz4.compress_frame(b)
    with lz4.open(io.BytesIO(packed)) as f:
        assert f.read() == a + b


def test_text_mode_lines(tmp_path):
    lines = [f"line {i}: {'x' * (i % 50)}\n" for i in range(20_000)]
    path = tmp_path / "log.lz4"
    with lz4.open(path, "wt", encoding="utf-8", level=9) as f:
        f.writelines(lines)
    with lz4.open(path, "rt", encoding="utf-8") as f:
        assert list(f) == lines


def test_flush_makes_what_was_written_decodable():
    buf = io.BytesIO()
    f = lz4.open(buf, "wb")
    f.write(b"first part; ")
    f.flush()
    # A frame cut after the flushed block: its blocks decode, the frame is
    # unfinished.
    partial = buf.getvalue()
    with lz4.open(io.BytesIO(partial)) as r:
        assert r.read(12) == b"first part; "
        with pytest.raises(vecpress.TruncatedError):
            r.read()
    f.write(b"second part")
    f.close()
    assert lz4.decompress_frame(buf.getvalue()) == b"first part; second part"
    # Closing twice, and a file object left open for its owner.
    f.close()
    assert not buf.closed


def test_dictionary_and_block_checksums():
    d = b"key=value; other=thing; " * 50
    text = b"key=value; other=thing; key=42; " * 3000
    buf = io.BytesIO()
    with lz4.open(buf, "wb", dict=d, block_checksums=True, block_size=1 << 18) as f:
        f.write(text)
    packed = buf.getvalue()
    assert lz4.decompress_frame(packed, dict=d) == text
    with lz4.open(io.BytesIO(packed), dict=d) as f:
        assert f.read() == text
    with pytest.raises(vecpress.DictionaryMismatchError):
        with lz4.open(io.BytesIO(packed)) as f:
            f.read()


def test_bad_data_names_what_and_where():
    text = data(300_000, 3)
    packed = bytearray(lz4.compress_frame(text, block_checksums=True))
    packed[len(packed) // 2] ^= 0x40
    with lz4.open(io.BytesIO(bytes(packed))) as f:
        with pytest.raises(vecpress.ChecksumMismatchError) as err:
            f.read()
    assert err.value.what == "block"
    with lz4.open(io.BytesIO(lz4.compress_frame(text)[:-9])) as f:
        with pytest.raises(vecpress.TruncatedError):
            f.read()
    with lz4.open(io.BytesIO(b"not an lz4 frame")) as f:
        with pytest.raises(vecpress.CorruptError, match="magic"):
            f.read()


def test_limit_stops_a_bomb():
    bomb = lz4.compress_frame(bytes(50_000_000), block_size=1 << 22)
    with lz4.open(io.BytesIO(bomb), max_size=1 << 20) as f:
        with pytest.raises(vecpress.LimitExceededError):
            f.read()


class Failing(io.RawIOBase):
    """A file whose reads or writes fail after some bytes."""

    def __init__(self, payload=b"", after=0):
        self.payload = payload
        self.after = after
        self.done = 0

    def readable(self):
        return True

    def writable(self):
        return True

    def read(self, n=-1):
        if self.done >= self.after:
            raise OSError(5, "disk on fire")
        chunk = self.payload[self.done : self.done + min(n, self.after - self.done)]
        self.done += len(chunk)
        return chunk

    def write(self, b):
        if self.done + len(b) > self.after:
            raise OSError(28, "no space left")
        self.done += len(b)
        return len(b)


def test_the_files_own_errors_come_through():
    packed = lz4.compress_frame(data(400_000, 4))
    with lz4.open(Failing(packed, after=len(packed) // 2)) as f:
        with pytest.raises(OSError, match="disk on fire"):
            f.read()
    f = lz4.open(Failing(after=1000), "wb", block_size=1 << 16)
    with pytest.raises(OSError, match="no space left"):
        f.write(data(500_000, 5))
        f.close()


def test_arguments_are_checked(tmp_path):
    with pytest.raises(ValueError, match="mode"):
        lz4.open(tmp_path / "x.lz4", "r+")
    with pytest.raises(ValueError, match="block_size"):
        lz4.open(io.BytesIO(), "wb", block_size=1000)
    with pytest.raises(ValueError, match="level"):
        lz4.open(io.BytesIO(), "wb", level=13)
    with pytest.raises(ValueError, match="text modes"):
        lz4.open(io.BytesIO(), "rb", encoding="utf-8")
    with pytest.raises(TypeError):
        lz4.open(42)
    with lz4.open(io.BytesIO(lz4.compress_frame(b"abc"))) as f:
        with pytest.raises(io.UnsupportedOperation):
            f.write(b"x")


def test_append_adds_a_frame_and_exclusive_refuses_an_existing_file(tmp_path):
    path = tmp_path / "a.lz4"
    with lz4.open(path, "xb") as f:
        f.write(b"first frame; ")
    with lz4.open(path, "ab") as f:
        f.write(b"second frame")
    # Two concatenated frames, as `cat a.lz4 b.lz4` makes.
    assert plz4_frame.decompress(path.read_bytes())[:13] == b"first frame; "
    with lz4.open(path) as f:
        assert f.read() == b"first frame; second frame"
    with pytest.raises(FileExistsError):
        lz4.open(path, "xb")
