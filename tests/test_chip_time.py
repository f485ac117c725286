"""The chip-time estimate (docs/chip_time.md): the bundled GEMV's numbers derived by
hand from its bytes, its work and the preset's figures; what bounds a program; waves;
chips at once; a decode step's tokens a second."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from xdsl_spatial.analysis.chip_time import (
    Bound,
    ChipFigures,
    ProgramTime,
    Work,
    in_sequence,
    over_chips,
    program_time,
)
from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.spatial import TARGET_PRESETS, ProgramOp
from xdsl_spatial.interpreters.runner import execute
from xdsl_spatial.interpreters.stats import chip_seconds, decode_line
from xdsl_spatial.passes.q8_lower import lower_q8

ROOT = Path(__file__).resolve().parents[1]
N150 = TARGET_PRESETS["wormhole_n150"]


def n150() -> ChipFigures:
    return ChipFigures(
        "wormhole_n150",
        N150.sites,
        N150.clock_mhz,
        N150.dram_gb_s,
        N150.noc_b_cycle,
        N150.bf16_macs,
        N150.f32_macs,
        N150.launch_cycles,
    )


@pytest.fixture(scope="module")
def gemv():
    import numpy as np

    mod = parse_module((ROOT / "examples" / "gemv_q8.mlir").read_text())
    lower_q8(mod)
    rng = np.random.default_rng(0)
    args = [
        rng.standard_normal((1, 2048)).astype(np.float32),
        rng.integers(-127, 128, (2048, 4096), dtype=np.int8),
        (rng.random((64, 4096)) * 0.01).astype(np.float32),
    ]
    return mod, execute(mod, None, args).traffic


def test_the_gemv_fold_by_hand(gemv):
    """The fold moves 9,502,720 B in and 524,288 B out over 16 items; each item
    contracts 1 x 2048 x 256 on the matrix unit and sums 64 K blocks x 256 columns of
    scaled fp32 on the vector unit."""
    mod, traffic = gemv
    (fold,) = [p for p in traffic.programs if p.kind == "fold"]
    assert (fold.items, fold.load_bytes, fold.store_bytes) == (16, 9_502_720, 524_288)
    assert fold.work == Work(matrix_macs=1 * 2048 * 256, vector_macs=64 * 256)
    assert fold.figures == n150()
    t = fold.chip_time()
    assert t is not None
    moved = 9_502_720 + 524_288
    assert t.dram == pytest.approx(moved / 288e9)  # 34.8 us
    assert t.noc == pytest.approx(moved / 16 / 64 / 1e9)  # one wave: 16 items <= 72 sites
    assert t.compute == pytest.approx((2048 * 256 / 512 + 64 * 256 / 32) / 1e9)
    assert t.launch == pytest.approx(4000 / 1e9)
    assert t.bound == Bound.DRAM
    assert t.total == pytest.approx(moved / 288e9 + 4e-6)
    programs = [p for p in mod.walk() if isinstance(p, ProgramOp)]
    assert [p.program_name.data for p in programs] == [p.name for p in traffic.programs]


def test_the_gemv_view_is_launch_bound_and_the_product_adds_up(gemv):
    _, traffic = gemv
    view, fold = traffic.programs
    tv, tf = view.chip_time(), fold.chip_time()
    assert tv is not None and tf is not None
    assert tv.bound == Bound.LAUNCH
    assert chip_seconds(traffic) == pytest.approx(tv.total + tf.total)
    assert chip_seconds(traffic) == pytest.approx(43.9e-6, abs=0.05e-6)


def test_items_beyond_the_sites_run_in_waves():
    chip = n150()
    work = Work(matrix_macs=512 * 1000, vector_macs=0)  # 1000 cycles an item
    one = program_time(72, 72 * 64_000, 72 * 64_000, work, chip)
    two = program_time(73, 73 * 64_000, 73 * 64_000, work, chip)
    assert one.compute == pytest.approx(1000 / 1e9)
    assert two.compute == pytest.approx(2 * 1000 / 1e9)
    assert one.noc == pytest.approx(1000 / 1e9) and two.noc == pytest.approx(2000 / 1e9)
    assert two.dram == pytest.approx(73 * 64_000 / 288e9)


def test_the_largest_term_bounds_and_the_launch_adds():
    t = ProgramTime(dram=3e-6, noc=5e-6, compute=1e-6, launch=4e-6)
    assert t.bound == Bound.NOC and t.total == pytest.approx(9e-6)
    t = ProgramTime(dram=1e-6, noc=1e-6, compute=2e-6, launch=4e-6)
    assert t.bound == Bound.LAUNCH and t.total == pytest.approx(6e-6)


def test_programs_in_sequence_and_chips_at_once():
    a = ProgramTime(dram=10e-6, noc=0, compute=0, launch=4e-6)
    b = ProgramTime(dram=20e-6, noc=0, compute=0, launch=4e-6)
    assert in_sequence([a, b]) == pytest.approx(38e-6)
    assert over_chips({0: [a, a], 1: [b]}) == pytest.approx(28e-6)
    assert over_chips({}) == 0.0


def test_a_decode_step_says_its_tokens_a_second(gemv):
    _, traffic = gemv
    line = decode_line(traffic)
    seconds = chip_seconds(traffic)
    assert seconds is not None
    assert f"{1 / seconds:,.0f} tokens a second" in line
    assert "not counted" in line  # the dense ops between the programs


def test_the_blackhole_preset_is_faster_on_the_same_bytes():
    bh = TARGET_PRESETS["blackhole_p150"]
    chip = ChipFigures(
        "blackhole_p150",
        bh.sites,
        bh.clock_mhz,
        bh.dram_gb_s,
        bh.noc_b_cycle,
        bh.bf16_macs,
        bh.f32_macs,
        bh.launch_cycles,
    )
    work = Work(matrix_macs=524_288, vector_macs=16_384)
    moved = 10_027_008
    n, b = program_time(16, moved, moved, work, n150()), program_time(16, moved, moved, work, chip)
    assert b.dram == pytest.approx(moved / 512e9)
    assert b.total < n.total
    assert math.isclose(b.launch, 4000 / 1.35e9)


def test_dram_and_noc_bytes_are_separate_terms():
    """A multicast load is read from DRAM once a run but crosses every item's links:
    the DRAM term reads the first count, the NoC term the second."""
    chip = n150()
    work = Work(matrix_macs=0, vector_macs=0)
    # 16 items each taking the same 64 KB block: DRAM reads it once, the NoC carries it 16 times.
    t = program_time(16, 64_000, 16 * 64_000, work, chip)
    assert t.dram == pytest.approx(64_000 / 288e9)
    assert t.noc == pytest.approx(64_000 / 64 / 1e9)
