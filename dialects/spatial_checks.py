"""
What the `spatial` verifiers check beyond types: that a program can run.

Addresses are linear in the loop variables (item coordinates, the K block), so
each check enumerates every item and every K trip as numpy arrays and tests them
all at once; an error names the op, the tensor or buffer, and the first offender.

The checks that a running program must pass too (a block inside its tensor, a
table read inside its table, a page read inside its page, two items writing one
tile, an output tile nobody writes, buffers beyond the local memory) are the
`check_*` functions: the verifier calls them on what it can enumerate statically,
and both engines call them on what they run, so each refusal has one message. They
raise `VerifyException`; an engine reports it as a runtime error of the op.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.dialects.spatial import (
    BODY_OPS,
    BufferType,
    IterKind,
    KLoopOp,
    LinearForm,
    PageType,
    ProgramOp,
    ReturnOp,
    Role,
    StageOp,
    StoreOp,
    TensorHandleType,
    TensorOp,
    YieldOp,
    _TileMoveOp,
    element_name,
    linear_form,
)


def enclosing_program(op: Operation) -> ProgramOp | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, ProgramOp):
        p = p.parent_op()
    return p


def enclosing_loop(op: Operation) -> KLoopOp | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, ProgramOp):
        if isinstance(p, KLoopOp):
            return p
        p = p.parent_op()
    return None


def tile_grid(h: TensorHandleType, tile: tuple[int, int]) -> tuple[int, int]:
    """Tile rows and tiles per row of a tensor (the last ones padded)."""
    r, c = h.dims
    return -(-r // tile[0]), -(-c // tile[1])


def single_linear(m: AffineMap, what: str) -> LinearForm:
    if len(m.results) != 1:
        raise VerifyException(f"{what} must have one result, got {len(m.results)}")
    form = linear_form(m.results[0], m.num_dims, m.num_symbols)
    if form is None:
        raise VerifyException(
            f"{what} must be linear (sums of variables times constants), got {m.results[0]}"
        )
    return form


# --------------------------------------------------------------------------------------
# Loop variables
# --------------------------------------------------------------------------------------


def loop_var_values(
    program: ProgramOp, loop: KLoopOp | None, vars_: Sequence[SSAValue], what: str
) -> list[np.ndarray]:
    """Each variable's value for every (item, trip), as arrays of shape (items, trips)."""
    coords = program.item_coords()
    trips = loop.trips.data if loop is not None else 1
    out: list[np.ndarray] = []
    for v in vars_:
        if (
            isinstance(v, BlockArgument)
            and v.owner is program.entry
            and v.index < len(program.grid_shape)
        ):
            col = coords[:, v.index][:, None]
            out.append(np.broadcast_to(col, (len(coords), trips)))
        elif loop is not None and loop.body.block.args and v is loop.induction_var:
            out.append(np.broadcast_to(np.arange(trips)[None, :], (len(coords), trips)))
        else:
            raise VerifyException(
                f"{what} may only use item coordinates and the enclosing K loop's "
                f"index, got {_value_str(v)}"
            )
    return out


def _value_str(v: SSAValue) -> str:
    if v.name_hint:
        return f"%{v.name_hint}"
    if isinstance(v, BlockArgument):
        return f"block argument #{v.index}"
    return f"a result of {cast(Operation, v.owner).name}"


def eval_linear(form: LinearForm, values: Sequence[np.ndarray], shape) -> np.ndarray:
    acc = np.full(shape, form.const, dtype=np.int64)
    for c, v in zip(form.syms, values):
        if c:
            acc = acc + c * v
    return acc


# --------------------------------------------------------------------------------------
# Loads and stores
# --------------------------------------------------------------------------------------


