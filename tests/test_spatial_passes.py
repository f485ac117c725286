"""The spatial-to-spatial passes keep what a program computes.

Each pass (`spatial-merge-siblings`, `spatial-sum-trips`, `spatial-hoist`, in the
order `q8-lower{optimize=true}` runs them) is applied to random lowered products, the
result verified and run on the reference engine: the same bits as before the pass on
integer-exact inputs (every partial sum exact in fp32, so the order the sums are
added in changes nothing), within the fp32 summation bound of an fp64 reference on
random ones, and the same bytes moved. Programs written by hand show each pass's
preconditions: what it declines, and what a chip's local memory lets it do.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from q8_operands import fp32_bound, q8_fp64, q8_operands
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    BufferType,
    FoldOp,
    KLoopOp,
    LoadOp,
    StageOp,
)
from xdsl_spatial.interpreters.runner import execute
from xdsl_spatial.passes.q8_lower import OPTIMIZE, lower_q8
from xdsl_spatial.passes.spatial_hoist import HoistPass
from xdsl_spatial.passes.spatial_siblings import MergeSiblingsPass
from xdsl_spatial.passes.spatial_sum_trips import SumTripsPass, trip_plan
from xdsl_spatial.tools.spatial_gguf import q8_matmul_func


def product(m: int, k: int, n: int, act: str = "bf16", scale: str = "f32") -> ModuleOp:
    return parse_module(
        "builtin.module {\n" + q8_matmul_func("mm", "W", k, n, m, act, scale) + "}\n"
    )


def applied(mod: ModuleOp, p: ModulePass) -> ModuleOp:
    out = mod.clone()
    p.apply(Context(), out)
    out.verify()
    return out


def ops(mod: ModuleOp, kind: type) -> list:
    return [o for o in mod.walk() if isinstance(o, kind)]


def traffic(r):
    """What each program moved (not its local memory: `spatial-sum-trips` may take
    more of it, within the site's, which the verifier checks)."""
    return [(p.name, p.loaded, p.stored, p.weight_elems) for p in r.traffic.programs]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    m=st.integers(1, 32),
    blocks=st.integers(1, 100),
    n=st.integers(1, 400),
    act=st.sampled_from(["bf16", "f32"]),
    scale=st.sampled_from(["f32", "f16"]),
    acc_tiles=st.integers(1, 8),
    local_mem=st.sampled_from([None, 327680, 1 << 21]),
    exact=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_each_pass_keeps_the_results(m, blocks, n, act, scale, acc_tiles, local_mem, exact, seed):
    """Lowered, then each pass in turn: every step verifies (its buffers fit a site)
    and gives, on the reference engine, the bits of the step before on integer-exact
    inputs and stays within the fp32 bound of fp64 on random ones, moving the same
    bytes."""
    k = 32 * blocks
    x, q, s = q8_operands(m, k, n, np.random.default_rng(seed), exact=exact, scale=scale)
    mod = product(m, k, n, act, scale)
    options = {"acc_tiles": acc_tiles, "act": act}
    if local_mem is not None:
        options["local_mem"] = local_mem
    lower_q8(mod, **options)
    want, mag = q8_fp64(x, q, s, act)
    bound = fp32_bound(mag, k + 2)
    first = execute(mod, "mm", [x, q, s], engine="reference")
    for p in OPTIMIZE:
        mod = applied(mod, p)
        r = execute(mod, "mm", [x, q, s], engine="reference")
        (y,) = r.outputs
        if exact:
            np.testing.assert_array_equal(y, first.outputs[0])
        else:
            assert (np.abs(y - want) <= bound).all()
        assert traffic(r) == traffic(first)
    # What the passes leave: no stage a row, no loop that runs once, and a loop only
    # where a site cannot hold its trips at once.
    names = {o.stage_name.data for o in ops(mod, StageOp)}
    assert not any(nm.startswith(("block_", "tail_")) for nm in names)
    for loop in ops(mod, KLoopOp):
        assert loop.trips.data > 1
        assert isinstance(trip_plan(loop), str)


def test_sum_trips_takes_the_widest_number_of_trips_a_site_holds():
    """K = 8192 at m = 1 (8 trips of 32 Q8_0 blocks, wb = 8; the fold's buffers take
    740 KiB): the whole of K at once on a 3 MiB site (2.4 MiB of buffers, the loop
    then runs once and is hoisted away); 2 trips at once in 1.5 MiB (1.3 MiB: the
    loop runs 4 times, its widened loads still double-buffered; 4 at once would take
    the 2 MiB of 8 in one page); none in 1 MiB. The buffers fit the site each time,
    and every way gives the same bits on integer-exact inputs."""
    base = product(1, 8192, 256)
    expect = {3 << 20: 1, 1572864: 4, 1 << 20: 8}
    for local_mem, trips in expect.items():
        mod = base.clone()
        lower_q8(mod, local_mem=local_mem)
        summed = applied(mod, SumTripsPass())
        (fold,) = ops(summed, FoldOp)
        (loop,) = ops(summed, KLoopOp)
        assert loop.trips.data == trips
        assert isinstance(trip_plan(loop), str)  # nothing more to sum at once
        assert fold.plan.k_blocks.data == trips
        assert fold.buffer_bytes() <= local_mem
        q8 = next(o for o in ops(summed, LoadOp) if o.tensor_name == "W__q8")
        assert q8.block_shape == (32 * 8 // trips, 8) and q8.repeat.data == trips
        bt = cast(BufferType, q8.buffer.type)
        assert bt.depth.data == (1 if trips == 1 else 2)
        hoisted = applied(summed, HoistPass())
        assert len(ops(hoisted, KLoopOp)) == (0 if trips == 1 else 1)
    rng = np.random.default_rng(0)
    x, q, s = q8_operands(1, 8192, 256, rng, exact=True)
    outs = []
    for local_mem in expect:
        mod = base.clone()
        lower_q8(mod, local_mem=local_mem, optimize=True)
        outs.append(execute(mod, "mm", [x, q, s], engine="reference").outputs[0])
    for y in outs[1:]:
        np.testing.assert_array_equal(y, outs[0])


def test_merge_siblings_keeps_the_local_memory():
    """A batch of 3 rows: the three `block` and `tail` stages become one each, whose
    buffer holds the three pages side by side (the same bytes as before)."""
    mod = product(3, 2112, 96)
    lower_q8(mod)
    before = ops(mod, FoldOp)[0].buffer_bytes()
    merged = applied(mod, MergeSiblingsPass())
    (fold,) = ops(merged, FoldOp)
    assert fold.buffer_bytes() == before
    names = sorted(o.stage_name.data for o in ops(merged, StageOp))
    assert names.count("block") == 1 and names.count("tail") == 1
    bufs = {b.buffer_name.data: cast(BufferType, b.result.type) for b in ops(merged, BufferOp)}
    assert bufs["block"].tiles.data == bufs["tail"].tiles.data == 9
    block = next(o for o in ops(merged, StageOp) if o.stage_name.data == "block")
    assert block.iter_extents == (3, 32, 96, 32)


# --------------------------------------------------------------------------------------
# Programs written by hand (the lit tests' inputs), run before and after
# --------------------------------------------------------------------------------------

LIT = Path(__file__).resolve().parents[1] / "lit_tests" / "passes"

CASES = [
    (MergeSiblingsPass(), "spatial_merge_siblings/halves.mlir"),
    (MergeSiblingsPass(), "spatial_merge_siblings/declines.mlir"),
    (SumTripsPass(), "spatial_sum_trips/widths.mlir"),
    (SumTripsPass(), "spatial_sum_trips/declines.mlir"),
    (HoistPass(), "spatial_hoist/hoist.mlir"),
]


def lit_modules(path: str) -> list[ModuleOp]:
    return [parse_module(text, path) for text in (LIT / path).read_text().split("// -----")]


@pytest.mark.parametrize(
    "p,path", CASES, ids=[f"{p.name}:{path.split('/')[1]}" for p, path in CASES]
)
def test_hand_written_programs_keep_their_results(p, path):
    """Each program, before and after the pass, on both engines and on integer-exact
    inputs: the same bits. What a program moves changes only where a load is hoisted
    out of its loop: it moves its block once instead of once a trip."""
    rng = np.random.default_rng(7)
    for mod in lit_modules(path):
        fn = next(o for o in mod.walk() if isinstance(o, FuncOp))
        name = fn.sym_name.data
        args = [
            rng.integers(-4, 5, cast(TensorType, a.type).get_shape()).astype(np.float32)
            for a in fn.args
        ]
        before = execute(mod, name, args, engine="reference")
        after_mod = applied(mod, p)
        for engine in ("reference", "compiled"):
            after = execute(after_mod, name, args, engine=engine)
            for b, a in zip(before.outputs, after.outputs):
                np.testing.assert_array_equal(a, b)
            (was,), (now,) = before.traffic.programs, after.traffic.programs
            if name in ("invariant", "once"):
                trips = 8 if name == "invariant" else 1
                assert now.loaded == {**was.loaded, "w": was.loaded["w"] // trips}
            else:
                assert now.loaded == was.loaded and now.stored == was.stored
