"""Tensor parallel over chips: shard annotations and the `chips`/`split` options read
into splits, each chip's view and fold built over its shard, the gather and the sum,
and the runs: both engines, lowered and not, and the bytes each chip moves against
the pass's per-chip model.

Bits are claimed only on integer-exact inputs (small integers, power-of-two scales:
every partial sum, and the sum of the chips' partial sums, is exact in fp32); random
inputs are checked against the fp32 summation bound of an fp64 reference.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from q8_operands import fp32_bound
from tp_modules import chip_model, fp64, module, operands, sharded
from xdsl.dialects import shard, tensor
from xdsl.dialects.arith import AddfOp
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException

from xdsl_spatial.core.ir_io import apply_pipeline, parse_module
from xdsl_spatial.dialects.q8 import Q8Part, Q8Source
from xdsl_spatial.dialects.spatial import FoldOp, ProgramOp, RepackAttr, ViewOp
from xdsl_spatial.interpreters.executable import compile_function
from xdsl_spatial.interpreters.runner import ENGINES, coerce_args, execute, find_function
from xdsl_spatial.interpreters.traffic import ProgramTraffic, Traffic
from xdsl_spatial.interpreters.traffic_io import TrafficRun, from_json, to_json
from xdsl_spatial.passes.q8_lower import lower_q8
from xdsl_spatial.passes.tensor_parallel import Split, even_bounds, option_split

OpT = TypeVar("OpT", bound=Operation)


def programs(mod, kind=ProgramOp):
    return [op for op in mod.walk() if isinstance(op, kind)]


def top(mod: ModuleOp, kind: type[OpT], fn: str = "mm") -> list[OpT]:
    """The function's own ops of `kind` (not those inside programs)."""
    return [op for op in find_function(mod, fn).body.block.ops if isinstance(op, kind)]


def function_text(mod) -> str:
    """The lowered function alone (an annotated module keeps its `shard.grid`)."""
    return str(find_function(mod, "mm"))


# --------------------------------------------------------------------------------------
# Splits
# --------------------------------------------------------------------------------------


def test_even_bounds_deal_whole_units_the_larger_shares_last():
    assert even_bounds(4096, 32, 4) == (0, 1024, 2048, 3072, 4096)
    assert even_bounds(4000, 32, 4) == (0, 992, 1984, 2976, 4000)  # 31, 31, 31, 32 tiles
    assert even_bounds(2048, 32, 3) == (0, 672, 1344, 2048)  # 21, 21, 22 Q8_0 blocks
    assert even_bounds(40, 32, 1) == (0, 40)


def test_option_split_needs_a_unit_per_chip():
    sp = option_split(2048, 4096, 4, Split.N, 32)
    assert not isinstance(sp, str)
    assert sp.chips == 4 and sp.rows(1, 2048) == (0, 2048) and sp.cols(1, 4096) == (1024, 2048)
    sp = option_split(2048, 4096, 2, Split.K, 32)
    assert not isinstance(sp, str)
    assert sp.rows(1, 2048) == (1024, 2048) and sp.cols(1, 4096) == (0, 4096)
    assert option_split(2048, 40, 4, Split.N, 32) == (
        "chips=4 split=n: N = 40 is 2 column tiles, fewer than the chips"
    )
    assert option_split(64, 40, 3, Split.K, 32) == (
        "chips=3 split=k: K = 64 is 2 Q8_0 blocks, fewer than the chips"
    )


def test_a_shard_repack_spells_the_slice_of_the_stored_tensor():
    v, sc = RepackAttr(Q8Part.VALUES), RepackAttr(Q8Part.SCALES)
    assert v.sharded((1024, 2048), (0, 4096)).slice == ((1024, 2048), (0, 4096))
    assert (
        str(v.sharded((1024, 2048), (0, 4096)))
        == "#spatial.repack<q8_0.values [1024:2048, 0:4096]>"
    )
    # Scale rows are Q8_0 blocks: K rows 1024..2048 are scale rows 32..64.
    assert (
        str(sc.sharded((1024, 2048), (0, 4096))) == "#spatial.repack<q8_0.scales [32:64, 0:4096]>"
    )
    # A frontend's N x K weight: the slice of its K x N transpose.
    nk = RepackAttr(Q8Part.VALUES, Q8Source.NK).sharded((0, 1024), (64, 128))
    assert str(nk) == '#spatial.repack<q8_0.values [0:1024, 64:128] from "NxK">'
    assert (nk.part.data, nk.source.data, nk.slice) == (
        Q8Part.VALUES,
        Q8Source.NK,
        ((0, 1024), (64, 128)),
    )
    assert v.slice is None and v.source.data == Q8Source.KN


