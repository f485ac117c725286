"""The structured-op kernels (`interpreters/linalg.py`), the `tensor` and `math`
kernels beside them, against plain numpy and against a slow element-by-element
reference.

Exactness: the cases compared bit for bit take integer-valued inputs whose sums and
products are exact in fp32 (small integers, few terms), so every summation order
gives the same bits. The others are checked against fp64 within the fp32 bound."""

from __future__ import annotations

import itertools
import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects.linalg.ops import GenericOp

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.kernels import KernelError, prepare
from xdsl_spatial.interpreters.runner import RunError, run

U32 = 2.0**-24
BF16 = np.dtype(ml_dtypes.bfloat16)


def func(args: str, results: str, body: str) -> str:
    return f"func.func @f({args}) -> ({results}) {{\n{body}\n}}\n"


def run_f(text: str, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    return run(parse_module(text), "f", *arrays)


def generic(
    maps: list[str],
    iters: list[str],
    ins: list[tuple[str, str]],
    out: tuple[str, str],
    body: str,
    result: str = "%r",
) -> str:
    """One `linalg.generic` (maps written over loop names as in `(m, k) -> (k)`)."""
    m = ", ".join(f"affine_map<{x}>" for x in maps)
    it = ", ".join(f'"{i}"' for i in iters)
    ins_ = ", ".join(v for v, _ in ins)
    ins_t = ", ".join(t for _, t in ins)
    ins_part = f" ins({ins_} : {ins_t})" if ins else ""
    return (
        f"  {result} = linalg.generic {{indexing_maps = [{m}], iterator_types = [{it}]}}"
        f"{ins_part} outs({out[0]} : {out[1]}) {{\n{body}\n  }} -> {out[1]}"
    )


def rng_f32(rng, shape, small=False):
    if small:
        return rng.integers(-3, 4, shape).astype(np.float32)
    return rng.standard_normal(shape).astype(np.float32)


def fp32_bound(terms: np.ndarray, axis) -> np.ndarray:
    """`n u sum|terms|`: the error bound of an fp32 sum of n terms (plus the terms'
    own rounding)."""
    n = np.prod([terms.shape[a] for a in np.atleast_1d(axis)])
    return (n + 2) * U32 * np.abs(terms).sum(axis=axis) + 1e-30


# --------------------------------------------------------------------------------------
# Elementwise bodies, maps
# --------------------------------------------------------------------------------------


def test_elementwise_broadcast_and_transpose():
    text = func(
        "%a: tensor<3x4xf32>, %b: tensor<4xf32>",
        "tensor<4x3xf32>",
        "  %e = tensor.empty() : tensor<4x3xf32>\n"
        + generic(
            ["(i, j) -> (j, i)", "(i, j) -> (i)", "(i, j) -> (i, j)"],
            ["parallel", "parallel"],
            [("%a", "tensor<3x4xf32>"), ("%b", "tensor<4xf32>")],
            ("%e", "tensor<4x3xf32>"),
            "  ^bb0(%x: f32, %y: f32, %o: f32):\n"
            "    %s = arith.subf %x, %y : f32\n"
            "    linalg.yield %s : f32",
        )
        + "\n  func.return %r : tensor<4x3xf32>",
    )
    rng = np.random.default_rng(0)
    a, b = rng_f32(rng, (3, 4)), rng_f32(rng, (4,))
    (r,) = run_f(text, a, b)
    assert r.dtype == np.float32 and r.flags.c_contiguous
    np.testing.assert_array_equal(r, a.T - b[:, None])


def test_constant_index_and_floordiv_and_mod_maps():
    # r[k, n] = s[k floordiv 32, n] * t[k mod 4, 0]
    text = func(
        "%s: tensor<3x5xf32>, %t: tensor<4x2xf32>",
        "tensor<96x5xf32>",
        "  %e = tensor.empty() : tensor<96x5xf32>\n"
        + generic(
            ["(k, n) -> (k floordiv 32, n)", "(k, n) -> (k mod 4, 0)", "(k, n) -> (k, n)"],
            ["parallel", "parallel"],
            [("%s", "tensor<3x5xf32>"), ("%t", "tensor<4x2xf32>")],
            ("%e", "tensor<96x5xf32>"),
            "  ^bb0(%x: f32, %y: f32, %o: f32):\n"
            "    %p = arith.mulf %x, %y : f32\n"
            "    linalg.yield %p : f32",
        )
        + "\n  func.return %r : tensor<96x5xf32>",
    )
    rng = np.random.default_rng(1)
    s, t = rng_f32(rng, (3, 5)), rng_f32(rng, (4, 2))
    (r,) = run_f(text, s, t)
    k = np.arange(96)
    np.testing.assert_array_equal(r, s[k // 32] * t[k % 4, 0][:, None])


def test_map_of_two_loops_gathers():
    # r[i, j] = a[i + j]: a Toeplitz matrix from a vector.
    text = func(
        "%a: tensor<7xf32>",
        "tensor<3x5xf32>",
        "  %e = tensor.empty() : tensor<3x5xf32>\n"
        + generic(
            ["(i, j) -> (i + j)", "(i, j) -> (i, j)"],
            ["parallel", "parallel"],
            [("%a", "tensor<7xf32>")],
            ("%e", "tensor<3x5xf32>"),
            "  ^bb0(%x: f32, %o: f32):\n    linalg.yield %x : f32",
        )
        + "\n  func.return %r : tensor<3x5xf32>",
    )
    a = np.arange(7, dtype=np.float32)
    (r,) = run_f(text, a)
    np.testing.assert_array_equal(r, a[np.arange(3)[:, None] + np.arange(5)])


def test_diagonal_map():
    text = func(
        "%a: tensor<4x4xf32>",
        "tensor<4xf32>",
        "  %e = tensor.empty() : tensor<4xf32>\n"
        + generic(
            ["(i) -> (i, i)", "(i) -> (i)"],
            ["parallel"],
            [("%a", "tensor<4x4xf32>")],
            ("%e", "tensor<4xf32>"),
            "  ^bb0(%x: f32, %o: f32):\n    linalg.yield %x : f32",
        )
        + "\n  func.return %r : tensor<4xf32>",
    )
    a = np.arange(16, dtype=np.float32).reshape(4, 4)
    (r,) = run_f(text, a)
    np.testing.assert_array_equal(r, np.diag(a))


def test_index_ops_and_output_read_by_parallel_body():
    # r[i, j] = out[i, j] + x[i, j] + i * 10 + j, out read as an input.
    text = func(
        "%x: tensor<3x4xf32>, %init: tensor<3x4xf32>",
        "tensor<3x4xf32>",
        generic(
            ["(i, j) -> (i, j)", "(i, j) -> (i, j)"],
            ["parallel", "parallel"],
            [("%x", "tensor<3x4xf32>")],
            ("%init", "tensor<3x4xf32>"),
            "  ^bb0(%a: f32, %o: f32):\n"
            "    %i = linalg.index 0 : index\n"
            "    %j = linalg.index 1 : index\n"
            "    %c10 = arith.constant 10 : index\n"
            "    %i10 = arith.muli %i, %c10 : index\n"
            "    %ij = arith.addi %i10, %j : index\n"
            "    %ii = arith.index_cast %ij : index to i32\n"
            "    %f = arith.sitofp %ii : i32 to f32\n"
            "    %s = arith.addf %o, %a : f32\n"
            "    %t = arith.addf %s, %f : f32\n"
            "    linalg.yield %t : f32",
        )
        + "\n  func.return %r : tensor<3x4xf32>",
    )
    rng = np.random.default_rng(2)
    x, init = rng_f32(rng, (3, 4), small=True), rng_f32(rng, (3, 4), small=True)
    (r,) = run_f(text, x, init)
    idx = np.arange(3)[:, None] * 10 + np.arange(4)
    np.testing.assert_array_equal(r, init + x + idx)


def test_bf16_body_rounds_each_op():
    text = func(
        "%a: tensor<64xbf16>, %b: tensor<64xbf16>",
        "tensor<64xbf16>",
        "  %e = tensor.empty() : tensor<64xbf16>\n"
        + generic(
            ["(i) -> (i)", "(i) -> (i)", "(i) -> (i)"],
            ["parallel"],
            [("%a", "tensor<64xbf16>"), ("%b", "tensor<64xbf16>")],
            ("%e", "tensor<64xbf16>"),
            "  ^bb0(%x: bf16, %y: bf16, %o: bf16):\n"
            "    %p = arith.mulf %x, %y : bf16\n"
            "    %s = arith.addf %p, %x : bf16\n"
            "    linalg.yield %s : bf16",
        )
        + "\n  func.return %r : tensor<64xbf16>",
    )
    rng = np.random.default_rng(3)
    a, b = rng_f32(rng, 64), rng_f32(rng, 64)
    (r,) = run_f(text, a, b)
    ab, bb = a.astype(BF16).astype(np.float32), b.astype(BF16).astype(np.float32)
    p = (ab * bb).astype(BF16).astype(np.float32)
    assert r.dtype == BF16
    np.testing.assert_array_equal(r, (p + ab).astype(BF16))


# --------------------------------------------------------------------------------------
# Reductions and contractions
# --------------------------------------------------------------------------------------


def reduction_text(combiner: str, elem: str = "f32", k: int = 5, out_first: bool = True) -> str:
    ops = "%o, %a" if out_first else "%a, %o"
    return func(
        f"%x: tensor<3x{k}x{elem}>, %init: tensor<3x{elem}>",
        f"tensor<3x{elem}>",
        generic(
            ["(m, k) -> (m, k)", "(m, k) -> (m)"],
            ["parallel", "reduction"],
            [("%x", f"tensor<3x{k}x{elem}>")],
            ("%init", f"tensor<3x{elem}>"),
            f"  ^bb0(%a: {elem}, %o: {elem}):\n"
            f"    %c = arith.{combiner} {ops} : {elem}\n"
            f"    linalg.yield %c : {elem}",
        )
        + f"\n  func.return %r : tensor<3x{elem}>",
    )


@pytest.mark.parametrize(
    "combiner, fn",
    [
        ("addf", lambda x, i: i + x.sum(1)),
        ("mulf", lambda x, i: i * x.prod(1)),
        ("maximumf", lambda x, i: np.maximum(i, x.max(1))),
        ("minimumf", lambda x, i: np.minimum(i, x.min(1))),
        ("maxnumf", lambda x, i: np.fmax(i, np.fmax.reduce(x, 1))),
        ("minnumf", lambda x, i: np.fmin(i, np.fmin.reduce(x, 1))),
    ],
)
@pytest.mark.parametrize("out_first", [True, False])
def test_float_reductions(combiner, fn, out_first):
    rng = np.random.default_rng(4)
    x, init = rng_f32(rng, (3, 5), small=True), rng_f32(rng, 3, small=True)
    (r,) = run_f(reduction_text(combiner, out_first=out_first), x, init)
    np.testing.assert_array_equal(r, fn(x, init))


def test_max_propagates_nan_and_maxnum_skips_it():
    x = np.array([[1, np.nan, 3, 0, 0]] * 3, np.float32)
    init = np.zeros(3, np.float32)
    from xdsl_spatial.interpreters.arguments import NonFiniteInput

    with pytest.warns(NonFiniteInput, match="arg0"):  # said once, then the run goes on
        (r,) = run_f(reduction_text("maximumf"), x, init)
    assert np.isnan(r).all()
    with pytest.warns(NonFiniteInput):
        (r,) = run_f(reduction_text("maxnumf"), x, init)
    np.testing.assert_array_equal(r, 3)


@pytest.mark.parametrize(
    "combiner, fn",
    [
        ("addi", lambda x, i: i.astype(np.int64) + x.astype(np.int64).sum(1)),
        ("muli", lambda x, i: i.astype(np.int64) * x.astype(np.int64).prod(1)),
        ("maxsi", lambda x, i: np.maximum(i, x.max(1))),
        ("minsi", lambda x, i: np.minimum(i, x.min(1))),
        ("maxui", lambda x, i: np.maximum(i.view(np.uint8), x.view(np.uint8).max(1)).view(np.int8)),
        ("minui", lambda x, i: np.minimum(i.view(np.uint8), x.view(np.uint8).min(1)).view(np.int8)),
        ("andi", lambda x, i: i & np.bitwise_and.reduce(x, 1)),
        ("ori", lambda x, i: i | np.bitwise_or.reduce(x, 1)),
        ("xori", lambda x, i: i ^ np.bitwise_xor.reduce(x, 1)),
    ],
)
def test_integer_reductions_wrap(combiner, fn):
    rng = np.random.default_rng(5)
    x = rng.integers(-128, 128, (3, 5)).astype(np.int8)
    init = rng.integers(-128, 128, 3).astype(np.int8)
    (r,) = run_f(reduction_text(combiner, "i8"), x, init)
    assert r.dtype == np.int8
    np.testing.assert_array_equal(r, fn(x, init).astype(np.int8))


def test_sum_accumulates_in_fp32_and_rounds_bf16_once():
    k = 4096
    text = reduction_text("addf", "bf16", k)
    rng = np.random.default_rng(6)
    x = rng_f32(rng, (3, k))
    init = rng_f32(rng, 3)
    (r,) = run_f(text, x, init)
    xb, ib = x.astype(BF16).astype(np.float64), init.astype(BF16).astype(np.float64)
    exact = ib + xb.sum(1)
    assert r.dtype == BF16
    # One rounding to bf16 of a sum whose fp32 error is far below bf16's half ulp.
    err = np.abs(r.astype(np.float64) - exact)
    assert (err <= np.abs(exact) * 2.0**-8 + fp32_bound(xb, 1)).all()


def test_reduction_over_zero_size_axis_keeps_init():
    x = np.zeros((3, 0), np.float32)
    init = np.array([1, -2, 3], np.float32)
    for c in ("addf", "maximumf", "mulf"):
        (r,) = run_f(reduction_text(c, k=0), x, init)
        np.testing.assert_array_equal(r, init)


def contraction(
    x_map: str, w_map: str, out_map: str, iters, x_t: str, w_t: str, out_t: str, body=None
) -> str:
    body = body or (
        "  ^bb0(%a: f32, %b: f32, %o: f32):\n"
        "    %p = arith.mulf %a, %b : f32\n"
        "    %s = arith.addf %p, %o : f32\n"
        "    linalg.yield %s : f32"
    )
    return func(
        f"%x: {x_t}, %w: {w_t}",
        out_t,
        "  %c0 = arith.constant 0.0 : f32\n"
        f"  %e = tensor.empty() : {out_t}\n"
        f"  %z = linalg.fill ins(%c0 : f32) outs(%e : {out_t}) -> {out_t}\n"
        + generic([x_map, w_map, out_map], iters, [("%x", x_t), ("%w", w_t)], ("%z", out_t), body)
        + f"\n  func.return %r : {out_t}",
    )


def test_matmul_contraction_transposed_weight():
    text = contraction(
        "(m, n, k) -> (m, k)",
        "(m, n, k) -> (n, k)",
        "(m, n, k) -> (m, n)",
        ["parallel", "parallel", "reduction"],
        "tensor<5x300xf32>",
        "tensor<70x300xf32>",
        "tensor<5x70xf32>",
    )
    rng = np.random.default_rng(7)
    x, w = rng_f32(rng, (5, 300)), rng_f32(rng, (70, 300))
    (r,) = run_f(text, x, w)
    terms = x.astype(np.float64)[:, None, :] * w.astype(np.float64)[None]
    exact = terms.sum(-1)
    assert (np.abs(r - exact) <= fp32_bound(terms, -1)).all()


def test_grouped_contraction_over_group_and_lane():
    # IREE's grouped matvec: y[a, b, n] = sum_{g, l} x[a, b, g, l] w[n, g, l].
    text = contraction(
        "(a, b, n, g, l) -> (a, b, g, l)",
        "(a, b, n, g, l) -> (n, g, l)",
        "(a, b, n, g, l) -> (a, b, n)",
        ["parallel", "parallel", "parallel", "reduction", "reduction"],
        "tensor<1x1x4x32xf32>",
        "tensor<48x4x32xf32>",
        "tensor<1x1x48xf32>",
    )
    rng = np.random.default_rng(8)
    x, w = rng_f32(rng, (1, 1, 4, 32), small=True), rng_f32(rng, (48, 4, 32), small=True)
    (r,) = run_f(text, x, w)
    np.testing.assert_array_equal(r, np.einsum("abgl,ngl->abn", x, w))


def test_batched_contraction_is_one_matmul(monkeypatch):
    calls = []
    real = np.matmul

    def counting(a, b, *args, **kw):
        calls.append((a.shape, b.shape))
        return real(a, b, *args, **kw)

    text = contraction(
        "(h, m, n, d) -> (h, m, d)",
        "(h, m, n, d) -> (h, n, d)",
        "(h, m, n, d) -> (h, m, n)",
        ["parallel", "parallel", "parallel", "reduction"],
        "tensor<4x8x64xf32>",
        "tensor<4x6x64xf32>",
        "tensor<4x8x6xf32>",
    )
    module = parse_module(text)
    rng = np.random.default_rng(9)
    q, k = rng_f32(rng, (4, 8, 64), small=True), rng_f32(rng, (4, 6, 64), small=True)
    monkeypatch.setattr(np, "matmul", counting)
    (r,) = run(module, "f", q, k)
    monkeypatch.setattr(np, "matmul", real)
    assert calls == [((4, 8, 64), (4, 64, 6))]
    np.testing.assert_array_equal(r, np.einsum("hmd,hnd->hmn", q, k))


def test_contraction_with_converted_and_scaled_factors():
    # y[m, n] = sum_k extf(x[m, k]) * (sitofp(q[n, k]) * s[n, k floordiv 32]): the
    # dequantisation fused into the product; the scale's loops are a subset of the
    # values', so it is multiplied into them and the rest is one matmul.
    body = (
        "  ^bb0(%a: bf16, %qe: i8, %se: f32, %o: f32):\n"
        "    %xa = arith.extf %a : bf16 to f32\n"
        "    %qf = arith.sitofp %qe : i8 to f32\n"
        "    %w = arith.mulf %qf, %se : f32\n"
        "    %p = arith.mulf %xa, %w : f32\n"
        "    %r = arith.addf %o, %p : f32\n"
        "    linalg.yield %r : f32"
    )
    text = func(
        "%x: tensor<2x64xbf16>, %q: tensor<16x64xi8>, %s: tensor<16x2xf32>",
        "tensor<2x16xf32>",
        "  %c0 = arith.constant 0.0 : f32\n"
        "  %e = tensor.empty() : tensor<2x16xf32>\n"
        "  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>\n"
        + generic(
            [
                "(m, n, k) -> (m, k)",
                "(m, n, k) -> (n, k)",
                "(m, n, k) -> (n, k floordiv 32)",
                "(m, n, k) -> (m, n)",
            ],
            ["parallel", "parallel", "reduction"],
            [("%x", "tensor<2x64xbf16>"), ("%q", "tensor<16x64xi8>"), ("%s", "tensor<16x2xf32>")],
            ("%z", "tensor<2x16xf32>"),
            body,
        )
        + "\n  func.return %r : tensor<2x16xf32>",
    )
    rng = np.random.default_rng(10)
    x = rng.integers(-4, 5, (2, 64)).astype(np.float32)
    q = rng.integers(-8, 9, (16, 64)).astype(np.int8)
    s = (2.0 ** -rng.integers(0, 4, (16, 2))).astype(np.float32)
    (r,) = run_f(text, x, q, s)
    w = q.astype(np.float64) * np.repeat(s, 32, axis=1)
    np.testing.assert_array_equal(r, x.astype(np.float64) @ w.T)


def test_three_factor_contraction_and_a_loop_no_factor_spans():
    # y[i] = sum_{j, k, l} a[i, j] b[j, k] c[k, i]: three factors, none a subset of
    # another (einsum); the loop l (size 3) appears in no factor: the sum triples.
    body = (
        "  ^bb0(%ae: f32, %be: f32, %ce: f32, %de: f32, %o: f32):\n"
        "    %p = arith.mulf %ae, %be : f32\n"
        "    %q = arith.mulf %p, %ce : f32\n"
        "    %r = arith.addf %o, %q : f32\n"
        "    linalg.yield %r : f32"
    )
    text = func(
        "%a: tensor<4x5xf32>, %b: tensor<5x6xf32>, %c: tensor<6x4xf32>, %d: tensor<3xf32>",
        "tensor<4xf32>",
        "  %c0 = arith.constant 0.0 : f32\n"
        "  %e = tensor.empty() : tensor<4xf32>\n"
        "  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>\n"
        + generic(
            [
                "(i, j, k, l) -> (i, j)",
                "(i, j, k, l) -> (j, k)",
                "(i, j, k, l) -> (k, i)",
                "(i, j, k, l) -> (l)",
                "(i, j, k, l) -> (i)",
            ],
            ["parallel", "reduction", "reduction", "reduction"],
            [
                ("%a", "tensor<4x5xf32>"),
                ("%b", "tensor<5x6xf32>"),
                ("%c", "tensor<6x4xf32>"),
                ("%d", "tensor<3xf32>"),
            ],
            ("%z", "tensor<4xf32>"),
            body,
        )
        + "\n  func.return %r : tensor<4xf32>",
    )
    rng = np.random.default_rng(11)
    a, b, c = (rng_f32(rng, s, small=True) for s in ((4, 5), (5, 6), (6, 4)))
    (r,) = run_f(text, a, b, c, np.zeros(3, np.float32))
    np.testing.assert_array_equal(r, 3 * np.einsum("ij,jk,ki->i", a, b, c))


def test_zero_size_parallel_loops():
    text = contraction(
        "(m, n, k) -> (m, k)",
        "(m, n, k) -> (k, n)",
        "(m, n, k) -> (m, n)",
        ["parallel", "parallel", "reduction"],
        "tensor<0x8xf32>",
        "tensor<8x3xf32>",
        "tensor<0x3xf32>",
    )
    (r,) = run_f(text, np.zeros((0, 8), np.float32), np.ones((8, 3), np.float32))
    assert r.shape == (0, 3)


def test_rmsnorm_shaped_generics():
    text = RMS_TEXT
    rng = np.random.default_rng(12)
    x, g = rng_f32(rng, (1, 576)), rng_f32(rng, 576)
    (r,) = run_f(text, x, g)
    x64 = x.astype(np.float64)
    ref = x64 / np.sqrt((x64**2).mean(1, keepdims=True) + 1e-5) * g
    assert np.abs(r - ref).max() <= 1e-5 * np.abs(ref).max()


RMS_TEXT = func(
    "%x: tensor<1x576xf32>, %g: tensor<576xf32>",
    "tensor<1x576xf32>",
    "  %c0 = arith.constant 0.0 : f32\n"
    "  %n = arith.constant 576.0 : f32\n"
    "  %eps = arith.constant 1.0e-5 : f32\n"
    "  %e1 = tensor.empty() : tensor<1xf32>\n"
    "  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<1xf32>) -> tensor<1xf32>\n"
    + generic(
        ["(m, k) -> (m, k)", "(m, k) -> (m)"],
        ["parallel", "reduction"],
        [("%x", "tensor<1x576xf32>")],
        ("%z", "tensor<1xf32>"),
        "  ^bb0(%a: f32, %o: f32):\n"
        "    %sq = arith.mulf %a, %a : f32\n"
        "    %s = arith.addf %o, %sq : f32\n"
        "    linalg.yield %s : f32",
        "%ss",
    )
    + "\n  %e2 = tensor.empty() : tensor<1x576xf32>\n"
    + generic(
        ["(m, k) -> (m, k)", "(m, k) -> (m)", "(m, k) -> (k)", "(m, k) -> (m, k)"],
        ["parallel", "parallel"],
        [("%x", "tensor<1x576xf32>"), ("%ss", "tensor<1xf32>"), ("%g", "tensor<576xf32>")],
        ("%e2", "tensor<1x576xf32>"),
        "  ^bb0(%a: f32, %s: f32, %w: f32, %o: f32):\n"
        "    %m = arith.divf %s, %n : f32\n"
        "    %me = arith.addf %m, %eps : f32\n"
        "    %r = math.rsqrt %me : f32\n"
        "    %y = arith.mulf %a, %r : f32\n"
        "    %yw = arith.mulf %y, %w : f32\n"
        "    linalg.yield %yw : f32",
    )
    + "\n  func.return %r : tensor<1x576xf32>",
)


# --------------------------------------------------------------------------------------
# tensor.extract in a body: gathers
# --------------------------------------------------------------------------------------


def embedding_text(v: int = 10, d: int = 6, s: int = 4) -> str:
    return func(
        f"%table: tensor<{v}x{d}xbf16>, %ids: tensor<{s}xi32>",
        f"tensor<{s}x{d}xf32>",
        f"  %e = tensor.empty() : tensor<{s}x{d}xf32>\n"
        + generic(
            ["(t, j) -> (t)", "(t, j) -> (t, j)"],
            ["parallel", "parallel"],
            [("%ids", f"tensor<{s}xi32>")],
            ("%e", f"tensor<{s}x{d}xf32>"),
            "  ^bb0(%id: i32, %o: f32):\n"
            "    %i = arith.index_cast %id : i32 to index\n"
            "    %j = linalg.index 1 : index\n"
            f"    %v = tensor.extract %table[%i, %j] : tensor<{v}x{d}xbf16>\n"
            "    %f = arith.extf %v : bf16 to f32\n"
            "    linalg.yield %f : f32",
        )
        + f"\n  func.return %r : tensor<{s}x{d}xf32>",
    )


def test_embedding_lookup_gathers_rows():
    rng = np.random.default_rng(13)
    table = rng_f32(rng, (10, 6))
    ids = np.array([3, 0, 9, 3], np.int32)
    (r,) = run_f(embedding_text(), table, ids)
    np.testing.assert_array_equal(r, table.astype(BF16).astype(np.float32)[ids])


def test_kernels_take_captured_tables_after_operands_and_read_constants_themselves():
    from xdsl_spatial.interpreters.kernels import captured_values

    module = parse_module(embedding_text())
    op = generic_op(embedding_text())
    (table,) = captured_values(op)
    assert table.name_hint == "table"
    t = np.arange(60, dtype=np.float32).reshape(10, 6).astype(BF16)
    ids = np.array([1, 2, 3, 4], np.int32)
    (r,) = prepare(op)([ids, np.zeros((4, 6), np.float32), t])
    np.testing.assert_array_equal(r, t.astype(np.float32)[ids])
    # RMSNorm's body reads the constants %n and %eps from above: not captures, the
    # kernel takes its operands alone.
    rms = [o for o in parse_module(RMS_TEXT).walk() if isinstance(o, GenericOp)][1]
    assert captured_values(rms) == ()
    x, g = np.ones((1, 576), np.float32), np.full(576, 2, np.float32)
    (y,) = prepare(rms)([x, np.array([576.0], np.float32), g, np.zeros((1, 576), np.float32)])
    np.testing.assert_allclose(y, 2 / np.sqrt(1 + 1e-5), rtol=1e-6)
    assert module is not None


def test_gather_outside_the_table_is_refused():
    table = np.zeros((10, 6), np.float32)
    with pytest.raises(RunError, match=r"tensor.extract: index 10 of dimension 0 is outside 0..9"):
        run_f(embedding_text(), table, np.array([1, 10, 0, 0], np.int32))
    with pytest.raises(RunError, match=r"index -1 of dimension 0"):
        run_f(embedding_text(), table, np.array([-1, 0, 0, 0], np.int32))


def test_scalar_extract_outside_a_body():
    text = func(
        "%t: tensor<3x4xf32>",
        "f32",
        "  %i = arith.constant 2 : index\n  %j = arith.constant 1 : index\n"
        "  %v = tensor.extract %t[%i, %j] : tensor<3x4xf32>\n  func.return %v : f32",
    )
    t = np.arange(12, dtype=np.float32).reshape(3, 4)
    (r,) = run_f(text, t)
    assert r == t[2, 1]


def test_collapse_and_expand_shape():
    text = func(
        "%x: tensor<4x2x32xi8>",
        "tensor<1x4x64xi8>",
        "  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x2x32xi8> into tensor<4x64xi8>\n"
        "  %e = tensor.expand_shape %c [[0, 1], [2]] output_shape [1, 4, 64] : tensor<4x64xi8> into tensor<1x4x64xi8>\n"
        "  func.return %e : tensor<1x4x64xi8>",
    )
    x = np.arange(256).astype(np.int8).reshape(4, 2, 32)
    (r,) = run_f(text, x)
    np.testing.assert_array_equal(r, x.reshape(1, 4, 64))


# --------------------------------------------------------------------------------------
# Named ops
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, nargs, fn",
    [
        ("add", 2, np.add),
        ("sub", 2, np.subtract),
        ("mul", 2, np.multiply),
        ("max", 2, np.maximum),
        ("min", 2, np.minimum),
        ("exp", 1, np.exp),
        ("log", 1, np.log),
        ("sqrt", 1, np.sqrt),
        ("copy", 1, lambda a: a),
    ],
)
def test_named_elementwise_ops(name, nargs, fn):
    t = "tensor<3x5xf32>"
    ins = ", ".join(f"%a{i}" for i in range(nargs))
    text = func(
        ", ".join(f"%a{i}: {t}" for i in range(nargs)),
        t,
        f"  %e = tensor.empty() : {t}\n"
        f"  %r = linalg.{name} ins({ins} : {', '.join([t] * nargs)}) outs(%e : {t}) -> {t}\n"
        f"  func.return %r : {t}",
    )
    rng = np.random.default_rng(14)
    arrays = [rng.uniform(0.5, 2, (3, 5)).astype(np.float32) for _ in range(nargs)]
    (r,) = run_f(text, *arrays)
    np.testing.assert_allclose(r, fn(*arrays), rtol=4 * U32)


def test_named_select():
    t = "tensor<6xf32>"
    text = func(
        f"%c: tensor<6xi1>, %a: {t}, %b: {t}",
        t,
        f"  %e = tensor.empty() : {t}\n"
        f"  %r = linalg.select ins(%c, %a, %b : tensor<6xi1>, {t}, {t}) outs(%e : {t}) -> {t}\n"
        f"  func.return %r : {t}",
    )
    c = np.array([1, 0, 1, 0, 0, 1], np.bool_)
    a, b = np.arange(6, dtype=np.float32), -np.arange(6, dtype=np.float32)
    (r,) = run_f(text, c, a, b)
    np.testing.assert_array_equal(r, np.where(c, a, b))


def test_transpose_broadcast_reduce():
    text = func(
        "%x: tensor<2x3x4xf32>, %v: tensor<3xf32>, %init: tensor<2x4xf32>",
        "tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<2x4xf32>",
        "  %e = tensor.empty() : tensor<4x2x3xf32>\n"
        "  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<4x2x3xf32>) permutation = [2, 0, 1]\n"
        "  %e2 = tensor.empty() : tensor<2x3x4xf32>\n"
        "  %b = linalg.broadcast ins(%v : tensor<3xf32>) outs(%e2 : tensor<2x3x4xf32>) dimensions = [0, 2]\n"
        "  %r = linalg.reduce ins(%x : tensor<2x3x4xf32>) outs(%init : tensor<2x4xf32>) dimensions = [1]\n"
        "    (%in: f32, %acc: f32) {\n"
        "      %s = arith.addf %in, %acc : f32\n"
        "      linalg.yield %s : f32\n"
        "    }\n"
        "  func.return %t, %b, %r : tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<2x4xf32>",
    )
    rng = np.random.default_rng(15)
    x, v, init = rng_f32(rng, (2, 3, 4), True), rng_f32(rng, 3, True), rng_f32(rng, (2, 4), True)
    t, b, r = run_f(text, x, v, init)
    np.testing.assert_array_equal(t, x.transpose(2, 0, 1))
    np.testing.assert_array_equal(b, np.broadcast_to(v[None, :, None], (2, 3, 4)))
    np.testing.assert_array_equal(r, init + x.sum(1))


def test_math_kernels_on_bf16_round_once():
    text = func(
        "%a: tensor<256xbf16>",
        "tensor<256xbf16>",
        "  %e = tensor.empty() : tensor<256xbf16>\n"
        + generic(
            ["(i) -> (i)", "(i) -> (i)"],
            ["parallel"],
            [("%a", "tensor<256xbf16>")],
            ("%e", "tensor<256xbf16>"),
            "  ^bb0(%x: bf16, %o: bf16):\n    %y = math.tanh %x : bf16\n    linalg.yield %y : bf16",
        )
        + "\n  func.return %r : tensor<256xbf16>",
    )
    a = np.linspace(-3, 3, 256).astype(np.float32)
    (r,) = run_f(text, a)
    np.testing.assert_array_equal(r, np.tanh(a.astype(BF16).astype(np.float32)).astype(BF16))


def test_math_round_is_half_away_from_zero():
    text = func(
        "%a: tensor<6xf32>",
        "tensor<6xf32>, tensor<6xf32>",
        "  %e = tensor.empty() : tensor<6xf32>\n"
        "  %r = math.round %a : tensor<6xf32>\n"
        "  %q = math.roundeven %a : tensor<6xf32>\n"
        "  func.return %r, %q : tensor<6xf32>, tensor<6xf32>",
    )
    a = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997], np.float32)
    r, q = run_f(text, a)
    np.testing.assert_array_equal(r, [1, 2, 3, -1, -3, 0])
    np.testing.assert_array_equal(q, [0, 2, 2, -0.0, -2, 0])


