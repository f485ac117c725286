"""
Running one `spatial` program with numpy, the way the chip would, counting bytes.

Work items are independent, so a group of them runs together: every value of the
body carries a leading item axis. A tensor lives as its tile-padded 2-d array. A
load is lazy: its page is a *placement* of the tensor's elements (where page element
`o` of item `i` sits in the tensor), so a stage reads it as one strided view of the
tensor; a page is copied out only when no strided view can express the access. A
stage is one numpy expression over its whole iteration space (a product body is
contracted with BLAS, its big int8 operand cast to f32 a slice at a time), and its
page keeps the values as computed, broadcast axes and all, until something needs
the page laid out in order.

The K loop runs its trips in order, but the loads and stages of its body that do
not read the carry (the Q8_0 blocks' loads and their contraction) first run for a
batch of trips at once, each value then carrying a trip axis before its item axis;
the carry's stages run trip by trip on each trip's slice. A program is read once
into a compiled form, kept on the op and used while the program's ops, properties
and operands are the same objects, so a run only binds its inputs and computes.

This module compiles programs and runs their items, loads, stores and K loops;
`pages` holds tensors, pages and their views, `body` evaluates stage bodies and
`contract` contracts product bodies with BLAS.
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from xdsl_spatial.dialects.spatial import (
    BufferOp,
    BufferType,
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
    YieldOp,
    element_bytes,
    linear_form,
)
from xdsl_spatial.interpreters.body import (
    RowSelect,
    Step,
    add_rows_trips,
    broadcast_shape,
    body_steps,
    evaluate,
    plain,
    product_factors,
    trip_of,
)
from xdsl_spatial.interpreters.contract import Scratch, contract, factor_sources
from xdsl_spatial.interpreters.pages import (
    Page,
    Progression,
    TileTensor,
    affine_view,
    compact,
    grid_sum,
    padded,
    placement,
    progression,
    shared_grid,
    shared_offsets,
    strided_view,
)
from xdsl_spatial.interpreters.values import SpatialRuntimeError, dense_values, numpy_dtype


# --------------------------------------------------------------------------------------
# Traffic
# --------------------------------------------------------------------------------------


@dataclass
class ProgramTraffic:
    """Bytes one program moved, per tensor, as the chip moves them (whole tiles)."""

    name: str
    kind: str
    items: int
    local_mem: int
    loaded: dict[str, int] = field(default_factory=dict)
    stored: dict[str, int] = field(default_factory=dict)
    weight_elems: int = 0
    """K x N of the Q8_0 weight a fold reads (0 when it reads none)."""

    @property
    def load_bytes(self) -> int:
        return sum(self.loaded.values())

    @property
    def store_bytes(self) -> int:
        return sum(self.stored.values())

    def bytes_per_weight(self) -> float | None:
        if not self.weight_elems:
            return None
        return self.load_bytes / self.weight_elems


@dataclass
class Traffic:
    programs: list[ProgramTraffic] = field(default_factory=list)

    def table(self) -> str:
        rows = [("program", "tensor", "loaded B", "stored B")]
        for p in self.programs:
            for t in sorted(set(p.loaded) | set(p.stored)):
                rows.append(
                    (p.name, t, str(p.loaded.get(t, 0)), str(p.stored.get(t, 0)))
                )
            bpw = p.bytes_per_weight()
            extra = f"{p.items} items, local memory {p.local_mem} B"
            if bpw is not None:
                extra += f", {bpw:.4f} B/weight"
            rows.append((p.name, f"total ({extra})", str(p.load_bytes), str(p.store_bytes)))
        if len(rows) == 1:
            return "no spatial program ran"
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        lines = []
        for j, r in enumerate(rows):
            lines.append(
                "  ".join(
                    c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))
                ).rstrip()
            )
            if j == 0:
                lines.append("  ".join("-" * w for w in widths))
        return "\n".join(lines)


# --------------------------------------------------------------------------------------
# Compiling a program
# --------------------------------------------------------------------------------------


@dataclass
class _Move:
    """What a load or store needs at run time, read off the op once."""

    op: LoadOp | StoreOp
    tensor: SSAValue
    const: int
    terms: tuple[tuple[SSAValue, int], ...]
    table: SSAValue | None
    table_const: int
    table_terms: tuple[tuple[SSAValue, int], ...]
    block: tuple[int, int]
    stride: int
    page: SSAValue | None
    """The page a store writes."""
    result: SSAValue | None
    """The page a load makes."""


@dataclass
class _StorePlace:
    """Where a store's blocks go, for one group of items (and one K trip)."""

    row: np.ndarray
    col: np.ndarray
    """Tile row and column of each block row's first tile, (items, block h)."""
    tiles: np.ndarray
    """Flat index of every tile written, (items, block h * block w)."""
    steps: tuple[int, int] | None
    prog: Progression | None
    covers: bool
    """Whether these blocks write every tile of the tensor."""


def _move_info(o: LoadOp | StoreOp) -> _Move:
    omap = o.origin.data
    form = linear_form(omap.results[0], 0, omap.num_symbols)
    assert form is not None
    terms = tuple((v, c) for v, c in zip(o.origin_vars, form.syms) if c)
    t_const, t_terms = 0, ()
    if o.table is not None and o.table_at is not None:
        tmap = o.table_at.data
        tform = linear_form(tmap.results[0], 0, tmap.num_symbols)
        assert tform is not None
        t_const = tform.const
        t_terms = tuple((v, c) for v, c in zip(o.origin_vars, tform.syms) if c)
    return _Move(
        o,
        o.tensor,
        form.const,
        terms,
        o.table,
        t_const,
        t_terms,
        o.block_shape,
        o.stride.data,
        o.page if isinstance(o, StoreOp) else None,
        o.result if isinstance(o, LoadOp) else None,
    )


