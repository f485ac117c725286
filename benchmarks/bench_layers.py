"""
SmolLM2-135M's seven layer products (576 wide, the FFN 1536), lowered and unlowered,
side by side in one run: where a model of this size spends its time, many small
programs, each costing what a program costs besides its arithmetic.

    python benchmarks/bench_layers.py              # m = 1 and 8, both ways, 15 rounds
    python benchmarks/bench_layers.py --quick      # 3 rounds

Three candidates: (a) the numpy Q8_0 kernel of bench_gemv, (c) the unlowered product and
(d) the lowered one, each compiled by the compiled engine. They are timed two ways, and
the script prints a table for each:

- **cold**: each product alone, every timed run from cold caches (`bench_gemv.ColdStart`:
  the weight, the code and every object that runs it evicted), the candidates
  interleaved. Here a small product pays for every cache line its Python code touches.
- **in a model**: as a forward pass runs them, layer after layer: each candidate runs
  the seven products of LAYERS layers back to back, every layer its own weights and its
  own compiled executables (so the weights, 3.5 MiB a layer, come from memory, and
  each product's own objects were last touched a whole pass ago, while the engine's
  code, which every product runs, stays in the caches). Each call is timed on its own;
  the candidates' passes are interleaved.

The tables give medians; the sums over the seven shapes are a layer's products. "Per
program" is (d) minus (a), the lowered run's time besides the arithmetic (a) does, over
its programs (a view and a fold): what one program costs to run. Nothing here asserts a
time.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import gc
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_gemv import (
    Candidate,
    fp64_reference,
    interleaved,
    module_text,
    q8_matmul,
)

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.core.memory import keep_freed_memory
from xdsl_spatial.core.quant import quantize_q8_0
from xdsl_spatial.interpreters.runner import coerce_args, compile_module, find_function
from xdsl_spatial.passes.q8_lower import lower_q8

SHAPES = [
    ("attn_q", 576, 576),
    ("attn_k", 576, 192),
    ("attn_v", 576, 192),
    ("attn_output", 576, 576),
    ("ffn_gate", 576, 1536),
    ("ffn_up", 576, 1536),
    ("ffn_down", 1536, 576),
]
"""(tensor, K, N) of one layer of SmolLM2-135M."""

LAYERS = 24
"""Layers of a pass in the "in a model" timing: their weights (3.5 MiB a layer) are
2.6x the last-level cache here, so no layer finds its weights cached."""


def candidates(m: int, k: int, n: int, seed: int = 0) -> tuple[list[Candidate], int]:
    """(a), (c) and (d) of one m x K x N product with weights of their own (`seed`),
    each checked against the fp64 reference; and the lowered module's program count."""
    rng = np.random.default_rng(7 + m + k + n + 1000 * seed)
    x = rng.standard_normal((m, k)).astype(ml_dtypes.bfloat16).astype(np.float32)
    q, s = quantize_q8_0(rng.standard_normal((k, n)).astype(np.float32) * 0.02, np.float16)
    unlowered = parse_module(module_text(m, k, n, "f16"))
    lowered = parse_module(module_text(m, k, n, "f16"))
    if not all(d.lowered for d in lower_q8(lowered, optimize=True)):
        sys.exit(f"q8-lower did not lower {m}x{k}x{n}")
    programs = sum(1 for op in lowered.walk() if op.name in ("spatial.view", "spatial.fold"))
    args = coerce_args(find_function(lowered, "gemv"), [x, q, s])
    exe_c, exe_d = compile_module(unlowered, "gemv"), compile_module(lowered, "gemv")
    cands = [
        Candidate("a", "(a) numpy Q8_0", lambda: q8_matmul(x, q, s)),
        Candidate("c", "(c) unlowered", lambda: exe_c(*args).outputs[0]),
        Candidate("d", "(d) lowered", lambda: exe_d(*args).outputs[0]),
    ]
    ref, bound = fp64_reference(x, q, s)
    for c in cands:
        y = np.asarray(c.run(), dtype=np.float64)
        if (np.abs(y - ref) > bound).any():
            sys.exit(f"{c.label} disagrees with the fp64 reference at {m}x{k}x{n}")
    return cands, programs


