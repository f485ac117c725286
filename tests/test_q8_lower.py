"""q8-lower: the plan helpers against hand-computed numbers, the built programs
against the plan, and lowering as a property over shapes and targets.

The numbers follow docs/lowering.md (the plan and the byte model): 32 x 32 tiles (1024
elements), K blocks of 32 Q8_0 blocks = 1024 rows, a buffer's bytes are
depth x tiles x 1024 x element bytes, and the fold's buffers are

    out       2 x wb tiles fp32                 (depth 2)
    in_x      2 x m tiles of the activation     (K loop only)
    in_q8     2 x 32 x wb tiles int8            (K loop only)
    in_scale  2 x wb tiles of the scale type    (K loop only)
    block_r   m x wb tiles fp32, depth 1        (K loop only)
    run_sum   2 x wb tiles fp32                 (K loop only)
    in_x_tail m tiles, in_q8_tail g x wb tiles, in_scale_tail wb tiles,
    tail_r    m x wb tiles fp32, all depth 1    (tail only)
"""

from __future__ import annotations

from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, ModuleOp
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.utils.exceptions import PassFailedException

from xdsl_spatial.core.ir_io import apply_pipeline, parse_module
from xdsl_spatial.dialects.q8 import Q8Part, stored_name, stored_part
from xdsl_spatial.dialects.spatial import (
    FoldOp,
    KLoopOp,
    LoadOp,
    RepackAttr,
    StoreOp,
    TargetAttr,
    TensorOp,
    ViewOp,
)
from xdsl_spatial.passes.q8_lower import (
    Decision,
    FoldPlan,
    Q8LowerPass,
    ViewPlan,
    choose_wb,
    declines,
    lanes_width,
    lift_rows,
    lower_q8,
    q8_rows_name,
    resolve_target,
    view_rows,
)

TENSIX = TargetAttr(preset="tensix")  # 1572864 B, 8 accumulator tiles
REFERENCE = TargetAttr(preset="reference")  # 327680 B, 8 accumulator tiles
TILE = (32, 32)

_ELEM = {"bf16": BFloat16Type(), "f32": Float32Type(), "f16": Float16Type()}
BF16, F32, F16 = _ELEM["bf16"], _ELEM["f32"], _ELEM["f16"]


def view_buffer_bytes(m, k, act, t):
    return ViewPlan.make(m, k, act, t).buffer_bytes()


def target(local_mem: int | None = None, acc_tiles: int | None = None) -> TargetAttr:
    return TargetAttr(local_mem=local_mem, acc_tiles=acc_tiles)


def product(
    m: int,
    k: int,
    n: int,
    *,
    act: str = "bf16",
    scale: str = "f32",
    form: str = "extf",
    fn: str = "mm",
    weight: str = "W",
) -> str:
    """`y = x . W` over a Q8_0 weight bound from outside, in one of the two spellings
    docs/lowering.md names: `extf` (bf16 x widened into an all-f32 matmul) or `mixed`
    (x as it is against a bf16 dequantisation, MLIR's implicit widening)."""
    q, s = stored_name(weight, Q8Part.VALUES), stored_name(weight, Q8Part.SCALES)
    kb = k // 32
    wt = "f32" if form == "extf" else "bf16"
    lines = [
        f"func.func @{fn}(%x: tensor<{m}x{k}x{act}>, %{q}: tensor<{k}x{n}xi8>, "
        f"%{s}: tensor<{kb}x{n}x{scale}>) -> tensor<{m}x{n}xf32> {{",
        f"  %w = q8.dequantize %{q}, %{s} : tensor<{k}x{n}xi8>, tensor<{kb}x{n}x{scale}>"
        f" -> tensor<{k}x{n}x{wt}>",
    ]
    x, xt = "x", act
    if form == "extf" and act == "bf16":
        lines.append(f"  %xf = arith.extf %x : tensor<{m}x{k}xbf16> to tensor<{m}x{k}xf32>")
        x, xt = "xf", "f32"
    lines += [
        f"  %empty = tensor.empty() : tensor<{m}x{n}xf32>",
        "  %zero = arith.constant 0.000000e+00 : f32",
        f"  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>",
        f"  %y = linalg.matmul ins(%{x}, %w : tensor<{m}x{k}x{xt}>, tensor<{k}x{n}x{wt}>) "
        f"outs(%acc : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>",
        f"  func.return %y : tensor<{m}x{n}xf32>",
        "}",
    ]
    return "\n".join(lines)


def module(*funcs: str, attrs: str = "") -> ModuleOp:
    head = f"builtin.module attributes {{{attrs}}} {{" if attrs else "builtin.module {"
    return parse_module(head + "\n" + "\n".join(funcs) + "\n}\n")


def ops(mod: ModuleOp, kind: type) -> list:
    return [o for o in mod.walk() if isinstance(o, kind)]


# --------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------


def test_stored_names_follow_the_reference():
    assert stored_name("W", Q8Part.VALUES) == "W__q8"
    assert stored_name("W", Q8Part.SCALES) == "W__q8_scale"
    assert stored_name("blk.0.attn_q", Q8Part.SCALES) == "blk.0.attn_q__q8_scale"


