"""
How long a program would take on the chip: an estimate from the target's figures
(`#spatial.target`: sites, clock, DRAM and NoC bandwidth, work a cycle, launch cycles).
Numbers in and numbers out; docs/chip_time.md derives the model and says its limits.

A program's run costs the largest of three times, plus its launch:

- **DRAM**: every byte its loads read and its stores write crosses the chip's memory
  interface (tensors live in DRAM), at the chip's bandwidth, shared by all sites;
- **NoC**: each item's bytes cross its site's links to the network-on-chip, at
  `noc_b_cycle` bytes a cycle, all sites at once;
- **compute**: each item's work, on its site: the multiply-accumulates of its stages
  that contract bf16 pages on the matrix unit (`bf16_macs` a cycle), the rest of its
  arithmetic on the vector unit (`f32_macs` a cycle);

items beyond the chip's sites run in waves. The three overlap (a buffer of depth 2
lets the next load fill one page while a stage reads the other), so the largest
bounds the program; the launch does not (a program starts once the one before it has
finished and it has been dispatched). Programs run in sequence: a fold reads what its
view wrote, and nothing here overlaps two programs.

```python
chip = ChipFigures.of(fold.target)
t = program_time(items=16, dram_bytes=10_027_008, noc_bytes=10_027_008, work=Work.of(fold), chip=chip)
t.total, t.bound  # seconds, and which of dram / noc / compute / launch is largest
```
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import auto

from xdsl.dialects.builtin import BFloat16Type, Float16Type
from xdsl.ir import BlockArgument
from xdsl.utils.str_enum import StrEnum

from xdsl_spatial.dialects.spatial import (
    IterKind,
    PageType,
    ProgramOp,
    StageOp,
    TargetAttr,
    YieldOp,
    enclosing_loop,
)


@dataclass(frozen=True)
class ChipFigures:
    """The figures of a target that a time estimate reads (`TargetPreset` says what
    each is)."""

    preset: str | None
    """The preset the target is, figure for figure (None: another chip)."""
    sites: int
    clock_mhz: int
    dram_gb_s: int
    noc_b_cycle: int
    bf16_macs: int
    f32_macs: int
    launch_cycles: int

    @staticmethod
    def of(target: TargetAttr) -> ChipFigures:
        return ChipFigures(target.preset_name(), **target.chip_figures())

    @property
    def clock_hz(self) -> float:
        return self.clock_mhz * 1e6

    def describe(self) -> str:
        """`wormhole_n150: 72 sites at 1000 MHz, DRAM 288 GB/s, NoC 64 B/cycle a site`."""
        name = self.preset or "a chip of its own figures"
        return (
            f"{name}: {self.sites} sites at {self.clock_mhz} MHz, DRAM {self.dram_gb_s} GB/s, "
            f"NoC {self.noc_b_cycle} B/cycle a site, {self.bf16_macs} bf16 and "
            f"{self.f32_macs} fp32 MACs/cycle a site, launch {self.launch_cycles} cycles"
        )


class StageUnit(StrEnum):
    """Where a stage's work runs on a site."""

    NONE = auto()
    """A stage that only fills, copies or converts: data movement, no arithmetic unit."""
    MATRIX = auto()
    """A contraction of bf16 pages (the activation times int8 weights, which bf16 holds
    exactly): the matrix unit."""
    VECTOR = auto()
    """Any other arithmetic (fp32 sums, maps, reductions): the vector unit."""


_COMPUTING = frozenset(
    (
        "arith.addf",
        "arith.subf",
        "arith.mulf",
        "arith.divf",
        "arith.addi",
        "arith.subi",
        "arith.muli",
        "arith.maximumf",
        "arith.minimumf",
        "arith.negf",
    )
)
"""Body ops that do arithmetic; the others (constants, casts, selects, `spatial.index`)
only place or convert values."""