# --------------------------------------------------------------------------------------
# Refusals
# --------------------------------------------------------------------------------------


def generic_op(text: str) -> GenericOp:
    module = parse_module(text)
    return next(o for o in module.walk() if isinstance(o, GenericOp))


def test_reduction_reading_output_twice_is_refused():
    text = func(
        "%x: tensor<3x5xf32>, %init: tensor<3xf32>",
        "tensor<3xf32>",
        generic(
            ["(m, k) -> (m, k)", "(m, k) -> (m)"],
            ["parallel", "reduction"],
            [("%x", "tensor<3x5xf32>")],
            ("%init", "tensor<3xf32>"),
            "  ^bb0(%a: f32, %o: f32):\n"
            "    %p = arith.mulf %a, %o : f32\n"
            "    %s = arith.addf %o, %p : f32\n"
            "    linalg.yield %s : f32",
        )
        + "\n  func.return %r : tensor<3xf32>",
    )
    with pytest.raises(KernelError, match="linalg.generic: output #0 is reduced, but the body"):
        prepare(generic_op(text))
    with pytest.raises(RunError, match="linalg.generic: output #0 is reduced"):
        run_f(text, np.zeros((3, 5), np.float32), np.zeros(3, np.float32))


def test_reduction_with_a_non_combining_yield_is_refused():
    text = func(
        "%x: tensor<3x5xf32>, %init: tensor<3xf32>",
        "tensor<3xf32>",
        generic(
            ["(m, k) -> (m, k)", "(m, k) -> (m)"],
            ["parallel", "reduction"],
            [("%x", "tensor<3x5xf32>")],
            ("%init", "tensor<3xf32>"),
            "  ^bb0(%a: f32, %o: f32):\n    %s = arith.subf %o, %a : f32\n    linalg.yield %s : f32",
        )
        + "\n  func.return %r : tensor<3xf32>",
    )
    with pytest.raises(KernelError, match="combining op"):
        prepare(generic_op(text))


