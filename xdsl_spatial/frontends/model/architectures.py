"""
The architectures a GGUF file may be, read into a `ModelConfig`: the hyperparameters
from its metadata (`{arch}.block_count`, ...) and the tensors its graph needs, checked
against the file's, each as llama.cpp reads that architecture (`llama-model.cpp`'s
hparams and tensors, the converter `convert_hf_to_gguf.py`).

- `llama`: RMSNorm, RoPE on consecutive pairs (the converter permutes a Hugging Face
  llama's q and k into that layout), SwiGLU; optional biases on q, k, v and the
  attention's output; linear RoPE scaling (`rope.scaling.type = linear`) or llama 3's,
  which the converter writes as the factors `rope_freqs.weight` (pair i's angle
  divided by factor i).
- `qwen2`: llama's graph with biases on q, k and v and RoPE on the heads' halves
  (GGML's neox layout, `LLAMA_ROPE_TYPE_NEOX`).
- `gemma3`: neox RoPE; the embedding times sqrt(d_model); each query and key head
  RMS-normed before RoPE; the attention's and the FFN's outputs RMS-normed before their
  residual adds; GeGLU (GELU's tanh approximation); queries scaled by 1/sqrt(head_dim)
  (by 1/sqrt(d_model / n_head) for the 62-layer 27B, as llama.cpp does); layers
  attending over a sliding window of `attention.sliding_window` positions, every
  layer but each sixth (`attention.sliding_window_pattern` when the file says, as a
  period or one flag per layer), with RoPE base `rope.freq_base_swa` (10000 when the
  file does not say) and no scaling there, the other layers `rope.freq_base` and the
  file's linear scaling; final logit soft-capping when the file has
  `final_logit_softcapping`. The converter stores Gemma's norm weights as 1 + w, so
  every norm is the plain `x / rms(x) * w`.

The LM head is `output.weight`, or the embedding's own weight when the file has none
(tied). An architecture not listed, a RoPE scaling other than these, a tensor the graph
does not read, or a missing or misshapen one is a `ModelError` naming it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from xdsl_spatial.core.quant import Q8_BLOCK
from xdsl_spatial.frontends.model.config import ModelConfig, ModelError

GEMMA3_SWA_PERIOD = 6
"""Gemma 3's layers attend over the sliding window but every sixth (llama.cpp's
`set_swa_pattern(6)`), unless the file says otherwise."""

ROPE_SCALINGS = ("none", "linear")
"""`rope.scaling.type` values this reads (llama 3's scaling is a tensor, `rope_freqs.weight`)."""


def _field(reader: Any, key: str) -> Any:
    f = reader.fields.get(key)
    return None if f is None else f.contents()


class _Metadata:
    """The architecture's keys of one file: `need` (a ModelError naming a missing one)
    and `opt`."""

    def __init__(self, reader: Any, arch: str, path: str):
        self.reader, self.arch, self.path = reader, arch, path

    def opt(self, key: str, default: Any) -> Any:
        v = _field(self.reader, f"{self.arch}.{key}")
        return default if v is None else v

    def need(self, key: str) -> Any:
        v = _field(self.reader, f"{self.arch}.{key}")
        if v is None:
            raise ModelError(f"{self.path}: metadata {self.arch}.{key} is missing")
        return v

    def number(self, key: str, default: Any = None) -> float:
        """A scalar key (a per-layer array is refused, naming it)."""
        v = self.need(key) if default is None else self.opt(key, default)
        if isinstance(v, (list, tuple, str)):
            raise ModelError(
                f"{self.path}: metadata {self.arch}.{key} is {v!r}; this reads one number"
            )
        return v


Fields = dict[str, Any]
"""`ModelConfig` fields an architecture sets beyond the common ones."""


def _llama(m: _Metadata, tensors: dict[str, tuple[int, ...]], common: Fields) -> Fields:
    out: Fields = {"biases": _biases(tensors, ("attn_q", "attn_k", "attn_v", "attn_output"))}
    if "rope_freqs.weight" in tensors:
        out["rope_factors"] = _rope_factors(m, common["n_rot"])
    return out


def _qwen2(m: _Metadata, tensors: dict[str, tuple[int, ...]], common: Fields) -> Fields:
    return {"rope_neox": True, "biases": ("attn_q", "attn_k", "attn_v")}


def _gemma3(m: _Metadata, tensors: dict[str, tuple[int, ...]], common: Fields) -> Fields:
    n_layer, d, n_head = common["n_layer"], common["d_model"], common["n_head"]
    window = int(m.number("attention.sliding_window", 0))
    if window < 0:
        raise ModelError(f"{m.path}: {m.arch}.attention.sliding_window = {window}")
    pattern = m.opt("attention.sliding_window_pattern", GEMMA3_SWA_PERIOD)
    if isinstance(pattern, list):
        if len(pattern) != n_layer:
            raise ModelError(
                f"{m.path}: {m.arch}.attention.sliding_window_pattern has {len(pattern)} "
                f"flags for {n_layer} layers"
            )
        swa = tuple(i for i, s in enumerate(pattern) if s)
    else:
        period = int(pattern)
        if period < 1:
            raise ModelError(f"{m.path}: {m.arch}.attention.sliding_window_pattern = {period}")
        swa = tuple(i for i in range(n_layer) if i % period < period - 1)
    # gemma_pytorch's query_pre_attn_scalar: d_model / n_head for the 27B (62 layers)
    per_head = d // n_head if n_layer == 62 else common["head_dim"]
    return {
        "rope_neox": True,
        "sliding_window": window,
        "swa_layers": swa if window else (),
        "rope_base_swa": float(m.number("rope.freq_base_swa", 10000.0)),
        "attn_scale": 1.0 / math.sqrt(per_head),
        "qk_norm": True,
        "post_norms": True,
        "activation": "gelu",
        "embed_scale": math.sqrt(d),
        "softcap": float(m.number("final_logit_softcapping", 0.0)),
    }


ARCHITECTURES: dict[str, Callable[[_Metadata, dict[str, tuple[int, ...]], Fields], Fields]] = {
    "llama": _llama,
    "qwen2": _qwen2,
    "gemma3": _gemma3,
}
"""The `general.architecture` values this emits, each with what it adds to the
common hyperparameters."""


def _biases(tensors: dict[str, tuple[int, ...]], allowed: tuple[str, ...]) -> tuple[str, ...]:
    """The products of `allowed` that have a bias in the first layer (`_check_tensors`
    then wants it in every layer)."""
    return tuple(p for p in allowed if f"blk.0.{p}.bias" in tensors)


def _rope_factors(m: _Metadata, n_rot: int) -> tuple[float, ...]:
    t = next(t for t in m.reader.tensors if t.name == "rope_freqs.weight")
    dims = tuple(int(d) for d in t.shape)
    if t.tensor_type.name != "F32" or dims != (n_rot // 2,):
        raise ModelError(
            f"{m.path}: tensor rope_freqs.weight is {t.tensor_type.name} "
            f"{'x'.join(map(str, dims))}; RoPE's factors are F32, one per rotated pair "
            f"({n_rot // 2})"
        )
    if t.data is None:
        raise ModelError(
            f"{m.path}: tensor rope_freqs.weight: the file ends before its data, and RoPE's "
            "factors are that data (give the whole file, or its config.json)"
        )
    factors = np.asarray(t.data, np.float64).reshape(-1)
    if not np.all(np.isfinite(factors) & (factors > 0)):
        raise ModelError(f"{m.path}: tensor rope_freqs.weight has a factor that is not > 0")
    return tuple(float(f) for f in factors)


def read_config(reader: Any, path: str = "<gguf>") -> ModelConfig:
    """The hyperparameters of the GGUF file `reader` reads, checked against its tensors."""
    arch = _field(reader, "general.architecture")
    if arch not in ARCHITECTURES:
        known = ", ".join(ARCHITECTURES)
        raise ModelError(
            f"{path}: architecture {arch!r} is not supported (general.architecture; "
            f"supported: {known})"
            if arch is not None
            else f"{path}: the file has no general.architecture (supported: {known})"
        )
    m = _Metadata(reader, arch, path)
    tensors = {t.name: tuple(int(d) for d in t.shape) for t in reader.tensors}
    common = _common(m, tensors)
    config = ModelConfig(**common, arch=arch, **ARCHITECTURES[arch](m, tensors, common))
    if config.rope_neox and config.n_rot != config.head_dim:
        raise ModelError(
            f"{path}: {arch}.rope.dimension_count = {config.n_rot}: neox RoPE on part of a "
            f"head of {config.head_dim} is not supported"
        )
    _check_tensors(config, tensors, path)
    return config


def _common(m: _Metadata, tensors: dict[str, tuple[int, ...]]) -> Fields:
    """The hyperparameters every architecture here has, with llama's defaults."""
    arch, path = m.arch, m.path
    scaling = m.opt("rope.scaling.type", "none")
    factor = float(m.number("rope.scaling.factor", 1.0) or 1.0)
    if scaling not in ROPE_SCALINGS:
        raise ModelError(
            f"{path}: {arch}.rope.scaling.type = {scaling!r} is not supported (supported: "
            f"{', '.join(ROPE_SCALINGS)}; llama 3's scaling is the tensor rope_freqs.weight)"
        )
    if factor <= 0:
        raise ModelError(f"{path}: {arch}.rope.scaling.factor = {factor}")
    d = int(m.number("embedding_length"))
    n_head = int(m.number("attention.head_count"))
    n_kv = int(m.number("attention.head_count_kv", n_head))
    if n_head <= 0 or n_kv <= 0 or n_head % n_kv:
        raise ModelError(f"{path}: {n_head} heads cannot share {n_kv} KV heads")
    head_dim = int(m.number("attention.key_length", d // n_head))
    if int(m.number("attention.value_length", head_dim)) != head_dim:
        raise ModelError(f"{path}: {arch}.attention.value_length differs from key_length")
    n_rot = int(m.number("rope.dimension_count", head_dim))
    if n_rot % 2 or not 0 < n_rot <= head_dim or head_dim % 2:
        raise ModelError(f"{path}: {arch}.rope.dimension_count = {n_rot} for heads of {head_dim}")
    if "token_embd.weight" not in tensors:
        raise ModelError(f"{path}: no tensor token_embd.weight in the file")
    emb = tensors["token_embd.weight"]
    return {
        "n_layer": int(m.number("block_count")),
        "d_model": d,
        "n_head": n_head,
        "n_kv": n_kv,
        "head_dim": head_dim,
        "n_rot": n_rot,
        "d_ff": int(m.number("feed_forward_length")),
        "vocab": emb[1] if len(emb) > 1 else 0,
        "eps": float(m.number("attention.layer_norm_rms_epsilon")),
        "rope_base": float(m.number("rope.freq_base", 10000.0)),
        "context_length": int(m.number("context_length", 2048)),
        "lm_head": "output.weight" if "output.weight" in tensors else "token_embd.weight",
        "rope_scale": 1.0 / factor if scaling == "linear" else 1.0,
    }


def _check_tensors(c: ModelConfig, tensors: dict[str, tuple[int, ...]], path: str) -> None:
    """Every tensor the graph reads is in the file with its shape (GGUF order, ne0
    first: a product's weight is [K, N]), and the file has none the graph would leave
    out (of the model's layers; a layer past them is not read)."""
    want: dict[str, tuple[int, ...]] = {"token_embd.weight": (c.d_model, c.vocab)}
    want.update({name: (k, n) for name, k, n in c.products()})
    want.update({name: (n,) for name, n in c.vectors()})
    if c.rope_factors:
        want["rope_freqs.weight"] = (len(c.rope_factors),)
    for name, shape in want.items():
        got = tensors.get(name)
        if got is None:
            raise ModelError(f"{path}: no tensor {name} in the file")
        if tuple(d for d in got if d != 1) != tuple(d for d in shape if d != 1):
            raise ModelError(
                f"{path}: tensor {name} has dims {'x'.join(map(str, got))}, the "
                f"architecture needs {'x'.join(map(str, shape))}"
            )
    for name, _, _ in c.products():
        k = tensors[name][0]
        if k % Q8_BLOCK:
            raise ModelError(f"{path}: tensor {name}: K = {k} is not a multiple of {Q8_BLOCK}")
    layer = re.compile(r"blk\.(\d+)\.(.+)")
    for name in tensors:
        if name in want:
            continue
        hit = layer.fullmatch(name)
        if hit is None or int(hit.group(1)) < c.n_layer:
            raise ModelError(f"{path}: tensor {name} is not part of the {c.arch} graph this emits")
