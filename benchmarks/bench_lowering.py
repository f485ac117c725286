"""
How long `q8-lower` takes on a model-sized module: many 4096 x 4096 Q8_0 matmuls at
m = 1, their weights external (function arguments), the activation of each group of
four matmuls the previous group's result (so each group gets its own view), the
groups alternating between the two spellings of a bf16 activation (`arith.extf` into
an all-f32 matmul, and MLIR's mixed bf16 x bf16 -> f32 matmul).

    python benchmarks/bench_lowering.py                 # 50, 100 and 200 matmuls
    python benchmarks/bench_lowering.py --counts 200 --no-subprocess

For each size the module is built as text, then timed: parsing it, `lower_q8` on the
parsed module (also with Python's cyclic garbage collector off, which shows the pass's
own cost: the collector's full passes over a growing heap are what make the plain
column grow faster than linearly), verifying the result (xdsl-opt does after each
pass), printing it, and (separately, as a user runs it) `xdsl-opt`
with and without `-p q8-lower` on the text in a subprocess, whose difference is the
pass plus printing the larger result. The pass should be O(number of matmuls): the
table's last column (pass time per matmul) should stay flat as the count grows.
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.q8 import Q8Part, stored_name
from xdsl_spatial.passes.q8_lower import lower_q8

T = TypeVar("T")

GROUP = 4
"""Matmuls that read one activation (like q, k, v and a gate of one layer)."""


def module_text(count: int, k: int = 4096, n: int = 4096) -> str:
    """One function of `count` Q8_0 matmuls `1 x k x n`, weights as arguments."""
    if k != n:
        raise ValueError("the chain feeds each result back as an activation: K must equal N")
    groups = -(-count // GROUP)
    args = [f"%x0: tensor<1x{k}xbf16>"]
    body: list[str] = []
    kb = k // 32
    done = 0
    for g in range(groups):
        x = f"%x{g}"
        mixed = g % 2 == 1
        wt = "bf16" if mixed else "f32"
        if not mixed:
            body.append(f"    %xf{g} = arith.extf {x} : tensor<1x{k}xbf16> to tensor<1x{k}xf32>")
        body.append(f"    %e{g} = tensor.empty() : tensor<1x{n}xf32>")
        body.append(f"    %z{g} = arith.constant 0.000000e+00 : f32")
        body.append(
            f"    %acc{g} = linalg.fill ins(%z{g} : f32) outs(%e{g} : tensor<1x{n}xf32>) "
            f"-> tensor<1x{n}xf32>"
        )
        last = ""
        for _j in range(min(GROUP, count - done)):
            w = f"W{done}"
            q, s = stored_name(w, Q8Part.VALUES), stored_name(w, Q8Part.SCALES)
            args += [f"%{q}: tensor<{k}x{n}xi8>", f"%{s}: tensor<{kb}x{n}xf16>"]
            body.append(
                f"    %w{done} = q8.dequantize %{q}, %{s} : tensor<{k}x{n}xi8>, "
                f"tensor<{kb}x{n}xf16> -> tensor<{k}x{n}x{wt}>"
            )
            xin, xt = (x, "bf16") if mixed else (f"%xf{g}", "f32")
            body.append(
                f"    %y{done} = linalg.matmul ins({xin}, %w{done} : tensor<1x{k}x{xt}>, "
                f"tensor<{k}x{n}x{wt}>) outs(%acc{g} : tensor<1x{n}xf32>) -> tensor<1x{n}xf32>"
            )
            last = f"%y{done}"
            done += 1
        body.append(
            f"    %x{g + 1} = arith.truncf {last} : tensor<1x{n}xf32> to tensor<1x{n}xbf16>"
        )
    body.append(f"    func.return %x{groups} : tensor<1x{n}xbf16>")
    return (
        "builtin.module {\n"
        f"  func.func @decode({', '.join(args)}) -> tensor<1x{n}xbf16> {{\n"
        + "\n".join(body)
        + "\n  }\n}\n"
    )


def timed(f: Callable[[], T], collect: bool = True) -> tuple[float, T]:
    gc.collect()
    if not collect:
        gc.disable()
    try:
        t0 = time.perf_counter()
        out = f()
        return time.perf_counter() - t0, out
    finally:
        gc.enable()


def printed(module: ModuleOp) -> str:
    buf = io.StringIO()
    Printer(stream=buf).print_op(module)
    return buf.getvalue()


def xdsl_opt() -> list[str]:
    exe = shutil.which("xdsl-opt", path=os.path.dirname(sys.executable)) or shutil.which("xdsl-opt")
    return [exe] if exe else [sys.executable, "-m", "xdsl.tools.xdsl_opt"]


def run_opt(path: str, passes: Sequence[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(
        [*xdsl_opt(), path, *passes, "-o", os.devnull],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - t0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--counts", default="50,100,200", help="matmul counts (default 50,100,200)")
    p.add_argument("--repeats", type=int, default=3, help="runs of each step; the median is shown")
    p.add_argument("--no-subprocess", action="store_true", help="skip the xdsl-opt runs")
    args = p.parse_args(argv)
    counts = [int(c) for c in args.counts.split(",")]
    rows = []
    for count in counts:
        text = module_text(count)
        parse_t, lower_t, nogc_t, verify_t, print_t = [], [], [], [], []
        opt_t, noop_t = [], []
        lowered = 0
        out_chars = 0
        for _ in range(args.repeats):
            dt, module = timed(lambda: parse_module(text))
            parse_t.append(dt)
            dt, decisions = timed(partial(lower_q8, module))
            lower_t.append(dt)
            lowered = sum(d.lowered for d in decisions)
            dt, _ = timed(module.verify)
            verify_t.append(dt)
            dt, out = timed(partial(printed, module))
            print_t.append(dt)
            out_chars = len(out)
            fresh = parse_module(text)
            dt, _ = timed(partial(lower_q8, fresh), collect=False)
            nogc_t.append(dt)
            module = fresh = out = None  # freed before the next repeat parses
        if not args.no_subprocess:
            with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
                f.write(text)
            try:
                for _ in range(args.repeats):
                    noop_t.append(run_opt(f.name, []))
                    opt_t.append(run_opt(f.name, ["-p", "q8-lower"]))
            finally:
                os.unlink(f.name)
        med = statistics.median
        rows.append(
            (
                count,
                lowered,
                len(text),
                out_chars,
                med(parse_t),
                med(lower_t),
                med(nogc_t),
                med(verify_t),
                med(print_t),
                med(noop_t) if noop_t else None,
                med(opt_t) if opt_t else None,
            )
        )
    print(
        f"q8-lower on one function of N matmuls 1 x 4096 x 4096 (f16 scales, weights as "
        f"arguments, {GROUP} matmuls a view); median of {args.repeats}, seconds"
    )
    head = (
        f"{'matmuls':>7} {'lowered':>7} {'text in':>9} {'text out':>9} {'parse':>6} "
        f"{'lower_q8':>8} {'(no gc)':>7} {'verify':>6} {'print':>6} {'xdsl-opt':>8} "
        f"{'-p q8-lower':>11} {'ms/matmul':>9} {'(no gc)':>7}"
    )
    print(head)
    print("-" * len(head))
    for count, lowered, tin, tout, pa, lo, ng, ve, pr, noop, opt in rows:
        fmt = lambda v: f"{v:.2f}" if v is not None else "-"
        print(
            f"{count:>7} {lowered:>7} {tin:>9} {tout:>9} {pa:>6.2f} {lo:>8.2f} {ng:>7.2f} "
            f"{ve:>6.2f} {pr:>6.2f} {fmt(noop):>8} {fmt(opt):>11} {lo / count * 1e3:>9.2f} "
            f"{ng / count * 1e3:>7.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