def test_stored_part_parses_a_stored_name_back():
    assert stored_part("W__q8") == ("W", Q8Part.VALUES)
    assert stored_part("W__q8_scale") == ("W", Q8Part.SCALES)
    # The scale suffix is tried first: it ends in neither `__q8` nor anything else.
    assert stored_part("a__q8__q8_scale") == ("a__q8", Q8Part.SCALES)
    assert stored_part("a__q8_scale__q8") == ("a__q8_scale", Q8Part.VALUES)
    # As the reference's strip_suffix: an empty weight name is still a stored name.
    assert stored_part("__q8") == ("", Q8Part.VALUES)
    assert stored_part("W") is None
    assert stored_part("W__q8_scales") is None
    assert stored_part("W_q8") is None


@given(st.text(min_size=0, max_size=20), st.sampled_from(list(Q8Part)))
def test_stored_part_inverts_stored_name(weight, part):
    assert stored_part(stored_name(weight, part)) == (weight, part)


def test_q8_rows_name():
    assert q8_rows_name("x", 0) == "x__q8_rows0"
    assert q8_rows_name("h", 3) == "h__q8_rows3"
    # A tensor-parallel chip's own view of a replicated value.
    assert q8_rows_name("x", 1, chip=2) == "x__q8_rows1_c2"


# --------------------------------------------------------------------------------------
# Preconditions
# --------------------------------------------------------------------------------------


def test_declines_only_what_the_fold_cannot_hold():
    assert declines(1, 2048, 4096, TENSIX) is None
    assert declines(32, 32, 1, TENSIX) is None
    assert "1 to 32" in cast(str, declines(0, 2048, 4096, TENSIX))
    assert declines(33, 2048, 4096, TENSIX) == "m = 33 rows; the fold takes 1 to 32 (a tile's rows)"
    assert declines(1, 100, 4096, TENSIX) == (
        "K = 100 is not a positive multiple of the Q8_0 block (32)"
    )
    assert "K = 0" in cast(str, declines(1, 0, 4096, TENSIX))
    assert "K = 48" in cast(str, declines(1, 48, 4096, TENSIX))
    assert declines(1, 2048, 0, TENSIX) == "N = 0 is not positive"
    assert declines(1, 2048, 4096, TargetAttr(tile=(16, 32))) == (
        "the tile must be square with 32 rows (one Q8_0 block), the target's is 16x32"
    )
    assert "32x64" in cast(str, declines(1, 2048, 4096, TargetAttr(tile=(32, 64))))
    # A 64x64 tile is square but not one Q8_0 block tall.
    assert "64x64" in cast(str, declines(1, 2048, 4096, TargetAttr(tile=(64, 64))))


# --------------------------------------------------------------------------------------
# The plan, against hand-computed numbers
# --------------------------------------------------------------------------------------


def test_view_rows():
    assert view_rows(1, 2048) == 64  # K/32
    assert view_rows(1, 576) == 18  # K/32: a tail-only row keeps its 18 rows
    assert view_rows(8, 4096) == 1024  # 8 rows x ceil(4096/1024) = 4 K blocks x 32
    assert view_rows(8, 1536) == 512  # 8 x ceil(1536/1024) = 2 x 32, the tail padded
    assert view_rows(4, 576) == 128  # 4 x 1 x 32
    assert view_rows(32, 1024) == 1024  # 32 x 1 x 32


def test_lift_rows_is_the_largest_divisor_the_accumulator_holds():
    assert lift_rows(8, 8) == 8
    assert lift_rows(32, 8) == 8
    assert lift_rows(12, 8) == 6  # divisors of 12 up to 8: 1, 2, 3, 4, 6
    assert lift_rows(9, 8) == 3  # 1, 3
    assert lift_rows(7, 8) == 7
    assert lift_rows(6, 4) == 3
    assert lift_rows(5, 2) == 1
    assert lift_rows(1, 8) == 1


def test_lanes_width():
    # Entries reach m x page width; i16 while that is below 2^15.
    assert lanes_width(8, 1024) == 16  # 8192
    assert lanes_width(31, 1024) == 16  # 31744
    assert lanes_width(32, 1024) == 32  # 32768
    assert lanes_width(32, 512) == 16  # a 512-wide tail section: 16384


