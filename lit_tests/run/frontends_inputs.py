"""Integer-exact inputs for lit_tests/run/frontends.mlir, and the check that a run's
outputs equal the fp64 reference bit for bit.

    python frontends_inputs.py PREFIX              # writes PREFIX.{nk,grouped,kn}.npz
    python frontends_inputs.py PREFIX --check nk   # compares PREFIX.nk.{before,after}.npz
"""

import sys

import numpy as np


def inputs():
    rng = np.random.default_rng(0)

    def ints(lo, hi, shape, dt=np.float32):
        return rng.integers(lo, hi + 1, shape).astype(dt)

    def pow2(shape, dt=np.float32):
        return (2.0 ** -rng.integers(0, 4, shape)).astype(dt)

    nk = {
        "arg0": ints(-4, 4, (4, 256)),
        "arg1": ints(-8, 8, (128, 256), np.int8),
        "arg2": pow2((128, 8)),
    }
    grouped = {
        "arg0": ints(-8, 8, (128, 8, 32), np.int8),
        "arg1": ints(-4, 4, (1, 1, 8, 32)),
        "arg2": pow2((128, 8, 1)),
    }
    kn = {
        "arg0": ints(-4, 4, (1, 256)),
        "arg1": ints(-8, 8, (256, 128), np.int8),
        "arg2": pow2((8, 128), np.float16),
    }
    return {"nk": nk, "grouped": grouped, "kn": kn}


def reference(form, a):
    f = {k: v.astype(np.float64) for k, v in a.items()}
    if form == "nk":
        return f["arg0"] @ (f["arg1"] * np.repeat(f["arg2"], 32, axis=1)).T
    if form == "grouped":
        w = (f["arg0"] * f["arg2"]).reshape(128, 256)
        return (f["arg1"].reshape(1, 256) @ w.T).reshape(1, 1, 128)
    return f["arg0"] @ (f["arg1"] * np.repeat(f["arg2"], 32, axis=0))


def main():
    prefix = sys.argv[1]
    forms = inputs()
    if "--check" not in sys.argv:
        for name, arrays in forms.items():
            np.savez(f"{prefix}.{name}.npz", **arrays)
        return
    form = sys.argv[sys.argv.index("--check") + 1]
    want = reference(form, forms[form])
    for run in ("before", "after"):
        got = np.load(f"{prefix}.{form}.{run}.npz")["res0"]
        if got.shape != want.shape or not np.array_equal(got.astype(np.float64), want):
            print(f"{form} {run}: max |got - fp64| = {np.abs(got - want).max()}")
            sys.exit(1)
    print(f"{form}: before and after equal the fp64 reference")


main()
