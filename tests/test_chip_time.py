"""The chip-time estimate of a program (docs/chip_time.md): the bundled GEMV's numbers
derived by hand from its bytes, its work and the preset's figures; the scales a Q8_0
weight moves on the chip; the matrix unit's least rows; what bounds a program; waves;
chips at once; a decode step's tokens a second."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from xdsl_spatial.analysis.chip_time import (
    CHIP_SCALE_BYTES,
    Bound,
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
N150 = TARGET_PRESETS["wormhole_n150"].chip
P150 = TARGET_PRESETS["blackhole_p150"].chip


def _gemv(rows: int):
    import numpy as np

    text = (ROOT / "examples" / "gemv_q8.mlir").read_text()
    text = text.replace("1x2048", f"{rows}x2048").replace("1x4096", f"{rows}x4096")
    mod = parse_module(text)
    lower_q8(mod)
    rng = np.random.default_rng(0)
    args = [
        rng.standard_normal((rows, 2048)).astype(np.float32),
        rng.integers(-127, 128, (2048, 4096), dtype=np.int8),
        (rng.random((64, 4096)) * 0.01).astype(np.float32),
    ]
    return mod, execute(mod, None, args).traffic


def _product(rows: int, k: int, n: int, preset: str):
    """The bundled GEMV's product at `rows` x `k` by `k` x `n`, lowered as the tools
    lower it (`q8-lower{optimize=true}`) for `preset`, run on seeded values."""
    import numpy as np

    text = (ROOT / "examples" / "gemv_q8.mlir").read_text()
    for a, b in (("64x4096", f"{k // 32}x{n}"), ("2048x4096", f"{k}x{n}")):
        text = text.replace(a, b)
    text = text.replace("1x2048", f"{rows}x{k}").replace("1x4096", f"{rows}x{n}")
    mod = parse_module(text)
    lower_q8(mod, optimize=True, preset=preset)
    rng = np.random.default_rng(0)
    args = [
        rng.standard_normal((rows, k)).astype(np.float32),
        rng.integers(-127, 128, (k, n), dtype=np.int8),
        (rng.random((k // 32, n)) * 0.01).astype(np.float32),
    ]
    return execute(mod, None, args).traffic


@pytest.fixture(scope="module")
def gemv():
    return _gemv(1)


def test_the_presets_figures_are_the_cited_measurements():
    """docs/chip_time.md derives each: the matmul grid, the sustained rates of the
    largest GEMMs (TFLOPS / 2 / sites / clock), the traced op-to-op gap in cycles."""
    assert (N150.sites, N150.clock_mhz, N150.dram_gb_s) == (8 * 8, 1000, 250)
    assert N150.bf16_macs == round(54.31e12 / 2 / 64 / 1e9)
    assert N150.bfp8_macs == round(102.42e12 / 2 / 64 / 1e9)
    assert N150.launch_cycles == round(4.72e-6 * 1e9)
    assert (P150.sites, P150.clock_mhz, P150.dram_gb_s) == (13 * 10, 1350, 500)
    assert P150.bf16_macs == round(150.73e12 / 2 / 130 / 1.35e9)
    assert P150.bfp8_macs == round(309.22e12 / 2 / 130 / 1.35e9)
    assert P150.launch_cycles == round(4.255e-6 * 1.35e9)
    assert N150.min_rows == P150.min_rows == 32


def test_blackholes_dram_figure_is_its_dram_sharded_matmuls():
    """tt-metal's DRAM-sharded decode matmul on a Blackhole, traced: 32 x 4096 by a
    4096 x 4096 block-float-8 weight in 40.9 us an op, moving 18,350,080 B (the weight's
    1088-byte tiles, the bf16 rows in and out). Solved for the bandwidth with the
    program's launch taken off, as `program_time` adds it: 501 GB/s, the figure's 500."""
    moved = 128 * 128 * 1088 + 128 * 2048 + 128 * 2048
    assert moved == 18_350_080
    assert P150.dram_gb_s == round(moved / (40.9e-6 - P150.launch_cycles / 1.35e9) / 1e9, -1)


def test_the_gemv_fold_by_hand(gemv):
    """The fold loads 9,502,720 B and stores 524,288 B over 16 items, as counted; its
    1,048,576 B of fp32 scales are half that on the chip (f16). Each item contracts
    one row x 2048 x 256 on the matrix unit, which multiplies 32 rows at the least,
    at the block-float-8 rate; and sums 64 K blocks x 256 columns on the vector unit."""
    mod, traffic = gemv
    (fold,) = [p for p in traffic.programs if p.kind == "fold"]
    assert (fold.items, fold.load_bytes, fold.store_bytes) == (16, 9_502_720, 524_288)
    assert fold.loaded["W__q8_scale"] == 1_048_576 and fold.scale_bytes == {"W__q8_scale": 4}
    on_chip = 9_502_720 + 524_288 - 1_048_576 // 2
    assert fold.chip_dram_bytes() == fold.chip_noc_bytes() == on_chip
    assert fold.work == Work(matrix_macs=0, block_macs=32 * 2048 * 256, vector_macs=64 * 256)
    assert fold.figures == replace(N150, preset="wormhole_n150")
    t = fold.chip_time()
    assert t is not None
    assert t.dram == pytest.approx(on_chip / 250e9)  # 38.0 us
    assert t.noc == pytest.approx(on_chip / 16 / 64 / 1e9)  # one wave: 16 items <= 64 sites
    assert t.compute == pytest.approx((32 * 2048 * 256 / 800 + 64 * 256 / 32) / 1e9)
    assert t.launch == pytest.approx(4720 / 1e9)
    assert t.bound == Bound.DRAM
    assert t.total == pytest.approx(on_chip / 250e9 + 4.72e-6)
    programs = [p for p in mod.walk() if isinstance(p, ProgramOp)]
    assert [p.program_name.data for p in programs] == [p.name for p in traffic.programs]


def test_a_q8_0_weight_moves_1_0625_bytes_a_weight_on_the_chip(gemv):
    """int8 values and one f16 scale a block of 32: 34 / 32 bytes a weight (the fold's
    whole-tile scale loads are exact here: 64 scale rows are two tiles)."""
    _, traffic = gemv
    (fold,) = [p for p in traffic.programs if p.kind == "fold"]
    values, scales = fold.loaded["W__q8"], fold.loaded["W__q8_scale"]
    assert values / fold.weight_elems == 1.0
    assert scales / fold.weight_elems == 4 / 32  # fp32, as the example stores them
    assert scales * CHIP_SCALE_BYTES // 4 / fold.weight_elems == 2 / 32
    assert (values + scales * CHIP_SCALE_BYTES // 4) / fold.weight_elems == 1.0625


def test_rows_below_a_tile_cost_a_tile_and_above_it_cost_themselves():
    """The matrix unit multiplies 32 rows at the least: 1 and 4 rows cost what 32 do
    (over all items: 32 rows plan 32 items of 4 column tiles, fewer 16 of 8)."""
    works = {}
    for rows in (1, 4, 32):
        _, traffic = _gemv(rows)
        (fold,) = [p for p in traffic.programs if p.kind == "fold"]
        assert fold.work is not None
        works[rows] = fold.work.block_macs * fold.items
    assert works[1] == works[4] == works[32] == 32 * 2048 * 4096


def test_the_gemv_view_is_launch_bound_and_the_product_adds_up(gemv):
    _, traffic = gemv
    view, fold = traffic.programs
    tv, tf = view.chip_time(), fold.chip_time()
    assert tv is not None and tf is not None
    assert tv.bound == Bound.LAUNCH
    assert chip_seconds(traffic) == pytest.approx(tv.total + tf.total)
    assert chip_seconds(traffic) == pytest.approx(48.5e-6, abs=0.05e-6)


def test_items_beyond_the_sites_run_in_waves():
    work = Work(matrix_macs=424 * 1000, block_macs=0, vector_macs=0)  # 1000 cycles an item
    one = program_time(64, 64 * 64_000, 64 * 64_000, work, N150)
    two = program_time(65, 65 * 64_000, 65 * 64_000, work, N150)
    assert one.compute == pytest.approx(1000 / 1e9)
    assert two.compute == pytest.approx(2 * 1000 / 1e9)
    assert one.noc == pytest.approx(1000 / 1e9) and two.noc == pytest.approx(2000 / 1e9)
    assert two.dram == pytest.approx(65 * 64_000 / 250e9)


def test_dram_and_noc_bytes_are_separate_terms():
    """A multicast load is read from DRAM once a run but crosses every item's links:
    the DRAM term reads the first count, the NoC term the second."""
    work = Work(0, 0, 0)
    # 16 items each taking the same 64 KB block: DRAM reads it once, the NoC carries it 16 times.
    t = program_time(16, 64_000, 16 * 64_000, work, N150)
    assert t.dram == pytest.approx(64_000 / 250e9)
    assert t.noc == pytest.approx(64_000 / 64 / 1e9)


def test_a_block_float_4_rate_replaces_the_block_float_8_one():
    work = Work(0, 1_560_000, 0)
    assert program_time(1, 0, 0, work, N150).compute == pytest.approx(1_560_000 / 800 / 1e9)
    t = program_time(1, 0, 0, work, N150, block_macs=N150.bfp4_macs)
    assert t.compute == pytest.approx(1000 / 1e9)


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
    assert "spatial-estimate" in line  # where the rest of a step is estimated


def test_the_blackhole_preset_is_faster_on_the_same_bytes():
    work = Work(matrix_macs=0, block_macs=16_777_216, vector_macs=16_384)
    moved = 9_502_720
    n, b = program_time(16, moved, moved, work, N150), program_time(16, moved, moved, work, P150)
    assert b.dram == pytest.approx(moved / 500e9)
    assert b.total < n.total
    assert math.isclose(b.launch, 5744 / 1.35e9)


def test_a_traffic_file_keeps_what_the_estimate_reads(gemv):
    """Version 2 keeps the work, the figures and the scales' widths, so a program read
    back has the same time; a version-1 file (the old figures) reads without one."""
    import json

    from xdsl_spatial.interpreters.traffic_io import TrafficRun, from_json, to_json

    _, traffic = gemv
    text = to_json([TrafficRun("gemv", traffic.programs)])
    (run,) = from_json(text)
    for a, b in zip(run.programs, traffic.programs):
        assert a == b and a.chip_time() == b.chip_time()
    old = json.loads(text)
    old["version"] = 1
    (run,) = from_json(json.dumps(old))
    assert all(p.chip_time() is None for p in run.programs)
    assert [p.load_bytes for p in run.programs] == [p.load_bytes for p in traffic.programs]


def test_a_multicast_and_f16_scales_feed_the_dram_and_noc_terms_apart():
    """A record with a multicast load (16 items each take `x`'s 1,000 B, DRAM reads it
    once) and fp32 scales (f16 on the chip: half their bytes), by hand: DRAM moves
    1,000 + 4,000 / 2 + 800 stored, the links every item's `x`, the scales at f16 and
    the store."""
    from xdsl_spatial.interpreters.traffic import ProgramTraffic

    rec = ProgramTraffic(
        "p",
        "fold",
        16,
        0,
        loaded={"x": 16 * 1000, "W__q8_scale": 4000},
        stored={"y": 800},
        work=Work(0, 0, 0),
        figures=N150,
        dram_loaded={"x": 1000, "W__q8_scale": 4000},
        scale_bytes={"W__q8_scale": 4},
    )
    assert rec.chip_dram_bytes() == 1000 + 2000 + 800
    assert rec.chip_noc_bytes() == 16_000 + 2000 + 800
    t = rec.chip_time()
    assert t is not None
    assert t.dram == pytest.approx(3800 / 250e9)
    assert t.noc == pytest.approx(18_800 / 16 / 64 / 1e9)  # one wave: 16 items <= 64 sites


def test_a_records_copy_has_every_field_and_counts_of_its_own():
    """`ProgramTraffic.copy` names every field by position: a record with each field
    set copies equal (a field it missed would come back as its default), and adding
    to the copy's counts leaves the original's as they were."""
    from dataclasses import fields

    from xdsl_spatial.interpreters.traffic import ProgramTraffic

    rec = ProgramTraffic(
        "p",
        "fold",
        16,
        1024,
        loaded={"x": 16_000},
        stored={"y": 800},
        weight_elems=4096,
        chip=1,
        work=Work(1, 2, 3),
        figures=N150,
        dram_loaded={"x": 1000},
        scale_bytes={"W__q8_scale": 4},
    )
    defaults = ProgramTraffic("", "", 0, 0)
    assert all(getattr(rec, f.name) != getattr(defaults, f.name) for f in fields(rec))
    twin = rec.copy()
    assert twin == rec
    twin.add_load("x", 5, 1)
    twin.add_store("y", 7)
    assert rec.loaded == {"x": 16_000} and rec.dram_loaded == {"x": 1000}
    assert rec.stored == {"y": 800}


def test_the_blackhole_matmul_microbenchmarks_product_by_hand():
    """The DRAM-sharded matmul's case (32 x 4096 by 4096 x 4096, block-float-8, 40.9 us
    on a Blackhole) as a Q8_0 product on blackhole_p150: the fold reads the weight at
    1.0625 bytes a weight (the benchmark's 1088-byte tiles), the 32 bf16 rows once (a
    multicast load) and writes 32 fp32 rows; DRAM bounds it, and its time is the launch
    plus those bytes at 500 GB/s: 41.5 us, within 2% of the measurement. (Its view, a
    program of its own, has no counterpart in the benchmark, whose rows are in L1.)"""
    traffic = _product(32, 4096, 4096, "blackhole_p150")
    (fold,) = [p for p in traffic.programs if p.kind == "fold"]
    weight = 4096 * 4096 + 4096 // 32 * 4096 * CHIP_SCALE_BYTES
    assert weight == 128 * 128 * 1088
    assert fold.chip_dram_bytes() == weight + 32 * 4096 * 2 + 32 * 4096 * 4
    t = fold.chip_time()
    assert t is not None and t.bound == Bound.DRAM
    by_hand = 5744 / 1.35e9 + (weight + 262_144 + 524_288) / 500e9
    assert t.total == pytest.approx(by_hand)
    assert t.total == pytest.approx(41.5e-6, abs=0.05e-6)
    assert abs(t.total / 40.9e-6 - 1) < 0.02
