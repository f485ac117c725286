"""
The GGUF file format read once, with bounds checks: its metadata, its tensors'
descriptions and (when the file is opened whole) a memory-mapped view of each tensor's
data, shaped as `gguf.GGUFReader` shapes it.

```python
f = read_gguf("model.gguf")                    # header, then every tensor's data mapped
f.fields["llama.block_count"].contents()       # 30
t = f.tensors[0]; t.name, t.shape, t.tensor_type, t.data.shape
h = read_gguf("model.gguf", data=False)         # a file that may end after its header
```

Every count and length in the header is checked against the file's size before it is
used, so a corrupt array length is an error, not a loop over a count the file cannot
hold. `gguf`'s own reader builds a numpy view for every item of every array (a
vocabulary's 49,152 tokens are ~150,000 views) and takes seconds on a small model's
header; this reads plain values and takes a tenth of a second.
"""

from __future__ import annotations

import mmap
import os
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np
from gguf.constants import (
    GGML_QUANT_SIZES,
    GGUF_DEFAULT_ALIGNMENT,
    GGUF_MAGIC,
    GGMLQuantizationType,
    GGUFValueType,
)
from gguf.quants import quant_shape_to_byte_shape

GGUF_MAX_DIMS = 4
"""GGML tensors have at most four dimensions."""

_SCALARS: dict[GGUFValueType, str] = {
    GGUFValueType.UINT8: "<u1",
    GGUFValueType.INT8: "<i1",
    GGUFValueType.BOOL: "?",
    GGUFValueType.UINT16: "<u2",
    GGUFValueType.INT16: "<i2",
    GGUFValueType.UINT32: "<u4",
    GGUFValueType.INT32: "<i4",
    GGUFValueType.FLOAT32: "<f4",
    GGUFValueType.UINT64: "<u8",
    GGUFValueType.INT64: "<i8",
    GGUFValueType.FLOAT64: "<f8",
}
"""Each scalar value type's numpy dtype (little-endian, as the format stores it)."""

_TYPED_DATA: dict[GGMLQuantizationType, type[np.generic]] = {
    GGMLQuantizationType.F16: np.float16,
    GGMLQuantizationType.F32: np.float32,
    GGMLQuantizationType.F64: np.float64,
    GGMLQuantizationType.I8: np.int8,
    GGMLQuantizationType.I16: np.int16,
    GGMLQuantizationType.I32: np.int32,
    GGMLQuantizationType.I64: np.int64,
}
"""Tensor types whose data is a typed array; any other is bytes, a row's blocks last."""


class GGUFFormatError(ValueError):
    """A file that is not a readable GGUF file: the message says where it fails."""


@dataclass(frozen=True)
class GGUFField:
    """A metadata value: `contents()` as `gguf`'s reader gives it (a str, a number, or
    a list of them), and its `types` (the value's type, then an array's item type)."""

    value: Any
    types: tuple[GGUFValueType, ...]

    def contents(self) -> Any:
        return self.value


@dataclass(frozen=True)
class GGUFTensor:
    """A tensor's description: its name, dims (ne0 first), type, size in bytes, and
    its data (None when the file ends before it: a header read of a file cut short)."""

    name: str
    shape: tuple[int, ...]
    tensor_type: GGMLQuantizationType
    n_bytes: int
    data: np.ndarray | None


@dataclass(frozen=True)
class GGUFFile:
    """A GGUF file's metadata and tensors (`read_gguf`)."""

    path: str
    fields: dict[str, GGUFField]
    tensors: list[GGUFTensor]
    data_offset: int
    """Where the tensors' data begins (the header's end, aligned)."""


def _ends_inside(what: str) -> GGUFFormatError:
    """The error of a file cut short inside `what`."""
    return GGUFFormatError(f"the file ends inside {what} (truncated or corrupt?)")


class _Cursor:
    def __init__(self, buf: Any, size: int):
        self.buf = buf
        self.size = size
        self.pos = 0

    def skip(self, n: int, what: str) -> int:
        if n > self.size - self.pos:
            raise _ends_inside(what)
        start = self.pos
        self.pos += n
        return start

    def u32(self, what: str) -> int:
        return struct.unpack_from("<I", self.buf, self.skip(4, what))[0]

    def u64(self, what: str) -> int:
        return struct.unpack_from("<Q", self.buf, self.skip(8, what))[0]

    def string(self, what: str) -> str:
        return self.strings(1, what)[0]

    def strings(self, count: int, what: str) -> list[str]:
        """`count` strings one after another (a key, a name, a vocabulary, its merges):
        each a u64 length and that many bytes of UTF-8 (bytes that are not UTF-8 read
        as U+FFFD), in one loop (reading them one call each took over twice as long:
        tens of thousands are read at every start)."""
        buf, pos, size = self.buf, self.pos, self.size
        length = struct.Struct("<Q").unpack_from
        out = []
        for _ in range(count):
            if size - pos < 8:
                raise _ends_inside(what)
            (n,) = length(buf, pos)
            pos += 8
            if n > size - pos:
                raise _ends_inside(what)
            out.append(buf[pos : pos + n].decode("utf-8", "replace"))
            pos += n
        self.pos = pos
        return out


def _value_type(raw: int, what: str) -> GGUFValueType:
    try:
        return GGUFValueType(raw)
    except ValueError:
        raise GGUFFormatError(f"{what} has unknown value type {raw}") from None


