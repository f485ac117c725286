"""Functions of `linalg` ops written as text and run, for the structured-op kernels'
tests, and the fp32 error bound they are checked with."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.runner import run

U32 = 2.0**-24
BF16 = np.dtype(ml_dtypes.bfloat16)


def func(args: str, results: str, body: str) -> str:
    return f"func.func @f({args}) -> ({results}) {{\n{body}\n}}\n"


def run_f(text: str, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    return run(parse_module(text), "f", *arrays)


def generic(
    maps: list[str],
    iters: list[str],
    ins: list[tuple[str, str]],
    out: tuple[str, str],
    body: str,
    result: str = "%r",
) -> str:
    """One `linalg.generic` (maps written over loop names as in `(m, k) -> (k)`)."""
    m = ", ".join(f"affine_map<{x}>" for x in maps)
    it = ", ".join(f'"{i}"' for i in iters)
    ins_ = ", ".join(v for v, _ in ins)
    ins_t = ", ".join(t for _, t in ins)
    ins_part = f" ins({ins_} : {ins_t})" if ins else ""
    return (
        f"  {result} = linalg.generic {{indexing_maps = [{m}], iterator_types = [{it}]}}"
        f"{ins_part} outs({out[0]} : {out[1]}) {{\n{body}\n  }} -> {out[1]}"
    )


def rng_f32(rng, shape, small=False):
    if small:
        return rng.integers(-3, 4, shape).astype(np.float32)
    return rng.standard_normal(shape).astype(np.float32)


def fp32_bound(terms: np.ndarray, axis) -> np.ndarray:
    """`n u sum|terms|`: the error bound of an fp32 sum of n terms (plus the terms'
    own rounding)."""
    n = np.prod([terms.shape[a] for a in np.atleast_1d(axis)])
    return (n + 2) * U32 * np.abs(terms).sum(axis=axis) + 1e-30


# An RMSNorm as torch-mlir writes it: a sum of squares, then a scaling that reads the
# constants %n and %eps from above the body.
RMS_TEXT = func(
    "%x: tensor<1x576xf32>, %g: tensor<576xf32>",
    "tensor<1x576xf32>",
    "  %c0 = arith.constant 0.0 : f32\n"
    "  %n = arith.constant 576.0 : f32\n"
    "  %eps = arith.constant 1.0e-5 : f32\n"
    "  %e1 = tensor.empty() : tensor<1xf32>\n"
    "  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<1xf32>) -> tensor<1xf32>\n"
    + generic(
        ["(m, k) -> (m, k)", "(m, k) -> (m)"],
        ["parallel", "reduction"],
        [("%x", "tensor<1x576xf32>")],
        ("%z", "tensor<1xf32>"),
        "  ^bb0(%a: f32, %o: f32):\n"
        "    %sq = arith.mulf %a, %a : f32\n"
        "    %s = arith.addf %o, %sq : f32\n"
        "    linalg.yield %s : f32",
        "%ss",
    )
    + "\n  %e2 = tensor.empty() : tensor<1x576xf32>\n"
    + generic(
        ["(m, k) -> (m, k)", "(m, k) -> (m)", "(m, k) -> (k)", "(m, k) -> (m, k)"],
        ["parallel", "parallel"],
        [("%x", "tensor<1x576xf32>"), ("%ss", "tensor<1xf32>"), ("%g", "tensor<576xf32>")],
        ("%e2", "tensor<1x576xf32>"),
        "  ^bb0(%a: f32, %s: f32, %w: f32, %o: f32):\n"
        "    %m = arith.divf %s, %n : f32\n"
        "    %me = arith.addf %m, %eps : f32\n"
        "    %r = math.rsqrt %me : f32\n"
        "    %y = arith.mulf %a, %r : f32\n"
        "    %yw = arith.mulf %y, %w : f32\n"
        "    linalg.yield %yw : f32",
    )
    + "\n  func.return %r : tensor<1x576xf32>",
)
