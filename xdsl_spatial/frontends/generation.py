"""
Generating with a llama GGUF checkpoint on the simulated chip: the model emitted by
`xdsl_spatial.frontends.llama`, lowered with `q8-lower` (or not), its weights bound from the
file, each function compiled once by the compiled engine and called step by step.

```python
model = load_model("model.gguf", prompt_len=5, positions=64, requantize=True)
run = generate(model, [504, 3575, 282, 4649, 314], steps=16)
print(run.tokens, run.decode_ms, run.step_bytes)
```

The prefill's logits give the first generated token; each decode step feeds the last
token at the next position and gives one more, greedily (the largest logit, the
lowest id on a tie).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from xdsl_spatial.dialects.q8 import stored_part
from xdsl_spatial.frontends.llama import (
    MAX_PREFILL,
    LlamaConfig,
    ModelError,
    emit_model,
    read_config,
    weight_args,
)

Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


@dataclass
class StepBytes:
    """What the folds of one step moved: weights (int8 values and scales, whole tiles)
    and view reads, over the weights' elements."""

    weight: int
    view: int
    weight_elems: int
    programs: int

    @property
    def total(self) -> int:
        return self.weight + self.view

    @property
    def per_weight(self) -> float:
        return self.total / self.weight_elems if self.weight_elems else 0.0


def step_bytes(traffic: Any) -> StepBytes:
    """The folds' loads in one execution's traffic."""
    weight = view = elems = n = 0
    for p in traffic.programs:
        if not p.weight_elems:
            continue
        n += 1
        elems += p.weight_elems
        for tensor, b in p.loaded.items():
            if stored_part(tensor) is not None:
                weight += b
            else:
                view += b
    return StepBytes(weight, view, elems, n)


@dataclass
class Model:
    """An emitted (and possibly lowered) model with its weights bound."""

    config: LlamaConfig
    module: Any
    weights: list[np.ndarray]
    """The weight arguments in the functions' order (after the token and position)."""
    prompt_len: int
    positions: int
    lowered: bool
    decisions: list[Any] = field(default_factory=list)
    """What `q8-lower` did with each product (empty when not lowered)."""
    lower_s: float = 0.0
    chips: int = 1
    """The chips every product is split over (1: one chip)."""
    distributed: str = "local"
    """`ray`: each chip's programs in a Ray actor holding its weight shards."""
    address: str | None = None
    """With `ray`: the cluster to join (None: a local instance)."""
    executables: dict[str, Any] = field(default_factory=dict)
    """Each function compiled once, when first called (on Ray: its chips made then,
    with the weights)."""

    def _run(self, entry: str, args: list[Any]) -> Any:
        """One call of the function `entry`: the one place a step reaches the engine."""
        from xdsl_spatial.interpreters.runner import call, compile_module, distribute, find_function

        exe = self.executables.get(entry)
        if self.distributed == "ray":
            if exe is None:
                exe = self.executables[entry] = distribute(
                    self.module, entry, args, address=self.address
                )
            return exe.call(args)
        if exe is None:
            exe = self.executables[entry] = compile_module(self.module, entry)
        return call(exe, find_function(self.module, entry), args)

    def close(self) -> None:
        """End the chips' Ray actors, if any."""
        for exe in self.executables.values():
            if hasattr(exe, "close"):
                exe.close()
        self.executables.clear()

    def prefill(self, tokens: Sequence[int]) -> tuple[np.ndarray, list[np.ndarray], Any]:
        if len(tokens) != self.prompt_len:
            raise ModelError(
                f"the module's prefill takes {self.prompt_len} tokens, got {len(tokens)}"
            )
        r = self._run("prefill", [np.asarray(tokens, np.int32), *self.weights])
        return r.outputs[0], list(r.outputs[1:]), r.traffic

    def decode(
        self, token: int, pos: int, caches: Sequence[np.ndarray]
    ) -> tuple[np.ndarray, list[np.ndarray], Any]:
        if not 0 <= pos < self.positions:
            raise ModelError(f"position {pos} is outside the cache's {self.positions} positions")
        args = [np.array([token], np.int32), np.array([pos], np.int32), *self.weights, *caches]
        r = self._run("decode", args)
        return r.outputs[0], list(r.outputs[1:]), r.traffic


def bind_model(
    reader: Any,
    path: str,
    config: LlamaConfig,
    *,
    requantize: bool = False,
    on_requantize: Callable[[Any], None] | None = None,
) -> list[np.ndarray]:
    """Arrays for the functions' weight arguments (`weight_args`), read from the file:
    Q8_0 parts by `bind_weights` (repacked exactly, or re-quantised when asked), norm
    weights as f32 (F16 and BF16 ones widen exactly), none of them a view of the file."""
    from gguf import GGMLQuantizationType
    from gguf.quants import dequantize

    from xdsl_spatial.frontends.gguf_io import GGUFError, bind_weights

    args = weight_args(config)
    dtypes = {"i8": np.int8, "f16": np.float16, "f32": np.float32}
    wanted = {n: (shape, dtypes[e]) for n, shape, e in args if stored_part(n) is not None}
    bound = bind_weights(reader, wanted, requantize=requantize, on_requantize=on_requantize)
    by_name = {t.name: t for t in reader.tensors}
    plain = (GGMLQuantizationType.F32, GGMLQuantizationType.F16, GGMLQuantizationType.BF16)
    for name, shape, _ in args:
        if name in bound:
            continue
        t = by_name.get(name)
        if t is None:
            raise GGUFError(f"{path}: no tensor {name} in the file")
        if t.tensor_type not in plain:
            raise GGUFError(
                f"{path}: tensor {name} is {t.tensor_type.name}; a norm weight must be F32, F16 or BF16"
            )
        data = np.asarray(t.data)
        v = data if t.tensor_type == GGMLQuantizationType.F32 else dequantize(data, t.tensor_type)
        # A copy: a view would keep the whole file mapped (and its read pages resident).
        bound[name] = np.array(v, np.float32).reshape(shape)
    return [bound[n] for n, _, _ in args]


