"""
The bytes every program moves: per program run, per tensor, loaded and stored.

The chip moves whole tiles, so a load or store of an `h x w` block moves
`h * w * tile elements * element bytes`, once per item and per time it runs (its
`repeat`: the K loop's trips). Both engines count the same numbers.

A program of a tensor-parallel deployment records its chip, so a run's bytes add up
per chip (`Traffic.per_chip`): each chip moves its own shard of the weights and its
own view of the activations.

A record also holds what the program computes (its `Work`) and its target's figures,
so that `chip_time()` estimates its time on the chip (`analysis/chip_time.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from xdsl_spatial.analysis.chip_time import ChipFigures, ProgramTime, Work, program_time
from xdsl_spatial.core.memory import plural
from xdsl_spatial.core.tables import text_table
from xdsl_spatial.dialects.q8 import Q8Part
from xdsl_spatial.dialects.spatial import (
    LoadOp,
    ProgramOp,
    StoreOp,
    TensorHandleType,
    TensorOp,
    TileMoveOp,
    element_bytes,
)


def move_bytes(op: TileMoveOp, program: ProgramOp, runs: int = 1) -> int:
    """Bytes `runs` runs of a load or store move for all of `program`'s items: whole
    tiles of its tensor's elements."""
    bh, bw = op.block_shape
    elem = element_bytes(cast(TensorHandleType, op.moved_tensor.type).element_type)
    return program.num_items * bh * bw * program.target.tile_elems * elem * runs


def is_weight_values(op: TensorOp) -> bool:
    """A param filled with a Q8_0 weight's int8 values: its K x N elements are the
    weight a fold reads."""
    return op.repack is not None and op.repack.part.data == Q8Part.VALUES


@dataclass
class ProgramTraffic:
    """Bytes one run of a program moved, per tensor."""

    name: str
    kind: str
    """`view` or `fold`."""
    items: int
    local_mem: int
    """Bytes of local memory its buffers take on a site."""
    loaded: dict[str, int] = field(default_factory=dict)
    stored: dict[str, int] = field(default_factory=dict)
    weight_elems: int = 0
    """K x N of the Q8_0 weight a fold reads (0 when it reads none)."""
    chip: int | None = None
    """The chip the program ran on (None: a single-chip deployment)."""
    work: Work | None = None
    """What each item computes (None: a record from a file that does not say)."""
    figures: ChipFigures | None = None
    """The figures of the program's target."""

    @staticmethod
    def of(op: ProgramOp) -> ProgramTraffic:
        """An empty record for a run of `op`, which its loads and stores fill."""
        return ProgramTraffic(
            op.program_name.data,
            op.KIND,
            op.num_items,
            op.buffer_bytes(),
            chip=op.chip_index,
            work=Work.of(op),
            figures=ChipFigures.of(op.target),
        )

    def chip_time(self) -> ProgramTime | None:
        """Its estimated time on its target (None when the record does not say what
        the program computes)."""
        if self.work is None or self.figures is None:
            return None
        moved = self.load_bytes + self.store_bytes
        # Every load today lands on one item's site: DRAM and the NoC carry the same bytes.
        return program_time(self.items, moved, moved, self.work, self.figures)

    @property
    def load_bytes(self) -> int:
        return sum(self.loaded.values())

    @property
    def store_bytes(self) -> int:
        return sum(self.stored.values())

    def bytes_per_weight(self) -> float | None:
        if not self.weight_elems:
            return None
        return self.load_bytes / self.weight_elems

    def add_load(self, tensor: str, nbytes: int) -> None:
        self.loaded[tensor] = self.loaded.get(tensor, 0) + nbytes

    def add_store(self, tensor: str, nbytes: int) -> None:
        self.stored[tensor] = self.stored.get(tensor, 0) + nbytes


def program_traffic(program: ProgramOp) -> ProgramTraffic:
    """What one run of `program` moves, from its ops alone (every address is static:
    each move runs `repeat` times for every item), as the engines that run it count."""
    rec = ProgramTraffic.of(program)
    for op in program.body.walk():
        if isinstance(op, TensorOp) and is_weight_values(op):
            r, c = op.handle.dims
            rec.weight_elems = r * c
        elif isinstance(op, LoadOp | StoreOp):
            decl = op.tensor.owner
            name = decl.tensor_name.data if isinstance(decl, TensorOp) else str(op.tensor)
            nbytes = move_bytes(op, program, op.repeat.data)
            (rec.add_load if isinstance(op, LoadOp) else rec.add_store)(name, nbytes)
    return rec


@dataclass(frozen=True)
class ChipTraffic:
    """What one chip's programs moved in one call."""

    chip: int
    programs: int
    load_bytes: int
    store_bytes: int
    weight_elems: int
    """K x N of the weight shards its folds read."""
    fold_load_bytes: int
    """What its folds loaded: their shards and view reads."""

    def bytes_per_weight(self) -> float | None:
        return self.fold_load_bytes / self.weight_elems if self.weight_elems else None


@dataclass
class Traffic:
    """Every program run of one call, in the order they ran."""

    programs: list[ProgramTraffic] = field(default_factory=list)

    def per_chip(self) -> list[ChipTraffic]:
        """The bytes of each chip's programs, by chip (empty when no program names a
        chip)."""
        chips = sorted({p.chip for p in self.programs if p.chip is not None})
        out = []
        for c in chips:
            ps = [p for p in self.programs if p.chip == c]
            folds = [p for p in ps if p.weight_elems]
            out.append(
                ChipTraffic(
                    c,
                    len(ps),
                    sum(p.load_bytes for p in ps),
                    sum(p.store_bytes for p in ps),
                    sum(p.weight_elems for p in folds),
                    sum(p.load_bytes for p in folds),
                )
            )
        return out

    def table(self) -> str:
        """One row per program and tensor, and a total per program; with chips, a
        chip column and a total per chip."""
        chipped = any(p.chip is not None for p in self.programs)
        rows = [("chip", "program", "tensor", "loaded B", "stored B")]
        # A chip's programs together, in the order they ran.
        order = sorted(self.programs, key=lambda p: -1 if p.chip is None else p.chip)
        for p in order:
            c = "" if p.chip is None else str(p.chip)
            for t in sorted(set(p.loaded) | set(p.stored)):
                rows.append((c, p.name, t, f"{p.loaded.get(t, 0):,}", f"{p.stored.get(t, 0):,}"))
            bpw = p.bytes_per_weight()
            extra = f"{plural(p.items, 'item')}, local memory {p.local_mem:,} B"
            if bpw is not None:
                extra += f", {bpw:.4f} B/weight"
            rows.append((c, p.name, f"total ({extra})", f"{p.load_bytes:,}", f"{p.store_bytes:,}"))
        if len(rows) == 1:
            return "no spatial program ran"
        for ct in self.per_chip():
            bpw = ct.bytes_per_weight()
            extra = plural(ct.programs, "program") + (
                f", folds {bpw:.4f} B/weight" if bpw is not None else ""
            )
            rows.append(
                (
                    str(ct.chip),
                    f"chip {ct.chip}",
                    f"total ({extra})",
                    f"{ct.load_bytes:,}",
                    f"{ct.store_bytes:,}",
                )
            )
        if not chipped:
            rows = [r[1:] for r in rows]
        return text_table(rows[0], rows[1:], right=2)
