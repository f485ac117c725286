"""
A stage that updates its tensor where it lies (`ProgramTranslation.updates`) and
changes only a window of it, run over that window alone: a KV cache write's stage
yields, for every element of its page (a window of 32 positions, 6144 elements for
three heads of 64 x 32),

```mlir
%k = arith.subi %position, %lane : index          // %position: spatial.index d
%in = ... 0 <= %k < size ...
%y = arith.select %in, %new, %old : f32           // %old: the element it writes
```

so every element but the `size` positions from `%lane` is written back as it was
read. Converted, the stage is

```mlir
scf.if %lane_inside {                             // 0 <= lane <= extent - size
  scf.for %t = 0 to size {                        // size 1: no loop, d fixed at lane
    linalg.generic ... { %new ... linalg.yield %new }   // the other axes, d = lane + t
  }
} else {
  linalg.generic ... { ... arith.select ... }     // every element, as before
}
```

The same values: where the window lies inside the axis, an element outside it is
left as it is, which is what the select wrote back; else the whole stage runs. A
decode step's cache writes had selected over all 32 positions to change one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import i32
from xdsl.ir import Block, BlockArgument, Region, SSAValue

from xdsl_spatial.dialects.spatial import IndexOp, IterKind, StageOp
from xdsl_spatial.passes.convert_spatial_to_linalg.build import (
    INDEX,
    add,
    constant,
    counted,
    idx,
    inside,
    view,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.generic import Generic
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import LoopAxis, Row, stage_forms, yielded
from xdsl_spatial.passes.convert_spatial_to_linalg.scope import ProgramScope

SGE, SLT = 5, 2
"""`arith.cmpi`'s predicates `sge` and `slt`."""


@dataclass(frozen=True)
class Window:
    """Where an update changes its tensor (`window`): along stage axis `axis`, the
    `size` elements from the value of input `start` (an i32 the stage reads at one
    element), and the value written there."""

    axis: int
    start: int
    size: int
    new: SSAValue


def window(o: StageOp, old: int) -> Window | None:
    """Whether stage `o`, which writes where its input `old` reads, yields
    `select(0 <= index(d) - v < size, new, old)`, `v` the i32 of an input read at one
    element for every trip (no table); else None."""
    sel = yielded(o).owner
    block = o.body.block
    if not isinstance(sel, arith.SelectOp) or sel.rhs is not block.args[old]:
        return None
    both = sel.cond.owner
    if not isinstance(both, arith.AndIOp):
        return None
    lo, hi = both.lhs.owner, both.rhs.owner
    if not isinstance(lo, arith.CmpiOp) or not isinstance(hi, arith.CmpiOp):
        return None
    if lo.predicate.value.data != SGE or hi.predicate.value.data != SLT or lo.lhs is not hi.lhs:
        return None
    if constant(lo.rhs) != 0 or (size := constant(hi.rhs)) is None or size < 1:
        return None
    k = lo.lhs.owner
    if not isinstance(k, arith.SubiOp) or not isinstance(at := k.lhs.owner, IndexOp):
        return None
    cast_op = k.rhs.owner
    if not isinstance(cast_op, arith.IndexCastOp):
        return None
    v = cast_op.input
    if not isinstance(v, BlockArgument) or v.owner is not block or v.type != i32:
        return None
    j, axis = v.index, at.dim.data
    if any(stage_forms(o)[j].dims) or o.indirect_of[j] >= 0 or j in o.indirect_of:
        return None
    if size > o.iter_extents[axis] or o.iter_kinds[axis] != IterKind.PAR:
        return None
    return Window(axis, j, size, sel.lhs)


def windowed(
    pt: ProgramScope,
    b: Builder,
    row: Row,
    loops: Sequence[LoopAxis],
    win: Window,
    whole: Callable[[Builder], None],
) -> None:
    """The window's generic where the window lies inside its axis, else the whole
    stage (`whole(builder)` builds it)."""
    o = row.stage
    extent = o.iter_extents[win.axis]
    f = row.forms[win.start]
    at = view(b, pt.values[o.ins[win.start]], f.const, (1,), (1,))
    v = b.insert(memref.LoadOp.get(at, [idx(b, 0)])).res
    first = b.insert(arith.IndexCastOp(v, INDEX)).result
    after = b.insert(arith.CmpiOp(first, idx(b, 0), "sge")).result
    before = b.insert(arith.CmpiOp(first, idx(b, extent - win.size), "sle")).result
    inside_axis = b.insert(arith.AndIOp(after, before)).result
    then_blk, else_blk = Block(), Block()
    b.insert(scf.IfOp(inside_axis, [], Region(then_blk), Region(else_blk)))
    narrow = inside(then_blk)
    rest = [a for a in loops if a.axis != win.axis]
    along = LoopAxis(win.axis, win.size, 1)
    if win.size == 1:
        inner, at_t = narrow, first
    else:
        inner, t = counted(narrow, win.size)
        at_t = add(inner, first, t)
    gen = Generic(inner, pt, o.iter_kinds, rest, [(along, at_t)])
    reads = gen.add_reads(row, [win.new])
    gen.add_output(row.page, row.forms[-1])
    gen.span_the_rest(row.page)
    gen.build(lambda bb, ins, _: [gen.clone(bb, row, ins, reads)[win.new]])
    if win.size > 1:
        inner.insert(scf.YieldOp())
    narrow.insert(scf.YieldOp())
    every = inside(else_blk)
    whole(every)
    every.insert(scf.YieldOp())
