"""A Q8_0 block's lanes' sum as AVX512-BF16 dot products (`spatial-native-kernels{kind=bf16}`,
`dialects/x86_avx512.py`, `passes/convert_spatial_to_linalg/dot.py`): the op and its
verifier, the IR the conversion writes, that upstream MLIR lowers it (no AVX512-BF16
needed), and, on a CPU with AVX512-BF16, its numbers against the lanes' loop and fp64.

Bits are claimed only on integer-exact inputs (every partial sum exact in fp32, so
neither the instruction's order of summation nor its rounding changes one); random
inputs are held to the fp32 summation bound of an fp64 reference.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, cast

import numpy as np
import pytest

pytest.importorskip("torch_mlir", reason="the [native] extra (torch-mlir) is not installed")

from q8_operands import check_q8_result, q8_fp64
from test_engines import operands, product
from xdsl.context import Context
from xdsl.dialects import arith, scf, vector
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import MemRefType, ModuleOp, VectorType, bf16, f16, f32
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import CopyOp, GenericOp
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.spatial import StageOp
from xdsl_spatial.dialects.x86_avx512 import DotBF16Op
from xdsl_spatial.interpreters.native import host
from xdsl_spatial.interpreters.native.compiler import compile_native
from xdsl_spatial.interpreters.native.jit import lower_to_llvm
from xdsl_spatial.interpreters.runner import coerce_args, find_function, verified
from xdsl_spatial.passes.convert_spatial_to_linalg import ConvertSpatialToLinalgPass
from xdsl_spatial.passes.convert_spatial_to_linalg.dot import DOT_ROWS
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import picked_rows
from xdsl_spatial.passes.native_kernels import NativeKernelsPass
from xdsl_spatial.passes.native_layout import NativeLayoutPass
from xdsl_spatial.passes.q8_lower import lower_q8

needs_bf16 = pytest.mark.skipif(not host.bf16_available(), reason="this CPU has no AVX512-BF16")


def values(*types):
    return xdsl_test.TestOp(result_types=types).results


@pytest.mark.parametrize(
    ("acc", "pairs", "why"),
    [
        (VectorType(f32, [4]), VectorType(bf16, [8]), "accumulates into vector<8xf32> or"),
        (VectorType(f32, [16]), VectorType(f16, [32]), "multiplies vector<32xbf16> pairs"),
        (VectorType(f32, [16]), VectorType(bf16, [16]), "multiplies vector<32xbf16> pairs"),
    ],
)
def test_the_dot_op_verifies_its_shapes(acc, pairs, why):
    a, x = values(acc, pairs)
    with pytest.raises(VerifyException, match=why):
        DotBF16Op(a, x, x).verify()


def test_the_dot_op_takes_both_widths():
    for lanes in (8, 16):
        a, x = values(VectorType(f32, [lanes]), VectorType(bf16, [2 * lanes]))
        DotBF16Op(a, x, x).verify()


def converted(
    m: int, act: str, optimize: bool, kind: str, n: int = 128, scale: str = "f32"
) -> ModuleOp:
    mod = product(m, 256, n, act, scale)
    lower_q8(mod, act=act, optimize=optimize)
    out = parse_module(str(mod))
    NativeKernelsPass(kind).apply(Context(), out)
    ConvertSpatialToLinalgPass().apply(Context(), out)
    return out


def lanes_loops(mod: ModuleOp) -> list[GenericOp]:
    """The generics that sum a block's lanes (a reduction outside a parallel axis)."""
    return [
        g
        for g in mod.walk()
        if isinstance(g, GenericOp)
        and [t.data for t in g.iterator_types] == [IteratorType.REDUCTION, IteratorType.PARALLEL]
    ]


def int8_copies(mod: ModuleOp) -> int:
    return sum(
        isinstance(o, CopyOp)
        and isinstance(t := o.outputs[0].type, MemRefType)
        and str(t.element_type) == "i8"
        for o in mod.walk()
    )


@pytest.mark.parametrize("optimize", [False, True])
def test_the_lanes_of_8_rows_are_dot_products(optimize):
    """m = 8, N = 128: the lanes' loop is gone; the item's 128 columns in 8 loops over
    the pairs, each 8 rows of 16 columns, a `dot` each, each loop converting its pairs
    of weights (one `vector.shuffle` a step); the activation not widened; upstream
    lowers it. Optimised (a fold's rows one stage), the weights are
    read where they are, not copied into a page first."""
    plain = converted(8, "bf16", optimize, "loop")
    dots = converted(8, "bf16", optimize, "bf16")
    assert lanes_loops(plain) and not lanes_loops(dots)
    assert sum(isinstance(o, DotBF16Op) for o in dots.walk()) == 8 * 8
    assert sum(isinstance(o, vector.ShuffleOp) for o in dots.walk()) == 8
    if optimize:
        assert int8_copies(plain) and not int8_copies(dots)
    lower_to_llvm(str(dots), x86=True)


