"""
docs/*.md as a reader meets them: every shell block runs as written and every sample of
a command's output (`<!-- output of: COMMAND -->`) is what the command prints, by the
README's rules (`test_readme.py`: the conventions `exit code N` and `not run: WHY`,
what is left out, how a sample is compared). A Python block right after the line
`<!-- runs as written -->` is a whole program and runs as the README's do, from the
repository's root; the other Python blocks in docs/ are sketches of the API beside the
prose (`module`, `x`, `q`, `s` stand for the reader's own values) and are not run.
Every relative link of the README and the manual names a file (and a heading, after
`#`) inside the repository. `-k PAGE` runs one page's blocks (`-k lowering`).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_readme import (
    Block,
    blocks,
    check_sample,
    run_script,
    sample_command,
    shared_cache,  # noqa: F401 - the fixture
    shell_script,
    skip_without_extras,
)

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))
BLOCKS = [(doc, b) for doc in DOCS for b in blocks(doc)]
SHELL = [(doc, b) for doc, b in BLOCKS if b.lang == "sh" and shell_script(b) is not None]
SAMPLES = [(doc, b) for doc, b in BLOCKS if b.output_of is not None]

RUNS = "<!-- runs as written -->"


def _marked(doc: Path, block: Block) -> bool:
    """Whether the line before the block's opening fence is `RUNS`."""
    lines = doc.read_text().splitlines()
    return block.line >= 2 and lines[block.line - 2] == RUNS


PYTHON = [(doc, b) for doc, b in BLOCKS if b.lang == "python" and _marked(doc, b)]


def _id(item: tuple[Path, Block]) -> str:
    return f"{item[0].stem}:{item[1].line}"


def test_the_docs_have_commands_and_samples():
    assert len(SHELL) >= 8 and len(SAMPLES) >= 3 and len(PYTHON) >= 3
    assert all(b.lang in {"sh", "python", "mlir", "text", ""} for _, b in BLOCKS)


def test_the_marker_is_only_before_python():
    """A `RUNS` marker before anything but a Python block would run nothing: a slip."""
    for doc in DOCS:
        lines = doc.read_text().splitlines()
        for i, line in enumerate(lines):
            if line == RUNS:
                assert i + 1 < len(lines) and lines[i + 1] == "```python", f"{doc.name}:{i + 1}"


@pytest.mark.parametrize("item", PYTHON, ids=_id)
def test_python_block_runs(item):
    _, block = item
    if "ray" in block.text and importlib.util.find_spec("ray") is None:
        pytest.skip("needs ray (pip install -e '.[ray]')")
    r = subprocess.run(
        [sys.executable, "-c", block.text], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("item", SHELL, ids=_id)
def test_shell_block_runs(item, tmp_path, shared_cache):  # noqa: F811
    _, block = item
    script = shell_script(block)
    assert script is not None
    skip_without_extras(script)
    r = run_script(script, tmp_path, shared_cache)
    assert r.returncode == 0, f"{script}\n--- stderr:\n{r.stderr}\n--- stdout:\n{r.stdout[-3000:]}"
    assert "Traceback" not in r.stderr, r.stderr


@pytest.mark.parametrize("item", SAMPLES, ids=_id)
def test_a_sample_is_what_its_command_prints(item, tmp_path, shared_cache):  # noqa: F811
    _, block = item
    script = sample_command(block)
    skip_without_extras(script)
    if "read from the cache" in block.text:  # a second run's sample: a first one before
        run_script(script, tmp_path, shared_cache)
    r = run_script(script, tmp_path, shared_cache, merged=True)
    assert r.returncode == 0, r.stdout
    why = check_sample(block.text, r.stdout)
    assert why is None, f"{block.output_of}\n{why}"


# --------------------------------------------------------------------------------------
# Links
# --------------------------------------------------------------------------------------

_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation but `-` and `_`
    dropped, spaces as `-`."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"(?ms)^```.*?^```", "", page.read_text())  # no headings in code
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.*)$", text, re.M)}


def _links(page: Path) -> list[str]:
    text = re.sub(r"(?ms)^```.*?^```", "", page.read_text())
    return [m.group(1) for m in _LINK.finditer(text)]


@pytest.mark.parametrize("page", [ROOT / "README.md", *DOCS], ids=lambda p: p.name)
def test_relative_links_resolve_inside_the_repository(page: Path):
    for link in _links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", link):  # https:, mailto:
            continue
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.is_relative_to(ROOT), f"{page.name}: {link} leaves the repository"
        assert target.exists(), f"{page.name}: {link} names no file"
        if anchor:
            assert target.suffix == ".md", f"{page.name}: {link}"
            assert anchor in _anchors(target), f"{page.name}: {link} names no heading"


def test_links_are_checked():
    assert _slug("Chips as Ray actors") == "chips-as-ray-actors"
    assert _slug("PyTorch, through torch-mlir") == "pytorch-through-torch-mlir"
    assert _slug("Whole models: `spatial-generate --chips N`") == (
        "whole-models-spatial-generate---chips-n"
    )
    assert "docs/dialects.md" in _links(ROOT / "README.md")