def verify_move(op: _TileMoveOp, tensor: SSAValue, page_type: Attribute, kind: str) -> None:
    h = cast(TensorHandleType, tensor.type)
    pt = cast(PageType, page_type)
    if len(op.block) != 2:
        raise VerifyException(
            f"{kind} block must be rows x columns, got {list(op.block.get_values())}"
        )
    bh, bw = op.block_shape
    if bh < 1 or bw < 1:
        raise VerifyException(f"{kind} block must be at least 1x1 tiles, got {bh}x{bw}")
    if op.stride.data < 0:
        raise VerifyException(f"{kind} stride must be non-negative, got {op.stride.data}")
    if pt.tiles.data != bh * bw:
        raise VerifyException(
            f"{kind} block {bh}x{bw} moves {bh * bw} tiles but the page holds {pt.tiles.data}"
        )
    if pt.element_type != h.element_type:
        raise VerifyException(
            f"{kind} of {element_name(h.element_type)} tensor needs a "
            f"{element_name(h.element_type)} page, got {element_name(pt.element_type)}"
        )
    omap = op.origin.data
    if omap.num_dims != 0 or omap.num_symbols != len(op.origin_vars):
        raise VerifyException(
            f"{kind} origin must have one symbol per loop variable "
            f"({len(op.origin_vars)}), got {omap}"
        )
    origin = single_linear(omap, f"{kind} origin")
    table_form = None
    if (op.table is None) != (op.table_at is None):
        raise VerifyException(
            f"{kind} with an indirect table needs both the table and where it is read"
        )
    if op.table is not None and op.table_at is not None:
        th = cast(TensorHandleType, op.table.type)
        if not isinstance(th.element_type, IntegerType):
            raise VerifyException(
                f"{kind} indirect table must hold integers, got {element_name(th.element_type)}"
            )
        table_form = single_linear(op.table_at.data, f"{kind} table position")
    if kind == "store" and h.role.data in (Role.INPUT, Role.PARAM):
        article = "an" if h.role.data == Role.INPUT else "a"
        raise VerifyException(f"a store writes an output or a state, not {article} {h.role.data}")

    program = enclosing_program(op)
    if program is None:
        return
    loop = enclosing_loop(op)
    trips = loop.trips.data if loop is not None else 1
    if op.repeat.data != trips:
        where = "its K loop's trip count" if loop is not None else "1 outside a K loop"
        raise VerifyException(f"{kind} repeat must be {where}, {trips}, got {op.repeat.data}")
    values = loop_var_values(program, loop, op.origin_vars, f"{kind} origin")
    shape = (program.num_items, trips)
    if not all(shape):
        return  # no item or no trip: the program's or the loop's verifier says so
    check_enumerable(program)
    t0 = eval_linear(origin, values, shape)
    if table_form is not None and op.table is not None:
        decl = op.table.owner
        if not (isinstance(decl, TensorOp) and decl.values is not None):
            return  # an external table's values are checked when the program runs
        flat = np.asarray(decl.values.get_values()).reshape(-1).astype(np.int64)
        at = eval_linear(table_form, values, shape)
        check_table_reach(at, flat.size, kind)
        t0 = t0 + flat[at]
    check_block_inside(
        t0,
        (bh, bw),
        op.stride.data,
        tile_grid(h, program.target.tile),
        kind,
        _tensor_name(tensor),
        range(trips) if loop is not None else None,
    )


ENUMERATION_COPIES = 4
"""Arrays of a check's size alive at once (its indices, their rows and columns, a sort)."""


def check_enumerable(program: ProgramOp) -> None:
    """The checks that enumerate every item's tiles (moves, owned rectangles) fit the
    memory limit: a program too large for them is refused before they allocate, not
    after minutes of swapping (`XDSL_SPATIAL_MEMORY_LIMIT` sets the limit)."""
    from xdsl_spatial.core.memory import format_bytes, limit_text, memory_limit

    items = program.num_items
    tiles = items * math.prod(int(x) for x in program.owns_size.get_values())
    for mv in program.body.walk():
        if isinstance(mv, _TileMoveOp):
            bh, bw = mv.block_shape
            loop = enclosing_loop(mv)
            trips = loop.trips.data if loop is not None else 1
            tiles = max(tiles, items * trips * bh * (bw if isinstance(mv, StoreOp) else 1))
    need = tiles * 8 * ENUMERATION_COPIES
    limit = memory_limit()
    if need > limit:
        raise VerifyException(
            f"program '{program.program_name.data}': checking its {items:,} items "
            f"enumerates {tiles:,} tiles at once, {format_bytes(need)}, more than "
            f"{limit_text(limit)}"
        )


def _tensor_name(v: SSAValue) -> str:
    if isinstance(v.owner, TensorOp):
        return v.owner.tensor_name.data
    return str(v)


def block_rows(t0: np.ndarray, bh: int, stride: int) -> np.ndarray:
    """Linear index of each block row's first tile: shape t0.shape + (bh,)."""
    return t0[..., None] + stride * np.arange(bh)


