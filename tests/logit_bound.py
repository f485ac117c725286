"""
The bound B on a step's logits and the rule for comparing greedy tokens with llama.cpp,
in one place for the tests and `benchmarks/compare_llama_cpp.py`.

B (derived in `tests/test_llama.py`'s docstring): the fp64 reference
(`tests/llama_reference.py`) runs SAMPLES more copies of each step with every product
input perturbed as bf16 rounding perturbs it at most, and B = FACTOR x the largest
deviation of a copy's logits from the exact ones, per step.

llama.cpp's rule: llama.cpp rounds as well (Q8_0 activations, an f16 cache, an f16
GELU table), so its logits are one more draw of rounding around the fp64 ones. Its
greedy token must be ours wherever its top-1/top-2 margin is LLAMA_CPP_MARGIN or more
and at least twice the step's B; a closer margin could flip under either side's
rounding and says nothing.

llama.cpp on the same weights dequantised to f32 (`write_f32_gguf`) with an f32 cache
rounds nothing beyond fp32 but its GELU (gemma3's), whose input and result it rounds to
f16 (a table): u = 2^-11 at the FFN's points alone, against the 2^-8 at every product
input B is measured with. By the same linearisation its logits lie within F32_SHARE x B of the
fp64 ones, and its greedy token is fp64's wherever fp64's margin exceeds twice that: a
check of the architecture's graph against llama.cpp's own, with its rounding taken out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from llama_reference import Reference

from xdsl_spatial.frontends.generation import Generation, Model
from xdsl_spatial.frontends.gguf_io import open_gguf
from xdsl_spatial.frontends.llama import weight_args

SAMPLES = 12
"""Perturbed copies of the reference per step."""
FACTOR = 2.0
"""B over the largest deviation of a perturbed copy."""
LLAMA_CPP_MARGIN = 0.5
"""The least llama.cpp top-1/top-2 margin (logits) at which its token must be ours."""
F32_SHARE = 2.0**-11 / 2.0**-8
"""llama.cpp's bound on f32 weights as a share of B (the module's docstring)."""


def weights_by_name(model: Model) -> dict[str, np.ndarray]:
    names = [name for name, _, _ in weight_args(model.config)]
    return dict(zip(names, model.plain_weights()))


def reference_logits(path: str, model: Model, run: Generation) -> np.ndarray:
    """(1 + SAMPLES) x steps x V: the exact fp64 logits each token of `run` was chosen
    from, then the perturbed copies', fed the run's tokens."""
    ref = Reference(open_gguf(path), weights_by_name(model))
    rng = np.random.default_rng(0)
    cache = ref.new_cache(1 + SAMPLES)
    rows = [ref.step(run.prompt, 0, cache, rng)[:, -1]]
    for s, t in enumerate(run.tokens[:-1]):
        rows.append(ref.step([t], len(run.prompt) + s, cache, rng)[:, 0])
    return np.stack(rows, axis=1)


def step_bound(ref: np.ndarray) -> np.ndarray:
    """B per step from `reference_logits`' (1 + SAMPLES) x steps x V."""
    return FACTOR * np.abs(ref[1:] - ref[0]).max(axis=(0, 2))


def margin(row: np.ndarray) -> float:
    """The top-1/top-2 margin of a row of logits."""
    top = np.sort(row)[-2:]
    return float(top[1] - top[0])


def llama_cpp_decides(llama_margin: float, bound: float) -> bool:
    """Whether llama.cpp's greedy token must be ours at a step (the module's rule)."""
    return llama_margin >= max(LLAMA_CPP_MARGIN, 2 * bound)


def f32_faults(scores: np.ndarray, exact: np.ndarray, bound: np.ndarray) -> list[int]:
    """The steps where llama.cpp's logits on f32 weights (`scores`) are further from
    the fp64 ones (`exact`) than F32_SHARE x B, or its greedy token is not fp64's where
    fp64's margin exceeds twice that."""
    tight = F32_SHARE * bound
    faults = []
    for i, (row, ref) in enumerate(zip(scores, exact)):
        far = np.abs(row - ref).max() > tight[i]
        if far or (margin(ref) > 2 * tight[i] and np.argmax(row) != np.argmax(ref)):
            faults.append(i)
    return faults


def llama_cpp_scores(llm: Any, prompt: Sequence[int], tokens: Sequence[int]) -> np.ndarray:
    """llama.cpp's logits (an open `llama_cpp.Llama` made with `logits_all=True`) for
    each of `tokens`, fed `prompt` and the tokens before it: steps x V."""
    llm.reset()
    llm.eval(list(prompt) + list(tokens[:-1]))
    first = len(prompt) - 1
    return np.asarray(llm.scores[first : first + len(tokens)])


@dataclass(frozen=True)
class Step:
    """One generated token beside llama.cpp's at the same step."""

    ours: int
    theirs: int
    """llama.cpp's greedy token, fed our tokens so far."""
    llama_margin: float
    bound: float
    decides: bool
    """The rule says the two must agree here."""

    @property
    def parts_wrongly(self) -> bool:
        return self.decides and self.ours != self.theirs


def llama_cpp_steps(tokens: Sequence[int], scores: np.ndarray, bound: np.ndarray) -> list[Step]:
    """Each of `tokens` against llama.cpp's `scores` (`llama_cpp_scores`) under the rule."""
    steps = []
    for i, row in enumerate(scores):
        m = margin(row)
        steps.append(
            Step(
                int(tokens[i]),
                int(np.argmax(row)),
                m,
                float(bound[i]),
                llama_cpp_decides(m, float(bound[i])),
            )
        )
    return steps
