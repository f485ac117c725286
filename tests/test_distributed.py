"""Chips as Ray actors: where each step of a lowered function runs, and the runs on
2-4 local actors giving the same bits and traffic as the run on one host (the same
compiled programs, the same order of sums: bits on any inputs, not only exact ones).

The tests that start Ray are skipped, and counted as skipped, when Ray is not
installed (`pip install -e '.[ray]'`; the test extra installs it); the
placement and the missing-Ray error are tested without it.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from tp_modules import module, operands, sharded

from xdsl_spatial.interpreters.distributed import RAY_EXTRA, place
from xdsl_spatial.interpreters.runner import RunError, compile_module, distribute, execute
from xdsl_spatial.passes.q8_lower import lower_q8


def lowered(m, k, n, chips, split):
    mod = module(sharded(m, k, n, None, None))
    lower_q8(mod, chips=chips, split=split)
    return mod


def same_bits(a, b) -> bool:
    return all(
        x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()
        for x, y in zip(a, b)
    )


def test_weights_are_cut_once_and_activations_sent_each_call():
    """N split: every chip's view reads x (sent), its fold its shards (cut from the
    weight arguments when the chips are made) and its own view (kept on the chip); the
    concat runs on the driver. K split: the driver slices x for each chip."""
    exe = compile_module(lowered(1, 2048, 512, 4, "n"), "mm")
    pl = place(exe)
    assert pl.chips == [0, 1, 2, 3]
    assert pl.weight_args == (1, 2) and pl.activations == (0,)
    names = [st.name for st in exe.steps]
    assert [names[s] for s in pl.setup] == ["tensor.extract_slice"] * 8
    views = [
        s for s, st in enumerate(exe.steps) if st.program is not None and st.program.kind == "view"
    ]
    folds = [
        s for s, st in enumerate(exe.steps) if st.program is not None and st.program.kind == "fold"
    ]
    assert all(pl.sent[s] == (0,) for s in views)  # x
    assert all(pl.sent[s] == () for s in folds)  # the view stays on its chip
    assert all(pl.kept[s] and not pl.returned[s] for s in views)
    assert all(pl.returned[s] and not pl.kept[s] for s in folds)
    assert [pl.chip_of[s] for s, n in enumerate(names) if n == "tensor.concat"] == [None]
    for c in range(4):
        assert len(pl.shards[c]) == 2  # its values and its scales

    exe = compile_module(lowered(1, 2048, 512, 2, "k"), "mm")
    pl = place(exe)
    slices_of_x = [
        s for s, st in enumerate(exe.steps) if st.name == "tensor.extract_slice" and st.ins == (0,)
    ]
    assert len(slices_of_x) == 2 and not set(slices_of_x) & set(pl.setup)
    assert all(pl.chip_of[s] is None for s in slices_of_x)


def test_without_ray_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    mod = lowered(1, 1024, 64, 2, "n")
    rng = np.random.default_rng(0)
    with pytest.raises(RunError, match=r"needs Ray, an optional extra: pip install -e '\.\[ray\]'"):
        execute(mod, "mm", list(operands(1, 1024, 64, False, rng)), distributed="ray")
    assert RAY_EXTRA == "pip install -e '.[ray]'"


def test_a_function_without_chips_is_refused_before_ray_starts():
    mod = module(sharded(1, 1024, 64, None, None))
    lower_q8(mod)
    rng = np.random.default_rng(0)
    with pytest.raises(RunError, match=r"runs no program on a chip: lower it over chips first"):
        execute(mod, "mm", list(operands(1, 1024, 64, False, rng)), distributed="ray")


def test_unknown_distribution_and_the_reference_engine_are_refused():
    mod = lowered(1, 1024, 64, 2, "n")
    args = list(operands(1, 1024, 64, False, np.random.default_rng(0)))
    with pytest.raises(RunError, match="unknown distribution 'mpi', expected one of local, ray"):
        execute(mod, "mm", args, distributed="mpi")
    with pytest.raises(RunError, match="compiled engine only"):
        execute(mod, "mm", args, engine="reference", distributed="ray")


# --------------------------------------------------------------------------------------
# On Ray
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray")
    from xdsl_spatial.interpreters.distributed import start_ray

    start_ray()
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


@pytest.mark.parametrize(
    "chips, split, m, k, n",
    [
        (2, "n", 1, 2048, 1000),
        (3, "k", 4, 3072, 256),
        (4, "n", 8, 1024 + 96, 700),
        (4, "k", 1, 4096, 96),
    ],
)
def test_chips_on_ray_give_the_bits_and_traffic_of_one_host(ray_instance, chips, split, m, k, n):
    mod = lowered(m, k, n, chips, split)
    rng = np.random.default_rng(chips)
    x, q, s = operands(m, k, n, False, rng)
    local = execute(mod, "mm", [x, q, s])
    with distribute(mod, "mm", [x, q, s]) as on_ray:
        assert on_ray.inputs == (0,)
        for _ in range(2):
            got = on_ray(x)
            assert same_bits(got.outputs, local.outputs)
            assert got.traffic.programs == local.traffic.programs
        # Another activation, the same weights: the shards are not sent again.
        x2 = rng.standard_normal((m, k)).astype(np.float32)
        assert same_bits(on_ray(x2).outputs, execute(mod, "mm", [x2, q, s]).outputs)
        held = on_ray.chips.held_bytes()
    # Each actor holds its own shard (values and scales), not the whole weight.
    pl = on_ray.chips.placement
    assert sorted(held) == list(range(chips))
    whole = q.nbytes + s.nbytes
    for b in held.values():
        assert b < whole
    assert pl.weight_args == (1, 2)


def test_an_error_on_a_chip_is_a_run_error(ray_instance):
    mod = lowered(1, 1024, 64, 2, "n")
    args = list(operands(1, 1024, 64, False, np.random.default_rng(0)))
    with distribute(mod, "mm", args) as on_ray:
        with pytest.raises(RunError, match=r"takes 1 activations \(arguments 0\), got 2"):
            on_ray(args[0], args[0])
        with pytest.raises(RunError, match=r"arg0 \(%x\) must have shape 1x1024, got 1x1000"):
            on_ray(args[0][:, :1000])
        with pytest.raises(RunError, match=r"arg0 \(%x\) is bfloat16 but the array holds int64"):
            on_ray(np.zeros((1, 1024), np.int64))


def test_spatial_run_joins_a_cluster_and_says_the_bits_are_the_same(ray_instance, tmp_path):
    """A new process joins the running Ray instance by its address, runs a module
    annotated for a K split over 2 chips before and after q8-lower, and on the chips'
    actors against this host."""
    f = tmp_path / "k2.mlir"
    f.write_text(sharded(1, 2048, 512, 2, "k", x_split=True))
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "xdsl_spatial.tools.spatial_run",
            str(f),
            "--seed",
            "0",
            "--compare",
            "--stats",
            "--distributed",
            "ray",
            "--address",
            ray_instance,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert "on 2 Ray actors (chips 0, 1) vs on this host: the same bits" in r.stdout
    assert "chip 1                   total (2 programs" in r.stdout


def test_an_unreachable_address_is_an_error_at_once(tmp_path):
    pytest.importorskip("ray")
    f = tmp_path / "n2.mlir"
    f.write_text(sharded(1, 1024, 64, 2, "n"))
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "xdsl_spatial.tools.spatial_run",
            str(f),
            "-p",
            "q8-lower",
            "--seed",
            "0",
            "--distributed",
            "ray",
            "--address",
            "127.0.0.1:1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 1
    assert r.stderr.startswith("spatial-run: error: cannot reach the Ray cluster at 127.0.0.1:1")


def test_a_program_of_no_chip_runs_on_the_driver(ray_instance):
    """One product split over 2 chips, another of the same x on no chip: the second's
    view and fold run on the driver, the first's on the actors; the bits are one host's."""
    text = sharded(1, 1024, 128, 2, "n").replace(
        "  func.return %y : tensor<1x128xf32>",
        "  %v = q8.dequantize %W__q8, %W__q8_scale : tensor<1024x128xi8>, tensor<32x128xf32> -> tensor<1024x128xf32>\n"
        "  %y2 = linalg.matmul ins(%xf, %v : tensor<1x1024xf32>, tensor<1024x128xf32>) outs(%zero : tensor<1x128xf32>) -> tensor<1x128xf32>\n"
        "  %sum = arith.addf %y, %y2 : tensor<1x128xf32>\n"
        "  func.return %sum : tensor<1x128xf32>",
    )
    mod = module(text)
    d1, d2 = lower_q8(mod)
    assert d1.split is not None and d2.lowered and d2.split is None
    exe = compile_module(mod, "mm")
    pl = place(exe)
    on = {
        st.program.name: pl.chip_of[s] for s, st in enumerate(exe.steps) if st.program is not None
    }
    assert on == {
        "q8_view_1x1024_from0_c0": 0,
        "q8_view_1x1024_from0_c1": 1,
        "q8_gemv_1024x64_w2_c0": 0,
        "q8_gemv_1024x64_w2_c1": 1,
        "q8_view_1x1024_from0": None,
        "q8_gemv_1024x128_w4": None,
    }
    # The weight's arguments feed the chips' shards and the driver's fold: both.
    assert pl.weight_args == (1, 2) and pl.driver_weights == (1, 2)
    args = list(operands(1, 1024, 128, False, np.random.default_rng(1)))
    local = execute(mod, "mm", args)
    on_ray = execute(mod, "mm", args, distributed="ray")
    assert same_bits(on_ray.outputs, local.outputs)
    assert on_ray.traffic.programs == local.traffic.programs
