"""
`spatial-sum-trips`: a K loop whose carry accumulates sums `c` of its trips at once.

A loop accumulates when its one carried page is only ever added to: the stage that
yields it reads the carry where it writes it and adds to it a sum of the loop's
other pages and of rows of them (`carry' = carry + sum_r [row == r] * p_r`: q8-lower's
`fold_sum`). Each such page is made, in the loop, by a stage that sums over its axes
what it reads of the trip's loads (the fold's `block`). Then `c` consecutive trips add
`sum over the c trips of p`, which one stage makes with a `sum c` axis in front of
its own, reading each load's `c` blocks at once: the trips' blocks of a load stacked
as block rows (its origin steps `h * stride` tiles a trip), loaded as one page of
`c * h x w` tiles. The loop then runs `trips / c` times.

```mlir
%sum = spatial.k_loop %kb = 0 to 4 iter_args(%acc = %init_sum) -> (!spatial.page<8xf32>) {
  %p_in_x = spatial.load %view[%kb] block 1x1 stride 1 repeat 4 into %in_x : ...
  %p_in_q8 = spatial.load %q[%kb * 4096 + %item * 8] block 32x8 stride 128 repeat 4 into %in_q8 : ...
  %p_in_scale = spatial.load %s[%kb * 128 + %item * 8] block 1x8 stride 128 repeat 4 into %in_scale : ...
  %block = spatial.stage "block" iters(sum 32, par 256, sum 32)
    ins(%p_in_x[d0 * 32 + d2], %p_in_q8[d2 * 8192 + d0 * 256 + d1], %p_in_scale[d0 * 256 + d1]) ...
  %fold_sum = spatial.stage "fold_sum" ... ins(%acc[d0 * 256 + d1], %block[d1]) ...
  spatial.k_yield %fold_sum : !spatial.page<8xf32>
}
```

becomes, with `c = 4` (the loop then runs once: `spatial-hoist` takes its body out)

```mlir
%sum = spatial.k_loop %kb = 0 to 1 iter_args(%acc = %init_sum) -> (!spatial.page<8xf32>) {
  %p_in_x = spatial.load %view[%kb * 4] block 4x1 stride 1 repeat 1 into %in_x : ...
  %p_in_q8 = spatial.load %q[%kb * 16384 + %item * 8] block 128x8 stride 128 repeat 1 into %in_q8 : ...
  %p_in_scale = spatial.load %s[%kb * 512 + %item * 8] block 4x8 stride 128 repeat 1 into %in_scale : ...
  %block = spatial.stage "block" iters(sum 4, sum 32, par 256, sum 32)
    ins(%p_in_x[d1 * 128 + d0 * 32 + d3], %p_in_q8[d3 * 32768 + d0 * 8192 + d1 * 256 + d2], ...) ...
  ...
}
```

`c` is the largest divisor of the trips for which the program's buffers still fit a
site's local memory, a widened load's buffer `c` times the tiles (double-buffered as
before while the loop runs more than once, one page when it runs once). The loads
move the same bytes. The sums are added in another order (fp32: the program's claim
must be `approx`; a program that claims exact results is left alone).

Left as it is (a loop that does not accumulate, or not that way) when the loop
carries more than one page or runs once; when anything in it is not such a load or
stage, or the accumulating stage, or yields other than that stage; when a summing
stage reads a load it does not widen (a table, an origin that steps other than a
block's rows a trip) or a page at a map that leaves a row; or when no `c` fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, FloatAttr, IntAttr, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_spatial.core.geometry import LinearForm, in_stacked_page
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    BufferType,
    IndexOp,
    IterKind,
    KLoopOp,
    KYieldOp,
    LoadOp,
    Numerics,
    PageType,
    PlanAttr,
    ProgramOp,
    StageOp,
    YieldOp,
)
from xdsl_spatial.dialects.spatial.stages import sum_link
from xdsl_spatial.passes.stage_ir import (
    enclosing_program_of,
    form_of,
    map_of,
    page_row_len,
    replace_buffer,
    stage_with_front_axis,
    users,
    with_front_axis,
)

# --------------------------------------------------------------------------------------
# Whether a stage accumulates
# --------------------------------------------------------------------------------------


def _static(v: SSAValue, block: Block) -> bool:
    """Whether `v` depends on the point's indices and constants only, not on an input."""
    if isinstance(v, BlockArgument):
        return v.owner is not block
    op = cast(Operation, v.owner)
    if isinstance(op, IndexOp | arith.ConstantOp):
        return True
    return all(_static(o, block) for o in op.operands)


def _is_zero(v: SSAValue) -> bool:
    op = v.owner
    return (
        isinstance(op, arith.ConstantOp)
        and isinstance(op.value, FloatAttr)
        and op.value.value.data == 0.0
    )


