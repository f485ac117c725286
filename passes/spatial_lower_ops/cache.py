"""
The KV cache write: `tensor.insert_slice %new into %cache[..., %offset, ...]` at a
position known only when the step runs, as a program that updates the cache where it
lives, a `state` tensor the chip's DRAM keeps from step to step, moving only the tiles
the write touches.

```mlir
%p0 = tensor.extract %pos[%c0] : tensor<1xi32>
%offset = arith.index_cast %p0 : i32 to index
%cache = tensor.insert_slice %k_t into %cache_k[0, 0, %offset] [3, 64, 1] [1, 1, 1] : tensor<3x64x1xf32> into tensor<3x64x256xf32>
```

becomes programs that compute, from `%pos`, where the write lands (`cache_index_*`:
the first tile of its *window*, the tiles along the position's dim that hold positions
`offset ... offset + m - 1`, and the *lane*, the offset's place in the window's first
tile; for more than one position, the row of `%new` each window position reads), and

```mlir
%new_cache = spatial.map "cache_write_3x64x32" grid [...] ... ins(%cache_k2d, %k, %at, %lane) {
  %cache = spatial.tensor "blk.0.cache_k" external(...) : !spatial.tensor<192x256xf32, state>
  %old = spatial.load %cache[... + %at[0]] block 6x1 ... into %in0     // the window, through the table
  ... spatial.stage "write": window position x holds %new where 0 <= x - lane < m, else %old
  spatial.store %w to %cache[... + %at[0]] block 6x1 ...                // the same tiles back
}
```

A position past the cache makes the window's first tile one past the cache's tiles:
the load refuses it when the program runs (a diagnostic, never a write out of
bounds).

The write covers the cache along every dim but the position's, which is the cache's
last dim (a window of columns: the keys, cached transposed) or the last dim of its
rows (a window of rows: the values, each head's positions whole tiles); or, in a
batched cache (a leading dim of sequences), one row of the dims before the
position's at a static index, `%cache_k[2, 0, 0, %offset] [1, 3, 64, 1]`: the
same write, its window's tiles moved to that row's.

A batched step writes every row of a batched cache at once, each at its own position
(`match_row_write`: one `linalg.generic` a cache, row `r` the new value where the
position dim equals `%pos[r]`, the old cache elsewhere). That is the same write with
the rows an item axis: item `r` loads its window through entry `r` of the `at` table
(`%at[%r]`) and reads tile `r` of the lane table (`lane_row_value`: its lane, then `r`,
its row's place in the new values' page, which holds every row's). So a step moves
each row's window alone, never the rest of the cache, and the native engine writes a
donated cache where it lies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import cast

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, TensorType, i32
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.spatial import (
    IndexOp,
    IterKind,
    LoadOp,
    MapOp,
    NumericsAttr,
    PlanAttr,
    Role,
    StoreOp,
    TargetAttr,
)
from xdsl_spatial.passes.q8_lower.build import ProgramBuilder, origin
from xdsl_spatial.passes.q8_lower.plan import Allocation
from xdsl_spatial.passes.spatial_lower_ops.access import (
    Access,
    chip_shape,
    element_of,
    map_forms,
    resolve,
    row_major,
    shape_of,
)
from xdsl_spatial.passes.spatial_lower_ops.axes import NeedCut, NotLinear, Space
from xdsl_spatial.passes.spatial_lower_ops.build import affine, program_op, stage
from xdsl_spatial.passes.spatial_lower_ops.plan import (
    Move,
    TensorPlan,
    buffers_of_moves,
    move_of,
    rowcol,
    settle,
)
from xdsl_spatial.passes.spatial_lower_ops.spec import Body, Kind, OpSpec, index_value, synthetic

Table = Callable[[SSAValue, Callable[[int], SSAValue]], SSAValue]
"""An index program's element: from the run-time offset and the map's index."""


@dataclass(frozen=True)
class Offset:
    """A run-time index: element `at` (flat) of the integer tensor `tensor`, plus `add`."""

    tensor: SSAValue
    at: int
    add: int


def dynamic_offset(v: SSAValue) -> Offset | str:
    """The run-time index `v` is, when it is `index_cast(tensor.extract %t[...])` (plus
    a constant) with constant indices; why not."""
    add = 0
    while isinstance(v.owner, arith.AddiOp):
        lhs, rhs = v.owner.operands
        c = _const(rhs) if _const(rhs) is not None else _const(lhs)
        if c is None:
            return "the position is a sum of two run-time values"
        add += c
        v = lhs if _const(rhs) is not None else rhs
    cast_op = v.owner
    if not isinstance(cast_op, arith.IndexCastOp):
        return "the position is no element of a tensor"
    ex = cast_op.input.owner
    if not isinstance(ex, tensor.ExtractOp):
        return "the position is no element of a tensor"
    idx = [_const(i) for i in ex.indices]
    if any(i is None for i in idx):
        return "the position's element is at a run-time index"
    shape = shape_of(ex.tensor)
    flat = sum(cast(int, i) * s for i, s in zip(idx, row_major(shape)))
    return Offset(ex.tensor, flat, add)


def _const(v: SSAValue) -> int | None:
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return int(op.value.value.data)
    return None


@dataclass
class InsertSpec:
    """A write of `size` positions along dim `dim` of `dest` at a run-time offset:
    `source`'s values (read at `source_index`, forms of `dest`'s dims and the
    position in `source`; None: `source` is `dest`'s slice)."""

    op: Operation
    dest: SSAValue
    source: SSAValue
    dim: int
    size: int
    extent: int
    offset: Offset
    at: tuple[int, ...]
    """The static offset along each dim (0 along the position's): a batched cache's
    row of one sequence, its dims before the position's, one at a static index."""
    source_index: tuple[LinearForm, ...] | None = None
    row_dim: int | None = None
    """A write of every row of a batched cache (`match_row_write`): the dim of its
    rows, row `r` written at the offset `offset` reads plus `r` elements on."""

    @property
    def rows(self) -> int:
        """The rows written each at its own offset (0: one offset)."""
        return shape_of(self.dest)[self.row_dim] if self.row_dim is not None else 0


