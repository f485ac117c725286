"""
The model's two functions, one step of its graph each, built op by op from `layers.py`'s
pieces for the architecture the config describes:

```
@prefill(tokens: m x i32, pos: 1 x i32, weights..., k cache, v cache per layer)
                                                 -> (logits m x V, k cache, v cache per layer)
@decode(token: 1 x i32, pos: 1 x i32, weights..., k cache, v cache per layer)
                                                 -> (logits 1 x V, k cache, v cache per layer)
```

and, for N sequences decoded together, `@decode_batch` (`build_batched`).

A layer (llama.cpp's graph; the parts in brackets where the architecture has them):

```
h = rmsnorm(x, attn_norm)                                   (bf16)
q, k, v = h W_q [+ b_q], h W_k [+ b_k], h W_v [+ b_v]
[q, k = rmsnorm of each head (attn_q_norm, attn_k_norm)]
q, k = rope(q) * q_scale, rope(k)         (the layer's angles: a sliding layer's base)
keys, values written into the caches at pos
o = attention(q, keys, values)    (causal [and within the layer's sliding window]) W_o [+ b_o]
x = x + [rmsnorm(]o[, post_attention_norm)]
x = x + [rmsnorm(]down(act(gate(rmsnorm(x, ffn_norm))) * up(...))[, post_ffw_norm)]
```

then `rmsnorm(x, output_norm)`, the LM head [and soft-capping]. The embedding is
column t of `token_embd.weight` [times `embed_scale`].
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, func, shard, tensor
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.linalg.ops import TransposeOp
from xdsl.ir import Attribute, Operation, Region, SSAValue

from xdsl_spatial.frontends.model.config import (
    BATCH_ENTRY,
    GRID,
    ModelConfig,
    ModelError,
    batched_cache_shapes,
    cache_names,
    cache_shapes,
    check_sequences,
    check_step,
    weight_args,
)
from xdsl_spatial.frontends.model.ir import Func, In, amap, collapse, expand, index, ty
from xdsl_spatial.frontends.model.layers import Layers


def _product(g: Layers, layer: int, xf: SSAValue, name: str, hint: str) -> SSAValue:
    """Layer `layer`'s product `name` (`LAYER_PRODUCTS`) of `xf`, plus its bias where
    the architecture has one."""
    c, b = g.c, f"blk.{layer}."
    k, n = c.product_shape(name)
    y = g.product(xf, f"{b}{name}.weight", k, n, f"{b}{hint}")
    if name in c.biases:
        y = g.bias(y, g.f.args[f"{b}{name}.bias"], n, f"{b}{hint}.biased")
    return y


def _position(g: Layers, pos: SSAValue) -> SSAValue:
    """`pos[0]` as an index: where the step's first row writes."""
    f = g.f
    at = f.const(("index", 0), IntegerAttr(0, IndexType()))
    p = f.op("p0", tensor.ExtractOp(pos, [at], i32))
    return f.op("offset", arith.IndexCastOp(p, IndexType()))


def _write_rows(
    g: Layers, kt: SSAValue, vt: SSAValue, k_cache: SSAValue, v_cache: SSAValue, pos: SSAValue
) -> tuple[SSAValue, SSAValue]:
    """A batched step's cache writes, one op a cache for all N rows: row r of the new
    caches holds row r's key (n_kv x head_dim of `kt`'s column r) and value (row r of
    each head of `vt`) at its position `pos[r]`, the old cache elsewhere. One op, not
    an insert a row: each insert's result is a whole new batched cache, so N inserts
    copy the cache N times, where `spatial-lower-ops` makes this one program that
    moves each row's window alone (`cache.match_row_write`)."""
    c, f, m = g.c, g.f, g.m
    kv, hd, n = c.n_kv, c.head_dim, g.positions

    def written(position_dim: int) -> Callable[[list[SSAValue]], SSAValue]:
        def body(a: list[SSAValue]) -> SSAValue:
            p = arith.IndexCastOp(a[1], IndexType()).result
            here = arith.CmpiOp(index(position_dim), p, "eq").result
            return arith.SelectOp(here, a[0], a[2]).result

        return body

    # keys (r, b, d, j): the cache's j-th column of row r is kt[b, d, r] where j = pos[r]
    k_new = f.generic(
        "cache",
        4,
        (),
        [In(kt, amap(4, [1, 2, 0])), In(pos, amap(4, [0])), In(k_cache, amap(4, [0, 1, 2, 3]))],
        (f.empty((m, kv, hd, n), "f32"), [0, 1, 2, 3]),
        written(3),
    )
    # values (r, b, j, d): the cache's j-th row of head b of row r is vt[b, r, d]
    v_new = f.generic(
        "cache",
        4,
        (),
        [In(vt, amap(4, [1, 0, 3])), In(pos, amap(4, [0])), In(v_cache, amap(4, [0, 1, 2, 3]))],
        (f.empty((m, kv, n, hd), "f32"), [0, 1, 2, 3]),
        written(2),
    )
    return k_new, v_new


