"""q8-raise: building `q8.dequantize` in the chip's K x N layout, and the reshapes around a raised product."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import FillOp, TransposeOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
)
from xdsl.rewriter import InsertPoint

from xdsl_spatial.core import resources
from xdsl_spatial.core.ir_io import dense_array
from xdsl_spatial.dialects.q8 import (
    DequantizeOp,
    Q8Part,
    Q8Source,
    stored_name,
)
from xdsl_spatial.dialects.spatial import RepackAttr
from xdsl_spatial.passes.q8_raise.dequant import (
    BLOCK,
    GROUP,
    LANE,
    UNIT,
    Dequant,
    K,
    N,
    _elem,
    _weight_stem,
)

# --------------------------------------------------------------------------------------
# Building
# --------------------------------------------------------------------------------------


def _reassociation(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _groups_dropping_units(roles: Sequence[str]) -> list[list[int]]:
    """Reassociation groups that merge each UNIT axis into its neighbour."""
    groups: list[list[int]] = []
    pending: list[int] = []
    for i, r in enumerate(roles):
        if r == UNIT:
            (groups[-1] if groups else pending).append(i)
        else:
            groups.append([*pending, i])
            pending = []
    return groups


@dataclass
class _Builder:
    rewriter: PatternRewriter
    point: InsertPoint

    def add(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, self.point)
        return op.results[0]

    def collapse(self, v: SSAValue, groups: list[list[int]]) -> SSAValue:
        t = cast(TensorType[Attribute], v.type)
        shape = t.get_shape()
        if len(groups) == len(shape):
            return v
        new = TensorType(t.element_type, [math.prod(shape[i] for i in g) for g in groups])
        return self.add(
            tensor.CollapseShapeOp.build(
                operands=[v],
                result_types=[new],
                properties={"reassociation": _reassociation(groups)},
            )
        )

    def expand(self, v: SSAValue, groups: list[list[int]], shape: Sequence[int]) -> SSAValue:
        t = cast(TensorType[Attribute], v.type)
        if len(shape) == len(t.get_shape()):
            return v
        new = TensorType(t.element_type, list(shape))
        return self.add(
            tensor.ExpandShapeOp(v, [], _reassociation(groups), list(shape), new)  # pyright: ignore[reportArgumentType]
        )

    def transpose(self, v: SSAValue) -> SSAValue:
        t = cast(TensorType[Attribute], v.type)
        a, b = t.get_shape()
        out = TensorType(t.element_type, [b, a])
        empty = self.add(tensor.EmptyOp([], out))
        return self.add(TransposeOp(v, empty, DenseArrayBase.from_list(i64, [1, 0])))


def _to_kn(b: _Builder, v: SSAValue, roles: Sequence[str]) -> SSAValue:
    """`v` (axes in `roles`) as a K x N matrix: K axes collapsed, then transposed."""
    k_axes = [i for i, r in enumerate(roles) if r in (K, GROUP, LANE, BLOCK)]
    n_axis = roles.index(N)
    groups = _groups_dropping_units(roles)
    # Merge the K axes (group, lane) into one.
    merged: list[list[int]] = []
    for g in groups:
        if merged and any(i in k_axes for i in g) and any(i in k_axes for i in merged[-1]):
            merged[-1] = merged[-1] + g
        else:
            merged.append(g)
    v = b.collapse(v, merged)
    if any(n_axis in g for g in merged[:1]):
        v = b.transpose(v)
    return v


def constant_array(v: SSAValue, ctx: Context | None = None) -> np.ndarray | None:
    """The elements of a `dense` or `dense_resource` constant (None: `v` is no constant)."""
    o = v.owner
    if not isinstance(o, arith.ConstantOp):
        return None
    if isinstance(o.value, DenseIntOrFPElementsAttr):
        return dense_array(o.value)
    if isinstance(o.value, DenseResourceAttr):
        return resources.resource_array(o.value, ctx)
    return None


def kn_array(a: np.ndarray, roles: Sequence[str]) -> np.ndarray:
    """`_to_kn` of a constant's elements: its K axes (in order) as rows, N as columns."""
    k_axes = [i for i, r in enumerate(roles) if r in (K, GROUP, LANE, BLOCK)]
    units = [i for i, r in enumerate(roles) if r == UNIT]
    n_axis = roles.index(N)
    t = a.transpose([*k_axes, *units, n_axis])
    return np.ascontiguousarray(t.reshape(-1, a.shape[n_axis]))


