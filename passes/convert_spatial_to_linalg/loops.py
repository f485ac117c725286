"""
The plan of a stage's loops: which stages one generic computes (siblings, rows), the
generic's loops in order (`sum` axes outside, the output's contiguous axis innermost,
split into blocks of `COLUMNS` outputs when it sums), and where a sum factors (a Q8_0
block: its lanes' sum, scaled once). Numbers and values read from the IR, no op built.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import StringAttr, f32
from xdsl.ir import BlockArgument, Operation, SSAValue

from xdsl_spatial.core.geometry import LinearForm, linear_form
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    IndexOp,
    IterKind,
    PageType,
    ProgramOp,
    ReturnOp,
    StageOp,
    StoreOp,
    TensorOp,
    YieldOp,
)

COLUMNS = 32
"""Outputs the innermost loop of a summing generic covers: two 512-bit vectors of f32."""

ROWS = 8
"""Sibling stages (a fold's rows) one generic computes at most: with `COLUMNS`, 16
vector accumulators, which stay in registers."""

SLICE = 4096
"""f32 elements of the most of a fold's weights `slices` widens at once: 16 KiB, which
stay in a core's first-level cache while each `ROWS` rows read them."""

SCRATCH = 1024
"""Outputs a factored sum (`factored_at`) may hold in scratch a stage: with `COLUMNS`,
ample for a fold's row block, and small enough to live in registers and L1."""

KERNEL = "kernel"
"""The attribute of a `spatial.stage` that names the kernel its sum is built as, set by
a target's pass (`spatial-native-kernels`); a stage without it is built the plain way."""

STREAM = "stream"
"""A stage's sum streams what it reads: a page only it reads is read where its tensor
holds it (a product of one row's weight, each element once; attention's caches, which
a sum of several rows reads as they are), and a sum of one row runs over all its
columns at once."""

AMX = "amx"
"""A stage's lanes' sums are tile products of x86's AMX-BF16 unit (`amx.amx_lanes`,
`dot.dot_sums`)."""

DOT = "dot"
"""A stage's lanes' sums are AVX512-BF16 dot products, a pair of lanes an instruction
(`dot.dot_sums`)."""

FMA = "fma"
"""A stage's lanes' sums are vector fused multiply-adds, a lane an instruction, the
sums held in registers a block of rows and columns at a time (`dot.dot_sums` with
`dot.FMA_SHAPES`): 256-bit vectors, the kernel for a CPU with AVX2 and FMA but not
AVX-512."""

FMA512 = "fma512"
"""`FMA` in 512-bit vectors (`dot.FMA_SHAPES`): the kernel for a CPU with AVX-512 whose
fused multiply-adds outrun its other ways to the sums."""

FMAS = (FMA, FMA512)

KERNELS = (STREAM, AMX, DOT, *FMAS)

BLOCK_KERNELS = (AMX, DOT, *FMAS)
"""The kernels that sum any number of rows against a trip's block of weights, read
where it lies once a trip (`dot.dot_sums`)."""


def stage_forms(o: StageOp) -> list[LinearForm]:
    """Stage `o`'s maps as linear forms: its inputs', then its output's."""
    return [
        cast(LinearForm, linear_form(m.results[0], m.num_dims, m.num_symbols))
        for m in (*o.in_maps, o.out_map)
    ]


def sums(o: StageOp) -> bool:
    """Whether stage `o` sums (a `sum` axis longer than 1)."""
    return any(k == IterKind.SUM and e > 1 for k, e in zip(o.iter_kinds, o.iter_extents))


def fills_page(o: StageOp, tile: tuple[int, int]) -> bool:
    """Whether stage `o` writes every element of its page: as many parallel points as
    the page holds elements (the verifier has each point write its own element, inside
    the page: `StageOp.verify_output`)."""
    kinds, ext = o.iter_kinds, o.iter_extents
    written = math.prod(e for d, e in enumerate(ext) if kinds[d] == IterKind.PAR)
    return written == tile[0] * tile[1] * cast(PageType, o.result.type).tiles.data


def row_count(run: Sequence[StageOp]) -> int:
    """The rows (`Row`) a summing run of siblings computes: a row per stage, or the
    rows of its `row_axis`."""
    by_row = row_axis(run)
    return len(run) if by_row is None else run[0].iter_extents[by_row]


def stage_kernel(o: StageOp) -> str | None:
    """The kernel stage `o` is marked for (`KERNEL`), or None: the plain one."""
    mark = o.attributes.get(KERNEL)
    return mark.data if isinstance(mark, StringAttr) else None


def item_ops(program: ProgramOp) -> list[Operation]:
    """What an item of `program` runs: its ops but its declarations and return."""
    return [o for o in program.entry.ops if not isinstance(o, TensorOp | BufferOp | ReturnOp)]


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


@dataclass(frozen=True)
class LoopAxis:
    """One loop of a generic: `extent` steps of `step` elements along stage axis `axis`
    (an axis split in two is an outer loop of step `COLUMNS` and an inner one of step 1)."""

    axis: int
    extent: int
    step: int


def loop_axes(stage: StageOp, rows: int | None = None, split: bool = True) -> list[LoopAxis]:
    """The generic's loops, outermost first: `generic_order`'s axes, and, when the
    stage sums and its innermost axis is parallel and longer than `COLUMNS`, that axis
    split: `COLUMNS` contiguous outputs innermost, their blocks outermost. Each block's
    outputs then sum over every `sum` axis while held in registers, in the order they
    would have summed unsplit (each output's sum is the same, term for term). Axis
    `rows` has no loop: its rows are the generic's outputs (`row_axis`). Without
    `split`, the axis is not split."""
    order = [d for d in generic_order(stage) if d != rows]
    ext = stage.iter_extents
    loops = [LoopAxis(d, ext[d], 1) for d in order]
    if not order:
        return loops
    last = order[-1]
    summed = any(stage.iter_kinds[d] == IterKind.SUM for d in order)
    e = ext[last]
    if not split or not summed or stage.iter_kinds[last] != IterKind.PAR:
        return loops
    if e <= COLUMNS or e % COLUMNS:
        return loops
    return [LoopAxis(last, e // COLUMNS, COLUMNS), *loops[:-1], LoopAxis(last, COLUMNS, 1)]


def strip_loops(loops: Sequence[LoopAxis], width: int) -> list[LoopAxis]:
    """`loops` with the innermost, where it steps one element at a time over a
    multiple of `width` more than `width`, split in two where it is: its strips of
    `width`, then a strip's elements (the same points in the same order). How the
    `dot` and `fma` kernels read a block of a tensor laid in tile columns `width` wide
    where it lies (`amx.block_source`): each loop then steps within a strip, or from
    one strip to the next."""
    *rest, last = loops
    if last.step != 1 or last.extent <= width or last.extent % width:
        return list(loops)
    return [*rest, LoopAxis(last.axis, last.extent // width, width), LoopAxis(last.axis, width, 1)]


def joined(loops: Sequence[LoopAxis]) -> list[LoopAxis]:
    """`loops` with each axis `strip_loops` split whose two loops are next to each
    other one loop again (the same points in the same order): what a generic that
    reads nothing laid in tile columns runs over (split, LLVM vectorised the scaling
    of a stream's sums across the strips, with gathers, and the product at m = 1 took
    1.4x as long)."""
    out: list[LoopAxis] = []
    for a in loops:
        last = out[-1] if out else None
        if last is not None and last.axis == a.axis and last.step == a.extent * a.step:
            out[-1] = LoopAxis(a.axis, last.extent * a.extent, a.step)
        else:
            out.append(a)
    return out


def row_axis(run: Sequence[StageOp]) -> int | None:
    """The axis whose rows a summing stage computes as siblings are computed, an
    output each (at most `ROWS` a generic): its outer parallel axis, when another one
    is inside it and it has at most `4 * ROWS` rows. A fold whose rows
    `spatial-merge-siblings` made one stage is such, and its weights are then widened
    once for every `ROWS` rows, as its siblings' are. (A stage that does not sum: where
    `picked_rows` says.)"""
    if len(run) > 1:
        return None
    stage = run[0]
    pars = [d for d in generic_order(stage) if stage.iter_kinds[d] == IterKind.PAR]
    if len(pars) < 2 or stage.iter_extents[pars[0]] > 4 * ROWS:
        return None
    return pars[0]


def picked_rows(run: Sequence[StageOp]) -> int | None:
    """The axis whose rows a stage that does not sum computes one at a time, each an
    output of a generic (at most `ROWS` a generic), its index there a constant: its
    outer parallel axis, when another one is inside it, it has at most `4 * ROWS` rows
    and the body reads its index only to compare it with constants (a fold's tile of
    rows gathered from each row's sums, `q8-lower`'s row selects). The comparisons then
    fold: each row copies its own sums, where the whole tile chose among every row's
    for every element. The same ops on the same values."""
    axis = row_axis(run)  # the same axis a summing stage's rows are taken along
    if axis is None:
        return None
    reads = [o for o in run[0].body.walk() if isinstance(o, IndexOp) and o.dim.data == axis]
    if not reads:
        return None
    for o in reads:
        for use in o.result.uses:
            cmp = use.operation
            if not isinstance(cmp, arith.CmpiOp):
                return None
            other = cmp.operands[1 - use.index]
            if not isinstance(other.owner, arith.ConstantOp):
                return None
    return axis


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
    """The stage's axes in the generic's loop order: reduced axes (`sum`, or `max`:
    a stage has one kind or the other) outside, parallel ones inside by falling output
    stride (the contiguous one innermost); axes of extent 1 left out."""
    out = cast(LinearForm, linear_form(stage.out_map.results[0], len(stage.iter_kinds), 0))
    axes = [d for d, e in enumerate(stage.iter_extents) if e > 1]
    sums = [d for d in axes if stage.iter_kinds[d] != IterKind.PAR]
    pars = sorted(
        (d for d in axes if stage.iter_kinds[d] == IterKind.PAR),
        key=lambda d: -abs(out.dims[d]),
    )
    return sums + pars


def elements_read(
    o: StageOp, tile: tuple[int, int], written_rows: Callable[[SSAValue], int]
) -> np.ndarray | None:
    """The elements of stage `o`'s page that something reads, or None where something
    may read all of it: a carry reads it whole, a store the rows of each tile its
    tensor's buffer holds (`written_rows` of the tensor, its plan's
    `TensorPlan.written_rows`: an output shorter than a tile row its live rows), a
    stage what its map reaches (a fold's block sums are read where they are written)."""
    read: list[np.ndarray] = [np.zeros(0, np.int64)]
    for use in o.result.uses:
        user = use.operation
        if isinstance(user, StoreOp):
            rows = min(tile[0], written_rows(user.tensor))
            bh, bw = user.block_shape
            # page row r is row r of each of the block's tiles: bh * bw * tile[1] elements
            read.append(np.arange(rows * bh * bw * tile[1]))
            continue
        if not isinstance(user, StageOp):
            return None
        for i, v in enumerate(user.ins):
            if v is not o.result:
                continue
            m = user.in_maps[i]
            f = linear_form(m.results[0], m.num_dims, m.num_symbols)
            if f is None or any(f.syms):
                return None
            read.append(f.over_axes(user.iter_extents).ravel())
    return np.unique(np.concatenate(read))


def read_rows(
    o: StageOp,
    out: LinearForm,
    axis: int,
    tile: tuple[int, int],
    written_rows: Callable[[SSAValue], int],
) -> list[int]:
    """The rows along `axis` of stage `o` (its output's map `out`) whose elements
    something reads (`elements_read`): the rows `picked_rows` computes, as no other is
    needed (a fold's tile of 32 rows gathered from the sums of its m rows, of which its
    store keeps the m its output has: the other rows were zeros that nothing read)."""
    ext = o.iter_extents
    read = elements_read(o, tile, written_rows)
    every = range(ext[axis])
    if read is None:
        return list(every)
    return [r for r in every if np.isin(out.fixed(axis, r).over_axes(ext), read).any()]


def read_outside(
    o: StageOp, out: LinearForm, tile: tuple[int, int], written_rows: Callable[[SSAValue], int]
) -> bool:
    """Whether something may read stage `o`'s page (`elements_read`) outside the
    elements the stage writes, which are zeros."""
    read = elements_read(o, tile, written_rows)
    return read is None or not np.isin(read, out.over_axes(o.iter_extents)).all()


def read_widened(arg: BlockArgument, to: type[arith.ExtFOp] | type[arith.SIToFPOp]) -> bool:
    """Whether a stage's body reads input `arg` only through `to` (to f32)."""
    return bool(arg.uses) and all(
        isinstance(u.operation, to) and u.operation.result.type == f32 for u in arg.uses
    )


def yielded(o: StageOp) -> SSAValue:
    """The value a stage's body yields at one point."""
    return cast(YieldOp, o.body.block.last_op).value


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
