"""
A Hugging Face `config.json` as the builder's `LlamaConfig`: the shapes of a model
whose weights are not here (the time estimate of `spatial-estimate` needs no more).

```python
config = read_hf_config("Llama-3.1-8B/config.json")   # LlamaConfig, or ModelError
```

What it reads, by key (each missing or misshapen key is one `ModelError` naming it):

| key | is |
|---|---|
| `model_type` | `llama` (Llama 2 and 3.x, SmolLM, TinyLlama: the graph `llama.py` builds) |
| `hidden_size`, `num_hidden_layers`, `num_attention_heads`, `intermediate_size`, `vocab_size`, `rms_norm_eps` | the shapes |
| `num_key_value_heads` | grouped-query attention (default: one per query head) |
| `head_dim` | a head's width (default `hidden_size / num_attention_heads`) |
| `rope_theta`, `rope_scaling` | RoPE's base (default 10000) and its scaling: none, `default`, or `llama3` (`rope.py`) |
| `max_position_embeddings` | the longest context |
| `tie_word_embeddings` | the LM head is the embedding (default false, as `transformers` has it) |

A mixture of experts (`num_local_experts`, `num_experts`), another `model_type`, biases
(`attention_bias`, `mlp_bias`), an activation other than SiLU or a RoPE scaling other
than Llama 3's are refused, each naming its key: the graph `llama.py` builds has none of
them, so an estimate of it would be an estimate of another model.
"""

from __future__ import annotations

import json
import os
from typing import Any

from xdsl_spatial.core.quant import Q8_BLOCK
from xdsl_spatial.frontends.model.config import LlamaConfig, ModelError
from xdsl_spatial.frontends.rope import Llama3Scaling

MODEL_TYPES = ("llama",)
"""The `model_type` values whose graph `llama.py` builds."""

ROPE_TYPES = ("default", "llama3")

_MOE_KEYS = ("num_local_experts", "num_experts", "n_routed_experts", "moe_intermediate_size")


def read_hf_config(path: str | os.PathLike[str]) -> LlamaConfig:
    """The `LlamaConfig` of the Hugging Face `config.json` at `path`."""
    where = os.fspath(path)
    try:
        with open(where, encoding="utf-8") as f:
            raw = json.load(f)
    except OSError as e:
        raise ModelError(f"{where}: cannot read the file: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ModelError(f"{where}: not a JSON file: {e}") from None
    if not isinstance(raw, dict):
        raise ModelError(f"{where}: a config.json is a JSON object, got {type(raw).__name__}")
    return hf_config(raw, where)


def hf_config(raw: dict[str, Any], where: str = "config.json") -> LlamaConfig:
    """The `LlamaConfig` of a parsed config.json (`where` names it in messages)."""

    def fail(key: str, why: str) -> ModelError:
        return ModelError(f"{where}: key '{key}' {why}")

    def whole(key: str, default: int | None = None, low: int = 1) -> int:
        v = raw.get(key, default)
        if v is None:
            raise fail(key, "is missing")
        if isinstance(v, bool) or not isinstance(v, int) or v < low:
            raise fail(key, f"must be an integer of at least {low}, got {v!r}")
        return v

    def real(key: str, default: float | None = None) -> float:
        v = raw.get(key, default)
        if v is None:
            raise fail(key, "is missing")
        if isinstance(v, bool) or not isinstance(v, int | float) or v <= 0:
            raise fail(key, f"must be a number above 0, got {v!r}")
        return float(v)

    model_type = raw.get("model_type")
    if model_type is None:
        raise fail("model_type", f"is missing (supported: {', '.join(MODEL_TYPES)})")
    if model_type not in MODEL_TYPES:
        raise fail("model_type", f"= {model_type!r} is not supported ({', '.join(MODEL_TYPES)})")
    for key in _MOE_KEYS:
        if raw.get(key):
            raise fail(key, f"= {raw[key]!r}: a mixture of experts is not supported")
    for key in ("attention_bias", "mlp_bias"):
        if raw.get(key):
            raise fail(key, "is true: the llama graph has no biases")
    act = raw.get("hidden_act", "silu")
    if act != "silu":
        raise fail("hidden_act", f"= {act!r} is not supported (silu)")

    d = whole("hidden_size")
    n_head = whole("num_attention_heads")
    n_kv = whole("num_key_value_heads", n_head)
    if n_head % n_kv:
        raise fail("num_key_value_heads", f"= {n_kv} does not divide {n_head} query heads")
    if "head_dim" not in raw and d % n_head:
        raise fail("num_attention_heads", f"= {n_head} does not divide hidden_size {d}")
    head_dim = whole("head_dim", d // n_head)
    if head_dim % 2:
        raise fail("head_dim", f"= {head_dim} is odd: RoPE turns pairs")
    d_ff = whole("intermediate_size")
    for key, k in (("hidden_size", d), ("intermediate_size", d_ff)):
        if k % Q8_BLOCK:
            raise fail(key, f"= {k} is not a multiple of the Q8_0 block ({Q8_BLOCK})")
    if n_head * head_dim % Q8_BLOCK:
        raise fail("head_dim", f"x heads = {n_head * head_dim} is not a multiple of {Q8_BLOCK}")
    tied = raw.get("tie_word_embeddings", False)
    if not isinstance(tied, bool):
        raise fail("tie_word_embeddings", f"must be true or false, got {tied!r}")
    base = real("rope_theta", 10000.0)
    return LlamaConfig(
        n_layer=whole("num_hidden_layers"),
        d_model=d,
        n_head=n_head,
        n_kv=n_kv,
        head_dim=head_dim,
        n_rot=head_dim,
        d_ff=d_ff,
        vocab=whole("vocab_size"),
        eps=real("rms_norm_eps"),
        rope_base=base,
        context_length=whole("max_position_embeddings"),
        lm_head="token_embd.weight" if tied else "output.weight",
        rope_factors=_rope_factors(raw.get("rope_scaling"), fail, head_dim, base),
    )


def _rope_factors(scaling: Any, fail: Any, n_rot: int, base: float) -> tuple[float, ...]:
    """The divisors of RoPE's rotated pairs (`rope.py`), none when it is not scaled."""
    rule = rope_scaling(scaling, fail)
    return () if rule is None else rule.factors(n_rot, base)


def rope_scaling(scaling: Any, fail: Any) -> Llama3Scaling | None:
    """The config's `rope_scaling` object as its rule (`rope.py`), or None."""
    if scaling is None:
        return None
    if not isinstance(scaling, dict):
        raise fail("rope_scaling", f"must be an object or null, got {scaling!r}")
    kind = scaling.get("rope_type", scaling.get("type"))
    if kind not in ROPE_TYPES:
        raise fail(
            "rope_scaling.rope_type", f"= {kind!r} is not supported ({', '.join(ROPE_TYPES)})"
        )
    if kind == "default":
        return None

    def number(key: str) -> float:
        v = scaling.get(key)
        if v is None:
            raise fail(f"rope_scaling.{key}", "is missing")
        if isinstance(v, bool) or not isinstance(v, int | float) or v <= 0:
            raise fail(f"rope_scaling.{key}", f"must be a number above 0, got {v!r}")
        return float(v)

    low, high = number("low_freq_factor"), number("high_freq_factor")
    if high <= low:
        raise fail("rope_scaling.high_freq_factor", f"= {high} must exceed low_freq_factor {low}")
    return Llama3Scaling(
        factor=number("factor"),
        low_freq_factor=low,
        high_freq_factor=high,
        original_context=int(number("original_max_position_embeddings")),
    )
