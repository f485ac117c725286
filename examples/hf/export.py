"""
Export small Hugging Face causal LMs (random weights) through torch-mlir into this
folder, as `xdsl_spatial.frontends.torch_export` exports any: the tests read them
without torch.

    pip install -e '.[torch]' transformers torchao
    python examples/hf/export.py               # rewrites every examples/hf/*.{mlir,npz}
    python examples/hf/export.py llama qwen2   # just those

Each `NAME.mlir` is `@main(input_ids, [attention_mask,] weights...) -> logits`; its
`NAME.npz` holds the weights by argument name (`Export.save_weights`), the inputs
(`input_ids`, `attention_mask`), PyTorch eager's logits for them (`eager`) and its
greedy tokens after the prompt 5, 6, 7 (`greedy`, the prompt's next token and 3 steps).

- `llama`: `LlamaForCausalLM` from `input_ids` alone (transformers' packed-sequence
  check is a `tm_tensor.scan`; the embedding a gather with `cf.assert`s);
- `llama_mask`: the same with an `attention_mask`;
- `qwen2`: `Qwen2ForCausalLM` (biases on q, k and v);
- `gemma3`: `Gemma3ForCausalLM` (sliding-window and global layers, q/k norms,
  GeGLU, the embedding scaled);
- `llama_torchao`: a llama quantised by torchao as its docs tell
  (`IntxWeightOnlyConfig(weight_dtype=torch.int8, granularity=PerGroup(32),
  mapping_type=MappingType.SYMMETRIC)`), large enough (d_model 256) that `q8-lower`
  lowers every linear.

The weights are seeded, so a rerun writes the same files.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from xdsl_spatial.frontends.torch_export import (
    eager_logits,
    encode_weights,
    export_causal_lm,
    greedy_eager,
)

HERE = Path(__file__).resolve().parent
SEQ = 6
GREEDY_PROMPT, GREEDY_STEPS = [5, 6, 7], 3
"""PyTorch eager's greedy tokens after this prompt are stored too (`greedy`)."""


def _small(cls_name: str, **extra) -> Callable[[], torch.nn.Module]:
    def build() -> torch.nn.Module:
        import transformers

        config_cls = {
            "LlamaForCausalLM": transformers.LlamaConfig,
            "Qwen2ForCausalLM": transformers.Qwen2Config,
            "Gemma3ForCausalLM": transformers.Gemma3TextConfig,
        }[cls_name]
        sizes = {
            "vocab_size": 128,
            "hidden_size": 64,
            "intermediate_size": 128,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "max_position_embeddings": 64,
        }
        config = config_cls(**{**sizes, **extra})
        return getattr(transformers, cls_name)(config)

    return build


def _torchao_llama() -> torch.nn.Module:
    from torchao.quantization import IntxWeightOnlyConfig, quantize_
    from torchao.quantization.granularity import PerGroup
    from torchao.quantization.quant_primitives import MappingType

    model = _small(
        "LlamaForCausalLM",
        vocab_size=320,  # tests/tiny_llama.py's vocabulary: spatial-generate reads its GGUF
        hidden_size=256,
        intermediate_size=512,
        num_hidden_layers=1,
        head_dim=64,
        tie_word_embeddings=True,
    )()
    config = IntxWeightOnlyConfig(
        weight_dtype=torch.int8, granularity=PerGroup(32), mapping_type=MappingType.SYMMETRIC
    )
    quantize_(model, config)
    return model


MODELS: dict[str, tuple[Callable[[], torch.nn.Module], bool]] = {
    "llama": (_small("LlamaForCausalLM", tie_word_embeddings=True), False),
    "llama_mask": (_small("LlamaForCausalLM", tie_word_embeddings=True), True),
    "qwen2": (_small("Qwen2ForCausalLM"), False),
    "gemma3": (_small("Gemma3ForCausalLM", sliding_window=4, query_pre_attn_scalar=16), False),
    "llama_torchao": (_torchao_llama, False),
}
"""Each export: the model (built seeded) and whether it is exported with a mask."""


def write(name: str) -> None:
    build, with_mask = MODELS[name]
    torch.manual_seed(0)
    model = build().eval()
    vocab = int(getattr(model.config, "vocab_size"))  # noqa: B009  (a transformers config)
    ids = torch.randint(0, vocab, (1, SEQ), generator=torch.Generator().manual_seed(1))
    mask = torch.ones(1, SEQ, dtype=torch.long) if with_mask else None
    ex = export_causal_lm(model, ids, mask)
    (HERE / f"{name}.mlir").write_text(
        f"// {type(model).__name__} (random weights) exported by examples/hf/export.py\n{ex.text}"
    )
    arrays = {
        **encode_weights(ex.arrays()),
        "input_ids": ids.numpy(),
        "eager": eager_logits(model, ids, mask),
    }
    if mask is not None:
        arrays["attention_mask"] = mask.numpy()
    arrays["greedy"] = np.array(greedy_eager(model, GREEDY_PROMPT, GREEDY_STEPS))
    np.savez(HERE / f"{name}.npz", **arrays)  # pyright: ignore[reportArgumentType]
    print(f"wrote examples/hf/{name}.mlir and .npz")


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    for name in argv or MODELS:
        write(name)


if __name__ == "__main__":
    main(sys.argv[1:])
