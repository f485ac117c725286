"""A Q8_0 block's lanes' sum on the AMX unit (`spatial-native-kernels{kind=amx}`,
`dialects/x86_amx.py`, `interpreters/native/host.py`): the IR it writes, that upstream
MLIR takes it, and, on a CPU with AMX-BF16, its numbers against the generic lanes'
loop and fp64.

Bits are claimed only on integer-exact inputs (every partial sum exact in fp32, so
neither the unit's order of summation nor its rounding changes one); random inputs are
held to the fp32 summation bound of an fp64 reference. Compiles go to the session's
cache (conftest.py).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch_mlir", reason="the [native] extra (torch-mlir) is not installed")

from q8_operands import check_q8_result, q8_fp64
from test_engines import operands, product
from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, bf16, f32
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.ir_io import parse_module
from xdsl_spatial.dialects.x86_amx import (
    TileLoadOp,
    TileMulFOp,
    TileStoreOp,
    TileType,
    TileZeroOp,
)
from xdsl_spatial.interpreters.native import amx, host
from xdsl_spatial.interpreters.native.compiler import compile_native
from xdsl_spatial.interpreters.native.jit import X86, lower_to_llvm, pipeline
from xdsl_spatial.interpreters.runner import coerce_args, find_function, verified
from xdsl_spatial.passes.convert_spatial_to_linalg import (
    AMX_ROWS,
    ConvertSpatialToLinalgPass,
)
from xdsl_spatial.passes.native_kernels import NativeKernelsPass
from xdsl_spatial.passes.q8_lower import lower_q8

needs_amx = pytest.mark.skipif(
    not host.amx_available(), reason="this CPU has no AMX-BF16, or Linux refuses its tiles"
)


# --------------------------------------------------------------------------------------
# The ops
# --------------------------------------------------------------------------------------


def tile_product() -> ModuleOp:
    """`c[:, 16:] = a . b` for an 8 x 32 bf16 `a` and a 16 x 32 (pairs of rows) `b`."""
    a_t, b_t, c_t = MemRefType(bf16, [8, 32]), MemRefType(bf16, [16, 32]), MemRefType(f32, [8, 16])
    blk = Block(arg_types=[a_t, b_t, c_t])
    with ImplicitBuilder(blk):
        zero = arith.ConstantOp(IntegerAttr(0, IndexType())).result
        a = TileLoadOp(blk.args[0], [zero, zero], TileType(8, 32, bf16)).res
        b = TileLoadOp(blk.args[1], [zero, zero], TileType(16, 32, bf16)).res
        c = TileMulFOp(a, b, TileZeroOp(TileType(8, 16, f32)).res).res
        TileStoreOp(blk.args[2], [zero, zero], c)
        func.ReturnOp()
    return ModuleOp([func.FuncOp("f", ((a_t, b_t, c_t), ()), Region(blk))])


def test_the_tile_ops_print_as_upstream_mlir_reads_them():
    """The ops in MLIR's own syntax, which upstream parses and lowers to LLVM's AMX
    intrinsics (no AMX needed to compile)."""
    mod = tile_product()
    mod.verify()
    text = str(mod)
    assert "x86.amx.tile_mulf %" in text
    assert "!x86.amx.tile<8x32xbf16>" in text
    llvm = str(lower_to_llvm(text, x86=True))
    for intrinsic in ("tileloadd64", "tdpbf16ps", "tilestored64"):
        assert intrinsic in llvm


def test_a_tile_is_at_most_16_rows_of_64_bytes():
    with pytest.raises(VerifyException, match="at most 16 rows of 64 bytes, got 17x32"):
        TileType(17, 32, bf16).verify()
    with pytest.raises(VerifyException, match="got 8x32 of 4-byte elements"):
        TileType(8, 32, f32).verify()


def test_a_tile_product_checks_its_shapes():
    blk = Block(arg_types=[MemRefType(bf16, [8, 32])])
    with ImplicitBuilder(blk):
        zero = arith.ConstantOp(IntegerAttr(0, IndexType())).result
        a = TileLoadOp(blk.args[0], [zero, zero], TileType(8, 32, bf16)).res
        b = TileLoadOp(blk.args[0], [zero, zero], TileType(8, 32, bf16)).res
        op = TileMulFOp(a, b, TileZeroOp(TileType(8, 16, f32)).res)
    with pytest.raises(VerifyException, match=r"expected 8x32 \. 16x32 into 8x16"):
        op.verify()


# --------------------------------------------------------------------------------------
# The conversion
# --------------------------------------------------------------------------------------


def converted(m: int, k: int, n: int, act: str, optimize: bool, amx_on: bool) -> ModuleOp:
    mod = product(m, k, n, act, "f32")
    lower_q8(mod, act=act, optimize=optimize)
    out = parse_module(str(mod))
    NativeKernelsPass("amx" if amx_on else "loop").apply(Context(), out)
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


@pytest.mark.parametrize("optimize", [False, True])
def test_the_lanes_of_8_rows_are_tile_products(optimize):
    """m = 8: the lanes' loop is gone; each trip pairs the weights into right-hand
    tiles of 16 columns, reads one 8-row tile of activations from the bf16 page (once
    a trip), makes a product a tile and stores each, to be read back and scaled: a
    unit's products only after the next unit's are made (the 128 columns: 8 products,
    4 units of 2). Upstream lowers it."""
    plain = converted(8, 256, 128, "bf16", optimize, amx_on=False)
    tiles = converted(8, 256, 128, "bf16", optimize, amx_on=True)
    assert lanes_loops(plain) and not lanes_loops(tiles)
    ops = [o for o in tiles.walk() if o.name.startswith("x86.amx")]
    products = [o for o in ops if isinstance(o, TileMulFOp)]
    assert products and {str(o.acc.type) for o in products} == {"!x86.amx.tile<8x16xf32>"}
    assert sum(isinstance(o, TileStoreOp) for o in ops) == len(products) == 8
    left = TileType(8, 32, bf16)
    assert sum(isinstance(o, TileLoadOp) and o.res.type == left for o in ops) == 1
    first_store = next(i for i, o in enumerate(ops) if isinstance(o, TileStoreOp))
    assert sum(isinstance(o, TileMulFOp) for o in ops[:first_store]) == 4
    # the activation is read as it is, not widened to f32 first
    assert not any(
        isinstance(o, arith.ExtFOp) and o.input.type == bf16
        for g in tiles.walk()
        if isinstance(g, GenericOp)
        for o in g.body.walk()
    )
    lower_to_llvm(str(tiles), x86=True)


@pytest.mark.parametrize(
    ("m", "act", "why"),
    [(AMX_ROWS - 1, "bf16", "too few rows"), (8, "f32", "f32 activations are not exact in bf16")],
)
def test_no_tiles_where_they_do_not_pay_or_would_round(m, act, why):
    """The kernels `amx` build such a product as the kernels `loop` do, IR for IR."""
    mod = converted(m, 256, 512, act, True, amx_on=True)
    assert not any(o.name.startswith("x86.amx") for o in mod.walk()), why
    assert str(mod) == str(converted(m, 256, 512, act, True, amx_on=False)), why


def test_the_engine_uses_tiles_unless_told_not_to(monkeypatch):
    monkeypatch.delenv(host.KERNELS_ENV, raising=False)
    monkeypatch.setenv(amx.AMX_ENV, "off")
    assert not host.choose_kernels().amx
    monkeypatch.setenv(amx.AMX_ENV, "on")
    assert host.choose_kernels().amx == host.amx_available()
    assert X86 in pipeline(1, x86=True) and X86 not in pipeline(1)
    assert X86 in pipeline(2, x86=True)


# --------------------------------------------------------------------------------------
# The numbers, on a CPU with the unit
# --------------------------------------------------------------------------------------


def run_native(m, k, n, x, q, s, optimize: bool, amx_on: bool) -> np.ndarray:
    mod = product(m, k, n, "bf16", "f32")
    lower_q8(mod, act="bf16", optimize=optimize)
    fn = verified(mod, "mm")
    exe = compile_native(fn, kernels="amx" if amx_on else "loop")
    return exe(*coerce_args(find_function(mod, "mm"), [x, q, s])).outputs[0]


@needs_amx
@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("exact", [True, False])
@pytest.mark.parametrize(
    ("m", "blocks", "n"),
    [(2, 8, 128), (3, 37, 144), (8, 8, 128), (9, 37, 144), (17, 12, 256), (32, 64, 320)],
)
def test_tiles_give_the_lanes_loops_numbers(m, blocks, n, exact, optimize):
    """The fewest rows (2, 3), rows in one tile and in two (17, 32), a second group of
    rows (9), K with a tail (37 blocks), N not a multiple of 32 (144): the tiles and
    the generic loop, each the bits of fp64 rounded once on integer-exact inputs,
    within the fp32 bound else."""
    k = 32 * blocks
    assert any(isinstance(o, TileMulFOp) for o in converted(m, k, n, "bf16", optimize, True).walk())
    rng = np.random.default_rng(m * 1000 + blocks)
    x, q, s = operands(m, k, n, "f32", exact, rng)
    want, mag = q8_fp64(x, q, s, "bf16")
    for amx_on in (True, False):
        y = run_native(m, k, n, x, q, s, optimize, amx_on)
        check_q8_result(y, want, mag, k, exact)


@needs_amx
def test_tiles_on_threads():
    """Items on 2 OpenMP threads, each with its tiles (LLVM configures them in the
    function each thread runs): the bits of fp64 on integer-exact inputs."""
    m, k, n = 8, 32 * 16, 256
    x, q, s = operands(m, k, n, "f32", True, np.random.default_rng(8))
    want, mag = q8_fp64(x, q, s, "bf16")
    mod = product(m, k, n, "bf16", "f32")
    lower_q8(mod, act="bf16", optimize=True)
    exe = compile_native(verified(mod, "mm"), threads=2, kernels="amx")
    y = exe(*coerce_args(find_function(mod, "mm"), [x, q, s])).outputs[0]
    check_q8_result(y, want, mag, k, True)
