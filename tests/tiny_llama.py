"""A tiny llama checkpoint written with gguf's GGUFWriter: random weights, every size a
small multiple of the Q8_0 block, a byte-level vocabulary of single characters."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from gguf import GGMLQuantizationType, GGUFWriter

from xdsl_spatial.frontends.tokenizer import byte_table

D, HEADS, KV_HEADS, FF, VOCAB = 256, 4, 2, 512, 320
HEAD_DIM = D // HEADS


def _q8_0_blocks(w: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Q8_0 blocks of an [N, K] weight (GGUF's order): random int8 values and f16
    scales, so the weight is exactly Q8_0 whatever w was."""
    n, k = w.shape
    blocks = np.empty((n, k // 32, 34), np.uint8)
    scales = rng.uniform(0.002, 0.02, (n, k // 32)).astype("<f2")
    blocks[:, :, :2] = scales.view(np.uint8).reshape(n, k // 32, 2)
    blocks[:, :, 2:] = rng.integers(-127, 128, (n, k // 32, 32)).astype(np.int8).view(np.uint8)
    return blocks.reshape(n, -1)


def write_tiny_llama(
    path: Path,
    *,
    layers: int = 2,
    arch: str = "llama",
    drop: str | None = None,
    f32_weights: bool = False,
    untied: bool = False,
    n_rot: int = HEAD_DIM,
    rope_base: float = 10000.0,
    seed: int = 0,
    chat_template: str | None = None,
    eos: bool = False,
) -> Path:
    """Write the model to `path`. `drop` leaves that tensor out; `f32_weights` stores the
    layers' products as F32 (so binding them needs --requantize); `untied` gives the LM
    head its own `output.weight`; `n_rot` rotates only that many dimensions of a head;
    `chat_template` is `tokenizer.chat_template`; `eos` makes the control token
    `<|end|>` (the last id) the end of text."""
    rng = np.random.default_rng(seed)
    w = GGUFWriter(str(path), arch)
    w.add_block_count(layers)
    w.add_context_length(128)
    w.add_embedding_length(D)
    w.add_feed_forward_length(FF)
    w.add_head_count(HEADS)
    w.add_head_count_kv(KV_HEADS)
    w.add_rope_dimension_count(n_rot)
    w.add_rope_freq_base(rope_base)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(VOCAB)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    # every byte's character, then pairs of letters (no merges make them: only --tokens
    # reach them), then a control token
    chars = sorted(byte_table(), key=lambda c: byte_table()[c])
    pairs = [a + b for a in "etaoinsh" for b in "etaoinsh"][: VOCAB - 257]
    w.add_token_list(chars + pairs + ["<|end|>"])
    w.add_token_types([1] * (VOCAB - 1) + [3])
    w.add_token_merges([])
    if chat_template is not None:
        w.add_chat_template(chat_template)
    if eos:
        w.add_eos_token_id(VOCAB - 1)

    def product(name: str, k: int, n: int, f32: bool) -> None:
        if name == drop:
            return
        if f32:
            w.add_tensor(name, rng.standard_normal((n, k)).astype(np.float32) * 0.1)
        else:
            w.add_tensor(
                name, _q8_0_blocks(np.zeros((n, k)), rng), raw_dtype=GGMLQuantizationType.Q8_0
            )

    def norm(name: str) -> None:
        if name != drop:
            w.add_tensor(name, (1 + 0.1 * rng.standard_normal(D)).astype(np.float32))

    product("token_embd.weight", D, VOCAB, False)
    for i in range(layers):
        b = f"blk.{i}."
        norm(b + "attn_norm.weight")
        norm(b + "ffn_norm.weight")
        for name, k, n in (
            ("attn_q", D, D),
            ("attn_k", D, KV_HEADS * HEAD_DIM),
            ("attn_v", D, KV_HEADS * HEAD_DIM),
            ("attn_output", D, D),
            ("ffn_gate", D, FF),
            ("ffn_up", D, FF),
            ("ffn_down", FF, D),
        ):
            product(f"{b}{name}.weight", k, n, f32_weights)
    norm("output_norm.weight")
    if untied:
        product("output.weight", D, VOCAB, False)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path