# --------------------------------------------------------------------------------------
# Lowering
# --------------------------------------------------------------------------------------


def test_an_n_split_over_4_chips_is_4_views_and_4_folds_gathered():
    mod = module(sharded(1, 2048, 4096, 4, "n"))
    (d,) = lower_q8(mod)
    assert d.lowered and d.split is not None and d.split.axis == Split.N
    views, folds = programs(mod, ViewOp), programs(mod, FoldOp)
    assert [v.program_name.data for v in views] == [f"q8_view_1x2048_from0_c{c}" for c in range(4)]
    assert [f.program_name.data for f in folds] == [f"q8_gemv_2048x1024_w8_c{c}" for c in range(4)]
    assert [p.chip_index for p in views + folds] == [0, 1, 2, 3] * 2
    for c, (v, f) in enumerate(zip(views, folds)):
        assert v.results[0].name_hint == f"x__q8_rows0_c{c}"
        assert f.ins[0] is v.results[0]  # each chip's fold reads its own view
        repacks = {t.tensor_name.data: t.repack for t in f.tensors() if t.repack}
        assert repacks == {
            "W__q8": RepackAttr(Q8Part.VALUES, shard=((0, 2048), (1024 * c, 1024 * (c + 1)))),
            "W__q8_scale": RepackAttr(Q8Part.SCALES, shard=((0, 64), (1024 * c, 1024 * (c + 1)))),
        }
        for arg, part in zip(f.ins[1:], ("W__q8", "W__q8_scale")):
            sl = arg.owner
            assert isinstance(sl, tensor.ExtractSliceOp)
            assert sl.source.name_hint == part
            assert tuple(sl.static_offsets.get_values()) == (0, 1024 * c)
    (cat,) = [op for op in mod.walk() if isinstance(op, tensor.ConcatOp)]
    assert list(cat.inputs) == [f.results[0] for f in folds]
    assert not [op for op in mod.walk() if isinstance(op, shard.ShardOp | shard.ShardingOp)]


def test_a_k_split_over_2_chips_slices_x_and_adds_the_partial_sums_in_order():
    mod = module(sharded(1, 2048, 4096, 2, "k", x_split=True))
    (d,) = lower_q8(mod)
    assert d.lowered and d.split is not None and d.split.axis == Split.K
    views, folds = programs(mod, ViewOp), programs(mod, FoldOp)
    assert [v.program_name.data for v in views] == [
        "q8_view_1x1024_from0_c0",
        "q8_view_1x1024_from0_c1",
    ]
    assert [f.program_name.data for f in folds] == [
        "q8_gemv_1024x4096_w8_c0",
        "q8_gemv_1024x4096_w8_c1",
    ]
    for c, v in enumerate(views):
        sl = v.ins[0].owner
        assert isinstance(sl, tensor.ExtractSliceOp) and sl.source.name_hint == "x"
        assert tuple(sl.static_offsets.get_values()) == (0, 1024 * c)
        assert v.results[0].name_hint == f"x__q8_rows0_c{c}"
    (add,) = top(mod, AddfOp)
    assert (add.lhs, add.rhs) == (folds[0].results[0], folds[1].results[0])
    assert "a partial sum the chips add in order" in folds[1].numerics.reason.data


def test_four_partial_sums_add_left_to_right():
    mod = module(sharded(1, 4096, 64, 4, "k"))
    lower_q8(mod)
    folds = programs(mod, FoldOp)
    adds = top(mod, AddfOp)
    assert [a.rhs for a in adds] == [f.results[0] for f in folds[1:]]
    assert adds[0].lhs is folds[0].results[0]
    assert [a.lhs for a in adds[1:]] == [a.result for a in adds[:-1]]


