"""
A llama-architecture GGUF checkpoint as two MLIR functions in linalg on tensors, built
op by op with xDSL's builders:

```
@prefill(tokens: m x i32, pos: 1 x i32, weights..., k cache, v cache per layer)
                                                 -> (logits m x V, k cache, v cache per layer)
@decode(token: 1 x i32, pos: 1 x i32, weights..., k cache, v cache per layer)
                                                 -> (logits 1 x V, k cache, v cache per layer)
```

Every weight product is in the canonical Q8_0 form `q8-lower` rewrites: the weight is
`q8.dequantize` of the arguments `NAME__q8` (K x N int8) and `NAME__q8_scale`
(K/32 x N f16), NAME the GGUF tensor, and the activation an `arith.extf` of a bf16
value (the chip holds activations in bf16), multiplied by `linalg.matmul` into a zero
f32 accumulator. Norm weights are f32 arguments named after their GGUF tensors. Both
functions are one step of the same graph: m tokens at positions `pos`, `pos + 1`, ...
(every product an m-row GEMM), whose keys and values are written into the KV cache at
`pos` before each row attends to the cache's positions up to its own. The prefill
takes a chunk of up to 32 prompt tokens (`generation.py` reads a longer prompt chunk by
chunk), the decode step one token.

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
size: positions past a row's own are masked out of the softmax).
"""

from __future__ import annotations

import math as pymath
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.builder import Builder, ImplicitBuilder
from xdsl.dialects import arith, func, math, shard, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FlatSymbolRefAttr,
    Float16Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    f32,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import (
    FillOp,
    GenericOp,
    IndexOp,
    MatmulOp,
    TransposeOp,
    YieldOp,
)
from xdsl.dialects.shard import ShardAxesArrayAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint

from xdsl_spatial.dialects.q8 import Q8_BLOCK, DequantizeOp, Q8Part, stored_name
from xdsl_spatial.frontends.rope import Llama3Scaling, rope_frequencies
from xdsl_spatial.passes.tensor_parallel import even_bounds

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

GRID = "chips"
"""The 1-d grid of chips every product is split over (`shard.grid @chips`)."""

LOWEST = -3.40282347e38
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
    rope_scaling: Llama3Scaling | None = None
    """Llama 3.1's stretch of RoPE's slow frequencies (`rope.py`), or none."""

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
        the rotated pairs (scaled by `rope_scaling`), 0 (no rotation) past them."""
        return rope_frequencies(self.head_dim, self.n_rot, self.rope_base, self.rope_scaling)


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
    want: dict[str, tuple[int, ...]] = {"token_embd.weight": (c.d_model, c.vocab)}
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
# Building one function
# --------------------------------------------------------------------------------------

_ELEMENTS: dict[str, Attribute] = {
    "f32": f32,
    "f16": Float16Type(),
    "bf16": BFloat16Type(),
    "i8": i8,
    "i32": i32,
}


def _ty(shape: Sequence[int], elem: str) -> TensorType[Attribute]:
    return TensorType(_ELEMENTS[elem], shape)


def _map(n: int, results: Iterable[int | str]) -> AffineMapAttr:
    """The map from `n` dimensions to `results`: a dimension's index, or "0"."""
    exprs = [
        AffineExpr.constant(int(r)) if isinstance(r, str) else AffineExpr.dimension(r)
        for r in results
    ]
    return AffineMapAttr(AffineMap(n, 0, tuple(exprs)))


def _f32(v: float) -> float:
    """`v` as an f32 constant holds it: rounded to f32, then to the 10 digits that
    name that f32 (the value the IR has always carried)."""
    return float(f"{float(np.float32(v)):.9e}")


def _reassociation(groups: Sequence[Sequence[int]]) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


Body = Callable[[list[SSAValue]], SSAValue]
"""A generic's body: given its block arguments (the inputs' elements, then the
accumulator), builds its ops and returns the value it yields."""


