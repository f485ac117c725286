"""Random `linalg.generic` maps and bodies, and random contractions, run by the
structured-op kernels against a slow element-by-element reference and einsum.

Exactness: the cases compared bit for bit take integer-valued inputs whose sums and
products are exact in fp32 (small integers, few terms), so every summation order
gives the same bits. The others are checked against fp64 within the fp32 bound."""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from linalg_funcs import func
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir.affine import AffineDimExpr, AffineSymExpr

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.runner import run


def reference(op: GenericOp, arrays: list[np.ndarray], captured: dict) -> np.ndarray:
    """Run `op` one iteration at a time in lexicographic loop order, each body op on
    Python floats (fp64), as the linalg spec reads: slow and obviously right."""
    maps = [m.data for m in op.indexing_maps]
    shapes = [a.shape for a in arrays]
    ranges: list[int | None] = [None] * maps[0].num_dims
    for m, s in zip(maps, shapes):
        for e, size in zip(m.results, s):
            if isinstance(e, AffineDimExpr | AffineSymExpr) and ranges[e.position] is None:
                ranges[e.position] = size
    extents = [r for r in ranges if r is not None]
    assert len(extents) == len(ranges), "every loop's extent is some operand's"
    out = arrays[-1].astype(np.float64).copy()
    block = op.body.block
    for point in itertools.product(*(range(r) for r in extents)):
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
                assert isinstance(b, IndexOp)
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
