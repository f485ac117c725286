"""
The native engine's `cf.assert`s: checked before each call, on the host, by the kernels
the other engines run them with, and taken out of the code upstream MLIR compiles.

```python
checks = assert_checks(fn)       # @fn__asserts: what the asserts read, and the asserts
strip_asserts(outlined.module)   # the native code holds none
exe = compile_function(checks)   # each call: exe(*arrays) first; a false one is a KernelError
```

torch-mlir writes a `cf.assert` for each bound a Hugging Face export checks: in the
embedding's gathering `linalg.generic`, a token id below the vocabulary and not
negative; at the top of a function, each bound `torch._check` states (a KV cache's
write position). Upstream MLIR lowers `cf.assert` (`convert-cf-to-llvm`) to a call of
`abort`: a bad token would end the user's process. Compiled code that recorded a
failure in a status flag instead would go on past it, its gather reading outside the
table and its cache write landing outside the cache, before the flag was read. Every
such assert checks the function's inputs, through a few scalar or elementwise ops: so
the engine runs those ops and the asserts first, with the compiled engine's kernels
(`interpreters/cf.py` is the one rule: the same message, naming `cf.assert`, on every
engine), and calls the machine code only when all hold. For a window of tokens this
is a few microseconds of numpy; the code itself never checks.

What an assert's condition reads must come from the function's arguments through ops
that stay in the entry (`outline_kernels.stays_in_entry`: constants, scalar ops,
reshapes, a scalar `tensor.extract`) or through the body of the generic that holds it
(its inputs, the values it captures). An assert whose condition reads a value another
op computes (a product, another generic) or its generic's output, or one inside a
generic with reduction loops, is refused when the function is prepared, naming it.
"""

from __future__ import annotations

from xdsl.dialects import arith, cf, func, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter

from xdsl_spatial.core.ir_io import op_text
from xdsl_spatial.passes.outline_kernels import stays_in_entry


class AssertError(Exception):
    """A `cf.assert` the native engine cannot check before the call; names it."""


def _refuse(at: cf.AssertOp, why: str) -> AssertError:
    return AssertError(f'cf.assert "{at.msg.data}": cannot run natively: {why}')


def _body_slice(
    g: GenericOp, asserts: list[cf.AssertOp]
) -> tuple[set[Operation], set[int], list[SSAValue]]:
    """The ops of `g`'s body the asserts need (the asserts included), the indices of
    its block arguments they read, and the values from outside `g` they read."""
    body = g.body.block
    ops: set[Operation] = set(asserts)
    args: set[int] = set()
    outer: list[SSAValue] = []
    work: list[SSAValue] = [a.arg for a in asserts]
    while work:
        v = work.pop()
        if isinstance(v, BlockArgument):
            if v.block is body:
                args.add(v.index)
            elif v not in outer:
                outer.append(v)
        elif (op := v.owner) and isinstance(op, Operation) and op.parent is body:
            if op not in ops:
                ops.add(op)
                work.extend(op.operands)
        elif v not in outer:
            outer.append(v)
    return ops, args, outer


def _pruned(
    g: GenericOp, ops: set[Operation], args: set[int], mapping: dict[SSAValue, SSAValue]
) -> list[Operation]:
    """`g` reading only the inputs the asserts need (`args`: none of its outputs),
    computing only their slice of its body and yielding its outputs unchanged (fresh
    empty tensors of their types)."""
    n_in = len(g.inputs)
    keep = sorted(args)
    body = g.body.block
    empties = [tensor.EmptyOp([], o.type) for o in g.outputs]
    block = Block(
        arg_types=[body.args[i].type for i in keep]
        + [body.args[n_in + j].type for j in range(len(g.outputs))]
    )
    inner = dict(mapping)
    for new, i in zip(block.args, keep):
        inner[body.args[i]] = new
    for j in range(len(g.outputs)):
        inner[body.args[n_in + j]] = block.args[len(keep) + j]
    for o in body.ops:
        if o in ops:
            block.add_op(o.clone(value_mapper=inner))
    block.add_op(YieldOp(*block.args[len(keep) :]))
    maps = [g.indexing_maps.data[i] for i in keep] + list(g.indexing_maps.data[n_in:])
    gen = GenericOp(
        [mapping[g.inputs[i]] for i in keep],
        [e.tensor for e in empties],
        Region(block),
        maps,
        g.iterator_types,
        [o.type for o in g.outputs],
    )
    return [*empties, gen]