def match_insert(op: tensor.InsertSliceOp) -> InsertSpec | str:
    """The write an `insert_slice` is, or why it is none the pass lowers."""
    dest, src = shape_of(op.dest), shape_of(op.source)
    sizes = list(op.static_sizes.get_values())
    strides = list(op.static_strides.get_values())
    offsets = list(op.static_offsets.get_values())
    if op.sizes or op.strides or DYNAMIC_INDEX in sizes or any(s != 1 for s in strides):
        return "its sizes are not static or its strides not 1"
    dyn = [d for d, o in enumerate(offsets) if o == DYNAMIC_INDEX]
    if len(dyn) != 1 or len(op.offsets) != 1:
        return "it writes at no or at several run-time offsets"
    d = dyn[0]
    if len(src) != len(dest):
        return "the slice's rank is not the cache's"
    for k in range(len(dest)):
        if k == d or (offsets[k], sizes[k]) == (0, dest[k]):
            continue
        if k >= d or sizes[k] != 1:
            return (
                "the slice does not cover the cache along every dim but the position's "
                "and the leading rows (one at a static offset) before it"
            )
    off = dynamic_offset(op.offsets[0])
    if isinstance(off, str):
        return off
    rows = tuple(0 if k == d else o for k, o in enumerate(offsets))
    return InsertSpec(op, op.dest, op.source, d, sizes[d], dest[d], off, rows)


