"""
A `linalg.generic` assembled from stages: its loops (`LoopAxis`, outermost first)
inside the `scf.for`s of the loops outside it, its operands strided views of pages
(each read once, however many stages read it) or of a scratch, its body the stages'
body ops cloned, `spatial.index` as `linalg.index`.

```python
gen = Generic(b, translation, kinds, loops, outer)
reads = [gen.add_reads(row, [row.yielded]) for row in rows]
outs = [gen.add_output(row.page, row.forms[-1]) for row in rows]
gen.build(lambda body, ins, accs: [...])      # the yields, built by `body`
```
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.linalg.ops import IndexOp as LinalgIndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.spatial import IndexOp, IterKind, PageType
from xdsl_spatial.passes.convert_spatial_to_linalg.build import (
    INDEX,
    add,
    dims_map,
    element,
    idx,
    inside,
    mul,
    view,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import LoopAxis, Row, body_slice
from xdsl_spatial.passes.convert_spatial_to_linalg.pages import InPlace
from xdsl_spatial.passes.convert_spatial_to_linalg.scope import ProgramScope

Body = Callable[[Builder, Sequence[SSAValue], Sequence[SSAValue]], Sequence[SSAValue]]
"""Builds a generic's yields into its body: (builder, input args, output args)."""


@dataclass
class Reads:
    """What a generic's body needs of a stage: the body ops it computes, in order, and
    the generic's input for each stage input they read directly."""

    ops: list[Operation]
    args: set[int]
    at: dict[int, int]
    wide: set[int]
    """The inputs read already converted to f32 (`widen`, `slices`)."""


def outer_offset(
    b: Builder, outer: Sequence[tuple[LoopAxis, SSAValue]], f: LinearForm
) -> SSAValue | int:
    """The element map `f` reads first in a trip of the loops `outer` (with their
    induction variables): its constant, plus each loop's step along it."""
    offset: SSAValue | int = f.const
    for a, iv in outer:
        if f.dims[a.axis]:
            offset = add(b, mul(b, iv, f.dims[a.axis] * a.step), offset)
    return offset


def placed(
    b: Builder,
    where: InPlace,
    f: LinearForm,
    outer: Sequence[tuple[LoopAxis, SSAValue]],
    loops: Sequence[LoopAxis],
) -> tuple[SSAValue | int, list[int]]:
    """Where map `f` (into a page of a tensor laid in tile columns, `where`) reads
    first in a trip of the loops `outer` (with their induction variables), from the
    block's first element, and the step in the tensor of each of `loops` inside them
    (`InPlace.place`: a strip's loop and its elements' differ)."""
    every = [*(a for a, _ in outer), *loops]
    done = where.place(f.const, [(f.dims[a.axis] * a.step, a.extent) for a in every])
    assert done is not None, "checked where the load chose to read it in place"
    at: SSAValue | int = done[0]
    for (_, iv), step in zip(outer, done[1]):
        if step:
            at = add(b, mul(b, iv, step), at)
    return at, done[1][len(outer) :]


def stage_index(
    b: Builder, row: Row, axis: int, at: Iterable[tuple[LoopAxis, SSAValue]]
) -> SSAValue:
    """Stage axis `axis`'s index where the loops `at` have these induction variables
    (a split axis from its two loops), the row's for its row axis, 0 along no loop."""
    if row.at is not None and row.at[0] == axis:
        return idx(b, row.at[1])
    acc: SSAValue = idx(b, 0)
    for a, iv in at:
        if a.axis == axis:
            acc = add(b, acc, mul(b, iv, a.step))
    return acc


