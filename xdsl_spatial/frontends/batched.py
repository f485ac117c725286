"""
Many sequences decoded together, as llama.cpp's batched tools do: each prompt is read
alone into a cache of its own (`generation.read_prompt`), then every decode step is
one call of `@decode_batch` (`model.step.build_batched`) over all N sequences: each
weight product one m = N product, so a step moves each weight once for all of them
(decoding is bound by the weights it moves).

```python
model = load_model("model.gguf", batch=32, positions=256, requantize=True)
runs = generate_batch(model, [prompt_a, prompt_b], steps=16, seed=1, temperature=0.7)
print([r.tokens for r in runs.runs], runs.tokens_per_second)
```

The caches are one batched tensor per layer and kind (`batched_cache_shapes`: a
leading dim of N, row r sequence r's cache), not N caches: the step's attention reads
row r's keys through one indexing map, and each layer writes all N rows' keys (and
values) with one map a cache, row r's at the sequence's own position (`step.py`'s
`_write_rows`), which `spatial-lower-ops` lowers as a cache write of every row (each
row's window of tiles alone, where a donated cache lies). Each sequence has its own
position and attends causally to its own positions only.

A sequence that ends (a stop token, NaN logits, or its steps run out) stops while the
others go on: its row of the step idles (its last token fed again at its last
position, its logits dropped) until every sequence has ended, so a step costs the
same whichever are left. Sampling is per sequence: sequence i draws from its own
`Sampler` seeded with `seed + i` (so a batch of one draws what `generate` does with
`seed`).

The batched function is built, lowered (as `load_model` lowers: `q8-lower`, then
`spatial-lower-ops` when the model's whole step is lowered) and compiled when a model
first decodes N sequences together (`batched_model`). A model kept in the disk cache
keeps its batched model for N sequences there too, once a run has compiled it
(`generate_batch`; the entry holds its executable, not the weights, which are the
model's): a second run of N sequences reads it back instead of building, lowering
and compiling it again.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from xdsl_spatial.core.memory import collector_frozen, collector_paused
from xdsl_spatial.core.progress import Progress, quiet
from xdsl_spatial.frontends import model_cache
from xdsl_spatial.frontends.generation import (
    Generation,
    Model,
    check_prompt,
    lower_functions,
    read_prompt,
    step_bytes,
    used_entries,
)
from xdsl_spatial.frontends.model.config import BATCH_ENTRY, ModelError
from xdsl_spatial.frontends.sampling import Sampler, has_nan
from xdsl_spatial.interpreters.options import Distribution


def batched_model(model: Model, sequences: int, progress: Progress = quiet) -> Model:
    """A model of the same weights whose one function is `@decode_batch` for
    `sequences` sequences, lowered as `model` is."""
    if model.options.chips > 1 or model.options.distributed is not Distribution.LOCAL:
        raise ModelError("sequences decode together on one chip of this host (--chips 1)")
    where, key = model.options.cache_dir, None
    if where is not None and model.kept_as is not None:
        key = model_cache.batched_key(model.kept_as, BATCH_ENTRY, sequences)
        progress(f"reading @{BATCH_ENTRY} for {sequences} sequences from the cache")
        t0 = time.perf_counter()
        kept = model_cache.load(where, key, Model)
        if isinstance(kept, Model):
            seconds = {"cache": time.perf_counter() - t0}
            return dataclasses.replace(
                kept, weights=model.weights, options=model.options, seconds=seconds, kept_as=key
            )
    from xdsl_spatial.frontends.model.step import build_batched

    progress(f"building @{BATCH_ENTRY} for {sequences} sequences")
    t0 = time.perf_counter()
    with collector_paused():
        module = build_batched(model.config, sequences, model.positions)
    seconds = {"build": time.perf_counter() - t0}
    done = None
    if model.lowered:
        done = lower_functions(module, None, model.whole_step, seconds, progress, f"@{BATCH_ENTRY}")
    batched = dataclasses.replace(
        model,
        module=module,
        batch=sequences,
        decisions=[],
        lower_s=0.0,
        executables={},
        signatures={},
        compiling={},
        unlowered=(),
        keep_in=None if where is None or key is None else (where, key),
        kept_as=key,
        entries=(BATCH_ENTRY,),
        cached=False,
        seconds=seconds,
        lowered_count=0,
        declined=[],
        ops_lowered=0,
        ops_declined=[],
        host_ops={},
    )
    if done is not None:
        batched.absorb(done)
    return batched


@dataclass
class BatchRun:
    """Sequences generated together."""

    runs: list[Generation]
    """Each sequence's generation, in the prompts' order (its `decode_ms` the steps it
    took part in)."""
    step_ms: list[float]
    """Each batched step's time (every sequence's token of that step)."""
    sequences: int
    """N: the rows of every step."""
    model: Model
    """The batched model (`batched_model`): its function, lowering and compile times."""
    seed: int
    """Sequence i's sampler's seed is `seed + i`."""

    @property
    def decoded(self) -> int:
        """Tokens the decode steps gave, every sequence's."""
        return sum(len(r.decode_ms) for r in self.runs)

    @property
    def decode_s(self) -> float:
        return sum(self.step_ms) / 1e3

    @property
    def tokens_per_second(self) -> float:
        """All the sequences' decoded tokens a second of the batched steps."""
        return self.decoded / self.decode_s if self.step_ms else 0.0

    @property
    def per_user(self) -> float:
        """Tokens a second each sequence sees: one a step while it runs."""
        return 1e3 * len(self.step_ms) / sum(self.step_ms) if self.step_ms else 0.0


