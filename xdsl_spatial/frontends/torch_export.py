"""
A Hugging Face causal LM (or any module that takes `input_ids`), exported through
torch-mlir as it comes, its weights function arguments.

```python
model = LlamaForCausalLM(config)                  # or Qwen2ForCausalLM, Gemma3ForCausalLM, ...
quantize_(model, IntxWeightOnlyConfig(weight_dtype=torch.int8, granularity=PerGroup(32)))
ex = export_causal_lm(model, input_ids)           # or export_causal_lm(model, ids, attention_mask)
Path("model.mlir").write_text(ex.text)            # @main(%input_ids, %model.layers.0..., ...) -> logits
ex.save_weights("model.npz")                      # the arguments' values, by name
```

What a user must do on torch-mlir's side, and what this does for them:

1. **Ask for the logits alone.** A transformers model returns a `ModelOutput` holding a
   `DynamicCache`, which `torch.export` cannot return (it is not a tensor); the model
   is called with `use_cache=False` and `.logits` is the result.
2. **Non-persistent buffers** (`rotary_emb.inv_freq`): `torch.export` keeps them in the
   program's `constants`, not its `state_dict`, and torch-mlir's frozen import
   (`fx.export_and_import`'s default) looks buffers up in the `state_dict` alone:
   "Could not find state mapping for buffer". The smallest workaround is
   `fx.export_and_import(..., experimental_support_mutation=True)`, whose import
   (`FxImporter.import_program`) reads them from `constants`; here it is passed for you.
   They stay in the text as constants (a few floats).
3. **Weights out of the text.** Imported frozen, every weight is a `dense_resource`
   constant: SmolLM2-135M is ~270 MB of hex, parsed whole. Here the module is called
   through `torch.func.functional_call` with its parameters and persistent buffers as
   arguments after the inputs, so torch-mlir makes them function arguments, named (in
   the printed module) as the model names them (`%model.layers.0.mlp.up_proj.weight`).
   A tensor subclass (torchao's quantised weights) is passed as its inner tensors
   (`__tensor_flatten__`: `...weight.qdata`, `...weight.scale`) and rebuilt inside the
   call (`__tensor_unflatten__`), so its dequantisation is in the export as torchao
   writes it. A tensor whose elements are all zero (torchao's zero point of its
   symmetric mapping) stays a constant, printed `dense<0>`, so `q8-raise` can prove it
   zero. Tied weights (the LM head and the embedding) are one argument.

The module has one function `@main(input_ids: 1 x L i64, [attention_mask: 1 x L
i64,] weights...) -> 1 x L x V logits`; `hf_window` generates with it, greedily, the
window of L positions its cache.

Needs the `[torch]` extra and `transformers` (or whatever made the model).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import torch
from torch.utils._python_dispatch import is_traceable_wrapper_subclass

INPUTS = ("input_ids", "attention_mask")
"""The inputs `@main` takes before the weights, in order (the mask when given)."""


def to_numpy(t: torch.Tensor) -> np.ndarray:
    """A tensor's elements as numpy holds them (bf16 as `ml_dtypes.bfloat16`)."""
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(ml_dtypes.bfloat16).copy()
    return t.numpy().copy()


@dataclass
class _Flat:
    """A model's state as plain tensors: each parameter and persistent buffer, a tensor
    subclass as its inner tensors, in `named_parameters` then `named_buffers` order."""

    names: list[str] = field(default_factory=list)
    """The argument tensors' names."""
    tensors: list[torch.Tensor] = field(default_factory=list)
    zeros: dict[str, torch.Tensor] = field(default_factory=dict)
    """Inner tensors whose elements are all zero: kept as constants."""
    subclasses: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    """Each subclass's type, inner names, context, shape and strides."""
    top: list[str] = field(default_factory=list)
    """The state's own names (what `functional_call` takes)."""

    def add(self, name: str, t: torch.Tensor) -> None:
        if is_traceable_wrapper_subclass(t):
            attrs, ctx = t.__tensor_flatten__()  # pyright: ignore[reportAttributeAccessIssue]
            self.subclasses[name] = (type(t), attrs, ctx, t.shape, t.stride())
            for a in attrs:
                self.add(f"{name}.{a}", getattr(t, a))
            return
        t = t.detach()
        if t.numel() > 1 and not t.dtype.is_floating_point and not bool(t.any()):
            self.zeros[name] = t
            return
        self.names.append(name)
        self.tensors.append(t)

    def rebuild(self, name: str, values: dict[str, torch.Tensor]) -> torch.Tensor:
        """The state tensor `name` from the arguments' `values` (and the zeros)."""
        if name in self.subclasses:
            cls, attrs, ctx, shape, stride = self.subclasses[name]
            inner = {a: self.rebuild(f"{name}.{a}", values) for a in attrs}
            return cls.__tensor_unflatten__(inner, ctx, shape, stride)
        return values[name] if name in values else self.zeros[name]


