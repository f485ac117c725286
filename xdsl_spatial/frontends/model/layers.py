"""
The pieces a step of the model is built from, each a few ops of linalg on tensors
appended to one function (`Layers`): the embedding's gather, RMSNorm (of a row, or of
each head), a weight product in the canonical Q8_0 form `q8-lower` lowers and its
bias, RoPE (GGML's normal and neox layouts), causal grouped-query attention (over every
position, or a sliding window), the FFN's gated activations (SwiGLU, GeGLU), the
logits' soft-capping and the KV cache's writes. `step.py` puts them together as an
architecture's layers.

Everything but a product's input is f32; a product's input is rounded to bf16 (the
chip holds activations in bf16) by the op that makes it (a norm, the attention's last
generic, the gated activation).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, math, shard, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FlatSymbolRefAttr,
    IndexType,
    TensorType,
    f32,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.dialects.shard import ShardAxesArrayAttr
from xdsl.ir import SSAValue

from xdsl_spatial.dialects.q8 import Q8_BLOCK, DequantizeOp, Q8Part, stored_name
from xdsl_spatial.frontends.model.config import GRID, SCALE_TYPE, ModelConfig
from xdsl_spatial.frontends.model.ir import (
    ELEMENTS,
    Body,
    Func,
    In,
    amap,
    as_f32,
    collapse,
    const_f32,
    const_index,
    expand,
    index,
    ty,
)
from xdsl_spatial.passes.tensor_parallel import even_bounds

LOWEST = -3.40282347e38
"""The lowest f32: a masked score, below every score a row has (the row's own position
is never masked), so the row's maximum is a real score."""

GELU_COEF_A = 0.044715
SQRT_2_OVER_PI = 0.79788456080286535587989211986876
"""GELU's tanh approximation, as GGML writes it: 0.5 x (1 + tanh(sqrt(2/pi) x (1 + a x^2)))."""


def visible(
    pos: SSAValue, row_dim: int, col_dim: int, window: int = 0, own: bool = False
) -> SSAValue:
    """Inside a generic body: whether key position j (index `col_dim`) is visible from
    the row's position p = pos + index `row_dim` (with `own`, each row a sequence of
    its own: p = pos, the row's own position): j <= p, and with a sliding `window`
    also p - j < window (llama.cpp masks p - j >= n_swa)."""
    r = None if own else index(row_dim)
    j = index(col_dim)
    p = arith.IndexCastOp(pos, IndexType()).result
    rp = p if r is None else arith.AddiOp(p, r).result
    ok = arith.CmpiOp(j, rp, "ule").result
    if not window:
        return ok
    end = arith.AddiOp(j, const_index(window)).result
    return arith.AndIOp(ok, arith.CmpiOp(rp, end, "ult").result).result


def mul_add(a: list[SSAValue]) -> SSAValue:
    return arith.AddfOp(a[2], arith.MulfOp(a[0], a[1])).result


def visible_mul_add(col_dim: int, window: int) -> Body:
    """The body `out + (visible ? x * y : +0.0)` of a contraction that also reads
    the row's own position (its third input: each row a sequence of its own, or the
    one row of a decode step; `visible`, `own`): a term of a key the row cannot see is
    not computed. The host's contraction reads no cached key or value there
    (`passes/contraction_in_registers.py`), nor a chip program's converted scores
    (convert-spatial-to-linalg's `masked.py`), so a step reads only the positions its
    sequences have reached."""

    def body(a: list[SSAValue]) -> SSAValue:
        term = arith.MulfOp(a[0], a[1]).result
        ok = visible(a[2], 0, col_dim, window, own=True)
        zero = const_f32(as_f32(0.0))
        return arith.AddfOp(a[3], arith.SelectOp(ok, term, zero).result).result

    return body