def test_the_options_lower_an_unannotated_product_as_the_annotation_does():
    for chips, split in ((4, "n"), (2, "k"), (3, "n"), (3, "k")):
        k, n = 3072, 4000
        sp = option_split(k, n, chips, Split(split), 32)
        assert not isinstance(sp, str)
        annotated = module(sharded(2, k, n, chips, split, offsets=sp.bounds))
        plain = module(sharded(2, k, n, None, None))
        lower_q8(annotated)
        lower_q8(plain, chips=chips, split=split)
        assert function_text(annotated) == function_text(plain)
        apply_pipeline(
            p2 := module(sharded(2, k, n, None, None)), f"q8-lower{{chips={chips} split={split}}}"
        )
        assert function_text(p2) == function_text(plain)


def test_a_last_chip_holds_a_padded_tile_as_a_last_tile_is_padded():
    mod = module(sharded(1, 1024, 4000, 4, "n", offsets=(0, 1024, 2048, 3072, 4000)))
    (d,) = lower_q8(mod)
    assert d.lowered
    assert [(cp.cols, cp.plan.n, cp.plan.n_padded) for cp in d.chips][-1] == (
        (3072, 4000),
        928,
        928,
    )
    last = programs(mod, FoldOp)[-1]
    assert last.program_name.data == "q8_gemv_1024x928_w1_c3"  # 29 tiles: wb = 1
    mod = module(sharded(1, 1024, 4001, 4, "n", offsets=(0, 1024, 2048, 3072, 4001)))
    (d,) = lower_q8(mod)
    assert d.lowered and d.chips[-1].plan.n == 929 and d.chips[-1].plan.n_padded == 960


def test_a_chip_share_of_k_folds_its_own_blocks_then_a_tail():
    """K = 3072 over 2 chips: 1536 rows each, one K block of 1024 and a tail of 16 Q8_0
    blocks; the whole weight's second K block (rows 1024..2048) is cut by the chips'
    boundary: its first half is chip 0's tail, its second the start of chip 1's K block.
    Each tail loads a whole tile row of scales, so the two chips move 16 padded scale
    rows more each than the one chip would (which has no tail)."""
    mod = module(sharded(1, 3072, 256, 2, "k"))
    (d,) = lower_q8(mod)
    assert d.lowered
    assert [(cp.rows, cp.plan.k_blocks, cp.plan.tail_blocks) for cp in d.chips] == [
        ((0, 1536), 1, 16),
        ((1536, 3072), 1, 16),
    ]
    one = module(sharded(1, 3072, 256, None, None))
    (d1,) = lower_q8(one)
    assert d1.plan is not None and d1.plan.k_blocks == 3 and d1.plan.tail_blocks == 0
    scales_one = d1.plan.weight_bytes() - 3072 * 256
    scales_chips = sum(cp.plan.weight_bytes() - 1536 * 256 for cp in d.chips)
    assert scales_chips - scales_one == 2 * 16 * 256 * 4


def test_views_are_one_per_value_and_chip_shared_by_the_chip_products():
    text = sharded(1, 2048, 4096, 2, "n")
    # A second product of the same x over the same chips.
    text = text.replace(
        "  func.return %y : tensor<1x4096xf32>",
        "  %w2 = q8.dequantize %q, %s : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xf32>\n"
        "  %y2 = linalg.matmul ins(%xf, %w2 : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%zero : tensor<1x4096xf32>) -> tensor<1x4096xf32>\n"
        "  %sum = arith.addf %y, %y2 : tensor<1x4096xf32>\n"
        "  func.return %sum : tensor<1x4096xf32>",
    )
    mod = module(text)
    d1, d2 = lower_q8(mod)
    assert d1.lowered and d2.lowered
    assert [cp.made_view for cp in d1.chips + d2.chips] == [True, True, False, False]
    assert len(programs(mod, ViewOp)) == 2 and len(programs(mod, FoldOp)) == 4
    # The shards are sliced once and read by both products.
    assert len([op for op in mod.walk() if isinstance(op, tensor.ExtractSliceOp)]) == 4


