"""
The plan of an op's program (`OpPlan`): every number it is built from, before any op
is built. Numbers in, numbers out.

Given an op's spec (`spec.OpSpec`: its dims, each operand's row and column as linear
forms of the dims) and the target, the plan decides

- the *axes*: each dim cut where an address would otherwise not be linear
  (`axes.cut`): a row and a column from a row-major offset, a page's tile row from a
  row;
- which axes run where: the *item* axes (the program's item grid: each item owns a
  rectangle of the result's tiles; an axis every operand steps along in whole tiles,
  the result's contiguous columns cut into groups of at most `acc_tiles` tiles), the
  *trip* axis (a reduced axis folded a K block at a time by a K loop with an fp32
  carry, when its tiles are more than a K block's or the pages do not fit a site
  otherwise), and the *stage* axes (the rest: one stage's iteration space);
- each *move*: the block of tiles an operand's stage-axis points reach, its first tile
  as a linear form of the item coordinates and the trip (whole tiles), and where each
  point is in the page (`Read`); the result's store and the rectangle an item owns;
- the *buffers* and their bytes, which must fit a site's local memory.

It declines, saying why, when an address is not linear in whole tiles whatever the
cuts, or when no grouping of the items and trips fits a site.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import f32, i32
from xdsl.ir import Attribute, SSAValue

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.spatial import TargetAttr, element_bytes
from xdsl_spatial.passes.q8_lower.plan import BufferPlan
from xdsl_spatial.passes.spatial_lower_ops.access import Access, element_of
from xdsl_spatial.passes.spatial_lower_ops.axes import (
    NeedCut,
    NotLinear,
    Space,
    cut,
    format_form,
    restrict,
)
from xdsl_spatial.passes.spatial_lower_ops.spec import Kind, OpSpec

K_BLOCK_TILES = 32
"""Tiles of a reduced axis one trip of a K loop folds at most: 1024 elements on a
32-wide tile, the K block a Q8_0 fold's trip folds."""


class DoesNotFit(Exception):
    """The buffers of a choice of items and trips exceed a site's local memory."""


@dataclass(frozen=True)
class Move:
    """A block of tiles one load or store moves per item (and trip)."""

    tensor: int
    """Which of the plan's tensors."""
    first: int
    """Its first tile for item 0 (and trip 0)."""
    per_item: tuple[int, ...]
    """Tiles its first tile moves per step along each item axis."""
    per_trip: int
    """... and per trip of the K loop."""
    block: tuple[int, int]
    stride: int
    """Tiles per row of its tensor."""

    @property
    def multicast(self) -> bool:
        """Every item moves the same block."""
        return not any(self.per_item)


@dataclass(frozen=True)
class Read:
    """Where a stage input reads its page: the load, and the flat page offset as a
    form of the stage axes."""

    load: int
    offset: LinearForm
    """With a `table`, the column part only: the row's part is read from it (`s0`)."""
    table: int | None = None
    """The load of the row table (a row of the page the offset of each row of the
    block, for rows no cut makes linear in tiles), or None."""
    table_offset: LinearForm | None = None
    """Where the row table is read: the row in the block."""


@dataclass(frozen=True)
class TensorPlan:
    """A tensor a program declares: the value it binds (None: the result) and its
    shape and element type on the chip."""

    value: SSAValue | None
    dims: tuple[int, int]
    element: Attribute
    reshaped: bool = False
    """Bound through a reshape of a tensor of another rank."""
    values: tuple[int, ...] | None = None
    """A constant table's elements (row-major), which the program declares."""