def match_row_write(op: linalg.GenericOp) -> InsertSpec | None:
    """The write a batched step's `linalg.generic` is when it writes each row `r` of
    a cache at its own run-time position `pos[r]`, the old cache elsewhere:

    ```mlir
    %k2 = linalg.generic {indexing_maps = [(r, b, d, j) -> (b, d, r), (r, ...) -> (r),
                                           id, id], iterator_types = [parallel x 4]}
        ins(%k, %pos, %kc) outs(%e) {
    ^bb0(%new: f32, %p: i32, %old: f32, %out: f32):
      %at = arith.index_cast %p : i32 to index
      %here = arith.cmpi eq, (linalg.index 3), %at : index
      linalg.yield (arith.select %here, %new, %old) : f32
    }
    ```

    (None: it is not one.)"""
    body = op.body.block
    ret = body.last_op
    if len(op.inputs) != 3 or len(op.outputs) != 1 or not isinstance(ret, linalg.YieldOp):
        return None
    sel = ret.operands[0].owner if len(ret.operands) == 1 else None
    if not isinstance(sel, arith.SelectOp):
        return None
    cond = sel.cond.owner
    if not isinstance(cond, arith.CmpiOp) or cond.predicate.value.data != 0:  # eq
        return None
    sides = [x.owner for x in (cond.lhs, cond.rhs)]
    at = [o for o in sides if isinstance(o, linalg.IndexOp)]
    cast_op = [o for o in sides if isinstance(o, arith.IndexCastOp)]
    args = [sel.lhs, sel.rhs, cast_op[0].input if cast_op else None]
    if len(at) != 1 or len(cast_op) != 1 or not all(a in body.args for a in args):
        return None
    new, old, pos = (body.args.index(cast(BlockArgument, a)) for a in args)
    if len({new, old, pos}) != 3 or pos > 2 or new > 2 or old > 2:
        return None
    if any(str(k.data) != "parallel" for k in op.iterator_types):
        return None
    maps = [m.data for m in op.indexing_maps]
    dest, out = op.inputs[old], op.results[0]
    shape = shape_of(out)
    n = len(shape)
    d = at[0].dim.value.data
    pos_forms, new_forms = map_forms(maps[pos]), map_forms(maps[new])
    every = AffineMap.identity(n)
    if maps[old] != every or maps[3] != every or shape_of(dest) != shape:
        return None
    if body.args[new].type != element_of(out) or pos_forms is None or new_forms is None:
        return None
    if len(pos_forms) != 1 or len(shape_of(op.inputs[pos])) != 1:
        return None
    rows = [k for k, c in enumerate(pos_forms[0].dims) if c]
    if len(rows) != 1 or pos_forms[0].dims[rows[0]] != 1 or pos_forms[0].const:
        return None
    if rows[0] == d or any(f.dims[d] for f in new_forms):
        return None
    index = tuple(LinearForm(f.const, (*f.dims, 0), ()) for f in new_forms)
    zeros = (0,) * n
    offset = Offset(op.inputs[pos], 0, 0)
    return InsertSpec(op, dest, op.inputs[new], d, 1, shape[d], offset, zeros, index, rows[0])


@dataclass
class InsertPlan:
    """Every number a cache write's program is built from."""

    spec: InsertSpec
    along: str
    """`cols`: the window is tile columns; `rows`: tile rows (of each head)."""
    window: int
    """Tiles of the window along the position's dim."""
    space: Space
    tile: tuple[int, int]
    tensors: list[TensorPlan]
    """The cache (read and written), the new values, the window's first tile (a row
    write's: a row's each), the lane (a row write's: a tile a row, `lane_row_value`),
    and (several positions) the rows of the new values each position reads."""
    old: Move
    new: Move
    lane: Move
    """The lane's tile (a row write's: its row's)."""
    old_offset: LinearForm
    new_offset: LinearForm
    new_step: int
    """Page elements between two positions of the new values (0: one position)."""
    owns_size: tuple[int, int]
    owns_first: tuple[int, int]
    owns_per_item: tuple[tuple[int, int], ...]
    buffers: list

    @property
    def grid(self) -> list[int]:
        return [self.space.axes[a].extent for a in self.space.of_role("item")] or [1]

    @property
    def stage_axes(self) -> list[int]:
        return self.space.of_role("stage")


