# pyright: reportIncompatibleMethodOverride=false, reportIncompatibleVariableOverride=false
# (kloop.LoopCompiling is typed against this class through the import package, so pyright
# sees this file twice, as interpreters.program and xdsl_spatial.interpreters.program,
# and reports each override as a mismatch of a class with itself)
"""
Compiling one `spatial` program for the compiled engine: read the program once into
a list of steps over an environment of runtime arrays, then run the steps per call.

What the reference engine (`reference.py`) does op by op, item group by item group,
is decided here once: where every load's page sits in its tensor (`layout.Placed`,
no copy at run time), how each stage reaches its operands (a strided view or a
gather, `layout.Access`), how it computes (`stages.StageEval`), where each store
writes, and which of the checks the program must pass it passes (they are static:
every address is known now). A K loop runs its body once a trip, its loads placed
for every trip at once (`kloop.py`).

It runs the program as written: hoisting what a loop does the same every trip,
summing an accumulating loop's trips at once and merging a batch's stage a row into
one are passes (`spatial-hoist`, `spatial-sum-trips`, `spatial-merge-siblings`),
which `q8-lower{optimize=true}` runs.

What is decided here never changes per call: a module changed after compiling needs
a new compile (the program keeps no reference into the IR it would read again).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core import geometry
from xdsl_spatial.core.geometry import PageGeometry
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
    is_weight_values,
)
from xdsl_spatial.interpreters.counting import dram_bytes, move_bytes, new_record
from xdsl_spatial.interpreters.kloop import LoopCompiling
from xdsl_spatial.interpreters.layout import (
    Access,
    Dense,
    Env,
    Layout,
    Lead,
    Placed,
    Reader,
    Step,
    Values,
    c_strides,
    live_box,
    page_index,
    paired_access,
    placed_view,
    stacked_reader,
    strided,
)
from xdsl_spatial.interpreters.stages import Shape, StageEval, map_offsets
from xdsl_spatial.interpreters.traffic import ProgramTraffic
from xdsl_spatial.interpreters.values import SpatialRuntimeError, dense_values, numpy_dtype


@dataclass
class TensorSpec:
    """A `spatial.tensor`, as the compiled program makes it at run time."""

    slot: int
    """Where its padded array (flat) lives: what stores write."""
    read: int
    """Where loads read it: its contents as the program started."""
    name: str
    dims: tuple[int, int]
    padded: tuple[int, int]
    dtype: np.dtype[Any]
    source: int | None
    """The program input it is bound to."""
    values: np.ndarray | None
    """Its constant contents, padded and flat (read-only)."""
    role: Role
    stored: bool = False
    loaded: bool = False
    bind_unpadded: bool = False
    """An input its loads read only inside its rows (and whose rows need no pad): the
    caller's array is read as it is, not copied into a padded one."""
    live_only: bool = False
    """Its stores write only its live elements: it is held as rows x padded columns."""
    stores: int = 0
    """How many store ops write it."""
    zeroed: bool = False
    """An output that starts as zeros, because its one store writes each of its tiles
    once and leaves the zeros of its pages unwritten."""


def _symbol_coefficient(m: Any) -> int:
    form = geometry.linear_form(m.results[0], m.num_dims, m.num_symbols)
    assert form is not None
    return form.syms[0] if form.syms else 0


