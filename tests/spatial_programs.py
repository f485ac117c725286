"""Spatial programs built by hand for the dialect tests: a context of the project's
dialects, the printer and parser, affine helpers, the verifier's message expected,
and two programs (a two-item copy, a one-item K-loop sum that uses every op)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from io import StringIO
from typing import TypeVar

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, linalg, math, test
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    ModuleOp,
    TensorType,
    f32,
    i32,
)
from xdsl.dialects.test import TestOp as TOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.dialects import q8, spatial
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    FoldOp,
    IndexOp,
    IterKind,
    KLoopOp,
    KYieldOp,
    LoadOp,
    Numerics,
    NumericsAttr,
    PageType,
    PlanAttr,
    ProgramOp,
    ReturnOp,
    Role,
    StageOp,
    StoreOp,
    TargetAttr,
    TensorHandleType,
    TensorOp,
    ViewOp,
    YieldOp,
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


def copy_through_table() -> tuple[ModuleOp, ProgramOp]:
    """`copy_program` with its store through a constant table `perm` = [1, 0]: item i
    writes tile 1 - i (while it still owns tile i)."""
    module, prog = copy_program()
    block = prog.entry
    perm = DenseIntOrFPElementsAttr.from_list(tensor((1, 2), i32), [1, 0])
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
    return module, prog


def own_permuted_tiles(prog: ProgramOp) -> None:
    """Item i owns tile 1 - i: what `copy_through_table`'s store writes."""
    prog.owns = AffineMapAttr(AffineMap(1, 0, (AffineExpr.constant(0), dim(0) * -1 + 1)))
