"""
`convert-spatial-to-linalg`: every `spatial.view` and `spatial.fold` as upstream
dialects only (`scf`, `memref`, `linalg`, `arith`, `bufferization` at the tensor
boundary), keeping what a site does visible.

Where tensors become buffers: at the program. Outside it the function stays on
tensors (upstream's one-shot bufferization decides the rest); the program's inputs
enter as `bufferization.to_buffer ... read_only` and its results leave as
`bufferization.to_tensor ... restrict`. Inside, everything is a memref:

- each `spatial.tensor` is its tile-padded buffer: an input as it is when its shape is
  whole tiles (else copied once into a zero-padded one), a `values` tensor a private
  `memref.global`, and a tensor that stores write a buffer of its own, so loads read
  the contents as the program started (items run in parallel on the chip);
- each `spatial.buffer` a `memref.alloca` of exactly its declared bytes, shaped
  `depth x 32 x 32n` (the site's local memory), made once and reused by the items;
- the item grid a nest of `scf.for`, one loop per axis;
- each load and store a `linalg.copy` of whole tiles between a strided view of the
  tensor (`memref.reinterpret_cast` at the block's first element, which the item and
  K block decide) and the page (an output of one tile row, a product's m rows, is held
  as its live rows, and its stores write those alone);
- each page a slot of its buffer, taken in turn (a ring of `depth` pages: a buffer
  of depth 2 holds this K block's load while the stage reads the last one);
- each stage a `linalg.generic` over strided views of its pages (a map's flat
  offset `sum(c_d * d) + c` is the view's strides and offset), the stage's body ops
  as they are, the `sum` axes as reduction iterators accumulating in the output
  page, which starts as zeros; an indirect input (`s0 = inN`) a `memref.load` in the
  body at the offset its table gives; sibling stages (the same space, a page in
  common: a fold's stage per row) one generic with an output each, so the page they
  share is read once;
- the K loop an `scf.for` carrying its pages.

```mlir
%y = spatial.fold "q8_gemv_64x64_w2" grid [1] ... ins(%xv, %q, %s : ...) -> tensor<1x64xf32> {
^bb0(%item: index, %xv_in: ..., %q_in: ..., %s_in: ...):
  %q = spatial.tensor "W__q8" external(%q_in : tensor<64x64xi8>) ... : !spatial.tensor<64x64xi8, param>
  %in_q8 = spatial.buffer "in_q8" : !spatial.buffer<4xi8, depth 2>
  ...
  %sum = spatial.k_loop %kb = 0 to 1 iter_args(%acc = %init_sum) -> (!spatial.page<2xf32>) {
    %p_q8 = spatial.load %q[%kb * 4 + %item * 2] block 2x2 stride 2 repeat 1 into %in_q8 : ...
    %block = spatial.stage "block" iters(sum 2, par 64, sum 32) ins(...) into %b[d1] : ... { ... }
    ...
  }
  spatial.store %result to %y_t[%item * 2] block 1x2 stride 2 repeat 1 : ...
  spatial.return %y_t : !spatial.tensor<1x64xf32, output>
}
```
becomes
```mlir
%q = bufferization.to_buffer %W__q8 read_only : tensor<64x64xi8> to memref<64x64xi8>
%y_t = memref.alloc() : memref<32x64xf32>
%in_q8 = memref.alloca() : memref<2x32x128xi8>
...
scf.for %item = %c0 to %c1 step %c1 {
  %sum = scf.for %kb = %c0 to %c1 step %c1 iter_args(%acc = %init_sum) -> (memref<32x64xf32, strided<[64, 1], offset: ?>>) {
    %p_q8 = memref.reinterpret_cast %in_q8 to offset: [%slot], sizes: [32, 128], strides: [128, 1] : ...
    %src = memref.reinterpret_cast %base to offset: [%first], sizes: [2, 32, 64], strides: [2048, 64, 1] : ...
    %dst = memref.reinterpret_cast %base_1 to offset: [%off], sizes: [2, 32, 64], strides: [64, 128, 1] : ...
    linalg.copy ins(%src : ...) outs(%dst : ...)
    linalg.generic {..., iterator_types = ["reduction", "reduction", "parallel"]} ins(...) outs(...) { ... }
    ...
    scf.yield %fold_sum : memref<32x64xf32, strided<[64, 1], offset: ?>>
  }
  ...
}
%y = bufferization.to_tensor %y_live restrict writable : memref<1x64xf32> to tensor<1x64xf32>
```

A stage's generic runs its axes in another order than the stage lists them: the
`sum` axes outside, the parallel ones inside, the one along which the output is
contiguous innermost. Each output element is then an fp32 sum in a fixed order (the
reference's is numpy's: within the same fp32 bound, not the same bits), and the
innermost loop runs over contiguous outputs, which LLVM vectorises without
reassociating a sum. An axis of extent 1 is left out (`spatial.index` of it is 0).
A summing generic's innermost axis, when longer than `COLUMNS`, is split
(`loop_axes`): its blocks outermost, `COLUMNS` outputs innermost, which stay in
registers while they sum; a generic computes at most `ROWS` rows (`Row`: siblings,
or the rows of a stage's `row_axis`). The sum's add and a product it adds are fused
(`CONTRACT`). A sum of `a * b` with `b` the same along its innermost `sum` axis sums
`a` first and multiplies once (`factored_at`); a bf16 page it reads only widened, as a
broadcast, is widened once (`widen`), and so are the int8 weights more than `ROWS` rows
read (`slices`); only what may be read starts as zeros (`read_outside`). A load of
several tile rows copies in the page's order, so that its writes are contiguous.

The pass declines, naming the program and the reason, a program whose ring of pages
would overwrite a page still to be read (the dialect does not promise there is
none), a map with a negative coefficient, a stage axis no direct map reads, and a
move through a table the pass cannot read (`PlanError`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, bufferization, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    f32,
    i8,
    i32,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import CopyOp, FillOp, GenericOp
from xdsl.dialects.linalg.ops import IndexOp as LinalgIndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import DiagnosticException

from xdsl_spatial.core import geometry
from xdsl_spatial.core.geometry import LinearForm, linear_form
from xdsl_spatial.core.ir_io import dense_array
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    BufferType,
    IndexOp,
    IterKind,
    KLoopOp,
    KYieldOp,
    LoadOp,
    PageType,
    ProgramOp,
    ReturnOp,
    Role,
    StageOp,
    StoreOp,
    TensorOp,
    TileMoveOp,
    YieldOp,
)
from xdsl_spatial.dialects.x86_amx import (
    TileLoadOp,
    TileMulFOp,
    TileStoreOp,
    TileType,
    TileZeroOp,
)

DYNAMIC = None
"""A dynamic stride or offset in a `StridedLayoutAttr`."""


class PlanError(DiagnosticException):
    """A program this conversion cannot express; the message names it and why."""


# --------------------------------------------------------------------------------------
# Plan: numbers in, numbers out
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TensorPlan:
    """How a `spatial.tensor` is held: its tile-padded shape and which buffers it needs."""

    dims: tuple[int, int]
    padded: tuple[int, int]
    loaded: bool
    stored: bool

    @property
    def whole_tiles(self) -> bool:
        return self.dims == self.padded


def tensor_plan(op: TensorOp, tile: tuple[int, int]) -> TensorPlan:
    rows, cols = geometry.tile_grid(op.handle.dims, tile)
    uses = [u.operation for u in op.result.uses]
    loaded = any(
        (isinstance(u, LoadOp) and u.tensor is op.result)
        or (isinstance(u, TileMoveOp) and u.table is op.result)
        for u in uses
    )
    stored = any(isinstance(u, StoreOp) and u.tensor is op.result for u in uses)
    return TensorPlan(op.handle.dims, (rows * tile[0], cols * tile[1]), loaded, stored)


@dataclass(frozen=True)
class Slot:
    """Which page of its buffer an op writes: `(first + trip * per_trip) % depth`, the
    trip that of the K loop around it (`per_trip` 0 outside one)."""

    first: int
    per_trip: int
    depth: int

    def static(self) -> int | None:
        """The slot when every trip writes the same one."""
        if self.depth == 1 or self.per_trip % self.depth == 0:
            return self.first % self.depth
        return None


def _writes_into(op: Operation) -> SSAValue | None:
    """The buffer a load or a stage puts its page in."""
    if isinstance(op, LoadOp | StageOp):
        return op.buffer
    return None


def _depth(buffer: SSAValue) -> int:
    return cast(BufferType, buffer.type).depth.data


def ring_slots(program: ProgramOp) -> dict[Operation, Slot]:
    """The slot every load and stage writes: each buffer's pages taken in turn, a K
    loop's writes once per trip."""
    count: dict[SSAValue, int] = {}
    slots: dict[Operation, Slot] = {}
    for o in program.entry.ops:
        if isinstance(o, KLoopOp):
            inner = [x for x in o.body.block.ops if _writes_into(x) is not None]
            per: dict[SSAValue, int] = {}
            for x in inner:
                b = cast(SSAValue, _writes_into(x))
                per[b] = per.get(b, 0) + 1
            seen: dict[SSAValue, int] = {}
            for x in inner:
                b = cast(SSAValue, _writes_into(x))
                slots[x] = Slot(count.get(b, 0) + seen.get(b, 0), per[b], _depth(b))
                seen[b] = seen.get(b, 0) + 1
            for b, k in per.items():
                count[b] = count.get(b, 0) + k * o.trips.data
        elif (b := _writes_into(o)) is not None:
            slots[o] = Slot(count.get(b, 0), 0, _depth(b))
            count[b] = count.get(b, 0) + 1
    return slots


