"""
`linalg-masked-map`: a map most of which its mask hides, computed only where the mask
keeps something. An all-parallel `linalg.generic` of one result whose body yields
`select(ok, value, c)`, `c` a constant and `ok` varying along the innermost loop and
computed from `linalg.index`, constants, `arith` ops and inputs read at the other
loops alone: a batched step's softmax, `exp(s - max)` where the row sees the key and
+0.0 where it does not (the keys past each sequence's position, most of a long cache).

```mlir
%p = linalg.generic {indexing_maps = [(b, g, r, j) -> (b, g, r, j),   // scores
                                      (b, g, r, j) -> (b, g, r),      // their largest
                                      (b, g, r, j) -> (r),            // positions
                                      (b, g, r, j) -> (b, g, r, j)],
                     iterator_types = [par, par, par, par]} ins(%s, %max, %pos) outs(%e) {
  %ok = arith.cmpi ule, (linalg.index 3), (arith.index_cast %p)
  linalg.yield (arith.select %ok, (math.exp (arith.subf %x, %m)), +0.0)
}
```
becomes, over buffers of its operands and a new one for the result,
```mlir
scf.for %b { scf.for %g { scf.for %r {                 // the other loops, in order
  scf.for %v = 0 to 16 {                               // the innermost, 16 points a trip
    %any = scf.for %j = 16 %v to 16 %v + 16 iter_args(%seen = false) {
      scf.yield (arith.ori %seen, ok at j)             // ok's ops cloned, %p loaded
    }
    scf.if %any { scf.for %j ... { the body at j, stored } }
    else        { scf.for %j ... { c stored } }
}}}}
```

The same bits: a trip computed runs the body's ops, cloned with their flags, at each
of its points; a trip not computed is one where every point's `ok` fails, where the
body yields `c`. What the mask hides (a score past a row's position) is not read.

What is taken: static tensors; maps that each pick distinct loops; an output that
its body does not read and whose map picks every loop, the innermost last, that
loop's extent a multiple of `LANES` longer than it (each trip's points then lie side
by side, and LLVM makes each trip's loops vector code). The native engine runs it for every kernel
choice but `generic` (the plain path, which keeps the generic's loops).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, bufferization, memref, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_spatial.passes.contraction_in_registers import (
    axes_of,
    cloned_at,
    computed_from,
    read_only_buffer,
    seen_along,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.build import INDEX, counted, idx, inside
from xdsl_spatial.passes.convert_spatial_to_linalg.dot import LANES


@dataclass(frozen=True)
class MaskedMap:
    """A generic this pass takes: the loops each operand's map picks, `ok`, the
    body's ops that compute it, the select the body yields and its constant `c`."""

    maps: tuple[tuple[int, ...], ...]
    ok: SSAValue
    mask_ops: frozenset[Operation]
    select: arith.SelectOp
    hidden: arith.ConstantOp


def masked_map(op: GenericOp) -> MaskedMap | None:
    """What makes `op` one this pass takes (the module docstring lists it), or None."""
    if len(op.outputs) != 1 or len(op.results) != 1:
        return None
    types = [v.type for v in (*op.inputs, *op.outputs)]
    if not all(isinstance(t, TensorType) and t.has_static_shape() for t in types):
        return None
    kinds = [cast(IteratorTypeAttr, t).data for t in op.iterator_types]
    if any(k != IteratorType.PARALLEL for k in kinds):
        return None
    maps = [axes_of(op, i) for i in range(len(op.operands))]
    if any(m is None for m in maps):
        return None
    axes = tuple(tuple(cast(list[int], m)) for m in maps)
    block = op.body.block
    last = len(kinds) - 1
    extent = op.get_static_loop_ranges()[last] if kinds else 0
    if sorted(axes[-1]) != list(range(len(kinds))) or not kinds or axes[-1][-1] != last:
        return None
    if extent <= LANES or extent % LANES:
        return None
    if block.args[-1].first_use is not None:
        return None
    done = block.last_op
    sel = cast(LinalgYieldOp, done).operands[0].owner if isinstance(done, LinalgYieldOp) else None
    if not isinstance(sel, arith.SelectOp) or not isinstance(c := sel.rhs.owner, arith.ConstantOp):
        return None
    outer = {i for i in range(len(op.inputs)) if last not in axes[i]}
    ops = computed_from(sel.cond, op, outer)
    if ops is None or not any(isinstance(o, IndexOp) and o.dim.value.data == last for o in ops):
        return None
    return MaskedMap(axes, sel.cond, frozenset(ops), sel, c)


def lower(op: GenericOp, m: MaskedMap, b: Builder) -> SSAValue:
    """`op` as the loops the module docstring shows, inserted by `b`: the result."""
    ranges = op.get_static_loop_ranges()
    last = len(ranges) - 1
    mem = [read_only_buffer(b, v) for v in op.inputs]
    out_t = cast(TensorType[Attribute], op.outputs[0].type)
    result = b.insert(
        memref.AllocOp([], [], MemRefType(out_t.get_element_type(), out_t.get_shape()))
    ).memref
    at: dict[int, SSAValue] = {}
    nests = [b]
    for d in range(last):
        nested, at[d] = counted(nests[-1], ranges[d])
        nests.append(nested)
    trips, trip = counted(nests[-1], ranges[last] // LANES)
    first = trips.insert(arith.MuliOp(trip, idx(trips, LANES))).result
    end = trips.insert(arith.AddiOp(first, idx(trips, LANES))).result
    seen = seen_along(op, trips, at, mem, (m.ok, m.mask_ops), last, first, end)
    then, other = Block(), Block()
    trips.insert(scf.IfOp(seen, [], [then], [other]))
    for branch, computed in ((then, True), (other, False)):
        outside = inside(branch)
        blk = Block(arg_types=[INDEX])
        outside.insert(scf.ForOp(first, end, idx(outside, 1), [], blk))
        point = inside(blk)
        here = {**at, last: blk.args[0]}
        if computed:
            value = cloned_at(op, point, here, mem, m.select.result)
        else:
            value = point.insert(m.hidden.clone()).result
        point.insert(memref.StoreOp.get(value, result, [here[d] for d in m.maps[-1]]))
        point.insert(scf.YieldOp())
        outside.insert(scf.YieldOp())
    trips.insert(scf.YieldOp())
    for nested in reversed(nests[1:]):
        nested.insert(scf.YieldOp())
    return b.insert(bufferization.ToTensorOp(result, restrict=True, writable=True)).tensor


class MaskedMapPattern(RewritePattern):
    """A map this pass takes (`masked_map`) as the loops the module docstring shows."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        m = masked_map(op)
        if m is None:
            return
        rewriter.replace(op, [], [lower(op, m, rewriter)])


@dataclass(frozen=True)
class MaskedMapPass(ModulePass):
    """Every map whose mask hides most of it computed only in the vectors of its
    innermost loop where the mask keeps some point."""

    name = "linalg-masked-map"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(MaskedMapPattern(), apply_recursively=False).rewrite_module(op)