def window_tiles(spec: InsertSpec, along_tiles: int, tr: int) -> int:
    """Tiles along the position's dim the window spans: the most `size` positions from
    any lane reach, at most the dim's."""
    return min(along_tiles, -(-(tr - 1 + spec.size) // tr))


def plan_insert(spec: InsertSpec, target: TargetAttr) -> InsertPlan | str:
    """The plan of a cache write, or why there is none."""
    tile = target.tile
    tr, tc = tile
    dest, src = spec.dest, spec.source
    shape = shape_of(dest)
    n = len(shape)
    rows, cols = chip_shape(shape)
    strides = row_major(shape)
    d = spec.dim
    if strides[d] == 1 and shape[d] == cols:
        along, along_tiles = "cols", -(-cols // tc)
    elif strides[d] == cols and d == n - 2:
        if spec.extent % tr:
            return f"the cache's {spec.extent} positions a head are not whole tiles of {tr} rows"
        if cols % tc:  # an item's tiles of a position's row would not be its own
            return f"the cache's rows of {cols} elements are not whole tiles of {tc} columns"
        along, along_tiles = "rows", spec.extent // tr
    else:
        return "the position's dim is neither the cache's columns nor the last of its rows"
    window = window_tiles(spec, along_tiles, tr if along == "rows" else tc)
    width = window * (tr if along == "rows" else tc)
    extents = [*shape, spec.size]
    for k, o in enumerate(spec.at):
        if spec.row_dim is None and (o or shape_of(src)[k] != shape[k]):
            extents[k] = 1  # one row of a batched cache
    extents[d] = width
    ndims = n + 1
    # Dims: the cache's (the position's dim the window), and the position in the new
    # values, which the stage reads through a table rather than iterating.
    unit = [
        LinearForm(0, tuple(1 if j == k else 0 for j in range(ndims)), ()) for k in range(ndims)
    ]
    row_form, col_form = LinearForm(0, (0,) * ndims, ()), LinearForm(0, (0,) * ndims, ())
    for k in range(n):
        at = _plus(unit[k], LinearForm(spec.at[k], (0,) * ndims, ()), 1)
        if strides[k] >= cols:
            row_form = _plus(row_form, at, strides[k] // cols)
        else:
            col_form = _plus(col_form, at, strides[k])
    old = Access(dest, (rows, cols), (row_form, col_form), None)
    src_index = spec.source_index or [unit[k] if k != d else unit[n] for k in range(n)]
    new = resolve(src, src_index, ndims)
    if isinstance(new, str):
        return new
    space = Space.of(extents)
    gather = [i for i, a in enumerate(space.axes) if a.dim == n]
    for g in gather:
        space = space.with_role(g, "gather")
    try:
        space = _settle(space, spec, old, new)
    except NotLinear as e:
        return str(e)
    last = "no grouping of its items fits"
    for sp in _item_choices(space, [old, new], d, tile):
        try:
            plan = _attempt(spec, sp, old, new, along, window, tile)
        except NotLinear as e:
            last = str(e)
            continue
        if sum(b.bytes(tile) for b in plan.buffers) <= target.local_mem.data:
            return plan
        last = "its buffers do not fit a site's local memory"
    return last


def _rows_axis(space: Space, spec: InsertSpec) -> int | None:
    """The axis of a row write's rows (None: one offset, or one row)."""
    if spec.row_dim is None:
        return None
    found = space.of_dim(spec.row_dim)
    return found[0] if found else None


def _as(space: Space, spec: InsertSpec, role: str) -> Space:
    """The space with a row write's rows axis in `role`: an item of the cache's
    write (each row's window its own, through its own table entry), a `gather` axis
    of the new values (every row's in the item's page, read at the row's place)."""
    axis = _rows_axis(space, spec)
    return space if axis is None else space.with_role(axis, role)


def _settle(space: Space, spec: InsertSpec, old: Access, new: Access) -> Space:
    """`settle` for the cache's accesses and the new values', the rows axis of a row
    write an item of the first and a gather axis of the second (so never cut)."""
    if spec.row_dim is None:
        return settle(space, [old, new])
    while True:
        before = space
        space = settle(_as(space, spec, "item"), [old])
        space = _as(settle(_as(space, spec, "gather"), [new]), spec, "item")
        if space == before:
            return space


def _plus(a: LinearForm, b: LinearForm, scale: int) -> LinearForm:
    return LinearForm(
        a.const + b.const * scale, tuple(x + y * scale for x, y in zip(a.dims, b.dims)), ()
    )


def _item_choices(space: Space, accesses: Sequence[Access], dim: int, tile) -> list[Space]:
    """Spaces with the cache's dims other than the position's that both accesses step
    along in whole tiles as item axes, then none."""
    tr, tc = tile
    forms = [rowcol(space, a) for a in accesses]
    sp = space
    for i, a in enumerate(space.axes):
        if a.role != "stage" or a.dim == dim:
            continue
        if all(r.dims[i] % tr == 0 and c.dims[i] % tc == 0 for r, c in forms):
            sp = sp.with_role(i, "item")
    return [sp, space] if sp != space else [space]


def _attempt(
    spec: InsertSpec,
    space: Space,
    old: Access,
    new: Access,
    along: str,
    window: int,
    tile: tuple[int, int],
) -> InsertPlan:
    tr, tc = tile
    while True:
        try:
            r, c = rowcol(space, old)
            old_mv, old_off, table = move_of(space, r, c, old.dims, tile, 0)
            if table is not None or old_mv.stride != -(-old.dims[1] // tc):
                raise NotLinear("the window's tiles an item writes are not a rectangle")
            view = _as(space, spec, "gather")
            r2, c2 = rowcol(view, new)
            new_mv, new_off, table2 = move_of(view, r2, c2, new.dims, tile, 1)
            if table2 is not None:
                raise NotLinear("the new values' rows are not linear in tiles")
            break
        except NeedCut as n:
            if space.axes[n.axis].role not in ("stage", "gather"):
                raise NotLinear("an item axis would have to be cut") from None
            space = space.cut(n.axis, n.by)
    items = space.of_role("item")
    rows = _rows_axis(space, spec)
    if rows is not None:  # the new values' page holds every row: no step along them
        steps = iter(new_mv.per_item)
        new_mv = replace(new_mv, per_item=tuple(0 if x == rows else next(steps) for x in items))
    gather = view.of_role("gather")
    step = new_off.dims[gather[0]] if gather else 0
    new_off = LinearForm(
        new_off.const, tuple(0 if k in gather else x for k, x in enumerate(new_off.dims)), ()
    )
    tpr = -(-old.dims[1] // tc)
    first_r, first_c = divmod(old_mv.first, tpr)
    h, w = old_mv.block
    per_item = tuple((r.dims[x] // tr, c.dims[x] // tc) for x in items)
    if along == "cols":
        owns_first, owns_size = (first_r, 0), (h, tpr)
    else:
        head = spec.extent // tr
        owns_first, owns_size = (first_r, first_c), (head, w)
    src_elem = element_of(new.root) if new.root is not None else element_of(spec.source)
    n = max(spec.rows, 1)
    tensors = [
        TensorPlan(old.root, old.dims, element_of(spec.dest), old.reshaped),
        TensorPlan(new.root, new.dims, src_elem, new.reshaped),
        TensorPlan(None, (1, n), i32),
        TensorPlan(None, (1, n * tc if spec.rows else 1), i32),
    ]
    width = window * (tr if along == "rows" else tc)
    # a row write's lane tile is its row's (`lane_row_value`), one tile a row
    lane_steps = tuple(1 if x == rows else 0 for x in items)
    lane = Move(3, 0, lane_steps, 0, (1, 1), n)
    moves = [old_mv, new_mv, lane]
    if spec.size > 1:
        tiles = -(-width // tc)
        tensors.append(TensorPlan(None, (1, width), i32))
        moves.append(Move(4, 0, (0,) * len(items), 0, (1, tiles), tiles))
    result = element_of(spec.dest)
    return InsertPlan(
        spec,
        along,
        window,
        space,
        tile,
        tensors,
        old_mv,
        new_mv,
        lane,
        old_off,
        new_off,
        step,
        owns_size,
        owns_first,
        per_item,
        buffers_of_moves(moves, [t.element for t in tensors], h * w, result),
    )


# --------------------------------------------------------------------------------------
# Where the write lands: the index programs
# --------------------------------------------------------------------------------------


def index_spec(
    op: Operation,
    offset: Offset,
    shape: tuple[int, ...],
    value: Table,
    row: int | None = None,
    wanted: Sequence[tuple[int, int]] = (),
) -> OpSpec:
    """A map of `shape` (i32) whose element is `value(offset, index)`, `offset` the
    run-time index in `index` arithmetic (a program reading the position's tensor;
    `row`: the dim along which it reads the next element, a row write's next row's),
    written as the first 2-d shape of `wanted` that fits (`output_shape`)."""
    from xdsl_spatial.passes.spatial_lower_ops.spec import result_access

    ndims = len(shape)
    along = tuple(1 if k == row else 0 for k in range(ndims))
    pos = resolve(offset.tensor, [LinearForm(offset.at, along, ())], ndims)
    assert not isinstance(pos, str), "a tensor of any rank reads as its row-major elements"
    unit = [
        LinearForm(0, tuple(1 if j == k else 0 for j in range(ndims)), ()) for k in range(ndims)
    ]
    elem = element_of(offset.tensor)

    def build(args: Sequence[SSAValue], index: Callable[[int], SSAValue]) -> SSAValue:
        off = arith.IndexCastOp(args[0], IndexType()).result
        if offset.add:
            off = arith.AddiOp(off, _index(offset.add)).result
        return arith.IndexCastOp(value(off, index), i32).result

    body: Body = synthetic([elem], i32, build)
    out = result_access(shape, unit, ndims, wanted)
    return OpSpec(op, Kind.MAP, shape, frozenset(), [pos], out, body)


def _index(v: int) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(v, IndexType())).result


def window_start(plan: InsertPlan, off: SSAValue) -> SSAValue:
    """The window's first tile along the position's dim: the offset's, moved back so
    that the window stays inside the dim."""
    tr, tc = plan.tile
    along_tiles = plan.spec.extent // tr if plan.along == "rows" else -(-plan.spec.extent // tc)
    t = arith.DivUIOp(off, _index(tr if plan.along == "rows" else tc)).result
    return arith.MinSIOp(t, _index(along_tiles - plan.window)).result


def at_value(plan: InsertPlan) -> Table:
    """The table the window's loads and stores add to their origin: its first tile
    (times the tiles per row along rows), or, for an offset outside `0 ... extent -
    size`, the cache's tile count (one past its last tile: the load refuses it)."""
    spec = plan.spec
    tr, tc = plan.tile
    rows, cols = plan.tensors[0].dims
    tiles = -(-rows // tr) * -(-cols // tc)
    scale = -(-cols // tc) if plan.along == "rows" else 1

    def value(off: SSAValue, index: Callable[[int], SSAValue]) -> SSAValue:
        lo = arith.CmpiOp(off, _index(0), "sge").result
        hi = arith.CmpiOp(off, _index(spec.extent - spec.size), "sle").result
        valid = arith.AndIOp(lo, hi).result
        t0 = window_start(plan, off)
        if scale != 1:
            t0 = arith.MuliOp(t0, _index(scale)).result
        return arith.SelectOp(valid, t0, _index(tiles)).result

    return value


def lane_value(plan: InsertPlan) -> Table:
    """The offset's place in the window: `offset - 32 * first tile`."""
    tr, tc = plan.tile
    step = tr if plan.along == "rows" else tc

    def value(off: SSAValue, index: Callable[[int], SSAValue]) -> SSAValue:
        t0 = window_start(plan, off)
        return arith.SubiOp(off, arith.MuliOp(t0, _index(step)).result).result

    return value


def lane_row_value(plan: InsertPlan) -> Table:
    """A row write's lane table, a tile row `r` (dim 0) of the rows': its lane, then
    `r` (the row's place among the new values' rows of the item's page)."""
    lane = lane_value(plan)

    def value(off: SSAValue, index: Callable[[int], SSAValue]) -> SSAValue:
        first = arith.CmpiOp(index(1), _index(0), "eq").result
        return arith.SelectOp(first, lane(off, index), index(0)).result

    return value


def rows_value(plan: InsertPlan) -> Table:
    """For window position `x` (dim 1), the new values' position it reads:
    `x - lane`, clamped into `0 ... size - 1` (a position outside the write reads any
    row: the write keeps the old value there)."""
    lane = lane_value(plan)

    def value(off: SSAValue, index: Callable[[int], SSAValue]) -> SSAValue:
        x = index(1)
        k = arith.SubiOp(x, lane(off, index)).result
        k = arith.MaxSIOp(k, _index(0)).result
        return arith.MinSIOp(k, _index(plan.spec.size - 1)).result

    return value


# --------------------------------------------------------------------------------------
# The write
# --------------------------------------------------------------------------------------


def build_insert(
    plan: InsertPlan,
    bound: Sequence[SSAValue],
    names: Sequence[str],
    program_name: str,
    target: TargetAttr,
) -> MapOp:
    """The write's program: `bound` binds the cache, the new values, the window's
    first tile, the lane and (several positions) the rows table."""
    spec = plan.spec
    space = plan.space
    alloc = Allocation(plan.buffers)
    p = ProgramBuilder(plan.grid, [f"i{k}" for k in range(len(plan.grid))], bound)
    stage_axes = plan.stage_axes
    position = {a: k for k, a in enumerate(stage_axes)}
    x_axes = [a for a in stage_axes if space.axes[a].dim == spec.dim]
    result_type = TensorType(plan.tensors[0].element, plan.tensors[0].dims)
    with ImplicitBuilder(p.block):
        roles = [Role.STATE, Role.INPUT, Role.INPUT, Role.INPUT, Role.INPUT]
        tensors = [
            p.tensor(names[k], t.dims, t.element, roles[k], arg=k, hint=f"t{k}")
            for k, t in enumerate(plan.tensors)
        ]
        bufs = [p.buffer(alloc.take(f"in{k}")) for k in range(len(plan.tensors) - 1)]
        out = p.buffer(alloc.take("out"))
        coords = p.coords

        def through_table(mv: Move) -> tuple[AffineMap, list[SSAValue], AffineMap]:
            """The window's origin and where in the `at` table it reads its first
            tile: entry 0, or a row write's row's."""
            steps = [(coords[k], s) for k, s in enumerate(mv.per_item) if s]
            at, vars_ = origin(mv.first, steps)
            rows = _rows_axis(space, spec)
            entry = AffineExpr.constant(0)
            if rows is not None:
                row = coords[space.of_role("item").index(rows)]
                if row not in vars_:
                    vars_.append(row)
                at = AffineMap(0, len(vars_), at.results)
                entry = AffineExpr.symbol(vars_.index(row))
            return at, vars_, AffineMap(0, len(vars_), (entry,))

        at, vars_, table_at = through_table(plan.old)
        old = LoadOp(
            tensors[0], bufs[0], at, vars_, plan.old.block, plan.old.stride, 1, tensors[2], table_at
        ).result
        nmv = plan.new
        new = p.load(
            tensors[1],
            bufs[1],
            nmv.first,
            [(coords[k], s) for k, s in enumerate(nmv.per_item) if s],
            nmv.block,
            nmv.stride,
        )
        lmv = plan.lane
        lane_steps = [(coords[k], s) for k, s in enumerate(lmv.per_item) if s]
        lane = p.load(tensors[3], bufs[2], 0, lane_steps, lmv.block, lmv.stride)
        x_form = AffineExpr.constant(0)
        for a in x_axes:
            x_form = x_form + AffineExpr.dimension(position[a]) * space.axes[a].scale
        new_map = affine(plan.new_offset, stage_axes)
        ins: list[tuple[SSAValue, AffineExpr]] = [
            (old, affine(plan.old_offset, stage_axes)),
            (new, new_map),
            (lane, AffineExpr.constant(0)),
        ]
        via = [-1, -1, -1]
        if spec.rows:  # each row's values at its place in the page, the lane tile's next
            ins[1] = (new, new_map + AffineExpr.symbol(0) * plan.new_step)
            via = [-1, 3, -1, -1]
            ins.append((lane, AffineExpr.constant(1)))
        elif spec.size > 1:
            mv = p.load(
                tensors[4], bufs[3], 0, [], (1, plan.buffers[3].tiles), plan.buffers[3].tiles
            )
            ins[1] = (new, new_map + AffineExpr.symbol(0) * plan.new_step)
            via = [-1, 3, -1, -1]
            ins.append((mv, x_form))

        def body(args: Sequence[SSAValue]) -> SSAValue:
            x = index_value([(IndexOp(position[a]).result, space.axes[a].scale) for a in x_axes])
            k = arith.SubiOp(x, arith.IndexCastOp(args[2], IndexType()).result).result
            lo = arith.CmpiOp(k, _index(0), "sge").result
            hi = arith.CmpiOp(k, _index(spec.size), "slt").result
            return arith.SelectOp(arith.AndIOp(lo, hi).result, args[1], args[0]).result

        iters = [(IterKind.PAR, space.axes[a].extent) for a in stage_axes]
        written = stage("write", iters, ins, out, affine(plan.old_offset, stage_axes), body, via)
        StoreOp(
            written, tensors[0], at, vars_, plan.old.block, plan.old.stride, 1, tensors[2], table_at
        )
    alloc.done()
    items = 1
    for g in plan.grid:
        items *= g
    k_plan = PlanAttr((1, items), 1, plan.owns_size)
    region = p.finish([tensors[0]])
    exact = NumericsAttr("exact")
    return program_op(MapOp, program_name, plan, target, k_plan, exact, bound, result_type, region)
