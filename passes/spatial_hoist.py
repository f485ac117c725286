"""
`spatial-hoist`: what a K loop would do the same on every trip runs once, before it.

A load whose origin does not read the loop's index, and a stage whose inputs are
defined before the loop or by what was hoisted, give the same page every trip: they
move before the loop, and such a load moves its block once (`repeat 1`), not once a
trip. A loop that runs once is all such: its body takes its place, the index read as
0 and the carry as its initial page, and the loop's results are the pages it yields.

```mlir
%sum = spatial.k_loop %kb = 0 to 1 iter_args(%acc = %init_sum) -> (!spatial.page<8xf32>) {
  %p_in_q8 = spatial.load %q[%kb * 16384 + %item * 8] block 128x8 stride 128 repeat 1 into %in_q8 : ...
  ...
  %fold_sum = spatial.stage "fold_sum" ... ins(%acc[d0 * 256 + d1], %block[d1]) ...
  spatial.k_yield %fold_sum : !spatial.page<8xf32>
}
%result = spatial.stage "result" ... ins(%sum[d0 * 256 + d1]) ...
```

becomes

```mlir
%p_in_q8 = spatial.load %q[%item * 8] block 128x8 stride 128 repeat 1 into %in_q8 : ...
...
%fold_sum = spatial.stage "fold_sum" ... ins(%init_sum[d0 * 256 + d1], %block[d1]) ...
%result = spatial.stage "result" ... ins(%fold_sum[d0 * 256 + d1]) ...
```

A hoisted page stays in its buffer for the whole loop, so only an op whose buffer
nothing else in the loop fills is hoisted; the buffers, and so the local memory, are
as they were. The values are the same bits: every op computes what it computed on
each trip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.spatial import (
    KLoopOp,
    KYieldOp,
    LoadOp,
    StageOp,
    StoreOp,
    TileMoveOp,
)
from xdsl_spatial.passes.stage_ir import form_of, map_of, users


def without_index(move: TileMoveOp, kb: BlockArgument, repeat: int) -> TileMoveOp:
    """The move with the loop's index read as 0 (its origin and table position over
    the other variables), run `repeat` times."""
    vars_ = list(move.origin_vars)
    keep = [k for k, v in enumerate(vars_) if v is not kb]

    def dropped(form: LinearForm) -> LinearForm:
        return LinearForm(form.const, form.dims, tuple(form.syms[k] for k in keep))

    origin = map_of(dropped(form_of(move.origin.data)))
    table_at = map_of(dropped(form_of(move.table_at.data))) if move.table_at is not None else None
    kept = [vars_[k] for k in keep]
    block, stride = move.block_shape, move.stride.data
    if isinstance(move, LoadOp):
        new: TileMoveOp = LoadOp(
            move.tensor, move.buffer, origin, kept, block, stride, repeat, move.table, table_at
        )
    else:
        store = cast(StoreOp, move)
        new = StoreOp(
            store.page, store.tensor, origin, kept, block, stride, repeat, store.table, table_at
        )
    for r, old in zip(new.results, move.results):
        r.name_hint = old.name_hint
    return new


def invariant(op: Operation, loop: KLoopOp, hoisted: set[Operation]) -> bool:
    """Whether `op` gives the same page every trip of `loop`, and its page may stay in
    its buffer for the whole loop."""
    kb = loop.induction_var

    def outside(v: SSAValue) -> bool:
        owner = v.owner
        if isinstance(owner, Operation):
            return owner in hoisted or not loop.is_ancestor(owner)
        return loop.body.block is not owner

    if isinstance(op, LoadOp):
        return (
            kb not in op.origin_vars
            and all(outside(v) for v in op.origin_vars)
            and (op.table is None or outside(op.table))
            and users(op.buffer) == {op}
        )
    if isinstance(op, StageOp):
        return all(outside(v) for v in op.operands) and users(op.buffer) == {op}
    return False


def inline_once(loop: KLoopOp, rewriter: PatternRewriter) -> None:
    """A loop of one trip -> its body, before it."""
    body = loop.body.block
    kb, carried = body.args[0], body.args[1:]
    for arg, init in zip(carried, loop.inits):
        rewriter.replace_all_uses_with(arg, init)
    yielded = list(cast(KYieldOp, body.last_op).values)
    for op in list(body.ops)[:-1]:
        if isinstance(op, TileMoveOp):
            rewriter.replace(op, without_index(op, kb, 1))
    for op in list(body.ops)[:-1]:
        op.detach()
        rewriter.insert(op, InsertPoint.before(loop))
    rewriter.replace(loop, [], yielded)


def hoist_invariants(loop: KLoopOp, rewriter: PatternRewriter) -> bool:
    """Move what `loop` does the same every trip before it; whether anything moved."""
    hoisted: set[Operation] = set()
    for op in list(loop.body.block.ops):
        if not invariant(op, loop, hoisted):
            continue
        if isinstance(op, LoadOp):
            new = without_index(op, loop.induction_var, 1)
            rewriter.insert(new, InsertPoint.before(loop))
            rewriter.replace(op, [], new.results)
            hoisted.add(new)
        else:
            op.detach()
            rewriter.insert(op, InsertPoint.before(loop))
            hoisted.add(op)
    return bool(hoisted)


class Hoist(RewritePattern):
    """A K loop -> its invariant ops before it, or its body when it runs once."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: KLoopOp, rewriter: PatternRewriter) -> None:
        if op.trips.data == 1:
            inline_once(op, rewriter)
        else:
            hoist_invariants(op, rewriter)


@dataclass(frozen=True)
class HoistPass(ModulePass):
    """
    Hoist what a K loop does the same every trip (loads that do not read its index,
    stages of what is defined before it) out of it, and replace a loop of one trip by
    its body.
    """

    name = "spatial-hoist"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(Hoist(), apply_recursively=False).rewrite_module(op)
