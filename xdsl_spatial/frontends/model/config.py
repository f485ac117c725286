"""
Every number a GGUF checkpoint's graph is built from (`ModelConfig`), and what follows
from them alone: the weights the functions take (`weight_args`), the KV cache's
arguments and shapes, and the steps the model can take (`check_step`).

`architectures.read_config` reads one from a file; `step.build_model` builds the
functions from one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from xdsl_spatial.core.q8_names import Q8Part, stored_name
from xdsl_spatial.core.quant import Q8_BLOCK

MAX_PREFILL = 32
"""Prompt tokens one prefill step takes: a fold's rows are at most a tile's."""

DEFAULT_POSITIONS = 256
"""The KV cache's positions when none are asked for and the run's length is not known
(fewer if the model's context is shorter)."""

MIN_POSITIONS = 64
"""The fewest KV cache positions a run is given by its length (`fitted_positions`)."""

SCALE_TYPE = "f16"
"""Q8_0 scales as GGUF stores them."""

LAYER_PRODUCTS = ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down")
"""The weight products of one layer, by their GGUF names `blk.L.NAME.weight`."""

ROW_SPLIT = ("attn_output", "ffn_down")
"""Over several chips, the products whose weight is split on its rows (K), each chip
adding a partial sum, as Megatron-style tensor parallelism splits the products that
read a split result; every other product (q, k, v, gate, up, the LM head) is split on
its columns (N)."""

GRID = "chips"
"""The 1-d grid of chips every product is split over (`shard.grid @chips`)."""


class ModelError(ValueError):
    """A checkpoint this frontend cannot emit: an unknown architecture, a missing or
    misshapen tensor, a setting it does not implement. The message names it."""


@dataclass(frozen=True)
class ModelConfig:
    """Every number the model's graph is built from. The fields past `lm_head` say how
    an architecture departs from llama's graph; their defaults are llama's."""

    n_layer: int
    d_model: int
    n_head: int
    n_kv: int
    head_dim: int
    n_rot: int
    """Leading dimensions of each head that RoPE rotates."""
    d_ff: int
    vocab: int
    eps: float
    """RMSNorm's epsilon (every norm's)."""
    rope_base: float
    context_length: int
    """Positions the model was trained for: the largest cache it takes."""
    lm_head: str
    """The LM head's GGUF tensor: `output.weight`, or `token_embd.weight` when tied."""
    arch: str = "llama"
    """`general.architecture`."""
    rope_neox: bool = False
    """GGML's "neox" RoPE: each head's halves rotated against each other, (x[i],
    x[i + n_rot/2]); else its "normal" one, consecutive pairs (x[2i], x[2i+1])."""
    rope_scale: float = 1.0
    """Linear RoPE scaling: every angle times this (1 / `rope.scaling.factor`)."""
    rope_factors: tuple[float, ...] = ()
    """`rope_freqs.weight` (llama 3's scaling): pair i's angle divided by factor i."""
    sliding_window: int = 0
    """Keys a sliding-window layer attends over: those less than this many positions
    before the row's own (0: no layer slides)."""
    swa_layers: tuple[int, ...] = ()
    """The layers that attend over the sliding window; the others over every position."""
    rope_base_swa: float = 10000.0
    """RoPE's base in the sliding-window layers (unscaled)."""
    attn_scale: float = 0.0
    """The queries' scale before the scores (0: 1/sqrt(head_dim))."""
    qk_norm: bool = False
    """Each query and key head RMS-normed (`attn_q_norm`, `attn_k_norm`) before RoPE."""
    post_norms: bool = False
    """The attention's and the FFN's outputs RMS-normed (`post_attention_norm`,
    `post_ffw_norm`) before their residual adds."""
    activation: str = "silu"
    """The FFN's gate: `silu` (SwiGLU) or `gelu` (GeGLU, GELU's tanh approximation)."""
    embed_scale: float = 1.0
    """The embedding's rows times this."""
    softcap: float = 0.0
    """Final logit soft-capping: logits -> c tanh(logits / c) (0: none)."""
    biases: tuple[str, ...] = ()
    """The layer products (`LAYER_PRODUCTS` names) with a bias `blk.L.NAME.bias`."""

    def default_positions(self) -> int:
        return min(DEFAULT_POSITIONS, self.context_length)

    def fitted_positions(self, needed: int) -> int:
        """The KV cache positions of a run that needs `needed` (its prompt and its
        steps) when none are asked for: the fewest of `MIN_POSITIONS` times a power of
        two that hold them, at most the model's context length. A step attends over
        every position of the cache, used or not, so a cache the run fills costs less
        a step than a larger one (docs/model.md); sizes in powers of two keep the
        compiled models a run may reuse few."""
        positions = MIN_POSITIONS
        while positions < needed:
            positions *= 2
        return min(positions, self.context_length)

    @property
    def group(self) -> int:
        """Query heads per KV head."""
        return self.n_head // self.n_kv

    @property
    def q_dim(self) -> int:
        return self.n_head * self.head_dim

    @property
    def kv_dim(self) -> int:
        return self.n_kv * self.head_dim

    @property
    def q_scale(self) -> float:
        """What the queries are multiplied by before the scores."""
        return self.attn_scale or 1.0 / math.sqrt(self.head_dim)

    def beyond_llama(self) -> list[str]:
        """What the graph has beyond llama's plain one (empty for that)."""
        has = [
            (bool(self.biases), f"biases on {', '.join(self.biases)}"),
            (self.rope_neox, "neox RoPE"),
            (self.rope_scale != 1.0 or bool(self.rope_factors), "scaled RoPE"),
            (bool(self.sliding_window), "a sliding window"),
            (self.qk_norm, "q/k norms"),
            (self.post_norms, "post-norms"),
            (self.activation != "silu", "GeGLU"),
            (self.embed_scale != 1.0, "a scaled embedding"),
            (bool(self.softcap), "soft-capped logits"),
            (self.q_scale != 1.0 / math.sqrt(self.head_dim), "another attention scale"),
        ]
        return [what for present, what in has if present]

    def sliding(self, layer: int) -> bool:
        """Whether `layer` attends over the sliding window."""
        return self.sliding_window > 0 and layer in self.swa_layers

    def window(self, layer: int) -> int:
        """The keys `layer` attends over before the row's own position (0: all)."""
        return self.sliding_window if self.sliding(layer) else 0

    def split_of(self, weight: str) -> str:
        """`k` for a product split on its rows over chips, `n` for one split on its columns."""
        return "k" if any(f".{p}.weight" in weight for p in ROW_SPLIT) else "n"

    def check_chips(self, chips: int) -> None:
        """Every product has a whole unit (a column tile, or a Q8_0 block of K) per chip."""
        for name, k, n in self.products():
            size, unit, what = (
                (k, Q8_BLOCK, "Q8_0 blocks of K")
                if self.split_of(name) == "k"
                else (n, Q8_BLOCK, "column tiles")
            )
            units = -(-size // unit)
            if units < chips:
                raise ModelError(
                    f"{chips} chips split every product, but {name} has {units} {what}; "
                    f"at most {units} chips"
                )

    def product_shape(self, product: str) -> tuple[int, int]:
        """(K, N) of a layer product (`LAYER_PRODUCTS`)."""
        d, f = self.d_model, self.d_ff
        return {
            "attn_q": (d, self.q_dim),
            "attn_k": (d, self.kv_dim),
            "attn_v": (d, self.kv_dim),
            "attn_output": (self.q_dim, d),
            "ffn_gate": (d, f),
            "ffn_up": (d, f),
            "ffn_down": (f, d),
        }[product]

    def products(self) -> list[tuple[str, int, int]]:
        """(GGUF tensor, K, N) of every weight product, in the order a step runs them."""
        out = [
            (f"blk.{i}.{p}.weight", *self.product_shape(p))
            for i in range(self.n_layer)
            for p in LAYER_PRODUCTS
        ]
        return [*out, (self.lm_head, self.d_model, self.vocab)]

    def layer_vectors(self) -> list[tuple[str, int]]:
        """(name, length) of each f32 vector of a layer, its GGUF tensor being
        `blk.L.NAME`: the norms in the order a layer reads them, then the biases."""
        d, hd = self.d_model, self.head_dim
        out = [("attn_norm.weight", d)]
        if self.qk_norm:
            out += [("attn_q_norm.weight", hd), ("attn_k_norm.weight", hd)]
        if self.post_norms:
            out.append(("post_attention_norm.weight", d))
        out.append(("ffn_norm.weight", d))
        if self.post_norms:
            out.append(("post_ffw_norm.weight", d))
        out += [(f"{p}.bias", self.product_shape(p)[1]) for p in self.biases]
        return out

    def vectors(self) -> list[tuple[str, int]]:
        """(GGUF tensor, length) of every f32 vector: norm weights and biases."""
        out = [
            (f"blk.{i}.{name}", n) for i in range(self.n_layer) for name, n in self.layer_vectors()
        ]
        return [*out, ("output_norm.weight", self.d_model)]

    def rope_freqs(self, sliding: bool = False) -> np.ndarray:
        """RoPE's angle per position for each pair of a head (head_dim/2 values) in a
        layer that slides or not: `scale base^(-2i / n_rot) / factor_i` for the rotated
        pairs (a sliding layer's base is `rope_base_swa`, unscaled), 0 (no rotation)
        past them."""
        base, scale = (self.rope_base_swa, 1.0) if sliding else (self.rope_base, self.rope_scale)
        i = np.arange(self.head_dim // 2, dtype=np.float64)
        f = scale * base ** (-2.0 * i / self.n_rot)
        if self.rope_factors:
            f[: len(self.rope_factors)] /= np.asarray(self.rope_factors, np.float64)
        f[i >= self.n_rot // 2] = 0.0
        return f

    def inv_freq(self) -> np.ndarray:
        """The angles of a layer that does not slide (`rope_freqs`)."""
        return self.rope_freqs()


LlamaConfig = ModelConfig
"""The config's name from when llama was the one architecture."""

BATCH_ENTRY = "decode_batch"
"""The batched decode step's function."""


def check_sequences(sequences: int) -> None:
    """That a batched step can take `sequences` sequences (its products' rows)."""
    if not 1 <= sequences <= MAX_PREFILL:
        raise ModelError(f"a batched step takes 1 to {MAX_PREFILL} sequences, got {sequences}")


WEIGHT_DTYPES = {"i8": np.dtype(np.int8), "f16": np.dtype(np.float16), "f32": np.dtype(np.float32)}
"""The numpy type that holds each element type `weight_args` names."""


def weight_args(c: ModelConfig) -> list[tuple[str, tuple[int, ...], str]]:
    """(argument name, shape, element type) of every weight, in the functions' order:
    the products' Q8_0 parts (the embedding's first), then the vectors."""
    args = []
    seen = set()
    for name, k, n in [("token_embd.weight", c.d_model, c.vocab), *c.products()]:
        if name in seen:
            continue
        seen.add(name)
        args.append((stored_name(name, Q8Part.VALUES), (k, n), "i8"))
        args.append((stored_name(name, Q8Part.SCALES), (k // Q8_BLOCK, n), SCALE_TYPE))
    args += [(name, (n,), "f32") for name, n in c.vectors()]
    return args


def cache_names(c: ModelConfig) -> list[str]:
    """The KV cache's arguments and results, a key and a value tensor per layer."""
    return [f"blk.{i}.cache_{kv}" for i in range(c.n_layer) for kv in "kv"]


def cache_shapes(c: ModelConfig, positions: int) -> list[tuple[int, ...]]:
    """The KV cache's shapes, f32: keys transposed, then values, per layer."""
    return [(c.n_kv, c.head_dim, positions), (c.n_kv, positions, c.head_dim)] * c.n_layer


def batched_cache_shapes(c: ModelConfig, sequences: int, positions: int) -> list[tuple[int, ...]]:
    """A batched decode step's caches: `cache_shapes` with a leading dim, a row a
    sequence."""
    return [(sequences, *s) for s in cache_shapes(c, positions)]


def check_step(c: ModelConfig, prefill: int, positions: int) -> None:
    """A prefill of `prefill` tokens and a cache of `positions` the model can take."""
    if not 1 <= prefill <= MAX_PREFILL:
        raise ModelError(f"a prefill takes 1 to {MAX_PREFILL} tokens, got {prefill}")
    if prefill > positions:
        raise ModelError(
            f"a prefill of {prefill} tokens does not fit a cache of {positions} positions"
        )
    if positions > c.context_length:
        raise ModelError(
            f"a cache of {positions} positions exceeds the model's context length {c.context_length}"
        )


def describe(c: ModelConfig, prefill: int, positions: int, source: str = "", chips: int = 1) -> str:
    """One line saying what `build_model` builds (`--emit-model` prints it first, as a
    comment)."""
    arch = "" if c.arch == "llama" else f"{c.arch}, "
    window = (
        f", sliding window of {c.sliding_window} on {len(c.swa_layers)} of {c.n_layer} layers"
        if c.sliding_window
        else ""
    )
    return (
        f"{arch}{c.n_layer} layers, d_model {c.d_model}, {c.n_head} heads ({c.n_kv} KV heads of "
        f"{c.head_dim}), FFN {c.d_ff}, vocabulary {c.vocab}{window}; prefill of {prefill} "
        f"tokens, cache of {positions} positions{'; from ' + source if source else ''}"
        f"{f'; over {chips} chips' if chips > 1 else ''}"
    )