@dataclass
class CompiledProgram:
    """A program ready to run: its tensors, its steps, its results and its traffic."""

    name: str
    kind: str
    op_name: str
    tensors: list[TensorSpec]
    steps: list[Step]
    slots: int
    results: list[TensorSpec]
    record: ProgramTraffic
    statics: list[Any]
    """The environment a run starts from: the values of stages that read nothing
    (constants over their space), computed when the program was compiled."""

    def run(self, inputs: Sequence[np.ndarray]) -> tuple[list[np.ndarray], ProgramTraffic]:
        env: Env = list(self.statics)
        for t in self.tensors:
            self._make(t, inputs, env)
        for step in self.steps:
            step(env, None)
        outs = []
        for t in self.results:
            rows = t.dims[0] if t.live_only else t.padded[0]
            a = env[t.slot].reshape(rows, t.padded[1])[: t.dims[0], : t.dims[1]]
            outs.append(a if a.flags.c_contiguous else np.ascontiguousarray(a))
        r = self.record
        return outs, r.copy()

    def _make(self, t: TensorSpec, inputs: Sequence[np.ndarray], env: Env) -> None:
        """Bind tensor `t`: the array its loads read (`t.read`, the tile-padded
        contents as the program starts) and, when stores write it, the array they
        write (`t.slot`: its live rows when that is all they write)."""
        rows, cols = t.dims
        a = None
        if t.source is not None:
            a = inputs[t.source]
            if a.shape != t.dims or a.dtype != t.dtype:
                raise SpatialRuntimeError(
                    f"{self.op_name} \"{self.name}\": tensor '{t.name}' expects "
                    f"{rows}x{cols} {t.dtype}, got {'x'.join(map(str, a.shape))} {a.dtype}"
                )
        if not t.stored or t.read != t.slot:
            if a is None:
                initial = (
                    t.values
                    if t.values is not None
                    else np.zeros(t.padded[0] * t.padded[1], t.dtype)
                )
            elif (a.shape == t.padded or t.bind_unpadded) and a.flags.c_contiguous:
                initial = a.reshape(-1)
            else:
                full = np.zeros(t.padded, dtype=t.dtype)
                full[:rows, :cols] = a
                initial = full.reshape(-1)
            env[t.read] = initial
        if not t.stored:
            return
        held = (rows if t.live_only else t.padded[0], t.padded[1])
        if a is None and t.values is None and t.role == Role.OUTPUT:
            # Every tile of an output is written (checked when compiled), each of its
            # live elements: what it starts as is never read, unless its store leaves
            # its zeros to it.
            env[t.slot] = (np.zeros if t.zeroed else np.empty)(held[0] * held[1], dtype=t.dtype)
            return
        data = np.zeros(held, dtype=t.dtype)
        if a is not None:
            data[:rows, :cols] = a
        elif t.values is not None:
            data[...] = t.values.reshape(t.padded)[: held[0]]
        env[t.slot] = data.reshape(-1)

    def _held(self, t: TensorSpec) -> int:
        """Elements of the array a tensor that stores write is held in."""
        return (t.dims[0] if t.live_only else t.padded[0]) * t.padded[1]


def below_the_rows_cut(dest: Placed, e: np.ndarray, rows: int) -> np.ndarray:
    """The page elements `e` of a store without those that lie below the tensor's last
    row at every lead position (the padding rows of a tile taller than the tensor: 31
    of a 32-row page for a one-row output), when the ones left are a box of `e` (or
    none); else `e`. A store writes no element outside the tensor's rows, so this
    changes nothing it writes, only the size of the index arrays worked out to find
    them."""
    g = dest.geometry
    a, w = g.split(e)
    lowest = dest.origins.min(axis=(0, 1))  # each block row's first element, at its highest
    keep = (np.take(lowest, a) + w) // g.row_len < rows
    if keep.all():
        return e
    if not keep.any():
        return e[(slice(0, 0),) * e.ndim]
    box = tuple(slice(int(ix.min()), int(ix.max()) + 1) for ix in np.nonzero(keep))
    return e[box] if keep[box].all() else e