def check_table_reach(at: np.ndarray, size: int, kind: str) -> None:
    """Every element index `at` of an indirect table lies inside its `size` elements."""
    if at.size and (at.min() < 0 or at.max() >= size):
        bad = int(np.argmax((at < 0) | (at >= size)))
        raise VerifyException(
            f"{kind} reads its table at element {int(at.flat[bad])}, outside its {size} elements"
        )


def check_block_inside(
    t0: np.ndarray,
    block: tuple[int, int],
    stride: int,
    grid: tuple[int, int],
    kind: str,
    name: str,
    trips: Sequence[int] | None = None,
) -> None:
    """Every block of tiles a move reads or writes lies inside its tensor: `t0` is the
    first tile of each item's block, (items, K trips), the trips' numbers `trips`
    (None outside a K loop); `grid` the tensor's (tile rows, tiles per row)."""
    tr, tpr = grid
    bh, bw = block
    starts = block_rows(t0, bh, stride)
    row, col = np.divmod(starts, tpr)
    bad = (starts < 0) | (row >= tr) | (col + bw > tpr)
    if bad.any():
        item, trip, a = (int(i) for i in np.unravel_index(int(np.argmax(bad)), bad.shape))
        raise VerifyException(
            f"{kind} block {bh}x{bw} at tile {int(t0[item, trip])} (row {a} starts at "
            f"tile {int(starts[item, trip, a])}) runs outside tensor '{name}' "
            f"({tr}x{tpr} tiles) for item {item}"
            + (f" at K block {trips[trip]}" if trips is not None else "")
        )


def written_tiles(store: StoreOp, program: ProgramOp) -> tuple[np.ndarray, np.ndarray]:
    """(item, linear tile) of every tile `store` writes, over all items and trips."""
    loop = enclosing_loop(store)
    trips = loop.trips.data if loop is not None else 1
    values = loop_var_values(program, loop, store.origin_vars, "store origin")
    shape = (program.num_items, trips)
    t0 = eval_linear(single_linear(store.origin.data, "store origin"), values, shape)
    if store.table is not None and store.table_at is not None:
        decl = store.table.owner
        if not (isinstance(decl, TensorOp) and decl.values is not None):
            raise VerifyException("a store through an external table cannot be checked for overlap")
        flat = np.asarray(decl.values.get_values()).reshape(-1).astype(np.int64)
        t0 = t0 + flat[eval_linear(single_linear(store.table_at.data, "table"), values, shape)]
    bh, bw = store.block_shape
    tiles = block_rows(t0, bh, store.stride.data)[..., None] + np.arange(bw)
    items = np.broadcast_to(np.arange(program.num_items)[:, None, None, None], tiles.shape)
    return items.reshape(-1), tiles.reshape(-1)


# --------------------------------------------------------------------------------------
# Programs
# --------------------------------------------------------------------------------------


def check_local_memory(op: ProgramOp) -> None:
    """A program's buffers fit one site's local memory."""
    used = op.buffer_bytes()
    if used > op.target.local_mem.data:
        parts = ", ".join(
            f"{b.buffer_name.data} {cast(BufferType, b.result.type).bytes(op.target.tile_elems)}"
            for b in op.buffers()
        )
        raise VerifyException(
            f"buffers need {used} bytes of local memory but a site has "
            f"{op.target.local_mem.data} ({parts})"
        )


def check_grid(grid: Sequence[int]) -> None:
    """A program's item grid: at least one axis, every extent positive."""
    if not grid or any(g < 1 for g in grid):
        raise VerifyException(f"item grid must have positive extents, got {list(grid)}")


