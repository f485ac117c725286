"""The chips the lowering plans for and the time estimate reads: one place for their
figures (`ChipFigures` a program's time reads, `SystemFigures` what a whole step adds),
named presets (`TargetPreset`), and the default. docs/chip_time.md cites each figure's
source: a microbenchmark of Tenstorrent's where one is published."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class ChipFigures:
    """The figures of one chip that the time of a program on it reads; each a figure
    measured by Tenstorrent's own microbenchmarks where one is published (docs/chip_time.md
    cites each, and the peak beside it)."""

    preset: str | None
    """The preset the figures are, figure for figure (None: a chip of its own)."""
    sites: int
    """Sites (cores) a program's items run on: the grid a large matmul uses."""
    clock_mhz: int
    dram_gb_s: int
    """The chip's memory bandwidth as DRAM-bound kernels sustain it, in 10^9 bytes a second."""
    noc_b_cycle: int
    """Bytes a site's links to the network-on-chip take in or give out a cycle."""
    bf16_macs: int
    """Multiply-accumulates a site does a cycle on bf16 operands, as large GEMMs sustain it."""
    bfp8_macs: int
    """... on a block-float-8 weight (what a Q8_0 weight is on the chip)."""
    bfp4_macs: int
    """... on a block-float-4 weight."""
    f32_macs: int
    """... on fp32 operands, on the vector unit."""
    launch_cycles: int
    """Cycles from one program's end to the next one's start (the op-to-op gap, traced)."""
    min_rows: int
    """Rows the matrix unit multiplies at the least: a one-row product costs this many."""

    @property
    def clock_hz(self) -> float:
        return self.clock_mhz * 1e6

    def describe(self) -> str:
        """`wormhole_n150: 64 sites at 1000 MHz, DRAM 250 GB/s, ...`."""
        name = self.preset or "a chip of its own figures"
        return (
            f"{name}: {self.sites} sites at {self.clock_mhz} MHz, DRAM {self.dram_gb_s} GB/s, "
            f"NoC {self.noc_b_cycle} B/cycle a site, {self.bf16_macs} bf16, {self.bfp8_macs} "
            f"bfp8 and {self.f32_macs} fp32 MACs/cycle a site, launch {self.launch_cycles} "
            f"cycles, at least {self.min_rows} rows a product"
        )


CHIP_FIELDS = (
    "sites",
    "clock_mhz",
    "dram_gb_s",
    "noc_b_cycle",
    "bf16_macs",
    "bfp8_macs",
    "bfp4_macs",
    "f32_macs",
    "launch_cycles",
    "min_rows",
)
"""The chip's figures a target carries after its site's (`ChipFigures`' fields but its
preset), each optional in the attribute's text."""


@dataclass(frozen=True)
class Fit:
    """A collective's measured time, fitted: `start_us + hop_us * hops` to start, then
    the bytes through the busiest link at `gb_s`."""

    start_us: float
    hop_us: float
    gb_s: float


@dataclass(frozen=True)
class LinkFigures:
    """The chip-to-chip collectives of a system of these chips, as measured: on a line
    of chips (2 to 4) and on a ring (8)."""

    all_gather_line: Fit
    all_gather_ring: Fit
    all_reduce_line: Fit
    all_reduce_ring: Fit

    def fit(self, collective: str, ring: bool) -> Fit:
        """The fit of `all_gather` or `all_reduce`, on a ring or a line."""
        return getattr(self, f"{collective}_{'ring' if ring else 'line'}")


@dataclass(frozen=True)
class SystemFigures:
    """What a whole step on a board of these chips pays beyond its programs: the host's
    share and the links between chips (docs/chip_time.md cites each)."""

    cores: int
    """Tensix cores on the chip (of which a program uses `sites`)."""
    dram_peak_gb_s: int
    """The DRAM's specified peak, beside the sustained `dram_gb_s`."""
    host_op_us: float
    """The host's time to dispatch one op when nothing is traced (a prefill's ops), and
    to start one traced step."""
    pcie_gb_s: float
    """Host link bandwidth the logits come back over."""
    sample_ns: float
    """Host time to sample a token, per logit."""
    links: LinkFigures