def sum_terms(stage: StageOp) -> list[tuple[int, bool]] | None:
    """The yielded value as a sum of inputs, each maybe on some rows only: (input,
    selected) per term (`select(pred, input, 0.0)`, pred of indices and constants,
    is a selected term); None when the body is anything else, or reads an input
    other than as such a term."""
    block = stage.body.block
    yielded = cast(YieldOp, block.last_op).value
    terms: list[tuple[int, bool]] = []
    chain: set[Operation] = set()

    def walk(v: SSAValue, top: bool) -> bool:
        add = sum_link(v, top)
        if add is not None:
            chain.add(add)
            return walk(add.lhs, False) and walk(add.rhs, False)
        o = v.owner
        if isinstance(v, BlockArgument) and v.owner is block:
            terms.append((v.index, False))
            return True
        if (
            isinstance(o, arith.SelectOp)
            and v.has_one_use()
            and isinstance(o.lhs, BlockArgument)
            and o.lhs.owner is block
            and _static(o.cond, block)
            and _is_zero(o.rhs)
        ):
            chain.add(o)
            terms.append((o.lhs.index, True))
            return True
        return False

    if not walk(yielded, True):
        return None
    for a in block.args:
        if any(u.operation not in chain for u in a.uses):
            return None
    return terms


# --------------------------------------------------------------------------------------
# The plan
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TripPlan:
    """A loop to sum `c` trips of at once: the stages that make what it adds (each
    gets a `sum c` axis), the loads they read (each `step` tiles a trip, widened to
    `c` blocks when the step is > 0) and every move of the loop (its repeat to set)."""

    loop: KLoopOp
    program: ProgramOp
    summing: list[StageOp]
    widened: dict[LoadOp, int]
    """The loads read `c` trips at once, and the kb symbol of each's origin."""
    moves: list[LoadOp]
    c: int


def _kb_symbol(load: LoadOp, kb: BlockArgument) -> int | None:
    vars_ = list(load.origin_vars)
    return vars_.index(kb) if kb in vars_ else None


def trip_plan(loop: KLoopOp) -> TripPlan | str:
    """How to sum trips of `loop` at once, or why not."""
    program = enclosing_program_of(loop)
    if program is None:
        return "not in a program"
    if program.numerics.kind.data == Numerics.EXACT:
        return "the program claims exact results; summing trips at once reorders fp32 sums"
    body = loop.body.block
    trips = loop.trips.data
    if len(loop.inits) != 1 or trips < 2:
        return "the loop carries other than one page, or runs once"
    kb, carry = body.args
    yielded = cast(KYieldOp, body.last_op).values[0]
    acc = yielded.owner
    if not isinstance(acc, StageOp) or acc.parent is not body or users(carry) != {acc}:
        return "the carry is not read by one stage in the loop that it yields"
    if users(acc.result) != {body.last_op} or IterKind.SUM in acc.iter_kinds:
        return "the accumulating stage is read elsewhere, or sums"
    reads = [i for i, v in enumerate(acc.ins) if v is carry]
    terms = sum_terms(acc)
    if len(reads) != 1 or terms is None:
        return "the yielding stage is not the carry plus a sum of pages"
    j = reads[0]
    if (
        (j, False) not in terms
        or terms.count((j, False)) != 1
        or any(i == j and sel for i, sel in terms)
        or acc.in_maps[j] != acc.out_map
        or acc.indirect_of[j] >= 0
        or any(i >= 0 for i in acc.indirect_of)
        or not isinstance(cast(PageType, acc.result.type).element_type, Float32Type)
    ):
        return "the yielding stage does not add to the carry where it writes it"
    summing: list[StageOp] = []
    for i, v in enumerate(acc.ins):
        if i == j:
            continue
        p = v.owner
        if not isinstance(p, StageOp) or p.parent is not body or users(p.result) != {acc}:
            return "a page the carry adds is not made by a stage of the loop that only it reads"
        if any(x >= 0 for x in p.indirect_of):
            return f"stage '{p.stage_name.data}' reads indirectly"
        if not isinstance(cast(PageType, p.result.type).element_type, Float32Type):
            return f"stage '{p.stage_name.data}' does not sum in f32"
        if users(p.buffer) != {p}:
            return f"stage '{p.stage_name.data}' shares its buffer"
        if p not in summing:
            summing.append(p)
    widened: dict[LoadOp, int] = {}
    moves: list[LoadOp] = []
    for o in body.ops:
        if isinstance(o, LoadOp):
            moves.append(o)
        elif o is not acc and o not in summing and not isinstance(o, KYieldOp):
            return f"the loop holds {o.name}, which it cannot run c trips at once"
    for load in moves:
        if not users(load.result) <= set(summing):
            return "a load is read by other than a summing stage"
        sym = _kb_symbol(load, kb)
        if sym is None:
            continue  # the same block every trip: read as it is
        if load.table is not None or users(load.buffer) != {load}:
            return "a load that steps along K reads a table or shares its buffer"
        h, _ = load.block_shape
        step = form_of(load.origin.data).syms[sym]
        if step != h * load.stride.data:
            return (
                f"load of '{load.tensor_name}' steps {step} tiles a trip, not its block's "
                f"{h} rows of {load.stride.data}"
            )
        widened[load] = sym
    tile = program.target.tile
    for p in summing:
        for v, m in zip(p.ins, p.in_maps):
            if isinstance(v.owner, LoadOp) and v.owner in widened:
                row_len = page_row_len(v, tile)
                if in_stacked_page(form_of(m), p.iter_extents, row_len, 2) is None:
                    return f"stage '{p.stage_name.data}' reads a page across its rows"
    c = widest(loop, program, list(widened))
    if c is None:
        return "no number of trips fits the local memory at once"
    return TripPlan(loop, program, summing, widened, moves, c)