def verify_program(op: ProgramOp) -> None:
    grid = op.grid_shape
    check_grid(grid)
    block = op.entry
    expected = [*(["index"] * len(grid))]
    args = list(block.args)
    if len(args) != len(grid) + len(op.ins):
        raise VerifyException(
            f"program body takes {len(grid)} item coordinates and {len(op.ins)} "
            f"inputs, got {len(args)} block arguments"
        )
    for a in args[: len(grid)]:
        if str(a.type) != "index":
            raise VerifyException(f"item coordinates are index, got {a.type}")
    for a, v in zip(args[len(grid) :], op.ins):
        if a.type != v.type:
            raise VerifyException(
                f"program input #{a.index - len(grid)} is {v.type} but the body takes {a.type}"
            )
    del expected

    names: dict[str, TensorOp] = {}
    for t in op.tensors():
        if t.tensor_name.data in names:
            raise VerifyException(f"tensor '{t.tensor_name.data}' is declared twice")
        names[t.tensor_name.data] = t

    term = block.last_op
    if not isinstance(term, ReturnOp):
        raise VerifyException("a program body must end with spatial.return")
    returned: list[TensorOp] = []
    for v in term.values:
        if not isinstance(v.owner, TensorOp):
            raise VerifyException("spatial.return takes tensors declared by spatial.tensor")
        returned.append(v.owner)
    for t in names.values():
        role = t.handle.role.data
        n = sum(r is t for r in returned)
        if role in (Role.OUTPUT, Role.STATE) and n != 1:
            raise VerifyException(
                f"{role} tensor '{t.tensor_name.data}' must be returned once, got {n}"
            )
        if role in (Role.INPUT, Role.PARAM) and n:
            raise VerifyException(
                f"{role} tensor '{t.tensor_name.data}' is not a result of the program"
            )
    if len(returned) != len(op.outs):
        raise VerifyException(
            f"program has {len(op.outs)} results but returns {len(returned)} tensors"
        )
    for t, r in zip(returned, op.outs):
        rt = cast(TensorType[Attribute], r.type)
        if tuple(rt.get_shape()) != t.handle.dims or rt.element_type != t.handle.element_type:
            raise VerifyException(
                f"result {rt} does not match the returned tensor '{t.tensor_name.data}'"
            )

    check_local_memory(op)

    loops = [o for o in op.body.walk() if isinstance(o, KLoopOp)]
    plan = op.plan
    plan_items = math.prod(g.data for g in plan.grid)
    if plan_items != op.num_items:
        raise VerifyException(
            f"plan grid {[g.data for g in plan.grid]} holds {plan_items} items, the "
            f"program has {op.num_items}"
        )
    if not loops and plan.k_blocks.data != 1:
        raise VerifyException(f"plan k_blocks must be 1 with no K loop, got {plan.k_blocks.data}")
    if loops and plan.k_blocks.data != loops[0].trips.data:
        raise VerifyException(
            f"plan k_blocks is {plan.k_blocks.data} but the K loop runs {loops[0].trips.data} trips"
        )
    size = tuple(op.owns_size.get_values())
    if len(size) != 2:
        raise VerifyException(f"owns size must be [rows, cols], got {list(size)}")
    if any(s < 1 for s in size):
        raise VerifyException(f"an item owns at least 1x1 tiles, got {'x'.join(map(str, size))}")
    if tuple(s.data for s in plan.site) != size:
        raise VerifyException(
            f"plan site {[s.data for s in plan.site]} must be the tiles an item owns, {list(size)}"
        )
    if returned:
        verify_items(op, returned)


