"""
Generating with a module exported from a Hugging Face causal LM (`torch_export`): one
function `@main(input_ids: 1 x L i64, [attention_mask: 1 x L i64,] weights...) -> 1 x
L x V` logits, its weights bound by name from an `.npz` (`Export.save_weights`).

Such a model has no KV cache: the window of L token positions is its cache. A step
writes its tokens into the window at their positions and runs `@main` over the whole
window; the rows of those positions are the step's logits. The positions after them
hold zeros (or an earlier step's nothing), which no row before them attends to (the
mask is causal), so each row is what the model gives for the tokens up to it, as
PyTorch's own run over just those tokens gives (`torch_export.greedy_eager`). The
mask, when the module takes one, is all ones.

```python
model = load_window_model("smollm2.gguf", text, "smollm2_hf.npz")   # the GGUF: config, tokenizer
run = generate(model, prompt, steps=16)                             # generation.generate
```

A prompt of p tokens and s steps need a window of at least p + s positions, and each
step costs a run over all L of them (the price of no cache).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import ml_dtypes
import numpy as np

from xdsl_spatial.frontends.generation import Model, Progress, check_arrays, lower_functions
from xdsl_spatial.frontends.model.architectures import read_config
from xdsl_spatial.frontends.model.config import ModelError
from xdsl_spatial.frontends.tokenizer import read_metadata
from xdsl_spatial.interpreters.options import DEFAULT, RunOptions

ENTRY = "main"
_MAIN = re.compile(
    r"func\.func @main\(%input_ids: tensor<1x(\d+)xi64>(, %attention_mask: tensor<1x\1xi64>)?"
)


def window_of(text: str) -> int | None:
    """The window (L) of a module `torch_export` wrote, read from its text before
    the seconds parsing takes; None for a module of another form."""
    m = _MAIN.search(text)
    return int(m.group(1)) if m else None


def load_weights(path: str | Path) -> dict[str, np.ndarray]:
    """The arrays of an `.npz` `Export.save_weights` wrote, by argument name (a bf16
    array is stored as its bits under `NAME.bf16`)."""
    try:
        with np.load(path) as f:
            out = {}
            for key in f.files:
                a = f[key]
                if key.endswith(".bf16"):
                    out[key[: -len(".bf16")]] = a.view(ml_dtypes.bfloat16)
                else:
                    out[key] = a
            return out
    except (OSError, ValueError) as e:
        raise ModelError(f"cannot read the module's weights {path}: {e}") from None


def _bind(fn: Any, n_inputs: int, arrays: dict[str, np.ndarray], where: str) -> list[np.ndarray]:
    """The weight arguments of `fn` (after its inputs) from `arrays`, by name."""
    from xdsl_spatial.interpreters.runner import argument_types

    out = []
    types = argument_types(fn)[n_inputs:]
    for arg, (shape, dtype) in zip(fn.body.block.args[n_inputs:], types):
        name = arg.name_hint
        if name is None or name not in arrays:
            raise ModelError(f"{where} has no array for the argument %{name}")
        a = arrays[name]
        if a.shape != shape or a.dtype != dtype:
            raise ModelError(
                f"{where}: %{name} is {a.dtype} {a.shape}, the module takes {dtype} {shape}"
            )
        out.append(np.ascontiguousarray(a))
    return out


@dataclass
class WindowModel(Model):
    """A model whose cache is its window of token positions (see the module docstring)."""

    mask: bool = False
    """`@main` takes an attention mask after the tokens."""

    def decode_entry(self) -> str:
        return ENTRY

    def check_weights(self) -> None:
        """That the weights are `@main`'s arguments after the tokens (and mask)."""
        from xdsl_spatial.interpreters.runner import find_function  # (a window model: IR)

        args = find_function(self.module, ENTRY).body.block.args
        want = [
            (shape, dtype, a.name_hint or f"argument {a.index}")
            for (shape, dtype), a in zip(self.signature(ENTRY), args)
        ]
        check_arrays("weight", self.weights, want[1 + self.mask :])

    def used(self, prompt_len: int, steps: int) -> list[str]:
        return [ENTRY]

    def plan(self, prompt_len: int) -> list[tuple[int, int]]:
        return [(0, prompt_len)]

    def new_caches(self) -> list[np.ndarray]:
        return [np.zeros((1, self.positions), np.int64)]

    def _step(
        self, tokens: Sequence[int], pos: int, caches: Sequence[np.ndarray]
    ) -> tuple[np.ndarray, list[np.ndarray], Any]:
        n = len(tokens)
        if not (n >= 1 and pos >= 0 and pos + n <= self.positions):
            raise ModelError(
                f"tokens at positions {pos}..{pos + n - 1} are outside the module's window "
                f"of {self.positions}"
            )
        window = caches[0].copy()
        window[0, pos : pos + n] = tokens
        inputs = [window]
        if self.mask:
            inputs.append(np.ones_like(window))
        r = self._run(ENTRY, inputs, [])
        return r.outputs[0][0, pos : pos + n], [window], r.traffic

    def prefill(self, tokens, pos, caches, donate=False):  # pyright: ignore[reportIncompatibleMethodOverride]
        return self._step(tokens, pos, caches)

    def decode(self, token, pos, caches, donate=False):  # pyright: ignore[reportIncompatibleMethodOverride]
        return self._step([token], pos, caches)