def test_body_op_that_is_not_elementwise_is_refused():
    text = func(
        "%x: tensor<4xf32>",
        "tensor<4xf32>",
        "  %e = tensor.empty() : tensor<4xf32>\n"
        + generic(
            ["(i) -> (i)", "(i) -> (i)"],
            ["parallel"],
            [("%x", "tensor<4xf32>")],
            ("%e", "tensor<4xf32>"),
            "  ^bb0(%a: f32, %o: f32):\n"
            "    %t = tensor.empty() : tensor<2xf32>\n"
            "    linalg.yield %a : f32",
        )
        + "\n  func.return %r : tensor<4xf32>",
    )
    with pytest.raises(KernelError, match="tensor.empty in the body is not an elementwise op"):
        prepare(generic_op(text))


def test_output_map_over_a_reduction_loop_is_refused():
    text = func(
        "%x: tensor<3x5xf32>, %init: tensor<3x5xf32>",
        "tensor<3x5xf32>",
        generic(
            ["(m, k) -> (m, k)", "(m, k) -> (m, k)"],
            ["parallel", "reduction"],
            [("%x", "tensor<3x5xf32>")],
            ("%init", "tensor<3x5xf32>"),
            "  ^bb0(%a: f32, %o: f32):\n    %s = arith.addf %o, %a : f32\n    linalg.yield %s : f32",
        )
        + "\n  func.return %r : tensor<3x5xf32>",
    )
    with pytest.raises(KernelError, match="must use each parallel loop once and no reduction loop"):
        prepare(generic_op(text))


