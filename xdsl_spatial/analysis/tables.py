"""
Whether every address a program reads from a table at run time lies where it may: a
plan-or-reason analysis over the IR (numbers in, a reason out), for engines whose
machine code reads where a table says without checking (the native engine).

The verifier checks what it can bound without running: a move through a table declared
with constant values (every origin it makes, inside the tensor), and a stage's direct
maps (inside their pages). Two things it leaves to the run, which this decides from the
same IR:

- a move's table must be a constant the program does not store into (an external
  table's values are known only when the program runs);
- a stage's indirect map (`s0 = inN`) must read its offsets from a page loaded from
  such a constant, and every element the map then reaches, at every item and K trip,
  must lie inside the page it reads.

```python
why = table_reads(program)   # None, or e.g. 'spatial.fold "f": spatial.stage: stage
                             # 'lift_rows' input #0 reaches elements 0..33759 of a
                             # 32-tile page (32768 elements)'
```

The messages are the engines' own (`core/geometry.py`'s checks), so a program is
refused in the same words whichever engine meets it.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.geometry import (
    LinearForm,
    PageGeometry,
    check_page_reach,
    linear_form,
    loop_values,
    tile_grid,
)
from xdsl_spatial.dialects.spatial import (
    LoadOp,
    PageType,
    ProgramOp,
    StageOp,
    StoreOp,
    TensorOp,
    TileMoveOp,
    enclosing_loop,
)

CONSTANT_TABLE = "an indirect table must be a constant tensor to run"


def constant_values(tensor: SSAValue, program: ProgramOp) -> np.ndarray | None:
    """A `spatial.tensor`'s values, tile-padded with zeros and flat, when it is declared
    with constant values and no store of its program writes it; else None."""
    decl = tensor.owner
    if not isinstance(decl, TensorOp) or decl.values is None:
        return None
    if any(isinstance(u.operation, StoreOp) and u.operation.tensor is tensor for u in tensor.uses):
        return None
    rows, cols = decl.handle.dims
    padded = tile_grid((rows, cols), program.target.tile)
    tile = program.target.tile
    full = np.zeros((padded[0] * tile[0], padded[1] * tile[1]), dtype=np.int64)
    full[:rows, :cols] = np.asarray(decl.values.get_values()).reshape(rows, cols)
    return full.reshape(-1)


def page_elements(load: LoadOp, program: ProgramOp) -> np.ndarray:
    """The flat element of its tensor's tile-padded array that each page element of
    `load` holds, for every item and K trip: shape (items, trips, page size). Its
    origin is inside the tensor (verified)."""
    tile = program.target.tile
    handle = cast(TensorOp, load.tensor.owner).handle
    tpr = tile_grid(handle.dims, tile)[1]
    move = load.tile_move()
    loop = enclosing_loop(load)
    trips = loop.trips.data if loop is not None else 1
    coords = program.item_coords()
    values = loop_values(coords, trips, load.loop_variables())
    t0 = move.first_tiles(values, (len(coords), trips), load.table_values(), load.KIND)
    origins = move.row_origins(t0, tile, tpr)
    return PageGeometry(tile, load.block_shape, tpr * tile[1]).elements(origins)


def stage_reach(st: StageOp, i: int, program: ProgramOp) -> tuple[int, int] | None:
    """The least and the greatest page element stage `st`'s input `i`, read through
    its table input, reaches at any item and K trip (None: its table is no load of a
    constant tensor, so nothing bounds it before the run; (0, -1): it reads none)."""
    via = st.indirect_of[i]
    load = st.ins[via].owner
    table = constant_values(load.tensor, program) if isinstance(load, LoadOp) else None
    if not isinstance(load, LoadOp) or table is None:
        return None
    ext = st.iter_extents
    at = np.broadcast_to(_form(st, via).over_axes(ext), ext).reshape(-1)
    offsets = table[page_elements(load, program)[..., at]]
    form = _form(st, i)
    base = np.broadcast_to(form.over_axes(ext), ext).reshape(-1)
    reach = base + (form.syms[0] if form.syms else 0) * offsets
    if not reach.size:
        return 0, -1
    return int(reach.min()), int(reach.max())


def stage_reason(st: StageOp, i: int, program: ProgramOp) -> str | None:
    """Why stage `st`'s input `i`, read through its table input, may read outside its
    page (or its table is not known before the run); None when it cannot."""
    name = st.stage_name.data
    reach = stage_reach(st, i, program)
    if reach is None:
        return (
            f"stage '{name}' reads s0 from input {st.indirect_of[i]}, which must be a "
            "load of a constant tensor to run"
        )
    lo, hi = reach
    if hi < lo:
        return None
    tiles = cast(PageType, st.ins[i].type).tiles.data
    size = tiles * program.target.tile[0] * program.target.tile[1]
    try:
        check_page_reach(lo, hi, tiles, size, name, i)
    except VerifyException as e:
        return str(e)
    return None


def _form(st: StageOp, i: int) -> LinearForm:
    m = st.in_maps[i]
    form = linear_form(m.results[0], m.num_dims, m.num_symbols)
    assert form is not None, "stage maps are linear (verified)"
    return form


def table_reads(program: ProgramOp) -> str | None:
    """The first reason an address `program` reads from a table may lie outside where
    it may read, naming the program and the op; None when none can (the program is
    verified)."""
    for o in program.body.walk():
        why: str | None = None
        if isinstance(o, TileMoveOp) and o.table is not None:
            if constant_values(o.table, program) is None:
                why = CONSTANT_TABLE
        elif isinstance(o, StageOp):
            for i, via in enumerate(o.indirect_of):
                if via >= 0 and why is None:
                    why = stage_reason(o, i, program)
        if why is not None:
            return _named(program, o, why)
    return None


def _named(program: ProgramOp, op: Operation, why: str) -> str:
    return f'{program.name} "{program.program_name.data}": {op.name}: {why}'