def test_gemv_2048x4096_plan():
    p = FoldPlan(1, 2048, 4096, 8, BF16, F32, TILE)
    assert p.col_tiles == 128  # 4096 / 32
    assert p.n_padded == 4096
    assert p.items == 16  # 128 / 8
    assert p.block_rows == 1024  # 32 Q8_0 blocks of 32 rows
    assert (p.k_blocks, p.tail_blocks, p.x_loads) == (2, 0, 2)
    # out 2*8*1024*4 = 65536, in_x 2*1*1024*2 = 4096, in_q8 2*32*8*1024 = 524288,
    # in_scale 2*8*1024*4 = 65536, block 8*1024*4 = 32768, run_sum 65536.
    assert p.buffer_bytes() == 65536 + 4096 + 524288 + 65536 + 32768 + 65536 == 757760
    # K*Np + 4*(K/32)*Np = 2048*4096 + 4*64*4096.
    assert p.model_weight_bytes() == 8388608 + 1048576 == 9437184
    # No tail: whole scale tile rows are exactly K/32 rows.
    assert p.weight_bytes() == p.model_weight_bytes()
    # items * ceil(K/1024) * m * 1024 * 2.
    assert p.view_reads() == 16 * 2 * 1 * 1024 * 2 == 65536
    assert p.dense_bytes() == 2 * 2048 * 4096 == 16777216
    assert p.model_bytes() == 9502720
    assert p.profitable()
    assert p.bytes_per_weight() == pytest.approx(9502720 / (2048 * 4096))  # 1.1328


def test_tail_only_plan():
    p = FoldPlan(1, 576, 1536, 8, BF16, F32, TILE)
    assert (p.col_tiles, p.items) == (48, 6)
    assert (p.k_blocks, p.tail_blocks, p.x_loads) == (0, 18, 1)  # 576 / 32 = 18
    # out 65536; in_x_tail 1024*2 = 2048, in_q8_tail 18*8*1024 = 147456,
    # in_scale_tail 8*1024*4 = 32768, tail sums 8*1024*4 = 32768.
    assert p.buffer_bytes() == 65536 + 2048 + 147456 + 32768 + 32768 == 280576
    assert p.model_weight_bytes() == 576 * 1536 + 4 * 18 * 1536 == 995328
    # What moves: the scales' one tile row is loaded whole (32 rows, 18 real).
    assert p.weight_bytes() == 576 * 1536 + 4 * 32 * 1536 == 1081344
    assert p.view_reads() == 6 * 1 * 1 * 1024 * 2 == 12288
    assert p.dense_bytes() == 1769472
    assert p.profitable()


def test_block_and_tail_plan():
    p = FoldPlan(1, 1536, 2048, 8, BF16, F32, TILE)
    assert (p.items, p.k_blocks, p.tail_blocks, p.x_loads) == (8, 1, 16, 2)
    # 757760 for the K loop (as 2048x4096) + tail 2048 + 16*8*1024 + 32768 + 32768.
    assert p.buffer_bytes() == 757760 + 2048 + 131072 + 32768 + 32768 == 956416
    assert p.model_weight_bytes() == 1536 * 2048 + 4 * 48 * 2048 == 3538944
    assert p.weight_bytes() == 1536 * 2048 + 4 * 64 * 2048 == 3670016
    assert p.view_reads() == 8 * 2 * 1 * 1024 * 2 == 32768


def test_batch_plan():
    p = FoldPlan(8, 4096, 4096, 8, BF16, F32, TILE)
    assert (p.items, p.k_blocks, p.tail_blocks) == (16, 4, 0)
    # out 65536, in_x 2*8*1024*2 = 32768, in_q8 524288, in_scale 65536,
    # block_0..7 8*8*1024*4 = 262144, run_sum 65536.
    assert p.buffer_bytes() == 65536 + 32768 + 524288 + 65536 + 262144 + 65536 == 1015808
    assert p.model_weight_bytes() == 4096 * 4096 + 4 * 128 * 4096 == 18874368
    assert p.view_reads() == 16 * 4 * 8 * 1024 * 2 == 1048576
    assert p.dense_bytes() == 33554432
    assert p.profitable()


def test_padded_plan():
    p = FoldPlan(4, 4096, 100, 4, BF16, F32, TILE)
    assert (p.col_tiles, p.n_padded, p.items) == (4, 128, 1)  # ceil(100/32) = 4
    # out 2*4*4096 = 32768, in_x 2*4*2048 = 16384, in_q8 2*32*4*1024 = 262144,
    # in_scale 32768, blocks 4*4*4096 = 65536, run_sum 32768.
    assert p.buffer_bytes() == 32768 + 16384 + 262144 + 32768 + 65536 + 32768 == 442368
    # The padded columns move with their tiles: Np = 128.
    assert p.model_weight_bytes() == 4096 * 128 + 4 * 128 * 128 == 589824
    assert p.view_reads() == 1 * 4 * 4 * 2048 == 32768
    assert p.dense_bytes() == 2 * 4096 * 128 == 1048576


def test_f32_activation_and_f16_scales_in_the_byte_model():
    f32 = FoldPlan(1, 2048, 4096, 8, F32, F32, TILE)
    assert f32.buffer_bytes() == 757760 + 4096  # in_x holds 4-byte elements
    assert f32.view_reads() == 16 * 2 * 1024 * 4 == 131072
    f16 = FoldPlan(1, 2048, 4096, 8, BF16, F16, TILE)
    assert f16.buffer_bytes() == 757760 - 32768  # in_scale: 2*8*1024*2
    assert f16.model_weight_bytes() == 2048 * 4096 + 2 * 64 * 4096 == 8912896


