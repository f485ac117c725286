"""
How fast the interpreter runs frontend IR: each Q8_0 form of `examples/frontends/`
at a model's size, before and after `q8-lower`, and the structured-op kernels a
model step needs (RMSNorm's two generics, attention's score contraction).

    python benchmarks/bench_frontends.py             # K = N = 4096, m = 1 and 8
    python benchmarks/bench_frontends.py --quick     # K = N = 1024

Every output is first checked against fp64 within the fp32 summation bound (the
script stops if one is not); then each candidate runs `--repeat` times after one
warm-up run and the median is printed. Times are warm (the weight in cache as far as
it fits), one BLAS thread. Before lowering, a form dequantises the whole weight to
fp32 and multiplies by BLAS; after it, the fold streams the int8 weight, and an N x K
or grouped weight is first transposed to the chip's K x N on every call (the host's
repack, which a real host does once when it loads the weights). Nothing here asserts
a time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_q8_raise import (
    grouped_text,
    inputs,
    kn_text,
    nk_text,
    reference,
)
from xdsl.dialects.linalg.ops import GenericOp

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.kernels import prepare
from xdsl_spatial.interpreters.runner import execute
from xdsl_spatial.passes.q8_lower import lower_q8


def median_ms(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1e3 * statistics.median(times)


def forms(m: int, k: int, n: int):
    yield "K x N, floordiv scales, matmul", "kn", kn_text(m, k, n, "f16", "bf16")
    yield "N x K, contraction generic", "nk", nk_text(m, k, n, "f16", "bf16", "generic")
    yield "N x K, transpose + matmul", "nk", nk_text(m, k, n, "f16", "bf16", "transpose")
    yield (
        "grouped N x G x 32 (IREE)",
        "grouped",
        grouped_text((m,), k // 32, n, "f16", True, "bf16"),
    )


def bench_forms(k: int, n: int, repeat: int) -> None:
    print(f"{'form':34} {'m':>3} {'before ms':>10} {'after ms':>9}")
    for m in (1, 8):
        for label, form, text in forms(m, k, n):
            rng = np.random.default_rng(0)
            before_mod = parse_module(text)
            args = inputs(before_mod, rng)
            arrays = list(args.values())
            after_mod = parse_module(text)
            lower_q8(after_mod, optimize=True)
            y, bound = reference(form, args["x"], args["W"], args["W_scale"])
            for mod in (before_mod, after_mod):
                got = execute(mod, "f", arrays).outputs[0].reshape(y.shape)
                if not (np.abs(got - y) <= bound).all():
                    sys.exit(f"{label}, m = {m}: outside the fp32 bound of fp64")
            before = median_ms(lambda: execute(before_mod, "f", arrays), repeat)
            after = median_ms(lambda: execute(after_mod, "f", arrays), repeat)
            print(f"{label:34} {m:>3} {before:>10.1f} {after:>9.1f}")


RMSNORM = """
func.func @f(%x: tensor<1x576xf32>, %g: tensor<576xf32>, %z: tensor<1xf32>) -> tensor<1x576xf32> {
  %n = arith.constant 576.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %ss = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x576xf32>) outs(%z : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %o, %sq : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %e = tensor.empty() : tensor<1x576xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (k)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]} ins(%x, %ss, %g : tensor<1x576xf32>, tensor<1xf32>, tensor<576xf32>) outs(%e : tensor<1x576xf32>) {
  ^bb0(%a: f32, %s: f32, %w: f32, %o: f32):
    %mean = arith.divf %s, %n : f32
    %me = arith.addf %mean, %eps : f32
    %r = math.rsqrt %me : f32
    %ya = arith.mulf %a, %r : f32
    %yw = arith.mulf %ya, %w : f32
    linalg.yield %yw : f32
  } -> tensor<1x576xf32>
  func.return %y : tensor<1x576xf32>
}
"""

SCORES = """
func.func @f(%q: tensor<32x64x2048xf32>, %k: tensor<32x64x2048xf32>, %z: tensor<32x64x64xf32>) -> tensor<32x64x64xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(h, m, n, d) -> (h, m, d)>, affine_map<(h, m, n, d) -> (h, n, d)>, affine_map<(h, m, n, d) -> (h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<32x64x2048xf32>, tensor<32x64x2048xf32>) outs(%z : tensor<32x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %o, %p : f32
    linalg.yield %r : f32
  } -> tensor<32x64x64xf32>
  func.return %s : tensor<32x64x64xf32>
}
"""


def bench_kernels(repeat: int) -> None:
    """Prepared kernels called directly: what the compiled engine pays per op."""
    rng = np.random.default_rng(0)
    m = parse_module(RMSNORM)
    g1, g2 = (o for o in m.walk() if isinstance(o, GenericOp))
    k1, k2 = prepare(g1), prepare(g2)
    x, w = (
        rng.standard_normal((1, 576)).astype(np.float32),
        rng.standard_normal(576).astype(np.float32),
    )
    z, e = np.zeros(1, np.float32), np.zeros((1, 576), np.float32)
    (ss,) = k1([x, z])
    (y,) = k2([x, ss, w, e])
    x64 = x.astype(np.float64)
    ref = x64 / np.sqrt((x64**2).mean() + 1e-5) * w
    assert np.abs(y - ref).max() <= 1e-5 * np.abs(ref).max()
    print(f"{'kernel':48} {'us':>8}")
    print(
        f"{'RMSNorm 1 x 576: sum of squares':48} {1e3 * median_ms(lambda: k1([x, z]), repeat * 100):>8.1f}"
    )
    print(
        f"{'RMSNorm 1 x 576: scale':48} {1e3 * median_ms(lambda: k2([x, ss, w, e]), repeat * 100):>8.1f}"
    )
    s = parse_module(SCORES)
    ks = prepare(next(o for o in s.walk() if isinstance(o, GenericOp)))
    q = rng.standard_normal((32, 64, 2048)).astype(np.float32)
    kk = rng.standard_normal((32, 64, 2048)).astype(np.float32)
    z3 = np.zeros((32, 64, 64), np.float32)
    ms = median_ms(lambda: ks([q, kk, z3]), repeat)
    blas = median_ms(lambda: np.matmul(q, kk.transpose(0, 2, 1)), repeat)
    print(f"{'scores 32 x (64 x 2048) . (2048 x 64)':48} {1e3 * ms:>8.0f}")
    print(f"{'  np.matmul of the same, for comparison':48} {1e3 * blas:>8.0f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="K = N = 1024")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per candidate")
    args = ap.parse_args()
    size = 1024 if args.quick else 4096
    bench_forms(size, size, args.repeat)
    print()
    bench_kernels(args.repeat)


if __name__ == "__main__":
    main()
