"""
A Q8_0 GEMV/GEMM `y = x . W` (x: m x K bf16, W: K x N Q8_0 with fp32 scales), four ways,
timed side by side in one run:

  (a) numpy Q8_0   the fastest pure-numpy Q8_0 product written here (`q8_matmul`)
  (b) numpy deq    dequantise the whole weight to fp32, then one matmul
  (c) unlowered    the module before `q8-lower`, run by the compiled engine
  (d) lowered      the module after `q8-lower` (view + fold), run by the compiled engine

(c) and (d) are compiled once (`compile_module`) and the executable is timed: what a
model's forward pass calls once per token.

    python benchmarks/bench_gemv.py             # m = 1, 8 and 32, K = N = 4096
    python benchmarks/bench_gemv.py --quick     # small sizes, a few seconds
    python benchmarks/bench_gemv.py --tune      # also sweep (a)'s chunking
    python benchmarks/bench_gemv.py --profile   # also cProfile the lowered run (d)

The candidates run interleaved (one run of each, in a shuffled order, per round) so
that the machine's drift hits all of them alike, and every timed run starts cold: a
64 MiB buffer is read first (`ColdStart`), so no candidate finds in a cache what the
one before it left there (the way a GEMV in a model's forward pass finds its weight:
last touched a whole model ago). The table gives the median and the minimum over the
rounds. glibc's malloc is told to keep the memory the candidates free
(`keep_freed_memory`; `--trimming-allocator` leaves it as it is), so that none pays
page faults for memory another one gave back to the system. Before any timing every
output is compared with an fp64 reference on the dequantised weight, within the fp32
summation bound. The peak extra memory of one run of each candidate is measured in a
separate, untimed pass with `tracemalloc` (numpy reports its buffers to it), against
the int8 weight's K x N bytes.
Nothing here asserts a time: the numbers are for reading.

What (a) is, and what else was tried (on the 2-core machine of README.md; all at
K = N = 4096, times the median of interleaved runs):
- The weight is cast to fp32 a chunk of G Q8_0 blocks (G x 32 K-rows, all N columns)
  at a time into one reused buffer, contracted per block by batched
  `(G, m, 32) @ (G, 32, C)` matmuls over C columns at a time, and the per-block sums
  are scaled and summed over the G blocks with one `einsum('gmc,gc->mc')`. The
  int8 -> fp32 cast is numpy's SIMD cast (1.7 ms for 16 Mi values): it alone is over
  half of the m = 1 time.
- G: 1, 2, 4, 8, 16, 32, 128. G = 8 (m = 1: 4 MiB buffer, in L3) is the fastest or
  within noise of it for both m; G = 1 costs ~45% more at m = 1 (call overhead),
  G >= 32 20-60% more (the buffer leaves the cache before it is read back).
- C (columns per matmul call): the full N is best at m = 1 (2048 or less: +5%, the
  batched matmul of a 1-row operand pays per call); C = 2048 is best at m = 8 (the full
  N costs +80%: a 32 x 2048 fp32 panel stays in L2 while BLAS packs it; 1024: +3%).
- Casting C columns at a time (a (G, 32, C) chunk per matmul call, the columns the
  inner loop) instead of all N: the same at m = 1, +30% at m = 8 (7.7 against 5.8 ms:
  twice the cast calls over half-rows, and the matmul's panel is no longer the one
  just cast). The first version of (a) did this.
- Scale then matmul (dequantise the chunk in place, `x[:, chunk] @ buf`): one
  larger BLAS call but a second pass over the fp32 buffer: +90% at m = 1, +20% at m = 8
  (against the same chunking).
  A fused `np.multiply(int8 chunk, scales, out=fp32 buf)` is slower still (numpy's
  buffered mixed-type loop runs at a third of the cast's speed).
- Buffers as malloc returns them (16-byte aligned) instead of starting at a cache
  line: 5-7% slower at m = 1 and m = 8 (3.59 against 3.34 ms at m = 1), and it
  varied from process to process with where the heap put them.
- `prod *= s; prod.sum(0)` instead of the einsum: the same within 5%.
- One `einsum('gmi,gin,gn->mn', optimize=True)` per chunk: +60% at m = 1, +10% at m = 8.
- The transposed product (`buf^T @ x^T`, so BLAS sees N as the long side): +5-10%
  at m = 1, the same at m = 8.
"""

from __future__ import annotations

import os

