"""
GGML's Q8_0 quantisation of a K x N weight, bit for bit, as whole-array numpy.

A weight `W` (K x N, `y = x . W`) is cut into blocks of 32 consecutive K-rows of one
column. GGML's rule for one block (`quantize_row_q8_0_ref` in ggml-quants.c, which
`gguf.quants` reproduces and which made every Q8_0 GGUF file):

    amax = max |w|                       (fp32)
    d    = amax / 127                    (fp32)
    id   = 1 / d, or 0 when d == 0       (fp32)
    q    = roundf(w * id)                (fp32 product, halves away from zero)
    d is stored as fp16; w ~= fp32(d) * q.

`quantize_q8_0` follows it to the bit (the scale may also be kept in fp32, as the
chip does); `exact_q8_0` accepts only weights that Q8_0 stores without loss, which
is what a compiler may fold into a constant.

```python
values, scales = quantize_q8_0(w)                   # int8 K x N, f32 K/32 x N
w_hat = dequantize_q8_0(values, scales)             # f32 K x N
values, scales = exact_q8_0(w, np.float16)          # or NotExactQ8_0
```
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import DTypeLike

Q8_BLOCK = 32
"""K-rows of one Q8_0 block: one scale for every 32 int8 values of a column."""

Q8_MAX = 127
"""The largest |q|: `d = max|w| / 127` maps a block's largest magnitude onto it."""

_CHUNK_ELEMENTS = 1 << 18
"""Elements of the weight handled at once: float temporaries of 1-2 MiB each."""

_FLOAT_INPUTS = ("float16", "bfloat16", "float32", "float64")
"""The weights' dtypes, by name: `bfloat16` is ml_dtypes', which this module leaves
unimported (0.6 s it would add to the start of the process that binds weights)."""
_SCALE_DTYPES = (np.dtype(np.float16), np.dtype(np.float32))


class NotExactQ8_0(ValueError):
    """A weight that Q8_0 cannot store without changing it."""


def _check_weight(w: np.ndarray) -> tuple[int, int]:
    if w.ndim != 2:
        raise ValueError(f"a Q8_0 weight must be a 2-d array (K x N), got shape {w.shape}")
    if w.dtype.name not in _FLOAT_INPUTS:
        raise ValueError(f"a Q8_0 weight must be f16, bf16, f32 or f64, got dtype {w.dtype}")
    k, n = w.shape
    if k % Q8_BLOCK:
        raise ValueError(
            f"K must be a multiple of the Q8_0 block ({Q8_BLOCK}), got K = {k} "
            f"(weight shape {k}x{n})"
        )
    return k, n


def _check_scale_dtype(scale_dtype: DTypeLike) -> np.dtype:
    dt = np.dtype(scale_dtype)
    if dt not in _SCALE_DTYPES:
        raise ValueError(f"Q8_0 scales must be float16 or float32, got {dt}")
    return dt


