"""Chips as Ray actors: where each step of a lowered function runs, and the runs on
2-4 local actors giving the same bits and traffic as the run on one host (the same
compiled programs, the same order of sums: bits on any inputs, not only exact ones).

The tests that start Ray are skipped, and counted as skipped, when Ray is not
installed (`pip install -e '.[ray]'`; the test extra installs it); the
placement and the missing-Ray error are tested without it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pytest
from tp_modules import module, operands, sharded

from xdsl_spatial.interpreters.distributed import RAY_EXTRA, blas, compare_bits, place
from xdsl_spatial.interpreters.runner import RunError, compile_module, distribute, execute
from xdsl_spatial.passes.q8_lower import lower_q8

BIN = Path(sys.executable).parent
"""Where the console scripts are: beside this Python."""


def lowered(m, k, n, chips, split):
    mod = module(sharded(m, k, n, None, None))
    lower_q8(mod, chips=chips, split=split)
    return mod


def spatial_run(
    f: Path, *options: str, timeout: int, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`spatial-run F --seed 0 --distributed ray OPTIONS...`, in a process of its own."""
    argv = [sys.executable, "-m", "xdsl_spatial.tools.spatial_run", str(f), "--seed", "0"]
    return subprocess.run(
        [*argv, "--distributed", "ray", *options],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


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
    with pytest.raises(RunError, match="--distributed ray runs the compiled engine"):
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
    r = spatial_run(f, "--compare", "--stats", "--address", ray_instance, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "on 2 Ray actors (chips 0, 1) vs on this host: the same bits" in r.stdout
    assert "chip 1                   total (2 programs" in r.stdout


def test_an_unreachable_address_is_an_error_at_once(tmp_path):
    pytest.importorskip("ray")
    f = tmp_path / "n2.mlir"
    f.write_text(sharded(1, 1024, 64, 2, "n"))
    r = spatial_run(f, "-p", "q8-lower", "--address", "127.0.0.1:1", timeout=120)
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


# --------------------------------------------------------------------------------------
# BLAS threads, and Ctrl-C
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("threads", ["1", "2", None])
def test_ray_gives_the_hosts_bits_whatever_the_blas_threads(ray_instance, tmp_path, threads):
    """The shape whose bits differed (SmolLM2's LM head, 576 x 49152 over 2 chips: Ray's
    workers ran OpenBLAS on one thread, the driver on two): a driver on 1 or 2 BLAS
    threads, or the machine's default, and the actors give the same bits, since each
    actor runs its BLAS on the driver's thread count."""
    f = tmp_path / "head.mlir"
    f.write_text(sharded(1, 576, 49152, 2, "n"))
    env = {
        k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
    }
    if threads is not None:
        env["OPENBLAS_NUM_THREADS"] = threads
    r = spatial_run(
        f, "-p", "q8-lower", "--compare", "--address", ray_instance, timeout=600, env=env
    )
    assert r.returncode == 0, r.stderr
    assert "on 2 Ray actors (chips 0, 1) vs on this host: the same bits" in r.stdout


def test_actors_run_the_drivers_blas_threads(ray_instance):
    """Each actor's BLAS: the driver's library, version, kernels and thread count."""
    mod = lowered(1, 1024, 64, 2, "n")
    args = list(operands(1, 1024, 64, False, np.random.default_rng(0)))
    with distribute(mod, "mm", args) as on_ray:
        assert on_ray.chips.blas_differs == {}
        actors = list(on_ray.chips.actors.values())
        ray = on_ray.chips.ray
        assert ray.get([a.ready.remote() for a in actors]) == [blas(), blas()]


def test_different_bits_say_how_far_apart():
    a = np.array([[1.0, 2.0, 4.0]], np.float32)
    assert compare_bits([a], [a.copy()]) == "the same bits"
    b = a.copy()
    b[0, 2] = np.nextafter(np.float32(4.0), np.float32(5.0))  # one unit at 4
    assert compare_bits([b], [a]) == (
        "different bits: max |Ray - host| = 4.77e-07, 1 fp32 units in the last place of the "
        "largest, 4"
    )


def _marked(mark: str) -> dict[int, str]:
    """The processes whose environment holds the test's mark: their command lines."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                if f"XDSL_SPATIAL_TEST_MARK={mark}".encode() not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{d}/cmdline", "rb") as f:
                out[int(d)] = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
    return out


def _interrupt(argv: list[str], when: str, tmp_path: Path) -> tuple[int, str, list[str]]:
    """Run `argv` with a mark in its environment, send it SIGINT once a process of its
    Ray instance whose command line holds `when` runs, and list the processes of the
    mark left then (ending them, so that no test leaves one behind)."""
    mark = uuid.uuid4().hex
    env = {**os.environ, "XDSL_SPATIAL_TEST_MARK": mark}
    p = subprocess.Popen(
        argv, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 300
        while p.poll() is None and time.monotonic() < deadline:
            if any(when in c for c in _marked(mark).values()):
                break
            time.sleep(0.1)
        assert p.poll() is None, "the run ended before it could be interrupted"
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=120)
        left: dict[int, str] = {}
        for _ in range(20):  # a process killed as the tool exits, not reaped yet
            left = _marked(mark)
            if not left:
                break
            time.sleep(0.1)
    finally:
        if p.poll() is None:
            p.kill()
        for pid in _marked(mark):
            os.kill(pid, signal.SIGKILL)
    return p.returncode, err.decode(errors="replace"), sorted(left.values())


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="lists processes through /proc")
@pytest.mark.parametrize("when", ["gcs_server", "ray::Chip"])
def test_an_interrupted_spatial_run_leaves_no_ray_process(tmp_path, when):
    """Ctrl-C while the local Ray instance starts, and while the chips' actors run:
    exit code 130, one line, and none of the instance's processes left."""
    pytest.importorskip("ray")
    f = tmp_path / "n2.mlir"
    f.write_text(sharded(1, 4096, 4096, 2, "n"))
    argv = [
        str(BIN / "spatial-run"),
        str(f),
        "-p",
        "q8-lower",
        "--seed",
        "0",
        "--compare",
        "--distributed",
        "ray",
    ]
    rc, err, left = _interrupt(argv, when, tmp_path)
    assert left == []
    assert rc == 130, err
    assert err.strip().splitlines()[-1] == "spatial-run: interrupted"


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="lists processes through /proc")
def test_an_interrupted_spatial_generate_leaves_no_ray_process(tmp_path):
    pytest.importorskip("ray")
    pytest.importorskip("gguf")
    from tiny_llama import write_tiny_llama

    tiny = write_tiny_llama(tmp_path / "tiny.gguf")
    argv = [
        str(BIN / "spatial-generate"),
        str(tiny),
        "--tokens",
        "104,101",
        "--steps",
        "60",
        "--batch",
        "2",
        "--chips",
        "2",
        "--distributed",
        "ray",
    ]
    rc, err, left = _interrupt(argv, "ray::Chip", tmp_path)
    assert left == []
    assert rc == 130, err
    assert err.strip().splitlines()[-1] == "spatial-generate: interrupted"
