"""GGML's Q8_0 quantiser (`xdsl_spatial.core.quant`) against `gguf.quants`, bit for bit."""

from __future__ import annotations

import tracemalloc
import warnings

import ml_dtypes
import numpy as np
import pytest
from gguf import GGMLQuantizationType
from gguf.quants import dequantize as gguf_dequantize
from gguf.quants import quantize as gguf_quantize
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from xdsl_spatial.core.quant import (
    NotExactQ8_0,
    dequantize_q8_0,
    exact_q8_0,
    quantize_q8_0,
    roundf,
)

Q8_0 = GGMLQuantizationType.Q8_0


def gguf_q8_0(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """gguf's Q8_0 of the K x N weight `w`, decoded to (int8 K x N, fp16 K/32 x N)."""
    k, n = w.shape
    with warnings.catch_warnings():
        # Blocks whose scale underflows make gguf's (and GGML's) cast undefined.
        warnings.simplefilter("ignore", RuntimeWarning)
        raw = gguf_quantize(np.ascontiguousarray(w.T), Q8_0).reshape(n, k // 32, 34)
    d = np.ascontiguousarray(raw[:, :, :2]).view(np.float16)[:, :, 0]
    q = raw[:, :, 2:].view(np.int8).reshape(n, k)
    return np.ascontiguousarray(q.T), np.ascontiguousarray(d.T)


def assert_bits_equal(a: np.ndarray, b: np.ndarray) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape
    width = {1: np.uint8, 2: np.uint16, 4: np.uint32}[a.dtype.itemsize]
    assert np.array_equal(a.view(width), b.view(width))


def with_ties(rng: np.random.Generator, k: int, n: int) -> tuple[np.ndarray, int]:
    """A random K x N weight whose blocks hold exact ties: fp32(w * id) = j + 0.5.

    Each block keeps its random max (so id is GGML's), and about a third of its other
    values are replaced by ties found next to (j + 0.5) * d. Returns the weight and
    the number of ties that round differently halves-to-even and halves-away.
    """
    w = (rng.standard_normal((k, n)) * rng.uniform(0.01, 10, size=(1, n))).astype(np.float32)
    ties = 0
    for b in range(k // 32):
        for c in range(n):
            block = w[32 * b : 32 * b + 32, c]
            top = int(np.argmax(np.abs(block)))
            d = np.float32(np.abs(block).max() / np.float32(127))
            inv = np.float32(1) / d
            for i in rng.choice(32, size=12, replace=False):
                if i == top:
                    continue
                j = int(rng.integers(-127, 126))
                guess = np.float32((j + 0.5) * d)
                for _ in range(8):
                    v = guess * inv
                    if v == np.float32(j + 0.5):
                        block[i] = guess
                        ties += int(np.round(v) != roundf(np.array([v]))[0])
                        break
                    guess = np.nextafter(guess, np.float32(np.inf if v < j + 0.5 else -np.inf))
    return w, ties


def test_roundf_is_c_roundf_near_every_half():
    halves = np.arange(-130, 130, dtype=np.float64) + 0.5
    v = halves.astype(np.float32)
    near = np.concatenate(
        [v, np.nextafter(v, np.float32(np.inf)), np.nextafter(v, np.float32(-np.inf))]
    )
    near = np.concatenate(
        [near, np.array([0.49999997, -0.49999997, 0.5, -0.5, 0, -0.0], np.float32)]
    )
    want = np.sign(near.astype(np.float64)) * np.floor(np.abs(near.astype(np.float64)) + 0.5)
    assert np.array_equal(roundf(near.copy()).astype(np.float64), want)
    assert roundf(np.array([0.49999997], np.float32))[0] == 0


@given(hnp.arrays(np.float32, 1000, elements=st.floats(-300, 300, width=32)))
def test_roundf_matches_float64_reference(v):
    want = np.sign(v.astype(np.float64)) * np.floor(np.abs(v.astype(np.float64)) + 0.5)
    assert np.array_equal(roundf(v.copy()).astype(np.float64), want)


@pytest.mark.parametrize("seed", range(4))
def test_matches_gguf_with_exact_ties(seed):
    rng = np.random.default_rng(seed)
    w, ties = with_ties(rng, 128, 24)
    assert ties > 50  # the test really holds ties where np.round would differ
    q, d = gguf_q8_0(w)
    values, scales = quantize_q8_0(w, np.float16)
    assert_bits_equal(values, q)
    assert_bits_equal(scales, d)


def test_matches_gguf_on_zeros_negatives_and_zero_blocks():
    rng = np.random.default_rng(7)
    w = rng.standard_normal((96, 10)).astype(np.float32)
    w[:32, 0] = 0  # an all-zero block
    w[32:64, 1] = -np.abs(w[32:64, 1])  # all negative
    w[64:, 2] = 0
    w[70, 2] = -3.0  # one value, negative
    w[::5, 3] = 0  # scattered zeros
    w[:, 4] = -0.0
    values, scales = quantize_q8_0(w, np.float16)
    q, d = gguf_q8_0(w)
    assert_bits_equal(values, q)
    assert_bits_equal(scales, d)
    assert not values[:32, 0].any() and scales[0, 0] == 0
    assert values[70, 2] == -127


blocks = st.integers(1, 4).flatmap(
    lambda kb: st.integers(1, 6).flatmap(
        lambda n: hnp.arrays(
            np.float32,
            (32 * kb, n),
            elements=st.one_of(
                st.floats(-1e4, 1e4, width=32),
                st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, -63.5, 127.0]),
            ),
        )
    )
)


@settings(max_examples=200, deadline=None)
@given(blocks)
def test_matches_gguf_property(w):
    values, scales = quantize_q8_0(w, np.float16)
    q, d = gguf_q8_0(w)
    assert_bits_equal(values, q)
    assert_bits_equal(scales, d)


@settings(max_examples=100, deadline=None)
@given(blocks)
def test_f32_scales_are_ggml_fp32_scale(w):
    values, scales = quantize_q8_0(w, np.float32)
    q, d = gguf_q8_0(w)
    assert_bits_equal(values, q)
    want = (np.abs(w).reshape(-1, 32, w.shape[1]).max(axis=1) / np.float32(127)).astype(np.float32)
    assert_bits_equal(scales, want)
    assert_bits_equal(scales.astype(np.float16), d)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float64])
