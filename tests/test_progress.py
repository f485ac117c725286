"""
Progress from the first second of a run (`core/progress.py`, `tools/cli.py`'s status
line, docs/model.md): every phase of a cold load told with its share, and on a
terminal the status line from the console script's start (while the imports take
their seconds) to the first token, its clock counting; piped, nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from tiny_llama import write_tiny_llama

from xdsl_spatial.core.progress import Count
from xdsl_spatial.frontends.generation import load_model
from xdsl_spatial.interpreters.options import Engine, RunOptions
from xdsl_spatial.interpreters.runner import native_available
from xdsl_spatial.tools import cli

BIN = Path(sys.executable).parent


def test_a_count_says_each_percent_once():
    said: list[str] = []
    count = Count(said.append, "q8-lower", 400, "products")
    for i in range(401):
        count(i)
    assert len(said) == 101
    assert said[1] == "q8-lower: 4 of 400 products (1%)"
    assert said[-1] == "q8-lower: 400 of 400 products (100%)"


def test_a_cold_load_tells_every_phase_with_its_share(tmp_path):
    path = write_tiny_llama(tmp_path / "f32.gguf", f32_weights=True)
    said: list[str] = []
    load_model(
        str(path),
        3,
        24,
        requantize=True,
        options=RunOptions(cache=tmp_path / "cache"),
        progress=said.append,
    )
    phases = list(dict.fromkeys(s.split(":")[0] for s in said))
    # Re-quantising is told by the process that binds the weights, as it goes, while
    # this one builds and lowers: after binding began, in any order with the rest.
    requantising = "re-quantising to Q8_0"
    assert phases.index(requantising) > phases.index("binding the weights")
    assert [p for p in phases if p != requantising] == [
        "checking the disk cache",
        "reading the model from the cache",
        f"reading {path} (5 MB)",
        "binding the weights",
        "building the model (2 layers, 15 products)",
        "q8-lower",
        "lowering the rest of the step with spatial-lower-ops",
        "compiling @prefill",
        "compiling @decode",
        "writing the model to the cache",
    ]
    assert "re-quantising to Q8_0: 14 of 14 weights (100%)" in said
    assert "q8-lower: 30 of 30 products (100%)" in said
    passes = [s for s in said if s.startswith("q8-lower: spatial-")]  # each kind's, in turn
    each = [
        "q8-lower: spatial-merge-siblings",
        "q8-lower: spatial-sum-trips",
        "q8-lower: spatial-hoist",
        "q8-lower: spatial-multicast",
    ]
    assert passes and len(passes) % len(each) == 0
    assert passes == each * (len(passes) // len(each))
    compiled = [s for s in said if s.startswith("compiling @decode: ")]
    assert compiled[0].endswith("(0%)") and len(compiled) > 10


def test_native_compiling_tells_its_steps(tmp_path):
    try:
        native_available()
    except Exception as e:
        pytest.skip(str(e))
    path = write_tiny_llama(tmp_path / "tiny.gguf")
    model = load_model(str(path), 3, 24, options=RunOptions(Engine.NATIVE))
    said: list[str] = []
    model.compile("decode", said.append)
    if model.executables["decode"].cached:
        assert said == ["compiling @decode: outlining its programs into kernels"]
        return
    assert said == [
        "compiling @decode: outlining its programs into kernels",
        "compiling @decode: converting to upstream dialects",
        "compiling @decode: upstream MLIR's passes to LLVM",
        "compiling @decode: LLVM -O3",
    ]


def test_the_status_line_counts_the_phase_s_seconds(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(cli.time, "monotonic", lambda: now[0])
    line = cli._StatusLine("spatial-generate")
    line.show("q8-lower: 1 of 4 products (25%)")
    assert str(line.__rich__()) == "spatial-generate: q8-lower: 1 of 4 products (25%)"
    now[0] += 12.4
    line.show("q8-lower: 2 of 4 products (50%)")  # the same phase: its clock goes on
    assert str(line.__rich__()) == "spatial-generate: q8-lower: 2 of 4 products (50%) (12 s)"
    line.show("compiling @decode")
    assert str(line.__rich__()) == "spatial-generate: compiling @decode"


def test_a_terminal_sees_progress_from_the_start(tmp_path):
    """The console script on a pseudo-terminal's stderr: the first thing it writes is
    the start-up line, then the phases; stdout (a pipe) holds the text and the report."""
    path = write_tiny_llama(tmp_path / "tiny.gguf")
    master, slave = os.openpty()
    seen = bytearray()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            seen.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    env = {**os.environ, "XDSL_SPATIAL_CACHE": str(tmp_path / "cache"), "COLUMNS": "200"}
    argv = [str(BIN / "spatial-generate"), str(path), "--tokens", "5,6", "--steps", "2"]
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=slave, env=env, timeout=600)
    os.close(slave)
    reader.join(timeout=10)
    os.close(master)
    assert r.returncode == 0
    text = seen.decode("utf-8", "replace")
    assert text.startswith("\r\x1b[Kspatial-generate: starting (importing its modules)")
    # the line is drawn as the terminal refreshes: the phases of a second or more show
    for phase in ("q8-lower: ", "compiling @"):
        assert f"spatial-generate: {phase}" in text, phase
    assert "generated ids: " in r.stdout.decode() and "\x1b" not in r.stdout.decode()