class Layers:
    """Builds the pieces of one step (prefill or decode, `m` tokens) into a `Func`."""

    def __init__(
        self,
        c: ModelConfig,
        f: Func,
        m: int,
        positions: int,
        chips: int = 1,
        batched: bool = False,
    ):
        self.c, self.f, self.m, self.positions = c, f, m, positions
        self.chips = chips
        """Over more than one chip, every product's weight carries a `shard` annotation."""
        self.batched = batched
        """Each row a sequence of its own (a batched decode step): row r is at position
        `pos[r]` and attends to row r of the caches (`batched_cache_shapes`), not at
        `pos[0] + r` in one cache."""

    def row_pos(self, pos: SSAValue, n: int, row: int) -> In:
        """The input of a generic of `n` dims that reads the position of the row (dim
        `row`): `pos[row]` in a batched step, else `pos[0]` (the row adds its index)."""
        return In(pos, amap(n, [row] if self.batched else ["0"]))

    # ---- the embedding, norms and products --------------------------------------------

    def embed(self, tokens: SSAValue) -> SSAValue:
        """Column t of the dequantised embedding for each token t: a gather from its
        int8 values and f16 scales (times the architecture's `embed_scale`)."""
        c, f, m = self.c, self.f, self.m
        q = f.args[stored_name("token_embd.weight", Q8Part.VALUES)]
        s = f.args[stored_name("token_embd.weight", Q8Part.SCALES)]

        def body(a: list[SSAValue]) -> SSAValue:
            t = arith.IndexCastOp(a[0], IndexType()).result
            k = index(1)
            blk = const_index(Q8_BLOCK)
            kb = arith.DivUIOp(k, blk).result
            v = tensor.ExtractOp(q, [k, t], i8).result
            sc = tensor.ExtractOp(s, [kb, t], ELEMENTS[SCALE_TYPE]).result
            vf = arith.SIToFPOp(v, f32).result
            sf = arith.ExtFOp(sc, f32).result
            e = arith.MulfOp(vf, sf).result
            if c.embed_scale == 1.0:
                return e
            return arith.MulfOp(e, const_f32(as_f32(c.embed_scale))).result

        return f.generic(
            "embd",
            2,
            (),
            [In(tokens, amap(2, [0]))],
            (f.empty((m, c.d_model), "f32"), [0, 1]),
            body,
        )

    def rmsnorm(
        self,
        x: SSAValue,
        weight: SSAValue,
        hint: str,
        shape: Sequence[int] | None = None,
        out: str = "bf16",
    ) -> SSAValue:
        """x / sqrt(mean(x^2) + eps) * w over the last axis of `x` (m x d_model unless
        `shape` says), the weight along that axis; rounded to bf16 (a product's input)
        unless `out` is f32."""
        c, f = self.c, self.f
        shape = tuple(shape or (self.m, c.d_model))
        n, d = len(shape), shape[-1]
        every = amap(n, range(n))
        rows = amap(n, range(n - 1))

        def squares(a: list[SSAValue]) -> SSAValue:
            sq = arith.MulfOp(a[0], a[0]).result
            return arith.AddfOp(a[1], sq).result

        ss = f.generic(
            f"{hint}.ss",
            n,
            (n - 1,),
            [In(x, every)],
            (f.filled(shape[:-1], as_f32(0.0)), list(range(n - 1))),
            squares,
        )

        def scale(a: list[SSAValue]) -> SSAValue:
            size = const_f32(as_f32(d))
            eps = const_f32(as_f32(c.eps))
            mean = arith.DivfOp(a[1], size).result
            r = math.RsqrtOp(arith.AddfOp(mean, eps).result).result
            y = arith.MulfOp(a[0], r).result
            yw = arith.MulfOp(y, a[2]).result
            return yw if out == "f32" else arith.TruncFOp(yw, ELEMENTS[out]).result

        return f.generic(
            hint,
            n,
            (),
            [In(x, every), In(ss, rows), In(weight, amap(n, [n - 1]))],
            (f.empty(shape, out), list(range(n))),
            scale,
        )

    def head_norm(self, x: SSAValue, weight: SSAValue, heads: int, hint: str) -> SSAValue:
        """Each head of `x` (m x heads*head_dim) RMS-normed over its head_dim with the
        weight `weight` (head_dim), in f32."""
        m, hd = self.m, self.c.head_dim
        split = self.f.op(f"{hint}.heads", expand(x, [[0], [1, 2]], (m, heads, hd)))
        normed = self.rmsnorm(split, weight, hint, (m, heads, hd), "f32")
        return self.f.op(f"{hint}.rows", collapse(normed, [[0], [1, 2]], (m, heads * hd)))

    def widen(self, x: SSAValue, k: int, hint: str) -> SSAValue:
        return self.f.op(hint, arith.ExtFOp(x, ty((self.m, k), "f32")))

    def product(self, xf: SSAValue, weight: str, k: int, n: int, hint: str) -> SSAValue:
        """`xf . W` for the Q8_0 weight `weight` (K x N): the canonical form."""
        f, m = self.f, self.m
        q = f.args[stored_name(weight, Q8Part.VALUES)]
        s = f.args[stored_name(weight, Q8Part.SCALES)]
        if self.chips > 1:
            q, s = self.sharded(q, s, weight, k, n, hint)
        w = f.op(f"{hint}.w", DequantizeOp(q, s))
        acc = f.filled((m, n), as_f32(0.0))
        return f.op(hint, MatmulOp((xf, w), (acc,)))

    def bias(self, y: SSAValue, bias: SSAValue, n: int, hint: str) -> SSAValue:
        """`y` (m x n) plus the vector `bias` on every row."""
        f, m = self.f, self.m
        return f.generic(
            hint,
            2,
            (),
            [In(y, amap(2, [0, 1])), In(bias, amap(2, [1]))],
            (f.empty((m, n), "f32"), [0, 1]),
            lambda a: arith.AddfOp(a[0], a[1]).result,
        )

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

    # ---- RoPE --------------------------------------------------------------------------

    def rope_tables(self, pos: SSAValue, sliding: bool = False) -> tuple[SSAValue, SSAValue]:
        """cos and sin of each row's angles, m x head_dim/2, for the layers that slide
        or not (`ModelConfig.rope_freqs`): row r is position pos + r (batched: pos[r])."""
        c, f, m = self.c, self.f, self.m
        half = c.head_dim // 2
        freqs = [as_f32(v) for v in c.rope_freqs(sliding)]
        table = f.const(
            ("freqs", tuple(freqs)),
            DenseIntOrFPElementsAttr.from_list(TensorType(f32, (half,)), freqs),
        )

        def theta(a: list[SSAValue]) -> SSAValue:
            p = a[0]
            if not self.batched:
                p = arith.AddiOp(p, arith.IndexCastOp(index(0), i32).result).result
            pf = arith.SIToFPOp(p, f32).result
            return arith.MulfOp(pf, a[1]).result

        name = "rope_swa" if sliding else "rope"
        t = f.generic(
            f"{name}.theta",
            2,
            (),
            [self.row_pos(pos, 2, 0), In(table, amap(2, [1]))],
            (f.empty((m, half), "f32"), [0, 1]),
            theta,
        )
        return f.op(f"{name}.cos", math.CosOp(t)), f.op(f"{name}.sin", math.SinOp(t))

    def rope(
        self,
        x: SSAValue,
        heads: tuple[int, ...],
        out_perm: Sequence[int],
        scale: float,
        tables: tuple[SSAValue, SSAValue],
        hint: str,
    ) -> SSAValue:
        """Rotate each head's pairs of `x` (m x heads*head_dim, the heads split as
        `heads`) by the angles `tables` (cos, sin), scaled by `scale`, written in the
        axis order `out_perm` of the split (row, *heads, a, b): (pair, which of the two)
        in GGML's normal layout, consecutive pairs (x[2i], x[2i+1]); (which, pair) in
        its neox layout, the head's halves (x[i], x[i + head_dim/2])."""
        c, f, m = self.c, self.f, self.m
        cos, sin = tables
        half = c.head_dim // 2
        src = (m, *heads, 2, half) if c.rope_neox else (m, *heads, half, 2)
        ex = f.op(f"{hint}.pairs", expand(x, [[0], list(range(1, len(heads) + 3))], src))
        n = len(src)
        which, pair = (n - 2, n - 1) if c.rope_neox else (n - 1, n - 2)
        out_shape = tuple(src[i] for i in out_perm)
        ins = [
            In(ex, amap(n, ["0" if d == which else d for d in range(n)])),
            In(ex, amap(n, ["1" if d == which else d for d in range(n)])),
            In(cos, amap(n, [0, pair])),
            In(sin, amap(n, [0, pair])),
        ]

        def body(a: list[SSAValue]) -> SSAValue:
            x0, x1, co, si = a[:4]
            first = arith.SubfOp(arith.MulfOp(x0, co), arith.MulfOp(x1, si)).result
            second = arith.AddfOp(arith.MulfOp(x0, si), arith.MulfOp(x1, co)).result
            j = index(which)
            zero = const_index(0)
            is_first = arith.CmpiOp(j, zero, "eq").result
            y = arith.SelectOp(is_first, first, second).result
            if scale == 1.0:
                return y
            return arith.MulfOp(y, const_f32(as_f32(scale))).result

        return f.generic(hint, n, (), ins, (f.empty(out_shape, "f32"), list(out_perm)), body)

    # ---- attention ---------------------------------------------------------------------

    def attention(
        self,
        q: SSAValue,
        keys: SSAValue,
        values: SSAValue,
        pos: SSAValue,
        n_keys: int,
        i: int,
        window: int = 0,
    ) -> SSAValue:
        """softmax(q k^T, causal) v for every head; q is n_kv x group x m x head_dim
        (already scaled), keys n_kv x head_dim x n_keys, values n_kv x n_keys x
        head_dim (batched: a leading dim of m, row r's caches, each row causal to its
        own position); with a `window`, a row sees only the keys less than that many
        positions before its own. Returns the m x n_head*head_dim bf16 input of
        attn_output."""
        c, f, m = self.c, self.f, self.m
        kv, g, hd = c.n_kv, c.group, c.head_dim
        st_shape = (kv, g, m, n_keys)
        rows = (kv, g, m)
        pos_in = self.row_pos(pos, 4, 2)
        own = self.batched
        # a batched step's caches have a row a sequence: row r attends to its own
        cache = [2, 0, 4, 3] if own else [0, 4, 3]

        # A sum bounded by a row's position reads that position (a third input) and
        # leaves out the keys the row cannot see (`visible_mul_add`: those terms are
        # +0.0 whatever the cache holds), so the code reading it need not read a cache
        # past the position: the host's contraction runs such a sum a vector of keys
        # at a time; a chip program's converted scores skip each block of 32
        # positions none of its rows sees (convert-spatial-to-linalg's `masked.py`),
        # and its `p . v`'s mask is the same across its generic's inner loops. The
        # scores and `p . v` are so in every step whose rows are each a sequence's (a
        # decode step, a step of several sequences). Prefill's stay plain: its mask
        # varies along its rows, which neither code takes.
        masked = own or m == 1
        seen = [self.row_pos(pos, 5, 2)] if masked else []
        # (b, g, r, j, d): scores[b, g, r, j] = sum_d q[b, g, r, d] * k[(r,) b, d, j]
        scores = f.generic(
            f"blk.{i}.scores",
            5,
            (4,),
            [
                In(q, amap(5, [0, 1, 2, 4])),
                In(keys, amap(5, cache)),
                *seen,
            ],
            (f.filled(st_shape, as_f32(0.0)), [0, 1, 2, 3]),
            visible_mul_add(3, window) if masked else mul_add,
        )
        s_in = In(scores, amap(4, [0, 1, 2, 3]))

        # A key the row cannot see is -inf to the largest and +0.0 to the sum, each
        # fold's identity, so code may skip the keys no row sees (`masked.py`); the
        # largest starts at LOWEST, which the hidden keys had been: the same values.
        def row_max(a: list[SSAValue]) -> SSAValue:
            ok = visible(a[1], 2, 3, window, own)
            v = arith.SelectOp(ok, a[0], const_f32(float("-inf"))).result
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
            ok = visible(a[2], 2, 3, window, own)
            ex = math.ExpOp(arith.SubfOp(a[0], a[1]).result).result
            zero = const_f32(as_f32(0.0))
            return arith.SelectOp(ok, ex, zero).result

        p = f.generic(
            f"blk.{i}.exp",
            4,
            (),
            [s_in, In(mx, amap(4, [0, 1, 2])), pos_in],
            (f.empty(st_shape, "f32"), [0, 1, 2, 3]),
            exps,
        )

        def add(a: list[SSAValue]) -> SSAValue:
            if not masked:
                return arith.AddfOp(a[1], a[0]).result
            ok = visible(a[1], 2, 3, window, own)
            v = arith.SelectOp(ok, a[0], const_f32(as_f32(0.0))).result
            return arith.AddfOp(a[2], v).result

        total = f.generic(
            f"blk.{i}.sum",
            4,
            (3,),
            [In(p, amap(4, [0, 1, 2, 3])), *([pos_in] if masked else [])],
            (f.filled(rows, as_f32(0.0)), [0, 1, 2]),
            add,
        )
        # (b, g, r, d, j): o[b, g, r, d] = sum_j p[b, g, r, j] * v[(r,) b, j, d]
        o_shape = (kv, g, m, hd)
        o = f.generic(
            f"blk.{i}.pv",
            5,
            (4,),
            [In(p, amap(5, [0, 1, 2, 4])), In(values, amap(5, cache)), *seen],
            (f.filled(o_shape, as_f32(0.0)), [0, 1, 2, 3]),
            visible_mul_add(4, window) if masked else mul_add,
        )

        # (r, b, g, d): the heads side by side in a row, normalised, rounded to bf16
        def normalise(a: list[SSAValue]) -> SSAValue:
            return arith.TruncFOp(arith.DivfOp(a[0], a[1]), ELEMENTS["bf16"]).result

        merged_shape = (m, kv, g, hd)
        merged = f.generic(
            f"blk.{i}.heads",
            4,
            (),
            [In(o, amap(4, [1, 2, 0, 3])), In(total, amap(4, [1, 2, 0]))],
            (f.empty(merged_shape, "bf16"), [0, 1, 2, 3]),
            normalise,
        )
        return f.op(f"blk.{i}.attn_out", collapse(merged, [[0], [1, 2, 3]], (m, c.q_dim), "bf16"))

    # ---- elementwise ---------------------------------------------------------------------

    def gated(self, gate: SSAValue, up: SSAValue, hint: str) -> SSAValue:
        """act(gate) * up, rounded to bf16 (the down product's input): SwiGLU's silu,
        or GeGLU's GELU in GGML's tanh approximation."""
        c, f, m = self.c, self.f, self.m

        def silu_mul(a: list[SSAValue]) -> SSAValue:
            one = const_f32(as_f32(1.0))
            ex = math.ExpOp(arith.NegfOp(a[0]).result).result
            s = arith.DivfOp(a[0], arith.AddfOp(one, ex)).result
            return arith.TruncFOp(arith.MulfOp(s, a[1]), ELEMENTS["bf16"]).result

        def gelu_mul(a: list[SSAValue]) -> SSAValue:
            x = a[0]
            one = const_f32(as_f32(1.0))
            inner = arith.AddfOp(
                one, arith.MulfOp(const_f32(as_f32(GELU_COEF_A)), arith.MulfOp(x, x))
            ).result
            u = arith.MulfOp(arith.MulfOp(const_f32(as_f32(SQRT_2_OVER_PI)), x), inner).result
            t = arith.AddfOp(one, math.TanhOp(u)).result
            g = arith.MulfOp(arith.MulfOp(const_f32(as_f32(0.5)), x), t).result
            return arith.TruncFOp(arith.MulfOp(g, a[1]), ELEMENTS["bf16"]).result

        return f.generic(
            hint,
            2,
            (),
            [In(gate, amap(2, [0, 1])), In(up, amap(2, [0, 1]))],
            (f.empty((m, c.d_ff), "bf16"), [0, 1]),
            gelu_mul if c.activation == "gelu" else silu_mul,
        )

    def softcap(self, logits: SSAValue, hint: str) -> SSAValue:
        """c tanh(logits / c), c the config's `softcap`, as llama.cpp scales, takes the
        tanh and scales back."""
        c, f, m = self.c, self.f, self.m

        def body(a: list[SSAValue]) -> SSAValue:
            inv = const_f32(as_f32(1.0 / c.softcap))
            t = math.TanhOp(arith.MulfOp(a[0], inv)).result
            return arith.MulfOp(t, const_f32(as_f32(c.softcap))).result

        return f.generic(
            hint,
            2,
            (),
            [In(logits, amap(2, [0, 1]))],
            (f.empty((m, c.vocab), "f32"), [0, 1]),
            body,
        )

    def add(self, a: SSAValue, b: SSAValue, hint: str) -> SSAValue:
        return self.f.op(hint, arith.AddfOp(a, b))

    def insert(
        self,
        value: SSAValue,
        cache: SSAValue,
        shape: tuple[int, ...],
        at: int,
        offset: SSAValue,
        row: int = 0,
    ) -> SSAValue:
        """`value` written into `cache` (whose `at` axis holds positions) from `offset`
        (in a batched step's caches, into their row `row`)."""
        offsets = [0] * len(shape)
        offsets[0] = row
        offsets[at] = DYNAMIC_INDEX
        return self.f.op(
            "cache",
            tensor.InsertSliceOp.get(
                value, cache, list(shape), static_offsets=offsets, offsets=[offset]
            ),
        )