def ring_conflict(program: ProgramOp, slots: dict[Operation, Slot]) -> str | None:
    """Why the ring would overwrite a page before its last read, or None. The program
    is run in order, trip by trip: each write makes a page that holds its slot until
    the next write there; each read must find its page still holding it."""
    current: dict[SSAValue, int] = {}
    """What each page value denotes now: a page made by one write."""
    location: dict[int, tuple[SSAValue, int]] = {}
    owner: dict[tuple[SSAValue, int], int] = {}

    def run(ops: Sequence[Operation], trip: int) -> str | None:
        for o in ops:
            if isinstance(o, KLoopOp):
                args = o.body.block.args[1:]
                for a, init in zip(args, o.inits):
                    current[a] = current[init]
                y = cast(KYieldOp, o.body.block.last_op)
                for t in range(o.trips.data):
                    why = run([x for x in o.body.block.ops if x is not y], t)
                    if why:
                        return why
                    for a, v in zip(args, y.values):
                        current[a] = current[v]
                for r, v in zip(o.res, y.values):
                    current[r] = current[v]
                continue
            for v in o.operands:
                if isinstance(v.type, PageType) and v in current:
                    token = current[v]
                    if owner.get(location[token]) != token:
                        buf = location[token][0]
                        name = cast(BufferOp, buf.owner).buffer_name.data
                        what = f"stage '{o.stage_name.data}'" if isinstance(o, StageOp) else o.name
                        return (
                            f"{what} reads a page of buffer '{name}' that a later write "
                            f"to its {_depth(buf)} page(s) has replaced"
                        )
            if o in slots:
                s = slots[o]
                token = len(location)
                at = (cast(SSAValue, _writes_into(o)), (s.first + trip * s.per_trip) % s.depth)
                location[token] = at
                owner[at] = token
                current[o.results[0]] = token
        return None

    return run(list(program.entry.ops), 0)


def siblings(ops: Sequence[Operation], i: int) -> list[StageOp]:
    """The stage `ops[i]` and the stages right after it that run over the same space
    in the same order and read a page it reads, none reading another's result and
    none through a table: one generic computes them all, reading each shared page
    once (the m row stages of a fold read one weight page)."""
    first = cast(StageOp, ops[i])
    run = [first]
    if any(v >= 0 for v in first.indirect_of):
        return run
    made = {first.result}
    key = (first.iter_kinds, first.iter_extents, generic_order(first))
    for o in ops[i + 1 :]:
        if not (
            isinstance(o, StageOp)
            and (o.iter_kinds, o.iter_extents, generic_order(o)) == key
            and all(v < 0 for v in o.indirect_of)
            and not made & set(o.ins)
            and set(o.ins) & set(first.ins)
        ):
            break
        run.append(o)
        made.add(o.result)
    return run


COLUMNS = 32
"""Outputs the innermost loop of a summing generic covers: two 512-bit vectors of f32."""

ROWS = 8
"""Sibling stages (a fold's rows) one generic computes at most: with `COLUMNS`, 16
vector accumulators, which stay in registers."""


CONTRACT = arith.FastMathFlagsAttr([FastMathFlag.ALLOW_CONTRACT])
"""On a sum's `arith.addf` and the `arith.mulf` whose product it adds: LLVM may fuse
them into one multiply-add (one rounding where there were two, as a MAC unit does;
exact where both were, so integer-exact inputs keep their bits)."""


@dataclass(frozen=True)
class LoopAxis:
    """One loop of a generic: `extent` steps of `step` elements along stage axis `axis`
    (an axis split in two is an outer loop of step `COLUMNS` and an inner one of step 1)."""

    axis: int
    extent: int
    step: int


def loop_axes(stage: StageOp, rows: int | None = None) -> list[LoopAxis]:
    """The generic's loops, outermost first: `generic_order`'s axes, and, when the
    stage sums and its innermost axis is parallel and longer than `COLUMNS`, that axis
    split: `COLUMNS` contiguous outputs innermost, their blocks outermost. Each block's
    outputs then sum over every `sum` axis while held in registers, in the order they
    would have summed unsplit (each output's sum is the same, term for term). Axis
    `rows` has no loop: its rows are the generic's outputs (`row_axis`)."""
    order = [d for d in generic_order(stage) if d != rows]
    ext = stage.iter_extents
    loops = [LoopAxis(d, ext[d], 1) for d in order]
    if not order:
        return loops
    last = order[-1]
    summed = any(stage.iter_kinds[d] == IterKind.SUM for d in order)
    e = ext[last]
    if not summed or stage.iter_kinds[last] != IterKind.PAR or e <= COLUMNS or e % COLUMNS:
        return loops
    return [LoopAxis(last, e // COLUMNS, COLUMNS), *loops[:-1], LoopAxis(last, COLUMNS, 1)]


def row_axis(run: Sequence[StageOp]) -> int | None:
    """The axis whose rows a summing stage computes as siblings are computed, an
    output each (at most `ROWS` a generic): its outer parallel axis, when another one
    is inside it and it has at most `4 * ROWS` rows. A fold whose rows
    `spatial-merge-siblings` made one stage is such, and its weights are then widened
    once for every `ROWS` rows, as its siblings' are."""
    if len(run) > 1:
        return None
    stage = run[0]
    pars = [d for d in generic_order(stage) if stage.iter_kinds[d] == IterKind.PAR]
    if len(pars) < 2 or stage.iter_extents[pars[0]] > 4 * ROWS:
        return None
    return pars[0]


@dataclass(frozen=True)
class Row:
    """One output of a generic: a stage, or one row of a stage along its `row_axis`
    (`at`: the axis and the row), its maps (inputs, then output) at that row."""

    stage: StageOp
    forms: tuple[LinearForm, ...]
    page: SSAValue
    at: tuple[int, int] | None = None

    @property
    def yielded(self) -> SSAValue:
        return yielded(self.stage)


def generic_order(stage: StageOp) -> list[int]:
    """The stage's axes in the generic's loop order: `sum` axes outside, parallel ones
    inside by falling output stride (the contiguous one innermost); axes of extent 1
    left out."""
    out = cast(LinearForm, linear_form(stage.out_map.results[0], len(stage.iter_kinds), 0))
    axes = [d for d, e in enumerate(stage.iter_extents) if e > 1]
    sums = [d for d in axes if stage.iter_kinds[d] == IterKind.SUM]
    pars = sorted(
        (d for d in axes if stage.iter_kinds[d] == IterKind.PAR),
        key=lambda d: -abs(out.dims[d]),
    )
    return sums + pars


# --------------------------------------------------------------------------------------
# Build helpers
# --------------------------------------------------------------------------------------

INDEX = IndexType()


def idx(v: int) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(v, INDEX)).result


def _constant(v: SSAValue) -> int | None:
    if isinstance(v.owner, arith.ConstantOp) and isinstance(v.owner.value, IntegerAttr):
        return v.owner.value.value.data
    return None


def add(a: SSAValue, b: SSAValue | int) -> SSAValue:
    """`a + b`, folded when either is a constant 0 or both are constants."""
    if isinstance(b, SSAValue) and (c := _constant(b)) is not None:
        b = c
    if isinstance(b, int):
        if b == 0:
            return a
        if (c := _constant(a)) is not None:
            return idx(c + b)
        b = idx(b)
    elif (c := _constant(a)) == 0:
        return b
    return arith.AddiOp(a, b).result


def mul(a: SSAValue, c: int) -> SSAValue:
    """`a * c`, folded when `c` is 1 or `a` a constant."""
    if (k := _constant(a)) is not None:
        return idx(k * c)
    return a if c == 1 else arith.MuliOp(a, idx(c)).result


def linear(form: LinearForm, values: Sequence[SSAValue]) -> SSAValue:
    """`const + sum(syms[j] * values[j])` as index arithmetic."""
    acc: SSAValue | None = None
    for c, v in zip(form.syms, values):
        if c:
            term = mul(v, c)
            acc = term if acc is None else add(acc, term)
    if acc is None:
        return idx(form.const)
    return add(acc, form.const)


def strided_type(elem: Attribute, sizes: Sequence[int], strides: Sequence[int]) -> MemRefType:
    return MemRefType(elem, sizes, StridedLayoutAttr(strides, DYNAMIC))


def view(
    mem: SSAValue, offset: SSAValue | int, sizes: Sequence[int], strides: Sequence[int]
) -> SSAValue:
    """Elements `offset + sum(i_k * strides[k])` of `mem` (offset in elements from
    where `mem` starts), as a `sizes` memref over the same storage: a
    `memref.reinterpret_cast` of the buffer `mem` is or views (its offset read from
    the IR when `mem` is a page a loop carries)."""
    t = cast(MemRefType[Attribute], mem.type)
    owner = mem.owner
    if isinstance(owner, memref.ReinterpretCastOp) and len(owner.offsets) == 1:
        base, start = owner.source, add(owner.offsets[0], offset)
    elif isinstance(t.layout, NoneAttr):
        base, start = mem, offset if isinstance(offset, SSAValue) else idx(offset)
    else:
        meta = memref.ExtractStridedMetaDataOp(mem)
        base, start = meta.base_buffer, add(meta.offset, offset)
    return memref.ReinterpretCastOp(
        base,
        [start],
        [],
        [],
        [DYNAMIC_INDEX],
        list(sizes),
        list(strides),
        strided_type(t.element_type, sizes, strides),
    ).result


def dense(mem: SSAValue, offset: int, shape: Sequence[int]) -> SSAValue:
    """`shape` elements of `mem` from `offset` on, row-major (a scratch's view)."""
    return view(mem, offset, shape, [math.prod(shape[j + 1 :]) for j in range(len(shape))])


def page_type(tiles: int, elem: Attribute, tile: tuple[int, int]) -> MemRefType:
    """A page: `tile rows x tiles * tile cols`, anywhere in its buffer."""
    w = tiles * tile[1]
    return strided_type(elem, (tile[0], w), (w, 1))


def fill(value: float | int, elem: Attribute, out: SSAValue) -> None:
    attr = (
        IntegerAttr(int(value), elem)
        if isinstance(elem, IntegerType)
        else FloatAttr(float(value), cast(AnyFloat, elem))
    )
    FillOp((arith.ConstantOp(attr).result,), (out,), ())


def copy(src: SSAValue, dst: SSAValue) -> None:
    CopyOp([src], [dst], ())


def _dims(n: int, picks: Sequence[int]) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(n, 0, tuple(AffineExpr.dimension(p) for p in picks)))


