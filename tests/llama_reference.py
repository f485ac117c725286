"""
An fp64 numpy forward pass of a GGUF model (architecture `llama`, `qwen2` or
`gemma3`), written from the architectures (llama.cpp's graphs) and not from the
emitted IR: what the logits of a step should be, to compare the chip's with.

It reads the hyperparameters from the file's metadata itself and takes the weights
as the IR gets them (K x N Q8_0 values and scales, dequantised exactly in fp64; norm
weights and biases as f32 vectors), so the only differences from the IR are the IR's
arithmetic: bf16 product inputs and fp32 everywhere else.

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

PRODUCTS = ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down")


def _meta(reader: Any, key: str, default: Any = None) -> Any:
    f = reader.fields.get(key)
    return default if f is None else f.contents()


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """GELU's tanh approximation (GGML's `ggml_gelu`)."""
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * x * (1 + 0.044715 * x * x)))


class Reference:
    """The model of one GGUF file, in fp64."""

    def __init__(self, reader: Any, weights: dict[str, np.ndarray]):
        """`weights` maps the IR's argument names to their arrays: `NAME__q8` and
        `NAME__q8_scale` for every product, `NAME` for every norm weight and bias."""
        arch = self.arch = _meta(reader, "general.architecture")
        assert arch in ("llama", "qwen2", "gemma3"), arch
        g = lambda k, d=None: _meta(reader, f"{arch}.{k}", d)
        self.n_layer = int(g("block_count"))
        self.d = int(g("embedding_length"))
        self.n_head = int(g("attention.head_count"))
        self.n_kv = int(g("attention.head_count_kv", self.n_head))
        self.hd = int(g("attention.key_length", self.d // self.n_head))
        self.n_rot = int(g("rope.dimension_count", self.hd))
        self.eps = float(g("attention.layer_norm_rms_epsilon"))
        self.base = float(g("rope.freq_base", 10000.0))
        scaling = g("rope.scaling.type", "none")
        assert scaling in ("none", "linear"), scaling
        self.freq_scale = 1.0 / float(g("rope.scaling.factor", 1.0)) if scaling == "linear" else 1.0
        factors = [t for t in reader.tensors if t.name == "rope_freqs.weight"]
        self.factors = np.asarray(factors[0].data, np.float64) if factors else None
        # GGML's rope types: llama rotates consecutive pairs, qwen2 and gemma3 the halves
        self.neox = arch in ("qwen2", "gemma3")
        self.gemma = arch == "gemma3"
        self.q_scale = 1 / np.sqrt(self.hd)
        self.window = 0
        self.sliding: set[int] = set()
        self.base_swa = 10000.0
        self.softcap = 0.0
        if self.gemma:
            self.window = int(g("attention.sliding_window", 0))
            pattern = g("attention.sliding_window_pattern", 6)
            if isinstance(pattern, list):
                self.sliding = {i for i, s in enumerate(pattern) if s}
            else:
                self.sliding = {i for i in range(self.n_layer) if i % pattern < pattern - 1}
            self.base_swa = float(g("rope.freq_base_swa", 10000.0))
            self.softcap = float(g("final_logit_softcapping", 0.0))
            if self.n_layer == 62:
                self.q_scale = 1 / np.sqrt(self.d // self.n_head)

        def dense(name: str) -> np.ndarray:
            q = weights[name + "__q8"].astype(np.float64)
            s = weights[name + "__q8_scale"].astype(np.float64)
            return q * np.repeat(s, 32, axis=0)

        def vector(name: str) -> np.ndarray | None:
            return weights[name].astype(np.float64) if name in weights else None

        self.emb = dense("token_embd.weight")  # d x vocab: column t embeds token t
        head = "output.weight" if "output.weight__q8" in weights else "token_embd.weight"
        self.head = self.emb if head == "token_embd.weight" else dense(head)
        self.layers = []
        for i in range(self.n_layer):
            b = f"blk.{i}."
            layer: dict[str, Any] = {p: dense(b + p + ".weight") for p in PRODUCTS}
            for p in PRODUCTS:
                layer[p + ".bias"] = vector(b + p + ".bias")
            for n in (
                "attn_norm",
                "ffn_norm",
                "attn_q_norm",
                "attn_k_norm",
                "post_attention_norm",
                "post_ffw_norm",
            ):
                layer[n] = vector(b + n + ".weight")
            self.layers.append(layer)
        self.out_norm = weights["output_norm.weight"].astype(np.float64)

    def new_cache(self, samples: int) -> list[list[np.ndarray]]:
        """Per layer, the keys and values so far: samples x n_kv x positions x hd."""
        empty = np.zeros((samples, self.n_kv, 0, self.hd))
        return [[empty, empty] for _ in range(self.n_layer)]

    def _norm(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + self.eps) * w

    def _rope(self, x: np.ndarray, start: int, layer: int) -> np.ndarray:
        """x: samples x m x heads x hd; the first n_rot dims of each head rotated in
        pairs, pair i by (start + row) * freq_scale * base^(-2i / n_rot) / factor_i:
        pairs (2i, 2i+1) (llama), or (i, i + n_rot/2) (neox). A sliding layer of
        gemma3 has its own base and no scaling."""
        m = x.shape[1]
        sliding = layer in self.sliding
        base, scale = (self.base_swa, 1.0) if sliding else (self.base, self.freq_scale)
        i = np.arange(self.n_rot // 2)
        freq = scale * base ** (-2.0 * i / self.n_rot)
        if self.factors is not None:
            freq = freq / self.factors
        theta = (start + np.arange(m))[:, None] * freq
        cos, sin = np.cos(theta)[None, :, None, :], np.sin(theta)[None, :, None, :]
        out = x.copy()
        if self.neox:
            h = self.n_rot // 2
            first, second = np.s_[..., 0:h], np.s_[..., h : self.n_rot]
        else:
            first, second = np.s_[..., 0 : self.n_rot : 2], np.s_[..., 1 : self.n_rot : 2]
        x0, x1 = x[first], x[second]
        out[first] = x0 * cos - x1 * sin
        out[second] = x0 * sin + x1 * cos
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

        def linear(h: np.ndarray, L: dict[str, Any], p: str) -> np.ndarray:
            y = h @ L[p]
            return y if L[p + ".bias"] is None else y + L[p + ".bias"]

        x = np.broadcast_to(self.emb[:, list(tokens)].T, (samples, m, self.d)).copy()
        if self.gemma:
            x = x * np.sqrt(self.d)
        group = self.n_head // self.n_kv
        pos = start + np.arange(m)
        for i, (L, c) in enumerate(zip(self.layers, cache)):
            h = perturb(self._norm(x, L["attn_norm"]))
            q = linear(h, L, "attn_q").reshape(samples, m, self.n_head, self.hd)
            k = linear(h, L, "attn_k").reshape(samples, m, self.n_kv, self.hd)
            v = linear(h, L, "attn_v").reshape(samples, m, self.n_kv, self.hd)
            if L["attn_q_norm"] is not None:
                q, k = self._norm(q, L["attn_q_norm"]), self._norm(k, L["attn_k_norm"])
            q, k = self._rope(q, start, i), self._rope(k, start, i)
            c[0] = np.concatenate([c[0], k.transpose(0, 2, 1, 3)], axis=2)
            c[1] = np.concatenate([c[1], v.transpose(0, 2, 1, 3)], axis=2)
            keys, values = c
            qg = q.reshape(samples, m, self.n_kv, group, self.hd)
            scores = np.einsum("smkgd,sktd->skgmt", qg, keys) * self.q_scale
            t = np.arange(keys.shape[2])[None, :]
            visible = t <= pos[:, None]  # m x positions
            if i in self.sliding and self.window:
                visible &= pos[:, None] - t < self.window
            scores = np.where(visible, scores, -np.inf)
            p = np.exp(scores - scores.max(axis=-1, keepdims=True))
            p /= p.sum(axis=-1, keepdims=True)
            o = np.einsum("skgmt,sktd->smkgd", p, values).reshape(samples, m, -1)
            o = linear(perturb(o), L, "attn_output")
            if L["post_attention_norm"] is not None:
                o = self._norm(o, L["post_attention_norm"])
            x = x + o
            h = perturb(self._norm(x, L["ffn_norm"]))
            gate, up = linear(h, L, "ffn_gate"), linear(h, L, "ffn_up")
            act = gelu_tanh(gate) if self.gemma else gate / (1 + np.exp(-gate))
            down = linear(perturb(act * up), L, "ffn_down")
            if L["post_ffw_norm"] is not None:
                down = self._norm(down, L["post_ffw_norm"])
            x = x + down
        logits = perturb(self._norm(x, self.out_norm)) @ self.head
        if self.softcap:
            logits = self.softcap * np.tanh(logits / self.softcap)
        return logits