def test_the_gate():
    # The reference's site fits wb = 1 at a batch of 16: 128 items read the view.
    p = FoldPlan(16, 4096, 4096, 1, BF16, F32, TILE)
    assert p.view_reads() == 128 * 4 * 16 * 2048 == 16777216
    assert p.model_bytes() == 18874368 + 16777216 == 35651584
    assert not p.profitable()  # >= 33554432
    # A batch of 32 over 2 column tiles reads as much view as weight.
    p = FoldPlan(32, 4096, 64, 2, BF16, F32, TILE)
    assert p.model_weight_bytes() == 4096 * 64 + 4 * 128 * 64 == 294912
    assert p.view_reads() == 1 * 4 * 32 * 2048 == 262144
    assert not p.profitable()  # 557056 >= 2 * 4096 * 64 = 524288
    # Small weights: 64x64 passes (4608 + 2048 < 8192), 64x32 does not
    # (2048 + 256 + 2048 = 4352 >= 4096).
    assert FoldPlan(1, 64, 64, 2, BF16, F32, TILE).profitable()
    assert not FoldPlan(1, 64, 32, 1, BF16, F32, TILE).profitable()
    # Equality refuses: the gate is "<" a bf16 copy.
    p = FoldPlan(1, 64, 32, 1, BF16, F32, TILE)
    assert p.model_bytes() == 4352 and p.dense_bytes() == 4096


def test_choose_wb():
    def wb(m, k, n, t=TENSIX, act=BF16, scale=F32):
        plan = choose_wb(m, k, n, act, scale, t)
        return None if plan is None else plan.wb

    assert wb(1, 2048, 4096) == 8
    # wb = 4 needs out 32768 + in_x 4096 + in_q8 262144 + in_scale 32768 + block
    # 16384 + run_sum 32768 = 380928 B; one byte less and wb = 2 (192512 B).
    assert wb(1, 2048, 4096, target(local_mem=380928)) == 4
    assert wb(1, 2048, 4096, target(local_mem=380927)) == 2
    assert wb(1, 2048, 4096, target(local_mem=393216)) == 4
    # wb = 1 needs 8192 + 4096 + 65536 + 8192 + 4096 + 8192 = 98304 B.
    assert wb(1, 2048, 4096, target(local_mem=98304)) == 1
    assert wb(1, 2048, 4096, target(local_mem=98303)) is None
    # A divisor of the column tiles, capped by the accumulator tiles.
    assert wb(1, 2048, 4096, target(acc_tiles=3)) == 2  # 3 does not divide 128
    assert wb(1, 2048, 4096, target(acc_tiles=16)) == 16  # 1511424 B fits
    assert wb(4, 4096, 100) == 4  # 4 column tiles
    assert wb(4, 4096, 288) == 3  # 9 column tiles: divisors up to 8 are 1, 3
    assert wb(1, 2048, 224) == 7  # 7 column tiles
    assert wb(1, 2048, 352) == 1  # 11 column tiles: prime, above 8
    assert wb(1, 2048, 1) == 1
    # A batch of 8 on the reference's site: wb = 2 (278528 B; 4 needs 524288 B).
    assert wb(8, 4096, 4096, REFERENCE) == 2
    # A batch of 32 on tensix: wb = 8 needs 1900544 B, wb = 4 1015808 B.
    assert wb(32, 1024, 4096) == 4
    # The plan it returns is the plan of that width.
    assert choose_wb(1, 2048, 4096, BF16, F32, TENSIX) == FoldPlan(
        1, 2048, 4096, 8, BF16, F32, TILE
    )


def test_view_buffer_bytes():
    # in_block 2 x 32 tiles x 1024 x 2 B + out 2 x 1 tile x 2048 B.
    assert view_buffer_bytes(1, 2048, BF16, TENSIX) == 131072 + 4096 == 135168
    assert view_buffer_bytes(1, 2048, F32, TENSIX) == 262144 + 8192 == 270336
    # A tail-only row: an 18-tile page.
    assert view_buffer_bytes(1, 576, BF16, TENSIX) == 2 * 18 * 2048 + 4096 == 77824
    # A batch of 8: out holds 8 tiles, in_lanes 8 tiles of i16.
    assert view_buffer_bytes(8, 4096, BF16, TENSIX) == 131072 + 32768 + 16384 == 180224
    # The larger of the two sections (1024 wide, then 512 wide).
    assert view_buffer_bytes(8, 1536, BF16, TENSIX) == 180224
    # 32 rows lift 8 at a time; their lanes are i32.
    assert view_buffer_bytes(32, 1024, BF16, TENSIX) == 131072 + 32768 + 32768 == 196608
    # 12 rows lift 6 at a time.
    assert view_buffer_bytes(12, 1024, BF16, TENSIX) == 131072 + 24576 + 12288 == 167936


# --------------------------------------------------------------------------------------
# The Python API
# --------------------------------------------------------------------------------------


