"""
The llama architecture written in PyTorch, and its export to MLIR through torch-mlir.

`llama.py` writes a checkpoint's graph as MLIR text; this module writes the same graph
as a PyTorch program and lets torch-mlir (`torch_mlir.fx.export_and_import`, output
`linalg-on-tensors`) make the MLIR, so `q8-lower` reads what a PyTorch user's model
becomes. The two functions have the built model's signatures exactly:

```
prefill(tokens: m x i32, pos: 1 x i32, weights..., caches) -> (logits m x V, k, v cache per layer)
decode(tokens: 1 x i32, pos: 1 x i32, weights..., caches)  -> (logits 1 x V, k, v cache per layer)
```

the weights in `llama.weight_args` order and named as there (`NAME__q8`, K x N int8;
`NAME__q8_scale`, K/32 x N f16; norm weights f32), so one binding from the GGUF file
(`binding.bind_model`) serves both, and `spatial-run --weights` binds them. Every
product is a weight-only Q8_0 linear written the PyTorch way,

```python
w = (q.reshape(K // 32, 32, N).float() * s.float().unsqueeze(1)).reshape(K, N)
y = x_bf16.float() @ w
```

which torch-mlir prints as an `expand_shape`, elementwise `sitofp` and `extf`
generics, a broadcasting `mulf` generic, a `collapse_shape` and a `linalg.matmul`;
`q8-raise` proves it Q8_0. The weights are arguments, not constants: a 135M model as
`dense_resource` text is twice its bytes in hex and is parsed whole, where arguments
are bound from the file at run time (and the module is the same for every checkpoint
of the architecture and size).

What each step computes is `llama.py`'s graph (llama.cpp's): a product's input is
rounded to bf16 (the chip holds activations in bf16), RMSNorm, RoPE on consecutive
pairs, grouped-query attention over a KV cache kept as `llama.py` keeps it (keys
`n_kv x head_dim x C`, values `n_kv x C x head_dim`), SwiGLU, the LM head. A step of
m tokens (a chunk of the prompt, or one in a decode step) writes its keys and values
at the run-time position with `torch.slice_scatter(cache, new, axis, p, p + m)` of
`p = pos.item()`, its bounds stated with `torch._check`: torch-mlir exports it as the
built model's `tensor.insert_slice` at that offset, after a `cf.assert` per bound. (A
tensor-indexed write, `cache.index_put((pos,), new)` or `cache[pos] = new`, exports as
`tm_tensor.scatter`, torch-mlir's own dialect, which linalg on tensors does not hold.)

Needs the `[torch]` extra (`pip install -e '.[torch]'`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
import torch
from xdsl.dialects.builtin import StringAttr

from xdsl_spatial.dialects.q8 import Q8_BLOCK, Q8Part, stored_name
from xdsl_spatial.frontends.llama import (
    LlamaConfig,
    ModelError,
    cache_shapes,
    check_step,
    describe,
    signature,
    weight_args,
)

FUNCTIONS = ("prefill", "decode")


def q8_weight(q: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    """The K x N f32 weight of Q8_0 values `q` (K x N int8) and scales `s` (K/32 x N)."""
    k, n = q.shape
    return (q.reshape(k // Q8_BLOCK, Q8_BLOCK, n).float() * s.float().unsqueeze(1)).reshape(k, n)


def q8_linear(x: torch.Tensor, q: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    """`x . W` over the Q8_0 weight (q, s), the activation rounded to bf16 first."""
    return x.to(torch.bfloat16).float() @ q8_weight(q, s)


class LlamaStep(torch.nn.Module):
    """One step of the model over a cache of `positions`: `m` tokens from position
    `pos` (a chunk of the prompt, or a decode step's one)."""

    inv_freq: torch.Tensor

    def __init__(self, config: LlamaConfig, m: int, positions: int):
        super().__init__()
        beyond = config.beyond_llama()
        if beyond:
            raise ModelError(
                f"the PyTorch frontend writes llama's graph; this {config.arch} model has "
                f"{', '.join(beyond)} (--frontend mlir writes it)"
            )
        self.c, self.m, self.positions = config, m, positions
        self.names = [name for name, _, _ in weight_args(config)]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.register_buffer("inv_freq", torch.from_numpy(config.inv_freq().astype(np.float32)))

    # ---- pieces ---------------------------------------------------------------------

    def _w(self, weights: Sequence[torch.Tensor], name: str) -> torch.Tensor:
        return weights[self.index[name]]

    def _linear(self, x: torch.Tensor, weights: Sequence[torch.Tensor], name: str) -> torch.Tensor:
        q = self._w(weights, stored_name(name, Q8Part.VALUES))
        s = self._w(weights, stored_name(name, Q8Part.SCALES))
        return q8_linear(x, q, s)

    def _embed(self, tokens: torch.Tensor, weights: Sequence[torch.Tensor]) -> torch.Tensor:
        """Column t of the Q8_0 embedding (K x V) for each token t, dequantised exactly."""
        q = self._w(weights, stored_name("token_embd.weight", Q8Part.VALUES))
        s = self._w(weights, stored_name("token_embd.weight", Q8Part.SCALES))
        t = tokens.long()
        return q8_weight(q.index_select(1, t), s.index_select(1, t)).t()

    def _rmsnorm(self, x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        ss = (x * x).sum(-1, keepdim=True)
        r = torch.rsqrt(ss / self.c.d_model + self.c.eps)
        return (x * r * w).to(torch.bfloat16)

    def _rope(self, x: torch.Tensor, heads: int, cos: torch.Tensor, sin: torch.Tensor):
        """Each head's consecutive pairs of `x` (m x heads*head_dim) rotated: m x heads x head_dim."""
        m, half = self.m, self.c.head_dim // 2
        p = x.reshape(m, heads, half, 2)
        x0, x1 = p[..., 0], p[..., 1]
        c, s = cos.unsqueeze(1), sin.unsqueeze(1)
        return torch.stack((x0 * c - x1 * s, x0 * s + x1 * c), -1).reshape(m, heads, 2 * half)

    def _attention(
        self, q: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, pos: torch.Tensor
    ) -> torch.Tensor:
        """softmax(q k^T, causal) v: q is n_kv x group*m x head_dim (scaled), keys n_kv x
        head_dim x n_keys, values n_kv x n_keys x head_dim; the heads side by side in a
        row, rounded to bf16."""
        c, m = self.c, self.m
        n_keys = keys.shape[-1]
        scores = torch.bmm(q, keys).reshape(c.n_kv, c.group, m, n_keys)
        row = pos + torch.arange(m, dtype=torch.int32)
        ok = torch.arange(n_keys, dtype=torch.int32).reshape(1, n_keys) <= row.reshape(m, 1)
        low = torch.full((), torch.finfo(torch.float32).min, dtype=torch.float32)
        mx = torch.where(ok, scores, low).amax(-1, keepdim=True)
        p = torch.where(ok, torch.exp(scores - mx), torch.zeros((), dtype=torch.float32))
        total = p.sum(-1, keepdim=True)
        o = torch.bmm(p.reshape(c.n_kv, c.group * m, n_keys), values)
        o = o.reshape(c.n_kv, c.group, m, c.head_dim) / total
        return o.permute(2, 0, 1, 3).reshape(m, c.q_dim).to(torch.bfloat16)

    def _write(self, cache: torch.Tensor, new: torch.Tensor, axis: int, pos: torch.Tensor):
        """`new` (m positions on `axis`) written into `cache` from `pos`: torch-mlir
        exports it as `tensor.insert_slice` at the run-time offset, after `cf.assert`s
        of the bounds `torch._check` states."""
        p = cast(int, pos.item())  # while exporting, a SymInt standing for the int
        torch._check(p >= 0)
        torch._check(p + self.m <= self.positions)
        return torch.slice_scatter(cache, new, axis, p, p + self.m)

    # ---- a whole step ---------------------------------------------------------------

    def forward(self, *args: torch.Tensor) -> tuple[torch.Tensor, ...]:
        c, m = self.c, self.m
        tokens, pos = args[0], args[1]
        weights = args[2 : 2 + len(self.names)]
        caches = list(args[2 + len(self.names) :])
        kv, g, hd = c.n_kv, c.group, c.head_dim
        theta = (pos + torch.arange(m, dtype=torch.int32)).float().unsqueeze(1) * self.inv_freq
        cos, sin = torch.cos(theta), torch.sin(theta)
        x = self._embed(tokens, weights)
        new_caches: list[torch.Tensor] = []
        for i in range(c.n_layer):
            xn = self._rmsnorm(x, self._w(weights, f"blk.{i}.attn_norm.weight"))
            q = self._linear(xn, weights, f"blk.{i}.attn_q.weight")
            k = self._linear(xn, weights, f"blk.{i}.attn_k.weight")
            v = self._linear(xn, weights, f"blk.{i}.attn_v.weight")
            qr = self._rope(q, c.n_head, cos, sin) * (1.0 / math.sqrt(hd))
            qh = qr.reshape(m, kv, g, hd).permute(1, 2, 0, 3).reshape(kv, g * m, hd)
            kt = self._rope(k, kv, cos, sin).permute(1, 2, 0)
            vt = v.reshape(m, kv, hd).permute(1, 0, 2)
            k_cache = self._write(caches[2 * i], kt, 2, pos)
            v_cache = self._write(caches[2 * i + 1], vt, 1, pos)
            att = self._attention(qh, k_cache, v_cache, pos)
            new_caches += [k_cache, v_cache]
            x = x + self._linear(att, weights, f"blk.{i}.attn_output.weight")
            xn = self._rmsnorm(x, self._w(weights, f"blk.{i}.ffn_norm.weight"))
            gate = self._linear(xn, weights, f"blk.{i}.ffn_gate.weight")
            up = self._linear(xn, weights, f"blk.{i}.ffn_up.weight")
            h = (gate / (1.0 + torch.exp(-gate)) * up).to(torch.bfloat16)
            x = x + self._linear(h, weights, f"blk.{i}.ffn_down.weight")
        xn = self._rmsnorm(x, self._w(weights, "output_norm.weight"))
        return (self._linear(xn, weights, c.lm_head), *new_caches)


def example_args(config: LlamaConfig, m: int, positions: int) -> tuple[torch.Tensor, ...]:
    """Zero arguments of the step's types (what torch.export traces with)."""
    args = [torch.zeros(m, dtype=torch.int32), torch.zeros(1, dtype=torch.int32)]
    dtypes = {"i8": torch.int8, "f16": torch.float16, "f32": torch.float32}
    args += [torch.zeros(shape, dtype=dtypes[e]) for _, shape, e in weight_args(config)]
    args += [torch.zeros(shape) for shape in cache_shapes(config, positions)]
    return tuple(args)


def run_eager(config: LlamaConfig, m: int, positions: int, args: Sequence[Any]) -> list[np.ndarray]:
    """The step run by PyTorch itself on numpy arrays: logits and caches."""
    step = LlamaStep(config, m, positions)
    with torch.no_grad():
        out = step(*(torch.from_numpy(np.ascontiguousarray(a)) for a in args))
    return [o.numpy() for o in out]


def generate_eager(
    config: LlamaConfig,
    weights: Sequence[np.ndarray],
    prompt: Sequence[int],
    steps: int,
    positions: int,
    forced: Sequence[int] | None = None,
) -> tuple[list[int], np.ndarray]:
    """Greedy generation by PyTorch itself: the prefill of `prompt` (one step of all its
    tokens into empty caches), then `steps` decode steps fed each step's greedy token
    (or `forced`'s). The generated ids and one row of logits per generated token."""
    m = len(prompt)
    ws = [torch.from_numpy(np.ascontiguousarray(w)) for w in weights]
    prefill = LlamaStep(config, m, positions)
    decode = LlamaStep(config, 1, positions)
    empty = [torch.zeros(shape) for shape in cache_shapes(config, positions)]
    with torch.no_grad():
        out = prefill(
            torch.tensor(list(prompt), dtype=torch.int32),
            torch.zeros(1, dtype=torch.int32),
            *ws,
            *empty,
        )
        rows = [out[0][-1].numpy()]
        caches = list(out[1:])
        tokens = [int(np.argmax(rows[-1]))]
        for s in range(steps):
            feed = tokens[-1] if forced is None else forced[s]
            out = decode(
                torch.tensor([feed], dtype=torch.int32),
                torch.tensor([m + s], dtype=torch.int32),
                *ws,
                *caches,
            )
            rows.append(out[0][0].numpy())
            caches = list(out[1:])
            tokens.append(int(np.argmax(rows[-1])))
    return tokens, np.stack(rows)


def export_step(config: LlamaConfig, m: int, positions: int) -> str:
    """torch-mlir's linalg-on-tensors text of one step of `m` tokens (its function `@main`)."""
    from torch_mlir import fx

    step = LlamaStep(config, m, positions)
    with warnings.catch_warnings():
        # torch.export's own deprecation notices (pytree's LeafSpec), not about this model
        warnings.simplefilter("ignore", FutureWarning)
        module = fx.export_and_import(
            step, *example_args(config, m, positions), output_type="linalg-on-tensors"
        )
    return str(module)


def arg_names(config: LlamaConfig) -> list[str]:
    """A step's argument names, as `llama.build_model` names them."""
    return [name for name, _ in signature(config, 1, 1)[0]]


def export_model(
    config: LlamaConfig,
    prefill: int,
    positions: int,
    source: str = "",
    progress: Callable[[str], None] = lambda _: None,
) -> str:
    """The module text of `@prefill` (of `prefill` tokens) and `@decode`, each exported
    by torch-mlir, with the built model's function and argument names. torch-mlir
    names a function `@main` and its arguments `%argN`; each export is parsed, its
    `dense_resource` constants (the RoPE frequencies) made dense, its function and
    arguments renamed, and both are printed in one module."""
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.dialects.func import FuncOp

    from xdsl_spatial.core.ir_io import parse_module

    check_step(config, prefill, positions)
    funcs = []
    for name in FUNCTIONS:
        m = 1 if name == "decode" else prefill
        progress(f"exporting @{name} with torch-mlir")
        module = parse_module(export_step(config, m, positions), f"<torch-mlir {name}>")
        (func,) = [op for op in module.body.block.ops if isinstance(op, FuncOp)]
        func.sym_name = StringAttr(name)
        for arg, arg_name in zip(func.body.block.args, arg_names(config), strict=True):
            arg.name_hint = arg_name
        func.detach()
        funcs.append(func)
    header = (
        f"// {describe(config, prefill, positions, source)}; exported by torch-mlir from "
        "xdsl_spatial.frontends.torch_llama\n"
    )
    return header + str(ModuleOp(funcs)) + "\n"
