"""The two engines on programs written by hand, and the proof that they agree.

Claims of equal bits are made where they hold by construction: elementwise programs
(every engine computes each element with the same ops in the same order) and
integer-exact inputs (small integers, power-of-two scales: every partial sum exact in
fp32, so no order of summation changes a bit). Sums over random inputs are checked
against the fp32 summation bound of an fp64 reference: the compiled engine adds a
contraction's blocks in another order than the reference engine.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from q8_operands import U32, check_q8_result, fp32_bound, product_cases, q8_fp64, q8_operands

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.interpreters.executable import compile_function
from xdsl_spatial.interpreters.runner import ENGINES, coerce_args, execute, find_function, run
from xdsl_spatial.interpreters.stages import Contraction
from xdsl_spatial.passes.q8_lower import lower_q8
from xdsl_spatial.tools.spatial_gguf import q8_matmul_func


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    return request.param


def all_ways(mod, entry, arrays):
    """The outputs and traffic of the reference engine, the compiled engine, and the
    compiled engine without its fast paths."""
    fn = find_function(mod, entry)
    args = coerce_args(fn, arrays)
    ref = execute(mod, entry, arrays, engine="reference")
    fast = compile_function(fn)(*args)
    plain = compile_function(fn, fast=False)(*args)
    return ref, fast, plain


def traffic(r):
    return [(p.name, p.loaded, p.stored, p.local_mem, p.weight_elems) for p in r.traffic.programs]


PAGES = """
func.func @pages(%a: tensor<32x64xf32>) -> tensor<40x64xf32> {
  %y = spatial.view "pages" grid [2] owns (d0) -> (0, d0) size [2, 1]
      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [2, 1]> numerics exact
      ins(%a : tensor<32x64xf32>) -> tensor<40x64xf32> {
  ^bb0(%i: index, %a_in: tensor<32x64xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<40x64xf32, output>
    %rev = spatial.tensor "rev" values dense<[[31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]> : tensor<1x32xi32> : !spatial.tensor<1x32xi32, param>
    %in = spatial.buffer "in" : !spatial.buffer<1xf32, depth 1>
    %tb = spatial.buffer "tb" : !spatial.buffer<1xi32, depth 1>
    %hb = spatial.buffer "hb" : !spatial.buffer<1xbf16, depth 1>
    %sb = spatial.buffer "sb" : !spatial.buffer<1xf32, depth 1>
    %gb = spatial.buffer "gb" : !spatial.buffer<1xf32, depth 1>
    %cb = spatial.buffer "cb" : !spatial.buffer<1xf32, depth 1>
    %ob = spatial.buffer "ob" : !spatial.buffer<1xf32, depth 1>
    %p = spatial.load %at[%i] block 1x1 stride 2 repeat 1 into %in : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    %t = spatial.load %rev[0] block 1x1 stride 1 repeat 1 into %tb : !spatial.tensor<1x32xi32, param> -> !spatial.page<1xi32>
    // Column 0 of the tile, rounded to bf16, as the first 32 elements of a page.
    %half = spatial.stage "half" iters(par 32) ins(%p[d0 * 32]) into %hb[d0] : (!spatial.page<1xf32>) -> !spatial.page<1xbf16> {
    ^bb0(%v: f32):
      %r = arith.truncf %v : f32 to bf16
      spatial.yield %r : bf16
    }
    // The whole page in order: rows 1.. are past what `half` wrote (zero).
    %spread = spatial.stage "spread" iters(par 32, par 32) ins(%half[d0 * 32 + d1]) into %sb[d0 * 32 + d1] : (!spatial.page<1xbf16>) -> !spatial.page<1xf32> {
    ^bb0(%v: bf16):
      %e = arith.extf %v : bf16 to f32
      spatial.yield %e : f32
    }
    // `half` reversed through a table: element 31 - d0, in row 1.
    %gather = spatial.stage "gather" iters(par 32) ins(%half[s0 | s0 = in1], %t[d0]) into %gb[d0 + 32] : (!spatial.page<1xbf16>, !spatial.page<1xi32>) -> !spatial.page<1xf32> {
    ^bb0(%v: bf16, %k: i32):
      %e = arith.extf %v : bf16 to f32
      spatial.yield %e : f32
    }
    %two = spatial.stage "two" iters(par 32, par 32) ins() into %cb[d0 * 32 + d1] : () -> !spatial.page<1xf32> {
      %c = arith.constant 2.0 : f32
      spatial.yield %c : f32
    }
    %sum = spatial.stage "sum" iters(par 32, par 32) ins(%spread[d0 * 32 + d1], %gather[d0 * 32 + d1], %two[d0 * 32 + d1]) into %ob[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%u: f32, %v: f32, %w: f32):
      %s1 = arith.addf %u, %v : f32
      %s2 = arith.addf %s1, %w : f32
      spatial.yield %s2 : f32
    }
    spatial.store %sum to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<40x64xf32, output>
    spatial.store %two to %yt[%i + 2] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<40x64xf32, output>
    spatial.return %yt : !spatial.tensor<40x64xf32, output>
  }
  func.return %y : tensor<40x64xf32>
}
"""


PASS = """
func.func @pass(%a: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %y = spatial.view "pass" grid [2] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%a : tensor<32x64xf32>) -> tensor<32x64xf32> {
  ^bb0(%i: index, %a_in: tensor<32x64xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<1xf32, depth 1>
    %cb = spatial.buffer "cb" : !spatial.buffer<1xf32, depth 1>
    %hb = spatial.buffer "hb" : !spatial.buffer<1xf32, depth 1>
    %tb = spatial.buffer "tb" : !spatial.buffer<1xf32, depth 1>
    %kb = spatial.buffer "kb" : !spatial.buffer<1xf32, depth 1>
    %ob = spatial.buffer "ob" : !spatial.buffer<1xf32, depth 1>
    %p = spatial.load %at[%i] block 1x1 stride 2 repeat 1 into %in : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    // The page as it is: the same page.
    %copy = spatial.stage "copy" iters(par 32, par 32) ins(%p[d0 * 32 + d1]) into %cb[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      spatial.yield %v : f32
    }
    // Its first 16 rows as they are: rows 16.. of this page are zero.
    %top = spatial.stage "top" iters(par 16, par 32) ins(%p[d0 * 32 + d1]) into %hb[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      spatial.yield %v : f32
    }
    // Transposed.
    %flip = spatial.stage "flip" iters(par 32, par 32) ins(%p[d1 * 32 + d0]) into %tb[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%v: f32):
      spatial.yield %v : f32
    }
    %k = spatial.stage "k" iters(par 32, par 32) ins() into %kb[d0 * 32 + d1] : () -> !spatial.page<1xf32> {
      %c = arith.constant 0.5 : f32
      spatial.yield %c : f32
    }
    %sum = spatial.stage "sum" iters(par 32, par 32) ins(%copy[d0 * 32 + d1], %top[d0 * 32 + d1], %flip[d0 * 32 + d1], %k[d0 * 32 + d1]) into %ob[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>, !spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%u: f32, %v: f32, %w: f32, %c: f32):
      %s1 = arith.addf %u, %v : f32
      %s2 = arith.addf %s1, %w : f32
      %s3 = arith.mulf %s2, %c : f32
      spatial.yield %s3 : f32
    }
    spatial.store %sum to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
    spatial.return %yt : !spatial.tensor<32x64xf32, output>
  }
  func.return %y : tensor<32x64xf32>
}
"""


ACCUMULATE = """
func.func @acc(%a: tensor<32x96xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "acc" grid [1] owns (d0) -> (0, d0) size [1, 1]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 3, site = [1, 1]> numerics exact
      ins(%a : tensor<32x96xf32>) -> tensor<32x32xf32> {
  ^bb0(%i: index, %a_in: tensor<32x96xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x96xf32>) : !spatial.tensor<32x96xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x32xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<1xf32, depth 2>
    %cb = spatial.buffer "cb" : !spatial.buffer<1xf32, depth 2>
    %zero = spatial.stage "zero" iters(par 32, par 32) ins() into %cb[d0 * 32 + d1] : () -> !spatial.page<1xf32> {
      %c = arith.constant 0.0 : f32
      spatial.yield %c : f32
    }
    %sum = spatial.k_loop %kb = 0 to 3 iter_args(%acc = %zero) -> (!spatial.page<1xf32>) {
      %p = spatial.load %at[%kb] block 1x1 stride 1 repeat 3 into %in : !spatial.tensor<32x96xf32, input> -> !spatial.page<1xf32>
      %next = spatial.stage "step" iters(par 32, par 32) ins(%acc[CARRY_MAP], %p[d0 * 32 + d1]) into %cb[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
      ^bb0(%u: f32, %v: f32):
        %h = arith.mulf %v, %v : f32
        %s = arith.addf %u, %v : f32
        %t = arith.addf %s, %h : f32
        spatial.yield %t : f32
      }
      spatial.k_yield %next : !spatial.page<1xf32>
    }
    spatial.store %sum to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}
"""


COPY_BY_K = """
func.func @copy_k(%x: tensor<32x64xf32>, %acc: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  %y, %acc_out = spatial.view "copy_by_k" grid [1] owns (d0) -> (0, d0 * 2) size [1, 2]
      target #spatial.target<tile = 32x32, act = f32, acc = f32, local_mem = 8192, acc_tiles = 2>
      plan #spatial.plan<grid = [1, 1], k_blocks = 2, site = [1, 2]> numerics exact
      ins(%x, %acc : tensor<32x64xf32>, tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  ^bb0(%i: index, %x_in: tensor<32x64xf32>, %acc_in: tensor<32x64xf32>):
    %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
    %st = spatial.tensor "acc" external(%acc_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, state>
    %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
    spatial.k_loop %kb = 0 to 2 {
      %p = spatial.load %xt[%kb + %i * 2] block 1x1 stride 2 repeat 2 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
      spatial.store %p to %yt[%kb + %i * 2] block 1x1 stride 2 repeat 2 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
      spatial.store %p to %st[%kb + %i * 2] block 1x1 stride 2 repeat 2 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, state>
      spatial.k_yield
    }
    spatial.return %yt, %st : !spatial.tensor<32x64xf32, output>, !spatial.tensor<32x64xf32, state>
  }
  func.return %y, %acc_out : tensor<32x64xf32>, tensor<32x64xf32>
}
"""


def bf16(a: np.ndarray) -> np.ndarray:
    return a.astype(ml_dtypes.bfloat16).astype(np.float32)


def test_pages_passed_between_stages(engine):
    """A page written in part (its unwritten elements read as zero), rounded to bf16
    as it is written, read back in order and through a table; a constant page; two
    stores of them."""
    a = np.random.default_rng(0).standard_normal((32, 64)).astype(np.float32)
    (y,) = run(parse_module(PAGES), "pages", a, engine=engine)
    want = np.full((40, 64), 2.0, np.float32)
    for i in range(2):
        col = bf16(a[:, 32 * i])
        want[0, 32 * i : 32 * i + 32] += col
        want[1, 32 * i : 32 * i + 32] += col[::-1]
    np.testing.assert_array_equal(y, want)


def test_a_page_read_whole_in_part_and_transposed(engine):
    """A stage that yields its input as it is, over the whole page, over part of it,
    transposed, and a constant stage."""
    mod = parse_module(PASS)
    rng = np.random.default_rng(2)
    for _ in range(2):
        a = rng.standard_normal((32, 64)).astype(np.float32)
        (y,) = run(mod, "pass", a, engine=engine)
        want = np.empty_like(a)
        for i in range(2):
            t = a[:, 32 * i : 32 * i + 32]
            top = np.where(np.arange(32)[:, None] < 16, t, np.float32(0))
            want[:, 32 * i : 32 * i + 32] = ((t + top) + t.T) * np.float32(0.5)
        np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("carry_map", ["d0 * 32 + d1", "d1 * 32 + d0"])
def test_a_carry_that_accumulates(carry_map):
    """`carry' = (carry + v) + v*v`, read where it is written or transposed: the
    compiled engine runs the stage once a trip, handing the page it computed to the
    next trip (laid out in full when it was not computed in order). On integer-exact
    inputs every way gives the trip-by-trip numbers bit for bit; on random inputs
    each stays within the fp32 bound of fp64."""
    mod = parse_module(ACCUMULATE.replace("CARRY_MAP", carry_map))
    transposed = carry_map.startswith("d1")
    rng = np.random.default_rng(0)
    for exact in (True, False):
        a = (
            rng.integers(-8, 9, (32, 96)).astype(np.float32)
            if exact
            else rng.standard_normal((32, 96)).astype(np.float32)
        )
        want = np.zeros((32, 32), np.float64)
        mag = np.zeros((32, 32), np.float64)
        for t in range(3):
            v = a[:, 32 * t : 32 * t + 32].astype(np.float64)
            want = ((want.T if transposed else want) + v) + v * v
            mag = (mag.T if transposed else mag) + np.abs(v) + v * v
        for r in all_ways(mod, "acc", [a]):
            (y,) = r.outputs
            if exact:
                np.testing.assert_array_equal(y, want.astype(np.float32))
            else:
                assert (np.abs(y - want) <= 8 * U32 * mag + 1e-30).all()


def test_stores_inside_a_k_loop():
    """A K loop that stores each trip's page into an output and a state tensor."""
    mod = parse_module(COPY_BY_K)
    rng = np.random.default_rng(3)
    x, acc = (rng.standard_normal((32, 64)).astype(np.float32) for _ in range(2))
    for r in all_ways(mod, "copy_k", [x, acc]):
        for out in r.outputs:
            np.testing.assert_array_equal(out, x)
        (p,) = r.traffic.programs
        assert (p.loaded, p.stored) == ({"x": 8192}, {"y": 8192, "acc": 8192})


# --------------------------------------------------------------------------------------
# The contraction (the fast path of a product body) against einsum
# --------------------------------------------------------------------------------------

# Axes: a, b, ... in order; the output keeps what the spec's right side names.
EINSUMS = [
    "ace,abcde,abcd->abd",  # trips kept, blocks summed, one scale: the lowered GEMV
    "acdf,abdef,abde->abce",  # ... with rows (the m > 1 GEMM)
    "bc,bcd,bd->d",  # blocks summed, no kept axis
    "abc,abcd,abd,ab->ad",  # two factors besides the pair
    "abc,abcd,ad->ad",  # a factor without the summed axis
    "abc,abcd->abd",  # every batch axis kept
]


@settings(max_examples=300, deadline=None)
@given(
    tile=st.sampled_from([(32, 32), (4, 8), (2, 2)]),
    block=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    lead=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    lead_steps=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    ragged=st.booleans(),
    axes=st.lists(st.tuples(st.integers(1, 6), st.integers(0, 70)), min_size=1, max_size=3),
    chunk=st.sampled_from([1 << 16, 7]),
)
def test_a_placed_page_found_strided_without_its_index_is_the_same_access(
    tile, block, lead, lead_steps, ragged, axes, chunk
):
    """`placed_view` (strides read off a few elements, then checked a chunk at a time)
    gives exactly the access `page_index` + `Access.of` build from whole index arrays,
    and, where every lead position's block rows lie alike, declines exactly where that
    one is not a view of affine lead and page parts."""
    from xdsl_spatial.core.geometry import PageGeometry
    from xdsl_spatial.interpreters import layout as L

    bh, bw = block
    g = PageGeometry(tile, block, row_len=bw * tile[1] * 3)
    t, i = np.meshgrid(np.arange(lead[0]), np.arange(lead[1]), indexing="ij")
    rows = np.arange(bh) * tile[0] * g.row_len
    origins = (t * lead_steps[0] * bh * tile[0] * g.row_len + i * lead_steps[1] * bw * tile[1])[
        ..., None
    ] + rows
    if ragged and origins.size > bh:
        origins.reshape(-1, bh)[-1, -1] += 1  # one lead position's last row elsewhere
    placed = L.Placed(0, origins.astype(np.int64), g)
    # The page elements a stage map reaches: a sum of aranges, folded into the page.
    e = np.zeros((1,) * len(axes), np.int64)
    for d, (n, c) in enumerate(axes):
        e = e + c * np.arange(n).reshape([n if j == d else 1 for j in range(len(axes))])
    e = e % g.size
    index = L.page_index(placed, e, lead)
    assert index is not None
    lead_part, inner = index
    want = L.Access.of(lead_part, inner)
    rel = origins - origins[..., :1]
    uniform = bool((rel == rel[:1, :1]).all())  # every lead position's rows alike
    separable = (
        lead_part.shape[2:] == (1,) * e.ndim
        and L.affine_strides(lead_part.reshape(lead)) is not None
        and L.affine_strides(inner) is not None
    )
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(L, "VERIFY_CHUNK", chunk)
        got = L.placed_view(placed, e, lead)
    if uniform:  # the case it is for; else it may decline and leave it to page_index
        assert (got is not None) == separable
    if got is not None:
        assert want.index is None
        assert (got.shape, got.offset, got.strides) == (want.shape, want.offset, want.strides)


@pytest.mark.parametrize("spec", EINSUMS)
@pytest.mark.parametrize("chunk_bytes", [1 << 22, 64])
def test_contraction_equals_einsum(spec, chunk_bytes, monkeypatch):
    """The contraction, its large operand cast a chunk at a time (one block a chunk, or
    all), gives einsum's numbers: bits on integer-exact inputs, the fp32 bound else."""
    from xdsl_spatial.interpreters import stages

    monkeypatch.setattr(stages, "CHUNK_BYTES", chunk_bytes)
    extents = dict(zip("abcdef", (3, 5, 4, 7, 2, 3)))
    ins, out = spec.split("->")
    subs = ins.split(",")
    letters = sorted(set("".join(subs)))
    axes = {c: i for i, c in enumerate(letters)}
    big = max(range(len(subs)), key=lambda i: math.prod(extents[c] for c in subs[i]))
    for exact in (True, False):
        rng = np.random.default_rng(len(spec))
        arrays, shaped = [], []
        for i, sub in enumerate(subs):
            shape = [extents[c] for c in sub]
            if i == big:
                a = rng.integers(-127, 128, shape).astype(np.int8)
            elif exact:
                a = rng.integers(-4, 5, shape).astype(np.float32)
            else:
                a = rng.standard_normal(shape).astype(np.float32)
            arrays.append(a)
            full = [extents[c] if c in sub else 1 for c in letters]
            order = sorted(range(len(sub)), key=lambda j: axes[sub[j]])
            shaped.append(a.transpose(order).reshape(full))
        summed = [axes[c] for c in letters if c not in out]
        out_shape = tuple(1 if axes[c] in summed else extents[c] for c in letters)
        c = Contraction([x.shape for x in shaped], summed, out_shape, np.dtype(np.float32))
        got = np.zeros(out_shape, np.float32)
        c.run(shaped, got)
        want = np.einsum(spec, *[a.astype(np.float64) for a in arrays])
        mag = np.einsum(spec, *[np.abs(a.astype(np.float64)) for a in arrays])
        # `got` has every axis in order, summed ones of extent 1; einsum's, `out`'s.
        kept = [ch for ch in letters if ch in out]
        got = got.squeeze(axis=tuple(summed)).transpose([kept.index(ch) for ch in out])
        if exact:
            np.testing.assert_array_equal(got, want.astype(np.float32))
        else:
            n = math.prod(extents[c] for c in letters if c not in out)
            assert (np.abs(got - want) <= (n + 2) * U32 * mag + 1e-30).all()


# --------------------------------------------------------------------------------------
# One semantics: random lowered products through every engine
# --------------------------------------------------------------------------------------


def product(m, k, n, act, scale):
    return parse_module(
        "builtin.module {\n" + q8_matmul_func("mm", "W", k, n, m, act, scale) + "}\n"
    )


def operands(m, k, n, scale, exact, rng):
    return q8_operands(m, k, n, rng, exact=exact, scale=scale)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**product_cases(700))
def test_engines_agree_on_lowered_products(m, blocks, n, act, scale, acc_tiles, exact, seed):
    """Before and after q8-lower (on a chip that holds the activation's precision), as
    it lowers and with its programs optimised (`optimize=true`: what the engines run
    by default), the reference engine, the compiled engine and its plain twin: the
    same bits on integer-exact inputs, each within the fp32 bound of fp64 on random
    ones; the same bytes, equal to the pass's byte model."""
    k = 32 * blocks
    rng = np.random.default_rng(seed)
    x, q, s = operands(m, k, n, scale, exact, rng)
    want, mag = q8_fp64(x, q, s, act)
    unlowered = execute(product(m, k, n, act, scale), "mm", [x, q, s])
    for optimize in (False, True):
        mod = product(m, k, n, act, scale)
        decisions = lower_q8(mod, acc_tiles=acc_tiles, act=act, optimize=optimize)
        runs = [*all_ways(mod, "mm", [x, q, s]), unlowered]
        for r in runs:
            check_q8_result(r.outputs[0], want, mag, k, exact)
        assert traffic(runs[0]) == traffic(runs[1]) == traffic(runs[2])
        if decisions[0].lowered:
            plan = decisions[0].plan
            assert plan is not None
            (fold,) = [p for p in runs[0].traffic.programs if p.kind == "fold"]
            assert fold.load_bytes == plan.weight_bytes() + plan.view_reads()


def test_an_f32_activation_on_a_bf16_chip_is_rounded_explicitly():
    """The chip holds bf16 activations: an f32 activation is rounded to bf16 by an
    `arith.truncf` before its view, the fold's claim says so, and the numbers are those
    of the rounded activation (the view's bytes counted at 2 a value)."""
    m, k, n = 2, 1024 + 64, 96
    x, q, s = operands(m, k, n, "f32", False, np.random.default_rng(5))
    mod = product(m, k, n, "f32", "f32")
    (d,) = lower_q8(mod)
    text = str(mod)
    assert "arith.truncf" in text and "tensor<2x1088xbf16>" in text
    assert "the f32 activation is rounded to bf16" in text
    want, mag = q8_fp64(x, q, s, "bf16")
    for r in all_ways(mod, "mm", [x, q, s]):
        (y,) = r.outputs
        assert (np.abs(y - want) <= fp32_bound(mag, k + 2)).all()
        (fold,) = [p for p in r.traffic.programs if p.kind == "fold"]
        assert d.plan is not None and fold.loaded["x__q8_rows0"] == d.plan.view_reads()
        assert d.plan.act_bytes == 2