def load_model(
    path: str,
    prompt_len: int,
    positions: int,
    *,
    lower: bool = True,
    requantize: bool = False,
    on_requantize: Callable[[Any], None] | None = None,
    progress: Progress = _quiet,
    reader: Any = None,
    config: LlamaConfig | None = None,
    weights: list[np.ndarray] | None = None,
    chips: int = 1,
) -> Model:
    """Read, bind, emit, parse and lower (unless `lower=False`) the model of the GGUF
    file `path` for a prompt of `prompt_len` tokens and a cache of `positions`, every
    product split over `chips` chips (`llama.ROW_SPLIT`). An open `reader`, and the
    `config` and bound `weights` of a model of the same file, are reused. The file is
    read (and its reader, which holds all its metadata, let go) before the module is
    built."""
    from xdsl_spatial.core.ir_io import parse_module
    from xdsl_spatial.passes.q8_lower import lower_q8

    if config is None or weights is None:
        if reader is None:
            from xdsl_spatial.frontends.gguf_io import open_gguf

            progress(f"reading {path}")
            reader = open_gguf(path)
        if config is None:
            config = read_config(reader, str(path))
        if chips > 1:
            config.check_chips(chips)  # before the seconds that binding takes
        if weights is None:
            progress("binding the weights")
            weights = bind_model(
                reader, str(path), config, requantize=requantize, on_requantize=on_requantize
            )
    reader = None
    text = emit_model(config, prompt_len, positions, source=str(path), chips=chips)
    progress(f"parsing the model ({config.n_layer} layers, {len(config.products())} products)")
    module = parse_module(text, str(path))
    decisions: list[Any] = []
    lower_s = 0.0
    if lower:
        progress("lowering with q8-lower{optimize=true}")
        t0 = time.perf_counter()
        decisions = lower_q8(module, optimize=True)
        lower_s = time.perf_counter() - t0
    return Model(config, module, weights, prompt_len, positions, lower, decisions, lower_s, chips)


def greedy(logits: np.ndarray) -> int:
    """The largest logit's id (the lowest id on a tie)."""
    return int(np.argmax(logits))


@dataclass
class Generation:
    prompt: list[int]
    tokens: list[int]
    """The generated ids: the prefill's, then one per decode step."""
    logits: np.ndarray
    """One row per generated token: the logits it was chosen from."""
    prefill_ms: float
    decode_ms: list[float]
    step_bytes: StepBytes | None
    """What one decode step's folds moved (None when nothing was lowered)."""
    prompt_logits: np.ndarray
    """The prefill's logits for every prompt position."""
    traffic: Any
    """What the programs of the first decode step (the prefill, with no step) moved."""


def generate(
    model: Model,
    prompt: Sequence[int],
    steps: int,
    *,
    progress: Progress = _quiet,
    forced: Sequence[int] | None = None,
) -> Generation:
    """Prefill `prompt`, then `steps` greedy decode steps. With `forced`, the tokens fed
    to the decode steps are those (the same tokens for two runs to compare), and the
    generated ids are still each step's own greedy choice."""
    c = model.config
    if not 1 <= len(prompt) <= MAX_PREFILL:
        raise ModelError(f"a prompt of {len(prompt)} tokens: the prefill takes 1 to {MAX_PREFILL}")
    if len(prompt) + steps > model.positions:
        raise ModelError(
            f"{len(prompt)} prompt tokens and {steps} steps need {len(prompt) + steps} positions; "
            f"the cache has {model.positions} (--context)"
        )
    bad = [t for t in prompt if not 0 <= t < c.vocab]
    if bad:
        raise ModelError(f"token {bad[0]} is outside the vocabulary (0..{c.vocab - 1})")
    progress(f"prefill of {len(prompt)} tokens")
    t0 = time.perf_counter()
    logits, caches, first = model.prefill(prompt)
    prefill_ms = (time.perf_counter() - t0) * 1e3
    rows = [logits[-1]]
    tokens = [greedy(logits[-1])]
    times: list[float] = []
    moved: StepBytes | None = None
    for s in range(steps):
        feed = tokens[-1] if forced is None else forced[s]
        progress(f"decode step {s + 1}/{steps}")
        t0 = time.perf_counter()
        out, caches, traffic = model.decode(feed, len(prompt) + s, caches)
        times.append((time.perf_counter() - t0) * 1e3)
        if s == 0:
            first = traffic
            moved = step_bytes(traffic) if model.lowered else None
        rows.append(out[0])
        tokens.append(greedy(out[0]))
    return Generation(list(prompt), tokens, np.stack(rows), prefill_ms, times, moved, logits, first)
