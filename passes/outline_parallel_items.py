"""
`outline-parallel-items`: the body of each `scf.parallel` (a program's items on
threads: `convert-spatial-to-linalg{parallel=true}`) as a function of its own, which
the loop calls with its indices and every value the body reads from outside it.

```mlir
scf.parallel (%item) = (%c0) to (%c6) step (%c1) {
  %sums = memref.alloca() : memref<256xf32>          // a site's memory, per item
  ... reads %w, %x ...
  scf.reduce
}
```
becomes
```mlir
scf.parallel (%item) = (%c0) to (%c6) step (%c1) {
  func.call @k3__item0(%item, %w, %x) : (index, memref<...>, memref<...>) -> ()
  scf.reduce
}
func.func private @k3__item0(%item: index, %w: memref<...>, %x: memref<...>) {
  %sums = memref.alloca() : memref<256xf32>
  ...
}
```

Why: `convert-scf-to-openmp` makes a parallel body a `memref.alloca_scope`, whose allocas
LLVM sees inside the OpenMP loop (between a stack save and restore), and LLVM turns into
registers only the allocas of a function's entry block. So in a body on threads a
stream's sums (256 of them, 16 AVX-512 registers on one thread) stayed in memory and
its lanes' loop scalar: over a weight laid in tile columns, 4096 x 4096 at m = 1 took
3.5 ms on two threads against 0.9 on one. Called, the body's allocas are its function's
entry block's again: 0.54 ms on two threads (docs/speed.md).

Constants and globals the body reads are made again in the function; values it reads
from outside are passed: scalars, and memrefs of a static shape and the identity
layout (what a function boundary takes, as a bare pointer: native.md). A body that
reads anything else from outside is left in its loop, and so is a loop that reduces
into results (the items' loops have none). Nothing is computed differently:
the same ops, in the same order, each item a call.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import SymbolTable

from xdsl_spatial.core.ir_io import captured_values

MADE_AGAIN = (arith.ConstantOp, memref.GetGlobalOp)
"""Ops whose results a body reads that its function makes again rather than takes."""


def passable(t: Attribute) -> bool:
    """Whether a value of type `t` crosses a function boundary as the native engine's
    calls pass it: a scalar, or a memref of a static shape and the identity layout."""
    if isinstance(t, IndexType | IntegerType | AnyFloat):
        return True
    return (
        isinstance(t, MemRefType)
        and isinstance(t.layout, NoneAttr)
        and isinstance(t.memory_space, NoneAttr)
        and all(d >= 0 for d in t.get_shape())
    )


def reads_from_outside(loop: scf.ParallelOp) -> tuple[list[SSAValue], list[Operation]] | None:
    """What `loop`'s body reads from outside it, each in the order first read: the values
    passed (`captured_values`), and the ops (`MADE_AGAIN`) made again inside; None when
    a value can be neither."""
    made: dict[Operation, None] = {}
    for o in loop.body.walk():
        for v in o.operands:
            if isinstance(v.owner, MADE_AGAIN) and not loop.is_ancestor(v.owner):
                made.setdefault(v.owner)
    passed = [v for v in captured_values(loop) if not isinstance(v.owner, MADE_AGAIN)]
    if not all(passable(v.type) for v in passed):
        return None
    return passed, list(made)


def outline_items(fn: func.FuncOp, loop: scf.ParallelOp, name: str) -> func.FuncOp | None:
    """`loop`'s body moved into a new function `name` (private, with `fn`'s attributes),
    the body calling it; None where the loop reduces into results or its body reads
    something that cannot be passed."""
    found = reads_from_outside(loop)
    if found is None or loop.results:
        return None
    passed, made = found
    body = loop.body.block
    indices = list(body.args)
    block = Block(arg_types=[a.type for a in (*indices, *passed)])
    given: dict[SSAValue, SSAValue] = dict(zip((*indices, *passed), block.args))
    for outside, arg in given.items():
        arg.name_hint = outside.name_hint
    for o in made:
        again = o.clone()
        block.add_op(again)
        given.update(zip(o.results, again.results))
    for o in list(body.ops)[:-1]:  # all but the terminator
        o.detach()
        block.add_op(o)
    block.add_op(func.ReturnOp())
    for o in block.walk():
        for i, v in enumerate(o.operands):
            if v in given:
                o.operands[i] = given[v]
    item = func.FuncOp(name, ([a.type for a in block.args], []), Region(block), "private")
    for key, value in fn.attributes.items():
        if key not in item.attributes:
            item.attributes[key] = value
    assert body.last_op is not None
    body.insert_op_before(func.CallOp(name, [*indices, *passed], []), body.last_op)
    return item


def any_parallel_above(o: Operation) -> bool:
    """Whether `o` lies in an `scf.parallel`'s body (which is outlined whole)."""
    p = o.parent_op()
    while p is not None:
        if isinstance(p, scf.ParallelOp):
            return True
        p = p.parent_op()
    return False


@dataclass(frozen=True)
class OutlineParallelItemsPass(ModulePass):
    """
    Each `scf.parallel`'s body (a program's items on threads) as a private function the
    loop calls, so that its site's buffers are its function's entry allocas.
    """

    name = "outline-parallel-items"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in list(op.ops):
            if not isinstance(fn, func.FuncOp):
                continue
            loops = [
                o for o in fn.walk() if isinstance(o, scf.ParallelOp) and not any_parallel_above(o)
            ]
            for n, loop in enumerate(loops):
                name = f"{fn.sym_name.data}__item{n}"
                if SymbolTable.lookup_symbol(op, name) is not None:
                    continue  # (a name taken: the loop stays as it is)
                item = outline_items(fn, loop, name)
                if item is not None:
                    op.body.block.add_op(item)