def test_huge_elementwise_body_value_is_refused_not_run():
    text = func(
        "%x: tensor<16384x1xf32>, %y: tensor<1x16384xf32>, %init: tensor<16384xf32>",
        "tensor<16384xf32>",
        generic(
            ["(i, j) -> (i, 0)", "(i, j) -> (0, j)", "(i, j) -> (i)"],
            ["parallel", "reduction"],
            [("%x", "tensor<16384x1xf32>"), ("%y", "tensor<1x16384xf32>")],
            ("%init", "tensor<16384xf32>"),
            "  ^bb0(%a: f32, %b: f32, %o: f32):\n"
            "    %s = arith.subf %a, %b : f32\n"
            "    %m = arith.maximumf %o, %s : f32\n"
            "    linalg.yield %m : f32",
        )
        + "\n  func.return %r : tensor<16384xf32>",
    )
    with pytest.raises(KernelError, match=r"arith.subf in the body spans 268435456 elements"):
        prepare(generic_op(text))


# --------------------------------------------------------------------------------------
# Random maps and bodies against an element-by-element reference
# --------------------------------------------------------------------------------------


def reference(op: GenericOp, arrays: list[np.ndarray], captured: dict) -> np.ndarray:
    """Run `op` one iteration at a time in lexicographic loop order, each body op on
    Python floats (fp64), as the linalg spec reads: slow and obviously right."""
    maps = [m.data for m in op.indexing_maps]
    shapes = [a.shape for a in arrays]
    ranges = [None] * maps[0].num_dims
    for m, s in zip(maps, shapes):
        for e, size in zip(m.results, s):
            if hasattr(e, "position") and ranges[e.position] is None:
                ranges[e.position] = size
    out = arrays[-1].astype(np.float64).copy()
    block = op.body.block
    for point in itertools.product(*(range(r) for r in ranges)):
        env = dict(captured)
        for a, m, arr in zip(block.args, maps, arrays):
            env[a] = (
                out[m.eval(point, [])] if a is block.args[-1] else float(arr[m.eval(point, [])])
            )
        for b in block.ops:
            name = b.name
            if name == "linalg.yield":
                out[maps[-1].eval(point, [])] = env[b.operands[0]]
                break
            if name == "linalg.index":
                env[b.results[0]] = float(point[b.dim.value.data])
                continue
            x = [env[v] for v in b.operands]
            env[b.results[0]] = {
                "arith.addf": lambda: x[0] + x[1],
                "arith.subf": lambda: x[0] - x[1],
                "arith.mulf": lambda: x[0] * x[1],
                "arith.maximumf": lambda: max(x[0], x[1]),
                "arith.minimumf": lambda: min(x[0], x[1]),
                "arith.index_cast": lambda: x[0],
                "arith.sitofp": lambda: x[0],
            }[name]()
    return out


