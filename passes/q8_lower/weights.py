"""
How a lowered product's weight tensors start: bound from outside (a function
argument, with the host repack that fills it from a checkpoint), zero, or constant
values; a `q8.quantize` of a dense constant is quantised here, and must be exactly
Q8_0 (`weight_init` raises the pass's NotQ8_0 diagnostic otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float16Type, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.utils.exceptions import PassFailedException

from xdsl_spatial.core.ir_io import dense_array, dense_attr
from xdsl_spatial.core.quant import NotExactQ8_0, exact_q8_0
from xdsl_spatial.dialects import q8
from xdsl_spatial.dialects.q8 import Q8Part
from xdsl_spatial.dialects.spatial import RepackAttr
from xdsl_spatial.passes.q8_lower.match import is_zero_constant
from xdsl_spatial.passes.q8_raise import host_source
from xdsl_spatial.passes.tensor_parallel import unshard

Stored = SSAValue | DenseIntOrFPElementsAttr | None
"""A stored part of the weight: bound from outside, constant values, or zero."""


@dataclass
class WeightInit:
    """How the fold's weight tensors start: bound from outside, zero, or given values;
    how a host fills each from a checkpoint (`#spatial.repack<q8_0.values>`, or one
    `from "NxK"` for a frontend's weight stored N x K: filled by a transpose); and on a
    chip, which shard of the weight they hold (K rows, columns)."""

    values: Stored
    scales: Stored
    repacks: tuple[RepackAttr, RepackAttr] = (
        RepackAttr(Q8Part.VALUES),
        RepackAttr(Q8Part.SCALES),
    )
    shard: tuple[tuple[int, int], tuple[int, int]] | None = None

    def repack(self, part: Q8Part) -> RepackAttr:
        whole = self.repacks[0 if part == Q8Part.VALUES else 1]
        return whole if self.shard is None else whole.sharded(*self.shard)

    def part(self, part: Q8Part) -> Stored:
        return self.values if part == Q8Part.VALUES else self.scales


def weight_init(dq: q8.DequantizeOp, weight: str) -> WeightInit:
    """Zero constants start zero; a quantised constant is quantised now and must be exact."""
    vals, scales = unshard(dq.values)[0], unshard(dq.scales)[0]
    vo, so = vals.owner, scales.owner
    if is_zero_constant(vo) and is_zero_constant(so):
        return WeightInit(None, None)
    if (
        isinstance(vo, q8.QuantizeOp)
        and so is vo
        and isinstance(c := vo.input.owner, arith.ConstantOp)
        and isinstance(c.value, DenseIntOrFPElementsAttr)
    ):
        return quantised_constant(vo, c.value, weight)
    out: list[Stored] = []
    for v in (vals, scales):
        o = v.owner
        if isinstance(o, arith.ConstantOp) and isinstance(o.value, DenseIntOrFPElementsAttr):
            out.append(o.value)
        else:
            out.append(v)
    repacks = tuple(
        found[1] if (found := host_source(dq, part)) is not None else RepackAttr(part)
        for part in (Q8Part.VALUES, Q8Part.SCALES)
    )
    return WeightInit(out[0], out[1], cast(tuple[RepackAttr, RepackAttr], repacks))


def quantised_constant(
    op: q8.QuantizeOp, value: DenseIntOrFPElementsAttr, weight: str
) -> WeightInit:
    """The values and scales of a constant weight, which must be exactly Q8_0 (the
    reference's NotQ8_0 otherwise: a diagnostic naming the weight and its first block
    that is not)."""
    vt = cast(TensorType[Attribute], op.values.type)
    st = cast(TensorType[Attribute], op.scales.type)
    w = dense_array(value).astype(np.float64)
    sdt = np.float16 if isinstance(st.element_type, Float16Type) else np.float32
    if not np.any(w):
        return WeightInit(None, None)
    try:
        qv, sv = exact_q8_0(w, sdt)
    except NotExactQ8_0 as e:
        why = str(e).removeprefix("the weight is not exactly Q8_0: ")
        raise PassFailedException(
            f"q8-lower: weight '{weight}' ({op.name} of a constant) is not exact "
            f"Q8_0, so it cannot be stored as int8 values and scales: {why}"
        ) from None
    return WeightInit(
        dense_attr(vt, qv.reshape(-1).tolist()),
        dense_attr(st, sv.astype(np.float64).reshape(-1).tolist()),
    )
