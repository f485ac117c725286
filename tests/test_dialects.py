"""The q8 and spatial dialects from Python: builders, verifiers and helpers."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from io import StringIO
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, linalg, math, test
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    bf16,
    f16,
    f32,
    i8,
    i16,
    i32,
)
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.dialects.test import TestOp as TOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.geometry import LinearForm, linear_form
from xdsl_spatial.dialects import linalg_mixed, q8, spatial
from xdsl_spatial.dialects.q8 import (
    Q8_BLOCK,
    DequantizeOp,
    Q8Part,
    Q8PartAttr,
    Q8Source,
    Q8SourceAttr,
    QuantizeOp,
    stored_name,
    stored_part,
)
from xdsl_spatial.dialects.spatial import (
    CHIP_FIELDS,
    DEFAULT_PRESET,
    TARGET_PRESETS,
    BufferOp,
    BufferType,
    FoldOp,
    IndexOp,
    IterKind,
    KLoopOp,
    KYieldOp,
    LoadOp,
    Numerics,
    NumericsAttr,
    NumericsKindAttr,
    PageType,
    PlanAttr,
    ProgramOp,
    RepackAttr,
    ReturnOp,
    Role,
    RoleAttr,
    StageOp,
    StoreOp,
    TargetAttr,
    TensorHandleType,
    TensorOp,
    ViewOp,
    YieldOp,
    element_bytes,
    element_name,
    format_linear,
)

# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


def ctx() -> Context:
    c = Context()
    for d in (
        builtin.Builtin,
        func.Func,
        arith.Arith,
        linalg.Linalg,
        math.Math,
        test.Test,
        q8.Q8,
        spatial.Spatial,
    ):
        c.load_dialect(d)
    return c


def text(op: Operation, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(op)
    return out.getvalue()


AttributeT = TypeVar("AttributeT", bound=Attribute)


def parse(src: str) -> ModuleOp:
    return Parser(ctx(), src).parse_module()


def values(*types: Attribute) -> list[SSAValue]:
    """SSA values of the given types, from a test.op."""
    return list(TOp(result_types=types).res)


def tensor(shape: Sequence[int], elem: AttributeT) -> TensorType[AttributeT]:
    return TensorType(elem, shape)


def first_op(m: ModuleOp) -> Operation:
    op = m.body.block.first_op
    assert op is not None
    return op


def sym(i: int = 0) -> AffineExpr:
    return AffineExpr.symbol(i)


def dim(i: int) -> AffineExpr:
    return AffineExpr.dimension(i)


def origin(expr: AffineExpr | int, n: int = 1) -> AffineMap:
    e = AffineExpr.constant(expr) if isinstance(expr, int) else expr
    return AffineMap(0, n, (e,))


def verify_error(op: Operation, message: str) -> None:
    with pytest.raises(VerifyException, match=re.escape(message)):
        op.verify()


def verify_op_error(op: Operation, message: str) -> None:
    """The verifier of one op, placed in an (otherwise empty) program."""
    in_program(op)
    verify_error(op, message)


def in_program(*ops: Operation) -> ViewOp:
    """A program around `ops`, so that their ancestor traits hold."""
    block = Block(arg_types=[IndexType()])
    block.add_ops([*ops, ReturnOp([])])
    return ViewOp(
        "host",
        grid=[1],
        owns=AffineMap(1, 0, (AffineExpr.constant(0),) * 2),
        owns_size=(1, 1),
        target=TargetAttr(),
        plan=PlanAttr((1, 1), 1, (1, 1)),
        numerics=NumericsAttr(Numerics.EXACT),
        ins=[],
        result_types=[],
        body=Region(block),
    )


# --------------------------------------------------------------------------------------
# Program builders: a two-item copy, and a one-item K-loop sum that uses every op
# --------------------------------------------------------------------------------------

X = tensor((32, 64), f32)
XH = TensorHandleType((32, 64), f32, Role.INPUT)
YH = TensorHandleType((32, 64), f32, Role.OUTPUT)


def copy_program(
    *,
    grid: Sequence[int] = (2,),
    owns: AffineMap | None = None,
    size: tuple[int, int] = (1, 1),
    target: TargetAttr | None = None,
    plan: PlanAttr | None = None,
    load_origin: AffineMap | None = None,
    load_repeat: int = 1,
    store_origin: AffineMap | None = None,
    y: TensorHandleType = YH,
    result_types: Sequence[Attribute] = (X,),
    returns: Callable[[SSAValue, SSAValue], list[SSAValue]] = lambda xt, yt: [yt],
    extra: Callable[[Block], None] = lambda block: None,
    program: type[ProgramOp] = ViewOp,
) -> tuple[ModuleOp, ProgramOp]:
    """Item `i` copies tile `i` of a 32x64 f32 tensor; the knobs break one thing."""
    (x,) = values(X)
    block = Block(arg_types=[IndexType()] * len(grid) + [X])
    i = block.args[0]
    xt = TensorOp("x", XH, source=block.args[len(grid)])
    yt = TensorOp("y", y)
    buf = BufferOp("b", 1, f32, 2)
    ld = LoadOp(xt.result, buf.result, load_origin or origin(sym()), [i], (1, 1), 2, load_repeat)
    store = StoreOp(ld.result, yt.result, store_origin or origin(sym()), [i], (1, 1), 2)
    block.add_ops([xt, yt, buf, ld, store])
    extra(block)
    block.add_op(ReturnOp(returns(xt.result, yt.result)))
    op = program(
        "copy",
        grid=grid,
        owns=owns or AffineMap(1, 0, (AffineExpr.constant(0), dim(0))),
        owns_size=size,
        target=target or TargetAttr(),
        plan=plan or PlanAttr((1, 2), 1, (1, 1)),
        numerics=NumericsAttr(Numerics.EXACT),
        ins=[x],
        result_types=result_types,
        body=Region(block),
    )
    assert isinstance(x.owner, Operation)
    return ModuleOp([x.owner, op]), op


def stage_body(arg_types: Sequence[Attribute], build: Callable[[Block], SSAValue]) -> Region:
    block = Block(arg_types=arg_types)
    block.add_op(YieldOp(build(block)))
    return Region(block)


def add_op(block: Block, op: Operation) -> SSAValue:
    block.add_op(op)
    return op.results[0]


def sum_program() -> tuple[ModuleOp, dict[str, Operation]]:
    """
    y (one tile) = sum of x's two column tiles, carried through a 2-trip K loop,
    then row 0 doubled through an index select: every spatial op, built from Python.
    """
    (x,) = values(X)
    block = Block(arg_types=[IndexType(), X])
    item = block.args[0]
    ops: dict[str, Operation] = {}

    def put(name: str, op: Operation, into: Block = block) -> Operation:
        into.add_op(op)
        ops[name] = op
        return op

    xt = put("x", TensorOp("x", XH, source=block.args[1], repack=None))
    yt = put("y", TensorOp("y", TensorHandleType((32, 32), f32, Role.OUTPUT)))
    in_x = put("in_x", BufferOp("in_x", 1, f32, 2))
    run = put("run_sum", BufferOp("run_sum", 1, f32, 2))
    out = put("out", BufferOp("out", 1, f32, 1))
    tile = AffineMap(2, 0, (dim(0) * 32 + dim(1),))

    def zero(b: Block) -> SSAValue:
        return add_op(b, arith.ConstantOp(FloatAttr(0.0, f32)))

    init = put(
        "init",
        StageOp(
            "init_sum",
            [(IterKind.PAR, 32), (IterKind.PAR, 32)],
            [],
            [],
            run.results[0],
            tile,
            stage_body([], zero),
        ),
    )
    body = Block(arg_types=[IndexType(), PageType(1, f32)])
    kb, acc = body.args
    item.name_hint, kb.name_hint, acc.name_hint = "item", "kb", "acc"
    px = put(
        "load",
        LoadOp(
            xt.results[0], in_x.results[0], origin(sym(0) + sym(1), 2), [kb, item], (1, 1), 2, 2
        ),
        body,
    )

    def add(b: Block) -> SSAValue:
        return add_op(b, arith.AddfOp(b.args[0], b.args[1]))

    fold = put(
        "fold",
        StageOp(
            "fold_sum",
            [(IterKind.PAR, 32), (IterKind.PAR, 32)],
            [acc, px.results[0]],
            [tile, tile],
            run.results[0],
            tile,
            stage_body([f32, f32], add),
        ),
        body,
    )
    put("k_yield", KYieldOp([fold.results[0]]), body)
    loop = put("k_loop", KLoopOp(2, [init.results[0]], Region(body)))

    def double_row0(b: Block) -> SSAValue:
        row = add_op(b, IndexOp(0))
        c0 = add_op(b, arith.ConstantOp.from_int_and_width(0, IndexType()))
        first = add_op(b, arith.CmpiOp(row, c0, "eq"))
        twice = add_op(b, arith.AddfOp(b.args[0], b.args[0]))
        return add_op(b, arith.SelectOp(first, twice, b.args[0]))

    result = put(
        "result",
        StageOp(
            "result",
            [(IterKind.PAR, 32), (IterKind.PAR, 32)],
            [loop.results[0]],
            [tile],
            out.results[0],
            tile,
            stage_body([f32], double_row0),
        ),
    )
    put("store", StoreOp(result.results[0], yt.results[0], origin(0, 0), [], (1, 1), 1))
    put("return", ReturnOp([yt.results[0]]))
    prog = FoldOp(
        "row_sum",
        grid=[1],
        owns=AffineMap(1, 0, (AffineExpr.constant(0), AffineExpr.constant(0))),
        owns_size=(1, 1),
        target=TargetAttr(preset="reference"),
        plan=PlanAttr((1, 1), 2, (1, 1)),
        numerics=NumericsAttr(Numerics.APPROX, "fp32 sums"),
        ins=[x],
        result_types=[tensor((32, 32), f32)],
        body=Region(block),
    )
    ops["program"] = prog
    assert isinstance(x.owner, Operation)
    return ModuleOp([x.owner, prog]), ops


# --------------------------------------------------------------------------------------
# q8
# --------------------------------------------------------------------------------------


def test_dequantize_infers_the_weight_type():
    q, s = values(tensor((64, 96), i8), tensor((2, 96), f32))
    op = DequantizeOp(q, s)
    assert op.result.type == tensor((64, 96), f32)
    op.verify()
    op = DequantizeOp(q, s, bf16)
    assert op.result.type == tensor((64, 96), bf16)
    op.verify()


def test_dequantize_takes_f16_scales():
    q, s = values(tensor((64, 96), i8), tensor((2, 96), f16))
    DequantizeOp(q, s).verify()


def test_quantize_infers_values_and_scales():
    (w,) = values(tensor((64, 96), f32))
    op = QuantizeOp(w)
    assert op.values.type == tensor((64, 96), i8)
    assert op.scales.type == tensor((2, 96), f32)
    assert op.exact is None
    op.verify()
    op = QuantizeOp(w, exact=True, scale_type=f16)
    assert op.exact is not None
    assert op.scales.type == tensor((2, 96), f16)
    op.verify()


@pytest.mark.parametrize(
    "types, message",
    [
        ((tensor((48, 96), i8), tensor((2, 96), f32), f32), "got K = 48"),
        (
            (tensor((64, 96), i8), tensor((3, 96), f32), f32),
            "scales must have K/32 = 2 rows, got 3",
        ),
        (
            (tensor((64, 96), i8), tensor((2, 95), f32), f32),
            "scales must have N = 96 columns, got 95",
        ),
        (
            (tensor((64, 96), i16), tensor((2, 96), f32), f32),
            "values must have element type i8, got i16",
        ),
        (
            (tensor((64, 96), i8), tensor((2, 96), Float64Type()), f32),
            "scales must have element type f32, f16 or bf16, got f64",
        ),
        (
            (tensor((64, 96), i8), tensor((2, 96), f32), f16),
            "result must have element type f32 or bf16, got f16",
        ),
        (
            (tensor((64 * 96,), i8), tensor((2, 96), f32), f32),
            "values must be a 2-d tensor (K x N), got rank 1",
        ),
        ((tensor((-1, 96), i8), tensor((2, 96), f32), f32), "values must have a static shape"),
    ],
)
def test_dequantize_verifier(types, message):
    v, s = values(types[0], types[1])
    op = DequantizeOp.build(operands=[v, s], result_types=[tensor((64, 96), types[2])])
    verify_error(op, message)


def test_quantize_verifier_names_the_input():
    (w,) = values(tensor((64, 96), f16))
    verify_error(QuantizeOp(w), "input must have element type f32 or bf16, got f16")
    (w,) = values(tensor((32, 96), f32))
    op = QuantizeOp.build(operands=[w], result_types=[tensor((64, 96), i8), tensor((2, 96), f32)])
    verify_error(op, "input must have the shape of values, 64x96, got 32x96")


def test_stored_names():
    assert Q8_BLOCK == 32
    assert stored_name("W", Q8Part.VALUES) == "W__q8"
    assert stored_name("W", Q8Part.SCALES) == "W__q8_scale"
    assert stored_part("blk.0.attn_q__q8") == ("blk.0.attn_q", Q8Part.VALUES)
    assert stored_part("blk.0.attn_q__q8_scale") == ("blk.0.attn_q", Q8Part.SCALES)
    assert stored_part("x") is None


# --------------------------------------------------------------------------------------
# Element types, attributes and types
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "t, n",
    [
        (i8, 1),
        (IntegerType(1), 1),
        (i16, 2),
        (i32, 4),
        (bf16, 2),
        (f16, 2),
        (f32, 4),
        (IndexType(), 4),
    ],
)
def test_element_bytes(t, n):
    assert element_bytes(t) == n


def test_element_bytes_refuses_what_the_chip_has_not():
    with pytest.raises(VerifyException, match="element type f64 has no size on the chip"):
        element_bytes(Float64Type())


def test_element_name():
    assert [element_name(t) for t in (i8, bf16, f16, f32)] == ["i8", "bf16", "f16", "f32"]


def test_target_defaults_are_the_wormhole_n150_preset_which_tensix_names_too():
    t = TargetAttr()
    assert DEFAULT_PRESET == "wormhole_n150"
    assert TargetAttr(preset="tensix") == t  # the default's old name: the same numbers
    assert t.tile == (32, 32)
    assert t.tile_elems == 1024
    assert t.local_mem.data == TARGET_PRESETS["tensix"].local_mem == 1536 * 1024
    assert t.acc_tiles.data == 8
    assert isinstance(t.act, BFloat16Type) and isinstance(t.acc, Float32Type)


def test_target_presets_and_overrides():
    ref = TargetAttr(preset="reference")
    assert ref.local_mem.data == 320 * 1024
    assert ref.acc_tiles.data == 8
    t = TargetAttr(preset="reference", local_mem=65536, acc_tiles=2, act=f32)
    assert (t.local_mem.data, t.acc_tiles.data, t.act) == (65536, 2, f32)
    assert TargetAttr(tile=(16, 32)).tile == (16, 32)
    assert all(p.doc for p in TARGET_PRESETS.values())


@pytest.mark.parametrize("name", sorted(TARGET_PRESETS))
def test_every_presets_numbers_round_trip_through_the_attributes_syntax(name):
    """Each preset prints as its numbers (less the chip's figures the default has) and
    parses back to itself, and each of its numbers is what the preset says."""
    t = TargetAttr(preset=name)
    p = TARGET_PRESETS[name]
    assert (t.local_mem.data, t.acc_tiles.data) == (p.local_mem, p.acc_tiles)
    assert t.chip_figures() == {f: getattr(p.chip, f) for f in CHIP_FIELDS}
    assert t.figures().preset == (name if name not in ("tensix",) else DEFAULT_PRESET)
    text = str(t)
    m = parse(f'"test.op"() {{t = {text}}} : () -> ()')
    assert first_op(m).attributes["t"] == t
    assert (
        first_op(parse(f'"test.op"() {{t = #spatial.target<"{name}">}} : () -> ()')).attributes["t"]
        == t
    )
    default = TARGET_PRESETS[DEFAULT_PRESET]
    for f in CHIP_FIELDS:
        assert (f"{f} = " in text) == (getattr(p.chip, f) != getattr(default.chip, f))


def test_a_targets_chip_figures_parse_in_any_order_and_default_from_the_preset():
    m = parse(
        '"test.op"() {t = #spatial.target<tile = 32x32, act = bf16, acc = f32, '
        "local_mem = 65536, acc_tiles = 4, launch_cycles = 10, sites = 3>} : () -> ()"
    )
    t = first_op(m).attributes["t"]
    assert isinstance(t, TargetAttr)
    want = {**TargetAttr().chip_figures(), "sites": 3, "launch_cycles": 10}
    assert t.chip_figures() == want
    assert str(t).endswith("acc_tiles = 4, sites = 3, launch_cycles = 10>")
    assert t.preset_name() is None and TargetAttr(preset="blackhole_p150").preset_name() == (
        "blackhole_p150"
    )


def test_target_preset_spelling_parses_to_its_numbers():
    m = parse('"test.op"() {t = #spatial.target<"reference">} : () -> ()')
    assert first_op(m).attributes["t"] == TargetAttr(preset="reference")


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: TargetAttr(tile=(0, 32)), "tile must have at least one row and column, got 0x32"),
        (lambda: TargetAttr(act=f16), "activation precision must be bf16 or f32, got f16"),
        (lambda: TargetAttr(acc=bf16), "accumulator precision must be f32, got bf16"),
        (lambda: TargetAttr(local_mem=0), "local memory must be at least 1 byte, got 0"),
        (lambda: TargetAttr(acc_tiles=0), "a site must hold at least 1 accumulator tile, got 0"),
        (lambda: TargetAttr(dram_gb_s=0), "the target's dram_gb_s must be positive, got 0"),
        (lambda: PlanAttr((16,), 1, (1, 1)), "plan grid must be two positive integers, got [16]"),  # type: ignore[arg-type]
        (
            lambda: PlanAttr((1, 16), 1, (1, 0)),
            "plan site must be two positive integers, got [1, 0]",
        ),
        (lambda: PlanAttr((1, 16), 0, (1, 1)), "plan k_blocks must be at least 1, got 0"),
        (lambda: NumericsAttr(Numerics.APPROX), "an 'approx' numerics claim must give its reason"),
        (
            lambda: TensorHandleType((0, 4), f32, Role.INPUT),
            "a spatial tensor is 2-d with positive sizes, got [0, 4]",
        ),
        (
            lambda: TensorHandleType((4, 4), IndexType(), Role.INPUT),
            "a spatial tensor holds ints or floats, got index",
        ),
        (lambda: BufferType(0, f32), "a buffer holds at least 1 tile, got 0"),
        (lambda: BufferType(1, f32, 0), "buffer depth must be at least 1, got 0"),
        (lambda: BufferType(1, IndexType()), "a buffer holds ints or floats, got index"),
        (lambda: PageType(0, f32), "a page holds at least 1 tile, got 0"),
        (lambda: PageType(1, IndexType()), "a page holds ints or floats, got index"),
    ],
)
def test_attributes_verify_themselves(build, message):
    with pytest.raises(VerifyException, match=re.escape(message)):
        build()


def test_numerics():
    assert NumericsAttr(Numerics.EXACT).kind.data == "exact"
    a = NumericsAttr("approx", "fp32 sums")
    assert (a.kind.data, a.reason.data) == ("approx", "fp32 sums")


def test_buffer_bytes():
    assert BufferType(256, i8, 2).bytes(1024) == 2 * 256 * 1024
    assert BufferType(8, f32, 1).bytes(1024) == 8 * 1024 * 4
    assert BufferType(1, bf16, 2).bytes(1024) == 4096
    assert BufferType(3, f32).depth.data == 2  # double-buffered unless told


def test_roles_numerics_and_repacks_are_attributes_of_their_own():
    """A role and a numerics kind are enum attributes: nothing else can be built (the
    parser says what it expected, see invalid_syntax.mlir); a repack is structured."""
    with pytest.raises(ValueError, match="'scratch' is not a valid Role"):
        TensorHandleType((4, 4), f32, "scratch")
    with pytest.raises(ValueError, match="'bogus' is not a valid Numerics"):
        NumericsAttr("bogus")
    h = TensorHandleType((4, 4), f32, "param")
    assert h.role == RoleAttr(Role.PARAM) and h.role.data == Role.PARAM
    assert NumericsAttr("exact").kind == NumericsKindAttr(Numerics.EXACT)
    for text in (
        "#spatial.repack<q8_0.values>",
        "#spatial.repack<q8_0.scales [32:64, 0:4096]>",
        '#spatial.repack<q8_0.values [0:1024, 64:128] from "NxGx32">',
    ):
        attr = Parser(ctx(), text).parse_attribute()
        assert isinstance(attr, RepackAttr) and str(attr) == text
    with pytest.raises(VerifyException, match=r"needs 0 <= start < stop, got \[64:32, 0:8\]"):
        RepackAttr(Q8Part.SCALES, shard=((64, 32), (0, 8)))
    parts = (
        Q8PartAttr(Q8Part.VALUES),
        ArrayAttr([IntAttr(1), IntAttr(2)]),
        Q8SourceAttr(Q8Source.KN),
    )
    with pytest.raises(
        VerifyException, match=r"a repack's shard is \[rows, columns\], got \[1, 2\]"
    ):
        RepackAttr.new(parts)


def test_tensor_handle():
    h = TensorHandleType((2112, 64), i8, Role.PARAM)
    assert h.dims == (2112, 64)
    assert h.role.data == "param"


# --------------------------------------------------------------------------------------
# Linear forms
# --------------------------------------------------------------------------------------


def test_format_linear():
    names = ["d0", "d1", "d2"]
    assert (
        format_linear(dim(2) * 8192 + dim(0) * 256 + dim(1), names, [])
        == "d2 * 8192 + d0 * 256 + d1"
    )
    assert format_linear(AffineExpr.constant(32) + dim(1), names, []) == "d1 + 32"
    assert format_linear(AffineExpr.constant(0), names, []) == "0"
    assert format_linear(dim(0) * -1 + 1, names, []) == "d0 * -1 + 1"
    assert (
        format_linear(sym(0) * 4096 + sym(1) * 8, [], ["%kb", "%item"]) == "%kb * 4096 + %item * 8"
    )
    assert format_linear(dim(0) % 2, names, []) == str(dim(0) % 2)


@given(
    st.integers(-5000, 5000),
    st.lists(st.integers(-9000, 9000), min_size=3, max_size=3),
)
def test_format_linear_reads_back_as_the_same_form(const, coefs):
    e = AffineExpr.constant(const)
    for i, c in enumerate(coefs):
        e = e + dim(i) * c
    src = format_linear(e, ["d0", "d1", "d2"], [])
    m = parse(f'"test.op"() {{m = affine_map<(d0, d1, d2) -> ({src})>}} : () -> ()')
    read = first_op(m).attributes["m"]
    assert isinstance(read, AffineMapAttr)
    assert linear_form(read.data.results[0], 3, 0) == LinearForm(const, tuple(coefs), ())


@settings(deadline=None)  # no timing is claimed: a loaded machine takes its time
@given(st.integers(0, 50), st.integers(-64, 64), st.integers(0, 64))
def test_load_origins_print_and_parse_back(const, kb_step, item_step):
    """Any linear origin prints as text the parser turns back into the same op."""
    module, _ = sum_program()
    load = next(o for o in module.walk() if isinstance(o, LoadOp))
    load.origin = AffineMapAttr(origin(sym(0) * kb_step + sym(1) * item_step + const, 2))
    printed = text(module)
    assert text(parse(printed)) == printed


# --------------------------------------------------------------------------------------
# Building every spatial op
# --------------------------------------------------------------------------------------


def test_every_op_builds_with_inferred_types_and_verifies():
    module, ops = sum_program()
    module.verify()
    assert isinstance(ops["x"], TensorOp) and ops["x"].init == "external"
    assert isinstance(ops["y"], TensorOp) and ops["y"].init == "zero"
    assert ops["y"].results[0].type == TensorHandleType((32, 32), f32, Role.OUTPUT)
    assert ops["in_x"].results[0].type == BufferType(1, f32, 2)
    assert ops["out"].results[0].type == BufferType(1, f32, 1)
    load = ops["load"]
    assert isinstance(load, LoadOp)
    assert load.result.type == PageType(1, f32)
    assert load.block_shape == (1, 1)
    init = ops["init"]
    assert isinstance(init, StageOp)
    assert init.result.type == PageType(1, f32)
    assert init.iter_kinds == (IterKind.PAR, IterKind.PAR)
    assert init.iter_extents == (32, 32)
    fold = ops["fold"]
    assert isinstance(fold, StageOp)
    assert fold.indirect_of == (-1, -1)
    assert len(fold.in_maps) == 2
    assert fold.out_map == AffineMap(2, 0, (dim(0) * 32 + dim(1),))
    loop = ops["k_loop"]
    assert isinstance(loop, KLoopOp)
    assert loop.res.types == (PageType(1, f32),)
    assert loop.induction_var.type == IndexType()
    prog = ops["program"]
    assert isinstance(prog, FoldOp)
    assert prog.num_items == 1
    assert prog.buffer_bytes() == 8192 + 8192 + 4096
    result = ops["result"]
    assert isinstance(result, StageOp)
    index = next(o for o in result.body.walk() if isinstance(o, IndexOp))
    assert index.result.type == IndexType()
    assert index.dim.data == 0


def test_built_program_prints_and_parses_back():
    module, _ = sum_program()
    for generic in (False, True):
        printed = text(module, generic)
        again = parse(printed)
        again.verify()
        assert text(again, generic) == printed
    printed = text(module)
    assert 'spatial.fold "row_sum" grid [1] owns (d0) -> (0, 0) size [1, 1]' in printed
    assert (
        "target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 327680, acc_tiles = 8>"
        in printed
    )
    assert 'numerics approx "fp32 sums"' in printed
    assert "spatial.k_loop %kb = 0 to 2 iter_args(%acc = %" in printed
    assert "[%kb + %item] block 1x1 stride 2 repeat 2 into" in printed
    assert re.search(r"= spatial.index 0 : index\n", printed)


def test_tensor_inits():
    (t,) = values(X)
    assert TensorOp("y", YH).zero is not None
    assert TensorOp("x", XH, source=t).init == "external"
    table = DenseIntOrFPElementsAttr.from_list(tensor((1, 2), i32), [1, 0])
    op = TensorOp(
        "perm",
        TensorHandleType((1, 2), i32, Role.PARAM),
        values=table,
        repack=RepackAttr(Q8Part.VALUES),
    )
    assert op.init == "values"
    assert op.repack == RepackAttr(Q8Part.VALUES)
    assert op.zero is None


def test_program_item_coordinates_are_row_major():
    _module, prog = copy_program(
        grid=(2, 3),
        owns=AffineMap(2, 0, (dim(0), dim(1))),
        plan=PlanAttr((2, 3), 1, (1, 1)),
    )
    assert prog.grid_shape == (2, 3)
    assert prog.num_items == 6
    assert prog.item_coords().tolist() == [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]
    assert len(prog.coords) == 2 and len(prog.in_args) == 1


@pytest.mark.parametrize("program", [ViewOp, FoldOp])
def test_copy_program_verifies(program):
    module, prog = copy_program(program=program)
    module.verify()
    assert prog.name == program.name
    assert [t.tensor_name.data for t in prog.tensors()] == ["x", "y"]
    assert [b.buffer_name.data for b in prog.buffers()] == ["b"]
    assert prog.buffer_bytes() == 8192


# --------------------------------------------------------------------------------------
# Verifier errors: a representative subset (invalid.mlir has one case per message)
# --------------------------------------------------------------------------------------


def test_program_rejects_buffers_beyond_local_memory():
    module, _ = copy_program(target=TargetAttr(local_mem=4096))
    verify_error(module, "buffers need 8192 bytes of local memory but a site has 4096 (b 8192)")


def test_program_checks_the_plan():
    module, _ = copy_program(plan=PlanAttr((1, 1), 1, (1, 1)))
    verify_error(module, "plan grid [1, 1] holds 1 items, the program has 2")
    module, _ = copy_program(plan=PlanAttr((1, 2), 1, (1, 2)))
    verify_error(module, "plan site [1, 2] must be the tiles an item owns, [1, 1]")
    module, ops = sum_program()
    ops["program"].properties["plan"] = PlanAttr((1, 1), 3, (1, 1))
    verify_error(module, "plan k_blocks is 3 but the K loop runs 2 trips")


def test_program_checks_what_items_own_and_write():
    module, _ = copy_program(owns=AffineMap(1, 0, (AffineExpr.constant(0),) * 2))
    verify_error(module, "items 0 and 1 both own tile (0, 0) of 'y'")
    module, _ = copy_program(owns=AffineMap(1, 0, (AffineExpr.constant(0), dim(0) + 1)))
    verify_error(module, "item 1 owns tiles (0, 2) size 1x1, outside 'y' (1x2 tiles)")
    module, _ = copy_program(store_origin=origin(1))
    verify_error(module, "items 0 and 1 both write tile (0, 1) of 'y'")
    module, _ = copy_program(grid=(1,), plan=PlanAttr((1, 1), 1, (1, 1)))
    verify_error(module, "tile (0, 1) of output 'y' is written by no item (1 of 2 tiles unwritten)")
    module, _ = copy_program(owns=AffineMap(1, 0, (AffineExpr.constant(0), dim(0) * -1 + 1)))
    verify_error(module, "item 0 writes tile (0, 0) of 'y' outside what it owns")
    module, _ = copy_program(size=(0, 1))
    verify_error(module, "an item owns at least 1x1 tiles, got 0x1")
    module, _ = copy_program(size=(1, 1, 1))  # type: ignore[arg-type]
    verify_error(module, "owns size must be [rows, cols], got [1, 1, 1]")


def test_program_checks_its_results():
    module, _ = copy_program(result_types=(X, X))
    verify_error(module, "program has 2 results but returns 1 tensors")
    module, _ = copy_program(result_types=(tensor((32, 64), bf16),))
    verify_error(module, "result tensor<32x64xbf16> does not match the returned tensor 'y'")
    module, _ = copy_program(returns=lambda xt, yt: [yt, xt], result_types=(X, X))
    verify_error(module, "input tensor 'x' is not a result of the program")
    module, _ = copy_program(
        extra=lambda b: b.add_op(TensorOp("acc", TensorHandleType((32, 64), f32, Role.STATE)))
    )
    verify_error(module, "state tensor 'acc' must be returned once, got 0")


def test_return_takes_declared_tensors():
    handle = TOp(result_types=[YH])
    module, _ = copy_program(
        extra=lambda block: block.add_op(handle), returns=lambda xt, yt: [handle.res[0]]
    )
    verify_error(module, "spatial.return takes tensors declared by spatial.tensor")


def test_load_gives_a_page_of_its_buffer():
    module, prog = copy_program()
    load = next(o for o in prog.walk() if isinstance(o, LoadOp))
    wide = BufferOp("wide", 2, f32)
    prog.entry.insert_op_before(wide, load)
    load.operands[1] = wide.result
    verify_error(module, "load into buffer <2xf32> must give a page of the same tiles, got <1xf32>")


def test_load_checks_its_block_against_the_tensor():
    module, _ = copy_program(load_origin=origin(sym() * 2))
    verify_error(
        module,
        "load block 1x1 at tile 2 (row 0 starts at tile 2) runs outside tensor 'x' (1x2 tiles) for item 1",
    )
    module, _ = copy_program(load_repeat=2)
    verify_error(module, "load repeat must be 1 outside a K loop, 1, got 2")


def test_load_checks_it_runs_inside_the_tensor_at_every_k_block():
    module, ops = sum_program()
    load = ops["load"]
    assert isinstance(load, LoadOp)
    load.origin = AffineMapAttr(origin(sym(0) * 2 + sym(1), 2))
    verify_error(
        module,
        "load block 1x1 at tile 2 (row 0 starts at tile 2) runs outside tensor 'x' (1x2 tiles) for item 0 at K block 1",
    )


def test_origin_uses_only_loop_variables():
    (c,) = values(IndexType())
    c.name_hint = "c1"

    def use_c(block: Block) -> None:
        load = next(o for o in block.ops if isinstance(o, LoadOp))
        load.operands[2] = c

    module, _ = copy_program(extra=use_c)
    verify_error(
        module,
        "load origin may only use item coordinates and the enclosing K loop's index, got %c1",
    )


def test_store_checks_the_role():
    def store_to_x(block: Block) -> None:
        st_ = next(o for o in block.ops if isinstance(o, StoreOp))
        st_.operands[1] = next(o for o in block.ops if isinstance(o, TensorOp)).result

    module, _ = copy_program(extra=store_to_x)
    verify_error(module, "a store writes an output or a state, not an input")


def test_store_through_a_values_table():
    perm = DenseIntOrFPElementsAttr.from_list(tensor((1, 2), i32), [1, 0])
    module, prog = copy_program()
    block = prog.entry
    table = TensorOp("perm", TensorHandleType((1, 2), i32, Role.PARAM), values=perm)
    table.result.name_hint = "perm"
    assert block.first_op is not None
    block.insert_op_before(table, block.first_op)
    old = next(o for o in block.ops if isinstance(o, StoreOp))
    new = StoreOp(
        old.page,
        old.tensor,
        origin(0),
        [prog.coords[0]],
        (1, 1),
        2,
        table=table.result,
        table_at=origin(sym()),
    )
    block.insert_op_before(new, old)
    block.erase_op(old)
    # Item i writes tile perm[i] = 1 - i, but owns tile i ...
    verify_error(module, "item 0 owns but never writes tile (0, 0) of 'y'")
    # ... until it owns tile 1 - i.
    prog.owns = AffineMapAttr(AffineMap(1, 0, (AffineExpr.constant(0), dim(0) * -1 + 1)))
    module.verify()
    assert re.search(r"spatial.store %\w+ to %\w+\[%perm\[%\w+\]\] block 1x1 ", text(module))


def test_tensor_verifier():
    (t,) = values(X)
    verify_error(
        TensorOp("x", TensorHandleType((32, 32), f32, Role.INPUT), source=t),
        "tensor 'x' is 32x32xf32 but is bound to tensor<32x64xf32>",
    )
    verify_error(TensorOp("x", XH), "input tensor 'x' must be external, got zero")
    verify_error(
        TensorOp("y", YH, repack=RepackAttr(Q8Part.VALUES)),
        "only a param has a host repack, 'y' is output",
    )
    op = TensorOp("y", YH)
    op.properties["values"] = DenseIntOrFPElementsAttr.from_list(X, [0.0] * (32 * 64))
    verify_error(
        op, "tensor 'y' needs exactly one init (external, zero or values), got zero and values"
    )


def test_stage_verifier():
    (p,) = values(PageType(1, f32))
    (buf,) = values(BufferType(1, f32, 2))
    tile = AffineMap(2, 0, (dim(0) * 32 + dim(1),))
    par2 = [(IterKind.PAR, 32), (IterKind.PAR, 32)]

    def ident(b: Block) -> SSAValue:
        return b.args[0]

    ok = StageOp("s", par2, [p], [tile], buf, tile, stage_body([f32], ident))
    in_program(ok)
    ok.verify()
    verify_op_error(
        StageOp(
            "s",
            [(IterKind.SUM, 32), (IterKind.PAR, 32)],
            [p],
            [tile],
            buf,
            tile,
            stage_body([f32], ident),
        ),
        "stage 's' output map uses d0, a reduced axis; the reduction has one value per parallel point",
    )
    verify_op_error(
        StageOp(
            "s",
            par2,
            [p],
            [tile],
            buf,
            AffineMap(2, 0, (dim(0) + dim(1),)),
            stage_body([f32], ident),
        ),
        "stage 's' output map (d0 + d1) writes some element twice",
    )
    verify_op_error(
        StageOp(
            "s",
            par2,
            [p],
            [AffineMap(2, 0, (dim(0) * 32 + dim(1) + 1,))],
            buf,
            tile,
            stage_body([f32], ident),
        ),
        "stage 's' input #0 reaches elements 1..1024 of a 1-tile page (1024 elements)",
    )
    verify_op_error(
        StageOp("s", par2, [p], [tile], buf, tile, stage_body([f16], ident)),
        "stage 's' body takes one element per input (f32), got (f16)",
    )
    verify_op_error(
        StageOp(
            "s",
            par2,
            [p],
            [tile],
            buf,
            tile,
            stage_body([f32], lambda b: add_op(b, math.AtanOp(b.args[0]))),
        ),
        "stage 's' body cannot run math.atan on the chip",
    )
    verify_op_error(
        StageOp(
            "s",
            par2,
            [p],
            [tile],
            buf,
            tile,
            stage_body([f32], lambda b: add_op(b, arith.TruncFOp(b.args[0], f16))),
        ),
        "stage 's' yields f16 into a f32 buffer",
    )
    (lanes,) = values(PageType(1, i16))
    gather = AffineMap(2, 1, (dim(0) * 32 + sym(0),))
    gathering = StageOp(
        "s",
        par2,
        [p, lanes],
        [gather, AffineMap(2, 0, (dim(1),))],
        buf,
        tile,
        stage_body([f32, i16], ident),
        indirect=[1, -1],
    )
    in_program(gathering)
    gathering.verify()
    verify_op_error(
        StageOp(
            "s",
            par2,
            [p, p],
            [gather, tile],
            buf,
            tile,
            stage_body([f32, f32], ident),
            indirect=[1, -1],
        ),
        "stage 's' map #0 reads s0 from input 1, which holds f32, not integers",
    )


def test_index_verifier():
    (p,) = values(PageType(1, f32))
    (buf,) = values(BufferType(1, f32, 2))
    tile = AffineMap(2, 0, (dim(0) * 32 + dim(1),))

    def body(b: Block) -> SSAValue:
        add_op(b, IndexOp(2))
        return b.args[0]

    stage = StageOp("s", [(IterKind.PAR, 32)] * 2, [p], [tile], buf, tile, stage_body([f32], body))
    in_program(stage)
    verify_error(
        next(o for o in stage.walk() if isinstance(o, IndexOp)),
        "index 2 is not an axis of stage 's', which has 2",
    )


def test_k_loop_verifier():
    (p,) = values(PageType(1, f32))
    body = Block(arg_types=[IndexType(), PageType(1, f32)])
    body.add_op(KYieldOp([]))
    verify_op_error(
        KLoopOp(2, [p], Region(body)),
        "spatial.k_yield must carry the loop's pages (!spatial.page<1xf32>), got ()",
    )
    body = Block(arg_types=[IndexType()])
    body.add_op(KYieldOp([]))
    verify_op_error(KLoopOp(0, [], Region(body)), "the K loop must run at least once, got 0")
    body = Block(arg_types=[])
    body.add_op(KYieldOp([]))
    verify_op_error(
        KLoopOp(1, [], Region(body)),
        "K loop body arguments must be (index, carried pages) = (index), got ()",
    )


# --------------------------------------------------------------------------------------
# Mixed-precision linalg.matmul
# --------------------------------------------------------------------------------------


def body_ops(op: MatmulOp) -> list[str]:
    return [o.name for o in op.body.block.ops]


def test_mixed_matmul_extends_the_narrow_inputs():
    x, w, acc = values(tensor((4, 64), bf16), tensor((64, 32), bf16), tensor((4, 32), f32))
    op = linalg_mixed.MixedMatmulOp([x, w], [acc], [tensor((4, 32), f32)])
    op.verify()
    assert body_ops(op) == ["arith.extf", "arith.extf", "arith.mulf", "arith.addf", "linalg.yield"]


def test_same_type_matmul_keeps_the_stock_body():
    x, w, acc = values(tensor((4, 64), f32), tensor((64, 32), f32), tensor((4, 32), f32))
    ours = linalg_mixed.MixedMatmulOp.get_hidden_region([x, w], [acc])
    stock = MatmulOp.get_hidden_region([x, w], [acc])
    assert text(ModuleOp([TOp(regions=[ours])])) == text(ModuleOp([TOp(regions=[stock])]))
    op = linalg_mixed.MixedMatmulOp([x, w], [acc], [tensor((4, 32), f32)])
    assert body_ops(op) == ["arith.mulf", "arith.addf", "linalg.yield"]


def test_a_program_too_large_to_check_is_refused_before_it_is_enumerated(monkeypatch):
    """The verifier enumerates every item's tiles; a program whose enumeration alone
    exceeds the memory limit is a diagnostic at once (a fold of N = 2^31 - 1 would take
    11 GB and minutes to check), one that fits is checked as before."""
    from xdsl_spatial.core.ir_io import IRError, parse_module, verify_module
    from xdsl_spatial.passes.q8_lower import lower_q8
    from xdsl_spatial.tools.spatial_gguf import q8_matmul_func

    mod = parse_module(
        "builtin.module {\n" + q8_matmul_func("mm", "W", 1024, 2**20, 1, "bf16", "f32") + "}\n"
    )
    lower_q8(mod)
    verify_module(mod)
    monkeypatch.setenv("XDSL_SPATIAL_MEMORY_LIMIT", "1M")
    with pytest.raises(
        IRError,
        match=(
            r"program 'q8_gemv_1024x1048576_w8': checking its 4,096 items enumerates 131,072 "
            r"tiles at once, 4,194,304 bytes \(4\.0 MiB\), more than the memory limit of "
            r"1,048,576 bytes \(1\.0 MiB\) \(set by XDSL_SPATIAL_MEMORY_LIMIT\)"
        ),
    ):
        verify_module(mod)
