"""The interpreter: before and after q8-lower, its traffic, and what it refuses.

Claims of equal bits are made only on integer-exact inputs (`args`, `inputs(...,
small=True)`: small integers, power-of-two scales): every product and partial sum is
then exact in fp32, so no order of summation can change a bit. On random inputs the
claim is the fp32 summation bound against an fp64 reference (`fp32_bound`). Both
engines run every test that is about what a program means (`engine` fixture)."""

from __future__ import annotations

import gc
import math
import weakref
from typing import cast

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from q8_operands import q8_operands
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, IntAttr, ModuleOp, StringAttr
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    BufferType,
    FoldOp,
    LoadOp,
    StageOp,
    StoreOp,
    TargetAttr,
    TensorOp,
    ViewOp,
)
from xdsl_spatial.interpreters.executable import CompileError, compile_function
from xdsl_spatial.interpreters.runner import (
    ENGINES,
    RunError,
    coerce_args,
    execute,
    find_function,
    make_interpreter,
)
from xdsl_spatial.interpreters.traffic import Traffic
from xdsl_spatial.interpreters.values import SpatialRuntimeError, as_f32
from xdsl_spatial.passes.q8_lower import FoldPlan, lower_q8
from xdsl_spatial.tools.spatial_gguf import q8_matmul_func

U32 = 2.0**-24


def module_text(m: int, k: int, n: int, act: str = "bf16", scale: str = "f32") -> str:
    return "builtin.module {\n" + q8_matmul_func("mm", "W", k, n, m, act, scale) + "}\n"


def inputs(m, k, n, rng, scale="f32", small=False):
    return q8_operands(m, k, n, rng, exact=small, scale=scale)


def reference(x, q, s, act="bf16"):
    """fp64 product on the values the chip holds (x rounded to bf16 when bf16)."""
    xr = x.astype(ml_dtypes.bfloat16).astype(np.float64) if act == "bf16" else x.astype(np.float64)
    w = q.astype(np.float64) * np.repeat(s.astype(np.float64), 32, axis=0)
    return xr @ w, np.abs(xr) @ np.abs(w)


def fp32_bound(k: int, magnitude: np.ndarray) -> np.ndarray:
    """Summing k products in fp32 in any order: gamma_k * sum |x||w| (Higham), and
    the scale product's own rounding."""
    gamma = (k + 2) * U32 / (1 - (k + 2) * U32)
    return gamma * magnitude + 1e-30


def run_both(m, k, n, arrays, act="bf16", scale="f32", **target):
    """Before and after q8-lower, on a chip that holds the activation's precision."""
    text = module_text(m, k, n, act, scale)
    before = execute(parse_module(text), "mm", arrays)
    mod = parse_module(text)
    decisions = lower_q8(mod, act=act, **target)
    mod.verify()
    after = execute(mod, "mm", arrays)
    return before, after, decisions, mod


shapes = st.tuples(
    st.integers(1, 32),
    st.integers(1, 96).map(lambda b: 32 * b),
    st.integers(1, 5000),
).filter(lambda s: s[0] * s[1] * s[2] <= 6_000_000)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=shapes,
    act=st.sampled_from(["bf16", "f32"]),
    scale=st.sampled_from(["f32", "f16"]),
    acc_tiles=st.integers(1, 8),
    local_kib=st.sampled_from([None, 256, 512, 1024]),
    seed=st.integers(0, 2**16),
)
def test_lowered_equals_unlowered_and_fp64(shape, act, scale, acc_tiles, local_kib, seed):
    m, k, n = shape
    rng = np.random.default_rng(seed)
    x, q, s = inputs(m, k, n, rng, scale)
    local = None if local_kib is None else local_kib * 1024
    before, after, decisions, _ = run_both(
        m, k, n, [x, q, s], act, scale, acc_tiles=acc_tiles, local_mem=local
    )
    ref, mag = reference(x, q, s, act)
    bound = fp32_bound(k, mag)
    (yb,), (ya,) = before.outputs, after.outputs
    assert yb.shape == ya.shape == (m, n)
    assert (np.abs(yb - ref) <= bound).all()
    assert (np.abs(ya - ref) <= bound).all()
    if decisions[0].lowered:
        assert any(p.kind == "fold" for p in after.traffic.programs)


