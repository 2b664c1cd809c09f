"""Type stubs of the compiled half of vecpress (``vecpress._native``).

The public modules (``vecpress.vbyte``, ``vecpress.stream_vbyte``, ...) wrap
these functions with keyword arguments and docstrings; call those.
"""

from typing import Any, Literal

import numpy as np
import numpy.typing as npt

class Error(ValueError):
    """Bad input to a vecpress decoder. Subclasses name what is wrong."""

class TruncatedError(Error):
    offset: int
    needed: int
    unit: Literal["values", "bytes"]

class CorruptError(Error):
    offset: int
    what: str

class OutputTooSmallError(Error):
    needed: int
    actual: int

class LimitExceededError(Error):
    what: str
    requested: int
    limit: int

class OutOfRangeError(Error):
    index: int
    len: int

class ChecksumMismatchError(Error):
    what: str
    offset: int

class InvalidArgumentError(Error):
    what: str
    value: int

class IoError(Error):
    kind: str
    message: str

class UnsupportedError(Error):
    isa: str

class UnsupportedFormatError(Error):
    offset: int
    what: str

class DictionaryMismatchError(Error):
    needed: int
    given: int | None

def isa() -> str: ...
def available_isas() -> list[str]: ...
def default_kernels() -> list[tuple[str, str]]: ...
def _panic_for_tests() -> None: ...
def vbyte_encode(array: npt.NDArray[Any], delta: bool) -> bytes: ...
def vbyte_decode(
    data: Any, count: int, dtype: str, delta: bool, out: npt.NDArray[Any] | None = None
) -> npt.NDArray[Any]: ...
def u32_encode(name: str, array: npt.NDArray[np.uint32], delta: bool) -> bytes: ...
def u32_decode(
    name: str, data: Any, count: int, delta: bool, out: npt.NDArray[np.uint32] | None = None
) -> npt.NDArray[np.uint32]: ...
def byte_split_encode(data: Any, width: int) -> bytes: ...
def byte_split_encode_into(data: Any, width: int, out: npt.NDArray[np.uint8]) -> int: ...
def byte_split_decode(data: Any, width: int, out: npt.NDArray[np.uint8]) -> int: ...
def lz4_compress(data: Any, acceleration: int, level: int, store_size: bool, dict: Any = None) -> bytes: ...
def lz4_decompress(data: Any, size: int, dict: Any = None) -> bytes: ...
def lz4_decompress_into(data: Any, out: npt.NDArray[np.uint8], dict: Any = None) -> int: ...
def lz4_decompress_size_prepended(data: Any, dict: Any = None) -> bytes: ...
def lz4_sized_len(data: Any) -> int: ...
def lz4_decompress_sized_into(data: Any, out: npt.NDArray[np.uint8]) -> int: ...
def sized_len(data: Any, width: int) -> int: ...
def lz4_compress_frame(
    data: Any,
    level: int,
    block_size: int,
    block_checksums: bool,
    content_checksum: bool,
    content_size: bool,
    dict: Any = None,
) -> bytes: ...
def lz4_decompress_frame(data: Any, max_size: int, dict: Any = None) -> bytes: ...
def lz4_train_dictionary(samples: list[Any], size: int) -> bytes: ...

class _FrameReader:
    def __init__(self, file: Any, max_size: int, ahead: bool, dict: Any = None) -> None: ...
    def read1(self, size: int) -> bytes: ...
    def position(self) -> int: ...

class _FrameWriter:
    def __init__(
        self,
        file: Any,
        level: int,
        block_size: int,
        block_checksums: bool,
        content_checksum: bool,
        dict: Any = None,
    ) -> None: ...
    def write(self, data: Any) -> int: ...
    def flush(self) -> None: ...
    def finish(self) -> None: ...
def stream_vbyte_encode_wide(array: npt.NDArray[Any], delta: bool) -> bytes: ...
def stream_vbyte_decode_wide(
    data: Any, count: int, dtype: str, delta: bool, out: npt.NDArray[Any] | None = None
) -> npt.NDArray[Any]: ...
def blosc_compress(data: Any, cname: str, clevel: int, shuffle: int, typesize: int, blocksize: int) -> bytes: ...
def blosc_nbytes(data: Any, limit: int) -> int: ...
def blosc_decompress_into(data: Any, out: npt.NDArray[np.uint8]) -> int: ...