@pytest.mark.parametrize(
    "text, reason",
    [
        (
            sharded(1, 2048, 4096, 4, "n", grid="2x2"),
            "grid @chips is 2x2: the pass splits a product over a 1-d grid of chips",
        ),
        (
            sharded(1, 2048, 4000, 4, "n"),
            "shard.sharding @chips: a chip's columns start at 1000, inside a 32-column "
            "tile; every chip but the last holds whole column tiles",
        ),
        (
            sharded(1, 2048, 4001, 4, "n"),
            "the values' dimension 1 (4001) does not divide over the 4 chips of an even "
            "split (give sharded_dims_offsets)",
        ),
        (
            sharded(1, 2048, 4096, 2, "k", offsets=(0, 1040, 2048)),
            "the values and scales are sharded differently",
        ),
        (
            sharded(1, 2048, 4096, 2, "n").replace(
                "q8.dequantize %q, %s", "q8.dequantize %q, %W__q8_scale"
            ),
            "the values are annotated with a sharding and the scales are not",
        ),
        (
            sharded(1, 2048, 4096, 2, "n", x_split=True),
            "splits the weight on N, which reads the whole activation on every chip",
        ),
        (
            sharded(2, 2048, 4096, 2, "k", x_split=True).replace(
                "%xsh = shard.sharding @chips split_axes = [[], [0]]",
                "%xsh = shard.sharding @chips split_axes = [[0]]",
            ),
            "a K split needs its K axis split alike (or not at all)",
        ),
        (
            sharded(1, 2048, 4096, 2, "n").replace(
                "split_axes = [[], [0]] : !shard.sharding\n  %ssh",
                "split_axes = [[], [0]] halo_sizes = [1, 1] : !shard.sharding\n  %ssh",
            ),
            "the values' sharding has halo sizes",
        ),
        (
            sharded(1, 64, 4096, 4, "k"),
            "the scales' dimension 0 (2) does not divide over the 4 chips",
        ),
    ],
)
def test_a_sharding_the_pass_cannot_honour_leaves_the_product_as_it_was(text, reason):
    mod = module(text)
    before = str(mod)
    (d,) = lower_q8(mod)
    assert not d.lowered and reason in d.reason, d.reason
    assert str(mod) == before
    assert f"not lowered: {d.reason}" in d.line()


def test_values_and_scales_cut_at_different_rows_are_refused():
    text = sharded(1, 2048, 4096, 2, "k", offsets=(0, 1024, 2048)).replace(
        "sharded_dims_offsets = [0, 32, 64]", "sharded_dims_offsets = [0, 16, 64]"
    )
    mod = module(text)
    (d,) = lower_q8(mod)
    assert not d.lowered
    assert d.reason == (
        "the values and scales are sharded differently (values dimension 0 into "
        "0..1024, 1024..2048 over @chips; scales dimension 0 into 0..512, 512..2048 "
        "over @chips)"
    )


def test_a_chip_that_cannot_fold_its_share_leaves_the_product_as_it_was():
    mod = module(sharded(1, 2048, 4096, 4, "n"))
    before = str(mod)
    (d,) = lower_q8(mod, local_mem=100000)
    assert not d.lowered and d.reason.startswith("chip 0 of 4 (columns 0..1024): ")
    assert str(mod) == before


def test_a_replicated_annotation_is_a_product_on_one_chip():
    text = sharded(1, 2048, 4096, 4, "n").replace("[[], [0]]", "[[], []]")
    mod = module(text)
    (d,) = lower_q8(mod, chips=4)  # the annotation wins over the options
    assert d.lowered and d.split is None
    assert [p.chip_index for p in programs(mod)] == [None, None]


def test_bad_options_are_diagnostics():
    mod = module(sharded(1, 2048, 4096, None, None))
    with pytest.raises(PassFailedException, match="chips must be positive, got 0"):
        lower_q8(mod, chips=0)
    with pytest.raises(PassFailedException, match="split must be one of n, k, got 'm'"):
        lower_q8(mod, chips=2, split="m")