TokenSink = Callable[[int, int], None]
"""Told (sequence, token) as each token is chosen."""


def reading_entries(batch: int, positions: int, prompts: Sequence[Sequence[int]]) -> list[str]:
    """The functions reading each of `prompts` alone calls (`read_prompt`, before they
    decode together) in a model with a `@prefill` of `batch` tokens and a cache of
    `positions`."""
    called = (used_entries(batch, positions, len(p), 0) for p in prompts)
    return list(dict.fromkeys(e for entries in called for e in entries))


def generate_batch(
    model: Model,
    prompts: Sequence[Sequence[int]],
    steps: int | Sequence[int],
    *,
    temperature: float = 0.0,
    top_k: int = 40,
    top_p: float = 0.95,
    seed: int | None = None,
    stop: Sequence[int] = (),
    on_token: TokenSink | None = None,
    on_end: Callable[[int], None] | None = None,
    progress: Progress = quiet,
    batched: Model | None = None,
    forced: Sequence[Sequence[int]] | None = None,
) -> BatchRun:
    """Read each of `prompts` alone, then decode them together, up to `steps` decode
    steps each (one number for all, or one a prompt): every token chosen by the
    sequence's own `Sampler` (`seed + i`; None: drawn once, then the same), handed to
    `on_token(i, token)` as it comes, `on_end(i)` told when sequence i ends. `batched`
    is a `batched_model` of `model` for this many sequences to reuse (else one is
    made). With `forced`, sequence i feeds `forced[i]` to its steps (each its own
    choice still recorded), as `generate` does."""
    n = len(prompts)
    if n == 0:
        raise ModelError("no prompt to generate from")
    limits = [steps] * n if isinstance(steps, int) else list(steps)
    if len(limits) != n:
        raise ModelError(f"{len(limits)} step counts for {n} prompts")
    for p, s in zip(prompts, limits, strict=True):
        check_prompt(model.config, p, s, model.positions)
    base = Sampler(temperature, top_k, top_p, seed)
    samplers = [Sampler(temperature, top_k, top_p, (base.seed or 0) + i) for i in range(n)]
    if batched is None:
        batched = batched_model(model, n, progress)
    elif batched.batch != n or batched.entries != (BATCH_ENTRY,):
        raise ModelError(f"the batched model decodes {batched.batch} sequences, not {n}")
    if model.options.compiles:  # compiled before the clocks start, as `generate` does
        entries = reading_entries(model.batch, model.positions, prompts)
        model.start(entries, progress)
        batched.start([BATCH_ENTRY], progress)
        for entry in entries:
            model.compile(entry, progress)
    reads = [read_prompt(model, p, progress) for p in prompts]
    caches = [np.stack(c) for c in zip(*(r[1] for r in reads), strict=True)]
    tokens: list[list[int]] = [[] for _ in range(n)]
    rows: list[list[np.ndarray]] = [[] for _ in range(n)]
    times: list[list[float]] = [[] for _ in range(n)]
    ended = [False] * n
    nan = [False] * n
    pos = np.array([len(p) - 1 for p in prompts], np.int32)  # the last written
    feed = np.array([p[-1] for p in prompts], np.int32)

    def choose(i: int, row: np.ndarray) -> None:
        """Sequence i's next token from `row`, or its end."""
        if has_nan(row, len(tokens[i])):
            ended[i] = nan[i] = True
        else:
            rows[i].append(row)
            tokens[i].append(samplers[i](row))
            if on_token is not None:
                on_token(i, tokens[i][-1])
            s = len(tokens[i]) - 1
            if (forced is None and tokens[i][-1] in stop) or s == limits[i]:
                ended[i] = True
            else:
                feed[i] = tokens[i][-1] if forced is None else forced[i][s]
        if ended[i] and on_end is not None:
            on_end(i)

    for i, r in enumerate(reads):
        choose(i, r[0][-1])
    step_ms: list[float] = []
    first: Any = None
    moved = None
    if not all(ended):
        batched.compile(BATCH_ENTRY, progress)
    with collector_frozen():
        while not all(ended):
            live = [i for i in range(n) if not ended[i]]
            pos[live] += 1
            progress(f"decode step {len(step_ms) + 1}: {len(live)} of {n} sequences")
            t0 = time.perf_counter()
            out, caches, traffic = batched.decode_batch(feed, pos, caches, donate=True)
            ms = (time.perf_counter() - t0) * 1e3
            step_ms.append(ms)
            if first is None:
                first = traffic
                moved = step_bytes(traffic) if model.lowered else None
            for i in live:
                times[i].append(ms)
                choose(i, out[i])
    batched.keep(progress)  # (a model kept in the disk cache: its batched model too)
    runs = []
    for i, (p, rd) in enumerate(zip(prompts, reads, strict=True)):
        logits = np.stack(rows[i]) if rows[i] else np.zeros((0, model.config.vocab), np.float32)
        stopped = nan[i] or (forced is None and bool(tokens[i]) and tokens[i][-1] in stop)
        runs.append(
            Generation(
                list(p),
                tokens[i],
                logits,
                rd[2],
                len(model.plan(len(p))),
                times[i],
                moved,
                rd[0],
                first if first is not None else rd[3],
                stopped,
                nan[i],
            )
        )
    return BatchRun(runs, step_ms, n, batched, base.seed or 0)
