"""The chips the lowering plans for and the time estimate reads: one place for their
figures (`TargetPreset`), named presets, and the default. docs/chip_time.md cites each."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class TargetPreset:
    """Numbers of a named chip; `#spatial.target<"name">` expands to them. The first two
    are a site's, what the lowering plans for; the rest are the chip's, what the time
    estimate (`xdsl_spatial.analysis.chip_time`) reads. docs/chip_time.md cites each."""

    local_mem: int
    acc_tiles: int
    sites: int
    """Sites (cores) the chip has for a program's items."""
    clock_mhz: int
    dram_gb_s: int
    """The chip's memory bandwidth, in 10^9 bytes a second."""
    noc_b_cycle: int
    """Bytes a site's links to the network-on-chip take in or give out a cycle."""
    bf16_macs: int
    """Multiply-accumulates a site does a cycle on bf16 (and int8) operands."""
    f32_macs: int
    """... and on fp32 operands."""
    launch_cycles: int
    """Cycles from one program's end to the next one's start (its dispatch)."""
    doc: str


CHIP_FIELDS = (
    "sites",
    "clock_mhz",
    "dram_gb_s",
    "noc_b_cycle",
    "bf16_macs",
    "f32_macs",
    "launch_cycles",
)
"""The chip's figures a target carries after its site's (`TargetPreset`'s fields of
those names), each optional in the attribute's text."""

_N150 = TargetPreset(
    local_mem=1536 * 1024,
    acc_tiles=8,
    sites=72,
    clock_mhz=1000,
    dram_gb_s=288,
    noc_b_cycle=64,
    bf16_macs=512,
    f32_macs=32,
    launch_cycles=4000,
    doc="Tenstorrent's Wormhole n150 board: 72 Tensix cores at 1 GHz, 1.5 MiB of L1 and "
    "8 fp32 tiles in the destination registers each, 288 GB/s of GDDR6, 74 TFLOPS FP16",
)
TARGET_PRESETS: dict[str, TargetPreset] = {
    "wormhole_n150": _N150,
    "blackhole_p150": TargetPreset(
        local_mem=1536 * 1024,
        acc_tiles=8,
        sites=140,
        clock_mhz=1350,
        dram_gb_s=512,
        noc_b_cycle=128,
        bf16_macs=1024,
        f32_macs=32,
        launch_cycles=4000,
        doc="Tenstorrent's Blackhole p150 board: 140 Tensix cores at 1.35 GHz, 1.5 MiB of "
        "L1 each, 512 GB/s of GDDR6, 372 TFLOPS FP16, NoC flits twice Wormhole's",
    ),
    "tensix": replace(
        _N150,
        doc="a Tenstorrent Tensix core: 1.5 MiB of L1, 8 fp32 tiles in its destination "
        "registers, 32x32 tiles; the chip is the Wormhole n150's (the default's old name)",
    ),
    "reference": replace(
        _N150,
        local_mem=320 * 1024,
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