@settings(max_examples=15, deadline=None)
@given(shape=shapes, scale=st.sampled_from(["f32", "f16"]), seed=st.integers(0, 2**16))
def test_exact_inputs_give_bit_identical_results(shape, scale, seed):
    """Small integers and power-of-two scales: every product and sum is exact in fp32,
    so the order of the sums cannot matter."""
    m, k, n = shape
    x, q, s = inputs(m, k, n, np.random.default_rng(seed), scale, small=True)
    before, after, decisions, _ = run_both(m, k, n, [x, q, s], "bf16", scale)
    ref, _ = reference(x, q, s)
    assert np.array_equal(before.outputs[0], ref.astype(np.float32))
    assert np.array_equal(after.outputs[0], ref.astype(np.float32))
    assert decisions[0].lowered or "bf16 copy" in decisions[0].reason


@pytest.mark.parametrize(
    "m,k,n,scale",
    [(1, 2048, 4096, "f32"), (1, 576, 1536, "f16"), (8, 1536, 100, "f32"), (5, 3200, 4000, "f16")],
)
def test_counted_bytes_equal_the_pass_byte_model(m, k, n, scale):
    x, q, s = inputs(m, k, n, np.random.default_rng(0), scale)
    _, after, decisions, _ = run_both(m, k, n, [x, q, s], "bf16", scale)
    plan = cast(FoldPlan, decisions[0].plan)
    (fold,) = [p for p in after.traffic.programs if p.kind == "fold"]
    assert fold.load_bytes == plan.weight_bytes() + plan.view_reads()
    assert fold.loaded["x__q8_rows0"] == plan.view_reads()
    assert fold.bytes_per_weight() == pytest.approx(plan.bytes_per_weight())
    assert fold.local_mem == plan.buffer_bytes()


def test_gemv_moves_about_1_13_bytes_per_weight():
    x, q, s = inputs(1, 2048, 4096, np.random.default_rng(1))
    _, after, _, _ = run_both(1, 2048, 4096, [x, q, s])
    (fold,) = [p for p in after.traffic.programs if p.kind == "fold"]
    assert fold.bytes_per_weight() == pytest.approx(1.1328, abs=1e-4)
    assert fold.loaded["W__q8"] == 2048 * 4096
    assert fold.loaded["W__q8_scale"] == 4 * 64 * 4096
    assert fold.stored["y"] == 4 * 32 * 4096  # whole tiles: 32 rows, one real


def test_f16_widens_by_table_to_the_bits_numpy_gives():
    """`as_f32` looks f16 values up in a table: every one of the 65,536 bit patterns
    (zeros, subnormals, infinities, NaNs with their payloads) gives numpy's bits, in
    any layout an engine hands it."""
    every = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    assert np.array_equal(as_f32(every).view(np.uint32), every.astype(np.float32).view(np.uint32))
    strided = every.reshape(256, 256)[::3, 1::2].T
    widened = as_f32(strided)
    assert widened.shape == strided.shape and widened.dtype == np.float32
    assert np.array_equal(widened.view(np.uint32), strided.astype(np.float32).view(np.uint32))
    assert as_f32(np.arange(3, dtype=np.int8)).dtype == np.float32


def test_bf16_argument_takes_float32_rounded_to_nearest_even():
    x = np.full((1, 64), 1.0 + 2.0**-8, dtype=np.float32)  # halfway between two bf16
    x[0, 1] = 1.0 + 3 * 2.0**-8  # halfway, rounds up to even
    q = np.zeros((64, 32), np.int8)
    q[0, 0] = q[1, 1] = 1
    s = np.ones((2, 32), np.float32)
    (y,) = execute(parse_module(module_text(1, 64, 32)), "mm", [x, q, s]).outputs
    assert y[0, 0] == 1.0 and y[0, 1] == 1.0 + 2.0**-6


# --------------------------------------------------------------------------------------
# Refusals
# --------------------------------------------------------------------------------------


def lowered(m=1, k=1024, n=1024, **target):
    mod = parse_module(module_text(m, k, n))
    lower_q8(mod, **target)
    mod.verify()
    return mod