def verify_items(op: ProgramOp, returned: list[TensorOp]) -> None:
    """Items own disjoint rectangles; stores write exactly what items own; outputs are whole."""
    check_enumerable(op)
    tile = op.target.tile
    owns = op.owns.data
    if owns.num_dims != len(op.grid_shape) or owns.num_symbols or len(owns.results) != 2:
        raise VerifyException(
            f"owns must map the {len(op.grid_shape)} item coordinates to (tile row, "
            f"tile column), got {owns}"
        )
    h, w = (int(x) for x in op.owns_size.get_values())
    coords = op.item_coords()
    forms = [linear_form(e, owns.num_dims, 0) for e in owns.results]
    if any(f is None for f in forms):
        raise VerifyException(f"owns must be linear, got {owns}")
    r0, c0 = (
        f.const + coords @ np.asarray(f.dims, dtype=np.int64)  # type: ignore[union-attr]
        for f in forms
    )
    primary = returned[0].handle
    tr, tpr = tile_grid(primary, tile)
    outside = (r0 < 0) | (c0 < 0) | (r0 + h > tr) | (c0 + w > tpr)
    if outside.any():
        i = int(np.argmax(outside))
        raise VerifyException(
            f"item {i} owns tiles ({int(r0[i])}, {int(c0[i])}) size {h}x{w}, outside "
            f"'{returned[0].tensor_name.data}' ({tr}x{tpr} tiles)"
        )
    owned_tiles = (
        (r0[:, None, None] + np.arange(h)[None, :, None]) * tpr
        + c0[:, None, None]
        + np.arange(w)[None, None, :]
    ).reshape(len(coords), -1)
    owned_items = np.repeat(np.arange(len(coords)), h * w)
    check_disjoint(
        owned_items, owned_tiles.reshape(-1), "own", returned[0].tensor_name.data, (tr, tpr)
    )

    stores = [s for s in op.body.walk() if isinstance(s, StoreOp)]
    for t in returned:
        mine = [s for s in stores if s.tensor.owner is t]
        if not mine:
            raise VerifyException(f"no store writes '{t.tensor_name.data}'")
        items = np.concatenate([written_tiles(s, op)[0] for s in mine])
        tiles = np.concatenate([written_tiles(s, op)[1] for s in mine])
        ttr, ttpr = tile_grid(t.handle, tile)
        check_disjoint(items, tiles, "write", t.tensor_name.data, (ttr, ttpr))
        if t.handle.role.data == Role.OUTPUT:
            check_all_written(tiles, (ttr, ttpr), t.tensor_name.data)
        if t is returned[0]:
            pairs_w = np.unique(items * (ttr * ttpr) + tiles)
            pairs_o = np.unique(owned_items * (ttr * ttpr) + owned_tiles.reshape(-1))
            if not np.array_equal(pairs_w, pairs_o):
                diff = np.setxor1d(pairs_w, pairs_o)
                item, tl = divmod(int(diff[0]), ttr * ttpr)
                r, c = divmod(tl, ttpr)
                verb = "writes" if np.isin(diff[0], pairs_w) else "owns but never writes"
                raise VerifyException(
                    f"item {item} {verb} tile ({r}, {c}) of '{t.tensor_name.data}'"
                    + (" outside what it owns" if verb == "writes" else "")
                )


def check_all_written(tiles: np.ndarray, grid: tuple[int, int], name: str) -> None:
    """Every tile of an output (`grid` its tile rows and tiles per row) is among the
    linear `tiles` its stores write."""
    ttr, ttpr = grid
    missing = np.setdiff1d(np.arange(ttr * ttpr), tiles)
    if missing.size:
        r, c = divmod(int(missing[0]), ttpr)
        raise VerifyException(
            f"tile ({r}, {c}) of output '{name}' is written by no "
            f"item ({missing.size} of {ttr * ttpr} tiles unwritten)"
        )


def check_disjoint(
    items: np.ndarray, tiles: np.ndarray, verb: str, name: str, grid: tuple[int, int]
) -> None:
    """No two items `verb` (own, write) one tile: `items[j]` and linear `tiles[j]`
    are pairs, `grid` the tensor's (tile rows, tiles per row)."""
    pairs = np.unique(np.stack([tiles, items], axis=1), axis=0)
    t, first = np.unique(pairs[:, 0], return_index=True)
    if len(t) != len(pairs):
        dup = np.setdiff1d(np.arange(len(pairs)), first)[0]
        tile = int(pairs[dup, 0])
        others = pairs[pairs[:, 0] == tile, 1]
        r, c = divmod(tile, grid[1])
        raise VerifyException(
            f"items {int(others[0])} and {int(others[1])} both {verb} tile ({r}, {c}) of '{name}'"
        )


# --------------------------------------------------------------------------------------
# Stages
# --------------------------------------------------------------------------------------


def check_page_reach(
    lo: int, hi: int, tiles: int, size: int, stage: str, input_: int | None
) -> None:
    """A stage's input `input_` (None: its output) reaches page elements `lo..hi`,
    which must lie inside the `tiles`-tile page of `size` elements."""
    if lo < 0 or hi >= size:
        what = f"input #{input_}" if input_ is not None else "output"
        raise VerifyException(
            f"stage '{stage}' {what} reaches elements {lo}..{hi} of a "
            f"{tiles}-tile page ({size} elements)"
        )


