"""
Compiling a program whose addresses are known only when it runs, for the compiled
engine: a move through a table another program computed (a KV cache write at the
step's position, a gather by token ids), or a stage that reads its offsets from such
a table.

The static compiler (`program.py`) places every page once, when it compiles; here the
block each item moves is worked out from the table on every call, as the reference
engine does it (`reference.py`), and the refusals the static compiler makes once (a
block outside its tensor, a table read outside its table, a page read outside its
page, a tile two items write) are made on every call, with the same messages. Such
programs are small (a window of a cache's tiles, an embedding's column), and each op
is one numpy expression over all items, so no fast path is needed. The program keeps
no IR: the stage bodies are compiled (`stages.StageEval`, its plain path), the rest is
numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core import geometry
from xdsl_spatial.core.geometry import PageGeometry, TileMove
from xdsl_spatial.dialects.spatial import (
    BufferOp,
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
)
from xdsl_spatial.interpreters.counting import program_traffic
from xdsl_spatial.interpreters.reference import Tensor
from xdsl_spatial.interpreters.stages import StageEval
from xdsl_spatial.interpreters.traffic import ProgramTraffic
from xdsl_spatial.interpreters.values import SpatialRuntimeError, dense_values, numpy_dtype


def runs_dynamically(op: ProgramOp) -> bool:
    """Whether a move of `op` reads a table bound when it runs, or a stage reads its
    offsets from a page that is not a constant table's (the static compiler places
    neither)."""
    constant = {t.result for t in op.tensors() if t.values is not None}
    for o in op.body.walk():
        if isinstance(o, LoadOp | StoreOp) and o.table is not None and o.table not in constant:
            return True
        if isinstance(o, StageOp):
            for via in o.indirect_of:
                if via < 0:
                    continue
                src = o.ins[via].owner
                if not (isinstance(src, LoadOp) and src.tensor in constant):
                    return True
    return False


@dataclass(frozen=True)
class _TensorSpec:
    name: str
    dims: tuple[int, int]
    grid: tuple[int, int]
    role: Role
    dtype: np.dtype[Any]
    source: int | None
    values: np.ndarray | None


State = dict[str, Any]
"""A run: `tensors` (by slot), `env` (pages, coordinates, the K index, by slot), the
trip being run (`trip`)."""
Run = Callable[[State], None]


@dataclass
class DynamicProgram:
    """A program ready to run, its addresses worked out on every call."""

    name: str
    kind: str
    op_name: str
    tensors: list[_TensorSpec]
    """Its tensors, as a `CompiledProgram`'s (a role and, bound to an input, its place)."""
    steps: list[Run]
    coords: np.ndarray
    slots: int
    results: list[int]
    record: ProgramTraffic
    tile: tuple[int, int]

    def run(self, inputs: Sequence[np.ndarray]) -> tuple[list[np.ndarray], ProgramTraffic]:
        tensors = [self._make(s, inputs) for s in self.tensors]
        env: list[Any] = [None] * self.slots
        for j in range(self.coords.shape[1]):
            env[j] = self.coords[:, j]
        state: State = {"tensors": tensors, "env": env, "trip": None}
        for step in self.steps:
            step(state)
        outs = []
        for k in self.results:
            t = tensors[k]
            if t.role == Role.OUTPUT:
                tiles = [w[1] for w in t.writes]
                flat = np.concatenate(tiles) if tiles else np.zeros(0, np.int64)
                try:
                    geometry.check_all_written(flat, t.grid, t.name)
                except VerifyException as e:
                    raise self._fail("spatial.return", str(e)) from None
            rows, cols = t.dims
            outs.append(t.data[:rows, :cols].copy())
        r = self.record
        return outs, r.copy()

    def _fail(self, where: str, message: str) -> SpatialRuntimeError:
        return SpatialRuntimeError(f'{self.op_name} "{self.name}": {where}: {message}')

    def _make(self, s: _TensorSpec, inputs: Sequence[np.ndarray]) -> Tensor:
        rows, cols = s.dims
        tr, tc = s.grid
        data = np.zeros((tr * self.tile[0], tc * self.tile[1]), dtype=s.dtype)
        if s.source is not None:
            a = inputs[s.source]
            if a.shape != s.dims or a.dtype != s.dtype:
                raise SpatialRuntimeError(
                    f"{self.op_name} \"{self.name}\": tensor '{s.name}' expects {rows}x{cols} "
                    f"{s.dtype}, got {'x'.join(map(str, a.shape))} {a.dtype}"
                )
            data[:rows, :cols] = a
        elif s.values is not None:
            data[:rows, :cols] = s.values
        initial = data.copy() if s.role in (Role.OUTPUT, Role.STATE) else data
        return Tensor(s.name, s.dims, s.grid, s.role, data, initial)


