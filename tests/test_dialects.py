"""The q8 dialect and the spatial dialect's element types, attributes, types and linear
forms from Python; `linalg.matmul` of mixed precision."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spatial_programs import (
    ctx,
    dim,
    first_op,
    origin,
    parse,
    sum_program,
    sym,
    tensor,
    text,
    values,
    verify_error,
)
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BFloat16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntAttr,
    IntegerType,
    ModuleOp,
    bf16,
    f16,
    f32,
    i8,
    i16,
    i32,
)
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.dialects.test import TestOp as TOp
from xdsl.ir.affine import AffineExpr
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.geometry import LinearForm, linear_form
from xdsl_spatial.dialects import linalg_mixed
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
    BufferType,
    LoadOp,
    Numerics,
    NumericsAttr,
    NumericsKindAttr,
    PageType,
    PlanAttr,
    RepackAttr,
    Role,
    RoleAttr,
    TargetAttr,
    TensorHandleType,
    element_bytes,
    element_name,
    format_linear,
)

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
    for spelling in (
        "#spatial.repack<q8_0.values>",
        "#spatial.repack<q8_0.scales [32:64, 0:4096]>",
        '#spatial.repack<q8_0.values [0:1024, 64:128] from "NxGx32">',
    ):
        attr = Parser(ctx(), spelling).parse_attribute()
        assert isinstance(attr, RepackAttr) and str(attr) == spelling
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