def flatten_state(model: torch.nn.Module) -> _Flat:
    """The model's parameters and persistent buffers (each tied tensor once) as plain
    tensors; non-persistent buffers stay the module's own."""
    flat = _Flat()
    persistent = set(model.state_dict().keys())
    named = [*model.named_parameters(), *model.named_buffers()]
    for name, t in named:
        if name in persistent:
            flat.top.append(name)
            flat.add(name, t)
    return flat


class _Call(torch.nn.Module):
    """`model(input_ids, [attention_mask], use_cache=False).logits` with the state as
    arguments (`torch.func.functional_call`)."""

    def __init__(self, model: torch.nn.Module, flat: _Flat, n_inputs: int):
        super().__init__()
        self.model, self.flat, self.n_inputs = model, flat, n_inputs
        for i, (name, t) in enumerate(flat.zeros.items()):
            # a buffer of this module: exported as a constant (torch-mlir reads it from
            # the program's constants, as it does non-persistent buffers)
            self.register_buffer(f"zero_{i}", t, persistent=False)
            flat.zeros[name] = getattr(self, f"zero_{i}")

    def forward(self, *args: torch.Tensor) -> torch.Tensor:
        inputs, weights = args[: self.n_inputs], args[self.n_inputs :]
        values = dict(zip(self.flat.names, weights, strict=True))
        state = {name: self.flat.rebuild(name, values) for name in self.flat.top}
        kwargs: dict[str, Any] = dict(zip(INPUTS, inputs))
        out = torch.func.functional_call(self.model, state, (), {**kwargs, "use_cache": False})
        return out.logits if hasattr(out, "logits") else out


@dataclass
class Export:
    """A torch-mlir export with its weights as arguments."""

    text: str
    """The module: `@main(inputs..., weights...)`, arguments named."""
    inputs: list[str]
    """The inputs' names (`input_ids`, and `attention_mask` when exported with one)."""
    names: list[str]
    """The weight arguments' names, in order."""
    weights: list[np.ndarray]
    """Their values."""

    def arrays(self) -> dict[str, np.ndarray]:
        return dict(zip(self.names, self.weights))

    def save_weights(self, path: str | Path) -> None:
        """The weights in an `.npz`, by argument name (bf16 as its bits, `uint16`,
        with `NAME.bf16` marking it: `.npz` has no bf16)."""
        np.savez(path, **encode_weights(self.arrays()))  # pyright: ignore[reportArgumentType]


