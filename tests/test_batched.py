"""Many sequences decoded together (`frontends/batched.py`, `spatial-generate --prompts`):
each sequence's logits equal, within the fp32 bound against the fp64 reference, to
decoding it alone; the whole batched step on the chip; sampling per sequence
reproducible; a sequence that ends stops while the others go on; the CLI's refusals."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from native_engine import needs_native
from test_llama import FACTOR, margin, reference_logits
from tiny_llama import write_tiny_llama
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType, i32
from xdsl.dialects.linalg.ops import GenericOp

from xdsl_spatial.dialects.spatial import ProgramOp
from xdsl_spatial.frontends import model_cache
from xdsl_spatial.frontends.batched import batched_model, generate_batch
from xdsl_spatial.frontends.generation import Model, Sampler, generate, load_model
from xdsl_spatial.frontends.gguf_io import open_gguf
from xdsl_spatial.frontends.llama import ModelError, read_config
from xdsl_spatial.frontends.model.config import BATCH_ENTRY
from xdsl_spatial.frontends.model.step import build_batched
from xdsl_spatial.interpreters.native.donate import updated_states
from xdsl_spatial.interpreters.options import Engine, RunOptions
from xdsl_spatial.interpreters.runner import find_function
from xdsl_spatial.tools import spatial_generate

PROMPTS = [[5, 6, 7], [9, 10, 11, 12, 13], [3], [40, 41, 42, 43, 44, 45, 46]]
"""Four prompts of different lengths: every sequence at a position of its own."""
STEPS = [6, 3, 8, 5]
CONTEXT = 32
"""A head's positions whole tiles of 32 rows, so the values' cache write lowers too."""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


@pytest.fixture(scope="module")
def model(tiny: Path) -> Model:
    return load_model(str(tiny), 4, CONTEXT)


def _engine(name: str, tiny: Path, weights: list[np.ndarray]) -> Model:
    if name == "native":
        needs_native()
    return load_model(str(tiny), 4, CONTEXT, weights=weights, options=RunOptions(Engine(name)))


def test_the_batched_step_is_lowered_whole(tiny):
    """Every product (one m = N product per weight) and every other op of
    `@decode_batch` lowered: nothing of the step is left on the host. Each cache's
    write of every sequence's row is a cache write (each row's window alone, at its
    own position), which the native engine makes where a donated cache lies."""
    c = read_config(open_gguf(str(tiny)), str(tiny))
    m = build_batched(c, 4, CONTEXT)
    fn = find_function(m, BATCH_ENTRY)
    args = fn.body.block.args
    assert [(a.name_hint, a.type) for a in args[:2]] == [
        ("tokens", TensorType(i32, [4])),
        ("pos", TensorType(i32, [4])),
    ]
    # each layer's caches written by one op each for all the sequences, no insert a row
    assert not any(isinstance(op, tensor.InsertSliceOp) for op in fn.walk())
    caches = [a for a in args if "cache" in (a.name_hint or "")]
    assert len(caches) == 2 * c.n_layer
    for a in caches:
        [use] = a.uses
        assert isinstance(use.operation, GenericOp) and use.operation.results[0].type == a.type
    lowered = load_model(str(tiny), 4, CONTEXT)
    b = batched_model(lowered, 4)
    assert b.lowered_count == len(c.products()) and not b.declined
    assert b.ops_lowered > 0 and not b.ops_declined
    assert b.host_ops == {BATCH_ENTRY: 0}
    assert b.module is not None
    low = find_function(b.module, BATCH_ENTRY)
    writes = [
        p.program_name.data
        for p in low.walk()
        if isinstance(p, ProgramOp) and p.program_name.data.startswith("cache_write")
    ]
    assert len(writes) == 2 * c.n_layer
    # attention's q . k and p . v sum only the keys a row sees (each reads the
    # positions), and are the chip's contractions still (bf16 factors), not reductions
    programs = {p.program_name.data for p in low.walk() if isinstance(p, ProgramOp)}
    assert not any(n.startswith("norm_sum") and "x64" in n for n in programs)
    contracts = [
        p
        for p in low.walk()
        if isinstance(p, ProgramOp) and p.program_name.data.startswith("attn_contract")
    ]
    assert len(contracts) == 2 * c.n_layer
    assert all(len(p.ins) == 3 for p in contracts)
    # every cache (after the tokens, the positions and the weights) updated in place
    first = len(low.body.block.args) - len(caches)
    assert updated_states(low) == tuple((1 + i, first + i) for i in range(len(caches)))


@pytest.mark.parametrize("engine", ["compiled", "native", "reference"])
def test_batched_decode_equals_each_sequence_alone(tiny, model, engine):
    """Sequence by sequence, the batched run's logits and the same sequence decoded
    alone (fed the batched run's tokens) are both within the fp32 bound of the fp64
    reference (the spread of perturbed fp64 copies: `test_llama.reference_logits`),
    so within twice the bound of each other; their greedy tokens agree wherever the
    margin is over four bounds."""
    m = _engine(engine, tiny, model.weights)
    batch = generate_batch(m, PROMPTS, STEPS)
    assert [len(r.tokens) for r in batch.runs] == [s + 1 for s in STEPS]
    assert len(batch.step_ms) == max(STEPS) and batch.decoded == sum(STEPS)
    checked = 0
    for r in batch.runs:
        alone = generate(m, r.prompt, len(r.tokens) - 1, forced=r.tokens[:-1])
        ref = reference_logits(str(tiny), m, r)
        exact = ref[0]
        bound = FACTOR * np.abs(ref[1:] - exact).max(axis=(0, 2))
        for run in (r, alone):
            assert np.all(np.abs(run.logits - exact).max(axis=1) <= bound)
        assert np.all(np.abs(r.logits - alone.logits).max(axis=1) <= 2 * bound)
        for i, (a, b) in enumerate(zip(r.tokens, alone.tokens, strict=True)):
            if margin(exact[i]) > 4 * bound[i]:
                checked += 1
                assert a == b
    assert checked >= 5  # (8 of the 26 tokens with the tiny model: the rest too close to call)


def test_sampling_is_per_sequence_and_reproducible(model):
    """Sequence i draws from its own Sampler seeded `seed + i`: its tokens are what
    that sampler draws from its own logits, and a second run gives the same tokens."""
    one = generate_batch(model, PROMPTS, 6, temperature=0.9, seed=11)
    two = generate_batch(model, PROMPTS, 6, temperature=0.9, seed=11)
    assert [r.tokens for r in one.runs] == [r.tokens for r in two.runs]
    assert one.seed == 11
    for i, r in enumerate(one.runs):
        s = Sampler(0.9, 40, 0.95, 11 + i)
        assert [s(row) for row in r.logits] == r.tokens
    other = generate_batch(model, PROMPTS, 6, temperature=0.9, seed=12)
    assert [r.tokens for r in other.runs] != [r.tokens for r in one.runs]


def test_a_sequence_that_ends_stops_while_the_others_go_on(model):
    """A stop token ends its sequence (the token kept, no step after it); the others
    decode on, their tokens and logits those of the run without the stop (each row
    of a step its own: only the summation order of a row may differ, and the rows'
    logits agree to well under a thousandth of their size)."""
    free = generate_batch(model, PROMPTS, 6)
    target = free.runs[1].tokens[2]
    ends = [next((k for k, t in enumerate(r.tokens) if t == target), None) for r in free.runs]
    ended: list[int] = []
    run = generate_batch(model, PROMPTS, 6, stop=[target], on_end=ended.append)
    for r, f, e in zip(run.runs, free.runs, ends, strict=True):
        if e is None:
            assert r.tokens == f.tokens and not r.stopped
        else:
            assert r.tokens == f.tokens[: e + 1] and r.stopped
            assert len(r.decode_ms) == e
        scale = np.abs(f.logits).max()
        assert np.abs(r.logits - f.logits[: len(r.tokens)]).max() <= 1e-3 * scale
    assert sorted(ended) == list(range(len(PROMPTS)))
    assert ended[0] == 1 or ends[ended[0]] is not None  # the stopped one ends first
    assert len(run.step_ms) == 6  # the others went on to their steps


def test_a_kept_model_keeps_its_batched_model(tiny, tmp_path):
    """With the disk cache, a run of N sequences keeps `@decode_batch` for N beside the
    model (its executable; not the weights, which are the model's); the next load's run
    of N sequences reads it back (nothing built, lowered or compiled) and decodes the
    same bits (the same code on the same inputs); another N builds its own."""
    where = tmp_path / "cache"
    model = load_model(str(tiny), 4, CONTEXT, options=RunOptions(cache=where))
    first = generate_batch(model, PROMPTS, STEPS)
    assert not first.model.cached and "lower" in first.model.seconds
    kept = sorted(p.name for p in where.glob("*.model"))
    assert len(kept) == 2
    again = load_model(str(tiny), 4, CONTEXT, options=RunOptions(cache=where))
    assert again.cached and again.kept_as == model.kept_as
    second = generate_batch(again, PROMPTS, STEPS)
    b = second.model
    assert b.cached and b.module is None and set(b.seconds) == {"cache"}
    assert b.weights is again.weights and b.lowered_count == first.model.lowered_count
    assert sorted(p.name for p in where.glob("*.model")) == kept  # nothing written again
    for one, two in zip(first.runs, second.runs, strict=True):
        assert one.tokens == two.tokens and one.logits.tobytes() == two.logits.tobytes()
    entry = model_cache.load(where, b.kept_as or "", Model)
    assert isinstance(entry, Model) and entry.weights == [] and entry.entries == (BATCH_ENTRY,)
    third = generate_batch(again, PROMPTS[:3], STEPS[:3])
    assert not third.model.cached and len(list(where.glob("*.model"))) == 3


def test_generate_batch_refuses_bad_input(model):
    with pytest.raises(ModelError, match="no prompt"):
        generate_batch(model, [], 4)
    with pytest.raises(ModelError, match="the prompt has no token"):
        generate_batch(model, [[1], []], 4)
    with pytest.raises(ModelError, match="need 41 positions"):
        generate_batch(model, [[1], [2]], 40)
    with pytest.raises(ModelError, match="2 step counts for 3 prompts"):
        generate_batch(model, [[1], [2], [3]], [1, 2])


# --------------------------------------------------------------------------------------
# spatial-generate --prompts
# --------------------------------------------------------------------------------------


def _cli(tiny: Path, *args: str) -> int:
    return spatial_generate.main(
        [str(tiny), "--context", str(CONTEXT), "--batch", "4", "--no-cache", *args]
    )


def test_cli_generates_each_line_and_writes_a_file_each(tiny, tmp_path, capsys):
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("hello there\nab\nthe quick brown fox\n")
    out = tmp_path / "out"
    out.mkdir()
    args = ["--prompts", str(prompts), "--steps", "4", "--output-dir", str(out), "--stats"]
    assert _cli(tiny, *args) == 0
    cap = capsys.readouterr()
    # --stats: the chip's rate of a step of 3 sequences, per user and in total
    assert "tokens a second in total" in cap.out and "per user (3 users)" in cap.out
    assert re.search(r"measured: [\d.]+ tokens a second in total, [\d.]+ per user \(3 seq", cap.out)
    for k, line in enumerate(["hello there", "ab", "the quick brown fox"], 1):
        assert f"[line {k}] {line}" in cap.out
        text = (out / f"line-{k}.txt").read_text()
        assert text.startswith(line) and text in cap.out
    assert "line 3: 5 tokens (its steps ran out)" in cap.out
    assert "eval time        = " in cap.err
    assert "/    12 tokens" in cap.err and "3 sequences in 4 steps" in cap.err
    assert "tokens per second per user" in cap.err


def test_cli_with_one_line_draws_what_one_prompt_draws(tiny, tmp_path, capsys):
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("hello\n")
    sampling = ["--steps", "5", "--temperature", "0.8", "--seed", "7"]
    assert _cli(tiny, "--prompts", str(prompts), *sampling) == 0
    batch = capsys.readouterr().out
    assert _cli(tiny, "--prompt", "hello", *sampling) == 0
    one = capsys.readouterr().out
    ids = next(x for x in one.splitlines() if x.startswith("generated ids: "))
    assert f"line 1: 6 tokens (its steps ran out): {ids.split(': ')[1]}" in batch


def test_cli_reads_the_batched_model_from_the_cache(tiny, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDSL_SPATIAL_CACHE", str(tmp_path / "cache"))
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("hello there\nab\n")
    args = [str(tiny), "--context", str(CONTEXT), "--batch", "4", "--prompts", str(prompts)]
    assert spatial_generate.main([*args, "--steps", "3"]) == 0
    cold = capsys.readouterr()
    assert "sequences: built and lowered)" in cold.err
    assert spatial_generate.main([*args, "--steps", "3"]) == 0
    warm = capsys.readouterr()
    assert "@decode_batch for 2 sequences: read from the cache)" in warm.err
    assert "lowered in" in warm.out and "(when the cached model was built)" in warm.out
    assert [x for x in warm.out.splitlines() if x.startswith("line ")] == [
        x for x in cold.out.splitlines() if x.startswith("line ")
    ]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "the file has no prompt"),
        ("one\n\nthree\n", "line 2 is blank"),
        ("one\n   \n", "line 2 is blank"),
        ("x\n" * 33, "a batched step takes 1 to 32 sequences, got 33"),
    ],
)
def test_cli_refuses_an_empty_file_or_a_blank_line(tiny, tmp_path, capsys, text, error):
    prompts = tmp_path / "prompts.txt"
    prompts.write_text(text)
    assert _cli(tiny, "--prompts", str(prompts)) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--prompts {prompts}: {error}" in err


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--prompt", "hi"], "argument --prompt: not allowed with argument --prompts"),
        (["--compare"], "--compare runs one prompt"),
        (["--chips", "2"], "drop --chips"),
    ],
)
def test_cli_refuses_options_that_do_not_go_with_prompts(tiny, tmp_path, capsys, args, error):
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("one\n")
    assert _cli(tiny, "--prompts", str(prompts), *args) == 2
    assert error in capsys.readouterr().err


def test_cli_output_dir_needs_prompts_and_a_failed_run_writes_nothing(tiny, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    assert _cli(tiny, "--prompt", "hi", "--output-dir", str(out)) == 2
    assert "--output-dir writes a file a prompt of --prompts" in capsys.readouterr().err
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("one\ntwo\n")
    (out / "line-1.txt").write_text("kept")
    # too many steps for the cache: refused before anything is written
    assert _cli(tiny, "--prompts", str(prompts), "--steps", "40", "--output-dir", str(out)) == 1
    assert "--prompts line 1: 3 prompt tokens and 40 steps" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["line-1.txt"]
    assert (out / "line-1.txt").read_text() == "kept"
