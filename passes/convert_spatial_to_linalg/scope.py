"""
What one program's translation knows and shares with its parts (`program.py`,
`stages.py`, `amx.py`, `generic.py`): the memref-side value of each of its values, the
page each load and stage writes, the scratch its sums use. It lives for one program.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, f32
from xdsl.ir import Attribute, Operation, SSAValue

from xdsl_spatial.dialects.spatial import (
    BufferType,
    LoadOp,
    ProgramOp,
    StageOp,
    StoreOp,
    TensorOp,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.build import add, idx, mul, page_type
from xdsl_spatial.passes.convert_spatial_to_linalg.globals import Globals
from xdsl_spatial.passes.convert_spatial_to_linalg.pages import (
    InPlace,
    PlanError,
    Slot,
    TensorPlan,
    writes_into,
)


@dataclass
class Held:
    """A tensor's buffers inside the program: what loads read, what stores write."""

    plan: TensorPlan
    read: SSAValue | None
    write: SSAValue | None
    strip: int = 0
    """Columns of a strip of a tensor laid in tile columns (`core/tile_columns.py`:
    its tiles' width), or 0: laid in rows."""

    def steps(self, tile: tuple[int, int]) -> tuple[int, int]:
        """Elements of the tensor's memory from one of its rows to the next, and from
        one of its tiles to the next along a tile row: laid in rows, a row of the
        tensor and a tile's width; laid in tile columns, a strip's width and a whole
        strip (its width times the tensor's rows)."""
        rows, cols = self.plan.padded
        tc = tile[1]
        return (tc, tc * rows) if self.strip else (cols, tc)


@dataclass(frozen=True)
class Options:
    """The pass's options (`ConvertSpatialToLinalgPass`)."""

    parallel: bool = False


class ProgramScope:
    """One program's translation in progress. `slots` is the plan of its pages
    (`pages.ring_slots`), `globals_` the module's globals of its `values` tensors
    (`globals.make_globals`)."""

    def __init__(
        self,
        program: ProgramOp,
        slots: dict[Operation, Slot],
        globals_: Globals,
        options: Options = Options(),
    ):
        self.program = program
        self.parallel = options.parallel
        self.tile = program.target.tile
        self.slots = slots
        self.globals = globals_
        self.held: dict[SSAValue, Held] = {}
        self.values: dict[SSAValue, SSAValue] = {}
        """Spatial values (coordinates, the K index, buffers, pages) -> memref-side ones."""
        self.loop: scf.ForOp | None = None
        self.scratch_ops: list[Operation] = []
        """Allocas no buffer declares, placed after the buffers' (`scratch`)."""
        self.last_buffer: Operation | None = None
        self.in_place: dict[SSAValue, InPlace] = {}
        """The pages read where their tensor holds them (`ProgramTranslation.load`)."""
        self.updated: dict[StageOp, tuple[LoadOp, StoreOp, InPlace]] = {}
        """The stages that update a state's tiles where they lie
        (`ProgramTranslation.updates`), with their load and store."""
        self.updated_loads: set[LoadOp] = set()
        self.updated_stores: set[StoreOp] = set()
        self.written_in_place: dict[SSAValue, tuple[SSAValue, InPlace]] = {}
        """The pages of those stages, written where their tensor holds them: the view
        at the block's first element, and where the rest lie from it."""
        self.widened: dict[SSAValue, SSAValue] = {}
        """The pages of the stages being built that are read widened (`stages.widen`)."""
        self.before_items: set[Operation] = set()
        """The loads made once before the items' loops (`ProgramTranslation.alike`)."""

    def run_time_table(self, table: SSAValue | None) -> bool:
        """Whether `table` (a move's table, or the page a stage's indirect input
        reads its offsets from) holds entries made when the step runs, by another
        program, not a `values` tensor's: nothing bounds them before then (the native
        engine's refusals of a constant table are made when it compiles)."""
        if table is None:
            return False
        owner = table.owner
        if isinstance(owner, LoadOp):  # a page of offsets: its tensor's
            owner = owner.tensor.owner
        return not (isinstance(owner, TensorOp) and owner.values is not None)

    def fail(self, op: Operation, why: str) -> PlanError:
        return PlanError(
            f'{self.program.name} "{self.program.program_name.data}": {op.name}: {why}'
        )

    def scratch(self, name: str, size: int, elem: Attribute = f32) -> SSAValue:
        """A `memref.alloca` of `size` elements (f32 unless said), placed by `build`
        after the buffers' allocas (an alloca inside a loop would take stack space
        every trip): working space of a sum that no buffer declares, as a site's
        registers."""
        made = self.local(elem, [size])
        made.memref.name_hint = name
        self.scratch_ops.append(made)
        return made.memref

    def local(self, elem: Attribute, shape: Sequence[int]) -> memref.AllocaOp:
        """A site's memory: a `memref.alloca`, made once before the item loop, or with
        `parallel` inside the parallel loop, one per item (every thread its own;
        `convert-scf-to-openmp` frees them after each item, in an `alloca_scope`)."""
        return memref.AllocaOp.get(elem, shape=shape)

    # --- pages ----------------------------------------------------------------------

    def page(self, b: Builder, o: Operation) -> SSAValue:
        """The page `o` writes: its slot of its buffer."""
        buf_v = cast(SSAValue, writes_into(o))
        buf = self.values[buf_v]
        bt = cast(BufferType, buf_v.type)
        size = self.tile[0] * self.tile[1] * bt.tiles.data
        s = self.slots[o]
        at = s.static()
        if at is not None:
            offset = idx(b, at * size)
        else:
            assert self.loop is not None
            kb = self.loop.body.block.args[0]
            turn = add(b, mul(b, kb, s.per_trip), s.first)
            slot = b.insert(arith.RemUIOp(turn, idx(b, s.depth))).result
            offset = mul(b, slot, size)
        pt = page_type(bt.tiles.data, bt.element_type, self.tile)
        sizes = pt.get_shape()
        made = memref.ReinterpretCastOp(
            buf, [offset], [], [], [DYNAMIC_INDEX], list(sizes), [sizes[1], 1], pt
        )
        return b.insert(made).result
