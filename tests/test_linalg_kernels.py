"""The structured-op kernels (`interpreters/linalg/`), the `tensor` and `math` kernels
beside them, against plain numpy: elementwise bodies and maps, gathers, named ops,
refusals and what torch-mlir exports.

Exactness: the cases compared bit for bit take integer-valued inputs whose sums and
products are exact in fp32 (small integers, few terms), so every summation order
gives the same bits. The others are checked against fp64 within the fp32 bound."""

from __future__ import annotations

import numpy as np
import pytest
from linalg_funcs import BF16, RMS_TEXT, U32, func, generic, rng_f32, run_f
from xdsl.dialects.linalg.ops import GenericOp

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.kernels import KernelError, prepare
from xdsl_spatial.interpreters.runner import RunError

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


@pytest.mark.parametrize("shape", [(8, 16), (96, 40), (256, 1024)])
def test_byte_transpose_fast_path_equals_the_plain_one(shape):
    from xdsl.dialects.linalg.ops import TransposeOp

    from xdsl_spatial.interpreters.linalg import transpose_bytes
    from xdsl_spatial.interpreters.linalg.body import structured_kernel
    from xdsl_spatial.interpreters.linalg.structure import structure_of

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
    (plain,) = structured_kernel(structure_of(op))([a, np.zeros((k, n), np.int8)])
    (fast,) = prepare(op)([a, np.zeros((k, n), np.int8)])
    np.testing.assert_array_equal(fast, plain)
    assert fast.flags.c_contiguous and fast.dtype == np.int8


# --------------------------------------------------------------------------------------
# Refusals
# --------------------------------------------------------------------------------------


def generic_op(text: str) -> GenericOp:
    module = parse_module(text)
    return next(o for o in module.walk() if isinstance(o, GenericOp))


def reduced_rows(body: str, out_map: str = "(m)", out: str = "tensor<3xf32>") -> str:
    """`@f`: one generic over %x (3 x 5; m parallel, k a reduction) into %init of type
    `out` through `(m, k) -> out_map`, whose block (%a of %x, %o of %init) is `body`."""
    return func(
        f"%x: tensor<3x5xf32>, %init: {out}",
        out,
        generic(
            ["(m, k) -> (m, k)", f"(m, k) -> {out_map}"],
            ["parallel", "reduction"],
            [("%x", "tensor<3x5xf32>")],
            ("%init", out),
            "  ^bb0(%a: f32, %o: f32):\n" + body,
        )
        + f"\n  func.return %r : {out}",
    )


def test_reduction_reading_output_twice_is_refused():
    text = reduced_rows(
        "    %p = arith.mulf %a, %o : f32\n"
        "    %s = arith.addf %o, %p : f32\n"
        "    linalg.yield %s : f32"
    )
    with pytest.raises(KernelError, match="linalg.generic: output #0 is reduced, but the body"):
        prepare(generic_op(text))
    with pytest.raises(RunError, match="linalg.generic: output #0 is reduced"):
        run_f(text, np.zeros((3, 5), np.float32), np.zeros(3, np.float32))


def test_reduction_with_a_non_combining_yield_is_refused():
    text = reduced_rows("    %s = arith.subf %o, %a : f32\n    linalg.yield %s : f32")
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
    text = reduced_rows(
        "    %s = arith.addf %o, %a : f32\n    linalg.yield %s : f32", "(m, k)", "tensor<3x5xf32>"
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