# Before numpy is imported: BLAS threads would fight the interpreter for 2 cores and
# make the rounds incomparable.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import cProfile
import gc
import io
import math
import pstats
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.core.memory import keep_freed_memory
from xdsl_spatial.core.quant import quantize_q8_0
from xdsl_spatial.interpreters.runner import coerce_args, compile_module, find_function
from xdsl_spatial.interpreters.values import as_f32
from xdsl_spatial.passes.q8_lower import lower_q8
from xdsl_spatial.tools.spatial_gguf import q8_matmul_func

Q8_BLOCK = 32
U = 2.0**-24
"""The unit roundoff of fp32."""

# --------------------------------------------------------------------------------------
# (a) and (b): numpy
# --------------------------------------------------------------------------------------


def default_chunks(m: int, n: int) -> tuple[int, int]:
    """(Q8_0 blocks per chunk, columns per matmul call) of (a), as tuned on the machine
    of README.md."""
    return 8, (n if m == 1 else min(n, 2048))


def line_aligned(shape: tuple[int, ...]) -> np.ndarray:
    """An uninitialised f32 array that starts at a 64-byte cache line (malloc gives
    16-byte alignment; the cast into a buffer that starts mid-line is slower)."""
    nbytes = 4 * math.prod(shape)
    raw = np.empty(nbytes + 64, dtype=np.uint8)
    at = -raw.ctypes.data % 64
    return raw[at : at + nbytes].view(np.float32).reshape(shape)


def q8_matmul(
    x: np.ndarray,
    q: np.ndarray,
    s: np.ndarray,
    blocks: int | None = None,
    cols: int | None = None,
) -> np.ndarray:
    """`x . W` for the Q8_0 weight (q, s): x m x K fp32, q K x N int8, s K/32 x N.

    `sum_b s[b, n] * sum_i x[r, 32b + i] * q[32b + i, n]` in fp32, the weight cast to
    fp32 `blocks` Q8_0 blocks (all N columns) at a time into one reused buffer, and
    multiplied `cols` columns per matmul call.
    """
    m, k = x.shape
    n = q.shape[1]
    nb = k // Q8_BLOCK
    g_def, c_def = default_chunks(m, n)
    g, c = min(blocks or g_def, nb), min(cols or c_def, n)
    xb = np.ascontiguousarray(x.reshape(m, nb, Q8_BLOCK).transpose(1, 0, 2))
    q3 = q.reshape(nb, Q8_BLOCK, n)
    s32 = as_f32(s)  # f16 scales widened by table, as the interpreter widens them
    buf = line_aligned((g, Q8_BLOCK, n))
    prod = line_aligned((g, m, n))
    y = np.zeros((m, n), np.float32)
    for b0 in range(0, nb, g):
        b1 = min(nb, b0 + g)
        wbuf, p = buf[: b1 - b0], prod[: b1 - b0]
        np.copyto(wbuf, q3[b0:b1], casting="unsafe")
        for c0 in range(0, n, c):
            np.matmul(xb[b0:b1], wbuf[..., c0 : c0 + c], out=p[..., c0 : c0 + c])
        y += np.einsum("gmc,gc->mc", p, s32[b0:b1])
    return y


