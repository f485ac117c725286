"""The structured-op kernels' reductions and contractions (`interpreters/linalg/`)
against plain numpy.

Exactness: the cases compared bit for bit take integer-valued inputs whose sums and
products are exact in fp32 (small integers, few terms), so every summation order
gives the same bits. The others are checked against fp64 within the fp32 bound."""

from __future__ import annotations

import numpy as np
import pytest
from linalg_funcs import BF16, RMS_TEXT, fp32_bound, func, generic, rng_f32, run_f

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.runner import run


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
