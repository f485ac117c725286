"""
A product over chips, on one host and with each chip a Ray actor: what a call costs
each way, what making the actors costs, and what each actor holds.

    python benchmarks/bench_chips.py            # K = N = 4096, m = 1, 15 calls each
    python benchmarks/bench_chips.py --quick    # K = N = 1024, 5 calls

For 1 chip (no split), N over 2 and 4 chips and K over 2 and 4 chips (`q8-lower{chips=C
split=n|k}`), the lowered function is compiled once and called on one host, then its
chips are made as Ray actors (`runner.distribute`) and called; the table gives the
median call, the time to make the actors (cutting and sending the shards), the bytes
the largest actor holds against the whole weight, and whether the outputs are the same
bits (they must be: the script stops if not). Needs the [ray] extra. Nothing here
asserts a time.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import statistics
import time

import numpy as np

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.distributed import start_ray
from xdsl_spatial.interpreters.runner import coerce_args, compile_module, distribute, find_function
from xdsl_spatial.passes.q8_lower import lower_q8
from xdsl_spatial.tools.spatial_gguf import q8_matmul_func


def median_ms(f, calls: int) -> float:
    f()
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="K = N = 1024, 5 calls")
    args = ap.parse_args()
    k = n = 1024 if args.quick else 4096
    calls = 5 if args.quick else 15
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, k)).astype(np.float32)
    q = rng.integers(-127, 128, (k, n)).astype(np.int8)
    s = rng.uniform(0.001, 0.02, (k // 32, n)).astype(np.float32)
    t = time.perf_counter()
    start_ray()
    print(f"local Ray instance started in {time.perf_counter() - t:.1f} s")
    print(
        f"m = 1, K = {k}, N = {n}: weight {(q.nbytes + s.nbytes) / 1e6:.2f} MB (values and f32 scales)"
    )
    print(
        f"{'chips':>5} {'split':>5} {'local ms':>9} {'make s':>7} {'Ray ms':>7} {'actor MB':>9} {'bits':>5}"
    )
    for chips, split in ((1, "n"), (2, "n"), (4, "n"), (2, "k"), (4, "k")):
        mod = parse_module(
            "builtin.module {\n" + q8_matmul_func("mm", "W", k, n, 1, "bf16", "f32") + "}\n"
        )
        lower_q8(mod, chips=chips, split=split, optimize=True)
        if chips == 1:
            # One chip as an annotation would give it: a program named for chip 0.
            mod = parse_module(
                "shard.grid @g(shape = 1)\n"
                + q8_matmul_func("mm", "W", k, n, 1, "bf16", "f32")
                .replace(
                    "q8.dequantize %W__q8, %W__q8_scale",
                    "q8.dequantize %q, %s",
                )
                .replace(
                    "{\n",
                    "{\n  %sh = shard.sharding @g split_axes = [[], [0]] : !shard.sharding\n"
                    f"  %q = shard.shard %W__q8 to %sh : tensor<{k}x{n}xi8>\n"
                    f"  %s = shard.shard %W__q8_scale to %sh : tensor<{k // 32}x{n}xf32>\n",
                    1,
                )
            )
            lower_q8(mod, optimize=True)
        exe = compile_module(mod, "mm")
        arrays = coerce_args(find_function(mod, "mm"), [x, q, s])
        local = exe(*arrays)
        t_local = median_ms(lambda: exe(*arrays), calls)
        t = time.perf_counter()
        with distribute(mod, "mm", [x, q, s]) as on_ray:
            t_make = time.perf_counter() - t
            got = on_ray(x)
            same = all(a.tobytes() == b.tobytes() for a, b in zip(got.outputs, local.outputs))
            if not same:
                raise SystemExit(
                    f"{chips} chips split {split}: Ray's outputs differ from this host's"
                )
            t_ray = median_ms(lambda: on_ray(x), calls)
            held = max(on_ray.chips.held_bytes().values())
        print(
            f"{chips:>5} {split if chips > 1 else '-':>5} {t_local:>9.2f} {t_make:>7.2f} "
            f"{t_ray:>7.2f} {held / 1e6:>9.2f} {'same' if same else 'DIFF':>5}"
        )


if __name__ == "__main__":
    main()