def _chunks(w: np.ndarray, dtype: DTypeLike) -> Iterator[tuple[int, int, np.ndarray]]:
    """`w` a few K-blocks at a time, as (first block, end block, blocks x 32 x N in
    `dtype`): never a full-size copy of the weight."""
    k, n = w.shape
    step = max(1, _CHUNK_ELEMENTS // (Q8_BLOCK * max(n, 1)))
    for b0 in range(0, k // Q8_BLOCK, step):
        b1 = min(b0 + step, k // Q8_BLOCK)
        x = w[b0 * Q8_BLOCK : b1 * Q8_BLOCK].astype(dtype)
        yield b0, b1, x.reshape(b1 - b0, Q8_BLOCK, n)


def _block_name(block_row: int, column: int) -> str:
    k0 = block_row * Q8_BLOCK
    return f"block K-rows {k0}..{k0 + Q8_BLOCK - 1} of column {column}"


def roundf(v: np.ndarray) -> np.ndarray:
    """C's `roundf` on fp32: nearest integer, halves away from zero, exact for every fp32.

    `v - trunc(v)` is exact in fp32 (the fraction needs no more bits than `v`), so the
    comparison with 0.5 sees the true fraction; `np.round` (halves to even) and
    `floor(|v| + 0.5)` (the sum rounds up at 0.49999997) both differ from C.
    """
    t = np.trunc(v)
    r = v - t
    np.abs(r, out=r)
    up = r >= np.float32(0.5)
    np.copysign(up, v, out=r)
    t += r
    return t


def quantize_q8_0(
    w: np.ndarray, scale_dtype: DTypeLike = np.float32
) -> tuple[np.ndarray, np.ndarray]:
    """GGML's Q8_0 of the K x N weight `w`: (int8 values K x N, scales K/32 x N).

    Bit-identical to `gguf.quants.quantize(w.T, Q8_0)`, with the scale rounded from
    its fp32 value to `scale_dtype` (float16 as GGML stores it, or float32). `w` is
    converted to fp32 first, as GGML does. Non-finite weights raise ValueError.
    """
    w = np.asarray(w)
    k, n = _check_weight(w)
    sdt = _check_scale_dtype(scale_dtype)
    values = np.empty((k, n), np.int8)
    scales = np.empty((k // Q8_BLOCK, n), sdt)
    for b0, b1, x in _chunks(w, np.float32):
        amax = np.abs(x).max(axis=1)
        finite = np.isfinite(amax)
        if not finite.all():
            b, c = np.unravel_index(np.argmin(finite), finite.shape)
            raise ValueError(
                f"cannot quantise a non-finite weight: {_block_name(b0 + int(b), int(c))}"
            )
        d = amax / np.float32(Q8_MAX)
        with np.errstate(divide="ignore", over="ignore"):
            inv = np.where(d == 0, np.float32(0), np.float32(1) / d)
        with np.errstate(invalid="ignore"):
            x *= inv[:, None, :]
            q = roundf(x)
        # Where 1/d overflows (d below ~2.9e-39) GGML's product is inf or nan and its
        # cast to int8 is undefined; gguf's rounding turns the whole block into nan,
        # and so do we, so that numpy's cast gives the same bytes as gguf's.
        overflow = np.isinf(inv)
        if overflow.any():
            q[np.broadcast_to(overflow[:, None, :], q.shape)] = np.nan
        with np.errstate(invalid="ignore", over="ignore"):
            values[b0 * Q8_BLOCK : b1 * Q8_BLOCK] = q.reshape(-1, n).astype(np.int8)
            scales[b0:b1] = d.astype(sdt)
    return values, scales


def _check_pair(values: np.ndarray, scales: np.ndarray) -> tuple[int, int]:
    if values.ndim != 2 or values.dtype != np.int8:
        raise ValueError(f"Q8_0 values must be a 2-d int8 array, got {values.dtype} {values.shape}")
    k, n = values.shape
    if k % Q8_BLOCK:
        raise ValueError(f"K must be a multiple of the Q8_0 block ({Q8_BLOCK}), got K = {k}")
    if scales.shape != (k // Q8_BLOCK, n):
        raise ValueError(
            f"Q8_0 scales must have shape K/{Q8_BLOCK} x N = {k // Q8_BLOCK}x{n}, "
            f"got {'x'.join(map(str, scales.shape))}"
        )
    _check_scale_dtype(scales.dtype)
    return k, n


def dequantize_q8_0(values: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """The fp32 K x N weight `fp32(d) * q` of a Q8_0 pair, as GGML computes it."""
    values = np.asarray(values)
    scales = np.asarray(scales)
    k, n = _check_pair(values, scales)
    out = values.astype(np.float32).reshape(k // Q8_BLOCK, Q8_BLOCK, n)
    out *= scales.astype(np.float32)[:, None, :]
    return out.reshape(k, n)


def _first_fault(
    x: np.ndarray,
    d: np.ndarray,
    ds: np.ndarray,
    q: np.ndarray,
    sdt: np.dtype,
    f64: bool,
    b0: int,
) -> str | None:
    """Why the first offending block of a chunk starting at block row `b0` is not exact."""
    finite = np.isfinite(d)
    with np.errstate(invalid="ignore"):
        scale_ok = finite & (ds.astype(np.float64) == d)
        # |q| <= 127 and the scale has at most 24 significant bits, so q * d is exact.
        multiple = q * d[:, None, :] == x
        value_ok = multiple
        if f64:
            # The chip dequantises in fp32: a float64 weight must survive that too.
            deq = ds.astype(np.float32)[:, None, :] * q.astype(np.float32)
            value_ok = multiple & (deq.astype(np.float64) == x)
    block_ok = scale_ok & value_ok.all(axis=1)
    if block_ok.all():
        return None
    b, c = (int(i) for i in np.unravel_index(np.argmin(block_ok), block_ok.shape))
    where = _block_name(b0 + b, c)
    if not finite[b, c]:
        return f"{where}: it holds a non-finite value"
    scale = float(d[b, c])
    if not scale_ok[b, c]:
        return (
            f"{where}: its scale max|w|/{Q8_MAX} = {scale!r} is not representable in "
            f"{sdt} (it rounds to {float(ds[b, c])!r})"
        )
    i = int(np.argmin(value_ok[b, :, c]))
    v = float(x[b, i, c])
    at = f"w[{(b0 + b) * Q8_BLOCK + i}, {c}] = {v!r}"
    if multiple[b, i, c]:
        return (
            f"{where}: {at} is {int(q[b, i, c])} times the scale {scale!r}, but fp32 "
            f"dequantisation rounds it to {float(np.float32(v))!r}"
        )
    return (
        f"{where}: {at} is not an int8 multiple of the block's scale "
        f"max|w|/{Q8_MAX} = {scale!r} (w / scale = {v / scale!r})"
    )


def exact_q8_0(w: np.ndarray, scale_dtype: DTypeLike = np.float32) -> tuple[np.ndarray, np.ndarray]:
    """The Q8_0 pair that stores `w` without loss, or NotExactQ8_0 naming the first bad block.

    Exact means: each block's scale `max|w|/127`, computed in float64, survives a
    round trip through `scale_dtype`, and every `q * scale` equals `w` (so fp32
    dequantisation gives back `w` to the bit). Blocks are visited K-block by K-block,
    columns left to right within one.
    """
    w = np.asarray(w)
    k, n = _check_weight(w)
    sdt = _check_scale_dtype(scale_dtype)
    f64 = w.dtype == np.float64
    values = np.empty((k, n), np.int8)
    scales = np.empty((k // Q8_BLOCK, n), sdt)
    for b0, b1, x in _chunks(w, np.float64):
        d = np.abs(x).max(axis=1) / Q8_MAX
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            ds = d.astype(sdt)
            # An all-zero block has d == 0 and q == 0; dividing by 1 keeps it so.
            q = np.rint(x / np.where(d == 0, 1.0, d)[:, None, :])
        why = _first_fault(x, d, ds, q, sdt, f64, b0)
        if why is not None:
            raise NotExactQ8_0(f"the weight is not exactly Q8_0: {why}")
        values[b0 * Q8_BLOCK : b1 * Q8_BLOCK] = q.reshape(-1, n).astype(np.int8)
        scales[b0:b1] = ds
    return values, scales