class DynamicCompiler:
    """Reads a program into a `DynamicProgram`."""

    def __init__(self, op: ProgramOp):
        self.op = op
        self.tile = op.target.tile
        self.items = op.num_items
        self.slot: dict[SSAValue, int] = {c: j for j, c in enumerate(op.coords)}
        self.tensor: dict[SSAValue, int] = {}
        self.specs: list[_TensorSpec] = []
        self.owned: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def fail(self, op: Operation, message: str) -> SpatialRuntimeError:
        return self.failing(op)(message)

    def failing(self, op: Operation) -> Callable[[str], SpatialRuntimeError]:
        """What makes `op`'s refusals when it runs: a function of the message that
        holds the names alone (a compiled program keeps no IR)."""
        where = f'{self.op.name} "{self.op.program_name.data}": {op.name}: '

        def fail(message: str) -> SpatialRuntimeError:
            return SpatialRuntimeError(where + message)

        return fail

    def compile(self) -> DynamicProgram:
        try:
            self.op.check_local_memory()
        except VerifyException as e:
            raise SpatialRuntimeError(
                f'{self.op.name} "{self.op.program_name.data}": {e}'
            ) from None
        steps = self.block(self.op.entry)
        ret = cast(ReturnOp, self.op.entry.last_op)
        return DynamicProgram(
            self.op.program_name.data,
            self.op.KIND,
            self.op.name,
            self.specs,
            steps,
            self.op.item_coords(),
            len(self.slot) + 1,
            [self.tensor[v] for v in ret.values],
            program_traffic(self.op),
            self.tile,
        )

    def value(self, v: SSAValue) -> int:
        if v not in self.slot:
            self.slot[v] = len(self.slot)
        return self.slot[v]

    def block(self, block: Block) -> list[Run]:
        steps: list[Run] = []
        for o in block.ops:
            if isinstance(o, ReturnOp | KYieldOp | BufferOp):
                continue
            if isinstance(o, TensorOp):
                self.tensor_op(o)
            elif isinstance(o, LoadOp | StoreOp):
                steps.append(self.move(o))
            elif isinstance(o, StageOp):
                steps.append(self.stage(o))
            elif isinstance(o, KLoopOp):
                steps.append(self.k_loop(o))
            else:
                raise self.fail(o, "cannot run in a program")
        return steps

    # --- tensors and moves ---------------------------------------------------------

    def tensor_op(self, o: TensorOp) -> None:
        h = o.handle
        values = dense_values(o.values) if o.values is not None else None
        source = None
        if o.source is not None:
            source = cast(BlockArgument, o.source).index - len(self.op.grid_shape)
        self.tensor[o.result] = len(self.specs)
        self.specs.append(
            _TensorSpec(
                o.tensor_name.data,
                h.dims,
                geometry.tile_grid(h.dims, self.tile),
                Role(h.role.data),
                numpy_dtype(h.element_type),
                source,
                values,
            )
        )

    def move(self, o: TileMoveOp) -> Run:
        t = self.tensor[o.moved_tensor]
        table = self.tensor[o.table] if o.table is not None else None
        move: TileMove = o.tile_move()
        vars_ = [self.value(v) for v in o.origin_vars]
        spec = self.specs[t]
        page = PageGeometry(self.tile, move.block, spec.grid[1] * self.tile[1])
        items, tile, kind = self.items, self.tile, o.KIND
        is_load = isinstance(o, LoadOp)
        out = self.value(o.result) if isinstance(o, LoadOp) else None
        src = self.value(o.page) if isinstance(o, StoreOp) else None
        owned = self.owned_tiles() if not is_load and o.table is not None else None
        fail = self.failing(o)

        def run(state: State) -> None:
            tensors: list[Tensor] = state["tensors"]
            env = state["env"]
            tt = tensors[t]
            values = [env[v] for v in vars_]
            tbl = None
            if table is not None:
                x = tensors[table]
                tbl = x.initial[: x.dims[0], : x.dims[1]].reshape(-1).astype(np.int64)
            trip = state["trip"]
            try:
                t0 = move.first_tiles(values, (items,), tbl, kind)
                geometry.check_block_inside(
                    t0[:, None],
                    move.block,
                    move.stride,
                    tt.grid,
                    kind,
                    tt.name,
                    [trip] if trip is not None else None,
                )
            except VerifyException as e:
                raise fail(str(e)) from None
            elements = page.elements(move.row_origins(t0, tile, tt.grid[1]))
            if is_load:
                env[cast(int, out)] = tt.initial.reshape(-1)[elements]
                return
            tiles = move.tiles(t0)
            who = np.broadcast_to(np.arange(items)[:, None, None], tiles.shape)
            tt.writes.append((who.reshape(-1), tiles.reshape(-1)))
            try:
                geometry.check_disjoint(
                    np.concatenate([w[0] for w in tt.writes]),
                    np.concatenate([w[1] for w in tt.writes]),
                    "write",
                    tt.name,
                    tt.grid,
                )
                if owned is not None:
                    geometry.check_writes_within(
                        (who.reshape(-1), tiles.reshape(-1)), owned, tt.grid, tt.name
                    )
            except VerifyException as e:
                raise fail(str(e)) from None
            tt.data.reshape(-1)[elements] = env[cast(int, src)]

        return run

    def owned_tiles(self) -> tuple[np.ndarray, np.ndarray]:
        """(item, linear tile) of every tile the items own of the first result."""
        rects = self.op.owned_rectangles()
        assert rects is not None, "owns is linear (verified)"
        ret = cast(ReturnOp, self.op.entry.last_op)
        first = self.specs[self.tensor[ret.values[0]]]
        return geometry.owned_tiles(rects, first.grid[1])

    # --- stages and the K loop -----------------------------------------------------

    def stage(self, st: StageOp) -> Run:
        ext = st.iter_extents
        n = len(st.ins)
        forms = [
            cast(geometry.LinearForm, geometry.linear_form(m.results[0], m.num_dims, m.num_symbols))
            for m in (*st.in_maps, st.out_map)
        ]
        order = sorted(range(n), key=lambda i: st.indirect_of[i] >= 0)
        via = list(st.indirect_of)
        ins = [self.value(v) for v in st.ins]
        tiles = [cast(PageType, v.type).tiles.data for v in st.ins]
        shapes = [(1, self.items, *ext)] * n
        ev = StageEval(st, shapes, 2, fast=False)
        out_t = cast(PageType, st.result.type)
        size = self.tile[0] * self.tile[1] * out_t.tiles.data
        dtype = numpy_dtype(out_t.element_type)
        par = [k == IterKind.PAR for k in st.iter_kinds]
        o = forms[-1].over_axes(ext)[tuple(slice(None) if p else 0 for p in par)]
        o = np.broadcast_to(o, [e for e, p in zip(ext, par) if p]).reshape(-1)
        res = self.value(st.result)
        items, name = self.items, st.stage_name.data
        fail = self.failing(st)

        def run(state: State) -> None:
            env = state["env"]
            got: list[Any] = [None] * n
            for i in order:
                off = np.broadcast_to(forms[i].over_axes(ext), ext)
                if via[i] >= 0 and forms[i].syms:
                    off = off + forms[i].syms[0] * got[via[i]].astype(np.int64)
                page = env[ins[i]]
                if off.size:
                    try:
                        geometry.check_page_reach(
                            int(off.min()), int(off.max()), tiles[i], page.shape[1], name, i
                        )
                    except VerifyException as e:
                        raise fail(str(e)) from None
                if off.ndim == len(ext):
                    got[i] = page[:, off]
                else:
                    flat = np.broadcast_to(off, (items, *ext)).reshape(items, -1)
                    got[i] = np.take_along_axis(page, flat, axis=1).reshape(items, *ext)
            value = ev.run([g[None] for g in got])
            value = np.broadcast_to(value, (1, items, *(e for e, p in zip(ext, par) if p)))
            out = np.zeros((items, size), dtype)
            out[:, o] = value.reshape(items, -1)
            env[res] = out

        return run

    def k_loop(self, o: KLoopOp) -> Run:
        iv = self.value(o.induction_var)
        carried = [self.value(a) for a in o.body.block.args[1:]]
        inits = [self.value(v) for v in o.inits]
        body = self.block(o.body.block)
        ret = cast(KYieldOp, o.body.block.last_op)
        yields = [self.value(v) for v in ret.values]
        results = [self.value(r) for r in o.res]
        trips = o.trips.data

        def run(state: State) -> None:
            env = state["env"]
            for a, v in zip(carried, inits):
                env[a] = env[v]
            for kb in range(trips):
                env[iv] = np.int64(kb)
                state["trip"] = kb
                for step in body:
                    step(state)
                new = [env[y] for y in yields]
                for a, v in zip(carried, new):
                    env[a] = v
            state["trip"] = None
            for r, a in zip(results, carried):
                env[r] = env[a]

        return run