def args(m=1, k=1024, n=1024):
    """Integer-exact inputs (small integers, power-of-two scales): every partial sum is
    exact in fp32, so runs that add in different orders (batched, in groups, one row at
    a time, through BLAS calls of other shapes) must agree bit for bit."""
    return list(inputs(m, k, n, np.random.default_rng(2), small=True))


def first(mod: ModuleOp, kind, pred=lambda o: True):
    return next(o for o in mod.walk() if isinstance(o, kind) and pred(o))


def replace_op(old, new) -> None:
    """Put `new` where `old` is in its block, its result taking over `old`'s uses."""
    block = old.parent_block()
    assert block is not None
    block.insert_op_before(new, old)
    old.result.replace_all_uses_with(new.result)
    old.detach()
    old.erase()


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    return request.param


def unverified(mod: ModuleOp, engine: str, a) -> tuple:
    """Run `mm` with `engine` without verifying it first (what `execute` does): the
    engine's own checks, the ones a program built or changed in Python meets."""
    fn = find_function(mod, "mm")
    arrays = coerce_args(fn, a)
    if engine == "compiled":
        return compile_function(fn)(*arrays).outputs
    return make_interpreter(mod, Traffic()).call_op(fn, tuple(arrays))


REFUSED = (CompileError, SpatialRuntimeError)


def test_argument_of_the_wrong_shape_is_named():
    a = args()
    a[1] = a[1][:, :128]
    with pytest.raises(RunError, match=r"arg1 \(%W__q8\) must have shape 1024x1024, got 1024x128"):
        execute(lowered(), "mm", a)


def test_int8_argument_refuses_floats_and_float_argument_refuses_ints():
    a = args()
    a[1] = a[1].astype(np.float32)
    with pytest.raises(RunError, match=r"arg1 \(%W__q8\) is int8 but the array holds float32"):
        execute(lowered(), "mm", a)
    a = args()
    a[0] = np.ones((1, 1024), np.int32)
    with pytest.raises(RunError, match=r"arg0 \(%x\) is bfloat16 but the array holds int32"):
        execute(lowered(), "mm", a)


def test_wrong_argument_count_and_unknown_function():
    with pytest.raises(RunError, match="takes 3 arguments, got 2"):
        execute(lowered(), "mm", args()[:2])
    with pytest.raises(RunError, match=r"no function @nope .*mm"):
        execute(lowered(), "nope", args())


def test_load_outside_its_tensor_is_refused_at_run_time(engine):
    mod = lowered()
    load = first(mod, LoadOp, lambda o: cast(TensorOp, o.tensor.owner).tensor_name.data == "W__q8")
    origin = load.origin.data
    load.properties["origin"] = AffineMapAttr(
        AffineMap(0, origin.num_symbols, (origin.results[0] + 1000,))
    )
    with pytest.raises(VerifyException, match="runs outside tensor 'W__q8'"):
        mod.verify()
    message = r"load block 32x8 at tile 1000 .* runs outside tensor 'W__q8' \(32x32 tiles\) for item 0 at K block 0"
    with pytest.raises(RunError, match="does not verify: " + message):
        execute(mod, "mm", args(), engine=engine)
    with pytest.raises(
        REFUSED, match=r'spatial.fold "q8_gemv_1024x1024_w8": spatial.load: ' + message
    ):
        unverified(mod, engine, args())


def test_buffers_beyond_local_memory_are_refused(engine):
    mod = lowered()
    fold = first(mod, FoldOp)
    fold.properties["target"] = TargetAttr(local_mem=64 * 1024)
    with pytest.raises(VerifyException, match="buffers need .* bytes of local memory"):
        mod.verify()
    with pytest.raises(
        RunError, match="buffers need .* bytes of local memory but a site has 65536"
    ):
        execute(mod, "mm", args(), engine=engine)
    with pytest.raises(REFUSED, match="buffers need .* bytes of local memory but a site has 65536"):
        unverified(mod, engine, args())


def test_output_tile_no_item_writes_is_refused(engine):
    mod = lowered()
    fold = first(mod, FoldOp)
    (items,) = fold.grid_shape
    # One item fewer: the last item's tiles of y stay unwritten.
    fold.properties["grid"] = type(fold.grid).from_list(fold.grid.elt_type, [items - 1])
    with pytest.raises(VerifyException):
        mod.verify()
    with pytest.raises(RunError, match="does not verify"):
        execute(mod, "mm", args(), engine=engine)
    with pytest.raises(
        REFUSED,
        match=r"spatial.return: tile \(0, 24\) of output 'y' is written by no item \(8 of 32",
    ):
        unverified(mod, engine, args())