def _constant(b: _Builder, a: np.ndarray, element: Attribute) -> SSAValue:
    t = TensorType(element, list(a.shape))
    return b.add(arith.ConstantOp(DenseIntOrFPElementsAttr(t, BytesAttr(a.tobytes()))))  # pyright: ignore[reportArgumentType]


def raise_weight(b: _Builder, d: Dequant, ctx: Context | None = None) -> SSAValue:
    """`q8.dequantize` of the weight's values and scales, in the chip's K x N layout:
    constants (`dense` or `dense_resource`) laid out now, as new K x N constants,
    anything else through layout ops (`_to_kn`) the host runs."""
    qa, sa = constant_array(d.values, ctx), constant_array(d.scales, ctx)
    if qa is not None and sa is not None:
        q = _constant(b, kn_array(qa, d.roles), _elem(d.values))
        s = _constant(b, kn_array(sa, d.scale_roles), _elem(d.scales))
        source = None
    else:
        q = _to_kn(b, d.values, d.roles)
        s = _to_kn(b, d.scales, d.scale_roles)
        source = None if d.source == Q8Source.KN else d.source
    stem = _weight_stem(d.values)
    if stem is not None:
        if q is not d.values:
            q.name_hint = stored_name(stem, Q8Part.VALUES)
        if s is not d.scales:
            s.name_hint = stored_name(stem, Q8Part.SCALES)
    # Unnamed: q8-lower names the weight after its values (`W` of `%W` or `%W__q8`).
    return b.add(DequantizeOp(q, s, d.weight_type, source))


def host_source(dq: DequantizeOp, part: Q8Part) -> tuple[SSAValue, RepackAttr] | None:
    """The frontend's tensor a raised weight's `part` is made from, through the
    layout ops the raise put before its `q8.dequantize` (a `linalg.transpose`, a
    `tensor.collapse_shape`), and the host repack that fills the chip's tensor from it
    (`#spatial.repack<q8_0.values from "NxK">`); None for a weight stored K x N (no
    layout ops): what q8-lower can bind a param from instead of the transposes' result."""
    source = dq.source_layout
    if source is None or source == Q8Source.KN:
        return None
    v = dq.values if part == Q8Part.VALUES else dq.scales
    while isinstance(v.owner, TransposeOp | tensor.CollapseShapeOp):
        v = v.owner.operands[0]
    return v, RepackAttr(part, source)


def _zero_like(
    b: _Builder, init: SSAValue, shape: Sequence[int], groups, forward: bool
) -> SSAValue:
    """The accumulator `init` reshaped: a fill or a dense constant is remade at the new
    shape (so it still reads as one), anything else is reshaped."""
    t = cast(TensorType[Attribute], init.type)
    new = TensorType(t.element_type, list(shape))
    o = init.owner
    if isinstance(o, FillOp) and len(o.inputs) == 1:
        empty = b.add(tensor.EmptyOp([], new))
        return b.add(FillOp([o.inputs[0]], [empty], [new]))
    if isinstance(o, arith.ConstantOp) and isinstance(o.value, DenseIntOrFPElementsAttr):
        arr = np.ascontiguousarray(dense_array(o.value).reshape(shape))
        return _constant(b, arr, t.element_type)
    return b.collapse(init, groups) if forward else b.expand(init, groups, shape)