def load_window_model(
    path: str,
    text: str,
    weights: str | Path | list[np.ndarray],
    *,
    lower: bool = True,
    progress: Progress = lambda _: None,
    config: Any = None,
    options: RunOptions = DEFAULT,
) -> WindowModel:
    """The module `text` (`torch_export`'s form) with its weights (an `.npz`, or the
    arrays of a model of the same module) bound, lowered with `q8-lower{optimize=true}`
    unless `lower=False`; the GGUF file `path` gives the config and the tokenizer;
    `options` say how it runs (one chip: the module carries no split)."""
    from xdsl.dialects.builtin import TensorType

    from xdsl_spatial.core.ir_io import parse_module
    from xdsl_spatial.frontends.gguf_io import open_gguf
    from xdsl_spatial.interpreters.runner import find_function

    if options.chips > 1:
        raise ModelError("a given module runs on one chip (its products carry no split)")
    window = window_of(text)
    if window is None:
        raise ModelError(
            "not a Hugging Face module: it needs @main(%input_ids: tensor<1 x L x i64>, ...)"
        )
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    progress(f"reading {path}")
    reader = open_gguf(path)
    if config is None:
        config = read_config(reader, path)
    tokenizer = read_metadata(reader)
    seconds["read"] = time.perf_counter() - t0
    progress("parsing the module")
    t0 = time.perf_counter()
    module = parse_module(text, "<module>")
    seconds["parse"] = time.perf_counter() - t0
    fn = find_function(module, ENTRY)
    mask = len(fn.body.block.args) > 1 and fn.body.block.args[1].name_hint == "attention_mask"
    out = cast(TensorType[Any], fn.function_type.outputs.data[0]).get_shape()
    if tuple(out) != (1, window, config.vocab):
        raise ModelError(
            f"the module's logits are {'x'.join(map(str, out))}; the model's vocabulary "
            f"needs 1x{window}x{config.vocab}"
        )
    if not isinstance(weights, list):
        progress("binding the weights")
        t0 = time.perf_counter()
        weights = _bind(fn, 1 + mask, load_weights(weights), str(weights))
        seconds["bind"] = time.perf_counter() - t0
    done = lower_functions(module, None, False, seconds, progress) if lower else None
    model = WindowModel(
        config,
        module,
        weights,
        window,
        window,
        lower,
        options=options,
        tokenizer=tokenizer,
        seconds=seconds,
        mask=mask,
    )
    if done is not None:
        model.absorb(done)
    return model