def dequant_matmul(x: np.ndarray, q: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Dequantise the whole weight to fp32, then one BLAS matmul."""
    k, n = q.shape
    w = q.astype(np.float32).reshape(k // Q8_BLOCK, Q8_BLOCK, n)
    w *= as_f32(s)[:, None, :]
    return x @ w.reshape(k, n)


# --------------------------------------------------------------------------------------
# (c) and (d): the interpreter
# --------------------------------------------------------------------------------------


def module_text(m: int, k: int, n: int, scale: str) -> str:
    """`y = x . W` as `spatial-gguf --emit` writes it: bf16 x, W from `W__q8`, `W__q8_scale`."""
    return "builtin.module {\n" + q8_matmul_func("gemv", "W", k, n, m, "bf16", scale) + "}\n"


# --------------------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------------------


@dataclass
class Candidate:
    key: str
    label: str
    run: Callable[[], np.ndarray]
    times: list[float] = field(default_factory=list)
    peak: int = 0
    err: float = 0.0

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def best(self) -> float:
        return min(self.times)


def fp64_reference(x: np.ndarray, q: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """y in fp64 on the dequantised weight, and the fp32 summation bound per element."""
    k, n = q.shape
    w = q.astype(np.float64).reshape(k // Q8_BLOCK, Q8_BLOCK, n)
    w = (w * s.astype(np.float64)[:, None, :]).reshape(k, n)
    x64 = x.astype(np.float64)
    gamma = k * U / (1 - k * U)
    return x64 @ w, gamma * (np.abs(x64) @ np.abs(w))


FLUSH_BYTES = 64 << 20
"""What a cold start reads before every timed call: twice the L3 of the machine of
README.md (32 MiB)."""


class ColdStart:
    """Evicts every cache before a timed call by reading one byte of each 64-byte line
    of a buffer larger than the last-level cache (reading, so the lines it leaves are
    clean and cost the next call no write-backs). Every candidate then starts from the
    same state, the one a GEMV of a model's forward pass starts from: its weight, the
    code and the objects that run it were last touched a whole model ago."""

    def __init__(self, nbytes: int = FLUSH_BYTES) -> None:
        self.buf = np.ones(nbytes, dtype=np.uint8)

    def __call__(self) -> None:
        int(self.buf[::64].max())


def interleaved(cands: Sequence[Candidate], rounds: int, seed: int = 0) -> None:
    """`rounds` rounds, each running every candidate once in a shuffled order (so no
    candidate always follows the same one), each run timed from a cold start."""
    cold = ColdStart()
    order = list(cands)
    rng = random.Random(seed)
    for _ in range(rounds):
        rng.shuffle(order)
        for c in order:
            gc.collect()
            cold()
            t0 = time.perf_counter()
            c.run()
            c.times.append(time.perf_counter() - t0)


def peak_extra_memory(run: Callable[[], object]) -> int:
    """Bytes allocated at the peak of one call, above what was allocated before it."""
    gc.collect()
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        out = run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del out
    return peak - base


def _ms(t: float) -> str:
    return f"{t * 1e3:9.2f}"


def _mib(b: int) -> str:
    return f"{b / 2**20:8.2f}"


def profile(run: Callable[[], object], calls: int = 5, top: int = 15) -> str:
    """cProfile of `calls` runs, the `top` functions by own time (numpy's ufuncs and
    BLAS count in the Python function that calls them)."""
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(calls):
        run()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def bench_one(
    m: int,
    k: int,
    n: int,
    scale: str,
    rounds: int,
    blocks: int | None,
    cols: int | None,
    with_profile: bool = False,
) -> list[Candidate]:
    rng = np.random.default_rng(1234 + m)
    # bf16 activations as the chip holds them; a weight of LLM-like magnitudes.
    x = rng.standard_normal((m, k)).astype(ml_dtypes.bfloat16).astype(np.float32)
    sdt = np.float16 if scale == "f16" else np.float32
    q, s = quantize_q8_0(rng.standard_normal((k, n)).astype(np.float32) * 0.02, sdt)

    unlowered = parse_module(module_text(m, k, n, scale))
    lowered = parse_module(module_text(m, k, n, scale))
    decisions = lower_q8(lowered, optimize=True)
    if not all(d.lowered for d in decisions):
        sys.exit(f"q8-lower did not lower the product: {[d.line() for d in decisions]}")

    def interpreted(module: object) -> Callable[[], np.ndarray]:
        exe = compile_module(module, "gemv")  # type: ignore[arg-type]
        args = coerce_args(find_function(module, "gemv"), [x, q, s])  # type: ignore[arg-type]
        return lambda: exe(*args).outputs[0]

    cands = [
        Candidate("a", "(a) numpy Q8_0", lambda: q8_matmul(x, q, s, blocks, cols)),
        Candidate("b", "(b) numpy dequantise+matmul", lambda: dequant_matmul(x, q, s)),
        Candidate("c", "(c) interpreter, unlowered", interpreted(unlowered)),
        Candidate("d", "(d) interpreter, lowered", interpreted(lowered)),
    ]
    # Agreement first (this also warms every cache: BLAS, the interpreter's compiled
    # programs and placements).
    ref, bound = fp64_reference(x, q, s)
    for c in cands:
        y = np.asarray(c.run(), dtype=np.float64)
        c.err = float(np.abs(y - ref).max())
        over = np.abs(y - ref) > bound
        if over.any():
            i = np.unravel_index(int(np.argmax(over)), over.shape)
            sys.exit(
                f"{c.label} disagrees with the fp64 reference at {i}: "
                f"|{y[i]} - {ref[i]}| > fp32 bound {bound[i]:.3g}"
            )
    for c in cands:
        c.peak = peak_extra_memory(c.run)
    interleaved(cands, rounds)
    if with_profile:
        print(f"\ncProfile of (d), m = {m}, K = {k}, N = {n}, 5 runs:")
        print(profile(cands[3].run))
    return cands


def report(m: int, k: int, n: int, cands: list[Candidate], rounds: int) -> str:
    by = {c.key: c for c in cands}
    weight = k * n
    lines = [
        f"m = {m}, K = {k}, N = {n} (int8 weight {weight / 2**20:.2f} MiB), "
        f"{rounds} interleaved rounds",
        f"{'candidate':<30} {'median ms':>9} {'min ms':>9} {'peak MiB':>8} "
        f"{'x weight':>8} {'max |y - y64|':>13}",
    ]
    for c in cands:
        lines.append(
            f"{c.label:<30} {_ms(c.median)} {_ms(c.best)} {_mib(c.peak)} "
            f"{c.peak / weight:8.2f} {c.err:13.3g}"
        )
    a, c_, d = by["a"], by["c"], by["d"]
    # The target is set for the model-sized product only.
    target = "; target <= 1.1" if (k, n) == (4096, 4096) else ""
    lines.append(
        f"(d)/(a) = {d.median / a.median:.2f} (min/min {d.best / a.best:.2f}{target}),  "
        f"(d)/(c) = {d.median / c_.median:.2f} (min/min {d.best / c_.best:.2f})"
    )
    return "\n".join(lines)


def tune(m: int, k: int, n: int, rounds: int) -> str:
    """(a)'s time over a grid of chunkings, interleaved like the main table."""
    rng = np.random.default_rng(99)
    x = rng.standard_normal((m, k)).astype(ml_dtypes.bfloat16).astype(np.float32)
    q, s = quantize_q8_0(rng.standard_normal((k, n)).astype(np.float32) * 0.02)
    grid = [(g, c) for g in (2, 4, 8, 16, 32) for c in (n, n // 2, n // 4) if c >= 32]
    cands = [
        Candidate(f"{g}x{c}", f"G = {g:>2}, C = {c:>5}", lambda g=g, c=c: q8_matmul(x, q, s, g, c))
        for g, c in grid
    ]
    for c in cands:
        c.run()
    interleaved(cands, rounds)
    best = min(cands, key=lambda c: c.median)
    lines = [f"(a) chunking, m = {m}, K = {k}, N = {n}: median (min) ms"]
    lines += [
        f"  {c.label}: {_ms(c.median)} ({c.best * 1e3:.2f})" + ("  <- fastest" if c is best else "")
        for c in cands
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="K = N = 512, 3 rounds")
    p.add_argument("--m", default="1,8,32", help="comma-separated batch sizes (default 1,8,32)")
    p.add_argument("--k", type=int, help="K (default 4096; 512 with --quick)")
    p.add_argument("--n", type=int, help="N (default 4096; 512 with --quick)")
    p.add_argument("--rounds", type=int, help="interleaved rounds (default 15; 3 with --quick)")
    p.add_argument(
        "--scales",
        choices=("f32", "f16"),
        default="f32",
        help="scale type: f32 as the chip stores it (default) or f16 as GGUF does",
    )
    p.add_argument("--blocks", type=int, help="(a): Q8_0 blocks per chunk (default 8)")
    p.add_argument(
        "--cols", type=int, help="(a): columns per chunk (default N at m = 1, 2048 else)"
    )
    p.add_argument("--tune", action="store_true", help="also sweep (a)'s chunking")
    p.add_argument("--profile", action="store_true", help="also cProfile the lowered run (d)")
    p.add_argument(
        "--trimming-allocator",
        action="store_true",
        help="leave glibc's malloc as it is (by default it keeps freed memory, see above)",
    )
    args = p.parse_args(argv)
    allocator = "malloc as is" if args.trimming_allocator else keep_freed_memory()
    k = args.k or (512 if args.quick else 4096)
    n = args.n or (512 if args.quick else 4096)
    rounds = args.rounds or (3 if args.quick else 15)
    ms = [int(v) for v in args.m.split(",")]
    print(
        f"numpy {np.__version__}, OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}, "
        f"{os.cpu_count()} CPUs, {args.scales} scales, bf16 activations, {allocator}"
    )
    for m in ms:
        cands = bench_one(m, k, n, args.scales, rounds, args.blocks, args.cols, args.profile)
        print()
        print(report(m, k, n, cands, rounds))
        sys.stdout.flush()
    if args.tune:
        for m in ms:
            print()
            print(tune(m, k, n, rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
