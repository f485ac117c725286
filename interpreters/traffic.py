"""
The bytes every program moves: per program run, per tensor, loaded and stored.

The chip moves whole tiles, so a load or store of an `h x w` block moves
`h * w * tile elements * element bytes`, once per item and per time it runs (its
`repeat`: the K loop's trips). Both engines count the same numbers.

A program of a tensor-parallel deployment records its chip, so a run's bytes add up
per chip (`Traffic.per_chip`): each chip moves its own shard of the weights and its
own view of the activations.

A record also holds what the program computes (its `Work`) and its target's figures,
so that `chip_time()` estimates its time on the chip (`analysis/chip_time.py`). The
time counts the bytes the chip would move, which differ from the counted ones in one
place: a Q8_0 weight's scales are f16 on the chip (GGML's own block, 1.0625 bytes a
weight), whatever type the program holds them in (the bundled examples hold fp32, 1.125
bytes a weight): `chip_dram_bytes()` and `chip_noc_bytes()`. The two differ where a
multicast load reads DRAM once a run and lands on every item's site.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from xdsl_spatial.analysis.chip_time import (
    CHIP_SCALE_BYTES,
    ProgramTime,
    Work,
    program_time,
)
from xdsl_spatial.core.memory import plural
from xdsl_spatial.core.tables import text_table
from xdsl_spatial.core.targets import ChipFigures


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
    """Bytes its loads moved, per tensor, over the sites' links: every item's block."""
    stored: dict[str, int] = field(default_factory=dict)
    weight_elems: int = 0
    """K x N of the Q8_0 weight a fold reads (0 when it reads none)."""
    chip: int | None = None
    """The chip the program ran on (None: a single-chip deployment)."""
    work: Work | None = None
    """What each item computes (None: a record from a file that does not say)."""
    figures: ChipFigures | None = None
    """The figures of the program's target."""
    dram_loaded: dict[str, int] = field(default_factory=dict)
    """... of which its loads read from DRAM, per tensor: a multicast load's block
    once a run, not once an item (a tensor no multicast loads: `loaded`'s bytes)."""
    scale_bytes: dict[str, int] = field(default_factory=dict)
    """Bytes an element of each Q8_0 scale tensor it reads, as the program holds them."""

    def chip_time(self) -> ProgramTime | None:
        """Its estimated time on its target (None when the record does not say what
        the program computes)."""
        if self.work is None or self.figures is None:
            return None
        return program_time(
            self.items, self.chip_dram_bytes(), self.chip_noc_bytes(), self.work, self.figures
        )

    def chip_dram_bytes(self) -> int:
        """What the run moves across the chip's DRAM (`dram_bytes`), a Q8_0 scale at
        `CHIP_SCALE_BYTES` however the program holds it."""
        read = {t: self.dram_loaded.get(t, b) for t, b in self.loaded.items()}
        return self.dram_bytes - self._scale_excess(read)

    def chip_noc_bytes(self) -> int:
        """What the run moves over its sites' links (`noc_bytes`), a Q8_0 scale at
        `CHIP_SCALE_BYTES` however the program holds it."""
        return self.noc_bytes - self._scale_excess(self.loaded)

    def _scale_excess(self, loaded: dict[str, int]) -> int:
        """Bytes of `loaded` the chip does not move: a scale's bytes past its f16."""
        return sum(
            loaded.get(t, 0) * (elem - CHIP_SCALE_BYTES) // elem
            for t, elem in self.scale_bytes.items()
        )

    @property
    def load_bytes(self) -> int:
        return sum(self.loaded.values())

    @property
    def dram_load_bytes(self) -> int:
        """What its loads read from DRAM (`dram_loaded`, `loaded` where it says none)."""
        return sum(self.dram_loaded.get(t, b) for t, b in self.loaded.items())

    @property
    def dram_bytes(self) -> int:
        """Bytes crossing DRAM in a run: loads read once, every store."""
        return self.dram_load_bytes + self.store_bytes

    @property
    def noc_bytes(self) -> int:
        """Bytes crossing the sites' links in a run: every item's loads and stores."""
        return self.load_bytes + self.store_bytes

    @property
    def store_bytes(self) -> int:
        return sum(self.stored.values())

    def bytes_per_weight(self) -> float | None:
        if not self.weight_elems:
            return None
        return self.load_bytes / self.weight_elems

    def add_load(self, tensor: str, nbytes: int, dram: int | None = None) -> None:
        """Count a load of `nbytes` over the links, `dram` of them from DRAM (default:
        all of them)."""
        self.loaded[tensor] = self.loaded.get(tensor, 0) + nbytes
        self.dram_loaded[tensor] = self.dram_loaded.get(tensor, 0) + (
            nbytes if dram is None else dram
        )

    def copy(self) -> ProgramTraffic:
        """A record of its own (a compiled program hands one out a run): its counts'
        dicts copied, the rest shared (never changed). Every field by position, not
        `dataclasses.replace`, which took 7x as long: a whole decode step hands out
        ~900 records a call (tests/test_chip_time.py checks every field is copied)."""
        return ProgramTraffic(
            self.name,
            self.kind,
            self.items,
            self.local_mem,
            dict(self.loaded),
            dict(self.stored),
            self.weight_elems,
            self.chip,
            self.work,
            self.figures,
            dict(self.dram_loaded),
            self.scale_bytes,
        )

    def add_store(self, tensor: str, nbytes: int) -> None:
        self.stored[tensor] = self.stored.get(tensor, 0) + nbytes


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
    dram_bytes: int = 0
    """What its programs' loads and stores moved across its DRAM."""

    def bytes_per_weight(self) -> float | None:
        return self.fold_load_bytes / self.weight_elems if self.weight_elems else None