def assert_checks(fn: func.FuncOp) -> func.FuncOp | None:
    """`@NAME__asserts`: `fn`'s arguments, the ops its asserts' conditions need and the
    asserts (those in a generic's body kept in a copy of the generic that computes
    nothing else), returning nothing; None when `fn` holds no `cf.assert`. An
    `AssertError` for an assert that cannot be checked so (see the module docstring)."""
    top = fn.body.block
    holders: dict[GenericOp, list[cf.AssertOp]] = {}
    tops: list[cf.AssertOp] = []
    for a in fn.walk():
        if not isinstance(a, cf.AssertOp):
            continue
        where = a.parent_op()
        if where is fn:
            tops.append(a)
        elif isinstance(where, GenericOp) and where.parent_op() is fn:
            if any(t.data != IteratorType.PARALLEL for t in where.iterator_types):
                raise _refuse(a, f"it is in {where.name} with reduction loops")
            holders.setdefault(where, []).append(a)
        else:
            raise _refuse(a, f"it is inside {where.name if where else 'nothing'}")
    if not tops and not holders:
        return None
    needed: set[Operation] = set(tops)
    slices: dict[GenericOp, tuple[set[Operation], set[int]]] = {}
    work: list[tuple[SSAValue, cf.AssertOp]] = [(a.arg, a) for a in tops]
    for g, asserts in holders.items():
        ops, args, outer = _body_slice(g, asserts)
        if any(i >= len(g.inputs) for i in args):
            raise _refuse(asserts[0], f"its condition reads the output of {g.name}")
        slices[g] = (ops, args)
        work.extend((g.inputs[i], asserts[0]) for i in args)
        work.extend((v, asserts[0]) for v in outer)
    while work:
        v, why = work.pop()
        if isinstance(v, BlockArgument) and v.block is top:
            continue
        op = v.owner
        assert isinstance(op, Operation)
        if op in needed:
            continue
        if not (isinstance(op, arith.ConstantOp) or stays_in_entry(op)):
            raise _refuse(
                why,
                f"its condition reads {op.name}'s result, and the engine checks an assert "
                f"before the call, over the function's arguments ({op_text(op)[:100]})",
            )
        needed.add(op)
        work.extend((u, why) for u in op.operands)
    block = Block(arg_types=fn.function_type.inputs)
    mapping: dict[SSAValue, SSAValue] = dict(zip(top.args, block.args))
    for op in top.ops:
        if op in needed:
            clone = op.clone(value_mapper=mapping)
            block.add_op(clone)
            mapping.update(zip(op.results, clone.results))
        elif isinstance(op, GenericOp) and op in slices:
            block.add_ops(_pruned(op, *slices[op], mapping))
    block.add_op(func.ReturnOp())
    checks = func.FuncOp(
        f"{fn.sym_name.data}__asserts", (fn.function_type.inputs.data, []), Region(block)
    )
    ModuleOp([checks])  # a parent, as the compiled engine reads a function in a module
    return checks


def strip_asserts(module: ModuleOp) -> None:
    """Every `cf.assert` in `module` erased, with the ops that only computed its
    condition (the checks before the call stand for them)."""
    for a in [o for o in module.walk() if isinstance(o, cf.AssertOp)]:
        dead: list[Operation] = [a]
        while dead:
            op = dead.pop()
            if op.parent is None:
                continue
            made = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
            Rewriter.erase_op(op)
            for m in made:
                if (
                    m.parent is not None
                    and not m.regions
                    and all(r.first_use is None for r in m.results)
                    and _pure(m)
                ):
                    dead.append(m)


def _pure(op: Operation) -> bool:
    """An op that only computes its results (no effect), so erasing it unused is safe."""
    return op.dialect_name() in ("arith", "math") or isinstance(
        op, (IndexOp, tensor.ExtractOp, tensor.EmptyOp)
    )
