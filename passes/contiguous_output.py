"""
`linalg-contiguous-output-innermost`: a `linalg.generic` whose innermost loop is a
reduction, its loops reordered so that the axis along which its output is contiguous
runs innermost, the reductions just outside it. `convert-linalg-to-loops` keeps a
generic's order, and an innermost fp32 reduction is a chain of dependent adds that LLVM
may not reassociate, where independent outputs vectorise. Each output's terms are added
in the same order: the same bits.

```mlir
linalg.generic {indexing_maps = [(d0, d1) -> (d1, d0), (d0, d1) -> (d0)],
                iterator_types = ["parallel", "reduction"]} ins(%p) outs(%acc)
```
becomes
```mlir
linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d1)],
                iterator_types = ["reduction", "parallel"]} ins(%p) outs(%acc)
```

A parallel axis that an input does not read (grouped-query attention's query heads,
which share a KV head's cache) runs inside the reductions too, just outside the
contiguous one, when the outputs one reduction step then writes stay small
(`ACCUMULATOR_BYTES`): each element of that input is read once for all of them, not
once for each. Attention's scores at 8 sequences, (KV head, query head, row, key, dim)
with the dim summed, run (KV head, row, key, query head, dim): a cache row serves the
three query heads of its KV head.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ContainerType,
    FixedBitwidthType,
    IntegerAttr,
    ModuleOp,
    ShapedType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

ACCUMULATOR_BYTES = 4096
"""The most the outputs of one reduction step may span for the parallel axes an input
does not read to run inside the reductions: they are read and written at every step,
so they stay in the first-level cache."""


def _shared_axes(op: GenericOp, kinds: list[IteratorType], last: int, contiguous: int) -> list[int]:
    """The parallel dims (but `last`) that some input does not read, when the outputs
    one reduction step writes over them and the `contiguous` extent of `last` stay
    within `ACCUMULATOR_BYTES`; else none."""
    read = [
        {e.position for e in m.data.results if isinstance(e, AffineDimExpr)}
        for m in op.indexing_maps.data[: len(op.inputs)]
    ]
    shared = [
        d
        for d, kind in enumerate(kinds)
        if kind == IteratorType.PARALLEL and d != last and any(d not in r for r in read)
    ]
    ranges = op.get_static_loop_ranges()
    elem = cast(ContainerType[Attribute], op.outputs[0].type).get_element_type()
    width = elem.compile_time_size if isinstance(elem, FixedBitwidthType) else 8
    span = math.prod(ranges[d] for d in shared) * contiguous * width
    return shared if span <= ACCUMULATOR_BYTES else []


class ContiguousOutputInnermost(RewritePattern):
    """A `linalg.generic` whose innermost loop is a reduction (attention's `q . k` over
    a head's dims, `p . v` over the cache's positions): its loops reordered so that the
    axis along which its output is contiguous runs innermost, the reductions just
    outside it. `convert-linalg-to-loops` runs the loops in the generic's order, and an
    innermost fp32 reduction is a chain of dependent adds that LLVM may not reassociate
    (one add per latency of the unit); an innermost output axis is independent sums,
    which it vectorises. The parallel axes an input does not read run just outside
    it, inside the reductions, where their outputs are few (`_shared_axes`). Each
    output's terms are added in the same order: the same bits. (The converted
    programs' generics have a parallel axis innermost already.)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        kinds = [cast(IteratorTypeAttr, t).data for t in op.iterator_types]
        if len(kinds) < 2 or kinds[-1] != IteratorType.REDUCTION or len(op.outputs) != 1:
            return
        out_map = op.indexing_maps.data[-1].data
        shape = cast(ShapedType, op.outputs[0].type).get_shape()
        if not out_map.results or not shape or shape[-1] <= 1:
            return
        last = out_map.results[-1]
        if not isinstance(last, AffineDimExpr) or kinds[last.position] != IteratorType.PARALLEL:
            return
        n = len(kinds)
        inner = _shared_axes(op, kinds, last.position, shape[-1])
        order = [d for d in range(n) if d != last.position and d not in inner]
        order += [*inner, last.position]
        new_of_old = {old: new for new, old in enumerate(order)}
        dims = [AffineExpr.dimension(new_of_old[d]) for d in range(n)]
        for o in op.body.walk():
            if isinstance(o, IndexOp):
                o.dim = IntegerAttr(new_of_old[o.dim.value.data], i64)
        rewriter.replace(
            op,
            GenericOp(
                op.inputs,
                op.outputs,
                rewriter.move_region_contents_to_new_regions(op.body),
                [
                    AffineMapAttr(m.data.replace_dims_and_symbols(dims, [], n, 0))
                    for m in op.indexing_maps
                ],
                [op.iterator_types.data[d] for d in order],
                op.result_types,
            ),
        )


@dataclass(frozen=True)
class ContiguousOutputInnermostPass(ModulePass):
    """Every `linalg.generic` whose innermost loop is a reduction reordered, the
    output's contiguous axis innermost."""

    name = "linalg-contiguous-output-innermost"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ContiguousOutputInnermost(), apply_recursively=True).rewrite_module(op)