def stage_kind(stage: StageOp) -> str:
    """What a stage does, in one word: constant, copy, contraction, reduction or map."""
    body = [o for o in stage.body.block.ops if not isinstance(o, YieldOp)]
    term = stage.body.block.last_op
    sums = IterKind.SUM in stage.iter_kinds
    if not stage.ins:
        return "constant"
    if not body and isinstance(term, YieldOp) and isinstance(term.value, BlockArgument):
        return "reduction" if sums else "copy"
    if sums:
        return (
            "contraction"
            if any(o.name in ("arith.mulf", "arith.muli") for o in body)
            else "reduction"
        )
    return "map"


def stage_unit(stage: StageOp) -> StageUnit:
    """Which unit a stage's work runs on (`StageUnit`)."""
    kind = stage_kind(stage)
    if kind in ("constant", "copy"):
        return StageUnit.NONE
    if kind == "map" and not any(o.name in _COMPUTING for o in stage.body.block.ops):
        return StageUnit.NONE
    narrow = any(
        isinstance(v.type, PageType) and isinstance(v.type.element_type, BFloat16Type | Float16Type)
        for v in stage.ins
    )
    return StageUnit.MATRIX if kind == "contraction" and narrow else StageUnit.VECTOR


@dataclass(frozen=True)
class Work:
    """What one item of a program computes: the points of its stages' iteration spaces
    (times the K loop's trips for a stage inside it), each a multiply-accumulate, by
    the unit they run on."""

    matrix_macs: int
    vector_macs: int

    @staticmethod
    def of(program: ProgramOp) -> Work:
        macs = dict.fromkeys(StageUnit, 0)
        for op in program.body.walk():
            if isinstance(op, StageOp):
                loop = enclosing_loop(op)
                trips = loop.trips.data if loop is not None else 1
                macs[stage_unit(op)] += math.prod(op.iter_extents) * trips
        return Work(macs[StageUnit.MATRIX], macs[StageUnit.VECTOR])

    def cycles(self, chip: ChipFigures) -> float:
        """Cycles one site takes for it."""
        return self.matrix_macs / chip.bf16_macs + self.vector_macs / chip.f32_macs


class Bound(StrEnum):
    """What bounds a program's time: the largest of its terms."""

    DRAM = auto()
    NOC = auto()
    COMPUTE = auto()
    LAUNCH = auto()


@dataclass(frozen=True)
class ProgramTime:
    """A program's time on the chip, in seconds, term by term."""

    dram: float
    noc: float
    compute: float
    launch: float

    @property
    def total(self) -> float:
        """Moves and compute overlap; the launch comes before them."""
        return max(self.dram, self.noc, self.compute) + self.launch

    @property
    def bound(self) -> Bound:
        terms = {
            Bound.DRAM: self.dram,
            Bound.NOC: self.noc,
            Bound.COMPUTE: self.compute,
            Bound.LAUNCH: self.launch,
        }
        return max(terms, key=lambda b: terms[b])


def program_time(
    items: int, dram_bytes: int, noc_bytes: int, work: Work, chip: ChipFigures
) -> ProgramTime:
    """The time of one run of a program of `items` items on `chip`, which reads and
    writes `dram_bytes` in DRAM, moves `noc_bytes` over its sites' links (loaded and
    stored, over all items) and does `work` per item.

    The two byte counts differ where one read of DRAM reaches many sites: a multicast
    load is read once a run but lands on every item's site. Without one they are equal."""
    waves = math.ceil(items / chip.sites)
    per_item = noc_bytes / items
    return ProgramTime(
        dram=dram_bytes / (chip.dram_gb_s * 1e9),
        noc=waves * per_item / chip.noc_b_cycle / chip.clock_hz,
        compute=waves * work.cycles(chip) / chip.clock_hz,
        launch=chip.launch_cycles / chip.clock_hz,
    )


def in_sequence(times: Iterable[ProgramTime]) -> float:
    """Programs one after another: their times add up."""
    return sum(t.total for t in times)


def over_chips(per_chip: dict[int | None, list[ProgramTime]]) -> float:
    """The chips of a tensor-parallel deployment at once, each chip's programs in
    sequence: the slowest chip's (a program of no chip counts as a chip of its own).
    The gathers and sums between the chips are not counted."""
    return max((in_sequence(ts) for ts in per_chip.values()), default=0.0)