def test_a_page_that_does_not_fit_its_store_block_is_refused(engine):
    mod = lowered()
    store = first(first(mod, FoldOp), StoreOp)
    store.properties["block"] = type(store.block).from_list(store.block.elt_type, [1, 1])
    with pytest.raises(RunError, match="store block 1x1 moves 1 tiles but the page holds 8"):
        execute(mod, "mm", args(), engine=engine)


def test_two_items_writing_one_tile_is_refused(engine):
    mod = lowered()
    store = first(first(mod, FoldOp), StoreOp)
    origin = store.origin.data
    store.properties["origin"] = AffineMapAttr(
        AffineMap(0, origin.num_symbols, (AffineExpr.constant(0),))
    )
    with pytest.raises(RunError, match=r"items 0 and 1 both (own|write) tile \(0, 0\) of 'y'"):
        execute(mod, "mm", args(), engine=engine)
    with pytest.raises(
        REFUSED, match=r"spatial\.\w+: items 0 and 1 both write tile \(0, 0\) of 'y'"
    ):
        unverified(mod, engine, args())


def test_indirect_access_outside_its_page_is_refused(engine):
    """The verifier leaves a stage's reads through a table to the engines."""
    mod = lowered(m=4, k=1024, n=256)
    lanes = first(mod, TensorOp, lambda t: "__lanes" in t.tensor_name.data)
    vals = lanes.values
    assert vals is not None
    bad = np.asarray(vals.get_values()).copy()
    bad[3] = 2**15 - 1  # past the 32-tile page of x
    lanes.properties["values"] = type(vals).from_list(vals.get_type(), bad.tolist())
    mod.verify()
    with pytest.raises(
        RunError, match="stage 'lift_rows' input #0 reaches elements 0..33759 of a 32-tile page"
    ):
        execute(mod, "mm", args(4, 1024, 256), engine=engine)


# --------------------------------------------------------------------------------------
# Mutations: the interpreter runs the program, not the matmul it came from
# --------------------------------------------------------------------------------------


def outputs(mod, a, engine="compiled"):
    return execute(mod, "mm", a, engine=engine).outputs[0]


def test_changing_one_loads_origin_changes_the_output(engine):
    a = args()
    mod = lowered()
    good = outputs(mod, a)
    load = first(
        mod, LoadOp, lambda o: cast(TensorOp, o.tensor.owner).tensor_name.data == "W__q8_scale"
    )
    origin = load.origin.data
    # Every item reads the scales of item 0's columns.
    load.properties["origin"] = AffineMapAttr(
        AffineMap(0, origin.num_symbols, (AffineExpr.constant(0),))
    )
    mod.verify()  # still inside the tensor: a valid, different program
    assert not np.array_equal(outputs(mod, a, engine), good)


def test_changing_one_access_map_changes_the_output(engine):
    a = args()
    mod = lowered()
    good = outputs(mod, a)
    stage = first(mod, StageOp, lambda s: s.stage_name.data == "block")
    maps = list(stage.maps.data)
    m0 = maps[0].data
    d0, d2 = AffineExpr.dimension(0), AffineExpr.dimension(2)
    # The activation's blocks and lanes swapped: x[32 i + b] instead of x[32 b + i].
    maps[0] = AffineMapAttr(AffineMap(m0.num_dims, 0, (d2 * 32 + d0,)))
    stage.properties["maps"] = type(stage.maps)(maps)
    mod.verify()
    assert not np.array_equal(outputs(mod, a, engine), good)
    # One lane further along runs off the page: refused, not read past its end.
    maps[0] = AffineMapAttr(AffineMap(m0.num_dims, 0, (m0.results[0] + 1,)))
    stage.properties["maps"] = type(stage.maps)(maps)
    with pytest.raises(
        RunError, match="stage 'block' input #0 reaches elements 1..1024 of a 1-tile page"
    ):
        outputs(mod, a, engine)


