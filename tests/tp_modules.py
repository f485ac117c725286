"""Modules the tensor-parallel tests lower and run: a Q8_0 product whose weight (and
activation) carries a `shard` annotation, its operands, and the bytes each chip moves
by the pass's plans."""

from __future__ import annotations

import ml_dtypes
import numpy as np
from q8_operands import q8_operands

from xdsl_spatial.core.ir_io import parse_module


def sharded(
    m: int,
    k: int,
    n: int,
    chips: int | None,
    split: str | None,
    *,
    offsets: tuple[int, ...] | None = None,
    x_split: bool = False,
    grid: str | None = None,
    act: str = "bf16",
    scale: str = "f32",
) -> str:
    """`y = x . W` over a Q8_0 weight, the values and scales annotated with a sharding
    of `split` (n: the weight's columns, k: its rows) over a 1-d grid of `chips` (none
    when `split` is None); `x_split`: the activation's K axis annotated alike."""
    kb = k // 32
    lines = []
    if split is not None:
        lines.append(f"shard.grid @chips(shape = {grid or chips})")
    lines.append(
        f"func.func @mm(%x: tensor<{m}x{k}x{act}>, %W__q8: tensor<{k}x{n}xi8>, "
        f"%W__q8_scale: tensor<{kb}x{n}x{scale}>) -> tensor<{m}x{n}xf32> {{"
    )
    q, s, x = "%W__q8", "%W__q8_scale", "%x"
    if split is not None:
        axes = "[[], [0]]" if split == "n" else "[[0]]"
        if offsets is None:
            lines.append(f"  %sh = shard.sharding @chips split_axes = {axes} : !shard.sharding")
            lines.append(f"  %ssh = shard.sharding @chips split_axes = {axes} : !shard.sharding")
        else:
            s_off = offsets if split == "n" else tuple(o // 32 for o in offsets)
            lines.append(
                f"  %sh = shard.sharding @chips split_axes = {axes} sharded_dims_offsets = "
                f"{list(offsets)} : !shard.sharding"
            )
            lines.append(
                f"  %ssh = shard.sharding @chips split_axes = {axes} sharded_dims_offsets = "
                f"{list(s_off)} : !shard.sharding"
            )
        lines.append(f"  %q = shard.shard %W__q8 to %sh : tensor<{k}x{n}xi8>")
        lines.append(f"  %s = shard.shard %W__q8_scale to %ssh : tensor<{kb}x{n}x{scale}>")
        q, s = "%q", "%s"
        if x_split:
            xo = "" if offsets is None else f" sharded_dims_offsets = {list(offsets)}"
            lines.append(
                f"  %xsh = shard.sharding @chips split_axes = [[], [0]]{xo} : !shard.sharding"
            )
            lines.append(f"  %xs = shard.shard %x to %xsh : tensor<{m}x{k}x{act}>")
            x = "%xs"
    lines.append(
        f"  %w = q8.dequantize {q}, {s} : tensor<{k}x{n}xi8>, tensor<{kb}x{n}x{scale}> "
        f"-> tensor<{k}x{n}xf32>"
    )
    if act == "bf16":
        lines.append(f"  %xf = arith.extf {x} : tensor<{m}x{k}xbf16> to tensor<{m}x{k}xf32>")
        x = "%xf"
    lines.append(f"  %zero = arith.constant dense<0.0> : tensor<{m}x{n}xf32>")
    lines.append(
        f"  %y = linalg.matmul ins({x}, %w : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) "
        f"outs(%zero : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>"
    )
    lines.append(f"  func.return %y : tensor<{m}x{n}xf32>")
    lines.append("}")
    return "\n".join(lines) + "\n"


def module(text: str):
    return parse_module(text)


def operands(m, k, n, exact, rng):
    return q8_operands(m, k, n, rng, exact=exact)


def fp64(x, q, s):
    xr = x.astype(ml_dtypes.bfloat16).astype(np.float64)
    w = q.astype(np.float64) * np.repeat(s.astype(np.float64), 32, axis=0)
    return xr @ w, np.abs(xr) @ np.abs(w)


def chip_model(decisions) -> dict[int, tuple[int, int]]:
    """Per chip, the loads and stores the pass's per-chip plans say it moves."""
    out: dict[int, tuple[int, int]] = {}
    for d in decisions:
        for cp in d.chips:
            lo, so = out.get(cp.chip, (0, 0))
            ld, st = cp.moved()
            out[cp.chip] = (lo + ld, so + st)
    return out
