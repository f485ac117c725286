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
chip = fold.target.figures()
t = program_time(items=16, dram_bytes=10_027_008, noc_bytes=10_027_008, work=work_of(fold), chip=chip)
t.total, t.bound  # seconds, and which of dram / noc / compute / launch is largest
```
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import auto

from xdsl.utils.str_enum import StrEnum

from xdsl_spatial.core.targets import ChipFigures

CHIP_SCALE_BYTES = 2
"""Bytes of a Q8_0 block's scale on the chip: f16, as GGML stores it (a block of 32
weights is 34 bytes, 1.0625 a weight, the bytes of a block-float-8 weight)."""


@dataclass(frozen=True)
class Work:
    """What one item of a program computes: the points of its stages' iteration spaces
    (times the K loop's trips for a stage inside it), each a multiply-accumulate, by
    the unit they run on. The matrix unit multiplies whole tiles of rows: a program's
    contractions over fewer rows than the chip's `min_rows` (its result's rows) cost
    `min_rows` of them, and more rows cost whole tiles of them."""

    matrix_macs: float
    block_macs: float
    vector_macs: float

    def cycles(self, chip: ChipFigures, block_macs: int | None = None) -> float:
        """Cycles one site takes for it (`block_macs`: the rate of its block-float
        contractions, if not the chip's block-float-8 one)."""
        return (
            self.matrix_macs / chip.bf16_macs
            + self.block_macs / (block_macs or chip.bfp8_macs)
            + self.vector_macs / chip.f32_macs
        )


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
    items: int,
    dram_bytes: float,
    noc_bytes: float,
    work: Work,
    chip: ChipFigures,
    block_macs: int | None = None,
) -> ProgramTime:
    """The time of one run of a program of `items` items on `chip`, which reads and
    writes `dram_bytes` in DRAM, moves `noc_bytes` over its sites' links (loaded and
    stored, over all items) and does `work` per item (its block-float contractions at
    `block_macs` a cycle, if not at the chip's block-float-8 rate).

    The two byte counts differ where one read of DRAM reaches many sites: a multicast
    load is read once a run but lands on every item's site. Without one they are equal."""
    waves = math.ceil(items / chip.sites)
    per_item = noc_bytes / items
    return ProgramTime(
        dram=dram_bytes / (chip.dram_gb_s * 1e9),
        noc=waves * per_item / chip.noc_b_cycle / chip.clock_hz,
        compute=waves * work.cycles(chip, block_macs) / chip.clock_hz,
        launch=chip.launch_cycles / chip.clock_hz,
    )


def in_sequence(times: Iterable[ProgramTime]) -> float:
    """Programs one after another: their times add up."""
    return sum(t.total for t in times)


def over_chips(per_chip: dict[int | None, list[ProgramTime]]) -> float:
    """The chips of a tensor-parallel deployment at once, each chip's programs in
    sequence: the slowest chip's (a program of no chip counts as a chip of its own).
    The gathers and sums between the chips are `step_time.exchange_time`'s."""
    return max((in_sequence(ts) for ts in per_chip.values()), default=0.0)