def test_other_input_types_are_converted_to_f32_first(dtype):
    w = np.random.default_rng(3).standard_normal((64, 9)).astype(dtype)
    values, scales = quantize_q8_0(w, np.float16)
    q, d = gguf_q8_0(w.astype(np.float32))
    assert_bits_equal(values, q)
    assert_bits_equal(scales, d)


def test_scales_that_underflow_match_gguf():
    w = np.zeros((64, 3), np.float32)
    w[0, 0], w[1, 0] = 1e-37, -5e-38  # 1/d overflows to inf
    w[0, 1], w[1, 1] = 1e-36, -5e-37  # d is an fp32 subnormal
    w[32:, 2] = np.linspace(-1e-6, 1e-6, 32)  # fp16 scale underflows
    q, d = gguf_q8_0(w)
    for dt in (np.float16, np.float32):
        values, _scales = quantize_q8_0(w, dt)
        assert_bits_equal(values, q)
    assert_bits_equal(quantize_q8_0(w, np.float16)[1], d)


def test_non_contiguous_input():
    w = np.random.default_rng(5).standard_normal((40, 96)).astype(np.float32)
    values, scales = quantize_q8_0(w.T, np.float16)
    q, d = gguf_q8_0(np.ascontiguousarray(w.T))
    assert_bits_equal(values, q)
    assert_bits_equal(scales, d)


def test_bad_inputs():
    with pytest.raises(ValueError, match=r"multiple of the Q8_0 block \(32\), got K = 48"):
        quantize_q8_0(np.zeros((48, 4), np.float32))
    with pytest.raises(ValueError, match="2-d"):
        quantize_q8_0(np.zeros(64, np.float32))
    with pytest.raises(ValueError, match="int32"):
        quantize_q8_0(np.zeros((64, 2), np.int32))
    with pytest.raises(ValueError, match="float16 or float32"):
        quantize_q8_0(np.zeros((64, 2), np.float32), np.float64)
    w = np.ones((64, 3), np.float32)
    w[40, 2] = np.nan
    with pytest.raises(ValueError, match="non-finite.*K-rows 32..63 of column 2"):
        quantize_q8_0(w)


def test_memory_stays_near_the_output():
    w = np.random.default_rng(0).standard_normal((8192, 512)).astype(np.float32)
    tracemalloc.start()
    try:
        quantize_q8_0(w, np.float16)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # The int8 output is w.nbytes / 4; one whole-array float temporary is w.nbytes.
    assert peak < 0.75 * w.nbytes


def test_dequantize_is_fp32_scale_times_q():
    w = np.random.default_rng(1).standard_normal((128, 12)).astype(np.float32)
    values, scales = quantize_q8_0(w, np.float16)
    raw = gguf_quantize(np.ascontiguousarray(w.T), Q8_0)
    want = gguf_dequantize(raw, Q8_0).T
    assert_bits_equal(dequantize_q8_0(values, scales), np.ascontiguousarray(want))
    assert_bits_equal(
        dequantize_q8_0(values, scales.astype(np.float32)), np.ascontiguousarray(want)
    )


def test_dequantize_checks_shapes():
    with pytest.raises(ValueError, match="K/32 x N = 2x3, got 3x3"):
        dequantize_q8_0(np.zeros((64, 3), np.int8), np.zeros((3, 3), np.float32))
    with pytest.raises(ValueError, match="int8"):
        dequantize_q8_0(np.zeros((64, 3), np.int16), np.zeros((2, 3), np.float32))


