"""The operands of a Q8_0 product that the tests draw: an activation, int8 values and
their scales, either integer-exact or random."""

from __future__ import annotations

import ml_dtypes
import numpy as np
from hypothesis import strategies as st

U32 = 2.0**-24
"""fp32's unit roundoff."""


def fp32_bound(mag: np.ndarray, terms: int) -> np.ndarray:
    """How far an fp32 sum of `terms` terms may be from the exact one, in any order:
    gamma_terms times the sum of the terms' magnitudes `mag` (`q8_fp64`), and a floor
    for sums of zeros."""
    return terms * U32 / (1 - terms * U32) * mag + 1e-30


def check_q8_result(y: np.ndarray, want: np.ndarray, mag: np.ndarray, k: int, exact: bool):
    """A Q8_0 product's output against fp64's: its bits rounded once on integer-exact
    inputs (every order of summation gives them), within the fp32 bound of K + 2
    terms (the blocks' scaling and the sum's start too) on random ones."""
    if exact:
        np.testing.assert_array_equal(y, want.astype(np.float32))
    else:
        assert (np.abs(y - want) <= fp32_bound(mag, k + 2)).all()


def product_cases(max_n: int) -> dict[str, st.SearchStrategy]:
    """What the engine tests draw a lowered product from (`@given(**product_cases(n))`):
    m rows up to a tile, K in Q8_0 blocks (with and without a tail), N up to `max_n`,
    both activation and scale types, the accumulator's tiles, exact or random inputs."""
    return {
        "m": st.integers(1, 32),
        "blocks": st.integers(1, 80),
        "n": st.integers(1, max_n),
        "act": st.sampled_from(["bf16", "f32"]),
        "scale": st.sampled_from(["f32", "f16"]),
        "acc_tiles": st.integers(1, 8),
        "exact": st.booleans(),
        "seed": st.integers(0, 2**16),
    }


def q8_operands(
    m: int, k: int, n: int, rng: np.random.Generator, *, exact: bool = False, scale: str = "f32"
):
    """x (m x K, f32), values (K x N, int8) and scales (K/32 x N, f32 or f16).

    `exact`: small integers and power-of-two scales, so that every product and every
    partial sum is exact in fp32 and no order of summation changes a bit; else a normal
    activation, int8 values over the whole range and scales as GGML's are in size."""
    if exact:
        x = rng.integers(-4, 5, (m, k)).astype(np.float32)
        q = rng.integers(-8, 9, (k, n)).astype(np.int8)
        s = (2.0 ** -rng.integers(0, 6, (k // 32, n))).astype(np.float32)
    else:
        x = rng.standard_normal((m, k)).astype(np.float32)
        q = rng.integers(-127, 128, (k, n)).astype(np.int8)
        s = rng.uniform(0.001, 0.02, (k // 32, n)).astype(np.float32)
    if scale == "f16":
        s = s.astype(np.float16)
    return x, q, s


def q8_fp64(x: np.ndarray, q: np.ndarray, s: np.ndarray, act: str = "f32"):
    """The product in fp64, the activation rounded to bf16 first when the chip holds it
    so, and the same product of absolute values (the scale of the fp32 bound)."""
    xr = x.astype(ml_dtypes.bfloat16) if act == "bf16" else x
    xr = xr.astype(np.float64)
    w = q.astype(np.float64) * np.repeat(s.astype(np.float64), 32, axis=0)
    return xr @ w, np.abs(xr) @ np.abs(w)
