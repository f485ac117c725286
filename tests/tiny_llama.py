"""Tiny checkpoints written with gguf's GGUFWriter: random weights, every size a small
multiple of the Q8_0 block, a byte-level vocabulary of single characters. A llama
(`write_tiny_llama`), and the architectures beside it: qwen2 (`write_tiny_qwen2`, biases
on q, k and v) and gemma3 (`write_tiny_gemma3`: q/k norms, post-norms, GeGLU, sliding
and global layers)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from gguf import GGMLQuantizationType, GGUFWriter

from xdsl_spatial.frontends.tokenizer import byte_table

D, HEADS, KV_HEADS, FF, VOCAB = 256, 4, 2, 512, 320
HEAD_DIM = D // HEADS

GEMMA_D, GEMMA_HEAD_DIM, GEMMA_FF, GEMMA_LAYERS = 128, 48, 256, 6
"""The tiny gemma3: heads of 48 (so q is 192 wide, not d_model), six layers (five
sliding, one global, llama.cpp's pattern)."""


def _q8_0_blocks(w: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Q8_0 blocks of an [N, K] weight (GGUF's order): random int8 values and f16
    scales, so the weight is exactly Q8_0 whatever w was."""
    n, k = w.shape
    blocks = np.empty((n, k // 32, 34), np.uint8)
    scales = rng.uniform(0.002, 0.02, (n, k // 32)).astype("<f2")
    blocks[:, :, :2] = scales.view(np.uint8).reshape(n, k // 32, 2)
    blocks[:, :, 2:] = rng.integers(-127, 128, (n, k // 32, 32)).astype(np.int8).view(np.uint8)
    return blocks.reshape(n, -1)


def llama3_rope_factors(
    n_rot: int, base: float, factor: float = 8.0, low: float = 1.0, high: float = 4.0, ctx: int = 64
) -> list[float]:
    """Llama 3's RoPE factors as the GGUF converter writes them (`rope_freqs.weight`),
    for an original context of `ctx` positions (8192 in Llama 3.1; a tiny one here so
    that the three kinds of pair occur in a head of 64)."""
    out = []
    for i in range(n_rot // 2):
        wavelen = 2 * np.pi / base ** (-2.0 * i / n_rot)
        if wavelen < ctx / high:
            out.append(1.0)
        elif wavelen > ctx / low:
            out.append(factor)
        else:
            smooth = (ctx / wavelen - low) / (high - low)
            out.append(1 / ((1 - smooth) / factor + smooth))
    return out


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
    biases: Sequence[str] = (),
    rope_factors: Sequence[float] | None = None,
    rope_scaling: tuple[str, float] | None = None,
    gemma: bool = False,
    window: int = 4,
    swa_pattern: int | list[bool] | None = None,
    softcap: float | None = None,
    merges: Sequence[str] = (),
    vocab: int = VOCAB,
) -> Path:
    """Write the model to `path`. `drop` leaves that tensor out; `f32_weights` stores the
    layers' products as F32 (so binding them needs --requantize); `untied` gives the LM
    head its own `output.weight`; `n_rot` rotates only that many dimensions of a head;
    `biases` gives those products (`attn_q`, ...) a bias; `rope_factors` writes them as
    `rope_freqs.weight` (llama 3's scaling), `rope_scaling` (type, factor) as
    `rope.scaling.type` and `.factor`. `gemma` writes gemma3's sizes and tensors (q/k norms, post-norms) and keys:
    a sliding `window`, `swa_pattern` (a period or one flag per layer) when given,
    `softcap` as `final_logit_softcapping` when given. `merges` are written as the
    vocabulary's BPE merges (llama.cpp will not load a gpt2 vocabulary without any;
    none is written by default, so that --prompt reads one character a token);
    `chat_template` is `tokenizer.chat_template`; `eos` makes the control token
    `<|end|>` (the last id) the end of text; `vocab` tokens in all (past the bytes
    and pairs, `<i>`: a head as wide as a real model's)."""
    rng = np.random.default_rng(seed)
    d = GEMMA_D if gemma else D
    hd = GEMMA_HEAD_DIM if gemma else HEAD_DIM
    ff = GEMMA_FF if gemma else FF
    w = GGUFWriter(str(path), arch)
    w.add_block_count(layers)
    w.add_context_length(128)
    w.add_embedding_length(d)
    w.add_feed_forward_length(ff)
    w.add_head_count(HEADS)
    w.add_head_count_kv(KV_HEADS)
    if gemma:
        w.add_key_length(hd)
        w.add_value_length(hd)
        w.add_sliding_window(window)
        if swa_pattern is not None:
            w.add_sliding_window_pattern(swa_pattern)  # pyright: ignore[reportArgumentType]
        if softcap is not None:
            w.add_final_logit_softcapping(softcap)
    else:
        w.add_rope_dimension_count(n_rot)
    w.add_rope_freq_base(rope_base)
    if rope_scaling is not None:
        w.add_string(f"{arch}.rope.scaling.type", rope_scaling[0])
        w.add_rope_scaling_factor(rope_scaling[1])
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(vocab)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    # every byte's character, then pairs of letters (no merges make them: only --tokens
    # reach them), then a control token
    chars = sorted(byte_table(), key=lambda c: byte_table()[c])
    pairs = [a + b for a in "etaoinsh" for b in "etaoinsh"][: vocab - 257]
    more = [f"<{i}>" for i in range(vocab - 1 - len(chars) - len(pairs))]
    w.add_token_list(chars + pairs + more + ["<|end|>"])
    w.add_token_types([1] * (vocab - 1) + [3])
    w.add_token_merges(list(merges))
    if chat_template is not None:
        w.add_chat_template(chat_template)
    if eos:
        w.add_eos_token_id(vocab - 1)

    def product(name: str, k: int, n: int, f32: bool) -> None:
        if name == drop:
            return
        if f32:
            w.add_tensor(name, rng.standard_normal((n, k)).astype(np.float32) * 0.1)
        else:
            w.add_tensor(
                name, _q8_0_blocks(np.zeros((n, k)), rng), raw_dtype=GGMLQuantizationType.Q8_0
            )

    def vector(name: str, n: int, around: float = 1.0) -> None:
        if name != drop:
            w.add_tensor(name, (around + 0.1 * rng.standard_normal(n)).astype(np.float32))

    product("token_embd.weight", d, vocab, False)
    q_dim, kv_dim = HEADS * hd, KV_HEADS * hd
    for i in range(layers):
        b = f"blk.{i}."
        vector(b + "attn_norm.weight", d)
        vector(b + "ffn_norm.weight", d)
        shapes = {
            "attn_q": (d, q_dim),
            "attn_k": (d, kv_dim),
            "attn_v": (d, kv_dim),
            "attn_output": (q_dim, d),
            "ffn_gate": (d, ff),
            "ffn_up": (d, ff),
            "ffn_down": (ff, d),
        }
        for name, (k, n) in shapes.items():
            product(f"{b}{name}.weight", k, n, f32_weights)
        for name in biases:
            vector(f"{b}{name}.bias", shapes[name][1], 0.0)
        if gemma:
            vector(b + "attn_q_norm.weight", hd)
            vector(b + "attn_k_norm.weight", hd)
            vector(b + "post_attention_norm.weight", d)
            vector(b + "post_ffw_norm.weight", d)
    vector("output_norm.weight", d)
    if untied:
        product("output.weight", d, vocab, False)
    if rope_factors is not None:
        w.add_tensor("rope_freqs.weight", np.asarray(rope_factors, np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def write_tiny_qwen2(path: Path, **options) -> Path:
    """A tiny qwen2: llama's sizes, biases on q, k and v, RoPE on the heads' halves."""
    return write_tiny_llama(
        path, arch="qwen2", biases=("attn_q", "attn_k", "attn_v"), rope_base=1e6, **options
    )


def write_tiny_gemma3(path: Path, **options) -> Path:
    """A tiny gemma3 of six layers: the first five attend over a window of 4 positions
    (RoPE base 10000), the sixth over all (base 1e6)."""
    options.setdefault("layers", GEMMA_LAYERS)
    return write_tiny_llama(path, arch="gemma3", gemma=True, rope_base=1e6, **options)