def test_the_report_has_a_line_per_chip_with_its_byte_model():
    mod = module(sharded(1, 2048, 4096, 2, "k"))
    (d,) = lower_q8(mod)
    lines = d.line().splitlines()
    assert lines[0] == (
        "q8-lower: linalg.matmul %y 1x2048x4096: lowered over 2 chips (shard.sharding "
        "@chips), split on K, partial sums added in chip order by arith.addf"
    )
    assert lines[2].startswith("q8-lower:   chip 1: K rows 1024..2048: 1024x4096, wb = 8")
    loads, stores = d.chips[1].moved()
    assert lines[2].endswith(f"chip loads {loads:,} B, stores {stores:,} B")


# --------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------


def all_engines(mod, arrays):
    fn = find_function(mod, "mm")
    args = coerce_args(fn, arrays)
    return [
        execute(mod, "mm", arrays, engine="reference"),
        compile_function(fn)(*args),
        compile_function(fn, fast=False)(*args),
    ]


def test_shard_annotations_run_as_identities_in_both_engines():
    rng = np.random.default_rng(3)
    x, q, s = operands(2, 1024, 96, True, rng)
    plain = module(sharded(2, 1024, 96, None, None))
    annotated = module(sharded(2, 1024, 96, 2, "k", x_split=True))
    want = execute(plain, "mm", [x, q, s]).outputs[0]
    for engine in ENGINES:
        (y,) = execute(annotated, "mm", [x, q, s], engine=engine).outputs
        np.testing.assert_array_equal(y, want)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    chips=st.integers(1, 8),
    split=st.sampled_from(["n", "k"]),
    m=st.integers(1, 8),
    blocks=st.integers(32, 80),
    tiles=st.integers(8, 24),
    ragged=st.integers(0, 31),
    annotated=st.booleans(),
    exact=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_chips_give_the_numbers_of_one_chip_and_move_their_model(
    chips, split, m, blocks, tiles, ragged, annotated, exact, seed
):
    """Over 1-8 chips, split on N or K, from an annotation or the options: the
    reference engine, the compiled engine and its plain twin give the same bits as the
    unlowered module and fp64 on integer-exact inputs, and are within the fp32 bound on
    random ones; their traffic is the same, and each chip's equals the pass's model."""
    k, n = 32 * blocks, 32 * tiles - ragged
    sp = option_split(k, n, chips, Split(split), 32)
    assert not isinstance(sp, str)
    if annotated:
        mod = module(sharded(m, k, n, chips, split, offsets=sp.bounds, x_split=split == "k"))
        decisions = lower_q8(mod)
    else:
        mod = module(sharded(m, k, n, None, None))
        decisions = lower_q8(mod, chips=chips, split=split) if chips > 1 else lower_q8(mod)
    (d,) = decisions
    # A chip's share too narrow to pay for its view reads stays unlowered (tested above).
    assume(d.lowered)
    rng = np.random.default_rng(seed)
    x, q, s = operands(m, k, n, exact, rng)
    want, mag = fp64(x, q, s)
    bound = fp32_bound(mag, k + chips + 2)
    before = execute(module(sharded(m, k, n, None, None)), "mm", [x, q, s])
    runs = all_engines(mod, [x, q, s])
    for r in [*runs, before]:
        (y,) = r.outputs
        if exact:
            np.testing.assert_array_equal(y, want.astype(np.float32))
        else:
            assert (np.abs(y - want) <= bound).all()
    t = [[(p.name, p.chip, p.loaded, p.stored) for p in r.traffic.programs] for r in runs]
    assert t[0] == t[1] == t[2]
    if d.split is not None:
        per_chip = {c.chip: (c.load_bytes, c.store_bytes) for c in runs[0].traffic.per_chip()}
        assert per_chip == chip_model(decisions)
        assert sorted(per_chip) == list(range(chips))


