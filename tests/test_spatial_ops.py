"""The spatial ops from Python: every op built with inferred types, printed and parsed
back, and refused by its verifier (a representative subset: `invalid.mlir` has one case
per message)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import pytest
from spatial_programs import (
    XH,
    YH,
    X,
    add_op,
    copy_program,
    copy_through_table,
    dim,
    in_program,
    origin,
    own_permuted_tiles,
    parse,
    stage_body,
    sum_program,
    sym,
    tensor,
    text,
    values,
    verify_error,
    verify_op_error,
)
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    bf16,
    f16,
    f32,
    i16,
    i32,
)
from xdsl.dialects.test import TestOp as TOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from xdsl_spatial.dialects.q8 import (
    Q8Part,
)
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    BufferType,
    FoldOp,
    IndexOp,
    IterKind,
    KLoopOp,
    KYieldOp,
    LoadOp,
    PageType,
    PlanAttr,
    RepackAttr,
    Role,
    StageOp,
    StoreOp,
    TargetAttr,
    TensorHandleType,
    TensorOp,
    ViewOp,
)

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
    module, prog = copy_through_table()
    # Item i writes tile perm[i] = 1 - i, but owns tile i ...
    verify_error(module, "item 0 owns but never writes tile (0, 0) of 'y'")
    # ... until it owns tile 1 - i.
    own_permuted_tiles(prog)
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

    def stage(
        iters: list[tuple[IterKind, int]] = par2,
        in_maps: Sequence[AffineMap] = (tile,),
        out_map: AffineMap = tile,
        body: Callable[[Block], SSAValue] = ident,
        types: Sequence[Attribute] = (f32,),
        ins: Sequence[SSAValue] = (p,),
        indirect: Sequence[int] | None = None,
    ) -> StageOp:
        """A stage copying page `p` tile by tile, but for what the arguments change."""
        region = stage_body(types, body)
        return StageOp("s", iters, ins, in_maps, buf, out_map, region, indirect=indirect)

    ok = stage()
    in_program(ok)
    ok.verify()
    verify_op_error(
        stage(iters=[(IterKind.SUM, 32), (IterKind.PAR, 32)]),
        "stage 's' output map uses d0, a reduced axis; the reduction has one value per parallel point",
    )
    verify_op_error(
        stage(out_map=AffineMap(2, 0, (dim(0) + dim(1),))),
        "stage 's' output map (d0 + d1) writes some element twice",
    )
    verify_op_error(
        stage(in_maps=[AffineMap(2, 0, (dim(0) * 32 + dim(1) + 1,))]),
        "stage 's' input #0 reaches elements 1..1024 of a 1-tile page (1024 elements)",
    )
    verify_op_error(
        stage(types=[f16]),
        "stage 's' body takes one element per input (f32), got (f16)",
    )
    verify_op_error(
        stage(body=lambda b: add_op(b, math.AtanOp(b.args[0]))),
        "stage 's' body cannot run math.atan on the chip",
    )
    verify_op_error(
        stage(body=lambda b: add_op(b, arith.TruncFOp(b.args[0], f16))),
        "stage 's' yields f16 into a f32 buffer",
    )
    (lanes,) = values(PageType(1, i16))
    gather = AffineMap(2, 1, (dim(0) * 32 + sym(0),))
    gathering = stage(
        in_maps=[gather, AffineMap(2, 0, (dim(1),))],
        types=[f32, i16],
        ins=[p, lanes],
        indirect=[1, -1],
    )
    in_program(gathering)
    gathering.verify()
    verify_op_error(
        stage(in_maps=[gather, tile], types=[f32, f32], ins=[p, p], indirect=[1, -1]),
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