@dataclass
class OpPlan:
    """Every number an op's program is built from."""

    spec: OpSpec
    space: Space
    tile: tuple[int, int]
    tensors: list[TensorPlan]
    loads: list[Move]
    reads: list[Read]
    """One per stage input."""
    store: Move
    out_offset: LinearForm
    """Where the stage writes a point in the result's page (stage axes)."""
    owns_size: tuple[int, int]
    owns_first: tuple[int, int]
    owns_per_item: tuple[tuple[int, int], ...]
    """Tile row and column of the rectangle item 0 owns, and their step per item axis."""
    buffers: list[BufferPlan] = field(default_factory=list)

    @property
    def stage_axes(self) -> list[int]:
        return self.space.of_role("stage")

    @property
    def item_axes(self) -> list[int]:
        return self.space.of_role("item")

    @property
    def trip_axis(self) -> int | None:
        t = self.space.of_role("trip")
        return t[0] if t else None

    @property
    def grid(self) -> list[int]:
        return [self.space.axes[a].extent for a in self.item_axes] or [1]

    @property
    def items(self) -> int:
        return int(np.prod(self.grid))

    @property
    def trips(self) -> int:
        t = self.trip_axis
        return 1 if t is None else self.space.axes[t].extent

    def in_loop(self, load: int) -> bool:
        return self.loads[load].per_trip != 0

    def buffer_bytes(self) -> int:
        return sum(b.bytes(self.tile) for b in self.buffers)

    def describe(self) -> str:
        loop = f", {self.trips} K trips" if self.trips > 1 else ""
        return (
            f"items = {self.items}{loop}, owns {self.owns_size[0]}x{self.owns_size[1]} "
            f"tiles, local memory = {self.buffer_bytes():,} B"
        )


# --------------------------------------------------------------------------------------
# Rows and columns
# --------------------------------------------------------------------------------------


def rowcol(space: Space, a: Access) -> tuple[LinearForm, LinearForm]:
    """An access's row and column as forms of the axes (`NeedCut` when an axis must
    be cut for them to be linear)."""
    if a.index is not None:
        return space.form(a.index[0]), space.form(a.index[1])
    assert a.offset is not None
    return cut(space.form(a.offset), space.extents(), a.dims[1])


def aligned(space: Space, forms: Sequence[tuple[LinearForm, LinearForm]], axis: int, tile) -> bool:
    """Whether every access steps along `axis` in whole tiles."""
    tr, tc = tile
    return all(r.dims[axis] % tr == 0 and c.dims[axis] % tc == 0 for r, c in forms)


def settle(space: Space, accesses: Sequence[Access]) -> Space:
    """The space cut until every access's row and column are linear (only stage
    axes are cut: `NotLinear` when an item or trip axis would have to be)."""
    while True:
        try:
            for a in accesses:
                rowcol(space, a)
            return space
        except NeedCut as n:
            if space.axes[n.axis].role != "stage":
                raise NotLinear("an item or trip axis would have to be cut") from None
            space = space.cut(n.axis, n.by)


# --------------------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RowTable:
    """A page's offsets of a block's rows, for rows that are not linear in tiles: row
    `r` of the block starts at `values[r]` in the page; read at `row`."""

    values: tuple[int, ...]
    row: LinearForm