def test_lower_q8_returns_a_decision_per_matmul():
    mod = module(product(1, 2048, 4096), product(33, 2048, 4096, fn="big"))
    decisions = lower_q8(mod)
    mod.verify()
    assert [d.lowered for d in decisions] == [True, False]
    d0, d1 = decisions
    assert isinstance(d0, Decision)
    assert d0.plan == FoldPlan(1, 2048, 4096, 8, BF16, F32, TILE)
    assert d0.view_bytes == 135168
    assert d0.line() == (
        "q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8, items = 16, "
        "K blocks = 2, tail = 0 Q8_0 blocks, local memory = 757,760 B (view 135,168 B); "
        "bytes: weight 9,437,184 + view reads 65,536 = 9,502,720 < bf16 copy 16,777,216; "
        "moves 9,502,720 B (1.1328 B/weight)"
    )
    assert d1.plan is None
    assert d1.line() == (
        "q8-lower: linalg.matmul %y 33x2048x4096: not lowered: m = 33 rows; the fold "
        "takes 1 to 32 (a tile's rows)"
    )
    assert len(ops(mod, MatmulOp)) == 1 and len(ops(mod, FoldOp)) == 1


def test_lower_q8_takes_the_pass_options():
    for kwargs, wb in [
        ({}, 8),
        ({"preset": "reference"}, 2),
        ({"local_mem": 393216}, 4),
        ({"acc_tiles": 3}, 2),
        ({"preset": "reference", "acc_tiles": 1}, 1),
    ]:
        mod = module(product(1, 2048, 4096))
        (d,) = lower_q8(mod, **kwargs)
        assert d.lowered and cast(FoldPlan, d.plan).wb == wb, kwargs
        (fold,) = ops(mod, FoldOp)
        assert fold.program_name.data == f"q8_gemv_2048x4096_w{wb}"


def test_not_lowered_reasons():
    def reason(**kwargs):
        mod = module(product(1, 2048, 4096))
        (d,) = lower_q8(mod, **kwargs)
        assert not d.lowered and not ops(mod, FoldOp) and len(ops(mod, MatmulOp)) == 1
        return d.reason

    assert reason(local_mem=65536) == (
        "no column group fits: one column tile needs 98304 B of local memory, a site has 65536"
    )
    # The fold fits one column tile (98304 B), the view's K-block page does not.
    assert reason(local_mem=100000) == (
        "the view's buffers need 135168 B of local memory, a site has 100000"
    )
    assert "16x32" in reason(tile_rows=16)
    mod = module(product(16, 4096, 4096))
    (d,) = lower_q8(mod, preset="reference")
    assert d.reason == (
        "weight 18874368 B + view reads 16777216 B = 35651584 B >= a bf16 copy's 33554432 B"
    )
    assert d.plan == FoldPlan(16, 4096, 4096, 1, BF16, F32, TILE)


def test_bad_options_fail_with_a_diagnostic():
    with pytest.raises(PassFailedException, match="unknown target preset 'nope'"):
        lower_q8(module(product(1, 64, 64)), preset="nope")
    with pytest.raises(PassFailedException, match="local-mem must be positive, got 0"):
        lower_q8(module(product(1, 64, 64)), local_mem=0)
    with pytest.raises(PassFailedException, match="acc-tiles must be positive, got -1"):
        lower_q8(module(product(1, 64, 64)), acc_tiles=-1)


def test_resolve_target():
    attr = "spatial.target = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 393216, acc_tiles = 4>"
    mod = module(product(1, 64, 64), attrs=attr)
    assert resolve_target(mod) == TargetAttr(local_mem=393216, acc_tiles=4)
    assert resolve_target(mod, acc_tiles=2) == TargetAttr(local_mem=393216, acc_tiles=2)
    assert resolve_target(mod, preset="tensix") == TENSIX
    assert resolve_target(mod, preset="reference", local_mem=1000) == TargetAttr(
        preset="reference", local_mem=1000
    )
    assert resolve_target(module(product(1, 64, 64))) == TENSIX
    assert resolve_target(module(product(1, 64, 64)), tile_rows=16).tile == (16, 32)


def test_report_goes_to_stderr(capsys):
    mod = module(product(1, 2048, 4096), product(1, 64, 32, fn="narrow"))
    Q8LowerPass(report=True).apply(Context(), mod)
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("q8-lower: linalg.matmul %y 1x2048x4096: lowered: wb = 8,")
    assert lines[1] == (
        "q8-lower: linalg.matmul %y 1x64x32: not lowered: weight 2304 B + view reads "
        "2048 B = 4352 B >= a bf16 copy's 4096 B"
    )
    Q8LowerPass().apply(Context(), module(product(1, 2048, 4096)))
    assert capsys.readouterr() == ("", "")


def test_idempotent_and_composes_with_cleanup():
    mod = module(product(8, 1536, 100), product(1, 2048, 4096, fn="gemv"))
    lower_q8(mod)
    once = str(mod)
    assert lower_q8(mod) == []  # no matmul left to decide on
    assert str(mod) == once
    apply_pipeline(mod, "q8-lower,canonicalize,cse,dce")
    assert [f.program_name.data for f in ops(mod, FoldOp)] == [
        "q8_gemm_8x1536x100_w4",
        "q8_gemv_2048x4096_w8",
    ]
    assert [v.program_name.data for v in ops(mod, ViewOp)] == [
        "q8_view_8x1536_from0",
        "q8_view_8x1536_from1",
        "q8_view_1x2048_from0",
    ]
    fresh = module(product(8, 1536, 100), product(1, 2048, 4096, fn="gemv"))
    apply_pipeline(fresh, "q8-lower,canonicalize,cse,dce")
    assert str(fresh) == str(mod)


