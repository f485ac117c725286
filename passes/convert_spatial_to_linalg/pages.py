"""
The plan of a program's memory: how each `spatial.tensor` is held (its tile-padded
shape, whether loads read it and stores write it) and which page of its buffer each
load and stage writes (a ring of `depth` pages taken in turn), checked against the
program's reads: numbers from the IR, no op built.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import cast

import numpy as np
from xdsl.dialects.builtin import i8
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import DiagnosticException

from xdsl_spatial.analysis.tables import stage_reach
from xdsl_spatial.core import geometry
from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    BufferType,
    KLoopOp,
    KYieldOp,
    LoadOp,
    PageType,
    ProgramOp,
    Role,
    StageOp,
    StoreOp,
    TensorOp,
    TileMoveOp,
    enclosing_loop,
    enclosing_program,
)


class PlanError(DiagnosticException):
    """A program this conversion cannot express; the message names it and why."""


@dataclass(frozen=True)
class TensorPlan:
    """How a `spatial.tensor` is held: its tile-padded shape, which buffers it needs,
    and whether what reads it may read its padding."""

    dims: tuple[int, int]
    padded: tuple[int, int]
    loaded: bool
    stored: bool
    live_reads: bool = False
    """Whether it is read as it is given, not from a zero-padded copy: an input whose
    rows are not whole tiles, its columns whole tiles, that no store writes, each of
    its loads reading either whole tile rows, its last tile row alone (always so for
    a tensor shorter than one tile row: a decode step's activations, an embedding's
    scales) or every tile row at once (a batched step's attention scores, 72 rows,
    in one page); a load of the last one copies its rows there (`last_loads`), one
    of every tile row those of its last (`whole_loads`)."""
    padding_read: bool = False
    """Whether, read as it is given, a read of a page of its last tile row may reach
    the rows past its own (not only stages reading them directly within those:
    `reads_live_rows`): such loads then fill those rows of their pages with zeros, as
    the padded copy would have held."""
    last_loads: frozenset[Operation] = frozenset()
    """Read as it is given, the loads of its last tile row."""
    whole_loads: frozenset[Operation] = frozenset()
    """Read as it is given, the loads of every tile row at once: each copies the
    tile rows before the last whole, the last's own rows, and fills the page's rows
    past those with zeros (whatever reads the page: it is the padded copy's
    layout)."""
    written_rows: int = 0
    """The rows of the buffer its stores write: an output shorter than one tile row (a
    product's m rows) is held as its live rows, and its stores write those alone
    (nothing reads a padding row of it); any other tensor its padded rows."""

    @property
    def whole_tiles(self) -> bool:
        return self.dims == self.padded

    def last_rows(self, tile_rows: int) -> int:
        """The rows of its last tile row (tiles `tile_rows` rows tall) that are its own."""
        return self.dims[0] - (self.padded[0] - tile_rows)


def tensor_plan(op: TensorOp, tile: tuple[int, int]) -> TensorPlan:
    rows, cols = geometry.tile_grid(op.handle.dims, tile)
    uses = [u.operation for u in op.result.uses]
    loaded = any(
        (isinstance(u, LoadOp) and u.tensor is op.result)
        or (isinstance(u, TileMoveOp) and u.table is op.result)
        for u in uses
    )
    stored = any(isinstance(u, StoreOp) and u.tensor is op.result for u in uses)
    padded = (rows * tile[0], cols * tile[1])
    whole_cols = padded[1] == op.handle.dims[1]
    output = Role(op.handle.role.data) == Role.OUTPUT and op.values is None
    written = op.handle.dims[0] if rows == 1 and output else padded[0]
    plan = TensorPlan(op.handle.dims, padded, loaded, stored, written_rows=written)
    if stored or not whole_cols or plan.whole_tiles:
        return plan
    last: list[LoadOp] = []
    whole: list[LoadOp] = []
    for u in uses:
        if isinstance(u, LoadOp) and u.tensor is op.result:
            t0 = first_tiles(u)
            where = in_last_tile_row(u, t0, rows, cols)
            if where is None and reads_every_tile_row(u, t0, rows, cols):
                whole.append(u)
            elif where is None:
                return plan
            elif where:
                last.append(u)
    live = plan.last_rows(tile[0])
    padding_read = not reads_live_rows(last, live, tile)
    fills = page_fills(op, whole, live, tile, tile_rows=1)
    if padding_read:
        fills += page_fills(op, last, live, tile)
    if fills > padded[0] * padded[1]:
        return plan  # one padded copy is less to write
    return replace(
        plan,
        live_reads=True,
        padding_read=padding_read,
        last_loads=frozenset(last),
        whole_loads=frozenset(whole),
    )


def laid_tensor(t: TensorOp) -> int | None:
    """The tile width `t` could be read at laid in tile columns (its program's), or
    None: an int8 tensor of whole tiles from outside the program (a param or an
    input, `source`) that only loads read (as their tensor: a gather's table places
    its blocks, which whole tiles serve in any layout)."""
    program = t.parent_op()
    if not isinstance(program, ProgramOp) or t.source is None:
        return None
    h = t.handle
    tr, tc = program.target.tile
    if (
        Role(h.role.data) not in (Role.PARAM, Role.INPUT)
        or h.element_type != i8
        or h.dims[0] % tr
        or h.dims[1] % tc
    ):
        return None
    for u in t.result.uses:
        o = u.operation
        if not isinstance(o, LoadOp) or o.tensor is not t.result or o.table is t.result:
            return None
    return tc


def first_tiles(load: LoadOp) -> np.ndarray | None:
    """The first tile `load` moves for each item of its program (`LoadOp.first_tiles`),
    or None: a table another program makes places it, or it is in no program."""
    program = enclosing_program(load)
    return None if program is None else load.first_tiles(program.item_coords())


def in_last_tile_row(
    load: LoadOp, t0: np.ndarray | None, tile_rows: int, tiles_per_row: int
) -> bool | None:
    """Whether `load` (its `first_tiles` `t0`) reads only its tensor's last tile row
    (True), only rows before it (False), or both, or rows a table another program
    makes decides (None)."""
    if tile_rows == 1:
        return True
    if t0 is None:
        return None
    rows, _ = load.tile_move().cells(t0, tiles_per_row)
    if (rows == tile_rows - 1).all():
        return True
    return None if (rows == tile_rows - 1).any() else False


def reads_every_tile_row(
    load: LoadOp, t0: np.ndarray | None, tile_rows: int, tiles_per_row: int
) -> bool:
    """Whether each move of `load` (its `first_tiles` `t0`) reads every tile row of
    its tensor at once: a block as tall as the tensor, its tile rows one after the
    other, from the first tile row wherever it starts (no table placing it)."""
    bh, _ = load.block_shape
    if load.table is not None or bh != tile_rows or load.stride.data != tiles_per_row:
        return False
    return t0 is not None and bool((t0 < tiles_per_row).all())


def page_fills(
    op: TensorOp,
    loads: Sequence[LoadOp],
    live: int,
    tile: tuple[int, int],
    tile_rows: int | None = None,
) -> int:
    """The elements `loads` (reading tensor `op`'s last tile row, `live` rows of it
    its own) would fill with zeros in a run if it were read as it is given: each
    load's page rows past those, of each of its block's tile rows (or of `tile_rows`
    of them: a load of every tile row fills its last's), once for each item and K
    trip (once for all, a load no item coordinate moves and no table places:
    `ProgramTranslation.alike`)."""
    program = op.parent_op()
    items = program.num_items if isinstance(program, ProgramOp) else 1
    total = 0
    for load in loads:
        bh, bw = load.block_shape
        bh = bh if tile_rows is None else tile_rows
        loop = enclosing_loop(load)
        trips = loop.trips.data if loop is not None else 1
        times = items * trips if load.origin_vars or load.table is not None else trips
        total += (tile[0] - live) * bh * bw * tile[1] * times
    return total


def reads_live_rows(loads: Sequence[LoadOp], live: int, tile: tuple[int, int]) -> bool:
    """Whether every read of the pages of `loads` reaches only their first `live`
    rows of each tile: each page read only by stages, within that many page rows (a
    page row is that row of every tile of the block, `bh * bw * tile[1]` elements),
    directly (a table's page too: a stage reads it at its own map) or through a
    constant table, over every element the table's entries reach
    (`tables.stage_reach`: a q8 view's lanes, its rows' offsets). A table made at
    run time, a carry or a store of the page may read any row."""
    for load in loads:
        bh, bw = load.block_shape
        page_row = bh * bw * tile[1]
        for read in load.result.uses:
            stage = read.operation
            if not isinstance(stage, StageOp):
                return False
            for i, v in enumerate(stage.ins):
                if v is not load.result:
                    continue
                if stage.indirect_of[i] >= 0:
                    program = enclosing_program(stage)
                    reach = None if program is None else stage_reach(stage, i, program)
                    if reach is None or reach[1] >= live * page_row:
                        return False
                    continue
                m = stage.in_maps[i]
                form = geometry.linear_form(m.results[0], m.num_dims, m.num_symbols)
                if form is None or any(form.syms):
                    return False
                if form.bounds(stage.iter_extents)[1] >= live * page_row:
                    return False
    return True


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


def writes_into(op: Operation) -> SSAValue | None:
    """The buffer a load or a stage puts its page in, or None."""
    if isinstance(op, LoadOp | StageOp):
        return op.buffer
    return None


def depth(buffer: SSAValue) -> int:
    return cast(BufferType, buffer.type).depth.data


def ring_slots(program: ProgramOp) -> dict[Operation, Slot]:
    """The slot every load and stage writes: each buffer's pages taken in turn, a K
    loop's writes once per trip."""
    count: dict[SSAValue, int] = {}
    slots: dict[Operation, Slot] = {}
    for o in program.entry.ops:
        if isinstance(o, KLoopOp):
            inner = [x for x in o.body.block.ops if writes_into(x) is not None]
            per: dict[SSAValue, int] = {}
            for x in inner:
                b = cast(SSAValue, writes_into(x))
                per[b] = per.get(b, 0) + 1
            seen: dict[SSAValue, int] = {}
            for x in inner:
                b = cast(SSAValue, writes_into(x))
                slots[x] = Slot(count.get(b, 0) + seen.get(b, 0), per[b], depth(b))
                seen[b] = seen.get(b, 0) + 1
            for b, k in per.items():
                count[b] = count.get(b, 0) + k * o.trips.data
        elif (b := writes_into(o)) is not None:
            slots[o] = Slot(count.get(b, 0), 0, depth(b))
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
                            f"to its {depth(buf)} page(s) has replaced"
                        )
            if o in slots:
                s = slots[o]
                token = len(location)
                at = (cast(SSAValue, writes_into(o)), (s.first + trip * s.per_trip) % s.depth)
                location[token] = at
                owner[at] = token
                current[o.results[0]] = token
        return None

    return run(list(program.entry.ops), 0)


@dataclass(frozen=True)
class InPlace:
    """Where a loaded page's elements are in its tensor, for a load read in place (the
    `stream` option): page row `r` holds row `r` of each of the block's `bh` tile rows,
    `w` elements of each, so page element `r * bh * w + j * w + c` is the tensor's
    element `r * cols + j * apart + c` after the block's first; in a tensor laid in
    tile columns (`strip`), column `c` is column `c % strip` of the block's strip
    `c // strip`, so the element is `r * strip + j * apart + (c // strip) * strip *
    height + c % strip` after the block's first."""

    rows: int
    bh: int
    w: int
    apart: int
    """Elements of the tensor from one tile row of the block to the next."""
    cols: int
    """Elements of a row of the tensor."""
    strip: int = 0
    """Columns of a strip of a tensor laid in tile columns (its tiles' width), or 0:
    laid in rows."""
    height: int = 0
    """Rows of a tensor laid in tile columns: a strip holds `strip * height` elements."""

    def digits(self) -> tuple[tuple[int, int, int], ...]:
        """The page index's digits, most significant first: each one's unit in the
        page, its count (a digit past it carries into the next), its step in the tensor."""
        if not self.strip:
            return (
                (self.bh * self.w, self.rows, self.cols),
                (self.w, self.bh, self.apart),
                (1, self.w, 1),
            )
        s = self.strip
        return (
            (self.bh * self.w, self.rows, s),
            (self.w, self.bh, self.apart),
            (s, self.w // s, s * self.height),
            (1, s, 1),
        )

    def form(self, f: LinearForm, extents: Sequence[int]) -> LinearForm | None:
        """`f`, a map into the page over axes of `extents`, as a map into the tensor
        from the block's first element; None where it reads through a table, or
        where its terms would carry from one page row, tile row or column range into
        the next (`place`)."""
        if any(f.syms):
            return None
        placed = self.place(f.const, list(zip(f.dims, extents)))
        if placed is None:
            return None
        return LinearForm(placed[0], tuple(placed[1]), f.syms)

    def place(self, const: int, terms: Sequence[tuple[int, int]]) -> tuple[int, list[int]] | None:
        """A page offset `const + sum(c * i)`, each term `(c, e)` an index `i < e`
        (an axis of a stage or a loop of a generic), as the same in the tensor: its
        constant and each term's step there. None where the terms would carry from one
        digit into the next (each coefficient is taken in the largest unit that
        divides it)."""
        digits = self.digits()
        if const < 0:
            return None
        reach = [0] * len(digits)
        rest = const
        for k, (unit, _, _) in enumerate(digits):
            reach[k], rest = divmod(rest, unit)
        first = sum(r * d[2] for r, d in zip(reach, digits))
        steps: list[int] = []
        for c, e in terms:
            # the largest unit that divides it (a column's, 1, divides every one)
            at = next(k for k, d in enumerate(digits) if c % d[0] == 0)
            step = c // digits[at][0]
            reach[at] += step * (e - 1)
            steps.append(step * digits[at][2])
        if any(r >= d[1] for r, d in zip(reach, digits)):
            return None
        return first, steps