@dataclass
class _StageInfo:
    """What a stage needs at run time, read off the op once."""

    op: StageOp
    result: SSAValue
    name: str
    ins: tuple[SSAValue, ...]
    maps: tuple[tuple[int, tuple[int, ...], int], ...]
    """Per input: the constant, per-axis coefficients and the coefficient of s0."""
    via: tuple[int, ...]
    ext: tuple[int, ...]
    sum_axes: tuple[int, ...]
    par: tuple[int, ...]
    out_const: int
    out_coeffs: tuple[int, ...]
    out_tiles: int
    out_dtype: np.dtype[Any]
    dense: tuple[int, tuple[tuple[int, int, int], ...]] | None
    """When the output map writes elements 0 .. reach-1 of its page once each (its
    coefficients a mixed radix from 1): (reach, per varying parallel axis (index among
    the parallel axes, coefficient, extent))."""
    factors: list[SSAValue] | None
    body_args: tuple[BlockArgument, ...]
    yielded: SSAValue
    static: dict[SSAValue, Any] | None = None
    """Body values that depend on no input (constants, indices, their comparisons),
    evaluated once over the iteration space."""
    steps: list[Step] | None = None
    """The rest of the body the yielded value needs, in order."""
    reads: list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]] | None = None
    """Per input: its map's constant, the coefficients and extents of the axes it
    varies along, and its shape over the iteration space (1 where it does not)."""
    passes: bool = False
    """Its page is its one input's page unchanged: the body yields the input as it
    is, read where it is written, over every element of a page of the same type."""
    pages: dict[tuple[int, ...], Page] = dataclasses.field(default_factory=dict)
    """For a stage of no inputs (its values the same every run): its page, read-only,
    for each shape of the items (and K trips) it ran for."""

    def read_plan(self) -> list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
        if self.reads is None:
            ext = self.ext
            self.reads = []
            for const, coeffs, _ in self.maps:
                used = [d for d, c in enumerate(coeffs) if c and ext[d] > 1]
                self.reads.append(
                    (
                        const,
                        tuple(coeffs[d] for d in used),
                        tuple(ext[d] for d in used),
                        tuple(ext[d] if d in used else 1 for d in range(len(ext))),
                    )
                )
        return self.reads

    sources: list[tuple[SSAValue, int | None]] | None = None

    def factor_sources(self) -> list[tuple[SSAValue, int | None]]:
        if self.sources is None:
            self.sources = factor_sources(cast(list[SSAValue], self.factors), self.body_args)
        return self.sources

    def body_steps(self) -> list[Step]:
        if self.steps is None:
            self.steps = body_steps(self.op.body.block, self.yielded, self.static_values())
        return self.steps

    def static_values(self) -> dict[SSAValue, Any]:
        if self.static is None:
            env: dict[SSAValue, Any] = {}
            deps = set(self.body_args)
            for o in self.op.body.block.ops:
                if isinstance(o, YieldOp):
                    continue
                if any(v in deps for v in o.operands):
                    deps.update(o.results)
                else:
                    evaluate(o.results[0], env, self.ext)
            self.static = env
        return self.static


def _stage_info(s: StageOp, tile: tuple[int, int]) -> _StageInfo:
    ext = s.iter_extents
    kinds = s.iter_kinds
    maps = []
    for m in s.in_maps:
        form = linear_form(m.results[0], m.num_dims, m.num_symbols)
        assert form is not None
        maps.append((form.const, form.dims, form.syms[0] if form.syms else 0))
    oform = linear_form(s.out_map.results[0], len(ext), 0)
    assert oform is not None
    par = tuple(d for d, k in enumerate(kinds) if k == IterKind.PAR)
    bt = cast(BufferType, s.buffer.type)
    size = tile[0] * bt.tiles.data * tile[1]
    radix = sorted((oform.dims[d], ext[d], j) for j, d in enumerate(par) if ext[d] > 1)
    reach = 1
    dense_ok = oform.const == 0
    for c, e, _ in radix:
        dense_ok = dense_ok and c == reach
        reach *= e
    dense = (reach, tuple((j, c, e) for c, e, j in radix)) if dense_ok and reach <= size else None
    body = s.body.block
    yielded = cast(YieldOp, body.last_op).value
    sum_axes = tuple(1 + d for d, k in enumerate(kinds) if k == IterKind.SUM)
    out_dtype = numpy_dtype(bt.element_type)
    passes = False
    if len(maps) == 1 and not sum_axes and s.indirect_of == (-1,) and yielded == body.args[0]:
        in_type = cast(PageType, s.ins[0].type)
        passes = (
            maps[0] == (oform.const, tuple(oform.dims), 0)
            and dense is not None
            and dense[0] == size
            and in_type.tiles.data == bt.tiles.data
            and numpy_dtype(in_type.element_type) == out_dtype
        )
    return _StageInfo(
        s,
        s.result,
        s.stage_name.data,
        tuple(s.ins),
        tuple(maps),
        s.indirect_of,
        ext,
        sum_axes,
        par,
        oform.const,
        tuple(oform.dims[d] for d in par),
        bt.tiles.data,
        out_dtype,
        dense,
        product_factors(yielded) if sum_axes else None,
        tuple(body.args),
        yielded,
        passes=passes,
    )


def _same_body(a: StageOp, b: StageOp) -> bool:
    """Whether two stage bodies compute the same function of their inputs."""
    ba, bb = a.body.block, b.body.block
    if list(ba.arg_types) != list(bb.arg_types):
        return False
    where: dict[SSAValue, SSAValue] = dict(zip(ba.args, bb.args))
    ops_a, ops_b = list(ba.ops), list(bb.ops)
    if len(ops_a) != len(ops_b):
        return False
    for x, y in zip(ops_a, ops_b):
        if (
            type(x) is not type(y)
            or x.properties != y.properties
            or x.attributes != y.attributes
            or [r.type for r in x.results] != [r.type for r in y.results]
            or [where.get(v) for v in x.operands] != list(y.operands)
        ):
            return False
        where.update(zip(x.results, y.results))
    return True


@dataclass
class _Siblings:
    """Consecutive stages that differ only in where one input is read: the same
    function of the same pages, one row of a batch each. They run as one stage with
    an extra parallel axis (the row), whose step is `steps[i]` in input `i`."""

    stages: list[_StageInfo]
    batched: _StageInfo


def _siblings(run: list[_StageInfo]) -> _Siblings | None:
    first = run[0]
    if len(run) < 2 or first.factors is None or any(v >= 0 for v in first.via):
        return None
    steps = []
    for i, (const, coeffs, sym) in enumerate(first.maps):
        step = run[1].maps[i][0] - const
        for r, st in enumerate(run):
            if st.maps[i] != (const + r * step, coeffs, sym):
                return None
        steps.append(step)
    batched = dataclasses.replace(
        first,
        maps=tuple((c, (step, *co), sy) for (c, co, sy), step in zip(first.maps, steps)),
        ext=(len(run), *first.ext),
        sum_axes=tuple(a + 1 for a in first.sum_axes),
        par=(0, *(d + 1 for d in first.par)),
        reads=None,
    )
    return _Siblings(run, batched)


def _sibling_runs(op: ProgramOp, stages: dict[Operation, _StageInfo]) -> dict[Operation, _Siblings]:
    """The first stage of each run of siblings, in every block of the program (the
    buffers and tensors declared between them do nothing at run time: they do not
    break a run)."""
    out: dict[Operation, _Siblings] = {}
    blocks = [op.entry] + [o.body.block for o in op.body.walk() if isinstance(o, KLoopOp)]
    for block in blocks:
        run: list[_StageInfo] = []
        for o in [*block.ops, None]:
            if isinstance(o, BufferOp | TensorOp):
                continue
            st = stages.get(o) if o is not None else None
            if run and (
                st is None
                or st.ins != run[0].ins
                or (st.ext, st.sum_axes, st.par, st.out_const, st.out_coeffs, st.out_tiles)
                != (run[0].ext, run[0].sum_axes, run[0].par, run[0].out_const,
                    run[0].out_coeffs, run[0].out_tiles)
                or not _same_body(run[0].op, st.op)
            ):
                if (group := _siblings(run)) is not None:
                    out[run[0].op] = group
                run = []
            if st is not None:
                run.append(st)
    return out


_SIBLINGS, _STAGE, _LOAD, _STORE, _LOOP, _YIELD, _RETURN, _OTHER = range(8)
"""What a step of a block does (see `_steps`)."""