def encode_weights(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Arrays an `.npz` can hold: a bf16 array as its `uint16` bits under `NAME.bf16`."""
    out = {}
    for name, a in arrays.items():
        if a.dtype == ml_dtypes.bfloat16:
            out[f"{name}.bf16"] = a.view(np.uint16)
        else:
            out[name] = a
    return out


def export_causal_lm(
    model: torch.nn.Module,
    input_ids: torch.Tensor,
    attention_mask: torch.Tensor | None = None,
) -> Export:
    """`model` exported by torch-mlir (linalg on tensors) from `input_ids` (and
    `attention_mask`), its state function arguments (see the module docstring)."""
    from torch_mlir import fx
    from xdsl.dialects.func import FuncOp

    from xdsl_spatial.core.ir_io import parse_module

    model = model.eval()
    flat = flatten_state(model)
    inputs = [input_ids] if attention_mask is None else [input_ids, attention_mask]
    call = _Call(model, flat, len(inputs))
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore", FutureWarning)  # torch.export's own notices
        prog = torch.export.export(call, (*inputs, *flat.tensors), strict=False)
        module = fx.export_and_import(
            prog, output_type="linalg-on-tensors", experimental_support_mutation=True
        )
    parsed = parse_module(str(module), "<torch-mlir>")
    names = [*INPUTS[: len(inputs)], *flat.names]
    (main,) = [op for op in parsed.body.block.ops if isinstance(op, FuncOp)]
    for arg, name in zip(main.body.block.args, names, strict=True):
        arg.name_hint = name
    return Export(
        str(parsed) + "\n", names[: len(inputs)], flat.names, [to_numpy(t) for t in flat.tensors]
    )


def eager_logits(
    model: torch.nn.Module, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None
) -> np.ndarray:
    """The model's own logits (PyTorch eager), as the export returns them."""
    with torch.no_grad():
        out = model.eval()(input_ids=input_ids, attention_mask=attention_mask, use_cache=False)
    return to_numpy(out.logits.float())


def greedy_eager(model: torch.nn.Module, prompt: Sequence[int], steps: int) -> list[int]:
    """PyTorch eager's greedy tokens after `prompt`: the prompt's next token, then one
    per step, each from the model run over every token so far (no cache, as the
    window is run)."""
    ids = list(prompt)
    out: list[int] = []
    with torch.no_grad():
        for _ in range(steps + 1):
            logits = model.eval()(input_ids=torch.tensor([ids]), use_cache=False).logits
            out.append(int(torch.argmax(logits[0, -1].float())))
            ids.append(out[-1])
    return out


# --------------------------------------------------------------------------------------
# A Hugging Face llama from a GGUF file
# --------------------------------------------------------------------------------------

_HF_NAMES = {
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "ffn_gate": "mlp.gate_proj",
    "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
    "attn_norm": "input_layernorm",
    "ffn_norm": "post_attention_layernorm",
}
"""A llama layer's GGUF tensors (`blk.N.NAME.weight`) and Hugging Face's modules."""


def hf_name(gguf_name: str) -> str:
    """The Hugging Face state name of a llama GGUF tensor."""
    if gguf_name == "token_embd.weight":
        return "model.embed_tokens.weight"
    if gguf_name == "output_norm.weight":
        return "model.norm.weight"
    if gguf_name == "output.weight":
        return "lm_head.weight"
    _, layer, part, _ = gguf_name.split(".")
    return f"model.layers.{layer}.{_HF_NAMES[part]}.weight"


def unpermute(w: np.ndarray, heads: int) -> np.ndarray:
    """A q or k weight (out x in) from llama.cpp's pairwise RoPE layout back to Hugging
    Face's half-split one: the inverse of the GGUF converter's permutation, which moves
    each head's rows (i, i + d/2) next to each other."""
    out = w.shape[0]
    return w.reshape(heads, 2, out // heads // 2, -1).swapaxes(1, 2).reshape(w.shape)


def llama_from_gguf(path: str) -> Any:
    """A transformers `LlamaForCausalLM` of the llama GGUF file `path`: its config from
    the file's metadata, its weights dequantised to f32 (gguf's own dequantisation) with
    q and k un-permuted (`unpermute`); eval mode."""
    from gguf.quants import dequantize
    from transformers import LlamaConfig, LlamaForCausalLM

    from xdsl_spatial.frontends.gguf_io import open_gguf
    from xdsl_spatial.frontends.llama import read_config

    reader = open_gguf(path)
    c = read_config(reader, path)
    config = LlamaConfig(
        vocab_size=c.vocab,
        hidden_size=c.d_model,
        intermediate_size=c.d_ff,
        num_hidden_layers=c.n_layer,
        num_attention_heads=c.n_head,
        num_key_value_heads=c.n_kv,
        head_dim=c.head_dim,
        rms_norm_eps=c.eps,
        rope_parameters={"rope_type": "default", "rope_theta": c.rope_base},
        max_position_embeddings=c.context_length,
        tie_word_embeddings=c.lm_head == "token_embd.weight",
    )
    state: dict[str, torch.Tensor] = {}
    for t in reader.tensors:
        shape = tuple(int(d) for d in reversed(t.shape))
        w = np.asarray(dequantize(np.asarray(t.data), t.tensor_type), np.float32).reshape(shape)
        if t.name.endswith("attn_q.weight"):
            w = unpermute(w, c.n_head)
        elif t.name.endswith("attn_k.weight"):
            w = unpermute(w, c.n_kv)
        state[hf_name(t.name)] = torch.from_numpy(np.ascontiguousarray(w))
    with torch.device("meta"):
        model = LlamaForCausalLM(config)
    model.load_state_dict(state, strict=False, assign=True)
    model.tie_weights()
    missing = {n for n, _ in model.named_parameters()} - set(state) - {"lm_head.weight"}
    if missing:
        raise ValueError(f"{path}: no tensor for {sorted(missing)[0]}")
    model.model.rotary_emb = type(model.model.rotary_emb)(config=config)
    return model.eval()
