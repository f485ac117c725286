"""
One program's translation: its tensors, buffers, item loops, loads, stores and K
loops, a method for each source op, reading each once (its stages: `stages.py`).

The translation holds what the program's values have become (a page its slot of a
buffer, a tensor its buffers); it lives for one program. Every op is inserted by the
builder a method is given (the pattern's rewriter at the top, a `Builder` at the end
of each loop body).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects import arith, bufferization, memref, scf
from xdsl.dialects.builtin import MemRefType, StringAttr, UnitAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from xdsl_spatial.core import geometry
from xdsl_spatial.core.geometry import LinearForm, linear_form
from xdsl_spatial.core.tile_columns import LAYOUT, TILE_COLUMNS
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    BufferType,
    IterKind,
    KLoopOp,
    KYieldOp,
    LoadOp,
    ReturnOp,
    Role,
    StageOp,
    StoreOp,
    TensorOp,
    TileMoveOp,
    same_tiles,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.build import (
    INDEX,
    add,
    copy,
    copy_unless_same,
    counted,
    element,
    fill,
    idx,
    inside,
    linear,
    mul,
    view,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import (
    BLOCK_KERNELS,
    DOT,
    KERNELS,
    STREAM,
    fills_page,
    item_ops,
    loop_axes,
    read_widened,
    siblings,
    stage_forms,
    stage_kernel,
    strip_loops,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.pages import (
    InPlace,
    TensorPlan,
    laid_tensor,
    tensor_plan,
    writes_into,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.scope import Held, ProgramScope
from xdsl_spatial.passes.convert_spatial_to_linalg.stages import stages


class ProgramTranslation(ProgramScope):
    """Translates one program, a method for each source op (its stages: `stages.py`)."""

    # --- the program --------------------------------------------------------------

    def build(self, b: Builder, inputs: Sequence[SSAValue]) -> list[SSAValue]:
        """The program's ops, inserted by `b`; its results (tensors)."""
        body = self.program.entry
        rank = len(self.program.grid_shape)
        for arg, v in zip(body.args[rank:], inputs):
            self.values[arg] = v
        for o in body.ops:
            if isinstance(o, TensorOp):
                self.tensor(b, o)
        self.updated = self.updates()
        self.updated_loads = {load for load, _, _ in self.updated.values()}
        self.updated_stores = {store for _, store, _ in self.updated.values()}
        if self.parallel and self.program.grid_shape:
            self.parallel_items(b)
        else:
            self.buffers(b)
            alike = self.alike()
            self.before_items = set(alike)
            for o in alike:
                self.load(b, o)
            self.items(b, 0)
        if self.scratch_ops:
            # A stage's pages are in buffers: the scratch goes after the last one.
            assert self.last_buffer is not None
            b.insert(self.scratch_ops, InsertPoint.after(self.last_buffer))
        ret = cast(ReturnOp, body.last_op)
        return [self.result(b, v) for v in ret.values]

    def buffers(self, b: Builder) -> None:
        for o in self.program.entry.ops:
            if isinstance(o, BufferOp):
                self.buffer(b, o)

    def body_ops(self) -> list[Operation]:
        """What an item runs: the program's ops but its declarations and return."""
        return item_ops(self.program)

    def alike(self) -> list[LoadOp]:
        """The loads every item makes alike, which the items' loops then read from one
        page made before them: outside any K loop, at an origin no item coordinate
        moves and through no table, of a tensor no store writes, into a buffer no other
        op writes (a multicast's block: a norm's weights, a page of new values every
        item of a cache write reads), so the page holds it for every item."""
        writes = Counter(w for o in self.program.entry.walk() if (w := writes_into(o)) is not None)
        return [
            o
            for o in self.body_ops()
            if isinstance(o, LoadOp)
            and not o.origin_vars
            and o.table is None
            and writes[o.buffer] == 1
            and not self.held[o.tensor].plan.stored
        ]

    def parallel_items(self, b: Builder) -> None:
        """The items as one `scf.parallel` over the grid (the `parallel` option), each
        with buffers of its own (a site's local memory, made in the loop's body: the
        threads that run items at once have one each), then the program's body."""
        body = self.program.entry
        grid = self.program.grid_shape
        blk = Block(arg_types=[INDEX] * len(grid))
        for axis, a in enumerate(blk.args):
            a.name_hint = body.args[axis].name_hint
            self.values[body.args[axis]] = a
        zeros, ones = [idx(b, 0) for _ in grid], [idx(b, 1) for _ in grid]
        b.insert(scf.ParallelOp(zeros, [idx(b, e) for e in grid], ones, [blk]))
        inner = inside(blk)
        self.buffers(inner)
        self.ops(inner, self.body_ops())
        inner.insert(scf.ReduceOp())

    def items(self, b: Builder, axis: int) -> None:
        """The item loop over grid axis `axis` and, inside it, the next ones; inside
        the last, the program's body."""
        body = self.program.entry
        grid = self.program.grid_shape
        if axis == len(grid):
            self.ops(b, self.body_ops())
            return
        inner, item = counted(b, grid[axis])
        item.name_hint = body.args[axis].name_hint
        self.values[body.args[axis]] = item
        self.items(inner, axis + 1)
        inner.insert(scf.YieldOp())

    def ops(self, b: Builder, ops: Sequence[Operation]) -> None:
        i = 0
        while i < len(ops):
            o = ops[i]
            if isinstance(o, StageOp):
                run = siblings(ops, i)
                if o in self.updated:
                    self.update(b, o)
                else:
                    stages(self, b, run)
                i += len(run)
                continue
            i += 1
            if isinstance(o, LoadOp):
                if o not in self.before_items and o not in self.updated_loads:
                    self.load(b, o)
            elif isinstance(o, StoreOp):
                if o not in self.updated_stores:
                    self.store(b, o)
            elif isinstance(o, KLoopOp):
                self.k_loop(b, o)
            elif isinstance(o, TensorOp | BufferOp):
                raise self.fail(o, "declared inside a K loop")
            else:
                raise self.fail(o, "cannot be converted")

    # --- tensors and buffers --------------------------------------------------------

    def tensor(self, b: Builder, o: TensorOp) -> None:
        plan = tensor_plan(o, self.tile)
        elem = o.handle.element_type
        full = MemRefType(elem, plan.padded)
        read: SSAValue | None = None
        given: SSAValue | None = None
        if o.source is not None:
            src = self.values[o.source]
            buf = bufferization.ToBufferOp.build(
                operands=[src],
                result_types=[MemRefType(elem, plan.dims)],
                properties={"read_only": UnitAttr()},
            )
            mem = b.insert(buf).memref
            mem.name_hint = o.tensor_name.data
            read = given = mem
            # Read as it is given when each load reads whole tile rows or the last
            # (it copies the rows there, and zeros past them where a read may reach
            # those), else from a zero-padded copy: a read of padding finds zeros.
            if not plan.whole_tiles and not plan.live_reads:
                padded = b.insert(memref.AllocOp([], [], full)).memref
                fill(b, 0, elem, padded)
                copy(b, mem, self._live(b, padded, plan))
                read = padded
        elif o.values is not None:
            g = self.globals[o]
            read = b.insert(memref.GetGlobalOp(g.sym_name.data, g.type)).memref
        elif plan.loaded:
            read = b.insert(memref.AllocOp([], [], full)).memref
            fill(b, 0, elem, read)
        write = None
        if plan.stored:
            made = memref.AllocOp([], [], MemRefType(elem, (plan.written_rows, plan.padded[1])))
            write = b.insert(made).memref
            write.name_hint = o.tensor_name.data
            if Role(o.handle.role.data) != Role.OUTPUT or o.values is not None:
                # A state keeps what no store writes; an output is written whole.
                if read is None:
                    fill(b, 0, elem, write)
                elif read is given:
                    copy_unless_same(b, read, write)
                else:
                    copy(b, read, write)
        if read is not None and read.name_hint is None:
            read.name_hint = o.tensor_name.data
        self.held[o.result] = Held(plan, read, write, self.strip(o))

    def strip(self, o: TensorOp) -> int:
        """The columns of a strip of tensor `o` laid in tile columns (`LAYOUT`, which
        `spatial-native-layout` marks: its tiles' width), or 0: laid in rows."""
        mark = o.attributes.get(LAYOUT)
        if mark is None:
            return 0
        name = o.tensor_name.data
        if mark != StringAttr(TILE_COLUMNS):
            raise self.fail(
                o, f"tensor '{name}': unknown {LAYOUT} {mark}, expected \"{TILE_COLUMNS}\""
            )
        if laid_tensor(o) is None:
            raise self.fail(
                o,
                f"tensor '{name}' is marked {LAYOUT} = \"{TILE_COLUMNS}\", but only an int8 "
                "tensor of whole tiles from outside the program (a param or an input) that "
                "only loads read can be laid so",
            )
        return self.tile[1]

    def _live(self, b: Builder, padded: SSAValue, plan: TensorPlan) -> SSAValue:
        rows, cols = plan.dims
        return view(b, padded, 0, (rows, cols), (plan.padded[1], 1))

    def buffer(self, b: Builder, o: BufferOp) -> None:
        bt = cast(BufferType, o.result.type)
        tr, tc = self.tile
        t = MemRefType(bt.element_type, (bt.depth.data, tr, tc * bt.tiles.data))
        made = b.insert(self.local(t.element_type, t.get_shape()))
        made.memref.name_hint = o.buffer_name.data
        self.values[o.result] = made.memref
        self.last_buffer = made

    def result(self, b: Builder, v: SSAValue) -> SSAValue:
        held = self.held[v]
        assert held.write is not None, "a returned tensor is stored (verified)"
        mem = held.write
        if cast(MemRefType[Attribute], mem.type).get_shape() != held.plan.dims:
            rows, cols = held.plan.dims
            live = b.insert(memref.AllocOp([], [], MemRefType(element(mem), (rows, cols))))
            copy(b, self._live(b, mem, held.plan), live.memref)
            mem = live.memref
        return b.insert(bufferization.ToTensorOp(mem, restrict=True, writable=True)).tensor

    # --- moves ----------------------------------------------------------------------

    def origin(self, b: Builder, o: TileMoveOp) -> SSAValue:
        """The block's first tile (linear), for this item and K block."""
        vars_ = [self.values[v] for v in o.origin_vars]
        form = geometry.single_linear(o.origin.data, f"{o.name} origin")
        t0 = linear(b, form, vars_)
        if o.table is not None and o.table_at is not None:
            table = self.held[o.table]
            assert table.read is not None, "a table is loaded from, so it is held"
            at = linear(b, geometry.single_linear(o.table_at.data, "table position"), vars_)
            cols = table.plan.dims[1]
            r = b.insert(arith.DivUIOp(at, idx(b, cols))).result
            c = b.insert(arith.RemUIOp(at, idx(b, cols))).result
            entry = b.insert(memref.LoadOp.get(table.read, [r, c])).res
            t0 = add(b, t0, b.insert(arith.IndexCastOp(entry, INDEX)).result)
        return t0

    def move(
        self, b: Builder, o: TileMoveOp, tensor_mem: SSAValue, page: SSAValue, load: bool
    ) -> None:
        """Copy the block's tiles between the tensor and the page."""
        held = self.held[cast(LoadOp | StoreOp, o).tensor]
        tr, tc = self.tile
        cols = held.plan.padded[1]
        tpr = cols // tc
        bh, bw = o.block_shape
        stride = o.stride.data
        w = bw * tc
        page_w = bh * w
        t0 = self.origin(b, o)
        b = self.guarded(b, held, o, t0, store=not load)

        def first(b: Builder, t: SSAValue) -> SSAValue:
            return self.block_start(b, held, t)

        # A load whose page may be read past the rows it moves fills the rest of
        # the page's rows with zeros (page row r of the block is its tiles' row r
        # side by side: the rows past them are the page's end).
        rows = self.moved_rows(o, held, tensor_mem)
        if load and rows < tr and held.plan.padding_read:
            fill(b, 0, element(page), view(b, page, rows * page_w, ((tr - rows) * page_w,), (1,)))
        # A row of a tile row of the block: `w` elements in a row of the tensor, or
        # laid in tile columns `bw` strips of `tc`, each its own; and from one row to
        # the next, from one tile row to the next, in the tensor.
        down, across = held.steps(self.tile)
        tile_down = tr * down
        if held.strip:
            row, t_row, p_row = (bw, tc), (across, 1), (tc, 1)
        else:
            row, t_row, p_row = (w,), (1,), (1,)
        if bh == 1 or stride % tpr == 0:
            rows_apart = (stride // tpr) * tile_down if bh > 1 else tile_down
            shape, t_strides, p_strides = (
                (bh, rows, *row),
                (rows_apart, down, *t_row),
                (w, page_w, *p_row),
            )
            if load and o in held.plan.whole_loads:
                start = first(b, t0)
                block = (shape, t_strides, p_strides)
                self.move_every_tile_row(b, held, tensor_mem, start, page, block)
                return
            if load and bh > 1:
                # in the page's order, so that each page row (that row of every tile
                # row of the block) is written contiguously
                shape = (rows, bh, *row)
                t_strides, p_strides = (down, rows_apart, *t_row), (page_w, w, *p_row)
            t_view = view(b, tensor_mem, first(b, t0), shape, t_strides)
            p_view = view(b, page, 0, shape, p_strides)
            copy(b, t_view, p_view) if load else copy(b, p_view, t_view)
            return
        inner, a = counted(b, bh)
        t = add(inner, t0, mul(inner, a, stride))
        t_view = view(inner, tensor_mem, first(inner, t), (rows, *row), (down, *t_row))
        p_view = view(inner, page, mul(inner, a, w), (rows, *row), (page_w, *p_row))
        copy(inner, t_view, p_view) if load else copy(inner, p_view, t_view)
        inner.insert(scf.YieldOp())

    def guarded(self, b: Builder, held: Held, o: TileMoveOp, t0: SSAValue, store: bool) -> Builder:
        """Where to build what `o` moves from tile `t0`: `b` itself, or, where a
        run-time table places the block (known only when the step runs), inside an
        `scf.if` that it lies wholly inside the tensor (a store's: and inside what its
        item owns): never a move out of bounds or into another item's tiles."""
        if not self.run_time_table(o.table):
            return b
        ok = self.inside_tensor(b, held, o, t0)
        if store:
            ok = b.insert(arith.AndIOp(ok, self.inside_owned(b, held, o, t0))).result
        blk = Block()
        b.insert(scf.IfOp(ok, [], [blk]))
        inside(blk).insert(scf.YieldOp())
        return Builder(InsertPoint.before(cast(Operation, blk.last_op)))

    def inside_tensor(self, b: Builder, held: Held, o: TileMoveOp, t0: SSAValue) -> SSAValue:
        """Whether the block of `o` from tile `t0` (linear) lies inside its tensor's
        tiles: `t0` not negative, its columns within a tile row, its last tile within
        the tensor."""
        tr, tc = self.tile
        tpr = held.plan.padded[1] // tc
        tiles = held.plan.padded[0] // tr * tpr
        bh, bw = o.block_shape
        last = add(b, t0, (bh - 1) * o.stride.data + bw - 1)
        col = b.insert(arith.RemUIOp(t0, idx(b, tpr))).result
        checks = [
            b.insert(arith.CmpiOp(t0, idx(b, 0), "sge")).result,
            b.insert(arith.CmpiOp(last, idx(b, tiles), "slt")).result,
            b.insert(arith.CmpiOp(add(b, col, bw), idx(b, tpr), "sle")).result,
        ]
        ok = checks[0]
        for c in checks[1:]:
            ok = b.insert(arith.AndIOp(ok, c)).result
        return ok

    def inside_owned(self, b: Builder, held: Held, o: TileMoveOp, t0: SSAValue) -> SSAValue:
        """Whether the block of store `o` from tile `t0` lies inside the tiles its item
        owns (the program's `owns`, linear: verified)."""
        tc = self.tile[1]
        tpr = held.plan.padded[1] // tc
        owns = self.program.owns.data
        rank = len(self.program.grid_shape)
        coords = [self.values[a] for a in self.program.entry.args[:rank]]
        forms = [cast(LinearForm, linear_form(e, owns.num_dims, 0)) for e in owns.results]
        # the coordinates are `linear`'s values: the forms' dims as its terms
        r0, c0 = (linear(b, LinearForm(f.const, (), f.dims), coords) for f in forms)
        rows, cols = (int(v) for v in self.program.owns_size.get_values())
        bh, bw = o.block_shape
        row = b.insert(arith.DivUIOp(t0, idx(b, tpr))).result
        col = b.insert(arith.RemUIOp(t0, idx(b, tpr))).result
        last = add(b, t0, (bh - 1) * o.stride.data)
        last_row = b.insert(arith.DivUIOp(last, idx(b, tpr))).result
        checks = [
            b.insert(arith.CmpiOp(row, r0, "sge")).result,
            b.insert(arith.CmpiOp(last_row, add(b, r0, rows), "slt")).result,
            b.insert(arith.CmpiOp(col, c0, "sge")).result,
            b.insert(arith.CmpiOp(add(b, col, bw), add(b, c0, cols), "sle")).result,
        ]
        ok = checks[0]
        for c in checks[1:]:
            ok = b.insert(arith.AndIOp(ok, c)).result
        return ok

    def block_start(self, b: Builder, held: Held, t: SSAValue) -> SSAValue:
        """The element of the tensor where tile `t` (linear) starts."""
        tr, tc = self.tile
        tpr = held.plan.padded[1] // tc
        down, across = held.steps(self.tile)
        if tpr == 1:
            return mul(b, t, tr * down)
        row = b.insert(arith.DivUIOp(t, idx(b, tpr))).result
        col = b.insert(arith.RemUIOp(t, idx(b, tpr))).result
        return add(b, mul(b, row, tr * down), mul(b, col, across))

    def read_in_place(self, o: LoadOp, held: Held) -> InPlace | None:
        """Where the page of load `o` is in its tensor, when it need not be copied
        (a stage marked `kernel = "stream"`, `loops.STREAM`): that one sum reads it,
        directly and not to widen it (its map carries from no tile row into the
        next), and the block is whole tile rows a fixed stride apart; the sum is of
        one row (a product's: each weight element read once), or it reads the page's
        elements as they are (attention's scores read each cached key once a query
        head, `p . v` each cached value once a query row: a copy would move each once
        more), where a product of several rows converts its int8 and scales by block
        from pages. A stage marked `kernel = "amx"` or `"dot"` may sum many rows: its
        weights are read once a trip, to pair them (`amx.pair_vector`); so may one
        marked `kernel = "fma"` (`loops.FMA`), whose weights are read once a trip, to
        widen them (`dot.widened_block`) (`loops.BLOCK_KERNELS`). One marked `"dot"`
        also reads where they lie the pages it only widens: its activation, whose
        bf16 pairs it reads as they are, and a block's scales, widened as they are
        loaded (`dot.dot_scales`). Else None: the page is copied."""
        uses = list(o.result.uses)
        if (
            o.table is not None
            or len(uses) != 1
            or held.plan.padding_read
            or o in held.plan.whole_loads
        ):
            return None
        assert held.read is not None
        where = self.placement(o, held, held.read)
        if where is None:
            return None
        stage, i = uses[0].operation, uses[0].index
        if not isinstance(stage, StageOp) or stage_kernel(stage) not in KERNELS:
            return None
        if stage.indirect_of[i] >= 0 or i in stage.indirect_of:
            return None
        kinds, ext = stage.iter_kinds, stage.iter_extents
        pars = [d for d, e in enumerate(ext) if e > 1 and kinds[d] == IterKind.PAR]
        summed = any(e > 1 and kinds[d] == IterKind.SUM for d, e in enumerate(ext))
        arg = stage.body.block.args[i]
        widens = any(isinstance(u.operation, (arith.ExtFOp, arith.SIToFPOp)) for u in arg.uses)
        many = len(pars) > 1 and stage_kernel(stage) not in BLOCK_KERNELS
        # the dots read their activation's bf16 pairs as they are and widen their
        # factors (a block's scales) as they load them
        loaded = stage_kernel(stage) == DOT
        if not summed or (read_widened(arg, arith.ExtFOp) and not loaded) or (many and widens):
            return None
        if held.strip:
            return where if self.laid_in_place(stage, i, where) else None
        return where if where.form(stage_forms(stage)[i], ext) is not None else None

    def laid_in_place(self, stage: StageOp, i: int, where: InPlace) -> bool:
        """Whether `stage` can read its input `i`, a page of a tensor laid in tile
        columns at `where`, where it lies: a sum of one row marked `stream`, or of
        rows marked `amx`, `dot` or `fma`, each of its loops stepping within a strip or
        from one strip to the next as they run (its columns split into strips,
        `loops.strip_loops`; with siblings, its columns' blocks outermost:
        `loops.loop_axes`). The plain kernels copy such pages, a tile
        1 KiB in one piece."""
        ext, kinds = stage.iter_extents, stage.iter_kinds
        rows = sum(e > 1 and k == IterKind.PAR for k, e in zip(kinds, ext)) - 1
        kernel = stage_kernel(stage)
        if any(stage_forms(stage)[i].syms) or (
            kernel not in BLOCK_KERNELS and (kernel != STREAM or rows)
        ):
            return False
        f = stage_forms(stage)[i]
        for loops in (strip_loops(loop_axes(stage, split=False), where.strip), loop_axes(stage)):
            if where.place(f.const, [(f.dims[a.axis] * a.step, a.extent) for a in loops]) is None:
                return False
        return True

    def placement(self, o: TileMoveOp, held: Held, mem: SSAValue) -> InPlace | None:
        """Where the elements of the page `o` moves lie in `mem`, its tensor's buffer,
        from the block's first (`InPlace`); None where the block's tile rows are not
        a whole number of tensor rows apart."""
        tr, tc = self.tile
        cols = held.plan.padded[1]
        tpr = cols // tc
        bh, bw = o.block_shape
        stride = o.stride.data
        if bh > 1 and stride % tpr:
            return None
        rows = self.moved_rows(o, held, mem)
        tile_down = tr * held.steps(self.tile)[0]  # laid in tile columns, `tr` rows of a strip
        apart = (stride // tpr) * tile_down if bh > 1 else tile_down
        height = held.plan.padded[0] if held.strip else 0
        return InPlace(rows, bh, bw * tc, apart, cols, held.strip, height)

    def move_every_tile_row(
        self,
        b: Builder,
        held: Held,
        tensor_mem: SSAValue,
        start: SSAValue,
        page: SSAValue,
        block: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]],
    ) -> None:
        """Load a block of every tile row of a tensor read as it is given
        (`TensorPlan.whole_loads`) from element `start`, `block` its copy as `move`
        makes it (its shape: tile rows, rows, a row; its strides in the tensor and in
        the page): the tile rows before the last whole, the last's own rows, and zeros
        in the page's rows past them, as the padded copy would have held."""
        tr = self.tile[0]
        (bh, _, *row), (rows_apart, down, *t_row), (w, page_w, *p_row) = block
        live = held.plan.last_rows(tr)
        last = add(b, start, (bh - 1) * rows_apart)
        for at, rows, tiles, offset in ((start, tr, bh - 1, 0), (last, live, 1, (bh - 1) * w)):
            moved = (rows, tiles, *row)
            t_view = view(b, tensor_mem, at, moved, (down, rows_apart, *t_row))
            copy(b, t_view, view(b, page, offset, moved, (page_w, w, *p_row)))
        past = view(b, page, live * page_w + (bh - 1) * w, (tr - live, w), (page_w, 1))
        fill(b, 0, element(page), past)

    def moved_rows(self, o: TileMoveOp, held: Held, mem: SSAValue) -> int:
        """The rows of each tile of its block that `o` moves: a load of the last tile
        row of a tensor read as it is given (`TensorPlan.live_reads`) the rows there,
        a move of a tensor held as its live rows (an output shorter than a tile row)
        those, else the tile's."""
        tr = self.tile[0]
        if o in held.plan.last_loads:
            return held.plan.last_rows(tr)
        return min(tr, cast(MemRefType[Attribute], mem.type).get_shape()[0])

    def updates(self) -> dict[StageOp, tuple[LoadOp, StoreOp, InPlace]]:
        """The stages that update a state's tiles where its buffer holds them: a map
        (no sum, no largest) whose one input is a load of a stored tensor's tiles,
        read element for element where it writes every element of its page
        (`fills_page`), its page then stored to the same tiles (`same_tiles`) and read
        by nothing else, the load read by nothing else; all in the item's body,
        outside K loops, the store the program's only one of that tensor. The load copies nothing, the
        stage reads and writes the tensor's buffer, the store copies nothing: a cache
        write's stage changes one position of a window of 32, which the load and the
        store had copied whole. The same values, because what the load reads there is
        what the tensor held when the program started: the tiles are ones the item
        then stores, items store apart, each inside what it owns (verified, or guarded
        by `inside_owned`), and no other store writes the tensor."""
        found: dict[StageOp, tuple[LoadOp, StoreOp, InPlace]] = {}
        body = self.body_ops()
        stored = Counter(x.tensor for x in self.program.walk() if isinstance(x, StoreOp))
        for j, o in enumerate(body):
            if not isinstance(o, StageOp) or len(siblings(body, j)) != 1:
                continue
            ext = o.iter_extents
            if any(k != IterKind.PAR for k, e in zip(o.iter_kinds, ext) if e > 1):
                continue
            out = list(o.result.uses)
            if len(out) != 1 or not isinstance(store := out[0].operation, StoreOp):
                continue
            if store not in body[j + 1 :] or stored[store.tensor] > 1:
                continue
            held = self.held[store.tensor]
            forms = stage_forms(o)
            if held.write is None or not fills_page(o, self.tile):
                continue
            for i, v in enumerate(o.ins):
                load = v.owner
                if (
                    not isinstance(load, LoadOp)
                    or load.tensor is not store.tensor
                    or load not in body[:j]
                    or not v.has_one_use()
                    or o.indirect_of[i] >= 0
                    or i in o.indirect_of
                    or forms[i] != forms[-1]
                    or not same_tiles(load, store)
                ):
                    continue
                where = self.placement(store, held, held.write)
                if where is not None and where.form(forms[-1], ext) is not None:
                    found[o] = (load, store, where)
                break
        return found

    def update(self, b: Builder, o: StageOp) -> None:
        """Stage `o` of `updates`, the page its load fills and its own page both views
        of the tensor's buffer at the block, built where the store would have been
        (`guarded`)."""
        load, store, where = self.updated[o]
        held = self.held[store.tensor]
        assert held.write is not None
        t0 = self.origin(b, store)
        b = self.guarded(b, held, store, t0, store=True)
        page = view(b, held.write, self.block_start(b, held, t0), (1,), (1,))
        page.name_hint = load.result.name_hint
        self.values[load.result] = page
        self.in_place[load.result] = where
        self.written_in_place[o.result] = (page, where)
        stages(self, b, [o])

    def load(self, b: Builder, o: LoadOp) -> None:
        held = self.held[o.tensor]
        assert held.read is not None, "a loaded tensor is held for reading"
        where = self.read_in_place(o, held)
        if where is not None:
            start = self.block_start(b, held, self.origin(b, o))
            page = view(b, held.read, start, (1,), (1,))
            page.name_hint = o.result.name_hint
            self.in_place[o.result] = where
        else:
            page = self.page(b, o)
            page.name_hint = o.result.name_hint
            self.move(b, o, held.read, page, load=True)
        self.values[o.result] = page

    def store(self, b: Builder, o: StoreOp) -> None:
        held = self.held[o.tensor]
        assert held.write is not None, "a stored tensor has a buffer to write"
        self.move(b, o, held.write, self.values[o.page], load=False)

    # --- the K loop -----------------------------------------------------------------

    def k_loop(self, b: Builder, o: KLoopOp) -> None:
        inits = [self.values[v] for v in o.inits]
        blk = Block(arg_types=[INDEX, *(v.type for v in inits)])
        blk.args[0].name_hint = o.induction_var.name_hint
        loop = b.insert(scf.ForOp(idx(b, 0), idx(b, o.trips.data), idx(b, 1), inits, blk))
        outer, self.loop = self.loop, loop
        self.values[o.induction_var] = blk.args[0]
        for a, v in zip(o.body.block.args[1:], blk.args[1:]):
            self.values[a] = v
            v.name_hint = a.name_hint
        inner = inside(blk)
        self.ops(inner, [x for x in o.body.block.ops if not isinstance(x, KYieldOp)])
        y = cast(KYieldOp, o.body.block.last_op)
        inner.insert(scf.YieldOp(*(self.values[v] for v in y.values)))
        self.loop = outer
        for r, v in zip(o.res, loop.results):
            self.values[r] = v
            v.name_hint = r.name_hint
