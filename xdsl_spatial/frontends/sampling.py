"""
Choosing a token from a step's logits: greedily, or drawn by a `Sampler` (top-k, then
top-p, then the temperature, as llama.cpp's sampler chain orders them) from numpy's
`Generator`, so a seed gives the same tokens every run; and the check that stops a
generation at logits that hold NaN.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from xdsl_spatial.frontends.model.config import ModelError


def greedy(logits: np.ndarray) -> int:
    """The largest logit's id (the lowest id on a tie)."""
    return int(np.argmax(logits))


@dataclass
class Sampler:
    """Draws a token from logits: the `top_k` largest (0: all), of those the fewest
    whose probabilities add up to `top_p` (1: all), their logits divided by
    `temperature`, drawn from their softmax by numpy's Generator seeded with `seed`
    (None: a seed drawn from the OS, kept in `seed`). A temperature of 0 is greedy."""

    temperature: float = 0.0
    top_k: int = 40
    top_p: float = 0.95
    seed: int | None = None

    def __post_init__(self) -> None:
        if not (0 <= self.temperature < math.inf) or not 0 < self.top_p <= 1 or self.top_k < 0:
            raise ModelError(
                f"sampling takes a finite temperature >= 0, top-k >= 0 and 0 < top-p <= 1, got "
                f"{self.temperature}, {self.top_k} and {self.top_p}"
            )
        if self.seed is None:
            entropy = np.random.SeedSequence().entropy  # an int when drawn fresh
            assert isinstance(entropy, int)
            self.seed = entropy % (1 << 32)
        self.rng = np.random.default_rng(self.seed)

    @property
    def greedy(self) -> bool:
        return self.temperature == 0

    def __call__(self, logits: np.ndarray) -> int:
        if self.greedy:
            return greedy(logits)
        x = np.asarray(logits, np.float64)
        k = self.top_k if 0 < self.top_k < x.size else x.size
        ids = np.argpartition(-x, k - 1)[:k] if k < x.size else np.arange(x.size)
        ids = ids[np.lexsort((ids, -x[ids]))]  # the largest first, the lower id on a tie
        v = x[ids]
        if self.top_p < 1:
            p = np.exp(v - v[0])
            p /= p.sum()
            keep = int(np.searchsorted(np.cumsum(p), self.top_p)) + 1
            ids, v = ids[:keep], v[:keep]
        p = np.exp((v - v[0]) / self.temperature)
        return int(ids[self.rng.choice(ids.size, p=p / p.sum())])


def has_nan(logits: np.ndarray, index: int) -> bool:
    """Whether the logits token `index` would be chosen from hold NaN; if so, a
    warning saying the generation stops there."""
    n = int(np.isnan(logits).sum())
    if n:
        warnings.warn(
            f"the logits of generated token {index} hold NaN ({n:,} of {logits.size:,}): the "
            "model's numbers are lost (a damaged weight, or an overflow); the generation "
            "stops there",
            stacklevel=2,  # one place: the same warning of a second run is not repeated
        )
    return n > 0
