"""
A masked fold's blocks that its mask hides, not computed: a summing stage whose every
term is `select(ok, term, +0.0)`, or a stage taking the largest whose every term is
`select(ok, term, -inf)` (`spec.masked_term`: the fold's identity where `ok` fails; a
decode step's attention scores and their softmax, `ok` whether the key's position is
at most the row's), whose `ok` varies along the generic's outermost loop (the blocks of
32 positions, a parallel loop; or the positions, the fold's own axis, which
`loops.generic_order` puts outside), runs that loop as an `scf.for`, and computes a
trip's generic only where `ok` holds for some point of it:

```mlir
scf.for %blk = 0 to 8 {                         // the generic's outermost loop
  %any = scf.for %lane = 0 to 32 iter_args(%seen = false) {
    %ok = ... (the stage body's ops of ok: its index, the position it loads)
    scf.yield (arith.ori %seen, %ok)
  }
  scf.if %any { linalg.generic ... (the other loops, the trip's views) }
}
```

The same bits: a trip none of whose terms `ok` keeps would fold the identity into each
of its outputs. The stage's page starts as that identity (+0.0 or -inf, filled before
it: a stage writing its tensor's buffer in place is not taken), so an output the trip
is the first to reach stays as it starts; one it is not the first to reach holds a
fold of terms, which the identity leaves as it is (x + +0.0 is x but for a -0.0, and a
sum starting at +0.0 is never -0.0; the largest of x and -inf is x, NaN too). A trip
computed folds its terms in the generic's order: the loop peeled is the outermost
(parallel, or the first of the folded axes, which all lie outside the parallel ones).
What the mask hides (a cache past the row's position) is then never read, NaN or not.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, i1
from xdsl.ir import Attribute, Block, SSAValue

from xdsl_spatial.dialects.spatial import IndexOp, IterKind
from xdsl_spatial.passes.convert_spatial_to_linalg.build import (
    INDEX,
    add,
    counted,
    idx,
    inside,
    mul,
    view,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.generic import stage_index
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import (
    LoopAxis,
    Row,
    body_slice,
    varies_along,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.scope import ProgramScope
from xdsl_spatial.passes.spatial_lower_ops.spec import Combiner, masked_term

Trips = Sequence[tuple[LoopAxis, SSAValue]]
"""Loops and their induction variables."""


def _ok(row: Row) -> SSAValue | None:
    largest = IterKind.MAX in row.stage.iter_kinds
    masked = masked_term(row.yielded, Combiner.MAX if largest else Combiner.SUM)
    return None if masked is None else masked[0]


def skips_blocks(pt: ProgramScope, rows: Sequence[Row], loops: Sequence[LoopAxis]) -> bool:
    """Whether `rows`' generic over `loops` is taken (the module docstring): every
    row a masked term whose `ok` varies along the outermost loop, of more than one
    trip, and reads only inputs loaded as they are (no table, not widened, not laid
    in tile columns); no row written into its tensor's buffer."""
    if not loops or loops[0].extent < 2:
        return False
    first = loops[0].axis
    for row in rows:
        o = row.stage
        ok = _ok(row)
        if ok is None or o.result in pt.written_in_place:
            return False
        if ok not in varies_along(o, row.forms, first):
            return False
        _, args = body_slice(o, [ok])
        for i in args:
            v = o.ins[i]
            where = pt.in_place.get(v)
            if o.indirect_of[i] >= 0 or v in pt.widened or (where is not None and where.strip):
                return False
    return True


def skipping_blocks(
    pt: ProgramScope,
    b: Builder,
    rows: Sequence[Row],
    loops: Sequence[LoopAxis],
    generic: Callable[[Builder, Sequence[LoopAxis], Trips], None],
) -> None:
    """`rows`' generic over `loops`, which `skips_blocks` takes, as the module
    docstring shows: `generic(builder, inner loops, outer trips)` builds a trip's."""
    first, rest = loops[0], loops[1:]
    body, iv = counted(b, first.extent)
    outer = [(first, iv)]
    axes = {
        d
        for row in rows
        for d in range(len(row.stage.iter_kinds))
        if cast(SSAValue, _ok(row)) in varies_along(row.stage, row.forms, d)
    }
    seen = _any_ok(pt, body, rows, [a for a in rest if a.axis in axes], outer)
    then = Block()
    body.insert(scf.IfOp(seen, [], [then]))
    run = inside(then)
    generic(run, rest, outer)
    run.insert(scf.YieldOp())
    body.insert(scf.YieldOp())


def _any_ok(
    pt: ProgramScope, b: Builder, rows: Sequence[Row], over: Sequence[LoopAxis], at: Trips
) -> SSAValue:
    """Whether some row's `ok` holds at some point of the loops `over` (inside the
    trips `at`): an `scf.for` over each, the answer carried."""
    if not over:
        seen = _ok_at(pt, b, rows[0], at)
        for row in rows[1:]:
            seen = b.insert(arith.OrIOp(seen, _ok_at(pt, b, row, at))).result
        return seen
    no = b.insert(arith.ConstantOp(IntegerAttr(0, i1))).result
    blk = Block(arg_types=[INDEX, i1])
    loop = b.insert(scf.ForOp(idx(b, 0), idx(b, over[0].extent), idx(b, 1), [no], blk))
    inner = inside(blk)
    found = _any_ok(pt, inner, rows, over[1:], [*at, (over[0], blk.args[0])])
    inner.insert(scf.YieldOp(inner.insert(arith.OrIOp(blk.args[1], found)).result))
    return loop.results[0]


def _ok_at(pt: ProgramScope, b: Builder, row: Row, at: Trips) -> SSAValue:
    """The row's `ok` where the loops are at `at`: the stage body's ops that compute
    it cloned, each input it reads loaded from its page where its map says."""
    o = row.stage
    ok = cast(SSAValue, _ok(row))
    ops, args = body_slice(o, [ok])
    block = o.body.block
    values: dict[SSAValue, SSAValue] = {}
    for i in sorted(args):
        f = row.forms[i]
        off: SSAValue | int = f.const
        for d, c in enumerate(f.dims):
            if c:
                off = add(b, mul(b, stage_index(b, row, d, at), c), off)
        mem = pt.values[o.ins[i]]
        size = math.prod(cast(MemRefType[Attribute], mem.type).get_shape())
        flat = view(b, mem, 0, (size,), (1,))
        where = off if isinstance(off, SSAValue) else idx(b, off)
        values[block.args[i]] = b.insert(memref.LoadOp.get(flat, [where])).res
    for op in ops:
        if isinstance(op, IndexOp):
            values[op.result] = stage_index(b, row, op.dim.data, at)
        else:
            new = b.insert(op.clone(value_mapper=values))
            values.update(zip(op.results, new.results))
    return values[ok]
