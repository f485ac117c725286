"""
A GGUF checkpoint (architecture `llama`, `qwen2` or `gemma3`) as two MLIR functions in
linalg on tensors, built op by op with xDSL's builders:

```
@prefill(tokens: m x i32, pos: 1 x i32, weights..., k cache, v cache per layer)
                                                 -> (logits m x V, k cache, v cache per layer)
@decode(token: 1 x i32, pos: 1 x i32, weights..., k cache, v cache per layer)
                                                 -> (logits 1 x V, k cache, v cache per layer)
```

```python
config = read_config(open_gguf("model.gguf"), "model.gguf")
module = build_model(config, prefill=32, positions=256)
```

Every weight product is in the canonical Q8_0 form `q8-lower` rewrites: the weight is
`q8.dequantize` of the arguments `NAME__q8` (K x N int8) and `NAME__q8_scale`
(K/32 x N f16), NAME the GGUF tensor, and the activation an `arith.extf` of a bf16
value (the chip holds activations in bf16), multiplied by `linalg.matmul` into a zero
f32 accumulator. Norm weights and biases are f32 arguments named after their GGUF
tensors. Both functions are one step of the same graph: m tokens at positions `pos`,
`pos + 1`, ... (every product an m-row GEMM), whose keys and values are written into
the KV cache at `pos` before each row attends to the cache's positions up to its own.
The prefill takes a chunk of up to 32 prompt tokens (`generation.py` reads a longer
prompt chunk by chunk), the decode step one token.

This module is the frontend's public face; the work is done in the package
`xdsl_spatial.frontends.model`: what each architecture reads from the file
(`model/architectures.py`), the numbers a graph is built from (`model/config.py`),
the pieces of a layer (`model/layers.py`), a step of them (`model/step.py`) and the
weights written back as a Q8_0 file for llama.cpp (`model/q8_file.py`).

Keys are cached transposed, `n_kv x head_dim x C` per layer, so the scores are a plain
contraction; values as `n_kv x C x head_dim`; C is the cache's positions (a static
size: positions past a row's own are masked out of the softmax).
"""

from __future__ import annotations

from xdsl_spatial.frontends.model.architectures import ARCHITECTURES, read_config
from xdsl_spatial.frontends.model.config import (
    DEFAULT_POSITIONS,
    GRID,
    LAYER_PRODUCTS,
    MAX_PREFILL,
    MIN_POSITIONS,
    ROW_SPLIT,
    SCALE_TYPE,
    LlamaConfig,
    ModelConfig,
    ModelError,
    cache_names,
    cache_shapes,
    check_step,
    describe,
    weight_args,
)
from xdsl_spatial.frontends.model.q8_file import write_f32_gguf, write_q8_0_gguf
from xdsl_spatial.frontends.model.step import build_model, check_signatures, signature

__all__ = [
    "ARCHITECTURES",
    "DEFAULT_POSITIONS",
    "GRID",
    "LAYER_PRODUCTS",
    "MAX_PREFILL",
    "MIN_POSITIONS",
    "ROW_SPLIT",
    "SCALE_TYPE",
    "LlamaConfig",
    "ModelConfig",
    "ModelError",
    "build_model",
    "cache_names",
    "cache_shapes",
    "check_signatures",
    "check_step",
    "describe",
    "read_config",
    "signature",
    "weight_args",
    "write_f32_gguf",
    "write_q8_0_gguf",
]