def verify_stage(op: StageOp) -> None:
    name = op.stage_name.data
    kinds = op.iter_kinds
    ext = op.iter_extents
    if len(kinds) != len(ext) or not kinds:
        raise VerifyException(
            f"stage '{name}' needs one extent per iterator, got {len(kinds)} iterators "
            f"and {len(ext)} extents"
        )
    if any(e < 1 for e in ext):
        raise VerifyException(f"stage '{name}' extents must be positive, got {list(ext)}")
    if len(op.maps) != len(op.ins) + 1:
        raise VerifyException(
            f"stage '{name}' needs one map per input and one for the output "
            f"({len(op.ins) + 1}), got {len(op.maps)}"
        )
    if len(op.indirect_of) != len(op.ins):
        raise VerifyException(
            f"stage '{name}' needs one indirect entry per input, got {len(op.indirect_of)}"
        )
    bt = cast(BufferType, op.buffer.type)
    rt = cast(PageType, op.result.type)
    if bt.tiles.data != rt.tiles.data or bt.element_type != rt.element_type:
        raise VerifyException(
            f"stage '{name}' writes buffer <{bt.tiles.data}x"
            f"{element_name(bt.element_type)}> but gives page <{rt.tiles.data}x"
            f"{element_name(rt.element_type)}>"
        )
    program = enclosing_program(op)
    tile = program.target.tile if program is not None else (32, 32)
    tile_elems = tile[0] * tile[1]

    forms: list[LinearForm] = []
    for i, m in enumerate(op.maps.data):
        m = m.data
        what = f"stage '{name}' map #{i}" if i < len(op.ins) else f"stage '{name}' output map"
        if m.num_dims != len(kinds):
            raise VerifyException(
                f"{what} has {m.num_dims} dims but the stage has {len(kinds)} iterators"
            )
        forms.append(single_linear(m, what))
        if i < len(op.ins):
            via = op.indirect_of[i]
            if (via >= 0) != (m.num_symbols == 1) or m.num_symbols > 1:
                raise VerifyException(f"{what}: a map has symbol s0 exactly when an input gives it")
            if via >= 0:
                if via == i or via >= len(op.ins) or op.indirect_of[via] >= 0:
                    raise VerifyException(
                        f"{what} reads s0 from input {via}, which must be another, direct input"
                    )
                vt = cast(PageType, op.ins[via].type).element_type
                if not isinstance(vt, IntegerType):
                    raise VerifyException(
                        f"{what} reads s0 from input {via}, which holds "
                        f"{element_name(vt)}, not integers"
                    )
        elif m.num_symbols:
            raise VerifyException(f"{what} cannot be indirect")

    out = forms[-1]
    for d, (k, c) in enumerate(zip(kinds, out.dims)):
        if k == IterKind.SUM and c:
            raise VerifyException(
                f"stage '{name}' output map uses d{d}, a summed axis; the sum has one "
                "value per parallel point"
            )
    par = sorted((abs(c), ext[d]) for d, c in enumerate(out.dims) if kinds[d] == IterKind.PAR)
    reach = 0
    for c, e in par:
        if e > 1 and c <= reach:
            raise VerifyException(
                f"stage '{name}' output map {op.out_map.results[0]} writes some element twice"
            )
        reach += c * (e - 1)

    pages = [cast(PageType, v.type) for v in op.ins] + [rt]
    for i, (f, pt) in enumerate(zip(forms, pages)):
        lo = f.const + sum(min(0, c * (e - 1)) for c, e in zip(f.dims, ext))
        hi = f.const + sum(max(0, c * (e - 1)) for c, e in zip(f.dims, ext))
        size = pt.tiles.data * tile_elems
        if i < len(op.ins) and op.indirect_of[i] >= 0:
            continue  # the table's part is checked when the stage runs
        check_page_reach(lo, hi, pt.tiles.data, size, name, i if i < len(op.ins) else None)

    body = op.body.block
    in_elems = [p.element_type for p in pages[:-1]]
    if list(body.arg_types) != in_elems:
        raise VerifyException(
            f"stage '{name}' body takes one element per input "
            f"({', '.join(element_name(t) for t in in_elems)}), got "
            f"({', '.join(element_name(t) for t in body.arg_types)})"
        )
    term = body.last_op
    if not isinstance(term, YieldOp):
        raise VerifyException(f"stage '{name}' body must end with spatial.yield")
    for o in body.ops:
        if not isinstance(o, BODY_OPS):
            raise VerifyException(
                f"stage '{name}' body cannot run {o.name} on the chip; a body holds "
                "arith ops on scalars, spatial.index and spatial.yield"
            )
    if term.value.type != rt.element_type:
        raise VerifyException(
            f"stage '{name}' yields {element_name(term.value.type)} into a "
            f"{element_name(rt.element_type)} buffer"
        )
