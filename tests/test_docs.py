"""
docs/*.md as a reader meets them: every shell block runs as written and every sample of
a command's output (`<!-- output of: COMMAND -->`) is what the command prints, by the
README's rules (`test_readme.py`: the conventions `exit code N` and `not run: WHY`,
what is left out, how a sample is compared). Python blocks in docs/ are sketches of
the API beside the prose (`module`, `x`, `q`, `s` stand for the reader's own values)
and are not run; the README's are.
"""

from __future__ import annotations

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

DOCS = sorted((Path(__file__).resolve().parents[1] / "docs").glob("*.md"))
BLOCKS = [(doc, b) for doc in DOCS for b in blocks(doc)]
SHELL = [(doc, b) for doc, b in BLOCKS if b.lang == "sh" and shell_script(b) is not None]
SAMPLES = [(doc, b) for doc, b in BLOCKS if b.output_of is not None]


def _id(item: tuple[Path, Block]) -> str:
    return f"{item[0].stem}:{item[1].line}"


def test_the_docs_have_commands_and_samples():
    assert len(SHELL) >= 8 and len(SAMPLES) >= 3
    assert all(b.lang in {"sh", "python", "mlir", "text", ""} for _, b in BLOCKS)


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