def move_of(
    space: Space, row: LinearForm, col: LinearForm, dims: tuple[int, int], tile, tensor: int
) -> tuple[Move, LinearForm, RowTable | None]:
    """The block the stage axes' points of an access reach (per item and trip), the
    page offset of each point (`NeedCut` when a row must be cut at a tile), and, when
    no cut makes the rows of a block of several tile rows linear, the table of their
    offsets (the offset is then the column's part)."""
    tr, tc = tile
    ext = space.extents()
    stage = space.of_role("stage") + space.of_role("gather")
    moving = space.of_role("item") + space.of_role("trip")
    tiles_per_row = -(-dims[1] // tc)
    for x in moving:
        if row.dims[x] % tr or col.dims[x] % tc:
            raise NotLinear("an item or trip axis steps in parts of a tile")
    step = {x: (row.dims[x] // tr) * tiles_per_row + col.dims[x] // tc for x in moving}
    rs, cs = restrict(row, stage), restrict(col, stage)
    (r0, r1), (c0, c1) = rs.bounds(ext), cs.bounds(ext)
    if r0 < 0 or c0 < 0:
        raise NotLinear("a negative row or column")
    tr0, tc0 = r0 // tr, c0 // tc
    h, w = r1 // tr - tr0 + 1, c1 // tc - tc0 + 1
    local_r = LinearForm(rs.const - tr0 * tr, rs.dims, ())
    local_c = LinearForm(cs.const - tc0 * tc, cs.dims, ())
    stride = tiles_per_row
    table = None
    if h == 1:
        offset = _sum(local_r, tc * w, local_c, 1)
    else:
        try:
            a, r = cut(local_r, ext, tr)
            spaced = [(x, c) for x, c in enumerate(a.dims) if c]
            if len(spaced) == 1 and spaced[0][1] > 1 and a.const == 0:
                # tile rows a constant step apart: a block of just those, its rows
                # that step apart in the tensor
                x, every = spaced[0]
                h, stride = ext[x], every * tiles_per_row
                a = LinearForm(0, tuple(1 if k == x else 0 for k in range(len(a.dims))), ())
            offset = _sum(_sum(r, tc * h * w, a, tc * w), 1, local_c, 1)
        except NotLinear:
            rows = range(h * tr)
            width = tc * h * w
            table = RowTable(tuple((x % tr) * width + (x // tr) * tc * w for x in rows), local_r)
            offset = local_c
    items = space.of_role("item")
    trip = space.of_role("trip")
    return (
        Move(
            tensor,
            tr0 * tiles_per_row + tc0,
            tuple(step[x] for x in items),
            step[trip[0]] if trip else 0,
            (h, w),
            stride,
        ),
        offset,
        table,
    )


def _sum(a: LinearForm, sa: int, b: LinearForm, sb: int) -> LinearForm:
    return LinearForm(
        a.const * sa + b.const * sb, tuple(x * sa + y * sb for x, y in zip(a.dims, b.dims)), ()
    )


# --------------------------------------------------------------------------------------
# Choosing items and trips
# --------------------------------------------------------------------------------------


def _divisors_desc(n: int, cap: int) -> list[int]:
    return [d for d in range(min(n, cap), 0, -1) if n % d == 0]


def trip_choices(spec: OpSpec, space: Space, tile) -> list[tuple[int | None, int]]:
    """(reduced axis, trips) to try, in order: no K loop when the reduced axis is at
    most a K block (`K_BLOCK_TILES` tiles), else the fewest trips whose K block is;
    then every other number of trips, fewest first (pages too large for a site), and
    no loop last. Only along the longest reduced axis no body index reads, in whole
    tiles a trip."""
    if spec.combiner is None:
        return [(None, 1)]
    tr, tc = tile
    read = spec.body.index_dims()
    axes = [
        i
        for i, a in enumerate(space.axes)
        if a.dim in spec.reduced and a.dim not in read and a.role == "stage"
    ]
    if not axes:
        return [(None, 1)]
    axis = max(axes, key=lambda i: space.axes[i].extent)
    e = space.axes[axis].extent
    block = K_BLOCK_TILES * max(tr, tc)
    loops: list[tuple[int | None, int]] = [
        (axis, t) for t in range(2, e + 1) if e % t == 0 and (e // t) % max(tr, tc) == 0
    ]
    if e <= block:
        return [(None, 1), *loops]
    first = [o for o in loops if e // o[1] <= block][:1]
    return first + [o for o in loops if o not in first] + [(None, 1)]


def with_trips(space: Space, axis: int | None, trips: int) -> Space:
    """The space with `axis` cut into `trips` trips (its high part the K loop's)."""
    if axis is None or trips == 1:
        return space
    e = space.axes[axis].extent
    space = space.cut(axis, e // trips)
    return space.with_role(axis, "trip")


def item_choices(spec: OpSpec, space: Space, tile, acc_tiles: int) -> list[Space]:
    """Spaces with item axes, most items first: every parallel axis each access steps
    along in whole tiles, and the result's contiguous column axis cut into groups of
    `w` tiles, `w` from `acc_tiles` down (no cut: one group); then, where those
    leave an item's rows of the result apart (`outer_items`), the same with only
    the item axes outside every stage axis of the result's rows."""
    tc = tile[1]
    read = spec.body.index_dims()
    accesses = [*spec.ins, spec.out]

    def natural(sp: Space) -> Space:
        forms = [rowcol(sp, a) for a in accesses]
        out_r, out_c = forms[-1]
        for i, a in enumerate(sp.axes):
            if a.role != "stage" or a.dim in spec.reduced or a.dim in read:
                continue
            if (out_r.dims[i] or out_c.dims[i]) and aligned(sp, forms, i, tile):
                sp = sp.with_role(i, "item")
        return sp

    def grouped(base: Space) -> list[Space]:
        _, out_c = rowcol(base, spec.out)
        col_axes = [
            i
            for i, a in enumerate(base.axes)
            if a.role == "stage"
            and out_c.dims[i] == 1
            and a.dim not in spec.reduced
            and a.dim not in read
            and a.extent > tc
            and a.extent % tc == 0
        ]
        out: list[Space] = []
        if col_axes:
            x = col_axes[0]
            tiles = base.axes[x].extent // tc
            for w in _divisors_desc(tiles, acc_tiles):
                if w == tiles:
                    continue
                try:
                    sp = settle(base.cut(x, w * tc), accesses)
                    if aligned(sp, [rowcol(sp, a) for a in accesses], x, tile):
                        out.append(sp.with_role(x, "item"))
                except NotLinear:
                    continue
        out.append(base)
        return out

    base = natural(space)
    outer = outer_items(base, rowcol(base, spec.out)[0])
    return grouped(base) + (grouped(outer) if outer != base else [])


def outer_items(space: Space, out_row: LinearForm) -> Space:
    """`space` with every item axis that steps the result's rows by less than a stage
    axis does made a stage axis: an item's rows of the result are then one run of
    tile rows (a batched cache's write: its rows a sequence of heads of positions, the
    sequences a stage axis since the new values' rows step one row a sequence)."""
    stage_steps = [out_row.dims[i] for i in space.of_role("stage") if space.axes[i].extent > 1]
    widest = max(stage_steps, default=0)
    for i in space.of_role("item"):
        if 0 < out_row.dims[i] < widest:
            space = space.with_role(i, "stage")
    return space


# --------------------------------------------------------------------------------------
# The plan
# --------------------------------------------------------------------------------------


def plan_op(spec: OpSpec, target: TargetAttr) -> OpPlan | str:
    """The plan of `spec`'s program on `target`, or why there is none."""
    tile = target.tile
    accesses = [*spec.ins, spec.out]
    try:
        space = settle(Space.of(spec.extents), accesses)
        last = "no grouping of items and trips"
        for axis, trips in trip_choices(spec, space, tile):
            try:
                tripped = settle(with_trips(space, axis, trips), accesses)
                choices = item_choices(spec, tripped, tile, target.acc_tiles.data)
            except NotLinear as e:
                last = str(e)
                continue
            for sp in choices:
                try:
                    plan = _attempt(spec, sp, tile)
                except (DoesNotFit, NotLinear) as e:
                    last = str(e) or "does not fit"
                    continue
                if plan.buffer_bytes() <= target.local_mem.data:
                    return plan
                last = (
                    f"its buffers need {plan.buffer_bytes():,} B of local memory, a site "
                    f"has {target.local_mem.data:,}"
                )
        return last
    except NotLinear as e:
        return str(e)


def _attempt(spec: OpSpec, space: Space, tile) -> OpPlan:
    while True:
        try:
            return _build_plan(spec, space, tile)
        except NeedCut as n:
            if space.axes[n.axis].role != "stage":
                raise NotLinear("an item or trip axis would have to be cut") from None
            space = space.cut(n.axis, n.by)


def _build_plan(spec: OpSpec, space: Space, tile) -> OpPlan:
    tensors: list[TensorPlan] = []
    index: dict[SSAValue, int] = {}
    for a in spec.ins:
        if a.bound not in index:
            index[a.bound] = len(tensors)
            tensors.append(TensorPlan(a.bound, a.dims, element_of(a.bound), a.reshaped))
    loads: list[Move] = []
    reads: list[Read] = []
    tables: dict[tuple[int, ...], int] = {}
    for a in spec.ins:
        r, c = rowcol(space, a)
        mv, offset, table = move_of(space, r, c, a.dims, tile, index[a.bound])
        if mv not in loads:
            loads.append(mv)
        if table is None:
            reads.append(Read(loads.index(mv), offset))
            continue
        if table.values not in tables:
            t = len(tensors)
            tensors.append(TensorPlan(None, (1, len(table.values)), i32, values=table.values))
            tiles = -(-len(table.values) // tile[1])
            loads.append(Move(t, 0, (0,) * len(space.of_role("item")), 0, (1, tiles), tiles))
            tables[table.values] = len(loads) - 1
        reads.append(Read(loads.index(mv), offset, tables[table.values], table.row))
    out_t = len(tensors)
    tensors.append(TensorPlan(None, spec.out.dims, spec.element))
    r, c = rowcol(space, spec.out)
    store, out_offset, out_table = move_of(space, r, c, spec.out.dims, tile, out_t)
    if out_table is not None:
        raise NotLinear("the result's rows are not linear in tiles")
    tr, tc = tile
    items = space.of_role("item")
    tpr = -(-spec.out.dims[1] // tc)
    if store.stride != tpr:
        raise NotLinear("the result's tiles an item writes are not a rectangle")
    owns_first = divmod(store.first, tpr)
    per_item = tuple((r.dims[x] // tr, c.dims[x] // tc) for x in items)
    plan = OpPlan(
        spec,
        space,
        tile,
        tensors,
        loads,
        reads,
        store,
        out_offset,
        store.block,
        owns_first,
        per_item,
    )
    _check_owned(plan)
    plan.buffers = buffers_of(plan)
    return plan


def _check_owned(plan: OpPlan) -> None:
    """The items' rectangles cover the result's tiles, each once."""
    tr, tc = plan.tile
    rows, cols = plan.spec.out.dims
    grid = (-(-rows // tr), -(-cols // tc))
    coords = np.indices(plan.grid).reshape(len(plan.grid), -1).T
    h, w = plan.owns_size
    r0 = plan.owns_first[0] + sum(coords[:, k] * s[0] for k, s in enumerate(plan.owns_per_item))
    c0 = plan.owns_first[1] + sum(coords[:, k] * s[1] for k, s in enumerate(plan.owns_per_item))
    r0 = np.broadcast_to(np.asarray(r0), (coords.shape[0],))
    c0 = np.broadcast_to(np.asarray(c0), (coords.shape[0],))
    tiles = (
        (r0[:, None, None] + np.arange(h)[None, :, None]) * grid[1]
        + c0[:, None, None]
        + np.arange(w)[None, None, :]
    ).reshape(-1)
    if tiles.size != grid[0] * grid[1] or np.unique(tiles).size != tiles.size:
        raise NotLinear(
            f"the items' {h}x{w}-tile rectangles do not cover the result's "
            f"{grid[0]}x{grid[1]} tiles once each"
        )


def buffers_of(plan: OpPlan) -> list[BufferPlan]:
    """The program's buffers: one per load (two pages when the K loop moves it), the
    result's page, and a K loop's partial sum and carry."""
    spec = plan.spec
    out: list[BufferPlan] = []
    for i, mv in enumerate(plan.loads):
        elem = plan.tensors[mv.tensor].element
        depth = 2 if plan.in_loop(i) else 1
        out.append(BufferPlan(f"in{i}", mv.block[0] * mv.block[1], elem, depth))
    tiles = plan.owns_size[0] * plan.owns_size[1]
    result = plan.tensors[plan.store.tensor].element
    if plan.trips > 1:
        out.append(BufferPlan("part", tiles, f32, 1))
        out.append(BufferPlan("carry", tiles, f32, 2))
    elif spec.kind in (Kind.REDUCE, Kind.CONTRACT) and spec.init is not None:
        out.append(BufferPlan("part", tiles, f32, 1))
    out.append(BufferPlan("out", tiles, result, 1))
    return out


def buffers_of_moves(
    moves: Sequence[Move], elements: Sequence[Attribute], out_tiles: int, result: Attribute
) -> list[BufferPlan]:
    """A program without a K loop's buffers: a page per load (`in<k>`), the result's
    page (`out`)."""
    out = [
        BufferPlan(f"in{k}", mv.block[0] * mv.block[1], elements[mv.tensor], 1)
        for k, mv in enumerate(moves)
    ]
    return [*out, BufferPlan("out", out_tiles, result, 1)]


def plan_bytes(plan: OpPlan) -> tuple[int, int]:
    """What one run moves, loads and stores over all items: whole tiles."""
    tr, tc = plan.tile
    loads = 0
    for i, mv in enumerate(plan.loads):
        elem = element_bytes(plan.tensors[mv.tensor].element)
        runs = plan.trips if plan.in_loop(i) else 1
        loads += plan.items * runs * mv.block[0] * mv.block[1] * tr * tc * elem
    h, w = plan.owns_size
    stores = plan.items * h * w * tr * tc * element_bytes(plan.tensors[-1].element)
    return loads, stores


def describe_form(form: LinearForm) -> str:
    return format_form(form)
