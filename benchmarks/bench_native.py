"""
The native engine on a Q8_0 product, side by side with the best numpy kernel, and
against this machine's memory bandwidth.

    python benchmarks/bench_native.py            # K = N = 4096, m = 1, 8, 32 (~2 min)
    python benchmarks/bench_native.py --quick    # K = N = 1024, 3 rounds
    python benchmarks/bench_native.py --m 1 --shape 576,1536   # a small layer's product
    python benchmarks/bench_native.py --threads 2   # also (o) with its items on 2 threads
    python benchmarks/bench_native.py --m 1 --wide  # also (w): one item as wide as W
    OPENBLAS_CORETYPE=Haswell python benchmarks/bench_native.py --avx2   # an AVX2 CPU's view

`y = x . W` (x m x K bf16, W K x N Q8_0, fp32 scales), four ways:

- **(a)** `bench_gemv.py`'s numpy Q8_0 kernel (`q8_matmul`, the fastest written here);
- **(n)** the module after `q8-lower`, compiled by the native engine (upstream MLIR and
  LLVM, JIT at -O3 for this host) with the kernels chosen for this CPU
  (`XDSL_SPATIAL_KERNELS`, else `auto`: `interpreters/native/host.py`) and called;
- **(o)** the same after `q8-lower{optimize=true}`, what the tools run (a fold's rows
  one stage, its K trips summed at once where the site holds them);
- **(p)** (o) with the kernels `generic`: the conversion as the chip's programs are
  written, every page copied (the plain path the chosen kernels are tested against);
- **(g)** where the kernels chosen are not `loop` and change this product (`amx`, the
  lanes on AMX-BF16 tiles at m >= 2; `bf16`, as AVX512-BF16 dot products at m >= 2;
  `avx512`, as 512-bit fused multiply-adds at m >= 2): (o) with the kernels `loop`
  (the lanes' loop) instead;
- **(d)** on a CPU with AVX512-BF16 whose kernels chosen are not `bf16`, at m >= 2:
  (o) with the kernels `bf16` (its dot products) instead, the choice `auto` passed
  over (`host.dots_outrun_fmas`);
- **(u)** the module before `q8-lower` (dequantise, then `linalg.matmul`), compiled by
  the same upstream pipeline;
- **(t)** with `--threads N`: (o) with each program's items on N OpenMP threads;
- **(s)** (o) on copies of W's values and scales placed 16 bytes past a cache line,
  where numpy (glibc) puts a large array's data: what a caller's own arrays cost.
  The others read W in huge pages, on cache lines (`memory.in_huge_pages`), as a
  model's weights are;
- **(v)** with `--avx2`: (o) with the kernels `avx2`, the code a CPU with AVX2 and FMA
  but no AVX-512 runs (`auto`'s choice there), compiled so on any x86-64 CPU with AVX2;
  with `OPENBLAS_CORETYPE=Haswell`, numpy's BLAS runs its AVX2 kernels too, so (a)/(v)
  is what such a CPU's user would see (its memory system aside);
- **(w)** with `--wide`: (o) lowered for a site that holds all N columns
  (`acc-tiles` N/32, local memory to match), so its one item reads every row of W
  whole where (o)'s items each read a strip of 8 tiles (256 columns) of every row:
  how much the strips cost a CPU, which reads the items one after another.

Every output is checked against fp64 within the fp32 summation bound first; then the
candidates run interleaved from cold caches (`bench_gemv.interleaved`: a 64 MiB read
before each timed run), and the table gives the median and minimum. Below it, the
weight's bytes (int8 values and fp32 scales) over (n)'s median time, next to two
bandwidths measured here in the same run: a read (a sum over a 512 MiB array) and a
copy (512 MiB each way), one thread. Nothing here asserts a time.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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
from xdsl_spatial.core.memory import aligned, aligned_empty, in_huge_pages, keep_freed_memory
from xdsl_spatial.core.quant import quantize_q8_0
from xdsl_spatial.core.tile_columns import TileColumns
from xdsl_spatial.interpreters.native.compiler import compile_native
from xdsl_spatial.interpreters.native.host import bf16_available, choose_kernels, cpu_info
from xdsl_spatial.interpreters.native.prepare import PrepareError
from xdsl_spatial.interpreters.runner import coerce_args, find_function, verified
from xdsl_spatial.passes.convert_spatial_to_linalg import AMX_ROWS
from xdsl_spatial.passes.convert_spatial_to_linalg.dot import DOT_ROWS, FMA_ROWS
from xdsl_spatial.passes.q8_lower import lower_q8

BANDWIDTH_BYTES = 512 << 20


def bandwidth(repeats: int = 5) -> tuple[float, float]:
    """(read, copy) GB/s on one thread: the best of `repeats` sums of a 512 MiB array
    (bytes read) and copies of it (bytes read plus bytes written)."""
    a = np.ones(BANDWIDTH_BYTES // 8, np.int64)
    b = np.empty_like(a)
    read = copy = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        int(a.sum())
        read = min(read, time.perf_counter() - t)
        t = time.perf_counter()
        np.copyto(b, a)
        copy = min(copy, time.perf_counter() - t)
    return BANDWIDTH_BYTES / read / 1e9, 2 * BANDWIDTH_BYTES / copy / 1e9


def off_a_line(a: np.ndarray) -> np.ndarray:
    """A copy of `a` whose data starts 16 bytes past a cache line (numpy's own placement
    of a large array: glibc's block header)."""
    out = aligned_empty(a.shape, a.dtype, past=16)
    out[...] = a
    return out


def bench(
    m: int,
    k: int,
    n: int,
    rounds: int,
    threads: int = 1,
    wide: bool = False,
    avx2: bool = False,
) -> tuple[list[Candidate], dict[str, float]]:
    rng = np.random.default_rng(4321 + m)
    x = rng.standard_normal((m, k)).astype(ml_dtypes.bfloat16).astype(np.float32)
    q, s = quantize_q8_0(rng.standard_normal((k, n)).astype(np.float32) * 0.02, np.float32)
    # as a model's weights are (`Model`): in huge pages, on cache lines (numpy's start
    # 16 bytes past one, in 4 KiB pages)
    x = aligned(x)
    q, s = in_huge_pages([q, s])
    compile_s: dict[str, float] = {}

    def native(
        key: str,
        label: str,
        lower: bool,
        optimize: bool = False,
        threads: int = 1,
        kernels: str | None = None,
        wide: bool = False,
        off: bool = False,
    ) -> Candidate:
        module = parse_module(module_text(m, k, n, "f32"))
        if lower:
            site: dict[str, Any] = {"acc_tiles": n // 32, "local_mem": 4 * k * n} if wide else {}
            lower_q8(module, optimize=optimize, **site)
        t0 = time.perf_counter()
        exe = compile_native(verified(module, "gemv"), threads=threads, kernels=kernels)
        compile_s[key] = time.perf_counter() - t0
        # each weight the code reads laid in tile columns laid so once, as a model's are,
        # in huge pages; (s) every weight off a cache line
        place = off_a_line if off else (lambda a: in_huge_pages([a])[0])
        args = [
            TileColumns(place(a.data), a.width)
            if isinstance(a, TileColumns)
            else (place(a) if off and i else a)
            for i, a in enumerate(exe.lay(coerce_args(find_function(module, "gemv"), [x, q, s])))
        ]
        return Candidate(key, label, lambda: exe(*args).outputs[0])

    cands = [
        Candidate("a", "(a) numpy Q8_0", lambda: q8_matmul(x, q, s)),
        native("n", "(n) native, lowered", True),
        native("o", "(o) native, optimize=true", True, optimize=True),
    ]
    cands.append(native("p", "(p) (o), generic kernels", True, True, kernels="generic"))
    cands.append(native("s", "(s) (o), W off a line", True, True, off=True))
    chosen = choose_kernels().name
    if m >= {"amx": AMX_ROWS, "bf16": DOT_ROWS, "avx512": FMA_ROWS}.get(chosen, m + 1):
        cands.append(native("g", "(g) (o), kernels loop", True, True, kernels="loop"))
    if chosen != "bf16" and bf16_available() and m >= DOT_ROWS:
        cands.append(native("d", "(d) (o), kernels bf16", True, True, kernels="bf16"))
    if threads > 1:
        cands.append(native("t", f"(t) (o) on {threads} threads", True, True, threads))
    if avx2 and chosen != "avx2":
        cands.append(native("v", "(v) (o), kernels avx2", True, True, kernels="avx2"))
    if wide:
        try:
            cands.append(native("w", "(w) (o), one item as wide as W", True, True, wide=True))
        except PrepareError as e:  # (its buffers past what the stack holds: m > 1)
            print(f"(w) not run: {e}"[:160])
    if m == 1 or k * n <= 1 << 22:
        # the naive loops of an unlowered matmul: slow at m > 1
        cands.append(native("u", "(u) native, unlowered", False))
    ref, bound = fp64_reference(x, q, s)
    for c in cands:
        y = np.asarray(c.run(), dtype=np.float64)
        c.err = float(np.abs(y - ref).max())
        if (np.abs(y - ref) > bound).any():
            sys.exit(f"{c.label} disagrees with the fp64 reference beyond the fp32 bound")
    interleaved(cands, rounds)
    return cands, compile_s


def report(m: int, k: int, n: int, cands: list[Candidate], compile_s: dict[str, float], bw) -> str:
    lines = [
        f"m = {m}, K = {k}, N = {n}",
        f"{'candidate':26s} {'median ms':>10s} {'min ms':>8s} {'max |y - y64|':>14s}",
    ]
    for c in cands:
        lines.append(
            f"{c.label:26s} {c.median * 1e3:10.3f} {c.best * 1e3:8.3f} {c.err:14.3g}"
            + (f"   (compiled in {compile_s[c.key]:.1f} s)" if c.key in compile_s else "")
        )
    by = {c.key: c for c in cands}
    weight = k * n + 4 * (k // 32) * n
    gbs = weight / by["o"].median / 1e9
    best = weight / by["o"].best / 1e9
    lines.append(
        f"(a)/(n) = {by['a'].median / by['n'].median:.2f}, (a)/(o) = "
        f"{by['a'].median / by['o'].median:.2f} (goal >= 2), (p)/(o) = "
        f"{by['p'].median / by['o'].median:.2f} (the chosen kernels against the generic), "
        f"(s)/(o) = {by['s'].median / by['o'].median:.2f} (W off a cache line against on one)"
    )
    lines.append(
        f"(o) streams the weight ({weight / 2**20:.1f} MiB) at {gbs:.1f} GB/s (its fastest "
        f"run {best:.1f}): {gbs / bw[0]:.2f} of the read bandwidth ({bw[0]:.1f} GB/s; "
        f"{best / bw[0]:.2f} at the fastest; goal >= 0.70), copy {bw[1]:.1f} GB/s"
    )
    if "g" in by:
        lines.append(
            f"(g)/(o) = {by['g'].median / by['o'].median:.2f} (the chosen kernels against "
            f"loop), (a)/(g) = {by['a'].median / by['g'].median:.2f}"
        )
    if "d" in by:
        lines.append(f"(d)/(o) = {by['d'].median / by['o'].median:.2f} (bf16 against the chosen)")
    if "t" in by:
        lines.append(
            f"(o)/(t) = {by['o'].median / by['t'].median:.2f} (threads against one), "
            f"(a)/(t) = {by['a'].median / by['t'].median:.2f}"
        )
    if "v" in by:
        lines.append(
            f"(a)/(v) = {by['a'].median / by['v'].median:.2f} (the avx2 kernels against "
            f"numpy; goal >= 2), (v)/(o) = {by['v'].median / by['o'].median:.2f}"
        )
    if "w" in by:
        lines.append(
            f"(o)/(w) = {by['o'].median / by['w'].median:.2f} (whole rows against strips), "
            f"(w) streams at {weight / by['w'].median / 1e9:.1f} GB/s"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="K = N = 1024, 3 rounds")
    p.add_argument(
        "--shape",
        help="K,N of the weight, each a positive multiple of 32 (default 4096,4096; "
        "1024,1024 with --quick); SmolLM2's layer products are 576,1536 and 1536,576",
    )
    p.add_argument("--m", default="1,8,32", help="comma-separated batch sizes (default 1,8,32)")
    p.add_argument("--rounds", type=int, help="interleaved rounds (default 15; 3 with --quick)")
    p.add_argument(
        "--threads", type=int, default=1, help="also (o) with its items on this many threads"
    )
    p.add_argument(
        "--wide", action="store_true", help="also (w): (o) with one item as wide as the weight"
    )
    p.add_argument(
        "--avx2",
        action="store_true",
        help="also (v): (o) with the kernels avx2, what a CPU with AVX2 and no AVX-512 runs "
        "(with OPENBLAS_CORETYPE=Haswell numpy runs that CPU's BLAS kernels too)",
    )
    args = p.parse_args(argv)
    k = n = 1024 if args.quick else 4096
    if args.shape is not None:
        try:
            k, n = (int(v) for v in args.shape.split(","))
        except ValueError:
            p.error(f"--shape takes K,N (two integers), got {args.shape!r}")
        if k <= 0 or n <= 0 or k % 32 or n % 32:
            p.error(f"--shape takes K,N, each a positive multiple of 32, got {args.shape!r}")
    rounds = args.rounds or (3 if args.quick else 15)
    allocator = keep_freed_memory()
    bw = bandwidth()
    print(
        f"{cpu_info()[0] or 'an unnamed CPU'}; numpy {np.__version__}, OPENBLAS_NUM_THREADS="
        f"{os.environ['OPENBLAS_NUM_THREADS']}, OPENBLAS_CORETYPE="
        f"{os.environ.get('OPENBLAS_CORETYPE', '(this CPU)')}, {allocator}; one thread: read {bw[0]:.1f} "
        f"GB/s, copy {bw[1]:.1f} GB/s; kernels {choose_kernels().name}"
    )
    for m in (int(v) for v in args.m.split(",")):
        cands, compile_s = bench(m, k, n, rounds, args.threads, args.wide, args.avx2)
        print()
        print(report(m, k, n, cands, compile_s, bw))
        sys.stdout.flush()
    print(f"\n(median over {rounds} interleaved rounds from cold caches; {statistics.__name__})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