def step(
    g: Layers, tokens: SSAValue, pos: SSAValue, caches: list[SSAValue]
) -> tuple[SSAValue, list[SSAValue]]:
    """The logits and the caches after this step of m tokens at positions pos...:
    each layer writes their keys and values into its caches at pos, then attends to
    the cache's positions up to each row's own (within its window)."""
    c, f, m = g.c, g.f, g.m
    kv, grp, hd = c.n_kv, c.group, c.head_dim
    kinds = sorted({c.sliding(i) for i in range(c.n_layer)})
    tables = {sliding: g.rope_tables(pos, sliding) for sliding in kinds}
    offset = None if g.batched else _position(g, pos)
    x = g.embed(tokens)
    new_caches = []
    for i in range(c.n_layer):
        b = f"blk.{i}."
        xn = g.rmsnorm(x, f.args[f"{b}attn_norm.weight"], f"{b}attn_in")
        xf = g.widen(xn, c.d_model, f"{b}attn_in.f32")
        q = _product(g, i, xf, "attn_q", "q")
        k = _product(g, i, xf, "attn_k", "k")
        v = _product(g, i, xf, "attn_v", "v")
        if c.qk_norm:
            q = g.head_norm(q, f.args[f"{b}attn_q_norm.weight"], c.n_head, f"{b}q_norm")
            k = g.head_norm(k, f.args[f"{b}attn_k_norm.weight"], kv, f"{b}k_norm")
        angles = tables[c.sliding(i)]
        # q: (r, b, g, i, two) -> (b, g, r, i, two), scaled for the scores
        qr = g.rope(q, (kv, grp), (1, 2, 0, 3, 4), c.q_scale, angles, f"{b}q_rope")
        qh = f.op(f"{b}q_heads", collapse(qr, [[0], [1], [2], [3, 4]], (kv, grp, m, hd)))
        # k: (r, b, i, two) -> (b, i, two, r): the keys transposed, as cached
        kr = g.rope(k, (kv,), (1, 2, 3, 0), 1.0, angles, f"{b}k_rope")
        kt = f.op(f"{b}k_t", collapse(kr, [[0], [1, 2], [3]], (kv, hd, m)))
        vh = f.op(f"{b}v_rows", expand(v, [[0], [1, 2]], (m, kv, hd)))
        vt = f.op(
            f"{b}v_heads",
            TransposeOp(vh, f.empty((kv, m, hd), "f32"), DenseArrayBase.from_list(i64, [1, 0, 2])),
        )
        if offset is None:
            k_new, v_new = _write_rows(g, kt, vt, caches[2 * i], caches[2 * i + 1], pos)
        else:
            k_new = g.insert(kt, caches[2 * i], (kv, hd, m), 2, offset)
            v_new = g.insert(vt, caches[2 * i + 1], (kv, m, hd), 1, offset)
        new_caches += [k_new, v_new]
        att = g.attention(qh, k_new, v_new, pos, g.positions, i, c.window(i))
        af = g.widen(att, c.q_dim, f"{b}attn_out.f32")
        o = _product(g, i, af, "attn_output", "o")
        if c.post_norms:
            o = g.rmsnorm(o, f.args[f"{b}post_attention_norm.weight"], f"{b}attn_post", out="f32")
        x = g.add(x, o, f"{b}mid")
        xn = g.rmsnorm(x, f.args[f"{b}ffn_norm.weight"], f"{b}ffn_in")
        xf = g.widen(xn, c.d_model, f"{b}ffn_in.f32")
        gate = _product(g, i, xf, "ffn_gate", "gate")
        up = _product(g, i, xf, "ffn_up", "up")
        h = g.gated(gate, up, f"{b}ffn_mid")
        hf = g.widen(h, c.d_ff, f"{b}ffn_mid.f32")
        down = _product(g, i, hf, "ffn_down", "down")
        if c.post_norms:
            down = g.rmsnorm(down, f.args[f"{b}post_ffw_norm.weight"], f"{b}ffn_post", out="f32")
        x = g.add(x, down, f"{b}out")
    xn = g.rmsnorm(x, f.args["output_norm.weight"], "head_in")
    xf = g.widen(xn, c.d_model, "head_in.f32")
    logits = g.product(xf, c.lm_head, c.d_model, c.vocab, "logits")
    if c.softcap:
        logits = g.softcap(logits, "logits.capped")
    return logits, new_caches


