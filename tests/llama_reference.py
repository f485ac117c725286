"""
An fp64 numpy forward pass of a llama GGUF model, written from the architecture and
not from the emitted IR: what the logits of a step should be, to compare the chip's
with.

It reads the hyperparameters from the file's metadata itself and takes the weights
as the IR gets them (K x N Q8_0 values and scales, dequantised exactly in fp64), so
the only differences from the IR are the IR's arithmetic: bf16 product inputs and
fp32 everywhere else.

`Reference.step` runs a batch of `samples` copies of the model at once: copy 0 exact,
copy s > 0 with every product input multiplied by (1 + d), d drawn uniformly from
[-U_BF16, U_BF16] independently for each element, the perturbation that rounding to
bf16 makes at most (see `tests/test_llama.py` for how the bound is derived from it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

U_BF16 = 2.0**-8
"""The unit roundoff of bf16 (8 significant bits): |bf16(x) - x| <= U_BF16 |x|."""


def _meta(reader: Any, key: str, default: Any = None) -> Any:
    f = reader.fields.get(key)
    return default if f is None else f.contents()


class Reference:
    """The model of one GGUF file, in fp64."""

    def __init__(self, reader: Any, weights: dict[str, np.ndarray]):
        """`weights` maps the IR's argument names to their arrays: `NAME__q8` and
        `NAME__q8_scale` for every product, `NAME` for every norm."""
        arch = _meta(reader, "general.architecture")
        assert arch == "llama", arch
        g = lambda k, d=None: _meta(reader, f"llama.{k}", d)
        self.n_layer = int(g("block_count"))
        self.d = int(g("embedding_length"))
        self.n_head = int(g("attention.head_count"))
        self.n_kv = int(g("attention.head_count_kv", self.n_head))
        self.hd = self.d // self.n_head
        self.n_rot = int(g("rope.dimension_count", self.hd))
        self.eps = float(g("attention.layer_norm_rms_epsilon"))
        self.base = float(g("rope.freq_base", 10000.0))

        def dense(name: str) -> np.ndarray:
            q = weights[name + "__q8"].astype(np.float64)
            s = weights[name + "__q8_scale"].astype(np.float64)
            return q * np.repeat(s, 32, axis=0)

        self.emb = dense("token_embd.weight")  # d x vocab: column t embeds token t
        head = "output.weight" if "output.weight__q8" in weights else "token_embd.weight"
        self.head = self.emb if head == "token_embd.weight" else dense(head)
        self.layers = []
        for i in range(self.n_layer):
            b = f"blk.{i}."
            self.layers.append(
                {
                    "attn_norm": weights[b + "attn_norm.weight"].astype(np.float64),
                    "ffn_norm": weights[b + "ffn_norm.weight"].astype(np.float64),
                    **{
                        p: dense(b + p + ".weight")
                        for p in (
                            "attn_q",
                            "attn_k",
                            "attn_v",
                            "attn_output",
                            "ffn_gate",
                            "ffn_up",
                            "ffn_down",
                        )
                    },
                }
            )
        self.out_norm = weights["output_norm.weight"].astype(np.float64)

    def new_cache(self, samples: int) -> list[list[np.ndarray]]:
        """Per layer, the keys and values so far: samples x n_kv x positions x hd."""
        empty = np.zeros((samples, self.n_kv, 0, self.hd))
        return [[empty, empty] for _ in range(self.n_layer)]

    def _norm(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + self.eps) * w

    def _rope(self, x: np.ndarray, start: int) -> np.ndarray:
        """x: samples x m x heads x hd; pairs (2i, 2i+1) of the first n_rot dims rotated
        by (start + row) * base^(-2i / n_rot)."""
        m = x.shape[1]
        i = np.arange(self.n_rot // 2)
        theta = (start + np.arange(m))[:, None] * self.base ** (-2.0 * i / self.n_rot)
        cos, sin = np.cos(theta)[None, :, None, :], np.sin(theta)[None, :, None, :]
        out = x.copy()
        x0, x1 = x[..., 0 : self.n_rot : 2], x[..., 1 : self.n_rot : 2]
        out[..., 0 : self.n_rot : 2] = x0 * cos - x1 * sin
        out[..., 1 : self.n_rot : 2] = x0 * sin + x1 * cos
        return out

    def step(
        self,
        tokens: Sequence[int],
        start: int,
        cache: list[list[np.ndarray]],
        rng: np.random.Generator | None = None,
    ) -> np.ndarray:
        """Logits (samples x m x vocab) of `tokens` at positions start.., appending their
        keys and values to `cache`. Copies past the first are perturbed by `rng`."""
        samples = cache[0][0].shape[0]
        m = len(tokens)

        def perturb(x: np.ndarray) -> np.ndarray:
            if rng is None or samples == 1:
                return x
            d = rng.uniform(-U_BF16, U_BF16, x[1:].shape)
            return np.concatenate([x[:1], x[1:] * (1 + d)])

        x = np.broadcast_to(self.emb[:, list(tokens)].T, (samples, m, self.d)).copy()
        group = self.n_head // self.n_kv
        pos = start + np.arange(m)
        for L, c in zip(self.layers, cache):
            h = perturb(self._norm(x, L["attn_norm"]))
            q = self._rope((h @ L["attn_q"]).reshape(samples, m, self.n_head, self.hd), start)
            k = self._rope((h @ L["attn_k"]).reshape(samples, m, self.n_kv, self.hd), start)
            v = (h @ L["attn_v"]).reshape(samples, m, self.n_kv, self.hd)
            c[0] = np.concatenate([c[0], k.transpose(0, 2, 1, 3)], axis=2)
            c[1] = np.concatenate([c[1], v.transpose(0, 2, 1, 3)], axis=2)
            keys, values = c
            qg = q.reshape(samples, m, self.n_kv, group, self.hd)
            scores = np.einsum("smkgd,sktd->skgmt", qg, keys) / np.sqrt(self.hd)
            visible = np.arange(keys.shape[2])[None, :] <= pos[:, None]  # m x positions
            scores = np.where(visible, scores, -np.inf)
            p = np.exp(scores - scores.max(axis=-1, keepdims=True))
            p /= p.sum(axis=-1, keepdims=True)
            o = np.einsum("skgmt,sktd->smkgd", p, values).reshape(samples, m, self.d)
            x = x + perturb(o) @ L["attn_output"]
            h = perturb(self._norm(x, L["ffn_norm"]))
            gate, up = h @ L["ffn_gate"], h @ L["ffn_up"]
            a = perturb(gate / (1 + np.exp(-gate)) * up)
            x = x + a @ L["ffn_down"]
        return perturb(self._norm(x, self.out_norm)) @ self.head
