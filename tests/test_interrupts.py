"""
Ctrl-C at any moment of any tool: one line, `PROG: interrupted`, exit code 130, no
traceback, and every file it would have written left as it was.

Each tool runs as its console script in a subprocess. The test waits until the process
has mapped numpy's C extension (the heavy imports have begun: before that, Python itself
is still starting, importing `site`, where no program's code runs yet), then sends
SIGINT after a delay: 0 lands in the imports (numpy, xDSL: the first second), the later
ones in the work (parsing, lowering, building, compiling, running, drawing, Ray
starting its actors). The workloads take several times the longest delay, so the signal
finds the tool running; if a machine were ever fast enough to finish first, the test
says so rather than pass.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tiny_llama import write_tiny_llama

ROOT = Path(__file__).resolve().parent.parent
GEMV = str(ROOT / "examples" / "gemv_q8.mlir")
BIN = Path(sys.executable).parent
KEEP = b"the file as it was"


@pytest.fixture(scope="module")
def deep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight layers: its 120 steps take several times the longest delay (two layers
    finished in about 3 s on an idle machine, so a fast one was already exiting)."""
    return write_tiny_llama(tmp_path_factory.mktemp("deep") / "deep.gguf", layers=8)


@pytest.fixture(scope="module")
def model_text(deep: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The eight-layer model's functions as MLIR text, for spatial-opt to parse and
    lower and spatial-viz to run and draw: on an idle EPYC, `q8-lower{optimize=true},
    spatial-lower-ops` took 3.3 s and the traffic picture 5.6 s, where the two-layer
    model's lowering and the example's picture took 1.2-2.0 s and a fast machine was
    already exiting at the longest delay."""
    out = tmp_path_factory.mktemp("model") / "model.mlir"
    subprocess.run(
        [str(BIN / "spatial-gguf"), str(deep), "--emit-model", "--batch", "4", "-o", str(out)],
        check=True,
    )
    return out


def _importing(pid: int) -> bool:
    """Whether process `pid` has mapped numpy's C extension."""
    try:
        return "_multiarray_umath" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def interrupt(argv: list[str], delay: float, cwd: Path, **env: str) -> tuple[int, str]:
    """Run the console script `argv[0]` with `argv[1:]`, send SIGINT `delay` seconds
    after its heavy imports began; its exit code and stderr."""
    environ = {**os.environ, **env}
    proc = subprocess.Popen(
        [str(BIN / argv[0]), *argv[1:]],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=environ,
    )
    deadline = time.monotonic() + 60
    while not _importing(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(delay)
    if proc.poll() is not None:
        err = proc.stderr.read().decode() if proc.stderr else ""
        pytest.fail(f"{argv[0]} finished (rc {proc.returncode}) within {delay} s: {err}")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err.decode()


def check_interrupted(prog: str, rc: int, err: str, *, alone: bool = True) -> None:
    assert rc == 130, (rc, err)
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    if alone:
        assert lines == [f"{prog}: interrupted"], err
    else:  # Ray says what it started, on its own lines
        assert lines[-1] == f"{prog}: interrupted", err


def untouched(where: Path, name: str) -> None:
    """`name` in `where` holds what it held, and nothing was left beside it."""
    assert (where / name).read_bytes() == KEEP
    assert sorted(p.name for p in where.iterdir()) == [name]


def interrupted_writing(
    argv: list[str], name: str, delay: float, tmp_path: Path, **env: str
) -> None:
    """The tool of `argv`, writing over `name` (the path its last option takes),
    interrupted after `delay` seconds: it says so, and leaves `name` as it was."""
    out = tmp_path / "out"
    out.mkdir()
    (out / name).write_bytes(KEEP)
    rc, err = interrupt([*argv, str(out / name)], delay, tmp_path, **env)
    check_interrupted(argv[0], rc, err)
    untouched(out, name)


@pytest.mark.parametrize("delay", [0.0, 0.8])
def test_spatial_run(tmp_path, delay):
    argv = ["spatial-run", GEMV, "--seed", "0", "--compare", "--stats", "--engine", "reference"]
    interrupted_writing([*argv, "--outputs"], "res.npz", delay, tmp_path)


@pytest.mark.parametrize("delay", [0.0, 1.2])
def test_spatial_opt(tmp_path, model_text, delay):
    argv = ["spatial-opt", str(model_text), "-p", "q8-lower{optimize=true},spatial-lower-ops", "-o"]
    interrupted_writing(argv, "lowered.mlir", delay, tmp_path)


@pytest.fixture(scope="module")
def layered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sixty-four layers: spatial-gguf emits them in about 3.4 s on this 2-core Xeon,
    where it emitted the two-layer model in 0.6 s from its start (its imports lighter
    since a cached start stopped importing the compiler) and was exiting at the longest
    delay."""
    return write_tiny_llama(tmp_path_factory.mktemp("layered") / "layered.gguf", layers=64)


@pytest.mark.parametrize("delay", [0.0, 0.6])
def test_spatial_gguf(tmp_path, layered, delay):
    argv = ["spatial-gguf", str(layered), "--emit-model", "--context", "128", "--batch", "32"]
    interrupted_writing([*argv, "-o"], "model.mlir", delay, tmp_path)


@pytest.mark.parametrize("delay", [0.0, 1.2])
def test_spatial_viz(tmp_path, model_text, delay):
    pytest.importorskip("matplotlib")
    argv = ["spatial-viz", str(model_text), "-p", "q8-lower", "--traffic", "-o"]
    interrupted_writing(argv, "traffic.svg", delay, tmp_path)


@pytest.mark.parametrize("delay", [0.0, 1.2, 2.5])
def test_spatial_generate(tmp_path, deep, delay):
    """In its imports, while it builds, lowers and compiles, and while it generates (or
    writes the disk cache): the cache is left without a partial entry."""
    cache = tmp_path / "cache"
    argv = ["spatial-generate", str(deep), "--tokens", "104,101", "--steps", "120"]
    argv += ["--context", "128", "--batch", "2", "--outputs"]
    interrupted_writing(argv, "run.npz", delay, tmp_path, XDSL_SPATIAL_CACHE=str(cache))
    entries = list(cache.iterdir()) if cache.exists() else []
    assert all(p.suffix == ".model" and not p.name.startswith(".") for p in entries), entries


@pytest.mark.skipif(shutil.which("ray", path=str(BIN)) is None, reason="needs the [ray] extra")
def test_spatial_run_while_ray_starts_its_actors(tmp_path):
    argv = [
        "spatial-run",
        str(ROOT / "examples" / "tensor_parallel_n4.mlir"),
        "--seed",
        "0",
        "--compare",
    ]
    rc, err = interrupt([*argv, "--distributed", "ray"], 2.5, tmp_path)
    check_interrupted("spatial-run", rc, err, alone=False)


def test_ctrl_c_is_ignored_once_the_tool_has_returned(monkeypatch):
    """A console script whose tool has returned exits with the tool's code, Ctrl-C then
    ignored (SIG_IGN, so no Python handler runs while the interpreter finalizes, which
    aborted it with exit -6); while the tool runs, Ctrl-C is the launcher's handler."""
    from types import ModuleType

    from xdsl_spatial.tools import launch

    seen = []
    tool = ModuleType("xdsl_spatial.tools.quick_tool")
    tool.main = lambda: seen.append(signal.getsignal(signal.SIGINT)) or 3  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "xdsl_spatial.tools.quick_tool", tool)
    before = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as done:
            launch._launch("quick-tool", "quick_tool")()
        assert done.value.code == 3
        assert seen == [launch._on_sigint]
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_an_interrupt_a_library_swallowed_still_interrupts(tmp_path, monkeypatch, capsys):
    """Ctrl-C that a library swallows whole (an import guard that takes numpy's
    ImportError for it as a missing optional module), after which the tool runs on to
    its end: no output is renamed into place, and the console script still says so
    and exits 130 (once a run of `test_spatial_gguf[0.0]` exited 0 so)."""
    from xdsl_spatial.core import interrupts
    from xdsl_spatial.core.files import write_file
    from xdsl_spatial.tools import launch

    (tmp_path / "out.txt").write_bytes(KEEP)
    monkeypatch.setattr(interrupts, "_pressed", True)  # what the handler notes
    with pytest.raises(KeyboardInterrupt):
        write_file(str(tmp_path / "out.txt"), b"new")
    untouched(tmp_path, "out.txt")

    class Finished:  # a tool that ran to its end, the interrupt swallowed on the way
        @staticmethod
        def main() -> int:
            return 0

    monkeypatch.setattr(launch, "_import", lambda prog, module: Finished)
    monkeypatch.setattr(signal, "signal", lambda *args: None)  # leave pytest's handlers
    with pytest.raises(SystemExit) as exited:
        launch.spatial_gguf()
    assert exited.value.code == 130
    assert capsys.readouterr().err == "spatial-gguf: interrupted\n"