@pytest.mark.parametrize("optimize", [False, True])
def test_dots_scale_their_sums_in_registers(optimize):
    """f32 scales read as they are: each block's sums times its scales added into the
    output in registers (`vector.fma`: 8 rows x 8 column groups of 16 a trip), no
    scratch of sums and no scaling generic. f16 scales (a Q8_0 file's, widened in the
    stage's body) the same, each column group's 16 widened as they are loaded."""
    f32_scales = converted(8, "bf16", optimize, "bf16")
    assert sum(isinstance(o, vector.FMAOp) for o in f32_scales.walk()) == 8 * 8
    assert "_sums" not in str(f32_scales)
    f16_scales = converted(8, "bf16", optimize, "bf16", scale="f16")
    assert any(isinstance(o, DotBF16Op) for o in f16_scales.walk())
    assert sum(isinstance(o, vector.FMAOp) for o in f16_scales.walk()) == 8 * 8
    widened = [
        o
        for o in f16_scales.walk()
        if isinstance(o, arith.ExtFOp) and str(o.input.type) == "vector<16xf16>"
    ]
    assert len(widened) == 8
    assert "_sums" not in str(f16_scales)
    lower_to_llvm(str(f32_scales), x86=True)
    lower_to_llvm(str(f16_scales), x86=True)


def test_fewer_rows_stream_their_weight():
    """Fewer rows than `DOT_ROWS` (one): no dots, the stream's sums, the IR `loop` makes."""
    fewer = converted(DOT_ROWS - 1, "bf16", True, "bf16", n=512)
    assert not any(isinstance(o, DotBF16Op) for o in fewer.walk())
    assert str(fewer) == str(converted(DOT_ROWS - 1, "bf16", True, "loop", n=512))


def test_the_lanes_stay_a_loop_where_dots_would_round():
    mod = converted(8, "f32", True, "bf16", n=512)
    assert lanes_loops(mod), "f32 activations are not exact in bf16"
    assert not any(isinstance(o, DotBF16Op) for o in mod.walk())


def run_native(m, k, n, x, q, s, kernels: str, threads: int = 1, scale: str = "f32") -> np.ndarray:
    mod = product(m, k, n, "bf16", scale)
    lower_q8(mod, act="bf16", optimize=True)
    exe = compile_native(verified(mod, "mm"), threads=threads, kernels=kernels)
    return exe(*coerce_args(find_function(mod, "mm"), [x, q, s])).outputs[0]


@needs_bf16
@pytest.mark.parametrize("exact", [True, False])
@pytest.mark.parametrize(
    ("m", "blocks", "n", "scale"),
    [
        (2, 8, 128, "f32"),
        (3, 5, 64, "f16"),
        (8, 8, 128, "f32"),
        (17, 37, 144, "f32"),
        (32, 64, 320, "f32"),
        (17, 37, 144, "f16"),
    ],
)
def test_dots_give_the_lanes_loops_numbers(m, blocks, n, scale, exact):
    """Few rows (2, 3), a second group of rows (17), K with a tail (37 blocks), N not
    a multiple of 32 (144), f16 scales (widened as they are loaded): the dots and the
    lanes' loop, each the bits of fp64 rounded once on integer-exact inputs (the same
    bits), within the fp32 bound else."""
    k = 32 * blocks
    rng = np.random.default_rng(m * 1000 + blocks)
    x, q, s = operands(m, k, n, scale, exact, rng)
    want, mag = q8_fp64(x, q, s, "bf16")
    dots, loop = (run_native(m, k, n, x, q, s, kind, scale=scale) for kind in ("bf16", "loop"))
    for y in (dots, loop):
        check_q8_result(y, want, mag, k, exact)
    if exact:
        assert dots.tobytes() == loop.tobytes()


@needs_bf16
def test_dots_on_threads():
    """Items on 2 OpenMP threads: the bits of fp64 on integer-exact inputs."""
    m, k, n = 8, 32 * 16, 256
    x, q, s = operands(m, k, n, "f32", True, np.random.default_rng(8))
    want, mag = q8_fp64(x, q, s, "bf16")
    check_q8_result(run_native(m, k, n, x, q, s, "bf16", threads=2), want, mag, k, True)