HEADER = f"{'tensor':<12} {'K x N':>11} {'(a) us':>8} {'(c) us':>8} {'(d) us':>8} {'(d)/(c)':>8} {'per program us':>15}"


def table(rows: Sequence[tuple[str, int, int, dict[str, float], int]]) -> None:
    """Print one row per shape (median seconds of a, c, d; programs) and their sum."""
    print(HEADER)
    sums = {"a": 0.0, "c": 0.0, "d": 0.0}
    overheads = []
    for name, k, n, t, programs in rows:
        for key in sums:
            sums[key] += t[key]
        per = (t["d"] - t["a"]) / programs
        overheads.append(per)
        print(
            f"{name:<12} {f'{k}x{n}':>11} {t['a'] * 1e6:8.0f} {t['c'] * 1e6:8.0f} "
            f"{t['d'] * 1e6:8.0f} {t['d'] / t['c']:8.2f} {per * 1e6:15.0f}"
        )
    print(
        f"{'sum':<12} {'':>11} {sums['a'] * 1e6:8.0f} {sums['c'] * 1e6:8.0f} "
        f"{sums['d'] * 1e6:8.0f} {sums['d'] / sums['c']:8.2f} "
        f"{np.median(overheads) * 1e6:15.0f} (median)"
    )
    sys.stdout.flush()


def cold(m: int, rounds: int) -> None:
    """Each shape's candidates interleaved, every run from cold caches."""
    rows = []
    for name, k, n in SHAPES:
        cands, programs = candidates(m, k, n)
        interleaved(cands, rounds)
        rows.append((name, k, n, {c.key: c.median for c in cands}, programs))
    table(rows)


def in_a_model(m: int, rounds: int, layers: int = LAYERS) -> None:
    """Each candidate runs `layers` layers' seven products back to back (a pass); the
    candidates' passes interleaved in a shuffled order, every call timed."""
    products = [
        (name, k, n, *candidates(m, k, n, seed=1 + layer))
        for layer in range(layers)
        for name, k, n in SHAPES
    ]
    times: dict[tuple[str, str], list[float]] = {}
    order = ["a", "c", "d"]
    rng = random.Random(0)
    for _ in range(rounds):
        rng.shuffle(order)
        for key in order:
            gc.collect()
            for name, _k, _n, cands, _ in products:
                run = next(c.run for c in cands if c.key == key)
                t0 = time.perf_counter()
                run()
                times.setdefault((name, key), []).append(time.perf_counter() - t0)
    programs = {name: p for name, _k, _n, _c, p in products}
    table(
        [
            (name, k, n, {key: float(np.median(times[name, key])) for key in "acd"}, programs[name])
            for name, k, n in SHAPES
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="3 rounds")
    p.add_argument("--rounds", type=int, help="interleaved rounds (default 15)")
    p.add_argument("--m", default="1,8", help="comma-separated batch sizes (default 1,8)")
    p.add_argument(
        "--timing",
        choices=("cold", "model", "both"),
        default="both",
        help="each product from cold caches, layer after layer as in a model, or both (default)",
    )
    args = p.parse_args(argv)
    rounds = args.rounds or (3 if args.quick else 15)
    print(
        f"numpy {np.__version__}, OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}, "
        f"f16 scales, bf16 activations, {keep_freed_memory()}, {rounds} rounds"
    )
    for m in (int(v) for v in args.m.split(",")):
        if args.timing in ("cold", "both"):
            print(f"\nm = {m}, cold: each product alone, from cold caches")
            cold(m, rounds)
        if args.timing in ("model", "both"):
            print(
                f"\nm = {m}, in a model: {LAYERS} layers' products back to back, each layer's weights its own"
            )
            in_a_model(m, rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