AFFINE = st.sampled_from(["dim", "dim", "const", "floordiv", "mod", "sum"])


@st.composite
def random_generic(draw):
    """A generic over 1-3 loops of 0-4 iterations: input 0 reads every loop (in a
    random order), input 1 a random map (plain loops, constants, floordiv, mod, sums
    of two loops); a body of adds, products, maxima and `linalg.index`, and, with
    reduction loops, an output combined by addf, mulf or maximumf."""
    n = draw(st.integers(1, 3))
    ranges = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    red = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    names = [f"d{i}" for i in range(n)]
    perm = draw(st.permutations(range(n)))
    maps = ["(" + ", ".join(names) + ") -> (" + ", ".join(names[p] for p in perm) + ")"]
    shapes = [[ranges[p] for p in perm]]
    rank1 = draw(st.integers(1, 3))
    exprs, shape1 = [], []
    for _ in range(rank1):
        # xDSL's verifier evaluates maps at the last index, -1 for an empty loop.
        kind = draw(AFFINE if min(ranges) else st.sampled_from(["dim", "const"]))
        d = draw(st.integers(0, n - 1))
        e = draw(st.integers(0, n - 1))
        c = draw(st.integers(1, 3))
        top = max(ranges[d] - 1, 0)
        if kind == "dim":
            exprs.append(names[d])
            shape1.append(ranges[d])
        elif kind == "const":
            exprs.append(str(c - 1))
            shape1.append(c)
        elif kind == "floordiv":
            exprs.append(f"{names[d]} floordiv {c}")
            shape1.append(top // c + 1)
        elif kind == "mod":
            exprs.append(f"{names[d]} mod {c}")
            shape1.append(c)
        else:
            exprs.append(f"{names[d]} + {names[e]}")
            shape1.append(top + max(ranges[e] - 1, 0) + 1)
    maps.append("(" + ", ".join(names) + ") -> (" + ", ".join(exprs) + ")")
    shapes.append(shape1)
    par = [i for i in range(n) if not red[i]]
    out_perm = draw(st.permutations(par))
    maps.append("(" + ", ".join(names) + ") -> (" + ", ".join(names[p] for p in out_perm) + ")")
    shapes.append([ranges[p] for p in out_perm])
    value = draw(st.sampled_from(["mul", "add", "max", "a", "index", "mulmul"]))
    body = {
        "mul": "    %v = arith.mulf %a, %b : f32",
        "add": "    %v = arith.addf %a, %b : f32",
        "max": "    %v = arith.maximumf %b, %a : f32",
        "a": "    %v = arith.subf %a, %c0 : f32",
        "index": (
            f"    %i = linalg.index {n - 1} : index\n"
            "    %ii = arith.index_cast %i : index to i32\n"
            "    %if = arith.sitofp %ii : i32 to f32\n"
            "    %v = arith.mulf %if, %b : f32"
        ),
        "mulmul": "    %ab = arith.mulf %a, %b : f32\n    %v = arith.mulf %ab, %a : f32",
    }[value]
    if any(red):
        comb = draw(st.sampled_from(["addf", "mulf", "maximumf"]))
        order = draw(st.booleans())
        ops = "%o, %v" if order else "%v, %o"
        body += f"\n    %y = arith.{comb} {ops} : f32\n    linalg.yield %y : f32"
    else:
        body += "\n    linalg.yield %v : f32"
    iters = ", ".join('"reduction"' if r else '"parallel"' for r in red)
    ts = ["tensor<" + "x".join(map(str, s)) + ("x" if s else "") + "f32>" for s in shapes]
    text = (
        "func.func @f(%x: "
        + ts[0]
        + ", %w: "
        + ts[1]
        + ", %init: "
        + ts[2]
        + ") -> "
        + ts[2]
        + " {\n"
        "  %c0 = arith.constant 0.0 : f32\n"
        "  %r = linalg.generic {indexing_maps = ["
        + ", ".join(f"affine_map<{m}>" for m in maps)
        + f"], iterator_types = [{iters}]}} ins(%x, %w : {ts[0]}, {ts[1]}) outs(%init : {ts[2]}) {{\n"
        "  ^bb0(%a: f32, %b: f32, %o: f32):\n" + body + "\n  } -> " + ts[2] + "\n"
        "  func.return %r : " + ts[2] + "\n}\n"
    )
    seed = draw(st.integers(0, 2**16))
    return text, [tuple(s) for s in shapes], seed


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_generic())
def test_random_generics_match_the_elementwise_reference(case):
    text, shapes, seed = case
    module = parse_module(text)
    op = next(o for o in module.walk() if isinstance(o, GenericOp))
    rng = np.random.default_rng(seed)
    # Integers in [-2, 2]: every sum and product here is exact in fp32, so any
    # evaluation order gives the reference's value exactly.
    arrays = [rng.integers(-2, 3, s).astype(np.float32) for s in shapes]
    c0 = next(o for o in module.walk() if o.name == "arith.constant").results[0]
    expect = reference(op, arrays, {c0: 0.0})
    (got,) = run(module, "f", *arrays)
    assert got.shape == expect.shape
    np.testing.assert_array_equal(got, expect.astype(np.float32))