class Traffic:
    """Every program run of one call, in the order they ran."""

    def __init__(self, programs: list[ProgramTraffic] | None = None):
        self._programs: list[ProgramTraffic] | None = programs if programs is not None else []
        self._copies_of: tuple[ProgramTraffic, ...] = ()

    @classmethod
    def copies(cls, records: tuple[ProgramTraffic, ...]) -> Traffic:
        """Records of its own, copies of `records` (`ProgramTraffic.copy`), made when
        `programs` is first read: a compiled function's call hands them out, and a
        decode step of ~880 programs whose caller never reads them (every step of a
        generation but the one it reports) spent ~0.6 ms of a ~15 ms step copying."""
        t = cls()
        t._programs = None
        t._copies_of = records
        return t

    @property
    def programs(self) -> list[ProgramTraffic]:
        if self._programs is None:
            self._programs = [p.copy() for p in self._copies_of]
        return self._programs

    def __repr__(self) -> str:
        return f"Traffic({self.programs!r})"

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
                    sum(p.dram_bytes for p in ps),
                )
            )
        return out

    def table(self) -> str:
        """One row per program and tensor, and a total per program; with chips, a
        chip column and a total per chip; when a load is a multicast, a column of the
        bytes that cross DRAM (its block once, where `loaded` counts it an item)."""
        chipped = any(p.chip is not None for p in self.programs)
        dram = any(p.dram_load_bytes != p.load_bytes for p in self.programs)
        rows: list[tuple[str, ...]] = [
            ("chip", "program", "tensor", "loaded B", "stored B", "DRAM B")
        ]
        # A chip's programs together, in the order they ran.
        order = sorted(self.programs, key=lambda p: -1 if p.chip is None else p.chip)
        for p in order:
            c = "" if p.chip is None else str(p.chip)
            for t in sorted(set(p.loaded) | set(p.stored)):
                from_dram = p.dram_loaded.get(t, p.loaded.get(t, 0)) + p.stored.get(t, 0)
                rows.append(
                    (
                        c,
                        p.name,
                        t,
                        f"{p.loaded.get(t, 0):,}",
                        f"{p.stored.get(t, 0):,}",
                        f"{from_dram:,}",
                    )
                )
            bpw = p.bytes_per_weight()
            extra = f"{plural(p.items, 'item')}, local memory {p.local_mem:,} B"
            if bpw is not None:
                extra += f", {bpw:.4f} B/weight"
            rows.append(
                (
                    c,
                    p.name,
                    f"total ({extra})",
                    f"{p.load_bytes:,}",
                    f"{p.store_bytes:,}",
                    f"{p.dram_bytes:,}",
                )
            )
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
                    f"{ct.dram_bytes:,}",
                )
            )
        if not dram:
            rows = [r[:-1] for r in rows]
        if not chipped:
            rows = [r[1:] for r in rows]
        return text_table(rows[0], rows[1:], right=3 if dram else 2)


@dataclass(frozen=True)
class Execution:
    """What a call of a compiled function gives: its results and what its programs
    moved."""

    outputs: tuple[np.ndarray, ...]
    traffic: Traffic
