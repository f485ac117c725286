"""
A llama-architecture GGUF checkpoint as two MLIR functions in linalg on tensors:

```
@prefill(tokens: m x i32, weights...)            -> (logits m x V, k cache, v cache per layer)
@decode(token: 1 x i32, pos: 1 x i32, weights..., k cache, v cache per layer)
                                                 -> (logits 1 x V, k cache, v cache per layer)
```

Every weight product is in the canonical Q8_0 form `q8-lower` rewrites: the weight is
`q8.dequantize` of the arguments `NAME__q8` (K x N int8) and `NAME__q8_scale`
(K/32 x N f16), NAME the GGUF tensor, and the activation an `arith.extf` of a bf16
value (the chip holds activations in bf16), multiplied by `linalg.matmul` into a zero
f32 accumulator. Norm weights are f32 arguments named after their GGUF tensors. The
prefill is one step over the m prompt tokens (every product an m-row GEMM); a decode
step reads the KV cache, writes the token's keys and values at `pos`, and returns it.

What each layer computes is llama.cpp's graph for `LLM_ARCH_LLAMA`:

- the embedding: column `t` of the Q8_0 `token_embd.weight` (dequantised exactly);
- RMSNorm: `x / sqrt(mean(x^2) + eps) * w`;
- RoPE in GGML's "normal" layout: each head's consecutive pairs (x[2i], x[2i+1])
  rotated by `pos * base^(-2i / n_rot)`. The GGUF converter permutes the q and k
  weights of a Hugging Face llama from its half-split layout into this one, so the
  file's weights are rotated pairwise (llama.cpp's `llama_model_rope_type` gives
  `LLAMA_ROPE_TYPE_NORM` for this architecture); dimensions past `n_rot` pass as
  they are;
- grouped-query attention: query head h reads KV head h // (n_head / n_kv), scores
  scaled by 1/sqrt(head_dim), causal softmax;
- the FFN `down(silu(gate(x)) * up(x))`, residuals around both halves;
- the final RMSNorm and the LM head, `output.weight` or, when the file has none, the
  embedding's own weight (tied).

Keys are cached transposed, `n_kv x head_dim x C` per layer, so the scores are a plain
contraction; values as `n_kv x C x head_dim`; C is the cache's positions (a static
size: positions past `pos` are masked out of the softmax).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from xdsl_spatial.dialects.q8 import Q8_BLOCK, Q8Part, stored_name

ARCHITECTURES = ("llama",)
"""The `general.architecture` values this module emits."""

MAX_PREFILL = 32
"""Prompt tokens one prefill step takes: a fold's rows are at most a tile's."""

DEFAULT_POSITIONS = 256
"""The KV cache's positions when none are asked for (fewer if the model's context is shorter)."""

SCALE_TYPE = "f16"
"""Q8_0 scales as GGUF stores them."""

LAYER_PRODUCTS = ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down")
"""The weight products of one layer, by their GGUF names `blk.L.NAME.weight`."""

ROW_SPLIT = ("attn_output", "ffn_down")
"""Over several chips, the products whose weight is split on its rows (K), each chip
adding a partial sum, as Megatron-style tensor parallelism splits the products that
read a split result; every other product (q, k, v, gate, up, the LM head) is split on
its columns (N)."""

LAYER_NORMS = ("attn_norm", "ffn_norm")

LOWEST = "-3.40282347e+38"
"""The lowest f32: a masked score, below every score a row has (position 0 is never
masked), so the row's maximum is a real score."""


class ModelError(ValueError):
    """A checkpoint this module cannot emit: an unknown architecture, a missing or
    misshapen tensor, a setting it does not implement. The message names it."""