@pytest.mark.parametrize("shape", [(8, 16), (96, 40), (256, 1024)])
def test_byte_transpose_fast_path_equals_the_plain_one(shape):
    from xdsl.dialects.linalg.ops import TransposeOp

    from xdsl_spatial.interpreters.linalg import _structured, structured_kernel, transpose_bytes

    a = np.random.default_rng(16).integers(-128, 128, shape).astype(np.int8)
    np.testing.assert_array_equal(transpose_bytes(a), a.T)
    n, k = shape
    text = func(
        f"%a: tensor<{n}x{k}xi8>",
        f"tensor<{k}x{n}xi8>",
        f"  %e = tensor.empty() : tensor<{k}x{n}xi8>\n"
        f"  %t = linalg.transpose ins(%a : tensor<{n}x{k}xi8>) outs(%e : tensor<{k}x{n}xi8>) permutation = [1, 0]\n"
        f"  func.return %t : tensor<{k}x{n}xi8>",
    )
    op = next(o for o in parse_module(text).walk() if isinstance(o, TransposeOp))
    (plain,) = structured_kernel(_structured(op))([a, np.zeros((k, n), np.int8)])
    (fast,) = prepare(op)([a, np.zeros((k, n), np.int8)])
    np.testing.assert_array_equal(fast, plain)
    assert fast.flags.c_contiguous and fast.dtype == np.int8