def _buffer_bytes(b: BufferOp, tiles: int, depth: int, tile_elems: int) -> int:
    bt = cast(BufferType, b.result.type)
    return BufferType(tiles, bt.element_type, depth).bytes(tile_elems)


def widest(loop: KLoopOp, program: ProgramOp, loads: list[LoadOp]) -> int | None:
    """The largest divisor `c` of the loop's trips (at least 2) for which the program's
    buffers fit with each widened load's `c` times as large."""
    trips = loop.trips.data
    tile_elems = program.target.tile_elems
    budget = program.target.local_mem.data
    used = program.buffer_bytes()
    bufs = [cast(BufferOp, ld.buffer.owner) for ld in loads]
    for c in range(trips, 1, -1):
        if trips % c:
            continue
        need = used
        for b in bufs:
            bt = cast(BufferType, b.result.type)
            depth = 1 if trips == c else bt.depth.data
            need += _buffer_bytes(b, c * bt.tiles.data, depth, tile_elems) - bt.bytes(tile_elems)
        if need <= budget:
            return c
    return None


# --------------------------------------------------------------------------------------
# The rewrite
# --------------------------------------------------------------------------------------


def sum_trips(plan: TripPlan, rewriter: PatternRewriter) -> None:
    loop, c = plan.loop, plan.c
    trips = loop.trips.data // c
    tile = plan.program.target.tile
    row_lens: dict[SSAValue, int] = {}
    """Each widened load's page: the row length a trip's part of it has."""
    for load in plan.moves:
        row_len = page_row_len(load.result, tile)
        h, w = load.block_shape
        origin = form_of(load.origin.data)
        buffer = load.buffer
        if load in plan.widened:
            sym = plan.widened[load]
            syms = tuple(s * c if k == sym else s for k, s in enumerate(origin.syms))
            origin = LinearForm(origin.const, origin.dims, syms)
            old = cast(BufferOp, load.buffer.owner)
            bt = cast(BufferType, old.result.type)
            buffer = replace_buffer(
                old, c * bt.tiles.data, 1 if trips == 1 else bt.depth.data, rewriter
            ).result
            h *= c
        new = LoadOp(
            load.tensor,
            buffer,
            map_of(origin),
            list(load.origin_vars),
            (h, w),
            load.stride.data,
            trips,
            load.table,
            load.table_at.data if load.table_at is not None else None,
        )
        new.result.name_hint = load.result.name_hint
        if load in plan.widened:
            row_lens[new.result] = row_len
        rewriter.replace(load, new)
        if buffer is not load.buffer:
            rewriter.erase(cast(Operation, load.buffer.owner))
    for p in plan.summing:
        ins, forms = [], []
        for v, m in zip(p.ins, p.in_maps):
            form = form_of(m)
            if (row_len := row_lens.get(v)) is not None:
                stacked = in_stacked_page(form, p.iter_extents, row_len, c)
                assert stacked is not None
                form = with_front_axis(stacked, row_len)
            else:
                form = with_front_axis(form)
            ins.append(v)
            forms.append(form)
        new_p = stage_with_front_axis(
            p, IterKind.SUM, c, ins, forms, p.buffer, with_front_axis(form_of(p.out_map))
        )
        rewriter.replace(p, new_p)
    loop.trips = IntAttr(trips)
    rewriter.notify_op_modified(loop)
    plan_attr = plan.program.plan
    plan.program.plan = PlanAttr(
        (plan_attr.grid.data[0].data, plan_attr.grid.data[1].data),
        trips,
        (plan_attr.site.data[0].data, plan_attr.site.data[1].data),
    )
    rewriter.notify_op_modified(plan.program)


class SumTrips(RewritePattern):
    """An accumulating K loop -> the same loop, `c` of its trips summed in one."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: KLoopOp, rewriter: PatternRewriter) -> None:
        plan = trip_plan(op)
        if isinstance(plan, TripPlan):
            sum_trips(plan, rewriter)


@dataclass(frozen=True)
class SumTripsPass(ModulePass):
    """
    Sum `c` trips of an accumulating K loop at once (the widest that fits a site): its
    loads read `c` blocks, the stages that make what it adds sum over `c` trips too.
    """

    name = "spatial-sum-trips"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(SumTrips(), apply_recursively=False).rewrite_module(op)