def laid_converted(m: int, n: int = 128, scale: str = "f16", kind: str = "bf16") -> ModuleOp:
    """`converted`, with the weight laid in tile columns first (`spatial-native-layout`),
    as the native engine lays a model's."""
    mod = product(m, 256, n, "bf16", scale)
    lower_q8(mod, act="bf16", optimize=True)
    out = parse_module(str(mod))
    NativeLayoutPass().apply(Context(), out)
    NativeKernelsPass(kind).apply(Context(), out)
    ConvertSpatialToLinalgPass().apply(Context(), out)
    return out


@pytest.mark.parametrize("kind", ["bf16", "avx512"])
def test_a_unit_of_few_rows_holds_its_outputs_through_the_blocks(kind: str):
    """m = 8 on a laid weight (`dot.held_sums`), summed by `dot`s or by `fma512`'s
    fused multiply-adds: each unit of 16 columns loads its 8 rows' outputs once,
    carries them through an `scf.for` over the 8 blocks (each block's sums times its
    scales added in registers) and stores them once: 8 loads and 8 stores a unit, not
    a block. More rows than the registers hold outputs for (16) scale a block at a
    time, as before."""
    held = laid_converted(8, kind=kind)
    units = 128 // 16
    loads = [
        o
        for o in held.walk()
        if isinstance(o, vector.LoadOp) and str(o.result.type) == "vector<16xf32>"
    ]
    stores = [o for o in held.walk() if isinstance(o, vector.StoreOp)]
    assert len(loads) == len(stores) == 8 * units
    carried = [
        o
        for o in held.walk()
        if isinstance(o, scf.ForOp)
        and len(o.results) == 8
        and any(isinstance(u, vector.FMAOp) for u in o.body.block.ops)
        and any(isinstance(u, scf.ForOp) for u in o.body.block.ops)  # the lanes' loop
    ]
    assert len(carried) == units
    dots = sum(isinstance(o, DotBF16Op) for o in held.walk())
    assert dots == (8 * units if kind == "bf16" else 0)
    lower_to_llvm(str(held), x86=True)
    many = laid_converted(16, kind=kind)
    assert not any(
        isinstance(o, scf.ForOp)
        and any(isinstance(u, vector.FMAOp) for u in o.body.block.ops)
        and any(isinstance(u, scf.ForOp) for u in o.body.block.ops)
        for o in many.walk()
    )


def test_dots_read_their_activation_and_scales_where_they_lie():
    """The dots read the activation's bf16 pairs and the blocks' f16 scales (widened as
    they are loaded) where their tensors hold them: the fold copies neither into a page,
    as it does for the lanes' loop (which also copies its int8 weights; the view
    program's copies are the same for both)."""

    def copies(mod: ModuleOp) -> Counter[str]:
        return Counter(
            str(cast(MemRefType[Any], o.outputs[0].type).element_type)
            for o in mod.walk()
            if isinstance(o, CopyOp)
        )

    loop, dots = copies(laid_converted(8, kind="loop")), copies(laid_converted(8))
    assert loop["f16"] == 1 and dots["f16"] == 0
    assert dots["bf16"] == loop["bf16"] - 1
    assert loop["i8"] == 1 and dots["i8"] == 0


@pytest.mark.parametrize("m", [8, 3])
def test_a_folds_rows_are_gathered_row_by_row(m: int):
    """q8-lower's `result` stage gathers each row's sums into the fold's tile of 32 rows
    by comparing the row's index with each row's (`sum_body`): converted, its rows are
    computed one at a time, each its index a constant (`loops.picked_rows`), and only
    the m rows its store keeps (`loops.read_rows`): one generic of m outputs, where it
    was one generic choosing among all m rows' sums for all 32, and then 4 generics of
    8 rows, 32 - m of them zeros that nothing read."""
    mod = product(m, 256, 128, "bf16", "f32")
    lower_q8(mod, act="bf16", optimize=True)
    out = parse_module(str(mod))
    stage = next(o for o in out.walk() if isinstance(o, StageOp) and o.stage_name.data == "result")
    assert picked_rows([stage]) == 0
    ConvertSpatialToLinalgPass().apply(Context(), out)
    gathers = [
        g
        for g in out.walk()
        if isinstance(g, GenericOp) and any(isinstance(o, arith.SelectOp) for o in g.body.walk())
    ]
    assert len(gathers) == 1 and len(gathers[0].outputs) == m
