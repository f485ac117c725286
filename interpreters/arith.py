"""
Kernels of the `arith` dialect, on scalars and whole arrays alike.

Each kernel computes in numpy's type for the op's element type and rounds its result
to that type: bf16 and f16 ops compute in fp32 and round once, which for `+ - * /`
is the correctly rounded result (fp32 holds more than twice their bits). Integer ops
wrap around in two's complement, as `arith` does; `ui`/`u` ops read the bits as
unsigned. Where `arith` leaves a result undefined (a float out of an integer's range,
a shift by the width or more, a division by zero) the kernel gives numpy's value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation

from xdsl_spatial.core import resources
from xdsl_spatial.interpreters.kernels import Kernel, KernelError, kernel
from xdsl_spatial.interpreters.values import as_f32, dense_values, numpy_dtype


def element_type(t: Attribute) -> Attribute:
    """The element type of a tensor type; a scalar type itself."""
    return t.element_type if isinstance(t, TensorType) else t


def result_dtype(op: Operation) -> np.dtype[Any]:
    return numpy_dtype(element_type(op.results[0].type))


def result_cast(op: Operation) -> Callable[[Any], Any]:
    """Round a numpy value to the op's result type: an array for a tensor result (or
    for a scalar op run over an iteration space), a numpy scalar for a scalar."""
    return _as(result_dtype(op), isinstance(op.results[0].type, TensorType))


def operand_dtype(op: Operation, i: int = 0) -> np.dtype[Any]:
    return numpy_dtype(element_type(op.operands[i].type))


def _as(dt: np.dtype[Any], tensor: bool) -> Callable[[Any], Any]:
    to = dt.type

    wide = dt == np.float32

    def cast(v: Any) -> Any:
        if isinstance(v, np.ndarray) and (tensor or v.ndim):
            if v.dtype == dt:
                return v
            return as_f32(v) if wide else v.astype(dt)
        if tensor:
            return np.asarray(v, dtype=dt)
        return to(v)

    return cast


def _unsigned(dt: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(dt.str.replace("i", "u")) if dt.kind == "i" else dt


def _as_unsigned(v: Any, dt: np.dtype[Any]) -> Any:
    """The bits of an integer value of type `dt`, read as unsigned."""
    u = _unsigned(dt)
    if isinstance(v, np.ndarray):
        return v.view(u)
    return np.asarray(v, dtype=dt).view(u)[()]


# --------------------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------------------


@kernel(arith.ConstantOp)
def _constant(op: arith.ConstantOp) -> Kernel:
    v = op.value
    if isinstance(v, DenseIntOrFPElementsAttr):
        arr = dense_values(v).copy()
        arr.flags.writeable = False
        out: tuple[Any, ...] = (arr,)
    elif isinstance(v, FloatAttr | IntegerAttr):
        out = (result_dtype(op).type(v.value.data),)
    elif isinstance(v, DenseResourceAttr):
        # A module parsed by xDSL's own reader still refers to its blob (the project's
        # reader made it dense): read from xDSL's table.
        try:
            arr = resources.resource_array(v).copy()
        except resources.ResourceError as e:
            raise KernelError(op, str(e)) from None
        arr.flags.writeable = False
        out = (arr,)
    else:
        raise KernelError(op, f"cannot hold a constant {v}")
    return lambda args: out


# --------------------------------------------------------------------------------------
# Elementwise
# --------------------------------------------------------------------------------------

_FLOAT_BINARY: dict[type[Operation], Callable[..., Any]] = {
    arith.AddfOp: np.add,
    arith.SubfOp: np.subtract,
    arith.MulfOp: np.multiply,
    arith.DivfOp: np.divide,
    arith.MaximumfOp: np.maximum,
    arith.MinimumfOp: np.minimum,
    arith.MaxnumfOp: np.fmax,
    arith.MinnumfOp: np.fmin,
}

_INT_BINARY: dict[type[Operation], Callable[..., Any]] = {
    arith.AddiOp: np.add,
    arith.SubiOp: np.subtract,
    arith.MuliOp: np.multiply,
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
    arith.MaxSIOp: np.maximum,
    arith.MinSIOp: np.minimum,
    arith.ShLIOp: np.left_shift,
    arith.ShRSIOp: np.right_shift,
    arith.RemSIOp: np.fmod,
}

_UNSIGNED_BINARY: dict[type[Operation], Callable[..., Any]] = {
    arith.MaxUIOp: np.maximum,
    arith.MinUIOp: np.minimum,
    arith.ShRUIOp: np.right_shift,
    arith.DivUIOp: np.floor_divide,
    arith.RemUIOp: np.remainder,
}


@kernel(*_FLOAT_BINARY)
def _float_binary(op: Operation) -> Kernel:
    fn, cast = _FLOAT_BINARY[type(op)], result_cast(op)
    return lambda a: (cast(fn(a[0], a[1])),)


@kernel(*_INT_BINARY)
def _int_binary(op: Operation) -> Kernel:
    fn, cast = _INT_BINARY[type(op)], result_cast(op)
    return lambda a: (cast(fn(a[0], a[1])),)


@kernel(*_UNSIGNED_BINARY)
def _unsigned_binary(op: Operation) -> Kernel:
    fn, dt, cast = _UNSIGNED_BINARY[type(op)], result_dtype(op), result_cast(op)

    def run(a: Sequence[Any]) -> tuple[Any, ...]:
        r = fn(_as_unsigned(a[0], dt), _as_unsigned(a[1], dt))
        return (cast(np.asarray(r).view(dt)),)

    return run


@kernel(arith.DivSIOp, arith.FloorDivSIOp, arith.CeilDivSIOp)
def _signed_division(op: Operation) -> Kernel:
    cast = result_cast(op)
    if isinstance(op, arith.FloorDivSIOp):
        return lambda a: (cast(np.floor_divide(a[0], a[1])),)
    if isinstance(op, arith.CeilDivSIOp):
        return lambda a: (cast(-np.floor_divide(np.negative(a[0]), a[1])),)

    def toward_zero(a: Sequence[Any]) -> tuple[Any, ...]:
        q = np.floor_divide(a[0], a[1])
        fix = (np.remainder(a[0], a[1]) != 0) & ((np.sign(a[0]) * np.sign(a[1])) < 0)
        return (cast(q + fix),)

    return toward_zero


@kernel(arith.NegfOp)
def _negf(op: Operation) -> Kernel:
    cast = result_cast(op)
    return lambda a: (cast(np.negative(a[0])),)


@kernel(
    arith.ExtFOp, arith.TruncFOp, arith.SIToFPOp, arith.ExtSIOp, arith.TruncIOp, arith.IndexCastOp
)
def _convert(op: Operation) -> Kernel:
    """Conversions numpy's `astype` does exactly: widening, rounding to nearest even,
    sign extension, truncation to the low bits."""
    cast = result_cast(op)
    return lambda a: (cast(a[0]),)


@kernel(arith.UIToFPOp, arith.ExtUIOp)
def _convert_unsigned(op: Operation) -> Kernel:
    src, cast = operand_dtype(op), result_cast(op)
    return lambda a: (cast(_as_unsigned(a[0], src)),)


@kernel(arith.FPToSIOp, arith.FPToUIOp)
def _float_to_int(op: Operation) -> Kernel:
    wide = np.int64 if isinstance(op, arith.FPToSIOp) else np.uint64
    cast = result_cast(op)
    return lambda a: (cast(np.trunc(np.asarray(a[0], np.float64)).astype(wide)),)


@kernel(arith.BitcastOp)
def _bitcast(op: Operation) -> Kernel:
    dt, cast = result_dtype(op), result_cast(op)
    return lambda a: (cast(np.asarray(a[0]).view(dt)),)


_CMPI = (np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal)
"""eq, ne, slt, sle, sgt, sge; ult, ule, ugt, uge are the last four on unsigned bits."""


@kernel(arith.CmpiOp)
def _cmpi(op: arith.CmpiOp) -> Kernel:
    pred = op.predicate.value.data
    dt = operand_dtype(op)
    fn, cast = (_CMPI[pred] if pred < 6 else _CMPI[pred - 4]), result_cast(op)
    if pred < 6:
        return lambda a: (cast(fn(a[0], a[1])),)
    return lambda a: (cast(fn(_as_unsigned(a[0], dt), _as_unsigned(a[1], dt))),)


def _ordered(x: Any, y: Any) -> Any:
    return ~(np.isnan(x) | np.isnan(y))


_CMPF: tuple[Callable[[Any, Any], Any], ...] = (
    lambda x, y: np.zeros(np.broadcast(x, y).shape, bool),  # false
    lambda x, y: np.equal(x, y),  # oeq
    lambda x, y: np.greater(x, y),  # ogt
    lambda x, y: np.greater_equal(x, y),  # oge
    lambda x, y: np.less(x, y),  # olt
    lambda x, y: np.less_equal(x, y),  # ole
    lambda x, y: np.not_equal(x, y) & _ordered(x, y),  # one
    _ordered,  # ord
    lambda x, y: np.equal(x, y) | ~_ordered(x, y),  # ueq
    lambda x, y: ~np.less_equal(x, y),  # ugt
    lambda x, y: ~np.less(x, y),  # uge
    lambda x, y: ~np.greater_equal(x, y),  # ult
    lambda x, y: ~np.greater(x, y),  # ule
    lambda x, y: np.not_equal(x, y),  # une
    lambda x, y: ~_ordered(x, y),  # uno
    lambda x, y: np.ones(np.broadcast(x, y).shape, bool),  # true
)


@kernel(arith.CmpfOp)
def _cmpf(op: arith.CmpfOp) -> Kernel:
    fn, cast = _CMPF[op.predicate.value.data], result_cast(op)
    return lambda a: (cast(fn(a[0], a[1])),)


@kernel(arith.SelectOp)
def _select(op: arith.SelectOp) -> Kernel:
    cast = result_cast(op)
    return lambda a: (cast(np.where(a[0], a[1], a[2])),)
