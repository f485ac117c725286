"""Inputs for the layer lit_tests/run/xdsl_pipeline.mlir runs, and the check that a
run's outputs lie within the fp32 bound of the fp64 product (docs/testing.md).

    python layer_bound.py PREFIX write MODULE   # PREFIX.gguf and PREFIX.ENTRY.npz
    python layer_bound.py PREFIX check MODULE   # PREFIX.ENTRY.{before,after}.npz

MODULE is what `spatial-gguf --emit` writes: one function a product, `(x, NAME__q8,
NAME__q8_scale)`. `write` makes the checkpoint tests/tiny_llama.py writes (one layer,
seed 0) and, for each function, its inputs: a random activation (normal, as float32:
spatial-run rounds it to bf16) and the layer's stored values and scales, read from the
checkpoint bit for bit. `check` holds each output to

    |y - y64| <= gamma_(K+1) * sum_k |x_k| |w_kn|,   gamma_n = n u / (1 - n u), u = 2^-24

(a K-term sum in any order, and the scale's product), y64 the fp64 product of the
values the chip holds (x rounded to bf16, w = values * scales).
"""

import re
import sys
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

FUNC = re.compile(r"func\.func @(\w+)\(%x: tensor<(\d+)x(\d+)xbf16>, %([\w.]+)__q8: ")


def products(module: str) -> list[tuple[str, int, int, str]]:
    """(entry, m, K, weight name) of each function of the module."""
    found = FUNC.findall(Path(module).read_text())
    assert found, f"no product functions in {module}"
    return [(e, int(m), int(k), w) for e, m, k, w in found]


def write(prefix: str, module: str) -> None:
    from tiny_llama import write_tiny_llama  # pyright: ignore[reportMissingImports] (tests/, on sys.path above)

    from xdsl_spatial.frontends.gguf_io import q8_0_parts

    gguf = write_tiny_llama(Path(f"{prefix}.gguf"), layers=1)
    rng = np.random.default_rng(0)
    for entry, m, k, weight in products(module):
        values, scales = q8_0_parts(str(gguf), weight)
        x = rng.standard_normal((m, k)).astype(np.float32)
        np.savez(f"{prefix}.{entry}.npz", arg0=x, arg1=values, arg2=scales)


def check(prefix: str, module: str) -> bool:
    ok = True
    for entry, _, k, _ in products(module):
        a = np.load(f"{prefix}.{entry}.npz")
        x = a["arg0"].astype(ml_dtypes.bfloat16).astype(np.float64)
        w = a["arg1"].astype(np.float64) * np.repeat(a["arg2"].astype(np.float64), 32, axis=0)
        y64 = x @ w
        u = 2.0**-24
        bound = (k + 1) * u / (1 - (k + 1) * u) * (np.abs(x) @ np.abs(w))
        runs = {r: np.load(f"{prefix}.{entry}.{r}.npz")["res0"] for r in ("before", "after")}
        outside = [
            run
            for run, y in runs.items()
            if y.shape != y64.shape or not (np.abs(y - y64) <= bound).all()
        ]
        if outside:
            print(f"{entry}: {' and '.join(outside)} outside the fp32 bound of the fp64 product")
            ok = False
            continue
        gap = np.abs(runs["after"].astype(np.float64) - runs["before"])
        print(
            f"{entry}: before and after within the fp32 bound of the fp64 product "
            f"(|after - before| at most {float((gap / (2 * bound)).max()):.2f} of twice it)"
        )
    return ok


def main() -> None:
    prefix, what, module = sys.argv[1:4]
    if what == "write":
        write(prefix, module)
    elif not check(prefix, module):
        sys.exit(1)


main()