def test_a_module_of_two_products_moves_per_chip_what_the_model_says():
    """Megatron's pair: an N-split product, then a K-split one of its result; the
    second chip's view is of a slice of the gathered result."""
    k, h = 1024, 2048
    text = f"""
func.func @mlp(%x: tensor<1x{k}xbf16>, %U__q8: tensor<{k}x{h}xi8>, %U__q8_scale: tensor<{k // 32}x{h}xf32>, %D__q8: tensor<{h}x{k}xi8>, %D__q8_scale: tensor<{h // 32}x{k}xf32>) -> tensor<1x{k}xf32> {{
  %u = q8.dequantize %U__q8, %U__q8_scale : tensor<{k}x{h}xi8>, tensor<{k // 32}x{h}xf32> -> tensor<{k}x{h}xf32>
  %xf = arith.extf %x : tensor<1x{k}xbf16> to tensor<1x{k}xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x{h}xf32>
  %hid = linalg.matmul ins(%xf, %u : tensor<1x{k}xf32>, tensor<{k}x{h}xf32>) outs(%z1 : tensor<1x{h}xf32>) -> tensor<1x{h}xf32>
  %dn = q8.dequantize %D__q8, %D__q8_scale : tensor<{h}x{k}xi8>, tensor<{h // 32}x{k}xf32> -> tensor<{h}x{k}xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x{k}xf32>
  %y = linalg.matmul ins(%hid, %dn : tensor<1x{h}xf32>, tensor<{h}x{k}xf32>) outs(%z2 : tensor<1x{k}xf32>) -> tensor<1x{k}xf32>
  func.return %y : tensor<1x{k}xf32>
}}
"""
    mod = module(text)
    d1 = lower_q8(mod, chips=2, split="n")
    mod2 = module(text)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, k)).astype(np.float32)
    args = [x]
    for kk, nn in ((k, h), (h, k)):
        args += [
            rng.integers(-127, 128, (kk, nn)).astype(np.int8),
            rng.uniform(0.001, 0.02, (kk // 32, nn)).astype(np.float32),
        ]
    # The second product over K: its activation is f32, viewed in bf16 by an explicit op.
    d2 = lower_q8(mod2, chips=2, split="k")
    for m_, ds in ((mod, d1), (mod2, d2)):
        assert all(d.lowered for d in ds)
        r = execute(m_, "mlp", args)
        per_chip = {c.chip: (c.load_bytes, c.store_bytes) for c in r.traffic.per_chip()}
        assert per_chip == chip_model(ds)


def test_the_table_shows_each_chip_and_its_total():
    mod = module(sharded(1, 1024, 64, 2, "n"))
    lower_q8(mod)
    rng = np.random.default_rng(0)
    r = execute(mod, "mm", list(operands(1, 1024, 64, True, rng)))
    lines = r.traffic.table().splitlines()
    assert lines[0].split() == ["chip", "program", "tensor", "loaded", "B", "stored", "B"]
    assert [ln.split()[0] for ln in lines[2:]] == ["0"] * 8 + ["1"] * 8 + ["0", "1"]
    chip1 = lines[-1].split()
    c = r.traffic.per_chip()[1]
    assert chip1[:3] == ["1", "chip", "1"] and chip1[-2:] == [
        f"{c.load_bytes:,}",
        f"{c.store_bytes:,}",
    ]
    # Without chips the table is as it was: no chip column.
    plain = Traffic([ProgramTraffic("p", "fold", 1, 0, {"a": 1}, {})])
    assert plain.table().splitlines()[0].split()[0] == "program"


def test_the_chip_goes_through_the_traffic_file():
    p = ProgramTraffic("q8_gemv_c1", "fold", 4, 10, {"W__q8": 8}, {"y_c1": 4}, 8, chip=1)
    q = ProgramTraffic("q8_gemv", "fold", 4, 10, {"W__q8": 8}, {"y": 4}, 8)
    (run,) = from_json(to_json([TrafficRun("mm", [p, q])]))
    assert [x.chip for x in run.programs] == [1, None]
    assert '"chip"' not in to_json([TrafficRun("mm", [q])])


def test_a_chip_program_round_trips_with_its_chip():
    mod = module(sharded(1, 1024, 64, 2, "k"))
    lower_q8(mod)
    text = str(mod)
    assert 'spatial.fold "q8_gemv_512x64_w2_c1" chip 1 grid [1]' in text
    assert str(parse_module(text)) == text