class ProgramCompiler(LoopCompiling):
    """Reads one program into a `CompiledProgram`."""

    def __init__(self, op: ProgramOp, fast: bool = True):
        self.op = op
        self.fast = fast
        """False: no fast path (contractions, row terms, stages not run, constants
        computed once): the plain twin the tests prove them equal to."""
        self.tile = op.target.tile
        self.items = op.num_items
        self.coords = op.item_coords()
        self.nslots = 0
        self.tensor: dict[SSAValue, TensorSpec] = {}
        self.layout: dict[SSAValue, Layout] = {}
        self.dense: dict[SSAValue, Dense] = {}
        self.record = new_record(op)
        self.writes: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
        self.current: list[Step] = []
        """The steps being compiled into (where a page laid out in full is made)."""
        self.statics: dict[int, Any] = {}
        """Slots whose values are known now (the pages of stages that read nothing)."""
        self.reach: dict[int, int] = {}
        """The furthest element read of each slot."""
        self.pad_writes: set[int] = set()
        """Slots of tensors some store writes padding of (once a trip, in a loop)."""

    def slot(self) -> int:
        self.nslots += 1
        return self.nslots - 1

    def fail(self, op: Operation, message: str) -> SpatialRuntimeError:
        where = "" if op is self.op else f"{op.name}: "
        return SpatialRuntimeError(
            f'{self.op.name} "{self.op.program_name.data}": {where}{message}'
        )

    # --- the program ---------------------------------------------------------------

    def compile(self) -> CompiledProgram:
        try:
            self.op.check_local_memory()
        except VerifyException as e:
            raise self.fail(self.op, str(e)) from None
        steps: list[Step] = []
        self.block(self.op.entry, steps, (1, self.items), None)
        ret = cast(ReturnOp, self.op.entry.last_op)
        results = [self.tensor[v] for v in ret.values]
        for t in results:
            tiles = self.writes.get(t.name, [])
            items = np.concatenate([w[0] for w in tiles]) if tiles else np.zeros(0, np.int64)
            flat = np.concatenate([w[1] for w in tiles]) if tiles else np.zeros(0, np.int64)
            grid = (t.padded[0] // self.tile[0], t.padded[1] // self.tile[1])
            try:
                geometry.check_disjoint(items, flat, "write", t.name, grid)
                if t.role == Role.OUTPUT:
                    geometry.check_all_written(flat, grid, t.name)
            except VerifyException as e:
                raise self.fail(ret, str(e)) from None
        for t in self.tensor.values():
            t.bind_unpadded = (
                t.padded[1] == t.dims[1] and self.reach.get(t.read, -1) < t.dims[0] * t.padded[1]
            )
            t.live_only = t.stored and t.slot not in self.pad_writes
        statics: list[Any] = [None] * self.nslots
        for k, v in self.statics.items():
            statics[k] = v
        return CompiledProgram(
            self.op.program_name.data,
            self.op.KIND,
            self.op.name,
            list(self.tensor.values()),
            steps,
            self.nslots,
            results,
            self.record,
            statics,
        )

    def block(
        self,
        block: Block,
        steps: list[Step],
        want: Lead,
        loop: KLoopOp | None,
        per_trip: bool = False,
    ) -> None:
        """Compile the ops of `block` (not its terminator) into `steps`."""
        self.ops(
            [o for o in block.ops if not isinstance(o, ReturnOp | KYieldOp | BufferOp)],
            steps,
            want,
            loop,
            per_trip,
        )

    def ops(
        self,
        ops: list[Operation],
        steps: list[Step],
        want: Lead,
        loop: KLoopOp | None,
        per_trip: bool,
    ) -> None:
        outer, self.current = self.current, steps
        for o in ops:
            if isinstance(o, TensorOp):
                self.tensor_op(o)
            elif isinstance(o, LoadOp):
                self.load(o, want, loop)
            elif isinstance(o, StoreOp):
                steps.append(self.store(o, want, loop, per_trip))
            elif isinstance(o, StageOp):
                step = self.stage(o, want, per_trip)
                if step is not None:
                    steps.append(step)
            elif isinstance(o, KLoopOp):
                self.k_loop(o, steps)
            else:
                raise self.fail(o, "cannot run in a program")
        self.current = outer

    # --- tensors -------------------------------------------------------------------

    def tensor_op(self, o: TensorOp) -> None:
        h = o.handle
        grid = geometry.tile_grid(h.dims, self.tile)
        padded = (grid[0] * self.tile[0], grid[1] * self.tile[1])
        dt = numpy_dtype(h.element_type)
        values = None
        if o.values is not None:
            full = np.zeros(padded, dtype=dt)
            full[: h.dims[0], : h.dims[1]] = dense_values(o.values)
            values = full.reshape(-1)
            values.flags.writeable = False
        source = None
        if o.source is not None:
            source = cast(BlockArgument, o.source).index - len(self.op.grid_shape)
        slot = self.slot()
        spec = TensorSpec(
            slot, slot, o.tensor_name.data, h.dims, padded, dt, source, values, Role(h.role.data)
        )
        self.tensor[o.result] = spec
        if is_weight_values(o):
            self.record.weight_elems = h.dims[0] * h.dims[1]
        uses = [u.operation for u in o.result.uses]
        spec.stores = sum(1 for u in uses if isinstance(u, StoreOp) and u.tensor is o.result)
        spec.stored = spec.stores > 0
        spec.loaded = any(
            isinstance(u, LoadOp | StoreOp)
            and ((u.tensor is o.result and isinstance(u, LoadOp)) or u.table is o.result)
            for u in uses
        )
        if spec.stored and spec.loaded:
            spec.read = self.slot()

    # --- moves ---------------------------------------------------------------------

    def origins(
        self, o: TileMoveOp, want: Lead, loop: KLoopOp | None
    ) -> tuple[TensorSpec, np.ndarray, np.ndarray]:
        """The move's tensor, its block rows' first elements (trips, items, block rows)
        and the linear tiles it moves (trips, items, h, w)."""
        t = self.tensor[o.moved_tensor]
        table = None
        if o.table is not None:
            spec = self.tensor[o.table]
            if spec.values is None or spec.stored:
                raise self.fail(o, "an indirect table must be a constant tensor to run")
            table = spec.values.reshape(spec.padded)[: spec.dims[0], : spec.dims[1]].reshape(-1)
        grid = (t.padded[0] // self.tile[0], t.padded[1] // self.tile[1])
        try:
            move = o.tile_move()
            values = geometry.loop_values(self.coords, want[0], o.loop_variables())
            t0 = move.first_tiles(values, (self.items, want[0]), table, o.KIND)
            geometry.check_block_inside(
                t0,
                move.block,
                move.stride,
                grid,
                o.KIND,
                t.name,
                range(want[0]) if loop is not None else None,
            )
        except VerifyException as e:
            raise self.fail(o, str(e)) from None
        t0 = t0.T
        return t, move.row_origins(t0, self.tile, grid[1]), move.tiles(t0)

    def moved(self, o: TileMoveOp, t: TensorSpec) -> int:
        return move_bytes(o, self.op, o.repeat.data)

    def load(self, o: LoadOp, want: Lead, loop: KLoopOp | None) -> None:
        t, first, _ = self.origins(o, want, loop)
        self.record.add_load(t.name, self.moved(o, t), dram_bytes(o, self.op, o.repeat.data))
        uses_kb = loop is not None and loop.induction_var in o.origin_vars
        if not uses_kb:
            first = first[:1]
        self.layout[o.result] = Placed(
            t.read, first, PageGeometry(self.tile, o.block_shape, t.padded[1])
        )

    def store(self, o: StoreOp, want: Lead, loop: KLoopOp | None, per_trip: bool) -> Step:
        t, first, tiles = self.origins(o, want, loop)
        self.record.add_store(t.name, self.moved(o, t))
        items = np.broadcast_to(np.arange(self.items)[None, :, None, None], tiles.shape)
        self.writes.setdefault(t.name, []).append((items.reshape(-1), tiles.reshape(-1)))
        dest = Placed(t.slot, first, PageGeometry(self.tile, o.block_shape, t.padded[1]))
        src = self.layout[o.page]
        size = dest.geometry.size
        held = src.out.reshape(-1) if isinstance(src, Values) else np.arange(size, dtype=np.int64)
        # Only elements inside the tensor's rows and columns are written: nothing reads
        # a tensor's padding after a store (loads read it as the program started).
        rows, cols = t.dims
        row_len = t.padded[1]

        def live(idx: np.ndarray) -> np.ndarray:
            r, c = np.divmod(idx, row_len)
            return (r < rows) & (c < cols)

        e = below_the_rows_cut(dest, src.out if isinstance(src, Values) else held, rows)
        d_lead, d_inner = cast(tuple[np.ndarray, np.ndarray], page_index(dest, e, want))
        dst_idx = np.broadcast_to(d_lead + d_inner, (*want, *e.shape))
        s_lead, s_inner = cast(tuple[np.ndarray, np.ndarray], page_index(src, e, want))
        src_idx = np.broadcast_to(s_lead + s_inner, dst_idx.shape)
        src_slot = src.tensor if isinstance(src, Placed) else src.slot
        writes: list[tuple[Access, Reader | None]] = []
        mask = live(dst_idx)
        box = live_box(mask, keep=2 if per_trip else 0)
        if mask.all() or (per_trip and box is None):
            # (when one trip's live elements cannot be told from another's: all of them)
            box = tuple(slice(None) for _ in mask.shape)
            if not mask.all():
                self.pad_writes.add(t.slot)
        if mask.any():
            if box is not None:
                dst_a, src_a = paired_access(dst_idx[box], src_idx[box])
            else:
                dst_a, src_a = paired_access(
                    dst_idx[mask].reshape(1, 1, -1), src_idx[mask].reshape(1, 1, -1)
                )
            writes.append((dst_a, self.reached(Reader(src_a, src_slot))))
        unheld = below_the_rows_cut(dest, np.setdiff1d(np.arange(size, dtype=np.int64), held), rows)
        # The zeros need no write when the tensor can start as zeros: an output whose
        # one store writes each of its tiles once over all trips and items (so nothing
        # else writes where the zeros go).
        once = (
            self.fast
            and t.role == Role.OUTPUT
            and t.source is None
            and t.values is None
            and t.stores == 1
            and np.unique(tiles).size == tiles.size
        )
        if once and unheld.size:
            t.zeroed = True
        elif unheld.size:  # a stage's page outside what it wrote: zeros
            z_lead, z_inner = cast(tuple[np.ndarray, np.ndarray], page_index(dest, unheld, want))
            z_idx = np.broadcast_to(z_lead + z_inner, (*want, *unheld.shape))
            z_live = live(z_idx)
            if per_trip and not z_live.all():
                z_live[...] = True
                self.pad_writes.add(t.slot)
            if z_live.any():
                z = z_idx[z_live].reshape(1, 1, -1) if not z_live.all() else z_idx
                writes.append((Access.of(z, np.zeros((1,) * (z.ndim - 2), np.int64)), None))
        slot = t.slot

        def run(env: Env, trip: int | None) -> None:
            for dst, src_r in writes:
                if trip is None:
                    dst.write(env[slot], 0 if src_r is None else src_r.read(env))
                else:
                    dst.write_trip(
                        env[slot], 0 if src_r is None else src_r.read_trip(env, trip), trip
                    )

        return run

    # --- stages --------------------------------------------------------------------

    def operand(self, st: StageOp, i: int, ext: Sequence[int], want: Lead) -> Reader:
        """How stage `st` reads its input `i` over `want` + `ext`."""
        page = st.ins[i]
        e = map_offsets(st.in_maps[i], ext)
        via = st.indirect_of[i]
        per_lead = False
        if via >= 0:
            table = self.static_operand(st, via, ext, want)
            if table.shape[0] == table.shape[1] == 1:
                table = table[0, 0]
            else:
                per_lead = True
                e = e[None, None]
            e = e + _symbol_coefficient(st.in_maps[i]) * table.astype(np.int64)
        layout = self.layout[page]
        if e.size:
            try:
                geometry.check_page_reach(
                    int(e.min()),
                    int(e.max()),
                    cast(PageType, page.type).tiles.data,
                    self.tile[0] * self.tile[1] * cast(PageType, page.type).tiles.data,
                    st.stage_name.data,
                    i,
                )
            except VerifyException as ex:
                raise self.fail(st, str(ex)) from None
        return self.access(layout, e, want, page, per_lead)

    def access(
        self,
        layout: Layout,
        e: np.ndarray,
        want: Lead,
        page: SSAValue | None = None,
        per_lead: bool = False,
    ) -> Reader:
        """How to reach page elements `e` of a page of `layout` for the lead `want`
        (a stage's page is laid out in full first when it does not hold them all)."""
        if isinstance(layout, Placed) and not per_lead:
            view = placed_view(layout, e, want)
            if view is not None:
                return self.reached(Reader(view, layout.tensor))
        parts = page_index(layout, e, want, per_lead)
        if parts is None:
            assert page is not None
            layout = self.densify(page)
            parts = page_index(layout, e, want, per_lead)
            assert parts is not None
        slot = layout.tensor if isinstance(layout, Placed) else layout.slot
        return self.reached(Reader(Access.of(*parts), slot))

    def reached(self, r: Reader) -> Reader:
        """Note the furthest element `r` reads of its slot."""
        a = r.access
        if a.strides is not None:
            far = a.offset + sum(st * (e - 1) for st, e in zip(a.strides, a.shape) if st > 0)
        else:
            far = int(a.index.max()) if a.index is not None and a.index.size else -1
        self.reach[r.slot] = max(self.reach.get(r.slot, -1), far)
        return r

    def static_operand(self, st: StageOp, i: int, ext: Sequence[int], want: Lead) -> np.ndarray:
        """The values of input `i` over the iteration space, known now: it is a load of
        a constant tensor (an indirect map's table of offsets)."""
        layout = self.layout[st.ins[i]]
        spec = next(
            (
                t
                for t in self.tensor.values()
                if isinstance(layout, Placed) and t.read == layout.tensor
            ),
            None,
        )
        if not isinstance(layout, Placed) or spec is None or spec.values is None or spec.stored:
            raise self.fail(
                st,
                f"stage '{st.stage_name.data}' reads s0 from input {i}, which must be a load of a constant tensor to run",
            )
        acc = self.access(layout, map_offsets(st.in_maps[i], ext), want)
        return np.asarray(acc.access.read(spec.values))

    def stage(self, st: StageOp, want: Lead, per_trip: bool) -> Step | None:
        """The step of a stage. A stage that passes one input on unchanged runs
        nothing: its page is that input, read where the stage reads it (None)."""
        ext = st.iter_extents
        accs = [self.operand(st, i, ext, want) for i in range(len(st.ins))]
        shapes = [self._trip_shape(a.access.shape, per_trip) for a in accs]
        ev = StageEval(st, shapes, 2, fast=self.fast)
        out = self.slot()
        shape = ev.shape
        o = map_offsets(st.out_map, ext)[
            tuple(slice(None) if k == IterKind.PAR else 0 for k in st.iter_kinds)
        ]
        o = np.broadcast_to(o, [e for e, k in zip(ext, st.iter_kinds) if k == IterKind.PAR])
        size = self.tile[0] * self.tile[1] * cast(PageType, st.result.type).tiles.data
        stacked = self.stacks_rows(ev, st, accs, per_trip, o, size)
        if stacked is not None:
            self.layout[st.result] = stacked
            return None
        through = self.passes_through(ev, st, accs, per_trip)
        if through is not None:
            acc = through.access
            self.layout[st.result] = Values(
                through.slot,
                acc.shape,
                acc.offset,
                acc.strides or (0,) * len(acc.shape),
                o,
                size,
                acc.index,
            )
            return None
        self.layout[st.result] = Values(out, shape, 0, c_strides(shape), o, size)

        if not accs and self.fast:  # a constant: computed now, once
            value = ev.run([]).reshape(-1)
            value.flags.writeable = False
            self.statics[out] = value
            return None

        readers, stacked = self.stack_row_groups(ev, list(accs), per_trip)

        def step(env: Env, trip: int | None) -> None:
            if trip is None:
                ops = [None if a is None else a.read(env) for a in readers]
                rows = [a.read(env) for a in stacked]
            else:
                ops = [None if a is None else a.read_trip(env, trip) for a in readers]
                rows = [a.read_trip(env, trip) for a in stacked]
            env[out] = ev.run(ops, rows).reshape(-1)

        return step

    def passes_through(
        self, ev: StageEval, st: StageOp, accs: list[Reader], per_trip: bool
    ) -> Reader | None:
        """The input a stage yields as it is (no sum, no other op, no conversion), if
        its values can be read where it reads them without running it."""
        if not self.fast or ev.summed or ev.maxed or ev.contraction is not None:
            return None
        terms = ev.body.terms
        if len(terms) != 1 or terms[0].rows or ev.body.steps or terms[0].slot >= len(accs):
            return None
        j = terms[0].slot
        if (
            cast(PageType, st.ins[j].type).element_type
            != cast(PageType, st.result.type).element_type
        ):
            return None
        reader = accs[j]
        if per_trip and reader.access.shape[0] > 1:
            return None  # which trip it reads is known only when it runs
        if reader.access.shape != ev.shape:
            return None
        return reader

    def stacks_rows(
        self,
        ev: StageEval,
        st: StageOp,
        accs: list[Reader],
        per_trip: bool,
        out: np.ndarray,
        size: int,
    ) -> Values | None:
        """A stage that only places its inputs in rows 0, 1, ... of one axis (a sum of
        row selects, the fold's result over its rows), each input a window of one
        array, a constant step apart along it (a merged stage's parts): its page is
        that array, read where the rows are, without running the stage."""
        body = ev.body
        if not self.fast or ev.summed or ev.maxed or ev.contraction is not None:
            return None
        if body.plain or body.other_rows or body.steps or len(body.row_groups) != 1:
            return None
        axis, _, rows, slots = body.row_groups[0]
        m = len(rows)
        if rows != list(range(m)) or any(k >= len(accs) for k in slots):
            return None
        f32 = np.dtype(np.float32)
        if ev.dtype != f32 or any(
            numpy_dtype(cast(PageType, st.ins[k].type).element_type) != f32 for k in slots
        ):
            return None
        stacked = stacked_reader([accs[k] for k in slots], axis, per_trip)
        if stacked is None:
            return None
        a = stacked.access
        assert a.strides is not None
        held = out[(slice(None),) * (axis - 2) + (slice(0, m),)]
        return Values(stacked.slot, a.shape, a.offset, a.strides, held, size)

    def stack_row_groups(
        self, ev: StageEval, accs: list[Reader | None], per_trip: bool
    ) -> tuple[list[Reader | None], list[Reader]]:
        """Row groups whose values are windows of one array, a constant step apart (the
        parts of a merged stage's page), read as that array: the readers left (None for
        an operand only such a group read) and the stacked ones, in order."""
        body = ev.body
        if not self.fast:
            return accs, []
        stacked: list[Reader] = []
        elsewhere = {t.slot for t in body.plain} | {a for st in body.steps for a in st.args}
        elsewhere |= {t.slot for t in body.other_rows}
        left = list(accs)
        for g, (axis, _, rows, slots) in enumerate(body.row_groups):
            readers = [accs[k] if k < len(accs) else None for k in slots]
            if rows != list(range(rows[0], rows[0] + len(rows))) or any(r is None for r in readers):
                continue
            r = stacked_reader(cast(list[Reader], readers), axis, per_trip)
            if r is None:
                continue
            body.stack(g)
            stacked.append(r)
            for k in slots:
                if k not in elsewhere:
                    left[k] = None
        return left, stacked

    def _trip_shape(self, shape: Shape, per_trip: bool) -> Shape:
        return (1, *shape[1:]) if per_trip else shape

    def densify(self, page: SSAValue) -> Dense:
        """The page laid out in full (made once, by a step added where it is first
        needed: right after the stage that made it)."""
        if page in self.dense:
            return self.dense[page]
        v = self.layout[page]
        assert isinstance(v, Values), "loads and dense pages hold every element"
        slot = self.slot()
        lead, size = v.lead, v.size
        full = (*lead, *v.out.shape)
        at = v.out.reshape(-1)
        dt = numpy_dtype(cast(PageType, page.type).element_type)

        def step(env: Env, trip: int | None) -> None:
            page_ = np.zeros((*lead, size), dtype=dt)
            page_[:, :, at] = strided(env[v.slot], v.offset, full, v.strides).reshape(*lead, -1)
            env[slot] = page_.reshape(-1)

        self.current.append(step)
        self.dense[page] = d = Dense(slot, lead, size)
        return d