def test_changing_one_stage_body_changes_the_output(engine):
    a = args()
    mod = lowered()
    good = outputs(mod, a)
    stage = first(mod, StageOp, lambda s: s.stage_name.data == "fold_sum")
    add = first(stage, arith.AddfOp)
    replace_op(add, arith.SubfOp(add.lhs, add.rhs))
    mod.verify()
    assert not np.array_equal(outputs(mod, a, engine), good)


def test_changing_a_buffer_depth_changes_the_local_memory_counted():
    a = args()
    mod = lowered()
    before = execute(mod, "mm", a).traffic.programs[-1].local_mem
    buf = first(mod, BufferOp, lambda b: b.buffer_name.data == "in_q8")
    bt = cast(BufferType, buf.result.type)
    replace_op(buf, BufferOp("in_q8", bt.tiles.data, bt.element_type, 3))
    mod.verify()
    after = execute(mod, "mm", a).traffic.programs[-1].local_mem
    assert after - before == bt.tiles.data * 1024  # one more int8 page of the buffer


def test_a_load_repeat_that_disagrees_with_its_loop_is_refused():
    mod = lowered()
    load = first(mod, LoadOp, lambda o: cast(TensorOp, o.tensor.owner).tensor_name.data == "W__q8")
    load.properties["repeat"] = IntAttr(load.repeat.data + 1)
    with pytest.raises(VerifyException, match="load repeat must be its K loop's trip count"):
        mod.verify()


def test_the_k_loop_trips_and_repeats_change_the_counted_bytes():
    """Fold one K block fewer (and say so in every load): fewer bytes, another sum."""
    a = args(1, 2048, 256)
    mod = lowered(1, 2048, 256)
    t_good = execute(mod, "mm", a)
    from xdsl_spatial.dialects.spatial import KLoopOp, PlanAttr

    loop = first(mod, KLoopOp)
    loop.properties["trips"] = IntAttr(1)
    for ld in loop.body.walk():
        if isinstance(ld, LoadOp):
            ld.properties["repeat"] = IntAttr(1)
    fold = first(mod, FoldOp)
    p = fold.plan
    fold.properties["plan"] = PlanAttr(
        (p.grid.data[0].data, p.grid.data[1].data), 1, (p.site.data[0].data, p.site.data[1].data)
    )
    mod.verify()
    t_short = execute(mod, "mm", a)
    good, short = t_good.traffic.programs[-1], t_short.traffic.programs[-1]
    assert short.loaded["W__q8"] == good.loaded["W__q8"] // 2
    assert not np.array_equal(t_short.outputs[0], t_good.outputs[0])


@pytest.mark.parametrize("m,k", [(8, 512), (3, 1024 + 96), (3, 2048 + 96), (1, 5 * 1024 + 96)])
def test_both_engines_give_the_same_bits_and_bytes(m, k):
    """Row stages with and without a K loop (the compiled engine runs them as one
    stage, and a loop's trips at once): the reference's numbers, bit for bit on
    integer-exact inputs, and its bytes."""
    a = args(m, k, 320)
    mod = lowered(m, k, 320, acc_tiles=2)
    ref = execute(mod, "mm", a, engine="reference")
    comp = execute(mod, "mm", a, engine="compiled")
    np.testing.assert_array_equal(comp.outputs[0], ref.outputs[0])
    assert [(p.name, p.loaded, p.stored, p.local_mem) for p in ref.traffic.programs] == [
        (p.name, p.loaded, p.stored, p.local_mem) for p in comp.traffic.programs
    ]


def test_a_module_that_ran_is_freed():
    """Nothing of a module is kept once it is dropped (the engines keep no state on
    IR objects nor in global tables)."""
    a = args(1, 256, 64)
    refs = []
    for engine in ENGINES:
        mod = lowered(1, 256, 64)
        execute(mod, "mm", a, engine=engine)
        refs.append(weakref.ref(mod))
        del mod
    gc.collect()
    assert all(r() is None for r in refs)


