"""
Kernels of the `tensor` and `linalg` ops an unlowered module uses around its
products: `tensor.empty`, `linalg.fill`, `linalg.matmul` and `linalg.batch_matmul`.

xDSL's own `linalg.matmul` runs one multiply-add at a time in Python; here a matmul
is one BLAS call in the accumulator's precision (MLIR's mixed bf16 x bf16 -> f32
form widens the inputs first, as MLIR's body does), and a batch_matmul one batched
call.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.ops import FillOp, MatmulOp

from xdsl_spatial.dialects.linalg_extra import BatchMatmulOp
from xdsl_spatial.dialects.linalg_mixed import MixedMatmulOp
from xdsl_spatial.interpreters.kernels import Kernel, KernelError, kernel
from xdsl_spatial.interpreters.values import numpy_dtype


@kernel(tensor.EmptyOp)
def _empty(op: tensor.EmptyOp) -> Kernel:
    t = cast(TensorType[Any], op.tensor.type)
    if op.dynamic_sizes:
        raise KernelError(op, "dynamic sizes are not supported")
    shape, dt = tuple(t.get_shape()), numpy_dtype(t.element_type)
    # An empty tensor's contents are undefined; zeros make a run repeatable.
    return lambda args: (np.zeros(shape, dtype=dt),)


def _tensor_form(op: FillOp | MatmulOp | BatchMatmulOp) -> None:
    if not op.res:
        raise KernelError(op, "only the tensor form runs (this one writes a memref)")


@kernel(FillOp)
def _fill(op: FillOp) -> Kernel:
    _tensor_form(op)
    dt = numpy_dtype(cast(TensorType[Any], op.res[0].type).element_type)
    return lambda args: (np.full(np.shape(args[1]), args[0], dtype=dt),)


@kernel(MatmulOp, MixedMatmulOp, BatchMatmulOp)
def _matmul(op: MatmulOp | BatchMatmulOp) -> Kernel:
    _tensor_form(op)
    default = type(op).get_irdl_definition().properties["indexing_maps"].default_value
    if op.indexing_maps != default:
        form = "(b, i, k) x (b, k, j)" if isinstance(op, BatchMatmulOp) else "(i, k) x (k, j)"
        raise KernelError(op, f"only the plain {form} form runs")
    acc = numpy_dtype(cast(TensorType[Any], op.res[0].type).element_type)
    if acc.kind in "iu":

        def integer(args: Any) -> tuple[Any, ...]:
            a, b, c = args
            return ((a.astype(np.int64) @ b.astype(np.int64) + c).astype(acc),)

        return integer
    wide = np.dtype(np.float64) if acc == np.float64 else np.dtype(np.float32)

    def floating(args: Any) -> tuple[Any, ...]:
        a, b, c = args
        y = np.matmul(a.astype(wide, copy=False), b.astype(wide, copy=False))
        y += c.astype(wide, copy=False)
        return (y.astype(acc, copy=False),)

    return floating