def _elem(v: SSAValue) -> Attribute:
    t = v.type
    assert isinstance(t, MemRefType | TensorType | PageType)
    return cast(Attribute, t.element_type)


# --------------------------------------------------------------------------------------
# Build: one method per source op
# --------------------------------------------------------------------------------------


@dataclass
class Held:
    """A tensor's buffers inside the program: what loads read, what stores write."""

    plan: TensorPlan
    read: SSAValue | None
    write: SSAValue | None


class ProgramBuilder:
    """Emits one program's ops (inside an `ImplicitBuilder`), reading each source op
    once. `slots` is the pass's plan of pages; `globals_` where constant tensors go."""

    def __init__(
        self,
        program: ProgramOp,
        slots: dict[Operation, Slot],
        globals_: GlobalTable,
        parallel: bool = False,
        amx: bool = False,
    ):
        self.program = program
        self.parallel = parallel
        self.amx = amx
        self.tile = program.target.tile
        self.slots = slots
        self.globals = globals_
        self.held: dict[SSAValue, Held] = {}
        self.values: dict[SSAValue, SSAValue] = {}
        """Spatial values (coordinates, the K index, buffers, pages) -> memref-side ones."""
        self.loop: scf.ForOp | None = None
        self.scratch_ops: list[Operation] = []
        """Allocas no buffer declares, placed after the buffers' (`scratch`)."""
        self.last_buffer: Operation | None = None
        self.widened: dict[SSAValue, SSAValue] = {}
        """The pages of the stages being built that are read widened (`widen`)."""

    def fail(self, op: Operation, why: str) -> PlanError:
        return PlanError(
            f'{self.program.name} "{self.program.program_name.data}": {op.name}: {why}'
        )

    # --- the program --------------------------------------------------------------

    def build(self, inputs: Sequence[SSAValue]) -> list[SSAValue]:
        """The program's ops, in the current implicit builder; its results (tensors)."""
        body = self.program.entry
        rank = len(self.program.grid_shape)
        for arg, v in zip(body.args[rank:], inputs):
            self.values[arg] = v
        for o in body.ops:
            if isinstance(o, TensorOp):
                self.tensor(o)
        if self.parallel and self.program.grid_shape:
            self.parallel_items()
        else:
            self.buffers()
            self.items(0)
        if self.scratch_ops:
            # A stage's pages are in buffers: the scratch goes after the last one.
            assert self.last_buffer is not None
            block = cast(Block, self.last_buffer.parent_block())
            block.insert_ops_after(self.scratch_ops, self.last_buffer)
        ret = cast(ReturnOp, body.last_op)
        return [self.result(v) for v in ret.values]

    def buffers(self) -> None:
        for o in self.program.entry.ops:
            if isinstance(o, BufferOp):
                self.buffer(o)

    def parallel_items(self) -> None:
        """The items as one `scf.parallel` over the grid (the `parallel` option), each
        with buffers of its own (a site's local memory, made in the loop's body: the
        threads that run items at once have one each), then the program's body."""
        body = self.program.entry
        grid = self.program.grid_shape
        blk = Block(arg_types=[INDEX] * len(grid))
        for axis, a in enumerate(blk.args):
            a.name_hint = body.args[axis].name_hint
            self.values[body.args[axis]] = a
        zeros, ones = [idx(0) for _ in grid], [idx(1) for _ in grid]
        scf.ParallelOp(zeros, [idx(e) for e in grid], ones, [blk])
        with ImplicitBuilder(blk):
            self.buffers()
            self.ops([o for o in body.ops if not isinstance(o, TensorOp | BufferOp | ReturnOp)])
            scf.ReduceOp()

    def items(self, axis: int) -> None:
        """The item loop over grid axis `axis` and, inside it, the next ones; inside
        the last, the program's body."""
        body = self.program.entry
        grid = self.program.grid_shape
        if axis == len(grid):
            self.ops([o for o in body.ops if not isinstance(o, TensorOp | BufferOp | ReturnOp)])
            return
        blk = Block(arg_types=[INDEX])
        blk.args[0].name_hint = body.args[axis].name_hint
        self.values[body.args[axis]] = blk.args[0]
        scf.ForOp(idx(0), idx(grid[axis]), idx(1), [], blk)
        with ImplicitBuilder(blk):
            self.items(axis + 1)
            scf.YieldOp()

    def ops(self, ops: Sequence[Operation]) -> None:
        i = 0
        while i < len(ops):
            o = ops[i]
            if isinstance(o, StageOp):
                run = siblings(ops, i)
                self.stages(run)
                i += len(run)
                continue
            i += 1
            if isinstance(o, LoadOp):
                self.load(o)
            elif isinstance(o, StoreOp):
                self.store(o)
            elif isinstance(o, KLoopOp):
                self.k_loop(o)
            elif isinstance(o, TensorOp | BufferOp):
                raise self.fail(o, "declared inside a K loop")
            else:
                raise self.fail(o, "cannot be converted")

    # --- tensors and buffers --------------------------------------------------------

    def tensor(self, o: TensorOp) -> None:
        plan = tensor_plan(o, self.tile)
        elem = o.handle.element_type
        full = MemRefType(elem, plan.padded)
        read: SSAValue | None = None
        if o.source is not None:
            src = self.values[o.source]
            buf = bufferization.ToBufferOp.build(
                operands=[src],
                result_types=[MemRefType(elem, plan.dims)],
                properties={"read_only": UnitAttr()},
            )
            given = buf.memref
            given.name_hint = o.tensor_name.data
            read = given
            if not plan.whole_tiles:
                padded = memref.AllocOp([], [], full).memref
                fill(0, elem, padded)
                copy(given, self._live(padded, plan))
                read = padded
        elif o.values is not None:
            read = self.globals.get(o, plan)
        elif plan.loaded:
            read = memref.AllocOp([], [], full).memref
            fill(0, elem, read)
        write = None
        if plan.stored:
            # An output of one tile row taller than the tensor (a product's m rows) is
            # held as its live rows: its stores write no padding row (nothing reads one).
            one_row = plan.padded[0] == self.tile[0] and plan.dims[0] < self.tile[0]
            live_only = one_row and Role(o.handle.role.data) == Role.OUTPUT and o.values is None
            rows = plan.dims[0] if live_only else plan.padded[0]
            write = memref.AllocOp([], [], MemRefType(elem, (rows, plan.padded[1]))).memref
            write.name_hint = o.tensor_name.data
            if Role(o.handle.role.data) != Role.OUTPUT or o.values is not None:
                # A state keeps what no store writes; an output is written whole.
                if read is None:
                    fill(0, elem, write)
                else:
                    copy(read, write)
        if read is not None and read.name_hint is None:
            read.name_hint = o.tensor_name.data
        self.held[o.result] = Held(plan, read, write)

    def _live(self, padded: SSAValue, plan: TensorPlan) -> SSAValue:
        rows, cols = plan.dims
        return view(padded, 0, (rows, cols), (plan.padded[1], 1))

    def buffer(self, o: BufferOp) -> None:
        bt = cast(BufferType, o.result.type)
        tr, tc = self.tile
        t = MemRefType(bt.element_type, (bt.depth.data, tr, tc * bt.tiles.data))
        made = self.local(t.element_type, t.get_shape())
        made.memref.name_hint = o.buffer_name.data
        self.values[o.result] = made.memref
        self.last_buffer = made

    def result(self, v: SSAValue) -> SSAValue:
        held = self.held[v]
        assert held.write is not None, "a returned tensor is stored (verified)"
        mem = held.write
        if cast(MemRefType[Attribute], mem.type).get_shape() != held.plan.dims:
            rows, cols = held.plan.dims
            live = memref.AllocOp([], [], MemRefType(_elem(mem), (rows, cols))).memref
            copy(self._live(mem, held.plan), live)
            mem = live
        t = bufferization.ToTensorOp(mem, restrict=True, writable=True)
        return t.tensor

    # --- pages ----------------------------------------------------------------------

    def page(self, o: Operation) -> SSAValue:
        """The page `o` writes: its slot of its buffer."""
        buf_v = cast(SSAValue, _writes_into(o))
        buf = self.values[buf_v]
        bt = cast(BufferType, buf_v.type)
        size = self.tile[0] * self.tile[1] * bt.tiles.data
        s = self.slots[o]
        at = s.static()
        if at is not None:
            offset = idx(at * size)
        else:
            assert self.loop is not None
            kb = self.loop.body.block.args[0]
            turn = add(mul(kb, s.per_trip), s.first)
            offset = mul(arith.RemUIOp(turn, idx(s.depth)).result, size)
        pt = page_type(bt.tiles.data, bt.element_type, self.tile)
        sizes = pt.get_shape()
        p = memref.ReinterpretCastOp(
            buf,
            [offset],
            [],
            [],
            [DYNAMIC_INDEX],
            list(sizes),
            [sizes[1], 1],
            pt,
        ).result
        return p

    # --- moves ----------------------------------------------------------------------

    def origin(self, o: TileMoveOp) -> SSAValue:
        """The block's first tile (linear), for this item and K block."""
        vars_ = [self.values[v] for v in o.origin_vars]
        form = geometry.single_linear(o.origin.data, f"{o.name} origin")
        t0 = linear(form, vars_)
        if o.table is not None and o.table_at is not None:
            table = self.held[o.table]
            assert table.read is not None, "a table is loaded from, so it is held"
            at = linear(geometry.single_linear(o.table_at.data, "table position"), vars_)
            cols = table.plan.dims[1]
            r = arith.DivUIOp(at, idx(cols)).result
            c = arith.RemUIOp(at, idx(cols)).result
            entry = memref.LoadOp.get(table.read, [r, c]).res
            t0 = add(t0, arith.IndexCastOp(entry, INDEX).result)
        return t0

    def move(self, o: TileMoveOp, tensor_mem: SSAValue, page: SSAValue, load: bool) -> None:
        """Copy the block's tiles between the tensor and the page."""
        held = self.held[cast(LoadOp | StoreOp, o).tensor]
        tr, tc = self.tile
        cols = held.plan.padded[1]
        tpr = cols // tc
        bh, bw = o.block_shape
        stride = o.stride.data
        w = bw * tc
        page_w = bh * w
        t0 = self.origin(o)

        def first(t: SSAValue) -> SSAValue:
            if tpr == 1:
                return mul(t, tr * cols)
            row = arith.DivUIOp(t, idx(tpr)).result
            col = arith.RemUIOp(t, idx(tpr)).result
            return add(mul(row, tr * cols), mul(col, tc))

        # A store into an output held as its live rows (`tensor`) writes those alone.
        rows = min(tr, cast(MemRefType[Attribute], tensor_mem.type).get_shape()[0])
        if bh == 1 or stride % tpr == 0:
            rows_apart = (stride // tpr) * tr * cols if bh > 1 else tr * cols
            shape, t_strides, p_strides = (bh, rows, w), (rows_apart, cols, 1), (w, page_w, 1)
            if load and bh > 1:
                # in the page's order, so that each page row (that row of every tile
                # row of the block) is written contiguously
                shape, t_strides, p_strides = (rows, bh, w), (cols, rows_apart, 1), (page_w, w, 1)
            t_view = view(tensor_mem, first(t0), shape, t_strides)
            p_view = view(page, 0, shape, p_strides)
            copy(t_view, p_view) if load else copy(p_view, t_view)
            return
        blk = Block(arg_types=[INDEX])
        with ImplicitBuilder(blk):
            a = blk.args[0]
            t = add(t0, mul(a, stride))
            t_view = view(tensor_mem, first(t), (tr, w), (cols, 1))
            p_view = view(page, mul(a, w), (tr, w), (page_w, 1))
            copy(t_view, p_view) if load else copy(p_view, t_view)
            scf.YieldOp()
        scf.ForOp(idx(0), idx(bh), idx(1), [], blk)

    def load(self, o: LoadOp) -> None:
        held = self.held[o.tensor]
        assert held.read is not None, "a loaded tensor is held for reading"
        page = self.page(o)
        page.name_hint = o.result.name_hint
        self.move(o, held.read, page, load=True)
        self.values[o.result] = page

    def store(self, o: StoreOp) -> None:
        held = self.held[o.tensor]
        assert held.write is not None, "a stored tensor has a buffer to write"
        self.move(o, held.write, self.values[o.page], load=False)

    # --- stages ---------------------------------------------------------------------

    def stages(self, run: Sequence[StageOp]) -> None:
        """One stage, or siblings (`siblings`): each stage's page and the zeros it
        starts with, then its rows (`Row`) `ROWS` at a time, each group one
        `linalg.generic` (`rows`)."""
        first = run[0]
        kinds = first.iter_kinds
        ext = first.iter_extents
        summed = any(k == IterKind.SUM and e > 1 for k, e in zip(kinds, ext))
        every = loop_axes(first)
        forms: list[list[LinearForm]] = []
        rows: list[Row] = []
        by_row = row_axis(run) if summed else None
        for o in run:
            name = o.stage_name.data
            fs = [
                cast(LinearForm, linear_form(m.results[0], m.num_dims, m.num_symbols))
                for m in (*o.in_maps, o.out_map)
            ]
            if any(c < 0 for f in fs for c in (*f.dims, *f.syms, f.const)):
                raise self.fail(o, f"stage '{name}': a map with a negative coefficient")
            forms.append(fs)
            out_t = cast(PageType, o.result.type)
            out_elem = out_t.element_type
            if summed and not isinstance(out_elem, IntegerType) and out_elem != f32:
                raise self.fail(o, f"stage '{name}': a sum into a {out_elem} page (fp32 sums only)")
            page = self.page(o)
            page.name_hint = o.result.name_hint
            written = math.prod(e for d, e in enumerate(ext) if kinds[d] == IterKind.PAR)
            if written < self.tile[0] * self.tile[1] * out_t.tiles.data and read_outside(o, fs[-1]):
                fill(0, out_elem, page)  # what it does not write is zeros
            elif summed:
                fill(0, out_elem, Generic(self, kinds, every, []).strided(page, fs[-1])[0])
            self.values[o.result] = page
            if by_row is None:
                rows.append(Row(o, tuple(fs), page))
            else:
                rows += [
                    Row(o, tuple(f.fixed(by_row, r) for f in fs), page, (by_row, r))
                    for r in range(ext[by_row])
                ]
        read = {
            d
            for o, fs in zip(run, forms)
            for i, f in enumerate(fs)
            if i == len(o.ins) or o.indirect_of[i] < 0
            for d, c in enumerate(f.dims)
            if c
        }
        missing = [a.axis for a in every if a.axis not in read]
        if missing:
            raise self.fail(
                first, f"stage '{first.stage_name.data}': axis d{missing[0]} is read by no map"
            )
        loops = loop_axes(first, by_row)
        factored = factored_at(rows, loops) if summed else None
        tiles = None
        if factored is not None and self.amx:
            tiles = amx_lanes(rows, factored[1], factored[0], loops)
        # What the tiles read is the bf16 page itself.
        skip = {tiles.x_page} if tiles is not None else set()
        self.widened = self.widen(run, forms, loops, skip) if summed else {}
        if factored is not None:
            self.factored(rows, loops, *factored, tiles)
            return
        for g in range(0, len(rows), ROWS):
            self.rows(rows[g : g + ROWS], loops, summed)

    def rows(self, rows: Sequence[Row], loops: Sequence[LoopAxis], summed: bool) -> None:
        """One `linalg.generic` over `loops` computing `rows`, an output each, each
        input page read once however many rows read it."""
        gen = Generic(self, rows[0].stage.iter_kinds, loops, [])
        reads = [gen.add_reads(r, [r.yielded]) for r in rows]
        accs = [gen.add_output(r.page, r.forms[-1]) for r in rows]

        def body(ins: Sequence[SSAValue], accs_in: Sequence[SSAValue]) -> list[SSAValue]:
            values = [gen.clone(r, ins, m)[r.yielded] for r, m in zip(rows, reads)]
            return [accumulate(accs_in[a], v) for a, v in zip(accs, values)] if summed else values

        gen.build(body)

    def factored(
        self,
        rows: Sequence[Row],
        loops: Sequence[LoopAxis],
        split: int,
        terms: Sequence[tuple[SSAValue, SSAValue]],
        tiles: AmxLanes | None = None,
    ) -> None:
        """Each row's sum of `a * b`, where `b` is the same all along loop `split`
        (`factored_at`), as the sum of `a` along it times `b`: the loops outside it are
        `scf.for`s, and inside them, for each `ROWS` rows, one generic sums each row's
        `a` over the loops from `split` on into a scratch (held in registers while it
        sums), another adds the scratch times `b` into the output (over the loops
        inside `split`). One multiplication a term where there were two, as the
        reference computes a Q8_0 block: its lanes' sum, scaled once. With more than
        `ROWS` rows, the int8 values they all read are widened once a trip for all of
        them (`slices`)."""
        kinds = rows[0].stage.iter_kinds
        rest = loops[split + 1 :]
        shape = [a.extent for a in rest]
        size = math.prod(shape)
        pairs = list(zip(rows, terms))
        groups = [pairs[g : g + ROWS] for g in range(0, len(pairs), ROWS)]
        # The tiles' sums are all stored before the first group scales them.
        held = len(rows) if tiles is not None else len(groups[0])
        scratch = self.scratch(f"{rows[0].stage.stage_name.data}_sums", held * size)

        def nest(at: int, outer: list[tuple[LoopAxis, SSAValue]]) -> None:
            if at < split:
                blk = Block(arg_types=[INDEX])
                scf.ForOp(idx(0), idx(loops[at].extent), idx(1), [], blk)
                with ImplicitBuilder(blk):
                    nest(at + 1, [*outer, (loops[at], blk.args[0])])
                    scf.YieldOp()
                return
            if tiles is not None:
                self.tile_sums(tiles, loops[split:], outer, scratch)
            wide = tiles is None and len(groups) > 1
            given = self.slices(rows, terms, loops[split:], outer) if wide else {}
            for g, part in enumerate(groups):
                first = g * ROWS if tiles is not None else 0
                sums = [dense(scratch, (first + j) * size, shape) for j in range(len(part))]
                if tiles is None:
                    self.lane_sums(part, sums, loops[split:], outer, given)
                scale = Generic(self, kinds, rest, outer)
                reads = [scale.add_reads(r, [b]) for r, (_, b) in part]
                summed = [scale.add_scratch(v, 0, output=False) for v in sums]
                outs = [scale.add_output(r.page, r.forms[-1]) for r, _ in part]

                def scaled(ins: Sequence[SSAValue], accs: Sequence[SSAValue]) -> list[SSAValue]:
                    return [
                        accumulate(accs[y], arith.MulfOp(ins[s], scale.clone(r, ins, m)[b]).result)
                        for (r, (_, b)), m, s, y in zip(part, reads, summed, outs)
                    ]

                scale.build(scaled)

        nest(0, [])

    def lane_sums(
        self,
        part: Sequence[tuple[Row, tuple[SSAValue, SSAValue]]],
        sums: Sequence[SSAValue],
        loops: Sequence[LoopAxis],
        outer: Sequence[tuple[LoopAxis, SSAValue]],
        given: dict[tuple[SSAValue, LinearForm], SSAValue],
    ) -> None:
        """Each row's sum of its `a` over `loops` (a block's lanes, then its columns)
        into its scratch `sums`: one generic for the rows of `part`."""
        kinds = part[0][0].stage.iter_kinds
        for v in sums:
            fill(0, f32, v)
        lanes = Generic(self, kinds, loops, outer, given)
        reads = [lanes.add_reads(r, [a]) for r, (a, _) in part]
        into = [lanes.add_scratch(v, 1, output=True) for v in sums]

        def body(ins: Sequence[SSAValue], accs: Sequence[SSAValue]) -> list[SSAValue]:
            return [
                accumulate(accs[s], lanes.clone(r, ins, m)[a])
                for (r, (a, _)), m, s in zip(part, reads, into)
            ]

        lanes.build(body)

    def vnni(
        self,
        tiles: AmxLanes,
        loops: Sequence[LoopAxis],
        outer: Sequence[tuple[LoopAxis, SSAValue]],
    ) -> list[SSAValue]:
        """This trip's block of int8 weights (`loops`: its 32 lanes, its columns) as
        bf16 tiles of the AMX unit's right-hand operand, a tile per 16 columns: row `p`
        of a tile holds lanes `2p` and `2p + 1`, interleaved column by column
        (`interleave`, into a byte scratch that `memref.view` reads as words and as
        bf16)."""
        lanes, cols = loops
        kinds = tiles.stage.iter_kinds
        q = Generic(self, kinds, loops, outer).strided(self.values[tiles.q_page], tiles.q_form)[0]
        pairs, n = lanes.extent // 2, TILE_COLUMNS
        scratch = self.scratch("q8_vnni", 4 * pairs * cols.extent, i8)
        words = memref.ViewOp(scratch, idx(0), [], MemRefType(i32, (pairs, cols.extent)))
        interleave(q, tiles.q_form.dims[lanes.axis], words.result)
        drop(q)  # only its offset was wanted: the pairs view the page anew
        both = memref.ViewOp(
            scratch, idx(0), [], MemRefType(BFloat16Type(), (pairs, 2 * cols.extent))
        )
        tile_t = TileType(pairs, 2 * n, BFloat16Type())
        return [
            TileLoadOp(
                view(both.result, 2 * n * h, tile_t.dims, (2 * cols.extent, 1)),
                [idx(0), idx(0)],
                tile_t,
            ).res
            for h in range(cols.extent // n)
        ]

    def tile_sums(
        self,
        tiles: AmxLanes,
        loops: Sequence[LoopAxis],
        outer: Sequence[tuple[LoopAxis, SSAValue]],
        scratch: SSAValue,
    ) -> None:
        """Every row's lanes' sums, as tile products: this trip's weights (`vnni`),
        times the rows' bf16 activations along the lanes, up to 16 rows a tile; row
        `j`'s 16 columns `h` stored at `j * columns + 16 h` of `scratch`, where
        `lane_sums` would have summed them. All the products are made before any is
        stored: the unit holds 8 tiles and does not rename them, so a tile reused at
        once would wait for the store of the last."""
        lanes, cols = loops
        weights = self.vnni(tiles, loops, outer)
        x_page = self.values[tiles.x_page]
        rows, stride = tiles.x_rows, tiles.x_stride
        products: list[tuple[int, int, SSAValue]] = []
        for r0 in range(0, len(rows), TILE_ROWS):
            n = min(TILE_ROWS, len(rows) - r0)
            x = Generic(self, tiles.stage.iter_kinds, [lanes], outer).strided(x_page, rows[r0])[0]
            x_tile = TileType(n, lanes.extent, BFloat16Type())
            a = TileLoadOp(view(x, 0, x_tile.dims, (stride, 1)), [idx(0), idx(0)], x_tile).res
            drop(x)  # only its offset was wanted
            for h, w in enumerate(weights):
                acc = TileZeroOp(TileType(n, TILE_COLUMNS, f32)).res
                products.append((r0, h, TileMulFOp(a, w, acc).res))
        for r0, h, product in products:
            n = cast(TileType, product.type).dims[0]
            at = r0 * cols.extent + h * TILE_COLUMNS
            into = view(scratch, at, (n, TILE_COLUMNS), (cols.extent, 1))
            TileStoreOp(into, [idx(0), idx(0)], product)

    def slices(
        self,
        rows: Sequence[Row],
        terms: Sequence[tuple[SSAValue, SSAValue]],
        loops: Sequence[LoopAxis],
        outer: Sequence[tuple[LoopAxis, SSAValue]],
    ) -> dict[tuple[SSAValue, LinearForm], SSAValue]:
        """The integer inputs that every row's lanes' sum (`factored`) reads at the same
        place, and only converted to f32 (`arith.sitofp`): a fold's int8 weights. What
        one trip of the loops `outer` reads of each is converted once into an f32
        scratch (at most `SLICE` elements, dense over `loops` in order) that each
        `ROWS` rows then read, where each would convert the same values anew. The same
        values, converted once."""
        shared: dict[tuple[SSAValue, LinearForm], tuple[Row, int]] | None = None
        for r, (a, _) in zip(rows, terms):
            o = r.stage
            mine = {
                (o.ins[i], r.forms[i]): (r, i)
                for i in body_slice(o, [a])[1]
                if o.indirect_of[i] < 0 and read_widened(o.body.block.args[i], arith.SIToFPOp)
            }
            shared = mine if shared is None else {k: v for k, v in shared.items() if k in mine}
        given: dict[tuple[SSAValue, LinearForm], SSAValue] = {}
        for key, (r, i) in (shared or {}).items():
            form = r.forms[i]
            gen = Generic(self, r.stage.iter_kinds, [x for x in loops if form.dims[x.axis]], outer)
            sizes = [x.extent for x in gen.loops]
            if math.prod(sizes) > SLICE:
                continue
            src, _ = gen.strided(self.values[key[0]], form)
            name = f"{key[0].name_hint or 'page'}_f32"
            wide = dense(self.scratch(name, math.prod(sizes)), 0, sizes)
            convert(src, wide, arith.SIToFPOp)
            given[key] = wide
        return given

    def widen(
        self,
        run: Sequence[StageOp],
        forms: Sequence[Sequence[LinearForm]],
        loops: Sequence[LoopAxis],
        skip: set[SSAValue],
    ) -> dict[SSAValue, SSAValue]:
        """The pages a sum reads only to widen them to f32 (`arith.extf`), one element
        for all of its innermost loop (a fold's activation, one value times a row of
        weights), each widened once into an f32 scratch: the inner loop then reads an
        f32, which the CPU broadcasts as it loads, where a bf16 would be widened and
        broadcast anew for every row of weights. The same values: `extf` is exact."""
        inner = loops[-1].axis
        fit: dict[SSAValue, bool] = {}
        for o, fs in zip(run, forms):
            tables = {v for v in o.indirect_of if v >= 0}
            for a in o.body.block.args:
                i = a.index
                ok = (
                    o.indirect_of[i] < 0
                    and i not in tables
                    and fs[i].dims[inner] == 0
                    and read_widened(a, arith.ExtFOp)
                )
                fit[o.ins[i]] = fit.get(o.ins[i], True) and ok
        widened: dict[SSAValue, SSAValue] = {}
        for page, ok in fit.items():
            if not ok or page in skip:
                continue
            rows, cols = cast(MemRefType[Attribute], self.values[page].type).get_shape()
            scratch = self.scratch(f"{page.name_hint or 'page'}_f32", rows * cols)
            wide = dense(scratch, 0, (rows, cols))
            convert(self.values[page], wide, arith.ExtFOp)
            widened[page] = wide
        return widened

    def scratch(self, name: str, size: int, elem: Attribute = f32) -> SSAValue:
        """A `memref.alloca` of `size` elements (f32 unless said), placed by `build`
        after the buffers' allocas (an alloca inside a loop would take stack space
        every trip): working space of a sum that no buffer declares, as a site's
        registers."""
        made = self.local(elem, [size])
        made.detach()
        made.memref.name_hint = name
        self.scratch_ops.append(made)
        return made.memref

    def local(self, elem: Attribute, shape: Sequence[int]) -> memref.AllocaOp:
        """A site's memory: a `memref.alloca`, made once before the item loop, or with
        `parallel` inside the parallel loop, one per item (every thread its own;
        `convert-scf-to-openmp` frees them after each item, in an `alloca_scope`)."""
        return memref.AllocaOp.get(elem, shape=shape)

    # --- the K loop -----------------------------------------------------------------

    def k_loop(self, o: KLoopOp) -> None:
        inits = [self.values[v] for v in o.inits]
        blk = Block(arg_types=[INDEX, *(v.type for v in inits)])
        blk.args[0].name_hint = o.induction_var.name_hint
        loop = scf.ForOp(idx(0), idx(o.trips.data), idx(1), inits, blk)
        outer, self.loop = self.loop, loop
        self.values[o.induction_var] = blk.args[0]
        for a, b in zip(o.body.block.args[1:], blk.args[1:]):
            self.values[a] = b
            b.name_hint = a.name_hint
        with ImplicitBuilder(blk):
            self.ops([x for x in o.body.block.ops if not isinstance(x, KYieldOp)])
            y = cast(KYieldOp, o.body.block.last_op)
            scf.YieldOp(*(self.values[v] for v in y.values))
        self.loop = outer
        for r, v in zip(o.res, loop.results):
            self.values[r] = v
            v.name_hint = r.name_hint


SLICE = 4096
"""f32 elements of the most of a fold's weights `slices` widens at once: 16 KiB, which
stay in a core's first-level cache while each `ROWS` rows read them."""

SCRATCH = 1024
"""Outputs a factored sum (`factored_at`) may hold in scratch a stage: with `COLUMNS`,
ample for a fold's row block, and small enough to live in registers and L1."""


TILE_COLUMNS = 16
"""f32 sums an AMX tile holds in a row (64 bytes): the columns of one weight tile."""

TILE_ROWS = 16
"""Rows an AMX tile holds: the rows of activations one tile product takes."""

AMX_ROWS = 8
"""The fewest rows whose lanes' sums go on AMX tiles: with fewer, interleaving the
weights for the unit costs more than the lanes' loop it replaces."""


@dataclass(frozen=True)
class AmxLanes:
    """A factored sum's lanes on the AMX unit (`amx_lanes`): the bf16 page its rows'
    activations come from, each row's map there, and the int8 page and map of the
    weights they all multiply."""

    stage: StageOp
    x_page: SSAValue
    x_rows: tuple[LinearForm, ...]
    x_stride: int
    """Elements from one row's activations to the next's."""
    q_page: SSAValue
    q_form: LinearForm


def amx_lanes(
    rows: Sequence[Row],
    terms: Sequence[tuple[SSAValue, SSAValue]],
    split: int,
    loops: Sequence[LoopAxis],
) -> AmxLanes | None:
    """Whether the lanes' sums of a factored sum (`factored_at`) can be AMX tile
    products, and what they read: each row's `a` is `extf(x) * sitofp(q)` of a bf16
    `x` and an int8 `q` (a Q8_0 block's terms, exact in bf16), the loops summed are
    32 lanes then columns in whole tiles of 16, `x` runs along the lanes (contiguous)
    with the rows at one stride, and every row reads the same
    weights, contiguous along the columns. Else None: `lane_sums` sums them."""
    if len(loops) - split != 2 or len(rows) < AMX_ROWS:
        return None
    lanes, cols = loops[split:]
    if lanes.extent != 32 or lanes.step != 1 or cols.step != 1 or cols.extent % TILE_COLUMNS:
        return None
    found: list[tuple[SSAValue, LinearForm, SSAValue, LinearForm]] = []
    for row, (a, _) in zip(rows, terms):
        product = a.owner
        if not isinstance(product, arith.MulfOp):
            return None
        ops = {type(v.owner): v.owner for v in (product.lhs, product.rhs)}
        ext, to_f = ops.get(arith.ExtFOp), ops.get(arith.SIToFPOp)
        if not isinstance(ext, arith.ExtFOp) or not isinstance(to_f, arith.SIToFPOp):
            return None
        x, q = ext.input, to_f.input
        if not isinstance(x, BlockArgument) or not isinstance(q, BlockArgument):
            return None
        if x.type != BFloat16Type() or q.type != i8 or ext.result.type != f32:
            return None
        o = row.stage
        fx, fq = row.forms[x.index], row.forms[q.index]
        if fx.dims[lanes.axis] != 1 or fx.dims[cols.axis]:
            return None
        if fq.dims[cols.axis] != 1 or not fq.dims[lanes.axis]:
            return None
        found.append((o.ins[x.index], fx, o.ins[q.index], fq))
    x_page, fx0, q_page, fq = found[0]
    gaps = {b[1].const - a[1].const for a, b in itertools.pairwise(found)}
    if any(f[0] is not x_page or f[2] is not q_page or f[3] != fq for f in found):
        return None
    if any(f[1].dims != fx0.dims for f in found) or len(gaps) > 1 or min(gaps, default=32) < 32:
        return None
    stride = gaps.pop() if gaps else lanes.extent
    return AmxLanes(rows[0].stage, x_page, tuple(f[1] for f in found), stride, q_page, fq)


def drop(v: SSAValue) -> None:
    """Erase the unused op that made `v`."""
    assert not v.uses
    op = cast(Operation, v.owner)
    op.detach()
    op.erase()


def interleave(q: SSAValue, step: int, out: SSAValue) -> None:
    """`out[p, c]` (i32) the bf16 of `q[2p, c]` (int8, its lanes `step` apart) in its
    low half and of `q[2p + 1, c]` in its high: a pair of lanes as the AMX unit reads
    it. A weight's bf16 is the top half of its f32 (an int8 is exact in both), so each
    pair is made on whole words."""
    pairs, cols = cast(MemRefType[Attribute], out.type).get_shape()
    even, odd = (view(q, r * step, (pairs, cols), (2 * step, 1)) for r in (0, 1))
    blk = Block(arg_types=[i8, i8, i32])
    with ImplicitBuilder(blk):
        lo, hi = (arith.BitcastOp(arith.SIToFPOp(v, f32).result, i32).result for v in blk.args[:2])
        top = arith.ConstantOp(IntegerAttr(-(1 << 16), i32)).result
        word = arith.OrIOp(
            arith.ShRUIOp(lo, arith.ConstantOp(IntegerAttr(16, i32)).result).result,
            arith.AndIOp(hi, top).result,
        )
        LinalgYieldOp(word.result)
    every = AffineMapAttr(AffineMap.identity(2))
    GenericOp([even, odd], [out], Region(blk), [every] * 3, [IteratorTypeAttr.parallel()] * 2)


def read_outside(o: StageOp, out: LinearForm) -> bool:
    """Whether something may read stage `o`'s page outside the elements the stage
    writes, which are zeros: a store or a carry reads it whole, a stage what its map
    reaches (a fold's block sums are read where they are written, and so need no
    zeros around them)."""
    written = np.unique(out.over_axes(o.iter_extents))
    for use in o.result.uses:
        user = use.operation
        if not isinstance(user, StageOp):
            return True
        for i, v in enumerate(user.ins):
            if v is not o.result:
                continue
            m = user.in_maps[i]
            f = linear_form(m.results[0], m.num_dims, m.num_symbols)
            if f is None or any(f.syms):
                return True
            if not np.isin(f.over_axes(user.iter_extents), written).all():
                return True
    return False


def read_widened(arg: BlockArgument, to: type[arith.ExtFOp] | type[arith.SIToFPOp]) -> bool:
    """Whether a stage's body reads input `arg` only through `to` (to f32)."""
    return bool(arg.uses) and all(
        isinstance(u.operation, to) and u.operation.result.type == f32 for u in arg.uses
    )


def convert(src: SSAValue, dst: SSAValue, op: type[arith.ExtFOp] | type[arith.SIToFPOp]) -> None:
    """`dst = op(src)` element by element: a parallel `linalg.generic`."""
    blk = Block(arg_types=[_elem(src), f32])
    with ImplicitBuilder(blk):
        LinalgYieldOp(op(blk.args[0], f32).result)
    rank = len(cast(MemRefType[Attribute], dst.type).get_shape())
    every = AffineMapAttr(AffineMap.identity(rank))
    GenericOp([src], [dst], Region(blk), [every, every], [IteratorTypeAttr.parallel()] * rank)


def yielded(o: StageOp) -> SSAValue:
    """The value a stage's body yields at one point."""
    return cast(YieldOp, o.body.block.last_op).value


def accumulate(acc: SSAValue, v: SSAValue) -> SSAValue:
    """`acc + v`, a sum's step; the product `v` is, when it is one, fused into the add
    (`CONTRACT`)."""
    if isinstance(acc.type, IntegerType):
        return arith.AddiOp(acc, v).result
    product = v.owner
    if isinstance(product, arith.MulfOp):
        product.fastmath = CONTRACT
        return arith.AddfOp(acc, v, CONTRACT).result
    return arith.AddfOp(acc, v).result


def body_slice(o: StageOp, roots: Sequence[SSAValue]) -> tuple[list[Operation], set[int]]:
    """The ops of `o`'s body that `roots` are computed from, in order, and the inputs
    they read (for one read through a table, the table too)."""
    need = set(roots)
    ops: list[Operation] = []
    for op in reversed(list(o.body.block.ops)):
        if any(r in need for r in op.results):
            ops.append(op)
            need.update(op.operands)
    args = {a.index for a in o.body.block.args if a in need}
    args |= {o.indirect_of[i] for i in args if o.indirect_of[i] >= 0}
    return ops[::-1], args


def varies_along(o: StageOp, forms: Sequence[LinearForm], axis: int) -> set[SSAValue]:
    """The values of `o`'s body that change along stage axis `axis`: inputs whose maps
    read it, its `spatial.index`, and what is computed from them."""
    block = o.body.block
    varying: set[SSAValue] = {a for a in block.args if forms[a.index].dims[axis]}
    for op in block.ops:
        if (isinstance(op, IndexOp) and op.dim.data == axis) or varying & set(op.operands):
            varying.update(op.results)
    return varying


def factored_at(
    rows: Sequence[Row], loops: Sequence[LoopAxis]
) -> tuple[int, list[tuple[SSAValue, SSAValue]]] | None:
    """Where the sums of `run` factor, and each stage's two factors: the position of
    the innermost `sum` loop, when every stage is an fp32 sum of `a * b` (its body
    ends so) with `b` the same all along that loop's axis and `a` not, read through no
    table, and the loops inside it hold at most `SCRATCH` outputs. A Q8_0 block's sum
    is such: `x * q` along the block's 32 lanes, times the block's scale."""
    kinds = rows[0].stage.iter_kinds
    sums = [j for j, a in enumerate(loops) if kinds[a.axis] == IterKind.SUM]
    if not sums or math.prod(a.extent for a in loops[sums[-1] + 1 :]) > SCRATCH:
        return None
    axis = loops[sums[-1]].axis
    terms: list[tuple[SSAValue, SSAValue]] = []
    for row in rows:
        o = row.stage
        product = row.yielded.owner
        if (
            any(v >= 0 for v in o.indirect_of)
            or cast(PageType, o.result.type).element_type != f32
            or not isinstance(product, arith.MulfOp)
        ):
            return None
        varying = varies_along(o, row.forms, axis)
        pair = next(
            (
                (a, b)
                for a, b in ((product.lhs, product.rhs), (product.rhs, product.lhs))
                if a in varying and b not in varying
            ),
            None,
        )
        if pair is None:
            return None
        terms.append(pair)
    return sums[-1], terms


@dataclass(frozen=True)
class Reads:
    """What a generic's body needs of a stage: the body ops it computes, in order, and
    the generic's input for each stage input they read directly."""

    ops: list[Operation]
    args: set[int]
    at: dict[int, int]
    wide: set[int]
    """The inputs read already converted to f32 (`widen`, `slices`)."""


class Generic:
    """A `linalg.generic` under construction: `loops`, the stage loops it runs (its
    dims, outermost first), inside `outer`, the `scf.for`s of the loops outside it
    with their induction variables; its operands strided views of pages (each read
    once), or of a scratch."""

    def __init__(
        self,
        pb: ProgramBuilder,
        kinds: Sequence[IterKind],
        loops: Sequence[LoopAxis],
        outer: Sequence[tuple[LoopAxis, SSAValue]],
        given: dict[tuple[SSAValue, LinearForm], SSAValue] | None = None,
    ):
        self.pb = pb
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

    def picks(self, f: LinearForm) -> list[int]:
        """The generic's loops that map `f` reads along."""
        return [j for j, a in enumerate(self.loops) if f.dims[a.axis]]

    def strided(self, mem: SSAValue, f: LinearForm) -> tuple[SSAValue, AffineMapAttr]:
        """The elements of `mem` that map `f` reads in this generic, and its map: the
        loops outside it fix the view's offset, its own loops are the view's dims."""
        picks = self.picks(f)
        offset: SSAValue | int = f.const
        for a, iv in self.outer:
            if f.dims[a.axis]:
                offset = add(mul(iv, f.dims[a.axis] * a.step), offset)
        sizes = [self.loops[j].extent for j in picks]
        strides = [f.dims[self.loops[j].axis] * self.loops[j].step for j in picks]
        return view(mem, offset, sizes, strides), _dims(len(self.loops), picks)

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
            if key in self.given or o.ins[i] in self.pb.widened:
                wide.add(i)
            if key not in self.seen:
                if key in self.given:
                    v, m = self.given[key], _dims(len(self.loops), self.picks(forms[i]))
                else:
                    mem = self.pb.widened.get(o.ins[i], self.pb.values[o.ins[i]])
                    v, m = self.strided(mem, forms[i])
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
        m = _dims(n, range(skip, n))
        if output:
            self.outs.append(mem)
            self.out_maps.append(m)
            return len(self.outs) - 1
        self.ins.append(mem)
        self.in_maps.append(m)
        return len(self.ins) - 1

    def index(self, row: Row, axis: int) -> SSAValue:
        """Stage axis `axis`'s index inside the body: from the loops outside and the
        generic's own (`linalg.index`), a split axis from its two loops; the row's
        for its row axis, 0 for an axis of extent 1, which has no loop."""
        if row.at is not None and row.at[0] == axis:
            return idx(row.at[1])
        acc: SSAValue = idx(0)
        for a, iv in self.outer:
            if a.axis == axis:
                acc = add(acc, mul(iv, a.step))
        for j, a in enumerate(self.loops):
            if a.axis == axis:
                acc = add(acc, mul(LinalgIndexOp(j).result, a.step))
        return acc

    def clone(self, row: Row, ins: Sequence[SSAValue], reads: Reads) -> dict[SSAValue, SSAValue]:
        """The row's stage's body ops that `reads` names, inside the generic's body
        (whose input arguments are `ins`): each stage value to its value here."""
        o, forms = row.stage, row.forms
        ext = o.iter_extents
        block = o.body.block
        mapping: dict[SSAValue, SSAValue] = {block.args[i]: ins[p] for i, p in reads.at.items()}
        for i in sorted(reads.args):
            via = o.indirect_of[i]
            if via < 0:
                continue
            f = forms[i]
            off: SSAValue = idx(f.const)
            for d, c in enumerate(f.dims):
                if c and ext[d] > 1:
                    off = add(off, mul(self.index(row, d), c))
            entry = mapping[block.args[via]]
            off = add(off, mul(arith.IndexCastOp(entry, INDEX).result, f.syms[0]))
            pt = cast(PageType, o.ins[i].type)
            size = self.pb.tile[0] * self.pb.tile[1] * pt.tiles.data
            flat = view(self.pb.values[o.ins[i]], 0, (size,), (1,))
            mapping[block.args[i]] = memref.LoadOp.get(flat, [off]).res
        for inner in reads.ops:
            if (
                isinstance(inner, arith.ExtFOp | arith.SIToFPOp)
                and isinstance(inner.input, BlockArgument)
                and inner.input.index in reads.wide
            ):
                mapping[inner.result] = mapping[inner.input]  # read widened
            elif isinstance(inner, IndexOp):
                mapping[inner.result] = self.index(row, inner.dim.data)
            else:
                c = inner.clone(value_mapper=mapping)  # the implicit builder takes it
                mapping.update(zip(inner.results, c.results))
        return mapping

    def build(
        self, body: Callable[[Sequence[SSAValue], Sequence[SSAValue]], Sequence[SSAValue]]
    ) -> None:
        """The generic, its body's yields `body(input args, output args)`."""
        blk = Block(arg_types=[*(_elem(v) for v in self.ins), *(_elem(v) for v in self.outs)])
        k = len(self.ins)
        with ImplicitBuilder(blk):
            LinalgYieldOp(*body(blk.args[:k], blk.args[k:]))
        iterators = [
            IteratorTypeAttr.reduction()
            if self.kinds[a.axis] == IterKind.SUM
            else IteratorTypeAttr.parallel()
            for a in self.loops
        ]
        GenericOp(self.ins, self.outs, Region(blk), [*self.in_maps, *self.out_maps], iterators)


# --------------------------------------------------------------------------------------
# Constant tensors
# --------------------------------------------------------------------------------------


class GlobalTable:
    """The private `memref.global`s the pass makes for `values` tensors, named after
    them, at the top of the module the pass runs on."""

    def __init__(self, module: ModuleOp):
        self.module = module

    def get(self, o: TensorOp, plan: TensorPlan) -> SSAValue:
        """`o`'s padded values as a global (made now), read where the builder is."""
        assert o.values is not None
        vals = dense_array(o.values).reshape(plan.dims)
        padded = np.zeros(plan.padded, dtype=vals.dtype)
        padded[: plan.dims[0], : plan.dims[1]] = vals
        elem = o.handle.element_type
        t = MemRefType(elem, plan.padded)
        base = name = f"{o.tensor_name.data}__values"
        n = 0
        while SymbolTable.lookup_symbol(self.module, name) is not None:
            n += 1
            name = f"{base}_{n}"
        init = DenseIntOrFPElementsAttr.from_list(
            cast(Any, TensorType(elem, plan.padded)), padded.reshape(-1).tolist()
        )
        g = memref.GlobalOp.get(StringAttr(name), t, init, StringAttr("private"), UnitAttr())
        g.detach()  # made inside a program's builder; it belongs to the module
        self.module.body.block.insert_op_before(g, cast(Operation, self.module.body.block.first_op))
        return memref.GetGlobalOp(name, t).memref


def _decline(program: ProgramOp, why: str) -> PlanError:
    return PlanError(f'{program.name} "{program.program_name.data}": {why}')


class ConvertProgram(RewritePattern):
    """A `spatial.view` or `spatial.fold` -> its buffers, item loops, copies and
    generics (`ProgramBuilder`), with the module's globals table the pass made."""

    def __init__(self, globals_: GlobalTable, parallel: bool, amx: bool):
        self.globals = globals_
        self.parallel = parallel
        self.amx = amx

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ProgramOp):
            return
        slots = ring_slots(op)
        why = ring_conflict(op, slots)
        if why is not None:
            raise _decline(op, why)
        block = Block()
        builder = ProgramBuilder(op, slots, self.globals, self.parallel, self.amx)
        with ImplicitBuilder(block):
            results = builder.build(list(op.ins))
        ops = list(block.ops)
        for o in ops:
            o.detach()
        rewriter.insert(ops, InsertPoint.before(op))
        for old, new in zip(op.results, results):
            new.name_hint = old.name_hint
            rewriter.replace_all_uses_with(old, new)
        rewriter.erase(op)


@dataclass(frozen=True)
class ConvertSpatialToLinalgPass(ModulePass):
    """
    Every `spatial` program as `scf`, `memref`, `linalg` and `arith`.

    Options:
      parallel  a program's items as one `scf.parallel`, each with buffers of its own
                (allocas inside the loop), for `convert-scf-to-openmp` to run on
                threads (what `--engine native --threads N` compiles).
      amx       a Q8_0 block's lanes' sum (bf16 activations times int8 weights) on the
                tile unit of x86's AMX-BF16, upstream's `x86.amx` ops (`amx_lanes`);
                what the native engine compiles on a host that has the unit.
    """

    name = "convert-spatial-to-linalg"

    parallel: bool = False
    amx: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            ConvertProgram(GlobalTable(op), self.parallel, self.amx),
            apply_recursively=False,
            walk_regions_first=False,
        ).rewrite_module(op)