# --------------------------------------------------------------------------------------
# Hyperparameters, from the file's metadata
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LlamaConfig:
    """Every number the model's graph is built from."""

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
    """RMSNorm's epsilon."""
    rope_base: float
    context_length: int
    """Positions the model was trained for: the largest cache it takes."""
    lm_head: str
    """The LM head's GGUF tensor: `output.weight`, or `token_embd.weight` when tied."""

    def default_positions(self) -> int:
        return min(DEFAULT_POSITIONS, self.context_length)

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

    def products(self) -> list[tuple[str, int, int]]:
        """(GGUF tensor, K, N) of every weight product, in the order a step runs them."""
        d, f = self.d_model, self.d_ff
        shapes = {
            "attn_q": (d, self.q_dim),
            "attn_k": (d, self.kv_dim),
            "attn_v": (d, self.kv_dim),
            "attn_output": (self.q_dim, d),
            "ffn_gate": (d, f),
            "ffn_up": (d, f),
            "ffn_down": (f, d),
        }
        out = [
            (f"blk.{i}.{p}.weight", *shapes[p]) for i in range(self.n_layer) for p in LAYER_PRODUCTS
        ]
        return [*out, (self.lm_head, d, self.vocab)]

    def vectors(self) -> list[tuple[str, int]]:
        """(GGUF tensor, length) of every norm weight."""
        out = [
            (f"blk.{i}.{n}.weight", self.d_model) for i in range(self.n_layer) for n in LAYER_NORMS
        ]
        return [*out, ("output_norm.weight", self.d_model)]

    def inv_freq(self) -> np.ndarray:
        """RoPE's angle per position for each pair of a head: `base^(-2i / n_rot)` for
        the rotated pairs, 0 (no rotation) past them."""
        i = np.arange(self.head_dim // 2, dtype=np.float64)
        f = self.rope_base ** (-2.0 * i / self.n_rot)
        f[i >= self.n_rot // 2] = 0.0
        return f


def _field(reader: Any, key: str) -> Any:
    f = reader.fields.get(key)
    return None if f is None else f.contents()


def read_config(reader: Any, path: str = "<gguf>") -> LlamaConfig:
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

    def need(key: str) -> Any:
        v = _field(reader, f"{arch}.{key}")
        if v is None:
            raise ModelError(f"{path}: metadata {arch}.{key} is missing")
        return v

    def opt(key: str, default: Any) -> Any:
        v = _field(reader, f"{arch}.{key}")
        return default if v is None else v

    scaling = opt("rope.scaling.type", "none")
    factor = float(opt("rope.scaling.factor", 1.0) or 1.0)
    if scaling != "none" and factor != 1.0:
        raise ModelError(f"{path}: {arch}.rope.scaling.type = {scaling!r} is not supported")
    tensors = {t.name: tuple(int(d) for d in t.shape) for t in reader.tensors}
    if "rope_freqs.weight" in tensors:
        raise ModelError(
            f"{path}: tensor rope_freqs.weight (RoPE frequency factors) is not supported"
        )
    d = int(need("embedding_length"))
    n_head = int(need("attention.head_count"))
    n_kv = int(opt("attention.head_count_kv", n_head))
    if n_head <= 0 or n_kv <= 0 or n_head % n_kv:
        raise ModelError(f"{path}: {n_head} heads cannot share {n_kv} KV heads")
    head_dim = int(opt("attention.key_length", d // n_head))
    if int(opt("attention.value_length", head_dim)) != head_dim:
        raise ModelError(f"{path}: {arch}.attention.value_length differs from key_length")
    n_rot = int(opt("rope.dimension_count", head_dim))
    if n_rot % 2 or not 0 < n_rot <= head_dim or head_dim % 2:
        raise ModelError(f"{path}: {arch}.rope.dimension_count = {n_rot} for heads of {head_dim}")
    if "token_embd.weight" not in tensors:
        raise ModelError(f"{path}: no tensor token_embd.weight in the file")
    emb = tensors["token_embd.weight"]
    config = LlamaConfig(
        n_layer=int(need("block_count")),
        d_model=d,
        n_head=n_head,
        n_kv=n_kv,
        head_dim=head_dim,
        n_rot=n_rot,
        d_ff=int(need("feed_forward_length")),
        vocab=emb[1] if len(emb) > 1 else 0,
        eps=float(need("attention.layer_norm_rms_epsilon")),
        rope_base=float(opt("rope.freq_base", 10000.0)),
        context_length=int(opt("context_length", 2048)),
        lm_head="output.weight" if "output.weight" in tensors else "token_embd.weight",
    )
    _check_tensors(config, tensors, path)
    return config


def _check_tensors(c: LlamaConfig, tensors: dict[str, tuple[int, ...]], path: str) -> None:
    """Every tensor the graph reads is in the file with its shape (GGUF order, ne0
    first: a product's weight is [K, N])."""
    want = {"token_embd.weight": (c.d_model, c.vocab)}
    want.update({name: (k, n) for name, k, n in c.products()})
    want.update({name: (n,) for name, n in c.vectors()})
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
        if hit is not None and int(hit.group(1)) < c.n_layer:
            raise ModelError(f"{path}: tensor {name} is not part of the llama graph this emits")


# --------------------------------------------------------------------------------------
# Text of one function
# --------------------------------------------------------------------------------------


def _ty(shape: Sequence[int], elem: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def _map(n: int, results: Iterable[str]) -> str:
    dims = ", ".join(f"d{i}" for i in range(n))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


def _d(*idx: int) -> list[str]:
    return [f"d{i}" for i in idx]


def _f32(v: float) -> str:
    return f"{float(np.float32(v)):.9e}"


@dataclass
class _In:
    value: str
    type: str
    map: str
    elem: str


class _Func:
    """The lines of one function, with fresh SSA names and one zero or empty tensor
    per shape however often it is used."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.used: set[str] = set()
        self.shared: dict[tuple[str, ...], str] = {}

    def fresh(self, hint: str) -> str:
        name, i = hint, 0
        while name in self.used:
            i += 1
            name = f"{hint}.{i}"
        self.used.add(name)
        return "%" + name

    def emit(self, line: str) -> None:
        self.lines.append("    " + line)

    def op(self, hint: str, text: str) -> str:
        v = self.fresh(hint)
        self.emit(f"{v} = {text}")
        return v

    def const(self, value: str, ty: str) -> str:
        key = ("const", value, ty)
        if key not in self.shared:
            self.shared[key] = self.op("c", f"arith.constant {value} : {ty}")
        return self.shared[key]

    def empty(self, shape: Sequence[int], elem: str) -> str:
        key = ("empty", _ty(shape, elem))
        if key not in self.shared:
            self.shared[key] = self.op("empty", f"tensor.empty() : {key[1]}")
        return self.shared[key]

    def filled(self, shape: Sequence[int], value: str, hint: str = "zero") -> str:
        ty = _ty(shape, "f32")
        key = ("fill", ty, value)
        if key not in self.shared:
            c = self.const(value, "f32")
            e = self.empty(shape, "f32")
            self.shared[key] = self.op(hint, f"linalg.fill ins({c} : f32) outs({e} : {ty}) -> {ty}")
        return self.shared[key]

    def generic(
        self,
        hint: str,
        n_dims: int,
        reduce: Sequence[int],
        ins: Sequence[_In],
        out: tuple[str, Sequence[int], str, Sequence[str]],
        body: Callable[[Callable[[str], str], list[str]], str],
    ) -> str:
        """A one-result `linalg.generic`: `out` is (init value, shape, element type,
        result map); `body(emit, args)` emits the body's ops (`emit(text)` returns
        the value's name) and returns the value it yields."""
        init, shape, elem, out_map = out
        ty = _ty(shape, elem)
        maps = [i.map for i in ins] + [_map(n_dims, out_map)]
        iters = ", ".join('"reduction"' if d in reduce else '"parallel"' for d in range(n_dims))
        head = f"linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{iters}]}}"
        ins_text = ""
        if ins:
            ins_text = f" ins({', '.join(i.value for i in ins)} : {', '.join(i.type for i in ins)})"
        result = self.op(hint, f"{head}{ins_text} outs({init} : {ty}) {{")
        args = [f"%a{i}" for i in range(len(ins))] + ["%acc"]
        elems = [i.elem for i in ins] + [elem]
        self.lines.append("    ^bb0(" + ", ".join(f"{a}: {e}" for a, e in zip(args, elems)) + "):")
        count = [0]

        def emit_body(text: str) -> str:
            count[0] += 1
            name = f"%b{count[0]}"
            self.lines.append(f"      {name} = {text}")
            return name

        y = body(emit_body, args)
        self.lines.append(f"      linalg.yield {y} : {elem}")
        self.lines.append(f"    }} -> {ty}")
        return result


# --------------------------------------------------------------------------------------
# The graph
# --------------------------------------------------------------------------------------


def weight_args(c: LlamaConfig) -> list[tuple[str, tuple[int, ...], str]]:
    """(argument name, shape, element type) of every weight, in the functions' order:
    the products' Q8_0 parts (the embedding's first), then the norms."""
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


def cache_names(c: LlamaConfig) -> list[str]:
    """The KV cache's arguments and results, a key and a value tensor per layer."""
    return [f"blk.{i}.cache_{kv}" for i in range(c.n_layer) for kv in "kv"]


def cache_types(c: LlamaConfig, positions: int) -> list[str]:
    k = _ty((c.n_kv, c.head_dim, positions), "f32")
    v = _ty((c.n_kv, positions, c.head_dim), "f32")
    return [k, v] * c.n_layer


class _Graph:
    """Emits one step (prefill or decode) of the model into a `_Func`."""

    def __init__(self, c: LlamaConfig, f: _Func, m: int, positions: int, chips: int = 1):
        self.c, self.f, self.m, self.positions = c, f, m, positions
        self.chips = chips
        """Over more than one chip, every product's weight carries a `shard` annotation."""
        self.cos = self.sin = ""
        """The step's RoPE tables (`rope_tables`), made once for every layer."""

    # ---- pieces ---------------------------------------------------------------------

    def embed(self, tokens: str) -> str:
        """Column t of the dequantised embedding for each token t: a gather from its
        int8 values and f16 scales."""
        c, f, m = self.c, self.f, self.m
        q = "%" + stored_name("token_embd.weight", Q8Part.VALUES)
        s = "%" + stored_name("token_embd.weight", Q8Part.SCALES)
        qt = _ty((c.d_model, c.vocab), "i8")
        st = _ty((c.d_model // Q8_BLOCK, c.vocab), SCALE_TYPE)

        def body(e: Callable[[str], str], a: list[str]) -> str:
            t = e(f"arith.index_cast {a[0]} : i32 to index")
            k = e("linalg.index 1 : index")
            blk = e(f"arith.constant {Q8_BLOCK} : index")
            kb = e(f"arith.divui {k}, {blk} : index")
            v = e(f"tensor.extract {q}[{k}, {t}] : {qt}")
            sc = e(f"tensor.extract {s}[{kb}, {t}] : {st}")
            vf = e(f"arith.sitofp {v} : i8 to f32")
            sf = e(f"arith.extf {sc} : {SCALE_TYPE} to f32")
            return e(f"arith.mulf {vf}, {sf} : f32")

        return f.generic(
            "embd",
            2,
            (),
            [_In(tokens, _ty((m,), "i32"), _map(2, _d(0)), "i32")],
            (f.empty((m, c.d_model), "f32"), (m, c.d_model), "f32", _d(0, 1)),
            body,
        )

    def rmsnorm(self, x: str, weight: str, hint: str) -> str:
        """x / sqrt(mean(x^2) + eps) * w, rounded to bf16: a product's input."""
        c, f, m = self.c, self.f, self.m
        d = c.d_model
        xt = _ty((m, d), "f32")

        def squares(e: Callable[[str], str], a: list[str]) -> str:
            sq = e(f"arith.mulf {a[0]}, {a[0]} : f32")
            return e(f"arith.addf {a[1]}, {sq} : f32")

        ss = f.generic(
            f"{hint}.ss",
            2,
            (1,),
            [_In(x, xt, _map(2, _d(0, 1)), "f32")],
            (f.filled((m,), _f32(0.0)), (m,), "f32", _d(0)),
            squares,
        )

        def scale(e: Callable[[str], str], a: list[str]) -> str:
            n = e(f"arith.constant {_f32(d)} : f32")
            eps = e(f"arith.constant {_f32(c.eps)} : f32")
            mean = e(f"arith.divf {a[1]}, {n} : f32")
            r = e("math.rsqrt " + e(f"arith.addf {mean}, {eps} : f32") + " : f32")
            y = e(f"arith.mulf {a[0]}, {r} : f32")
            yw = e(f"arith.mulf {y}, {a[2]} : f32")
            return e(f"arith.truncf {yw} : f32 to bf16")

        return f.generic(
            hint,
            2,
            (),
            [
                _In(x, xt, _map(2, _d(0, 1)), "f32"),
                _In(ss, _ty((m,), "f32"), _map(2, _d(0)), "f32"),
                _In(weight, _ty((d,), "f32"), _map(2, _d(1)), "f32"),
            ],
            (f.empty((m, d), "bf16"), (m, d), "bf16", _d(0, 1)),
            scale,
        )

    def widen(self, x: str, k: int, hint: str) -> str:
        return self.f.op(
            hint, f"arith.extf {x} : {_ty((self.m, k), 'bf16')} to {_ty((self.m, k), 'f32')}"
        )

    def product(self, xf: str, weight: str, k: int, n: int, hint: str) -> str:
        """`xf . W` for the Q8_0 weight `weight` (K x N): the canonical form."""
        f, m = self.f, self.m
        q, s = "%" + stored_name(weight, Q8Part.VALUES), "%" + stored_name(weight, Q8Part.SCALES)
        wt, st = _ty((k, n), "i8"), _ty((k // Q8_BLOCK, n), SCALE_TYPE)
        if self.chips > 1:
            q, s = self.sharded(q, s, weight, k, n, hint)
        w = f.op(f"{hint}.w", f"q8.dequantize {q}, {s} : {wt}, {st} -> {_ty((k, n), 'f32')}")
        acc = f.filled((m, n), _f32(0.0))
        yt = _ty((m, n), "f32")
        return f.op(
            hint,
            f"linalg.matmul ins({xf}, {w} : {_ty((m, k), 'f32')}, {_ty((k, n), 'f32')}) "
            f"outs({acc} : {yt}) -> {yt}",
        )

    def sharded(self, q: str, s: str, weight: str, k: int, n: int, hint: str) -> tuple[str, str]:
        """The weight's values and scales annotated with their split over the chips
        (`split_of`): whole column tiles, or whole Q8_0 blocks of K, dealt evenly, the
        larger shares last (`sharded_dims_offsets`, so that a size the chips do not
        divide splits as well)."""
        from xdsl_spatial.passes.tensor_parallel import even_bounds

        f, chips = self.f, self.chips
        on_rows = self.c.split_of(weight) == "k"
        bounds = even_bounds(k if on_rows else n, Q8_BLOCK, chips)
        axes = "[[0]]" if on_rows else "[[], [0]]"
        scale_bounds = [b // Q8_BLOCK for b in bounds] if on_rows else list(bounds)
        out = []
        for v, shape, elem, b, part in (
            (q, (k, n), "i8", list(bounds), "q"),
            (s, (k // Q8_BLOCK, n), SCALE_TYPE, scale_bounds, "s"),
        ):
            sh = f.op(
                f"{hint}.{part}_sharding",
                f"shard.sharding @chips split_axes = {axes} sharded_dims_offsets = {b} : "
                "!shard.sharding",
            )
            out.append(
                f.op(f"{hint}.{part}_sharded", f"shard.shard {v} to {sh} : {_ty(shape, elem)}")
            )
        return out[0], out[1]

    def rope_tables(self, pos: str) -> tuple[str, str]:
        """cos and sin of each row's angles, m x head_dim/2: row r is position pos + r."""
        c, f, m = self.c, self.f, self.m
        half = c.head_dim // 2
        freqs = ", ".join(_f32(v) for v in c.inv_freq())
        table = f.const(f"dense<[{freqs}]>", _ty((half,), "f32"))

        def theta(e: Callable[[str], str], a: list[str]) -> str:
            r = e("linalg.index 0 : index")
            ri = e(f"arith.index_cast {r} : index to i32")
            p = e(f"arith.addi {a[0]}, {ri} : i32")
            pf = e(f"arith.sitofp {p} : i32 to f32")
            return e(f"arith.mulf {pf}, {a[1]} : f32")

        t = f.generic(
            "rope.theta",
            2,
            (),
            [
                _In(pos, _ty((1,), "i32"), _map(2, ["0"]), "i32"),
                _In(table, _ty((half,), "f32"), _map(2, _d(1)), "f32"),
            ],
            (f.empty((m, half), "f32"), (m, half), "f32", _d(0, 1)),
            theta,
        )
        tt = _ty((m, half), "f32")
        return f.op("rope.cos", f"math.cos {t} : {tt}"), f.op("rope.sin", f"math.sin {t} : {tt}")

    def rope(
        self, x: str, heads: tuple[int, ...], out_perm: Sequence[int], scale: float, hint: str
    ) -> tuple[str, tuple[int, ...]]:
        """Rotate each head's pairs of `x` (m x heads*head_dim, the heads split as
        `heads`), scaled by `scale`, written in the axis order `out_perm` of
        (row, *heads, pair, half). Returns the value and its shape."""
        c, f, m = self.c, self.f, self.m
        half = c.head_dim // 2
        src = (m, *heads, half, 2)
        ex = f.op(
            f"{hint}.pairs",
            f"tensor.expand_shape {x} [[0], [{', '.join(str(i + 1) for i in range(len(heads) + 2))}]] "
            f"output_shape [{', '.join(map(str, src))}] : {_ty((m, c.head_dim * math.prod(heads)), 'f32')} "
            f"into {_ty(src, 'f32')}",
        )
        n = len(src)
        lead = _d(*range(n - 1))
        out_shape = tuple(src[i] for i in out_perm)
        ins = [
            _In(ex, _ty(src, "f32"), _map(n, [*lead, "0"]), "f32"),
            _In(ex, _ty(src, "f32"), _map(n, [*lead, "1"]), "f32"),
            _In(self.cos, _ty((m, half), "f32"), _map(n, _d(0, n - 2)), "f32"),
            _In(self.sin, _ty((m, half), "f32"), _map(n, _d(0, n - 2)), "f32"),
        ]

        def body(e: Callable[[str], str], a: list[str]) -> str:
            x0, x1, co, si = a[:4]
            first = e(
                f"arith.subf {e(f'arith.mulf {x0}, {co} : f32')}, {e(f'arith.mulf {x1}, {si} : f32')} : f32"
            )
            second = e(
                f"arith.addf {e(f'arith.mulf {x0}, {si} : f32')}, {e(f'arith.mulf {x1}, {co} : f32')} : f32"
            )
            j = e(f"linalg.index {n - 1} : index")
            zero = e("arith.constant 0 : index")
            is_first = e(f"arith.cmpi eq, {j}, {zero} : index")
            y = e(f"arith.select {is_first}, {first}, {second} : f32")
            if scale == 1.0:
                return y
            return e(f"arith.mulf {y}, {e(f'arith.constant {_f32(scale)} : f32')} : f32")

        y = f.generic(
            hint,
            n,
            (),
            ins,
            (f.empty(out_shape, "f32"), out_shape, "f32", _d(*out_perm)),
            body,
        )
        return y, out_shape

    def masked(self, e: Callable[[str], str], pos: str, row_dim: int, col_dim: int) -> str:
        """Whether key position (index col_dim) is at most the row's (pos + index row_dim)."""
        r = e(f"linalg.index {row_dim} : index")
        j = e(f"linalg.index {col_dim} : index")
        p = e(f"arith.index_cast {pos} : i32 to index")
        rp = e(f"arith.addi {p}, {r} : index")
        return e(f"arith.cmpi ule, {j}, {rp} : index")

    def attention(self, q: str, keys: str, values: str, pos: str, n_keys: int, i: int) -> str:
        """softmax(q k^T, causal) v for every head; q is n_kv x group x m x head_dim
        (already scaled), keys n_kv x head_dim x n_keys, values n_kv x n_keys x
        head_dim. Returns the m x n_head*head_dim bf16 input of attn_output."""
        c, f, m = self.c, self.f, self.m
        kv, g, hd = c.n_kv, c.group, c.head_dim
        qt = _ty((kv, g, m, hd), "f32")
        st_shape = (kv, g, m, n_keys)
        st = _ty(st_shape, "f32")
        rows = (kv, g, m)
        pos_in = _In(pos, _ty((1,), "i32"), _map(4, ["0"]), "i32")

        def mul_add(e: Callable[[str], str], a: list[str]) -> str:
            return e(f"arith.addf {a[2]}, {e(f'arith.mulf {a[0]}, {a[1]} : f32')} : f32")

        # (b, g, r, j, d): scores[b, g, r, j] = sum_d q[b, g, r, d] * k[b, d, j]
        scores = f.generic(
            f"blk.{i}.scores",
            5,
            (4,),
            [
                _In(q, qt, _map(5, _d(0, 1, 2, 4)), "f32"),
                _In(keys, _ty((kv, hd, n_keys), "f32"), _map(5, _d(0, 4, 3)), "f32"),
            ],
            (f.filled(st_shape, _f32(0.0)), st_shape, "f32", _d(0, 1, 2, 3)),
            mul_add,
        )
        s_in = _In(scores, st, _map(4, _d(0, 1, 2, 3)), "f32")

        def row_max(e: Callable[[str], str], a: list[str]) -> str:
            ok = self.masked(e, a[1], 2, 3)
            low = e(f"arith.constant {LOWEST} : f32")
            v = e(f"arith.select {ok}, {a[0]}, {low} : f32")
            return e(f"arith.maximumf {a[2]}, {v} : f32")

        mx = f.generic(
            f"blk.{i}.max",
            4,
            (3,),
            [s_in, pos_in],
            (f.filled(rows, LOWEST, "lowest"), rows, "f32", _d(0, 1, 2)),
            row_max,
        )

        def exps(e: Callable[[str], str], a: list[str]) -> str:
            ok = self.masked(e, a[2], 2, 3)
            ex = e("math.exp " + e(f"arith.subf {a[0]}, {a[1]} : f32") + " : f32")
            zero = e(f"arith.constant {_f32(0.0)} : f32")
            return e(f"arith.select {ok}, {ex}, {zero} : f32")

        p = f.generic(
            f"blk.{i}.exp",
            4,
            (),
            [s_in, _In(mx, _ty(rows, "f32"), _map(4, _d(0, 1, 2)), "f32"), pos_in],
            (f.empty(st_shape, "f32"), st_shape, "f32", _d(0, 1, 2, 3)),
            exps,
        )

        def add(e: Callable[[str], str], a: list[str]) -> str:
            return e(f"arith.addf {a[1]}, {a[0]} : f32")

        total = f.generic(
            f"blk.{i}.sum",
            4,
            (3,),
            [_In(p, st, _map(4, _d(0, 1, 2, 3)), "f32")],
            (f.filled(rows, _f32(0.0)), rows, "f32", _d(0, 1, 2)),
            add,
        )
        # (b, g, r, d, j): o[b, g, r, d] = sum_j p[b, g, r, j] * v[b, j, d]
        o_shape = (kv, g, m, hd)
        o = f.generic(
            f"blk.{i}.pv",
            5,
            (4,),
            [
                _In(p, st, _map(5, _d(0, 1, 2, 4)), "f32"),
                _In(values, _ty((kv, n_keys, hd), "f32"), _map(5, _d(0, 4, 3)), "f32"),
            ],
            (f.filled(o_shape, _f32(0.0)), o_shape, "f32", _d(0, 1, 2, 3)),
            mul_add,
        )

        # (r, b, g, d): the heads side by side in a row, normalised, rounded to bf16
        def normalise(e: Callable[[str], str], a: list[str]) -> str:
            return e(f"arith.truncf {e(f'arith.divf {a[0]}, {a[1]} : f32')} : f32 to bf16")

        merged_shape = (m, kv, g, hd)
        merged = f.generic(
            f"blk.{i}.heads",
            4,
            (),
            [
                _In(o, _ty(o_shape, "f32"), _map(4, _d(1, 2, 0, 3)), "f32"),
                _In(total, _ty(rows, "f32"), _map(4, _d(1, 2, 0)), "f32"),
            ],
            (f.empty(merged_shape, "bf16"), merged_shape, "bf16", _d(0, 1, 2, 3)),
            normalise,
        )
        return f.op(
            f"blk.{i}.attn_out",
            f"tensor.collapse_shape {merged} [[0], [1, 2, 3]] : {_ty(merged_shape, 'bf16')} "
            f"into {_ty((m, c.q_dim), 'bf16')}",
        )

    def ffn(self, x: str, i: int) -> str:
        c, f, m = self.c, self.f, self.m
        xn = self.rmsnorm(x, f"%blk.{i}.ffn_norm.weight", f"blk.{i}.ffn_in")
        xf = self.widen(xn, c.d_model, f"blk.{i}.ffn_in.f32")
        gate = self.product(xf, f"blk.{i}.ffn_gate.weight", c.d_model, c.d_ff, f"blk.{i}.gate")
        up = self.product(xf, f"blk.{i}.ffn_up.weight", c.d_model, c.d_ff, f"blk.{i}.up")
        ht = _ty((m, c.d_ff), "f32")

        def silu_mul(e: Callable[[str], str], a: list[str]) -> str:
            one = e(f"arith.constant {_f32(1.0)} : f32")
            ex = e("math.exp " + e(f"arith.negf {a[0]} : f32") + " : f32")
            s = e(f"arith.divf {a[0]}, {e(f'arith.addf {one}, {ex} : f32')} : f32")
            return e(f"arith.truncf {e(f'arith.mulf {s}, {a[1]} : f32')} : f32 to bf16")

        h = f.generic(
            f"blk.{i}.ffn_mid",
            2,
            (),
            [_In(gate, ht, _map(2, _d(0, 1)), "f32"), _In(up, ht, _map(2, _d(0, 1)), "f32")],
            (f.empty((m, c.d_ff), "bf16"), (m, c.d_ff), "bf16", _d(0, 1)),
            silu_mul,
        )
        hf = self.widen(h, c.d_ff, f"blk.{i}.ffn_mid.f32")
        down = self.product(hf, f"blk.{i}.ffn_down.weight", c.d_ff, c.d_model, f"blk.{i}.down")
        return self.add(x, down, f"blk.{i}.out")

    def add(self, a: str, b: str, hint: str) -> str:
        return self.f.op(hint, f"arith.addf {a}, {b} : {_ty((self.m, self.c.d_model), 'f32')}")

    def insert(self, value: str, cache: str, shape: tuple[int, ...], at: int, offset: str) -> str:
        """`value` written into `cache` (whose `at` axis holds positions) from `offset`."""
        full = list(shape)
        full[at] = self.positions
        offsets = ["0"] * len(shape)
        offsets[at] = offset
        return self.f.op(
            "cache",
            f"tensor.insert_slice {value} into {cache}[{', '.join(offsets)}] "
            f"[{', '.join(map(str, shape))}] [{', '.join('1' for _ in shape)}] : "
            f"{_ty(shape, 'f32')} into {_ty(full, 'f32')}",
        )

    # ---- a whole step ---------------------------------------------------------------

    def step(self, tokens: str, pos: str, caches: list[str] | None) -> tuple[str, list[str]]:
        """The logits and the caches after this step. `caches` are the decode step's
        cache arguments (None: a prefill, which attends to its own keys and values
        and starts the caches)."""
        c, f, m = self.c, self.f, self.m
        kv, g, hd = c.n_kv, c.group, c.head_dim
        self.cos, self.sin = self.rope_tables(pos)
        p0 = f.op("p0", f"tensor.extract {pos}[{f.const('0', 'index')}] : {_ty((1,), 'i32')}")
        offset = f.op("offset", f"arith.index_cast {p0} : i32 to index")
        x = self.embed(tokens)
        new_caches = []
        for i in range(c.n_layer):
            xn = self.rmsnorm(x, f"%blk.{i}.attn_norm.weight", f"blk.{i}.attn_in")
            xf = self.widen(xn, c.d_model, f"blk.{i}.attn_in.f32")
            q = self.product(xf, f"blk.{i}.attn_q.weight", c.d_model, c.q_dim, f"blk.{i}.q")
            k = self.product(xf, f"blk.{i}.attn_k.weight", c.d_model, c.kv_dim, f"blk.{i}.k")
            v = self.product(xf, f"blk.{i}.attn_v.weight", c.d_model, c.kv_dim, f"blk.{i}.v")
            # q: (r, b, g, i, two) -> (b, g, r, i, two), scaled for the scores
            qr, qs = self.rope(q, (kv, g), (1, 2, 0, 3, 4), 1.0 / math.sqrt(hd), f"blk.{i}.q_rope")
            qh = f.op(
                f"blk.{i}.q_heads",
                f"tensor.collapse_shape {qr} [[0], [1], [2], [3, 4]] : {_ty(qs, 'f32')} "
                f"into {_ty((kv, g, m, hd), 'f32')}",
            )
            # k: (r, b, i, two) -> (b, i, two, r): the keys transposed, as cached
            kr, ks = self.rope(k, (kv,), (1, 2, 3, 0), 1.0, f"blk.{i}.k_rope")
            kt = f.op(
                f"blk.{i}.k_t",
                f"tensor.collapse_shape {kr} [[0], [1, 2], [3]] : {_ty(ks, 'f32')} "
                f"into {_ty((kv, hd, m), 'f32')}",
            )
            vh = f.op(
                f"blk.{i}.v_rows",
                f"tensor.expand_shape {v} [[0], [1, 2]] output_shape [{m}, {kv}, {hd}] : "
                f"{_ty((m, c.kv_dim), 'f32')} into {_ty((m, kv, hd), 'f32')}",
            )
            vt = f.op(
                f"blk.{i}.v_heads",
                f"linalg.transpose ins({vh} : {_ty((m, kv, hd), 'f32')}) "
                f"outs({f.empty((kv, m, hd), 'f32')} : {_ty((kv, m, hd), 'f32')}) permutation = [1, 0, 2]",
            )
            if caches is None:
                k_cache = f.filled((kv, hd, self.positions), _f32(0.0))
                v_cache = f.filled((kv, self.positions, hd), _f32(0.0))
            else:
                k_cache, v_cache = caches[2 * i], caches[2 * i + 1]
            k_new = self.insert(kt, k_cache, (kv, hd, m), 2, offset)
            v_new = self.insert(vt, v_cache, (kv, m, hd), 1, offset)
            new_caches += [k_new, v_new]
            if caches is None:
                att = self.attention(qh, kt, vt, pos, m, i)
            else:
                att = self.attention(qh, k_new, v_new, pos, self.positions, i)
            af = self.widen(att, c.q_dim, f"blk.{i}.attn_out.f32")
            o = self.product(af, f"blk.{i}.attn_output.weight", c.q_dim, c.d_model, f"blk.{i}.o")
            x = self.ffn(self.add(x, o, f"blk.{i}.mid"), i)
        xn = self.rmsnorm(x, "%output_norm.weight", "head_in")
        xf = self.widen(xn, c.d_model, "head_in.f32")
        logits = self.product(xf, c.lm_head, c.d_model, c.vocab, "logits")
        return logits, new_caches


def signature(
    c: LlamaConfig, m: int, positions: int, decode: bool
) -> tuple[list[tuple[str, str]], list[str]]:
    """A step's arguments (name, type) and result types: the tokens (m of them), the
    decode step's position, the weights (`weight_args`), the decode step's caches; the
    logits and the caches."""
    params = [("tokens", _ty((m,), "i32"))]
    if decode:
        params.append(("pos", _ty((1,), "i32")))
    params += [(name, _ty(shape, elem)) for name, shape, elem in weight_args(c)]
    if decode:
        params += list(zip(cache_names(c), cache_types(c, positions)))
    return params, [_ty((m, c.vocab), "f32"), *cache_types(c, positions)]


def check_signatures(c: LlamaConfig, module: Any, prefill: int, positions: int) -> None:
    """That `module` has `@prefill` and `@decode` with the emitted model's arguments
    (names and types) and results, for a prefill of `prefill` tokens and a cache of
    `positions` (a `ModelError` naming the first difference)."""
    from xdsl.dialects.func import FuncOp

    funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, FuncOp)}
    for name in ("prefill", "decode"):
        decode = name == "decode"
        func = funcs.get(name)
        if func is None:
            raise ModelError(f"the module has no function @{name}")
        params, results = signature(c, 1 if decode else prefill, positions, decode)
        args = func.body.block.args
        if len(args) != len(params):
            raise ModelError(
                f"@{name} takes {len(args)} arguments; the model's takes {len(params)}"
            )
        for i, (arg, (want, t)) in enumerate(zip(args, params)):
            if arg.name_hint != want or str(arg.type) != t:
                raise ModelError(
                    f"@{name}'s argument #{i} is %{arg.name_hint}: {arg.type}; the model's is "
                    f"%{want}: {t} (a prefill of {prefill} tokens, a cache of {positions} positions)"
                )
        got = [str(t) for t in func.function_type.outputs]
        if got != results:
            raise ModelError(
                f"@{name} returns ({', '.join(got)}); the model's returns ({', '.join(results)})"
            )


def _function(
    c: LlamaConfig, name: str, m: int, positions: int, decode: bool, chips: int = 1
) -> str:
    f = _Func()
    params, results = signature(c, m, positions, decode)
    caches = ["%" + n for n in cache_names(c)] if decode else None
    for p, _ in params:
        f.used.add(p)
    graph = _Graph(c, f, m, positions, chips)
    pos = "%pos" if decode else f.const("dense<0>", _ty((1,), "i32"))
    logits, new_caches = graph.step("%tokens", pos, caches)
    sig = ", ".join(f"%{p}: {t}" for p, t in params)
    head = f"  func.func @{name}({sig}) -> ({', '.join(results)}) {{"
    ret = f"    func.return {', '.join([logits, *new_caches])} : {', '.join(results)}"
    return "\n".join([head, *f.lines, ret, "  }"]) + "\n"


def check_step(c: LlamaConfig, prefill: int, positions: int) -> None:
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


def emit_model(
    c: LlamaConfig,
    prefill: int,
    positions: int,
    source: str = "",
    functions: Sequence[str] = ("prefill", "decode"),
    chips: int = 1,
) -> str:
    """The module text: `@prefill` over `prefill` tokens and `@decode` of one token,
    with a KV cache of `positions` positions (or only those of `functions`). Over
    `chips` chips (more than one), every product's weight is annotated with its split
    over the 1-d grid `@chips` (`ROW_SPLIT`), for `q8-lower` to lower per chip."""
    check_step(c, prefill, positions)
    if chips < 1:
        raise ModelError(f"the chips are at least 1, got {chips}")
    if chips > 1:
        c.check_chips(chips)
    header = (
        f"// {c.n_layer} layers, d_model {c.d_model}, {c.n_head} heads ({c.n_kv} KV heads of "
        f"{c.head_dim}), FFN {c.d_ff}, vocabulary {c.vocab}; prefill of {prefill} tokens, "
        f"cache of {positions} positions{'; from ' + source if source else ''}"
        f"{f'; over {chips} chips' if chips > 1 else ''}\n"
    )
    return (
        header
        + "builtin.module {\n"
        + (f"  shard.grid @chips(shape = {chips})\n" if chips > 1 else "")
        + (
            _function(c, "prefill", prefill, positions, False, chips)
            if "prefill" in functions
            else ""
        )
        + (_function(c, "decode", 1, positions, True, chips) if "decode" in functions else "")
        + "}\n"
    )


# --------------------------------------------------------------------------------------
# The same weights as a Q8_0 GGUF file, for llama.cpp
# --------------------------------------------------------------------------------------

_MOSTLY_Q8_0 = 7
"""`general.file_type` of a file whose tensors are mostly Q8_0 (llama.cpp's LLAMA_FTYPE_MOSTLY_Q8_0)."""


def write_q8_0_gguf(reader: Any, path: str, out: str, *, requantize: bool = True) -> None:
    """Write a copy of the llama GGUF file `reader` reads to `out` whose weight products
    are Q8_0 exactly as the chip binds them: the file's Q8_0 tensors as they are, any
    other re-quantised with GGML's rule (the same values `--requantize` binds); every
    other tensor and all metadata copied. Written beside `out` and renamed into place."""
    import os
    import tempfile

    from gguf import GGMLQuantizationType, GGUFValueType, GGUFWriter

    from xdsl_spatial.frontends.gguf_io import q8_0_parts, requantized_parts

    config = read_config(reader, path)
    products = {name for name, _, _ in config.products()} | {"token_embd.weight"}
    arch = _field(reader, "general.architecture")
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(out)) or ".", suffix=".gguf.tmp")
    os.close(fd)
    try:
        w = GGUFWriter(tmp, arch)
        for key, f in reader.fields.items():
            if key.startswith("GGUF.") or key == "general.architecture":
                continue
            if key == "general.file_type":
                w.add_key_value(key, _MOSTLY_Q8_0, GGUFValueType.UINT32)
                continue
            vtype = f.types[0]
            sub = f.types[1] if vtype == GGUFValueType.ARRAY and len(f.types) > 1 else None
            w.add_key_value(key, f.contents(), vtype, sub)
        for t in reader.tensors:
            if t.name in products:
                if t.tensor_type == GGMLQuantizationType.Q8_0:
                    values, scales = q8_0_parts(reader, t.name)
                elif requantize:
                    values, scales, _ = requantized_parts(reader, t.name)
                else:
                    raise ModelError(f"{path}: tensor {t.name} is {t.tensor_type.name}, not Q8_0")
                k, n = values.shape
                blocks = np.empty((n, k // Q8_BLOCK, 2 + Q8_BLOCK), np.uint8)
                blocks[:, :, :2] = (
                    scales.astype("<f2").T.copy().view(np.uint8).reshape(n, k // Q8_BLOCK, 2)
                )
                blocks[:, :, 2:] = (
                    values.reshape(k // Q8_BLOCK, Q8_BLOCK, n).transpose(2, 0, 1).view(np.uint8)
                )
                w.add_tensor(t.name, blocks.reshape(n, -1), raw_dtype=GGMLQuantizationType.Q8_0)
            else:
                data = np.asarray(t.data)
                shape = [int(d) for d in reversed(t.shape)]
                w.add_tensor(t.name, data, raw_shape=shape, raw_dtype=t.tensor_type)
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
        os.replace(tmp, out)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