def constant_weight_product(m: int, n: int, value: str) -> str:
    """`@mm`: an m x 1024 bf16 activation times the weight 'W', the Q8_0 quantisation
    (`exact`) of a 1024 x n constant whose every element is `value`."""
    return f"""
    func.func @mm(%x: tensor<{m}x1024xbf16>) -> tensor<{m}x{n}xf32> {{
      %W = arith.constant dense<{value}> : tensor<1024x{n}xf32>
      %q, %s = q8.quantize %W exact : tensor<1024x{n}xf32> -> tensor<1024x{n}xi8>, tensor<32x{n}xf32>
      %w = q8.dequantize %q, %s : tensor<1024x{n}xi8>, tensor<32x{n}xf32> -> tensor<1024x{n}xbf16>
      %acc = arith.constant dense<0.000000e+00> : tensor<{m}x{n}xf32>
      %y = linalg.matmul ins(%x, %w : tensor<{m}x1024xbf16>, tensor<1024x{n}xbf16>) outs(%acc : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
      func.return %y : tensor<{m}x{n}xf32>
    }}"""


INEXACT_W = (
    r"q8-lower: weight 'W' \(q8.quantize of a constant\) is not exact Q8_0.*"
    r"not representable in float32"
)


def test_inexact_constant_names_the_weight():
    with pytest.raises(PassFailedException, match=INEXACT_W):
        lower_q8(module(constant_weight_product(1, 256, "1.500000e+00")))


@pytest.mark.parametrize(
    "why,options",
    [
        (">= a bf16 copy's", {}),  # the gate reads it dense
        ("no column group fits", {"local_mem": 65536}),
        ("chip 0 of 2 (columns 0..32): weight", {"chips": 2}),
    ],
)
def test_an_inexact_constant_is_the_error_before_any_plan(why, options):
    """The reference quantises a constant weight before it chooses wb or weighs the
    bytes: an inexact one is NotQ8_0 even where the product would not be lowered
    (here a batch of 32 rows over 32 columns, which the gate reads dense, or a site
    too small for a column tile), and the same product over an exact weight is left
    as it was, with the plan's reason."""
    with pytest.raises(PassFailedException, match=INEXACT_W):
        lower_q8(module(constant_weight_product(32, 64, "1.500000e+00")), **options)
    exact = module(constant_weight_product(32, 64, "1.270000e+02"))  # scale 1: exact
    (d,) = lower_q8(exact, **options)
    assert not d.lowered and why in d.reason
    assert len(ops(exact, MatmulOp)) == 1


# --------------------------------------------------------------------------------------
# The built programs agree with the plan
# --------------------------------------------------------------------------------------