@dataclass
class _In:
    value: SSAValue
    map: AffineMapAttr


def _index(dim: int) -> SSAValue:
    return IndexOp(dim).result


def _const_index(v: int) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(v, IndexType())).result


def _const_f32(v: float) -> SSAValue:
    return arith.ConstantOp(FloatAttr(v, f32)).result


class _Func:
    """The ops of one function, appended to its block, with fresh value names and one
    constant, zero or empty tensor per shape however often it is used."""

    def __init__(self, params: Sequence[tuple[str, TensorType[Attribute]]]) -> None:
        self.block = Block(arg_types=[t for _, t in params])
        self.args: dict[str, SSAValue] = {}
        for (name, _), arg in zip(params, self.block.args):
            arg.name_hint = name
            self.args[name] = arg
        self.builder = Builder(InsertPoint.at_end(self.block))
        self.used: set[str] = set(self.args)
        self.shared: dict[tuple[Any, ...], SSAValue] = {}

    def fresh(self, hint: str) -> str:
        name, i = hint, 0
        while name in self.used:
            i += 1
            name = f"{hint}.{i}"
        self.used.add(name)
        return name

    def op(self, hint: str, op: Operation) -> SSAValue:
        """`op` appended, its result named after `hint`."""
        self.builder.insert(op)
        v = op.results[0]
        v.name_hint = self.fresh(hint)
        return v

    def const(
        self, key: Any, value: IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr
    ) -> SSAValue:
        if ("const", key) not in self.shared:
            self.shared[("const", key)] = self.op("c", arith.ConstantOp(value))
        return self.shared[("const", key)]

    def empty(self, shape: Sequence[int], elem: str) -> SSAValue:
        key = ("empty", tuple(shape), elem)
        if key not in self.shared:
            self.shared[key] = self.op("empty", tensor.EmptyOp([], _ty(shape, elem)))
        return self.shared[key]

    def filled(self, shape: Sequence[int], value: float, hint: str = "zero") -> SSAValue:
        key = ("fill", tuple(shape), value)
        if key not in self.shared:
            c = self.const(("f32", value), FloatAttr(value, f32))
            e = self.empty(shape, "f32")
            self.shared[key] = self.op(hint, FillOp((c,), (e,), (e.type,)))
        return self.shared[key]

    def generic(
        self,
        hint: str,
        n_dims: int,
        reduce: Sequence[int],
        ins: Sequence[_In],
        out: tuple[SSAValue, Sequence[int]],
        body: Body,
    ) -> SSAValue:
        """A one-result `linalg.generic`: `out` is (init value, result map's
        dimensions); `body` builds its body's ops (named b1, b2, ... in order)."""
        init, out_map = out
        elems = [
            cast(TensorType[Attribute], v.type).element_type
            for v in (*(i.value for i in ins), init)
        ]
        block = Block(arg_types=elems)
        for i, a in enumerate(block.args):
            a.name_hint = f"a{i}" if i < len(ins) else "acc"
        with ImplicitBuilder(block):
            YieldOp(body(list(block.args)))
        for i, op in enumerate(list(block.ops)[:-1]):
            op.results[0].name_hint = f"b{i + 1}"
        iterators = [
            IteratorTypeAttr.reduction() if d in reduce else IteratorTypeAttr.parallel()
            for d in range(n_dims)
        ]
        return self.op(
            hint,
            GenericOp(
                [i.value for i in ins],
                [init],
                Region(block),
                [i.map for i in ins] + [_map(n_dims, out_map)],
                iterators,
                [init.type],
            ),
        )


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


def cache_shapes(c: LlamaConfig, positions: int) -> list[tuple[int, ...]]:
    """The KV cache's shapes, f32: keys transposed, then values, per layer."""
    return [(c.n_kv, c.head_dim, positions), (c.n_kv, positions, c.head_dim)] * c.n_layer