Steps = list[tuple[int, Any, Operation]]


def _steps(
    ops: Sequence[Operation],
    moves: dict[Operation, _Move],
    stages: dict[Operation, _StageInfo],
    siblings: dict[Operation, _Siblings],
) -> Steps:
    """The ops of a block as the runner takes them, each with what it needs, read
    off the op once: a run of sibling stages at its first stage (the others go with
    it), stages, loads, stores, K loops, yields and returns; tensors and buffers
    need nothing at run time and are left out."""
    out: Steps = []
    grouped: set[Operation] = set()
    for o in ops:
        if o in grouped:
            continue
        if (group := siblings.get(o)) is not None:
            out.append((_SIBLINGS, group, o))
            grouped.update(st.op for st in group.stages)
        elif (st := stages.get(o)) is not None:
            out.append((_STAGE, st, o))
        elif (mv := moves.get(o)) is not None:
            out.append((_LOAD if isinstance(o, LoadOp) else _STORE, mv, o))
        elif isinstance(o, TensorOp | BufferOp):
            continue
        elif isinstance(o, KLoopOp):
            out.append((_LOOP, None, o))
        elif isinstance(o, KYieldOp):
            out.append((_YIELD, tuple(o.values), o))
        elif isinstance(o, ReturnOp):
            out.append((_RETURN, None, o))
        else:
            out.append((_OTHER, None, o))
    return out


@dataclass
class _LoopPlan:
    """A K loop's body split in two: the loads and stages that do not depend on the
    carry (`hoisted`, run for a batch of trips at once) and the rest, in order."""

    ops: Steps
    hoisted: Steps
    rest: Steps
    trip_bytes_per_item: int
    """What the hoisted stages' values hold per item and trip, at most."""
    trips: int
    inits: tuple[SSAValue, ...]
    kb: BlockArgument
    carry: tuple[BlockArgument, ...]
    hoisted_results: tuple[SSAValue, ...]
    results: tuple[SSAValue, ...]
    batch_reads: list[tuple[_StageInfo, tuple[int, ...]]]
    """Stages of `rest` (not run as a batch of siblings) and their direct inputs that
    are hoisted pages."""
    accum: _Accum | None
    """How the carry is updated, when it only accumulates the batch's values."""


@dataclass
class _Accum:
    """A K loop whose only carry-dependent stage adds values of the batch's pages
    into the carry: `carry' = ((carry + w1) + w2) + ...` element by element (the
    carry read where the stage writes). The w's are computed for a batch of trips at
    once; the adds then run trip by trip on arrays, in the same order."""

    stage: _StageInfo
    acc: int
    """The stage input that reads the carry."""
    w_steps: list[Step]
    """The body steps the w's need."""
    ws: tuple[SSAValue, ...]
    adds: list[Step]
    """The chain of adds, innermost first."""


def _accumulation(
    rest: list[Operation],
    stages: dict[Operation, _StageInfo],
    batched: set[Operation],
    made: set[SSAValue],
    carry: tuple[BlockArgument, ...],
    yields: tuple[SSAValue, ...],
) -> _Accum | None:
    """The loop's carry update as an `_Accum`, if it is one (else None)."""
    if len(rest) != 2 or len(carry) != 1 or not isinstance(rest[1], KYieldOp):
        return None
    st = stages.get(rest[0])
    if st is None or rest[0] in batched or yields != (st.result,):
        return None
    if st.sum_axes or st.dense is None or st.out_dtype != np.float32 or any(v >= 0 for v in st.via):
        return None
    accs = [i for i, v in enumerate(st.ins) if v == carry[0]]
    if len(accs) != 1 or any(v not in made for i, v in enumerate(st.ins) if i != accs[0]):
        return None
    acc = accs[0]
    const, coeffs, sym = st.maps[acc]
    if (const, coeffs, sym) != (st.out_const, st.out_coeffs, 0):
        return None
    arg = st.body_args[acc]
    if not isinstance(arg.type, Float32Type) or not arg.has_one_use():
        return None
    # The chain: from the yielded value down to the add that reads the carry.
    chain: list[arith.AddfOp] = []
    v = st.yielded
    while True:
        op = v.owner
        if not isinstance(op, arith.AddfOp) or not isinstance(op.result.type, Float32Type):
            return None
        chain.append(op)
        if op.lhs == arg:
            break
        v = op.lhs
        if not isinstance(v, OpResult) or not v.has_one_use():
            return None
    chain.reverse()
    ws = tuple(a.rhs for a in chain)
    static = st.static_values()
    # What the w's are computed from, which must not include the carry.
    seen: set[SSAValue] = set()
    todo = list(ws)
    while todo:
        x = todo.pop()
        if x == arg:
            return None
        if x in seen or x in static:
            continue
        seen.add(x)
        if isinstance(x.owner, Operation):
            todo.extend(x.owner.operands)
    w_steps = [Step.of(b) for b in st.op.body.block.ops if b.results and b.results[0] in seen]
    return _Accum(st, acc, w_steps, ws, [Step.of(a) for a in chain])


def _loop_plan(
    o: KLoopOp,
    moves: dict[Operation, _Move],
    stages: dict[Operation, _StageInfo],
    siblings: dict[Operation, _Siblings],
    batched: set[Operation],
    tile_elems: int,
) -> _LoopPlan:
    body = o.body.block
    depends: set[SSAValue] = set(body.args[1:])
    hoisted: list[Operation] = []
    rest: list[Operation] = []
    per_trip = 0
    for b in body.ops:
        if isinstance(b, LoadOp | StageOp) and not any(v in depends for v in b.operands):
            hoisted.append(b)
            if (st := stages.get(b)) is not None:
                # A dense page is kept as its values; any other is laid out whole.
                kept = st.dense[0] if st.dense is not None else st.out_tiles * tile_elems
                space = 0 if st.factors is not None else math.prod(st.ext)
                per_trip += 4 * max(kept, space)
        else:
            rest.append(b)
            depends.update(b.results)
    made = {r for h in hoisted for r in h.results}
    batch_reads = []
    for b in rest:
        st = stages.get(b)
        if st is not None and b not in batched:
            inputs = tuple(i for i, v in enumerate(st.ins) if v in made and st.via[i] < 0)
            if inputs:
                batch_reads.append((st, inputs))
    yields = tuple(cast(KYieldOp, body.last_op).values)
    accum = _accumulation(rest, stages, batched, made, tuple(body.args[1:]), yields)
    if accum is not None:
        # What it adds in is computed for the whole batch of trips too (mostly views
        # of the batch's pages, or selects of their rows kept lazy: one page at most).
        per_trip += 4 * math.prod(accum.stage.ext)
    return _LoopPlan(
        _steps(list(body.ops), moves, stages, siblings),
        _steps(hoisted, moves, stages, siblings),
        _steps(rest, moves, stages, siblings),
        per_trip,
        o.trips.data,
        tuple(o.inits),
        body.args[0],
        tuple(body.args[1:]),
        tuple(r for h in hoisted for r in h.results),
        tuple(o.results),
        batch_reads,
        accum,
    )


