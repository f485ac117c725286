"""
RoPE's frequencies: a head's pair i turns by `base^(-2i / n_rot)` a position, and Llama
3.1's scaling (`rope_type = "llama3"` in a Hugging Face config) stretches the slow ones.

Llama 3.1 was trained at `original_max_position_embeddings` positions (8192) and is used
at 16x that; its scaling leaves the fast pairs (wavelength `2 pi / f` under
`original / high_freq_factor`) as they are, divides the slow ones (wavelength over
`original / low_freq_factor`) by `factor`, and blends between the two, linearly in
`original / wavelength`:

```
smooth = (original / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
f'     = (1 - smooth) * f / factor + smooth * f
```

This is the one place the rule lives: the builder's `LlamaConfig.inv_freq` applies it,
and a GGUF file's `rope_freqs.weight` (the same factors, `f / f'`, stored by the
converter) is the same rule written down.

```python
freqs = rope_frequencies(head_dim=128, n_rot=128, base=500000.0, scaling=LLAMA_3_1)
```
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Llama3Scaling:
    """Llama 3.1's RoPE scaling, as its config.json's `rope_scaling` gives it."""

    factor: float
    low_freq_factor: float
    high_freq_factor: float
    original_context: int
    """`original_max_position_embeddings`: the positions the model was trained at."""

    def apply(self, freqs: np.ndarray) -> np.ndarray:
        """`freqs` (radians a position, all above 0), scaled."""
        wavelength = 2 * math.pi / freqs
        smooth = (self.original_context / wavelength - self.low_freq_factor) / (
            self.high_freq_factor - self.low_freq_factor
        )
        blended = (1 - smooth) * freqs / self.factor + smooth * freqs
        slow = wavelength > self.original_context / self.low_freq_factor
        fast = wavelength < self.original_context / self.high_freq_factor
        return np.where(fast, freqs, np.where(slow, freqs / self.factor, blended))


def rope_frequencies(
    head_dim: int, n_rot: int, base: float, scaling: Llama3Scaling | None = None
) -> np.ndarray:
    """Each pair's angle per position, head_dim / 2 of them: `base^(-2i / n_rot)` for
    the rotated pairs (scaled by `scaling`), 0 (no rotation) past them."""
    i = np.arange(head_dim // 2, dtype=np.float64)
    f = base ** (-2.0 * i / n_rot)
    if scaling is not None:
        f = scaling.apply(f)
    f[i >= n_rot // 2] = 0.0
    return f
