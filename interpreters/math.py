"""
Kernels of the `math` dialect, elementwise on scalars and whole arrays alike (as
`arith`'s are, so a `linalg.generic` body runs them over its iteration space).

An f32 op computes with numpy's float32 functions; an f16 or bf16 op computes in
fp32 and rounds once to its type; f64 in fp64. numpy's float32 transcendental
functions are within a few ulps of the correctly rounded result, not always equal to
it (nor is any libm). `math.round` rounds half away from zero, `math.roundeven` half
to even, as MLIR defines them; `math.fma` computes `a * b` exactly in fp64 for f32
operands and rounds the sum (twice: to fp64, then to f32).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import math
from xdsl.ir import Operation

from xdsl_spatial.interpreters.arith import operand_dtype, result_cast, result_dtype
from xdsl_spatial.interpreters.kernels import Kernel, kernel


def _round_half_away(x: Any) -> Any:
    # Not floor(|x| + 0.5): that sum rounds up for the float just below 0.5.
    t = np.trunc(x)
    return t + np.where(np.abs(x - t) >= 0.5, np.sign(x), 0).astype(np.asarray(x).dtype)


def _rsqrt(x: Any) -> Any:
    one = np.asarray(1, np.asarray(x).dtype)
    return one / np.sqrt(x)


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
    math.RoundOp: _round_half_away,
    math.RoundEvenOp: np.rint,
    math.RsqrtOp: _rsqrt,
    math.SinOp: np.sin,
    math.SinhOp: np.sinh,
    math.SqrtOp: np.sqrt,
    math.TanOp: np.tan,
    math.TanhOp: np.tanh,
    math.TruncOp: np.trunc,
}

_BINARY: dict[type[Operation], Callable[[Any, Any], Any]] = {
    math.Atan2Op: np.arctan2,
    math.CopySignOp: np.copysign,
    math.PowFOp: np.power,
}


def _wide(op: Operation) -> np.dtype[Any]:
    """The type a float op computes in: fp64 for f64, else fp32."""
    return np.dtype(np.float64) if result_dtype(op) == np.float64 else np.dtype(np.float32)


@kernel(*_UNARY)
def _unary(op: Operation) -> Kernel:
    fn, wide, cast = _UNARY[type(op)], _wide(op), result_cast(op)
    # numpy warns on log(0), sqrt(-1), ...; MLIR gives inf and NaN there, as numpy does.
    return lambda a: (cast(_quiet(fn, _as(a[0], wide))),)


@kernel(*_BINARY)
def _binary(op: Operation) -> Kernel:
    fn, wide, cast = _BINARY[type(op)], _wide(op), result_cast(op)
    return lambda a: (cast(_quiet(fn, _as(a[0], wide), _as(a[1], wide))),)


@kernel(math.FmaOp)
def _fma(op: Operation) -> Kernel:
    f64, cast = np.dtype(np.float64), result_cast(op)
    return lambda a: (cast(_as(a[0], f64) * _as(a[1], f64) + _as(a[2], f64)),)


@kernel(math.FPowIOp)
def _fpowi(op: Operation) -> Kernel:
    wide, cast = _wide(op), result_cast(op)
    return lambda a: (cast(_quiet(np.power, _as(a[0], wide), _as(a[1], wide))),)


@kernel(math.AbsIOp)
def _absi(op: Operation) -> Kernel:
    # Two's complement: |INT_MIN| is INT_MIN, as numpy's abs gives.
    cast = result_cast(op)
    return lambda a: (cast(np.abs(a[0])),)


@kernel(math.IPowIOp)
def _ipowi(op: Operation) -> Kernel:
    dt, cast = operand_dtype(op), result_cast(op)

    def run(a: Any) -> tuple[Any, ...]:
        base, exp = np.asarray(a[0], np.int64), np.asarray(a[1], np.int64)
        # A negative exponent: 1 for a base of 1, +-1 for -1, 0 otherwise (MLIR's rule).
        pos = np.power(base, np.maximum(exp, 0)).astype(dt)
        neg = np.where(base == 1, 1, np.where(base == -1, np.where(exp % 2, -1, 1), 0))
        return (cast(np.where(exp < 0, neg, pos).astype(dt)),)

    return run


@kernel(math.CtPopOp)
def _ctpop(op: Operation) -> Kernel:
    dt, cast = operand_dtype(op), result_cast(op)
    unsigned = np.dtype(dt.str.replace("i", "u"))
    return lambda a: (cast(np.bitwise_count(np.asarray(a[0], dt).view(unsigned)).astype(dt)),)


def _is_array(v: Any) -> bool:
    return isinstance(v, np.ndarray)


def _as(v: Any, dt: np.dtype[Any]) -> Any:
    return np.asarray(v, dt) if _is_array(v) else dt.type(v)


def _quiet(fn: Callable[..., Any], *args: Any) -> Any:
    with np.errstate(all="ignore"):
        return fn(*args)
