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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, IntegerAttr, ModuleOp, ShapedType, i64
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)


class ContiguousOutputInnermost(RewritePattern):
    """A `linalg.generic` whose innermost loop is a reduction (attention's `q . k` over
    a head's dims, `p . v` over the cache's positions): its loops reordered so that the
    axis along which its output is contiguous runs innermost, the reductions just
    outside it. `convert-linalg-to-loops` runs the loops in the generic's order, and an
    innermost fp32 reduction is a chain of dependent adds that LLVM may not reassociate
    (one add per latency of the unit); an innermost output axis is independent sums,
    which it vectorises. Each output's terms are added in the same order: the same
    bits. (The converted programs' generics have a parallel axis innermost already.)"""

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
        order = [d for d in range(n) if d != last.position] + [last.position]
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