def exact_weight(rng: np.random.Generator, kb: int, n: int, scale_bits: int) -> tuple:
    """An exact Q8_0 weight: each block has a +-127, scales with `scale_bits` bits."""
    q = rng.integers(-127, 128, size=(32 * kb, n)).astype(np.int8)
    q[0::32] = rng.choice([-127, 127], size=(kb, n))
    mant = rng.integers(1 << (scale_bits - 1), 1 << scale_bits, size=(kb, n))
    d = np.ldexp(mant.astype(np.float64), rng.integers(-12, 4, size=(kb, n)) - scale_bits)
    w = (q.reshape(kb, 32, n) * d[:, None, :]).reshape(32 * kb, n)
    return w, q, d


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(1, 7))
def test_exact_accepts_exact_weights(seed, kb, n):
    rng = np.random.default_rng(seed)
    w, q, d = exact_weight(rng, kb, n, scale_bits=11)  # fp16 holds an 11-bit scale
    for dt in (np.float16, np.float32):
        values, scales = exact_q8_0(w.astype(np.float32), dt)
        assert np.array_equal(values, q)
        assert np.array_equal(scales.astype(np.float64), d)
        assert np.array_equal(dequantize_q8_0(values, scales), w.astype(np.float32))
    w, q, d = exact_weight(rng, kb, n, scale_bits=17)  # 17 + 7 bits: exact in fp32
    values, scales = exact_q8_0(w.astype(np.float32), np.float32)
    assert np.array_equal(values, q) and np.array_equal(scales.astype(np.float64), d)


def test_exact_accepts_what_ggml_made_with_fp16_scales():
    w = np.random.default_rng(2).standard_normal((256, 64)).astype(np.float32)
    values, scales = quantize_q8_0(w, np.float16)
    back = dequantize_q8_0(values, scales)
    for dt in (np.float16, np.float32):
        v2, s2 = exact_q8_0(back, dt)
        assert np.array_equal(v2, values)
        assert np.array_equal(s2, scales.astype(dt))
    v2, _ = exact_q8_0(back.astype(np.float64))
    assert np.array_equal(v2, values)


def test_exact_accepts_zeros():
    values, scales = exact_q8_0(np.zeros((64, 2), np.float32))
    assert not values.any() and not scales.any()


def test_exact_rejects_a_value_naming_the_block():
    w, _, _ = exact_weight(np.random.default_rng(4), 3, 5, scale_bits=11)
    w = w.astype(np.float32)
    w[45, 3] = np.nextafter(w[45, 3], np.float32(np.inf))
    w[70, 1] = np.nextafter(w[70, 1], np.float32(np.inf))  # a later block
    with pytest.raises(
        NotExactQ8_0,
        match=r"block K-rows 32\.\.63 of column 3: w\[45, 3\] = .* not an int8 multiple",
    ):
        exact_q8_0(w)


def test_exact_names_the_block_far_into_a_large_weight():
    w, q, _ = exact_weight(np.random.default_rng(8), 64, 2048, scale_bits=11)
    w = w.astype(np.float32)
    assert np.array_equal(exact_q8_0(w)[0], q)
    w[2000, 1500] = np.nextafter(w[2000, 1500], np.float32(-np.inf))
    with pytest.raises(
        NotExactQ8_0, match=r"block K-rows 1984\.\.2015 of column 1500: w\[2000, 1500\]"
    ):
        exact_q8_0(w)


def test_exact_rejects_inexact_random_weight():
    w = np.random.default_rng(6).standard_normal((64, 4)).astype(np.float32)
    with pytest.raises(NotExactQ8_0, match="block K-rows 0..31 of column 0"):
        exact_q8_0(w)
    assert issubclass(NotExactQ8_0, ValueError)


def test_exact_rejects_a_scale_fp16_cannot_hold():
    d = 1 + 2.0**-12  # 13 significant bits: fp32 holds it, fp16 does not
    w = np.zeros((64, 2), np.float32)
    w[32, 1], w[33, 1] = 127 * d, -5 * d
    values, scales = exact_q8_0(w, np.float32)
    assert scales[1, 1] == np.float32(d) and values[32, 1] == 127 and values[33, 1] == -5
    with pytest.raises(
        NotExactQ8_0,
        match=r"K-rows 32\.\.63 of column 1: its scale .* not representable in float16",
    ):
        exact_q8_0(w, np.float16)
    big = np.zeros((32, 1), np.float32)
    big[0, 0] = 127 * 65536.0  # the scale overflows fp16
    with pytest.raises(NotExactQ8_0, match="float16"):
        exact_q8_0(big, np.float16)


def test_exact_rejects_float64_that_fp32_cannot_hold():
    d = 1 + 2.0**-23  # 24 bits: 127 * d needs 31, exact in float64 only
    w = np.zeros((32, 1), np.float64)
    w[0, 0] = 127 * d
    with pytest.raises(NotExactQ8_0, match=r"w\[0, 0\] = .* 127 times the scale .* fp32"):
        exact_q8_0(w)
    with pytest.raises(NotExactQ8_0, match="non-finite"):
        exact_q8_0(np.full((32, 1), np.inf, np.float32))
    with pytest.raises(ValueError, match="multiple of the Q8_0 block"):
        exact_q8_0(np.zeros((33, 1), np.float32))