@dataclass
class _TensorSpec:
    """A `spatial.tensor` of the program, read off the op once."""

    result: SSAValue
    name: str
    dims: tuple[int, int]
    tiles: tuple[int, int]
    dtype: np.dtype[Any]
    source: int | None
    """Index of the program input it holds, if any."""
    values: np.ndarray | None
    """Its constant values, tile-padded (read-only), if any."""
    returned: tuple[int, ...]
    """Its places among the program's results (none if not returned)."""
    output: bool
    weight_elems: int
    """K x N when it holds a Q8_0 weight's values, else 0."""
    loaded: bool


def _tensor_specs(op: ProgramOp, loaded: set[SSAValue]) -> list[_TensorSpec]:
    tile = op.target.tile
    rank = len(op.grid_shape)
    ins = list(op.entry.args[rank:])
    returned = list(cast(ReturnOp, op.entry.last_op).values)
    specs = []
    for t in op.tensors():
        h = t.handle
        rows, cols = h.dims
        tiles = (-(-rows // tile[0]), -(-cols // tile[1]))
        values = None
        if t.values is not None:
            values = padded(dense_values(t.values), tiles, tile)
            values.flags.writeable = False
        weight = t.repack is not None and h.role.data == Role.PARAM and "values" in t.repack.data
        specs.append(
            _TensorSpec(
                t.result,
                t.tensor_name.data,
                (rows, cols),
                tiles,
                numpy_dtype(h.element_type),
                ins.index(t.source) if t.source is not None else None,
                values,
                tuple(j for j, v in enumerate(returned) if v == t.result),
                h.role.data == Role.OUTPUT,
                rows * cols if weight else 0,
                t.result in loaded,
            )
        )
    return specs


@dataclass
class _Compiled:
    """A program read once: every op's static numbers, ready to run many times."""

    moves: dict[Operation, _Move]
    stages: dict[Operation, _StageInfo]
    siblings: dict[Operation, _Siblings]
    loops: dict[Operation, _LoopPlan]
    buffer_bytes: int
    group_budget_per_item: int
    tensors: list[_TensorSpec]
    results: int
    coords: np.ndarray
    """Every item's grid coordinates, (items, rank)."""
    coord_args: tuple[BlockArgument, ...]
    coord_set: set[SSAValue]
    entry: Steps
    tile: tuple[int, int]
    local_mem: int
    name: str
    kind: str
    gathers: dict[tuple[Any, ...], np.ndarray] = dataclasses.field(default_factory=dict)
    placed_stores: dict[tuple[Any, ...], _StorePlace] = dataclasses.field(default_factory=dict)
    """Element indices of indirect stage inputs, by page layout and table values."""
    placed_loads: dict[
        tuple[Any, ...], tuple[np.ndarray, tuple[int, int, int, int, int], Progression | None]
    ] = (
        dataclasses.field(default_factory=dict)
    )


_CACHE_ATTR = "_spatial_compiled"
"""The attribute of a program op that holds its compiled form and the parts it was
compiled from. Kept on the op, not in a global table, so both go with the op (a
table keyed by the op would keep it alive through the compiled form's references to
its ops)."""


def _parts(op: ProgramOp) -> list[object]:
    """Everything of the program a compiled form depends on: its ops, their
    properties and operand tuples, and its blocks' argument tuples (xDSL replaces
    those tuples whenever an operand or argument changes, and attributes are
    immutable; a value gets no new type in place). The ops of a program keep all
    they mean in properties (discardable attributes are never read). Run before
    every run of the program, so it reads xDSL's linked lists and tuples as they are
    stored (xDSL 0.75, as pinned) rather than through the properties that wrap
    them."""
    parts: list[object] = []
    add, extend = parts.append, parts.extend
    stack: list[Operation] = [op]
    while stack:
        o = stack.pop()
        add(o)
        add(o._operands)  # pyright: ignore[reportPrivateUsage]
        if o.properties:
            extend(o.properties.values())
        for region in o.regions:
            b = region._first_block  # pyright: ignore[reportPrivateUsage]
            while b is not None:
                add(b._args)  # pyright: ignore[reportPrivateUsage]
                x = b._first_op  # pyright: ignore[reportPrivateUsage]
                while x is not None:
                    stack.append(x)
                    x = x._next_op  # pyright: ignore[reportPrivateUsage]
                b = b._next_block  # pyright: ignore[reportPrivateUsage]
    return parts


def same_parts(a: list[object], b: list[object]) -> bool:
    """The same objects in the same order (by identity: an op or value equal to but
    not the one compiled is not the one the compiled form refers to). The compiled
    form holds the objects, so none of their identities can pass to a new object
    (a value moved to another property's key would pass; xDSL's verifier refuses
    a key the op does not define)."""
    return len(a) == len(b) and all(map(operator.is_, a, b))


def _compile(op: ProgramOp) -> _Compiled:
    parts = _parts(op)
    hit: tuple[list[object], _Compiled] | None = op.__dict__.get(_CACHE_ATTR)
    if hit is not None and same_parts(hit[0], parts):
        return hit[1]
    tile = op.target.tile
    te = tile[0] * tile[1]
    moves: dict[Operation, _Move] = {}
    stages: dict[Operation, _StageInfo] = {}
    per_item = 0
    for o in op.body.walk():
        if isinstance(o, LoadOp | StoreOp):
            moves[o] = _move_info(o)
            if isinstance(o, LoadOp):
                pt = cast(PageType, o.result.type)
                per_item = max(per_item, pt.tiles.data * te * element_bytes(pt.element_type))
        elif isinstance(o, StageOp):
            info = _stage_info(o, tile)
            stages[o] = info
            page = info.out_tiles * te * 4
            # A product is contracted in slices; anything else spans its space.
            space = 0 if info.factors is not None else math.prod(info.ext) * 4
            per_item = max(per_item, page, space)
    siblings = _sibling_runs(op, stages)
    for g in siblings.values():
        # The rows of a batch run together: their outputs are live at once.
        per_item = max(per_item, len(g.stages) * g.stages[0].out_tiles * te * 4)
    in_groups = {st.op for g in siblings.values() for st in g.stages}
    loops = {
        o: _loop_plan(o, moves, stages, siblings, in_groups, te)
        for o in op.body.walk()
        if isinstance(o, KLoopOp)
    }
    loaded = {m.tensor for m in moves.values() if isinstance(m.op, LoadOp)}
    c = _Compiled(
        moves,
        stages,
        siblings,
        loops,
        op.buffer_bytes(),
        per_item,
        _tensor_specs(op, loaded),
        len(cast(ReturnOp, op.entry.last_op).values),
        op.item_coords(),
        tuple(op.coords),
        set(op.coords),
        _steps(list(op.entry.ops), moves, stages, siblings),
        op.target.tile,
        op.target.local_mem.data,
        op.program_name.data,
        op.KIND,
    )
    op.__dict__[_CACHE_ATTR] = (parts, c)
    return c


# --------------------------------------------------------------------------------------
# The program runner
# --------------------------------------------------------------------------------------


class ProgramRunner:
    """Runs one `spatial.view` / `spatial.fold` on numpy arrays."""

    def __init__(
        self,
        op: ProgramOp,
        traffic: Traffic | None = None,
        memory_budget: int = 8 << 20,
    ):
        self.op = op
        self.compiled = c = _compile(op)
        self.tile = c.tile
        self.traffic = traffic
        self.memory_budget = memory_budget
        self.scratch = Scratch()
        self.coord_set = c.coord_set
        self.record = ProgramTraffic(c.name, c.kind, len(c.coords), c.buffer_bytes)

    # --- errors ------------------------------------------------------------------

    def fail(self, op: Operation, msg: str) -> SpatialRuntimeError:
        return SpatialRuntimeError(
            f"{self.op.name} \"{self.op.program_name.data}\": {op.name}: {msg}"
        )

    # --- entry -------------------------------------------------------------------

    def run(self, inputs: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
        op, c = self.op, self.compiled
        if c.buffer_bytes > c.local_mem:
            raise SpatialRuntimeError(
                f"{op.name} \"{c.name}\": buffers need {c.buffer_bytes} bytes "
                f"of local memory but a site has {c.local_mem}"
            )
        tensors: dict[SSAValue, TileTensor] = {}
        returned: list[TileTensor | None] = [None] * c.results
        for spec in c.tensors:
            tt = self._tensor(spec, inputs)
            tensors[spec.result] = tt
            for j in spec.returned:
                returned[j] = tt
            if spec.returned and spec.loaded:
                tt.snapshot = tt.data.copy()

        coords = c.coords
        per_item = max(c.group_budget_per_item, 1)
        group = max(1, min(len(coords), self.memory_budget // per_item))
        for start in range(0, len(coords), group):
            self._run_items(coords[start : start + group], start, tensors)

        outs = []
        for tt in returned:
            assert tt is not None and tt.writer is not None
            if tt.output and not tt.complete and tt.writer.min() < 0:
                r, col = np.argwhere(tt.writer < 0)[0]
                raise SpatialRuntimeError(
                    f"{op.name} \"{op.program_name.data}\": tile ({r}, {col}) of output "
                    f"'{tt.name}' is written by no item"
                )
            rows, cols = tt.dims
            outs.append(np.ascontiguousarray(tt.data[:rows, :cols]))
        if self.traffic is not None:
            self.traffic.programs.append(self.record)
        return tuple(outs)

    def _tensor(self, spec: _TensorSpec, inputs: Sequence[np.ndarray]) -> TileTensor:
        rows, cols = spec.dims
        returned = bool(spec.returned)
        if spec.source is not None:
            a = inputs[spec.source]
            if a.shape != (rows, cols) or a.dtype != spec.dtype:
                raise SpatialRuntimeError(
                    f"{self.op.name} \"{self.op.program_name.data}\": tensor "
                    f"'{spec.name}' expects {rows}x{cols} {spec.dtype}, got "
                    f"{'x'.join(map(str, a.shape))} {a.dtype}"
                )
            data = padded(a, spec.tiles, self.tile)
            if returned and data is a:
                data = a.copy()
        elif spec.values is not None:
            data = spec.values.copy() if returned else spec.values
        else:
            tiles = spec.tiles
            # A returned tensor of one tile row that nothing loads keeps only its live
            # rows: stores do not write its padding (see `_store`).
            live_only = returned and not spec.loaded and tiles[0] == 1
            kept = rows if live_only else tiles[0] * self.tile[0]
            data = np.zeros((kept, tiles[1] * self.tile[1]), dtype=spec.dtype)
        tt = TileTensor(spec.name, spec.dims, data, spec.tiles, output=spec.output)
        if returned:
            tt.writer = np.empty(spec.tiles, dtype=np.int64)
            tt.writer.fill(-1)
        if spec.weight_elems:
            self.record.weight_elems = spec.weight_elems
        return tt

    # --- the body --------------------------------------------------------------------

    def _run_items(
        self, coords: np.ndarray, first: int, tensors: dict[SSAValue, TileTensor]
    ) -> None:
        env: dict[SSAValue, Any] = {}
        for j, arg in enumerate(self.compiled.coord_args):
            env[arg] = coords[:, j]
        items = np.arange(first, first + len(coords))
        self._run_block(self.compiled.entry, env, tensors, items)

    def _run_block(
        self,
        steps: Steps,
        env: dict[SSAValue, Any],
        tensors: dict[SSAValue, TileTensor],
        items: np.ndarray,
        lead: tuple[int, ...] | None = None,
        ready: tuple[dict[Operation, dict[int, np.ndarray]], int] | None = None,
    ) -> list[Any]:
        """Run a block's `steps` for `items`; with `lead` (trips, items), for a batch of
        K trips at once (only loads and stages that do not read the carry run so).
        `ready`: stage inputs already read for a batch of trips, and this trip's index
        in it."""
        lead = lead or (len(items),)
        for kind, x, o in steps:
            if kind == _STAGE:
                st = cast(_StageInfo, x)
                got = None
                if ready is not None and (pre := ready[0].get(o)) is not None:
                    t = ready[1]
                    got = {i: a[t if a.shape[0] > 1 else 0] for i, a in pre.items()}
                env[st.result] = self._stage(st, env, lead, got)
            elif kind == _LOAD:
                mv = cast(_Move, x)
                env[cast(SSAValue, mv.result)] = self._load(mv, env, tensors, items, lead)
            elif kind == _STORE:
                self._store(cast(_Move, x), env, tensors, items)
            elif kind == _SIBLINGS:
                group = cast(_Siblings, x)
                value = self._stage_value(group.batched, env, lead)
                nl = len(lead)
                for r, st in enumerate(group.stages):
                    row = value[(slice(None),) * nl + (r % value.shape[nl],)]
                    env[st.result] = self._stage_page(st, row, lead)
            elif kind == _LOOP:
                loop = self.compiled.loops[o]
                env.update(zip(loop.results, self._k_loop(loop, env, tensors, items)))
            elif kind == _YIELD:
                return [env[v] for v in x]
            elif kind == _RETURN:
                return []
            else:
                raise self.fail(o, "cannot run here")
        return []

    def _k_loop(
        self,
        loop: _LoopPlan,
        env: dict[SSAValue, Any],
        tensors: dict[SSAValue, TileTensor],
        items: np.ndarray,
    ) -> list[Any]:
        """The K loop's trips in order. The loads and stages that do not depend on the
        carry run first for a batch of trips at once (each value then has a trip axis
        before its item axis); the rest runs trip by trip on each trip's slice."""
        carried = [env[v] for v in loop.inits]
        kb_arg, carry_args = loop.kb, loop.carry
        trips, n = loop.trips, len(items)
        chunk = trips
        if loop.hoisted:
            chunk = max(1, min(trips, self.memory_budget // max(1, n * loop.trip_bytes_per_item)))
        for t0 in range(0, trips, chunk):
            t1 = min(trips, t0 + chunk)
            steps = loop.ops
            batch: list[tuple[SSAValue, Page]] = []
            pre: dict[Operation, dict[int, np.ndarray]] = {}
            if loop.hoisted and t1 - t0 > 1:
                benv = dict(env)
                benv[kb_arg] = np.arange(t0, t1, dtype=np.int64)[:, None]
                self._run_block(loop.hoisted, benv, tensors, items, (t1 - t0, n))
                if loop.accum is not None:
                    carried = [self._accumulate(loop.accum, benv, carried[0], (t1 - t0, n))]
                    continue
                batch = [(r, benv[r]) for r in loop.hoisted_results]
                steps = loop.rest
                # The carry's stages read the batch's pages once for all its trips.
                for st, inputs in loop.batch_reads:
                    pre[st.op] = {i: self._operand(st, i, benv[st.ins[i]]) for i in inputs}
            for kb in range(t0, t1):
                env[kb_arg] = np.full(n, kb, dtype=np.int64)
                for a, v in zip(carry_args, carried):
                    env[a] = v
                for r, page in batch:
                    env[r] = page.trip(kb - t0)
                carried = self._run_block(steps, env, tensors, items, None, (pre, kb - t0))
        return carried

    def _accumulate(
        self, acc: _Accum, benv: dict[SSAValue, Any], carry: Page, lead: tuple[int, int]
    ) -> Page:
        """The carry after a batch of trips of an accumulating loop: the w's for every
        trip at once, then the adds trip by trip (the same adds, in the same order, as
        running the stage once a trip)."""
        st = acc.stage
        env = dict(st.static_values())
        for i, arg in enumerate(st.body_args):
            if i != acc.acc:
                env[arg] = self._operand(st, i, benv[st.ins[i]])
        for step in acc.w_steps:
            env[step.result] = step.run([env[v] for v in step.operands], st.ext)
        ws = [env[w] for w in acc.ws]
        full = len(lead) + len(st.ext)
        a: Any = self._operand(st, acc.acc, carry)
        summed = None
        if all(isinstance(w, np.ndarray) for w in ws):
            summed = _add_trips(a, cast(list[np.ndarray], ws), lead[0], full)
        elif all(isinstance(w, RowSelect) for w in ws):
            summed = add_rows_trips(a, cast(list[RowSelect], ws), lead[0], full)
        if summed is None:
            for t in range(lead[0]):
                for add, w in zip(acc.adds, ws):
                    a = add.run([a, trip_of(w, t, full)], st.ext)
            summed = np.asarray(plain(a))
        return self._stage_page(st, summed, lead[1:])

    # --- loads and stores ----------------------------------------------------------

    def _origins(
        self,
        mv: _Move,
        env: dict[SSAValue, Any],
        tensors: dict[SSAValue, TileTensor],
        items: np.ndarray,
        lead: tuple[int, ...],
    ) -> np.ndarray:
        """The first tile of each item's block (one per item, or per K trip and item
        for a batch of trips), flattened."""
        t0 = np.full(lead, mv.const, dtype=np.int64)
        for v, c in mv.terms:
            t0 += c * env[v]
        t0 = t0.reshape(-1)
        if mv.table is not None:
            table = tensors[mv.table]
            at = np.full(lead, mv.table_const, dtype=np.int64)
            for v, c in mv.table_terms:
                at += c * env[v]
            at = at.reshape(-1)
            rows, cols = table.dims
            if (at < 0).any() or (at >= rows * cols).any():
                bad = int(np.argmax((at < 0) | (at >= rows * cols)))
                raise self.fail(
                    mv.op,
                    f"item {int(items[bad % len(items)])} reads table '{table.name}' at "
                    f"element {int(at[bad])}, outside its {rows * cols} elements",
                )
            r, c = np.divmod(at, cols)
            t0 += table.data[r, c].astype(np.int64)
        return t0

    def _block_rows(
        self,
        mv: _Move,
        t0: np.ndarray,
        tt: TileTensor,
        items: np.ndarray,
        verb: str,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(tile row, tile column) of each block row's first tile, checked inside."""
        bh, bw = mv.block
        tr, tpr = tt.tiles
        starts = t0[:, None] + mv.stride * np.arange(bh)[None, :]
        row, col = np.divmod(starts, tpr)
        bad = (starts < 0) | (row >= tr) | (col + bw > tpr)
        if bad.any():
            i, a = np.unravel_index(int(np.argmax(bad)), bad.shape)
            raise self.fail(
                mv.op,
                f"item {int(items[i % len(items)])} {verb} a {bh}x{bw} block at tile "
                f"{int(t0[i])} whose row {a} runs outside tensor '{tt.name}' "
                f"({tr}x{tpr} tiles)",
            )
        return row, col

    def _geometry(
        self, row: np.ndarray, col: np.ndarray, bh: int
    ) -> tuple[int, int] | None:
        """Tile-row and tile-column step between block rows, if every item's are even."""
        if bh == 1:
            return 0, 0
        dr, dc = np.diff(row, axis=1), np.diff(col, axis=1)
        rho, kappa = int(dr[0, 0]), int(dc[0, 0])
        if (dr == rho).all() and (dc == kappa).all():
            return rho, kappa
        return None

    def _trips(self, mv: _Move, env: dict[SSAValue, Any]) -> tuple[Any, ...]:
        """The K trips a load or store's origin is at, as a key: its loop variables are
        a trip number for every item, or a range of trips for a batch."""
        return tuple(
            (env[v].shape, int(env[v].flat[0]), int(env[v].flat[-1]))
            for v, _ in mv.terms
            if v not in self.coord_set
        )

    def _load(
        self,
        mv: _Move,
        env: dict[SSAValue, Any],
        tensors: dict[SSAValue, TileTensor],
        items: np.ndarray,
        lead: tuple[int, ...],
    ) -> Page:
        """The pages of a load: one per item, or per K trip and item (`lead`)."""
        tt = tensors[mv.tensor]
        bh, bw = mv.block
        tr, tc = self.tile
        moved = bh * bw * tr * tc * tt.data.itemsize * math.prod(lead)
        self.record.loaded[tt.name] = self.record.loaded.get(tt.name, 0) + moved
        data = tt.snapshot if tt.snapshot is not None else tt.data
        row_len = data.shape[1]
        # Where a load's block sits depends on the items and the K trips only (not on
        # any data, unless it goes through a table): worked out once per program.
        key = None
        if mv.table is None:
            key = (mv.op, int(items[0]), lead, self._trips(mv, env), data.shape)
            if (hit := self.compiled.placed_loads.get(key)) is not None:
                return Page(data, hit[0], bh * bw, self.tile, hit[1], prog=hit[2])
        t0 = self._origins(mv, env, tensors, items, lead)
        row, col = self._block_rows(mv, t0, tt, items, "loads")
        offsets = (row[:, 0] * tr * row_len + col[:, 0] * tc).reshape(lead)
        steps = self._geometry(row, col, bh)
        if steps is not None:
            geometry = (bh, bw, steps[0], steps[1], row_len)
            prog = progression(offsets)
            if key is not None:
                self.compiled.placed_loads[key] = (offsets, geometry, prog)
            return Page(data, offsets, bh * bw, self.tile, geometry, prog=prog)
        # Block rows that do not step evenly: copy the page out, a block row at a time.
        n = len(t0)
        page = np.empty((n, tr, bh * bw * tc), dtype=data.dtype)
        for a in range(bh):
            r_idx = row[:, a][:, None] * tr + np.arange(tr)[None, :]
            c_idx = col[:, a][:, None] * tc + np.arange(bw * tc)[None, :]
            page[:, :, a * bw * tc : (a + 1) * bw * tc] = data[
                r_idx[:, :, None], c_idx[:, None, :]
            ]
        offsets = (np.arange(n) * page[0].size).reshape(lead)
        return Page(page.reshape(n, -1), offsets, bh * bw, self.tile)

    def _store_place(
        self,
        mv: _Move,
        env: dict[SSAValue, Any],
        tensors: dict[SSAValue, TileTensor],
        items: np.ndarray,
        tt: TileTensor,
    ) -> _StorePlace:
        """Where a store's blocks go, checked inside the tensor and for two items of
        the group writing one tile; without a table, worked out once per program."""
        key = None
        if mv.table is None:
            key = (mv.op, int(items[0]), len(items), self._trips(mv, env), tt.data.shape)
            if (hit := self.compiled.placed_stores.get(key)) is not None:
                return hit
        n = len(items)
        bh, bw = mv.block
        tr, tc = self.tile
        t0 = self._origins(mv, env, tensors, items, (n,))
        row, col = self._block_rows(mv, t0, tt, items, "stores")
        tiles = (row[:, :, None] * tt.tiles[1] + col[:, :, None] + np.arange(bw)).reshape(n, -1)
        flat, owner = tiles.reshape(-1), np.repeat(items, bh * bw)
        order = np.lexsort((owner, flat))
        same_tile = flat[order][1:] == flat[order][:-1]
        other_item = owner[order][1:] != owner[order][:-1]
        if (same_tile & other_item).any():
            j = int(np.argmax(same_tile & other_item))
            a, b = owner[order][j], owner[order][j + 1]
            r, c = divmod(int(flat[order][j]), tt.tiles[1])
            raise self.fail(
                mv.op, f"items {int(a)} and {int(b)} both write tile ({r}, {c}) of '{tt.name}'"
            )
        offsets = row[:, 0] * tr * tt.data.shape[1] + col[:, 0] * tc
        covers = bool(np.unique(tiles).size == math.prod(tt.tiles))
        place = _StorePlace(
            row, col, tiles, self._geometry(row, col, bh), progression(offsets), covers
        )
        if key is not None:
            self.compiled.placed_stores[key] = place
        return place

    def _store(
        self,
        mv: _Move,
        env: dict[SSAValue, Any],
        tensors: dict[SSAValue, TileTensor],
        items: np.ndarray,
    ) -> None:
        tt = tensors[mv.tensor]
        page = cast(Page, env[cast(SSAValue, mv.page)])
        bh, bw = mv.block
        if page.tiles != bh * bw:
            raise self.fail(
                mv.op, f"a {bh}x{bw} block cannot take a page of {page.tiles} tiles"
            )
        place = self._store_place(mv, env, tensors, items, tt)
        tr, tc = self.tile
        n = len(items)
        moved = bh * bw * tr * tc * tt.data.itemsize * n
        self.record.stored[tt.name] = self.record.stored.get(tt.name, 0) + moved
        if tt.writer is not None:
            self._claim(cast(StoreOp, mv.op), tt, items, place)
        # The pages in order, (items, rows, width), any of them 1 where every item or
        # row has the same values (copyto broadcasts them).
        vals = page.in_order()
        if tt.writer is not None and tt.tiles[0] == 1:
            # Rows past the end of a returned tensor's single tile row are padding:
            # nothing reads them (loads of it read its snapshot), so they are not written
            # (and a zero tensor of this kind is allocated without them).
            live = tt.dims[0]
            vals = vals[:, :live]
        else:
            live = tr
        row_len = tt.data.shape[1]
        if place.steps is not None and place.prog is not None:
            rho, kappa = place.steps
            dst = strided_view(
                tt.flat,
                place.prog,
                (n,),
                (live, bh, bw, tc),
                (row_len, rho * tr * row_len + kappa * tc, tc, 1),
                writeable=True,
            )
            if dst is not None:
                split = (bh, bw, tc) if vals.shape[2] > 1 else (1, 1, 1)
                np.copyto(dst, vals.reshape(*vals.shape[:2], *split), casting="unsafe")
                return
        row, col = place.row, place.col
        vals = np.broadcast_to(vals, (n, live, bh * bw * tc))
        vals = vals.reshape(n, live, bh, bw * tc).transpose(0, 2, 1, 3)
        r_idx = row[:, :, None] * tr + np.arange(live)[None, None, :]
        c_idx = col[:, :, None] * tc + np.arange(bw * tc)[None, None, :]
        tt.data[r_idx[:, :, :, None], c_idx[:, :, None, :]] = vals

    def _claim(
        self, o: StoreOp, tt: TileTensor, items: np.ndarray, place: _StorePlace
    ) -> None:
        """Record which item wrote each tile; an item writing a tile another item of an
        earlier group or store wrote is refused."""
        assert tt.writer is not None
        writer = tt.writer.reshape(-1)
        tiles = place.tiles
        if not tt.written:
            # The first store into the tensor: no earlier writer to clash with (two
            # items of this store writing one tile were refused where it was placed).
            tt.written = True
            tt.complete = place.covers
            writer[tiles] = items[:, None]
            return
        prev = writer[tiles]
        clash = (prev >= 0) & (prev != items[:, None])
        if clash.any():
            i, a = np.unravel_index(int(np.argmax(clash)), clash.shape)
            r, c = divmod(int(tiles[i, a]), tt.tiles[1])
            raise self.fail(
                o,
                f"items {int(prev[i, a])} and {int(items[i])} both write tile "
                f"({r}, {c}) of '{tt.name}'",
            )
        writer[tiles] = items[:, None]

    # --- stages --------------------------------------------------------------------

    def _operand(self, st: _StageInfo, i: int, page: Page) -> np.ndarray:
        """Input `i` over the iteration space: (items, *ext), with extent 1 along every
        axis it does not vary on (numpy broadcasts it)."""
        const, sub_coeffs, sub_ext, tail = st.read_plan()[i]
        placed = placement(page, const, sub_coeffs, sub_ext)
        offsets = page.offsets
        view = None
        if placed is not None:
            # Items that read the same elements share a view (stride 0, cut to one).
            view = page.view(placed[0], sub_ext, placed[1])
        if view is None:
            # Items that read the same elements (a page every item shares) keep one copy.
            offsets = shared_offsets(offsets)
            o = const + grid_sum(sub_coeffs, sub_ext)
            self._check_page(st, i, o, page)
            if not page.placeable(o):
                page = page.laid_out()
                offsets = page.offsets
            idx = offsets.reshape(offsets.shape + (1,) * len(sub_ext)) + page.place(o)
            view = page.base.reshape(-1)[idx]
        return compact(view.reshape(offsets.shape + tail))

    def _check_page(self, st: _StageInfo, i: int, o: np.ndarray, page: Page) -> None:
        if o.size and (o.min() < 0 or o.max() >= page.size):
            raise self.fail(
                st.op,
                f"stage '{st.name}' input #{i} reaches elements "
                f"{int(o.min())}..{int(o.max())} of a {page.tiles}-tile page",
            )

    def _indirect_operand(
        self, st: _StageInfo, i: int, page: Page, table: np.ndarray, lead: tuple[int, ...]
    ) -> np.ndarray:
        """Input `i` whose map adds `s0 * table value`, `table` the input it names over
        the iteration space (broadcast axes at extent 1). Where the elements sit depends
        only on the page's layout and offsets and on the table's values, so it is worked
        out once for each (a table of lanes is the same every run)."""
        const, coeffs, sym = st.maps[i]
        if not page.placeable(np.array([page.size - 1])):
            page = page.laid_out()
        key = (
            st.op, i, page.layout, page.progression(), page.offsets.shape, lead,
            table.shape, table.dtype.str, table.tobytes(),
        )
        idx = self.compiled.gathers.get(key)
        if idx is None:
            full = np.broadcast_to(table, (*lead, *st.ext)).astype(np.int64)
            o = (const + grid_sum(coeffs, st.ext)) + sym * full
            if o.min() < 0 or o.max() >= page.size:
                bad = np.argwhere((o < 0) | (o >= page.size))[0]
                raise self.fail(
                    st.op,
                    f"stage '{st.name}' input #{i} reads element {int(o[tuple(bad)])} "
                    f"of a {page.tiles}-tile page ({page.size} elements) through its table",
                )
            offsets = page.offsets.reshape(page.offsets.shape + (1,) * len(st.ext))
            idx = offsets + page.place(o)
            if len(self.compiled.gathers) > 64:
                self.compiled.gathers.clear()
            self.compiled.gathers[key] = idx
        return page.base.reshape(-1)[idx]

    def _stage(
        self,
        st: _StageInfo,
        env: dict[SSAValue, Any],
        lead: tuple[int, ...],
        got: dict[int, np.ndarray] | None = None,
    ) -> Page:
        if st.passes:
            return cast(Page, env[st.ins[0]])
        if not st.ins:
            page = st.pages.get(lead)
            if page is None:
                page = self._stage_page(st, self._stage_value(st, env, lead), lead)
                page.base.flags.writeable = False
                st.pages[lead] = page
            return page
        return self._stage_page(st, self._stage_value(st, env, lead, got), lead)

    def _stage_value(
        self,
        st: _StageInfo,
        env: dict[SSAValue, Any],
        lead: tuple[int, ...],
        got: dict[int, np.ndarray] | None = None,
    ) -> np.ndarray:
        """The stage's values over its parallel axes, (*lead, *par extents): `lead` is
        (items,), or (K trips, items) for a batch of trips. `got`: inputs already read."""
        pages = [cast(Page, env[v]) for v in st.ins]
        operands: list[np.ndarray | None] = [None] * len(pages)
        for i, page in enumerate(pages):
            if got is not None and i in got:
                operands[i] = got[i]
            elif st.via[i] < 0:
                operands[i] = self._operand(st, i, page)
        for i, page in enumerate(pages):
            if st.via[i] >= 0:
                table = cast(np.ndarray, operands[st.via[i]])
                operands[i] = self._indirect_operand(st, i, page, table, lead)
        return _evaluate_body(st, cast(list[np.ndarray], operands), lead, self.scratch)

    def _stage_page(self, st: _StageInfo, value: np.ndarray, lead: tuple[int, ...]) -> Page:
        """The output page of a stage with these values."""
        tr, tc = self.tile
        size = tr * st.out_tiles * tc
        nl = len(lead)
        if st.dense is not None:
            # The values are kept as they are (broadcast axes stay extent 1); the page
            # is laid out only when something needs it in order.
            v = compact(np.asarray(value))
            v = np.ascontiguousarray(v, dtype=st.out_dtype)
            v = v.reshape((1,) * (nl + len(st.par) - v.ndim) + v.shape)
            reach, axes = st.dense
            layout = tuple(
                (coef, extent, v.strides[nl + j] // v.itemsize if v.shape[nl + j] > 1 else 0)
                for j, coef, extent in axes
            )
            item_steps = tuple(
                v.strides[j] // v.itemsize if v.shape[j] > 1 else 0 for j in range(nl)
            )
            return Page(
                v, shared_grid(item_steps, lead), st.out_tiles, self.tile,
                dense=(reach, layout), prog=(0, item_steps),
            )
        par_ext = [st.ext[d] for d in st.par]
        count = math.prod(lead)
        out = np.zeros((count, size), dtype=st.out_dtype)
        offsets = (np.arange(count) * size).reshape(lead)
        dst = affine_view(
            out.reshape(-1), offsets + st.out_const, par_ext, st.out_coeffs, writeable=True
        )
        if dst is None:
            raise self.fail(st.op, f"stage '{st.name}' output map leaves its page")
        # A map that is injective on the parallel axes (verified) writes each element once.
        np.copyto(dst, np.broadcast_to(value, (*lead, *par_ext)), casting="unsafe")
        return Page(out, offsets, st.out_tiles, self.tile)


def _add_trips(a: np.ndarray, ws: list[np.ndarray], trips: int, full: int) -> np.ndarray:
    """`(a + w1[t]) + w2[t] ...` for t = 0, 1, ...: the f32 adds of an accumulating
    loop's body, in its order, into one array once the sum has its full shape. `ws`
    of `full` dimensions have a trip axis; lower ones hold for every trip."""
    out: np.ndarray | None = None
    for t in range(trips):
        for w in ws:
            wt = w[t if w.shape[0] > 1 else 0] if w.ndim == full else w
            if out is not None and broadcast_shape(out.shape, wt.shape) == out.shape:
                np.add(out, wt, out=out)
            else:
                out = np.add(a if out is None else out, wt, dtype=np.float32)
    assert out is not None
    return out


# --------------------------------------------------------------------------------------
# Stage values
# --------------------------------------------------------------------------------------


def _evaluate_body(
    st: _StageInfo, operands: list[np.ndarray], lead: tuple[int, ...], scratch: Scratch
) -> np.ndarray:
    """The stage's values over the parallel axes, (*lead, *par extents)."""
    ext = st.ext
    nl = len(lead)
    sum_axes = tuple(a - 1 + nl for a in st.sum_axes)
    if st.factors is not None:
        return contract(
            st.factor_sources(), st.body_args, operands, ext, lead, sum_axes, scratch,
            st.static_values(),
        )
    env = dict(st.static_values())
    env.update(zip(st.body_args, operands))
    for step in st.body_steps():
        env[step.result] = step.run([env[v] for v in step.operands], ext)
    full = plain(env[st.yielded])
    full = np.asarray(full)
    if full.ndim < nl + len(ext):
        full = full.reshape((1,) * (nl + len(ext) - full.ndim) + full.shape)
    if sum_axes:
        # A value that does not vary along a summed axis still counts once per index.
        full = np.broadcast_to(full, (*lead, *ext))
        acc = np.float32 if full.dtype.kind in "fV" else full.dtype
        if full.dtype.kind == "V" or full.dtype == np.float16:
            full = full.astype(np.float32)
        full = full.sum(axis=sum_axes, dtype=acc, keepdims=False)
    return full