@st.composite
def random_contraction(draw):
    """`out[par] (+)= sum over red of a[...] * b[...]`, each loop of 0-3 iterations
    read by a only, b only, both, or neither (a reduction loop no factor reads counts
    its iterations), in random map orders: the batched-matmul path with batch, free,
    shared and lone reduction loops, and its einsum fallback for a third factor."""
    n = draw(st.integers(1, 5))
    ranges = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    red = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    who = draw(st.lists(st.sampled_from(["a", "b", "ab", "ab", "-"]), min_size=n, max_size=n))
    # Every loop needs an extent: one read by no factor is read by the output (a
    # parallel loop) or by the third factor c.
    third = draw(st.booleans()) or any(w == "-" and r for w, r in zip(who, red))
    a_dims = draw(st.permutations([d for d in range(n) if "a" in who[d]]))
    b_dims = draw(st.permutations([d for d in range(n) if "b" in who[d]]))
    c_dims = [d for d in range(n) if red[d] and who[d] == "-"] if third else []
    o_dims = draw(st.permutations([d for d in range(n) if not red[d]]))
    seed = draw(st.integers(0, 2**16))
    return n, ranges, red, list(a_dims), list(b_dims), c_dims, list(o_dims), third, seed


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_contraction())
def test_random_contractions_match_einsum(case):
    n, ranges, red, a_dims, b_dims, c_dims, o_dims, third, seed = case
    names = [f"d{i}" for i in range(n)]
    head = "(" + ", ".join(names) + ")"

    def t(dims):
        return "tensor<" + "".join(f"{ranges[d]}x" for d in dims) + "f32>"

    def m(dims):
        return f"affine_map<{head} -> (" + ", ".join(names[d] for d in dims) + ")>"

    ins = [("%a", a_dims), ("%b", b_dims)] + ([("%c", c_dims)] if third else [])
    prod = "    %p = arith.mulf %ea, %eb : f32\n"
    if third:
        prod += "    %p3 = arith.mulf %p, %ec : f32\n"
    last = "%p3" if third else "%p"
    iters = ", ".join('"reduction"' if r else '"parallel"' for r in red)
    text = (
        "func.func @f("
        + ", ".join(f"{v}: {t(d)}" for v, d in ins)
        + f", %init: {t(o_dims)}) -> {t(o_dims)} {{\n"
        f"  %r = linalg.generic {{indexing_maps = [{', '.join(m(d) for _, d in ins)}, {m(o_dims)}], "
        f"iterator_types = [{iters}]}} ins({', '.join(v for v, _ in ins)} : {', '.join(t(d) for _, d in ins)}) "
        f"outs(%init : {t(o_dims)}) {{\n"
        f"  ^bb0(%ea: f32, %eb: f32{', %ec: f32' if third else ''}, %o: f32):\n{prod}"
        f"    %s = arith.addf %o, {last} : f32\n    linalg.yield %s : f32\n"
        f"  }} -> {t(o_dims)}\n  func.return %r : {t(o_dims)}\n}}\n"
    )
    module = parse_module(text)
    rng = np.random.default_rng(seed)
    arrays = [rng.integers(-3, 4, [ranges[d] for d in dims]).astype(np.float32) for _, dims in ins]
    init = rng.integers(-3, 4, [ranges[d] for d in o_dims]).astype(np.float32)
    (got,) = run(module, "f", *arrays, init)
    letters = "abcdefghij"
    lone = [d for d in range(n) if red[d] and not any(d in ds for _, ds in ins)]
    # An output loop no factor reads broadcasts: a factor of ones over it.
    unread = [d for d in o_dims if not any(d in ds for _, ds in ins)]
    factors = [(ds, a.astype(np.float64)) for (_, ds), a in zip(ins, arrays)]
    factors.append((unread, np.ones([ranges[d] for d in unread])))
    spec = (
        ",".join("".join(letters[d] for d in ds) for ds, _ in factors)
        + "->"
        + "".join(letters[d] for d in o_dims)
    )
    want = np.einsum(spec, *(a for _, a in factors)) * math.prod(ranges[d] for d in lone)
    # Integers of at most 3, at most 3^5 products of magnitude 27: exact in fp32.
    np.testing.assert_array_equal(got, (init + want).astype(np.float32))


