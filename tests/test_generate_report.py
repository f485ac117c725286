"""
What `spatial-generate` says, and where (docs/model.md): NaN logits warned once and the
generation stopped there; a temperature that is not a finite number refused; the text
and the `generated text:` line without special tokens (`<|im_end|>`), as llama-cli
prints a generation; llama-cli's closing lines on stderr; "first token ... after the
start" counted from the process's start, its imports included.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from gguf import GGUFReader
from tiny_llama import VOCAB, write_tiny_llama

from xdsl_spatial.frontends.generation import Sampler, generate, load_model
from xdsl_spatial.frontends.llama import ModelError
from xdsl_spatial.tools import launch, spatial_generate

END = VOCAB - 1
"""The tiny vocabulary's control token `<|end|>`, its end of text with `eos=True`."""


def _patched(path: Path, patch) -> Path:
    """`path` with `patch(tensors by name)` applied to its tensors' bytes in place."""
    reader = GGUFReader(str(path), "r+")
    patch({t.name: t.data for t in reader.tensors})
    del reader
    return path


@pytest.fixture(scope="module")
def ends_at_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny model whose greedy second token after the prompt 5,6 is `<|end|>`: its
    embedding (the LM head's row) is token 6's, its scales 50 times larger, so its
    logit is 50 times token 6's, which the last position's residual stream holds."""
    path = write_tiny_llama(tmp_path_factory.mktemp("end") / "end.gguf", eos=True)

    def patch(t):
        emb = t["token_embd.weight"]
        emb[END] = emb[6]
        blocks = emb[END].reshape(-1, 34)
        scales = blocks[:, :2].copy().view(np.float16) * 50
        blocks[:, :2] = scales.view(np.uint8)

    return _patched(path, patch)


def test_special_tokens_are_not_printed(ends_at_once, capsys):
    argv = [str(ends_at_once), "--tokens", "5,6", "--steps", "3", "--no-lower", "--no-cache"]
    assert spatial_generate.main(argv) == 0
    out = capsys.readouterr().out
    ids = next(ln for ln in out.splitlines() if ln.startswith("generated ids: "))
    assert ids.split(": ")[1].split(",")[-1] == str(END)  # it ended with <|end|>
    assert "<|end|>" not in out
    text = next(ln for ln in out.splitlines() if ln.startswith("generated text: "))
    assert text == f"generated text: {out.splitlines()[0][2:]!r}"  # what was streamed


@pytest.fixture(scope="module")
def nan_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny model whose final norm holds a NaN: every logit is NaN."""
    path = write_tiny_llama(tmp_path_factory.mktemp("nan") / "nan.gguf")

    def patch(t):
        t["output_norm.weight"][3] = np.nan

    return _patched(path, patch)


def test_nan_logits_are_warned_once_and_stop_the_generation(nan_model):
    model = load_model(str(nan_model), 3, 24, lower=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = generate(model, [5, 6], 8)
    assert [str(w.message) for w in caught] == [
        "the logits of generated token 0 hold NaN (320 of 320): the model's numbers are lost "
        "(a damaged weight, or an overflow); the generation stops there"
    ]
    assert run.tokens == [] and run.nan and run.stopped and run.logits.shape == (0, VOCAB)
    assert run.decode_ms == []


def test_nan_logits_in_the_tool_are_one_warning(nan_model, capsys):
    argv = [str(nan_model), "--tokens", "5,6", "--steps", "4", "--compare", "--no-cache"]
    assert spatial_generate.main(argv) == 0
    captured = capsys.readouterr()
    assert captured.err.count("warning: the logits of generated token 0 hold NaN") == 1
    assert "lowered ids: \n" in captured.out


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "1e400"])
def test_the_temperature_is_a_finite_number(value, capsys):
    argv = ["model.gguf", "--tokens", "5", "--temperature", value]
    assert spatial_generate.main(argv) == 2
    assert "argument --temperature: expected a finite number >= 0" in capsys.readouterr().err
    with pytest.raises(ModelError, match="finite temperature"):
        Sampler(temperature=float(value))


def test_first_token_counts_from_the_process_s_start(tmp_path, capsys, monkeypatch):
    """As if the console script's process had started 100 s before the tool's main:
    the first token (and the load) are counted from then."""
    path = write_tiny_llama(tmp_path / "tiny.gguf")
    monkeypatch.setattr(launch, "_started", time.perf_counter() - 100)
    argv = [str(path), "--tokens", "5,6", "--steps", "1", "--no-lower", "--no-cache"]
    assert spatial_generate.main(argv) == 0
    err = capsys.readouterr().err
    first = next(ln for ln in err.splitlines() if "first token" in ln)
    load = next(ln for ln in err.splitlines() if "load time" in ln)
    assert float(first.split("=")[1].split("ms")[0]) >= 100_000
    assert float(load.split("=")[1].split("ms")[0]) >= 100_000