def _masked(pos: SSAValue, row_dim: int, col_dim: int) -> SSAValue:
    """Inside a generic body: whether key position (index col_dim) is at most the
    row's (pos + index row_dim)."""
    r = _index(row_dim)
    j = _index(col_dim)
    p = arith.IndexCastOp(pos, IndexType()).result
    rp = arith.AddiOp(p, r).result
    return arith.CmpiOp(j, rp, "ule").result


def _mul_add(a: list[SSAValue]) -> SSAValue:
    return arith.AddfOp(a[2], arith.MulfOp(a[0], a[1])).result


class _Graph:
    """Builds one step (prefill or decode) of the model into a `_Func`."""

    def __init__(self, c: LlamaConfig, f: _Func, m: int, positions: int, chips: int = 1):
        self.c, self.f, self.m, self.positions = c, f, m, positions
        self.chips = chips
        """Over more than one chip, every product's weight carries a `shard` annotation."""
        self.cos: SSAValue | None = None
        self.sin: SSAValue | None = None
        """The step's RoPE tables (`rope_tables`), made once for every layer."""

    # ---- pieces ---------------------------------------------------------------------

    def embed(self, tokens: SSAValue) -> SSAValue:
        """Column t of the dequantised embedding for each token t: a gather from its
        int8 values and f16 scales."""
        c, f, m = self.c, self.f, self.m
        q = f.args[stored_name("token_embd.weight", Q8Part.VALUES)]
        s = f.args[stored_name("token_embd.weight", Q8Part.SCALES)]

        def body(a: list[SSAValue]) -> SSAValue:
            t = arith.IndexCastOp(a[0], IndexType()).result
            k = _index(1)
            blk = _const_index(Q8_BLOCK)
            kb = arith.DivUIOp(k, blk).result
            v = tensor.ExtractOp(q, [k, t], i8).result
            sc = tensor.ExtractOp(s, [kb, t], _ELEMENTS[SCALE_TYPE]).result
            vf = arith.SIToFPOp(v, f32).result
            sf = arith.ExtFOp(sc, f32).result
            return arith.MulfOp(vf, sf).result

        return f.generic(
            "embd",
            2,
            (),
            [_In(tokens, _map(2, [0]))],
            (f.empty((m, c.d_model), "f32"), [0, 1]),
            body,
        )

    def rmsnorm(self, x: SSAValue, weight: SSAValue, hint: str) -> SSAValue:
        """x / sqrt(mean(x^2) + eps) * w, rounded to bf16: a product's input."""
        c, f, m = self.c, self.f, self.m
        d = c.d_model

        def squares(a: list[SSAValue]) -> SSAValue:
            sq = arith.MulfOp(a[0], a[0]).result
            return arith.AddfOp(a[1], sq).result

        ss = f.generic(
            f"{hint}.ss",
            2,
            (1,),
            [_In(x, _map(2, [0, 1]))],
            (f.filled((m,), _f32(0.0)), [0]),
            squares,
        )

        def scale(a: list[SSAValue]) -> SSAValue:
            n = _const_f32(_f32(d))
            eps = _const_f32(_f32(c.eps))
            mean = arith.DivfOp(a[1], n).result
            r = math.RsqrtOp(arith.AddfOp(mean, eps).result).result
            y = arith.MulfOp(a[0], r).result
            yw = arith.MulfOp(y, a[2]).result
            return arith.TruncFOp(yw, _ELEMENTS["bf16"]).result

        return f.generic(
            hint,
            2,
            (),
            [_In(x, _map(2, [0, 1])), _In(ss, _map(2, [0])), _In(weight, _map(2, [1]))],
            (f.empty((m, d), "bf16"), [0, 1]),
            scale,
        )

    def widen(self, x: SSAValue, k: int, hint: str) -> SSAValue:
        return self.f.op(hint, arith.ExtFOp(x, _ty((self.m, k), "f32")))

    def product(self, xf: SSAValue, weight: str, k: int, n: int, hint: str) -> SSAValue:
        """`xf . W` for the Q8_0 weight `weight` (K x N): the canonical form."""
        f, m = self.f, self.m
        q = f.args[stored_name(weight, Q8Part.VALUES)]
        s = f.args[stored_name(weight, Q8Part.SCALES)]
        if self.chips > 1:
            q, s = self.sharded(q, s, weight, k, n, hint)
        w = f.op(f"{hint}.w", DequantizeOp(q, s))
        acc = f.filled((m, n), _f32(0.0))
        return f.op(hint, MatmulOp((xf, w), (acc,)))

    def sharded(
        self, q: SSAValue, s: SSAValue, weight: str, k: int, n: int, hint: str
    ) -> tuple[SSAValue, SSAValue]:
        """The weight's values and scales annotated with their split over the chips
        (`split_of`): whole column tiles, or whole Q8_0 blocks of K, dealt evenly, the
        larger shares last (`sharded_dims_offsets`, so that a size the chips do not
        divide splits as well)."""
        f, chips = self.f, self.chips
        on_rows = self.c.split_of(weight) == "k"
        bounds = even_bounds(k if on_rows else n, Q8_BLOCK, chips)
        axes = [[0]] if on_rows else [[], [0]]
        scale_bounds = [b // Q8_BLOCK for b in bounds] if on_rows else list(bounds)
        split_axes = ShardAxesArrayAttr(ArrayAttr([DenseArrayBase.from_list(i16, a) for a in axes]))
        out = []
        for v, b, part in ((q, list(bounds), "q"), (s, scale_bounds, "s")):
            sharding = shard.ShardingOp(
                operands=[[], []],
                result_types=[shard.ShardingType()],
                properties={
                    "grid": FlatSymbolRefAttr(GRID),  # pyright: ignore[reportCallIssue]
                    "split_axes": split_axes,
                    "static_sharded_dims_offsets": DenseArrayBase.from_list(i64, b),
                },
            )
            sh = f.op(f"{hint}.{part}_sharding", sharding)
            out.append(f.op(f"{hint}.{part}_sharded", shard.ShardOp(v, sh, None)))
        return out[0], out[1]

    def rope_tables(self, pos: SSAValue) -> tuple[SSAValue, SSAValue]:
        """cos and sin of each row's angles, m x head_dim/2: row r is position pos + r."""
        c, f, m = self.c, self.f, self.m
        half = c.head_dim // 2
        freqs = [_f32(v) for v in c.inv_freq()]
        table = f.const(
            ("freqs", tuple(freqs)),
            DenseIntOrFPElementsAttr.from_list(TensorType(f32, (half,)), freqs),
        )

        def theta(a: list[SSAValue]) -> SSAValue:
            r = _index(0)
            ri = arith.IndexCastOp(r, i32).result
            p = arith.AddiOp(a[0], ri).result
            pf = arith.SIToFPOp(p, f32).result
            return arith.MulfOp(pf, a[1]).result

        t = f.generic(
            "rope.theta",
            2,
            (),
            [_In(pos, _map(2, ["0"])), _In(table, _map(2, [1]))],
            (f.empty((m, half), "f32"), [0, 1]),
            theta,
        )
        return f.op("rope.cos", math.CosOp(t)), f.op("rope.sin", math.SinOp(t))

    def rope(
        self, x: SSAValue, heads: tuple[int, ...], out_perm: Sequence[int], scale: float, hint: str
    ) -> SSAValue:
        """Rotate each head's pairs of `x` (m x heads*head_dim, the heads split as
        `heads`), scaled by `scale`, written in the axis order `out_perm` of
        (row, *heads, pair, half)."""
        c, f, m = self.c, self.f, self.m
        assert self.cos is not None and self.sin is not None
        half = c.head_dim // 2
        src = (m, *heads, half, 2)
        ex = f.op(
            f"{hint}.pairs",
            tensor.ExpandShapeOp(
                x,
                [],
                _reassociation([[0], list(range(1, len(heads) + 3))]),
                list(src),
                _ty(src, "f32"),
            ),
        )
        n = len(src)
        lead = list(range(n - 1))
        out_shape = tuple(src[i] for i in out_perm)
        ins = [
            _In(ex, _map(n, [*lead, "0"])),
            _In(ex, _map(n, [*lead, "1"])),
            _In(self.cos, _map(n, [0, n - 2])),
            _In(self.sin, _map(n, [0, n - 2])),
        ]

        def body(a: list[SSAValue]) -> SSAValue:
            x0, x1, co, si = a[:4]
            first = arith.SubfOp(arith.MulfOp(x0, co), arith.MulfOp(x1, si)).result
            second = arith.AddfOp(arith.MulfOp(x0, si), arith.MulfOp(x1, co)).result
            j = _index(n - 1)
            zero = _const_index(0)
            is_first = arith.CmpiOp(j, zero, "eq").result
            y = arith.SelectOp(is_first, first, second).result
            if scale == 1.0:
                return y
            return arith.MulfOp(y, _const_f32(_f32(scale))).result

        return f.generic(hint, n, (), ins, (f.empty(out_shape, "f32"), list(out_perm)), body)

    def attention(
        self, q: SSAValue, keys: SSAValue, values: SSAValue, pos: SSAValue, n_keys: int, i: int
    ) -> SSAValue:
        """softmax(q k^T, causal) v for every head; q is n_kv x group x m x head_dim
        (already scaled), keys n_kv x head_dim x n_keys, values n_kv x n_keys x
        head_dim. Returns the m x n_head*head_dim bf16 input of attn_output."""
        c, f, m = self.c, self.f, self.m
        kv, g, hd = c.n_kv, c.group, c.head_dim
        st_shape = (kv, g, m, n_keys)
        rows = (kv, g, m)
        pos_in = _In(pos, _map(4, ["0"]))

        # (b, g, r, j, d): scores[b, g, r, j] = sum_d q[b, g, r, d] * k[b, d, j]
        scores = f.generic(
            f"blk.{i}.scores",
            5,
            (4,),
            [_In(q, _map(5, [0, 1, 2, 4])), _In(keys, _map(5, [0, 4, 3]))],
            (f.filled(st_shape, _f32(0.0)), [0, 1, 2, 3]),
            _mul_add,
        )
        s_in = _In(scores, _map(4, [0, 1, 2, 3]))

        def row_max(a: list[SSAValue]) -> SSAValue:
            ok = _masked(a[1], 2, 3)
            low = _const_f32(LOWEST)
            v = arith.SelectOp(ok, a[0], low).result
            return arith.MaximumfOp(a[2], v).result

        mx = f.generic(
            f"blk.{i}.max",
            4,
            (3,),
            [s_in, pos_in],
            (f.filled(rows, LOWEST, "lowest"), [0, 1, 2]),
            row_max,
        )

        def exps(a: list[SSAValue]) -> SSAValue:
            ok = _masked(a[2], 2, 3)
            ex = math.ExpOp(arith.SubfOp(a[0], a[1]).result).result
            zero = _const_f32(_f32(0.0))
            return arith.SelectOp(ok, ex, zero).result

        p = f.generic(
            f"blk.{i}.exp",
            4,
            (),
            [s_in, _In(mx, _map(4, [0, 1, 2])), pos_in],
            (f.empty(st_shape, "f32"), [0, 1, 2, 3]),
            exps,
        )

        def add(a: list[SSAValue]) -> SSAValue:
            return arith.AddfOp(a[1], a[0]).result

        total = f.generic(
            f"blk.{i}.sum",
            4,
            (3,),
            [_In(p, _map(4, [0, 1, 2, 3]))],
            (f.filled(rows, _f32(0.0)), [0, 1, 2]),
            add,
        )
        # (b, g, r, d, j): o[b, g, r, d] = sum_j p[b, g, r, j] * v[b, j, d]
        o_shape = (kv, g, m, hd)
        o = f.generic(
            f"blk.{i}.pv",
            5,
            (4,),
            [_In(p, _map(5, [0, 1, 2, 4])), _In(values, _map(5, [0, 4, 3]))],
            (f.filled(o_shape, _f32(0.0)), [0, 1, 2, 3]),
            _mul_add,
        )

        # (r, b, g, d): the heads side by side in a row, normalised, rounded to bf16
        def normalise(a: list[SSAValue]) -> SSAValue:
            return arith.TruncFOp(arith.DivfOp(a[0], a[1]), _ELEMENTS["bf16"]).result

        merged_shape = (m, kv, g, hd)
        merged = f.generic(
            f"blk.{i}.heads",
            4,
            (),
            [_In(o, _map(4, [1, 2, 0, 3])), _In(total, _map(4, [1, 2, 0]))],
            (f.empty(merged_shape, "bf16"), [0, 1, 2, 3]),
            normalise,
        )
        return f.op(f"blk.{i}.attn_out", _collapse(merged, [[0], [1, 2, 3]], (m, c.q_dim), "bf16"))

    def ffn(self, x: SSAValue, i: int) -> SSAValue:
        c, f, m = self.c, self.f, self.m
        xn = self.rmsnorm(x, f.args[f"blk.{i}.ffn_norm.weight"], f"blk.{i}.ffn_in")
        xf = self.widen(xn, c.d_model, f"blk.{i}.ffn_in.f32")
        gate = self.product(xf, f"blk.{i}.ffn_gate.weight", c.d_model, c.d_ff, f"blk.{i}.gate")
        up = self.product(xf, f"blk.{i}.ffn_up.weight", c.d_model, c.d_ff, f"blk.{i}.up")

        def silu_mul(a: list[SSAValue]) -> SSAValue:
            one = _const_f32(_f32(1.0))
            ex = math.ExpOp(arith.NegfOp(a[0]).result).result
            s = arith.DivfOp(a[0], arith.AddfOp(one, ex)).result
            return arith.TruncFOp(arith.MulfOp(s, a[1]), _ELEMENTS["bf16"]).result

        h = f.generic(
            f"blk.{i}.ffn_mid",
            2,
            (),
            [_In(gate, _map(2, [0, 1])), _In(up, _map(2, [0, 1]))],
            (f.empty((m, c.d_ff), "bf16"), [0, 1]),
            silu_mul,
        )
        hf = self.widen(h, c.d_ff, f"blk.{i}.ffn_mid.f32")
        down = self.product(hf, f"blk.{i}.ffn_down.weight", c.d_ff, c.d_model, f"blk.{i}.down")
        return self.add(x, down, f"blk.{i}.out")

    def add(self, a: SSAValue, b: SSAValue, hint: str) -> SSAValue:
        return self.f.op(hint, arith.AddfOp(a, b))

    def insert(
        self, value: SSAValue, cache: SSAValue, shape: tuple[int, ...], at: int, offset: SSAValue
    ) -> SSAValue:
        """`value` written into `cache` (whose `at` axis holds positions) from `offset`."""
        offsets = [0] * len(shape)
        offsets[at] = DYNAMIC_INDEX
        return self.f.op(
            "cache",
            tensor.InsertSliceOp.get(
                value, cache, list(shape), static_offsets=offsets, offsets=[offset]
            ),
        )

    # ---- a whole step ---------------------------------------------------------------

    def step(
        self, tokens: SSAValue, pos: SSAValue, caches: list[SSAValue]
    ) -> tuple[SSAValue, list[SSAValue]]:
        """The logits and the caches after this step of m tokens at positions pos...:
        each layer writes their keys and values into its caches at pos, then attends
        to the cache's positions up to each row's own."""
        c, f, m = self.c, self.f, self.m
        kv, g, hd = c.n_kv, c.group, c.head_dim
        self.cos, self.sin = self.rope_tables(pos)
        zero = f.const(("index", 0), IntegerAttr(0, IndexType()))
        p0 = f.op("p0", tensor.ExtractOp(pos, [zero], i32))
        offset = f.op("offset", arith.IndexCastOp(p0, IndexType()))
        x = self.embed(tokens)
        new_caches = []
        for i in range(c.n_layer):
            xn = self.rmsnorm(x, f.args[f"blk.{i}.attn_norm.weight"], f"blk.{i}.attn_in")
            xf = self.widen(xn, c.d_model, f"blk.{i}.attn_in.f32")
            q = self.product(xf, f"blk.{i}.attn_q.weight", c.d_model, c.q_dim, f"blk.{i}.q")
            k = self.product(xf, f"blk.{i}.attn_k.weight", c.d_model, c.kv_dim, f"blk.{i}.k")
            v = self.product(xf, f"blk.{i}.attn_v.weight", c.d_model, c.kv_dim, f"blk.{i}.v")
            # q: (r, b, g, i, two) -> (b, g, r, i, two), scaled for the scores
            qr = self.rope(q, (kv, g), (1, 2, 0, 3, 4), 1.0 / pymath.sqrt(hd), f"blk.{i}.q_rope")
            qh = f.op(f"blk.{i}.q_heads", _collapse(qr, [[0], [1], [2], [3, 4]], (kv, g, m, hd)))
            # k: (r, b, i, two) -> (b, i, two, r): the keys transposed, as cached
            kr = self.rope(k, (kv,), (1, 2, 3, 0), 1.0, f"blk.{i}.k_rope")
            kt = f.op(f"blk.{i}.k_t", _collapse(kr, [[0], [1, 2], [3]], (kv, hd, m)))
            vh = f.op(
                f"blk.{i}.v_rows",
                tensor.ExpandShapeOp(
                    v, [], _reassociation([[0], [1, 2]]), [m, kv, hd], _ty((m, kv, hd), "f32")
                ),
            )
            vt = f.op(
                f"blk.{i}.v_heads",
                TransposeOp(
                    vh, f.empty((kv, m, hd), "f32"), DenseArrayBase.from_list(i64, [1, 0, 2])
                ),
            )
            k_cache, v_cache = caches[2 * i], caches[2 * i + 1]
            k_new = self.insert(kt, k_cache, (kv, hd, m), 2, offset)
            v_new = self.insert(vt, v_cache, (kv, m, hd), 1, offset)
            new_caches += [k_new, v_new]
            att = self.attention(qh, k_new, v_new, pos, self.positions, i)
            af = self.widen(att, c.q_dim, f"blk.{i}.attn_out.f32")
            o = self.product(af, f"blk.{i}.attn_output.weight", c.q_dim, c.d_model, f"blk.{i}.o")
            x = self.ffn(self.add(x, o, f"blk.{i}.mid"), i)
        xn = self.rmsnorm(x, f.args["output_norm.weight"], "head_in")
        xf = self.widen(xn, c.d_model, "head_in.f32")
        logits = self.product(xf, c.lm_head, c.d_model, c.vocab, "logits")
        return logits, new_caches


def _collapse(
    x: SSAValue, groups: Sequence[Sequence[int]], shape: Sequence[int], elem: str = "f32"
) -> Operation:
    return tensor.CollapseShapeOp(
        operands=[x],
        result_types=[_ty(shape, elem)],
        properties={"reassociation": _reassociation(groups)},
    )


def signature(
    c: LlamaConfig, m: int, positions: int
) -> tuple[list[tuple[str, TensorType[Attribute]]], list[TensorType[Attribute]]]:
    """A step's arguments (name, type) and result types: the tokens (m of them), the
    position of the first, the weights (`weight_args`) and the caches; the logits and
    the caches."""
    cache_types = [_ty(s, "f32") for s in cache_shapes(c, positions)]
    params = [("tokens", _ty((m,), "i32")), ("pos", _ty((1,), "i32"))]
    params += [(name, _ty(shape, elem)) for name, shape, elem in weight_args(c)]
    params += list(zip(cache_names(c), cache_types))
    return params, [_ty((m, c.vocab), "f32"), *cache_types]


def check_signatures(c: LlamaConfig, module: ModuleOp, prefill: int, positions: int) -> None:
    """That `module` has `@prefill` and `@decode` with the built model's arguments
    (names and types) and results, for a prefill of `prefill` tokens and a cache of
    `positions` (a `ModelError` naming the first difference)."""
    funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)}
    for name, m in (("prefill", prefill), ("decode", 1)):
        f = funcs.get(name)
        if f is None:
            raise ModelError(f"the module has no function @{name}")
        params, results = signature(c, m, positions)
        args = f.body.block.args
        if len(args) != len(params):
            raise ModelError(
                f"@{name} takes {len(args)} arguments; the model's takes {len(params)}"
            )
        for i, (arg, (want, t)) in enumerate(zip(args, params, strict=True)):
            if arg.name_hint != want or arg.type != t:
                raise ModelError(
                    f"@{name}'s argument #{i} is %{arg.name_hint}: {arg.type}; the model's is "
                    f"%{want}: {t} (a prefill of {prefill} tokens, a cache of {positions} positions)"
                )
        got = list(f.function_type.outputs.data)
        if got != results:
            raise ModelError(
                f"@{name} returns ({', '.join(map(str, got))}); the model's returns "
                f"({', '.join(map(str, results))})"
            )


