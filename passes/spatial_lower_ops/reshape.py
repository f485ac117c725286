"""
The layout-only ops the lowering inserts: a tensor of any rank bound as the 2-d tensor
the chip holds (`to_chip`), and a program's 2-d result read back at its source's type
(`from_chip`). Both are `tensor.expand_shape`/`tensor.collapse_shape`: they rename a
layout, and the elements stay where they are (row-major).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, TensorType, i64
from xdsl.ir import Attribute, Operation, SSAValue

from xdsl_spatial.dialects.spatial import outside_programs
from xdsl_spatial.passes.spatial_lower_ops.access import chip_shape, shape_of


def _groups(groups: Sequence[Sequence[int]]) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _collapse(v: SSAValue, groups: Sequence[Sequence[int]], shape: Sequence[int]) -> Operation:
    elem = cast(TensorType[Attribute], v.type).element_type
    return tensor.CollapseShapeOp(
        operands=[v],
        result_types=[TensorType(elem, shape)],
        properties={"reassociation": _groups(groups)},
    )


def _expand(v: SSAValue, groups: Sequence[Sequence[int]], shape: Sequence[int]) -> Operation:
    elem = cast(TensorType[Attribute], v.type).element_type
    return tensor.ExpandShapeOp(v, [], _groups(groups), list(shape), TensorType(elem, shape))


def reshaped(v: SSAValue, shape: Sequence[int]) -> list[Operation]:
    """The ops that read `v` (of the same elements) as a tensor of `shape`: none when it
    is one, else one expand or collapse, else a collapse to a vector and an expand."""
    src = shape_of(v)
    shape = tuple(shape)
    if src == shape:
        return []
    # `shape`'s dims in runs, one run a dim of `src` (an expand), or the other way
    if (groups := _runs(shape, src)) is not None:
        return [_expand(v, groups, shape)]
    if (groups := _runs(src, shape)) is not None:
        return [_collapse(v, groups, shape)]
    flat = _collapse(v, [list(range(len(src)))], (math.prod(src),))
    if len(shape) == 1:
        return [flat]
    return [flat, _expand(flat.results[0], [list(range(len(shape)))], shape)]


def _runs(fine: Sequence[int], coarse: Sequence[int]) -> list[list[int]] | None:
    """`fine`'s dims grouped into consecutive runs whose products are `coarse`'s dims
    (each run at least one dim), or None."""
    if not coarse or not fine:
        return None
    groups: list[list[int]] = []
    i = 0
    for c in coarse:
        run = [i] if i < len(fine) else []
        if not run:
            return None
        prod = fine[i]
        i += 1
        while prod < c and i < len(fine):
            prod *= fine[i]
            run.append(i)
            i += 1
        if prod != c:
            return None
        groups.append(run)
    # trailing dims of extent 1 join the last run
    while i < len(fine) and fine[i] == 1:
        groups[-1].append(i)
        i += 1
    return groups if i == len(fine) else None


def to_chip(v: SSAValue) -> list[Operation]:
    """The ops that bind `v` as the 2-d tensor the chip holds it as."""
    return reshaped(v, chip_shape(shape_of(v)))


def fold_round_trips(module: ModuleOp) -> None:
    """Replace each reshape whose result has the type of a tensor it was reshaped from
    (through reshapes only: a program's 2-d result read back at its type and reshaped
    to 2-d again) by that tensor, and drop the reshapes nothing reads any more (the
    host's: a program's body holds none)."""
    reshapes = [
        o
        for o in outside_programs(module.body)
        if isinstance(o, tensor.ExpandShapeOp | tensor.CollapseShapeOp)
    ]
    for o in reshapes:
        v = o.results[0]
        src = o.operands[0]
        while True:
            if src.type == v.type:
                v.replace_all_uses_with(src)
                break
            owner = src.owner
            if not isinstance(owner, tensor.ExpandShapeOp | tensor.CollapseShapeOp):
                break
            src = owner.operands[0]
    for o in reversed(reshapes):
        if o.parent is not None and all(r.first_use is None for r in o.results):
            o.detach()
            o.erase()
