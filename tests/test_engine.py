"""The program runner on hand-written programs: how pages pass from stage to stage.

Each program is checked against the numbers worked out by hand in numpy, so a
shortcut the runner takes (a page kept as its stage's values, broadcast axes and all,
laid out only when needed) must give what laying every page out would."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from xdsl_spatial.dialects.spatial import ProgramOp
from xdsl_spatial.interpreters import contract, engine
from xdsl_spatial.interpreters.runner import execute, run
from xdsl_spatial.ir_io import parse_module

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


def bf16(a: np.ndarray) -> np.ndarray:
    return a.astype(ml_dtypes.bfloat16).astype(np.float32)


def test_pages_passed_between_stages():
    """A page written in part (its unwritten elements read as zero), rounded to bf16
    as it is written, read back in order and through a table; a constant page; two
    stores of them."""
    a = np.random.default_rng(0).standard_normal((32, 64)).astype(np.float32)
    (y,) = run(parse_module(PAGES), "pages", a)
    want = np.full((40, 64), 2.0, np.float32)
    for i in range(2):
        col = bf16(a[:, 32 * i])
        want[0, 32 * i : 32 * i + 32] += col
        want[1, 32 * i : 32 * i + 32] += col[::-1]
    np.testing.assert_array_equal(y, want)


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


def test_a_stage_that_passes_its_page_on_and_a_constant_stage():
    """A stage that yields its input as it is, over the whole page and where it reads,
    hands the page on; one over part of the page, or reading elsewhere, does not. A
    stage of no inputs is the same page every run."""
    mod = parse_module(PASS)
    view = next(o for o in mod.walk() if isinstance(o, ProgramOp))
    passes = {st.name: st.passes for st in engine._compile(view).stages.values()}
    assert passes == {"copy": True, "top": False, "flip": False, "k": False, "sum": False}
    rng = np.random.default_rng(2)
    for _ in range(2):  # the second run takes the constant page made by the first
        a = rng.standard_normal((32, 64)).astype(np.float32)
        (y,) = run(mod, "pass", a)
        want = np.empty_like(a)
        for i in range(2):
            t = a[:, 32 * i : 32 * i + 32]
            top = np.where(np.arange(32)[:, None] < 16, t, np.float32(0))
            want[:, 32 * i : 32 * i + 32] = ((t + top) + t.T) * np.float32(0.5)
        np.testing.assert_array_equal(y, want)


# A contraction as stages use it: the big operand (int8 values) cast a slice at a
# time, batch axes kept (K trips) or summed (Q8_0 blocks), factors multiplied in.
EINSUMS = [
    "ace,abcde,abcd->abd",  # trips kept, blocks summed, one scale: the lowered GEMV
    "acdf,abdef,abde->abce",  # ... with rows (the m > 1 GEMM)
    "bc,bcd,bd->d",  # blocks summed, no kept axis
    "abc,abcd,abd,ab->ad",  # two factors (multiplied in one by one)
    "abc,abcd,ad->ad",  # a factor without the summed axis
    "bc,cd->bd",  # a plain matrix product
    "abc,abcd->abd",  # every batch axis kept
    "bc,bc,b->",  # everything summed (a single number)
]


@pytest.mark.parametrize("spec", EINSUMS)
@pytest.mark.parametrize("chunk,whole", [(1 << 20, 1 << 20), (64, 1 << 20), (64, 0)])
def test_contraction_equals_einsum(spec, chunk, whole, monkeypatch):
    """Every path of the staged contraction (slices of one block or many, products
    scaled per slice or per run of blocks) gives numpy's einsum."""
    monkeypatch.setattr(contract, "CHUNK_ELEMS", chunk)
    monkeypatch.setattr(contract, "P_WHOLE", whole)
    rng = np.random.default_rng(len(spec) + chunk + whole)
    inputs, _ = spec.split("->")
    extents = dict(zip("abcdef", (3, 5, 4, 7, 2, 3)))
    subs = inputs.split(",")
    big = max(range(len(subs)), key=lambda i: math.prod(extents[c] for c in subs[i]))
    arrays = []
    for i, sub in enumerate(subs):
        shape = [extents[c] for c in sub]
        if i == big:
            arrays.append(rng.integers(-127, 128, shape).astype(np.int8))
        else:
            arrays.append(rng.standard_normal(shape).astype(np.float32))
    got = contract.einsum(spec, arrays, contract.Scratch())
    want = np.einsum(spec, *[a.astype(np.float64) for a in arrays])
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


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


@pytest.mark.parametrize("carry_map", ["d0 * 32 + d1", "d1 * 32 + d0"])
def test_a_carry_that_accumulates_runs_the_same_batched(carry_map):
    """A K loop whose carry only accumulates the batch's values (`carry + v + v*v`, the
    carry read where the stage writes) adds them trip by trip on arrays; read anywhere
    else (transposed) it runs its stage once a trip. Both give the numbers of the loop
    run one trip at a time, bit for bit."""
    mod = parse_module(ACCUMULATE.replace("CARRY_MAP", carry_map))
    fold = next(o for o in mod.walk() if isinstance(o, ProgramOp))
    (plan,) = engine._compile(fold).loops.values()
    transposed = carry_map.startswith("d1")
    assert (plan.accum is None) == transposed
    a = np.random.default_rng(0).standard_normal((32, 96)).astype(np.float32)
    want = np.zeros((32, 32), np.float32)
    for t in range(3):
        v = a[:, 32 * t : 32 * t + 32]
        want = ((want.T if transposed else want) + v) + v * v
    for budget in (1, 8 << 20):  # one trip at a time, all three at once
        np.testing.assert_array_equal(execute(mod, "acc", [a], memory_budget=budget).outputs[0], want)


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


def test_stores_inside_a_k_loop_of_batched_loads():
    """A K loop that stores each trip's page (loaded for the batch of trips at once)
    into an output and a state tensor: the same tensors and bytes as trip by trip."""
    mod = parse_module(COPY_BY_K)
    rng = np.random.default_rng(3)
    x, acc = (rng.standard_normal((32, 64)).astype(np.float32) for _ in range(2))
    for budget in (1, 8 << 20):  # one trip at a time, both at once
        r = execute(mod, "copy_k", [x, acc], memory_budget=budget)
        for out in r.outputs:
            np.testing.assert_array_equal(out, x)
        (p,) = r.traffic.programs
        assert (p.loaded, p.stored) == ({"x": 8192}, {"y": 8192, "acc": 8192})


def test_scratch_buffers_start_at_a_cache_line_and_are_reused():
    scratch = contract.Scratch()
    for shape in [(3, 5), (1, 7), (8, 32, 33)]:
        buf = scratch.take("B", shape)
        assert buf.shape == shape and buf.dtype == np.float32
        assert buf.ctypes.data % contract.LINE == 0
    small = scratch.take("B", (2, 2))
    assert np.shares_memory(small, scratch.take("B", (8, 32, 33)))