def test_a_body_reads_its_own_constants_and_those_from_above():
    """A constant made inside the body and one from above it, read by the same op
    chain (the tiny llama's RoPE and softmax bodies hold both)."""
    text = func(
        "%x: tensor<4x8xf32>",
        "tensor<4x8xf32>",
        "  %above = arith.constant 3.0 : f32\n"
        "  %e = tensor.empty() : tensor<4x8xf32>\n"
        "  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],"
        ' iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {\n'
        "  ^bb0(%a: f32, %o: f32):\n"
        "    %inside = arith.constant 2.0 : f32\n"
        "    %p = arith.mulf %a, %inside : f32\n"
        "    %q = arith.addf %p, %above : f32\n"
        "    %r = arith.mulf %q, %inside : f32\n"
        "    linalg.yield %r : f32\n"
        "  } -> tensor<4x8xf32>\n"
        "  func.return %y : tensor<4x8xf32>",
    )
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    for engine in ("reference", "compiled"):
        (y,) = run(parse_module(text), "f", x, engine=engine)
        np.testing.assert_array_equal(y, (x * 2 + 3) * 2)


# --------------------------------------------------------------------------------------
# What torch-mlir exports: batch_matmul, keepdim outputs, max with its index
# --------------------------------------------------------------------------------------


def test_batch_matmul_is_one_batched_product():
    rng = np.random.default_rng(0)
    a, b = rng_f32(rng, (3, 5, 64)), rng_f32(rng, (3, 64, 7))
    c = rng_f32(rng, (3, 5, 7))
    text = func(
        "%a: tensor<3x5x64xf32>, %b: tensor<3x64x7xf32>, %c: tensor<3x5x7xf32>",
        "tensor<3x5x7xf32>",
        "%y = linalg.batch_matmul ins(%a, %b : tensor<3x5x64xf32>, tensor<3x64x7xf32>) "
        "outs(%c : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>\n  func.return %y : tensor<3x5x7xf32>",
    )
    (y,) = run_f(text, a, b, c)
    y64 = a.astype(np.float64) @ b.astype(np.float64) + c
    mag = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)) + np.abs(c)
    assert (np.abs(y - y64) <= 70 * 2.0**-24 * mag).all()


def test_keepdim_reduction_and_max_with_its_first_index():
    """torch.max(x, dim, keepdim=True): the maximum and where it is first reached,
    written to outputs indexed (d0, 0)."""
    x = np.array([[1, 5, 5, 2], [-3, -1, -2, -1], [0, 0, 0, 0]], np.float32)
    maps = (
        "affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, "
        "affine_map<(d0, d1) -> (d0, 0)>"
    )
    text = func(
        "%x: tensor<3x4xf32>, %m: tensor<3x1xf32>, %i: tensor<3x1xi64>",
        "tensor<3x1xf32>, tensor<3x1xi64>",
        f"%r:2 = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
        '["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%m, %i : tensor<3x1xf32>, '
        "tensor<3x1xi64>) {\n"
        "  ^bb0(%in: f32, %out: f32, %out_1: i64):\n"
        "    %j = linalg.index 1 : index\n"
        "    %ji = arith.index_cast %j : index to i64\n"
        "    %mx = arith.maximumf %in, %out : f32\n"
        "    %gt = arith.cmpf ogt, %in, %out : f32\n"
        "    %sel = arith.select %gt, %ji, %out_1 : i64\n"
        "    linalg.yield %mx, %sel : f32, i64\n"
        "  } -> (tensor<3x1xf32>, tensor<3x1xi64>)\n"
        "  func.return %r#0, %r#1 : tensor<3x1xf32>, tensor<3x1xi64>",
    )
    init = np.full((3, 1), np.finfo(np.float32).min, np.float32)
    m, i = run_f(text, x, init, np.zeros((3, 1), np.int64))
    assert m.tolist() == [[5.0], [-1.0], [0.0]]
    assert i.tolist() == [[1], [1], [0]]
    # An initial maximum no element exceeds keeps the initial index.
    m, i = run_f(text, x, np.full((3, 1), 9, np.float32), np.full((3, 1), 7, np.int64))
    assert m.tolist() == [[9.0], [9.0], [9.0]] and i.tolist() == [[7], [7], [7]]