def _value(cur: _Cursor, vtype: GGUFValueType, what: str) -> tuple[Any, tuple[GGUFValueType, ...]]:
    """The value of type `vtype` at the cursor, and its types."""
    if vtype in _SCALARS:
        dt = np.dtype(_SCALARS[vtype])
        start = cur.skip(dt.itemsize, what)
        return np.frombuffer(cur.buf, dt, 1, start)[0].item(), (vtype,)
    if vtype == GGUFValueType.STRING:
        return cur.string(what), (vtype,)
    item = _value_type(cur.u32(what), what)
    count = cur.u64(what)
    if item in _SCALARS:
        dt = np.dtype(_SCALARS[item])
        if count > (cur.size - cur.pos) // dt.itemsize:
            raise _ends_inside(what)
        start = cur.skip(count * dt.itemsize, what)
        return np.frombuffer(cur.buf, dt, count, start).tolist(), (vtype, item)
    # A string or a nested array takes at least 8 bytes, which bounds the loop by the
    # file's size whatever the count claims.
    if count > (cur.size - cur.pos) // 8:
        raise _ends_inside(what)
    if item == GGUFValueType.STRING:
        return cur.strings(count, what), (vtype, item)
    values = [_value(cur, item, what)[0] for _ in range(count)]
    return values, (vtype, item)


def _parse(
    cur: _Cursor, data: np.ndarray, whole: bool
) -> tuple[dict[str, GGUFField], list[GGUFTensor], int]:
    if cur.size < 4 or cur.u32("the magic number") != GGUF_MAGIC:
        raise GGUFFormatError("not a GGUF file (bad magic number)")
    version = cur.u32("the version")
    if version and version & 0xFFFF == 0:
        raise GGUFFormatError("a big-endian GGUF file, which is not supported")
    if version not in (2, 3):
        raise GGUFFormatError(f"GGUF version {version} is not supported (2 and 3 are)")
    n_tensors = cur.u64("the tensor count")
    n_kv = cur.u64("the metadata count")
    fields: dict[str, GGUFField] = {}
    for i in range(n_kv):
        key = cur.string(f"metadata entry {i}")
        what = f"metadata {key!r}"
        value, types = _value(cur, _value_type(cur.u32(what), what), what)
        fields[key] = GGUFField(value, types)
    alignment = GGUF_DEFAULT_ALIGNMENT
    if "general.alignment" in fields and fields["general.alignment"].types == (
        GGUFValueType.UINT32,
    ):
        alignment = int(fields["general.alignment"].value)
    if alignment == 0 or alignment & (alignment - 1):
        raise GGUFFormatError(f"general.alignment = {alignment} is not a power of two")
    # Each description takes at least 8 + 4 + 8 + 4 + 8 bytes.
    if n_tensors > (cur.size - cur.pos) // 32:
        raise _ends_inside("the tensor descriptions")
    infos = []
    for i in range(n_tensors):
        name = cur.string(f"the name of tensor {i}")
        what = f"the description of tensor {name}"
        n_dims = cur.u32(what)
        if not 1 <= n_dims <= GGUF_MAX_DIMS:
            raise GGUFFormatError(f"tensor {name} has {n_dims} dimensions (1 to 4 expected)")
        dims = tuple(cur.u64(what) for _ in range(n_dims))
        infos.append((name, dims, cur.u32(what), cur.u64(what)))
    data_start = -(-cur.pos // alignment) * alignment
    tensors = []
    seen: set[str] = set()
    for name, dims, raw_type, offset in infos:
        if name in seen:
            raise GGUFFormatError(f"tensor {name} is described twice")
        seen.add(name)
        try:
            qtype = GGMLQuantizationType(raw_type)
            block, type_bytes = GGML_QUANT_SIZES[qtype]
        except (ValueError, KeyError):
            raise GGUFFormatError(f"tensor {name} has unknown type {raw_type}") from None
        if dims[0] % block:
            raise GGUFFormatError(
                f"tensor {name}: ne0 = {dims[0]} is not a multiple of the "
                f"{qtype.name} block ({block})"
            )
        n_elems = int(np.prod(dims, dtype=object))
        n_bytes = n_elems // block * type_bytes
        view = None
        start = data_start + offset
        if start + n_bytes > cur.size and whole:
            raise GGUFFormatError(
                f"the data of tensor {name} runs past the end of the file (truncated or corrupt?)"
            )
        if start + n_bytes <= cur.size:
            np_dims = tuple(reversed(dims))
            if qtype in _TYPED_DATA:
                view = data[start : start + n_bytes].view(_TYPED_DATA[qtype]).reshape(np_dims)
            else:
                view = data[start : start + n_bytes].reshape(
                    quant_shape_to_byte_shape(np_dims, qtype)
                )
        tensors.append(GGUFTensor(name, dims, qtype, n_bytes, view))
    return fields, tensors, data_start


def read_gguf(path: str | os.PathLike[str], *, data: bool = True) -> GGUFFile:
    """The GGUF file `path`, its tensors' data memory-mapped (read-only); with
    `data=False` a file that may be cut short after its header: a tensor whose data it
    does not hold has `data` None (the data the file holds is mapped, not read). A
    file that is not GGUF, or is corrupt, raises GGUFFormatError; one that cannot be
    read, OSError."""
    where = os.fspath(path)
    with open(where, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:
            raise GGUFFormatError("the file is empty")
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as buf:
            # The header is parsed from `buf` (faster to unpack from than an array);
            # the tensors' data are views of `mapped`, read only where they are used.
            mapped = np.memmap(where, np.uint8, mode="r")
            fields, tensors, data_offset = _parse(_Cursor(buf, size), mapped, data)
    return GGUFFile(where, fields, tensors, data_offset)