def _function(c: LlamaConfig, name: str, m: int, positions: int, chips: int = 1) -> func.FuncOp:
    """A step of `m` tokens: `@prefill` (a chunk of the prompt) or `@decode` (m = 1)."""
    params, results = signature(c, m, positions)
    f = _Func(params)
    graph = _Graph(c, f, m, positions, chips)
    caches = [f.args[n] for n in cache_names(c)]
    logits, new_caches = graph.step(f.args["tokens"], f.args["pos"], caches)
    f.builder.insert(func.ReturnOp(logits, *new_caches))
    return func.FuncOp(name, ([t for _, t in params], results), Region(f.block))


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


def describe(c: LlamaConfig, prefill: int, positions: int, source: str = "", chips: int = 1) -> str:
    """One line saying what `build_model` builds (`--emit-model` prints it first, as a
    comment)."""
    return (
        f"{c.n_layer} layers, d_model {c.d_model}, {c.n_head} heads ({c.n_kv} KV heads of "
        f"{c.head_dim}), FFN {c.d_ff}, vocabulary {c.vocab}; prefill of {prefill} tokens, "
        f"cache of {positions} positions{'; from ' + source if source else ''}"
        f"{f'; over {chips} chips' if chips > 1 else ''}"
    )


def build_model(
    c: LlamaConfig,
    prefill: int,
    positions: int,
    functions: Sequence[str] = ("prefill", "decode"),
    chips: int = 1,
) -> ModuleOp:
    """The module: `@prefill` of `prefill` tokens and `@decode` of one token, with a
    KV cache of `positions` positions (or only those of `functions`), built op by op.
    Over `chips` chips (more than one), every product's weight is annotated with its
    split over the 1-d grid `@chips` (`ROW_SPLIT`), for `q8-lower` to lower per chip."""
    check_step(c, prefill, positions)
    if chips < 1:
        raise ModelError(f"the chips are at least 1, got {chips}")
    if chips > 1:
        c.check_chips(chips)
    ops: list[Operation] = []
    if chips > 1:
        ops.append(
            shard.GridOp(
                properties={
                    "sym_name": StringAttr(GRID),
                    "shape": DenseArrayBase.from_list(i64, [chips]),
                }
            )
        )
    if "prefill" in functions:
        ops.append(_function(c, "prefill", prefill, positions, chips))
    if "decode" in functions:
        ops.append(_function(c, "decode", 1, positions, chips))
    return ModuleOp(ops)


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
