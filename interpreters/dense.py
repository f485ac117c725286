"""
Whole-array interpreter functions for what an unlowered module uses: `arith` on
scalars and tensors, `tensor.empty`, `linalg.fill` and `linalg.matmul`.

xDSL's own `linalg.matmul` runs one multiply-add at a time in Python; here a matmul
is one BLAS call, in the accumulator's precision (MLIR's mixed bf16 x bf16 -> f32
form widens the inputs first).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, TensorType
from xdsl.dialects.linalg.ops import FillOp, MatmulOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import InterpretationError

from xdsl_spatial.interpreters.body import eval_op
from xdsl_spatial.interpreters.values import dense_values, numpy_dtype


def _elem(t: Attribute) -> Attribute:
    return cast(TensorType, t).element_type if isinstance(t, TensorType) else t


def _elementwise(op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    out = eval_op(op, list(args), ())
    rt = op.results[0].type
    dt = numpy_dtype(_elem(rt))
    if isinstance(rt, TensorType):
        return (np.asarray(out).astype(dt, copy=False),)
    return (dt.type(out),)


def _elementwise_impl(op_type: type[Operation]):
    @impl(op_type)
    def run(self: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: tuple[Any, ...]):
        return _elementwise(op, args)

    return run


@register_impls
class ArithFunctions(InterpreterFunctions):
    """`arith` on scalars and whole tensors alike."""

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp, args: tuple[Any, ...]):
        v = op.value
        if isinstance(v, DenseIntOrFPElementsAttr):
            return (dense_values(v),)
        if isinstance(v, FloatAttr | IntegerAttr):
            return (numpy_dtype(op.result.type).type(v.value.data),)
        raise InterpretationError(f"{op.name}: cannot run a constant {v}")

    run_addf = _elementwise_impl(arith.AddfOp)
    run_subf = _elementwise_impl(arith.SubfOp)
    run_mulf = _elementwise_impl(arith.MulfOp)
    run_divf = _elementwise_impl(arith.DivfOp)
    run_negf = _elementwise_impl(arith.NegfOp)
    run_maximumf = _elementwise_impl(arith.MaximumfOp)
    run_minimumf = _elementwise_impl(arith.MinimumfOp)
    run_extf = _elementwise_impl(arith.ExtFOp)
    run_truncf = _elementwise_impl(arith.TruncFOp)
    run_sitofp = _elementwise_impl(arith.SIToFPOp)
    run_uitofp = _elementwise_impl(arith.UIToFPOp)
    run_fptosi = _elementwise_impl(arith.FPToSIOp)
    run_addi = _elementwise_impl(arith.AddiOp)
    run_subi = _elementwise_impl(arith.SubiOp)
    run_muli = _elementwise_impl(arith.MuliOp)
    run_extsi = _elementwise_impl(arith.ExtSIOp)
    run_extui = _elementwise_impl(arith.ExtUIOp)
    run_trunci = _elementwise_impl(arith.TruncIOp)
    run_index_cast = _elementwise_impl(arith.IndexCastOp)
    run_cmpi = _elementwise_impl(arith.CmpiOp)
    run_cmpf = _elementwise_impl(arith.CmpfOp)
    run_select = _elementwise_impl(arith.SelectOp)
    run_andi = _elementwise_impl(arith.AndIOp)
    run_ori = _elementwise_impl(arith.OrIOp)
    run_xori = _elementwise_impl(arith.XOrIOp)


@register_impls
class TensorFunctions(InterpreterFunctions):
    @impl(tensor.EmptyOp)
    def run_empty(self, interpreter: Interpreter, op: tensor.EmptyOp, args: tuple[Any, ...]):
        t = cast(TensorType, op.tensor.type)
        if args:
            raise InterpretationError(f"{op.name}: dynamic sizes are not supported")
        return (np.zeros(tuple(t.get_shape()), dtype=numpy_dtype(t.element_type)),)


@register_impls
class LinalgFunctions(InterpreterFunctions):
    @impl(FillOp)
    def run_fill(self, interpreter: Interpreter, op: FillOp, args: tuple[Any, ...]):
        value, out = args
        if not op.res:
            raise InterpretationError(f"{op.name}: only the tensor form is supported")
        return (np.full_like(out, value),)

    @impl(MatmulOp)
    def run_matmul(self, interpreter: Interpreter, op: MatmulOp, args: tuple[Any, ...]):
        a, b, acc = args
        if not op.res:
            raise InterpretationError(f"{op.name}: only the tensor form is supported")
        default = MatmulOp.get_irdl_definition().properties["indexing_maps"].default_value
        if op.indexing_maps != default:
            raise InterpretationError(f"{op.name}: only the plain (i,k)x(k,j) form is supported")
        if acc.dtype.kind in "iu":
            y = a.astype(np.int64) @ b.astype(np.int64) + acc
        else:
            # Inputs widen to the accumulator's type before they multiply (MLIR's rule).
            wide = np.float64 if acc.dtype == np.float64 else np.float32
            y = np.matmul(a.astype(wide, copy=False), b.astype(wide, copy=False))
            y += acc.astype(wide, copy=False)
        return (y.astype(acc.dtype, copy=False),)