def signature(
    c: ModelConfig, m: int, positions: int, batched: bool = False
) -> tuple[list[tuple[str, TensorType[Attribute]]], list[TensorType[Attribute]]]:
    """A step's arguments (name, type) and result types: the tokens (m of them), the
    position of the first (batched: of each), the weights (`weight_args`) and the
    caches (batched: a row a sequence); the logits and the caches."""
    shapes = batched_cache_shapes(c, m, positions) if batched else cache_shapes(c, positions)
    cache_types = [ty(s, "f32") for s in shapes]
    params = [("tokens", ty((m,), "i32")), ("pos", ty((m if batched else 1,), "i32"))]
    params += [(name, ty(shape, elem)) for name, shape, elem in weight_args(c)]
    params += list(zip(cache_names(c), cache_types))
    return params, [ty((m, c.vocab), "f32"), *cache_types]


def check_signatures(c: ModelConfig, module: ModuleOp, prefill: int, positions: int) -> None:
    """That `module` has `@prefill` and `@decode` with the built model's arguments
    (names and types) and results, for a prefill of `prefill` tokens and a cache of
    `positions` (a `ModelError` naming the first difference)."""
    funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)}
    for name, m in (("prefill", prefill), ("decode", 1)):
        fn = funcs.get(name)
        if fn is None:
            raise ModelError(f"the module has no function @{name}")
        params, results = signature(c, m, positions)
        args = fn.body.block.args
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
        got = list(fn.function_type.outputs.data)
        if got != results:
            raise ModelError(
                f"@{name} returns ({', '.join(map(str, got))}); the model's returns "
                f"({', '.join(map(str, results))})"
            )


def _function(
    c: ModelConfig, name: str, m: int, positions: int, chips: int = 1, batched: bool = False
) -> func.FuncOp:
    """A step of `m` tokens: `@prefill` (a chunk of the prompt), `@decode` (m = 1) or
    `@decode_batch` (`batched`: a token of each of m sequences)."""
    params, results = signature(c, m, positions, batched)
    f = Func(params)
    caches = [f.args[n] for n in cache_names(c)]
    logits, new_caches = step(
        Layers(c, f, m, positions, chips, batched), f.args["tokens"], f.args["pos"], caches
    )
    f.builder.insert(func.ReturnOp(logits, *new_caches))
    return func.FuncOp(name, ([t for _, t in params], results), Region(f.block))


def build_model(
    c: ModelConfig,
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


def build_batched(c: ModelConfig, sequences: int, positions: int) -> ModuleOp:
    """The module of one function, `@decode_batch`: a decode step of `sequences`
    sequences at once, each its own token, position (`pos`, one a sequence) and row
    of the caches (`batched_cache_shapes`), every product one of m = `sequences`
    rows (each weight moved once a step for all of them):

    ```
    @decode_batch(tokens: N x i32, pos: N x i32, weights..., k cache, v cache per layer
                  (N x the one-sequence shape)) -> (logits N x V, caches)
    ```"""
    check_step(c, 1, positions)
    check_sequences(sequences)
    return ModuleOp([_function(c, BATCH_ENTRY, sequences, positions, batched=True)])