shapes = st.tuples(
    st.integers(1, 32),
    st.integers(1, 156).map(lambda b: 32 * b),  # K up to 4992
    st.integers(1, 5000),
)
targets = st.tuples(
    st.one_of(st.none(), st.integers(64 * 1024, 2 * 1024 * 1024)),
    st.one_of(st.none(), st.integers(1, 16)),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=shapes,
    tgt=targets,
    act=st.sampled_from(["bf16", "f32"]),
    scale=st.sampled_from(["f32", "f16"]),
)
def test_plan_bytes_are_the_built_buffers(shape, tgt, act, scale):
    """The programs allocate exactly the buffers their plans list (names, tiles,
    types, depths), and the local memory reported is their sum."""
    m, k, n = shape
    local_mem, acc_tiles = tgt
    mod = module(product(m, k, n, act=act, scale=scale, form="mixed"))
    options = {"local_mem": local_mem, "acc_tiles": acc_tiles, "act": act}
    (d,) = lower_q8(mod, **options)
    t = resolve_target(mod, **options)
    if not d.lowered:
        return
    plan = cast(FoldPlan, d.plan)
    (fold,) = ops(mod, FoldOp)

    def listed(program):
        return [
            (
                b.buffer_name.data,
                b.result.type.tiles.data,
                b.result.type.element_type,
                b.result.type.depth.data,
            )
            for b in program.buffers()
        ]

    assert listed(fold) == [(b.name, b.tiles, b.element, b.depth) for b in plan.buffers()]
    assert fold.buffer_bytes() == plan.buffer_bytes() <= t.local_mem.data
    views = ops(mod, ViewOp)
    assert d.view is not None and len(views) == len(d.view.sections)
    for v, section in zip(views, d.view.sections):
        assert listed(v) == [(b.name, b.tiles, b.element, b.depth) for b in section.buffers]
    assert max(v.buffer_bytes() for v in views) == d.view_bytes <= t.local_mem.data


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=shapes,
    tgt=targets,
    act=st.sampled_from(["bf16", "f32"]),
    scale=st.sampled_from(["f32", "f16"]),
    form=st.sampled_from(["extf", "mixed"]),
)
def test_lowering_verifies_or_leaves_the_matmul(shape, tgt, act, scale, form):
    m, k, n = shape
    local_mem, acc_tiles = tgt
    mod = module(product(m, k, n, act=act, scale=scale, form=form))
    (d,) = lower_q8(mod, local_mem=local_mem, acc_tiles=acc_tiles, act=act)
    mod.verify()
    t = resolve_target(mod, local_mem=local_mem, acc_tiles=acc_tiles, act=act)
    plan = choose_wb(m, k, n, _ELEM[act], _ELEM[scale], t)
    expect = (
        plan is not None
        and view_buffer_bytes(m, k, _ELEM[act], t) <= t.local_mem.data
        and plan.profitable()
    )
    assert d.lowered == expect
    if not d.lowered:
        assert d.reason
        assert len(ops(mod, MatmulOp)) == 1 and not ops(mod, FoldOp) and not ops(mod, ViewOp)
        return
    assert d.plan == plan and plan is not None
    assert not ops(mod, MatmulOp)
    (fold,) = ops(mod, FoldOp)
    assert fold.grid_shape == (plan.items,)
    assert fold.plan.k_blocks.data == max(plan.k_blocks, 1)
    assert [s.data for s in fold.plan.site] == [1, plan.wb]
    loops = ops(fold, KLoopOp)
    assert [lp.trips.data for lp in loops] == ([plan.k_blocks] if plan.k_blocks else [])
    (store,) = ops(fold, StoreOp)
    assert store.block_shape == (1, plan.wb) and store.stride.data == plan.col_tiles
    names = {t.tensor_name.data: t for t in ops(fold, TensorOp)}
    assert set(names) == {"x__q8_rows0", "W__q8", "W__q8_scale", "y"}
    assert names["W__q8"].repack == RepackAttr(Q8Part.VALUES)
    assert names["x__q8_rows0"].handle.dims == (view_rows(m, k), 32)
    # Every view load is m tiles, and the K loop's values load 32 x wb tiles.
    for load in ops(fold, LoadOp):
        h, w = load.block_shape
        if load.tensor.owner is names["x__q8_rows0"]:
            assert (h, w) == (m, 1)
        elif load.tensor.owner is names["W__q8"]:
            assert w == plan.wb and h in (32, plan.tail_blocks)


# --------------------------------------------------------------------------------------
# Views and names
# --------------------------------------------------------------------------------------


def test_one_view_per_value_and_per_write():
    text = """
    func.func @f(%x: tensor<1x2048xbf16>, %A__q8: tensor<2048x2048xi8>, %A__q8_scale: tensor<64x2048xf32>) -> tensor<1x2048xf32> {
      %w = q8.dequantize %A__q8, %A__q8_scale : tensor<2048x2048xi8>, tensor<64x2048xf32> -> tensor<2048x2048xbf16>
      %acc = arith.constant dense<0.000000e+00> : tensor<1x2048xf32>
      %a = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x2048xbf16>) outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
      %b = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x2048xbf16>) outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
      %s = arith.addf %a, %b : tensor<1x2048xf32>
      %x_1 = arith.truncf %s : tensor<1x2048xf32> to tensor<1x2048xbf16>
      %c = linalg.matmul ins(%x_1, %w : tensor<1x2048xbf16>, tensor<2048x2048xbf16>) outs(%acc : tensor<1x2048xf32>) -> tensor<1x2048xf32>
      func.return %c : tensor<1x2048xf32>
    }"""
    mod = module(text, text.replace("@f(", "@g("))
    assert all(d.lowered for d in lower_q8(mod))
    mod.verify()
    # Per function: the first x gets rows0 (shared by two products), x_1 rows1.
    view_names = [
        cast(TensorOp, v.body.block.last_op.operands[0].owner).tensor_name.data
        for v in ops(mod, ViewOp)
    ]
    assert view_names == ["x__q8_rows0", "x__q8_rows1"] * 2
    folds = ops(mod, FoldOp)
    assert [f.ins[0] for f in folds[:2]] == [ops(mod, ViewOp)[0].results[0]] * 2


def test_weight_names():
    named = module(product(1, 2048, 4096, weight="blk.0.ffn_up"))
    lower_q8(named)
    (fold,) = ops(named, FoldOp)
    tensors = [t.tensor_name.data for t in ops(fold, TensorOp)]
    assert tensors == ["x__q8_rows0", "blk.0.ffn_up__q8", "blk.0.ffn_up__q8_scale", "y"]
    anon = """
    func.func @f(%0: tensor<1x2048xbf16>, %1: tensor<2048x2048xi8>, %2: tensor<64x2048xf32>) -> (tensor<1x2048xf32>, tensor<1x2048xf32>) {
      %3 = q8.dequantize %1, %2 : tensor<2048x2048xi8>, tensor<64x2048xf32> -> tensor<2048x2048xbf16>
      %4 = arith.constant dense<0.000000e+00> : tensor<1x2048xf32>
      %5 = linalg.matmul ins(%0, %3 : tensor<1x2048xbf16>, tensor<2048x2048xbf16>) outs(%4 : tensor<1x2048xf32>) -> tensor<1x2048xf32>
      %6 = linalg.matmul ins(%0, %3 : tensor<1x2048xbf16>, tensor<2048x2048xbf16>) outs(%4 : tensor<1x2048xf32>) -> tensor<1x2048xf32>
      func.return %5, %6 : tensor<1x2048xf32>, tensor<1x2048xf32>
    }"""
    mod = module(anon)
    lower_q8(mod)
    for fold in ops(mod, FoldOp):
        names = [t.tensor_name.data for t in ops(fold, TensorOp)]
        # One unnamed weight read twice is one weight: w0 both times.
        assert names == ["x__q8_rows0", "w0__q8", "w0__q8_scale", "y"]


