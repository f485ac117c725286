"""
Kernels of the `math` dialect's floating-point ops, on scalars and whole arrays
alike (so they run inside a `linalg.generic` body over its iteration space).

bf16 and f16 compute in fp32 and round once to their type; f32 computes in f32 with
numpy's functions (not correctly rounded: within a few ulp, as libm's are); f64 in
f64. `math.round` rounds half away from zero, `math.roundeven` half to even, as MLIR
defines them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import math
from xdsl.ir import Operation

from xdsl_spatial.interpreters.arith import result_cast, result_dtype
from xdsl_spatial.interpreters.kernels import Kernel, kernel


def _round_half_away(x: Any) -> Any:
    t = np.trunc(x)
    return t + np.where(np.abs(x - t) >= 0.5, np.sign(x), 0).astype(np.asarray(x).dtype)


def _rsqrt(x: Any) -> Any:
    return np.reciprocal(np.sqrt(x))


_UNARY: dict[type[Operation], Callable[[Any], Any]] = {
    math.AbsFOp: np.abs,
    math.AcosOp: np.arccos,
    math.AcoshOp: np.arccosh,
    math.AsinOp: np.arcsin,
    math.AsinhOp: np.arcsinh,
    math.AtanOp: np.arctan,
    math.AtanhOp: np.arctanh,
    math.CbrtOp: np.cbrt,
    math.CeilOp: np.ceil,
    math.CosOp: np.cos,
    math.CoshOp: np.cosh,
    math.ExpOp: np.exp,
    math.Exp2Op: np.exp2,
    math.ExpM1Op: np.expm1,
    math.FloorOp: np.floor,
    math.LogOp: np.log,
    math.Log10Op: np.log10,
    math.Log1pOp: np.log1p,
    math.Log2Op: np.log2,
    math.RoundEvenOp: np.rint,
    math.RoundOp: _round_half_away,
    math.RsqrtOp: _rsqrt,
    math.SinOp: np.sin,
    math.SinhOp: np.sinh,
    math.SqrtOp: np.sqrt,
    math.TanOp: np.tan,
    math.TanhOp: np.tanh,
}

_BINARY: dict[type[Operation], Callable[[Any, Any], Any]] = {
    math.Atan2Op: np.arctan2,
    math.CopySignOp: np.copysign,
    math.PowFOp: np.power,
}


def _wide(op: Operation) -> Callable[[Any], Any]:
    """Widen an operand to the type the op computes in: fp32 below f32."""
    dt = result_dtype(op)
    wide = np.dtype(np.float64) if dt == np.float64 else np.dtype(np.float32)
    return lambda v: np.asarray(v).astype(wide, copy=False)


@kernel(*_UNARY)
def _unary(op: Operation) -> Kernel:
    fn, wide, cast = _UNARY[type(op)], _wide(op), result_cast(op)
    return lambda a: (cast(fn(wide(a[0]))),)


@kernel(*_BINARY)
def _binary(op: Operation) -> Kernel:
    fn, wide, cast = _BINARY[type(op)], _wide(op), result_cast(op)
    return lambda a: (cast(fn(wide(a[0]), wide(a[1]))),)


@kernel(math.FmaOp)
def _fma(op: Operation) -> Kernel:
    """`a * b + c` with one rounding: the product of two f32 (or narrower) values is
    exact in f64; the sum's f64 rounding before the final one is double rounding,
    rare and within half an ulp of the f32 result."""
    cast = result_cast(op)
    dt = result_dtype(op)
    if dt == np.float64:
        return lambda a: (cast(np.asarray(a[0]) * a[1] + a[2]),)
    f64 = lambda v: np.asarray(v).astype(np.float64)  # noqa: E731
    return lambda a: (cast(f64(a[0]) * f64(a[1]) + f64(a[2])),)