@dataclass(frozen=True)
class TargetPreset:
    """Numbers of a named chip; `#spatial.target<"name">` expands to them. The first two
    are a site's, what the lowering plans for; `chip` the chip's, what the time of a
    program reads; `system` what a whole step pays beyond its programs.
    docs/chip_time.md cites each."""

    local_mem: int
    acc_tiles: int
    chip: ChipFigures
    system: SystemFigures
    doc: str


def _chip(preset: str, *figures: int) -> ChipFigures:
    """A preset's chip from its figures in `CHIP_FIELDS`' order (docs/chip_time.md's
    table, row for row)."""
    return ChipFigures(preset, **dict(zip(CHIP_FIELDS, figures, strict=True)))


def _board(
    chip: ChipFigures,
    cores: int,
    dram_peak_gb_s: int,
    host_op_us: float,
    pcie_gb_s: float,
    links: LinkFigures,
    doc: str,
) -> TargetPreset:
    """A board of one chip of Tensix sites (1.5 MiB of L1 and 8 accumulator tiles each;
    a nanosecond a logit to sample, assumed)."""
    system = SystemFigures(cores, dram_peak_gb_s, host_op_us, pcie_gb_s, 1.0, links)
    return TargetPreset(1536 * 1024, 8, chip, system, doc)


#                   preset          sites  MHz DRAM NoC bf16 bfp8 bfp4 f32 launch rows
_N150_CHIP = _chip("wormhole_n150", 64, 1000, 250, 64, 424, 800, 1560, 32, 4720, 32)
_P150_CHIP = _chip("blackhole_p150", 130, 1350, 500, 128, 429, 881, 1818, 32, 5744, 32)
# all-gather on a line and a ring, then all-reduce on a line and a ring
_WORMHOLE_LINKS = LinkFigures(
    Fit(4.47, 1.91, 11.8), Fit(4.47, 2.50, 20.8), Fit(9.07, 5.82, 10.9), Fit(9.07, 5.25, 18.4)
)
_BLACKHOLE_LINKS = LinkFigures(
    Fit(2.8, 1.5, 47.8), Fit(2.8, 2.3, 94.0), Fit(4.1, 5.0, 42.4), Fit(4.1, 4.8, 86.2)
)
_N150 = _board(
    _N150_CHIP,
    cores=72,
    dram_peak_gb_s=288,
    host_op_us=49.0,
    pcie_gb_s=32.0,
    links=_WORMHOLE_LINKS,
    doc=(
        "Tenstorrent's Wormhole n150 board: 72 Tensix cores at 1 GHz (a matmul's grid 8x8), "
        "1.5 MiB of L1 and 8 fp32 tiles in the destination registers each, 288 GB/s of GDDR6 "
        "(250 sustained by DRAM-bound matmuls)"
    ),
)
_P150 = _board(
    _P150_CHIP,
    cores=140,
    dram_peak_gb_s=512,
    host_op_us=21.7,
    pcie_gb_s=64.0,
    links=_BLACKHOLE_LINKS,
    doc=(
        "Tenstorrent's Blackhole p150 board: 140 Tensix cores at 1.35 GHz (a matmul's grid "
        "13x10), 1.5 MiB of L1 each, 512 GB/s of GDDR6 (500 sustained by a DRAM-sharded "
        "matmul), NoC flits twice Wormhole's"
    ),
)
TARGET_PRESETS: dict[str, TargetPreset] = {
    "wormhole_n150": _N150,
    "blackhole_p150": _P150,
    "tensix": replace(
        _N150,
        chip=replace(_N150_CHIP, preset="tensix"),
        doc="a Tenstorrent Tensix core: 1.5 MiB of L1, 8 fp32 tiles in its destination "
        "registers, 32x32 tiles; the chip is the Wormhole n150's (the default's old name)",
    ),
    "reference": replace(
        _N150,
        local_mem=320 * 1024,
        chip=replace(_N150_CHIP, preset="reference"),
        doc="the reference lowering's site: 320 KiB, so a batch of 8 folds 2 column tiles "
        "at a time; the chip's other figures are the Wormhole n150's",
    ),
}
DEFAULT_PRESET = "wormhole_n150"
"""The default: the smaller of the two boards whose site the lowering plans for (the
p150's site is the same, so only the time differs), so an estimate errs slow."""


def target_preset(name: str) -> TargetPreset:
    if name not in TARGET_PRESETS:
        raise ValueError(
            f"unknown target preset '{name}', expected one of " + ", ".join(sorted(TARGET_PRESETS))
        )
    return TARGET_PRESETS[name]