# --------------------------------------------------------------------------------------
# Inputs that are no Q8_0 product must not crash the pass
# --------------------------------------------------------------------------------------

_UNTOUCHED = {
    "dynamic": """
    func.func @f(%x: tensor<?x2048xbf16>, %W__q8: tensor<2048x64xi8>, %W__q8_scale: tensor<64x64xf32>, %n: index) -> tensor<?x64xf32> {
      %w = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x64xi8>, tensor<64x64xf32> -> tensor<2048x64xbf16>
      %z = arith.constant 0.000000e+00 : f32
      %e = tensor.empty(%n) : tensor<?x64xf32>
      %acc = linalg.fill ins(%z : f32) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
      %y = linalg.matmul ins(%x, %w : tensor<?x2048xbf16>, tensor<2048x64xbf16>) outs(%acc : tensor<?x64xf32>) -> tensor<?x64xf32>
      func.return %y : tensor<?x64xf32>
    }""",
    "memref": """
    func.func @f(%x: memref<1x64xf32>, %w: memref<64x64xf32>, %y: memref<1x64xf32>) {
      linalg.matmul ins(%x, %w : memref<1x64xf32>, memref<64x64xf32>) outs(%y : memref<1x64xf32>)
      func.return
    }""",
    "transposed": """
    func.func @f(%x: tensor<64x1xf32>, %W__q8: tensor<64x64xi8>, %W__q8_scale: tensor<2x64xf32>) -> tensor<1x64xf32> {
      %w = q8.dequantize %W__q8, %W__q8_scale : tensor<64x64xi8>, tensor<2x64xf32> -> tensor<64x64xf32>
      %acc = arith.constant dense<0.000000e+00> : tensor<1x64xf32>
      %y = linalg.matmul {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]} ins(%x, %w : tensor<64x1xf32>, tensor<64x64xf32>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
      func.return %y : tensor<1x64xf32>
    }""",
    "accumulator": """
    func.func @f(%x: tensor<1x64xbf16>, %W__q8: tensor<64x64xi8>, %W__q8_scale: tensor<2x64xf32>, %acc: tensor<1x64xf32>) -> tensor<1x64xf32> {
      %w = q8.dequantize %W__q8, %W__q8_scale : tensor<64x64xi8>, tensor<2x64xf32> -> tensor<64x64xbf16>
      %y = linalg.matmul ins(%x, %w : tensor<1x64xbf16>, tensor<64x64xbf16>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
      func.return %y : tensor<1x64xf32>
    }""",
    "bf16 result": """
    func.func @f(%x: tensor<1x64xbf16>, %W__q8: tensor<64x64xi8>, %W__q8_scale: tensor<2x64xf32>) -> tensor<1x64xbf16> {
      %w = q8.dequantize %W__q8, %W__q8_scale : tensor<64x64xi8>, tensor<2x64xf32> -> tensor<64x64xbf16>
      %acc = arith.constant dense<0.000000e+00> : tensor<1x64xbf16>
      %y = linalg.matmul ins(%x, %w : tensor<1x64xbf16>, tensor<64x64xbf16>) outs(%acc : tensor<1x64xbf16>) -> tensor<1x64xbf16>
      func.return %y : tensor<1x64xbf16>
    }""",
    "f16 activation": """
    func.func @f(%x: tensor<1x64xf16>, %W__q8: tensor<64x64xi8>, %W__q8_scale: tensor<2x64xf32>) -> tensor<1x64xf32> {
      %w = q8.dequantize %W__q8, %W__q8_scale : tensor<64x64xi8>, tensor<2x64xf32> -> tensor<64x64xbf16>
      %acc = arith.constant dense<0.000000e+00> : tensor<1x64xf32>
      %y = linalg.matmul ins(%x, %w : tensor<1x64xf16>, tensor<64x64xbf16>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
      func.return %y : tensor<1x64xf32>
    }""",
    "declaration": "func.func private @f(tensor<1x64xbf16>) -> tensor<1x64xf32>",
}


@pytest.mark.parametrize("case", sorted(_UNTOUCHED))
def test_untouched_inputs_do_not_crash(case):
    mod = module(_UNTOUCHED[case])
    before = str(mod)
    decisions = lower_q8(mod)
    mod.verify()
    assert all(not d.lowered and d.reason for d in decisions)
    assert str(mod) == before
