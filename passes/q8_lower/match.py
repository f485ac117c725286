"""
Matching: the `linalg.matmul` over a `q8.dequantize`d weight that `q8-lower` rewrites,
read into a `Q8Matmul`, or the reason it is not one (`match_q8_matmul`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.dialects.linalg.ops import FillOp, MatmulOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xdsl_spatial.core.ir_io import dense_array
from xdsl_spatial.dialects import q8
from xdsl_spatial.dialects.spatial import element_name
from xdsl_spatial.passes.tensor_parallel import Annotations, unshard


@dataclass
class Q8Matmul:
    """A `linalg.matmul` whose weight is a `q8.dequantize`, and what it reads."""

    op: MatmulOp
    x: SSAValue
    """The activation as the view reads it (the bf16 value behind an `arith.extf`)."""
    extf: arith.ExtFOp | None
    dequant: q8.DequantizeOp
    fill: Operation | None
    m: int
    k: int
    n: int
    ann: Annotations
    """The `shard.shard` ops on its operands, which say over which chips it runs."""

    @property
    def values(self) -> SSAValue:
        """The weight's int8 values, as stored (behind any `shard.shard`)."""
        return unshard(self.dequant.values)[0]

    @property
    def scales(self) -> SSAValue:
        return unshard(self.dequant.scales)[0]

    @property
    def x_type(self) -> Attribute:
        return cast(TensorType[Attribute], self.x.type).element_type

    @property
    def scale_type(self) -> Attribute:
        return cast(TensorType[Attribute], self.dequant.scales.type).element_type

    @property
    def shape(self) -> str:
        return f"{self.m}x{self.k}x{self.n}"

    def sources(self) -> tuple[Operation | None, ...]:
        """The ops that made what the product read, which its rewrite may leave unused."""
        return (self.fill, self.dequant, self.extf, *self.ann.ops())


def is_zero_constant(op: Operation | Block | None) -> bool:
    """Whether `op` is an `arith.constant` of zeros (a scalar or a dense tensor)."""
    if not isinstance(op, arith.ConstantOp):
        return False
    v = op.value
    if isinstance(v, DenseIntOrFPElementsAttr):
        return not np.any(dense_array(v))
    if isinstance(v, FloatAttr | IntegerAttr):
        return v.value.data == 0
    return False


def zero_fill(v: SSAValue) -> Operation | None:
    """The op that makes `v` all zeros (a `linalg.fill` of 0 or a zero constant)."""
    op = v.owner
    if isinstance(op, FillOp):
        return op if is_zero_constant(op.inputs[0].owner) else None
    return op if isinstance(op, Operation) and is_zero_constant(op) else None


def match_q8_matmul(op: MatmulOp) -> Q8Matmul | str:
    """The matched product, or why `op` is not one `q8-lower` rewrites."""
    if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.res) != 1:
        return "not a tensor matmul with two inputs and one result"
    if op.indexing_maps != MatmulOp.get_irdl_definition().properties["indexing_maps"].default_value:
        return "transposed or broadcast indexing maps"
    a, b = op.inputs
    a, x_ann = unshard(a)
    b, w_ann = unshard(b)
    dq = b.owner
    if not isinstance(dq, q8.DequantizeOp):
        return "the weight is not a q8.dequantize"
    at, bt, yt = a.type, b.type, op.res[0].type
    if not all(isinstance(t, TensorType) for t in (at, bt, yt)):
        return "operands are not tensors"
    at, bt, yt = (cast(TensorType[Attribute], t) for t in (at, bt, yt))
    if any(t.get_num_dims() != 2 for t in (at, bt, yt)):
        return "operands are not matrices"
    if any(d < 0 for t in (at, yt) for d in t.get_shape()):
        return f"dynamic shape {at} x {bt} -> {yt}; the fold is planned for static sizes"
    if not isinstance(yt.element_type, Float32Type):
        return f"the result is {element_name(yt.element_type)}; the fold accumulates f32"
    (m, k), (_, n) = at.get_shape(), bt.get_shape()
    x, extf = a, None
    if isinstance(a.owner, arith.ExtFOp):
        src = cast(TensorType[Attribute], a.owner.input.type)
        if isinstance(src.element_type, BFloat16Type):
            x, extf = a.owner.input, a.owner
            if x_ann is None:
                x, x_ann = unshard(x)
    xe = cast(TensorType[Attribute], x.type).element_type
    if not isinstance(xe, BFloat16Type | Float32Type):
        return f"the activation is {element_name(xe)}; the view holds bf16 or f32"
    fill = zero_fill(op.outputs[0])
    if fill is None:
        return "the accumulator is not zero (y = x . W + acc is not a fold)"
    ann = Annotations(unshard(dq.values)[1], unshard(dq.scales)[1], w_ann, x_ann)
    return Q8Matmul(op, x, extf, dq, fill, m, k, n, ann)