class Generic:
    """A `linalg.generic` under construction at `b`: `loops`, the stage loops it runs
    (its dims, outermost first), inside `outer`, the `scf.for`s of the loops outside
    it with their induction variables; its operands strided views of pages (each read
    once), or of a scratch."""

    def __init__(
        self,
        b: Builder,
        pt: ProgramScope,
        kinds: Sequence[IterKind],
        loops: Sequence[LoopAxis],
        outer: Sequence[tuple[LoopAxis, SSAValue]],
        given: dict[tuple[SSAValue, LinearForm], SSAValue] | None = None,
    ):
        self.b = b
        self.pt = pt
        self.kinds = kinds
        self.loops = list(loops)
        self.outer = list(outer)
        self.given = given or {}
        """Inputs already converted to f32 in a dense scratch over their loops
        (`slices`), by page and map."""
        self.ins: list[SSAValue] = []
        self.in_maps: list[AffineMapAttr] = []
        self.outs: list[SSAValue] = []
        self.out_maps: list[AffineMapAttr] = []
        self.seen: dict[tuple[SSAValue, LinearForm], int] = {}
        self.spanned: set[int] = set()
        """The loops some operand's map reads along (linalg takes a loop's extent
        from them)."""

    def picks(self, f: LinearForm) -> list[int]:
        """The generic's loops that map `f` reads along."""
        return [j for j, a in enumerate(self.loops) if f.dims[a.axis]]

    def strided(
        self, mem: SSAValue, f: LinearForm, where: InPlace | None = None
    ) -> tuple[SSAValue, AffineMapAttr]:
        """The elements of `mem` that map `f` reads in this generic, and its map: the
        loops outside it fix the view's offset, its own loops are the view's dims.
        For a page of a tensor laid in tile columns read where it lies (`where`, its
        `strip` set), `f` maps into the page, and each loop's step in the tensor is
        its own (`InPlace.place`: a strip's loop and its elements' differ)."""
        b = self.b
        picks = self.picks(f)
        sizes = [self.loops[j].extent for j in picks]
        self.spanned.update(picks)
        m = dims_map(len(self.loops), picks)
        if where is None or not where.strip:
            offset = outer_offset(b, self.outer, f)
            strides = [f.dims[self.loops[j].axis] * self.loops[j].step for j in picks]
            return view(b, mem, offset, sizes, strides), m
        at, inner = placed(b, where, f, self.outer, self.loops)
        return view(b, mem, at, sizes, [inner[j] for j in picks]), m

    def span_the_rest(self, mem: SSAValue) -> None:
        """An input over the loops no operand's map reads along (a stage axis only an
        indirect read reaches, its offset loaded in the body): a view of `mem` of
        stride 0 along each, which the body never reads, so that linalg knows their
        extents."""
        rest = [j for j in range(len(self.loops)) if j not in self.spanned]
        if not rest:
            return
        sizes = [self.loops[j].extent for j in rest]
        self.ins.append(view(self.b, mem, 0, sizes, [0] * len(rest)))
        self.in_maps.append(dims_map(len(self.loops), rest))
        self.spanned.update(rest)

    def add_reads(self, row: Row, roots: Sequence[SSAValue]) -> Reads:
        """The inputs the body ops computing `roots` read, added once each."""
        o, forms = row.stage, row.forms
        ops, args = body_slice(o, roots)
        at: dict[int, int] = {}
        wide: set[int] = set()
        for i in sorted(args):
            if o.indirect_of[i] >= 0:
                continue
            key = (o.ins[i], forms[i])
            if key in self.given or o.ins[i] in self.pt.widened:
                wide.add(i)
            if key not in self.seen:
                if key in self.given:
                    v, m = self.given[key], dims_map(len(self.loops), self.picks(forms[i]))
                else:
                    mem = self.pt.widened.get(o.ins[i], self.pt.values[o.ins[i]])
                    where = None if o.ins[i] in self.pt.widened else self.pt.in_place.get(o.ins[i])
                    v, m = self.strided(mem, forms[i], where)
                self.seen[key] = len(self.ins)
                self.ins.append(v)
                self.in_maps.append(m)
            at[i] = self.seen[key]
        return Reads(ops, args, at, wide)

    def add_output(self, page: SSAValue, f: LinearForm) -> int:
        v, m = self.strided(page, f)
        self.outs.append(v)
        self.out_maps.append(m)
        return len(self.outs) - 1

    def add_scratch(self, mem: SSAValue, skip: int, output: bool) -> int:
        """A dense scratch over this generic's loops from `skip` on."""
        n = len(self.loops)
        m = dims_map(n, range(skip, n))
        self.spanned.update(range(skip, n))
        if output:
            self.outs.append(mem)
            self.out_maps.append(m)
            return len(self.outs) - 1
        self.ins.append(mem)
        self.in_maps.append(m)
        return len(self.ins) - 1

    def index(self, b: Builder, row: Row, axis: int) -> SSAValue:
        """Stage axis `axis`'s index inside the body: from the loops outside and the
        generic's own (`linalg.index`), a split axis from its two loops; the row's
        for its row axis, 0 for an axis of extent 1, which has no loop."""
        if row.at is not None and row.at[0] == axis:
            return idx(b, row.at[1])
        # each `linalg.index` built as it is added (a generator)
        own = (
            (a, b.insert(LinalgIndexOp(j)).result)
            for j, a in enumerate(self.loops)
            if a.axis == axis
        )
        return stage_index(b, row, axis, itertools.chain(self.outer, own))

    def clone(
        self, b: Builder, row: Row, ins: Sequence[SSAValue], reads: Reads
    ) -> dict[SSAValue, SSAValue]:
        """The row's stage's body ops that `reads` names, built by `b` inside the
        generic's body (whose input arguments are `ins`): each stage value to its
        value here."""
        o, forms = row.stage, row.forms
        ext = o.iter_extents
        block = o.body.block
        mapping: dict[SSAValue, SSAValue] = {block.args[i]: ins[p] for i, p in reads.at.items()}
        for i in sorted(reads.args):
            via = o.indirect_of[i]
            if via < 0:
                continue
            f = forms[i]
            off: SSAValue = idx(b, f.const)
            for d, c in enumerate(f.dims):
                if c and ext[d] > 1:
                    off = add(b, off, mul(b, self.index(b, row, d), c))
            entry = mapping[block.args[via]]
            at = b.insert(arith.IndexCastOp(entry, INDEX)).result
            off = add(b, off, mul(b, at, f.syms[0]))
            pt = cast(PageType, o.ins[i].type)
            size = self.pt.tile[0] * self.pt.tile[1] * pt.tiles.data
            if self.pt.run_time_table(o.ins[via]):
                # an offset made when the step runs: read within the page, whatever it is
                off = b.insert(arith.MinUIOp(off, idx(b, size - 1))).result
            flat = view(b, self.pt.values[o.ins[i]], 0, (size,), (1,))
            mapping[block.args[i]] = b.insert(memref.LoadOp.get(flat, [off])).res
        for inner in reads.ops:
            if (
                isinstance(inner, arith.ExtFOp | arith.SIToFPOp)
                and isinstance(inner.input, BlockArgument)
                and inner.input.index in reads.wide
            ):
                mapping[inner.result] = mapping[inner.input]  # read widened
            elif isinstance(inner, IndexOp):
                mapping[inner.result] = self.index(b, row, inner.dim.data)
            else:
                c = b.insert(inner.clone(value_mapper=mapping))
                mapping.update(zip(inner.results, c.results))
        return mapping

    def build(self, body: Body) -> None:
        """The generic, its body's yields `body(builder, input args, output args)`."""
        blk = Block(arg_types=[*(element(v) for v in self.ins), *(element(v) for v in self.outs)])
        k = len(self.ins)
        inner = inside(blk)
        inner.insert(LinalgYieldOp(*body(inner, blk.args[:k], blk.args[k:])))
        iterators = [
            IteratorTypeAttr.reduction()
            if self.kinds[a.axis] != IterKind.PAR
            else IteratorTypeAttr.parallel()
            for a in self.loops
        ]
        maps = [*self.in_maps, *self.out_maps]
        self.b.insert(GenericOp(self.ins, self.outs, Region(blk), maps, iterators))
