"""
The reference engine: what a `spatial` program means, as xDSL interpreter functions.

A program runs its body once per work item. Here every item runs at once: each value
of the body carries a leading item axis, so one op runs for all items as one numpy
expression, and the program means exactly what this file computes (docs/interpreter.md
tells the same in prose, next to the IR). Nothing is cached, batched or skipped: the
compiled engine (`executable.py`) is the fast one, and the tests prove the two equal.

Values while a program runs:
- an item coordinate: int64, shape (items,);
- the K loop's index: an int;
- a tensor (`spatial.tensor`): a `Tensor`, its tile-padded 2-d array, shared by all
  items. Loads read the tensor as it was when the program started (items run in
  parallel, so one item never sees another's stores); stores write it; the program's
  results are the returned tensors' final contents;
- a page (what a buffer holds: `n` tiles side by side, the `32 x 32n` matrix of their
  elements): shape (items, 32 * 32n), the flat element offset `row * 32n + col` as a
  stage map addresses it.

Every load and store counts its bytes (`traffic.py`); where a move lands and every
refusal are `core/geometry.py`'s, which the verifier and the compiled engine share.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core import geometry
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    FoldOp,
    IndexOp,
    IterKind,
    KLoopOp,
    KYieldOp,
    LoadOp,
    MapOp,
    PageType,
    ProgramOp,
    ReturnOp,
    Role,
    StageOp,
    StoreOp,
    TensorOp,
    TileMoveOp,
    ViewOp,
    YieldOp,
    enclosing_loop,
    enclosing_program,
    is_weight_values,
)
from xdsl_spatial.interpreters.counting import dram_bytes, move_bytes, new_record
from xdsl_spatial.interpreters.traffic import ProgramTraffic, Traffic
from xdsl_spatial.interpreters.values import SpatialRuntimeError, dense_values, numpy_dtype


@dataclass
class Tensor:
    """A tensor of a running program: its tile-padded array and who wrote which tile."""

    name: str
    dims: tuple[int, int]
    grid: tuple[int, int]
    """Tile rows, tiles per row."""
    role: Role
    data: np.ndarray
    """What stores write: (tile rows * 32, tiles per row * 32)."""
    initial: np.ndarray
    """What loads read: the contents as the program started."""
    writes: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    """(items, linear tiles) of every store so far."""


def program_of(op: Operation) -> ProgramOp:
    p = enclosing_program(op)
    assert p is not None, "a spatial op lies inside a program (verified)"
    return p


@register_impls
class SpatialReference(InterpreterFunctions):
    """Runs `spatial.view` and `spatial.fold`, op by op, for all items at once."""

    def __init__(self, traffic: Traffic | None = None):
        self.traffic = traffic if traffic is not None else Traffic()
        self.running: list[ProgramTraffic] = []
        """The program being run (innermost last): where loads and stores count."""
        self.trips: list[int] = []
        """The K trip being run (for messages)."""

    def fail(self, op: Operation, message: str) -> SpatialRuntimeError:
        program = program_of(op) if not isinstance(op, ProgramOp) else op
        where = "" if op is program else f"{op.name}: "
        return SpatialRuntimeError(
            f'{program.name} "{program.program_name.data}": {where}{message}'
        )

    # --- programs ------------------------------------------------------------------

    def _run_program(self, interpreter: Interpreter, op: ProgramOp, args: tuple[Any, ...]):
        try:
            op.check_local_memory()
        except VerifyException as e:
            raise self.fail(op, str(e)) from None
        record = new_record(op)
        coords = op.item_coords()
        self.running.append(record)
        try:
            results = interpreter.run_ssacfg_region(
                op.body, (*(coords[:, j] for j in range(coords.shape[1])), *args)
            )
        finally:
            self.running.pop()
        self.traffic.programs.append(record)
        return results

    @impl(ViewOp)
    def run_view(self, interpreter: Interpreter, op: ViewOp, args: tuple[Any, ...]):
        return self._run_program(interpreter, op, args)

    @impl(FoldOp)
    def run_fold(self, interpreter: Interpreter, op: FoldOp, args: tuple[Any, ...]):
        return self._run_program(interpreter, op, args)

    @impl(MapOp)
    def run_map(self, interpreter: Interpreter, op: MapOp, args: tuple[Any, ...]):
        return self._run_program(interpreter, op, args)

    @impl_terminator(ReturnOp)
    def run_return(self, interpreter: Interpreter, op: ReturnOp, args: tuple[Any, ...]):
        outs = []
        for t in cast(tuple[Tensor, ...], args):
            if t.role == Role.OUTPUT:
                tiles = [w[1] for w in t.writes]
                try:
                    geometry.check_all_written(
                        np.concatenate(tiles) if tiles else np.zeros(0, np.int64), t.grid, t.name
                    )
                except VerifyException as e:
                    raise self.fail(op, str(e)) from None
            rows, cols = t.dims
            outs.append(t.data[:rows, :cols].copy())
        return ReturnedValues(tuple(outs)), ()

    # --- tensors and buffers -------------------------------------------------------

    @impl(TensorOp)
    def run_tensor(self, interpreter: Interpreter, op: TensorOp, args: tuple[Any, ...]):
        h = op.handle
        tile = program_of(op).target.tile
        grid = geometry.tile_grid(h.dims, tile)
        dt = numpy_dtype(h.element_type)
        data = np.zeros((grid[0] * tile[0], grid[1] * tile[1]), dtype=dt)
        rows, cols = h.dims
        if op.source is not None:
            (a,) = args
            if a.shape != (rows, cols) or a.dtype != dt:
                raise self.fail(
                    op,
                    f"tensor '{op.tensor_name.data}' expects {rows}x{cols} {dt}, got "
                    f"{'x'.join(map(str, a.shape))} {a.dtype}",
                )
            data[:rows, :cols] = a
        elif op.values is not None:
            data[:rows, :cols] = dense_values(op.values)
        if is_weight_values(op):
            self.running[-1].weight_elems = rows * cols
        role = Role(h.role.data)
        initial = data.copy() if role in (Role.OUTPUT, Role.STATE) else data
        return (Tensor(op.tensor_name.data, h.dims, grid, role, data, initial),)

    @impl(BufferOp)
    def run_buffer(self, interpreter: Interpreter, op: BufferOp, args: tuple[Any, ...]):
        return (None,)  # a buffer only reserves local memory

    # --- loads and stores ----------------------------------------------------------

    def _block(
        self, op: TileMoveOp, args: tuple[Any, ...]
    ) -> tuple[Tensor, np.ndarray, np.ndarray]:
        """The move's tensor; the linear tensor tile of each item's block tiles, (items,
        h, w); and the flat element, in the tensor's array, of every element of each
        item's page, (items, page elements)."""
        value = dict(zip(op.operands, args))
        t = cast(Tensor, value[op.moved_tensor])
        program = program_of(op)
        items = (program.num_items,)
        move = op.tile_move()
        table = None
        if op.table is not None:
            tt = cast(Tensor, value[op.table])
            table = tt.initial[: tt.dims[0], : tt.dims[1]].reshape(-1)
        try:
            t0 = move.first_tiles([value[v] for v in op.origin_vars], items, table, op.KIND)
            geometry.check_block_inside(
                t0[:, None],
                move.block,
                move.stride,
                t.grid,
                op.KIND,
                t.name,
                self.trips[-1:] if enclosing_loop(op) is not None else None,
            )
        except VerifyException as e:
            raise self.fail(op, str(e)) from None
        tile = program.target.tile
        page = geometry.PageGeometry(tile, move.block, t.grid[1] * tile[1])
        origins = move.row_origins(t0, tile, t.grid[1])
        return t, move.tiles(t0), page.elements(origins)

    def _count(self, op: TileMoveOp, t: Tensor) -> int:
        """Bytes one run of the move moves for all items: whole tiles."""
        return move_bytes(op, program_of(op))

    @impl(LoadOp)
    def run_load(self, interpreter: Interpreter, op: LoadOp, args: tuple[Any, ...]):
        t, _, elements = self._block(op, args)
        self.running[-1].add_load(t.name, self._count(op, t), dram_bytes(op, program_of(op)))
        return (t.initial.reshape(-1)[elements],)

    @impl(StoreOp)
    def run_store(self, interpreter: Interpreter, op: StoreOp, args: tuple[Any, ...]):
        page = cast(np.ndarray, dict(zip(op.operands, args))[op.page])
        t, tiles, elements = self._block(op, args)
        items = np.broadcast_to(np.arange(tiles.shape[0])[:, None, None], tiles.shape)
        t.writes.append((items.reshape(-1), tiles.reshape(-1)))
        try:
            geometry.check_disjoint(
                np.concatenate([w[0] for w in t.writes]),
                np.concatenate([w[1] for w in t.writes]),
                "write",
                t.name,
                t.grid,
            )
        except VerifyException as e:
            raise self.fail(op, str(e)) from None
        if op.table is not None and op.table_values() is None:
            # where a store through a run-time table writes is checked now
            program = program_of(op)
            rects = program.owned_rectangles()
            assert rects is not None, "owns is linear (verified)"
            first = cast(TensorOp, cast(ReturnOp, program.entry.last_op).values[0].owner)
            grid = geometry.tile_grid(first.handle.dims, program.target.tile)
            try:
                geometry.check_writes_within(
                    (items.reshape(-1), tiles.reshape(-1)),
                    geometry.owned_tiles(rects, grid[1]),
                    t.grid,
                    t.name,
                )
            except VerifyException as e:
                raise self.fail(op, str(e)) from None
        self.running[-1].add_store(t.name, self._count(op, t))
        t.data.reshape(-1)[elements] = page
        return ()

    # --- stages --------------------------------------------------------------------

    @impl(StageOp)
    def run_stage(self, interpreter: Interpreter, op: StageOp, args: tuple[Any, ...]):
        """Every point of the iteration space at once: each input read at its map, the
        body evaluated over the whole space, summed over the `sum` axes (floats in
        fp32, integers in their own type) or its largest taken over the `max` axes
        (in fp32, a NaN winning), and written at the output map into a page of zeros."""
        ext = op.iter_extents
        pages = cast(tuple[np.ndarray, ...], args[:-1])
        items = program_of(op).num_items
        operands: list[Any] = [None] * len(pages)
        # Direct inputs first: an indirect one adds s0 times a direct one's element.
        for i in sorted(range(len(pages)), key=lambda i: op.indirect_of[i] >= 0):
            via = op.indirect_of[i]
            o = stage_offsets(op.in_maps[i], ext, operands[via] if via >= 0 else None)
            if o.size:
                try:
                    geometry.check_page_reach(
                        int(o.min()),
                        int(o.max()),
                        cast(PageType, op.ins[i].type).tiles.data,
                        pages[i].shape[1],
                        op.stage_name.data,
                        i,
                    )
                except VerifyException as e:
                    raise self.fail(op, str(e)) from None
            if o.ndim == len(ext):  # the same offsets for every item
                operands[i] = pages[i][:, o]
            else:
                o = np.broadcast_to(o, (items, *ext)).reshape(items, -1)
                operands[i] = np.take_along_axis(pages[i], o, axis=1).reshape(items, *ext)
        (value,) = interpreter.run_ssacfg_region(op.body, tuple(operands))
        value = np.broadcast_to(np.asarray(value), (items, *ext))
        out = cast(PageType, op.result.type)
        out_dt = numpy_dtype(out.element_type)
        sums = tuple(1 + d for d, k in enumerate(op.iter_kinds) if k == IterKind.SUM)
        maxes = tuple(1 + d for d, k in enumerate(op.iter_kinds) if k == IterKind.MAX)
        if sums:
            acc = value.dtype if value.dtype.kind in "iub" else np.dtype(np.float32)
            value = value.astype(acc).sum(axis=sums, dtype=acc)
        if maxes:
            value = value.astype(np.float32).max(axis=maxes)
        # The output map reads no reduced axis (verified): its offsets at their index 0.
        o = stage_offsets(op.out_map, ext, None)[
            tuple(slice(None) if k == IterKind.PAR else 0 for k in op.iter_kinds)
        ]
        tr, tc = program_of(op).target.tile
        page = np.zeros((items, tr * tc * out.tiles.data), out_dt)
        page[:, o.reshape(-1)] = value.astype(out_dt).reshape(items, -1)
        return (page,)

    @impl(IndexOp)
    def run_index(self, interpreter: Interpreter, op: IndexOp, args: tuple[Any, ...]):
        """The index along one axis, shaped to broadcast over (items, *extents)."""
        ext = cast(StageOp, op.parent_op()).iter_extents
        d = op.dim.data
        return (
            np.arange(ext[d], dtype=np.int64).reshape(
                [1] + [e if j == d else 1 for j, e in enumerate(ext)]
            ),
        )

    @impl_terminator(YieldOp)
    def run_yield(self, interpreter: Interpreter, op: YieldOp, args: tuple[Any, ...]):
        return ReturnedValues(args), ()

    # --- the K loop ----------------------------------------------------------------

    @impl(KLoopOp)
    def run_k_loop(self, interpreter: Interpreter, op: KLoopOp, args: tuple[Any, ...]):
        """The body once per K block, in order, each trip's pages carried into the next."""
        carried = tuple(args)
        for kb in range(op.trips.data):
            self.trips.append(kb)
            try:
                carried = interpreter.run_ssacfg_region(op.body, (np.int64(kb), *carried))
            finally:
                self.trips.pop()
        return carried

    @impl_terminator(KYieldOp)
    def run_k_yield(self, interpreter: Interpreter, op: KYieldOp, args: tuple[Any, ...]):
        return ReturnedValues(args), ()


def stage_offsets(m: Any, ext: tuple[int, ...], s0: np.ndarray | None) -> np.ndarray:
    """A stage map's page offsets at every point of `ext`: shape `ext`, or (items,
    *ext) when the map adds `s0` times an input's elements (`s0`, (items, *ext))."""
    form = geometry.linear_form(m.results[0], m.num_dims, m.num_symbols)
    assert form is not None, "stage maps are linear (verified)"
    o = np.broadcast_to(form.over_axes(ext), ext)
    if s0 is not None and form.syms:
        o = o + form.syms[0] * s0.astype(np.int64)
    return o