def test_a_compiled_function_computes_what_the_module_was():
    """An executable reads the IR once: changing the module afterwards changes what a
    new compile runs, not what the old executable computes."""
    from xdsl_spatial.interpreters.runner import compile_module

    a = coerce_args(find_function(lowered(1, 256, 64), "mm"), args(1, 256, 64))
    mod = lowered(1, 256, 64)
    exe = compile_module(mod, "mm")
    before = exe(*a).outputs[0]
    stage = first(mod, StageOp, lambda s: s.stage_name.data == "tail")
    mul = first(stage, arith.MulfOp)
    replace_op(mul, arith.AddfOp(mul.lhs, mul.rhs))
    mod.verify()
    np.testing.assert_array_equal(exe(*a).outputs[0], before)
    changed = compile_module(mod, "mm")(*a).outputs[0]
    assert not np.array_equal(changed, before)
    np.testing.assert_array_equal(changed, execute(mod, "mm", a, engine="reference").outputs[0])


def test_a_function_changed_after_a_run_runs_as_it_now_is():
    """`execute` compiles what the module is at each call: a renamed function is no
    longer found under its old name, and a program added to its body runs."""
    a = args(1, 256, 64)
    mod = lowered(1, 256, 64)
    assert len(execute(mod, "mm", a).traffic.programs) == 2
    fn = find_function(mod, "mm")
    view = first(mod, ViewOp)
    fn.body.block.insert_op_before(view.clone(), fn.body.block.last_op)
    mod.verify()
    assert [p.kind for p in execute(mod, "mm", a).traffic.programs] == ["view", "fold", "view"]
    fn.sym_name = StringAttr("mm2")
    with pytest.raises(RunError, match="no function @mm in the module"):
        execute(mod, "mm", a)
    assert len(execute(mod, "mm2", a).traffic.programs) == 3


def test_view_program_lays_out_blocks_as_documented(engine):
    """m > 1: view[(kb*m + r)*32 + b, i] = x[r, 1024*kb + 32*b + i], zero past K."""
    m, k = 3, 1600
    x = np.random.default_rng(3).standard_normal((m, k)).astype(np.float32)
    mod = lowered(m, k, 64)
    views = [o for o in mod.walk() if isinstance(o, ViewOp)]
    assert len(views) == 2  # the whole blocks, then the tail
    from xdsl.dialects import func

    fn = first(mod, func.FuncOp)
    fn.body.block.last_op.operands = [views[-1].results[0]]  # return the view instead
    fn.function_type = type(fn.function_type).from_lists(
        fn.function_type.inputs.data, [views[-1].results[0].type]
    )
    (view,) = execute(mod, "mm", [x, *args(m, k, 64)[1:]], engine=engine).outputs
    xb = x.astype(ml_dtypes.bfloat16)
    want = np.zeros((m * math.ceil(k / 1024) * 32, 32), ml_dtypes.bfloat16)
    for kb in range(math.ceil(k / 1024)):
        for r in range(m):
            for b in range(32):
                lo = 1024 * kb + 32 * b
                if lo < k:
                    want[(kb * m + r) * 32 + b] = xb[r, lo : lo + 32]
    assert np.array_equal(view, want)


def test_run_again_reuses_the_executable_until_the_module_changes(monkeypatch):
    """`run` on a module it ran before neither verifies nor compiles it again; any
    change to the module (here an attribute added to an op) compiles it anew."""
    from xdsl.dialects.builtin import UnitAttr

    from xdsl_spatial.interpreters import runner

    compiled: list[str] = []
    real = runner.compile_function

    def counting(fn, *rest):
        compiled.append(fn.sym_name.data)
        return real(fn, *rest)

    monkeypatch.setattr(runner, "compile_function", counting)
    a = args(1, 256, 64)
    mod = lowered(1, 256, 64)
    (y1,) = runner.run(mod, "mm", *a)
    (y2,) = runner.run(mod, "mm", *a)
    assert compiled == ["mm"] and y1.tobytes() == y2.tobytes()
    other = lowered(1, 256, 64)
    runner.run(other, "mm", *a)
    assert compiled == ["mm", "mm"]  # another module, its own executable
    next(iter(mod.walk())).attributes["touched"] = UnitAttr()
    (y3,) = runner.run(mod, "mm", *a)
    assert compiled == ["mm", "mm", "mm"] and y3.tobytes() == y1.tobytes()
    runner.run(mod, "mm", *a)
    assert len(compiled) == 3
